/* simtlab CPU emulator — the calls that instrumented kernels make.
 *
 * A kernel translation unit built with the instrumentation
 * (SIMTLAB_EMU_PROFILE_BUILD: plain `slcc`, the checked build, at level 0;
 * `slcc --profile` at 2; -DSIMTLAB_EMU_PROFILE=ON in CMake at 1) is
 * compiled by GCC with
 *   -fsanitize=kernel-address --param asan-instrumentation-with-call-threshold=0
 *       (stack and globals off): __asan_load4_noabort(addr) and the like
 *       before every load and store through memory, or, for a file whose
 *       code says `volatile`, -fsanitize=thread: __tsan_read4(addr) and the
 *       like, volatile accesses apart;
 *   at levels 1 and 2, -fsanitize-coverage=trace-pc:
 *       __sanitizer_cov_trace_pc() at the start of every basic block;
 * and these functions are the other end. Each asks one thread-local
 * pointer (`active`) first: outside a block of an observed launch, in host
 * code compiled in the same file, it is null and the call returns; in a
 * launch observed by the checks alone, an access that is neither near
 * shared memory nor misaligned returns next. The address decides what an
 * access is: the worker's shared arena (or the megabyte below it), a
 * device allocation, or neither (the stack, the emulator's own data),
 * which is not counted. The return address is the site: one per
 * instruction of the kernel (and per inlined copy of it).
 *
 * This file is linked into a program only when an instrumented object
 * needs it (or the spin points, below), so an ordinary build never calls
 * these sanitizer names. */
#include "common/settings.hpp"
#include "profile/state.hpp"

#include <cstdlib>
#include <cstring>

