/* simtlab CPU emulator — <cusparse.h>: cuSPARSE's generic API as students
 * meet it, for C and C++.
 *
 * Names, signatures and enum values follow cuSPARSE 12.6 (CUDA 13), so
 * host code compiles unchanged against either backend. Provided:
 *
 *   the handle         cusparseCreate, Destroy, SetStream, GetStream,
 *                      Set/GetPointerMode, GetVersion, GetErrorName/String
 *   cusparseMatDescr_t the legacy descriptor's Create/Destroy/Set/Get calls
 *   sparse matrices    CSR, CSC and COO (cusparseCreateCsr/Csc/Coo and their
 *                      Const forms, Get, SetPointers, DestroySpMat,
 *                      SpMatGetSize/Format/IndexBase/Values, SpMatSetValues)
 *                      with 32- or 64-bit indices, base zero or one
 *   dense vectors and  cusparseCreateDnVec/DnMat (row- or column-major),
 *   matrices           their Const forms, Get, Get/SetValues, Destroy
 *   SpMV, SpMM         with their _bufferSize and _preprocess calls: every
 *                      operation (N, T, C: for real types C is T), every
 *                      algorithm of a provided format, in float (CUDA_R_32F)
 *                      or double (CUDA_R_64F), A, X, Y (B, C) and the compute
 *                      type all of one type
 *   SpSV               triangular solves (createDescr, bufferSize,
 *                      analysis, solve), with cusparseSpMatGet/SetAttribute
 *   conversions        cusparseSparseToDense, cusparseDenseToSparse
 *                      (_bufferSize, _analysis, _convert)
 *
 * The emulator runs each call on the host, in stream order (emu/src/
 * libs/cusparse/cusparse.cpp): it checks the arguments, then that every array lies inside
 * one device allocation, then, while computing, that every index of the
 * sparse matrix is inside it; a failed check returns
 * CUSPARSE_STATUS_INVALID_VALUE (NOT_SUPPORTED for what cuSPARSE computes
 * but the emulator does not) and prints one line naming the function and
 * the argument (simtlab_emu_last_diagnostic() returns it). Results are those
 * of a correct implementation; timings are CPU timings, never GPU ones.
 * Everything else of cuSPARSE (SpGEMM, SpSM, Csr2cscEx2, the BSR, ELL and
 * SELL formats, half and complex values) is not declared here.
 */
#ifndef SIMTLAB_EMU_CUSPARSE_H
#define SIMTLAB_EMU_CUSPARSE_H
#define CUSPARSE_H_ /* the toolkit's guard */
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_CUSPARSE)
#error "simtlab emulator: this emulator was built without cuSPARSE: configure it with -DSIMTLAB_EMU_WITH_CUSPARSE=ON"
#endif

#include <cuComplex.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The cuSPARSE version the emulator mimics (12.6.3, shipped with CUDA 13). */
#define CUSPARSE_VER_MAJOR 12
#define CUSPARSE_VER_MINOR 6
#define CUSPARSE_VER_PATCH 3
#define CUSPARSE_VER_BUILD 3
#define CUSPARSE_VERSION (CUSPARSE_VER_MAJOR * 1000 + CUSPARSE_VER_MINOR * 100 + CUSPARSE_VER_PATCH)

#ifndef CUSPARSEAPI
#define CUSPARSEAPI
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library_types.h: element types (as in cublas_api.h) -------------- */
#ifndef SIMTLAB_EMU_LIBRARY_TYPES
#define SIMTLAB_EMU_LIBRARY_TYPES 1
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

typedef enum {
    CUSPARSE_STATUS_SUCCESS = 0,
    CUSPARSE_STATUS_NOT_INITIALIZED = 1,
    CUSPARSE_STATUS_ALLOC_FAILED = 2,
    CUSPARSE_STATUS_INVALID_VALUE = 3,
    CUSPARSE_STATUS_ARCH_MISMATCH = 4,
    CUSPARSE_STATUS_MAPPING_ERROR = 5,
    CUSPARSE_STATUS_EXECUTION_FAILED = 6,
    CUSPARSE_STATUS_INTERNAL_ERROR = 7,
    CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    CUSPARSE_STATUS_ZERO_PIVOT = 9,
    CUSPARSE_STATUS_NOT_SUPPORTED = 10,
    CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} cusparseStatus_t;

