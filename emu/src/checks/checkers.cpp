/* simtlab CPU emulator — the checkers' observer (checks/checkers.hpp): it installs
 * itself on the SIMT counters' hooks before each launch of a program that
 * has instrumented kernels, hands shared-memory accesses to racecheck
 * (checks/racecheck.cpp), and checks what compute-sanitizer's memcheck would:
 *   - a shared-memory access outside every __shared__ declaration and the
 *     dynamic area (past the end of an array, into the padding between
 *     two, past the dynamic area): cudaErrorIllegalAddress naming the
 *     variable it ran off;
 *   - a misaligned access of 2, 4 or more bytes (to shared memory or a
 *     device allocation): cudaErrorMisalignedAddress;
 *   - an access before the start of the block's shared memory (the
 *     megabyte below it: `extern __shared__ float d[]; d[-1]`), which in a
 *     build without the checks lands in the arena's slack unseen:
 *     cudaErrorIllegalAddress naming the variable it ran before;
 *   - an atomic on host pageable memory: the launching host thread's stack
 *     (a host variable's address passed to the kernel) or the host's heap
 *     (malloc, new: host_heap below): cudaErrorIllegalAddress naming host
 *     memory, as a GPU without HMM or ATS faults (and the checked build's
 *     device says pageableMemoryAccess 0, runtime/device.cpp).
 * Addresses far outside the shared arena fault on its guard regions in any
 * build (engine/shared.cpp, engine/fault.cpp). */
#include "checks/checkers.hpp"
#include "common/settings.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>
#include <vector>