namespace simtlab_emu {
namespace profile {

namespace {

/* What record_access does when the access counts: out of line, so that
 * the hooks' common path (it does not) needs no frame and saves no
 * register. */
__attribute__((noinline)) void record_access_slow(worker_state *s, std::uintptr_t addr, unsigned size, bool store,
                                                  void *ret, std::uint8_t flags)
{
    const int space = classify(*s, addr);
    if (!space)
        return;
    const unsigned tid = detail::current_worker->cur_tid;
    if (s->obs) {
        shared_access a{s->block, tid, addr, space == 1 ? addr - s->shared_lo : 0, size, store, false, ret, flags};
        if (space == 1 && s->obs->access)
            s->obs->access(a, s->obs->ctx);
        else if (space != 1 && s->obs->memory)
            s->obs->memory(a, space, s->obs->ctx);
    }
    if (!s->collect || space == 3)
        return;
    const std::uint8_t kind = space == 1 ? (store ? ev_sst : ev_sld) : (store ? ev_gst : ev_gld);
    s->lanes[tid].push_back(event{addr, site_of(*s, reinterpret_cast<std::uintptr_t>(ret)),
                                  static_cast<std::uint16_t>(size > 0xFFFF ? 0xFFFF : size), kind, 0});
}

SIMTLAB_EMU_ALWAYS_INLINE inline void record_access(std::uintptr_t addr, unsigned size, bool store, void *ret,
                                                    std::uint8_t flags = 0)
{
    worker_state *const s = active;
    if (__builtin_expect(s == nullptr, 1))
        return;
    if (!s->collect) {
        /* The checks alone judge shared memory, the megabyte below it and
         * misaligned accesses (checks/checkers.cpp): any other load or store is
         * done with here, before it is classified. */
        const unsigned need = size >= 4 ? 4 : size ? size : 1;
        if (addr - s->below_lo >= (s->shared_lo - s->below_lo) + s->shared_bytes && (addr & (need - 1)) == 0)
            return;
    }
    record_access_slow(s, addr, size, store, ret, flags);
}

/* SIMTLAB_EMU_LOCKSTEP=0: volatile accesses take no turns. Read once. */
bool lockstep_enabled()
{
    static const bool on = settings::lockstep(); /* common/settings.hpp */
    return on;
}

/* A volatile load or store (ThreadSanitizer's instrumentation, below): the
 * checks see it first, then the lanes take it in turn (engine/lockstep_hooks.cpp
 * says why; engine/block.cpp, lockstep_access). */
SIMTLAB_EMU_ALWAYS_INLINE inline void volatile_access(const volatile void *a, unsigned size, bool store, void *ret)
{
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(a);
    record_access(addr, size, store, ret, access_volatile | access_exact);
    if (lockstep_enabled())
        detail::lockstep_access(addr);
}

} /* namespace */
} /* namespace profile */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::profile;

extern "C" {
extern __thread long simtlab_emu_spin_countdown; /* engine/block.cpp */
extern __thread long simtlab_emu_spin_reload;    /* engine/block.cpp */
extern __thread long simtlab_emu_spin_left;      /* engine/block.cpp */
void simtlab_emu_spin_watch_slow(void *pc, const std::uint64_t *regs); /* engine/block.cpp */
int simtlab_emu_trace_pc_observed(void *pc);
}

/* The SIMT counters' part of the hook. */
static inline void count_basic_block(worker_state *s, void *ret)
{
    if (s->settle) {
        s->settle = false;
        s->obs->basic_block(s->obs->ctx);
    }
    if (!s->collect)
        return;
    const unsigned tid = detail::current_worker->cur_tid;
    s->lanes[tid].push_back(event{0, site_of(*s, reinterpret_cast<std::uintptr_t>(ret)), 0, ev_block, 0});
}

/* The hook's path in a block of an observed launch (SIMT counters,
 * racecheck, memcheck), where profile/profile.cpp's block_begin sets the countdown
 * (and the watch's reload value) far below zero, so that every basic block
 * comes here: it counts the block, and the spin watch's period in
 * simtlab_emu_spin_left instead. Nonzero: the watch is due. */
extern "C" int simtlab_emu_trace_pc_observed(void *pc)
{
    if (worker_state *const s = active)
        count_basic_block(s, pc);
    if (--simtlab_emu_spin_left >= 0)
        return 0;
    simtlab_emu_spin_left = detail::spin_watch_period;
    return 1;
}

/* __sanitizer_cov_trace_pc: GCC calls it at every basic block of a file
 * built with trace-pc (the counters' builds). simtlab_emu_spin_point, the
 * same code, is what the spin builds (SIMTLAB_EMU_SPIN_BUILD) call at the
 * top of each loop iteration (emu/src/tools/rewriter/rewrite_spin.c). The common
 * path is one thread-local decrement and a branch, with no frame: the
 * hook's cost is mostly the call itself. Below zero: in an observed block
 * the counters' path above; then, when the watch is due, its entry, which
 * saves the caller's callee-saved registers (rbx, rbp, r12-r15) before any
 * compiled code can touch them and passes them, with the stack of the
 * hook's caller above them, to simtlab_emu_spin_watch_slow: the state by
 * which the watch tells a spin from a computation. */
#if defined(__x86_64__) && defined(__ELF__)
__asm__(".text\n"
        ".globl __sanitizer_cov_trace_pc\n"
        ".type __sanitizer_cov_trace_pc, @function\n"
        ".globl simtlab_emu_spin_point\n"
        ".type simtlab_emu_spin_point, @function\n"
        ".p2align 4\n"
        "__sanitizer_cov_trace_pc:\n"
        "simtlab_emu_spin_point:\n"
        "  .cfi_startproc\n"
        "  movq simtlab_emu_spin_countdown@gottpoff(%rip), %rax\n"
        "  subq $1, %fs:(%rax)\n"
        "  js 1f\n"
        "  ret\n"
        "1:\n"
        "  movq simtlab_emu_spin_reload@gottpoff(%rip), %rax\n"
        "  cmpq $0, %fs:(%rax)\n"
        "  jns simtlab_emu_spin_watch_entry\n"
        "  movq (%rsp), %rdi\n" /* the return address: the basic block's */
        "  subq $8, %rsp\n"
        "  .cfi_adjust_cfa_offset 8\n"
        "  call simtlab_emu_trace_pc_observed@PLT\n"
        "  addq $8, %rsp\n"
        "  .cfi_adjust_cfa_offset -8\n"
        "  testl %eax, %eax\n"
        "  jnz simtlab_emu_spin_watch_entry\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size __sanitizer_cov_trace_pc, .-__sanitizer_cov_trace_pc\n"
        ".size simtlab_emu_spin_point, .-simtlab_emu_spin_point\n"
        ".globl simtlab_emu_spin_watch_entry\n"
        ".hidden simtlab_emu_spin_watch_entry\n"
        ".type simtlab_emu_spin_watch_entry, @function\n"
        "simtlab_emu_spin_watch_entry:\n"
        "  .cfi_startproc\n"
        "  subq $56, %rsp\n"
        "  .cfi_adjust_cfa_offset 56\n"
        "  movq %rbx, 0(%rsp)\n"
        "  movq %rbp, 8(%rsp)\n"
        "  movq %r12, 16(%rsp)\n"
        "  movq %r13, 24(%rsp)\n"
        "  movq %r14, 32(%rsp)\n"
        "  movq %r15, 40(%rsp)\n"
        "  movq 56(%rsp), %rdi\n" /* the return address: the basic block's */
        "  movq %rsp, %rsi\n"
        "  call simtlab_emu_spin_watch_slow@PLT\n"
        "  addq $56, %rsp\n"
        "  .cfi_adjust_cfa_offset -56\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size simtlab_emu_spin_watch_entry, .-simtlab_emu_spin_watch_entry\n");
#else
extern "C" void __sanitizer_cov_trace_pc(void)
{
    if (__builtin_expect(--simtlab_emu_spin_countdown < 0, 0) &&
        (simtlab_emu_spin_reload >= 0 || simtlab_emu_trace_pc_observed(__builtin_return_address(0))))
        simtlab_emu_spin_watch_slow(__builtin_return_address(0), nullptr);
}
/* the same code under the spin points' name */
extern "C" void simtlab_emu_spin_point(void) __attribute__((alias("__sanitizer_cov_trace_pc")));
#endif

extern "C" {

#define SIMTLAB_EMU_ACCESS_HOOKS(n)                                                                      \
    void __asan_load##n##_noabort(std::uintptr_t a) { record_access(a, n, false, __builtin_return_address(0)); } \
    void __asan_store##n##_noabort(std::uintptr_t a) { record_access(a, n, true, __builtin_return_address(0)); } \
    void __asan_load##n(std::uintptr_t a) { record_access(a, n, false, __builtin_return_address(0)); }          \
    void __asan_store##n(std::uintptr_t a) { record_access(a, n, true, __builtin_return_address(0)); }
SIMTLAB_EMU_ACCESS_HOOKS(1)
SIMTLAB_EMU_ACCESS_HOOKS(2)
SIMTLAB_EMU_ACCESS_HOOKS(4)
SIMTLAB_EMU_ACCESS_HOOKS(8)
SIMTLAB_EMU_ACCESS_HOOKS(16)
#undef SIMTLAB_EMU_ACCESS_HOOKS

/* Files built with ThreadSanitizer's instrumentation (those whose code
 * says `volatile`: emu/src/tools/slcc/slcc.c) call these before every load and
 * store, and the volatile ones apart (--param=tsan-distinguish-volatile=1).
 * Their other calls (atomics, __tsan_init...) are lockstep_hooks.cpp. In
 * a build without the checks `active` is null and each returns at once. */
#define SIMTLAB_EMU_TSAN_HOOKS(n)                                                                              \
    void __tsan_read##n(const void *a)                                                                         \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, false, __builtin_return_address(0), access_exact); \
    }                                                                                                          \
    void __tsan_write##n(void *a)                                                                              \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, true, __builtin_return_address(0), access_exact);  \
    }                                                                                                          \
    void __tsan_unaligned_read##n(const void *a)                                                               \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, false, __builtin_return_address(0), access_exact); \
    }                                                                                                          \
    void __tsan_unaligned_write##n(void *a)                                                                    \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, true, __builtin_return_address(0), access_exact);  \
    }                                                                                                          \
    void __tsan_read##n##_pc(const void *a, void *pc)                                                          \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, false, pc, access_exact);                       \
    }                                                                                                          \
    void __tsan_write##n##_pc(void *a, void *pc)                                                               \
    {                                                                                                          \
        record_access(reinterpret_cast<std::uintptr_t>(a), n, true, pc, access_exact);                         \
    }                                                                                                          \
    void __tsan_volatile_read##n(const volatile void *a) { volatile_access(a, n, false, __builtin_return_address(0)); } \
    void __tsan_volatile_write##n(volatile void *a) { volatile_access(a, n, true, __builtin_return_address(0)); }      \
    void __tsan_unaligned_volatile_read##n(const volatile void *a)                                             \
    {                                                                                                          \
        volatile_access(a, n, false, __builtin_return_address(0));                                             \
    }                                                                                                          \
    void __tsan_unaligned_volatile_write##n(volatile void *a)                                                  \
    {                                                                                                          \
        volatile_access(a, n, true, __builtin_return_address(0));                                              \
    }
