/* simtlab CPU emulator — racecheck: shared-memory hazards between barriers,
 * in the manner of compute-sanitizer's racecheck (emu/README.md,
 * "racecheck and memcheck").
 *
 * Per 4-byte word of the worker's shared arena it keeps the last write and
 * up to two reads of the current barrier interval (the stretch of a block
 * between two __syncthreads rounds): who (linear thread id), where (the
 * instruction's site), which bytes of the word. An access of bytes that
 * another thread wrote in the same interval (RAW, WAW), or a write of
 * bytes another thread read (WAR), is a hazard unless the two accesses are
 * ordered, and the launch fails with cudaErrorLaunchFailure naming both.
 *
 * Ordered: a __syncthreads round ends the interval (every record becomes
 * stale: records carry the interval's number). Between lanes of one warp,
 * a warp operation that both lanes took part in (__syncwarp, a shuffle, a
 * vote, a warp-level match or reduce: everything built on warp_collective)
 * orders what each did before it before what each does after it; this is
 * tracked with one vector clock of 32 entries per thread. Two lanes of one
 * warp at the same instruction (the same site) are one warp-level access
 * on a GPU, not a race. Two atomics never race with each other.
 *
 * Blocks run one at a time on a worker, so the state is the worker's, made
 * on its first block and reset by numbering intervals, not by clearing.
 *
 * Stores GCC does not report. GCC's address instrumentation checks each
 * address once per basic block, so in `s[t] += x` the store after the load
 * of s[t] calls no hook. Each shared load is therefore kept as pending,
 * with the bytes it read; once its thread has left the basic block (at the
 * next basic block's hook, or when another thread runs), bytes that
 * changed were stored by that thread, and the store is checked then, at
 * the load's line. A store of the value that was already there is not
 * seen. */
