/* simtlab CPU emulator — what libs/cublas/cublas.cpp shares with libs/cublaslt/cublaslt.cpp: argument
 * checks with their diagnostics, and the conversions between the stored
 * element types (float, half, bfloat16) and float. */
#ifndef SIMTLAB_EMU_CUBLAS_INTERNAL_HPP
#define SIMTLAB_EMU_CUBLAS_INTERNAL_HPP

#include <cublas_api.h>

#include <cblas.h>

#include <cstddef>
#include <vector>

namespace simtlab_emu {
namespace blas {

/* Set the diagnostic and return CUBLAS_STATUS_INVALID_VALUE, or
 * CUBLAS_STATUS_NOT_SUPPORTED: a call that cuBLAS would run but the
 * emulator does not. */
cublasStatus_t invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
cublasStatus_t not_supported(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Elements spanned by a column-major rows x cols matrix with leading
 * dimension ld (0 when it is empty). */
std::size_t matrix_extent(int rows, int cols, int ld);
/* ... and by `count` such matrices `stride` (>= 0) elements apart. */
std::size_t batch_extent(std::size_t one, long long stride, int count);

/* `elements` of `elem_bytes` each at p lie in one device allocation; the
 * diagnostic names "<api> <name>". */
cublasStatus_t check_device(const void *p, std::size_t elements, std::size_t elem_bytes, const char *api,
                            const char *name);

/* A host-mode scalar: present and not in device memory. */
cublasStatus_t check_host_scalar(const void *p, const char *api, const char *name);

/* A live handle in a usable context. */
cublasStatus_t check_handle(cublasHandle_t h, const char *api);
/* Elements spanned by n elements inc apart (either sign). */
std::size_t vector_extent(int n, int inc);

/* The shape of one GEMM, in the terms of the stored matrices. */
struct gemm_shape {
    int rows_a, cols_a, rows_b, cols_b;
};
/* transa/transb, m, n, k, lda, ldb, ldc as cuBLAS checks them. */
cublasStatus_t check_gemm(const char *api, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                          int lda, int ldb, int ldc, gemm_shape *shape);
/* A strided batch of GEMMs (count 1, strides 0: one GEMM). */
struct gemm_batch {
    long long stride_a, stride_b, stride_c;
    int count;
};
cublasStatus_t check_batch(const char *api, const gemm_batch &b);
/* Every matrix of the batch inside one allocation. */
cublasStatus_t check_gemm_memory(const char *api, const gemm_shape &s, int m, int n, int k, const void *A, int lda,
                                 const void *B, int ldb, const void *C, int ldc, std::size_t ab_bytes,
                                 std::size_t c_bytes, const gemm_batch &batch = {0, 0, 0, 1});

bool valid_op(cublasOperation_t op);
CBLAS_TRANSPOSE to_cblas(cublasOperation_t op);

/* CUBLAS_COMPUTE_32F and the variants the emulator computes in float. */
bool float_compute(cublasComputeType_t compute);

/* Bytes of one element of CUDA_R_64F, CUDA_R_32F, CUDA_R_16F or CUDA_R_16BF. */
std::size_t type_bytes(cudaDataType t);
/* Element i of an array of one of those types, and its store (v rounded
 * once, to nearest even). */
float element_to_float(const void *base, std::size_t i, cudaDataType t);
double element_to_double(const void *base, std::size_t i, cudaDataType t); /* CUDA_R_64F too, exact */
void store_element(void *base, std::size_t i, cudaDataType t, double v);

} /* namespace blas */
} /* namespace simtlab_emu */

#endif
