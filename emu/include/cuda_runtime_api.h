/* simtlab CPU emulator — the CUDA runtime API subset, for C and C++.
 *
 * Host code (plain C11) and kernels (compiled as C++17) include this header in
 * emulator builds instead of the CUDA toolkit's. Names, signatures and the
 * numeric values of cudaError_t and cudaDeviceAttr follow the CUDA 13 runtime,
 * so code written against the real toolkit compiles here unchanged and error
 * numbers printed by either backend mean the same thing.
 *
 * Implemented in emu/src/runtime*.cpp. A call that is declared but that the
 * emulator cannot do returns cudaErrorNotSupported with a diagnostic naming
 * it; one that is not declared is a compile error, never a silent stub.
 */
#if !defined(__CUDA_RUNTIME_API_H__)
#define __CUDA_RUNTIME_API_H__ /* the toolkit's guard: code tests it */

#include <stddef.h>
#include <stdint.h>

#define SIMTLAB_EMU 1
/* The runtime version the emulator mimics (CUDA 13.0 encodes as 13000). */
#define CUDART_VERSION 13000

/* Types, enums and flags (cudaError_t, cudaDeviceProp, cudaDeviceAttr, ...):
 * <driver_types.h>; vector types and dim3: <vector_types.h>; make_*:
 * <vector_functions.h>. As in the toolkit, this header brings them all in. */
#include <builtin_types.h>
#include <vector_functions.h>
#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ------------------------------------------------------------ */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* ---- versions and devices --------------------------------------------- */
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);

/* ---- device configuration (emu/src/runtime/device_config.cpp) ---------
 * Limits and cache preferences are recorded and read back; the emulator has
 * no L1 to split and no bank width to choose, so those are accepted no-ops.
 * Occupancy follows CUDA's model without registers (the emulator compiles
 * no machine code to count them): threads, blocks and shared memory per SM. */
cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config);
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
cudaError_t cudaSetValidDevices(int *device_arr, int len);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize);
/* Not emulated (one process, one device): cudaErrorNotSupported, with a
 * diagnostic naming the call. */
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr);
cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags);
cudaError_t cudaIpcCloseMemHandle(void *devPtr);
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event);
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle);

/* ---- memory ------------------------------------------------------------ */
cudaError_t cudaMalloc(void **devPtr, size_t size);
/* cudaMalloc(p, n) called by name records the caller's file:line for the
 * leak list and for out-of-bounds diagnostics ("allocated at foo.cu:42"). */
cudaError_t simtlab_emu_malloc_at(void **devPtr, size_t size, const char *file, int line);
#define cudaMalloc(p, n) simtlab_emu_malloc_at((void **)(p), (n), __FILE__, __LINE__)
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);

/* ---- streams and events (events time host work: label them emulated) -- */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
/* Stream attributes (runtime/pool.cpp): the access policy window, the
 * synchronization policy and the priority are checked, recorded and read
 * back; none changes how the emulator runs. Persisting L2 lines do not
 * exist, so resetting them does nothing. */
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue *value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out);
cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src);
cudaError_t cudaCtxResetPersistingL2Cache(void);

/* Stream-ordered allocation (runtime/pool.cpp). Streams run eagerly, so
 * cudaMallocAsync allocates and cudaFreeAsync frees at once, from the one
 * default pool of the device; its attributes are recorded (the release
 * threshold) or counted (bytes in use by pool allocations). */
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void **devPtr, size_t size, cudaMemPool_t memPool, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- kernels ----------------------------------------------------------- */
/* `func` is the address of a kernel (a __global__ function). */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);

/* ---- simtlab extensions (not CUDA; prefixed so nobody mistakes them) --- */
/* 1 in every emulator build: host code may label timings "emulated". */
int simtlab_emu_is_emulator(void);
/* Prints every device allocation still live, with the file:line that made it
 * where known; returns how many there are. Also run at process exit. */
size_t simtlab_emu_report_live_allocations(void *FILE_stream);
/* The emulator's last diagnostic, one paragraph naming the kernel, block,
 * thread and cause ("" when none). Tests assert on it; the host error layer
 * appends it to sl_last_error(). */
const char *simtlab_emu_last_diagnostic(void);
void simtlab_emu_clear_diagnostic(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Memory kinds, symbols, stream callbacks, graphs. */
#include <simtlab_emu/runtime_ext.h>
/* Pitched memory, 2D and 3D copies. */
#include <simtlab_emu/runtime_more.h>
/* The rest of the graph API: memcpy, memory and conditional nodes, updates. */
#include <simtlab_emu/runtime_graph.h>
/* What CUDA removed (cudaThreadSynchronize, texture references, ...): an
 * error naming the replacement. */
#include <simtlab_emu/removed.h>

#endif /* __CUDA_RUNTIME_API_H__ */
