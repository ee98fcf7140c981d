/* simtlab CPU emulator — device memory that host code may use, for programs
 * that use Thrust (emu/include/simtlab_emu/thrust.hpp): Thrust's CPP device
 * system runs its algorithms on the host, on device_vector storage and on
 * cudaMalloc'ed buffers wrapped in device_ptr, so from the first Thrust
 * header's static initialisation on, no allocation is closed again
 * (protect() keeps every slot open, as it keeps managed memory open), and
 * the ones already closed are opened now. Launches still check every
 * canary when they end, and guard pages still catch overflows. */
#include "runtime/registry.hpp"

#include <sys/mman.h>

namespace simtlab_emu {
namespace registry {
bool host_keeps_open = false; /* under registry_lock */
} // namespace registry
} // namespace simtlab_emu

using namespace simtlab_emu::registry;

/* Called during static initialisation, possibly before this library's own
 * globals are constructed (by_base is a std::map): only the slot array and
 * its high-water mark, which need no constructor, are read. */
extern "C" int simtlab_emu_thrust_host_access(void)
{
    std::lock_guard<std::mutex> hold(registry_lock); /* constexpr-constructed */
    if (host_keeps_open)
        return 1;
    host_keeps_open = true;
    const std::size_t n = slots_used.load(std::memory_order_acquire);
    for (std::size_t i = 0; i < n; ++i)
        if (slots[i].live) /* ENOMEM only: a later access faults and is explained */
            (void)mprotect(slots[i].data_pages, slots[i].data_bytes, PROT_READ | PROT_WRITE);
    return 1;
}
