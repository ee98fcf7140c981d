/* simtlab CPU emulator — sampled launches (SIMTLAB_EMU_SAMPLE_BLOCKS) and
 * the distinct global sectors a launch touched (the timing model's L2
 * footprint). emu/docs/model.md, "Sampling", states what is chosen and
 * where it is unsound. */
#include "common/settings.hpp"
#include "profile/model.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

namespace simtlab_emu {
namespace profile {

namespace {

/* ---- sampling ---------------------------------------------------------------- */

std::uint64_t sample_setting()
{
    static const std::uint64_t n = settings::sample_blocks(); /* common/settings.hpp */
    return n;
}

std::vector<std::uint64_t> chosen;
double scale_now = 1.0;

inline std::uint64_t linear_of(std::uint64_t x, std::uint64_t y, std::uint64_t z, const dim3 &g)
{
    return x + static_cast<std::uint64_t>(g.x) * (y + static_cast<std::uint64_t>(g.y) * z);
}

/* ---- footprint ----------------------------------------------------------------- */

struct tracked {
    std::uintptr_t lo, hi;
    std::unique_ptr<std::atomic<std::uint64_t>[]> ld, st; /* a bit per sector */
    std::size_t words;
};
std::vector<tracked> tracked_ranges;

} /* namespace */

const std::vector<std::uint64_t> *sample_plan(const engine::grid_job &job)
{
    scale_now = 1.0;
    chosen.clear();
    const std::uint64_t n = sample_setting();
    if (!n || job.coop || job.depth > 0 || job.nblocks <= n)
        return nullptr;
    static std::atomic<bool> told{false};
    if (!told.exchange(true))
        std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_SAMPLE_BLOCKS=%llu: launches of more blocks run only that "
                     "many, spread over the grid, and their counters and modelled times are scaled to the "
                     "whole grid; the kernels' outputs are incomplete (only the counts mean anything)\n",
                     static_cast<unsigned long long>(n));
    const dim3 g = job.grid;
    const std::uint64_t total = job.nblocks;
    /* Edge blocks: the last index in a dimension of more than one block
     * (where partial tiles are); the interior is the rest. Proportional
     * stratified sample: each stratum gets its share of n (at least one
     * block when it is not empty), evenly spaced, so one scale factor
     * (total / n) serves both. */
    const std::uint64_t ax = g.x > 1 ? g.x - 1 : 1, ay = g.y > 1 ? g.y - 1 : 1, az = g.z > 1 ? g.z - 1 : 1;
    const std::uint64_t interior = (g.x > 1 || g.y > 1 || g.z > 1) ? ax * ay * az : 1;
    const std::uint64_t edge = total - interior;
    std::uint64_t n_edge = edge ? std::max<std::uint64_t>(1, (n * edge + total / 2) / total) : 0;
    n_edge = std::min(n_edge, edge);
    std::uint64_t n_inner = n - n_edge;
    if (n_inner > interior) {
        n_inner = interior;
        n_edge = std::min(edge, n - n_inner);
    }
    /* interior: evenly spaced in the interior box, its first block included */
    for (std::uint64_t t = 0; t < n_inner; t++) {
        const std::uint64_t j = n_inner == 1 ? 0 : t * (interior - 1) / (n_inner - 1);
        const std::uint64_t x = j % ax, y = (j / ax) % ay, z = j / (ax * ay);
        chosen.push_back(linear_of(x, y, z, g));
    }
    /* edge: the blocks with a last index, in linear order, evenly spaced,
     * the grid's last block included; enumerated face by face */
    if (n_edge) {
        std::vector<std::uint64_t> edges;
        if (edge <= (std::uint64_t{1} << 20)) { /* else: the last block stands for them all */
            edges.reserve(edge);
            for (std::uint64_t z = 0; z < g.z; z++)
                for (std::uint64_t y = 0; y < g.y; y++) {
                    const bool face = (g.z > 1 && z == g.z - 1u) || (g.y > 1 && y == g.y - 1u);
                    if (face) {
                        for (std::uint64_t x = 0; x < g.x; x++)
                            edges.push_back(linear_of(x, y, z, g));
                    } else if (g.x > 1) {
                        edges.push_back(linear_of(g.x - 1u, y, z, g));
                    }
                }
        } else {
            edges.push_back(total - 1);
        }
        n_edge = std::min<std::uint64_t>(n_edge, edges.size());
        for (std::uint64_t t = 0; t < n_edge; t++) {
            const std::uint64_t j = n_edge == 1 ? edges.size() - 1 : t * (edges.size() - 1) / (n_edge - 1);
            chosen.push_back(edges[j]);
        }
    }
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    if (chosen.empty() || chosen.size() >= total) {
        chosen.clear();
        return nullptr;
    }
    scale_now = static_cast<double>(total) / static_cast<double>(chosen.size());
    return &chosen;
}

double sample_scale()
{
    return scale_now;
}

void footprint_begin(const std::vector<std::uintptr_t> &lo, const std::vector<std::uintptr_t> &hi)
{
    /* Keep the bitmaps of allocations that are still there (the common case:
     * the same buffers launch after launch); clear them. */
    std::vector<tracked> next;
    next.reserve(lo.size());
    for (std::size_t i = 0; i < lo.size(); i++) {
        tracked t;
        auto same = std::find_if(tracked_ranges.begin(), tracked_ranges.end(),
                                 [&](const tracked &r) { return r.lo == lo[i] && r.hi == hi[i] && r.ld; });
        if (same != tracked_ranges.end()) {
            t = std::move(*same);
            for (std::size_t w = 0; w < t.words; w++) {
                t.ld[w].store(0, std::memory_order_relaxed);
                t.st[w].store(0, std::memory_order_relaxed);
            }
        } else {
            t.lo = lo[i];
            t.hi = hi[i];
            const std::size_t sectors = ((hi[i] + 31) >> 5) - (lo[i] >> 5);
            t.words = (sectors + 63) / 64;
            t.ld.reset(new (std::nothrow) std::atomic<std::uint64_t>[t.words]());
            t.st.reset(new (std::nothrow) std::atomic<std::uint64_t>[t.words]());
            if (!t.ld || !t.st)
                t.words = 0, t.ld.reset(), t.st.reset(); /* out of memory: this range is not tracked */
        }
        next.push_back(std::move(t));
    }
    tracked_ranges = std::move(next);
}

void footprint_mark(std::uintptr_t sector, bool store)
{
    const std::uintptr_t addr = sector << 5;
    auto after = std::upper_bound(tracked_ranges.begin(), tracked_ranges.end(), addr,
                                  [](std::uintptr_t a, const tracked &r) { return a < (r.lo & ~std::uintptr_t{31}); });
    if (after == tracked_ranges.begin())
        return;
    tracked &r = *(after - 1);
    if (addr >= r.hi || !r.words)
        return;
    const std::size_t bit = sector - (r.lo >> 5);
    std::atomic<std::uint64_t> *bits = store ? r.st.get() : r.ld.get();
    const std::uint64_t mask = std::uint64_t{1} << (bit & 63);
    if (!(bits[bit >> 6].load(std::memory_order_relaxed) & mask))
        bits[bit >> 6].fetch_or(mask, std::memory_order_relaxed);
}

void footprint_counts(std::uint64_t *loaded, std::uint64_t *stored)
{
    std::uint64_t l = 0, s = 0;
    for (const tracked &r : tracked_ranges)
        for (std::size_t w = 0; w < r.words; w++) {
            l += static_cast<std::uint64_t>(__builtin_popcountll(r.ld[w].load(std::memory_order_relaxed)));
            s += static_cast<std::uint64_t>(__builtin_popcountll(r.st[w].load(std::memory_order_relaxed)));
        }
    *loaded = l;
    *stored = s;
}

} /* namespace profile */
} /* namespace simtlab_emu */
