/* simtlab CPU emulator — what every emulated library (libs/<library>/) needs
 * the same way:
 *   fail(status, fmt, ...)  formats the diagnostic (simtlab_emu_last_diagnostic,
 *                           and stderr), returns `status` in the library's own
 *                           status type: `return fail(CUSPARSE_STATUS_..., "...")`;
 *   handle_registry<T>      the set of live handles or descriptors a library
 *                           made and has not destroyed, under its own mutex,
 *                           so that a stale or foreign pointer is reported
 *                           instead of dereferenced.
 * Header-only: a library built without another (SIMTLAB_EMU_WITH_<LIB>) needs
 * no object of it.
 */
#ifndef SIMTLAB_EMU_LIBS_COMMON_LIBRARY_HPP
#define SIMTLAB_EMU_LIBS_COMMON_LIBRARY_HPP

#include "runtime/internal.hpp" /* set_diagnostic, mark_if_cut (common/text.hpp) */

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <new>
#include <unordered_set>

namespace simtlab_emu {
namespace libs {

/* The text of a diagnostic is cut at this many bytes (with its NUL). */
constexpr std::size_t diagnostic_cap = 1024;

template <class Status> Status vfail(Status status, const char *fmt, va_list ap)
{
    char text[diagnostic_cap];
    mark_if_cut(text, sizeof text, std::vsnprintf(text, sizeof text, fmt, ap)); /* a long one says it was cut */
    set_diagnostic(text);
    return status;
}

template <class Status> Status fail(Status status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
template <class Status> Status fail(Status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    Status st = vfail(status, fmt, ap);
    va_end(ap);
    return st;
}

/* Live objects of one kind (T: a handle or descriptor pointer). Never
 * throws: add reports a full memory as false, and the caller frees the
 * object and returns its library's allocation status. */
template <class T> class handle_registry {
public:
    bool add(T h) noexcept
    {
        std::lock_guard<std::mutex> hold(lock_);
        try {
            live_.insert(h);
        } catch (const std::bad_alloc &) {
            return false;
        }
        return true;
    }

    /* False when h is null or not live (never made, or destroyed already):
     * a second destroy. */
    bool remove(T h) noexcept
    {
        std::lock_guard<std::mutex> hold(lock_);
        return h && live_.erase(h) > 0;
    }

    bool is_live(T h) const noexcept
    {
        std::lock_guard<std::mutex> hold(lock_);
        return h && live_.count(h) > 0;
    }

    /* Live, and test(h) holds, evaluated under the lock (so h is not
     * destroyed while test reads it). */
    template <class Test> bool is_live_and(T h, Test test) const
    {
        std::lock_guard<std::mutex> hold(lock_);
        return h && live_.count(h) > 0 && test(h);
    }

private:
    mutable std::mutex lock_;
    std::unordered_set<T> live_;
};

} /* namespace libs */
} /* namespace simtlab_emu */

#endif
