/* simtlab CPU emulator — the definitions behind Debian's
 * <thrust/device_malloc.h>, in place of its device_malloc.inl: device
 * memory from thrust::device_malloc (and device_new) is a cudaMalloc
 * allocation, as under CUDA, so the program may hand it to cudaMemcpy as
 * device memory and must give it back with thrust::device_free
 * (detail/device_free.inl). A failure throws bad_alloc with the runtime's
 * reason. emu/docs/libraries.md, "Thrust and NVTX". */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <limits>
#include <string>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN

thrust::device_ptr<void> device_malloc(const std::size_t n)
{
    void *p = nullptr;
    cudaError_t e = simtlab_emu_malloc_at(&p, n, nullptr, 0);
    if (e != cudaSuccess)
        throw thrust::system::detail::bad_alloc(std::string("thrust::device_malloc: ") + cudaGetErrorString(e) +
                                                ": " + simtlab_emu_last_diagnostic());
    return thrust::device_ptr<void>(p);
}

template <typename T>
thrust::device_ptr<T> device_malloc(const std::size_t n)
{
    if (n > std::numeric_limits<std::size_t>::max() / sizeof(T))
        throw thrust::system::detail::bad_alloc("thrust::device_malloc: n * sizeof(T) overflows size_t");
    return thrust::device_ptr<T>(static_cast<T *>(thrust::device_malloc(n * sizeof(T)).get()));
}

THRUST_NAMESPACE_END
