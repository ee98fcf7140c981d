/* simtlab CPU emulator — the SIMT counters' own data: what the hooks
 * (profile/hooks.cpp) record per worker, what the analysis (profile/profile.cpp)
 * makes of it, and what the reports (profile/report.cpp) print.
 *
 * Recording: each hook appends one 16-byte event to the running CUDA
 * thread's list (threads of a block run one after another on a worker, so
 * the lists fill one thread at a time). Analysis, when a block's threads
 * have all reached a barrier round or exited: per warp, the k-th event of
 * a lane at a site joins the k-th "slot" of that site, which stands for one
 * warp-level execution of that instruction (or basic block), with the lanes
 * that took it. */
#ifndef SIMTLAB_EMU_PROFILE_STATE_HPP
#define SIMTLAB_EMU_PROFILE_STATE_HPP

#include "profile/internal.hpp"

#include <simtlab_emu/profile.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace simtlab_emu {
namespace profile {

enum event_kind : std::uint8_t {
    ev_block = 0, /* entered a basic block */
    ev_gld,       /* global load */
    ev_gst,       /* global store */
    ev_sld,       /* shared load */
    ev_sst,       /* shared store */
    ev_gatom,     /* atomic on global memory */
    ev_satom,     /* atomic on shared memory */
    ev_kinds,
    ev_end = ev_kinds /* the thread's kernel returned: ignore what follows */
};

struct event {
    std::uintptr_t addr;
    std::uint32_t site; /* index into the site table */
    std::uint16_t size; /* bytes (loads and stores above 65535 bytes are clamped) */
    std::uint8_t kind;
    std::uint8_t pad;
};
static_assert(sizeof(event) == 16, "events are 16 bytes");

/* The figures of one site (one instrumentation call in the code), summed. */
struct site_counts {
    std::uint64_t issues;   /* warp-level executions (slots) */
    std::uint64_t lanes;    /* lane-level executions */
    std::uint64_t units;    /* sectors (global) or wavefronts (shared) */
    std::uint64_t ideal;    /* ideal sectors or wavefronts */
    std::uint64_t diverged; /* basic blocks: slots whose lanes went on to different slots */
};

/* Device allocations live at the launch, sorted: what "global" means. */
struct range {
    std::uintptr_t lo, hi;
};

constexpr unsigned site_cache_size = 4096;

struct worker_state {
    /* Hot: read by every hook. */
    std::uintptr_t shared_lo;
    std::size_t shared_bytes;
    std::uintptr_t glo, ghi; /* the device allocation hit last */
    std::uintptr_t below_lo; /* [below_lo, shared_lo): space 3 (classify) */
    bool collect;            /* the counters run (else only an observer) */
    bool settle;             /* call obs->basic_block at the next basic block */
    const observer *obs;
    std::uint64_t block;
    std::vector<event> *lanes; /* [1024], by linear thread id */
    std::uintptr_t cache_pc[site_cache_size];
    std::uint32_t cache_site[site_cache_size];

    /* Per launch. */
    std::vector<site_counts> counts; /* by site */
    std::uint64_t blocks, threads, warps, barriers;
    std::uint64_t load_phases; /* warps' barrier intervals with a global load or atomic (the timing model) */
    std::size_t static_shared; /* most static shared bytes a block used (the timing model) */
    bool failed;

