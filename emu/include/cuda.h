/* simtlab CPU emulator — <cuda.h>: the driver API's types, not its calls.
 *
 * Runtime-API programs include <cuda.h> for a type or the version macro
 * only (cuda-samples' tensor-core GEMMs; code that tests CUDA_VERSION).
 * This header gives them that: CUDA_VERSION, CUresult with its common
 * values, and the handle types, each the same type as its runtime twin
 * where the toolkit makes them the same (CUstream is cudaStream_t, CUevent
 * is cudaEvent_t), so mixing them compiles as it does with the toolkit.
 *
 * The driver API itself (cuInit, cuModuleLoad, cuMemAlloc, ...) is not
 * emulated and not declared: a program that calls it fails to compile,
 * naming the call, instead of linking against stubs. For the same reason
 * the toolkit's guard `__cuda_cuda_h__` is not defined: code that tests it
 * (cuda-samples' helper_cuda_drvapi.h) means "the driver API is here".
 */
#ifndef SIMTLAB_EMU_CUDA_H
#define SIMTLAB_EMU_CUDA_H

#include <cuda_runtime_api.h>

/* The driver API version the emulator mimics: CUDA 13.0. */
#define CUDA_VERSION 13000
#define CU_IPC_HANDLE_SIZE 64

#ifdef __cplusplus
extern "C" {
#endif

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct simtlab_emu_cu_context *CUcontext;
typedef struct simtlab_emu_cu_module *CUmodule;
typedef struct simtlab_emu_cu_function *CUfunction;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;

/* The values are the toolkit's, so a number printed means the same. */
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_DEINITIALIZED = 4,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_READY = 600,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;

#ifdef __cplusplus
}
#endif

#endif /* SIMTLAB_EMU_CUDA_H */
