/* simtlab CPU emulator — the definition behind Debian's
 * <thrust/device_free.h>, in place of its device_free.inl: memory from
 * thrust::device_malloc is a cudaMalloc allocation (device_malloc.inl), so
 * it goes back with cudaFree; a pointer that is not the start of a live
 * allocation is reported by the runtime as cudaFree reports it (the call
 * returns nothing, as Thrust's does). */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/device_free.h>
#include <thrust/device_ptr.h>

#include <cuda_runtime_api.h>

THRUST_NAMESPACE_BEGIN

void device_free(thrust::device_ptr<void> ptr)
{
    (void)cudaFree(ptr.get());
}

THRUST_NAMESPACE_END
