/* simtlab CPU emulator — when a block goes wrong: the deadlock and barrier
 * divergence diagnostics (grouping a barrier's waiters by call site), the
 * slow path of a barrier arrival at another call site, and failing a launch
 * from device code (fail_block, fail_thread, fail_launch, a device assert).
 * All of it is off the hot path: the engine calls in here only once a
 * block has failed or is about to. */
#include "engine/internal.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace simtlab_emu {
namespace engine {

/* ---- deadlock ------------------------------------------------------------- */

__attribute__((noinline, cold)) void fail_deadlock(worker *w)
{
    char text[message_capacity];
    int len = std::snprintf(text, sizeof text,
                            "deadlock: every live thread of the block waits and no wait can "
                            "complete: ");
    describe_waiters(w, text + len, sizeof text - static_cast<std::size_t>(len));
    fail_block(w, cudaErrorIllegalInstruction, text);
}

/* ---- barrier divergence ---------------------------------------------------- */

static bool same_site(const here &a, const here &b)
{
    return a.line == b.line && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

void for_each_barrier_group(const block_state &b, bool (*visit)(const barrier_group &group, void *ctx),
                            void *ctx)
{
    static thread_local unsigned ids[max_block_threads];
    static thread_local bool done[max_block_threads];
    std::fill(done, done + b.nwaiting_barrier, false);
    for (unsigned i = 0; i < b.nwaiting_barrier; i++) {
        if (done[i])
            continue;
        const here site = barrier_waiter_site(b, i);
        const sync_mode mode = barrier_waiter_mode(b, i);
        unsigned count = 0;
        for (unsigned j = i; j < b.nwaiting_barrier; j++) {
            if (!done[j] && same_site(barrier_waiter_site(b, j), site) && barrier_waiter_mode(b, j) == mode) {
                done[j] = true;
                ids[count++] = b.barrier_waiters[j];
            }
        }
        std::sort(ids, ids + count);
        if (!visit(barrier_group{site, mode, ids, count}, ctx))
            return;
    }
}

/* "threads 0-15 wait at a.cu:12 and threads 16-31 wait at a.cu:14". */
static void describe_barrier_divergence(worker *w, char *out, std::size_t cap)
{
    struct text {
        char *out;
        std::size_t cap, len;
        int groups;
    } t{out, cap, 0, 0};
    out[0] = '\0';
    for_each_barrier_group(*w->blk, [](const barrier_group &g, void *ctx) {
        text &t = *static_cast<text *>(ctx);
        char ranges[512];
        format_ranges(ranges, sizeof ranges, g.ids, g.count);
        static const char *const variant[] = {/* by sync_mode */ "", " (__syncthreads_count)",
                                              " (__syncthreads_and)", " (__syncthreads_or)"};
        t.len += static_cast<std::size_t>(std::snprintf(
            t.out + t.len, t.cap - t.len, "%s%s %s wait at %s:%d%s", t.groups ? " and " : "",
            g.count == 1 ? "thread" : "threads", ranges, g.site.file, g.site.line, variant[g.mode & 3]));
        t.groups++;
        return t.len < t.cap;
    }, &t);
}

/* The threads of the block that have exited, as "32-63" (count: how many). */
static void describe_exited(const block_state &b, char *out, std::size_t cap, unsigned *count)
{
    static thread_local unsigned ids[max_block_threads];
    unsigned n = 0;
    for (unsigned t = 0; t < b.n; t++)
        if (b.exited[t])
            ids[n++] = t;
    format_ranges(out, cap, ids, n);
    *count = n;
}

__attribute__((noinline, cold)) void fail_divergence(worker *w)
{
    char text[message_capacity];
    int len = std::snprintf(text, sizeof text,
                            "barrier divergence (threads of one block wait at different "
                            "variants of the block barrier, __syncthreads and "
                            "__syncthreads_count/_and/_or, in one round; PTX leaves mixing them "
                            "unpredictable): ");
    describe_barrier_divergence(w, text + len, sizeof text - static_cast<std::size_t>(len));
    const block_state &b = *w->blk;
    if (b.live != b.n) {
        char exited[512];
        unsigned count = 0;
        describe_exited(b, exited, sizeof exited, &count);
        const std::size_t used = std::strlen(text);
        std::snprintf(text + used, sizeof text - used, "; %s %s had exited", count == 1 ? "thread" : "threads",
                      exited);
    }
    fail_block(w, cudaErrorLaunchFailure, text);
}

/* ---- synccheck: a barrier that threads exited before ------------------------ */

__attribute__((noinline, cold)) void fail_synccheck(worker *w)
{
    const block_state &b = *w->blk;
    static thread_local unsigned ids[max_block_threads];
    const unsigned nwait = b.nwaiting_barrier;
    std::copy(b.barrier_waiters, b.barrier_waiters + nwait, ids);
    std::sort(ids, ids + nwait);
    char reached[600], exited[600];
    format_ranges(reached, sizeof reached, ids, nwait);
    unsigned nexited = 0;
    describe_exited(b, exited, sizeof exited, &nexited);
    static const char *const name[] = {/* by sync_mode */ "__syncthreads", "__syncthreads_count",
                                       "__syncthreads_and", "__syncthreads_or"};
    char text[message_capacity];
    std::snprintf(text, sizeof text,
                  "barrier error (synccheck): %s() at %s:%d was reached by %s %s, while %s %s "
                  "(linear ids in the block) exited without reaching it. A barrier that not every "
                  "thread of the block reaches is undefined behaviour in CUDA, even when the others "
                  "have exited (compute-sanitizer --tool synccheck reports it): keep every thread on "
                  "the path to the barrier and guard only the work (`if (i < n) { ... }` around the "
                  "work, no early return before a barrier). SIMTLAB_EMU_SYNCCHECK=0 accepts it "
                  "(PTX bar.sync counts only threads that have not exited)",
                  name[b.barrier_mode & 3], b.barrier_site.file, b.barrier_site.line,
                  nwait == 1 ? "thread" : "threads", reached, nexited == 1 ? "thread" : "threads",
                  exited);
    fail_block(w, cudaErrorLaunchFailure, text);
}

} /* namespace engine */

/* A round's first arrival, or one whose call site may differ from the
 * round's first: the fast path compared pointers, this compares the file
 * names too (and the variant), and from the first real difference on
 * records every waiter's site for the diagnostic. */
void detail::note_barrier_site(block_hot &hot, unsigned pos, here where, sync_mode mode)
{
    using namespace engine;
    block_state &b = static_cast<block_state &>(hot);
    if (pos == 0) { /* a round's first arrival: what the later ones are compared with */
        b.barrier_site = where;
        b.match_file = where.file;
        b.match_line_mode = where.line * 4 + mode;
        b.barrier_mode = mode;
        b.barrier_count = 0;
        b.barrier_first_odd = no_odd_waiter;
        return;
    }
    if (b.barrier_first_odd == no_odd_waiter) {
        if (same_site(where, b.barrier_site) && mode == b.barrier_mode)
            return;
        b.barrier_first_odd = pos;
        b.match_file = nullptr; /* every later arrival comes here */
    }
    b.barrier_sites[pos] = where;
    b.barrier_modes[pos] = static_cast<std::uint8_t>(mode);
}

namespace engine {

/* ---- failing ------------------------------------------------------------- */

void claim_failure(grid_job *g, cudaError_t error, const char *text)
{
    bool expected = false;
    if (g->failure_claimed.compare_exchange_strong(expected, true)) {
        g->error = error;
        const int needed = std::snprintf(g->diagnostic, sizeof g->diagnostic, "%s", text);
        mark_if_cut(g->diagnostic, sizeof g->diagnostic, needed);
    }
    g->stop.store(true, std::memory_order_relaxed);
}

void fail_block(worker *w, cudaError_t error, const char *text)
{
    /* per worker thread, not on the fiber's stack, which may be 16 KiB */
    static thread_local char full[message_capacity];
    const int needed = std::snprintf(full, sizeof full, "kernel %s (launched at %s:%d), block (%u,%u,%u): %s",
                                     w->grid->site.kernel, w->grid->site.file, w->grid->site.line,
                                     block_idx.x, block_idx.y, block_idx.z, text);
    mark_if_cut(full, sizeof full, needed);
    claim_failure(w->grid, error, full);
    w->failed = true;
}

/* Leaves the failing thread for good: its stack is released by
 * abandon_block once the scheduler runs. */
[[noreturn]] static void leave_failed_thread(worker *w, cudaError_t error, const char *full)
{
    claim_failure(w->grid, error, full);
    w->failed = true;
    w->abandon_stack = running_stack(w);
    fctx::jump_fcontext(w->sched_ctx, &w->discarded_ctx);
    __builtin_unreachable();
}

void fail_thread(worker *w, cudaError_t error, const char *fmt, ...)
{
    /* per worker thread, not on the fiber's stack, which may be 16 KiB */
    static thread_local char text[message_capacity], full[message_capacity];
    va_list ap;
    va_start(ap, fmt);
    int needed = std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    mark_if_cut(text, sizeof text, needed);
    needed = std::snprintf(full, sizeof full,
                           "kernel %s (launched at %s:%d), block (%u,%u,%u), thread (%u,%u,%u): %s",
                           w->grid->site.kernel, w->grid->site.file, w->grid->site.line, block_idx.x,
                           block_idx.y, block_idx.z, thread_idx.x, thread_idx.y, thread_idx.z, text);
    mark_if_cut(full, sizeof full, needed);
    leave_failed_thread(w, error, full);
}

[[noreturn]] static void fail_assert(worker *w, const char *expr, const char *file, int line)
{
    static thread_local char full[message_capacity]; /* not on the fiber's stack */
    const int needed = std::snprintf(
        full, sizeof full, "Assertion `%s` failed in kernel %s at %s:%d, block (%u,%u,%u), thread (%u,%u,%u)",
        expr, w->grid->site.kernel, file, line, block_idx.x, block_idx.y, block_idx.z, thread_idx.x,
        thread_idx.y, thread_idx.z);
    mark_if_cut(full, sizeof full, needed);
    leave_failed_thread(w, cudaErrorAssert, full);
}

/* Writes "0-15, 17, 20-31". */
void format_ranges(char *out, std::size_t cap, const unsigned *ids, unsigned count)
{
    std::size_t len = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < count && len + 1 < cap;) {
        unsigned j = i;
        while (j + 1 < count && ids[j + 1] == ids[j] + 1)
            j++;
        int n = (i == j) ? std::snprintf(out + len, cap - len, "%s%u", i ? ", " : "", ids[i])
                         : std::snprintf(out + len, cap - len, "%s%u-%u", i ? ", " : "", ids[i], ids[j]);
        if (n < 0)
            break;
        len += static_cast<std::size_t>(n);
        if (len >= cap)
            break;
        i = j + 1;
    }
}

} /* namespace engine */

using namespace engine;

[[noreturn]] void fail_launch(cudaError_t error, const char *message)
{
    worker *w = this_worker();
    if (!w || !w->in_block) {
        /* Called from host code: there is no launch to fail. Record it so the
         * caller's next CUDA call sees it, and return to the caller is not
         * possible ([[noreturn]]): this is a programming error in the
         * emulator's users, and CUDA itself would kill the process. */
        std::fprintf(stderr, "simtlab-emu: fail_launch called outside a kernel: %s\n", message);
        std::abort();
    }
    fail_thread(w, error, "%s", message);
}

/* report_host_call_of_kernel: runtime/launch.cpp (it records an error). */

[[noreturn]] void device_assert_fail(const char *expr, const char *file, int line, const char *func)
{
    worker *w = this_worker();
    if (!w || !w->in_block) {
        std::fprintf(stderr, "%s:%d: %s: Assertion `%s' failed (host code).\n", file, line, func, expr);
        std::abort(); /* as assert(3) does in host code */
    }
    (void)func;
    fail_assert(w, expr, file, line);
}

} /* namespace simtlab_emu */
