/* simtlab CPU emulator — access to device memory: opening every allocation
 * to a launch and closing it again (checking each canary), opening only the
 * allocations a runtime copy touches, classifying a pointer the API is given
 * (device allocation, guard or slack, elsewhere) and checking a range
 * against its allocation, and the lock-free lookup the fault handler uses.
 * The allocations themselves: runtime_memory.cpp. */
#include "runtime/registry.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <sys/mman.h>

namespace simtlab_emu {

using namespace registry;

/* ---- internal.hpp ------------------------------------------------------ */

bool find_allocation(std::uintptr_t addr, std::size_t window, allocation *out, std::ptrdiff_t *offset)
{
    /* No locks, no allocation: this runs in the fault handler. */
    std::size_t n = slots_used.load(std::memory_order_acquire);
    bool found = false;
    std::uintptr_t best = 0;
    for (std::size_t i = 0; i < n; ++i) {
        slot s;
        if (!read_slot(i, &s) || !s.live)
            continue;
        std::uintptr_t lo = s.alloc.base, hi = s.alloc.base + s.alloc.size;
        std::uintptr_t distance = addr < lo ? lo - addr : (addr >= hi ? addr - hi + 1 : 0);
        if (distance <= window && (!found || distance < best)) {
            found = true;
            best = distance;
            *out = s.alloc;
            *offset = static_cast<std::ptrdiff_t>(addr - lo);
        }
    }
    return found;
}

void device_memory_open()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    if (open_depth++ > 0)
        return;
    for (const auto &entry : by_base)
        protect(slots[entry.second], true);
}

cudaError_t device_memory_close()
{
    std::lock_guard<std::mutex> hold(registry_lock);
    if (open_depth == 0 || --open_depth > 0)
        return cudaSuccess;
    cudaError_t result = cudaSuccess;
    for (const auto &entry : by_base) {
        slot &s = slots[entry.second];
        std::size_t damage = canary_damage(s);
        if (damage > 0 && result == cudaSuccess) {
            char origin[512];
            describe_origin(s.alloc, origin, sizeof origin);
            runtime::diagnose("a kernel wrote up to %zu byte%s past the end of device allocation #%lu (%zu bytes at "
                              "0x%" PRIxPTR ", %s); on a GPU this silently corrupts whatever lies next to it",
                              damage, damage == 1 ? "" : "s", s.alloc.serial, s.alloc.size, s.alloc.base, origin);
            result = cudaErrorIllegalAddress;
        }
        if (damage > 0)
            write_canary(s); /* report each overflow once */
        protect(s, false);
    }
    return result;
}

/* ---- runtime/internal.hpp ---------------------------------------------- */

namespace runtime {

void for_each_allocation(void (*visit)(const allocation &a, void *ctx), void *ctx)
{
    std::lock_guard<std::mutex> lock(registry_lock);
    for (const auto &entry : by_base)
        visit(slots[entry.second].alloc, ctx);
}

/* A pointer in a guard page or the slack is neither host nor device memory. */
cudaError_t reject_guard(const located &l, const void *ptr, const char *what)
{
    char origin[512];
    describe_origin(l.alloc, origin, sizeof origin);
    std::ptrdiff_t past = l.offset - static_cast<std::ptrdiff_t>(l.alloc.size);
    if (l.offset >= 0)
        diagnose("%s 0x%" PRIxPTR " is %td byte%s past the end of device allocation #%lu (%zu bytes at "
                 "0x%" PRIxPTR ", %s)%s",
                 what, reinterpret_cast<std::uintptr_t>(ptr), past, past == 1 ? "" : "s", l.alloc.serial,
                 l.alloc.size, l.alloc.base, origin,
                 past == 0 ? ": it is the end pointer, one past the last byte" : "");
    else
        diagnose("%s 0x%" PRIxPTR " is %td bytes before device allocation #%lu (%zu bytes at 0x%" PRIxPTR ", %s)",
                 what, reinterpret_cast<std::uintptr_t>(ptr), -l.offset, l.alloc.serial, l.alloc.size, l.alloc.base,
                 origin);
    return cudaErrorInvalidValue;
}

located locate(const void *ptr)
{
    located l{region::host, allocation{}, 0, false};
    std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
    std::lock_guard<std::mutex> hold(registry_lock);
    long i = slot_mapping(addr);
    if (i < 0) {
        /* A __constant__ or __device__ variable that a symbol call has
         * named is device memory too (runtime/unified.cpp). */
        if (find_symbol(addr, &l.alloc.base, &l.alloc.size)) {
            l.where = region::device;
            l.offset = static_cast<std::ptrdiff_t>(addr - l.alloc.base);
        }
        return l;
    }
    l.alloc = slots[i].alloc;
    l.offset = static_cast<std::ptrdiff_t>(addr - l.alloc.base);
    bool inside = addr >= l.alloc.base && addr < l.alloc.base + l.alloc.size;
    l.where = inside ? region::device : region::device_guard;
    l.managed = slots[i].managed;
    return l;
}

cudaError_t check_device_range(const void *ptr, std::size_t bytes, const char *what)
{
    std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
    located l = locate(ptr);
    if (l.where == region::device_guard)
        return reject_guard(l, ptr, what);
    if (l.where == region::host) {
        runtime::diagnose("%s 0x%" PRIxPTR " is not device memory (no live cudaMalloc allocation contains it)", what,
                          addr);
        return cudaErrorInvalidValue;
    }
    std::size_t room = l.alloc.size - static_cast<std::size_t>(l.offset);
    if (bytes <= room)
        return cudaSuccess;
    char origin[512];
    describe_origin(l.alloc, origin, sizeof origin);
    std::size_t over = bytes - room;
    runtime::diagnose("%s range 0x%" PRIxPTR " + %zu bytes runs %zu byte%s past the end of device allocation #%lu "
                      "(%zu bytes at 0x%" PRIxPTR ", %s)",
                      what, addr, bytes, over, over == 1 ? "" : "s", l.alloc.serial, l.alloc.size, l.alloc.base,
                      origin);
    return cudaErrorInvalidValue;
}

device_access::device_access(const void *a, const void *b, const void *c) : ptrs_{a, b, c}
{
    registry_lock.lock();
    if (open_depth > 0)
        return; /* a launch already holds everything open */
    for (const void *p : ptrs_) {
        long i = p ? slot_containing(reinterpret_cast<std::uintptr_t>(p)) : -1;
        if (i >= 0)
            protect(slots[i], true);
    }
}

device_access::~device_access()
{
    if (open_depth == 0) {
        for (const void *p : ptrs_) {
            long i = p ? slot_containing(reinterpret_cast<std::uintptr_t>(p)) : -1;
            if (i >= 0)
                protect(slots[i], false);
        }
    }
    registry_lock.unlock();
}

} /* namespace runtime */
} /* namespace simtlab_emu */
