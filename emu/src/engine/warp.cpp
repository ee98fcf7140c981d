/* simtlab CPU emulator — warp_collective, the one primitive under shuffles,
 * votes, __syncwarp and the matrix operations, and its diagnostics.
 *
 * Lanes of a warp are the threads whose linear index / 32 is equal. Each
 * arriving lane parks with its lane_data; the last lane of the mask runs fn
 * with every lane's pointer (the others' stacks are parked, so their data
 * are valid), then all of them continue.
 *
 * Misuse fails the launch with cudaErrorIllegalInstruction, which is what
 * hardware reports for a shfl.sync/vote.sync whose mask it cannot satisfy
 * (PTX ISA: "the behavior is undefined if the executing thread is not in
 * membermask"; in practice the SM raises an illegal-instruction error). */
#include "engine/internal.hpp"
#include "profile/internal.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace simtlab_emu {
namespace engine {

/* Lanes of warp `warp` that exist in a block of n threads. */
static unsigned existing_lanes(unsigned n, unsigned warp)
{
    const unsigned first = warp * warp_size;
    const unsigned count = n - first;
    return count >= warp_size ? ~0u : (1u << count) - 1u;
}

static unsigned exited_lanes(const block_state &b, unsigned warp, unsigned mask)
{
    /* every arrival asks: look at the warp's 32 flags at once first (they
     * lie within exited[max_block_threads]; a flag is 0 or 1) */
    std::uint64_t flags[4];
    std::memcpy(flags, b.exited + warp * warp_size, sizeof flags);
    if ((flags[0] | flags[1] | flags[2] | flags[3]) == 0)
        return 0;
    unsigned exited = 0;
    for (unsigned lane = 0; lane < warp_size; lane++) {
        const unsigned tid = warp * warp_size + lane;
        if ((mask >> lane & 1u) && tid < b.n && b.exited[tid])
            exited |= 1u << lane;
    }
    return exited;
}

/* "lanes 0-3, 7" for the set bits of a mask. */
static void format_lanes(char *out, std::size_t cap, unsigned mask)
{
    unsigned ids[warp_size];
    unsigned count = 0;
    for (unsigned lane = 0; lane < warp_size; lane++)
        if (mask >> lane & 1u)
            ids[count++] = lane;
    format_ranges(out, cap, ids, count);
}

/* The check a lane's arrival must pass; fails the launch otherwise. Lanes
 * of the mask that have exited, or that do not exist (a block whose size
 * is not a multiple of 32), take no part: CUDA asks only that "all
 * non-exited threads named in mask" execute the operation. */
static void check_arrival(worker *w, unsigned mask, const char *op, here where)
{
    const unsigned lane = w->cur_tid % warp_size;
    if (!(mask >> lane & 1u))
        fail_thread(w, cudaErrorIllegalInstruction,
                    "%s at %s:%d with mask 0x%08x: the calling lane %u is not in its own mask "
                    "(use __activemask() or a mask that includes every calling lane)",
                    op, where.file, where.line, mask, lane);
}

/* require_whole_warp was called for the operation the thread joins next */
static __thread bool next_is_whole;

} /* namespace engine */

void detail::require_whole_warp(const char *op, const char *file, int line)
{
    using namespace engine;
    const here where{file, line};
    worker *w = this_worker();
    if (!w || !w->in_block)
        return;
    const block_state &b = *w->blk;
    const unsigned warp = w->cur_tid / warp_size;
    const unsigned missing = ~existing_lanes(b.n, warp);
    if (missing) {
        char lanes[160];
        format_lanes(lanes, sizeof lanes, missing);
        fail_thread(w, cudaErrorIllegalInstruction,
                    "%s at %s:%d needs all 32 lanes of the warp, but lanes %s of warp %u do not "
                    "exist: the block has %u threads, not a multiple of 32",
                    op, where.file, where.line, lanes, warp, b.n);
    }
    const unsigned exited = exited_lanes(b, warp, ~0u);
    if (exited) {
        char lanes[160];
        format_lanes(lanes, sizeof lanes, exited);
        fail_thread(w, cudaErrorIllegalInstruction,
                    "%s at %s:%d needs all 32 lanes of the warp, but lane %s of warp %u has already "
                    "exited (did an early return skip it?)",
                    op, where.file, where.line, lanes, warp);
    }
    next_is_whole = true;
}

