/* simtlab CPU emulator — cuSPARSE's SpMV and SpMM on the host
 * (include/cusparse.h; the handle and descriptors: libs/cusparse/cusparse.cpp; sparse <->
 * dense: libs/cusparse/convert.cpp).
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
#include "libs/cusparse/internal.hpp"
#include "runtime/internal.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <new>
#include <utility>
#include <vector>

namespace simtlab_emu {
namespace sparse {

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

namespace {

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
