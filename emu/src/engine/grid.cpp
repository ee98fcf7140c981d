/* simtlab CPU emulator — grids: the worker pool, launch checks, handing out
 * blocks, and what a launch reports.
 *
 * Workers are OS threads made once (one per core, the launching thread being
 * one of them; SIMTLAB_EMU_THREADS overrides the count). Each takes a run
 * of consecutive block indices from an atomic counter (see block_loop) and
 * runs those blocks one after another, each to its end. Launches are
 * synchronous: launch_grid (for the runtime's run_grid) returns when every
 * block has run, or when a failure has stopped the grid (the other workers
 * finish the block they are on and take no more).
 *
 * Error choices, where CUDA leaves them open:
 *   - a bad launch configuration (a zero dimension, more than 1024 threads
 *     per block, a grid or block dimension above its limit) and dynamic
 *     shared memory above the limit: cudaErrorInvalidValue from the launch,
 *     not sticky, as CUDA 13.0 returned for each of them (measured on an
 *     NVIDIA H200, driver 580.159.04, 2026-12-04; older CUDA versions
 *     answered cudaErrorInvalidConfiguration for the first kinds); static +
 *     dynamic above the limit, found only while the block runs, fails the
 *     same way;
 *   - barrier divergence: cudaErrorLaunchFailure (hardware hangs or worse);
 *   - misused warp operations and deadlocks: cudaErrorIllegalInstruction;
 *   - bad addresses: cudaErrorIllegalAddress; assert: cudaErrorAssert. */
