/* simtlab CPU emulator — device memory: allocation (cudaMalloc, cudaFree),
 * the registry of allocations (runtime/registry.hpp) and the leak list.
 * Opening allocations to kernels and copies, checking pointers and ranges,
 * and the fault handler's lookup: runtime/access.cpp; copies:
 * runtime_copy.cpp.
 *
 * Layout of one device allocation (each is its own mapping):
 *
 *   [guard page][ data pages ........ | data (size bytes) | slack ][guard page]
 *                                     ^ base               ^ base+size
 *
 * The data ends at most 15 bytes before the upper guard page, so a kernel
 * that reads or writes past the end faults at once (where a GPU would
 * silently touch a neighbour), and the fault handler names the allocation.
 * The start is rounded down to 16 bytes, which float4/int4 loads need. CUDA
 * guarantees 256-byte alignment; we trade that for tight overflow detection.
 * SIMTLAB_EMU_ALIGN=256 restores CUDA's alignment, with up to 255 bytes of
 * slack. The slack holds a canary that device_memory_close() checks, so that
 * writes into it are reported too.
 *
 * While no kernel runs, the data pages are PROT_NONE: a host dereference of
 * a device pointer faults and the fault handler explains it, as the same
 * bug would crash on a GPU machine. The runtime's own copies open only the
 * allocations they touch.
 *
 */
#include "common/settings.hpp"
#include "runtime/registry.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

