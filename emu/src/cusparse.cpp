/* simtlab CPU emulator — cuSPARSE's generic API (include/cusparse.h) on the
 * host.
 *
 * Descriptors are host structs that record what they were given; the
 * emulator keeps the set of live ones, so that a destroyed or made-up
 * descriptor is named instead of read. SpMV and SpMM check, at the call,
 * the handle, the operations, the types, the shapes and the scalars, and
 * that every array the product reads or writes lies whole inside one live
 * device allocation (cudaMalloc or cudaMallocManaged). Then they run, in
 * stream order: launches and copies run at their call in the emulator, so
 * running the product at its call is the caller's stream order; a stream
 * being captured into a graph gets the product as a node instead.
 *
 * A product visits the stored entries once, checking each index against
 * the matrix as it goes (an index out of range is INVALID_VALUE naming the
 * array and the position, where a GPU would read or write out of bounds),
 * and accumulates op(A) times X (or B) in the compute type into a scratch
 * array; only when every entry was good does it write Y (C) =
 * alpha * scratch + beta * Y, without reading Y when beta is zero.
 */
#include "internal.hpp"
#include "runtime_internal.hpp"

#include <cusparse.h>

#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_set>
#include <utility>
#include <vector>

struct cusparseContext {
    cudaStream_t stream;
    cusparsePointerMode_t pointer_mode;
};

/* p0, p1: CSR row offsets and column indices; CSC column offsets and row
 * indices; COO row indices and column indices (p0_type == p1_type). */
struct cusparseSpMatDescr {
    cusparseFormat_t format;
    int64_t rows, cols, nnz;
    void *p0, *p1, *values;
    cusparseIndexType_t p0_type, p1_type;
    cusparseIndexBase_t base;
    cudaDataType type;
};

struct cusparseMatDescr {
    cusparseMatrixType_t type;
    cusparseFillMode_t fill;
    cusparseDiagType_t diag;
    cusparseIndexBase_t base;
};

struct cusparseDnVecDescr {
    int64_t size;
    void *values;
    cudaDataType type;
};

struct cusparseDnMatDescr {
    int64_t rows, cols, ld;
    void *values;
    cudaDataType type;
    cusparseOrder_t order;
};