#include "common/settings.hpp"
#include "engine/internal.hpp"
#include "profile/internal.hpp"
#include "profile/model.hpp"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace simtlab_emu {
namespace engine {

struct worker_pool {
    unsigned nworkers = 0;
    worker **workers = nullptr; /* [0] belongs to whichever thread launches */
    std::mutex m;
    std::condition_variable start_cv, done_cv;
    std::uint64_t generation = 0;
    unsigned helpers_wanted = 0;
    unsigned helpers_done = 0;
    grid_job *job = nullptr;
};

static worker_pool *the_pool;
static std::mutex launch_mutex; /* one grid at a time, whichever host thread */

/* ---- the services (engine/services.hpp) ----------------------------------- */

/* Until the runtime installs its table: a line saying so, and a failure,
 * instead of a call through a null pointer. */
static void not_installed(const char *what)
{
    static bool told = false;
    if (!told) {
        told = true;
        std::fprintf(stderr, "simtlab-emu: internal error: the engine called %s before the runtime installed its "
                             "services (install_services)\n", what);
    }
}
static bool stub_find_allocation(std::uintptr_t, std::size_t, allocation *, std::ptrdiff_t *)
{
    return false; /* async-signal safe: says nothing */
}
static bool stub_find_freed(std::uintptr_t, allocation *, std::ptrdiff_t *)
{
    return false;
}
static void stub_for_each_allocation(void (*)(const allocation &, void *), void *)
{
    not_installed("for_each_allocation");
}
static bool stub_host_memory_reachable(const void *)
{
    return false;
}
static void stub_device_memory_open()
{
    not_installed("device_memory_open");
}
static cudaError_t stub_device_memory_close()
{
    return cudaSuccess;
}
static cudaError_t stub_record_error(cudaError_t error)
{
    if (error != cudaSuccess)
        not_installed("record_error");
    return error;
}
static cudaError_t stub_sticky_error()
{
    not_installed("sticky_error");
    return cudaErrorNotSupported;
}
static void stub_set_diagnostic(const char *text)
{
    std::fprintf(stderr, "simtlab-emu: %s\n", text);
}
static const cudaDeviceProp &stub_device_props()
{
    not_installed("device_props");
    static const cudaDeviceProp none{};
    return none;
}
static cudaError_t stub_validate_stream(cudaStream_t, const char *)
{
    not_installed("validate_stream");
    return cudaErrorNotSupported;
}

engine_services services = {
    stub_find_allocation, stub_find_freed, stub_for_each_allocation, stub_host_memory_reachable,
    stub_device_memory_open, stub_device_memory_close, stub_record_error, stub_sticky_error,
    stub_set_diagnostic, stub_device_props, stub_validate_stream,
};

/* ---- per-kernel facts (cudaFuncGetAttributes, cudaFuncSetAttribute) ------ */

/* The one registry of per-kernel facts: cudaFuncGetAttributes reports from
 * it, launches are checked against it, cudaDeviceReset clears its settings. */
struct kernel_info {
    std::size_t static_shared = 0; /* learnt at the kernel's last launch */
    int max_dynamic = -1;          /* cudaFuncSetAttribute's value; -1: none since start or reset */
};
static std::mutex kernels_mutex;
static std::unordered_map<const void *, kernel_info> &kernels()
{
    static auto *table = new std::unordered_map<const void *, kernel_info>; /* lives to exit */
    return *table;
}

/* ---- the pool --------------------------------------------------------------- */

static void work_on_grid(worker *w, grid_job *g);

worker *make_worker(unsigned index, std::size_t stack_bytes, std::size_t shared_capacity)
{
    auto *w = new (std::nothrow) worker();
    if (!w)
        return nullptr;
    w->blk = new (std::nothrow) block_state();
    if (!w->blk || !shared_arena_init(w, shared_capacity)) {
        delete w->blk;
        delete w;
        return nullptr;
    }
    link_block_state(*w->blk);
    w->hot = w->blk;
    w->index = index;
    w->stacks.stack_bytes = stack_bytes;
    return w;
}

static void helper_main(worker_pool *p, unsigned index)
{
    worker *w = p->workers[index];
    detail::current_worker = w;
    ensure_signal_stack();
    std::uint64_t seen = 0;
    for (;;) {
        grid_job *job;
        {
            std::unique_lock<std::mutex> lock(p->m);
            p->start_cv.wait(lock, [&] { return p->generation != seen; });
            seen = p->generation;
            if (index > p->helpers_wanted)
                continue; /* this grid has too few blocks to need us */
            job = p->job;
        }
        work_on_grid(w, job);
        {
            std::lock_guard<std::mutex> lock(p->m);
            p->helpers_done++;
        }
        p->done_cv.notify_one();
    }
}

/* A child of fork() has none of the parent's helper threads: it builds its
 * own pool on its first launch (the old one is left behind unused). */
static void forget_pool_in_child()
{
    the_pool = nullptr;
}

static worker_pool *get_pool(char *why, std::size_t cap)
{
    if (the_pool)
        return the_pool;
    const unsigned count = settings::threads();
    const std::size_t stack_kib = settings::stack_kib();
    const cudaDeviceProp &props = device_props();
    const std::size_t shared = std::max(props.sharedMemPerBlock, props.sharedMemPerBlockOptin);
    auto *p = new (std::nothrow) worker_pool();
    if (p)
        p->workers = new (std::nothrow) worker *[count]();
    if (!p || !p->workers) {
        std::snprintf(why, cap, "out of host memory for the emulator's %u workers", count);
        delete p;
        return nullptr;
    }
    p->nworkers = count;
    for (unsigned i = 0; i < count; i++) {
        p->workers[i] = make_worker(i, stack_kib * 1024, shared);
        if (!p->workers[i]) {
            std::snprintf(why, cap, "could not allocate worker %u (its %zu-byte shared memory arena)",
                          i, shared);
            return nullptr; /* workers made so far are leaked: the process is out of memory */
        }
    }
    try {
        for (unsigned i = 1; i < count; i++)
            std::thread(helper_main, p, i).detach();
    } catch (const std::system_error &e) {
        std::snprintf(why, cap, "could not start the emulator's worker threads: %s", e.what());
        return nullptr;
    }
    static std::once_flag atfork_once;
    std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, forget_pool_in_child); });
    the_pool = p;
    return p;
}

/* ---- running the grid ----------------------------------------------------------- */

/* Workers take runs of consecutive blocks, not one block at a time: with
 * single blocks the workers' writes interleave at the granularity of one
 * block's data (1 KB of a vector add), and each core's prefetchers pull in
 * lines that the other core is about to write (measured on the 2-core dev
 * VM: vector add of 2^22 floats took as long on two workers as on one; a
 * read-only kernel scaled). A run is at most 64 blocks, and short enough
 * that every worker gets several. */
/* SIMTLAB_EMU_SAMPLE_BLOCKS (profile/model.hpp): the blocks a sampled
 * launch runs, or nullptr (the whole grid). Set by run_tree, which holds
 * launch_mutex. */
static const std::vector<std::uint64_t> *sampled_blocks = nullptr;

