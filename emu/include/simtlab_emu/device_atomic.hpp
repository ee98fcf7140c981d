/* simtlab CPU emulator — atomics, memory fences and clocks.
 *
 * The engine may run the threads of a grid on several OS threads, so every
 * atomic is a real CPU atomic (GCC __atomic builtins, sequentially
 * consistent: stronger than CUDA's relaxed atomics, never weaker). What
 * the hardware has no single instruction for (float add on old GPUs, min,
 * max, inc, dec) is a compare-and-swap loop, which is also how CUDA's own
 * documentation builds atomics it lacks.
 *
 * Signatures and return values (always the old value) follow the CUDA
 * Programming Guide, "Atomic Functions". The _block and _system variants
 * differ from the plain ones only in the scope they make atomic, and every
 * emulated atomic is atomic in the whole process, so they are aliases.
 */
#ifndef SIMTLAB_EMU_DEVICE_ATOMIC_HPP
#define SIMTLAB_EMU_DEVICE_ATOMIC_HPP

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>

#include <simtlab_emu/engine.hpp>

namespace simtlab_emu {
namespace atomic {

constexpr int order = __ATOMIC_SEQ_CST;

/* Every atomic tells the engine what it found (engine.hpp, spin_note): a
 * thread that keeps finding the same value at the same address spins, and
 * lets the other threads of its block run. `file` and `line` are the
 * caller's (the default arguments below), for the diagnostic of a spin
 * that never ends. */
template <class T>
SIMTLAB_EMU_ALWAYS_INLINE inline T noted(const T *address, T old, const char *file, int line)
{
    static_assert(sizeof(T) <= 8, "an atomic of at most 8 bytes");
    std::uint64_t bits = 0;
    __builtin_memcpy(&bits, &old, sizeof(T));
    ::simtlab_emu::detail::spin_note(address, bits, ::simtlab_emu::here{file, line});
    return old;
}

/* *address = update(old), retried until no other thread wrote in between;
 * returns old. Works for any trivially copyable T of a size the CPU can
 * compare-and-swap (the generic __atomic builtins compare the bytes, so a
 * float NaN does not spin forever). */
template <class T, class F>
inline T update(T *address, F update_fn, const char *file, int line)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(address); /* the counters see one atomic, not this loop */
    T old;
    __atomic_load(address, &old, order);
    T desired = update_fn(old);
    while (!__atomic_compare_exchange(address, &old, &desired, false, order, order))
        desired = update_fn(old);
    return noted(address, old, file, line);
}

} /* namespace atomic */
} /* namespace simtlab_emu */

/* The caller's place, as default arguments (GCC evaluates them where the
 * atomic is called), and the note of what the atomic found. */
#define SIMTLAB_EMU_AT_CALLER , const char *at_file_ = __builtin_FILE(), int at_line_ = __builtin_LINE()
#define SIMTLAB_EMU_NOTED(address, old) ::simtlab_emu::atomic::noted(address, old, at_file_, at_line_)

/* ---- add, sub, exchange ---------------------------------------------------- */
inline int atomicAdd(int *address, int val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST)); }
inline unsigned atomicAdd(unsigned *address, unsigned val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST)); }
inline unsigned long long atomicAdd(unsigned long long *address, unsigned long long val SIMTLAB_EMU_AT_CALLER)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(address);
    return SIMTLAB_EMU_NOTED(address, __atomic_fetch_add(address, val, __ATOMIC_SEQ_CST));
}
inline float atomicAdd(float *address, float val SIMTLAB_EMU_AT_CALLER)
{
    return ::simtlab_emu::atomic::update(address, [val](float old) { return old + val; }, at_file_, at_line_);
}
inline double atomicAdd(double *address, double val SIMTLAB_EMU_AT_CALLER)
{
    return ::simtlab_emu::atomic::update(address, [val](double old) { return old + val; }, at_file_, at_line_);
}