namespace simtlab_emu {
namespace sparse {
namespace {

std::mutex live_lock;
std::unordered_set<const void *> live_handles, live_spmats, live_dnvecs, live_dnmats, live_matdescrs;

cusparseStatus_t fail(cusparseStatus_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cusparseStatus_t fail(cusparseStatus_t status, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_diagnostic(text);
    return status;
}
#define INVALID(...) fail(CUSPARSE_STATUS_INVALID_VALUE, __VA_ARGS__)
#define NOT_SUPPORTED(...) fail(CUSPARSE_STATUS_NOT_SUPPORTED, __VA_ARGS__)

std::uintptr_t addr(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }

struct status_info {
    cusparseStatus_t code;
    const char *name, *text;
};
const status_info status_table[] = {
    {CUSPARSE_STATUS_SUCCESS, "CUSPARSE_STATUS_SUCCESS", "success"},
    {CUSPARSE_STATUS_NOT_INITIALIZED, "CUSPARSE_STATUS_NOT_INITIALIZED", "the library was not initialized"},
    {CUSPARSE_STATUS_ALLOC_FAILED, "CUSPARSE_STATUS_ALLOC_FAILED", "the resource allocation failed"},
    {CUSPARSE_STATUS_INVALID_VALUE, "CUSPARSE_STATUS_INVALID_VALUE", "an invalid value was passed as an argument"},
    {CUSPARSE_STATUS_ARCH_MISMATCH, "CUSPARSE_STATUS_ARCH_MISMATCH", "the device architecture is not supported"},
    {CUSPARSE_STATUS_MAPPING_ERROR, "CUSPARSE_STATUS_MAPPING_ERROR", "an access to GPU memory space failed"},
    {CUSPARSE_STATUS_EXECUTION_FAILED, "CUSPARSE_STATUS_EXECUTION_FAILED", "the GPU program failed to execute"},
    {CUSPARSE_STATUS_INTERNAL_ERROR, "CUSPARSE_STATUS_INTERNAL_ERROR", "an internal operation failed"},
    {CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED, "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
     "the matrix type is not supported"},
    {CUSPARSE_STATUS_ZERO_PIVOT, "CUSPARSE_STATUS_ZERO_PIVOT", "a zero pivot was found"},
    {CUSPARSE_STATUS_NOT_SUPPORTED, "CUSPARSE_STATUS_NOT_SUPPORTED", "the operation is not supported"},
    {CUSPARSE_STATUS_INSUFFICIENT_RESOURCES, "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES",
     "the resources are not sufficient for the operation"},
};

const status_info *find_status(cusparseStatus_t s)
{
    for (const status_info &e : status_table)
        if (e.code == s)
            return &e;
    return nullptr;
}

cusparseStatus_t check_handle(cusparseHandle_t h, const char *api)
{
    {
        std::lock_guard<std::mutex> hold(live_lock);
        if (!h || !live_handles.count(h))
            return fail(CUSPARSE_STATUS_NOT_INITIALIZED,
                        "%s: handle 0x%" PRIxPTR " is not a live cuSPARSE handle (call cusparseCreate first)", api,
                        addr(h));
    }
    if (cudaError_t e = sticky_error())
        return fail(CUSPARSE_STATUS_EXECUTION_FAILED, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_live(const std::unordered_set<const void *> &set, const void *d, const char *api,
                            const char *name, const char *kind, const char *maker)
{
    std::lock_guard<std::mutex> hold(live_lock);
    if (!d)
        return INVALID("%s: %s is NULL", api, name);
    if (!set.count(d))
        return INVALID("%s: %s 0x%" PRIxPTR " is not a live %s descriptor (%s makes one; it is gone once destroyed)",
                       api, name, addr(d), kind, maker);
    return CUSPARSE_STATUS_SUCCESS;
}
cusparseStatus_t check_spmat(const void *d, const char *api, const char *name = "spMatDescr")
{
    return check_live(live_spmats, d, api, name, "sparse matrix", "cusparseCreateCsr/Csc/Coo");
}
cusparseStatus_t check_dnvec(const void *d, const char *api, const char *name = "dnVecDescr")
{
    return check_live(live_dnvecs, d, api, name, "dense vector", "cusparseCreateDnVec");
}
cusparseStatus_t check_dnmat(const void *d, const char *api, const char *name = "dnMatDescr")
{
    return check_live(live_dnmats, d, api, name, "dense matrix", "cusparseCreateDnMat");
}

cusparseStatus_t check_matdescr(const void *d, const char *api)
{
    return check_live(live_matdescrs, d, api, "descrA", "legacy matrix (cusparseMatDescr_t)", "cusparseCreateMatDescr");
}

template <class T>
cusparseStatus_t register_new(std::unordered_set<const void *> &set, T *d, T **out)
{
    std::lock_guard<std::mutex> hold(live_lock);
    try {
        set.insert(d);
    } catch (const std::bad_alloc &) {
        delete d;
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    *out = d;
    return CUSPARSE_STATUS_SUCCESS;
}

template <class T>
cusparseStatus_t destroy(std::unordered_set<const void *> &set, const T *d, const char *api, const char *kind)
{
    if (!d)
        return CUSPARSE_STATUS_SUCCESS; /* as cuSPARSE: destroying NULL does nothing */
    std::lock_guard<std::mutex> hold(live_lock);
    if (!set.erase(d))
        return INVALID("%s: 0x%" PRIxPTR " is not a live %s descriptor (destroyed twice, or never created)", api,
                       addr(d), kind);
    delete d;
    return CUSPARSE_STATUS_SUCCESS;
}

const char *type_name(cudaDataType t)
{
    switch (t) {
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_C_32F: return "CUDA_C_32F";
    case CUDA_C_64F: return "CUDA_C_64F";
    default: return "a cudaDataType";
    }
}

std::size_t value_bytes(cudaDataType t) { return t == CUDA_R_64F ? 8 : 4; }
std::size_t index_bytes(cusparseIndexType_t t) { return t == CUSPARSE_INDEX_64I ? 8 : 4; }

cusparseStatus_t check_value_type(cudaDataType t, const char *api, const char *name)
{
    if (t == CUDA_R_32F || t == CUDA_R_64F)
        return CUSPARSE_STATUS_SUCCESS;
    return NOT_SUPPORTED("%s: %s %d (%s) is not supported by the emulator: its cuSPARSE computes with CUDA_R_32F "
                         "and CUDA_R_64F",
                         api, name, static_cast<int>(t), type_name(t));
}

cusparseStatus_t check_index_type(cusparseIndexType_t t, const char *api, const char *name)
{
    if (t == CUSPARSE_INDEX_32I || t == CUSPARSE_INDEX_64I)
        return CUSPARSE_STATUS_SUCCESS;
    if (t == CUSPARSE_INDEX_16U)
        return NOT_SUPPORTED("%s: %s CUSPARSE_INDEX_16U is not supported by the emulator (CUSPARSE_INDEX_32I and "
                             "CUSPARSE_INDEX_64I are)",
                             api, name);
    return INVALID("%s: %s %d is not a cusparseIndexType_t", api, name, static_cast<int>(t));
}

cusparseStatus_t check_base(cusparseIndexBase_t b, const char *api)
{
    if (b == CUSPARSE_INDEX_BASE_ZERO || b == CUSPARSE_INDEX_BASE_ONE)
        return CUSPARSE_STATUS_SUCCESS;
    return INVALID("%s: idxBase %d is not CUSPARSE_INDEX_BASE_ZERO or CUSPARSE_INDEX_BASE_ONE", api,
                   static_cast<int>(b));
}

/* The names of a format's three arrays, for diagnostics. */
struct array_names {
    const char *p0, *p1, *values;
};
array_names names_of(cusparseFormat_t f)
{
    switch (f) {
    case CUSPARSE_FORMAT_CSR: return {"csrRowOffsets", "csrColInd", "csrValues"};
    case CUSPARSE_FORMAT_CSC: return {"cscColOffsets", "cscRowInd", "cscValues"};
    default: return {"cooRowInd", "cooColInd", "cooValues"};
    }
}

cusparseStatus_t create_sparse(const char *api, cusparseSpMatDescr_t *out, cusparseFormat_t format, int64_t rows,
                               int64_t cols, int64_t nnz, const void *p0, const void *p1, const void *values,
                               cusparseIndexType_t p0_type, cusparseIndexType_t p1_type, cusparseIndexBase_t base,
                               cudaDataType type)
{
    const array_names n = names_of(format);
    cusparseStatus_t st;
    if (!out)
        return INVALID("%s: spMatDescr is NULL (pass the address of a cusparseSpMatDescr_t)", api);
    if (rows < 0 || cols < 0 || nnz < 0)
        return INVALID("%s: rows, cols and nnz must not be negative (got %" PRId64 ", %" PRId64 ", %" PRId64 ")", api,
                       rows, cols, nnz);
    char what[64];
    std::snprintf(what, sizeof what, "%s type", format == CUSPARSE_FORMAT_COO ? "cooIdx" : n.p0);
    if ((st = check_index_type(p0_type, api, what)))
        return st;
    std::snprintf(what, sizeof what, "%s type", n.p1);
    if (format != CUSPARSE_FORMAT_COO && (st = check_index_type(p1_type, api, what)))
        return st;
    if ((st = check_base(base, api)) || (st = check_value_type(type, api, "valueType")))
        return st;
    cusparseSpMatDescr_t d = new (std::nothrow)
        cusparseSpMatDescr{format, rows,    cols,   nnz,    const_cast<void *>(p0), const_cast<void *>(p1),
                           const_cast<void *>(values), p0_type, p1_type, base, type};
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    return register_new(live_spmats, d, out);
}

cusparseStatus_t create_dnvec(const char *api, cusparseDnVecDescr_t *out, int64_t size, const void *values,
                              cudaDataType type)
{
    cusparseStatus_t st;
    if (!out)
        return INVALID("%s: dnVecDescr is NULL (pass the address of a cusparseDnVecDescr_t)", api);
    if (size < 0)
        return INVALID("%s: size %" PRId64 " is negative", api, size);
    if ((st = check_value_type(type, api, "valueType")))
        return st;
    cusparseDnVecDescr_t d = new (std::nothrow) cusparseDnVecDescr{size, const_cast<void *>(values), type};
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    return register_new(live_dnvecs, d, out);
}

cusparseStatus_t create_dnmat(const char *api, cusparseDnMatDescr_t *out, int64_t rows, int64_t cols, int64_t ld,
                              const void *values, cudaDataType type, cusparseOrder_t order)
{
    cusparseStatus_t st;
    if (!out)
        return INVALID("%s: dnMatDescr is NULL (pass the address of a cusparseDnMatDescr_t)", api);
    if (rows < 0 || cols < 0)
        return INVALID("%s: rows and cols must not be negative (got %" PRId64 ", %" PRId64 ")", api, rows, cols);
    if (order != CUSPARSE_ORDER_COL && order != CUSPARSE_ORDER_ROW)
        return INVALID("%s: order %d is not CUSPARSE_ORDER_COL or CUSPARSE_ORDER_ROW", api, static_cast<int>(order));
    const bool col = order == CUSPARSE_ORDER_COL;
    const int64_t need = col ? rows : cols;
    if (ld < (need > 1 ? need : 1))
        return INVALID("%s: ld %" PRId64 " is less than the %" PRId64 " %s of a %s matrix", api, ld, need,
                       col ? "rows" : "columns", col ? "column-major (CUSPARSE_ORDER_COL)" : "row-major (CUSPARSE_ORDER_ROW)");
    if ((st = check_value_type(type, api, "valueType")))
        return st;
    cusparseDnMatDescr_t d =
        new (std::nothrow) cusparseDnMatDescr{rows, cols, ld, const_cast<void *>(values), type, order};
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    return register_new(live_dnmats, d, out);
}

/* ---- the products ------------------------------------------------------ */

/* `count` elements of `bytes` each at p, inside one device allocation. */
cusparseStatus_t check_array(const void *p, int64_t count, std::size_t bytes, const char *api, const char *owner,
                             const char *name)
{
    if (count <= 0)
        return CUSPARSE_STATUS_SUCCESS;
    if (!p)
        return INVALID("%s: %s's %s is NULL, but it needs %" PRId64 " elements", api, owner, name, count);
    char what[192];
    std::snprintf(what, sizeof what, "%s: %s's %s", api, owner, name);
    if (runtime::check_device_range(p, static_cast<std::size_t>(count) * bytes, what) != cudaSuccess)
        return CUSPARSE_STATUS_INVALID_VALUE; /* the diagnostic is set */
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_sparse_memory(const cusparseSpMatDescr &A, const char *api, const char *owner)
{
    const array_names n = names_of(A.format);
    const int64_t p0_count = A.format == CUSPARSE_FORMAT_CSR   ? A.rows + 1
                             : A.format == CUSPARSE_FORMAT_CSC ? A.cols + 1
                                                               : A.nnz;
    cusparseStatus_t st;
    if ((st = check_array(A.p0, p0_count, index_bytes(A.p0_type), api, owner, n.p0)) ||
        (st = check_array(A.p1, A.nnz, index_bytes(A.p1_type), api, owner, n.p1)) ||
        (st = check_array(A.values, A.nnz, value_bytes(A.type), api, owner, n.values)))
        return st;
    return CUSPARSE_STATUS_SUCCESS;
}

/* Elements a dense matrix spans. */
int64_t dense_extent(const cusparseDnMatDescr &M)
{
    if (M.rows == 0 || M.cols == 0)
        return 0;
    return M.order == CUSPARSE_ORDER_COL ? M.ld * (M.cols - 1) + M.rows : M.ld * (M.rows - 1) + M.cols;
}

bool valid_op(cusparseOperation_t op)
{
    return op == CUSPARSE_OPERATION_NON_TRANSPOSE || op == CUSPARSE_OPERATION_TRANSPOSE ||
           op == CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
}

/* A scalar (alpha, beta) as the pointer mode says: host mode, a host
 * variable (or managed memory), read now; device mode, device memory, read
 * when the product runs. */
struct scalar {
    const void *device; /* device mode: where to read it */
    double host;        /* host mode: its value */
};

cusparseStatus_t take_scalar(const void *p, cudaDataType t, cusparsePointerMode_t mode, const char *api,
                             const char *name, scalar *out)
{
    if (!p)
        return INVALID("%s: %s is NULL", api, name);
    const runtime::located l = runtime::locate(p);
    if (mode == CUSPARSE_POINTER_MODE_DEVICE) {
        char what[128];
        std::snprintf(what, sizeof what, "%s: %s (CUSPARSE_POINTER_MODE_DEVICE)", api, name);
        if (runtime::check_device_range(p, value_bytes(t), what) != cudaSuccess)
            return CUSPARSE_STATUS_INVALID_VALUE;
        out->device = p;
        out->host = 0;
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (l.where != runtime::region::host && !l.managed)
        return INVALID("%s: %s 0x%" PRIxPTR " is device memory, but the pointer mode is CUSPARSE_POINTER_MODE_HOST: "
                       "pass a host variable (or cusparseSetPointerMode(handle, CUSPARSE_POINTER_MODE_DEVICE))",
                       api, name, addr(p));
    out->device = nullptr;
    if (l.where != runtime::region::host) {
        runtime::device_access open(p);
        out->host = t == CUDA_R_64F ? *static_cast<const double *>(p) : *static_cast<const float *>(p);
    } else {
        out->host = t == CUDA_R_64F ? *static_cast<const double *>(p) : *static_cast<const float *>(p);
    }
    return CUSPARSE_STATUS_SUCCESS;
}

template <class V>
V read_scalar(const scalar &s)
{
    return s.device ? *static_cast<const V *>(s.device) : static_cast<V>(s.host);
}

/* Calls f(row, col, value) for each stored entry of A (memory open),
 * checking every offset and index first; a bad one sets the diagnostic and
 * returns INVALID_VALUE (f may have been called for earlier entries). */
template <class O, class I, class V, class F>
cusparseStatus_t each_entry(const cusparseSpMatDescr &A, const char *api, const char *owner, F &&f)
{
    const O *p0 = static_cast<const O *>(A.p0);
    const I *p1 = static_cast<const I *>(A.p1);
    const V *val = static_cast<const V *>(A.values);
    const int64_t base = A.base;
    const array_names n = names_of(A.format);
    if (A.format == CUSPARSE_FORMAT_COO) {
        for (int64_t k = 0; k < A.nnz; ++k) {
            const int64_t r = static_cast<int64_t>(p0[k]) - base, c = static_cast<int64_t>(p1[k]) - base;
            if (r < 0 || r >= A.rows)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64
                               " rows (index base %d)",
                               api, owner, n.p0, k, r + base, A.rows, A.base);
            if (c < 0 || c >= A.cols)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64
                               " columns (index base %d)",
                               api, owner, n.p1, k, c + base, A.cols, A.base);
            f(r, c, val[k]);
        }
        return CUSPARSE_STATUS_SUCCESS;
    }
    const bool csr = A.format == CUSPARSE_FORMAT_CSR;
    const int64_t outer = csr ? A.rows : A.cols, inner = csr ? A.cols : A.rows;
    const char *inner_what = csr ? "columns" : "rows";
    if (static_cast<int64_t>(p0[0]) != base)
        return INVALID("%s: %s's %s[0] is %" PRId64 ", but must be the index base %d", api, owner, n.p0,
                       static_cast<int64_t>(p0[0]), A.base);
    for (int64_t o = 0; o < outer; ++o) {
        const int64_t begin = static_cast<int64_t>(p0[o]) - base, end = static_cast<int64_t>(p0[o + 1]) - base;
        if (end < begin || end > A.nnz)
            return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " after %" PRId64
                           ": offsets must not decrease nor pass nnz = %" PRId64 " (index base %d)",
                           api, owner, n.p0, o + 1, end + base, begin + base, A.nnz, A.base);
        for (int64_t k = begin; k < end; ++k) {
            const int64_t i = static_cast<int64_t>(p1[k]) - base;
            if (i < 0 || i >= inner)
                return INVALID("%s: %s's %s[%" PRId64 "] = %" PRId64 " is outside the %" PRId64 " %s (index base %d)",
                               api, owner, n.p1, k, i + base, inner, inner_what, A.base);
            if (csr)
                f(o, i, val[k]);
            else
                f(i, o, val[k]);
        }
    }
    return CUSPARSE_STATUS_SUCCESS;
}

template <class V, class F>
cusparseStatus_t visit(const cusparseSpMatDescr &A, const char *api, const char *owner, F &&f)
{
    const bool o64 = A.p0_type == CUSPARSE_INDEX_64I;
    const bool i64 = (A.format == CUSPARSE_FORMAT_COO ? A.p0_type : A.p1_type) == CUSPARSE_INDEX_64I;
    if (o64)
        return i64 ? each_entry<int64_t, int64_t, V>(A, api, owner, f) : each_entry<int64_t, int32_t, V>(A, api, owner, f);
    return i64 ? each_entry<int32_t, int64_t, V>(A, api, owner, f) : each_entry<int32_t, int32_t, V>(A, api, owner, f);
}

/* Opens every device allocation for one product (as a launch does) and
 * closes them again; a canary overwritten past an allocation's end (by
 * earlier host code) is reported as a launch would report it. */
struct open_all {
    open_all() { device_memory_open(); }
    ~open_all() { (void)device_memory_close(); }
};

/* Everything a product needs once its arguments are checked: copies of the
 * descriptors (the caller may destroy them before a captured graph runs). */
struct spmv_job {
    const char *api;
    bool transpose;
    scalar alpha, beta;
    cusparseSpMatDescr A;
    cusparseDnVecDescr X, Y;
};

template <class V>
cusparseStatus_t spmv_run(const spmv_job &j)
{
    const int64_t out_n = j.Y.size;
    if (out_n == 0)
        return CUSPARSE_STATUS_SUCCESS; /* nothing to write: A is not read */
    std::vector<V> acc;
    try {
        acc.assign(static_cast<std::size_t>(out_n), V(0));
    } catch (const std::bad_alloc &) {
        return fail(CUSPARSE_STATUS_ALLOC_FAILED, "%s: out of host memory for %" PRId64 " sums", j.api, out_n);
    }
    open_all open;
    const V *x = static_cast<const V *>(j.X.values);
    V *y = static_cast<V *>(j.Y.values);
    cusparseStatus_t st;
    if (j.transpose)
        st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) { acc[c] += v * x[r]; });
    else
        st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) { acc[r] += v * x[c]; });
    if (st)
        return st;
    const V alpha = read_scalar<V>(j.alpha), beta = read_scalar<V>(j.beta);
    for (int64_t i = 0; i < out_n; ++i)
        y[i] = beta == V(0) ? alpha * acc[i] : alpha * acc[i] + beta * y[i];
    return CUSPARSE_STATUS_SUCCESS;
}

struct spmm_job {
    const char *api;
    bool transpose_a, transpose_b;
    scalar alpha, beta;
    cusparseSpMatDescr A;
    cusparseDnMatDescr B, C;
};

template <class V>
cusparseStatus_t spmm_run(const spmm_job &j)
{
    const int64_t m = j.C.rows, n = j.C.cols;
    if (m == 0 || n == 0)
        return CUSPARSE_STATUS_SUCCESS; /* nothing to write: A and B are not read */
    std::vector<V> acc; /* op(A) op(B), row-major m x n */
    try {
        acc.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(n), V(0));
    } catch (const std::bad_alloc &) {
        return fail(CUSPARSE_STATUS_ALLOC_FAILED, "%s: out of host memory for %" PRId64 " x %" PRId64 " sums",
                    j.api, m, n);
    }
    /* element (i, j) of a stored matrix is at i * si + j * sj */
    const bool b_col = j.B.order == CUSPARSE_ORDER_COL, c_col = j.C.order == CUSPARSE_ORDER_COL;
    int64_t bi = b_col ? 1 : j.B.ld, bj = b_col ? j.B.ld : 1;
    if (j.transpose_b)
        std::swap(bi, bj); /* now op(B)(i, j) */
    const int64_t ci = c_col ? 1 : j.C.ld, cj = c_col ? j.C.ld : 1;
    open_all open;
    const V *B = static_cast<const V *>(j.B.values);
    V *C = static_cast<V *>(j.C.values);
    auto row_times_b = [&](int64_t i, int64_t k, V v) {
        V *out = acc.data() + i * n;
        const V *b = B + k * bi;
        for (int64_t c = 0; c < n; ++c)
            out[c] += v * b[c * bj];
    };
    cusparseStatus_t st;
    if (j.transpose_a)
        st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) { row_times_b(c, r, v); });
    else
        st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) { row_times_b(r, c, v); });
    if (st)
        return st;
    const V alpha = read_scalar<V>(j.alpha), beta = read_scalar<V>(j.beta);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t c = 0; c < n; ++c) {
            V &out = C[i * ci + c * cj];
            const V a = alpha * acc[i * n + c];
            out = beta == V(0) ? a : a + beta * out;
        }
    return CUSPARSE_STATUS_SUCCESS;
}

