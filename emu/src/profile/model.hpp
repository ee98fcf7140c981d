/* simtlab CPU emulator — the timing model's side of the profile layer: a
 * launch's counters and geometry -> a modelled time on a named GPU
 * (profile/model.cpp), the sampled launches of SIMTLAB_EMU_SAMPLE_BLOCKS
 * and the footprint of a launch's global accesses (profile/model_sample.cpp).
 * emu/docs/model.md states the model and each constant's source. */
#ifndef SIMTLAB_EMU_PROFILE_MODEL_HPP
#define SIMTLAB_EMU_PROFILE_MODEL_HPP

#include "engine/internal.hpp"

#include <simtlab_emu/profile.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace simtlab_emu {
namespace profile {

/* ---- sampling (engine/grid.cpp) ------------------------------------------------
 * SIMTLAB_EMU_SAMPLE_BLOCKS=N (read once): a launch from the host whose grid
 * has more than N blocks runs only N of them. sample_plan returns the
 * linear indices to run, sorted, or nullptr when the whole grid runs;
 * the list lives until the next call. Cooperative launches and grids
 * launched from device code always run whole. */
const std::vector<std::uint64_t> *sample_plan(const engine::grid_job &job);
/* The factor the current launch's counts scale by (grid blocks / blocks
 * run; 1 when not sampled), and the blocks it ran. */
double sample_scale();

/* ---- the global footprint of a launch (profile/profile.cpp calls these) ------ */
/* Before a counted launch: one bit per 32-byte sector of each device
 * allocation [lo, hi), for loads and for stores. */
void footprint_begin(const std::vector<std::uintptr_t> &lo, const std::vector<std::uintptr_t> &hi);
/* A request touched the sector at byte address sector * 32. */
void footprint_mark(std::uintptr_t sector, bool store);
/* Distinct sectors loaded and stored since footprint_begin. */
void footprint_counts(std::uint64_t *loaded, std::uint64_t *stored);

/* ---- the model (profile/model.cpp) --------------------------------------------- */
struct launch_result; /* profile/state.hpp */
struct launch_inputs {
    dim3 grid, block;
    std::size_t dynamic_shared, static_shared;
    bool cooperative;
    bool device_launch;   /* launched from device code, or launched grids from device code */
    double scale;         /* sample scale (the figures are already scaled) */
    std::uint64_t unique_ld_sectors, unique_st_sectors; /* scaled */
    /* Dependent global-load steps: per warp, the barrier intervals (code
     * between two __syncthreads, or the kernel's start and end) in which the
     * warp loads from global memory or does a global atomic; summed over
     * warps, scaled. */
    std::uint64_t load_phases;
};
/* Models one launch and makes it the last; adds it to the sum when it is
 * inside a simtlab_emu_profile_begin/_end window (in_window), or when no
 * window was ever opened (SIMTLAB_EMU_PROFILE=1: the whole run). */
void model_launch(launch_result &r, const launch_inputs &in, bool in_window);
/* The outermost simtlab_emu_profile_begin: the sums start again. */
void model_window_reset();

/* ---- SASS weights (profile/model_sass.cpp) ------------------------------------------ */
struct sass_weighted {
    double instructions;                 /* warp instructions: SASS-weighted lines + the others' counts */
    unsigned long long diverged_dropped; /* diverged counts of lines SASS predicates */
};
/* When the SASS table (SIMTLAB_MODEL_SASS, else the build's) has the launched
 * kernel at `arch`: the launch's warp instructions, SASS-weighted per source
 * line, into *out; the diverged counts of lines without a conditional jump in
 * SASS are dropped from r's sites and figures. False, r untouched, when the
 * table lacks the kernel. */
bool sass_weigh(launch_result &r, const std::string &arch, sass_weighted *out);

} /* namespace profile */
} /* namespace simtlab_emu */

#endif
