/* simtlab CPU emulator — running one block: fiber stacks, the runner loop
 * (lazy forking, see engine/internal.hpp), the scheduler that picks what runs
 * when a thread waits, and releasing a __syncthreads barrier. This is the
 * engine's hot path; what happens when a block goes wrong (deadlock, barrier
 * divergence, failing a launch from device code) is engine_failure.cpp. */
#include "common/settings.hpp"
#include "engine/internal.hpp"
#include "engine/spin_where.hpp"
#include "profile/internal.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cstring>

namespace simtlab_emu {

__thread thread_idx_slot thread_idx_padded; /* also thread_idx (engine.hpp) */
__thread uint3 block_idx;
__thread uint3 block_dim;
__thread uint3 grid_dim;

detail::block_hot detail::host_block{};
detail::worker_hot detail::host_worker{&detail::host_block, 0, false, false, false};
__thread detail::worker_hot *detail::current_worker = &detail::host_worker;
__thread bool detail::in_kernel_thread = false;

namespace engine {

/* ---- stacks -------------------------------------------------------------- */

static std::size_t page_bytes()
{
    static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return bytes;
}

fiber_stack *stack_get(stack_pool &pool)
{
    if (pool.free_list) {
        fiber_stack *s = pool.free_list;
        pool.free_list = s->next;
        return s;
    }
    /* MAP_NORESERVE: only the pages a thread touches cost memory, so 1024
     * stacks of 64 KiB are cheap unless the kernel really uses them. */
    const std::size_t page = page_bytes();
    const std::size_t total = pool.stack_bytes + page;
    void *map = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return nullptr;
    char *guard = static_cast<char *>(map);
    if (mprotect(guard, page, PROT_NONE) != 0) {
        munmap(map, total);
        return nullptr;
    }
    /* The descriptor lives in the stack's own top bytes: no allocation. */
    char *top = guard + total;
    auto *s = reinterpret_cast<fiber_stack *>(top - sizeof(fiber_stack));
    s->guard = guard;
    s->base = guard + page;
    /* Stagger where each stack's top sits within its page: with every top at
     * the same page offset, the hot frames of hundreds of parked threads all
     * map to the same few L1 cache sets and evict one another. */
    const std::size_t colour = (pool.made % 16) * 256 + (pool.made / 16 % 4) * 64;
    s->bytes = pool.stack_bytes - 64 - colour; /* keeps the descriptor out of reach */
    s->next = nullptr;
    pool.made++;
    return s;
}

void stack_put(stack_pool &pool, fiber_stack *stack)
{
    stack->next = pool.free_list;
    pool.free_list = stack;
}

/* ---- switching (the inline part: engine.hpp, detail) ------------------ */

static void runner_entry(fctx::transfer_t t);

static fctx::fcontext_t new_runner(worker *w);

/* A spare runner when there is one (the common case, inline in
 * next_context_slow), else a new one. */
__attribute__((always_inline)) static inline fctx::fcontext_t fresh_runner(worker *w)
{
    stack_pool &pool = w->stacks;
    if (__builtin_expect(pool.nspares != 0, 1)) {
        const unsigned k = --pool.nspares;
        if (k) /* spares resume one after another as a block's threads first wait */
            __builtin_prefetch(pool.spare_ctx[k - 1]);
        fiber_stack *const spare = pool.spare_stack[k];
        w->blk->loop_owner = spare;
        w->starting_stack = spare;
        return pool.spare_ctx[k];
    }
    return new_runner(w);
}

__attribute__((noinline)) static fctx::fcontext_t new_runner(worker *w)
{
    stack_pool &pool = w->stacks;
    fiber_stack *s = stack_get(pool);
    if (!s) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "could not map a %zu-byte fiber stack for thread %u of the block "
                      "(%u stacks in use): the host is out of memory or mappings",
                      w->stacks.stack_bytes, w->blk->next_start, w->stacks.made);
        fail_block(w, cudaErrorLaunchOutOfResources, text);
        return w->sched_ctx;
    }
    w->blk->loop_owner = s;
    w->starting_stack = s;
    const std::size_t usable = s->bytes - w->frame_shift;
    return fctx::make_fcontext(s->base + usable, usable, runner_entry);
}

