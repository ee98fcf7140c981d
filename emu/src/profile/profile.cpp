/* simtlab CPU emulator — the SIMT counters: per-worker recording state, the
 * analysis that turns each warp's lane-by-lane events into warp-level
 * requests, launch bookkeeping, and the C API of <simtlab_emu/profile.h>.
 * The hooks that instrumented kernels call are profile/hooks.cpp; tables
 * and CSV are profile/report.cpp; emu/docs/profile.md ("SIMT counters") states the
 * model.
 *
 * Forming warp-level requests. The lanes of a warp run one after another
 * (a lane runs until it waits at a barrier or a warp operation), so there
 * is no moment at which "the warp" executes an instruction. Instead, each
 * lane's events are kept in order, and when every thread of the block has
 * reached the same barrier round (or exited), each warp's lanes are
 * matched: the k-th time a lane reaches a site (a basic block, or one load
 * or store instruction) it joins the k-th warp-level execution of that
 * site. For the course's structured kernels this is where a SIMT machine
 * reconverges: two lanes that ran a loop body 3 and 5 times share the first
 * 3 executions, and the last 2 have one lane. */
#include "checks/checkers.hpp"
#include "profile/model.hpp"
#include "profile/state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
extern __thread long simtlab_emu_spin_countdown; /* the trace-pc hook's (engine/block.cpp) */
extern __thread long simtlab_emu_spin_reload;
extern __thread long simtlab_emu_spin_left;
}

