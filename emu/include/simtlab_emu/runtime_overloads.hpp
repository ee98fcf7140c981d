/* simtlab CPU emulator — the C++ overloads of the runtime API that CUDA's
 * <cuda_runtime.h> adds for C++ code: typed pointers (cudaMallocHost(&p, n)
 * with float *p), kernels passed as themselves rather than cast to
 * const void *, and symbols passed by reference, whose size the template
 * knows (so cudaMemcpyToSymbol checks offset + count against it).
 *
 * Included by <cuda_runtime.h> in C++. cudaMalloc(T **, n) needs nothing
 * here: cudaMalloc is a macro that casts (cuda_runtime_api.h).
 */
#ifndef SIMTLAB_EMU_RUNTIME_OVERLOADS_HPP
#define SIMTLAB_EMU_RUNTIME_OVERLOADS_HPP

#include <cuda_runtime_api.h>
#include <simtlab_emu/launch.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

/* ---- the stream argument the toolkit's C++ declarations default to 0 ---- */
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    return cudaMemcpyAsync(dst, src, count, kind, 0);
}
inline cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count)
{
    return cudaMemsetAsync(devPtr, value, count, 0);
}
inline cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                        unsigned int flags)
{
    return cudaMemPrefetchAsync(devPtr, count, location, flags, 0);
}

/* ---- typed allocations --------------------------------------------------- */
template <class T>
inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost(reinterpret_cast<void **>(ptr), size);
}
template <class T>
inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync(reinterpret_cast<void **>(ptr), size, stream);
}
/* The toolkit's C++ form of cudaMallocFromPoolAsync. */
template <class T>
inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size, memPool, stream);
}
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return cudaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size, memPool, stream);
}
template <class T>
inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags)
{
    return cudaHostGetDevicePointer(reinterpret_cast<void **>(pDevice), pHost, flags);
}
/* A macro like cudaMalloc's, so that the leak list names the caller's
 * file:line; the cast also takes any T **. */
#define cudaMallocManaged(...) SIMTLAB_EMU_MANAGED_PICK(__VA_ARGS__, SIMTLAB_EMU_MANAGED3, SIMTLAB_EMU_MANAGED2, )(__VA_ARGS__)
#define SIMTLAB_EMU_MANAGED_PICK(a, b, c, name, ...) name
#define SIMTLAB_EMU_MANAGED2(p, n) simtlab_emu_malloc_managed_at((void **)(p), (n), cudaMemAttachGlobal, __FILE__, __LINE__)
#define SIMTLAB_EMU_MANAGED3(p, n, f) simtlab_emu_malloc_managed_at((void **)(p), (n), (f), __FILE__, __LINE__)

/* The pre-CUDA-13 forms with a device number, which older code still uses. */
inline cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0)
{
    cudaMemLocation where = {dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice,
                             dstDevice == cudaCpuDeviceId ? 0 : dstDevice};
    return cudaMemPrefetchAsync(devPtr, count, where, 0, stream);
}
inline cudaError_t cudaMemAdvise(const void *devPtr, size_t count, cudaMemoryAdvise advice, int device)
{
    cudaMemLocation where = {device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice,
                             device == cudaCpuDeviceId ? 0 : device};
    return cudaMemAdvise(devPtr, count, advice, where);
}

/* cudaEventRecord(ev) records on the default stream. */
inline cudaError_t cudaEventRecord(cudaEvent_t event) { return cudaEventRecord(event, 0); }
/* cudaEventCreate(&ev, flags) is cudaEventCreateWithFlags, as in CUDA's C++ API. */
inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) { return cudaEventCreateWithFlags(event, flags); }
/* cudaStreamWaitEvent(stream, ev): flags default to 0, as in CUDA's C++ API. */
inline cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event) { return cudaStreamWaitEvent(stream, event, 0); }
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length = 0,
                                            unsigned int flags = cudaMemAttachSingle)
{
    (void)devPtr, (void)length, (void)flags;
    return cudaStreamQuery(stream) == cudaErrorInvalidResourceHandle ? cudaErrorInvalidResourceHandle
                                                                       : cudaSuccess;
}