/* Releases the barrier every live thread waits at, or diagnoses threads
 * that wait at different barriers. Returns false when the block failed. */
static bool release_barrier(worker *w);

/* What runs once the current fiber stops: a ready thread, else the next
 * unstarted thread on a fresh fiber, else (everything waits) a released
 * barrier, else the worker's scheduler (block done, or failed). */
__attribute__((noinline)) static void *next_context_general(worker *w);
} /* namespace engine */

/* The common case first, with no frame of its own: a thread waits while
 * the block still has threads to start (every thread's first barrier), so
 * a spare runner starts the next one (91.4 instructions per thread and
 * barrier of the tree reduction, from 92.7 with the general loop alone). */
void *detail::next_context_slow(worker_hot *hot)
{
    using namespace engine;
    worker *const w = static_cast<worker *>(hot);
    block_state &b = *w->blk;
    if (__builtin_expect(!w->failed && b.ready_count == 0 && b.next_start < b.n, 1))
        return fresh_runner(w);
    return next_context_general(w);
}

void *engine::next_context_general(worker *w)
{
    block_state &b = *w->blk;
    for (;;) {
        if (w->failed)
            return w->sched_ctx;
        if (b.ready_count)
            return pop_ready(w);
        if (b.next_start < b.n)
            return fresh_runner(w);
        if (b.live == 0)
            return w->sched_ctx;
        if (b.ncoalescing) { /* cooperative groups: coalesced_threads() */
            resolve_coalescing(w);
            continue;
        }
        if (b.nwaiting_warp || b.nwaiting_barrier != b.live) {
            fail_deadlock(w);
            return w->sched_ctx;
        }
        if (b.grid_sync_waiters) { /* cooperative groups: grid.sync() */
            park_at_grid_barrier(w);
            return w->sched_ctx;
        }
        if (!release_barrier(w))
            return w->sched_ctx;
    }
}