static void block_loop(worker *w, grid_job *g)
{
    const std::uint64_t run = g->blocks_per_take;
    const std::vector<std::uint64_t> *const pick = sampled_blocks;
    const std::uint64_t count = pick ? pick->size() : g->nblocks;
    while (!g->stop.load(std::memory_order_relaxed)) {
        const std::uint64_t first = g->next_block.fetch_add(run, std::memory_order_relaxed);
        if (first >= count)
            break;
        const std::uint64_t end = std::min(first + run, count);
        for (std::uint64_t i = first; i < end; i++) {
            run_block(w, pick ? (*pick)[i] : i);
            if (w->failed || g->stop.load(std::memory_order_relaxed))
                return;
        }
    }
}

/* The fault handler jumped here from a kernel thread: the block's fibers
 * are abandoned (their stacks go back to the pool) and the grid stops. */
static void recover_from_fault(worker *w)
{
    w->failed = true;
    if (profile::launch_observed)
        profile::block_end(w);
    w->abandon_stack = running_stack(w);
    claim_failure(w->grid, cudaErrorIllegalAddress, w->message);
    abandon_block(w);
}

static void work_on_grid(worker *w, grid_job *g)
{
    w->grid = g;
    w->static_shared_max = 0;
    set_in_block(w, false);
    block_dim = g->block;
    grid_dim = g->grid;
    if (g->coop) { /* every block resident at once: engine/cooperative.cpp */
        cooperative_work(w, g);
        return;
    }
    /* Set once per launch, not per block: sigsetjmp saving the signal mask
     * is a system call. */
    if (sigsetjmp(w->fault_jmp, 1)) {
        recover_from_fault(w);
        return;
    }
    w->fault_armed = 1;
    block_loop(w, g);
    w->fault_armed = 0;
}

/* Checks the launch configuration as CUDA does. On failure sets the
 * diagnostic and returns the error. */
cudaError_t check_config(const launch_site &site, dim3 grid, dim3 block, std::size_t dynamic,
                         const void *kernel_addr, std::size_t *shared_limit)
{
    const cudaDeviceProp &p = device_props();
    char text[768];
    const int at = std::snprintf(text, sizeof text, "launch of %s at %s:%d with grid (%u,%u,%u), block (%u,%u,%u): ",
                                 site.kernel, site.file, site.line, grid.x, grid.y, grid.z, block.x,
                                 block.y, block.z);
    char *why = text + at;
    const std::size_t cap = sizeof text - static_cast<std::size_t>(at);
    const unsigned long long threads = 1ULL * block.x * block.y * block.z;
    cudaError_t err = cudaErrorInvalidValue; /* CUDA 13's answer; see the top of this file */
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
        std::snprintf(why, cap, "a dimension is 0 (every grid and block dimension must be at least 1)");
    else if (block.x > 1024 || block.y > 1024 || block.z > 64)
        std::snprintf(why, cap, "a block dimension is above the device's limit of (1024,1024,64)");
    else if (threads > static_cast<unsigned long long>(p.maxThreadsPerBlock))
        std::snprintf(why, cap, "the block has %llu threads; a block holds at most %d "
                      "(reduce blockDim)", threads, p.maxThreadsPerBlock);
    else if (grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535)
        std::snprintf(why, cap, "a grid dimension is above the device's limit of (2147483647,65535,65535)");
    else
        err = cudaSuccess;
    if (err == cudaSuccess) {
        kernel_info info;
        {
            std::lock_guard<std::mutex> lock(kernels_mutex);
            auto it = kernels().find(kernel_addr);
            if (it != kernels().end())
                info = it->second;
        }
        /* nullptr: a template kernel launched with deduced arguments
         * (launch.hpp, launch_deduced), whose instance is not known here. */
        const bool opted_in = info.max_dynamic > 0 || !kernel_addr;
        const std::size_t dynamic_limit = !kernel_addr ? p.sharedMemPerBlockOptin
                                          : opted_in   ? static_cast<std::size_t>(info.max_dynamic)
                                                       : p.sharedMemPerBlock;
        *shared_limit = opted_in ? p.sharedMemPerBlockOptin : p.sharedMemPerBlock;
        if (dynamic > dynamic_limit) {
            err = cudaErrorInvalidValue;
            std::snprintf(why, cap, "%zu bytes of dynamic shared memory asked for; the kernel may "
                          "use at most %zu (cudaFuncSetAttribute with "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize raises it up to %zu)",
                          dynamic, dynamic_limit, p.sharedMemPerBlockOptin);
        }
    }
    if (err != cudaSuccess)
        set_diagnostic(text);
    return err;
}

/* Starts the helpers a grid of `nblocks` can use, runs blocks on the calling
 * thread too, and waits for the helpers to finish. */