    /* Analysis scratch, kept between flushes. */
    unsigned nthreads;
    std::vector<std::vector<std::uint32_t>> occ; /* site -> its slots in the warp, in order */
    std::vector<std::uint32_t> seen;             /* site -> visits by the current lane */
    std::vector<std::uint32_t> touched_sites;
    std::vector<std::uint32_t> lane_touched;
    struct slot {
        std::uint32_t site;
        std::uint8_t kind;
        bool diverged;
        std::uint32_t lanes;
        std::uint32_t next;  /* first successor slot seen (+1; 0: none yet) */
        std::uint32_t first; /* first member, index into members (~0u: none) */
        std::uint32_t last;
    };
    std::vector<slot> slots;
    struct member {
        std::uintptr_t addr;
        std::uint32_t next; /* ~0u: last */
        std::uint16_t size;
        std::uint8_t lane;
    };
    std::vector<member> members;
    std::vector<std::uint64_t> scratch;
};

/* The thread-local pointer every hook tests: the worker's state while it
 * runs a block of an observed launch, else nullptr. */
extern __thread worker_state *active;
/* active's value while an atomic's or a warp operation's own code runs. */
extern __thread worker_state *quieted;

/* ---- sites ------------------------------------------------------------------ */
/* Every distinct pc the hooks were called from gets an index, once, under a
 * lock; each worker caches the mapping. */
std::uint32_t site_slow(worker_state &s, std::uintptr_t pc, unsigned slot);
inline std::uint32_t site_of(worker_state &s, std::uintptr_t pc)
{
    const unsigned h = static_cast<unsigned>((pc ^ (pc >> 12)) & (site_cache_size - 1));
    if (__builtin_expect(s.cache_pc[h] == pc, 1))
        return s.cache_site[h];
    return site_slow(s, pc, h);
}
std::uintptr_t site_pc(std::uint32_t site);

/* 1: shared, 2: global (a device allocation), 3: just before the block's
 * shared memory (the arena's lower guard: an index before the start of a
 * __shared__ array), 0: none of these (the stack, host memory, the
 * emulator's own data: not counted). */
int classify_slow(worker_state &s, std::uintptr_t addr);
inline int classify(worker_state &s, std::uintptr_t addr)
{
    if (addr - s.shared_lo < s.shared_bytes)
        return 1;
    if (addr - s.glo < s.ghi - s.glo)
        return 2;
    return classify_slow(s, addr);
}

/* ---- one launch's result ---------------------------------------------------- */
struct site_result {
    std::uint32_t site;
    std::uint8_t kind;
    site_counts c;
};
struct launch_result {
    simtlab_emu_profile_figures fig;
    std::vector<site_result> sites;
};

/* One site's counts into a struct with the fields of
 * simtlab_emu_profile_figures (the figures, or one source line's share):
 * everything but the atomics, which the two count differently. */
template <class F>
void add_block_and_memory(F &f, std::uint8_t kind, const site_counts &c)
{
    switch (kind) {
    case ev_block:
        f.inst_executed += c.issues;
        f.thread_inst_executed += c.lanes;
        f.branches_diverged += c.diverged;
        break;
    case ev_gld:
        f.gld_requests += c.issues;
        f.gld_sectors += c.units;
        f.gld_sectors_ideal += c.ideal;
        break;
    case ev_gst:
        f.gst_requests += c.issues;
        f.gst_sectors += c.units;
        f.gst_sectors_ideal += c.ideal;
        break;
    case ev_sld:
        f.shld_requests += c.issues;
        f.shld_wavefronts += c.units;
        f.shld_bank_conflicts += c.units - c.ideal;
        break;
    case ev_sst:
        f.shst_requests += c.issues;
        f.shst_wavefronts += c.units;
        f.shst_bank_conflicts += c.units - c.ideal;
        break;
    default: break;
    }
}
/* The totals of a set of sites, into fig's counters. */
void add_site(simtlab_emu_profile_figures &fig, std::uint8_t kind, const site_counts &c);

/* profile/report.cpp: sums and prints. */
/* SIMTLAB_EMU_PROFILE_CSV, the table per launch or the per-kernel sums
 * for the table at exit (whole_run: profiling was asked for the whole run,
 * not only through the C API). */
void report_launch(const launch_result &r, bool whole_run);
void print_table(const launch_result &r, std::size_t max_lines, const char *title);
/* The source location (file, line; "?" and 0 when unknown) of each pc, as
 * the reports name them (addr2line, resolved once per pc). */
void site_locations(const std::vector<std::uintptr_t> &pcs, std::vector<std::pair<std::string, int>> *out);
/* The lines of a result, hottest first. */
std::vector<simtlab_emu_profile_line> lines_of(const launch_result &r);
/* Whether SIMTLAB_EMU_PROFILE asks for every launch (1), none (0), or is unset (-1). */
int env_setting();

} /* namespace profile */
} /* namespace simtlab_emu */

#endif