namespace simtlab_emu {
namespace registry {

slot slots[max_slots];
std::atomic<std::size_t> slots_used{0}; /* high-water mark of slots[] */

std::mutex registry_lock; /* guards everything below */
std::map<std::uintptr_t, std::size_t> by_base; /* base -> slot index */
std::vector<std::size_t> free_slots;
std::unordered_map<std::uintptr_t, allocation> freed; /* for double-free messages */
int open_depth = 0;         /* device_memory_open nesting */
unsigned long next_serial = 1;
std::size_t live_bytes = 0;
std::size_t managed_live_bytes = 0; /* the part of live_bytes from cudaMallocManaged */

std::size_t page_size()
{
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

/* 16 by default; SIMTLAB_EMU_ALIGN may ask for another power of two from
 * 16 to 4096 (256 gives CUDA's guarantee). */
std::size_t data_alignment()
{
    return settings::align(); /* read once (common/settings.hpp) */
}

unsigned char canary_byte(std::size_t i)
{
    return static_cast<unsigned char>(canary_seed ^ (i * 0x3Bu));
}

/* The slack between the end of the data and the guard page. */
unsigned char *slack_begin(const slot &s) { return reinterpret_cast<unsigned char *>(s.alloc.base + s.alloc.size); }
std::size_t slack_bytes(const slot &s)
{
    return static_cast<std::size_t>(s.data_pages + s.data_bytes - reinterpret_cast<char *>(slack_begin(s)));
}

void write_canary(const slot &s)
{
    unsigned char *p = slack_begin(s);
    for (std::size_t i = 0, n = slack_bytes(s); i < n; ++i)
        p[i] = canary_byte(i);
}

/* How many bytes past the end were overwritten (0 when the canary is whole). */
std::size_t canary_damage(const slot &s)
{
    const unsigned char *p = slack_begin(s);
    std::size_t last = 0;
    for (std::size_t i = 0, n = slack_bytes(s); i < n; ++i)
        if (p[i] != canary_byte(i))
            last = i + 1;
    return last;
}

/* mprotect on a range we mapped ourselves fails only with ENOMEM, when the
 * kernel's table of mappings is full (vm.max_map_count); map_allocation
 * checks its first call, and later failures show up as faults that the
 * fault handler explains. */
bool protect(const slot &s, bool accessible)
{
    if (s.managed || host_keeps_open)
        return true; /* host and device both see it: it stays open */
    return mprotect(s.data_pages, s.data_bytes, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) == 0;
}

void slot_begin_write(slot &s)
{
    s.seq.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
}

void slot_end_write(slot &s)
{
    s.seq.fetch_add(1, std::memory_order_release);
}

/* A consistent copy of slot i, or false if it is being rewritten. */
bool read_slot(std::size_t i, slot *copy)
{
    unsigned before = slots[i].seq.load(std::memory_order_acquire);
    if (before & 1u)
        return false;
    copy->live = slots[i].live;
    copy->alloc = slots[i].alloc;
    copy->map_base = slots[i].map_base;
    copy->map_bytes = slots[i].map_bytes;
    std::atomic_thread_fence(std::memory_order_acquire);
    return slots[i].seq.load(std::memory_order_relaxed) == before;
}

void describe_origin(const allocation &a, char *out, std::size_t n)
{
    if (a.file && a.line == 0) /* made by the runtime itself, which says by what (graph allocation nodes) */
        std::snprintf(out, n, "allocated by %s", a.file);
    else if (a.file)
        std::snprintf(out, n, "allocated at %s:%d", a.file, a.line);
    else
        std::snprintf(out, n, "allocated by a cudaMalloc call without file:line");
}

/* ---- lookup under registry_lock ---------------------------------------- */

/* The slot of the allocation containing addr, or -1. */
long slot_containing(std::uintptr_t addr)
{
    auto it = by_base.upper_bound(addr);
    if (it == by_base.begin())
        return -1;
    --it;
    const slot &s = slots[it->second];
    return addr < s.alloc.base + s.alloc.size ? static_cast<long>(it->second) : -1;
}

/* The slot whose mapping (guards and slack included) holds addr, or -1. */
long slot_mapping(std::uintptr_t addr)
{
    auto it = by_base.upper_bound(addr);
    if (it != by_base.end()) {
        const slot &s = slots[it->second];
        if (addr >= reinterpret_cast<std::uintptr_t>(s.map_base))
            return static_cast<long>(it->second);
    }
    if (it == by_base.begin())
        return -1;
    --it;
    const slot &s = slots[it->second];
    std::uintptr_t end = reinterpret_cast<std::uintptr_t>(s.map_base) + s.map_bytes;
    return addr < end ? static_cast<long>(it->second) : -1;
}

std::size_t take_slot()
{
    if (!free_slots.empty()) {
        std::size_t i = free_slots.back();
        free_slots.pop_back();
        return i;
    }
    std::size_t i = slots_used.load(std::memory_order_relaxed);
    if (i == max_slots)
        return max_slots;
    slots_used.store(i + 1, std::memory_order_release);
    return i;
}

void at_exit_report()
{
    std::size_t n;
    {
        std::lock_guard<std::mutex> hold(registry_lock);
        n = by_base.size();
    }
    if (n == 0)
        return;
    std::fprintf(stderr, "simtlab-emu: %zu device allocation%s still live at exit:\n", n, n == 1 ? "" : "s");
    simtlab_emu_report_live_allocations(stderr);
}

/* Maps one allocation; returns its slot index, or max_slots on failure
 * (with a diagnostic set). Called with registry_lock held. */
std::size_t map_allocation(std::size_t size, const char *file, int line, bool managed)
{
    std::size_t page = page_size();
    std::size_t align = data_alignment();
    std::size_t data_bytes = (size + align - 1 + page - 1) / page * page;
    /* Large allocations end on a huge-page boundary and ask for
     * transparent huge pages: every launch changes the protection of every
     * allocation twice (open, close), and with 4 KiB pages that is one page
     * table entry per page (measured on the 2-core dev VM: 1.9 ms per launch
     * with 48 MB allocated, longer than a vector add of 2^22 floats), with
     * huge pages one per 2 MiB. The end, not the start, is aligned, because
     * the data ends at the upper guard page. */
    const std::size_t huge = data_bytes >= huge_page_bytes ? huge_page_bytes : 0;
    std::size_t map_bytes = data_bytes + 2 * page + huge;
    std::size_t index = take_slot();
    if (index == max_slots) {
        runtime::diagnose("cudaMalloc(%zu bytes): more than %zu device allocations live at once", size, max_slots);
        return max_slots;
    }
    void *map = mmap(nullptr, map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        free_slots.push_back(index);
        runtime::diagnose("cudaMalloc(%zu bytes): the host could not map %zu bytes (%s)", size, map_bytes,
                          std::strerror(errno));
        return max_slots;
    }
    slot &s = slots[index];
    char *data_pages = static_cast<char *>(map) + page;
    if (huge) {
        const auto end = reinterpret_cast<std::uintptr_t>(data_pages) + data_bytes;
        data_pages += (huge - end % huge) % huge; /* still below the mapping's last page */
#ifdef MADV_HUGEPAGE
        (void)madvise(data_pages, data_bytes, MADV_HUGEPAGE); /* advice: without THP, 4 KiB pages */
#endif
    }
    if (mprotect(data_pages, data_bytes, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, map_bytes);
        free_slots.push_back(index);
        runtime::diagnose("cudaMalloc(%zu bytes): the host could not change the protection of its pages (%s; "
                          "too many live allocations for vm.max_map_count?)",
                          size, std::strerror(errno));
        return max_slots;
    }
    slot_begin_write(s);
    s.map_base = static_cast<char *>(map);
    s.map_bytes = map_bytes;
    s.data_pages = data_pages;
    s.data_bytes = data_bytes;
    std::uintptr_t end = reinterpret_cast<std::uintptr_t>(s.data_pages + data_bytes);
    s.alloc.base = (end - size) & ~static_cast<std::uintptr_t>(align - 1);
    s.alloc.size = size;
    s.alloc.file = file;
    s.alloc.line = line;
    s.alloc.serial = next_serial++;
    s.live = true;
    s.managed = managed;
    slot_end_write(s);
    write_canary(s); /* the pages are writable since the mprotect above */
    if (open_depth == 0)
        protect(s, false);
    return index;
}

/* Freed allocations stay reserved (PROT_NONE, their pages given back) for a
 * while, so that a kernel or a copy that uses one faults, and the fault
 * handler can say "freed", instead of the address being mapped again by
 * whatever comes next (a worker's stack, a lock: a write through the stale
 * pointer would then corrupt the emulator silently). The oldest is
 * unmapped once there are quarantine_slots of them, or more than
 * quarantine_bytes of address space. Each entry is read without locks by
 * the fault handler, guarded by a sequence counter as the slots are. */
constexpr std::size_t quarantine_slots = 4096;
constexpr std::size_t quarantine_bytes = std::size_t{64} << 30;
struct quarantined {
    std::atomic<unsigned> seq;
    bool used;
    allocation alloc;
    char *map_base;
    std::size_t map_bytes;
};
quarantined quarantine[quarantine_slots];
std::size_t quarantine_next = 0, quarantine_count = 0, quarantine_total = 0; /* under registry_lock */

void quarantine_drop_oldest()
{
    const std::size_t i = (quarantine_next + quarantine_slots - quarantine_count) % quarantine_slots;
    quarantined &q = quarantine[i];
    q.seq.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    q.used = false;
    q.seq.fetch_add(1, std::memory_order_release);
    munmap(q.map_base, q.map_bytes);
    quarantine_total -= q.map_bytes;
    quarantine_count--;
}

void quarantine_add(const allocation &gone, char *map, std::size_t bytes)
{
    /* Same range, no access, no memory: the pages are dropped. */
    if (mmap(map, bytes, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
        munmap(map, bytes);
        return;
    }
    while (quarantine_count > 0 &&
           (quarantine_count == quarantine_slots || quarantine_total + bytes > quarantine_bytes))
        quarantine_drop_oldest();
    quarantined &q = quarantine[quarantine_next];
    q.seq.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    q.used = true;
    q.alloc = gone;
    q.map_base = map;
    q.map_bytes = bytes;
    q.seq.fetch_add(1, std::memory_order_release);
    quarantine_next = (quarantine_next + 1) % quarantine_slots;
    quarantine_count++;
    quarantine_total += bytes;
}

void unmap_slot(std::size_t index)
{
    slot &s = slots[index];
    allocation gone = s.alloc;
    char *map = s.map_base;
    std::size_t bytes = s.map_bytes;
    slot_begin_write(s);
    s.live = false;
    slot_end_write(s);
    quarantine_add(gone, map, bytes);
    by_base.erase(gone.base);
    free_slots.push_back(index);
    live_bytes -= gone.size;
    if (s.managed)
        managed_live_bytes -= gone.size;
    if (freed.size() > 65536)
        freed.clear(); /* bounded: the oldest double-free hints are lost */
    freed[gone.base] = gone;
}

/* The diagnostic for a cudaFree argument that is not a live base. */
void diagnose_bad_free(std::uintptr_t p)
{
    char origin[512];
    long inside = slot_containing(p);
    if (inside >= 0) {
        const allocation &a = slots[inside].alloc;
        describe_origin(a, origin, sizeof origin);
        runtime::diagnose("cudaFree(0x%" PRIxPTR "): not the start of a device allocation; it is %" PRIuPTR
                          " bytes into allocation #%lu (%zu bytes at 0x%" PRIxPTR ", %s)",
                          p, p - a.base, a.serial, a.size, a.base, origin);
        return;
    }
    auto was = freed.find(p);
    if (was != freed.end()) {
        describe_origin(was->second, origin, sizeof origin);
        runtime::diagnose("cudaFree(0x%" PRIxPTR "): double free: device allocation #%lu (%zu bytes, %s) "
                          "was already freed",
                          p, was->second.serial, was->second.size, origin);
        return;
    }
    bool is_pinned = runtime::is_pinned(reinterpret_cast<void *>(p));
    runtime::diagnose("cudaFree(0x%" PRIxPTR "): not a device pointer (no live cudaMalloc allocation starts "
                      "there)%s",
                      p, is_pinned ? "; it is pinned host memory: free it with cudaFreeHost" : "");
}

} /* namespace registry */

using namespace registry;

bool find_freed(std::uintptr_t addr, allocation *out, std::ptrdiff_t *offset)
{
    /* No locks, no allocation: this runs in the fault handler. The newest
     * entry first: an address reused by a later allocation and freed again
     * is the later one. */
    for (std::size_t k = 1; k <= quarantine_slots; k++) {
        quarantined &q = quarantine[(quarantine_next + quarantine_slots - k) % quarantine_slots];
        const unsigned before = q.seq.load(std::memory_order_acquire);
        if (before & 1u)
            continue;
        const bool used = q.used;
        const allocation a = q.alloc;
        const auto lo = reinterpret_cast<std::uintptr_t>(q.map_base);
        const std::size_t n = q.map_bytes;
        std::atomic_thread_fence(std::memory_order_acquire);
        if (q.seq.load(std::memory_order_relaxed) != before || !used)
            continue;
        if (addr >= lo && addr - lo < n) {
            *out = a;
            *offset = static_cast<std::ptrdiff_t>(addr - a.base);
            return true;
        }
    }
    return false;
}

namespace runtime {

void release_all_allocations()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    while (!by_base.empty())
        unmap_slot(by_base.begin()->second);
}

std::size_t live_device_bytes()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    return live_bytes;
}

/* What managed memory may add up to: the host's physical memory and swap.
 * CUDA on Linux lets managed memory oversubscribe the device, backed by host
 * memory; the emulator's pages are committed only when touched (the
 * mappings are MAP_NORESERVE), so this cap keeps a program from asking for
 * more than the host could ever give. */
static std::size_t managed_memory_cap()
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    std::size_t cap = pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                                            : std::size_t{8} << 30;
    struct sysinfo info;
    if (sysinfo(&info) == 0)
        cap += static_cast<std::size_t>(info.totalswap) * info.mem_unit;
    return cap;
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

#undef cudaMalloc
cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    return simtlab_emu_malloc_at(devPtr, size, nullptr, 0);
}

cudaError_t simtlab_emu_malloc_at(void **devPtr, size_t size, const char *file, int line)
{
    return runtime::allocate_device("cudaMalloc", devPtr, size, file, line, false);
}

} /* extern "C" */

