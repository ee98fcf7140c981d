/* simtlab CPU emulator — the cuBLAS subset simtlab uses, for C and C++.
 *
 * Names, signatures and enum values follow cuBLAS 13 (cublas_api.h and
 * library_types.h of the CUDA toolkit), so host code compiles unchanged
 * against either backend. The emulator runs each call on the host's
 * OpenBLAS (emu/src/libs/cublas/cublas.cpp): results are what a correct BLAS gives,
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
/* library_types.h's values; the emulator computes with the real
 * floating-point ones (16F, 16BF, 32F, 64F). */
typedef enum cudaDataType_t {
    CUDA_R_32F = 0,
    CUDA_R_64F = 1,
    CUDA_R_16F = 2,
    CUDA_R_8I = 3,
    CUDA_C_32F = 4,
    CUDA_C_64F = 5,
    CUDA_C_16F = 6,
    CUDA_C_8I = 7,
    CUDA_R_8U = 8,
    CUDA_C_8U = 9,
    CUDA_R_32I = 10,
    CUDA_C_32I = 11,
    CUDA_R_32U = 12,
    CUDA_C_32U = 13,
    CUDA_R_16BF = 14,
    CUDA_C_16BF = 15
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

typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;

typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;

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

/* ---- moving data (the host side is host memory; elemSize bytes each) ----- */
/* n elements of x (host, stride incx) to y (device, stride incy), and back;
 * the Async forms run at the call, which is stream order. */
cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy);
cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr, int incy,
                                    cudaStream_t stream);
cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr, int incy,
                                    cudaStream_t stream);
/* rows x cols column-major, from A (ld lda) to B (ld ldb). */
cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb);
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream);
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream);

/* ---- level 1 (negative increments walk the vector backwards, as in BLAS) -- */
cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float *alpha, const float *x, int incx, float *y,
                           int incy);
cublasStatus_t cublasDaxpy(cublasHandle_t handle, int n, const double *alpha, const double *x, int incx, double *y,
                           int incy);
cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
cublasStatus_t cublasDscal(cublasHandle_t handle, int n, const double *alpha, double *x, int incx);
cublasStatus_t cublasScopy(cublasHandle_t handle, int n, const float *x, int incx, float *y, int incy);
cublasStatus_t cublasDcopy(cublasHandle_t handle, int n, const double *x, int incx, double *y, int incy);
cublasStatus_t cublasSswap(cublasHandle_t handle, int n, float *x, int incx, float *y, int incy);
cublasStatus_t cublasDswap(cublasHandle_t handle, int n, double *x, int incx, double *y, int incy);
cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float *x, int incx, const float *y, int incy,
                          float *result);
cublasStatus_t cublasDdot(cublasHandle_t handle, int n, const double *x, int incx, const double *y, int incy,
                          double *result);
cublasStatus_t cublasSnrm2(cublasHandle_t handle, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDnrm2(cublasHandle_t handle, int n, const double *x, int incx, double *result);
cublasStatus_t cublasSasum(cublasHandle_t handle, int n, const float *x, int incx, float *result);
cublasStatus_t cublasDasum(cublasHandle_t handle, int n, const double *x, int incx, double *result);
/* 1-based index of the first element of largest (smallest) |x_i|, as cuBLAS
 * (0 when n <= 0 or incx <= 0). */
cublasStatus_t cublasIsamax(cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t cublasIdamax(cublasHandle_t handle, int n, const double *x, int incx, int *result);
cublasStatus_t cublasIsamin(cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t cublasIdamin(cublasHandle_t handle, int n, const double *x, int incx, int *result);
/* (x_i, y_i) <- (c x_i + s y_i, c y_i - s x_i) */
cublasStatus_t cublasSrot(cublasHandle_t handle, int n, float *x, int incx, float *y, int incy, const float *c,
                          const float *s);
cublasStatus_t cublasDrot(cublasHandle_t handle, int n, double *x, int incx, double *y, int incy, const double *c,
                          const double *s);

/* ---- level 2 ----------------------------------------------------------- */
/* y = alpha * op(A) x + beta * y, A m x n (column-major), op(A) A or its
 * transpose; x has n elements (m when transposed), y m (n). */
cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha,
                           const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy);
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha,
                           const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                           int incy);
/* A = alpha x y^T + A, A m x n. */
cublasStatus_t cublasSger(cublasHandle_t handle, int m, int n, const float *alpha, const float *x, int incx,
                          const float *y, int incy, float *A, int lda);
cublasStatus_t cublasDger(cublasHandle_t handle, int m, int n, const double *alpha, const double *x, int incx,
                          const double *y, int incy, double *A, int lda);

/* ---- level 3 ----------------------------------------------------------- */
/* C = alpha * op(A) op(B) + beta * C, op(A) m x k, op(B) k x n, C m x n.
 * Hgemm computes in float and rounds each result to half once (at least as
 * accurate as cuBLAS's half arithmetic). */
cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                           const float *beta, float *C, int ldc);
cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
                           const double *beta, double *C, int ldc);
cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const __half *alpha, const __half *A, int lda, const __half *B, int ldb,
                           const __half *beta, __half *C, int ldc);
/* Types (Atype = Btype): with CUBLAS_COMPUTE_32F (or _PEDANTIC, _FAST_16F,
 * _FAST_16BF, _FAST_TF32) A and B CUDA_R_16F, CUDA_R_16BF or CUDA_R_32F, C
 * CUDA_R_32F or A's type, float alpha and beta; with CUBLAS_COMPUTE_16F (or
 * _PEDANTIC) all CUDA_R_16F with half alpha and beta (computed in float,
 * rounded once); with CUBLAS_COMPUTE_64F (or _PEDANTIC) all CUDA_R_64F with
 * double alpha and beta. In C++ computeType may also be a cudaDataType
 * (CUDA 10's form), mapped as the toolkit's header maps it. */
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
cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double *alpha, const double *A, int lda,
                                         long long int strideA, const double *B, int ldb, long long int strideB,
                                         const double *beta, double *C, int ldc, long long int strideC,
                                         int batchCount);
cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const __half *alpha, const __half *A, int lda,
                                         long long int strideA, const __half *B, int ldb, long long int strideB,
                                         const __half *beta, __half *C, int ldc, long long int strideC,
                                         int batchCount);
/* cublasGemmEx's types, batched as cublasSgemmStridedBatched. */
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo);
/* batchCount GEMMs on matrices Aarray[i], Barray[i], Carray[i]: the arrays
 * of pointers are in device memory, as in cuBLAS. */
cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const float *alpha, const float *const Aarray[], int lda,
                                  const float *const Barray[], int ldb, const float *beta, float *const Carray[],
                                  int ldc, int batchCount);
cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta, double *const Carray[],
                                  int ldc, int batchCount);
cublasStatus_t cublasHgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const __half *alpha, const __half *const Aarray[], int lda,
                                  const __half *const Barray[], int ldb, const __half *beta, __half *const Carray[],
                                  int ldc, int batchCount);
cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *const Aarray[], cudaDataType Atype,
                                   int lda, const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
/* C = alpha op(A) + beta op(B), C m x n. A is not read when alpha is 0, B
 * not when beta is 0 (either may then be NULL); C may be A (with
 * transa = N, ldc = lda) or B (likewise). */
cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const float *alpha, const float *A, int lda, const float *beta, const float *B, int ldb,
                           float *C, int ldc);
cublasStatus_t cublasDgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const double *alpha, const double *A, int lda, const double *beta, const double *B,
                           int ldb, double *C, int ldc);
/* Solves op(A) X = alpha B (side left) or X op(A) = alpha B (right) for X,
 * written over B (m x n); A triangular, m x m (left) or n x n (right). */
cublasStatus_t cublasStrsm(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float *alpha,
                           const float *A, int lda, float *B, int ldb);
cublasStatus_t cublasDtrsm(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double *alpha,
                           const double *A, int lda, double *B, int ldb);


/* The toolkit's cublas_v2.h makes each of these names a macro for its
 * `_v2` symbol; code may call the `_v2` names directly. */
