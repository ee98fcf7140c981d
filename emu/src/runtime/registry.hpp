/* simtlab CPU emulator — the registry of device allocations, shared by
 * runtime/memory.cpp (which maps, registers and frees them; the layout of
 * one allocation is described there) and runtime/access.cpp (which opens
 * them to kernels and to the runtime's own copies, checks the ranges the
 * API is given, and looks addresses up for the fault handler).
 *
 * Two views: a std::map by base address under registry_lock, for the API,
 * and a fixed array of slots, each guarded by a sequence counter, that the
 * fault handler scans without locks. */
#ifndef SIMTLAB_EMU_RUNTIME_REGISTRY_HPP
#define SIMTLAB_EMU_RUNTIME_REGISTRY_HPP

#include "runtime/internal.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simtlab_emu {
namespace registry {

/* One registry slot. `seq` is odd while the slot is being rewritten; a
 * reader that sees the same even value before and after copying the slot
 * has a consistent copy. */
struct slot {
    std::atomic<unsigned> seq;
    bool live;
    allocation alloc;
    char *map_base;        /* the whole mapping, guards included */
    std::size_t map_bytes;
    char *data_pages;      /* first page after the lower guard */
    std::size_t data_bytes; /* bytes of data pages */
    bool managed;          /* cudaMallocManaged: host code may touch it at any time */
};

/* Live allocations at once, at most. 32768 slots cost about 2.5 MB. */
constexpr std::size_t max_slots = 32768;
constexpr unsigned char canary_seed = 0xA5;
constexpr std::size_t huge_page_bytes = std::size_t{2} << 20; /* x86-64 and arm64 with 4 KiB pages */

extern slot slots[max_slots];
extern std::atomic<std::size_t> slots_used; /* high-water mark of slots[] */

extern std::mutex registry_lock; /* guards everything below */
extern std::map<std::uintptr_t, std::size_t> by_base; /* base -> slot index */
extern std::vector<std::size_t> free_slots;
extern std::unordered_map<std::uintptr_t, allocation> freed; /* for double-free messages */
extern int open_depth; /* device_memory_open nesting */
extern bool host_keeps_open; /* a Thrust program: every allocation stays open (libs/thrust/thrust.cpp) */
extern unsigned long next_serial;
extern std::size_t live_bytes;

/* Opens (read-write) or closes (PROT_NONE) a slot's data pages. */
bool protect(const slot &s, bool accessible);
/* A consistent copy of slot i, or false if it is being rewritten. */
bool read_slot(std::size_t i, slot *copy);
/* How many bytes past the end were overwritten (0 when the canary is whole). */
std::size_t canary_damage(const slot &s);
/* Fills the slack with the canary again. */
void write_canary(const slot &s);
/* ", allocated at file:line" where known, else "". */
void describe_origin(const allocation &a, char *out, std::size_t n);
/* Under registry_lock: the slot of the allocation containing addr, or -1. */
long slot_containing(std::uintptr_t addr);
/* Under registry_lock: the slot whose mapping (guards and slack included)
 * holds addr, or -1. */
long slot_mapping(std::uintptr_t addr);

} /* namespace registry */
} /* namespace simtlab_emu */

#endif
