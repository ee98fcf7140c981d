/* simtlab CPU emulator — cuBLAS on the host's OpenBLAS.
 *
 * Each call validates its arguments as cuBLAS does (sizes, leading
 * dimensions, operations), then checks what cuBLAS cannot: that every
 * matrix and vector lies inside one live device allocation, whole, and that
 * the host-mode scalars are not device pointers. Then it opens those
 * allocations (device memory is inaccessible to the host between
 * launches), runs the CBLAS routine on them, and closes them again.
 *
 * cublasGemmEx with half or bfloat16 inputs converts them to float (exact)
 * and calls cblas_sgemm: the products are exact, the sums are float sums,
 * which is what CUBLAS_COMPUTE_32F promises.
 */
#include "cublas_internal.hpp"
#include "runtime_internal.hpp"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cblas.h>

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <new>
#include <unordered_set>
#include <vector>

struct simtlab_emu_cublas_context {
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
};

namespace simtlab_emu {
namespace {

std::mutex handles_lock;
std::unordered_set<cublasHandle_t> handles;

struct status_info {
    cublasStatus_t code;
    const char *name;
    const char *text;
};
const status_info status_table[] = {
    {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS", "success"},
    {CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED", "the library was not initialized"},
    {CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED", "the resource allocation failed"},
    {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE", "an invalid numeric value was used as an argument"},
    {CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH", "an absent device architectural feature is required"},
    {CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed"},
    {CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED", "the GPU program failed to execute"},
    {CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal operation failed"},
    {CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED", "the functionality requested is not supported"},
    {CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR", "the functionality requested requires some license"},
};

const status_info *find_status(cublasStatus_t s)
{
    for (const status_info &e : status_table)
        if (e.code == s)
            return &e;
    return nullptr;
}

} /* namespace */

/* The helpers below are shared with cublaslt.cpp (cublas_internal.hpp). */
namespace blas {

static cublasStatus_t diagnosed(cublasStatus_t status, const char *fmt, va_list ap)
{
    char text[1024];
    std::vsnprintf(text, sizeof text, fmt, ap);
    set_diagnostic(text);
    return status;
}

cublasStatus_t invalid(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cublasStatus_t st = diagnosed(CUBLAS_STATUS_INVALID_VALUE, fmt, ap);
    va_end(ap);
    return st;
}

cublasStatus_t not_supported(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cublasStatus_t st = diagnosed(CUBLAS_STATUS_NOT_SUPPORTED, fmt, ap);
    va_end(ap);
    return st;
}

/* A live handle in a usable context. */
cublasStatus_t check_handle(cublasHandle_t h, const char *api)
{
    {
        std::lock_guard<std::mutex> hold(handles_lock);
        if (!h || !handles.count(h)) {
            runtime::diagnose("%s: handle 0x%" PRIxPTR " is not a live cuBLAS handle (call cublasCreate first)", api,
                              reinterpret_cast<std::uintptr_t>(h));
            return CUBLAS_STATUS_NOT_INITIALIZED;
        }
    }
    if (cudaError_t e = sticky_error()) {
        runtime::diagnose("%s: the CUDA context is poisoned by an earlier %s", api, cudaGetErrorName(e));
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Elements spanned by a column-major rows x cols matrix with leading
 * dimension ld, and by a strided vector. */
std::size_t matrix_extent(int rows, int cols, int ld)
{
    if (rows == 0 || cols == 0)
        return 0;
    return static_cast<std::size_t>(ld) * static_cast<std::size_t>(cols - 1) + static_cast<std::size_t>(rows);
}

std::size_t vector_extent(int n, int inc)
{
    std::size_t step = static_cast<std::size_t>(inc < 0 ? -static_cast<long>(inc) : inc);
    return n <= 0 ? 0 : 1 + static_cast<std::size_t>(n - 1) * step;
}

/* `elements` of `elem_bytes` each at p must lie in one device allocation. */
cublasStatus_t check_device(const void *p, std::size_t elements, std::size_t elem_bytes, const char *api,
                            const char *name)
{
    if (elements == 0)
        return CUBLAS_STATUS_SUCCESS;
    char what[128];
    std::snprintf(what, sizeof what, "%s %s", api, name);
    if (!p)
        return invalid("%s is NULL", what);
    if (runtime::check_device_range(p, elements * elem_bytes, what) != cudaSuccess)
        return CUBLAS_STATUS_INVALID_VALUE; /* the diagnostic is set */
    return CUBLAS_STATUS_SUCCESS;
}

/* A host-mode scalar or result: present and not in device memory. */
cublasStatus_t check_host_scalar(const void *p, const char *api, const char *name)
{
    if (!p)
        return invalid("%s: %s is NULL", api, name);
    if (runtime::locate(p).where != runtime::region::host)
        return invalid("%s: %s 0x%" PRIxPTR " is device memory, but the pointer mode is CUBLAS_POINTER_MODE_HOST: "
                       "pass a host variable",
                       api, name, reinterpret_cast<std::uintptr_t>(p));
    return CUBLAS_STATUS_SUCCESS;
}

bool valid_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

CBLAS_TRANSPOSE to_cblas(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? CblasNoTrans : CblasTrans;
}

/* The shape of one GEMM, in the terms of the stored matrices. */
struct gemm_shape {
    int rows_a, cols_a, rows_b, cols_b;
};

cublasStatus_t check_gemm(const char *api, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                          int lda, int ldb, int ldc, gemm_shape *shape)
{
    if (!valid_op(transa) || !valid_op(transb))
        return invalid("%s: transa/transb must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C (got %d, %d)", api,
                       static_cast<int>(transa), static_cast<int>(transb));
    if (m < 0 || n < 0 || k < 0)
        return invalid("%s: m, n, k must not be negative (got %d, %d, %d)", api, m, n, k);
    shape->rows_a = transa == CUBLAS_OP_N ? m : k;
    shape->cols_a = transa == CUBLAS_OP_N ? k : m;
    shape->rows_b = transb == CUBLAS_OP_N ? k : n;
    shape->cols_b = transb == CUBLAS_OP_N ? n : k;
    if (lda < std::max(1, shape->rows_a))
        return invalid("%s: lda %d is less than the %d rows of the stored A (column-major)", api, lda, shape->rows_a);
    if (ldb < std::max(1, shape->rows_b))
        return invalid("%s: ldb %d is less than the %d rows of the stored B (column-major)", api, ldb, shape->rows_b);
    if (ldc < std::max(1, m))
        return invalid("%s: ldc %d is less than m = %d (column-major)", api, ldc, m);
    return CUBLAS_STATUS_SUCCESS;
}

std::size_t batch_extent(std::size_t one, long long stride, int count)
{
    if (one == 0 || count <= 0)
        return 0;
    return static_cast<std::size_t>(stride) * static_cast<std::size_t>(count - 1) + one;
}

/* A strided batch of GEMMs (count 1, strides 0: one GEMM): every matrix of
 * it inside one allocation. */
struct gemm_batch {
    long long stride_a, stride_b, stride_c;
    int count;
};

cublasStatus_t check_gemm_memory(const char *api, const gemm_shape &s, int m, int n, int k, const void *A, int lda,
                                 const void *B, int ldb, const void *C, int ldc, std::size_t ab_bytes,
                                 std::size_t c_bytes, const gemm_batch &batch = {0, 0, 0, 1})
{
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (m > 0 && n > 0 && k > 0) {
        std::size_t a = batch_extent(matrix_extent(s.rows_a, s.cols_a, lda), batch.stride_a, batch.count);
        std::size_t b = batch_extent(matrix_extent(s.rows_b, s.cols_b, ldb), batch.stride_b, batch.count);
        if ((st = check_device(A, a, ab_bytes, api, "A")) || (st = check_device(B, b, ab_bytes, api, "B")))
            return st;
    }
    return check_device(C, batch_extent(matrix_extent(m, n, ldc), batch.stride_c, batch.count), c_bytes, api, "C");
}

cublasStatus_t check_batch(const char *api, const gemm_batch &b)
{
    if (b.count < 0)
        return invalid("%s: batchCount must not be negative (got %d)", api, b.count);
    if (b.stride_a < 0 || b.stride_b < 0 || b.stride_c < 0)
        return invalid("%s: the emulator needs strideA, strideB, strideC >= 0 (got %lld, %lld, %lld)", api,
                       b.stride_a, b.stride_b, b.stride_c);
    return CUBLAS_STATUS_SUCCESS;
}

std::size_t type_bytes(cudaDataType t)
{
    return t == CUDA_R_32F ? 4 : 2;
}

float element_to_float(const void *base, std::size_t i, cudaDataType t)
{
    if (t == CUDA_R_32F)
        return static_cast<const float *>(base)[i];
    unsigned short bits = static_cast<const unsigned short *>(base)[i];
    return t == CUDA_R_16F ? simtlab_half_bits_to_float(bits) : simtlab_bf16_bits_to_float(bits);
}

void store_element(void *base, std::size_t i, cudaDataType t, double v)
{
    if (t == CUDA_R_32F) {
        static_cast<float *>(base)[i] = static_cast<float>(v);
        return;
    }
    unsigned short bits = t == CUDA_R_16F ? simtlab_half_from_double(v, SIMTLAB_FP_RN)
                                          : simtlab_bf16_from_double(v, SIMTLAB_FP_RN);
    static_cast<unsigned short *>(base)[i] = bits;
}

/* A stored rows x cols matrix of type t, as a packed float matrix (ld = rows). */
std::vector<float> to_float_matrix(const void *p, cudaDataType t, int rows, int cols, int ld)
{
    std::vector<float> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            out[static_cast<std::size_t>(j) * rows + i] =
                element_to_float(p, static_cast<std::size_t>(j) * ld + i, t);
    return out;
}

bool float_compute(cublasComputeType_t compute)
{
    return compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC ||
           compute == CUBLAS_COMPUTE_32F_FAST_16F || compute == CUBLAS_COMPUTE_32F_FAST_16BF ||
           compute == CUBLAS_COMPUTE_32F_FAST_TF32;
}

cublasStatus_t check_gemm_ex_types(const char *api, cudaDataType a, cudaDataType b, cudaDataType c,
                                   cublasComputeType_t compute)
{
    bool input_ok = a == CUDA_R_16F || a == CUDA_R_16BF || a == CUDA_R_32F;
    if (!input_ok || a != b)
        return invalid("%s: Atype %d and Btype %d must be the same type, one of CUDA_R_16F, CUDA_R_16BF, "
                       "CUDA_R_32F",
                       api, static_cast<int>(a), static_cast<int>(b));
    if (c != CUDA_R_32F && c != a)
        return invalid("%s: Ctype %d must be CUDA_R_32F or the same as Atype", api, static_cast<int>(c));
    if (!float_compute(compute))
        return not_supported("%s: computeType %d is not supported by the emulator: it computes in float, for "
                             "CUBLAS_COMPUTE_32F and its _PEDANTIC, _FAST_16F, _FAST_16BF and _FAST_TF32 variants",
                             api, static_cast<int>(compute));
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace blas */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::blas;

extern "C" {

const char *cublasGetStatusName(cublasStatus_t status)
{
    const status_info *s = find_status(status);
    return s ? s->name : "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status)
{
    const status_info *s = find_status(status);
    return s ? s->text : "unknown cuBLAS status";
}

cublasStatus_t cublasCreate(cublasHandle_t *handle)
{
    if (!handle)
        return invalid("cublasCreate: handle is NULL (pass the address of a cublasHandle_t)");
    if (cudaError_t e = sticky_error()) {
        runtime::diagnose("cublasCreate: the CUDA context is poisoned by an earlier %s", cudaGetErrorName(e));
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    cublasHandle_t h = new (std::nothrow)
        simtlab_emu_cublas_context{nullptr, CUBLAS_POINTER_MODE_HOST, CUBLAS_DEFAULT_MATH};
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    std::lock_guard<std::mutex> hold(handles_lock);
    handles.insert(h);
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle)
{
    std::lock_guard<std::mutex> hold(handles_lock);
    if (!handle || !handles.erase(handle)) {
        runtime::diagnose("cublasDestroy: handle 0x%" PRIxPTR " is not a live cuBLAS handle",
                          reinterpret_cast<std::uintptr_t>(handle));
        return CUBLAS_STATUS_NOT_INITIALIZED;
    }
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion(cublasHandle_t handle, int *version)
{
    if (cublasStatus_t st = check_handle(handle, "cublasGetVersion"))
        return st;
    if (!version)
        return invalid("cublasGetVersion: version is NULL");
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t streamId)
{
    if (cublasStatus_t st = check_handle(handle, "cublasSetStream"))
        return st;
    if (validate_stream(streamId, "cublasSetStream") != cudaSuccess)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t *streamId)
{
    if (cublasStatus_t st = check_handle(handle, "cublasGetStream"))
        return st;
    if (!streamId)
        return invalid("cublasGetStream: streamId is NULL");
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode)
{
    if (cublasStatus_t st = check_handle(handle, "cublasSetPointerMode"))
        return st;
    if (mode == CUBLAS_POINTER_MODE_DEVICE) {
        set_diagnostic("cublasSetPointerMode: the emulator supports CUBLAS_POINTER_MODE_HOST only");
        return CUBLAS_STATUS_NOT_SUPPORTED;
    }
    if (mode != CUBLAS_POINTER_MODE_HOST)
        return invalid("cublasSetPointerMode: %d is not a pointer mode", static_cast<int>(mode));
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    if (cublasStatus_t st = check_handle(handle, "cublasGetPointerMode"))
        return st;
    if (!mode)
        return invalid("cublasGetPointerMode: mode is NULL");
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    if (cublasStatus_t st = check_handle(handle, "cublasSetMathMode"))
        return st;
    if (static_cast<unsigned>(mode) > CUBLAS_TF32_TENSOR_OP_MATH)
        return invalid("cublasSetMathMode: %d is not a math mode", static_cast<int>(mode));
    handle->math_mode = mode; /* recorded; the CPU BLAS always computes in float */
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    if (cublasStatus_t st = check_handle(handle, "cublasGetMathMode"))
        return st;
    if (!mode)
        return invalid("cublasGetMathMode: mode is NULL");
    *mode = handle->math_mode;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- level 1 ----------------------------------------------------------- */

cublasStatus_t cublasSaxpy(cublasHandle_t handle, int n, const float *alpha, const float *x, int incx, float *y,
                           int incy)
{
    const char *api = "cublasSaxpy";
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_host_scalar(alpha, api, "alpha")))
        return st;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(float), api, "x")) ||
        (st = check_device(y, vector_extent(n, incy), sizeof(float), api, "y")))
        return st;
    runtime::device_access open(x, y);
    cblas_saxpy(n, *alpha, x, incx, y, incy);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSscal(cublasHandle_t handle, int n, const float *alpha, float *x, int incx)
{
    const char *api = "cublasSscal";
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_host_scalar(alpha, api, "alpha")))
        return st;
    if (n <= 0 || incx <= 0) /* cuBLAS returns at once here */
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(float), api, "x")))
        return st;
    runtime::device_access open(x);
    cblas_sscal(n, *alpha, x, incx);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSdot(cublasHandle_t handle, int n, const float *x, int incx, const float *y, int incy,
                          float *result)
{
    const char *api = "cublasSdot";
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_host_scalar(result, api, "result")))
        return st;
    *result = 0.0f;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(float), api, "x")) ||
        (st = check_device(y, vector_extent(n, incy), sizeof(float), api, "y")))
        return st;
    runtime::device_access open(x, y);
    *result = cblas_sdot(n, x, incx, y, incy);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSasum(cublasHandle_t handle, int n, const float *x, int incx, float *result)
{
    const char *api = "cublasSasum";
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_host_scalar(result, api, "result")))
        return st;
    *result = 0.0f;
    if (n <= 0 || incx <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(float), api, "x")))
        return st;
    runtime::device_access open(x);
    *result = cblas_sasum(n, x, incx);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasIsamax(cublasHandle_t handle, int n, const float *x, int incx, int *result)
{
    const char *api = "cublasIsamax";
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_host_scalar(result, api, "result")))
        return st;
    *result = 0;
    if (n <= 0 || incx <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(float), api, "x")))
        return st;
    runtime::device_access open(x);
    *result = static_cast<int>(cblas_isamax(n, x, incx)) + 1; /* CBLAS counts from 0, cuBLAS from 1 */
    return CUBLAS_STATUS_SUCCESS;
}

} /* extern "C" */

