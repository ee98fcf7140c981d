/* simtlab CPU emulator — shared memory.
 *
 * Each worker owns one arena, as large as the most shared memory a block may
 * have (the device's opt-in limit), with a PROT_NONE guard page after it.
 * Layout of a block's shared memory:
 *
 *   [ dynamic (the <<<>>> third argument, 16-byte aligned) | static __shared__
 *     declarations, in the order the block's threads first reach them ]
 *
 * Dynamic memory comes first because its size is known when the block
 * starts, while static declarations are only discovered as threads run.
 * Everything is poisoned with 0xFF bytes (a NaN for float and double, -1 for
 * integers) so that a read before any write shows up in the results. */
#include "engine/internal.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace simtlab_emu {
namespace engine {

constexpr unsigned char poison_byte = 0xFF;

static std::size_t round_up(std::size_t value, std::size_t align)
{
    return (value + align - 1) / align * align;
}

/* PROT_NONE reserved around the arena (address space only, no memory):
 * an index far before its start or far past its end (a shared array
 * indexed with a global index) faults here, and the fault handler names
 * shared memory, instead of landing silently in some other mapping. */
constexpr std::size_t arena_guard_bytes = std::size_t{1} << 20;

bool shared_arena_init(worker *w, std::size_t capacity)
{
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    capacity = round_up(capacity ? capacity : 16, 16); /* keeps the arena 16-byte aligned */
    const std::size_t bytes = round_up(capacity, page);
    const std::size_t total = arena_guard_bytes + bytes + arena_guard_bytes;
    void *map = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return false;
    char *arena = static_cast<char *>(map) + arena_guard_bytes;
    if (mprotect(arena, bytes, PROT_READ | PROT_WRITE) != 0) {
        munmap(map, total);
        return false;
    }
    /* The arena ends exactly at the upper guard, so that running off the
     * end of the largest possible allocation faults. */
    w->shared_arena = arena + (bytes - capacity);
    w->shared_capacity = capacity;
    return true;
}

std::size_t shared_redzone = 0;

void shared_block_begin(worker *w)
{
    block_state &b = *w->blk;
    const std::size_t dynamic = w->grid->dynamic_bytes;
    b.nsites = 0;
    b.shared_key = nullptr;
    b.shared_ptr = nullptr;
    b.shared_used = round_up(dynamic, 16) + (dynamic ? shared_redzone : 0);
    if (dynamic)
        std::memset(w->shared_arena, poison_byte, dynamic);
}

bool shared_arena_contains(const worker *w, std::uintptr_t addr, bool *in_guard)
{
    const auto start = reinterpret_cast<std::uintptr_t>(w->shared_arena);
    if (!start)
        return false;
    const std::uintptr_t end = start + w->shared_capacity;
    if (addr >= start && addr < end) {
        *in_guard = false;
        return true;
    }
    if (addr >= start - arena_guard_bytes && addr < end + arena_guard_bytes) {
        *in_guard = true;
        return true;
    }
    return false;
}

} /* namespace engine */

using namespace engine;

void *dynamic_shared()
{
    worker *w = this_worker();
    return w && w->in_block ? w->shared_arena : nullptr;
}

void *shared_alloc(void *const *site_key, std::size_t bytes, std::size_t align, here where)
{
    worker *w = this_worker();
    if (!w || !w->in_block)
        return nullptr;
    block_state &b = *w->blk;
    for (unsigned i = 0; i < b.nsites; i++) {
        if (b.sites[i].key == site_key) {
            b.shared_key = site_key; /* shared_var's next lookup is inline */
            b.shared_ptr = w->shared_arena + b.sites[i].offset;
            return b.shared_ptr;
        }
    }
    /* First thread of the block here: allocate and poison. */
    std::size_t offset = round_up(b.shared_used + (b.nsites ? shared_redzone : 0), align < 16 ? 16 : align);
    const std::size_t limit = w->grid->shared_limit;
    if (offset + bytes > limit) /* no room for the checkers' gap: none */
        offset = round_up(b.shared_used, align < 16 ? 16 : align);
    if (offset + bytes > limit || offset + bytes < offset)
        fail_thread(w, cudaErrorInvalidValue,
                    "the __shared__ declaration at %s:%d needs %zu bytes, but the block already "
                    "uses %zu bytes of shared memory (%zu dynamic) and may use at most %zu",
                    where.file, where.line, bytes, b.shared_used,
                    w->grid->dynamic_bytes, limit);
    if (b.nsites == max_shared_sites)
        fail_thread(w, cudaErrorNotSupported,
                    "the __shared__ declaration at %s:%d is the block's %u-th: the emulator "
                    "supports at most %u per kernel",
                    where.file, where.line, b.nsites + 1, max_shared_sites);
    b.sites[b.nsites].key = site_key;
    b.sites[b.nsites].offset = offset;
    b.sites[b.nsites].bytes = bytes;
    b.sites[b.nsites].where = where;
    b.nsites++;
    b.shared_used = offset + bytes;
    std::memset(w->shared_arena + offset, poison_byte, bytes);
    b.shared_key = site_key;
    b.shared_ptr = w->shared_arena + offset;
    return b.shared_ptr;
}

} /* namespace simtlab_emu */
