/* simtlab CPU emulator — <cublasLt.h>, the cuBLASLt subset that llm.c and
 * similar training code use: one matmul with descriptors, layouts,
 * preferences, a heuristic that offers one algorithm, and the bias and
 * GELU epilogues.
 *
 * Names, signatures and enum values follow cuBLASLt 13 (cublasLt.h of the
 * CUDA toolkit), so the same source compiles against either backend. As in
 * the toolkit, this header brings in cublas_api.h and with it the half and
 * bfloat16 types. The emulator runs each matmul on the host's OpenBLAS
 * (emu/src/libs/cublaslt/cublaslt.cpp): A and B are converted to float, multiplied in
 * float, and the epilogue is applied in double before D (and the
 * epilogue's outputs) are rounded once to their types.
 *
 * Supported: A, B, C, D of types CUDA_R_32F, CUDA_R_16F, CUDA_R_16BF (A and
 * B of one type, C and D of one type, that type A's or CUDA_R_32F) with
 * compute type CUBLAS_COMPUTE_32F and its _PEDANTIC, _FAST_16F, _FAST_16BF
 * and _FAST_TF32 variants and scale type CUDA_R_32F; all CUDA_R_16F with
 * CUBLAS_COMPUTE_16F (or _PEDANTIC) and scale type CUDA_R_16F (computed in
 * float and rounded once to half, at least as accurate as half
 * arithmetic); all CUDA_R_64F with CUBLAS_COMPUTE_64F (or _PEDANTIC) and
 * scale type CUDA_R_64F (computed in double); host or device alpha and
 * beta; column- or row-major layouts; strided batches. Anything else that
 * cuBLASLt would run returns CUBLAS_STATUS_NOT_SUPPORTED and
 * simtlab_emu_last_diagnostic() says what.
 */
#ifndef SIMTLAB_EMU_CUBLASLT_H
#define SIMTLAB_EMU_CUBLASLT_H
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_CUBLASLT)
#error "simtlab emulator: this emulator was built without cuBLASLt: configure it with -DSIMTLAB_EMU_WITH_CUBLASLT=ON"
#endif

#include <cublas_api.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the handle -------------------------------------------------------- */
typedef struct cublasLtContext *cublasLtHandle_t;

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle);
const char *cublasLtGetStatusName(cublasStatus_t status);
const char *cublasLtGetStatusString(cublasStatus_t status);
/* CUBLAS_VERSION's number, as cuBLASLt's own version. */
size_t cublasLtGetVersion(void);

/* ---- descriptors --------------------------------------------------------
 * The opaque storage has the toolkit's sizes, so that code may also keep a
 * descriptor on its stack and fill it with the ...Init functions. */
typedef struct {
    uint64_t data[8];
} cublasLtMatrixLayoutOpaque_t;
typedef cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;

typedef struct {
    uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
    uint64_t data[32];
} cublasLtMatmulDescOpaque_t;
typedef cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;

typedef struct {
    uint64_t data[8];
} cublasLtMatmulPreferenceOpaque_t;
typedef cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;

/* ---- enums ------------------------------------------------------------- */
typedef enum {
    CUBLASLT_POINTER_MODE_HOST = CUBLAS_POINTER_MODE_HOST,
    CUBLASLT_POINTER_MODE_DEVICE = CUBLAS_POINTER_MODE_DEVICE,
    CUBLASLT_POINTER_MODE_DEVICE_VECTOR = 2,                  /* not supported */
    CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO = 3,  /* not supported */
    CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST = 4   /* not supported */
} cublasLtPointerMode_t;

/* Element order of a matrix layout. The emulator supports the first two. */
typedef enum {
    CUBLASLT_ORDER_COL = 0,
    CUBLASLT_ORDER_ROW = 1,
    CUBLASLT_ORDER_COL32 = 2,
    CUBLASLT_ORDER_COL4_4R2_8C = 3,
    CUBLASLT_ORDER_COL32_2R_4R4 = 4
} cublasLtOrder_t;

