/* simtlab CPU emulator — configuring the one device: limits, cache and
 * shared-memory preferences, the occupancy calculator, the
 * device-choice and peer calls of a one-device machine, and the calls it
 * cannot do (IPC), which say so.
 *
 * Limits and preferences are recorded and read back. The emulator has no L1
 * to split from shared memory and no bank width to choose, so those settings
 * change nothing, which is also what CUDA allows a device to do with them.
 */
#include "runtime/internal.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>

#include <cuda_profiler_api.h>

namespace simtlab_emu {
namespace {

/* The limits, starting at CUDA's defaults (cudaDeviceGetLimit on a fresh
 * context), indexed by enum cudaLimit. */
std::mutex config_lock;
std::size_t limits[] = {
    1024,    /* cudaLimitStackSize: bytes per thread */
    1048576, /* cudaLimitPrintfFifoSize */
    8388608, /* cudaLimitMallocHeapSize */
    2,       /* cudaLimitDevRuntimeSyncDepth */
    2048,    /* cudaLimitDevRuntimePendingLaunchCount */
    64,      /* cudaLimitMaxL2FetchGranularity */
    0,       /* cudaLimitPersistingL2CacheSize: no persisting L2 */
};
constexpr int limit_count = sizeof limits / sizeof limits[0];
enum cudaFuncCache cache_config = cudaFuncCachePreferNone;
enum cudaSharedMemConfig shared_config = cudaSharedMemBankSizeDefault;

/* Shared memory is given out per block in units of this many bytes: 256
 * up to Volta and Turing (7.x), 128 from Ampere on (CUDA 13.0's
 * cuda_occupancy.h, cudaOccSMemAllocationGranularity). */
std::size_t shared_granularity()
{
    return device_props().major <= 7 ? 256 : 128;
}

cudaError_t not_a_device(const char *api, int device)
{
    runtime::diagnose("%s: device %d does not exist (the emulator has one device, 0)", api, device);
    return record_error(cudaErrorInvalidDevice);
}

cudaError_t null_argument(const char *api, const char *name)
{
    runtime::diagnose("%s: %s is NULL", api, name);
    return record_error(cudaErrorInvalidValue);
}

/* For a call the emulator does not implement: the diagnostic (which the
 * runtime also prints) names it. */
cudaError_t not_supported(const char *api, const char *why)
{
    runtime::diagnose("%s is not supported by the simtlab emulator: %s", api, why);
    return record_error(cudaErrorNotSupported);
}

std::size_t round_up(std::size_t n, std::size_t unit)
{
    return (n + unit - 1) / unit * unit;
}

/* Resident blocks of `func` per SM: the least of what threads (whole warps),
 * the block slots and shared memory allow. -1 with a diagnostic for a bad
 * block size. */
int active_blocks(const void *func, int block_size, std::size_t dynamic_shared, const char *api)
{
    const cudaDeviceProp &p = device_props();
    if (block_size <= 0) {
        runtime::diagnose("%s: block size %d is not positive", api, block_size);
        return -1;
    }
    if (block_size > p.maxThreadsPerBlock)
        return 0;
    std::size_t static_shared = kernel_static_shared_bytes(func);
    if (static_shared + dynamic_shared > p.sharedMemPerBlockOptin)
        return 0;
    int warps = (block_size + p.warpSize - 1) / p.warpSize;
    int by_threads = p.maxThreadsPerMultiProcessor / (warps * p.warpSize);
    int blocks = by_threads < p.maxBlocksPerMultiProcessor ? by_threads : p.maxBlocksPerMultiProcessor;
    std::size_t shared = static_shared + dynamic_shared;
    if (shared > 0) {
        std::size_t per_block = round_up(shared + p.reservedSharedMemPerBlock, shared_granularity());
        int by_shared = static_cast<int>(p.sharedMemPerMultiprocessor / per_block);
        blocks = by_shared < blocks ? by_shared : blocks;
    }
    return blocks;
}

} /* namespace */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    if (!pValue)
        return null_argument("cudaDeviceGetLimit", "pValue");
    int k = static_cast<int>(limit);
    if (k < 0 || k >= limit_count) {
        runtime::diagnose("cudaDeviceGetLimit: %d is not a cudaLimit", k);
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(config_lock);
    *pValue = limits[k];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    int k = static_cast<int>(limit);
    if (k < 0 || k >= limit_count) {
        runtime::diagnose("cudaDeviceSetLimit: %d is not a cudaLimit", k);
        return record_error(cudaErrorInvalidValue);
    }
    if (limit == cudaLimitPersistingL2CacheSize) {
        /* Recorded, no effect; CUDA caps it at what the device can set aside. */
        std::size_t most = static_cast<std::size_t>(device_props().persistingL2CacheMaxSize);
        if (value > most)
            value = most;
    }
    std::lock_guard<std::mutex> hold(config_lock);
    limits[k] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    if (!pCacheConfig)
        return null_argument("cudaDeviceGetCacheConfig", "pCacheConfig");
    std::lock_guard<std::mutex> hold(config_lock);
    *pCacheConfig = cache_config;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) {
        runtime::diagnose("cudaDeviceSetCacheConfig: %d is not a cudaFuncCache", static_cast<int>(cacheConfig));
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(config_lock);
    cache_config = cacheConfig;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    if (!pConfig)
        return null_argument("cudaDeviceGetSharedMemConfig", "pConfig");
    std::lock_guard<std::mutex> hold(config_lock);
    *pConfig = shared_config;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
        runtime::diagnose("cudaDeviceSetSharedMemConfig: %d is not a cudaSharedMemConfig", static_cast<int>(config));
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(config_lock);
    shared_config = config;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    if (!func) {
        runtime::diagnose("cudaFuncSetCacheConfig: func is NULL (pass a __global__ function)");
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) {
        runtime::diagnose("cudaFuncSetCacheConfig: %d is not a cudaFuncCache", static_cast<int>(cacheConfig));
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess; /* a preference; nothing to split */
}

cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    if (!func) {
        runtime::diagnose("cudaFuncSetSharedMemConfig: func is NULL (pass a __global__ function)");
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
        runtime::diagnose("cudaFuncSetSharedMemConfig: %d is not a cudaSharedMemConfig", static_cast<int>(config));
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device)
        return null_argument("cudaChooseDevice", "device");
    if (!prop)
        return null_argument("cudaChooseDevice", "prop");
    *device = 0; /* the only one */
    return cudaSuccess;
}

cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    if (len < 0 || (len > 0 && !device_arr)) {
        runtime::diagnose("cudaSetValidDevices: %d devices from %p", len, static_cast<void *>(device_arr));
        return record_error(cudaErrorInvalidValue);
    }
    for (int k = 0; k < len; k++)
        if (device_arr[k] != 0)
            return not_a_device("cudaSetValidDevices", device_arr[k]);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    if (!pciBusId || len <= 0)
        return null_argument("cudaDeviceGetPCIBusId", "pciBusId");
    if (device != 0)
        return not_a_device("cudaDeviceGetPCIBusId", device);
    std::snprintf(pciBusId, static_cast<std::size_t>(len), "0000:00:00.0");
    return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    if (!device)
        return null_argument("cudaDeviceGetByPCIBusId", "device");
    if (!pciBusId)
        return null_argument("cudaDeviceGetByPCIBusId", "pciBusId");
    if (std::strcmp(pciBusId, "0000:00:00.0") != 0 && std::strcmp(pciBusId, "00:00.0") != 0) {
        runtime::diagnose("cudaDeviceGetByPCIBusId: no device at \"%s\" (the emulator's is 0000:00:00.0)", pciBusId);
        return record_error(cudaErrorInvalidDevice);
    }
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    /* Priorities are not supported (streamPrioritiesSupported is 0): CUDA
     * then reports the range [0, 0]. Either pointer may be NULL. */
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    if (!canAccessPeer)
        return null_argument("cudaDeviceCanAccessPeer", "canAccessPeer");
    if (device != 0)
        return not_a_device("cudaDeviceCanAccessPeer", device);
    if (peerDevice != 0)
        return not_a_device("cudaDeviceCanAccessPeer", peerDevice);
    *canAccessPeer = 0; /* a device is not its own peer */
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    (void)flags;
    runtime::diagnose("cudaDeviceEnablePeerAccess(%d): the emulator has one device, which has no peers", peerDevice);
    return record_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    runtime::diagnose("cudaDeviceDisablePeerAccess(%d): the emulator has one device, which has no peers", peerDevice);
    return record_error(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice, int dstDevice)
{
    (void)attr;
    if (!value)
        return null_argument("cudaDeviceGetP2PAttribute", "value");
    runtime::diagnose("cudaDeviceGetP2PAttribute(%d, %d): the emulator has one device, which has no peers",
                      srcDevice, dstDevice);
    return record_error(cudaErrorInvalidDevice);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                   int blockSize, size_t dynamicSMemSize,
                                                                   unsigned int flags)
{
    const char *api = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
    if (!numBlocks)
        return null_argument(api, "numBlocks");
    if (!func) {
        runtime::diagnose("%s: func is NULL (pass a __global__ function)", api);
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (flags & ~static_cast<unsigned>(cudaOccupancyDisableCachingOverride)) {
        runtime::diagnose("%s: flags 0x%x are not cudaOccupancy* flags", api, flags);
        return record_error(cudaErrorInvalidValue);
    }
    int blocks = active_blocks(func, blockSize, dynamicSMemSize, api);
    if (blocks < 0)
        return record_error(cudaErrorInvalidValue);
    *numBlocks = blocks;
    return cudaSuccess;
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func, int numBlocks,
                                                      int blockSize)
{
    const char *api = "cudaOccupancyAvailableDynamicSMemPerBlock";
    if (!dynamicSmemSize)
        return null_argument(api, "dynamicSmemSize");
    if (!func) {
        runtime::diagnose("%s: func is NULL (pass a __global__ function)", api);
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (numBlocks <= 0 || active_blocks(func, blockSize, 0, api) < numBlocks) {
        if (numBlocks > 0 && blockSize > 0)
            runtime::diagnose("%s: %d blocks of %d threads do not fit on one SM", api, numBlocks, blockSize);
        else
            runtime::diagnose("%s: %d blocks of %d threads", api, numBlocks, blockSize);
        return record_error(cudaErrorInvalidValue);
    }
    const cudaDeviceProp &p = device_props();
    std::size_t static_shared = kernel_static_shared_bytes(func);
    std::size_t per_block = p.sharedMemPerMultiprocessor / static_cast<std::size_t>(numBlocks) /
                            shared_granularity() * shared_granularity();
    std::size_t used = static_shared + p.reservedSharedMemPerBlock;
    std::size_t avail = per_block > used ? per_block - used : 0;
    std::size_t cap = p.sharedMemPerBlockOptin > static_shared ? p.sharedMemPerBlockOptin - static_shared : 0;
    *dynamicSmemSize = avail < cap ? avail : cap;
    return cudaSuccess;
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
    (void)handle, (void)devPtr;
    return not_supported("cudaIpcGetMemHandle", "IPC needs a second process on the same GPU");
}

cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
    (void)devPtr, (void)handle, (void)flags;
    return not_supported("cudaIpcOpenMemHandle", "IPC needs a second process on the same GPU");
}

cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
    (void)devPtr;
    return not_supported("cudaIpcCloseMemHandle", "IPC needs a second process on the same GPU");
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle, cudaEvent_t event)
{
    (void)handle, (void)event;
    return not_supported("cudaIpcGetEventHandle", "IPC needs a second process on the same GPU");
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event, cudaIpcEventHandle_t handle)
{
    (void)event, (void)handle;
    return not_supported("cudaIpcOpenEventHandle", "IPC needs a second process on the same GPU");
}

cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

} /* extern "C" */
