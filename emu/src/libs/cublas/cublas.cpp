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
#include "libs/common/library.hpp"
#include "libs/cublas/internal.hpp"
#include "runtime/internal.hpp"

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
#include <new>
#include <vector>

struct simtlab_emu_cublas_context {
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
};

namespace simtlab_emu {
namespace {

libs::handle_registry<cublasHandle_t> handles;

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

/* The helpers below are shared with libs/cublaslt/cublaslt.cpp (libs/cublas/internal.hpp). */
namespace blas {

cublasStatus_t invalid(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cublasStatus_t st = libs::vfail(CUBLAS_STATUS_INVALID_VALUE, fmt, ap);
    va_end(ap);
    return st;
}

cublasStatus_t not_supported(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cublasStatus_t st = libs::vfail(CUBLAS_STATUS_NOT_SUPPORTED, fmt, ap);
    va_end(ap);
    return st;
}

/* A live handle in a usable context. */
cublasStatus_t check_handle(cublasHandle_t h, const char *api)
{
    if (!handles.is_live(h))
        return libs::fail(CUBLAS_STATUS_NOT_INITIALIZED,
                          "%s: handle 0x%" PRIxPTR " is not a live cuBLAS handle (call cublasCreate first)", api,
                          reinterpret_cast<std::uintptr_t>(h));
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
cublasStatus_t check_gemm_memory(const char *api, const gemm_shape &s, int m, int n, int k, const void *A, int lda,
                                 const void *B, int ldb, const void *C, int ldc, std::size_t ab_bytes,
                                 std::size_t c_bytes, const gemm_batch &batch)
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
    return t == CUDA_R_64F ? 8 : t == CUDA_R_32F ? 4 : 2;
}

double element_to_double(const void *base, std::size_t i, cudaDataType t)
{
    if (t == CUDA_R_64F)
        return static_cast<const double *>(base)[i];
    return element_to_float(base, i, t);
}

float element_to_float(const void *base, std::size_t i, cudaDataType t)
{
    if (t == CUDA_R_64F)
        return static_cast<float>(static_cast<const double *>(base)[i]);
    if (t == CUDA_R_32F)
        return static_cast<const float *>(base)[i];
    unsigned short bits = static_cast<const unsigned short *>(base)[i];
    return t == CUDA_R_16F ? simtlab_half_bits_to_float(bits) : simtlab_bf16_bits_to_float(bits);
}

void store_element(void *base, std::size_t i, cudaDataType t, double v)
{
    if (t == CUDA_R_64F) {
        static_cast<double *>(base)[i] = v;
        return;
    }
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

/* What a GEMM computes in: the scalars' type and the arithmetic. */
enum class gemm_kind { f32, f16, f64 };

bool is_16f_compute(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_16F || c == CUBLAS_COMPUTE_16F_PEDANTIC;
}

bool is_64f_compute(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_64F || c == CUBLAS_COMPUTE_64F_PEDANTIC;
}

/* The type combinations of cublasGemmEx the emulator computes (cublas_api.h). */
cublasStatus_t check_gemm_ex_types(const char *api, cudaDataType a, cudaDataType b, cudaDataType c,
                                   cublasComputeType_t compute, gemm_kind *kind)
{
    if (is_16f_compute(compute) || is_64f_compute(compute)) {
        const bool half = is_16f_compute(compute);
        const cudaDataType want = half ? CUDA_R_16F : CUDA_R_64F;
        if (a != want || b != want || c != want)
            return not_supported("%s: with computeType %s, Atype, Btype and Ctype must all be %s (got %d, %d, %d)",
                                 api,
                           half ? "CUBLAS_COMPUTE_16F" : "CUBLAS_COMPUTE_64F", half ? "CUDA_R_16F" : "CUDA_R_64F",
                           static_cast<int>(a), static_cast<int>(b), static_cast<int>(c));
        *kind = half ? gemm_kind::f16 : gemm_kind::f64;
        return CUBLAS_STATUS_SUCCESS;
    }
    if (static_cast<int>(compute) >= 0 && static_cast<int>(compute) < CUBLAS_COMPUTE_16F)
        return invalid("%s: computeType %d is a cudaDataType (CUDA 10's form); pass a cublasComputeType_t such as "
                       "CUBLAS_COMPUTE_32F (C++ code gets the toolkit's overload that maps it)",
                       api, static_cast<int>(compute));
    if (!float_compute(compute))
        return not_supported("%s: computeType %d is not supported by the emulator: it computes CUBLAS_COMPUTE_32F "
                             "and its _PEDANTIC, _FAST_16F, _FAST_16BF and _FAST_TF32 variants in float, "
                             "CUBLAS_COMPUTE_16F (rounded once to half) and CUBLAS_COMPUTE_64F",
                             api, static_cast<int>(compute));
    bool input_ok = a == CUDA_R_16F || a == CUDA_R_16BF || a == CUDA_R_32F;
    if (!input_ok || a != b)
        return invalid("%s: Atype %d and Btype %d must be the same type, one of CUDA_R_16F, CUDA_R_16BF, "
                       "CUDA_R_32F",
                       api, static_cast<int>(a), static_cast<int>(b));
    if (c != CUDA_R_32F && c != a)
        return invalid("%s: Ctype %d must be CUDA_R_32F or the same as Atype", api, static_cast<int>(c));
    *kind = gemm_kind::f32;
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
    if (!handles.add(h)) {
        delete h;
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle)
{
    if (!handles.remove(handle)) {
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

/* One GEMM of cublasGemmEx's kinds, on open memory. */
struct gemm_ex_args {
    cublasOperation_t transa, transb;
    int m, n, k, lda, ldb, ldc;
    gemm_shape s;
    cudaDataType atype, ctype;
    gemm_kind kind;
    const void *alpha, *beta;
};

void gemm_ex_one(const gemm_ex_args &g, const void *A, const void *B, void *C)
{
    if (g.kind == gemm_kind::f64) {
        cblas_dgemm(CblasColMajor, to_cblas(g.transa), to_cblas(g.transb), g.m, g.n, g.k,
                    *static_cast<const double *>(g.alpha), static_cast<const double *>(A), g.lda,
                    static_cast<const double *>(B), g.ldb, *static_cast<const double *>(g.beta),
                    static_cast<double *>(C), g.ldc);
        return;
    }
    /* float arithmetic on exact conversions of the inputs; each result
     * rounded once to C's type */
    float alpha_f, beta_f;
    if (g.kind == gemm_kind::f16) {
        alpha_f = simtlab_half_bits_to_float(*static_cast<const unsigned short *>(g.alpha));
        beta_f = simtlab_half_bits_to_float(*static_cast<const unsigned short *>(g.beta));
    } else {
        alpha_f = *static_cast<const float *>(g.alpha), beta_f = *static_cast<const float *>(g.beta);
    }
    std::vector<float> a, b, c;
    if (g.k > 0) {
        a = to_float_matrix(A, g.atype, g.s.rows_a, g.s.cols_a, g.lda);
        b = to_float_matrix(B, g.atype, g.s.rows_b, g.s.cols_b, g.ldb);
    } else {
        a.assign(1, 0.0f), b.assign(1, 0.0f); /* never read: k == 0 */
    }
    c = to_float_matrix(C, g.ctype, g.m, g.n, g.ldc);
    cblas_sgemm(CblasColMajor, to_cblas(g.transa), to_cblas(g.transb), g.m, g.n, g.k, alpha_f, a.data(),
                std::max(1, g.s.rows_a), b.data(), std::max(1, g.s.rows_b), beta_f, c.data(), g.m);
    for (int j = 0; j < g.n; ++j)
        for (int r = 0; r < g.m; ++r)
            store_element(C, static_cast<std::size_t>(j) * g.ldc + r, g.ctype,
                          c[static_cast<std::size_t>(j) * g.m + r]);
}

/* The checks every cublasGemmEx form shares; fills g. */
cublasStatus_t check_gemm_ex(const char *api, cublasHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, int m, int n, int k, const void *alpha, cudaDataType Atype,
                             int lda, cudaDataType Btype, int ldb, const void *beta, cudaDataType Ctype, int ldc,
                             cublasComputeType_t computeType, int count, gemm_ex_args *g)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)) ||
        (st = check_gemm_ex_types(api, Atype, Btype, Ctype, computeType, &g->kind)) ||
        (st = check_gemm(api, transa, transb, m, n, k, lda, ldb, ldc, &g->s)) ||
        (st = check_batch(api, {0, 0, 0, count})) || (st = check_host_scalar(alpha, api, "alpha")) ||
        (st = check_host_scalar(beta, api, "beta")))
        return st;
    g->transa = transa, g->transb = transb, g->m = m, g->n = n, g->k = k;
    g->lda = lda, g->ldb = ldb, g->ldc = ldc, g->atype = Atype, g->ctype = Ctype;
    g->alpha = alpha, g->beta = beta;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t gemm_ex_batched(const char *api, cublasHandle_t handle, cublasOperation_t transa,
                               cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *A,
                               cudaDataType Atype, int lda, const void *B, cudaDataType Btype, int ldb,
                               const void *beta, void *C, cudaDataType Ctype, int ldc,
                               cublasComputeType_t computeType, const gemm_batch &batch)
{
    gemm_ex_args g;
    cublasStatus_t st;
    if ((st = check_gemm_ex(api, handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc,
                            computeType, batch.count, &g)) ||
        (st = check_batch(api, batch)))
        return st;
    if (m == 0 || n == 0 || batch.count == 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_gemm_memory(api, g.s, m, n, k, A, lda, B, ldb, C, ldc, type_bytes(Atype), type_bytes(Ctype),
                                batch)))
        return st;
    runtime::device_access open(A, B, C);
    for (int i = 0; i < batch.count; ++i)
        gemm_ex_one(g, byte_offset(A, i * batch.stride_a, type_bytes(Atype)),
                    byte_offset(B, i * batch.stride_b, type_bytes(Btype)),
                    const_cast<void *>(byte_offset(C, i * batch.stride_c, type_bytes(Ctype))));
    return CUBLAS_STATUS_SUCCESS;
}

/* batchCount GEMMs on matrices whose addresses are in device arrays: every
 * matrix is checked before any is computed. */
cublasStatus_t gemm_ex_pointers(const char *api, cublasHandle_t handle, cublasOperation_t transa,
                                cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                const void *const *Aarray, cudaDataType Atype, int lda, const void *const *Barray,
                                cudaDataType Btype, int ldb, const void *beta, void *const *Carray,
                                cudaDataType Ctype, int ldc, int batchCount, cublasComputeType_t computeType)
{
    gemm_ex_args g;
    cublasStatus_t st;
    if ((st = check_gemm_ex(api, handle, transa, transb, m, n, k, alpha, Atype, lda, Btype, ldb, beta, Ctype, ldc,
                            computeType, batchCount, &g)))
        return st;
    if (m == 0 || n == 0 || batchCount == 0)
        return CUBLAS_STATUS_SUCCESS;
    const bool reads_ab = k > 0;
    const std::size_t count = static_cast<std::size_t>(batchCount);
    if ((reads_ab && ((st = check_device(Aarray, count, sizeof(void *), api, "Aarray")) ||
                      (st = check_device(Barray, count, sizeof(void *), api, "Barray")))) ||
        (st = check_device(Carray, count, sizeof(void *), api, "Carray")))
        return st;
    std::vector<const void *> a(count), b(count);
    std::vector<void *> c(count);
    {
        runtime::device_access open(reads_ab ? Aarray : nullptr, reads_ab ? Barray : nullptr, Carray);
        for (std::size_t i = 0; i < count; ++i) {
            a[i] = reads_ab ? Aarray[i] : nullptr, b[i] = reads_ab ? Barray[i] : nullptr;
            c[i] = Carray[i];
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        char item[160];
        std::snprintf(item, sizeof item, "%s (batch item %zu)", api, i);
        if ((st = check_gemm_memory(item, g.s, m, n, k, a[i], lda, b[i], ldb, c[i], ldc, type_bytes(Atype),
                                    type_bytes(Ctype))))
            return st;
    }
    for (std::size_t i = 0; i < count; ++i) {
        runtime::device_access open(a[i], b[i], c[i]);
        gemm_ex_one(g, a[i], b[i], c[i]);
    }
    return CUBLAS_STATUS_SUCCESS;
}

} /* namespace */

namespace simtlab_emu {

/* The toolkit header's mapping of a cudaDataType compute type (CUDA 10's
 * GEMM calls) to a cublasComputeType_t. */
cublasStatus_t cublas_compute_from_data_type(cublasHandle_t handle, cudaDataType type, cublasComputeType_t *compute)
{
    cublasMath_t mode = CUBLAS_DEFAULT_MATH;
    if (cublasStatus_t st = cublasGetMathMode(handle, &mode))
        return st;
    const bool pedantic = (static_cast<int>(mode) & 0xf) == CUBLAS_PEDANTIC_MATH;
    switch (type) {
    case CUDA_R_32F:
    case CUDA_C_32F:
        *compute = pedantic ? CUBLAS_COMPUTE_32F_PEDANTIC : CUBLAS_COMPUTE_32F;
        return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_64F:
    case CUDA_C_64F:
        *compute = pedantic ? CUBLAS_COMPUTE_64F_PEDANTIC : CUBLAS_COMPUTE_64F;
        return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_16F:
        *compute = pedantic ? CUBLAS_COMPUTE_16F_PEDANTIC : CUBLAS_COMPUTE_16F;
        return CUBLAS_STATUS_SUCCESS;
    case CUDA_R_32I:
        *compute = pedantic ? CUBLAS_COMPUTE_32I_PEDANTIC : CUBLAS_COMPUTE_32I;
        return CUBLAS_STATUS_SUCCESS;
    default:
        return not_supported("cublasGemmEx: cudaDataType %d as computeType has no cublasComputeType_t "
                             "(CUDA_R_32F, CUDA_C_32F, CUDA_R_64F, CUDA_C_64F, CUDA_R_16F, CUDA_R_32I do)",
                             static_cast<int>(type));
    }
}

} /* namespace simtlab_emu */

extern "C" {

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                           const float *beta, float *C, int ldc)
{
    return sgemm_batched("cublasSgemm", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                         {0, 0, 0, 1});
}

cublasStatus_t cublasDgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
                           const double *beta, double *C, int ldc)
{
    return gemm_ex_batched("cublasDgemm", handle, transa, transb, m, n, k, alpha, A, CUDA_R_64F, lda, B, CUDA_R_64F,
                           ldb, beta, C, CUDA_R_64F, ldc, CUBLAS_COMPUTE_64F, {0, 0, 0, 1});
}

cublasStatus_t cublasHgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           int k, const __half *alpha, const __half *A, int lda, const __half *B, int ldb,
                           const __half *beta, __half *C, int ldc)
{
    return gemm_ex_batched("cublasHgemm", handle, transa, transb, m, n, k, alpha, A, CUDA_R_16F, lda, B, CUDA_R_16F,
                           ldb, beta, C, CUDA_R_16F, ldc, CUBLAS_COMPUTE_16F, {0, 0, 0, 1});
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const float *alpha, const float *A, int lda,
                                         long long int strideA, const float *B, int ldb, long long int strideB,
                                         const float *beta, float *C, int ldc, long long int strideC, int batchCount)
{
    return sgemm_batched("cublasSgemmStridedBatched", handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta,
                         C, ldc, {strideA, strideB, strideC, batchCount});
}

cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const double *alpha, const double *A, int lda,
                                         long long int strideA, const double *B, int ldb, long long int strideB,
                                         const double *beta, double *C, int ldc, long long int strideC,
                                         int batchCount)
{
    return gemm_ex_batched("cublasDgemmStridedBatched", handle, transa, transb, m, n, k, alpha, A, CUDA_R_64F, lda,
                           B, CUDA_R_64F, ldb, beta, C, CUDA_R_64F, ldc, CUBLAS_COMPUTE_64F,
                           {strideA, strideB, strideC, batchCount});
}