typedef enum { CUSPARSE_POINTER_MODE_HOST = 0, CUSPARSE_POINTER_MODE_DEVICE = 1 } cusparsePointerMode_t;
typedef enum { CUSPARSE_ACTION_SYMBOLIC = 0, CUSPARSE_ACTION_NUMERIC = 1 } cusparseAction_t;
typedef enum {
    CUSPARSE_MATRIX_TYPE_GENERAL = 0,
    CUSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
    CUSPARSE_MATRIX_TYPE_HERMITIAN = 2,
    CUSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} cusparseMatrixType_t;
typedef enum { CUSPARSE_FILL_MODE_LOWER = 0, CUSPARSE_FILL_MODE_UPPER = 1 } cusparseFillMode_t;
typedef enum { CUSPARSE_DIAG_TYPE_NON_UNIT = 0, CUSPARSE_DIAG_TYPE_UNIT = 1 } cusparseDiagType_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
typedef enum {
    CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
    CUSPARSE_OPERATION_TRANSPOSE = 1,
    CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2 /* for real types, the same as TRANSPOSE */
} cusparseOperation_t;
typedef enum { CUSPARSE_DIRECTION_ROW = 0, CUSPARSE_DIRECTION_COLUMN = 1 } cusparseDirection_t;

/* The formats of the generic API; the emulator computes with CSR, CSC and
 * COO (the others have no create call here). */
typedef enum {
    CUSPARSE_FORMAT_CSR = 1,
    CUSPARSE_FORMAT_CSC = 2,
    CUSPARSE_FORMAT_COO = 3,
    CUSPARSE_FORMAT_BLOCKED_ELL = 5,
    CUSPARSE_FORMAT_BSR = 6,
    CUSPARSE_FORMAT_SLICED_ELLPACK = 7
} cusparseFormat_t;
typedef enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 } cusparseOrder_t;
/* 16U is NOT_SUPPORTED by the emulator. */
typedef enum { CUSPARSE_INDEX_16U = 1, CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 } cusparseIndexType_t;

/* Algorithms choose among GPU kernels; the emulator has one way to compute
 * each product and accepts every algorithm of the matrix's format. */
typedef enum {
    CUSPARSE_SPMV_ALG_DEFAULT = 0,
    CUSPARSE_SPMV_CSR_ALG1 = 2,
    CUSPARSE_SPMV_CSR_ALG2 = 3,
    CUSPARSE_SPMV_COO_ALG1 = 1,
    CUSPARSE_SPMV_COO_ALG2 = 4,
    CUSPARSE_SPMV_SELL_ALG1 = 5,
    CUSPARSE_SPMV_BSR_ALG1 = 6
} cusparseSpMVAlg_t;
typedef enum {
    CUSPARSE_SPMM_ALG_DEFAULT = 0,
    CUSPARSE_SPMM_COO_ALG1 = 1,
    CUSPARSE_SPMM_COO_ALG2 = 2,
    CUSPARSE_SPMM_COO_ALG3 = 3,
    CUSPARSE_SPMM_COO_ALG4 = 5,
    CUSPARSE_SPMM_CSR_ALG1 = 4,
    CUSPARSE_SPMM_CSR_ALG2 = 6,
    CUSPARSE_SPMM_CSR_ALG3 = 12,
    CUSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13,
    CUSPARSE_SPMM_BSR_ALG1 = 14
} cusparseSpMMAlg_t;

/* CUDA 11's names of the algorithms, removed in CUDA 12: nvcc 13 refuses
 * them as undeclared; here the undeclared name says what replaced them. */
#define CUSPARSE_MV_ALG_DEFAULT CUSPARSE_MV_ALG_DEFAULT_was_removed_in_CUDA_12_use_CUSPARSE_SPMV_ALG_DEFAULT
#define CUSPARSE_COOMV_ALG CUSPARSE_COOMV_ALG_was_removed_in_CUDA_12_use_CUSPARSE_SPMV_COO_ALG1
#define CUSPARSE_CSRMV_ALG1 CUSPARSE_CSRMV_ALG1_was_removed_in_CUDA_12_use_CUSPARSE_SPMV_CSR_ALG1
#define CUSPARSE_CSRMV_ALG2 CUSPARSE_CSRMV_ALG2_was_removed_in_CUDA_12_use_CUSPARSE_SPMV_CSR_ALG2
#define CUSPARSE_MM_ALG_DEFAULT CUSPARSE_MM_ALG_DEFAULT_was_removed_in_CUDA_12_use_CUSPARSE_SPMM_ALG_DEFAULT
#define CUSPARSE_COOMM_ALG1 CUSPARSE_COOMM_ALG1_was_removed_in_CUDA_12_use_CUSPARSE_SPMM_COO_ALG1
#define CUSPARSE_COOMM_ALG2 CUSPARSE_COOMM_ALG2_was_removed_in_CUDA_12_use_CUSPARSE_SPMM_COO_ALG2
#define CUSPARSE_COOMM_ALG3 CUSPARSE_COOMM_ALG3_was_removed_in_CUDA_12_use_CUSPARSE_SPMM_COO_ALG3
#define CUSPARSE_CSRMM_ALG1 CUSPARSE_CSRMM_ALG1_was_removed_in_CUDA_12_use_CUSPARSE_SPMM_CSR_ALG1