typedef enum { CUBLASLT_BATCH_MODE_STRIDED = 0, CUBLASLT_BATCH_MODE_POINTER_ARRAY = 1 } cublasLtBatchMode_t;

/* Attribute value types in brackets. */
typedef enum {
    CUBLASLT_MATRIX_LAYOUT_TYPE = 0,                  /* uint32_t: cudaDataType */
    CUBLASLT_MATRIX_LAYOUT_ORDER = 1,                 /* int32_t: cublasLtOrder_t */
    CUBLASLT_MATRIX_LAYOUT_ROWS = 2,                  /* uint64_t */
    CUBLASLT_MATRIX_LAYOUT_COLS = 3,                  /* uint64_t */
    CUBLASLT_MATRIX_LAYOUT_LD = 4,                    /* int64_t */
    CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,           /* int32_t, default 1 */
    CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,  /* int64_t elements, default 0 */
    CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET = 7,          /* int64_t: complex types only; not supported */
    CUBLASLT_MATRIX_LAYOUT_BATCH_MODE = 8             /* uint32_t: cublasLtBatchMode_t */
} cublasLtMatrixLayoutAttribute_t;

typedef enum {
    CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,               /* int32_t: cublasComputeType_t */
    CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,                 /* int32_t: cudaDataType of alpha, beta */
    CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,               /* int32_t: cublasLtPointerMode_t */
    CUBLASLT_MATMUL_DESC_TRANSA = 3,                     /* int32_t: cublasOperation_t */
    CUBLASLT_MATMUL_DESC_TRANSB = 4,                     /* int32_t: cublasOperation_t */
    CUBLASLT_MATMUL_DESC_TRANSC = 5,                     /* int32_t: CUBLAS_OP_N only */
    CUBLASLT_MATMUL_DESC_FILL_MODE = 6,                  /* int32_t: CUBLAS_FILL_MODE_FULL only */
    CUBLASLT_MATMUL_DESC_EPILOGUE = 7,                   /* uint32_t: cublasLtEpilogue_t */
    CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,               /* void *: bias, or bias gradient output */
    CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,         /* int64_t elements */
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,      /* void *: GELU input, out (forward) or in (DGELU) */
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,           /* int64_t elements */
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 13, /* int64_t elements */
    CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE = 14, /* int64_t */
    CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET = 15,           /* int32_t: a hint, ignored */
    CUBLASLT_MATMUL_DESC_A_SCALE_POINTER = 17,           /* void *: FP8 scaling; not supported */
    CUBLASLT_MATMUL_DESC_B_SCALE_POINTER = 18,
    CUBLASLT_MATMUL_DESC_C_SCALE_POINTER = 19,
    CUBLASLT_MATMUL_DESC_D_SCALE_POINTER = 20,
    CUBLASLT_MATMUL_DESC_AMAX_D_POINTER = 21,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE = 22,    /* int32_t: cudaDataType, default -1 (D's type) */
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER = 23,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER = 24,
    CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25,                /* int8_t: a hint, ignored */
    CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,            /* int32_t: cudaDataType, default -1 (D's type) */
    CUBLASLT_MATMUL_DESC_A_SCALE_MODE = 31,              /* int32_t scale modes: 0 only */
    CUBLASLT_MATMUL_DESC_B_SCALE_MODE = 32,
    CUBLASLT_MATMUL_DESC_C_SCALE_MODE = 33,
    CUBLASLT_MATMUL_DESC_D_SCALE_MODE = 34,
    CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_MODE = 35,
    CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER = 36,
    CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE = 37
} cublasLtMatmulDescAttributes_t;

/* What happens after D = alpha op(A) op(B) + beta C (bias is added after
 * the scaling, before the activation). The bit-mask ReLU variants (_AUX,
 * DRELU) are not supported by the emulator. */