namespace engine {

/* What happens as a thread returns from the kernel: it has exited. */
__attribute__((always_inline)) static inline void thread_returned(worker *w, block_state &b, unsigned tid)
{
    /* Device-side libraries (cp.async queues) may hold per-thread state:
     * they check it, and may fail the launch, as the thread exits. */
    if (b.slots_used) {
        const thread_slots &ts = b.slots[tid];
        if (ts.epoch == b.epoch && (ts.slots[0] || ts.slots[1] || ts.slots[2] || ts.slots[3]))
            release_thread_slots();
    }
    b.exited[tid] = 1;
    b.live--;
    if (b.nwaiting_warp)
        check_exit_against_warps(w, tid);
}

/* The runner loops start threads until the loop has been handed to another
 * fiber (their thread waited) or every thread has started. Before each
 * thread they record what a resume needs besides its context: the thread
 * stays on this stack until it exits (a thread that waits breaks the loop
 * when it returns, or comes back on this same stack when it was the last
 * to start).
 *
 * The common shape first: a 1D block in index order, where threadIdx is
 * (pos, 0, 0). A barrier-free kernel spends most of its time here, so it
 * does as little per thread as it can (measured on the 2-core dev VM, with
 * the general loop below: 6.3 ns per thread of vector add on one core). */
__attribute__((always_inline)) static inline void run_threads_1d(worker *w, block_state &b, fiber_stack *me, unsigned first)
{
    void (*const body)(void *) = w->grid->body;
    void *const closure = w->grid->closure;
    const unsigned n = b.n;
    thread_idx = uint3{first, 0, 0};
    for (unsigned pos = first; pos < n; pos++) {
        b.next_start = pos + 1;
        thread_rec &r = b.recs[pos];
        r.stack = me;
        r.idx.v = uint3{pos, 0, 0};
        thread_idx.x = pos; /* .y and .z stay 0: every thread of the block has them so */
        w->cur_tid = pos;
        body(closure);
        thread_returned(w, b, pos);
        if (b.loop_owner != me)
            break; /* this thread waited, and a newer fiber took the loop over */
    }
}

/* Any shape, in index order or (seeded runs) in the block's shuffled order.
 * threadIdx advances in locals: a store-then-reload through block_state
 * would cost a store-forwarding stall per thread. */
__attribute__((always_inline)) static inline void run_threads(worker *w, block_state &b, fiber_stack *me, unsigned first)
{
    void (*const body)(void *) = w->grid->body;
    void *const closure = w->grid->closure;
    const bool seeded = w->grid->seeded;
    const unsigned bx = block_dim.x, by = block_dim.y, n = b.n;
    /* threadIdx of position `first` (unseeded: tid == position): one step
     * on from the thread started before it, without dividing. */
    unsigned x = 0, y = 0, z = 0;
    if (first && !seeded) {
        const uint3 prev = b.recs[first - 1].idx.v;
        x = prev.x + 1;
        y = prev.y;
        z = prev.z;
        if (x == bx) {
            x = 0;
            if (++y == by) {
                y = 0;
                ++z;
            }
        }
    }
    for (unsigned pos = first; pos < n; pos++) {
        b.next_start = pos + 1;
        unsigned tid = pos;
        uint3 idx;
        if (seeded) {
            tid = b.order[pos];
            idx = uint3{tid % bx, (tid / bx) % by, tid / (bx * by)};
        } else {
            idx = uint3{x, y, z};
            if (++x == bx) {
                x = 0;
                if (++y == by) {
                    y = 0;
                    ++z;
                }
            }
        }
        thread_rec &r = b.recs[tid];
        r.stack = me;
        r.idx.v = idx;
        thread_idx = idx;
        w->cur_tid = tid;
        body(closure);
        thread_returned(w, b, tid);
        if (b.loop_owner != me)
            break;
    }
}

static void runner_entry(fctx::transfer_t t)
{
    worker *const w = this_worker();
    fiber_stack *const me = w->starting_stack;
    for (;;) {
#if !SIMTLAB_EMU_FIBER_SAVES_ORIGIN
        save_origin(t);
#endif
        if (t.data && t.data != &w->sched_ctx) {
            /* A thread's wait handed us the loop: t.fctx is where its
             * registers are saved, 64 bytes that a resume reads first. Move
             * later stacks' tops so that, at the same depth, those 64 bytes
             * fill one cache line instead of straddling two. */
            const auto misaligned = reinterpret_cast<std::uintptr_t>(t.fctx) & 63;
            w->frame_shift = (w->frame_shift + misaligned) & 63;
        }
        block_state &b = *w->blk;
        if (w->grid->one_d_in_order)
            run_threads_1d(w, b, me, b.next_start);
        else
            run_threads(w, b, me, b.next_start);
        /* The loop has moved on (or every thread has started): park as a
         * spare runner. Only once what runs next has been picked, though:
         * that pick may take a spare, and must not take this one while we
         * still run on it. Between the push and the jump nothing else
         * touches the spares. The pick skips the test for the caller: the
         * thread that ran last has exited, so it is never the queue's head. */
        const fctx::fcontext_t next = detail::next_context_at_barrier(w, b);
        stack_pool &pool = w->stacks;
        if (pool.nspares == spare_capacity) {
            stack_put(pool, me);
            fctx::jump_fcontext(next, &w->discarded_ctx);
            /* never resumed */
        }
        const unsigned k = pool.nspares++;
        pool.spare_stack[k] = me;
        t = fctx::jump_fcontext(next, &pool.spare_ctx[k]);
        /* resumed by fresh_runner: w->starting_stack == me */
    }
}

void make_ready(block_state &b, unsigned tid)
{
    b.ready[(b.ready_head + b.ready_count) & (max_block_threads - 1)] = tid;
    b.ready_count++;
}

/* ---- spin loops (engine.hpp, spin_note) ------------------------------------ */
static std::uint64_t monotonic_ns()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

/* SIMTLAB_EMU_SPIN_LIMIT_S: seconds a spin may find the same value while
 * nothing else of the grid progresses (default 5; read once, at the first
 * check: common/settings.hpp). */
static double spin_limit_s()
{
    return settings::spin_limit_s();
}

/* A spin that found the same value 2^20 times in a row asks the clock: it
 * fails the launch once it has found it for the limit's seconds with no
 * block of the grid taken in between (a flag another block sets may wait
 * for that block to start; nothing else is known to progress). */
static void check_spin(worker *w, detail::spin_rec &r, here where)
{
    const std::uint64_t now = monotonic_ns();
    const std::uint64_t blocks = w->grid->next_block.load(std::memory_order_relaxed);
    if (r.since_ns == 0 || r.blocks_seen != blocks) {
        r.since_ns = now;
        r.blocks_seen = blocks;
        return;
    }
    const double limit = spin_limit_s();
    const double waited = static_cast<double>(now - r.since_ns) * 1e-9;
    if (waited < limit)
        return;
    block_state &b = *w->blk;
    const unsigned others = b.live - 1;
    fail_thread(w, cudaErrorLaunchFailure,
                "spins without end at %s:%d: its atomics at %p found the same value (0x%llx) "
                "%u times in a row over %.1f s, and %s. A wait for a store that never comes "
                "(a flag no thread sets?) hangs a GPU too. The emulator lets the other threads "
                "of the block run while one spins; SIMTLAB_EMU_SPIN_LIMIT_S (now %g) is how "
                "long it waits for the value to change",
                where.file, where.line, r.addr, static_cast<unsigned long long>(r.value), r.count, waited,
                others == 0 ? "no other thread of the block is left to change it"
                : b.ready_count == 0 && b.next_start == b.n
                    ? "every other thread of the block waits (a barrier or a warp operation) or has exited"
                    : "the other threads of the block ran in between without changing it",
                limit);
}

/* A spinning thread hands the worker to the next unstarted thread, else the
 * ready queue's head, and goes to the queue's tail. Unstarted threads
 * first: with spinners in the ready queue, it would never be empty, and a
 * thread that has not started (the setter) would never run. Nothing else
 * can run: it goes on spinning. */
static void hand_over_spinner(worker *w)
{
    block_state &b = *w->blk;
    const unsigned tid = w->cur_tid;
    void *target;
    if (b.next_start < b.n) {
        make_ready(b, tid);
        target = fresh_runner(w);
    } else if (b.ready_count) {
        target = pop_ready(w); /* never `tid`: a running thread is not queued */
        make_ready(b, tid);
    } else {
        return;
    }
    detail::switch_from(w, b, tid, target);
}

} /* namespace engine */

