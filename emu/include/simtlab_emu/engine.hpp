/* simtlab CPU emulator — the contract between device-side headers, the
 * source rewriter and the execution engine.
 *
 * The rewriter (emu/src/tools/rewriter/slrewrite.c) turns CUDA syntax that a C++ compiler
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
#include <simtlab_emu/fcontext.hpp>
#include <cstddef>
#include <cstdint>

/* The CUDA built-ins, as nvcc declares them: variables of the global
 * namespace, not macros, so a host variable, parameter or member named
 * gridDim or blockDim is just another declaration that hides them. Const,
 * so that `threadIdx.x = 0` fails to compile as with nvcc. Defined by the
 * engine (engine/block.cpp) under the names of simtlab_emu below. */
extern "C++" {
extern __thread const uint3 threadIdx;
extern __thread const uint3 blockIdx;
extern __thread const uint3 blockDim;
extern __thread const uint3 gridDim;
}

#ifdef SIMTLAB_EMU_PROFILE_BUILD
extern "C" void simtlab_emu_profile_atomic_end(void); /* profile_build.hpp */
#endif

/* Kernels compiled with -fsanitize-coverage=trace-pc (the SIMT counters'
 * SIMTLAB_EMU_PROFILE_BUILD: emu/src/profile/hooks.cpp) call the engine out
 * of line: GCC instruments after inlining, and the hook, which may switch
 * threads (a spin on a volatile load, issue 16), must never run inside the
 * engine's own code. The spin watch's builds (SIMTLAB_EMU_SPIN_BUILD) call
 * the hook only at the spin points slrewrite puts in the program's own
 * loops (simtlab_emu/spin_point.h), never in the engine's code: they keep
 * it inline. */
#if defined(SIMTLAB_EMU_PROFILE_BUILD)
#define SIMTLAB_EMU_ENGINE_OUT_OF_LINE 1
#endif

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
 * between OS threads, so these stay right across a suspension. Each is one
 * object with two names: the engine writes it as simtlab_emu::thread_idx,
 * kernels read it as the global, const ::threadIdx (declared below, outside
 * the namespace). The asm label makes both names one linker symbol,
 * `threadIdx`, which is also what gdb finds for `p threadIdx.x`. A kernel
 * never sees its own value change (the engine restores it on every resume),
 * so reading it through a const name is exact. */
extern __thread uint3 thread_idx __asm__("threadIdx");
/* The same object with 4 bytes of padding (engine/block.cpp defines it so):
 * a resume restores threadIdx from its thread record in one 16-byte copy. */