namespace engine {

/* The lanes of `mask` that must arrive: those that exist and have not
 * exited. */
static unsigned needed_lanes(const block_state &b, unsigned warp, unsigned mask)
{
    const unsigned lanes = mask & existing_lanes(b.n, warp);
    return lanes & ~exited_lanes(b, warp, lanes);
}

/* The group of the caller's warp that this arrival joins (a new one if no
 * waiting group has the same mask). Fails on another mask that shares lanes
 * at the same call, or on a different operation. */
static warp_group &join_group(worker *w, warp_state &ws, unsigned mask, const char *op, here where)
{
    const unsigned lane = w->cur_tid % warp_size;
    for (unsigned i = 0; i < ws.ngroups; i++) {
        warp_group &g = ws.groups[i];
        if (!(g.mask & mask))
            continue;
        /* Another mask that shares lanes, at another call, is another group:
         * with independent thread scheduling lanes of a warp may wait at
         * different masks (cooperative groups' partitions do: a sub-group
         * reduces while the rest of the warp waits at the tile's sync); the
         * shared lanes finish one and then reach the other. Masks that can
         * never both complete end as a deadlock, which names every group. */
        const bool same_call = g.where.line == where.line && g.where.file == where.file;
        if (g.mask != mask && !same_call)
            continue;
        if (g.mask == mask && (g.op == op || std::strcmp(g.op, op) == 0))
            return g; /* the common case: no message to format */
        char lanes[160];
        format_lanes(lanes, sizeof lanes, g.arrived);
        if (g.mask != mask)
            fail_thread(w, cudaErrorIllegalInstruction,
                        "lane %u calls %s at %s:%d with mask 0x%08x while lanes %s wait at %s "
                        "(%s:%d) with mask 0x%08x: lanes that meet must pass the same mask",
                        lane, op, where.file, where.line, mask, lanes, g.op, g.where.file,
                        g.where.line, g.mask);
        if (std::strcmp(g.op, op) != 0)
            fail_thread(w, cudaErrorIllegalInstruction,
                        "lane %u calls %s at %s:%d while lanes %s of the same mask 0x%08x wait at "
                        "%s (%s:%d): lanes of a mask must meet at the same operation",
                        lane, op, where.file, where.line, lanes, mask, g.op, g.where.file,
                        g.where.line);
        return g;
    }
    warp_group &g = ws.groups[ws.ngroups++];
    g.mask = mask;
    g.arrived = 0;
    g.op = op;
    g.where = where;
    g.fn = nullptr;
    g.ctx = nullptr;
    g.whole = false;
    return g;
}

/* The last lane needed arrived (or the last one missing exited; then the
 * caller is not among the lanes, self_in false): run fn over the lanes that
 * arrived, then make every other one runnable. */
static void complete_group(worker *w, warp_state &ws, warp_group &g, warp_fn fn, void *ctx, bool self_in)
{
    block_state &b = *w->blk;
    const unsigned warp = w->cur_tid / warp_size, self = w->cur_tid % warp_size;
    const unsigned lanes = g.arrived; /* fn sees exited and missing lanes as outside the mask */
    void *data[warp_size];
    for (unsigned lane = 0; lane < warp_size; lane++)
        data[lane] = (lanes >> lane & 1u) ? ws.lane_data[lane] : nullptr;
    ws.groups[&g - ws.groups] = ws.groups[--ws.ngroups]; /* drop the group */
    /* The lanes are queued before fn runs (queued, they stay parked): if fn
     * fails the launch, abandon_block finds them in the ready queue. */
    unsigned ids[warp_size];
    unsigned count = 0;
    for (unsigned lane = 0; lane < warp_size; lane++)
        if ((lanes >> lane & 1u) && !(self_in && lane == self))
            ids[count++] = warp * warp_size + lane;
    b.nwaiting_warp -= count;
    /* Seeded runs also let the last lane wait its turn, so that which lane
     * continues first is random too. */
    if (w->grid->seeded && self_in)
        ids[count++] = w->cur_tid;
    maybe_shuffle(w, ids, count);
    for (unsigned i = 0; i < count; i++)
        make_ready(b, ids[i]);
    if (profile::launch_observed) {
        {
            /* fn's own loads, stores and branches are the emulator's */
            const profile::quiet_scope quiet;
            fn(data, lanes, ctx);
        }
        profile::warp_synced(w, warp, lanes);
        return;
    }
    fn(data, lanes, ctx);
}

/* Thread tid (marked exited) returned while lanes of its warp wait: a group
 * whose mask names it completes if every other lane it needs has arrived. */
void check_exit_against_warps(worker *w, unsigned tid)
{
    block_state &b = *w->blk;
    const unsigned warp = tid / warp_size, lane = tid % warp_size;
    warp_state &ws = b.warps[warp];
    for (unsigned i = 0; i < ws.ngroups;) {
        warp_group &g = ws.groups[i];
        if ((g.mask >> lane & 1u) && g.whole) {
            char lanes[160];
            format_lanes(lanes, sizeof lanes, g.arrived);
            fail_thread(w, cudaErrorIllegalInstruction,
                        "lane %u of warp %u exited while lanes %s wait for it at %s (%s:%d), which "
                        "needs all 32 lanes of the warp",
                        lane, warp, lanes, g.op, g.where.file, g.where.line);
        }
        if ((g.mask >> lane & 1u) && g.arrived && g.fn && g.arrived == needed_lanes(b, warp, g.mask)) {
            complete_group(w, ws, g, g.fn, g.ctx, false); /* moves the last group to i */
            continue;
        }
        i++;
    }
}

/* Appends "lanes 0-15 of warp 0 wait at __shfl_sync (a.cu:12, mask
 * 0xffffffff) for lanes 16-31" per waiting group, and the barrier's waiters
 * grouped by call site. */
void describe_waiters(worker *w, char *out, std::size_t cap)
{
    const block_state &b = *w->blk;
    struct text {
        char *out;
        std::size_t cap, len;
        const char *sep;
    } t{out, cap, 0, ""};
    out[0] = '\0';
    const unsigned nwarps = (b.n + warp_size - 1) / warp_size;
    for (unsigned warp = 0; warp < nwarps; warp++) {
        const warp_state &ws = b.warps[warp];
        for (unsigned i = 0; i < ws.ngroups && t.len < cap; i++) {
            const warp_group &g = ws.groups[i];
            char lanes[160], missing[160];
            format_lanes(lanes, sizeof lanes, g.arrived);
            format_lanes(missing, sizeof missing, g.mask & ~g.arrived);
            t.len += static_cast<std::size_t>(std::snprintf(
                out + t.len, cap - t.len,
                "%slanes %s of warp %u wait at %s (%s:%d, mask 0x%08x) for lanes %s", t.sep, lanes,
                warp, g.op, g.where.file, g.where.line, g.mask, missing));
            t.sep = "; ";
        }
    }
    if (t.len >= cap)
        return;
    for_each_barrier_group(b, [](const barrier_group &g, void *ctx) {
        text &t = *static_cast<text *>(ctx);
        char ranges[512];
        format_ranges(ranges, sizeof ranges, g.ids, g.count);
        t.len += static_cast<std::size_t>(std::snprintf(t.out + t.len, t.cap - t.len,
                                                        "%sthreads %s wait at __syncthreads (%s:%d)", t.sep,
                                                        ranges, g.site.file, g.site.line));
        t.sep = "; ";
        return t.len < t.cap;
    }, &t);
}

} /* namespace engine */

