/* simtlab CPU emulator — the checkers' observer (checkers.hpp): it installs
 * itself on the SIMT counters' hooks before each launch of a program that
 * has instrumented kernels, hands shared-memory accesses to racecheck
 * (racecheck.cpp), and checks what compute-sanitizer's memcheck would:
 *   - a shared-memory access outside every __shared__ declaration and the
 *     dynamic area (past the end of an array, into the padding between
 *     two, past the dynamic area): cudaErrorIllegalAddress naming the
 *     variable it ran off;
 *   - a misaligned access of 2, 4 or more bytes (to shared memory or a
 *     device allocation): cudaErrorMisalignedAddress;
 *   - an atomic on the launching host thread's stack (a host variable's
 *     address passed to the kernel): cudaErrorIllegalAddress naming host
 *     memory.
 * Addresses far outside the shared arena fault on its guard regions in any
 * build (engine_shared.cpp, engine_fault.cpp). */
#include "checkers.hpp"
#include "runtime_internal.hpp"

#include <pthread.h>

#include <atomic>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace simtlab_emu {
namespace checkers {

namespace {

/* -1 unset, 0, 1 */
int env_switch(const char *name)
{
    const char *v = std::getenv(name);
    if (!v || !*v)
        return -1;
    return std::strcmp(v, "0") == 0 ? 0 : 1;
}

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
    char what[160], site[256];
    std::snprintf(what, sizeof what, "a %u-byte %s of %s memory at 0x%" PRIxPTR, a.size,
                  a.atomic ? "atomic" : a.write ? "write" : "read", space, a.addr);
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
    char what[700], site[256];
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

void on_memory(const profile::shared_access &a, int space, void *)
{
    if (!memcheck_now)
        return;
    if (space == 2 && misaligned(a))
        fail_misaligned(a, "global");
    if (space == 0 && a.atomic && a.addr >= host_stack_lo && a.addr < host_stack_hi) {
        char what[160], site[256];
        std::snprintf(what, sizeof what, "0x%" PRIxPTR, a.addr);
        site_text(a.pc, site, sizeof site);
        fail(cudaErrorIllegalAddress,
             "an atomic on host memory: %s is on the host thread's stack (the address of a host variable passed to "
             "the kernel?), at %s; a GPU cannot reach it. Use cudaMalloc'd memory and copy the result back",
             what, site);
    }
}

profile::observer the_observer{nullptr,    on_block_begin, on_shared, on_memory, on_basic_block,
                               on_barrier, on_warp_sync,   nullptr,   nullptr,   nullptr};

void find_host_stack()
{
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    void *lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
        host_stack_lo = reinterpret_cast<std::uintptr_t>(lo);
        host_stack_hi = host_stack_lo + size;
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

bool racecheck_on()
{
    static const int setting = env_switch("SIMTLAB_EMU_RACECHECK");
    return setting != 0;
}

void before_launch()
{
    static const int race_env = env_switch("SIMTLAB_EMU_RACECHECK");
    static const int mem_env = env_switch("SIMTLAB_EMU_MEMCHECK");
    const bool built = profile::instrumented();
    if (!built && race_env == 1) {
        static std::atomic<bool> told{false};
        if (!told.exchange(true))
            std::fprintf(stderr, "simtlab-emu: SIMTLAB_EMU_RACECHECK=1, but no kernel of this program was compiled "
                                 "with the instrumentation racecheck needs: build with `slcc --racecheck` (or "
                                 "--profile), or configure CMake with -DSIMTLAB_EMU_PROFILE=ON\n");
    }
    racecheck_now = built && race_env != 0;
    memcheck_now = built && mem_env != 0;
    if (memcheck_now)
        find_host_stack();
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
    std::snprintf(out->where, sizeof out->where, "%s:%d", site.where.file ? site.where.file : "?", site.where.line);
    return true;
}

void site_text(const void *pc, char *out, std::size_t cap)
{
    char file[256];
    int line = 0;
    if (profile::describe_site(pc, file, sizeof file, &line) && line > 0)
        std::snprintf(out, cap, "%s:%d", file, line);
    else
        std::snprintf(out, cap, "pc %p (build with -g for its line)", pc);
}

} /* namespace checkers */
} /* namespace simtlab_emu */