/* Warp-synchronous code (engine/lockstep_hooks.cpp): before a volatile load or
 * store of a kernel thread, anywhere but its own stack, the thread hands
 * the worker to the block's next runnable thread, as a spinner does. The
 * lanes that run such code therefore take turns access by access, which is
 * the order a converged warp gives them. The spin watch must not add a
 * turn of its own meanwhile (a lane sent to the back of the queue once
 * more falls a whole access behind the others): while such accesses go on
 * in the worker's block (lockstep_turns moved since its last check), it
 * hands nothing over. */
namespace {
__thread std::uint64_t lockstep_turns;      /* turns taken on this worker */
__thread std::uint64_t lockstep_turns_seen; /* at the spin watch's last check */
}

void detail::lockstep_access(std::uintptr_t addr)
{
    using namespace engine;
    detail::worker_hot *const wh = detail::current_worker;
    if (!wh->in_block || wh->no_yield || wh->failed)
        return;
    /* the thread's own volatile locals: not shared with any other thread */
    const std::uintptr_t sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    if (addr - sp < (std::uintptr_t{1} << 18))
        return;
    worker *const w = static_cast<worker *>(wh);
    lockstep_turns++;
    hand_over_spinner(w);
}

void detail::spin_slow(spin_rec &r, here where)
{
    using namespace engine;
    worker *const w = this_worker();
    if (!w || !w->in_block)
        return;
    if ((r.count & ((1u << 20) - 1)) == 0)
        check_spin(w, r, where);
    hand_over_spinner(w);
}

