/* simtlab CPU emulator — what a kernel translation unit compiled with the
 * instrumentation adds (engine.hpp includes this when SIMTLAB_EMU_PROFILE_BUILD
 * is defined). Its value says what the instrumentation is for:
 *   0  the checks alone (memcheck, racecheck: plain `slcc`, the checked
 *      build): GCC calls emu/src/profile/hooks.cpp at every load and store;
 *   1  the checks and the SIMT counters on request (SIMTLAB_EMU_PROFILE=1 or
 *      simtlab_emu_profile_begin(); the CMake option SIMTLAB_EMU_PROFILE and
 *      the chapters' builds): also at every basic block (trace-pc);
 *   2  the same, profiling every launch unless SIMTLAB_EMU_PROFILE=0
 *      (`slcc --profile`). */
#ifndef SIMTLAB_EMU_PROFILE_BUILD_HPP
#define SIMTLAB_EMU_PROFILE_BUILD_HPP

#include <simtlab_emu/profile.h>

extern "C" {
/* This translation unit is instrumented, at `level` (0, 1 or 2 as
 * SIMTLAB_EMU_PROFILE_BUILD above). Returns 0. */
int simtlab_emu_profile_register_tu(int level);
void simtlab_emu_profile_atomic_begin(const void *address, unsigned size);
void simtlab_emu_profile_atomic_end(void);
}

namespace simtlab_emu {
namespace detail {

/* Marks one atomic for the counters, for as long as it lives: its own
 * loads and stores are not the kernel's. Always inline, so that the call
 * site (the return address) is the atomic's place in the kernel. */
struct profile_atomic_scope {
    __attribute__((always_inline)) profile_atomic_scope(const void *address, unsigned size)
    {
        simtlab_emu_profile_atomic_begin(address, size);
    }
    __attribute__((always_inline)) ~profile_atomic_scope() { simtlab_emu_profile_atomic_end(); }
    profile_atomic_scope(const profile_atomic_scope &) = delete;
    profile_atomic_scope &operator=(const profile_atomic_scope &) = delete;
};

} /* namespace detail */
} /* namespace simtlab_emu */

#define SIMTLAB_EMU_PROFILE_ATOMIC(address)                                                           \
    const ::simtlab_emu::detail::profile_atomic_scope simtlab_emu_profile_atomic_(                    \
        static_cast<const void *>(address), static_cast<unsigned>(sizeof(*(address))))

namespace {
/* One per translation unit: tells the runtime that instrumented code is linked. */
[[maybe_unused]] const int simtlab_emu_profile_tu_registered_ =
    simtlab_emu_profile_register_tu(SIMTLAB_EMU_PROFILE_BUILD);
}

#endif