cudaError_t runtime::allocate_device(const char *api, void **devPtr, std::size_t size, const char *file, int line,
                                     bool managed)
{
    if (!devPtr) {
        runtime::diagnose("%s(NULL, %zu): devPtr is NULL: pass the address of a pointer (&d_ptr)", api, size);
        return record_error(cudaErrorInvalidValue);
    }
    *devPtr = nullptr;
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    if (size == 0)
        return cudaSuccess; /* what the CUDA runtime does: success, NULL */
    std::size_t total = device_props().totalGlobalMem, in_use, managed_in_use;
    {
        std::lock_guard<std::mutex> hold(registry_lock);
        in_use = live_bytes, managed_in_use = managed_live_bytes;
    }
    if (managed) {
        /* Managed memory may exceed the device, as CUDA allows on Linux
         * (backed by host memory), up to what the host has. */
        const std::size_t cap = managed_memory_cap();
        if (size > cap || size > cap - std::min(cap, in_use)) {
            runtime::diagnose("%s(%zu bytes) at %s:%d: more than the host can back: managed memory may exceed the "
                              "emulated device's %zu bytes, up to the host's physical memory and swap, %zu bytes, "
                              "of which %zu are allocated",
                              api, size, file ? file : "?", line, total, cap, in_use);
            return record_error(cudaErrorMemoryAllocation);
        }
    } else if (size > total || size > total - std::min(total, in_use - managed_in_use)) {
        runtime::diagnose("%s(%zu bytes) at %s:%d: out of device memory (the emulated device has %zu bytes, "
                          "%zu in use)",
                          api, size, file ? file : "?", line, total, in_use - managed_in_use);
        return record_error(cudaErrorMemoryAllocation);
    }
    static std::once_flag handler_once;
    std::call_once(handler_once, [] {
        runtime::connect_engine(); /* the fault handler asks the runtime about addresses */
        install_fault_handler();
        std::atexit(at_exit_report);
    });
    std::lock_guard<std::mutex> hold(registry_lock);
    std::size_t index = map_allocation(size, file, line, managed);
    if (index == max_slots)
        return record_error(cudaErrorMemoryAllocation);
    by_base[slots[index].alloc.base] = index;
    freed.erase(slots[index].alloc.base);
    live_bytes += size;
    if (managed)
        managed_live_bytes += size;
    *devPtr = reinterpret_cast<void *>(slots[index].alloc.base);
    return cudaSuccess;
}

