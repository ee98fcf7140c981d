/* simtlab CPU emulator — the host-side checks of the emulator's CUB
 * (include/simtlab_emu/cub_device.hpp): a bad argument of a device-wide
 * call is cudaErrorInvalidValue with a diagnostic, as the runtime's own
 * calls report theirs. */
#include "libs/common/library.hpp"
#include "runtime/internal.hpp"

#include <cstdarg>
#include <cstdio>

extern "C" cudaError_t simtlab_emu_cub_invalid(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cudaError_t e = simtlab_emu::libs::vfail(cudaErrorInvalidValue, fmt, ap);
    va_end(ap);
    return e;
}

/* Enough bytes asked, and, when the storage is device memory, an
 * allocation that holds the bytes the call will use. Other memory a kernel
 * may use (pinned, managed, and on this emulated device pageable host
 * memory) is accepted as a GPU would accept it. */
extern "C" cudaError_t simtlab_emu_cub_check_temp(const char *api, const char *file, int line,
                                                  const void *d_temp_storage, size_t given, size_t needed)
{
    if (given < needed)
        return simtlab_emu_cub_invalid("%s at %s:%d: temp_storage_bytes is %zu, but this call needs %zu: ask with "
                                       "d_temp_storage == NULL first, with the same arguments",
                                       api, file, line, given, needed);
    using namespace simtlab_emu::runtime;
    const located l = locate(d_temp_storage);
    if (l.where == region::host)
        return cudaSuccess;
    char what[256];
    std::snprintf(what, sizeof what, "%s at %s:%d: d_temp_storage", api, file, line);
    return check_device_range(d_temp_storage, needed, what);
}