using namespace engine;

detail::wait_switch detail::warp_arrive(unsigned mask, void *lane_data, warp_fn fn, void *ctx,
                                        const char *op, here where)
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return {nullptr, ~0u}; /* host code has no warp: nothing to exchange */
    block_state &b = *w->blk;
    check_arrival(w, mask, op, where);
    const unsigned tid = w->cur_tid, lane = tid % warp_size;
    warp_state &ws = b.warps[tid / warp_size];
    warp_group &g = join_group(w, ws, mask, op, where);
    ws.lane_data[lane] = lane_data;
    g.arrived |= 1u << lane;
    if (!g.fn) {
        g.fn = fn;
        g.ctx = ctx;
    }
    g.whole |= next_is_whole;
    next_is_whole = false;
    if (g.arrived == needed_lanes(b, tid / warp_size, mask)) {
        complete_group(w, ws, g, fn, ctx, true);
        if (!w->grid->seeded)
            return {nullptr, tid}; /* the last lane simply goes on */
        /* complete_group queued it among the others */
    } else {
        b.nwaiting_warp++;
    }
    return {detail::next_context(w, b, tid), tid};
}

unsigned lane_id()
{
    worker *w = this_worker();
    return w && w->in_block ? w->cur_tid % warp_size : 0;
}

unsigned active_mask()
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return 1u;
    const block_state &b = *w->blk;
    const unsigned warp = w->cur_tid / warp_size;
    const unsigned lanes = existing_lanes(b.n, warp);
    return lanes & ~exited_lanes(b, warp, lanes);
}

} /* namespace simtlab_emu */
