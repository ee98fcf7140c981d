/* Shared by the chapter 03 exercises: a checked CUDA call (CHECK) and, under
 * the emulator, the modelled SIMT efficiency of the last launch. */
#ifndef EX03_COMMON_H
#define EX03_COMMON_H
#include "../common/ex_check.h"
#ifdef SIMTLAB_EMU
#include <simtlab_emu/profile.h>
#endif

/* The emulator's modelled SIMT efficiency (0-1) of what ran since
 * begin_model(); -1 where there is none (a GPU build, or kernels built
 * without the counters: slcc --profile). */
static inline void begin_model(void)
{
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_begin();
#endif
}

static inline double end_model(void)
{
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_end();
    simtlab_emu_profile_figures f;
    if (simtlab_emu_profile_window(&f) == 0) return f.simt_efficiency;
#endif
    return -1.0;
}
#endif
