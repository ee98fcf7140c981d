/* simtlab CPU emulator — <assert.h> (and so <cassert>) for every file built
 * with emu/include first on the include path.
 *
 * No include guard, on purpose: like the C library's own <assert.h>, this
 * file may be included again after NDEBUG changes, and must redefine
 * assert each time.
 *
 * Host code gets the C library's assert untouched. Only in a kernel
 * translation unit (slrewrite defines SIMTLAB_EMU_KERNEL_TU) compiled as C++
 * without NDEBUG is assert replaced by one that asks, when it fails, whether
 * a kernel thread is running: inside a kernel the failure ends the launch
 * with cudaErrorAssert, as a device-side assert does on a GPU (the context
 * is then unusable until cudaDeviceReset); outside a kernel it is the
 * C library's failure (message, then abort), as a host assert would be.
 */
#include_next <assert.h>

#if defined(__cplusplus) && defined(SIMTLAB_EMU_KERNEL_TU) && !defined(NDEBUG)

#ifndef SIMTLAB_EMU_ASSERT_DECLARED
#define SIMTLAB_EMU_ASSERT_DECLARED
/* The same declarations as in simtlab_emu/engine.hpp, repeated so that an
 * <assert.h> does not pull the whole engine contract into every file. */
namespace simtlab_emu {
[[noreturn]] void device_assert_fail(const char *expr, const char *file, int line, const char *func);
bool in_kernel();
} /* namespace simtlab_emu */
#endif

#undef assert
#ifdef __GLIBC__
#define SIMTLAB_EMU_HOST_ASSERT_FAIL(text) __assert_fail(text, __FILE__, __LINE__, __ASSERT_FUNCTION)
#else
/* Without glibc's __assert_fail, a host failure still reports and aborts
 * as the C standard requires of assert. */
#include <stdio.h>
#include <stdlib.h>
#define SIMTLAB_EMU_HOST_ASSERT_FAIL(text)                                                     \
    (fprintf(stderr, "%s:%d: %s: Assertion `%s' failed.\n", __FILE__, __LINE__, __func__, text), \
     abort())
#endif
#define assert(e)                                                                              \
    (static_cast<bool>(e) ? void(0)                                                            \
     : ::simtlab_emu::in_kernel()                                                              \
         ? ::simtlab_emu::device_assert_fail(#e, __FILE__, __LINE__, __func__)                 \
         : SIMTLAB_EMU_HOST_ASSERT_FAIL(#e))

#endif