extern "C" {

cudaError_t cudaFree(void *devPtr)
{
    if (!devPtr)
        return cudaSuccess;
    cudaError_t graph_result;
    if (runtime::free_graph_allocation(devPtr, &graph_result)) /* a graph allocation's life ends, not its memory */
        return graph_result;
    std::uintptr_t p = reinterpret_cast<std::uintptr_t>(devPtr);
    {
        std::lock_guard<std::mutex> hold(registry_lock);
        auto it = by_base.find(p);
        if (it == by_base.end()) {
            diagnose_bad_free(p);
            return record_error(cudaErrorInvalidValue);
        }
        unmap_slot(it->second);
    }
    /* The memory is released even in a poisoned context, so that the leak
     * list stays meaningful; the call still reports the sticky error. */
    return runtime::check_context();
}

/* For host code that checks the pointers it is given (simtlab's host
 * library, host/backend.c): when `ptr` lies in a device allocation that
 * cudaFree released and that is still in quarantine (so its range is no
 * host memory either), says what it was into out (n bytes: "[offset N of ]
 * device allocation #3 (4000 bytes, allocated at f.c:12), which cudaFree
 * has released") and returns 1; otherwise 0. The emulator knows where the
 * allocation was made, not which cudaFree released it. */
int simtlab_emu_describe_freed(const void *ptr, char *out, size_t n)
{
    allocation a;
    std::ptrdiff_t offset = 0;
    if (!ptr || !out || n == 0 || !find_freed(reinterpret_cast<std::uintptr_t>(ptr), &a, &offset))
        return 0;
    char origin[512], at[64] = "";
    describe_origin(a, origin, sizeof origin);
    if (offset != 0)
        std::snprintf(at, sizeof at, "offset %td of ", offset);
    std::snprintf(out, n, "%sdevice allocation #%lu (%zu bytes, %s), which cudaFree has released", at, a.serial,
                  a.size, origin);
    return 1;
}

size_t simtlab_emu_report_live_allocations(void *FILE_stream)
{
    FILE *out = FILE_stream ? static_cast<FILE *>(FILE_stream) : stderr;
    std::vector<allocation> live;
    {
        std::lock_guard<std::mutex> hold(registry_lock);
        for (const auto &entry : by_base)
            live.push_back(slots[entry.second].alloc);
    }
    std::sort(live.begin(), live.end(),
              [](const allocation &a, const allocation &b) { return a.serial < b.serial; });
    for (const allocation &a : live) {
        char origin[512];
        describe_origin(a, origin, sizeof origin);
        std::fprintf(out, "  device allocation #%lu: %zu bytes at 0x%" PRIxPTR ", %s\n", a.serial, a.size, a.base,
                     origin);
    }
    return live.size();
}

} /* extern "C" */