static void run_on_pool(worker_pool *p, grid_job *job)
{
    const std::uint64_t extra = job->nblocks - 1;
    const unsigned helpers = static_cast<unsigned>(std::min<std::uint64_t>(p->nworkers - 1, extra));
    if (helpers) {
        {
            std::lock_guard<std::mutex> lock(p->m);
            p->job = job;
            p->helpers_wanted = helpers;
            p->helpers_done = 0;
            p->generation++;
        }
        p->start_cv.notify_all();
    }
    worker *me = p->workers[0];
    detail::worker_hot *const saved = detail::current_worker;
    detail::current_worker = me;
    ensure_signal_stack();
    work_on_grid(me, job);
    detail::current_worker = saved;
    detail::in_kernel_thread = saved->in_block;
    if (helpers) {
        std::unique_lock<std::mutex> lock(p->m);
        p->done_cv.wait(lock, [&] { return p->helpers_done == helpers; });
    }
}

static void remember_static_shared(worker_pool *p, const void *kernel_addr)
{
    std::size_t most = 0;
    for (unsigned i = 0; i < p->nworkers; i++)
        most = std::max(most, p->workers[i]->static_shared_max);
    std::lock_guard<std::mutex> lock(kernels_mutex);
    kernels()[kernel_addr].static_shared = most;
}

/* Runs one grid and then, if its blocks all ended without a failure, the
 * grids its threads launched (engine/dynamic.cpp), so that it completes
 * with its descendants. The caller holds launch_mutex and has opened device
 * memory. A failure's diagnostic is set here; the error is returned, not
 * recorded. */
static cudaError_t run_tree(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                            void (*body)(void *closure), void *closure, const void *kernel_addr, bool cooperative,
                            unsigned depth, const char *parent_kernel)
{
    char text[512];
    std::size_t shared_limit = 0;
    if (cudaError_t err = check_config(site, grid, block, dynamic_shared_bytes, kernel_addr, &shared_limit))
        return err;
    if (!body) {
        std::snprintf(text, sizeof text, "launch at %s:%d: no kernel function", site.file, site.line);
        set_diagnostic(text);
        return cudaErrorInvalidDeviceFunction;
    }
    install_fault_handler();
    worker_pool *p = get_pool(text, sizeof text);
    if (!p) {
        set_diagnostic(text);
        return cudaErrorMemoryAllocation;
    }
    auto *job = new (std::nothrow) grid_job();
    if (!job) {
        set_diagnostic("out of host memory for a launch's bookkeeping");
        return cudaErrorMemoryAllocation;
    }
    job->site = site;
    job->grid = grid;
    job->block = block;
    job->dynamic_bytes = dynamic_shared_bytes;
    job->shared_limit = shared_limit;
    job->body = body;
    job->closure = closure;
    job->nblocks = 1ULL * grid.x * grid.y * grid.z;
    job->blocks_per_take = std::max<std::uint64_t>(1, std::min<std::uint64_t>(64, job->nblocks / (8ULL * p->nworkers)));
    job->threads_per_block = block.x * block.y * block.z;
    job->seeded = settings::seed(&job->seed); /* read at each launch (common/settings.hpp) */
    job->one_d_in_order = !job->seeded && block.y == 1 && block.z == 1;
    job->synccheck = settings::synccheck();
    job->depth = depth;
    job->parent_kernel = parent_kernel;
    if (cooperative) {
        if (cudaError_t err = cooperative_begin(job, p->nworkers, p->workers[0]->stacks.stack_bytes, kernel_addr)) {
            delete job;
            return err;
        }
    }

    sampled_blocks = profile::sample_plan(*job);
    if (sampled_blocks)
        job->blocks_per_take = std::max<std::uint64_t>(
            1, std::min<std::uint64_t>(64, sampled_blocks->size() / (8ULL * p->nworkers)));
    profile::launch_begin(*job);
    run_on_pool(p, job);
    sampled_blocks = nullptr;
    remember_static_shared(p, kernel_addr);
    if (job->coop)
        cooperative_end(job);

    cudaError_t result = cudaSuccess;
    if (job->failure_claimed.load()) {
        if (!job->children.empty() || !job->tails.empty()) { /* a parent that waited for its children? */
            const std::size_t used = std::strlen(job->diagnostic);
            std::snprintf(job->diagnostic + used, sizeof job->diagnostic - used,
                          " [%s had launched %zu grid(s) from device code, which begin only after all its "
                          "blocks have ended: a parent grid cannot wait for its children (CUDA does not "
                          "promise that they run meanwhile)]",
                          site.kernel, job->children.size() + job->tails.size());
        }
        if (depth > 0) { /* say where the grid came from */
            const std::size_t used = std::strlen(job->diagnostic);
            std::snprintf(job->diagnostic + used, sizeof job->diagnostic - used,
                          " [dynamic parallelism: %s was launched from device code by kernel %s at %s:%d, "
                          "nesting depth %u; the whole launch from the host fails]",
                          site.kernel, parent_kernel ? parent_kernel : "?", site.file, site.line, depth);
        }
        set_diagnostic(job->diagnostic);
        result = job->error;
    }
    profile::launch_end(*job, result);
    std::vector<device_child> children = std::move(job->children);
    std::vector<device_child> tails = std::move(job->tails);
    delete job;
    if (result != cudaSuccess) {
        drop_device_children(children);
        drop_device_children(tails);
        return result;
    }
    if (children.empty() && tails.empty())
        return cudaSuccess;
    return run_device_children(depth, site.kernel, children, tails);
}

