/* simtlab CPU emulator — <thrust/system/omp/memory_resource.h>, in place of
 * Debian's: as for the CPP system (thrust/system/cpp/memory_resource.h), a
 * program built with THRUST_DEVICE_SYSTEM_OMP allocates its
 * device_vectors from the emulator's device memory (cudaMalloc;
 * universal: cudaMallocManaged). Same names and types as Debian's 1.17. */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/system/cpp/memory_resource.h> /* simtlab_emu::thrust_support::device_resource */
#include <thrust/system/omp/pointer.h>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace omp {
namespace detail {
typedef thrust::mr::fancy_pointer_resource<simtlab_emu::thrust_support::device_resource<false>,
                                           thrust::omp::pointer<void>>
    native_resource;
typedef thrust::mr::fancy_pointer_resource<simtlab_emu::thrust_support::device_resource<true>,
                                           thrust::omp::universal_pointer<void>>
    universal_native_resource;
} // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;
} // namespace omp
} // namespace system
THRUST_NAMESPACE_END
