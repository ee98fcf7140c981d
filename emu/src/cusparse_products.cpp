/* simtlab CPU emulator — cuSPARSE's SpMV, SpMM and the conversions between
 * sparse and dense on the host (include/cusparse.h; the handle and
 * descriptors: cusparse.cpp).
 *
 * Each checks, at the call, the handle, the operations, the types, the
 * shapes and the scalars, and that every array the product reads or writes
 * lies whole inside one live device allocation (cudaMalloc or
 * cudaMallocManaged). Then it runs, in stream order: launches and copies
 * run at their call in the emulator, so running the product at its call is
 * the caller's stream order; a stream being captured into a graph gets the
 * product as a node instead.
 *
 * A product visits the stored entries once, checking each index against
 * the matrix as it goes (an index out of range is INVALID_VALUE naming the
 * array and the position, where a GPU would read or write out of bounds),
 * and accumulates op(A) times X (or B) in the compute type into a scratch
 * array; only when every entry was good does it write Y (C) =
 * alpha * scratch + beta * Y, without reading Y when beta is zero.
 */
#include "cusparse_internal.hpp"
#include "internal.hpp"
#include "runtime_internal.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <new>
#include <utility>
#include <vector>

namespace simtlab_emu {
namespace sparse {
namespace {

/* `count` elements of `bytes` each at p, inside one device allocation; a
 * count below 0 is one that overflowed (sizes no memory holds). */
cusparseStatus_t check_array(const void *p, int64_t count, std::size_t bytes, const char *api, const char *owner,
                             const char *name)
{
    if (count == 0)
        return CUSPARSE_STATUS_SUCCESS;
    if (count < 0 || static_cast<uint64_t>(count) > SIZE_MAX / bytes)
        return INVALID("%s: %s's %s would span more elements than any memory holds (its sizes or ld are too large)",
                       api, owner, name);
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
    const int64_t outer = A.format == CUSPARSE_FORMAT_CSR ? A.rows : A.cols;
    const int64_t p0_count = A.format == CUSPARSE_FORMAT_COO ? A.nnz : outer == INT64_MAX ? -1 : outer + 1;
    cusparseStatus_t st;
    if ((st = check_array(A.p0, p0_count, index_bytes(A.p0_type), api, owner, n.p0)) ||
        (st = check_array(A.p1, A.nnz, index_bytes(A.p1_type), api, owner, n.p1)) ||
        (st = check_array(A.values, A.nnz, value_bytes(A.type), api, owner, n.values)))
        return st;
    return CUSPARSE_STATUS_SUCCESS;
}

/* Elements a dense matrix spans; -1 if that overflows. */
int64_t dense_extent(const cusparseDnMatDescr &M)
{
    if (M.rows == 0 || M.cols == 0)
        return 0;
    const bool col = M.order == CUSPARSE_ORDER_COL;
    int64_t span;
    if (__builtin_mul_overflow(M.ld, (col ? M.cols : M.rows) - 1, &span) ||
        __builtin_add_overflow(span, col ? M.rows : M.cols, &span))
        return -1;
    return span;
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

/* ---- conversions ---------------------------------------------------------- */

/* Element (i, j) of a stored dense matrix is at i * si + j * sj. */
void dense_strides(const cusparseDnMatDescr &M, int64_t *si, int64_t *sj)
{
    const bool col = M.order == CUSPARSE_ORDER_COL;
    *si = col ? 1 : M.ld, *sj = col ? M.ld : 1;
}

struct to_dense_job {
    const char *api;
    cusparseSpMatDescr A;
    cusparseDnMatDescr B;
};

template <class V>
cusparseStatus_t to_dense_run(const to_dense_job &j)
{
    const int64_t m = j.B.rows, n = j.B.cols;
    if (m == 0 || n == 0)
        return CUSPARSE_STATUS_SUCCESS;
    std::vector<V> acc; /* row-major m x n; duplicates of COO add up */
    try {
        acc.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(n), V(0));
    } catch (const std::bad_alloc &) {
        return fail(CUSPARSE_STATUS_ALLOC_FAILED, "%s: out of host memory for %" PRId64 " x %" PRId64, j.api, m, n);
    }
    open_all open;
    if (cusparseStatus_t st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) { acc[r * n + c] += v; }))
        return st;
    int64_t si, sj;
    dense_strides(j.B, &si, &sj);
    V *B = static_cast<V *>(j.B.values);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t c = 0; c < n; ++c)
            B[i * si + c * sj] = acc[i * n + c];
    return CUSPARSE_STATUS_SUCCESS;
}