void detail::spin_note_uninstrumented(const void *addr, std::uint64_t value, here where)
{
    spin_note_record(addr, value, where);
}

/* ---- the spin watch (spin points or trace-pc; profile/hooks.cpp) ----------
 * A spin on a plain or volatile load (`while (flag == 0) {}`) calls no
 * engine function: only the watch's hook runs, at the top of every loop
 * iteration of the program's device code (the spin points slrewrite puts
 * there, emu/src/tools/rewriter/rewrite_spin.c) or, in the counters' trace-pc builds, at
 * every basic block. Every spin_watch_period calls without a wait it calls
 * this, which hands the worker to the block's next runnable thread (as
 * spin_slow does), so the thread that sets the flag gets to run. The hook
 * never runs inside the engine (spin points are only in the program's
 * code; trace-pc builds call the engine out of line, engine.hpp,
 * SIMTLAB_EMU_ENGINE_OUT_OF_LINE), except in a warp operation's function
 * (no_yield).
 *
 * A spin that can never end is told from a long computation by the
 * thread's state: the code address, the callee-saved registers and the
 * 256 bytes above its stack pointer (what a loop keeps across the hook's
 * call: counters, pointers, spilled sums). A thread whose state at a check
 * is one of its last four, for SIMTLAB_EMU_SPIN_LIMIT_S seconds, while no
 * other thread of the block shows a new state or exits and no block of the
 * grid is taken, fails the launch naming its line. */
namespace {
struct watch_rec {
    std::uint64_t block_tag; /* which block (worker's epoch) it describes */
    std::uint64_t sigs[4];
    unsigned next;
    unsigned live_seen;
    std::uint64_t since_ns;
    std::uint64_t blocks_seen;
    std::uint64_t progress_seen;
    std::uint64_t checks;
};
__thread watch_rec *watch_recs;      /* by linear thread id, per worker */
__thread std::uint64_t watch_progress; /* states never seen before, this worker */

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    return h * 0xFF51AFD7ED558CCDULL;
}
} /* namespace */

extern "C" {
extern __thread long simtlab_emu_spin_countdown; /* the trace-pc hook's (profile/hooks.cpp) */
extern __thread long simtlab_emu_spin_reload;
extern __thread long simtlab_emu_spin_left;
void simtlab_emu_spin_watch_slow(void *pc, const std::uint64_t *regs);
}
/* The hook's countdown, and what the watch reloads it with: the period, or
 * far below zero while the worker runs a block of an observed launch
 * (profile/profile.cpp's block_begin), whose every basic block then goes to the
 * hook's slow path; the watch's own countdown is then simtlab_emu_spin_left. */
__thread long simtlab_emu_spin_countdown = simtlab_emu::detail::spin_watch_period;
__thread long simtlab_emu_spin_reload = simtlab_emu::detail::spin_watch_period;
__thread long simtlab_emu_spin_left = simtlab_emu::detail::spin_watch_period;

/* It hashes up to 256 bytes of the kernel's stack frame on purpose, which
 * crosses AddressSanitizer's stack redzones: not instrumented. */