namespace simtlab_emu {
namespace profile {

bool launch_observed = false;
__thread worker_state *active = nullptr;
__thread worker_state *quieted = nullptr;

namespace {

/* This OS thread's state (a worker's), made the first time it runs a block
 * of an observed launch, and never freed: workers live as long as the
 * process. */
__thread worker_state *mine = nullptr;

std::mutex states_lock;
std::vector<worker_state *> &all_states()
{
    static auto *states = new std::vector<worker_state *>();
    return *states;
}

/* Sites: one per distinct return address of a hook. */
std::mutex sites_lock;
std::unordered_map<std::uintptr_t, std::uint32_t> &site_index()
{
    static auto *index = new std::unordered_map<std::uintptr_t, std::uint32_t>();
    return *index;
}
std::vector<std::uintptr_t> &site_pcs()
{
    static auto *pcs = new std::vector<std::uintptr_t>();
    return *pcs;
}
std::atomic<std::uint32_t> nsites{0};

/* The current launch. */
bool collecting = false;
bool launch_cooperative = false; /* the current launch is cooperative (for the timing model) */
bool whole_run = false; /* profiled because of the variable or a --profile build */
std::vector<range> device_ranges;
bool have_observer = false;
observer the_observer;

/* Switches. */
std::atomic<int> instrumented_units{0}; /* for the checks, the counters or both */
std::atomic<int> counter_units{0};      /* with trace-pc: the counters can run */
std::atomic<bool> default_on{false};
std::atomic<int> api_depth{0};
/* The sum of every launch profiled since the outermost simtlab_emu_profile_begin
 * (simtlab_emu_profile_window): a host call that launches several kernels
 * (a reduction's passes) is described by the total, not by its last pass. */
simtlab_emu_profile_figures window;
bool have_window = false;

void add_figures(simtlab_emu_profile_figures &to, const simtlab_emu_profile_figures &f)
{
    if (!have_window) {
        to = f;
        have_window = true;
        return;
    }
    to.blocks += f.blocks, to.threads += f.threads, to.warps += f.warps;
    to.complete = to.complete && f.complete;
    to.inst_executed += f.inst_executed, to.thread_inst_executed += f.thread_inst_executed;
    to.branches_diverged += f.branches_diverged;
    to.gld_requests += f.gld_requests, to.gld_sectors += f.gld_sectors;
    to.gld_sectors_ideal += f.gld_sectors_ideal;
    to.gst_requests += f.gst_requests, to.gst_sectors += f.gst_sectors;
    to.gst_sectors_ideal += f.gst_sectors_ideal;
    to.shld_requests += f.shld_requests, to.shld_wavefronts += f.shld_wavefronts;
    to.shld_bank_conflicts += f.shld_bank_conflicts;
    to.shst_requests += f.shst_requests, to.shst_wavefronts += f.shst_wavefronts;
    to.shst_bank_conflicts += f.shst_bank_conflicts;
    to.global_atomics += f.global_atomics, to.shared_atomics += f.shared_atomics;
    to.atomic_lanes += f.atomic_lanes, to.barriers += f.barriers;
    to.thread_inst_per_inst =
        to.inst_executed ? (double)to.thread_inst_executed / (double)to.inst_executed : 0.0;
    to.simt_efficiency = to.thread_inst_per_inst / 32.0;
    std::snprintf(to.kernel, sizeof to.kernel, "%s", "(several kernels)");
}

/* The last profiled launch. */
launch_result last;
bool have_last = false;
std::vector<simtlab_emu_profile_line> last_lines;
bool last_lines_ready = false;
const char *why_none = "no launch has been profiled yet";

constexpr std::uint32_t end_of_segment = ~0u;

worker_state *state_for_this_thread()
{
    if (mine)
        return mine;
    auto *s = new worker_state();
    s->lanes = new std::vector<event>[engine::max_block_threads];
    std::fill(std::begin(s->cache_pc), std::end(s->cache_pc), ~std::uintptr_t{0});
    std::lock_guard<std::mutex> lock(states_lock);
    all_states().push_back(s);
    mine = s;
    return s;
}

/* ---- the analysis of one warp's segment ------------------------------------ */

inline std::uint32_t vsite(std::uint32_t site, std::uint8_t kind)
{
    return site * ev_kinds + kind;
}

void link(worker_state &s, std::uint32_t from, std::uint32_t to_plus_one)
{
    worker_state::slot &x = s.slots[from];
    if (x.next == 0)
        x.next = to_plus_one;
    else if (x.next != to_plus_one)
        x.diverged = true;
}

/* 32-byte sectors and the ideal count for the distinct bytes the lanes of
 * one global request touched. */
void global_sectors(worker_state &s, const worker_state::slot &sl, std::uint64_t *sectors, std::uint64_t *ideal)
{
    std::vector<std::uint64_t> &found = s.scratch; /* sector << 32 | byte mask */
    found.clear();
    for (std::uint32_t m = sl.first; m != ~0u; m = s.members[m].next) {
        const worker_state::member &mb = s.members[m];
        const std::uintptr_t begin = mb.addr, end = mb.addr + (mb.size ? mb.size : 1);
        for (std::uintptr_t sec = begin >> 5; sec <= (end - 1) >> 5; sec++) {
            const std::uintptr_t lo = std::max(begin, sec << 5) - (sec << 5);
            const std::uintptr_t hi = std::min(end, (sec + 1) << 5) - (sec << 5);
            const std::uint32_t mask = static_cast<std::uint32_t>(
                (hi - lo == 32 ? ~0ULL : ((1ULL << (hi - lo)) - 1)) << lo);
            bool merged = false;
            for (std::uint64_t &f : found)
                if ((f >> 32) == (sec & 0xFFFFFFFFu)) {
                    f |= mask;
                    merged = true;
                    break;
                }
            if (!merged) {
                found.push_back(static_cast<std::uint64_t>(sec & 0xFFFFFFFFu) << 32 | mask);
                footprint_mark(sec, sl.kind == ev_gst); /* the timing model's L2 footprint */
            }
        }
    }
    std::uint64_t bytes = 0;
    for (std::uint64_t f : found)
        bytes += static_cast<unsigned>(__builtin_popcount(static_cast<std::uint32_t>(f)));
    *sectors = found.size();
    *ideal = (bytes + 31) / 32;
}

/* Wavefronts of one shared request: per phase (the whole warp for 4-byte
 * accesses, half-warps for 8, quarter-warps for 16 and more), as many as
 * the most distinct 4-byte words that lanes of the phase touch in one bank;
 * the ideal is one per phase with an active lane. */
void shared_wavefronts(worker_state &s, const worker_state::slot &sl, std::uint64_t *wavefronts, std::uint64_t *ideal)
{
    std::vector<std::uint64_t> &words = s.scratch; /* phase << 40 | word index in the arena */
    words.clear();
    for (std::uint32_t m = sl.first; m != ~0u; m = s.members[m].next) {
        const worker_state::member &mb = s.members[m];
        const unsigned size = mb.size ? mb.size : 1;
        const unsigned phase = size <= 4 ? 0 : size <= 8 ? mb.lane / 16 : mb.lane / 8;
        const std::uint64_t first = (mb.addr - s.shared_lo) >> 2, last = (mb.addr + size - 1 - s.shared_lo) >> 2;
        for (std::uint64_t w = first; w <= last; w++)
            words.push_back(static_cast<std::uint64_t>(phase) << 40 | w);
    }
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    unsigned per_bank[4][32] = {};
    bool phase_used[4] = {};
    for (std::uint64_t w : words) {
        const unsigned phase = static_cast<unsigned>(w >> 40);
        per_bank[phase][w & 31]++;
        phase_used[phase] = true;
    }
    std::uint64_t total = 0, phases = 0;
    for (unsigned p = 0; p < 4; p++) {
        if (!phase_used[p])
            continue;
        phases++;
        total += *std::max_element(per_bank[p], per_bank[p] + 32);
    }
    *wavefronts = total;
    *ideal = phases;
}

void analyse_warp(worker_state &s, unsigned first_tid, unsigned count, std::uint32_t nvsites)
{
    s.slots.clear();
    s.members.clear();
    for (unsigned lane = 0; lane < count; lane++) {
        const std::vector<event> &events = s.lanes[first_tid + lane];
        if (events.empty())
            continue;
        std::uint32_t prev_block = ~0u;
        for (const event &e : events) {
            if (e.kind == ev_end)
                break;
            const std::uint32_t v = vsite(e.site, e.kind);
            if (v >= nvsites)
                continue; /* cannot happen: sites only grow */
            const std::uint32_t k = s.seen[v]++;
            if (k == 0)
                s.lane_touched.push_back(v);
            std::vector<std::uint32_t> &occ = s.occ[v];
            std::uint32_t slot;
            if (k < occ.size()) {
                slot = occ[k];
            } else {
                if (occ.empty())
                    s.touched_sites.push_back(v);
                slot = static_cast<std::uint32_t>(s.slots.size());
                s.slots.push_back(worker_state::slot{v, e.kind, false, 0, 0, ~0u, ~0u});
                occ.push_back(slot);
            }
            worker_state::slot &sl = s.slots[slot];
            sl.lanes++;
            if (e.kind == ev_block) {
                if (prev_block != ~0u)
                    link(s, prev_block, slot + 1);
                prev_block = slot;
            } else {
                const std::uint32_t m = static_cast<std::uint32_t>(s.members.size());
                s.members.push_back(worker_state::member{e.addr, ~0u, e.size, static_cast<std::uint8_t>(lane)});
                if (sl.first == ~0u)
                    sl.first = m;
                else
                    s.members[sl.last].next = m;
                sl.last = m;
            }
        }
        if (prev_block != ~0u)
            link(s, prev_block, end_of_segment);
        for (std::uint32_t v : s.lane_touched)
            s.seen[v] = 0;
        s.lane_touched.clear();
    }
    bool global_load = false; /* this barrier interval of the warp loads from global memory */
    for (const worker_state::slot &sl : s.slots) {
        global_load = global_load || sl.kind == ev_gld || sl.kind == ev_gatom;
        site_counts &c = s.counts[sl.site];
        c.issues++;
        c.lanes += sl.lanes;
        std::uint64_t units = 0, ideal = 0;
        switch (sl.kind) {
        case ev_block: c.diverged += sl.diverged; break;
        case ev_gld:
        case ev_gst: global_sectors(s, sl, &units, &ideal); break;
        case ev_sld:
        case ev_sst: shared_wavefronts(s, sl, &units, &ideal); break;
        default: break;
        }
        c.units += units;
        c.ideal += ideal;
    }
    s.load_phases += global_load;
    for (std::uint32_t v : s.touched_sites)
        s.occ[v].clear();
    s.touched_sites.clear();
}

/* Every thread of the worker's block is at the same barrier round or has
 * exited: match each warp's lanes, then forget their events. */
void flush(worker_state &s)
{
    const std::uint32_t nv = nsites.load(std::memory_order_acquire) * ev_kinds;
    if (s.occ.size() < nv) {
        s.occ.resize(nv);
        s.seen.resize(nv, 0);
    }
    if (s.counts.size() < nv)
        s.counts.resize(nv, site_counts{});
    for (unsigned first = 0; first < s.nthreads; first += 32) {
        const unsigned count = std::min(32u, s.nthreads - first);
        bool any = false;
        for (unsigned lane = 0; lane < count && !any; lane++)
            any = !s.lanes[first + lane].empty();
        if (!any)
            continue;
        analyse_warp(s, first, count, nv);
        for (unsigned lane = 0; lane < count; lane++)
            s.lanes[first + lane].clear();
    }
}

/* Every count of a sampled launch times the grid's blocks over those run. */
void scale_figures(launch_result &r, double k)
{
    auto sc = [k](unsigned long long &v) { v = static_cast<unsigned long long>(std::llround(static_cast<double>(v) * k)); };
    simtlab_emu_profile_figures &f = r.fig;
    for (unsigned long long *v : {&f.blocks, &f.threads, &f.warps, &f.inst_executed, &f.thread_inst_executed,
                                  &f.branches_diverged, &f.gld_requests, &f.gld_sectors, &f.gld_sectors_ideal,
                                  &f.gst_requests, &f.gst_sectors, &f.gst_sectors_ideal, &f.shld_requests,
                                  &f.shld_wavefronts, &f.shld_bank_conflicts, &f.shst_requests, &f.shst_wavefronts,
                                  &f.shst_bank_conflicts, &f.global_atomics, &f.shared_atomics, &f.atomic_lanes,
                                  &f.barriers})
        sc(*v);
    for (site_result &sr : r.sites)
        for (std::uint64_t *v : {&sr.c.issues, &sr.c.lanes, &sr.c.units, &sr.c.ideal, &sr.c.diverged})
            *v = static_cast<std::uint64_t>(std::llround(static_cast<double>(*v) * k));
}

void discard(worker_state &s)
{
    for (unsigned tid = 0; tid < s.nthreads; tid++)
        s.lanes[tid].clear();
}

/* The live device allocations, sorted, for the hooks' "is this global?". */
void snapshot_device_ranges()
{
    device_ranges.clear();
    engine::services.for_each_allocation( /* engine/services.hpp */
        [](const allocation &a, void *) { device_ranges.push_back(range{a.base, a.base + a.size}); }, nullptr);
}

} /* namespace */

/* ---- used by the hooks ------------------------------------------------------- */

void tile_access(std::uintptr_t addr, std::size_t size, bool store, const void *pc)
{
    worker_state *const s = active;
    if (!s || !s->collect || size == 0)
        return;
    const int space = classify(*s, addr);
    if (space != 1 && space != 2)
        return;
    const std::uint8_t kind = space == 1 ? (store ? ev_sst : ev_sld) : (store ? ev_gst : ev_gld);
    s->lanes[detail::current_worker->cur_tid].push_back(
        event{addr, site_of(*s, reinterpret_cast<std::uintptr_t>(pc)),
              static_cast<std::uint16_t>(size > 0xFFFF ? 0xFFFF : size), kind, 0});
}

std::uint32_t site_slow(worker_state &s, std::uintptr_t pc, unsigned slot)
{
    std::uint32_t id;
    {
        std::lock_guard<std::mutex> lock(sites_lock);
        auto found = site_index().find(pc);
        if (found != site_index().end()) {
            id = found->second;
        } else {
            id = static_cast<std::uint32_t>(site_pcs().size());
            site_pcs().push_back(pc);
            site_index().emplace(pc, id);
            nsites.store(id + 1, std::memory_order_release);
        }
    }
    s.cache_pc[slot] = pc;
    s.cache_site[slot] = id;
    return id;
}

std::uintptr_t site_pc(std::uint32_t site)
{
    std::lock_guard<std::mutex> lock(sites_lock);
    return site < site_pcs().size() ? site_pcs()[site] : 0;
}

int classify_slow(worker_state &s, std::uintptr_t addr)
{
    if (addr - s.below_lo < s.shared_lo - s.below_lo)
        return 3;
    auto after = std::upper_bound(device_ranges.begin(), device_ranges.end(), addr,
                                  [](std::uintptr_t a, const range &r) { return a < r.lo; });
    if (after == device_ranges.begin())
        return 0;
    const range &r = *(after - 1);
    if (addr >= r.hi)
        return 0;
    s.glo = r.lo;
    s.ghi = r.hi;
    return 2;
}

void add_site(simtlab_emu_profile_figures &f, std::uint8_t kind, const site_counts &c)
{
    add_block_and_memory(f, kind, c);
    if (kind == ev_gatom)
        f.global_atomics += c.issues;
    if (kind == ev_satom)
        f.shared_atomics += c.issues;
    if (kind == ev_gatom || kind == ev_satom)
        f.atomic_lanes += c.lanes;
    f.thread_inst_per_inst = f.inst_executed ? static_cast<double>(f.thread_inst_executed) / f.inst_executed : 0.0;
    f.simt_efficiency = f.thread_inst_per_inst / 32.0;
}

/* ---- what the engine calls ------------------------------------------------------ */

void launch_begin(const engine::grid_job &job)
{
    const int env = env_setting();
    const bool built = counter_units.load() > 0;
    const bool wanted = api_depth.load() > 0 || env == 1 || (env == -1 && default_on.load());
    if (wanted && !built) {
        why_none = instrumented_units.load() > 0
                       ? "the kernels were compiled with the checks but not for profiling (the counters need "
                         "trace-pc at every basic block): build them with `slcc --profile`, or configure CMake "
                         "with -DSIMTLAB_EMU_PROFILE=ON"
                       : "the kernels were not compiled for profiling: build them with `slcc --profile`, "
                         "or configure CMake with -DSIMTLAB_EMU_PROFILE=ON";
        static std::atomic<bool> told{false};
        if (env == 1 && !told.exchange(true))
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_PROFILE=1, but %s\n", why_none);
    }
    checkers::before_launch(); /* the race and memory checkers install their observer, or remove it */
    collecting = wanted && built;
    whole_run = env == 1 || (env == -1 && default_on.load());
    launch_observed = collecting || have_observer;
    launch_cooperative = job.coop != nullptr; /* gone by launch_end (engine/cooperative.cpp) */
    if (!launch_observed)
        return;
    snapshot_device_ranges();
    if (collecting) { /* the timing model's footprint (profile/model_sample.cpp) */
        std::vector<std::uintptr_t> lo, hi;
        for (const range &r : device_ranges)
            lo.push_back(r.lo), hi.push_back(r.hi);
        footprint_begin(lo, hi);
    }
    std::lock_guard<std::mutex> lock(states_lock);
    for (worker_state *s : all_states()) {
        std::fill(s->counts.begin(), s->counts.end(), site_counts{});
        s->blocks = s->threads = s->warps = s->barriers = s->load_phases = 0;
        s->static_shared = 0;
        s->failed = false;
    }
    if (have_observer && the_observer.launch_begin)
        the_observer.launch_begin(job, the_observer.ctx);
}

void block_begin(engine::worker *w, std::uint64_t block_linear)
{
    worker_state *const s = state_for_this_thread();
    const unsigned n = w->blk->n;
    s->collect = collecting;
    s->settle = false;
    s->obs = have_observer ? &the_observer : nullptr;
    s->block = block_linear;
    s->nthreads = n;
    s->shared_lo = reinterpret_cast<std::uintptr_t>(w->shared_arena);
    s->shared_bytes = w->shared_capacity;
    /* the arena's lower guard and the slack before it (engine/shared.cpp): an
     * index before the start of the block's first __shared__ variable */
    s->below_lo = s->shared_lo - (std::uintptr_t{1} << 20);
    s->glo = s->ghi = 0;
    s->blocks++;
    s->threads += n;
    s->warps += (n + 31) / 32;
    if (s->obs && s->obs->block_begin)
        s->obs->block_begin(block_linear, n, s->obs->ctx);
    quieted = nullptr;
    active = s;
    /* The counters: the hook's slow path at every basic block
     * (profile/hooks.cpp). The checks alone need no basic blocks: the hook
     * keeps its fast path (racecheck settles a thread's pending loads when
     * another thread accesses shared memory, or at a barrier). */
    if (collecting) {
        simtlab_emu_spin_left = detail::spin_watch_period;
        simtlab_emu_spin_reload = -(1L << 62);
        simtlab_emu_spin_countdown = -(1L << 62);
    }
}

void block_end(engine::worker *w)
{
    worker_state *const s = mine;
    active = nullptr;
    quieted = nullptr;
    simtlab_emu_spin_reload = detail::spin_watch_period;
    simtlab_emu_spin_countdown = detail::spin_watch_period;
    if (!s)
        return;
    {   /* the block's static shared memory, for the timing model's occupancy */
        const std::size_t dyn = (w->grid->dynamic_bytes + 15) & ~std::size_t{15};
        if (w->blk->shared_used > dyn)
            s->static_shared = std::max(s->static_shared, w->blk->shared_used - dyn);
    }
    if (w->failed) {
        s->failed = true;
        discard(*s);
    } else if (s->collect) {
        flush(*s);
    }
    if (s->obs && s->obs->block_end)
        s->obs->block_end(s->block, w->failed, s->obs->ctx);
}

void barrier_released(engine::worker *)
{
    worker_state *const s = active; /* null in blocks run without block_begin (cooperative launches) */
    if (!s)
        return;
    s->barriers++;
    if (s->collect)
        flush(*s);
    if (s->obs && s->obs->barrier)
        s->obs->barrier(s->block, s->obs->ctx);
}

void warp_synced(engine::worker *, unsigned warp, unsigned mask)
{
    worker_state *const s = static_cast<worker_state *>(active);
    if (s && s->obs && s->obs->warp_sync)
        s->obs->warp_sync(s->block, warp, mask, s->obs->ctx);
}

quiet_scope::quiet_scope() : saved(active)
{
    active = nullptr;
}
quiet_scope::~quiet_scope()
{
    active = static_cast<worker_state *>(saved);
}

void launch_end(const engine::grid_job &job, cudaError_t result)
{
    if (!launch_observed)
        return;
    launch_observed = false;
    if (have_observer && the_observer.launch_end)
        the_observer.launch_end(job, the_observer.ctx);
    if (!collecting)
        return;
    collecting = false;
    launch_result r{};
    std::snprintf(r.fig.kernel, sizeof r.fig.kernel, "%s", job.site.kernel ? job.site.kernel : "?");
    std::snprintf(r.fig.launch_file, sizeof r.fig.launch_file, "%s", job.site.file ? job.site.file : "?");
    r.fig.launch_line = job.site.line;
    r.fig.complete = result == cudaSuccess;
    std::vector<site_counts> sum;
    std::size_t static_shared = 0;
    std::uint64_t load_phases = 0;
    {
        std::lock_guard<std::mutex> lock(states_lock);
        for (worker_state *s : all_states()) {
            static_shared = std::max(static_shared, s->static_shared);
            r.fig.blocks += s->blocks;
            r.fig.threads += s->threads;
            r.fig.warps += s->warps;
            r.fig.barriers += s->barriers;
            load_phases += s->load_phases;
            if (s->failed)
                r.fig.complete = 0;
            if (sum.size() < s->counts.size())
                sum.resize(s->counts.size(), site_counts{});
            for (std::size_t v = 0; v < s->counts.size(); v++) {
                const site_counts &c = s->counts[v];
                site_counts &t = sum[v];
                t.issues += c.issues;
                t.lanes += c.lanes;
                t.units += c.units;
                t.ideal += c.ideal;
                t.diverged += c.diverged;
            }
        }
    }
    for (std::size_t v = 0; v < sum.size(); v++) {
        if (!sum[v].issues)
            continue;
        const auto kind = static_cast<std::uint8_t>(v % ev_kinds);
        r.sites.push_back(site_result{static_cast<std::uint32_t>(v / ev_kinds), kind, sum[v]});
        add_site(r.fig, kind, sum[v]);
    }
    /* A sampled launch (SIMTLAB_EMU_SAMPLE_BLOCKS) ran some of its blocks:
     * its counts stand for the whole grid. */
    const double scale = sample_scale();
    if (scale != 1.0)
        scale_figures(r, scale);
    {
        launch_inputs in{};
        in.grid = job.grid;
        in.block = job.block;
        in.dynamic_shared = job.dynamic_bytes;
        in.static_shared = static_shared;
        in.cooperative = launch_cooperative;
        in.device_launch = job.depth > 0 || !job.children.empty() || !job.tails.empty();
        in.scale = scale;
        std::uint64_t ld = 0, st = 0;
        footprint_counts(&ld, &st);
        in.unique_ld_sectors = static_cast<std::uint64_t>(std::llround(static_cast<double>(ld) * scale));
        in.unique_st_sectors = static_cast<std::uint64_t>(std::llround(static_cast<double>(st) * scale));
        in.load_phases = static_cast<std::uint64_t>(std::llround(static_cast<double>(load_phases) * scale));
        model_launch(r, in, api_depth.load() > 0); /* may drop diverged counts of predicated lines */
    }
    last = r;
    have_last = true;
    if (api_depth.load() > 0)
        add_figures(window, r.fig);
    last_lines_ready = false;
    why_none = "";
    report_launch(last, whole_run);
}

/* ---- for other checkers ---------------------------------------------------------- */

void set_observer(const observer *o)
{
    have_observer = o != nullptr;
    if (o)
        the_observer = *o;
}

void settle_at_next_block()
{
    if (active && active->obs && active->obs->basic_block)
        active->settle = true;
}

bool instrumented()
{
    return instrumented_units.load() > 0;
}

bool counters_built()
{
    return counter_units.load() > 0;
}

} /* namespace profile */
} /* namespace simtlab_emu */

