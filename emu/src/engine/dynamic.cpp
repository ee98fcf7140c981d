/* simtlab CPU emulator — dynamic parallelism: grids launched from device
 * code with <<<>>> (CUDA 12's CDP2 model).
 *
 * The schedule. A device launch is checked where it is made (configuration,
 * stream, nesting depth, pending launches) and queued on the launching
 * grid; the queued grids run when every block of the launching grid has
 * ended, one after another in launch order, each with all of its own
 * descendants, and then the launching grid's tail launches
 * (cudaStreamTailLaunch) in launch order, likewise. The host's launch
 * returns when the whole tree has run. This is one of the schedules CUDA
 * allows: a parent grid can never wait for a child (CDP2 has no device-side
 * cudaDeviceSynchronize), a child may start at any time after its launch,
 * including after its parent's blocks have all ended; launches into one
 * stream (the block's default stream, a stream made in device code) run
 * in order, fire-and-forget launches (cudaStreamFireAndForget) depend on
 * nothing, and a tail launch starts after its parent grid and all the
 * parent's other work. A program that needs a child to run while its
 * parent waits for it (a spin on a flag the child sets) relies on what
 * CUDA does not promise: here it hangs until the spin limit fails it.
 *
 * Limits: a grid the host launched has depth 0, a grid launched from depth
 * d has depth d + 1, tail launches included; a launch that would make a
 * grid deeper than 24 fails with cudaErrorLaunchMaxDepthExceeded. Every
 * queued launch not yet begun counts against
 * cudaLimitDevRuntimePendingLaunchCount (2048 unless cudaDeviceSetLimit
 * changed it before the host's launch); one more fails with
 * cudaErrorLaunchPendingCountExceeded. Both errors, like every error of a
 * device launch, go to the launching CUDA thread's own last error
 * (cudaGetLastError in device code) and do not fail the parent. A child
 * that fails (fault, trap, assert) fails the host's launch with its
 * diagnostic, which names the child kernel and who launched it; the grids
 * not yet run are dropped. */
#include "engine/internal.hpp"

#include <cstdio>
#include <new>

namespace simtlab_emu {
namespace engine {

namespace {

constexpr unsigned max_nesting_depth = 24;

/* One host launch's tree runs at a time (launch_mutex): launched and not
 * yet begun, and the limit read as the tree began. */
std::atomic<std::size_t> pending{0};
std::size_t pending_limit = 2048;
/* Launches refused for the depth or the pending count: the first of each
 * kind is printed, the others only counted (a grid whose every thread
 * launches would print thousands of lines), and dynamic_tree_end says how
 * many. */
std::atomic<unsigned long> refused_depth{0}, refused_pending{0};

const cudaStream_t tail_stream = reinterpret_cast<cudaStream_t>(0x3);      /* cudaStreamTailLaunch */
const cudaStream_t fire_and_forget = reinterpret_cast<cudaStream_t>(0x4); /* cudaStreamFireAndForget */

} /* namespace */

void dynamic_tree_begin()
{
    pending.store(0, std::memory_order_relaxed);
    refused_depth.store(0, std::memory_order_relaxed);
    refused_pending.store(0, std::memory_order_relaxed);
    std::size_t limit = 2048;
    if (cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount) == cudaSuccess)
        pending_limit = limit;
}

void dynamic_tree_end()
{
    const unsigned long depth = refused_depth.load(), count = refused_pending.load();
    if (depth > 1)
        std::fprintf(stderr, "simtlab-emu: %lu more launches from device code were refused for the nesting depth "
                     "(cudaErrorLaunchMaxDepthExceeded)\n", depth - 1);
    if (count > 1)
        std::fprintf(stderr, "simtlab-emu: %lu more launches from device code were refused for the pending launch "
                     "limit (cudaErrorLaunchPendingCountExceeded)\n", count - 1);
}

void drop_device_children(std::vector<device_child> &list)
{
    pending.fetch_sub(list.size(), std::memory_order_relaxed);
    list.clear();
}

/* Runs list[0..) in order; on a failure drops the rest. */
static cudaError_t run_in_order(std::vector<device_child> &list, unsigned depth, const char *kernel)
{
    for (std::size_t i = 0; i < list.size(); i++) {
        pending.fetch_sub(1, std::memory_order_relaxed); /* it begins */
        const cudaError_t e = run_child_grid(list[i], depth + 1, kernel);
        list[i].closure.reset();
        if (e != cudaSuccess) {
            pending.fetch_sub(list.size() - i - 1, std::memory_order_relaxed);
            list.clear();
            return e;
        }
    }
    list.clear();
    return cudaSuccess;
}

cudaError_t run_device_children(unsigned depth, const char *kernel, std::vector<device_child> &children,
                                std::vector<device_child> &tails)
{
    cudaError_t e = run_in_order(children, depth, kernel);
    if (e != cudaSuccess) {
        drop_device_children(tails);
        return e;
    }
    return run_in_order(tails, depth, kernel);
}

} /* namespace engine */

