/* simtlab CPU emulator — SIMTLAB_EMU_SPIN_POINT(), which slrewrite puts at
 * the top of every loop iteration outside host-only code (emu/tools/
 * tools/rewriter/rewrite_spin.c; its prologue includes this file, through host_fn.h).
 *
 * In a build with the spin watch (SIMTLAB_EMU_SPIN_BUILD: slcc's default,
 * sl_emu_spin_sources) it calls the watch's hook, simtlab_emu_spin_point
 * (emu/src/profile/hooks.cpp: one thread-local decrement and a branch; now
 * and then it looks whether the calling CUDA thread spins), and yields
 * false; under constant evaluation it calls nothing. The checked build
 * (SIMTLAB_EMU_PROFILE_BUILD=0: the checks' hooks at loads and stores, no
 * trace-pc) has the spin points too. In every other build, and in the
 * builds for the SIMT counters (SIMTLAB_EMU_PROFILE_BUILD 1 or 2, whose
 * trace-pc hook at every basic block does the watch's work), it is the
 * constant false. */
#ifndef SIMTLAB_EMU_SPIN_POINT_H
#define SIMTLAB_EMU_SPIN_POINT_H

#if defined(SIMTLAB_EMU_SPIN_BUILD) && (!defined(SIMTLAB_EMU_PROFILE_BUILD) || SIMTLAB_EMU_PROFILE_BUILD == 0)
extern "C" void simtlab_emu_spin_point(void);
namespace simtlab_emu {
namespace detail {
constexpr inline bool spin_point()
{
    return __builtin_is_constant_evaluated() ? false : (simtlab_emu_spin_point(), false);
}
} /* namespace detail */
} /* namespace simtlab_emu */
#define SIMTLAB_EMU_SPIN_POINT() ::simtlab_emu::detail::spin_point()
#else
#define SIMTLAB_EMU_SPIN_POINT() false
#endif

#endif