SIMTLAB_EMU_TSAN_HOOKS(1)
SIMTLAB_EMU_TSAN_HOOKS(2)
SIMTLAB_EMU_TSAN_HOOKS(4)
SIMTLAB_EMU_TSAN_HOOKS(8)
SIMTLAB_EMU_TSAN_HOOKS(16)
#undef SIMTLAB_EMU_TSAN_HOOKS
void __tsan_read_range(const void *a, unsigned long n)
{
    record_access(reinterpret_cast<std::uintptr_t>(a), static_cast<unsigned>(n), false, __builtin_return_address(0),
                  access_exact);
}
void __tsan_write_range(const void *a, unsigned long n)
{
    record_access(reinterpret_cast<std::uintptr_t>(a), static_cast<unsigned>(n), true, __builtin_return_address(0),
                  access_exact);
}

void __asan_loadN_noabort(std::uintptr_t a, std::size_t n) { record_access(a, static_cast<unsigned>(n), false, __builtin_return_address(0)); }
void __asan_storeN_noabort(std::uintptr_t a, std::size_t n) { record_access(a, static_cast<unsigned>(n), true, __builtin_return_address(0)); }
void __asan_loadN(std::uintptr_t a, std::size_t n) { record_access(a, static_cast<unsigned>(n), false, __builtin_return_address(0)); }
void __asan_storeN(std::uintptr_t a, std::size_t n) { record_access(a, static_cast<unsigned>(n), true, __builtin_return_address(0)); }
/* GCC calls this before a noreturn call (a device assert's failure), and
 * the other two around a file's dynamic initialisers: nothing to do. */
