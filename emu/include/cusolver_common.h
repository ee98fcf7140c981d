/* simtlab CPU emulator — <cusolver_common.h>: what the cuSOLVER APIs share
 * (status codes, eigenvalue modes, the version). Names and numeric values
 * are cuSOLVER 12's, so code compiles unchanged against either backend;
 * see cusolverDn.h for the calls the emulator provides. */
#ifndef SIMTLAB_EMU_CUSOLVER_COMMON_H
#define SIMTLAB_EMU_CUSOLVER_COMMON_H
#define CUSOLVER_COMMON_H_ /* the toolkit's guard */
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake); said once,
 * by cusolverDn.h when that includes this file. */
#if defined(SIMTLAB_EMU_WITHOUT_CUSOLVER) && !defined(SIMTLAB_EMU_CUSOLVERDN_H)
#error "simtlab emulator: this emulator was built without cuSOLVER: configure it with -DSIMTLAB_EMU_WITH_CUSOLVER=ON"
#endif

#include <cublas_api.h> /* cudaDataType, cublasFillMode_t, cublasOperation_t */

/* The cuSOLVER version the emulator mimics (shipped with CUDA 13.0). */
#define CUSOLVER_VER_MAJOR 12
#define CUSOLVER_VER_MINOR 0
#define CUSOLVER_VER_PATCH 4
#define CUSOLVER_VER_BUILD 66
#define CUSOLVER_VERSION (CUSOLVER_VER_MAJOR * 1000 + CUSOLVER_VER_MINOR * 100 + CUSOLVER_VER_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUSOLVER_STATUS_SUCCESS = 0,
    CUSOLVER_STATUS_NOT_INITIALIZED = 1,
    CUSOLVER_STATUS_ALLOC_FAILED = 2,
    CUSOLVER_STATUS_INVALID_VALUE = 3,
    CUSOLVER_STATUS_ARCH_MISMATCH = 4,
    CUSOLVER_STATUS_MAPPING_ERROR = 5,
    CUSOLVER_STATUS_EXECUTION_FAILED = 6,
    CUSOLVER_STATUS_INTERNAL_ERROR = 7,
    CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
    CUSOLVER_STATUS_NOT_SUPPORTED = 9,
    CUSOLVER_STATUS_ZERO_PIVOT = 10,
    CUSOLVER_STATUS_INVALID_LICENSE = 11,
    CUSOLVER_STATUS_IRS_PARAMS_NOT_INITIALIZED = 12,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID = 13,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_PREC = 14,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_REFINE = 15,
    CUSOLVER_STATUS_IRS_PARAMS_INVALID_MAXITER = 16,
    CUSOLVER_STATUS_IRS_INTERNAL_ERROR = 20,
    CUSOLVER_STATUS_IRS_NOT_SUPPORTED = 21,
    CUSOLVER_STATUS_IRS_OUT_OF_RANGE = 22,
    CUSOLVER_STATUS_IRS_NRHS_NOT_SUPPORTED_FOR_REFINE_GMRES = 23,
    CUSOLVER_STATUS_IRS_INFOS_NOT_INITIALIZED = 25,
    CUSOLVER_STATUS_IRS_INFOS_NOT_DESTROYED = 26,
    CUSOLVER_STATUS_IRS_MATRIX_SINGULAR = 30,
    CUSOLVER_STATUS_INVALID_WORKSPACE = 31
} cusolverStatus_t;

typedef enum { CUSOLVER_EIG_TYPE_1 = 1, CUSOLVER_EIG_TYPE_2 = 2, CUSOLVER_EIG_TYPE_3 = 3 } cusolverEigType_t;

typedef enum { CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1 } cusolverEigMode_t;

typedef enum {
    CUSOLVER_EIG_RANGE_ALL = 1001,
    CUSOLVER_EIG_RANGE_I = 1002,
    CUSOLVER_EIG_RANGE_V = 1003
} cusolverEigRange_t;

/* CUSOLVER_VERSION. */
cusolverStatus_t cusolverGetVersion(int *version);

#ifdef __cplusplus
}
#endif

#endif
