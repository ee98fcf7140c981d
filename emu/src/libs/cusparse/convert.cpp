/* simtlab CPU emulator — cuSPARSE's conversions between sparse and dense
 * matrices on the host (include/cusparse.h): SparseToDense, and
 * DenseToSparse in its three calls. Sparse to dense runs in stream order like
 * the products (libs/cusparse/products.cpp); dense to sparse runs at the call,
 * since its analysis sets the descriptor's nnz, which the caller reads back
 * before it allocates.
 */
#include "libs/cusparse/internal.hpp"

#include <cinttypes>
#include <cstdint>
#include <new>
#include <vector>

namespace simtlab_emu {
namespace sparse {
namespace {

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