namespace simtlab_emu {
namespace checkers {

namespace {

bool racecheck_now = false;
bool memcheck_now = false;
std::uintptr_t host_stack_lo = 0, host_stack_hi = 0;

[[noreturn]] void fail(cudaError_t error, const char *fmt, const char *a, const char *b)
{
    engine::fail_thread(engine::this_worker(), error, fmt, a, b);
}

void on_block_begin(std::uint64_t, unsigned nthreads, void *)
{
    if (racecheck_now)
        race::block_begin(nthreads);
}

void on_barrier(std::uint64_t, void *)
{
    if (racecheck_now)
        race::barrier();
}

void on_basic_block(void *)
{
    if (racecheck_now)
        race::basic_block();
}

void on_warp_sync(std::uint64_t, unsigned warp, unsigned mask, void *)
{
    if (racecheck_now)
        race::warp_sync(warp, mask);
}

/* GCC copies small structs of 4-byte members with 8- and 16-byte moves
 * that nvcc would split, so wider accesses are held to 4 bytes only. */
inline bool misaligned(const profile::shared_access &a)
{
    const unsigned need = a.size >= 4 ? 4 : a.size;
    return need > 1 && (a.addr & (need - 1)) != 0;
}

[[noreturn]] void fail_misaligned(const profile::shared_access &a, const char *space)
{
    char what[site_text_capacity + 300], site[site_text_capacity];
    int used = std::snprintf(what, sizeof what, "a %u-byte %s of %s memory at 0x%" PRIxPTR, a.size,
                             a.atomic ? "atomic" : a.write ? "write" : "read", space, a.addr);
    allocation found{};
    std::ptrdiff_t offset = 0;
    if (std::strcmp(space, "global") == 0 && used > 0 && static_cast<std::size_t>(used) < sizeof what &&
        engine::find_allocation(a.addr, 0, &found, &offset) && offset >= 0) {
        if (found.file)
            std::snprintf(what + used, sizeof what - used, " (byte %td of device allocation #%lu, %zu bytes, "
                          "allocated at %s:%d)", offset, found.serial, found.size, found.file, found.line);
        else
            std::snprintf(what + used, sizeof what - used, " (byte %td of device allocation #%lu, %zu bytes)", offset,
                          found.serial, found.size);
    }
    site_text(a.pc, site, sizeof site);
    fail(cudaErrorMisalignedAddress,
         "misaligned address: %s at %s; a GPU needs an N-byte access at a multiple of N bytes (a pointer "
         "offset by a byte count that is not a multiple of the element size?)",
         what, site);
}

/* Where byte `offset` of the block's shared memory belongs: the dynamic
 * area (index 0), or static declaration i (index i + 1); -1: nowhere. */
long owner_index(const engine::worker *w, std::size_t offset, std::size_t *start, std::size_t *bytes)
{
    const std::size_t dynamic = w->grid->dynamic_bytes;
    if (offset < dynamic) {
        *start = 0;
        *bytes = dynamic;
        return 0;
    }
    const engine::block_state &b = *w->blk;
    for (unsigned i = 0; i < b.nsites; i++) {
        const engine::shared_site &site = b.sites[i];
        if (offset >= site.offset && offset - site.offset < site.bytes) {
            *start = site.offset;
            *bytes = site.bytes;
            return static_cast<long>(i) + 1;
        }
    }
    return -1;
}

[[noreturn]] void fail_shared_bounds(const engine::worker *w, const profile::shared_access &a)
{
    char what[site_text_capacity + 700], site[site_text_capacity];
    site_text(a.pc, site, sizeof site);
    const char *verb = a.atomic ? "atomic" : a.write ? "write" : "read";
    shared_owner o;
    std::size_t back = 0;
    bool have = owner_of(w, a.offset, &o);
    std::size_t start = 0, bytes = 0;
    if (!have) { /* the declaration it ran off: the nearest one before it */
        while (++back <= a.offset && owner_index(w, a.offset - back, &start, &bytes) < 0) {
        }
        have = back <= a.offset && owner_of(w, a.offset - back, &o);
        back++;
    }
    if (have) {
        const std::size_t var_start = a.offset - (back ? back - 1 : 0) - o.offset;
        std::snprintf(what, sizeof what, "a %u-byte %s at byte %zu of the block's shared memory is %zu bytes past the "
                      "end of %s%s%s (%zu bytes; the access starts at its byte %zu)",
                      a.size, verb, a.offset, a.offset + (a.size ? a.size : 1) - (var_start + o.bytes), o.name,
                      o.where[0] ? ", declared at " : "", o.where, o.bytes, a.offset - var_start);
    } else {
        std::snprintf(what, sizeof what, "a %u-byte %s at byte %zu of the block's shared memory lies in no "
                      "__shared__ variable (the block uses %zu bytes)", a.size, verb, a.offset, w->blk->shared_used);
    }
    fail(cudaErrorIllegalAddress, "__shared__ out of bounds: %s, at %s", what, site);
}

void on_shared(const profile::shared_access &a, void *)
{
    if (memcheck_now) {
        if (misaligned(a))
            fail_misaligned(a, "shared");
        const engine::worker *w = engine::this_worker();
        std::size_t start = 0, bytes = 0;
        if (owner_index(w, a.offset, &start, &bytes) < 0 || a.offset + (a.size ? a.size : 1) > start + bytes)
            fail_shared_bounds(w, a);
    }
    if (racecheck_now)
        race::access(a);
}

/* An access in the megabyte below the block's shared memory: before the
 * start of whatever lies at its byte 0 (the dynamic area, or the first
 * __shared__ declaration reached). */
[[noreturn]] void fail_before_shared(const profile::shared_access &a)
{
    engine::worker *const w = engine::this_worker();
    static thread_local char site[site_text_capacity], what[site_text_capacity + 400];
    static thread_local shared_owner o; /* per worker thread, not on the fiber's stack */
    site_text(a.pc, site, sizeof site);
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(w->shared_arena);
    const char *verb = a.atomic ? "atomic" : a.write ? "write" : "read";
    if (owner_of(w, 0, &o))
        std::snprintf(what, sizeof what, "a %u-byte %s %zu bytes before the start of the block's shared memory, "
                      "that is before %s%s%s (%zu bytes), its first variable (a negative index?)",
                      a.size, verb, static_cast<std::size_t>(start - a.addr), o.name,
                      o.where[0] ? " declared at " : "", o.where, o.bytes);
    else
        std::snprintf(what, sizeof what, "a %u-byte %s %zu bytes before the start of the block's shared memory "
                      "(a negative index?)", a.size, verb, static_cast<std::size_t>(start - a.addr));
    engine::fail_thread(w, cudaErrorIllegalAddress, "__shared__ out of bounds: %s, at %s", what, site);
}

/* ---- host pageable memory ---------------------------------------------------
 * What a GPU without HMM or ATS cannot reach (CUDA Programming Guide, "Unified
 * Memory": only systems with full unified memory support let the device
 * access memory the host allocated itself). Atomics are the accesses the
 * hooks hand over with the program's own address (an atomic's scope,
 * profile_build.hpp); an atomic outside shared memory and every device
 * allocation is host pageable memory when it lies
 *   - on the launching host thread's stack (a local variable's address);
 *   - in the main heap, between its start and the program break at the
 *     launch (malloc and new of small blocks by the host's main thread);
 *   - in a block that malloc mapped on its own (glibc maps blocks of 128 KiB
 *     or more: a page whose chunk header says "mmapped" and whose size
 *     covers the address).
 * Not told apart, so never reported: a host global's address (it lies
 * among the __device__ variables), pinned and registered host memory
 * (legal on a GPU: find_pinned, find_registered), and memory that device
 * code allocated with malloc in a kernel (thread arenas of the workers). */
std::uintptr_t heap_lo = 0, heap_hi = 0; /* [heap], up to the break at the launch */
std::mutex heap_lock;                      /* the two caches below */
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> malloc_blocks; /* found this launch */
std::unordered_set<std::uintptr_t> not_malloc_pages;                   /* scanned: in no such block */

void find_heap()
{
    static std::uintptr_t start = 0; /* found once (looked for until the heap exists) */
    if (!start) {
        FILE *maps = std::fopen("/proc/self/maps", "r");
        char line[512];
        while (maps && std::fgets(line, sizeof line, maps))
            if (std::strstr(line, "[heap]")) {
                unsigned long lo = 0, hi = 0;
                if (std::sscanf(line, "%lx-%lx", &lo, &hi) == 2)
                    start = lo;
                break;
            }
        if (maps)
            std::fclose(maps);
    }
    heap_lo = start;
    heap_hi = start ? reinterpret_cast<std::uintptr_t>(sbrk(0)) : 0;
    std::lock_guard<std::mutex> lock(heap_lock);
    malloc_blocks.clear(); /* may have been freed since */
    if (not_malloc_pages.size() > 65536) /* kept across launches: a __device__ counter's page is looked at once */
        not_malloc_pages.clear();
}

/* The readable mapping that holds addr ([lo, hi)), from /proc/self/maps. */
bool mapping_of(std::uintptr_t addr, std::uintptr_t *lo, std::uintptr_t *hi)
{
    FILE *maps = std::fopen("/proc/self/maps", "r");
    if (!maps)
        return false;
    char line[512];
    bool found = false;
    while (!found && std::fgets(line, sizeof line, maps)) {
        unsigned long l = 0, h = 0;
        char perms[8] = "";
        if (std::sscanf(line, "%lx-%lx %7s", &l, &h, perms) == 3 && addr >= l && addr < h && perms[0] == 'r')
            found = true, *lo = l, *hi = h;
    }
    std::fclose(maps);
    return found;
}

/* A block that glibc's malloc mapped by itself holds addr: [*lo, *hi). Its
 * chunk starts a page: {prev_size 0, size | IS_MMAPPED (2)}, then the data. */
bool in_mmapped_malloc_block(std::uintptr_t addr, std::uintptr_t *lo, std::uintptr_t *hi)
{
    const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const std::uintptr_t mine = addr & ~(page - 1);
    std::lock_guard<std::mutex> lock(heap_lock);
    for (const auto &b : malloc_blocks)
        if (addr >= b.first && addr < b.second)
            return *lo = b.first, *hi = b.second, true;
    if (not_malloc_pages.count(mine))
        return false;
    std::uintptr_t map_lo = 0, map_hi = 0;
    if (mapping_of(addr, &map_lo, &map_hi)) {
        /* at most 64 Mi bytes back: malloc's largest blocks of a course program */
        const std::uintptr_t floor = mine - map_lo > (std::uintptr_t{64} << 20) ? mine - (std::uintptr_t{64} << 20)
                                                                                : map_lo;
        for (std::uintptr_t p = mine;; p -= page) {
            const std::size_t *chunk = reinterpret_cast<const std::size_t *>(p);
            const std::size_t size = chunk[1] & ~std::size_t{7};
            if (chunk[0] == 0 && (chunk[1] & 7) == 2 && size % page == 0 && p + size > addr && p + size <= map_hi &&
                addr >= p + 2 * sizeof(std::size_t)) {
                malloc_blocks.emplace_back(p + 2 * sizeof(std::size_t), p + size);
                *lo = p + 2 * sizeof(std::size_t), *hi = p + size;
                return true;
            }
            if (p <= floor)
                break;
        }
    }
    not_malloc_pages.insert(mine);
    return false;
}

[[noreturn]] void fail_host_atomic(const profile::shared_access &a, const char *where)
{
    static thread_local char site[site_text_capacity];
    site_text(a.pc, site, sizeof site);
    engine::fail_thread(engine::this_worker(), cudaErrorIllegalAddress,
                        "an atomic on host memory: 0x%" PRIxPTR " is %s, at %s. Only a GPU with HMM (Linux, "
                        "the open kernel modules, kernel 6.1.24 or later, compute capability 7.5 or later) or ATS "
                        "(Grace Hopper) can reach host pageable memory; any other faults with an illegal address "
                        "(this checked build's device reports pageableMemoryAccess 0 as such a GPU does). Use "
                        "cudaMalloc'd (or cudaMallocManaged) memory and copy the result back",
                        a.addr, where, site);
}

void on_memory(const profile::shared_access &a, int space, void *)
{
    if (!memcheck_now)
        return;
    if (space == 3)
        fail_before_shared(a);
    if (space == 2 && misaligned(a))
        fail_misaligned(a, "global");
    if (space != 0 || !a.atomic)
        return;
    if (a.addr >= host_stack_lo && a.addr < host_stack_hi)
        fail_host_atomic(a, "on the host thread's stack (the address of a host variable passed to the kernel?)");
    std::uintptr_t lo = 0, hi = 0;
    const bool in_heap = a.addr >= heap_lo && a.addr < heap_hi;
    if (!in_heap && !in_mmapped_malloc_block(a.addr, &lo, &hi))
        return;
    if (engine::services.host_memory_reachable(reinterpret_cast<void *>(a.addr)))
        return; /* page-locked or registered host memory: a GPU reaches it */
    if (in_heap)
        fail_host_atomic(a, "in the host's heap (memory the host allocated with malloc or new)");
    static thread_local char where[200];
    std::snprintf(where, sizeof where, "byte %zu of a %zu-byte block that the host allocated with malloc or new "
                  "(at 0x%" PRIxPTR ")", static_cast<std::size_t>(a.addr - lo), static_cast<std::size_t>(hi - lo), lo);
    fail_host_atomic(a, where);
}

void on_launch_begin(const engine::grid_job &, void *)
{
    if (racecheck_now)
        race::launch_begin();
}

void on_launch_end(const engine::grid_job &job, void *)
{
    if (racecheck_now)
        race::launch_end(job.site.kernel, job.site.file, job.site.line);
}

profile::observer the_observer{on_launch_begin, on_block_begin, on_shared, on_memory,      on_basic_block,
                               on_barrier,      on_warp_sync,   nullptr,   on_launch_end, nullptr};

void find_host_stack()
{
    /* per launching thread, once: glibc reads /proc/self/maps for the main
     * thread's stack, which a program of many launches would pay each time */
    static thread_local std::uintptr_t known_lo = 0, known_hi = 0;
    if (known_hi) {
        host_stack_lo = known_lo, host_stack_hi = known_hi;
        return;
    }
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    void *lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        host_stack_lo = known_lo = reinterpret_cast<std::uintptr_t>(lo);
        host_stack_hi = known_hi = host_stack_lo + size;
    }
    pthread_attr_destroy(&attr);
}

/* The identifier a __shared__ declaration's source line declares, or "". */
void declared_name(const char *file, int line, char *out, std::size_t cap)
{
    out[0] = '\0';
    FILE *f = file ? std::fopen(file, "r") : nullptr;
    if (!f)
        return;
    char text[1024];
    int n = 0;
    bool found = false;
    while (std::fgets(text, sizeof text, f))
        if (++n == line) {
            found = true;
            break;
        }
    std::fclose(f);
    const char *p = found ? std::strstr(text, "__shared__") : nullptr;
    if (!p)
        return;
    p += std::strlen("__shared__");
    const char *name = nullptr;
    std::size_t len = 0;
    while (*p && *p != '[' && *p != ';' && *p != '=' && *p != ',' && *p != '\n') {
        if (std::isalpha(static_cast<unsigned char>(*p)) || *p == '_') {
            const char *start = p;
            while (std::isalnum(static_cast<unsigned char>(*p)) || *p == '_')
                p++;
            name = start;
            len = static_cast<std::size_t>(p - start);
        } else {
            p++;
        }
    }
    if (name)
        std::snprintf(out, cap, "%.*s", static_cast<int>(len), name);
}

} /* namespace */

bool memcheck_on()
{
    return profile::instrumented() && settings::memcheck() != 0; /* read once (common/settings.hpp) */
}

bool racecheck_on()
{
    return settings::racecheck() != 0;
}

/* simtlab_emu_checks_pause/resume: > 0 while paused. */
std::atomic<int> checks_paused{0};

void before_launch()
{
    const int race_env = settings::racecheck();
    const int mem_env = settings::memcheck();
    const bool built = profile::instrumented();
    if (!built && race_env == 1) {
        static std::atomic<bool> told{false};
        if (!told.exchange(true))
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_RACECHECK=1, but no kernel of this program was compiled "
                                 "with the instrumentation racecheck needs: build with `slcc` (its checked "
                                 "default, or `slcc --racecheck`, which names it) instead of `slcc --fast`, or "
                                 "configure CMake with -DSIMTLAB_EMU_PROFILE=ON\n");
    }
    const bool paused = checks_paused.load(std::memory_order_relaxed) > 0;
    racecheck_now = built && race_env != 0 && !paused;
    memcheck_now = built && mem_env != 0 && !paused;
    if (memcheck_now) {
        find_host_stack();
        find_heap();
    }
    engine::shared_redzone = memcheck_now ? 32 : 0;
    profile::set_observer(racecheck_now || memcheck_now ? &the_observer : nullptr);
}