struct cusparseContext;
typedef struct cusparseContext *cusparseHandle_t;

/* The legacy API's matrix descriptor: its properties are recorded (and
 * read back); no legacy routine that would use it is provided. */
struct cusparseMatDescr;
typedef struct cusparseMatDescr *cusparseMatDescr_t;

struct cusparseDnVecDescr;
struct cusparseSpMatDescr;
struct cusparseDnMatDescr;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;
typedef struct cusparseDnMatDescr const *cusparseConstDnMatDescr_t;

/* ---- the handle -------------------------------------------------------- */
cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t *handle);
cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle);
cusparseStatus_t CUSPARSEAPI cusparseGetVersion(cusparseHandle_t handle, int *version);
const char *CUSPARSEAPI cusparseGetErrorName(cusparseStatus_t status);
const char *CUSPARSEAPI cusparseGetErrorString(cusparseStatus_t status);
cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId);
cusparseStatus_t CUSPARSEAPI cusparseGetStream(cusparseHandle_t handle, cudaStream_t *streamId);
/* Host mode (the default): alpha and beta are host variables; device mode:
 * they are device memory, read when the call runs. */
cusparseStatus_t CUSPARSEAPI cusparseGetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t *mode);
cusparseStatus_t CUSPARSEAPI cusparseSetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t mode);

/* ---- the legacy matrix descriptor (general, non-unit, lower, base 0 when
 * made); a Get on a bad descriptor says so and returns that default ------- */