extern "C" __attribute__((no_sanitize("address"))) void simtlab_emu_spin_watch_slow(void *pc,
                                                                                  const std::uint64_t *regs)
{
    using namespace engine;
    simtlab_emu_spin_countdown = simtlab_emu_spin_reload;
    detail::worker_hot *const wh = detail::current_worker;
    if (!wh->in_block || wh->no_yield || wh->failed)
        return;
    worker *const w = this_worker();
    if (!w || !w->in_block)
        return;
    block_state &b = *w->blk;
    const unsigned tid = w->cur_tid;
    if (lockstep_turns != lockstep_turns_seen) { /* warp-synchronous code is taking turns */
        lockstep_turns_seen = lockstep_turns;
        return;
    }
    if (!watch_recs) {
        watch_recs = static_cast<watch_rec *>(std::calloc(max_block_threads, sizeof(watch_rec)));
        if (!watch_recs)
            return;
    }
    watch_rec &r = watch_recs[tid];
    const std::uint64_t tag = (static_cast<std::uint64_t>(b.epoch) << 1) | 1u;
    if (r.block_tag != tag) {
        std::memset(&r, 0, sizeof r);
        r.block_tag = tag;
    }
    std::uint64_t sig = mix(0, reinterpret_cast<std::uintptr_t>(pc));
    if (regs) {
        for (int i = 0; i < 6; i++)
            sig = mix(sig, regs[i]);
        /* above the saved registers: the entry's return address, then the
         * hook's frame (if any) and the kernel's; up to 256 bytes, within
         * the page (a fiber stack's top ends its mapping: the kernel's frame
         * may lie just below it) */
        const std::uint64_t *frame = regs + 7;
        const std::uintptr_t page_end = (reinterpret_cast<std::uintptr_t>(frame) | 4095u) + 1;
        const std::size_t words = std::min<std::size_t>(32, (page_end - reinterpret_cast<std::uintptr_t>(frame)) / 8);
        for (std::size_t i = 0; i < words; i++)
            sig = mix(sig, frame[i]);
    }
    bool seen = false;
    for (std::uint64_t old : r.sigs)
        seen = seen || (old == sig && sig != 0);
    if (!seen) {
        r.sigs[r.next++ & 3] = sig;
        r.since_ns = 0;
        watch_progress++;
    } else {
        const std::uint64_t now = monotonic_ns();
        const std::uint64_t blocks = w->grid->next_block.load(std::memory_order_relaxed);
        r.checks++;
        if (r.since_ns == 0 || r.blocks_seen != blocks || r.progress_seen != watch_progress ||
            r.live_seen != b.live) {
            r.since_ns = now;
            r.blocks_seen = blocks;
            r.progress_seen = watch_progress;
            r.live_seen = b.live;
            r.checks = 0;
        } else {
            const double limit = spin_limit_s();
            const double waited = static_cast<double>(now - r.since_ns) * 1e-9;
            if (waited >= limit) {
                char where[512];
                describe_code_address(pc, where, sizeof where);
                const unsigned others = b.live - 1;
                fail_thread(w, cudaErrorLaunchFailure,
                            "spins without end at %s: the thread ran for %.1f s without a wait, in a loop "
                            "whose state (registers and stack frame) repeats, while %s (a loop on a plain "
                            "or volatile load of a flag that no thread sets?). This hangs a GPU too. The "
                            "emulator lets the other threads of the block run while one spins; "
                            "SIMTLAB_EMU_SPIN_LIMIT_S (now %g) is how long it waits; raise it if this is "
                            "a long computation",
                            where, waited,
                            others == 0 ? "no other thread of the block is left to end it"
                            : b.ready_count == 0 && b.next_start == b.n
                                ? "every other thread of the block waits (a barrier or a warp operation) "
                                  "or has exited"
                                : "the other threads of the block ran in between without a new state",
                            limit);
            }
        }
    }
    hand_over_spinner(w);
}

