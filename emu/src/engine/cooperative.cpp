/* simtlab CPU emulator — what cooperative groups need from the engine:
 * cooperative launches with grid.sync(), and coalesced_threads().
 *
 * A cooperative launch (cudaLaunchCooperativeKernel) keeps every block of
 * the grid resident at once, as CUDA requires: each block gets a worker
 * record of its own (its block state, shared memory arena and fiber
 * stacks), and each OS worker takes blocks k, k + P, k + 2P, ... of the P
 * taking part. A worker runs each of its blocks until the block ends or
 * every live thread of it waits at grid.sync() (next_context_slow calls
 * park_at_grid_barrier then, instead of releasing the barrier); then it
 * waits for the other OS workers. When every block waits, each worker
 * resumes its blocks: their barrier is released as a __syncthreads
 * barrier is. A block stays on the OS thread that started it, since a
 * fiber must not move between threads (__thread variables).
 *
 * Residency: a grid may have at most multiProcessorCount x the blocks per
 * SM that cudaOccupancyMaxActiveBlocksPerMultiprocessor gives for its block
 * size and shared memory (threads, block slots and shared memory per SM of
 * the emulated device; registers are not modelled); more fails with
 * cudaErrorCooperativeLaunchTooLarge, as on a GPU. Every thread of a
 * resident block that waits at grid.sync() holds a fiber stack, so a
 * launch of S SMs x 2048 threads needs that many stacks (two memory
 * mappings each: vm.max_map_count, 65530 by default, allows about 30,000).
 *
 * Errors the emulator chooses where CUDA hangs or is undefined:
 *   - grid.sync() in a kernel launched with <<<>>>: cudaErrorLaunchFailure;
 *   - some blocks exited while others wait at grid.sync(): cudaErrorLaunchFailure.
 */
#include "engine/internal.hpp"

#include <simtlab_emu/cooperative.hpp>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace simtlab_emu {
namespace engine {

/* One block of a cooperative launch and the worker record it runs on. */
struct coop_resident {
    worker *w;
    std::uint64_t linear;
    uint3 idx;
    enum { unstarted, parked, done } state;
};

struct coop_grid {
    std::vector<coop_resident> residents; /* by block linear index */
    unsigned participants;                /* OS workers taking part */
    /* The grid barrier between OS workers. */
    std::mutex m;
    std::condition_variable cv;
    unsigned arrived = 0;
    std::uint64_t round = 0;
    bool finish = false;
};

/* Worker records of resident blocks, kept between cooperative launches
 * (launches are serial: only the launching thread touches this). */
static std::vector<worker *> &resident_pool()
{
    static auto *pool = new std::vector<worker *>; /* lives to exit */
    return *pool;
}

static std::size_t round16(std::size_t n)
{
    return (n + 15) & ~std::size_t{15};
}

cudaError_t cooperative_begin(grid_job *job, unsigned nworkers, std::size_t stack_bytes, const void *kernel_addr)
{
    const cudaDeviceProp &p = device_props();
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_addr, static_cast<int>(job->threads_per_block),
                                                      job->dynamic_bytes) != cudaSuccess)
        per_sm = 0;
    const std::uint64_t capacity = static_cast<std::uint64_t>(per_sm) * static_cast<unsigned>(p.multiProcessorCount);
    if (job->nblocks > capacity) {
        char text[768];
        std::snprintf(text, sizeof text,
                      "cooperative launch of %s at %s:%d with %llu blocks of %u threads (%zu bytes of dynamic "
                      "shared memory): at most %llu blocks can be resident at once on the emulated device "
                      "(%d SMs x %d blocks per SM for this block size and shared memory); size the grid with "
                      "cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiProcessorCount",
                      job->site.kernel, job->site.file, job->site.line,
                      static_cast<unsigned long long>(job->nblocks), job->threads_per_block, job->dynamic_bytes,
                      static_cast<unsigned long long>(capacity), p.multiProcessorCount, per_sm);
        set_diagnostic(text);
        return cudaErrorCooperativeLaunchTooLarge;
    }
    auto *c = new (std::nothrow) coop_grid();
    if (!c) {
        set_diagnostic("out of host memory for a cooperative launch's bookkeeping");
        return cudaErrorMemoryAllocation;
    }
    std::vector<worker *> &pool = resident_pool();
    const std::size_t shared = std::max(p.sharedMemPerBlock, p.sharedMemPerBlockOptin);
    while (pool.size() < job->nblocks) {
        worker *w = make_worker(static_cast<unsigned>(pool.size()), stack_bytes, shared);
        if (!w) {
            char text[256];
            std::snprintf(text, sizeof text, "cooperative launch of %s at %s:%d: out of host memory for the "
                          "state of resident block %zu", job->site.kernel, job->site.file, job->site.line,
                          pool.size());
            set_diagnostic(text);
            delete c;
            return cudaErrorMemoryAllocation;
        }
        pool.push_back(w);
    }
    c->residents.resize(job->nblocks);
    for (std::uint64_t i = 0; i < job->nblocks; i++)
        c->residents[i] = coop_resident{pool[i], i, uint3{0, 0, 0}, coop_resident::unstarted};
    c->participants = static_cast<unsigned>(std::min<std::uint64_t>(nworkers, job->nblocks));
    job->coop = c;
    return cudaSuccess;
}

