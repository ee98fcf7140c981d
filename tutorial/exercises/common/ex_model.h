/* For the exercises graded by the emulator's modelled counters (built with
 * slcc --profile): model_begin() opens a window of launches, and
 * MODEL_END(expr) closes it and gives expr, an expression over `model`,
 * the window's figures (simtlab_emu_profile_figures, emu/include/
 * simtlab_emu/profile.h: model->gld_requests, model->simt_efficiency, ...),
 * as a double; -1 where there are none (a GPU build, or kernels built
 * without slcc --profile). On a GPU, Nsight Compute measures the same. */
#ifndef EX_MODEL_H
#define EX_MODEL_H
#ifdef SIMTLAB_EMU
#include <simtlab_emu/profile.h>

static const simtlab_emu_profile_figures *model;

static inline void model_begin(void) { simtlab_emu_profile_begin(); }

/* The figures of the window just closed, or NULL where there are none. */
static inline const simtlab_emu_profile_figures *model_end(void)
{
    static simtlab_emu_profile_figures f;
    simtlab_emu_profile_end();
    return simtlab_emu_profile_window(&f) == 0 ? &f : NULL;
}
#define MODEL_END(expr) ((model = model_end()) ? (double)(expr) : -1.0)
#else
static inline void model_begin(void) {}
#define MODEL_END(expr) (-1.0)
#endif
#endif
