/* simtlab CPU emulator — the engine's private data structures, shared by
 * engine/grid.cpp (workers, block distribution, launch checks),
 * engine/block.cpp (fibers, scheduler, barriers), engine/warp.cpp
 * (warp_collective), engine/shared.cpp (shared memory) and engine/fault.cpp
 * (SIGSEGV/SIGBUS handler).
 *
 * How a block runs (the "lazy forking" scheme):
 *   A worker switches once into a runner fiber, which starts the block's
 *   CUDA threads one after another in a plain loop: a thread that never
 *   waits costs one indirect call. When a thread waits (a barrier or a warp
 *   operation), its fiber is parked with the runner's loop frame still under
 *   it, and another runner (a spare parked by an earlier loop, or a fresh
 *   context on a pooled stack) takes over the loop from the next thread.
 *   When a parked thread later resumes and returns into that old loop
 *   frame, the frame sees that the loop has moved on and parks itself as a
 *   spare. Parked threads resume from a FIFO ready queue filled when a
 *   barrier or a warp operation completes. The hot half of all this (the
 *   records a wait touches, the inline barrier path) is in engine.hpp.
 */
#ifndef SIMTLAB_EMU_ENGINE_INTERNAL_HPP
#define SIMTLAB_EMU_ENGINE_INTERNAL_HPP

#include <simtlab_emu/engine.hpp>
#include "common/text.hpp"
#include "engine/api.hpp"
#include "engine/services.hpp"

#include <simtlab_emu/fcontext.hpp>

#include <atomic>
#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace simtlab_emu {

namespace detail {
/* Before a warp operation that needs all 32 lanes (wmma, mma.sync,
 * ldmatrix): fails the launch if a lane does not exist or has exited
 * (engine/warp.cpp). */
void require_whole_warp(const char *op, const char *file, int line);
}