/* Runs a checked product now, or adds it to the graph the stream is being
 * captured into. */
template <class Job>
cusparseStatus_t run_in_stream(cudaStream_t stream, const Job &job, cudaDataType type,
                               cusparseStatus_t (*run32)(const Job &), cusparseStatus_t (*run64)(const Job &))
{
    auto run = type == CUDA_R_64F ? run64 : run32;
    if (!runtime::stream_capturing(stream))
        return run(job);
    cudaError_t e = runtime::capture(stream, [job, run](cudaStream_t) {
        cusparseStatus_t st = run(job);
        return st == CUSPARSE_STATUS_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
    });
    return e == cudaSuccess ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_EXECUTION_FAILED;
}

cusparseStatus_t check_compute_types(const char *api, cudaDataType compute, cudaDataType a, const char *second,
                                     cudaDataType t2, const char *third, cudaDataType t3)
{
    cusparseStatus_t st;
    if ((st = check_value_type(compute, api, "computeType")))
        return st;
    if (a != compute || t2 != compute || t3 != compute)
        return NOT_SUPPORTED("%s: matA is %s, %s %s, %s %s and computeType %s: the emulator computes with all four "
                             "CUDA_R_32F or all four CUDA_R_64F",
                             api, type_name(a), second, type_name(t2), third, type_name(t3), type_name(compute));
    return CUSPARSE_STATUS_SUCCESS;
}