cusparseStatus_t CUSPARSEAPI cusparseCreateMatDescr(cusparseMatDescr_t *descrA);
cusparseStatus_t CUSPARSEAPI cusparseDestroyMatDescr(cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatType(cusparseMatDescr_t descrA, cusparseMatrixType_t type);
cusparseMatrixType_t CUSPARSEAPI cusparseGetMatType(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatFillMode(cusparseMatDescr_t descrA, cusparseFillMode_t fillMode);
cusparseFillMode_t CUSPARSEAPI cusparseGetMatFillMode(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatDiagType(cusparseMatDescr_t descrA, cusparseDiagType_t diagType);
cusparseDiagType_t CUSPARSEAPI cusparseGetMatDiagType(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatIndexBase(cusparseMatDescr_t descrA, cusparseIndexBase_t base);
cusparseIndexBase_t CUSPARSEAPI cusparseGetMatIndexBase(const cusparseMatDescr_t descrA);

/* ---- dense vectors ------------------------------------------------------ */
cusparseStatus_t CUSPARSEAPI cusparseCreateDnVec(cusparseDnVecDescr_t *dnVecDescr, int64_t size, void *values,
                                                 cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *dnVecDescr, int64_t size,
                                                      const void *values, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr);
cusparseStatus_t CUSPARSEAPI cusparseDnVecGet(cusparseDnVecDescr_t dnVecDescr, int64_t *size, void **values,
                                              cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGet(cusparseConstDnVecDescr_t dnVecDescr, int64_t *size,
                                                   const void **values, cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseDnVecGetValues(cusparseDnVecDescr_t dnVecDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseConstDnVecGetValues(cusparseConstDnVecDescr_t dnVecDescr, const void **values);
cusparseStatus_t CUSPARSEAPI cusparseDnVecSetValues(cusparseDnVecDescr_t dnVecDescr, void *values);

/* ---- sparse matrices: CSR, CSC, COO ------------------------------------ */
cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void *csrRowOffsets, void *csrColInd, void *csrValues,
                                               cusparseIndexType_t csrRowOffsetsType,
                                               cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase,
                                               cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsr(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                                    int64_t cols, int64_t nnz, const void *csrRowOffsets,
                                                    const void *csrColInd, const void *csrValues,
                                                    cusparseIndexType_t csrRowOffsetsType,
                                                    cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateCsc(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void *cscColOffsets, void *cscRowInd, void *cscValues,
                                               cusparseIndexType_t cscColOffsetsType,
                                               cusparseIndexType_t cscRowIndType, cusparseIndexBase_t idxBase,
                                               cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsc(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                                    int64_t cols, int64_t nnz, const void *cscColOffsets,
                                                    const void *cscRowInd, const void *cscValues,
                                                    cusparseIndexType_t cscColOffsetsType,
                                                    cusparseIndexType_t cscRowIndType, cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateCoo(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols,
                                               int64_t nnz, void *cooRowInd, void *cooColInd, void *cooValues,
                                               cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase,
                                               cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCoo(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows,
                                                    int64_t cols, int64_t nnz, const void *cooRowInd,
                                                    const void *cooColInd, const void *cooValues,
                                                    cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase,
                                                    cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr);

cusparseStatus_t CUSPARSEAPI cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                            int64_t *nnz, void **csrRowOffsets, void **csrColInd, void **csrValues,
                                            cusparseIndexType_t *csrRowOffsetsType,
                                            cusparseIndexType_t *csrColIndType, cusparseIndexBase_t *idxBase,
                                            cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseConstCsrGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                                 int64_t *cols, int64_t *nnz, const void **csrRowOffsets,
                                                 const void **csrColInd, const void **csrValues,
                                                 cusparseIndexType_t *csrRowOffsetsType,
                                                 cusparseIndexType_t *csrColIndType, cusparseIndexBase_t *idxBase,
                                                 cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCscGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                            int64_t *nnz, void **cscColOffsets, void **cscRowInd, void **cscValues,
                                            cusparseIndexType_t *cscColOffsetsType,
                                            cusparseIndexType_t *cscRowIndType, cusparseIndexBase_t *idxBase,
                                            cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseConstCscGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                                 int64_t *cols, int64_t *nnz, const void **cscColOffsets,
                                                 const void **cscRowInd, const void **cscValues,
                                                 cusparseIndexType_t *cscColOffsetsType,
                                                 cusparseIndexType_t *cscRowIndType, cusparseIndexBase_t *idxBase,
                                                 cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCooGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols,
                                            int64_t *nnz, void **cooRowInd, void **cooColInd, void **cooValues,
                                            cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase,
                                            cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseConstCooGet(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                                 int64_t *cols, int64_t *nnz, const void **cooRowInd,
                                                 const void **cooColInd, const void **cooValues,
                                                 cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase,
                                                 cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr, void *csrRowOffsets,
                                                    void *csrColInd, void *csrValues);
cusparseStatus_t CUSPARSEAPI cusparseCscSetPointers(cusparseSpMatDescr_t spMatDescr, void *cscColOffsets,
                                                    void *cscRowInd, void *cscValues);
cusparseStatus_t CUSPARSEAPI cusparseCooSetPointers(cusparseSpMatDescr_t spMatDescr, void *cooRows,
                                                    void *cooColumns, void *cooValues);

cusparseStatus_t CUSPARSEAPI cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows,
                                                  int64_t *cols, int64_t *nnz);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr, cusparseFormat_t *format);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseIndexBase_t *idxBase);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseConstSpMatGetValues(cusparseConstSpMatDescr_t spMatDescr,
                                                         const void **values);
cusparseStatus_t CUSPARSEAPI cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr, void *values);
/* The triangle and diagonal SpSV uses (lower, non-unit when made); data
 * points to a cusparseFillMode_t or cusparseDiagType_t, dataSize its size. */
typedef enum { CUSPARSE_SPMAT_FILL_MODE, CUSPARSE_SPMAT_DIAG_TYPE } cusparseSpMatAttribute_t;
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t spMatDescr,
                                                       cusparseSpMatAttribute_t attribute, void *data,
                                                       size_t dataSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMatSetAttribute(cusparseSpMatDescr_t spMatDescr,
                                                       cusparseSpMatAttribute_t attribute, void *data,
                                                       size_t dataSize);

/* ---- dense matrices (ld: the distance between columns of a column-major
 * matrix, between rows of a row-major one) ------------------------------- */
cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols,
                                                 int64_t ld, void *values, cudaDataType valueType,
                                                 cusparseOrder_t order);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *dnMatDescr, int64_t rows,
                                                      int64_t cols, int64_t ld, const void *values,
                                                      cudaDataType valueType, cusparseOrder_t order);
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr);
cusparseStatus_t CUSPARSEAPI cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols,
                                              int64_t *ld, void **values, cudaDataType *type,
                                              cusparseOrder_t *order);
cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGet(cusparseConstDnMatDescr_t dnMatDescr, int64_t *rows,
                                                   int64_t *cols, int64_t *ld, const void **values,
                                                   cudaDataType *type, cusparseOrder_t *order);
cusparseStatus_t CUSPARSEAPI cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseConstDnMatGetValues(cusparseConstDnMatDescr_t dnMatDescr, const void **values);
cusparseStatus_t CUSPARSEAPI cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr, void *values);

/* ---- SpMV: Y = alpha op(A) X + beta Y ----------------------------------- */
/* The emulator needs no workspace: bufferSize is 0 and externalBuffer is
 * not used (it may be NULL); _preprocess checks the arguments. With
 * beta == 0, Y is not read (it may hold NaN). */
cusparseStatus_t CUSPARSEAPI cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void *alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, const void *beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                     cusparseSpMVAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void *alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, const void *beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                     cusparseSpMVAlg_t alg, void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                          cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                          const void *beta, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                          cusparseSpMVAlg_t alg, void *externalBuffer);

/* ---- SpMM: C = alpha op(A) op(B) + beta C ------------------------------- */
cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, const void *alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void *beta, cusparseDnMatDescr_t matC,
                                                     cudaDataType computeType, cusparseSpMMAlg_t alg,
                                                     size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     cusparseOperation_t opB, const void *alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void *beta, cusparseDnMatDescr_t matC,
                                                     cudaDataType computeType, cusparseSpMMAlg_t alg,
                                                     void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                          const void *alpha, cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnMatDescr_t matB, const void *beta,
                                          cusparseDnMatDescr_t matC, cudaDataType computeType,
                                          cusparseSpMMAlg_t alg, void *externalBuffer);