typedef enum {
    CUBLASLT_EPILOGUE_DEFAULT = 1,
    CUBLASLT_EPILOGUE_RELU = 2,
    CUBLASLT_EPILOGUE_RELU_AUX = (CUBLASLT_EPILOGUE_RELU | 128),
    CUBLASLT_EPILOGUE_BIAS = 4,
    CUBLASLT_EPILOGUE_RELU_BIAS = (CUBLASLT_EPILOGUE_RELU | CUBLASLT_EPILOGUE_BIAS),
    CUBLASLT_EPILOGUE_RELU_AUX_BIAS = (CUBLASLT_EPILOGUE_RELU_AUX | CUBLASLT_EPILOGUE_BIAS),
    CUBLASLT_EPILOGUE_DRELU = 8 | 128,
    CUBLASLT_EPILOGUE_DRELU_BGRAD = CUBLASLT_EPILOGUE_DRELU | 16,
    CUBLASLT_EPILOGUE_GELU = 32,
    CUBLASLT_EPILOGUE_GELU_AUX = (CUBLASLT_EPILOGUE_GELU | 128),
    CUBLASLT_EPILOGUE_GELU_BIAS = (CUBLASLT_EPILOGUE_GELU | CUBLASLT_EPILOGUE_BIAS),
    CUBLASLT_EPILOGUE_GELU_AUX_BIAS = (CUBLASLT_EPILOGUE_GELU_AUX | CUBLASLT_EPILOGUE_BIAS),
    CUBLASLT_EPILOGUE_DGELU = 64 | 128,
    CUBLASLT_EPILOGUE_DGELU_BGRAD = CUBLASLT_EPILOGUE_DGELU | 16,
    CUBLASLT_EPILOGUE_BGRADA = 256,
    CUBLASLT_EPILOGUE_BGRADB = 512
} cublasLtEpilogue_t;

typedef enum { CUBLASLT_SEARCH_BEST_FIT = 0, CUBLASLT_SEARCH_LIMITED_BY_ALGO_ID = 1 } cublasLtMatmulSearch_t;

/* Preferences only steer the choice of algorithm: the emulator records
 * them and has one algorithm. */
typedef enum {
    CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0,           /* uint32_t */
    CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,   /* uint64_t */
    CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK = 3, /* uint32_t */
    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5, /* uint32_t */
    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6, /* uint32_t */
    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7, /* uint32_t */
    CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8, /* uint32_t */
    CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT = 9,       /* float */
    CUBLASLT_MATMUL_PREF_IMPL_MASK = 12             /* uint64_t */
} cublasLtMatmulPreferenceAttributes_t;

typedef struct {
    cublasLtMatmulAlgo_t algo;
    size_t workspaceSize; /* the emulator needs none: 0 */
    cublasStatus_t state;
    float wavesCount;
    int reserved[4];
} cublasLtMatmulHeuristicResult_t;

/* ---- layouts ----------------------------------------------------------- */
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutInit(cublasLtMatrixLayout_t matLayout, cudaDataType type, uint64_t rows,
                                        uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, const void *buf,
                                                size_t sizeInBytes);
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                cublasLtMatrixLayoutAttribute_t attr, void *buf, size_t sizeInBytes,
                                                size_t *sizeWritten);

/* ---- matmul descriptors ------------------------------------------------ */
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType scaleType);
cublasStatus_t cublasLtMatmulDescInit(cublasLtMatmulDesc_t matmulDesc, cublasComputeType_t computeType,
                                      cudaDataType scaleType);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t sizeInBytes);
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              void *buf, size_t sizeInBytes, size_t *sizeWritten);

/* ---- preferences ------------------------------------------------------- */
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref);
cublasStatus_t cublasLtMatmulPreferenceInit(cublasLtMatmulPreference_t pref);
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref);
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t sizeInBytes);
cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten);

/* ---- the matmul -------------------------------------------------------- */
/* One result when the emulator can run the problem (returnAlgoCount = 1),
 * else CUBLAS_STATUS_NOT_SUPPORTED and none. */
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount);

/* D = epilogue(alpha op(A) op(B) + beta C). algo may be NULL; the workspace
 * is not used. C and D may be the same matrix. */
cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void *alpha,
                              const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                              cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                              cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                              const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMTLAB_EMU_CUBLASLT_H */