/* ---- symbols ------------------------------------------------------------- */
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return simtlab_emu_symbol_copy("cudaMemcpyToSymbol", 1, const_cast<T *>(&symbol), sizeof(T),
                                   const_cast<void *>(src), count, offset, kind, 0);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return simtlab_emu_symbol_copy("cudaMemcpyFromSymbol", 0, const_cast<T *>(&symbol), sizeof(T), dst, count,
                                   offset, kind, 0);
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0)
{
    return simtlab_emu_symbol_copy("cudaMemcpyToSymbolAsync", 1, const_cast<T *>(&symbol), sizeof(T),
                                   const_cast<void *>(src), count, offset, kind, stream);
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                             cudaStream_t stream = 0)
{
    return simtlab_emu_symbol_copy("cudaMemcpyFromSymbolAsync", 0, const_cast<T *>(&symbol), sizeof(T), dst,
                                   count, offset, kind, stream);
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol)
{
    return simtlab_emu_symbol_address("cudaGetSymbolAddress", devPtr, nullptr, &symbol, sizeof(T));
}
template <class U, class T>
inline cudaError_t cudaGetSymbolAddress(U **devPtr, const T &symbol)
{
    return simtlab_emu_symbol_address("cudaGetSymbolAddress", reinterpret_cast<void **>(devPtr), nullptr,
                                      &symbol, sizeof(T));
}
template <class T>
inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    return simtlab_emu_symbol_address("cudaGetSymbolSize", nullptr, size, &symbol, sizeof(T));
}

/* ---- kernels passed as themselves ---------------------------------------- */
template <class... P>
inline cudaError_t cudaFuncSetAttribute(void (*kernel)(P...), cudaFuncAttribute attr, int value)
{
    simtlab_emu::detail::note_kernel(kernel);
    return cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel), attr, value);
}
template <class... P>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, void (*kernel)(P...))
{
    simtlab_emu::detail::note_kernel(kernel);
    return cudaFuncGetAttributes(attr, reinterpret_cast<const void *>(kernel));
}
/* A kernel template's instance named by its template-id
 * (cudaFuncSetCacheConfig(k<T>, ...)) converts to const void * only
 * through a deduced parameter, as the toolkit's C++ overloads take it. */
template <class... P>
inline cudaError_t cudaFuncSetCacheConfig(void (*kernel)(P...), cudaFuncCache cacheConfig)
{
    simtlab_emu::detail::note_kernel(kernel);
    return cudaFuncSetCacheConfig(reinterpret_cast<const void *>(kernel), cacheConfig);
}
/* cudaLaunchKernel(kernel, grid, block, args, shmem, stream): args[i]
 * points to the value of parameter i, as for CUDA. */
template <class... P>
inline cudaError_t cudaLaunchKernel(void (*kernel)(P...), dim3 grid, dim3 block, void **args, size_t shmem = 0,
                                    cudaStream_t stream = 0, const char *file = __builtin_FILE(),
                                    int line = __builtin_LINE())
{
    simtlab_emu::detail::note_kernel(kernel);
    return simtlab_emu::detail::launch_with_args(simtlab_emu::launch_site{"cudaLaunchKernel", file, line}, kernel,
                                                 grid, block, shmem, stream, args,
                                                 std::index_sequence_for<P...>{});
}

/* The CUDA 11 form that cuda-samples still call; the log is left empty. */
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, cudaGraphNode_t *pErrorNode,
                                        char *pLogBuffer, size_t bufferSize)
{
    if (pErrorNode)
        *pErrorNode = nullptr;
    if (pLogBuffer && bufferSize)
        pLogBuffer[0] = '\0';
    return cudaGraphInstantiate(pGraphExec, graph, 0);
}

#endif /* SIMTLAB_EMU_RUNTIME_OVERLOADS_HPP */