/* ---- level 2 ----------------------------------------------------------- */

namespace {

/* y = alpha * op(A) x + beta * y, A m x n column-major; one body for both
 * precisions, checked as cuBLAS checks them, computed by CBLAS. */
template <class T, class Gemv>
cublasStatus_t gemv(const char *api, cublasHandle_t handle, cublasOperation_t trans, int m, int n, const T *alpha,
                    const T *A, int lda, const T *x, int incx, const T *beta, T *y, int incy, Gemv cblas_gemv)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)))
        return st;
    if (!valid_op(trans))
        return invalid("%s: trans must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C (got %d)", api,
                       static_cast<int>(trans));
    if (m < 0 || n < 0)
        return invalid("%s: m and n must not be negative (got %d, %d)", api, m, n);
    if (lda < std::max(1, m))
        return invalid("%s: lda %d is less than m = %d (column-major)", api, lda, m);
    if (incx == 0 || incy == 0)
        return invalid("%s: incx and incy must not be 0 (got %d, %d)", api, incx, incy);
    if ((st = check_host_scalar(alpha, api, "alpha")) || (st = check_host_scalar(beta, api, "beta")))
        return st;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    const int xlen = trans == CUBLAS_OP_N ? n : m, ylen = trans == CUBLAS_OP_N ? m : n;
    if ((st = check_device(A, matrix_extent(m, n, lda), sizeof(T), api, "A")) ||
        (st = check_device(x, vector_extent(xlen, incx), sizeof(T), api, "x")) ||
        (st = check_device(y, vector_extent(ylen, incy), sizeof(T), api, "y")))
        return st;
    runtime::device_access open(A, x, y);
    cblas_gemv(CblasColMajor, to_cblas(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy);
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace */

extern "C" {

cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha,
                           const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy)
{
    return gemv("cublasSgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, cblas_sgemv);
}

cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha,
                           const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                           int incy)
{
    return gemv("cublasDgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, cblas_dgemv);
}

} /* extern "C" */

/* ---- level 3 ----------------------------------------------------------- */

namespace {

cublasStatus_t sgemm_batched(const char *api, cublasHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, int m, int n, int k, const float *alpha, const float *A,
                             int lda, const float *B, int ldb, const float *beta, float *C, int ldc,
                             const gemm_batch &batch)
{
    gemm_shape s;
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_gemm(api, transa, transb, m, n, k, lda, ldb, ldc, &s)) ||
        (st = check_batch(api, batch)) || (st = check_host_scalar(alpha, api, "alpha")) ||
        (st = check_host_scalar(beta, api, "beta")))
        return st;
    if (m == 0 || n == 0 || batch.count == 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_gemm_memory(api, s, m, n, k, A, lda, B, ldb, C, ldc, sizeof(float), sizeof(float), batch)))
        return st;
    runtime::device_access open(A, B, C);
    for (int i = 0; i < batch.count; ++i)
        cblas_sgemm(CblasColMajor, to_cblas(transa), to_cblas(transb), m, n, k, *alpha, A + i * batch.stride_a, lda,
                    B + i * batch.stride_b, ldb, *beta, C + i * batch.stride_c, ldc);
    return CUBLAS_STATUS_SUCCESS;
}