cudaError_t run_child_grid(const device_child &child, unsigned depth, const char *parent_kernel)
{
    return run_tree(child.site, child.grid, child.block, child.dynamic_bytes, child.body, child.closure.get(),
                    child.kernel_addr, false, depth, parent_kernel);
}

cudaError_t launch_grid(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                        void (*body)(void *closure), void *closure, const void *kernel_addr,
                        bool cooperative)
{
    if (in_kernel()) {
        /* <<<>>> in device code is a device launch (launch.hpp, engine/dynamic.cpp) */
        char text[512];
        std::snprintf(text, sizeof text, "launch of %s at %s:%d from inside a kernel: the emulator runs "
                      "device launches written with <<<>>> (dynamic parallelism), not %s", site.kernel,
                      site.file, site.line, cooperative ? "cooperative launches" :
                      "graph launches or cudaLaunchKernel with a kernel's address");
        set_diagnostic(text);
        return record_error(cudaErrorNotSupported);
    }
    std::lock_guard<std::mutex> serial(launch_mutex);
    if (cudaError_t sticky = sticky_error())
        return record_error(sticky);
    dynamic_tree_begin();
    device_memory_open();
    cudaError_t result = run_tree(site, grid, block, dynamic_shared_bytes, body, closure, kernel_addr, cooperative,
                                  0, nullptr);
    dynamic_tree_end();
    const cudaError_t closed = device_memory_close();
    if (result == cudaSuccess)
        result = closed; /* canaries past an allocation's end were overwritten */
    return record_error(result);
}

} /* namespace engine */

using namespace engine;

void install_services(const engine_services &table)
{
    engine::services = table;
}

void engine_synchronize()
{
    if (in_kernel()) /* the launch lock is held by the host's launch: waiting would deadlock */
        fail_launch(cudaErrorLaunchFailure,
                    "a host-side wait (cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceReset) was called "
                    "in device code; CUDA's device runtime has none of them (nvcc refuses the call)");
    /* Launches are synchronous; taking the lock waits for one that another
     * host thread has in flight. */
    std::lock_guard<std::mutex> serial(launch_mutex);
}

std::size_t kernel_static_shared_bytes(const void *kernel_addr)
{
    std::lock_guard<std::mutex> lock(kernels_mutex);
    auto it = kernels().find(kernel_addr);
    return it == kernels().end() ? 0 : it->second.static_shared;
}

cudaError_t engine_set_max_dynamic_shared(const void *kernel_addr, int bytes, std::size_t optin_limit)
{
    std::lock_guard<std::mutex> lock(kernels_mutex);
    kernel_info &info = kernels()[kernel_addr];
    if (bytes < 0 || static_cast<std::size_t>(bytes) + info.static_shared > optin_limit)
        return cudaErrorInvalidValue;
    info.max_dynamic = bytes;
    return cudaSuccess;
}

std::size_t kernel_max_dynamic_shared_bytes(const void *kernel_addr, std::size_t per_block)
{
    std::lock_guard<std::mutex> lock(kernels_mutex);
    auto it = kernels().find(kernel_addr);
    const kernel_info info = it == kernels().end() ? kernel_info{} : it->second;
    if (info.max_dynamic >= 0)
        return static_cast<std::size_t>(info.max_dynamic);
    return per_block > info.static_shared ? per_block - info.static_shared : 0;
}

void engine_reset_function_attributes()
{
    std::lock_guard<std::mutex> lock(kernels_mutex);
    for (auto &entry : kernels())
        entry.second.max_dynamic = -1;
}

} /* namespace simtlab_emu */
