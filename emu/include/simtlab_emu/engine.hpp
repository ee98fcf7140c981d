/* simtlab CPU emulator — the contract between device-side headers, the
 * source rewriter and the execution engine.
 *
 * The rewriter (emu/tools/slrewrite.c) turns CUDA syntax that a C++ compiler
 * cannot read into calls declared here:
 *
 *   k<<<g, b, shmem, stream>>>(args)
 *     -> ::simtlab_emu::launch("k", __FILE__, __LINE__, k, g, b, shmem, stream)(args)
 *   __shared__ float tile[32][33];            (function scope)
 *     -> float (&tile)[32][33] = ::simtlab_emu::shared_var<float[32][33]>([]{});
 *   extern __shared__ float dyn[];
 *     -> float *const dyn = (float *)::simtlab_emu::dynamic_shared();
 *
 * and puts `#define SIMTLAB_EMU_KERNEL_TU 1`, `#include <cuda_runtime.h>` and
 * a `#line 1 "original.cu"` at the top, so compiler messages and gdb point at
 * the student's own file and line.
 *
 * Everything else (__global__, __device__, threadIdx, __syncthreads, shuffles,
 * atomics) is a macro, variable or function from <cuda_runtime.h> and the
 * headers it includes (emu/include/simtlab_emu/device*.hpp).
 */
#ifndef SIMTLAB_EMU_ENGINE_HPP
#define SIMTLAB_EMU_ENGINE_HPP

#include <cuda_runtime_api.h>
#include <boost/context/detail/fcontext.hpp>
#include <cstddef>
#include <cstdint>