void cooperative_end(grid_job *job)
{
    delete job->coop;
    job->coop = nullptr;
}

/* ---- one OS worker's part -------------------------------------------------- */

/* Runs resident block r on the calling OS thread until it ends, fails or
 * waits at grid.sync(). */
static void run_resident(worker *os, coop_resident &r)
{
    worker *v = r.w;
    detail::current_worker = v;
    if (r.state == coop_resident::unstarted) {
        v->grid = os->grid;
        v->static_shared_max = 0;
        begin_block(v, r.linear);
        r.idx = block_idx;
    } else {
        block_idx = r.idx;
        v->blk->grid_sync_waiters = 0; /* next_context_slow now releases the barrier */
        v->cur_tid = ~0u;              /* no thread is running: none is "the caller" */
    }
    if (sigsetjmp(v->fault_jmp, 1)) {
        /* A kernel thread faulted: as recover_from_fault (engine/grid.cpp). */
        v->fault_armed = 0;
        v->failed = true;
        v->abandon_stack = running_stack(v);
        claim_failure(v->grid, cudaErrorIllegalAddress, v->message);
        abandon_block(v);
    } else {
        v->fault_armed = 1;
        enter_block(v);
        v->fault_armed = 0;
        if (v->failed)
            abandon_block(v);
    }
    detail::current_worker = os;
    detail::in_kernel_thread = os->in_block;
    if (v->failed || v->blk->live == 0) {
        r.state = coop_resident::done;
        const std::size_t used = v->blk->shared_used - round16(v->grid->dynamic_bytes);
        os->static_shared_max = std::max(os->static_shared_max, used);
    } else {
        r.state = coop_resident::parked;
    }
}

/* Called by the last OS worker to arrive: ends the launch when no block
 * waits, and fails it when some blocks exited while others wait. */
static void decide(grid_job *g, coop_grid &c)
{
    const coop_resident *waiting = nullptr, *gone = nullptr;
    std::uint64_t nwaiting = 0;
    for (const coop_resident &r : c.residents) {
        if (r.state == coop_resident::parked) {
            nwaiting++;
            if (!waiting)
                waiting = &r;
        } else if (!gone) {
            gone = &r;
        }
    }
    if (g->stop.load() || nwaiting == 0) {
        c.finish = true;
        return;
    }
    if (gone) {
        const block_state &b = *waiting->w->blk;
        char text[768];
        std::snprintf(text, sizeof text,
                      "kernel %s (launched at %s:%d): %llu blocks wait at grid.sync() (block (%u,%u,%u) at %s:%d), "
                      "but %llu blocks have exited without reaching it (block (%u,%u,%u) among them): every block "
                      "of a cooperative launch must reach every grid.sync() (on a GPU the waiting blocks would "
                      "hang)",
                      g->site.kernel, g->site.file, g->site.line, static_cast<unsigned long long>(nwaiting),
                      waiting->idx.x, waiting->idx.y, waiting->idx.z, b.barrier_site.file, b.barrier_site.line,
                      static_cast<unsigned long long>(c.residents.size() - nwaiting), gone->idx.x, gone->idx.y,
                      gone->idx.z);
        claim_failure(g, cudaErrorLaunchFailure, text);
        c.finish = true;
    }
}

/* The grid barrier between OS workers; returns true when the launch is over. */
static bool grid_barrier(grid_job *g, coop_grid &c)
{
    std::unique_lock<std::mutex> lock(c.m);
    const std::uint64_t round = c.round;
    if (++c.arrived == c.participants) {
        decide(g, c);
        c.arrived = 0;
        c.round++;
        c.cv.notify_all();
    } else {
        c.cv.wait(lock, [&] { return c.round != round; });
    }
    return c.finish;
}

