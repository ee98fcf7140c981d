/* simtlab CPU emulator — stream-ordered allocation and stream attributes.
 *
 * cudaMallocAsync / cudaFreeAsync: emulator streams run their work eagerly
 * (runtime/stream.cpp), so "allocate when the stream reaches this point"
 * is "allocate now", and a free in stream order is a free now. The memory
 * comes from cudaMalloc's allocator, so memcheck and the leak list see it.
 * The device has one pool, its default; its attributes are recorded (the
 * reuse flags, the release threshold) or counted (bytes in use by
 * pool allocations, and their high-water mark; reserved equals used, since
 * nothing is cached). Under stream capture they become graph memory
 * allocation and free nodes (runtime/graph_memory.cpp).
 *
 * Stream attributes (the L2 access policy window, the synchronization
 * policy, the priority) are checked and recorded per stream and read back;
 * the emulator has no persisting L2 lines, so none of them changes a run.
 */
#include "runtime/internal.hpp"

#include <cinttypes>
#include <cstring>
#include <map>
#include <mutex>

/* The pool's storage: the handle points at it. */
struct simtlab_emu_mem_pool {
    int reuse_follow_event_dependencies = 1;
    int reuse_allow_opportunistic = 1;
    int reuse_allow_internal_dependencies = 1;
    unsigned long long release_threshold = 0;
    unsigned long long used = 0, used_high = 0;
};

