/* simtlab CPU emulator — what the runtime's files (runtime_errors.cpp,
 * runtime_memory.cpp, runtime_device.cpp, runtime_stream.cpp) and cublas.cpp
 * share among themselves. The engine sees only internal.hpp. */
#ifndef SIMTLAB_EMU_RUNTIME_INTERNAL_HPP
#define SIMTLAB_EMU_RUNTIME_INTERNAL_HPP

#include "internal.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdint>

namespace simtlab_emu {
namespace runtime {

/* set_diagnostic with printf formatting. */
void diagnose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For calls that touch the device: the sticky error, recorded again as the
 * last error, if the context is poisoned; else cudaSuccess. */
cudaError_t check_context();

/* Where a pointer lives, for copies and library calls. */
enum class region { host, device, device_guard };
struct located {
    region where;
    allocation alloc;       /* valid unless where == host */
    std::ptrdiff_t offset;  /* addr - alloc.base */
};
located locate(const void *ptr);

/* For a pointer found in an allocation's guard page or slack: sets a
 * diagnostic ("<what> 0x.. is 4 bytes past the end of device allocation
 * #3 ...") and returns cudaErrorInvalidValue. */
cudaError_t reject_guard(const located &l, const void *ptr, const char *what);

/* Whether ptr came from cudaMallocHost/cudaHostAlloc and is not freed. */
bool is_pinned(const void *ptr);

/* Checks that [ptr, ptr+bytes) lies inside one live device allocation; on
 * failure sets a diagnostic that starts with `what` ("cudaMemset dst") and
 * returns cudaErrorInvalidValue. */
cudaError_t check_device_range(const void *ptr, std::size_t bytes, const char *what);

/* Makes the allocations holding the given device ranges accessible for one
 * runtime-internal copy, and inaccessible again when it is destroyed (unless
 * a launch holds device memory open). Pass nullptr for an unused slot. The
 * runtime's registry lock is held for the scope's lifetime, so that no
 * allocation it opened can be freed under it. */
class device_access {
public:
    device_access(const void *a, const void *b = nullptr, const void *c = nullptr);
    ~device_access();
    device_access(const device_access &) = delete;
    device_access &operator=(const device_access &) = delete;

private:
    const void *ptrs_[3];
};

/* Validates a stream handle (0 is the legacy default stream). */
cudaError_t check_stream(cudaStream_t stream, const char *what);

/* Frees every device allocation (cudaDeviceReset). */
void release_all_allocations();
/* Forgets every stream and event (cudaDeviceReset). */
void release_all_streams_and_events();
/* Clears the last and the sticky error (cudaDeviceReset). */
void clear_errors();
/* Bytes in live device allocations (cudaMemGetInfo). */
std::size_t live_device_bytes();

} /* namespace runtime */
} /* namespace simtlab_emu */

#endif