/* ---- SpSV: solve op(A) Y = alpha X, A triangular ------------------------ */
/* The triangle of A its fill-mode attribute names is used (the other one is
 * ignored, as are stored diagonal entries when the diagonal is unit); a
 * missing or zero diagonal entry divides by zero, as on a GPU. _analysis
 * records matA and opA; _solve needs them the same. CSR, CSC, COO; one
 * value type; workspace 0. */
typedef enum { CUSPARSE_SPSV_ALG_DEFAULT = 0 } cusparseSpSVAlg_t;
struct cusparseSpSVDescr;
typedef struct cusparseSpSVDescr *cusparseSpSVDescr_t;
cusparseStatus_t CUSPARSEAPI cusparseSpSV_createDescr(cusparseSpSVDescr_t *descr);
cusparseStatus_t CUSPARSEAPI cusparseSpSV_destroyDescr(cusparseSpSVDescr_t descr);
cusparseStatus_t CUSPARSEAPI cusparseSpSV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                                     const void *alpha, cusparseConstSpMatDescr_t matA,
                                                     cusparseConstDnVecDescr_t vecX, cusparseDnVecDescr_t vecY,
                                                     cudaDataType computeType, cusparseSpSVAlg_t alg,
                                                     cusparseSpSVDescr_t spsvDescr, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpSV_analysis(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                                   cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                                   cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                   cusparseSpSVAlg_t alg, cusparseSpSVDescr_t spsvDescr,
                                                   void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseSpSV_solve(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                                cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX,
                                                cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                                cusparseSpSVAlg_t alg, cusparseSpSVDescr_t spsvDescr);

/* ---- conversions -------------------------------------------------------- */
/* Sparse to dense: B = A, zeros where A stores nothing (COO duplicates add
 * up). Dense to sparse, in three calls as in cuSPARSE: _analysis counts
 * the nonzeros (a NaN is one), writes CSR/CSC offsets into matB's offsets
 * array and sets matB's nnz (cusparseSpMatGetSize reads it); the caller
 * then allocates and gives the arrays (cusparseCsrSetPointers ...); _convert
 * fills them, row by row (CSR, COO) or column by column (CSC). Both run at
 * the call, not in a stream being captured. One value type; workspace 0. */
typedef enum { CUSPARSE_SPARSETODENSE_ALG_DEFAULT = 0 } cusparseSparseToDenseAlg_t;
typedef enum { CUSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0 } cusparseDenseToSparseAlg_t;
cusparseStatus_t CUSPARSEAPI cusparseSparseToDense_bufferSize(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                              cusparseDnMatDescr_t matB,
                                                              cusparseSparseToDenseAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSparseToDense(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                   cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t alg,
                                                   void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_bufferSize(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                              cusparseSpMatDescr_t matB,
                                                              cusparseDenseToSparseAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_analysis(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                            cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg,
                                                            void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_convert(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                           cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg,
                                                           void *externalBuffer);

#ifdef __cplusplus
}
#endif

#endif