inline int atomicSub(int *address, int val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_sub(address, val, __ATOMIC_SEQ_CST)); }
inline unsigned atomicSub(unsigned *address, unsigned val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_sub(address, val, __ATOMIC_SEQ_CST)); }

inline int atomicExch(int *address, int val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_exchange_n(address, val, __ATOMIC_SEQ_CST)); }
inline unsigned atomicExch(unsigned *address, unsigned val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_exchange_n(address, val, __ATOMIC_SEQ_CST)); }
inline unsigned long long atomicExch(unsigned long long *address, unsigned long long val SIMTLAB_EMU_AT_CALLER)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(address);
    return SIMTLAB_EMU_NOTED(address, __atomic_exchange_n(address, val, __ATOMIC_SEQ_CST));
}
inline float atomicExch(float *address, float val SIMTLAB_EMU_AT_CALLER)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(address);
    float old;
    __atomic_exchange(address, &val, &old, __ATOMIC_SEQ_CST);
    return SIMTLAB_EMU_NOTED(address, old);
}

/* ---- min, max ------------------------------------------------------------- */
#define SIMTLAB_EMU_ATOMIC_MINMAX(type)                                                              \
    inline type atomicMin(type *address, type val SIMTLAB_EMU_AT_CALLER)                                                  \
    {                                                                                                \
        return ::simtlab_emu::atomic::update(address, [val](type old) { return val < old ? val : old; }, at_file_, at_line_); \
    }                                                                                                \
    inline type atomicMax(type *address, type val SIMTLAB_EMU_AT_CALLER)                                                  \
    {                                                                                                \
        return ::simtlab_emu::atomic::update(address, [val](type old) { return old < val ? val : old; }, at_file_, at_line_); \
    }
SIMTLAB_EMU_ATOMIC_MINMAX(int)
SIMTLAB_EMU_ATOMIC_MINMAX(unsigned)
SIMTLAB_EMU_ATOMIC_MINMAX(long long)
SIMTLAB_EMU_ATOMIC_MINMAX(unsigned long long)
#undef SIMTLAB_EMU_ATOMIC_MINMAX

/* ---- inc, dec: counters that wrap at val ------------------------------------ */
/* ((old >= val) ? 0 : old + 1), by the Programming Guide. */
inline unsigned atomicInc(unsigned *address, unsigned val SIMTLAB_EMU_AT_CALLER)
{
    return ::simtlab_emu::atomic::update(address, [val](unsigned old) { return old >= val ? 0u : old + 1u; }, at_file_, at_line_);
}
/* (((old == 0) || (old > val)) ? val : old - 1), by the Programming Guide. */
inline unsigned atomicDec(unsigned *address, unsigned val SIMTLAB_EMU_AT_CALLER)
{
    return ::simtlab_emu::atomic::update(address,
                                         [val](unsigned old) { return (old == 0 || old > val) ? val : old - 1u; },
                                         at_file_, at_line_);
}

/* ---- compare and swap: *address = (old == compare) ? val : old ------------- */
#define SIMTLAB_EMU_ATOMIC_CAS(type)                                                                 \
    inline type atomicCAS(type *address, type compare, type val SIMTLAB_EMU_AT_CALLER)                                    \
    {                                                                                                \
        SIMTLAB_EMU_PROFILE_ATOMIC(address);                                                         \
        /* On failure the builtin stores the value it found into `compare`. */                       \
        __atomic_compare_exchange_n(address, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return SIMTLAB_EMU_NOTED(address, compare);                                                  \
    }
SIMTLAB_EMU_ATOMIC_CAS(int)
SIMTLAB_EMU_ATOMIC_CAS(unsigned)
SIMTLAB_EMU_ATOMIC_CAS(unsigned long long)
SIMTLAB_EMU_ATOMIC_CAS(unsigned short)
#undef SIMTLAB_EMU_ATOMIC_CAS

/* ---- bitwise ---------------------------------------------------------------- */
#define SIMTLAB_EMU_ATOMIC_BITS(type)                                                                \
    inline type atomicAnd(type *address, type val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_and(address, val, __ATOMIC_SEQ_CST)); } \
    inline type atomicOr(type *address, type val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_or(address, val, __ATOMIC_SEQ_CST)); }   \
    inline type atomicXor(type *address, type val SIMTLAB_EMU_AT_CALLER) { SIMTLAB_EMU_PROFILE_ATOMIC(address); return SIMTLAB_EMU_NOTED(address, __atomic_fetch_xor(address, val, __ATOMIC_SEQ_CST)); }
