/* simtlab CPU emulator — cuSPARSE (include/cusparse.h) on the host: the
 * handle and the descriptors (the products are in libs/cusparse/products.cpp).
 *
 * Descriptors are host structs that record what they were given; the
 * emulator keeps the set of live ones, so that a destroyed or made-up
 * descriptor is named instead of read. What a descriptor points to is
 * checked when a product uses it (cuSPARSE accepts NULL arrays at creation).
 */
#include "libs/cusparse/internal.hpp"
#include "runtime/internal.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>

namespace simtlab_emu {
namespace sparse {
namespace {

using registry = libs::handle_registry<const void *>;
registry live_handles, live_spmats, live_dnvecs, live_dnmats, live_matdescrs;

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

cusparseStatus_t check_live(const registry &set, const void *d, const char *api, const char *name, const char *kind,
                            const char *maker)
{
    if (!d)
        return INVALID("%s: %s is NULL", api, name);
    if (!set.is_live(d))
        return INVALID("%s: %s 0x%" PRIxPTR " is not a live %s descriptor (%s makes one; it is gone once destroyed)",
                       api, name, addr(d), kind, maker);
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_matdescr(const void *d, const char *api)
{
    return check_live(live_matdescrs, d, api, "descrA", "legacy matrix (cusparseMatDescr_t)", "cusparseCreateMatDescr");
}

template <class T>
cusparseStatus_t register_new(registry &set, T *d, T **out)
{
    if (!set.add(d)) {
        delete d;
        return CUSPARSE_STATUS_ALLOC_FAILED;
    }
    *out = d;
    return CUSPARSE_STATUS_SUCCESS;
}

template <class T>
cusparseStatus_t destroy(registry &set, const T *d, const char *api, const char *kind)
{
    if (!d)
        return CUSPARSE_STATUS_SUCCESS; /* as cuSPARSE: destroying NULL does nothing */
    if (!set.remove(d))
        return INVALID("%s: 0x%" PRIxPTR " is not a live %s descriptor (destroyed twice, or never created)", api,
                       addr(d), kind);
    delete d;
    return CUSPARSE_STATUS_SUCCESS;
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

} /* namespace */

cusparseStatus_t check_handle(cusparseHandle_t h, const char *api)
{
    if (!live_handles.is_live(h))
        return fail(CUSPARSE_STATUS_NOT_INITIALIZED,
                    "%s: handle 0x%" PRIxPTR " is not a live cuSPARSE handle (call cusparseCreate first)", api, addr(h));
    if (cudaError_t e = sticky_error())
        return fail(CUSPARSE_STATUS_EXECUTION_FAILED, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t check_spmat(const void *d, const char *api, const char *name)
{
    return check_live(live_spmats, d, api, name, "sparse matrix", "cusparseCreateCsr/Csc/Coo");
}
cusparseStatus_t check_dnvec(const void *d, const char *api, const char *name)
{
    return check_live(live_dnvecs, d, api, name, "dense vector", "cusparseCreateDnVec");
}
cusparseStatus_t check_dnmat(const void *d, const char *api, const char *name)
{
    return check_live(live_dnmats, d, api, name, "dense matrix", "cusparseCreateDnMat");
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

cusparseStatus_t check_value_type(cudaDataType t, const char *api, const char *name)
{
    if (t == CUDA_R_32F || t == CUDA_R_64F)
        return CUSPARSE_STATUS_SUCCESS;
    return NOT_SUPPORTED("%s: %s %d (%s) is not supported by the emulator: its cuSPARSE computes with CUDA_R_32F "
                         "and CUDA_R_64F",
                         api, name, static_cast<int>(t), type_name(t));
}

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
    if (!live_handles.remove(handle))
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

cusparseStatus_t cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute,
                                           void *data, size_t dataSize)
{
    const char *api = "cusparseSpMatGetAttribute";
    if (cusparseStatus_t st = check_spmat(spMatDescr, api))
        return st;
    if (!data)
        return INVALID("%s: data is NULL", api);
    if (attribute == CUSPARSE_SPMAT_FILL_MODE || attribute == CUSPARSE_SPMAT_DIAG_TYPE) {
        const bool fill = attribute == CUSPARSE_SPMAT_FILL_MODE;
        const size_t want = fill ? sizeof(cusparseFillMode_t) : sizeof(cusparseDiagType_t);
        if (dataSize != want)
            return INVALID("%s: dataSize %zu is not the size of a %s (%zu)", api, dataSize,
                           fill ? "cusparseFillMode_t" : "cusparseDiagType_t", want);
        if (fill)
            *static_cast<cusparseFillMode_t *>(data) = spMatDescr->fill;
        else
            *static_cast<cusparseDiagType_t *>(data) = spMatDescr->diag;
        return CUSPARSE_STATUS_SUCCESS;
    }
    return INVALID("%s: attribute %d is not a cusparseSpMatAttribute_t", api, static_cast<int>(attribute));
}

static_assert(sizeof(cusparseFillMode_t) == sizeof(int) && sizeof(cusparseDiagType_t) == sizeof(int),
              "the attributes are read as int");

cusparseStatus_t cusparseSpMatSetAttribute(cusparseSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute,
                                           void *data, size_t dataSize)
{
    const char *api = "cusparseSpMatSetAttribute";
    if (cusparseStatus_t st = check_spmat(spMatDescr, api))
        return st;
    if (!data)
        return INVALID("%s: data is NULL", api);
    if (attribute == CUSPARSE_SPMAT_FILL_MODE) {
        if (dataSize != sizeof(cusparseFillMode_t))
            return INVALID("%s: dataSize %zu is not the size of a cusparseFillMode_t (%zu)", api, dataSize,
                           sizeof(cusparseFillMode_t));
        int f; /* read as int: a value outside the enum must not be loaded as one */
        std::memcpy(&f, data, sizeof f);
        if (f != CUSPARSE_FILL_MODE_LOWER && f != CUSPARSE_FILL_MODE_UPPER)
            return INVALID("%s: *data %d is not a cusparseFillMode_t", api, f);
        spMatDescr->fill = static_cast<cusparseFillMode_t>(f);
        return CUSPARSE_STATUS_SUCCESS;
    }
    if (attribute == CUSPARSE_SPMAT_DIAG_TYPE) {
        if (dataSize != sizeof(cusparseDiagType_t))
            return INVALID("%s: dataSize %zu is not the size of a cusparseDiagType_t (%zu)", api, dataSize,
                           sizeof(cusparseDiagType_t));
        int d;
        std::memcpy(&d, data, sizeof d);
        if (d != CUSPARSE_DIAG_TYPE_NON_UNIT && d != CUSPARSE_DIAG_TYPE_UNIT)
            return INVALID("%s: *data %d is not a cusparseDiagType_t", api, d);
        spMatDescr->diag = static_cast<cusparseDiagType_t>(d);
        return CUSPARSE_STATUS_SUCCESS;
    }
    return INVALID("%s: attribute %d is not a cusparseSpMatAttribute_t", api, static_cast<int>(attribute));
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

} /* extern "C" */