struct alignas(16) thread_idx_slot {
    uint3 v;
    unsigned pad;
};
extern __thread thread_idx_slot thread_idx_padded __asm__("threadIdx");
extern __thread uint3 block_idx __asm__("blockIdx");
extern __thread uint3 block_dim __asm__("blockDim");
extern __thread uint3 grid_dim __asm__("gridDim");

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
 * Validates the configuration exactly as CUDA does (cudaErrorInvalidValue, as
 * CUDA 13, for > 1024 threads per block, a zero dimension, grid limits, shared
 * memory above the limit), records the result as the last error (sticky errors poison
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
inline T &shared_var(Tag, here where = call_site()); /* defined below */

/* ---- the block barrier ------------------------------------------------ */
/* __syncthreads and its variants, one mode each: what the barrier returns
 * to every thread it releases. (The fast path of sync_block matches an
 * arrival by line * 4 + mode, so there are at most four.) */
enum sync_mode : int {
    sync_plain = 0, /* __syncthreads: 0 */
    sync_count = 1, /* __syncthreads_count: how many waiters passed a nonzero predicate */
    sync_and = 2,   /* __syncthreads_and: 1 if every waiter's predicate was nonzero, else 0 */
    sync_or = 3,    /* __syncthreads_or: 1 if any waiter's predicate was nonzero, else 0 */
};
/* PTX bar.sync semantics: the barrier waits for every thread of the block
 * that has not exited, counted per round whatever call site each thread
 * waits at (__syncthreads is `bar.sync 0` wherever it is written). Threads
 * waiting at different variants in one round (__syncthreads with
 * __syncthreads_count, say) fail the launch with a diagnostic naming both
 * sites. */
inline int sync_block(sync_mode mode, int predicate, here where); /* defined below */

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
 * The whole of a __syncthreads that does not end its round (every arrival
 * but the last, and the resume after it) runs inline in the kernel's own
 * frame: the arrival's bookkeeping, the pick of the next thread and the
 * fiber switch (jump_fcontext). Two reasons, both measured on the 2-core dev
 * VM. jump_fcontext is entered by a call but resumes the other fiber with a
 * jump, which leaves the CPU's return-address predictor one entry off, so
 * every function return between the switch and the kernel code
 * mispredicts: switching from the kernel's frame leaves no such return
 * (39 -> 27 ns per barrier wait on one core). And a call out of line costs
 * its own saves, restores and returned struct at each of the 8 waits of
 * every thread of a reduction block.
 *
 * The structures below are the first, hot part of the engine's per-worker
 * and per-block records (emu/src/engine/internal.hpp derives from them);
 * everything rare (the first arrival's other call site, an empty ready
 * queue, a failed block) is out of line in emu/src/engine/block.cpp. Not for
 * use by kernels. */
#define SIMTLAB_EMU_ALWAYS_INLINE __attribute__((always_inline))
namespace detail {

namespace fctx = simtlab_emu::fctx;

constexpr unsigned max_block_threads = 1024;

/* What a resume reads: 32 bytes, so that the records of neighbouring
 * threads (which resume one after another) share cache lines. `stack` and
 * `idx` are written once, when the thread starts: a thread stays on the
 * stack it started on and its threadIdx never changes, so a wait writes
 * only `ctx`. */
struct alignas(32) thread_rec {
    fctx::fcontext_t ctx; /* where to resume it */
    void *stack;          /* its engine::fiber_stack */
    thread_idx_slot idx;  /* threadIdx (.v), restored on resume */
};
static_assert(sizeof(thread_rec) == 32, "two records per cache line");

constexpr unsigned no_odd_waiter = ~0u;

/* One CUDA thread's spin on an atomic (spin_note below): the address and
 * the value its atomics last found there, how many in a row found the same
 * one, and (engine/block.cpp) since when and how many blocks the grid had
 * taken then. */
struct spin_rec {
    const void *addr;
    std::uint64_t value;
    std::uint64_t since_ns;
    std::uint64_t blocks_seen;
    unsigned count;
};

/* The hot part of one block's bookkeeping. The barrier round in progress is
 * summarised as threads arrive, so that its release reads no per-thread
 * record. */
struct alignas(64) block_hot {
    /* First line: what every barrier wait reads or writes. */
    thread_rec *recs;          /* by linear thread id */
    /* Two queues of tids that trade places when a barrier is released: its
     * waiters become the ready queue (which is empty then), no copy. */
    unsigned *ready;           /* FIFO of runnable threads, capacity 1024 */
    unsigned *barrier_waiters; /* in arrival order */
    unsigned ready_head, ready_count;
    unsigned nwaiting_barrier;
    /* What every later arrival is compared with: the first arriver's file
     * pointer and line * 4 + mode (a different variant on the same line is
     * another call). match_file is nullptr from the first arrival at
     * another site on, so that every later arrival takes the slow path and
     * records its own site. */
    int match_line_mode;
    const char *match_file;
    int barrier_count;          /* arrivers with a nonzero predicate */
    int barrier_result;         /* sync_block's value for the round last released */
    /* Second line: once per round or per thread. */
    unsigned barrier_first_odd; /* first waiter position at another call
                                 * site (no_odd_waiter: none) */
    sync_mode barrier_mode;     /* the first arriver's sync_block mode */
    here barrier_site;          /* the first arriver's call site */
    /* The __shared__ declaration looked up last in this block (shared_var):
     * every thread of the block reaches the same few declarations. */
    void *const *shared_key;
    void *shared_ptr;
    spin_rec *spins;            /* by linear thread id, zero at a block's start */
    /* A record of `spins` was written in this block (spin_note_record):
     * begin_block zeroes them only then, not 40 bytes per thread of every
     * block (which cost a kernel without atomics about 6% of its time). */
    bool spins_written;
};
static_assert(offsetof(block_hot, barrier_first_odd) <= 64, "the per-wait fields share the first cache line");


/* The hot part of one worker (an OS thread running blocks). */
struct worker_hot {
    block_hot *hot;   /* its block */
    unsigned cur_tid; /* linear id of the CUDA thread running now */
    bool in_block;    /* fibers of a block are running */
    bool failed;      /* the current block failed */
    bool no_yield;    /* the spin watch must not switch threads now (a warp
                       * operation's function runs for every lane) */
};

/* The calling OS thread's worker; &host_worker (never in a block) in host
 * threads that never ran a kernel, so that the inline paths test one flag.
 * __thread, not thread_local: no TLS wrapper call on each read. */
extern worker_hot host_worker;
/* host_worker's block: never written, so its match_file stays nullptr
 * (sync_block). */
extern block_hot host_block;
extern __thread worker_hot *current_worker;
/* current_worker->in_block, kept beside it (engine/internal.hpp,
 * set_in_block) for the check at every kernel's entry
 * (host_call_of_kernel): one thread-local load instead of two dependent
 * ones. */
extern __thread bool in_kernel_thread;

/* What runs once the current fiber stops when the ready queue is empty or
 * the block failed (engine/block.cpp): a fresh runner for the next
 * unstarted thread, a released barrier's first thread, or the scheduler.
 * nullptr when that is the calling thread itself (it was the last to arrive
 * and its barrier or warp operation is complete). */
void *next_context_slow(worker_hot *w);
/* A round's first barrier arrival, or one whose call site may differ from
 * the round's first. */
void note_barrier_site(block_hot &b, unsigned pos, here where, sync_mode mode);

/* Takes the thread at the head of the ready queue (there is one).
 * Threads resume one after another, each on its own stack: fetch the next
 * one's saved registers early (an entry beyond the queue is a stale but
 * valid id: prefetching it is harmless). Not the record after it too: the
 * records are read in order, which the hardware prefetches by itself, and
 * the extra load cost more than it saved (measured on the 2-core dev VM:
 * reduce_256 217.5 -> 214 ms without it). */
SIMTLAB_EMU_ALWAYS_INLINE inline unsigned take_ready(block_hot &b)
{
    constexpr unsigned wrap = max_block_threads - 1;
    const unsigned head = b.ready_head;
    const unsigned tid = b.ready[head];
    /* The queue is most often in thread order (a released barrier's
     * arrivals): guess the next one is tid + 1 rather than load the
     * queue's next entry. recs has one record more than a block can have
     * threads, so the guess always reads a record. */
    __builtin_prefetch(b.recs[tid + 1].ctx);
    b.ready_head = (head + 1) & wrap;
    b.ready_count--;
    return tid;
}

/* Where to resume the ready queue's head; nullptr when that is `self` (a
 * seeded warp operation queues its last lane among the others). */
SIMTLAB_EMU_ALWAYS_INLINE inline void *pop_ready(block_hot &b, unsigned self)
{
    const unsigned tid = take_ready(b);
    return tid == self ? nullptr : b.recs[tid].ctx;
}

/* What runs when the calling thread waits: the ready queue's head when
 * there is one, else whatever next_context_slow picks. No need to ask
 * whether the block failed: a failure always switches to the scheduler at
 * once (the failing thread jumps there, and so does whatever detected a
 * deadlock or a divergence), so no kernel code runs, and no thread waits,
 * after it. */
SIMTLAB_EMU_ALWAYS_INLINE inline void *next_context(worker_hot *w, block_hot &b, unsigned self)
{
    if (__builtin_expect(b.ready_count != 0, 1))
        return pop_ready(b, self);
    return next_context_slow(w);
}

/* The same for a barrier arrival, which is never in the ready queue itself
 * (it runs; the queue holds parked threads): no test for `self`. */
SIMTLAB_EMU_ALWAYS_INLINE inline void *next_context_at_barrier(worker_hot *w, block_hot &b)
{
    if (__builtin_expect(b.ready_count != 0, 1))
        return b.recs[take_ready(b)].ctx;
    return next_context_slow(w);
}

/* Every switch passes, as its data, the slot where the fiber being left
 * wants its context saved; with Boost's switch whoever resumes stores it
 * there (this is how fcontext hands over the context of the side that
 * jumped). The engine's own switch on x86-64 has stored it already
 * (SIMTLAB_EMU_FIBER_SAVES_ORIGIN): the hot resumes skip this, the others
 * store the same value again. */
SIMTLAB_EMU_ALWAYS_INLINE inline void save_origin(const fctx::transfer_t &t)
{
    if (t.data)
        *static_cast<fctx::fcontext_t *>(t.data) = t.fctx;
}

/* Switches to `target`, saving the caller's context at `slot`, and returns
 * when something switches back. */
SIMTLAB_EMU_ALWAYS_INLINE inline void jump_saving(void *target, fctx::fcontext_t *slot)
{
#if SIMTLAB_EMU_FIBER_SAVES_ORIGIN
    (void)fctx::jump_fcontext(target, slot);
#else
    save_origin(fctx::jump_fcontext(target, slot));
#endif
}

/* Switches from thread `tid` to `target` (nullptr: tid goes on) and, once
 * tid runs again, makes it the running thread. */
SIMTLAB_EMU_ALWAYS_INLINE inline void switch_from(worker_hot *w, block_hot &b, unsigned tid, void *target)
{
    if (target)
        jump_saving(target, &b.recs[tid].ctx);
    w->cur_tid = tid;
    thread_idx_padded = b.recs[tid].idx;
}

/* The out-of-line part of a warp operation: nullptr target with tid ~0u
 * outside a kernel. */
struct wait_switch {
    void *target; /* the fiber to run now; nullptr: the caller goes on */
    unsigned tid; /* the caller, ~0u outside a kernel */
};
wait_switch warp_arrive(unsigned mask, void *lane_data, warp_fn fn, void *ctx, const char *op, here where);

/* Spin loops (issue 16). Threads of a block are fibers that switch only
 * when they wait, so `while (atomicAdd(&flag, 0) == 0) {}` in thread 0
 * would never let thread 1 run to set the flag (a valid wait since Volta's
 * independent thread scheduling). Every atomic therefore notes the value
 * it found: 64 atomics in a row at the same address that find the same
 * value hand the worker to the block's next runnable thread (spin_slow),
 * and a spin that finds the same value for SIMTLAB_EMU_SPIN_LIMIT_S
 * seconds (default 5) while nothing else of the grid progresses fails the
 * launch, naming the line, instead of hanging. */
void spin_slow(spin_rec &r, here where);
/* A shared-memory access of warp-synchronous code (engine/block.cpp). */
void lockstep_access(std::uintptr_t addr);
/* Kernels built with the spin watch (spin points, or trace-pc in the
 * counters' builds) also let the others run every this many hook calls
 * without a wait: a spin on a plain or volatile load (engine/block.cpp). */
constexpr int spin_watch_period = 1 << 16;
void spin_note_uninstrumented(const void *addr, std::uint64_t value, here where);
/* The bookkeeping itself, shared by the inline path and the out-of-line one. */
SIMTLAB_EMU_ALWAYS_INLINE inline void spin_note_record(const void *addr, std::uint64_t value, here where)
{
    worker_hot *const w = current_worker;
    if (!w->in_block)
        return;
    spin_rec &r = w->hot->spins[w->cur_tid];
    if (r.addr == addr && r.value == value) {
        if (__builtin_expect((++r.count & 63) == 0, 0))
            spin_slow(r, where);
    } else {
        r.addr = addr;
        r.value = value;
        r.count = 0;
        r.since_ns = 0;
        w->hot->spins_written = true;
    }
}
SIMTLAB_EMU_ALWAYS_INLINE inline void spin_note(const void *addr, std::uint64_t value, here where)
{
#ifdef SIMTLAB_EMU_PROFILE_BUILD
    /* The atomic is over for the counters (profile_build.hpp) before a
     * switch can happen: the next thread must not run with them quiet.
     * Out of line: the counters must not see the engine's branches. */
    simtlab_emu_profile_atomic_end();
    spin_note_uninstrumented(addr, value, where);
#else
    spin_note_record(addr, value, where);
#endif
}

/* Kernels compiled for the SIMT counters (SIMTLAB_EMU_PROFILE_BUILD, see
 * <simtlab_emu/profile.h>) call these out-of-line copies of sync_block and
 * shared_var, so that the engine's own branches are not counted as the
 * kernel's. */
int sync_block_uninstrumented(sync_mode mode, int predicate, here where);
void warp_collective_uninstrumented(unsigned mask, void *lane_data, warp_fn fn, void *ctx, const char *op,
                                    here where);
void *shared_lookup_uninstrumented(void *const *key, std::size_t bytes, std::size_t align, here where);
/* A kernel's body begins (the counters forget what the wrapper that calls
 * it did), and a CUDA thread's kernel returned (they ignore what follows). */
void profile_kernel_entry();
void profile_thread_exit();

} /* namespace detail */

template <class T, class Tag>
inline T &shared_var(Tag, here where)
{
    static void *const key = nullptr; /* its address identifies the site */
#ifdef SIMTLAB_EMU_ENGINE_OUT_OF_LINE
    return *static_cast<T *>(detail::shared_lookup_uninstrumented(&key, sizeof(T), alignof(T), where));
#endif
    detail::worker_hot *const w = detail::current_worker;
    if (w->in_block && w->hot->shared_key == &key)
        return *static_cast<T *>(w->hot->shared_ptr);
    return *static_cast<T *>(shared_alloc(&key, sizeof(T), alignof(T), where));
}

SIMTLAB_EMU_ALWAYS_INLINE inline int sync_block(sync_mode mode, int predicate, here where)
{
#ifdef SIMTLAB_EMU_ENGINE_OUT_OF_LINE
    return detail::sync_block_uninstrumented(mode, predicate, where);
#endif
    detail::worker_hot *const w = detail::current_worker;
    detail::block_hot &b = *w->hot;
    /* A round starts with match_file nullptr: its first arrival, like any
     * arrival at another site, takes the out-of-line path. So does every
     * call outside a block, where match_file is always nullptr (host
     * threads read host_block, which nothing writes; a worker's is cleared
     * as it leaves a block): the test for host code costs the arrivals of
     * a round nothing. */
    if (__builtin_expect(where.file != b.match_file || where.line * 4 + mode != b.match_line_mode, 0)) {
        if (!w->in_block)
            return 0; /* host code: there is no block to wait for */
        detail::note_barrier_site(b, b.nwaiting_barrier, where, mode);
    }
    const unsigned tid = w->cur_tid;
    const unsigned pos = b.nwaiting_barrier++;
    if (mode != sync_plain) /* a constant: plain __syncthreads counts nothing */
        b.barrier_count += predicate != 0;
    b.barrier_waiters[pos] = tid;
    if (__builtin_expect(b.ready_count != 0, 1)) {
        /* switch_from without its null test: a parked thread's context is
         * never null. The thread keeps its own record, not the block,
         * across the switch: one register fewer taken from the kernel's
         * values. (Reading the worker again after the switch instead of
         * keeping it saves instructions too, but ran the tree reduction
         * 38% slower.) */
        detail::thread_rec *const me = &b.recs[tid];
        detail::jump_saving(b.recs[detail::take_ready(b)].ctx, &me->ctx);
        w->cur_tid = tid;
        thread_idx_padded = me->idx;
    } else {
        detail::switch_from(w, b, tid, detail::next_context_slow(w));
    }
    return b.barrier_result;
}

SIMTLAB_EMU_ALWAYS_INLINE inline void warp_collective(unsigned mask, void *lane_data, warp_fn fn, void *ctx,
                                                      const char *op, here where)
{
#ifdef SIMTLAB_EMU_ENGINE_OUT_OF_LINE
    detail::warp_collective_uninstrumented(mask, lane_data, fn, ctx, op, where);
    return;
#endif
    const detail::wait_switch s = detail::warp_arrive(mask, lane_data, fn, ctx, op, where);
    if (s.tid != ~0u)
        detail::switch_from(detail::current_worker, *detail::current_worker->hot, s.tid, s.target);
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

/* Provided by the device-side libraries (emu/src/engine/tensor_copy.cpp), called
 * by the engine: when a CUDA thread returns from its kernel while any of its slots
 * is non-null, the engine calls this on that thread, before the thread counts
 * as exited. It frees what the slots hold and sets them to nullptr; it may
 * fail_launch (cp.async copies that no wait_group/wait_all completed). */
void release_thread_slots();

/* True while the calling OS thread runs a kernel thread. */
bool in_kernel();

/* ---- a kernel called like a host function ------------------------------- */
/* slrewrite puts `if (::simtlab_emu::host_call_of_kernel("k", __FILE__,
 * __LINE__)) return;` at the top of every kernel's body. In a launch it is
 * one test of a flag, and none where the launch names the kernel at
 * compile time and GCC inlines it (launch.hpp, launch_known); called from
 * host code without <<<>>> (which nvcc
 * refuses to compile) the kernel does not run: the call leaves
 * cudaErrorInvalidConfiguration as the last error, with a diagnostic (also
 * on stderr) that says how to launch it. */
__attribute__((cold)) void report_host_call_of_kernel(const char *kernel, const char *file, int line);
SIMTLAB_EMU_ALWAYS_INLINE inline bool host_call_of_kernel(const char *kernel, const char *file, int line)
{
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0
    detail::profile_kernel_entry(); /* the SIMT counters start here, not in the launch's wrapper */
#endif
    if (__builtin_expect(detail::in_kernel_thread, 1))
        return false;
    report_host_call_of_kernel(kernel, file, line);
    return true;
}

} /* namespace simtlab_emu */

#ifdef SIMTLAB_EMU_PROFILE_BUILD
#include <simtlab_emu/profile_build.hpp>
#else
#define SIMTLAB_EMU_PROFILE_ATOMIC(address) ((void)0)
#endif

#endif
