/* simtlab CPU emulator — the cuBLAS subset simtlab uses, for C and C++.
 *
 * Names, signatures and enum values follow cuBLAS 13 (cublas_api.h and
 * library_types.h of the CUDA toolkit), so host code compiles unchanged
 * against either backend. The emulator runs each call on the host's
 * OpenBLAS (emu/src/cublas.cpp): results are what a correct BLAS gives,
 * and timings are CPU timings, never GPU ones.
 *
 * Matrices are column-major, as in cuBLAS. alpha, beta and results are host
 * pointers (CUBLAS_POINTER_MODE_HOST, the default; the device mode is not
 * supported). Matrix and vector arguments must be device memory from
 * cudaMalloc: anything else is CUBLAS_STATUS_INVALID_VALUE with a diagnostic
 * (simtlab_emu_last_diagnostic()).
 */
#ifndef SIMTLAB_EMU_CUBLAS_API_H
#define SIMTLAB_EMU_CUBLAS_API_H
/* The toolkit's own guard: code such as cuda-samples' helper_cuda.h tests
 * it to declare its cuBLAS error-string helpers. */
#define CUBLAS_API_H_

#include <cuda_runtime_api.h>
/* As in the toolkit, the cuBLAS headers bring in the half and bfloat16
 * types: code that includes only <cublas_v2.h> or <cublasLt.h> may use
 * half and __nv_bfloat16. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* The cuBLAS version the emulator mimics (13.0.0, shipped with CUDA 13.0). */
#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 0
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library_types.h: element types ---------------------------------- */
#ifndef SIMTLAB_EMU_LIBRARY_TYPES
#define SIMTLAB_EMU_LIBRARY_TYPES 1
typedef enum cudaDataType_t {
    CUDA_R_32F = 0,
    CUDA_R_64F = 1,
    CUDA_R_16F = 2,
    CUDA_R_8I = 3,
    CUDA_R_32I = 10,
    CUDA_R_16BF = 14
} cudaDataType;
typedef enum cudaDataType_t cudaDataType_t;
#endif
typedef cudaDataType cublasDataType_t;

typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum {
    CUBLAS_OP_N = 0,
    CUBLAS_OP_T = 1,
    CUBLAS_OP_C = 2 /* for real types, the same as CUBLAS_OP_T */
} cublasOperation_t;

typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;

typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;

typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3
} cublasMath_t;

typedef enum {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_16F_PEDANTIC = 65,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_64F_PEDANTIC = 71,
    CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32I_PEDANTIC = 73,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77
} cublasComputeType_t;

/* Algorithms are hints; the emulator accepts and ignores them. */
typedef enum {
    CUBLAS_GEMM_DEFAULT = -1,
    CUBLAS_GEMM_DFALT = -1,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
    CUBLAS_GEMM_DFALT_TENSOR_OP = 99
} cublasGemmAlgo_t;

typedef struct simtlab_emu_cublas_context *cublasHandle_t;

/* ---- the handle -------------------------------------------------------- */
cublasStatus_t cublasCreate(cublasHandle_t *handle);
cublasStatus_t cublasDestroy(cublasHandle_t handle);
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version);
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t streamId);
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId);
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);

/* ---- level 1 ----------------------------------------------------------- */
cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float *alpha, const float *x, int incx, float *y,
                           int incy);
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float *x, int incx, const float *y, int incy,
                          float *result);
cublasStatus_t cublasSasum(cublasHandle_t handle, int n, const float *x, int incx, float *result);
/* 1-based index of the first element of largest |x_i|, as cuBLAS (0 when n <= 0). */
cublasStatus_t cublasIsamax(cublasHandle_t handle, int n, const float *x, int incx, int *result);

/* ---- level 2 ----------------------------------------------------------- */
/* y = alpha * op(A) x + beta * y, A m x n (column-major), op(A) A or its
 * transpose; x has n elements (m when transposed), y m (n). */
cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha,
                           const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy);
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha,
                           const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                           int incy);

/* ---- level 3 ----------------------------------------------------------- */
/* C = alpha * op(A) op(B) + beta * C, op(A) m x k, op(B) k x n, C m x n. */
cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                           const float *beta, float *C, int ldc);
/* A and B: CUDA_R_16F, CUDA_R_16BF or CUDA_R_32F (the same for both); C:
 * CUDA_R_32F or A's type; compute: CUBLAS_COMPUTE_32F (or _PEDANTIC,
 * _FAST_TF32), with float alpha and beta. */
cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo);
/* batchCount GEMMs; matrix i of A starts at A + i * strideA (elements), and
 * so on for B and C. */
cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb, long long int strideB,
                                         const float *beta, float *C, int ldc, long long int strideC, int batchCount);
/* cublasGemmEx's types, batched as cublasSgemmStridedBatched. */
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMTLAB_EMU_CUBLAS_API_H */