SIMTLAB_EMU_ATOMIC_BITS(int)
SIMTLAB_EMU_ATOMIC_BITS(unsigned)
SIMTLAB_EMU_ATOMIC_BITS(unsigned long long)
#undef SIMTLAB_EMU_ATOMIC_BITS

/* ---- scoped variants: the same operation (see the header comment) ------------ */
#define SIMTLAB_EMU_ATOMIC_SCOPED(name)                                                              \
    template <class... A>                                                                            \
    inline auto name##_block(A... args)->decltype(name(args...)) { return name(args...); }           \
    template <class... A>                                                                            \
    inline auto name##_system(A... args)->decltype(name(args...)) { return name(args...); }
SIMTLAB_EMU_ATOMIC_SCOPED(atomicAdd)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicSub)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicExch)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicMin)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicMax)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicInc)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicDec)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicCAS)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicAnd)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicOr)
SIMTLAB_EMU_ATOMIC_SCOPED(atomicXor)
#undef SIMTLAB_EMU_ATOMIC_SCOPED

/* ---- fences ---------------------------------------------------------------------
 * One full CPU fence serves all three scopes: it orders this thread's
 * accesses for every observer, which is what the widest (system) promises. */
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* ---- clocks -------------------------------------------------------------------------
 * clock64() and, in a kernel, clock() count cycles of the emulated device's
 * clock (1410 MHz, its cudaDevAttrClockRate) derived from a monotonic host
 * clock shared by all CPU cores (std::chrono::steady_clock), so values from
 * different threads compare, as SM clocks of one GPU roughly do. A loop
 * that waits N cycles (cuda-samples' clock_block) therefore waits
 * N / 1.41 ns of real time, as on a GPU; a measured difference is host time
 * in device cycles, not what a GPU would take for the same work.
 * clock() is the C library's in host code: the macro below sends it to
 * simtlab_emu_clock(), which asks whether a kernel thread is running. */
inline long long int clock64()
{
    const long long ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    return ns * 141 / 100; /* 1.41 cycles per ns */
}

inline clock_t simtlab_emu_clock()
{
    return ::simtlab_emu::in_kernel() ? static_cast<clock_t>(clock64()) : ::clock();
}
namespace std {
using ::simtlab_emu_clock; /* so that std::clock() still names a function */
}
#define clock() simtlab_emu_clock()

/* Suspends the OS worker for about `ns` nanoseconds (CUDA: "approximately",
 * at most one millisecond). */
inline void __nanosleep(unsigned ns)
{
    if (ns > 1000000u)
        ns = 1000000u;
    struct timespec t = {0, static_cast<long>(ns)};
    nanosleep(&t, nullptr);
}

/* __trap(): on a GPU the kernel stops and the launch fails with
 * cudaErrorLaunchFailure ("unspecified launch failure"), which is sticky.
 * Here the launch fails the same way; the message names the kernel, the
 * block, the thread (fail_launch adds them) and the line of the __trap. */
[[noreturn]] inline void simtlab_emu_trap(const char *file, int line)
{
    char text[512];
    std::snprintf(text, sizeof text, "__trap() called at %s:%d (a GPU reports an unspecified launch failure)",
                  file, line);
    ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
}
#define __trap() simtlab_emu_trap(__FILE__, __LINE__)

#endif