/* The algorithms of the matrix's format (CSC takes CSR's). */
cusparseStatus_t check_spmv_alg(const char *api, cusparseSpMVAlg_t alg, cusparseFormat_t f)
{
    const bool coo = f == CUSPARSE_FORMAT_COO;
    switch (alg) {
    case CUSPARSE_SPMV_ALG_DEFAULT: return CUSPARSE_STATUS_SUCCESS;
    case CUSPARSE_SPMV_CSR_ALG1:
    case CUSPARSE_SPMV_CSR_ALG2:
        if (!coo)
            return CUSPARSE_STATUS_SUCCESS;
        break;
    case CUSPARSE_SPMV_COO_ALG1:
    case CUSPARSE_SPMV_COO_ALG2:
        if (coo)
            return CUSPARSE_STATUS_SUCCESS;
        break;
    case CUSPARSE_SPMV_SELL_ALG1:
    case CUSPARSE_SPMV_BSR_ALG1: break;
    default: return INVALID("%s: alg %d is not a cusparseSpMVAlg_t", api, static_cast<int>(alg));
    }
    return NOT_SUPPORTED("%s: alg %d is not an algorithm for a %s matrix (CUSPARSE_SPMV_ALG_DEFAULT, or "
                         "CUSPARSE_SPMV_%s_ALG1/ALG2)",
                         api, static_cast<int>(alg), coo ? "COO" : f == CUSPARSE_FORMAT_CSR ? "CSR" : "CSC",
                         coo ? "COO" : "CSR");
}

cusparseStatus_t check_spmm_alg(const char *api, cusparseSpMMAlg_t alg, cusparseFormat_t f)
{
    const bool coo = f == CUSPARSE_FORMAT_COO;
    switch (alg) {
    case CUSPARSE_SPMM_ALG_DEFAULT: return CUSPARSE_STATUS_SUCCESS;
    case CUSPARSE_SPMM_CSR_ALG1:
    case CUSPARSE_SPMM_CSR_ALG2:
    case CUSPARSE_SPMM_CSR_ALG3:
        if (!coo)
            return CUSPARSE_STATUS_SUCCESS;
        break;
    case CUSPARSE_SPMM_COO_ALG1:
    case CUSPARSE_SPMM_COO_ALG2:
    case CUSPARSE_SPMM_COO_ALG3:
    case CUSPARSE_SPMM_COO_ALG4:
        if (coo)
            return CUSPARSE_STATUS_SUCCESS;
        break;
    case CUSPARSE_SPMM_BLOCKED_ELL_ALG1:
    case CUSPARSE_SPMM_BSR_ALG1: break;
    default: return INVALID("%s: alg %d is not a cusparseSpMMAlg_t", api, static_cast<int>(alg));
    }
    return NOT_SUPPORTED("%s: alg %d is not an algorithm for a %s matrix (CUSPARSE_SPMM_ALG_DEFAULT, or "
                         "CUSPARSE_SPMM_%s_ALG*)",
                         api, static_cast<int>(alg), coo ? "COO" : f == CUSPARSE_FORMAT_CSR ? "CSR" : "CSC",
                         coo ? "COO" : "CSR");
}

