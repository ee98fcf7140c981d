/* simtlab CPU emulator — the marks slrewrite puts in a rewritten file (its
 * prologue includes this file): SIMTLAB_EMU_HOST_FN, here, at the start of
 * every function (and lambda) of a .cu that CUDA can only run on the host
 * (emu/src/tools/rewriter/rewrite_hostfn.c), and SIMTLAB_EMU_SPIN_POINT(), in
 * simtlab_emu/spin_point.h, at the top of every loop of device code
 * (emu/src/tools/rewriter/rewrite_spin.c).
 *
 * It is empty: a mark for the reader of a rewritten file, and a place for
 * an attribute of host-only code. (Spin builds once compiled every function
 * with -fsanitize-coverage=trace-pc and this left host functions out of it;
 * their hook calls are now spin points in device loops only, see
 * simtlab_emu/spin_point.h.) Defining SIMTLAB_EMU_HOST_FN before this file
 * gives it another meaning. */
#ifndef SIMTLAB_EMU_HOST_FN_H
#define SIMTLAB_EMU_HOST_FN_H

#ifndef SIMTLAB_EMU_HOST_FN
#define SIMTLAB_EMU_HOST_FN
#endif

#include <simtlab_emu/spin_point.h>

#endif