void cooperative_work(worker *w, grid_job *g)
{
    coop_grid &c = *g->coop;
    w->grid = g;
    w->static_shared_max = 0;
    set_in_block(w, false);
    for (;;) {
        for (std::size_t i = w->index; i < c.residents.size(); i += c.participants) {
            coop_resident &r = c.residents[i];
            if (r.state != coop_resident::done && !g->stop.load(std::memory_order_relaxed))
                run_resident(w, r);
        }
        if (grid_barrier(g, c))
            break;
    }
    /* A failed launch leaves blocks waiting: give their fibers back. */
    for (std::size_t i = w->index; i < c.residents.size(); i += c.participants) {
        coop_resident &r = c.residents[i];
        if (r.state == coop_resident::parked) {
            r.w->abandon_stack = nullptr;
            abandon_block(r.w);
            r.state = coop_resident::done;
        }
    }
}

/* ---- grid.sync() as the block sees it ---------------------------------------- */

void park_at_grid_barrier(worker *w)
{
    block_state &b = *w->blk;
    if (b.barrier_first_odd != no_odd_waiter) {
        fail_divergence(w);
        return;
    }
    if (b.grid_sync_waiters != b.nwaiting_barrier) {
        char text[512];
        std::snprintf(text, sizeof text,
                      "%u threads wait at grid.sync() and %u at __syncthreads() on the same line (%s:%d): "
                      "every thread of the block must reach the same barrier",
                      b.grid_sync_waiters, b.nwaiting_barrier - b.grid_sync_waiters, b.barrier_site.file,
                      b.barrier_site.line);
        fail_block(w, cudaErrorLaunchFailure, text);
    }
    /* Otherwise the block simply stops here: cooperative_work resumes it. */
}

/* ---- coalesced_threads() ---------------------------------------------------- */

struct coalesce_lane {
    here where;
    unsigned mask; /* the group, set when it is formed */
};

static bool same_site(here a, here b)
{
    return a.line == b.line && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

void resolve_coalescing(worker *w)
{
    block_state &b = *w->blk;
    const unsigned nwarps = (b.n + warp_size - 1) / warp_size;
    for (unsigned warp = 0; warp < nwarps; warp++) {
        warp_state &ws = b.warps[warp];
        unsigned pending = b.coalescing[warp];
        while (pending) {
            const here site = static_cast<coalesce_lane *>(ws.lane_data[__builtin_ctz(pending)])->where;
            unsigned mask = 0;
            for (unsigned lane = 0; lane < warp_size; lane++)
                if ((pending >> lane & 1u) && same_site(static_cast<coalesce_lane *>(ws.lane_data[lane])->where, site))
                    mask |= 1u << lane;
            unsigned ids[warp_size];
            unsigned count = 0;
            for (unsigned lane = 0; lane < warp_size; lane++) {
                if (mask >> lane & 1u) {
                    static_cast<coalesce_lane *>(ws.lane_data[lane])->mask = mask;
                    ids[count++] = warp * warp_size + lane;
                }
            }
            maybe_shuffle(w, ids, count);
            for (unsigned i = 0; i < count; i++)
                make_ready(b, ids[i]);
            pending &= ~mask;
        }
        b.coalescing[warp] = 0;
    }
    b.ncoalescing = 0;
}

} /* namespace engine */

using namespace engine;

namespace coop {

bool grid_is_cooperative()
{
    worker *w = this_worker();
    return w && w->in_block && w->grid->coop != nullptr;
}

void grid_sync(here where)
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return; /* host code: there is no grid to wait for */
    if (!w->grid->coop)
        fail_thread(w, cudaErrorLaunchFailure,
                    "grid.sync() at %s:%d in a kernel launched with <<<>>>: a grid can only synchronise when "
                    "it is launched with cudaLaunchCooperativeKernel, which keeps every block resident at once "
                    "(on a GPU this is undefined behaviour; this_grid().is_valid() is false here)",
                    where.file, where.line);
    w->blk->grid_sync_waiters++;
    sync_block(sync_plain, 0, where);
}

unsigned coalesced_mask(here where)
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return 1u;
    block_state &b = *w->blk;
    const unsigned tid = w->cur_tid, lane = tid % warp_size, warp = tid / warp_size;
    coalesce_lane me{where, 0};
    b.warps[warp].lane_data[lane] = &me;
    b.coalescing[warp] |= 1u << lane;
    b.ncoalescing++;
    detail::switch_from(w, b, tid, detail::next_context(w, b, tid));
    return me.mask;
}

void not_emulated(const char *what, here where)
{
    char text[512];
    std::snprintf(text, sizeof text, "%s at %s:%d is not emulated", what, where.file, where.line);
    fail_launch(cudaErrorNotSupported, text);
}

/* args_missing, run_cooperative_grid, cudaLaunchCooperativeKernel: the host
 * side of a cooperative launch, in runtime/launch.cpp. */

} /* namespace coop */
} /* namespace simtlab_emu */