#include "checks/checkers.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace simtlab_emu {
namespace checkers {
namespace race {

namespace {

struct record {
    const void *pc;
    std::uint32_t interval; /* 0: none */
    std::uint32_t clock;    /* the accessor's own warp clock at the access */
    std::uint16_t tid;
    std::uint8_t mask;      /* bytes of the word */
    std::uint8_t atomic : 1;
    std::uint8_t is_volatile : 1; /* a volatile access (shared_access::flags) */
};
struct word_state {
    record write, read1, read2; /* read2: a reader other than read1 */
};

struct pending_read {
    const void *pc;
    std::uintptr_t addr;
    std::size_t offset;
    unsigned size;
    unsigned tid;
    unsigned char bytes[16];
};

struct state {
    std::uint32_t interval = 0;
    /* Loads of one thread at most (access settles the others' first), so
     * an access by that same thread has nothing to settle. */
    std::vector<pending_read> pending;
    std::vector<word_state> words;
    /* Per thread: its view of its warp's clocks, valid when stamp == interval. */
    std::uint32_t clocks[engine::max_block_threads][engine::warp_size];
    std::uint32_t stamp[engine::max_block_threads];
};

__thread state *mine = nullptr;

void settle(state &s, unsigned running); /* below */

std::uint32_t *clocks_of(state &s, unsigned tid)
{
    std::uint32_t *row = s.clocks[tid];
    if (s.stamp[tid] != s.interval) {
        std::memset(row, 0, sizeof s.clocks[tid]);
        row[tid % engine::warp_size] = 1;
        s.stamp[tid] = s.interval;
    }
    return row;
}

/* Thread tid's own entry of its clocks: what clocks_of(s, tid)[its lane]
 * gives, without making the row (most threads of an interval never meet
 * a warp operation, and a row is 128 bytes to clear). */
inline std::uint32_t own_clock(const state &s, unsigned tid)
{
    return s.stamp[tid] == s.interval ? s.clocks[tid][tid % engine::warp_size] : 1;
}

/* Does `earlier` (by another thread) happen before thread t's access now? */
bool ordered(state &s, const record &earlier, unsigned t)
{
    if (earlier.tid / engine::warp_size != t / engine::warp_size)
        return false;
    return clocks_of(s, t)[earlier.tid % engine::warp_size] >= earlier.clock;
}

bool conflicts(state &s, const record &r, unsigned t, unsigned mask, bool atomic, const void *pc)
{
    if (r.interval != s.interval || r.tid == t || !(r.mask & mask))
        return false;
    if (atomic && r.atomic)
        return false;
    if (r.pc == pc && r.tid / engine::warp_size == t / engine::warp_size)
        return false; /* one warp-level instruction */
    return !ordered(s, r, t);
}

void thread_text(unsigned tid, char *out, std::size_t cap)
{
    const unsigned bx = block_dim.x, by = block_dim.y;
    std::snprintf(out, cap, "(%u,%u,%u)", tid % bx, tid / bx % by, tid / (bx * by));
}

/* "partial (declared at f.cu:12), byte 4 of its 1024" */
void where_text(engine::worker *w, const profile::shared_access &a, char *out, std::size_t cap)
{
    static thread_local shared_owner o; /* per worker thread, not on the fiber's stack */
    if (owner_of(w, a.offset, &o))
        std::snprintf(out, cap, "%s%s%s%s, byte %zu of its %zu", o.name, o.where[0] ? " (declared at " : "", o.where,
                      o.where[0] ? ")" : "", o.offset, o.bytes);
    else
        std::snprintf(out, cap, "byte %zu of the block's shared memory", a.offset);
}

/* Lanes of one warp with nothing between them: the warp-synchronous idiom
 * (lanes read each other's shared-memory writes as if the warp ran in lock
 * step). Both the error and the warning below say what fixes it. */
const char *const warp_sync_advice =
    "Since Volta (sm_70) the lanes of a warp do not run in lock step: code that reads what other lanes of its warp "
    "wrote to shared memory (warp-synchronous code) needs __syncwarp() between the write and the read (or "
    "__syncthreads() where other warps' data is read)";

[[noreturn]] void report(const char *kind, const record &first, bool first_write, const profile::shared_access &a)
{
    engine::worker *const w = engine::this_worker();
    /* per worker thread, not on the fiber's stack */
    static thread_local char first_thread[48], second_thread[48], first_site[checkers::site_text_capacity],
        second_site[checkers::site_text_capacity];
    thread_text(first.tid, first_thread, sizeof first_thread);
    thread_text(a.tid, second_thread, sizeof second_thread);
    site_text(first.pc, first_site, sizeof first_site);
    site_text(a.pc, second_site, sizeof second_site);
    static thread_local char where[checkers::site_text_capacity + 200];
    where_text(w, a, where, sizeof where);
    static thread_local char between[600];
    if (first.tid / engine::warp_size == a.tid / engine::warp_size)
        std::snprintf(between, sizeof between,
                      "with no __syncthreads() between them, nor __syncwarp(): both are lanes of warp %u. %s",
                      a.tid / engine::warp_size, warp_sync_advice);
    else
        std::snprintf(between, sizeof between, "with no __syncthreads() between them");
    const char *second_verb = a.atomic ? "atomic" : a.write ? "write" : "read";
    engine::fail_thread(w, cudaErrorLaunchFailure,
                        "racecheck: %s hazard on __shared__ %s: thread %s %s it at %s, then thread %s "
                        "did a %u-byte %s of it at %s, %s. Race reported between %s access at %s and "
                        "%s access at %s, as compute-sanitizer --tool racecheck would. (SIMTLAB_EMU_RACECHECK=0 "
                        "turns this check off.)",
                        kind, where, first_thread, first.atomic ? "updated (atomic)" : first_write ? "wrote" : "read",
                        first_site, second_thread, a.size, second_verb, second_site, between,
                        first_write ? "Write" : "Read", first_site, a.write ? "Write" : "Read", second_site);
}

/* ---- warp-synchronous code on volatile memory: a warning ------------------
 * compute-sanitizer's racecheck rates a hazard between lanes of a warp that
 * assume they proceed together ("warp level programming") a WARNING, not
 * an ERROR. On volatile memory the emulator runs such code as a converged
 * warp does (the lanes take each volatile access in turn, engine/lockstep_hooks.cpp),
 * so the results are a GPU's and the launch goes on. Per kernel (by name),
 * the first launch that has such hazards describes its first one in full
 * on stderr and ends with a count (launch_end); later launches of that
 * kernel say nothing: a reduction called in a loop would repeat itself. */
std::mutex warned_lock; /* guards the two lists */
std::vector<std::pair<const void *, const void *>> &warned_pairs()
{
    static auto *pairs = new std::vector<std::pair<const void *, const void *>>();
    return *pairs;
}
std::vector<std::string> &kernels_told()
{
    static auto *names = new std::vector<std::string>();
    return *names;
}
std::atomic<unsigned long> warnings_this_launch{0}, pairs_this_launch{0};
std::atomic<bool> told_this_launch{false}; /* this launch described its first hazard */
/* Per worker: the pairs of sites it knows were counted already (no lock). */
constexpr unsigned known_pairs = 16;
__thread const void *known_first[known_pairs], *known_second[known_pairs];
__thread unsigned known_next;

void warn(const char *kind, const record &first, bool first_write, const profile::shared_access &a)
{
    warnings_this_launch.fetch_add(1, std::memory_order_relaxed);
    for (unsigned k = 0; k < known_pairs; k++)
        if (known_first[k] == first.pc && known_second[k] == a.pc)
            return;
    known_first[known_next % known_pairs] = first.pc;
    known_second[known_next % known_pairs] = a.pc;
    known_next++;
    engine::worker *const w = engine::this_worker();
    {
        std::lock_guard<std::mutex> lock(warned_lock);
        for (const auto &p : warned_pairs())
            if (p.first == first.pc && p.second == a.pc)
                return;
        warned_pairs().emplace_back(first.pc, a.pc);
        pairs_this_launch.fetch_add(1, std::memory_order_relaxed);
        const char *kernel = w->grid->site.kernel ? w->grid->site.kernel : "?";
        for (const std::string &k : kernels_told())
            if (k == kernel)
                return;
        if (told_this_launch.exchange(true))
            return;
    }
    static thread_local char first_thread[48], second_thread[48], first_site[checkers::site_text_capacity],
        second_site[checkers::site_text_capacity], where[checkers::site_text_capacity + 200];
    thread_text(first.tid, first_thread, sizeof first_thread);
    thread_text(a.tid, second_thread, sizeof second_thread);
    site_text(first.pc, first_site, sizeof first_site);
    site_text(a.pc, second_site, sizeof second_site);
    where_text(w, a, where, sizeof where);
    std::fprintf(stderr,
                 "simtlab-emu: kernel %s (launched at %s:%d), block (%u,%u,%u): racecheck WARNING: %s hazard "
                 "between lanes of warp %u on volatile shared memory, %s: thread %s %s it at %s, then thread %s did a "
                 "%u-byte %s of it at %s, with no __syncwarp() between them. %s. This run goes on with a GPU's "
                 "result (the lanes take each volatile access in turn, as a converged warp does). Race reported "
                 "between %s access at %s and %s access at %s, as compute-sanitizer --tool racecheck reports "
                 "warp-level programming: a warning, not an error.\n",
                 w->grid->site.kernel, w->grid->site.file, w->grid->site.line, block_idx.x, block_idx.y, block_idx.z,
                 kind, a.tid / engine::warp_size, where, first_thread, first_write ? "wrote" : "read", first_site,
                 second_thread, a.size, a.write ? "write" : "read", second_site, warp_sync_advice,
                 first_write ? "Write" : "Read", first_site, a.write ? "Write" : "Read", second_site);
}

/* A hazard between `first` and the access `a`: the launch fails, unless
 * both are volatile accesses of lanes of one warp (a warning). */
void hazard(const char *kind, const record &first, bool first_write, const profile::shared_access &a)
{
    if (first.is_volatile && (a.flags & profile::access_volatile) &&
        first.tid / engine::warp_size == a.tid / engine::warp_size)
        warn(kind, first, first_write, a);
    else
        report(kind, first, first_write, a);
}

} /* namespace */

void launch_begin()
{
    warnings_this_launch.store(0, std::memory_order_relaxed);
    pairs_this_launch.store(0, std::memory_order_relaxed);
    told_this_launch.store(false, std::memory_order_relaxed);
}

/* As compute-sanitizer's "RACECHECK SUMMARY", for the warnings alone (an
 * error fails the launch and says so itself): once per kernel. */
void launch_end(const char *kernel, const char *file, int line)
{
    const unsigned long n = warnings_this_launch.exchange(0, std::memory_order_relaxed);
    if (!n || !told_this_launch.load(std::memory_order_relaxed))
        return;
    {
        std::lock_guard<std::mutex> lock(warned_lock);
        kernels_told().emplace_back(kernel ? kernel : "?");
    }
    const unsigned long pairs = pairs_this_launch.load(std::memory_order_relaxed);
    std::fprintf(stderr,
                 "simtlab-emu: racecheck: kernel %s (launched at %s:%d): %lu warp-synchronous hazard%s on volatile "
                 "shared memory, at %lu pair%s of lines (warnings; the first is described above). The launch "
                 "succeeded; later launches of this kernel are not reported again.\n",
                 kernel ? kernel : "?", file ? file : "?", line, n, n == 1 ? "" : "s", pairs, pairs == 1 ? "" : "s");
}

void block_begin(unsigned nthreads)
{
    (void)nthreads;
    engine::worker *const w = engine::this_worker();
    if (!mine)
        mine = new state();
    state &s = *mine;
    const std::size_t nwords = (w->shared_capacity + 3) / 4;
    if (s.words.size() < nwords)
        s.words.resize(nwords, word_state{});
    s.pending.clear();
    barrier();
}

void barrier()
{
    state &s = *mine;
    if (!s.pending.empty())
        settle(s, ~0u);
    if (++s.interval == 0) { /* wrapped: forget every record */
        std::fill(s.words.begin(), s.words.end(), word_state{});
        std::memset(s.stamp, 0, sizeof s.stamp);
        s.interval = 1;
    }
}

void warp_sync(unsigned warp, unsigned mask)
{
    state &s = *mine;
    if (!s.pending.empty())
        settle(s, ~0u);
    std::uint32_t joined[engine::warp_size] = {};
    const unsigned first = warp * engine::warp_size;
    for (unsigned lane = 0; lane < engine::warp_size; lane++) {
        if (!(mask >> lane & 1u))
            continue;
        const std::uint32_t *row = clocks_of(s, first + lane);
        for (unsigned k = 0; k < engine::warp_size; k++)
            joined[k] = joined[k] > row[k] ? joined[k] : row[k];
    }
    for (unsigned lane = 0; lane < engine::warp_size; lane++) {
        if (!(mask >> lane & 1u))
            continue;
        std::uint32_t *row = s.clocks[first + lane];
        std::memcpy(row, joined, sizeof joined);
        row[lane]++;
    }
}

namespace {

void check_and_record(state &s, const profile::shared_access &a)
{
    const unsigned t = a.tid;
    const std::size_t size = a.size ? a.size : 1;
    const std::size_t first = a.offset / 4, last = (a.offset + size - 1) / 4;
    if (last >= s.words.size())
        return; /* outside the arena: memcheck's */
    const bool write = a.write || a.atomic;
    for (std::size_t i = first; i <= last; i++) {
        word_state &ws = s.words[i];
        const std::size_t lo = i * 4 < a.offset ? a.offset - i * 4 : 0;
        const std::size_t hi = (i + 1) * 4 > a.offset + size ? a.offset + size - i * 4 : 4;
        const unsigned mask = ((1u << hi) - 1) & ~((1u << lo) - 1);
        if (conflicts(s, ws.write, t, mask, a.atomic, a.pc))
            hazard(write ? "WAW" : "RAW", ws.write, true, a);
        if (write) {
            if (conflicts(s, ws.read1, t, mask, a.atomic, a.pc))
                hazard("WAR", ws.read1, false, a);
            if (conflicts(s, ws.read2, t, mask, a.atomic, a.pc))
                hazard("WAR", ws.read2, false, a);
        }
        record now{a.pc, s.interval, own_clock(s, t), static_cast<std::uint16_t>(t),
                   static_cast<std::uint8_t>(mask), 0, 0};
        now.atomic = a.atomic;
        now.is_volatile = (a.flags & profile::access_volatile) != 0;
        if (write) {
            ws.write = now;
            ws.read1.interval = ws.read2.interval = 0;
        } else if (ws.read1.interval != s.interval || ws.read1.tid == t) {
            ws.read1 = now;
        } else if (ws.read2.interval != s.interval || ws.read2.tid == t) {
            ws.read2 = now;
        }
        /* a third reader is not kept: any later write by another thread
         * still conflicts with read1 or read2, which are two threads */
    }
}

/* Checks the pending loads of every thread but `running` (~0u: of all):
 * bytes that changed since were stored by the thread that loaded them. */
void settle(state &s, unsigned running)
{
    pending_read stored[64];
    std::size_t nstored = 0, kept = 0;
    for (const pending_read &p : s.pending) {
        if (p.tid == running)
            s.pending[kept++] = p;
        else if (std::memcmp(reinterpret_cast<const void *>(p.addr), p.bytes, p.size) != 0 && nstored < 64)
            stored[nstored++] = p;
    }
    s.pending.resize(kept);
    for (std::size_t k = 0; k < nstored; k++) {
        const pending_read &p = stored[k];
        check_and_record(s, profile::shared_access{0, p.tid, p.addr, p.offset, p.size, true, false, p.pc});
    }
}

} /* namespace */

void basic_block()
{
    if (mine && !mine->pending.empty())
        settle(*mine, ~0u);
}

void access(const profile::shared_access &a)
{
    state &s = *mine;
    /* Not a scan per access: a fully unrolled tile loop keeps dozens of one
     * thread's loads pending in one basic block (64 in a 32-wide matrix
     * tile), and scanning them at each of its accesses made the checked
     * build of a tiled matrix product some 170x slower than --fast. */
    if (!s.pending.empty() && s.pending.front().tid != a.tid)
        settle(s, a.tid);
    check_and_record(s, a);
    /* A file whose every store calls a hook (access_exact) needs no pending
     * loads; under lock step they would even take another lane's store
     * between a load's hook and the load for this thread's. */
    if (!a.write && !a.atomic && !(a.flags & profile::access_exact) && a.size <= sizeof(pending_read::bytes)) {
        /* Filled in place: a copy built on the stack and pushed would
         * reload its bytes as 16 just after storing 4 (a store-forwarding
         * stall per load). */
        pending_read &p = s.pending.emplace_back();
        p.pc = a.pc;
        p.addr = a.addr;
        p.offset = a.offset;
        p.size = a.size;
        p.tid = a.tid;
        std::memcpy(p.bytes, reinterpret_cast<const void *>(a.addr), a.size);
        profile::settle_at_next_block();
    }
}

} /* namespace race */
} /* namespace checkers */
} /* namespace simtlab_emu */