namespace detail {

using namespace engine;

cudaError_t device_launch(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem, cudaStream_t stream,
                          void (*body)(void *), std::shared_ptr<void> closure, const void *kernel_addr)
{
    worker *w = this_worker();
    grid_job *g = w ? w->grid : nullptr;
    if (!g || !w->in_block) /* not reached: launch.hpp asks in_block first */
        return record_error(cudaErrorNotSupported);
    const bool tail = stream == tail_stream;
    if (!tail && stream != fire_and_forget) {
        if (cudaError_t e = validate_stream(stream, "kernel launch from device code"))
            return record_error(e);
    }
    std::size_t shared_limit = 0;
    if (cudaError_t e = check_config(site, grid, block, shmem, kernel_addr, &shared_limit))
        return record_error(e);
    char text[768];
    if (!body) {
        std::snprintf(text, sizeof text, "launch at %s:%d from device code: no kernel function", site.file,
                      site.line);
        set_diagnostic(text);
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (g->depth + 1 > max_nesting_depth) {
        std::snprintf(text, sizeof text,
                      "launch of %s at %s:%d from device code (kernel %s, block (%u,%u,%u), thread (%u,%u,%u)): "
                      "the launching grid is at nesting depth %u and the new grid would be at %u; CUDA "
                      "nests grids at most %u deep (the host's grid is depth 0). The grid was not launched "
                      "(cudaErrorLaunchMaxDepthExceeded, in the thread's cudaGetLastError)",
                      site.kernel, site.file, site.line, g->site.kernel, block_idx.x, block_idx.y, block_idx.z,
                      thread_idx.x, thread_idx.y, thread_idx.z, g->depth, g->depth + 1, max_nesting_depth);
        if (refused_depth.fetch_add(1, std::memory_order_relaxed) == 0)
            set_diagnostic(text);
        return record_error(cudaErrorLaunchMaxDepthExceeded);
    }
    if (pending.fetch_add(1, std::memory_order_relaxed) >= pending_limit) {
        pending.fetch_sub(1, std::memory_order_relaxed);
        std::snprintf(text, sizeof text,
                      "launch of %s at %s:%d from device code (kernel %s, block (%u,%u,%u), thread (%u,%u,%u)): "
                      "%zu launches from device code are already waiting to begin, the limit "
                      "cudaLimitDevRuntimePendingLaunchCount (cudaDeviceSetLimit before the host's launch "
                      "raises it). The emulator begins them only after the launching grid's blocks have "
                      "ended. The grid was not launched (cudaErrorLaunchPendingCountExceeded, in the "
                      "thread's cudaGetLastError)",
                      site.kernel, site.file, site.line, g->site.kernel, block_idx.x, block_idx.y, block_idx.z,
                      thread_idx.x, thread_idx.y, thread_idx.z, pending_limit);
        if (refused_pending.fetch_add(1, std::memory_order_relaxed) == 0)
            set_diagnostic(text);
        return record_error(cudaErrorLaunchPendingCountExceeded);
    }
    device_child child{site, grid, block, shmem, body, std::move(closure), kernel_addr};
    try {
        std::lock_guard<std::mutex> hold(g->children_mutex);
        (tail ? g->tails : g->children).push_back(std::move(child));
    } catch (const std::bad_alloc &) {
        pending.fetch_sub(1, std::memory_order_relaxed);
        set_diagnostic("out of host memory for a launch from device code");
        return record_error(cudaErrorMemoryAllocation);
    }
    return cudaSuccess;
}

cudaError_t device_launch_copy(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem,
                               cudaStream_t stream, void (*thread)(void *), const void *call,
                               void *(*clone)(const void *), void (*destroy)(void *), const void *kernel_addr)
{
    return device_launch(site, grid, block, shmem, stream, thread, std::shared_ptr<void>(clone(call), destroy),
                         kernel_addr);
}

} /* namespace detail */
} /* namespace simtlab_emu */
