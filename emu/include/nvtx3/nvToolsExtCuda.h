/* simtlab CPU emulator — <nvtx3/nvToolsExtCuda.h>: NVTX's names for driver
 * API objects (devices, contexts, streams, events). With no tool attached
 * (nvToolsExt.h) naming one does nothing. The handle types are cuda.h's. */
#ifndef SIMTLAB_EMU_NVTOOLSEXTCUDA_H
#define SIMTLAB_EMU_NVTOOLSEXTCUDA_H

#include <cuda.h>

#include "nvToolsExt.h"

#define NVTX_RESOURCE_CLASS_CUDA 4

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nvtxResourceCUDAType_t {
    NVTX_RESOURCE_TYPE_CUDA_DEVICE = NVTX_RESOURCE_MAKE_TYPE(CUDA, 1),
    NVTX_RESOURCE_TYPE_CUDA_CONTEXT = NVTX_RESOURCE_MAKE_TYPE(CUDA, 2),
    NVTX_RESOURCE_TYPE_CUDA_STREAM = NVTX_RESOURCE_MAKE_TYPE(CUDA, 3),
    NVTX_RESOURCE_TYPE_CUDA_EVENT = NVTX_RESOURCE_MAKE_TYPE(CUDA, 4)
} nvtxResourceCUDAType_t;

NVTX_INLINE_STATIC void nvtxNameCuDeviceA(CUdevice device, const char *name) { (void)device; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuDeviceW(CUdevice device, const wchar_t *name) { (void)device; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuContextA(CUcontext context, const char *name) { (void)context; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuContextW(CUcontext context, const wchar_t *name) { (void)context; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuStreamA(CUstream stream, const char *name) { (void)stream; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuStreamW(CUstream stream, const wchar_t *name) { (void)stream; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuEventA(CUevent event, const char *name) { (void)event; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCuEventW(CUevent event, const wchar_t *name) { (void)event; (void)name; }

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef UNICODE
#define nvtxNameCuDevice nvtxNameCuDeviceW
#define nvtxNameCuContext nvtxNameCuContextW
#define nvtxNameCuStream nvtxNameCuStreamW
#define nvtxNameCuEvent nvtxNameCuEventW
#else
#define nvtxNameCuDevice nvtxNameCuDeviceA
#define nvtxNameCuContext nvtxNameCuContextA
#define nvtxNameCuStream nvtxNameCuStreamA
#define nvtxNameCuEvent nvtxNameCuEventA
#endif

#endif /* SIMTLAB_EMU_NVTOOLSEXTCUDA_H */