namespace simtlab_emu {
namespace {

std::mutex pool_lock;
simtlab_emu_mem_pool default_pool;
std::map<void *, std::size_t> pool_allocations; /* pointer -> bytes */
std::map<cudaStream_t, cudaStreamAttrValue> stream_attributes;

cudaError_t bad_value(const char *fmt, const char *api, const char *what)
{
    runtime::diagnose(fmt, api, what);
    return record_error(cudaErrorInvalidValue);
}

cudaError_t check_pool(const char *api, cudaMemPool_t pool)
{
    if (pool != &default_pool) {
        runtime::diagnose("%s: %p is not a memory pool (the emulator has one, the device's default: "
                          "cudaDeviceGetDefaultMemPool)",
                          api, static_cast<void *>(pool));
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t check_device(const char *api, int device)
{
    if (device != 0) {
        runtime::diagnose("%s: device %d does not exist (the emulator has one device, 0)", api, device);
        return record_error(cudaErrorInvalidDevice);
    }
    return cudaSuccess;
}

cudaError_t malloc_async(const char *api, void **devPtr, std::size_t size, cudaMemPool_t pool, cudaStream_t stream)
{
    cudaError_t e = check_pool(api, pool);
    if (e == cudaSuccess)
        e = runtime::check_stream(stream, api);
    if (e != cudaSuccess)
        return e;
    if (!devPtr)
        return bad_value("%s: %s is NULL", api, "devPtr");
    if (runtime::stream_capturing(stream)) /* a graph allocation node (runtime/graph_memory.cpp) */
        return runtime::capture_malloc(api, stream, devPtr, size);
    e = runtime::allocate_device(api, devPtr, size, nullptr, 0, false);
    if (e != cudaSuccess || !*devPtr)
        return e;
    std::lock_guard<std::mutex> hold(pool_lock);
    pool_allocations[*devPtr] = size;
    pool->used += size;
    if (pool->used > pool->used_high)
        pool->used_high = pool->used;
    return cudaSuccess;
}

/* Which attributes a stream may carry, and whether the value is valid. */
cudaError_t check_stream_attribute(const char *api, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: {
        const cudaAccessPolicyWindow &w = value->accessPolicyWindow;
        if (!(w.hitRatio >= 0.0f && w.hitRatio <= 1.0f))
            return bad_value("%s: %s: hitRatio must lie in [0, 1]", api, "accessPolicyWindow");
        if (w.hitProp < cudaAccessPropertyNormal || w.hitProp > cudaAccessPropertyPersisting ||
            w.missProp < cudaAccessPropertyNormal || w.missProp > cudaAccessPropertyPersisting)
            return bad_value("%s: %s: hitProp or missProp is not a cudaAccessProperty", api, "accessPolicyWindow");
        if (w.missProp == cudaAccessPropertyPersisting)
            return bad_value("%s: %s: missProp cannot be cudaAccessPropertyPersisting", api, "accessPolicyWindow");
        cudaDeviceProp p;
        cudaGetDeviceProperties(&p, 0);
        if (w.num_bytes > static_cast<std::size_t>(p.accessPolicyMaxWindowSize))
            return bad_value("%s: %s: num_bytes is over cudaDevAttrMaxAccessPolicyWindowSize", api,
                             "accessPolicyWindow");
        return cudaSuccess;
    }
    case cudaLaunchAttributeSynchronizationPolicy:
        if (value->syncPolicy < cudaSyncPolicyAuto || value->syncPolicy > cudaSyncPolicyBlockingSync)
            return bad_value("%s: %s is not a cudaSynchronizationPolicy", api, "syncPolicy");
        return cudaSuccess;
    case cudaLaunchAttributePriority:
        return cudaSuccess;
    default:
        runtime::diagnose("%s: attribute %d is not one a stream carries (access policy window, synchronization "
                          "policy, priority)",
                          api, static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
}

} /* namespace */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

/* The one pool there is: the device's default and its current pool alike. */
static cudaError_t the_pool(const char *api, cudaMemPool_t *memPool, int device)
{
    if (!memPool)
        return bad_value("%s: %s is NULL", api, "memPool");
    cudaError_t e = check_device(api, device);
    if (e != cudaSuccess)
        return e;
    *memPool = &default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    return the_pool("cudaDeviceGetDefaultMemPool", memPool, device);
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    return the_pool("cudaDeviceGetMemPool", memPool, device);
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    cudaError_t e = check_device("cudaDeviceSetMemPool", device);
    return e != cudaSuccess ? e : check_pool("cudaDeviceSetMemPool", memPool);
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    const char *api = "cudaMemPoolSetAttribute";
    cudaError_t e = check_pool(api, memPool);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return bad_value("%s: %s is NULL", api, "value");
    std::lock_guard<std::mutex> hold(pool_lock);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: memPool->reuse_follow_event_dependencies = *static_cast<int *>(value); return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: memPool->reuse_allow_opportunistic = *static_cast<int *>(value); return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: memPool->reuse_allow_internal_dependencies = *static_cast<int *>(value); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: memPool->release_threshold = *static_cast<unsigned long long *>(value); return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
        /* CUDA allows only a reset, to 0: the high-water mark restarts at the current use. */
        if (*static_cast<unsigned long long *>(value) != 0)
            return bad_value("%s: %s can only be reset to 0", api, "a high-water mark");
        memPool->used_high = memPool->used;
        return cudaSuccess;
    default:
        runtime::diagnose("%s: attribute %d cannot be set (the current sizes are read-only)", api,
                          static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    const char *api = "cudaMemPoolGetAttribute";
    cudaError_t e = check_pool(api, memPool);
    if (e != cudaSuccess)
        return e;
    if (!value)
        return bad_value("%s: %s is NULL", api, "value");
    std::lock_guard<std::mutex> hold(pool_lock);
    unsigned long long *u = static_cast<unsigned long long *>(value);
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: *static_cast<int *>(value) = memPool->reuse_follow_event_dependencies; return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: *static_cast<int *>(value) = memPool->reuse_allow_opportunistic; return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: *static_cast<int *>(value) = memPool->reuse_allow_internal_dependencies; return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *u = memPool->release_threshold; return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *u = memPool->used; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: *u = memPool->used_high; return cudaSuccess;
    default:
        runtime::diagnose("%s: %d is not a cudaMemPoolAttr", api, static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    (void)minBytesToKeep; /* nothing is cached: freed memory is already released */
    return check_pool("cudaMemPoolTrimTo", memPool);
}

cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream)
{
    return malloc_async("cudaMallocAsync", devPtr, size, &default_pool, stream);
}

cudaError_t cudaMallocFromPoolAsync(void **devPtr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return malloc_async("cudaMallocFromPoolAsync", devPtr, size, memPool, stream);
}

cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream)
{
    cudaError_t e = runtime::check_stream(stream, "cudaFreeAsync");
    if (e != cudaSuccess)
        return e;
    if (runtime::stream_capturing(stream)) /* a graph free node (runtime/graph_memory.cpp) */
        return runtime::capture_free("cudaFreeAsync", stream, devPtr);
    {
        std::lock_guard<std::mutex> hold(pool_lock);
        auto it = pool_allocations.find(devPtr);
        if (it != pool_allocations.end()) {
            default_pool.used -= it->second;
            pool_allocations.erase(it);
        }
    }
    /* Memory from cudaMalloc may be freed in stream order too. */
    return cudaFree(devPtr);
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr, const cudaStreamAttrValue *value)
{
    const char *api = "cudaStreamSetAttribute";
    if (!value)
        return bad_value("%s: %s is NULL", api, "value");
    cudaError_t e = runtime::check_stream(stream, api);
    if (e == cudaSuccess)
        e = check_stream_attribute(api, attr, value);
    if (e != cudaSuccess)
        return e;
    std::lock_guard<std::mutex> hold(pool_lock);
    cudaStreamAttrValue &stored = stream_attributes[stream];
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow: stored.accessPolicyWindow = value->accessPolicyWindow; break;
    case cudaLaunchAttributeSynchronizationPolicy: stored.syncPolicy = value->syncPolicy; break;
    default: stored.priority = value->priority; break;
    }
    return cudaSuccess;
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr, cudaStreamAttrValue *value_out)
{
    const char *api = "cudaStreamGetAttribute";
    if (!value_out)
        return bad_value("%s: %s is NULL", api, "value_out");
    cudaError_t e = runtime::check_stream(stream, api);
    if (e != cudaSuccess)
        return e;
    std::lock_guard<std::mutex> hold(pool_lock);
    auto it = stream_attributes.find(stream);
    cudaStreamAttrValue v;
    std::memset(&v, 0, sizeof v);
    switch (attr) {
    case cudaLaunchAttributeAccessPolicyWindow:
        if (it != stream_attributes.end())
            v.accessPolicyWindow = it->second.accessPolicyWindow;
        break;
    case cudaLaunchAttributeSynchronizationPolicy:
        v.syncPolicy = it != stream_attributes.end() && it->second.syncPolicy ? it->second.syncPolicy
                                                                               : cudaSyncPolicyAuto;
        break;
    case cudaLaunchAttributePriority:
        if (it != stream_attributes.end())
            v.priority = it->second.priority;
        break;
    default:
        runtime::diagnose("%s: attribute %d is not one a stream carries", api, static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
    *value_out = v;
    return cudaSuccess;
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
    cudaError_t e = runtime::check_stream(dst, "cudaStreamCopyAttributes");
    if (e == cudaSuccess)
        e = runtime::check_stream(src, "cudaStreamCopyAttributes");
    if (e != cudaSuccess)
        return e;
    std::lock_guard<std::mutex> hold(pool_lock);
    auto it = stream_attributes.find(src);
    if (it == stream_attributes.end())
        stream_attributes.erase(dst);
    else
        stream_attributes[dst] = it->second;
    return cudaSuccess;
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return runtime::check_context(); /* no line persists in the emulator */
}

} /* extern "C" */
