/* simtlab CPU emulator — cuSPARSE's SpSV on the host (include/cusparse.h):
 * op(A) Y = alpha X for a triangular A, by substitution in the compute type.
 *
 * The triangle the matrix's fill-mode attribute names is used and the
 * other ignored, as cuSPARSE does; with a unit diagonal the stored diagonal
 * entries are ignored too. The transpose of a lower triangle is an upper
 * one: op(A)'s rows are gathered first (every index checked, as in SpMV),
 * then solved top down (lower) or bottom up (upper) into scratch memory,
 * and Y is written only when all went well. Runs in stream order, or as a
 * graph node under capture (libs/cusparse/internal.hpp, run_in_stream).
 */
#include "libs/cusparse/internal.hpp"

#include <cinttypes>
#include <new>
#include <utility>
#include <vector>

struct cusparseSpSVDescr {
    bool analysed;
    const void *matrix; /* the matA and opA of the analysis */
    cusparseOperation_t op;
};

namespace simtlab_emu {
namespace sparse {
namespace {

libs::handle_registry<const void *> live_spsv;

cusparseStatus_t check_spsv_descr(const void *d, const char *api)
{
    if (!d)
        return INVALID("%s: spsvDescr is NULL", api);
    if (!live_spsv.is_live(d))
        return INVALID("%s: spsvDescr 0x%" PRIxPTR " is not a live SpSV descriptor (cusparseSpSV_createDescr makes "
                       "one; it is gone once destroyed)",
                       api, addr(d));
    return CUSPARSE_STATUS_SUCCESS;
}

struct spsv_job {
    const char *api;
    bool transpose;
    scalar alpha;
    cusparseSpMatDescr A;
    cusparseDnVecDescr X, Y;
};

template <class V>
cusparseStatus_t spsv_run(const spsv_job &j)
{
    const int64_t n = j.A.rows;
    if (n == 0)
        return CUSPARSE_STATUS_SUCCESS;
    const bool lower_a = j.A.fill == CUSPARSE_FILL_MODE_LOWER, unit = j.A.diag == CUSPARSE_DIAG_TYPE_UNIT;
    const bool lower = lower_a != j.transpose; /* op(A)'s triangle */
    std::vector<std::vector<std::pair<int64_t, V>>> rows; /* op(A)'s off-diagonal entries, by row */
    std::vector<V> diag, y;
    try {
        rows.resize(static_cast<std::size_t>(n));
        diag.assign(static_cast<std::size_t>(n), V(0));
        y.assign(static_cast<std::size_t>(n), V(0));
    } catch (const std::bad_alloc &) {
        return fail(CUSPARSE_STATUS_ALLOC_FAILED, "%s: out of host memory for %" PRId64 " rows", j.api, n);
    }
    open_all open;
    cusparseStatus_t st = visit<V>(j.A, j.api, "matA", [&](int64_t r, int64_t c, V v) {
        if (lower_a ? c > r : c < r)
            return; /* the other triangle */
        const int64_t i = j.transpose ? c : r, k = j.transpose ? r : c;
        if (i == k)
            diag[i] += v;
        else
            rows[i].emplace_back(k, v);
    });
    if (st)
        return st;
    const V alpha = read_scalar<V>(j.alpha);
    const V *x = static_cast<const V *>(j.X.values);
    for (int64_t step = 0; step < n; ++step) {
        const int64_t i = lower ? step : n - 1 - step;
        V s = alpha * x[i];
        for (const auto &e : rows[i])
            s -= e.second * y[e.first];
        y[i] = unit ? s : s / diag[i];
    }
    V *out = static_cast<V *>(j.Y.values);
    for (int64_t i = 0; i < n; ++i)
        out[i] = y[i];
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_spsv(const char *api, cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                            cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, cusparseDnVecDescr_t vecY,
                            cudaDataType computeType, cusparseSpSVAlg_t alg, cusparseSpSVDescr_t spsvDescr,
                            spsv_job *job)
{
    cusparseStatus_t st;
    if ((st = check_handle(handle, api)) || (st = check_spmat(matA, api, "matA")) ||
        (st = check_dnvec(vecX, api, "vecX")) || (st = check_dnvec(vecY, api, "vecY")) ||
        (st = check_spsv_descr(spsvDescr, api)))
        return st;
    if (!valid_op(opA))
        return INVALID("%s: opA %d is not a cusparseOperation_t", api, static_cast<int>(opA));
    const cusparseSpMatDescr &A = *matA;
    if ((st = check_compute_types(api, computeType, A.type, "vecX", vecX->type, "vecY", vecY->type)))
        return st;
    if (alg != CUSPARSE_SPSV_ALG_DEFAULT)
        return INVALID("%s: alg %d is not CUSPARSE_SPSV_ALG_DEFAULT", api, static_cast<int>(alg));
    if (A.rows != A.cols)
        return INVALID("%s: matA is %" PRId64 " x %" PRId64 ": a triangular solve needs a square matrix", api, A.rows,
                       A.cols);
    if (vecX->size != A.rows || vecY->size != A.rows)
        return INVALID("%s: vecX and vecY have %" PRId64 " and %" PRId64 " elements; matA needs %" PRId64, api,
                       vecX->size, vecY->size, A.rows);
    if ((st = take_scalar(alpha, computeType, handle->pointer_mode, api, "alpha", &job->alpha)))
        return st;
    if (A.rows > 0 && ((st = check_sparse_memory(A, api, "matA")) ||
                       (st = check_array(vecX->values, A.rows, value_bytes(computeType), api, "vecX", "values")) ||
                       (st = check_array(vecY->values, A.rows, value_bytes(computeType), api, "vecY", "values"))))
        return st;
    job->api = api;
    job->transpose = opA != CUSPARSE_OPERATION_NON_TRANSPOSE;
    job->A = A, job->X = *vecX, job->Y = *vecY;
    return CUSPARSE_STATUS_SUCCESS;
}

} /* namespace */
} /* namespace sparse */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::sparse;

extern "C" {

cusparseStatus_t cusparseSpSV_createDescr(cusparseSpSVDescr_t *descr)
{
    if (!descr)
        return INVALID("cusparseSpSV_createDescr: descr is NULL (pass the address of a cusparseSpSVDescr_t)");
    cusparseSpSVDescr_t d = new (std::nothrow) cusparseSpSVDescr{false, nullptr, CUSPARSE_OPERATION_NON_TRANSPOSE};
    if (!d)
        return CUSPARSE_STATUS_ALLOC_FAILED;
    if (!live_spsv.add(d)) {
        delete d;
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    *descr = d;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpSV_destroyDescr(cusparseSpSVDescr_t descr)
{
    if (!descr)
        return CUSPARSE_STATUS_SUCCESS;
    if (!live_spsv.remove(descr))
        return INVALID("cusparseSpSV_destroyDescr: 0x%" PRIxPTR " is not a live SpSV descriptor (destroyed twice, or "
                       "never created)",
                       addr(descr));
    delete descr;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpSV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                         cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                         cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpSVAlg_t alg,
                                         cusparseSpSVDescr_t spsvDescr, size_t *bufferSize)
{
    spsv_job job;
    if (cusparseStatus_t st = check_spsv("cusparseSpSV_bufferSize", handle, opA, alpha, matA, vecX, vecY, computeType,
                                         alg, spsvDescr, &job))
        return st;
    if (!bufferSize)
        return INVALID("cusparseSpSV_bufferSize: bufferSize is NULL");
    *bufferSize = 0;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpSV_analysis(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                       cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                       cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpSVAlg_t alg,
                                       cusparseSpSVDescr_t spsvDescr, void *externalBuffer)
{
    (void)externalBuffer;
    spsv_job job;
    if (cusparseStatus_t st = check_spsv("cusparseSpSV_analysis", handle, opA, alpha, matA, vecX, vecY, computeType,
                                         alg, spsvDescr, &job))
        return st;
    spsvDescr->analysed = true, spsvDescr->matrix = matA, spsvDescr->op = opA;
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseSpSV_solve(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpSVAlg_t alg,
                                    cusparseSpSVDescr_t spsvDescr)
{
    const char *api = "cusparseSpSV_solve";
    spsv_job job;
    if (cusparseStatus_t st =
            check_spsv(api, handle, opA, alpha, matA, vecX, vecY, computeType, alg, spsvDescr, &job))
        return st;
    if (!spsvDescr->analysed || spsvDescr->matrix != matA || spsvDescr->op != opA)
        return INVALID("%s: spsvDescr was not analysed for this matA and opA: call cusparseSpSV_analysis first, "
                       "with the same arguments",
                       api);
    return run_in_stream(handle->stream, job, computeType, spsv_run<float>, spsv_run<double>);
}

} /* extern "C" */