namespace simtlab_emu {

/* Where a device operation was called from, for diagnostics. */
struct here {
    const char *file;
    int line;
};
#define SIMTLAB_EMU_HERE (::simtlab_emu::here{__FILE__, __LINE__})

/* ---- the built-in variables ------------------------------------------- */
/* Set by the engine before it runs (or resumes) each CUDA thread. __thread,
 * not thread_local: no TLS wrapper call on each read. A fiber never moves
 * between OS threads, so these stay right across a suspension. The device
 * headers map threadIdx, blockIdx, blockDim and gridDim to const views. */
extern __thread uint3 thread_idx;
extern __thread uint3 block_idx;
extern __thread uint3 block_dim;
extern __thread uint3 grid_dim;

/* ---- launching --------------------------------------------------------- */
struct launch_site {
    const char *kernel; /* the kernel expression as written, e.g. "reduce_v3<256>" */
    const char *file;
    int line;
};

/* Runs one grid to completion (launches are synchronous in the emulator; the
 * stream only orders them with copies and events). `body(closure)` runs one
 * CUDA thread: the engine has set threadIdx/blockIdx/... before calling it.
 * `kernel_addr` identifies the kernel for cudaFuncGetAttributes.
 * Validates the configuration exactly as CUDA does (cudaErrorInvalidConfiguration
 * for > 1024 threads per block, a zero dimension, grid limits, shared memory
 * above the limit), records the result as the last error (sticky errors poison
 * the context) and returns it. */
cudaError_t run_grid(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                     cudaStream_t stream, void (*body)(void *closure), void *closure,
                     const void *kernel_addr);

/* ---- per-block memory -------------------------------------------------- */
/* The block's dynamic shared memory (the launch's third <<<>>> argument). */
void *dynamic_shared();
/* Storage for one static __shared__ declaration in the current block: the
 * first thread of a block to reach the declaration allocates it from the
 * block's shared arena (poisoned); every other thread of the block gets the
 * same object. `Tag` is a lambda type, unique per declaration site. */
void *shared_alloc(void *const *site_key, std::size_t bytes, std::size_t align, here where);
/* The caller's file and line: GCC evaluates __builtin_FILE/__builtin_LINE
 * in a default argument at the call site, so a diagnosed declaration names
 * the kernel's line, not this header's. */
inline here call_site(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return here{file, line};
}
template <class T, class Tag>
inline T &shared_var(Tag, here where = call_site())
{
    static void *const key = nullptr; /* its address identifies the site */
    return *static_cast<T *>(shared_alloc(&key, sizeof(T), alignof(T), where));
}

/* ---- the block barrier ------------------------------------------------ */
/* __syncthreads and its variants. mode 0: plain; 1: _count (returns how many
 * waiting threads passed a nonzero predicate); 2: _and; 3: _or (1 or 0).
 * PTX bar.sync semantics: the barrier waits for every thread of the block
 * that has not exited. Threads waiting at different call sites fail the
 * launch with a diagnostic naming both sites. */
inline int sync_block(int mode, int predicate, here where); /* defined below */

/* ---- the warp-collective primitive ------------------------------------- */
/* Every lane named in `mask` calls warp_collective with the same mask and its
 * own `lane_data`. When the last of them arrives, `fn` runs once, on that
 * lane, with every lane's pointer (nullptr for lanes outside the mask) while
 * all of them are suspended, so it may read and write every lane's data; then
 * they all continue. Shuffles, votes, __syncwarp, wmma, mma.sync and ldmatrix
 * are built on this. The engine diagnoses (and fails the launch on) a mask
 * that does not include the caller, a lane of the mask that has exited or
 * waits at a different operation, and calls with mismatched masks. */
using warp_fn = void (*)(void *const lane_data[32], unsigned mask, void *ctx);
inline void warp_collective(unsigned mask, void *lane_data, warp_fn fn, void *ctx, const char *op,
                            here where); /* defined below */

/* ---- how a waiting thread switches (engine internals, inline for speed) --
 * sync_block and warp_collective are inline so that the fiber switch
 * (jump_fcontext) happens in the kernel's own frame. jump_fcontext is
 * entered by a call but resumes the other fiber with a jump, which leaves
 * the CPU's return-address predictor one entry off: every function return
 * between the switch and the kernel code then mispredicts. Switching from
 * the kernel's frame leaves no such return (measured on the 2-core dev VM:
 * 39 -> 27 ns per barrier wait on one core). Not for use by kernels. */
namespace detail {
struct wait_switch {
    void *target;    /* the fiber to run now; nullptr: the caller goes on */
    void *save_slot; /* where the caller's own context is to be saved */
    unsigned tid;    /* the caller, ~0u outside a kernel */
};
wait_switch barrier_arrive(int mode, int predicate, here where);
wait_switch warp_arrive(unsigned mask, void *lane_data, warp_fn fn, void *ctx, const char *op, here where);
/* Called once the caller runs again: finishes the switch (from_ctx and
 * from_slot are what jump_fcontext returned) and returns sync_block's
 * result. */
int wait_resumed(unsigned tid, void *from_ctx, void *from_slot);

inline int switch_and_wait(const wait_switch &s)
{
    if (!s.target)
        return wait_resumed(s.tid, nullptr, nullptr);
    const boost::context::detail::transfer_t t = boost::context::detail::jump_fcontext(s.target, s.save_slot);
    return wait_resumed(s.tid, t.fctx, t.data);
}
} /* namespace detail */

inline int sync_block(int mode, int predicate, here where)
{
    return detail::switch_and_wait(detail::barrier_arrive(mode, predicate, where));
}

inline void warp_collective(unsigned mask, void *lane_data, warp_fn fn, void *ctx, const char *op, here where)
{
    (void)detail::switch_and_wait(detail::warp_arrive(mask, lane_data, fn, ctx, op, where));
}

/* Lane of the calling thread in its warp (linear thread index % 32). */
unsigned lane_id();
/* Mask of the lanes of the caller's warp that have not exited. */
unsigned active_mask();

/* ---- failing a launch from device code ---------------------------------- */
/* Ends the launch: records `error` as the sticky error with `message` as the
 * diagnostic (the engine prefixes kernel, block and thread), and switches
 * away from the calling thread for good. Never returns. */
[[noreturn]] void fail_launch(cudaError_t error, const char *message);
[[noreturn]] void device_assert_fail(const char *expr, const char *file, int line, const char *func);

/* Per-CUDA-thread pointer slots for device-side libraries (slot 0: cp.async
 * pending copies). nullptr when a thread starts; the engine only looks at
 * them when the thread returns (release_thread_slots below). */
void *&cuda_thread_slot(unsigned index); /* index < 4 */

/* Provided by the device-side libraries (emu/src/tensor.cpp), called by the
 * engine: when a CUDA thread returns from its kernel while any of its slots
 * is non-null, the engine calls this on that thread, before the thread counts
 * as exited. It frees what the slots hold and sets them to nullptr; it may
 * fail_launch (cp.async copies that no wait_group/wait_all completed). */
void release_thread_slots();

/* True while the calling OS thread runs a kernel thread. */
bool in_kernel();

} /* namespace simtlab_emu */

#endif
