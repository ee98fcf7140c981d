/* simtlab CPU emulator — the census (simtlab_emu/census.h): launches,
 * copies, allocations and host waits, counted where the runtime does them,
 * and the last writer of every 4-byte word of device memory.
 *
 * Who wrote a word: each tracked allocation keeps a copy of its bytes as
 * last seen and a writer per word (0 nobody seen, 1 the host, 2 + k the
 * k-th kernel name). Before a launch the live allocations are compared
 * with their copies (a difference there was made by the host: a copy the
 * hooks did not see, managed memory), after it again (a difference there
 * is the launch's). Copies and memsets that the hooks see mark their
 * destination as the host's at once. The comparison reads device memory
 * while no kernel runs, so it opens each allocation's pages for the read
 * and closes them again (runtime/memory.cpp keeps them PROT_NONE between
 * launches). A host thread that writes managed memory while another
 * launches may have its bytes counted as the kernel's. */
#include "runtime/census.hpp"
#include "runtime/registry.hpp"

#include <simtlab_emu/census.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace simtlab_emu {
namespace census {

std::atomic<bool> active{false};

namespace {

constexpr std::uint16_t nobody = 0, host = 1;
constexpr std::size_t max_copies = 65536;

struct tracked {
    std::size_t size;
    unsigned long serial;
    std::vector<unsigned char> seen;     /* the bytes as last seen */
    std::vector<std::uint16_t> writer;   /* per 4-byte word */
};

struct kernel_count {
    unsigned long long launches, threads;
};

std::mutex lock;
bool ran = false;
simtlab_emu_census counts{};
unsigned long serial_at_begin = 0;
std::size_t live_at_begin = 0;
std::map<std::uintptr_t, tracked> allocations; /* by base */
std::vector<std::string> kernel_names;          /* writer 2 + k */
std::map<std::string, kernel_count> by_kernel;
std::set<cudaStream_t> launch_streams, copy_streams;
std::vector<simtlab_emu_census_copy> d2h;
std::uint16_t current_kernel = nobody;

bool default_stream(cudaStream_t s)
{
    /* 0, cudaStreamLegacy (1) or cudaStreamPerThread (2), as runtime/stream.cpp reads them */
    return s == nullptr || s == reinterpret_cast<cudaStream_t>(1) || s == reinterpret_cast<cudaStream_t>(2);
}

std::uint16_t kernel_id(const char *name)
{
    const std::string n = name ? name : "?";
    for (std::size_t k = 0; k < kernel_names.size(); k++)
        if (kernel_names[k] == n)
            return static_cast<std::uint16_t>(2 + k);
    if (kernel_names.size() >= 65000)
        return static_cast<std::uint16_t>(2 + kernel_names.size() - 1);
    kernel_names.push_back(n);
    return static_cast<std::uint16_t>(2 + kernel_names.size() - 1);
}

/* Compares an allocation's bytes with what was last seen; each word that
 * differs gets `who` as its writer. */
void compare(tracked &t, const unsigned char *now, std::uint16_t who)
{
    constexpr std::size_t chunk = 4096;
    for (std::size_t at = 0; at < t.size; at += chunk) {
        const std::size_t n = std::min(chunk, t.size - at);
        if (std::memcmp(t.seen.data() + at, now + at, n) == 0)
            continue;
        for (std::size_t w = at / 4; w * 4 < at + n; w++) {
            const std::size_t lo = w * 4, len = std::min<std::size_t>(4, t.size - lo);
            if (std::memcmp(t.seen.data() + lo, now + lo, len) != 0)
                t.writer[w] = who;
        }
        std::memcpy(t.seen.data() + at, now + at, n);
    }
}

tracked fresh(std::size_t size, unsigned long serial, const unsigned char *now)
{
    tracked t;
    t.size = size;
    t.serial = serial;
    t.seen.assign(now, now + size);
    t.writer.assign((size + 3) / 4, nobody);
    return t;
}

/* Every live allocation against its copy (under registry::registry_lock,
 * then `lock`: every path takes them in that order, as a copy does, which
 * holds the registry's lock when it calls copied_slow). */
void compare_all(std::uint16_t who)
{
    const bool toggle = registry::open_depth == 0;
    std::set<std::uintptr_t> live;
    for (const auto &entry : registry::by_base) {
        const registry::slot &s = registry::slots[entry.second];
        const std::uintptr_t base = s.alloc.base;
        live.insert(base);
        if (toggle && !registry::protect(s, true))
            continue;
        const unsigned char *now = reinterpret_cast<const unsigned char *>(base);
        auto it = allocations.find(base);
        if (it == allocations.end() || it->second.serial != s.alloc.serial || it->second.size != s.alloc.size)
            allocations[base] = fresh(s.alloc.size, s.alloc.serial, now);
        else
            compare(it->second, now, who);
        if (toggle)
            registry::protect(s, false);
    }
    for (auto it = allocations.begin(); it != allocations.end();)
        it = live.count(it->first) ? std::next(it) : allocations.erase(it);
}

/* The tracked allocation holding ptr, made from its current (open) bytes if
 * it is new; nullptr if ptr is in none. Takes no registry lock. */
tracked *holding(const void *ptr, std::uintptr_t *base_out)
{
    const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(ptr);
    allocation a;
    std::ptrdiff_t offset = 0;
    if (!find_allocation(p, 0, &a, &offset) || offset < 0 || static_cast<std::size_t>(offset) >= a.size)
        return nullptr;
    *base_out = a.base;
    auto it = allocations.find(a.base);
    if (it == allocations.end() || it->second.serial != a.serial || it->second.size != a.size)
        it = allocations.insert_or_assign(a.base, fresh(a.size, a.serial, reinterpret_cast<const unsigned char *>(a.base)))
                 .first;
    return &it->second;
}

/* The host wrote [ptr, ptr + count) of device memory (open now). */
void host_wrote(const void *ptr, std::size_t count)
{
    std::uintptr_t base = 0;
    tracked *t = holding(ptr, &base);
    if (!t)
        return;
    const std::size_t off = reinterpret_cast<std::uintptr_t>(ptr) - base;
    const std::size_t end = std::min(t->size, off + count);
    std::memcpy(t->seen.data() + off, ptr, end - off);
    for (std::size_t w = off / 4; w * 4 < end; w++)
        t->writer[w] = host;
}

unsigned long long fnv1a64(const void *bytes, std::size_t n)
{
    const unsigned char *p = static_cast<const unsigned char *>(bytes);
    unsigned long long h = 14695981039346656037ull;
    for (std::size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Bytes of [off, off + n) of t whose writer `matches`, and the kernel that
 * wrote most of them. */
template <class Match>
std::size_t bytes_by(const tracked &t, std::size_t off, std::size_t n, Match matches, std::uint16_t *most)
{
    std::map<std::uint16_t, std::size_t> per;
    const std::size_t end = std::min(t.size, off + n);
    std::size_t total = 0;
    for (std::size_t w = off / 4; w * 4 < end; w++) {
        const std::size_t lo = std::max(off, w * 4), hi = std::min(end, w * 4 + 4);
        if (matches(t.writer[w])) {
            total += hi - lo;
            per[t.writer[w]] += hi - lo;
        }
    }
    if (most) {
        *most = nobody;
        std::size_t best = 0;
        for (const auto &e : per)
            if (e.second > best)
                best = e.second, *most = e.first;
    }
    return total;
}

void live_counts(unsigned long *serial, std::size_t *live)
{
    *serial = registry::next_serial;
    *live = registry::by_base.size();
}

void fill_allocations(simtlab_emu_census *c)
{
    unsigned long serial = 0;
    std::size_t live = 0;
    live_counts(&serial, &live);
    c->mallocs = serial - serial_at_begin;
    const long long change = static_cast<long long>(live) - static_cast<long long>(live_at_begin);
    const long long frees = static_cast<long long>(c->mallocs) - change;
    c->frees = frees > 0 ? static_cast<unsigned long long>(frees) : 0;
}

bool name_matches(const std::string &launched, const char *want)
{
    if (launched == want)
        return true;
    const std::size_t lt = launched.find('<');
    return lt != std::string::npos && launched.compare(0, lt, want) == 0 && want[lt] == '\0';
}

} /* namespace */

void launch_begin_slow(const launch_site &site, dim3 grid, dim3 block, cudaStream_t stream)
{
    std::lock_guard<std::mutex> registry_hold(registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    compare_all(host);
    const unsigned long long threads =
        1ull * grid.x * grid.y * grid.z * block.x * block.y * block.z;
    counts.launches++;
    counts.launch_threads += threads;
    if (!default_stream(stream))
        launch_streams.insert(stream);
    counts.launch_streams = launch_streams.size();
    kernel_count &k = by_kernel[site.kernel ? site.kernel : "?"];
    k.launches++;
    k.threads += threads;
    current_kernel = kernel_id(site.kernel);
}

void launch_end_slow()
{
    std::lock_guard<std::mutex> registry_hold(registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    compare_all(current_kernel);
    current_kernel = nobody;
}

void copied_slow(void *dst, bool dst_dev, const void *src, bool src_dev, std::size_t count)
{
    std::lock_guard<std::mutex> hold(lock);
    if (dst_dev && src_dev)
        counts.d2d_copies++, counts.d2d_bytes += count;
    else if (dst_dev)
        counts.h2d_copies++, counts.h2d_bytes += count;
    else if (src_dev)
        counts.d2h_copies++, counts.d2h_bytes += count;
    if (dst_dev)
        host_wrote(dst, count);
    if (src_dev && !dst_dev && d2h.size() < max_copies) {
        simtlab_emu_census_copy c{};
        c.host = dst;
        c.device = src;
        c.bytes = count;
        c.fnv1a = fnv1a64(dst, count);
        std::uintptr_t base = 0;
        if (const tracked *t = holding(src, &base)) {
            std::uint16_t most = nobody;
            const std::size_t off = reinterpret_cast<std::uintptr_t>(src) - base;
            c.kernel_bytes = bytes_by(*t, off, count, [](std::uint16_t w) { return w >= 2; }, &most);
            c.host_bytes = bytes_by(*t, off, count, [](std::uint16_t w) { return w == host; }, nullptr);
            if (most >= 2)
                std::snprintf(c.kernel, sizeof c.kernel, "%s", kernel_names[most - 2].c_str());
        }
        d2h.push_back(c);
    }
}

void memset_slow(void *ptr, std::size_t count)
{
    std::lock_guard<std::mutex> hold(lock);
    counts.memsets++;
    counts.memset_bytes += count;
    host_wrote(ptr, count);
}

void async_slow(cudaStream_t stream, bool copy)
{
    std::lock_guard<std::mutex> hold(lock);
    if (copy)
        counts.async_copies++;
    if (!default_stream(stream))
        copy_streams.insert(stream);
    counts.copy_streams = copy_streams.size();
}

void host_wait_slow()
{
    std::lock_guard<std::mutex> hold(lock);
    counts.host_waits++;
}

} /* namespace census */
} /* namespace simtlab_emu */

using namespace simtlab_emu::census;

extern "C" {

void simtlab_emu_census_begin(void)
{
    std::lock_guard<std::mutex> registry_hold(simtlab_emu::registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    ran = true;
    counts = simtlab_emu_census{};
    allocations.clear();
    kernel_names.clear();
    by_kernel.clear();
    launch_streams.clear();
    copy_streams.clear();
    d2h.clear();
    live_counts(&serial_at_begin, &live_at_begin);
    compare_all(nobody); /* what is there now was written by nobody we saw */
    active.store(true);
}

void simtlab_emu_census_end(void)
{
    std::lock_guard<std::mutex> registry_hold(simtlab_emu::registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    if (!active.exchange(false))
        return;
    compare_all(host); /* managed memory the host wrote since the last launch */
    fill_allocations(&counts);
}

int simtlab_emu_census_get(simtlab_emu_census *out)
{
    std::lock_guard<std::mutex> registry_hold(simtlab_emu::registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    if (!ran)
        return 1;
    *out = counts;
    if (active.load())
        fill_allocations(out);
    return 0;
}

unsigned long long simtlab_emu_census_launches_of(const char *kernel, unsigned long long *threads)
{
    std::lock_guard<std::mutex> hold(lock);
    unsigned long long n = 0, t = 0;
    for (const auto &e : by_kernel)
        if (kernel && name_matches(e.first, kernel))
            n += e.second.launches, t += e.second.threads;
    if (threads)
        *threads = t;
    return n;
}

size_t simtlab_emu_census_d2h_count(void)
{
    std::lock_guard<std::mutex> hold(lock);
    return d2h.size();
}

int simtlab_emu_census_d2h(size_t i, simtlab_emu_census_copy *out)
{
    std::lock_guard<std::mutex> hold(lock);
    if (i >= d2h.size())
        return 1;
    *out = d2h[i];
    return 0;
}

size_t simtlab_emu_census_written_by(const void *ptr, size_t bytes, const char *kernel)
{
    std::lock_guard<std::mutex> registry_hold(simtlab_emu::registry::registry_lock);
    std::lock_guard<std::mutex> hold(lock);
    if (active.load())
        compare_all(host);
    const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(ptr);
    auto it = allocations.upper_bound(p);
    if (it == allocations.begin())
        return 0;
    --it;
    if (p >= it->first + it->second.size)
        return 0;
    std::vector<bool> wanted(kernel_names.size() + 2, false);
    for (std::size_t k = 0; k < kernel_names.size(); k++)
        wanted[k + 2] = !kernel || name_matches(kernel_names[k], kernel);
    return bytes_by(it->second, p - it->first, bytes, [&](std::uint16_t w) { return w < wanted.size() && wanted[w]; },
                    nullptr);
}

unsigned long long simtlab_emu_census_hash(const void *bytes, size_t n)
{
    return fnv1a64(bytes, n);
}

} /* extern "C" */