/* The checks both directions share: live descriptors, one value type, one
 * shape, the algorithm. */
cusparseStatus_t check_convert(const char *api, cusparseHandle_t handle, const cusparseSpMatDescr *sp,
                               const char *sp_name, const cusparseDnMatDescr *dn, const char *dn_name, int alg)
{
    cusparseStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_spmat(sp, api, sp_name)) || (st = check_dnmat(dn, api, dn_name)))
        return st;
    if (sp->type != dn->type)
        return NOT_SUPPORTED("%s: %s is %s but %s is %s: the emulator converts between matrices of one value type",
                             api, sp_name, type_name(sp->type), dn_name, type_name(dn->type));
    if (sp->rows != dn->rows || sp->cols != dn->cols)
        return INVALID("%s: %s is %" PRId64 " x %" PRId64 " but %s is %" PRId64 " x %" PRId64, api, sp_name, sp->rows,
                       sp->cols, dn_name, dn->rows, dn->cols);
    if (alg != 0)
        return INVALID("%s: alg %d is not the default algorithm (0)", api, alg);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_to_dense(const char *api, cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t alg, to_dense_job *job)
{
    cusparseStatus_t st;
    if ((st = check_convert(api, handle, matA, "matA", matB, "matB", static_cast<int>(alg))))
        return st;
    const bool empty = matB->rows == 0 || matB->cols == 0;
    if ((!empty && (st = check_sparse_memory(*matA, api, "matA"))) ||
        (st = check_array(matB->values, dense_extent(*matB), value_bytes(matB->type), api, "matB", "values")))
        return st;
    job->api = api, job->A = *matA, job->B = *matB;
    return CUSPARSE_STATUS_SUCCESS;
}

/* Dense to sparse runs at the call: its analysis sets matB's nnz, which the
 * caller reads back (cusparseSpMatGetSize) before it allocates. */
cusparseStatus_t check_to_sparse(const char *api, cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                 cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg)
{
    cusparseStatus_t st;
    if ((st = check_convert(api, handle, matB, "matB", matA, "matA", static_cast<int>(alg))))
        return st;
    if (runtime::stream_capturing(handle->stream))
        return NOT_SUPPORTED("%s: the handle's stream is being captured; the emulator converts at the call (the "
                             "analysis sets matB's nnz), so not in a graph",
                             api);
    return check_array(matA->values, dense_extent(*matA), value_bytes(matA->type), api, "matA", "values");
}

void store_index(void *p, int64_t k, cusparseIndexType_t t, int64_t v)
{
    if (t == CUSPARSE_INDEX_64I)
        static_cast<int64_t *>(p)[k] = v;
    else
        static_cast<int32_t *>(p)[k] = static_cast<int32_t>(v);
}

/* Visits the nonzeros of a dense matrix (memory open) in the order of the
 * sparse format: row by row for CSR and COO, column by column for CSC;
 * f(outer, inner, k, value) with k the entry's position. */
template <class V, class F>
void each_nonzero(const cusparseDnMatDescr &A, bool by_column, F &&f)
{
    int64_t si, sj;
    dense_strides(A, &si, &sj);
    const V *a = static_cast<const V *>(A.values);
    const int64_t outer = by_column ? A.cols : A.rows, inner = by_column ? A.rows : A.cols;
    int64_t k = 0;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const V v = by_column ? a[i * si + o * sj] : a[o * si + i * sj];
            if (v != V(0) || v != v) /* NaN is stored too */
                f(o, i, k++, v);
        }
}

/* The analysis: counts the nonzeros, writes CSR/CSC offsets, sets nnz. */
template <class V>
cusparseStatus_t to_sparse_analysis(const char *api, const cusparseDnMatDescr &A, cusparseSpMatDescr &B)
{
    const bool csc = B.format == CUSPARSE_FORMAT_CSC, coo = B.format == CUSPARSE_FORMAT_COO;
    const int64_t outer = csc ? B.cols : B.rows;
    const array_names n = names_of(B.format);
    if (!coo)
        if (cusparseStatus_t st = check_array(B.p0, outer + 1, index_bytes(B.p0_type), api, "matB", n.p0))
            return st;
    std::vector<int64_t> counts;
    try {
        counts.assign(static_cast<std::size_t>(outer), 0);
    } catch (const std::bad_alloc &) {
        return fail(CUSPARSE_STATUS_ALLOC_FAILED, "%s: out of host memory", api);
    }
    open_all open;
    int64_t nnz = 0;
    each_nonzero<V>(A, csc, [&](int64_t o, int64_t, int64_t, V) { ++counts[o], ++nnz; });
    const int64_t base = B.base;
    if ((B.p0_type == CUSPARSE_INDEX_32I || B.p1_type == CUSPARSE_INDEX_32I) && nnz + base > INT32_MAX)
        return NOT_SUPPORTED("%s: matA has %" PRId64 " nonzeros, more than CUSPARSE_INDEX_32I indices can count", api,
                             nnz);
    if (!coo) {
        int64_t at = base;
        store_index(B.p0, 0, B.p0_type, at);
        for (int64_t o = 0; o < outer; ++o)
            store_index(B.p0, o + 1, B.p0_type, at += counts[o]);
    }
    B.nnz = nnz;
    return CUSPARSE_STATUS_SUCCESS;
}