/* Every check of cusparseSpMV and its companions; fills *job. */
cusparseStatus_t check_spmv(const char *api, cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                            cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
                            cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                            spmv_job *job)
{
    cusparseStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_spmat(matA, api, "matA")) ||
        (st = check_dnvec(vecX, api, "vecX")) || (st = check_dnvec(vecY, api, "vecY")))
        return st;
    if (!valid_op(opA))
        return INVALID("%s: opA %d is not a cusparseOperation_t", api, static_cast<int>(opA));
    const cusparseSpMatDescr &A = *matA;
    if ((st = check_compute_types(api, computeType, A.type, "vecX", vecX->type, "vecY", vecY->type)) ||
        (st = check_spmv_alg(api, alg, A.format)))
        return st;
    const bool t = opA != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t in = t ? A.rows : A.cols, out = t ? A.cols : A.rows;
    if (vecX->size != in)
        return INVALID("%s: vecX has %" PRId64 " elements, but op(A) (%" PRId64 " x %" PRId64 ") needs %" PRId64, api,
                       vecX->size, out, in, in);
    if (vecY->size != out)
        return INVALID("%s: vecY has %" PRId64 " elements, but op(A) (%" PRId64 " x %" PRId64 ") gives %" PRId64, api,
                       vecY->size, out, in, out);
    if ((st = take_scalar(alpha, computeType, handle->pointer_mode, api, "alpha", &job->alpha)) ||
        (st = take_scalar(beta, computeType, handle->pointer_mode, api, "beta", &job->beta)))
        return st;
    if ((out > 0 && (st = check_sparse_memory(A, api, "matA"))) ||
        (out > 0 && (st = check_array(vecX->values, in, value_bytes(computeType), api, "vecX", "values"))) ||
        (st = check_array(vecY->values, out, value_bytes(computeType), api, "vecY", "values")))
        return st;
    job->api = api;
    job->transpose = t;
    job->A = A, job->X = *vecX, job->Y = *vecY;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_spmm(const char *api, cusparseHandle_t handle, cusparseOperation_t opA,
                            cusparseOperation_t opB, const void *alpha, cusparseConstSpMatDescr_t matA,
                            cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
                            cudaDataType computeType, cusparseSpMMAlg_t alg, spmm_job *job)
{
    cusparseStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_spmat(matA, api, "matA")) ||
        (st = check_dnmat(matB, api, "matB")) || (st = check_dnmat(matC, api, "matC")))
        return st;
    if (!valid_op(opA))
        return INVALID("%s: opA %d is not a cusparseOperation_t", api, static_cast<int>(opA));
    if (!valid_op(opB))
        return INVALID("%s: opB %d is not a cusparseOperation_t", api, static_cast<int>(opB));
    const cusparseSpMatDescr &A = *matA;
    const cusparseDnMatDescr &B = *matB, &C = *matC;
    if ((st = check_compute_types(api, computeType, A.type, "matB", B.type, "matC", C.type)) ||
        (st = check_spmm_alg(api, alg, A.format)))
        return st;
    const bool ta = opA != CUSPARSE_OPERATION_NON_TRANSPOSE, tb = opB != CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t m = ta ? A.cols : A.rows, k = ta ? A.rows : A.cols;
    const int64_t kb = tb ? B.cols : B.rows, n = tb ? B.rows : B.cols;
    if (kb != k)
        return INVALID("%s: op(A) is %" PRId64 " x %" PRId64 " but op(B) is %" PRId64 " x %" PRId64
                       ": op(B) must have %" PRId64 " rows",
                       api, m, k, kb, n, k);
    if (C.rows != m || C.cols != n)
        return INVALID("%s: matC is %" PRId64 " x %" PRId64 ", but op(A) op(B) is %" PRId64 " x %" PRId64, api, C.rows,
                       C.cols, m, n);
    if ((st = take_scalar(alpha, computeType, handle->pointer_mode, api, "alpha", &job->alpha)) ||
        (st = take_scalar(beta, computeType, handle->pointer_mode, api, "beta", &job->beta)))
        return st;
    const bool empty = m == 0 || n == 0;
    if ((!empty && (st = check_sparse_memory(A, api, "matA"))) ||
        (!empty && (st = check_array(B.values, dense_extent(B), value_bytes(computeType), api, "matB", "values"))) ||
        (st = check_array(C.values, dense_extent(C), value_bytes(computeType), api, "matC", "values")))
        return st;
    job->api = api;
    job->transpose_a = ta, job->transpose_b = tb;
    job->A = A, job->B = B, job->C = C;
    return CUSPARSE_STATUS_SUCCESS;
}

} /* namespace */
} /* namespace sparse */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::sparse;

extern "C" {

/* ---- the handle -------------------------------------------------------- */

const char *cusparseGetErrorName(cusparseStatus_t status)
{
    const status_info *s = find_status(status);
    return s ? s->name : "CUSPARSE_STATUS_UNKNOWN";
}

const char *cusparseGetErrorString(cusparseStatus_t status)
{
    const status_info *s = find_status(status);
    return s ? s->text : "unknown cuSPARSE status";
}

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle)
{
    if (!handle)
        return INVALID("cusparseCreate: handle is NULL (pass the address of a cusparseHandle_t)");
    if (cudaError_t e = sticky_error())
        return fail(CUSPARSE_STATUS_NOT_INITIALIZED, "cusparseCreate: the CUDA context is poisoned by an earlier %s",
                    cudaGetErrorName(e));
    cusparseHandle_t h = new (std::nothrow) cusparseContext{nullptr, CUSPARSE_POINTER_MODE_HOST};
    if (!h)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    return register_new(live_handles, h, handle);
}

