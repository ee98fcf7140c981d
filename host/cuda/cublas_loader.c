/* simtlab host library, CUDA build only — cuBLAS loaded on first use.
 *
 * The CUDA build's programs (every chapter's example, test and bench) call
 * a handful of cuBLAS functions for their vendor columns and references.
 * Linked the ordinary way, libcublas.so brings libcublasLt.so, whose start-up
 * code runs in every process before main: about 0.1 s of CPU and 100 MB of
 * memory touched, in each of the hundreds of processes a test run starts
 * (Criterion runs every test case in a process of its own), even where no
 * GPU is present and no test calls cuBLAS. So the programs do not link
 * cuBLAS: each function below loads it with dlopen when it is first called,
 * and forwards to the library's own. A program that never calls cuBLAS
 * never loads it.
 *
 * The library is looked up by its soname first (LD_LIBRARY_PATH, the
 * loader's cache), then at the path the build found
 * (SIMTLAB_CUBLAS_LIBRARY). If neither loads, each call returns
 * CUBLAS_STATUS_NOT_INITIALIZED and cublasGetStatusString says why.
 *
 * A cuBLAS function the project starts to call must be added here: until
 * it is, the CUDA build's link fails naming it. */
#include <cublas_v2.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#ifndef SIMTLAB_CUBLAS_LIBRARY
#define SIMTLAB_CUBLAS_LIBRARY ""
#endif

#define SL_STR2(x) #x
#define SL_STR(x) SL_STR2(x)

static void *cublas_lib;
static char cublas_error[768];
static pthread_once_t cublas_once = PTHREAD_ONCE_INIT;

static void cublas_load(void)
{
    const char *soname = "libcublas.so." SL_STR(CUBLAS_VER_MAJOR);
    cublas_lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (cublas_lib) return;
    char first[384];
    const char *why = dlerror();
    snprintf(first, sizeof first, "%s", why ? why : soname);
    if (SIMTLAB_CUBLAS_LIBRARY[0]) {
        cublas_lib = dlopen(SIMTLAB_CUBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        if (cublas_lib) return;
        why = dlerror();
        snprintf(cublas_error, sizeof cublas_error, "cuBLAS could not be loaded: %s; %s", first,
                 why ? why : SIMTLAB_CUBLAS_LIBRARY);
    } else {
        snprintf(cublas_error, sizeof cublas_error, "cuBLAS could not be loaded: %s", first);
    }
}

/* The library's own function `name`, or NULL (cublas_error says why). */
static void *cublas_sym(const char *name)
{
    pthread_once(&cublas_once, cublas_load);
    if (!cublas_lib) return NULL;
    void *fn = dlsym(cublas_lib, name);
    if (!fn) snprintf(cublas_error, sizeof cublas_error, "cuBLAS has no function %s", name);
    return fn;
}

/* Declares `fn`, of the type of `name`, found on the first call: a call
 * that cannot be forwarded returns CUBLAS_STATUS_NOT_INITIALIZED. The
 * pointer is written once and then only read; a race between two first
 * calls writes the same value twice. */
#define SL_CUBLAS_FORWARD(name)                                                                                 \
    static __typeof__(&name) fn;                                                                              \
    if (!__atomic_load_n(&fn, __ATOMIC_ACQUIRE)) {                                                            \
        __typeof__(&name) found = (__typeof__(&name))cublas_sym(#name);                                      \
        if (!found) return CUBLAS_STATUS_NOT_INITIALIZED;                                                     \
        __atomic_store_n(&fn, found, __ATOMIC_RELEASE);                                                       \
    }

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t *handle)
{
    SL_CUBLAS_FORWARD(cublasCreate_v2)
    return fn(handle);
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle)
{
    SL_CUBLAS_FORWARD(cublasDestroy_v2)
    return fn(handle);
}

cublasStatus_t CUBLASWINAPI cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha, const float *x,
                                           int incx, float *y, int incy)
{
    SL_CUBLAS_FORWARD(cublasSaxpy_v2)
    return fn(handle, n, alpha, x, incx, y, incy);
}

cublasStatus_t CUBLASWINAPI cublasSasum_v2(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    SL_CUBLAS_FORWARD(cublasSasum_v2)
    return fn(handle, n, x, incx, result);
}

cublasStatus_t CUBLASWINAPI cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                           int m, int n, int k, const float *alpha, const float *A, int lda,
                                           const float *B, int ldb, const float *beta, float *C, int ldc)
{
    SL_CUBLAS_FORWARD(cublasSgemm_v2)
    return fn(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                         int lda, const void *B, cudaDataType Btype, int ldb, const void *beta,
                                         void *C, cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                         cublasGemmAlgo_t algo)
{
    SL_CUBLAS_FORWARD(cublasGemmEx)
    return fn(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
              computeType, algo);
}

/* The status texts: the library's, or, where it could not be loaded, the
 * name of the status and the reason it could not. */
static const char *status_name(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}

const char *CUBLASWINAPI cublasGetStatusName(cublasStatus_t status)
{
    const char *(*fn)(cublasStatus_t) = (const char *(*)(cublasStatus_t))cublas_sym("cublasGetStatusName");
    return fn ? fn(status) : status_name(status);
}

const char *CUBLASWINAPI cublasGetStatusString(cublasStatus_t status)
{
    const char *(*fn)(cublasStatus_t) = (const char *(*)(cublasStatus_t))cublas_sym("cublasGetStatusString");
    return fn ? fn(status) : cublas_error;
}