template <class V>
cusparseStatus_t to_sparse_convert(const char *api, const cusparseDnMatDescr &A, const cusparseSpMatDescr &B)
{
    const bool csc = B.format == CUSPARSE_FORMAT_CSC, coo = B.format == CUSPARSE_FORMAT_COO;
    int64_t nnz = 0;
    {
        open_all open;
        each_nonzero<V>(A, csc, [&](int64_t, int64_t, int64_t, V) { ++nnz; });
    }
    if (nnz != B.nnz)
        return INVALID("%s: matA has %" PRId64 " nonzeros but matB's nnz is %" PRId64
                       ": call cusparseDenseToSparse_analysis first, then give matB arrays of that size",
                       api, nnz, B.nnz);
    if (cusparseStatus_t st = check_sparse_memory(B, api, "matB"))
        return st;
    const int64_t base = B.base;
    const cusparseIndexType_t inner_type = coo ? B.p0_type : B.p1_type;
    open_all open;
    V *values = static_cast<V *>(B.values);
    each_nonzero<V>(A, csc, [&](int64_t o, int64_t i, int64_t k, V v) {
        if (coo)
            store_index(B.p0, k, B.p0_type, o + base);
        store_index(B.p1, k, inner_type, i + base);
        values[k] = v;
    });
    return CUSPARSE_STATUS_SUCCESS;
}

} /* namespace */
} /* namespace sparse */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::sparse;

extern "C" {

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

extern "C" {

cusparseStatus_t cusparseSparseToDense_bufferSize(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                  cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t alg,
                                                  size_t *bufferSize)
{
    to_dense_job job;
    if (cusparseStatus_t st = check_to_dense("cusparseSparseToDense_bufferSize", handle, matA, matB, alg, &job))
        return st;
    if (!bufferSize)
        return INVALID("cusparseSparseToDense_bufferSize: bufferSize is NULL");
    *bufferSize = 0;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSparseToDense(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                       cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t alg, void *externalBuffer)
{
    (void)externalBuffer;
    to_dense_job job;
    if (cusparseStatus_t st = check_to_dense("cusparseSparseToDense", handle, matA, matB, alg, &job))
        return st;
    return run_in_stream(handle->stream, job, matB->type, to_dense_run<float>, to_dense_run<double>);
}

cusparseStatus_t cusparseDenseToSparse_bufferSize(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                  cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg,
                                                  size_t *bufferSize)
{
    if (cusparseStatus_t st = check_to_sparse("cusparseDenseToSparse_bufferSize", handle, matA, matB, alg))
        return st;
    if (!bufferSize)
        return INVALID("cusparseDenseToSparse_bufferSize: bufferSize is NULL");
    *bufferSize = 0;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseDenseToSparse_analysis(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg,
                                                void *externalBuffer)
{
    (void)externalBuffer;
    const char *api = "cusparseDenseToSparse_analysis";
    if (cusparseStatus_t st = check_to_sparse(api, handle, matA, matB, alg))
        return st;
    return matA->type == CUDA_R_64F ? to_sparse_analysis<double>(api, *matA, *matB)
                                    : to_sparse_analysis<float>(api, *matA, *matB);
}

cusparseStatus_t cusparseDenseToSparse_convert(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                               cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg,
                                               void *externalBuffer)
{
    (void)externalBuffer;
    const char *api = "cusparseDenseToSparse_convert";
    if (cusparseStatus_t st = check_to_sparse(api, handle, matA, matB, alg))
        return st;
    return matA->type == CUDA_R_64F ? to_sparse_convert<double>(api, *matA, *matB)
                                    : to_sparse_convert<float>(api, *matA, *matB);
}

} /* extern "C" */
