/* simtlab CPU emulator — <thrust/system/cpp/memory_resource.h>, in place of
 * Debian's: the CPP system's memory resources, which device_vector (through
 * device_allocator), universal_vector and cpp::vector allocate from, are the
 * emulator's device memory instead of operator new. So a device_vector's
 * storage is a cudaMalloc allocation: raw_pointer_cast(v.data()) is a device
 * pointer to kernels, to cudaMemcpy (DeviceToHost, DeviceToDevice), to
 * cudaPointerGetAttributes and to the checkers, with a guard page past its
 * end and a place in the leak list; universal_vector's is cudaMallocManaged
 * memory. Thrust's algorithms run on the host and read it because a Thrust
 * program keeps device memory open to the host (simtlab_emu/thrust.hpp).
 * Thrust's own temporary buffers stay host memory (std::malloc). Same
 * names and types as Debian's 1.17 header. */
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>
#include <simtlab_emu/runtime_ext.h>

namespace simtlab_emu {
namespace thrust_support {

/* cudaMalloc (Managed: cudaMallocManaged) as a Thrust memory resource;
 * a failure throws thrust::system::detail::bad_alloc, as Thrust's CUDA
 * resource does, with the runtime's reason. */
template <bool Managed>
class device_resource final : public THRUST_NS_QUALIFIER::mr::memory_resource<> {
public:
    void *do_allocate(std::size_t bytes, std::size_t alignment) override
    {
        void *p = nullptr;
        cudaError_t e = Managed ? simtlab_emu_malloc_managed_at(&p, bytes, cudaMemAttachGlobal, nullptr, 0)
                                : simtlab_emu_malloc_at(&p, bytes, nullptr, 0);
        if (e != cudaSuccess)
            throw THRUST_NS_QUALIFIER::system::detail::bad_alloc(
                std::string(Managed ? "cudaMallocManaged" : "cudaMalloc") + " for Thrust: " + cudaGetErrorString(e) +
                ": " + simtlab_emu_last_diagnostic());
        if (alignment > 1 && reinterpret_cast<std::uintptr_t>(p) % alignment != 0) {
            cudaFree(p);
            throw THRUST_NS_QUALIFIER::system::detail::bad_alloc(
                "Thrust asked for device memory aligned to " + std::to_string(alignment) +
                " bytes; the emulator aligns allocations to 16 (SIMTLAB_EMU_ALIGN=256 gives CUDA's 256)");
        }
        return p;
    }
    void do_deallocate(void *p, std::size_t, std::size_t) override { (void)cudaFree(p); }
};

} // namespace thrust_support
} // namespace simtlab_emu

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {
typedef thrust::mr::fancy_pointer_resource<simtlab_emu::thrust_support::device_resource<false>,
                                           thrust::cpp::pointer<void>>
    native_resource;
typedef thrust::mr::fancy_pointer_resource<simtlab_emu::thrust_support::device_resource<true>,
                                           thrust::cpp::universal_pointer<void>>
    universal_native_resource;
} // namespace detail

typedef detail::native_resource memory_resource;
typedef detail::universal_native_resource universal_memory_resource;
typedef detail::native_resource universal_host_pinned_memory_resource;
} // namespace cpp
} // namespace system
THRUST_NAMESPACE_END