namespace engine {

static std::uint64_t next_random(worker *w)
{
    /* xorshift64*: plenty for shuffling threads, and reproducible. */
    std::uint64_t x = w->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    w->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

void maybe_shuffle(worker *w, unsigned *tids, unsigned n)
{
    if (!w->grid->seeded)
        return;
    for (unsigned i = n; i > 1; i--) {
        unsigned j = static_cast<unsigned>(next_random(w) % i);
        std::swap(tids[i - 1], tids[j]);
    }
}

/* ---- barriers ------------------------------------------------------------ */

/* The waiters of a round arrived at more than one call site. That alone is
 * legal: __syncthreads is PTX `bar.sync 0`, and a round of barrier 0 counts
 * the arrivals of every thread of the block that has not exited, whichever
 * instruction each executed (since sm_70 threads are scheduled one by one,
 * and PTX asks for one instruction per warp only on sm_6x and older, which
 * CUDA 13 no longer targets). What is not legal is mixing the variants:
 * `bar.red` (__syncthreads_count/and/or) with `bar.sync` or with another
 * reduction on the same barrier is unpredictable in PTX. */
__attribute__((noinline, cold)) static bool barrier_variants_agree(const block_state &b)
{
    for (unsigned pos = b.barrier_first_odd; pos < b.nwaiting_barrier; pos++)
        if (b.barrier_modes[pos] != b.barrier_mode)
            return false;
    return true;
}

static bool release_barrier(worker *w)
{
    block_state &b = *w->blk;
    if (__builtin_expect(b.barrier_first_odd != no_odd_waiter, 0) && !barrier_variants_agree(b)) {
        fail_divergence(w);
        return false;
    }
    if (profile::launch_observed)
        profile::barrier_released(w);
    /* Once per round, not per wait: threads that exited without reaching a
     * barrier the others wait at (synccheck, engine/failure.cpp). */
    if (__builtin_expect(b.live != b.n, 0) && w->grid->synccheck) {
        fail_synccheck(w);
        return false;
    }
    const int count = b.barrier_count;
    const int n = static_cast<int>(b.nwaiting_barrier);
    switch (b.barrier_mode) {
    case sync_plain: b.barrier_result = 0; break;
    case sync_count: b.barrier_result = count; break;
    case sync_and: b.barrier_result = count == n; break;
    case sync_or: b.barrier_result = count > 0; break;
    }
    maybe_shuffle(w, b.barrier_waiters, b.nwaiting_barrier);
    /* The ready queue is empty (next_context_slow releases only then): the
     * waiters, in arrival order, become it. */
    std::swap(b.ready, b.barrier_waiters);
    b.ready_head = 0;
    b.ready_count = b.nwaiting_barrier;
    b.nwaiting_barrier = 0;
    b.match_file = nullptr; /* the next round's first arrival sets it */
    return true;
}

} /* namespace engine */

using namespace engine;

void *&cuda_thread_slot(unsigned index)
{
    static thread_local void *host_slots[4];
    worker *w = this_worker();
    if (!w || !w->in_block || index >= 4)
        return host_slots[index & 3];
    block_state &b = *w->blk;
    thread_slots &ts = b.slots[w->cur_tid];
    b.slots_used = true;
    if (ts.epoch != b.epoch) { /* first use by this thread: start empty */
        ts.epoch = b.epoch;
        ts.device_error = cudaSuccess;
        std::memset(ts.slots, 0, sizeof ts.slots);
    }
    return ts.slots[index];
}

int *device_last_error()
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return nullptr;
    block_state &b = *w->blk;
    thread_slots &ts = b.slots[w->cur_tid];
    if (ts.epoch != b.epoch) { /* first use by this thread (slots_used stays: nothing to release) */
        ts.epoch = b.epoch;
        ts.device_error = cudaSuccess;
        std::memset(ts.slots, 0, sizeof ts.slots);
    }
    return &ts.device_error;
}

bool in_kernel()
{
    worker *w = this_worker();
    return w && w->in_block;
}