namespace engine {

namespace fctx = simtlab_emu::fctx;

/* ---- the services the runtime installed (engine/services.hpp) ----------- */
/* The table install_services filled in (engine/grid.cpp); the engine's code
 * calls the services by these names. None is on a per-thread path. */
extern engine_services services;
inline bool find_allocation(std::uintptr_t addr, std::size_t window, allocation *out, std::ptrdiff_t *offset)
{
    return services.find_allocation(addr, window, out, offset);
}
inline bool find_freed(std::uintptr_t addr, allocation *out, std::ptrdiff_t *offset)
{
    return services.find_freed(addr, out, offset);
}
inline void device_memory_open()
{
    services.device_memory_open();
}
inline cudaError_t device_memory_close()
{
    return services.device_memory_close();
}
inline cudaError_t record_error(cudaError_t error)
{
    return services.record_error(error);
}
inline cudaError_t sticky_error()
{
    return services.sticky_error();
}
inline void set_diagnostic(const char *text)
{
    services.set_diagnostic(text);
}
inline const cudaDeviceProp &device_props()
{
    return services.device_props();
}
inline cudaError_t validate_stream(cudaStream_t stream, const char *api)
{
    return services.validate_stream(stream, api);
}

constexpr unsigned max_block_threads = 1024;
constexpr unsigned warp_size = 32;
constexpr unsigned max_warps = max_block_threads / warp_size;
constexpr unsigned max_shared_sites = 128;
/* Room for a diagnostic that names several source paths at a long checkout
 * path; a longer one is cut at a word, with a marker (mark_if_cut). */
constexpr std::size_t message_capacity = 4096;

/* ---- fiber stacks (engine/block.cpp) ----------------------------------- */
/* One mmap'd stack with a PROT_NONE guard page below it, so that an
 * overflow faults (and is diagnosed) instead of corrupting a neighbour. */
struct fiber_stack {
    char *guard;       /* lowest address: the guard page */
    char *base;        /* lowest usable byte */
    std::size_t bytes; /* usable bytes above base */
    fiber_stack *next; /* free-list link */
};

/* Stacks are made on demand and reused for the life of the worker: a block
 * of 1024 threads that all wait at a barrier needs 1024 of them at once. */
/* A runner whose loop has ended parks on its stack as a spare, ready to
 * take the loop over again, instead of giving its stack back: starting a
 * runner is then one switch, with no fresh context to build. The spares'
 * contexts sit in one dense array, so that popping one reads no cold stack
 * and the next one's saved registers can be fetched early. A block has at
 * most 1024 parked threads and one runner, so spares never outnumber
 * spare_capacity; past it (never seen) a stack simply goes back. */
constexpr unsigned spare_capacity = 2 * 1024;
struct stack_pool {
    fiber_stack *free_list = nullptr;
    unsigned nspares = 0;
    std::size_t stack_bytes = 0;
    unsigned made = 0;
    fctx::fcontext_t spare_ctx[spare_capacity];
    fiber_stack *spare_stack[spare_capacity];
};
fiber_stack *stack_get(stack_pool &pool); /* nullptr when mmap fails */
void stack_put(stack_pool &pool, fiber_stack *stack);

/* ---- per-block bookkeeping ---------------------------------------------- */
/* thread_rec, block_hot, worker_hot: engine.hpp (detail), where the inline
 * barrier path reads them. */
using detail::thread_rec;
using detail::no_odd_waiter;

/* Per-thread pointer slots (cuda_thread_slot): valid when epoch == block epoch. */
struct thread_slots {
    unsigned epoch;
    int device_error; /* the thread's last error in device code (device_last_error) */
    void *slots[4];
};

/* Lanes of one warp waiting at one warp operation. Groups of a warp have
 * different masks, which may overlap (Volta-style independent thread
 * scheduling lets subsets of a warp meet at the same time; a lane waits in
 * one group at a time). */
struct warp_group {
    unsigned mask;
    unsigned arrived;
    const char *op;
    here where;
    warp_fn fn; /* the first arrival's: a lane's exit may complete the group */
    void *ctx;
    bool whole;         /* an operation of the whole warp (require_whole_warp) */
};
struct warp_state {
    unsigned ngroups;
    warp_group groups[warp_size];
    void *lane_data[warp_size];
};

struct shared_site {
    void *const *key;
    std::size_t offset;
    std::size_t bytes; /* for the checkers (checks/checkers.cpp): what the declaration owns */
    here where;        /* the declaration */
};

/* The rest of one block's bookkeeping, after the hot part (engine.hpp). */
struct block_state : detail::block_hot {
    unsigned n;            /* threads in the block */
    unsigned next_start;   /* next position in the start order */
    unsigned live;         /* started or not, but not exited */
    fiber_stack *loop_owner; /* the fiber whose loop starts new threads */
    unsigned nwaiting_warp;
    unsigned epoch;        /* bumped per block: invalidates thread slots */
    bool slots_used;       /* a thread of this block called cuda_thread_slot */
    /* barrier_waiters[pos] for pos >= barrier_first_odd is at barrier_sites[pos] */
    /* 1 once the thread has returned (what warp operations ask). Nothing
     * else is kept per thread: the parked threads are found from the
     * barrier's waiters, the ready queue and the warp groups. */
    std::uint8_t exited[max_block_threads];
    unsigned order[max_block_threads];   /* start order (seeded runs) */
    unsigned queue_store[2][max_block_threads];
    thread_rec recs_store[max_block_threads + 1]; /* + 1: take_ready's guess (engine.hpp) */
    thread_slots slots[max_block_threads];
    detail::spin_rec spins_store[max_block_threads]; /* engine.hpp, spin_note */
    here barrier_sites[max_block_threads]; /* by waiter position, see above */
    std::uint8_t barrier_modes[max_block_threads]; /* their sync_block modes, likewise */
    warp_state warps[max_warps];
    /* shared memory: [dynamic | static declarations in first-touch order] */
    shared_site sites[max_shared_sites];
    unsigned nsites;
    std::size_t shared_used;
    /* Cooperative groups (engine/cooperative.cpp): the barrier's waiters
     * that called grid.sync(); lanes waiting in coalesced_threads(), per warp. */
    unsigned grid_sync_waiters;
    unsigned ncoalescing;
    unsigned coalescing[max_warps];
};
/* Points the hot part's arrays at their storage (once, after a
 * value-initialising new, which zeroes the rest). */
inline void link_block_state(block_state &b)
{
    b.recs = b.recs_store;
    b.ready = b.queue_store[0];
    b.barrier_waiters = b.queue_store[1];
    b.spins = b.spins_store;
}

/* The call site of the barrier waiter at position `pos` of barrier_waiters. */
inline here barrier_waiter_site(const block_state &b, unsigned pos)
{
    return pos < b.barrier_first_odd ? b.barrier_site : b.barrier_sites[pos];
}
inline sync_mode barrier_waiter_mode(const block_state &b, unsigned pos)
{
    return pos < b.barrier_first_odd ? b.barrier_mode : static_cast<sync_mode>(b.barrier_modes[pos]);
}

/* One group of the barrier's waiters: the threads at one call site and
 * variant (mode), their ids sorted. */
struct barrier_group {
    here site;
    sync_mode mode;
    const unsigned *ids;
    unsigned count;
};
/* Calls visit(group, ctx) for each group, in the order in which each
 * group's first thread arrived; stops when visit returns false. For the
 * divergence and deadlock diagnostics (engine/block.cpp). */
void for_each_barrier_group(const block_state &b, bool (*visit)(const barrier_group &group, void *ctx),
                            void *ctx);

struct grid_job;

/* ---- one worker: an OS thread (or the launching thread) ----------------- */
/* Cache-line aligned, with what every wait reads and writes in its first
 * line: workers are small heap objects, and unaligned, one worker's hot
 * fields shared a line with the tail of its neighbour's, so each wait on
 * one core invalidated the other core's copy (measured on the 2-core dev
 * VM: reduce_256 of bench_emu_throughput took as long on two workers as on
 * one). */
struct alignas(64) worker : detail::worker_hot {
    /* hot: read or written at every wait (with worker_hot's fields) */
    block_state *blk;               /* == hot */
    fiber_stack *starting_stack;    /* handed to a runner fiber as it starts */
    stack_pool stacks;
    std::size_t frame_shift;        /* how far below its top a fresh runner starts, see runner_entry */
    /* cold */
    unsigned index;
    fctx::fcontext_t sched_ctx;     /* the worker's own stack, between blocks */
    fctx::fcontext_t discarded_ctx; /* where a fiber that is never resumed saves its context */
    fiber_stack *abandon_stack;     /* a failing running fiber's stack */
    grid_job *grid;
    std::uint64_t rng;              /* xorshift state (seeded runs) */
    std::size_t static_shared_max;  /* most static shared bytes a block used */
    char *shared_arena;
    std::size_t shared_capacity;
    sigjmp_buf fault_jmp;           /* set on the worker's stack per launch */
    volatile sig_atomic_t fault_armed;
    char message[message_capacity]; /* composed by the fault handler too */
};

/* The calling OS thread's worker (detail::current_worker, as a worker);
 * nullptr in a host thread that never ran a kernel. */
inline worker *this_worker()
{
    detail::worker_hot *const w = detail::current_worker;
    return w == &detail::host_worker ? nullptr : static_cast<worker *>(w);
}
/* Every change of in_block goes through here: w is the calling OS thread's
 * current worker, and detail::in_kernel_thread mirrors its flag. */
inline void set_in_block(worker *w, bool in_block)
{
    w->in_block = in_block;
    detail::in_kernel_thread = in_block;
    if (!in_block) /* a barrier outside a block takes sync_block's slow path */
        w->hot->match_file = nullptr;
}
/* The stack the running CUDA thread runs on; nullptr between threads. */
inline fiber_stack *running_stack(const worker *w)
{
    return w->cur_tid < w->blk->n ? static_cast<fiber_stack *>(w->blk->recs[w->cur_tid].stack) : nullptr;
}

/* ---- one launch ---------------------------------------------------------- */
/* A grid launched from device code, waiting for its parent's blocks to end. */
struct device_child {
    launch_site site;
    dim3 grid, block;
    std::size_t dynamic_bytes;
    void (*body)(void *);
    std::shared_ptr<void> closure; /* the kernel and copies of its arguments */
    const void *kernel_addr;
};

struct grid_job {
    launch_site site;
    dim3 grid, block;
    std::size_t dynamic_bytes;
    std::size_t shared_limit; /* dynamic + static may use this much */
    void (*body)(void *);
    void *closure;
    std::uint64_t nblocks;
    std::uint64_t blocks_per_take; /* consecutive blocks a worker takes at once */
    unsigned threads_per_block;
    bool seeded;
    bool synccheck;      /* SIMTLAB_EMU_SYNCCHECK (default 1): a barrier some threads exited before fails */
    bool one_d_in_order; /* a 1D block, unseeded: the runners' fast loop */
    struct coop_grid *coop = nullptr; /* a cooperative launch (engine/cooperative.cpp) */
    std::uint64_t seed;
    /* Written by every worker as it takes a block: on a line of its own,
     * away from what the runner loop reads. */
    alignas(64) std::atomic<std::uint64_t> next_block{0};
    std::atomic<bool> stop{false};
    std::atomic<bool> failure_claimed{false};
    cudaError_t error = cudaSuccess;   /* written by the claimer only */
    char diagnostic[message_capacity];
    /* Dynamic parallelism (engine/dynamic.cpp): 0 for a grid the host
     * launched, the parent's depth + 1 for one launched from device code;
     * the grids this grid's threads launched, in launch order, run after
     * its blocks (children), then its tail launches (tails). */
    unsigned depth = 0;
    const char *parent_kernel = nullptr; /* the launching grid's kernel, for diagnostics */
    std::mutex children_mutex;
    std::vector<device_child> children, tails;
};

/* ---- engine/block.cpp ----------------------------------------------------- */
/* Runs one block to its end or its failure on the calling worker. */
void run_block(worker *w, std::uint64_t block_linear);
/* run_block's two halves, for cooperative launches: begin_block readies the
 * block; enter_block runs it until it ends, fails or waits at grid.sync()
 * (engine/cooperative.cpp resumes it there with enter_block again); the
 * caller abandons a failed block. */
void begin_block(worker *w, std::uint64_t block_linear);
void enter_block(worker *w);
/* Releases what a failed block leaves behind (parked fibers' stacks). */
void abandon_block(worker *w);
/* The scheduler's picks (the fast ones inline in engine.hpp): */
using detail::save_origin;
inline fctx::fcontext_t pop_ready(worker *w)
{
    return detail::pop_ready(*w->blk, w->cur_tid);
}
inline fctx::fcontext_t next_context(worker *w)
{
    return detail::next_context(w, *w->blk, w->cur_tid);
}

/* Makes a waiting thread runnable (appends it to the ready queue). */
void make_ready(block_state &b, unsigned tid);
/* Shuffles tids[0..n) with the worker's RNG when the launch is seeded. */
void maybe_shuffle(worker *w, unsigned *tids, unsigned n);

/* ---- engine/failure.cpp --------------------------------------------------- */
/* Every live thread waits and no wait can complete: fails the block with a
 * description of every waiter. */
void fail_deadlock(worker *w);
/* Threads wait at different __syncthreads calls: fails the block naming each
 * group of them and their call site. */
void fail_divergence(worker *w);
/* A barrier is complete for every thread that has not exited, but some
 * threads exited without reaching it (undefined behaviour in CUDA, which
 * compute-sanitizer's synccheck reports): fails the block naming the
 * barrier, the threads at it and the threads that exited. */
void fail_synccheck(worker *w);
/* Fails the block from a running CUDA thread: the message is prefixed with
 * kernel, block and thread. Switches away for good. */
[[noreturn]] void fail_thread(worker *w, cudaError_t error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fails the block without naming one thread (deadlock, divergence): sets
 * w->failed; the caller then switches to the scheduler. */
void fail_block(worker *w, cudaError_t error, const char *text);
/* First failure of a grid wins: it is what the launch reports. */
void claim_failure(grid_job *g, cudaError_t error, const char *text);
/* Writes "0-15, 17, 20-31" for a sorted list of ids. */
void format_ranges(char *out, std::size_t cap, const unsigned *ids, unsigned count);

/* ---- engine/warp.cpp ------------------------------------------------------ */
/* Called as thread `tid` exits: fails the block if lanes wait for it. */
void check_exit_against_warps(worker *w, unsigned tid);
/* Describes every waiting thread, for the deadlock diagnostic. */
void describe_waiters(worker *w, char *out, std::size_t cap);

/* ---- engine/cooperative.cpp ---------------------------------------------- */
/* Called when nothing of the block can run and lanes wait in
 * coalesced_threads(): forms their groups and makes them runnable. */
void resolve_coalescing(worker *w);
/* Every live thread waits at a barrier whose waiters called grid.sync():
 * checks the round and leaves the block waiting for the rest of the grid. */
void park_at_grid_barrier(worker *w);
/* A worker's part of a cooperative launch (instead of block_loop). */
void cooperative_work(worker *w, grid_job *g);
/* engine/grid.cpp: a new worker (each resident block of a cooperative
 * launch has one), and a launch, cooperative or not. */
worker *make_worker(unsigned index, std::size_t stack_bytes, std::size_t shared_capacity);
/* Before and after a cooperative launch runs (engine/cooperative.cpp):
 * checks that the grid fits the device at once (else
 * cudaErrorCooperativeLaunchTooLarge, with a diagnostic) and readies a
 * worker per block; then gives them back. */
cudaError_t cooperative_begin(grid_job *job, unsigned nworkers, std::size_t stack_bytes, const void *kernel_addr);
void cooperative_end(grid_job *job);
/* launch_grid: engine/api.hpp. */
/* Checks a launch configuration as CUDA does (engine/grid.cpp); on failure
 * sets the diagnostic and returns the error, without recording it. */
cudaError_t check_config(const launch_site &site, dim3 grid, dim3 block, std::size_t dynamic,
                         const void *kernel_addr, std::size_t *shared_limit);

/* ---- engine/dynamic.cpp ---------------------------------------------------- */
/* The device launches of a top-level grid's tree not yet begun, and the
 * limit on them (cudaLimitDevRuntimePendingLaunchCount), read as the
 * host's launch begins. */
void dynamic_tree_begin();
/* Says how many device launches of the tree were refused beyond the first
 * of each kind (only the first is printed). */
void dynamic_tree_end();
/* Runs what a grid at `depth` of kernel `kernel` launched, once its blocks
 * have all ended without a failure: each child grid with its own
 * descendants, in launch order, then its tail launches likewise. Returns the first failure (its diagnostic set), which
 * stops the rest; the grids not run are dropped. */
cudaError_t run_device_children(unsigned depth, const char *kernel, std::vector<device_child> &children,
                                std::vector<device_child> &tails);
/* Drops launches that will not run (a failed grid's), so that they no
 * longer count as pending. */
void drop_device_children(std::vector<device_child> &list);
/* Runs one grid launched from device code, and its descendants
 * (engine/grid.cpp). */
cudaError_t run_child_grid(const device_child &child, unsigned depth, const char *parent_kernel);

/* ---- engine/shared.cpp ---------------------------------------------------- */
bool shared_arena_init(worker *w, std::size_t capacity);
/* Bytes left unused between two __shared__ declarations (and after the
 * dynamic area), so that an index just past one lands in no variable: 0,
 * or 32 while the checkers watch accesses (checks/checkers.cpp sets it before a
 * launch). Dropped for a declaration that would not fit with it. */
extern std::size_t shared_redzone;
/* Resets the block's table and poisons its dynamic area. */
void shared_block_begin(worker *w);
/* Is `addr` in the worker's arena or its guard page? For the fault handler. */
bool shared_arena_contains(const worker *w, std::uintptr_t addr, bool *in_guard);

/* ---- engine/fault.cpp ----------------------------------------------------- */
/* Gives the calling OS thread an alternate signal stack (idempotent). */
bool ensure_signal_stack();

} /* namespace engine */
} /* namespace simtlab_emu */

#endif
