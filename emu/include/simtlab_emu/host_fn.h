/* simtlab CPU emulator — SIMTLAB_EMU_HOST_FN, which slrewrite puts at the
 * start of every function (and lambda) of a .cu that CUDA can only run on
 * the host (emu/tools/rewrite_hostfn.c; its prologue includes this file).
 *
 * In a build with the spin watch (SIMTLAB_EMU_SPIN_BUILD: slcc's default,
 * sl_emu_spin_sources) it leaves such a function out of
 * -fsanitize-coverage=trace-pc: only device code needs the hook at every
 * basic block, and a program's CPU reference loops run several times
 * faster without it. In every other build it is empty (the instrumented
 * --profile builds keep it empty as well: their hook counts only inside a
 * block, and a host function loses nothing there but speed). Defining
 * SIMTLAB_EMU_HOST_FN (-DSIMTLAB_EMU_HOST_FN=) before this file keeps every
 * function instrumented. */
#ifndef SIMTLAB_EMU_HOST_FN_H
#define SIMTLAB_EMU_HOST_FN_H

#if !defined(SIMTLAB_EMU_HOST_FN) && defined(SIMTLAB_EMU_SPIN_BUILD) && defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define SIMTLAB_EMU_HOST_FN __attribute__((no_sanitize_coverage))
#endif
#endif
#ifndef SIMTLAB_EMU_HOST_FN
#define SIMTLAB_EMU_HOST_FN
#endif

#endif