using namespace simtlab_emu::profile;

extern "C" {

int simtlab_emu_profile_register_tu(int level)
{
    instrumented_units.fetch_add(1);
    if (level >= 1)
        counter_units.fetch_add(1);
    if (level >= 2)
        default_on.store(true);
    return 0;
}

int simtlab_emu_profile_available(void)
{
    return counters_built() ? 1 : 0;
}

void simtlab_emu_profile_begin(void)
{
    if (api_depth.fetch_add(1) == 0) {
        have_window = false;
        model_window_reset();
    }
}

void simtlab_emu_profile_end(void)
{
    int depth = api_depth.load();
    while (depth > 0 && !api_depth.compare_exchange_weak(depth, depth - 1)) {
    }
}

int simtlab_emu_profile_last(simtlab_emu_profile_figures *out)
{
    if (!out || !have_last)
        return 1;
    *out = last.fig;
    return 0;
}

int simtlab_emu_profile_window(simtlab_emu_profile_figures *out)
{
    if (!out || !have_window)
        return 1;
    *out = window;
    return 0;
}

size_t simtlab_emu_profile_last_nlines(void)
{
    if (!have_last)
        return 0;
    if (!last_lines_ready) {
        last_lines = lines_of(last);
        last_lines_ready = true;
    }
    return last_lines.size();
}

int simtlab_emu_profile_last_line(size_t i, simtlab_emu_profile_line *out)
{
    if (!out || i >= simtlab_emu_profile_last_nlines())
        return 1;
    *out = last_lines[i];
    return 0;
}

void simtlab_emu_profile_print_last(size_t max_lines)
{
    if (!have_last) {
        std::fprintf(stderr, "simtlab-emu profile: nothing to print: %s\n", why_none);
        return;
    }
    print_table(last, max_lines, "last launch");
}

const char *simtlab_emu_profile_why(void)
{
    return have_last ? "" : why_none;
}

} /* extern "C" */