cusparseStatus_t cusparseDestroy(cusparseHandle_t handle)
{
    std::lock_guard<std::mutex> hold(live_lock);
    if (!handle || !live_handles.erase(handle))
        return fail(CUSPARSE_STATUS_NOT_INITIALIZED, "cusparseDestroy: handle 0x%" PRIxPTR " is not a live cuSPARSE handle",
                    addr(handle));
    delete handle;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetVersion(cusparseHandle_t handle, int *version)
{
    if (cusparseStatus_t st = check_handle(handle, "cusparseGetVersion"))
        return st;
    if (!version)
        return INVALID("cusparseGetVersion: version is NULL");
    *version = CUSPARSE_VERSION;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId)
{
    if (cusparseStatus_t st = check_handle(handle, "cusparseSetStream"))
        return st;
    if (validate_stream(streamId, "cusparseSetStream") != cudaSuccess)
        return CUSPARSE_STATUS_INVALID_VALUE; /* the diagnostic is set */
    handle->stream = streamId;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetStream(cusparseHandle_t handle, cudaStream_t *streamId)
{
    if (cusparseStatus_t st = check_handle(handle, "cusparseGetStream"))
        return st;
    if (!streamId)
        return INVALID("cusparseGetStream: streamId is NULL");
    *streamId = handle->stream;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t *mode)
{
    if (cusparseStatus_t st = check_handle(handle, "cusparseGetPointerMode"))
        return st;
    if (!mode)
        return INVALID("cusparseGetPointerMode: mode is NULL");
    *mode = handle->pointer_mode;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t mode)
{
    if (cusparseStatus_t st = check_handle(handle, "cusparseSetPointerMode"))
        return st;
    if (mode != CUSPARSE_POINTER_MODE_HOST && mode != CUSPARSE_POINTER_MODE_DEVICE)
        return INVALID("cusparseSetPointerMode: mode %d is not a cusparsePointerMode_t", static_cast<int>(mode));
    handle->pointer_mode = mode;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- the legacy matrix descriptor ---------------------------------------- */

cusparseStatus_t cusparseCreateMatDescr(cusparseMatDescr_t *descrA)
{
    if (!descrA)
        return INVALID("cusparseCreateMatDescr: descrA is NULL (pass the address of a cusparseMatDescr_t)");
    cusparseMatDescr_t d = new (std::nothrow) cusparseMatDescr{CUSPARSE_MATRIX_TYPE_GENERAL, CUSPARSE_FILL_MODE_LOWER,
                                                               CUSPARSE_DIAG_TYPE_NON_UNIT, CUSPARSE_INDEX_BASE_ZERO};
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    return register_new(live_matdescrs, d, descrA);
}

cusparseStatus_t cusparseDestroyMatDescr(cusparseMatDescr_t descrA)
{
    return destroy(live_matdescrs, descrA, "cusparseDestroyMatDescr", "legacy matrix");
}

cusparseStatus_t cusparseSetMatType(cusparseMatDescr_t descrA, cusparseMatrixType_t type)
{
    if (cusparseStatus_t st = check_matdescr(descrA, "cusparseSetMatType"))
        return st;
    if (static_cast<unsigned>(type) > CUSPARSE_MATRIX_TYPE_TRIANGULAR)
        return INVALID("cusparseSetMatType: type %d is not a cusparseMatrixType_t", static_cast<int>(type));
    descrA->type = type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseMatrixType_t cusparseGetMatType(const cusparseMatDescr_t descrA)
{
    return check_matdescr(descrA, "cusparseGetMatType") ? CUSPARSE_MATRIX_TYPE_GENERAL : descrA->type;
}

cusparseStatus_t cusparseSetMatFillMode(cusparseMatDescr_t descrA, cusparseFillMode_t fillMode)
{
    if (cusparseStatus_t st = check_matdescr(descrA, "cusparseSetMatFillMode"))
        return st;
    if (fillMode != CUSPARSE_FILL_MODE_LOWER && fillMode != CUSPARSE_FILL_MODE_UPPER)
        return INVALID("cusparseSetMatFillMode: fillMode %d is not a cusparseFillMode_t", static_cast<int>(fillMode));
    descrA->fill = fillMode;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseFillMode_t cusparseGetMatFillMode(const cusparseMatDescr_t descrA)
{
    return check_matdescr(descrA, "cusparseGetMatFillMode") ? CUSPARSE_FILL_MODE_LOWER : descrA->fill;
}

cusparseStatus_t cusparseSetMatDiagType(cusparseMatDescr_t descrA, cusparseDiagType_t diagType)
{
    if (cusparseStatus_t st = check_matdescr(descrA, "cusparseSetMatDiagType"))
        return st;
    if (diagType != CUSPARSE_DIAG_TYPE_NON_UNIT && diagType != CUSPARSE_DIAG_TYPE_UNIT)
        return INVALID("cusparseSetMatDiagType: diagType %d is not a cusparseDiagType_t", static_cast<int>(diagType));
    descrA->diag = diagType;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseDiagType_t cusparseGetMatDiagType(const cusparseMatDescr_t descrA)
{
    return check_matdescr(descrA, "cusparseGetMatDiagType") ? CUSPARSE_DIAG_TYPE_NON_UNIT : descrA->diag;
}

cusparseStatus_t cusparseSetMatIndexBase(cusparseMatDescr_t descrA, cusparseIndexBase_t base)
{
    if (cusparseStatus_t st = check_matdescr(descrA, "cusparseSetMatIndexBase"))
        return st;
    if (cusparseStatus_t st = check_base(base, "cusparseSetMatIndexBase"))
        return st;
    descrA->base = base;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseIndexBase_t cusparseGetMatIndexBase(const cusparseMatDescr_t descrA)
{
    return check_matdescr(descrA, "cusparseGetMatIndexBase") ? CUSPARSE_INDEX_BASE_ZERO : descrA->base;
}

/* ---- dense vectors ------------------------------------------------------ */

cusparseStatus_t cusparseCreateDnVec(cusparseDnVecDescr_t *dnVecDescr, int64_t size, void *values,
                                     cudaDataType valueType)
{
    return create_dnvec("cusparseCreateDnVec", dnVecDescr, size, values, valueType);
}

cusparseStatus_t cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *dnVecDescr, int64_t size, const void *values,
                                          cudaDataType valueType)
{
    return create_dnvec("cusparseCreateConstDnVec", const_cast<cusparseDnVecDescr_t *>(dnVecDescr), size, values,
                        valueType);
}

cusparseStatus_t cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr)
{
    return destroy(live_dnvecs, dnVecDescr, "cusparseDestroyDnVec", "dense vector");
}

cusparseStatus_t cusparseConstDnVecGet(cusparseConstDnVecDescr_t dnVecDescr, int64_t *size, const void **values,
                                       cudaDataType *valueType)
{
    if (cusparseStatus_t st = check_dnvec(dnVecDescr, "cusparseDnVecGet"))
        return st;
    if (!size || !values || !valueType)
        return INVALID("cusparseDnVecGet: size, values and valueType must not be NULL");
    *size = dnVecDescr->size, *values = dnVecDescr->values, *valueType = dnVecDescr->type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnVecGet(cusparseDnVecDescr_t dnVecDescr, int64_t *size, void **values,
                                  cudaDataType *valueType)
{
    return cusparseConstDnVecGet(dnVecDescr, size, const_cast<const void **>(values), valueType);
}

cusparseStatus_t cusparseConstDnVecGetValues(cusparseConstDnVecDescr_t dnVecDescr, const void **values)
{
    if (cusparseStatus_t st = check_dnvec(dnVecDescr, "cusparseDnVecGetValues"))
        return st;
    if (!values)
        return INVALID("cusparseDnVecGetValues: values is NULL");
    *values = dnVecDescr->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnVecGetValues(cusparseDnVecDescr_t dnVecDescr, void **values)
{
    return cusparseConstDnVecGetValues(dnVecDescr, const_cast<const void **>(values));
}

cusparseStatus_t cusparseDnVecSetValues(cusparseDnVecDescr_t dnVecDescr, void *values)
{
    if (cusparseStatus_t st = check_dnvec(dnVecDescr, "cusparseDnVecSetValues"))
        return st;
    dnVecDescr->values = values;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- sparse matrices ----------------------------------------------------- */

cusparseStatus_t cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                   void *csrRowOffsets, void *csrColInd, void *csrValues,
                                   cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
                                   cusparseIndexBase_t idxBase, cudaDataType valueType)
{
    return create_sparse("cusparseCreateCsr", spMatDescr, CUSPARSE_FORMAT_CSR, rows, cols, nnz, csrRowOffsets,
                         csrColInd, csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCreateConstCsr(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                        int64_t nnz, const void *csrRowOffsets, const void *csrColInd,
                                        const void *csrValues, cusparseIndexType_t csrRowOffsetsType,
                                        cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase,
                                        cudaDataType valueType)
{
    return create_sparse("cusparseCreateConstCsr", const_cast<cusparseSpMatDescr_t *>(spMatDescr),
                         CUSPARSE_FORMAT_CSR, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues,
                         csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCreateCsc(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                   void *cscColOffsets, void *cscRowInd, void *cscValues,
                                   cusparseIndexType_t cscColOffsetsType, cusparseIndexType_t cscRowIndType,
                                   cusparseIndexBase_t idxBase, cudaDataType valueType)
{
    return create_sparse("cusparseCreateCsc", spMatDescr, CUSPARSE_FORMAT_CSC, rows, cols, nnz, cscColOffsets,
                         cscRowInd, cscValues, cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCreateConstCsc(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                        int64_t nnz, const void *cscColOffsets, const void *cscRowInd,
                                        const void *cscValues, cusparseIndexType_t cscColOffsetsType,
                                        cusparseIndexType_t cscRowIndType, cusparseIndexBase_t idxBase,
                                        cudaDataType valueType)
{
    return create_sparse("cusparseCreateConstCsc", const_cast<cusparseSpMatDescr_t *>(spMatDescr),
                         CUSPARSE_FORMAT_CSC, rows, cols, nnz, cscColOffsets, cscRowInd, cscValues,
                         cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCreateCoo(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                   void *cooRowInd, void *cooColInd, void *cooValues, cusparseIndexType_t cooIdxType,
                                   cusparseIndexBase_t idxBase, cudaDataType valueType)
{
    return create_sparse("cusparseCreateCoo", spMatDescr, CUSPARSE_FORMAT_COO, rows, cols, nnz, cooRowInd,
                         cooColInd, cooValues, cooIdxType, cooIdxType, idxBase, valueType);
}

cusparseStatus_t cusparseCreateConstCoo(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                        int64_t nnz, const void *cooRowInd, const void *cooColInd,
                                        const void *cooValues, cusparseIndexType_t cooIdxType,
                                        cusparseIndexBase_t idxBase, cudaDataType valueType)
{
    return create_sparse("cusparseCreateConstCoo", const_cast<cusparseSpMatDescr_t *>(spMatDescr),
                         CUSPARSE_FORMAT_COO, rows, cols, nnz, cooRowInd, cooColInd, cooValues, cooIdxType,
                         cooIdxType, idxBase, valueType);
}

cusparseStatus_t cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr)
{
    return destroy(live_spmats, spMatDescr, "cusparseDestroySpMat", "sparse matrix");
}

} /* extern "C" */

namespace {

/* The Get calls of one format: every output must be given. */
cusparseStatus_t sparse_get(const char *api, cusparseFormat_t format, cusparseConstSpMatDescr_t d, int64_t *rows,
                            int64_t *cols, int64_t *nnz, const void **p0, const void **p1, const void **values,
                            cusparseIndexType_t *p0_type, cusparseIndexType_t *p1_type, cusparseIndexBase_t *base,
                            cudaDataType *type)
{
    if (cusparseStatus_t st = check_spmat(d, api))
        return st;
    if (d->format != format)
        return INVALID("%s: spMatDescr holds a %s matrix", api,
                       d->format == CUSPARSE_FORMAT_CSR   ? "CSR"
                       : d->format == CUSPARSE_FORMAT_CSC ? "CSC"
                                                          : "COO");
    if (!rows || !cols || !nnz || !p0 || !p1 || !values || !p0_type || (format != CUSPARSE_FORMAT_COO && !p1_type) ||
        !base || !type)
        return INVALID("%s: an output pointer is NULL (every one must be given)", api);
    *rows = d->rows, *cols = d->cols, *nnz = d->nnz;
    *p0 = d->p0, *p1 = d->p1, *values = d->values;
    *p0_type = d->p0_type;
    if (p1_type)
        *p1_type = d->p1_type;
    *base = d->base, *type = d->type;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t sparse_set_pointers(const char *api, cusparseFormat_t format, cusparseSpMatDescr_t d, void *p0,
                                     void *p1, void *values)
{
    if (cusparseStatus_t st = check_spmat(d, api))
        return st;
    if (d->format != format)
        return INVALID("%s: spMatDescr does not hold a matrix of this format", api);
    d->p0 = p0, d->p1 = p1, d->values = values;
    return CUSPARSE_STATUS_SUCCESS;
}

} /* namespace */

extern "C" {

cusparseStatus_t cusparseConstCsrGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                     int64_t *nnz, const void **csrRowOffsets, const void **csrColInd,
                                     const void **csrValues, cusparseIndexType_t *csrRowOffsetsType,
                                     cusparseIndexType_t *csrColIndType, cusparseIndexBase_t *idxBase,
                                     cudaDataType *valueType)
{
    return sparse_get("cusparseCsrGet", CUSPARSE_FORMAT_CSR, spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd,
                      csrValues, csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz,
                                void **csrRowOffsets, void **csrColInd, void **csrValues,
                                cusparseIndexType_t *csrRowOffsetsType, cusparseIndexType_t *csrColIndType,
                                cusparseIndexBase_t *idxBase, cudaDataType *valueType)
{
    return cusparseConstCsrGet(spMatDescr, rows, cols, nnz, const_cast<const void **>(csrRowOffsets),
                               const_cast<const void **>(csrColInd), const_cast<const void **>(csrValues),
                               csrRowOffsetsType, csrColIndType, idxBase, valueType);
}

cusparseStatus_t cusparseConstCscGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                     int64_t *nnz, const void **cscColOffsets, const void **cscRowInd,
                                     const void **cscValues, cusparseIndexType_t *cscColOffsetsType,
                                     cusparseIndexType_t *cscRowIndType, cusparseIndexBase_t *idxBase,
                                     cudaDataType *valueType)
{
    return sparse_get("cusparseCscGet", CUSPARSE_FORMAT_CSC, spMatDescr, rows, cols, nnz, cscColOffsets, cscRowInd,
                      cscValues, cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t cusparseCscGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz,
                                void **cscColOffsets, void **cscRowInd, void **cscValues,
                                cusparseIndexType_t *cscColOffsetsType, cusparseIndexType_t *cscRowIndType,
                                cusparseIndexBase_t *idxBase, cudaDataType *valueType)
{
    return cusparseConstCscGet(spMatDescr, rows, cols, nnz, const_cast<const void **>(cscColOffsets),
                               const_cast<const void **>(cscRowInd), const_cast<const void **>(cscValues),
                               cscColOffsetsType, cscRowIndType, idxBase, valueType);
}

cusparseStatus_t cusparseConstCooGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                     int64_t *nnz, const void **cooRowInd, const void **cooColInd,
                                     const void **cooValues, cusparseIndexType_t *idxType,
                                     cusparseIndexBase_t *idxBase, cudaDataType *valueType)
{
    return sparse_get("cusparseCooGet", CUSPARSE_FORMAT_COO, spMatDescr, rows, cols, nnz, cooRowInd, cooColInd,
                      cooValues, idxType, nullptr, idxBase, valueType);
}

cusparseStatus_t cusparseCooGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz,
                                void **cooRowInd, void **cooColInd, void **cooValues, cusparseIndexType_t *idxType,
                                cusparseIndexBase_t *idxBase, cudaDataType *valueType)
{
    return cusparseConstCooGet(spMatDescr, rows, cols, nnz, const_cast<const void **>(cooRowInd),
                               const_cast<const void **>(cooColInd), const_cast<const void **>(cooValues), idxType,
                               idxBase, valueType);
}

cusparseStatus_t cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr, void *csrRowOffsets, void *csrColInd,
                                        void *csrValues)
{
    return sparse_set_pointers("cusparseCsrSetPointers", CUSPARSE_FORMAT_CSR, spMatDescr, csrRowOffsets, csrColInd,
                               csrValues);
}

cusparseStatus_t cusparseCscSetPointers(cusparseSpMatDescr_t spMatDescr, void *cscColOffsets, void *cscRowInd,
                                        void *cscValues)
{
    return sparse_set_pointers("cusparseCscSetPointers", CUSPARSE_FORMAT_CSC, spMatDescr, cscColOffsets, cscRowInd,
                               cscValues);
}

cusparseStatus_t cusparseCooSetPointers(cusparseSpMatDescr_t spMatDescr, void *cooRows, void *cooColumns,
                                        void *cooValues)
{
    return sparse_set_pointers("cusparseCooSetPointers", CUSPARSE_FORMAT_COO, spMatDescr, cooRows, cooColumns,
                               cooValues);
}

cusparseStatus_t cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                      int64_t *nnz)
{
    if (cusparseStatus_t st = check_spmat(spMatDescr, "cusparseSpMatGetSize"))
        return st;
    if (!rows || !cols || !nnz)
        return INVALID("cusparseSpMatGetSize: rows, cols and nnz must not be NULL");
    *rows = spMatDescr->rows, *cols = spMatDescr->cols, *nnz = spMatDescr->nnz;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr, cusparseFormat_t *format)
{
    if (cusparseStatus_t st = check_spmat(spMatDescr, "cusparseSpMatGetFormat"))
        return st;
    if (!format)
        return INVALID("cusparseSpMatGetFormat: format is NULL");
    *format = spMatDescr->format;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr, cusparseIndexBase_t *idxBase)
{
    if (cusparseStatus_t st = check_spmat(spMatDescr, "cusparseSpMatGetIndexBase"))
        return st;
    if (!idxBase)
        return INVALID("cusparseSpMatGetIndexBase: idxBase is NULL");
    *idxBase = spMatDescr->base;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseConstSpMatGetValues(cusparseConstSpMatDescr_t spMatDescr, const void **values)
{
    if (cusparseStatus_t st = check_spmat(spMatDescr, "cusparseSpMatGetValues"))
        return st;
    if (!values)
        return INVALID("cusparseSpMatGetValues: values is NULL");
    *values = spMatDescr->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr, void **values)
{
    return cusparseConstSpMatGetValues(spMatDescr, const_cast<const void **>(values));
}

cusparseStatus_t cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr, void *values)
{
    if (cusparseStatus_t st = check_spmat(spMatDescr, "cusparseSpMatSetValues"))
        return st;
    spMatDescr->values = values;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- dense matrices ------------------------------------------------------ */

cusparseStatus_t cusparseCreateDnMat(cusparseDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld,
                                     void *values, cudaDataType valueType, cusparseOrder_t order)
{
    return create_dnmat("cusparseCreateDnMat", dnMatDescr, rows, cols, ld, values, valueType, order);
}

cusparseStatus_t cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols,
                                          int64_t ld, const void *values, cudaDataType valueType,
                                          cusparseOrder_t order)
{
    return create_dnmat("cusparseCreateConstDnMat", const_cast<cusparseDnMatDescr_t *>(dnMatDescr), rows, cols, ld,
                        values, valueType, order);
}

cusparseStatus_t cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr)
{
    return destroy(live_dnmats, dnMatDescr, "cusparseDestroyDnMat", "dense matrix");
}

cusparseStatus_t cusparseConstDnMatGet(cusparseConstDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols,
                                       int64_t *ld, const void **values, cudaDataType *type, cusparseOrder_t *order)
{
    if (cusparseStatus_t st = check_dnmat(dnMatDescr, "cusparseDnMatGet"))
        return st;
    if (!rows || !cols || !ld || !values || !type || !order)
        return INVALID("cusparseDnMatGet: an output pointer is NULL (every one must be given)");
    *rows = dnMatDescr->rows, *cols = dnMatDescr->cols, *ld = dnMatDescr->ld;
    *values = dnMatDescr->values, *type = dnMatDescr->type, *order = dnMatDescr->order;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols, int64_t *ld,
                                  void **values, cudaDataType *type, cusparseOrder_t *order)
{
    return cusparseConstDnMatGet(dnMatDescr, rows, cols, ld, const_cast<const void **>(values), type, order);
}

cusparseStatus_t cusparseConstDnMatGetValues(cusparseConstDnMatDescr_t dnMatDescr, const void **values)
{
    if (cusparseStatus_t st = check_dnmat(dnMatDescr, "cusparseDnMatGetValues"))
        return st;
    if (!values)
        return INVALID("cusparseDnMatGetValues: values is NULL");
    *values = dnMatDescr->values;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr, void **values)
{
    return cusparseConstDnMatGetValues(dnMatDescr, const_cast<const void **>(values));
}

cusparseStatus_t cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr, void *values)
{
    if (cusparseStatus_t st = check_dnmat(dnMatDescr, "cusparseDnMatSetValues"))
        return st;
    dnMatDescr->values = values;
    return CUSPARSE_STATUS_SUCCESS;
}

/* ---- SpMV and SpMM ------------------------------------------------------- */

cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                         cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                         const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                         cusparseSpMVAlg_t alg, size_t *bufferSize)
{
    spmv_job job;
    if (cusparseStatus_t st = check_spmv("cusparseSpMV_bufferSize", handle, opA, alpha, matA, vecX, beta, vecY,
                                         computeType, alg, &job))
        return st;
    if (!bufferSize)
        return INVALID("cusparseSpMV_bufferSize: bufferSize is NULL");
    *bufferSize = 0; /* the emulator needs no workspace */
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                         cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                         const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                         cusparseSpMVAlg_t alg, void *externalBuffer)
{
    (void)externalBuffer; /* nothing to prepare */
    spmv_job job;
    return check_spmv("cusparseSpMV_preprocess", handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, &job);
}

cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                              cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
                              cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                              void *externalBuffer)
{
    (void)externalBuffer;
    spmv_job job;
    if (cusparseStatus_t st =
            check_spmv("cusparseSpMV", handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, &job))
        return st;
    return run_in_stream(handle->stream, job, computeType, spmv_run<float>, spmv_run<double>);
}

cusparseStatus_t cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                         const void *alpha, cusparseConstSpMatDescr_t matA,
                                         cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
                                         cudaDataType computeType, cusparseSpMMAlg_t alg, size_t *bufferSize)
{
    spmm_job job;
    if (cusparseStatus_t st = check_spmm("cusparseSpMM_bufferSize", handle, opA, opB, alpha, matA, matB, beta, matC,
                                         computeType, alg, &job))
        return st;
    if (!bufferSize)
        return INVALID("cusparseSpMM_bufferSize: bufferSize is NULL");
    *bufferSize = 0;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpMM_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                         const void *alpha, cusparseConstSpMatDescr_t matA,
                                         cusparseConstDnMatDescr_t matB, const void *beta, cusparseDnMatDescr_t matC,
                                         cudaDataType computeType, cusparseSpMMAlg_t alg, void *externalBuffer)
{
    (void)externalBuffer;
    spmm_job job;
    return check_spmm("cusparseSpMM_preprocess", handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg,
                      &job);
}

cusparseStatus_t cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                              const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                              const void *beta, cusparseDnMatDescr_t matC, cudaDataType computeType,
                              cusparseSpMMAlg_t alg, void *externalBuffer)
{
    (void)externalBuffer;
    spmm_job job;
    if (cusparseStatus_t st = check_spmm("cusparseSpMM", handle, opA, opB, alpha, matA, matB, beta, matC,
                                         computeType, alg, &job))
        return st;
    return run_in_stream(handle->stream, job, computeType, spmm_run<float>, spmm_run<double>);
}

} /* extern "C" */
