/* simtlab CPU emulator — warp-synchronous code: the lanes of a warp take
 * each volatile shared-memory access in turn.
 *
 * Code such as a reduction's last warp,
 *
 *     __device__ void warpReduce(volatile int *s, int t)
 *     { s[t] += s[t + 32]; s[t] += s[t + 16]; ... s[t] += s[t + 1]; }
 *
 * relies on the 32 lanes of a converged warp running each statement
 * together: every lane's loads before any lane's store. A GPU does run it
 * so (CUDA has not promised it since Volta, and racecheck reports it), but
 * the emulator runs a block's threads one after another until one waits,
 * so lane 0 would finish all six steps before lane 16 did its first, and
 * the sum would come out wrong with no error. slcc compiles a file whose
 * code uses `volatile` (emu/src/tools/slcc/slcc.c, wants_lockstep) with GCC's
 *   -fsanitize=thread --param=tsan-distinguish-volatile=1
 *   --param=tsan-instrument-func-entry-exit=0
 * so that every volatile load and store calls __tsan_volatile_readN or
 * __tsan_volatile_writeN before it happens; an access to the block's
 * shared memory from a kernel thread then hands the worker to the block's
 * next runnable thread (engine/block.cpp, lockstep_access). The lanes that
 * run such code therefore take turns access by access: lock step, the
 * order a converged warp gives, whatever the start order
 * (SIMTLAB_EMU_SEED). SIMTLAB_EMU_LOCKSTEP=0 turns the turns off.
 *
 * The same build calls the plain hooks at every other load and store, and
 * the atomic ones for the file's atomics. The load and store hooks, plain
 * and volatile, are in profile/hooks.cpp beside the checks' other hooks: in
 * the checked build (plain `slcc`) they are how memcheck and racecheck see
 * such a file, and how racecheck tells a volatile access from a plain one
 * (warp-synchronous code on volatile memory is a warning, emu/src/
 * checks/racecheck.cpp); in a build without the checks they return at once, and
 * the volatile ones take their turn. The atomic hooks here do the
 * operation (sequentially consistent, which is at least what was asked).
 * Nothing here is ThreadSanitizer's: this file is the other end of the
 * calls GCC makes, as profile/hooks.cpp is for the instrumented builds. It
 * is linked into a program only when an object built that way needs it. */
#include "simtlab_emu/engine.hpp"

#include <cstdint>

namespace {

typedef unsigned char a8;
typedef unsigned short a16;
typedef unsigned int a32;
typedef unsigned long long a64;
typedef unsigned __int128 a128;

/* 16-byte atomics under one lock (no libatomic in the link). */
struct lock16 {
    lock16() { while (__atomic_test_and_set(&flag, __ATOMIC_ACQUIRE)) {} }
    ~lock16() { __atomic_clear(&flag, __ATOMIC_RELEASE); }
    static bool flag;
};
bool lock16::flag = false;

} /* namespace */

extern "C" {

void __tsan_init(void) {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}

/* Atomics of the instrumented file (host code's std::atomic, and any
 * __atomic builtin): done here, sequentially consistent. */
#define SIMTLAB_EMU_TSAN_ATOMIC(n)                                                                  \
    a##n __tsan_atomic##n##_load(const volatile a##n *a, int)                                       \
    {                                                                                               \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                \
    }                                                                                               \
    void __tsan_atomic##n##_store(volatile a##n *a, a##n v, int) { __atomic_store_n(a, v, __ATOMIC_SEQ_CST); } \
    a##n __tsan_atomic##n##_exchange(volatile a##n *a, a##n v, int)                                 \
    {                                                                                               \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                               \
    a##n __tsan_atomic##n##_fetch_add(volatile a##n *a, a##n v, int) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); } \
    a##n __tsan_atomic##n##_fetch_sub(volatile a##n *a, a##n v, int) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); } \
    a##n __tsan_atomic##n##_fetch_and(volatile a##n *a, a##n v, int) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); } \
    a##n __tsan_atomic##n##_fetch_or(volatile a##n *a, a##n v, int) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }   \
    a##n __tsan_atomic##n##_fetch_xor(volatile a##n *a, a##n v, int) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); } \
    a##n __tsan_atomic##n##_fetch_nand(volatile a##n *a, a##n v, int)                               \
    {                                                                                               \
        return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                         \
    }                                                                                               \
    int __tsan_atomic##n##_compare_exchange_strong(volatile a##n *a, a##n *c, a##n v, int, int)     \
    {                                                                                               \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);     \
    }                                                                                               \
    int __tsan_atomic##n##_compare_exchange_weak(volatile a##n *a, a##n *c, a##n v, int, int)       \
    {                                                                                               \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);     \
    }                                                                                               \
    a##n __tsan_atomic##n##_compare_exchange_val(volatile a##n *a, a##n c, a##n v, int, int)        \
    {                                                                                               \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);           \
        return c;                                                                                   \
    }
SIMTLAB_EMU_TSAN_ATOMIC(8)
SIMTLAB_EMU_TSAN_ATOMIC(16)
SIMTLAB_EMU_TSAN_ATOMIC(32)
SIMTLAB_EMU_TSAN_ATOMIC(64)
#undef SIMTLAB_EMU_TSAN_ATOMIC

a128 __tsan_atomic128_load(const volatile a128 *a, int) { lock16 l; return *a; }
void __tsan_atomic128_store(volatile a128 *a, a128 v, int) { lock16 l; *a = v; }
a128 __tsan_atomic128_exchange(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = v; return o; }
a128 __tsan_atomic128_fetch_add(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = o + v; return o; }
a128 __tsan_atomic128_fetch_sub(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = o - v; return o; }
a128 __tsan_atomic128_fetch_and(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = o & v; return o; }
a128 __tsan_atomic128_fetch_or(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = o | v; return o; }
a128 __tsan_atomic128_fetch_xor(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = o ^ v; return o; }
a128 __tsan_atomic128_fetch_nand(volatile a128 *a, a128 v, int) { lock16 l; a128 o = *a; *a = ~(o & v); return o; }
int __tsan_atomic128_compare_exchange_strong(volatile a128 *a, a128 *c, a128 v, int, int)
{
    lock16 l;
    if (*a == *c) {
        *a = v;
        return 1;
    }
    *c = *a;
    return 0;
}
int __tsan_atomic128_compare_exchange_weak(volatile a128 *a, a128 *c, a128 v, int mo, int fmo)
{
    return __tsan_atomic128_compare_exchange_strong(a, c, v, mo, fmo);
}
a128 __tsan_atomic128_compare_exchange_val(volatile a128 *a, a128 c, a128 v, int mo, int fmo)
{
    __tsan_atomic128_compare_exchange_strong(a, &c, v, mo, fmo);
    return c;
}

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

} /* extern "C" */