const void *byte_offset(const void *p, long long elements, std::size_t elem_bytes)
{
    return static_cast<const char *>(p) + elements * static_cast<long long>(elem_bytes);
}

cublasStatus_t gemm_ex_batched(const char *api, cublasHandle_t handle, cublasOperation_t transa,
                               cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *A,
                               cudaDataType Atype, int lda, const void *B, cudaDataType Btype, int ldb,
                               const void *beta, void *C, cudaDataType Ctype, int ldc,
                               cublasComputeType_t computeType, const gemm_batch &batch)
{
    gemm_shape s;
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_gemm_ex_types(api, Atype, Btype, Ctype, computeType)) ||
        (st = check_gemm(api, transa, transb, m, n, k, lda, ldb, ldc, &s)) || (st = check_batch(api, batch)) ||
        (st = check_host_scalar(alpha, api, "alpha")) || (st = check_host_scalar(beta, api, "beta")))
        return st;
    if (m == 0 || n == 0 || batch.count == 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_gemm_memory(api, s, m, n, k, A, lda, B, ldb, C, ldc, type_bytes(Atype), type_bytes(Ctype),
                                batch)))
        return st;
    runtime::device_access open(A, B, C);
    float alpha_f = *static_cast<const float *>(alpha), beta_f = *static_cast<const float *>(beta);
    for (int i = 0; i < batch.count; ++i) {
        const void *Ai = byte_offset(A, i * batch.stride_a, type_bytes(Atype));
        const void *Bi = byte_offset(B, i * batch.stride_b, type_bytes(Btype));
        void *Ci = const_cast<void *>(byte_offset(C, i * batch.stride_c, type_bytes(Ctype)));
        std::vector<float> a, b, c;
        if (k > 0) {
            a = to_float_matrix(Ai, Atype, s.rows_a, s.cols_a, lda);
            b = to_float_matrix(Bi, Btype, s.rows_b, s.cols_b, ldb);
        } else {
            a.assign(1, 0.0f), b.assign(1, 0.0f); /* never read: k == 0 */
        }
        c = to_float_matrix(Ci, Ctype, m, n, ldc);
        cblas_sgemm(CblasColMajor, to_cblas(transa), to_cblas(transb), m, n, k, alpha_f, a.data(),
                    std::max(1, s.rows_a), b.data(), std::max(1, s.rows_b), beta_f, c.data(), m);
        for (int j = 0; j < n; ++j)
            for (int r = 0; r < m; ++r)
                store_element(Ci, static_cast<std::size_t>(j) * ldc + r, Ctype,
                                 c[static_cast<std::size_t>(j) * m + r]);
    }
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace */

extern "C" {

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                           const float *beta, float *C, int ldc)
{
    return sgemm_batched("cublasSgemm", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                         {0, 0, 0, 1});
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb, long long int strideB,
                                         const float *beta, float *C, int ldc, long long int strideC, int batchCount)
{
    return sgemm_batched("cublasSgemmStridedBatched", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
                         C, ldc, {strideA, strideB, strideC, batchCount});
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo; /* a performance hint */
    return gemm_ex_batched("cublasGemmEx", handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb,
                           beta, C, Ctype, ldc, computeType, {0, 0, 0, 1});
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex_batched("cublasGemmStridedBatchedEx", handle, transa, transb, m, n, k, alpha, A, Atype, lda, B,
                           Btype, ldb, beta, C, Ctype, ldc, computeType, {strideA, strideB, strideC, batchCount});
}

} /* extern "C" */
