/* What slrewrite writes at the top of every file it rewrites (slcc's
 * precompiled prelude holds the same): the part of a small kernel file's
 * compile time that every such file repeats. Precompiled once for the
 * course's kernels and the emulator's own tests (emu/cmake/SimtlabEmu.cmake,
 * sl_emu_prelude_pch). */
#define SIMTLAB_EMU_KERNEL_TU 1
#include <cuda_runtime.h>
#include <simtlab_emu/host_fn.h>