#define cublasCreate_v2 cublasCreate
#define cublasDestroy_v2 cublasDestroy
#define cublasGetVersion_v2 cublasGetVersion
#define cublasSetStream_v2 cublasSetStream
#define cublasGetStream_v2 cublasGetStream
#define cublasSetPointerMode_v2 cublasSetPointerMode
#define cublasGetPointerMode_v2 cublasGetPointerMode
#define cublasSaxpy_v2 cublasSaxpy
#define cublasSscal_v2 cublasSscal
#define cublasScopy_v2 cublasScopy
#define cublasSswap_v2 cublasSswap
#define cublasSdot_v2 cublasSdot
#define cublasSnrm2_v2 cublasSnrm2
#define cublasSasum_v2 cublasSasum
#define cublasSrot_v2 cublasSrot
#define cublasSgemv_v2 cublasSgemv
#define cublasSger_v2 cublasSger
#define cublasSgemm_v2 cublasSgemm
#define cublasStrsm_v2 cublasStrsm
#define cublasIsamax_v2 cublasIsamax
#define cublasIsamin_v2 cublasIsamin
#define cublasDaxpy_v2 cublasDaxpy
#define cublasDscal_v2 cublasDscal
#define cublasDcopy_v2 cublasDcopy
#define cublasDswap_v2 cublasDswap
#define cublasDdot_v2 cublasDdot
#define cublasDnrm2_v2 cublasDnrm2
#define cublasDasum_v2 cublasDasum
#define cublasDrot_v2 cublasDrot
#define cublasDgemv_v2 cublasDgemv
#define cublasDger_v2 cublasDger
#define cublasDgemm_v2 cublasDgemm
#define cublasDtrsm_v2 cublasDtrsm
#define cublasIdamax_v2 cublasIdamax
#define cublasIdamin_v2 cublasIdamin

#ifdef __cplusplus
} /* extern "C" */

/* CUDA 10's GEMM calls gave a cudaDataType as the compute type; the
 * toolkit's C++ header keeps overloads for them that map the type to a
 * compute type (its _PEDANTIC form under CUBLAS_PEDANTIC_MATH). In C such a
 * call is refused with a diagnostic that says so. */
namespace simtlab_emu {
cublasStatus_t cublas_compute_from_data_type(cublasHandle_t handle, cudaDataType type, cublasComputeType_t *compute);
}

inline cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                                   const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
                                   cudaDataType Ctype, int ldc, cudaDataType computeType, cublasGemmAlgo_t algo)
{
    cublasComputeType_t compute;
    cublasStatus_t st = simtlab_emu::cublas_compute_from_data_type(handle, computeType, &compute);
    return st != CUBLAS_STATUS_SUCCESS ? st
                                       : cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype,
                                                      ldb, beta, C, Ctype, ldc, compute, algo);
}

inline cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *const Aarray[],
                                          cudaDataType Atype, int lda, const void *const Barray[], cudaDataType Btype,
                                          int ldb, const void *beta, void *const Carray[], cudaDataType Ctype,
                                          int ldc, int batchCount, cudaDataType computeType, cublasGemmAlgo_t algo)
{
    cublasComputeType_t compute;
    cublasStatus_t st = simtlab_emu::cublas_compute_from_data_type(handle, computeType, &compute);
    return st != CUBLAS_STATUS_SUCCESS
               ? st
               : cublasGemmBatchedEx(handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray, Btype, ldb,
                                     beta, Carray, Ctype, ldc, batchCount, compute, algo);
}

inline cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                                 cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                                 const void *A, cudaDataType Atype, int lda, long long int strideA,
                                                 const void *B, cudaDataType Btype, int ldb, long long int strideB,
                                                 const void *beta, void *C, cudaDataType Ctype, int ldc,
                                                 long long int strideC, int batchCount, cudaDataType computeType,
                                                 cublasGemmAlgo_t algo)
{
    cublasComputeType_t compute;
    cublasStatus_t st = simtlab_emu::cublas_compute_from_data_type(handle, computeType, &compute);
    return st != CUBLAS_STATUS_SUCCESS
               ? st
               : cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype,
                                            ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, compute, algo);
}
#endif

#endif /* SIMTLAB_EMU_CUBLAS_API_H */
