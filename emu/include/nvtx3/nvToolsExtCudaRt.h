/* simtlab CPU emulator — <nvtx3/nvToolsExtCudaRt.h>: NVTX's names for
 * runtime API objects (device numbers, streams, events). With no tool
 * attached (nvToolsExt.h) naming one does nothing. */
#ifndef SIMTLAB_EMU_NVTOOLSEXTCUDART_H
#define SIMTLAB_EMU_NVTOOLSEXTCUDART_H

#include <cuda_runtime_api.h>

#include "nvToolsExt.h"

#define NVTX_RESOURCE_CLASS_CUDART 5

#ifdef __cplusplus
extern "C" {
#endif

typedef enum nvtxResourceCUDARTType_t {
    NVTX_RESOURCE_TYPE_CUDART_DEVICE = NVTX_RESOURCE_MAKE_TYPE(CUDART, 0),
    NVTX_RESOURCE_TYPE_CUDART_STREAM = NVTX_RESOURCE_MAKE_TYPE(CUDART, 1),
    NVTX_RESOURCE_TYPE_CUDART_EVENT = NVTX_RESOURCE_MAKE_TYPE(CUDART, 2)
} nvtxResourceCUDARTType_t;

NVTX_INLINE_STATIC void nvtxNameCudaDeviceA(int device, const char *name) { (void)device; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCudaDeviceW(int device, const wchar_t *name) { (void)device; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCudaStreamA(cudaStream_t stream, const char *name) { (void)stream; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCudaStreamW(cudaStream_t stream, const wchar_t *name) { (void)stream; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCudaEventA(cudaEvent_t event, const char *name) { (void)event; (void)name; }
NVTX_INLINE_STATIC void nvtxNameCudaEventW(cudaEvent_t event, const wchar_t *name) { (void)event; (void)name; }

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef UNICODE
#define nvtxNameCudaDevice nvtxNameCudaDeviceW
#define nvtxNameCudaStream nvtxNameCudaStreamW
#define nvtxNameCudaEvent nvtxNameCudaEventW
#else
#define nvtxNameCudaDevice nvtxNameCudaDeviceA
#define nvtxNameCudaStream nvtxNameCudaStreamA
#define nvtxNameCudaEvent nvtxNameCudaEventA
#endif

#endif /* SIMTLAB_EMU_NVTOOLSEXTCUDART_H */
