/* simtlab CPU emulator — the SIMT counters' side of the engine, and the
 * per-access hook that other checkers (a shared-memory race checker) share.
 *
 * Kernels compiled with the profiling instrumentation (SIMTLAB_EMU_PROFILE_BUILD,
 * see emu/docs/profile.md "SIMT counters") call profile/hooks.cpp at every basic
 * block and every load and store; the hooks return at once unless the
 * calling OS thread runs a block of an observed launch (one thread-local
 * pointer, `active`). The engine tells this module where launches, blocks
 * and barrier rounds begin and end (profile/profile.cpp); none of those calls is on
 * a per-thread path, and each is one test of a flag when nothing observes. */
#ifndef SIMTLAB_EMU_PROFILE_INTERNAL_HPP
#define SIMTLAB_EMU_PROFILE_INTERNAL_HPP

#include "engine/internal.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace simtlab_emu {
namespace profile {

/* ---- what the engine calls ----------------------------------------------- */

/* True from launch_begin to launch_end of a launch that is profiled or has
 * an observer: the block and barrier calls below are made only then. */
extern bool launch_observed;

/* Before and after a grid runs (engine/grid.cpp, run_grid; the workers are
 * idle at both points). */
void launch_begin(const engine::grid_job &job);
void launch_end(const engine::grid_job &job, cudaError_t result);
/* Around one block on a worker (engine/block.cpp, run_block). */
void block_begin(engine::worker *w, std::uint64_t block_linear);
void block_end(engine::worker *w);
/* A __syncthreads round of the worker's block was released: every live
 * thread of the block reached it (engine/block.cpp, release_barrier). */
void barrier_released(engine::worker *w);

/* ---- the per-access hook, for whoever observes shared memory ----------- */

/* One shared-memory access by one CUDA thread, as the instrumented kernel
 * made it (an atomic on shared memory is one access, write and atomic). */
struct shared_access {
    std::uint64_t block;  /* linear block index in the grid */
    unsigned tid;         /* linear thread index in the block (lane = tid % 32) */
    std::uintptr_t addr;  /* the address the thread used */
    std::size_t offset;   /* addr - the start of the block's shared memory */
    unsigned size;        /* bytes */
    bool write;
    bool atomic;
    const void *pc;       /* the instruction's site: describe_site() gives file:line */
    std::uint8_t flags = 0; /* access_volatile, access_exact */
};
/* shared_access::flags. Both are set by the hooks of files built with
 * ThreadSanitizer's instrumentation (the instrumented builds of a file
 * whose code says `volatile`, emu/src/tools/slcc/slcc.c), which reports every load
 * and store, and volatile ones apart. */
constexpr std::uint8_t access_volatile = 1; /* a volatile load or store */
constexpr std::uint8_t access_exact = 2;    /* every store of the file calls a hook */

/* A checker's callbacks, all optional, all called on the worker (OS
 * thread) that runs the block, in the order things happen there. Blocks run
 * on several workers at once: keep per-block state per worker. Only kernels
 * compiled with the instrumentation report accesses; `instrumented()` says
 * whether any was linked. */
struct observer {
    void (*launch_begin)(const engine::grid_job &job, void *ctx);
    void (*block_begin)(std::uint64_t block, unsigned nthreads, void *ctx);
    void (*access)(const shared_access &a, void *ctx);
    /* Every other access a checker may judge: loads and stores of a device
     * allocation (space 2), and atomics anywhere outside shared memory
     * (space 2, or 0: neither a device allocation nor shared memory), and
     * every access of the megabyte below the block's shared memory (space
     * 3: before the start of the first __shared__ variable or the dynamic
     * area, as `extern __shared__ float d[]; d[-1]`). The offset is 0. */
    void (*memory)(const shared_access &a, int space, void *ctx);
    /* A basic block begins, while the observer asked for it by setting
     * `settle_at_next_block()` (racecheck: GCC checks a read-modify-write
     * of one address in one basic block once, as a load, so the store is
     * found afterwards from the value). */
    void (*basic_block)(void *ctx);
    /* Every live thread of the block passed a __syncthreads. */
    void (*barrier)(std::uint64_t block, void *ctx);
    /* The lanes `mask` of warp `warp` met at a warp operation (__syncwarp,
     * a shuffle, a vote): their accesses before it precede those after it. */
    void (*warp_sync)(std::uint64_t block, unsigned warp, unsigned mask, void *ctx);
    void (*block_end)(std::uint64_t block, bool failed, void *ctx);
    void (*launch_end)(const engine::grid_job &job, void *ctx);
    void *ctx;
};
/* From an observer's callback: call its basic_block at the running
 * thread's next basic block (once). */
void settle_at_next_block();
/* Installs `o` (copied; nullptr removes it). Only between launches. */
void set_observer(const observer *o);
/* True when a translation unit compiled with the instrumentation is linked
 * (for the checks, the counters, or both). */
bool instrumented();
/* True when one compiled for the SIMT counters (trace-pc at every basic
 * block: slcc --profile, SIMTLAB_EMU_PROFILE_BUILD >= 1) is linked. */
bool counters_built();
/* The source line of an instrumentation site (a pc from shared_access, or
 * one kept by the counters): resolved from the debug information the first
 * time it is asked for (a subprocess: at report time only, never per access). */
bool describe_site(const void *pc, char *file, std::size_t file_cap, int *line);

/* A tile access the engine performs for the running CUDA thread inside a
 * warp-collective operation (WMMA load_matrix_sync / store_matrix_sync,
 * engine/tensor_mma.cpp; ldmatrix and cp.async, engine/tensor_copy.cpp): counted by the SIMT counters as that thread's load
 * or store of [addr, addr + size) at instruction site `pc`, as an
 * instrumented access would be. Checkers do not see it. Call it in the
 * thread's own context, before the collective. */
void tile_access(std::uintptr_t addr, std::size_t size, bool store, const void *pc);

/* Called by the engine around a warp operation's exchange function, which
 * runs on one lane for all of them: its loads and stores and branches are
 * the emulator's, not the kernel's, so the hooks ignore them. */
struct quiet_scope {
    void *saved;
    quiet_scope();
    ~quiet_scope();
};
void warp_synced(engine::worker *w, unsigned warp, unsigned mask);

/* Whether the ELF file at `path` is position-independent (its addresses
 * are offsets from where it was loaded): how addr2line wants an address. */
bool is_dynamic_elf(const char *path);

} /* namespace profile */
} /* namespace simtlab_emu */

#endif