cublasStatus_t cublasHgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const __half *alpha, const __half *A, int lda,
                                         long long int strideA, const __half *B, int ldb, long long int strideB,
                                         const __half *beta, __half *C, int ldc, long long int strideC,
                                         int batchCount)
{
    return gemm_ex_batched("cublasHgemmStridedBatched", handle, transa, transb, m, n, k, alpha, A, CUDA_R_16F, lda,
                           B, CUDA_R_16F, ldb, beta, C, CUDA_R_16F, ldc, CUBLAS_COMPUTE_16F,
                           {strideA, strideB, strideC, batchCount});
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

cublasStatus_t cublasSgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const float *alpha, const float *const Aarray[], int lda,
                                  const float *const Barray[], int ldb, const float *beta, float *const Carray[],
                                  int ldc, int batchCount)
{
    return gemm_ex_pointers("cublasSgemmBatched", handle, transa, transb, m, n, k, alpha,
                            reinterpret_cast<const void *const *>(Aarray), CUDA_R_32F, lda,
                            reinterpret_cast<const void *const *>(Barray), CUDA_R_32F, ldb, beta,
                            reinterpret_cast<void *const *>(Carray), CUDA_R_32F, ldc, batchCount,
                            CUBLAS_COMPUTE_32F);
}

cublasStatus_t cublasDgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const double *alpha, const double *const Aarray[], int lda,
                                  const double *const Barray[], int ldb, const double *beta, double *const Carray[],
                                  int ldc, int batchCount)
{
    return gemm_ex_pointers("cublasDgemmBatched", handle, transa, transb, m, n, k, alpha,
                            reinterpret_cast<const void *const *>(Aarray), CUDA_R_64F, lda,
                            reinterpret_cast<const void *const *>(Barray), CUDA_R_64F, ldb, beta,
                            reinterpret_cast<void *const *>(Carray), CUDA_R_64F, ldc, batchCount,
                            CUBLAS_COMPUTE_64F);
}

cublasStatus_t cublasHgemmBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                  int n, int k, const __half *alpha, const __half *const Aarray[], int lda,
                                  const __half *const Barray[], int ldb, const __half *beta, __half *const Carray[],
                                  int ldc, int batchCount)
{
    return gemm_ex_pointers("cublasHgemmBatched", handle, transa, transb, m, n, k, alpha,
                            reinterpret_cast<const void *const *>(Aarray), CUDA_R_16F, lda,
                            reinterpret_cast<const void *const *>(Barray), CUDA_R_16F, ldb, beta,
                            reinterpret_cast<void *const *>(Carray), CUDA_R_16F, ldc, batchCount,
                            CUBLAS_COMPUTE_16F);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *const Aarray[], cudaDataType Atype,
                                   int lda, const void *const Barray[], cudaDataType Btype, int ldb,
                                   const void *beta, void *const Carray[], cudaDataType Ctype, int ldc,
                                   int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    return gemm_ex_pointers("cublasGemmBatchedEx", handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray,
                            Btype, ldb, beta, Carray, Ctype, ldc, batchCount, computeType);
}

} /* extern "C" */