void __asan_handle_no_return(void) {}
void __asan_before_dynamic_init(const char *) {}
void __asan_after_dynamic_init(void) {}

/* Around the emulator's atomics (device_atomic.hpp): the atomic is one
 * event of its own, and the loads, stores and retry loop of its CPU
 * implementation are not the kernel's. */
void simtlab_emu_profile_atomic_begin(const void *address, unsigned size)
{
    worker_state *const s = active;
    if (!s)
        return;
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(address);
    const int space = classify(*s, addr);
    const unsigned tid = detail::current_worker->cur_tid;
    if (s->obs) {
        shared_access a{s->block, tid, addr, space == 1 ? addr - s->shared_lo : 0, size, true, true,
                        __builtin_return_address(0)};
        if (space == 1 && s->obs->access)
            s->obs->access(a, s->obs->ctx);
        else if (space != 1 && s->obs->memory)
            s->obs->memory(a, space, s->obs->ctx);
    }
    if ((space == 1 || space == 2) && s->collect)
        s->lanes[tid].push_back(event{addr, site_of(*s, reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))),
                                      static_cast<std::uint16_t>(size), space == 1 ? ev_satom : ev_gatom, 0});
    quieted = s;
    active = nullptr;
}

void simtlab_emu_profile_atomic_end(void)
{
    if (quieted) {
        active = quieted;
        quieted = nullptr;
    }
}

} /* extern "C" */

void simtlab_emu::detail::profile_kernel_entry()
{
    worker_state *const s = active;
    if (s && s->collect)
        s->lanes[current_worker->cur_tid].clear(); /* the launch wrapper's blocks: a thread starts once */
}

void simtlab_emu::detail::profile_thread_exit()
{
    worker_state *const s = active;
    if (s && s->collect)
        s->lanes[current_worker->cur_tid].push_back(event{0, 0, 0, ev_end, 0});
}

/* The profile-build variants of engine.hpp's inline barrier and __shared__
 * lookup: compiled here, without instrumentation, so that the engine's own
 * branches (the first thread to arrive, the first to reach a declaration)
 * do not show up as the kernel's divergence. */
int simtlab_emu::detail::sync_block_uninstrumented(sync_mode mode, int predicate, here where)
{
    return sync_block(mode, predicate, where);
}

/* warp_collective out of line (engine.hpp): a warp operation's function
 * runs, on the last lane to arrive, for every lane of the mask; the spin
 * watch must not switch threads inside it. */
void simtlab_emu::detail::warp_collective_uninstrumented(unsigned mask, void *lane_data, warp_fn fn, void *ctx,
                                                         const char *op, here where)
{
    worker_hot *const w = current_worker;
    const bool held = w->no_yield;
    w->no_yield = true;
    const wait_switch s = warp_arrive(mask, lane_data, fn, ctx, op, where);
    w->no_yield = held;
    if (s.tid != ~0u)
        switch_from(current_worker, *current_worker->hot, s.tid, s.target);
}

void *simtlab_emu::detail::shared_lookup_uninstrumented(void *const *key, std::size_t bytes, std::size_t align,
                                                        here where)
{
    worker_hot *const w = current_worker;
    if (w->in_block && w->hot->shared_key == key)
        return w->hot->shared_ptr;
    return shared_alloc(key, bytes, align, where);
}