namespace engine {

/* ---- running a block ------------------------------------------------------ */

void begin_block(worker *w, std::uint64_t linear)
{
    grid_job &g = *w->grid;
    block_state &b = *w->blk;
    const std::uint64_t gx = g.grid.x, gy = g.grid.y;
    block_idx = uint3{static_cast<unsigned>(linear % gx), static_cast<unsigned>((linear / gx) % gy),
                      static_cast<unsigned>(linear / (gx * gy))};
    if (b.spins_written) { /* by the threads of the block before, tid < its n */
        std::memset(b.spins_store, 0, b.n * sizeof b.spins_store[0]);
        b.spins_written = false;
    }
    b.n = g.threads_per_block;
    b.next_start = 0;
    b.live = b.n;
    b.loop_owner = nullptr;
    b.nwaiting_barrier = 0;
    b.match_file = nullptr;
    b.nwaiting_warp = 0;
    b.ready_head = b.ready_count = 0;
    b.barrier_first_odd = no_odd_waiter;
    b.grid_sync_waiters = 0;
    if (b.ncoalescing) { /* a failed block left lanes in coalesced_threads() */
        b.ncoalescing = 0;
        std::memset(b.coalescing, 0, sizeof b.coalescing);
    }
    b.epoch++;
    w->no_yield = false; /* a warp operation's function that failed the last block left it set */
    b.slots_used = false;
    std::memset(b.exited, 0, b.n);
    const unsigned nwarps = (b.n + warp_size - 1) / warp_size;
    for (unsigned i = 0; i < nwarps; i++)
        b.warps[i].ngroups = 0;
    if (g.seeded) {
        /* Reproducible per block, whichever worker runs it. */
        w->rng = (g.seed + 1) * 0x9E3779B97F4A7C15ULL ^ (linear + 1) * 0xD1B54A32D192ED03ULL;
        if (!w->rng)
            w->rng = 1;
        for (unsigned i = 0; i < b.n; i++)
            b.order[i] = i;
        maybe_shuffle(w, b.order, b.n);
    }
    shared_block_begin(w);
    w->cur_tid = ~0u; /* no thread yet: next_context must not mistake one for the caller */
    w->failed = false;
    w->abandon_stack = nullptr;
}

void enter_block(worker *w)
{
    set_in_block(w, true);
    save_origin(fctx::jump_fcontext(next_context(w), &w->sched_ctx));
    set_in_block(w, false);
}

void run_block(worker *w, std::uint64_t linear)
{
    begin_block(w, linear);
    if (profile::launch_observed) /* SIMT counters or a checker (profile/profile.cpp) */
        profile::block_begin(w, linear);
    enter_block(w);
    if (profile::launch_observed)
        profile::block_end(w);
    if (w->failed)
        abandon_block(w);
    std::size_t used = w->blk->shared_used - ((w->grid->dynamic_bytes + 15) & ~std::size_t{15});
    w->static_shared_max = std::max(w->static_shared_max, used);
}

void abandon_block(worker *w)
{
    block_state &b = *w->blk;
    /* The parked threads are exactly those in the barrier's waiters, in the
     * ready queue and in a warp operation's arrived lanes. The running
     * thread, when it failed, may be among them: its stack is
     * abandon_stack. */
    const unsigned running = w->abandon_stack ? w->cur_tid : ~0u;
    auto release = [&](unsigned tid) {
        if (tid != running)
            stack_put(w->stacks, static_cast<fiber_stack *>(b.recs[tid].stack));
    };
    for (unsigned i = 0; i < b.nwaiting_barrier; i++)
        release(b.barrier_waiters[i]);
    for (unsigned i = 0; i < b.ready_count; i++)
        release(b.ready[(b.ready_head + i) & (max_block_threads - 1)]);
    const unsigned nwarps = (b.n + warp_size - 1) / warp_size;
    for (unsigned warp = 0; warp < nwarps; warp++) {
        const warp_state &ws = b.warps[warp];
        for (unsigned g = 0; g < ws.ngroups; g++)
            for (unsigned lane = 0; lane < warp_size; lane++)
                if (ws.groups[g].arrived >> lane & 1u)
                    release(warp * warp_size + lane);
        for (unsigned lane = 0; lane < warp_size; lane++)
            if (b.coalescing[warp] >> lane & 1u)
                release(warp * warp_size + lane);
    }
    if (w->abandon_stack)
        stack_put(w->stacks, w->abandon_stack);
    w->abandon_stack = nullptr;
    set_in_block(w, false);
}

} /* namespace engine */
} /* namespace simtlab_emu */