bool owner_of(const engine::worker *w, std::size_t offset, shared_owner *out)
{
    std::size_t start = 0, bytes = 0;
    const long index = owner_index(w, offset, &start, &bytes);
    if (index < 0)
        return false;
    out->offset = offset - start;
    out->bytes = bytes;
    out->where[0] = '\0';
    if (index == 0) {
        std::snprintf(out->name, sizeof out->name, "%s", "extern __shared__ (the launch's dynamic area)");
        return true;
    }
    const engine::shared_site &site = w->blk->sites[index - 1];
    char name[64];
    declared_name(site.where.file, site.where.line, name, sizeof name);
    std::snprintf(out->name, sizeof out->name, "%s", name[0] ? name : "a __shared__ variable");
    const int needed = std::snprintf(out->where, sizeof out->where, "%s:%d", site.where.file ? site.where.file : "?",
                                     site.where.line);
    mark_if_cut(out->where, sizeof out->where, needed);
    return true;
}

void site_text(const void *pc, char *out, std::size_t cap)
{
    char file[site_text_capacity];
    int line = 0;
    if (profile::describe_site(pc, file, sizeof file, &line) && line > 0)
        mark_if_cut(out, cap, std::snprintf(out, cap, "%s:%d", file, line));
    else
        std::snprintf(out, cap, "pc %p (build with -g for its line)", pc);
}

} /* namespace checkers */
} /* namespace simtlab_emu */

extern "C" void simtlab_emu_checks_pause(void)
{
    simtlab_emu::checkers::checks_paused.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void simtlab_emu_checks_resume(void)
{
    int n = simtlab_emu::checkers::checks_paused.load(std::memory_order_relaxed);
    while (n > 0 && !simtlab_emu::checkers::checks_paused.compare_exchange_weak(n, n - 1, std::memory_order_relaxed)) {
    }
}
