/* simtlab CPU emulator — CUDA 12.8's atomic built-in functions
 * (CUDA C++ Programming Guide, "Built-in Atomic Functions"), which nvcc
 * announces with __CUDACC_DEVICE_ATOMIC_BUILTINS__ (slcc defines it too):
 *
 *   T    __nv_atomic_fetch_add(T *p, T v, order[, scope])  void __nv_atomic_add(...)
 *   T    __nv_atomic_fetch_sub                             void __nv_atomic_sub
 *   T    __nv_atomic_fetch_and / _or / _xor                void __nv_atomic_and / _or / _xor
 *   T    __nv_atomic_fetch_min / _max                      void __nv_atomic_min / _max
 *   T    __nv_atomic_exchange_n(T *p, T v, order[, scope])
 *   void __nv_atomic_exchange(T *p, T *v, T *ret, order[, scope])
 *   bool __nv_atomic_compare_exchange_n(T *p, T *expected, T desired, weak, success, failure[, scope])
 *   bool __nv_atomic_compare_exchange(T *p, T *expected, T *desired, weak, success, failure[, scope])
 *   T    __nv_atomic_load_n(T *p, order[, scope])          void __nv_atomic_load(T *p, T *ret, order[, scope])
 *   void __nv_atomic_store_n(T *p, T v, order[, scope])    void __nv_atomic_store(T *p, T *v, order[, scope])
 *   void __nv_atomic_thread_fence(order[, scope])
 *
 * with __NV_ATOMIC_RELAXED ... __NV_ATOMIC_SEQ_CST and __NV_THREAD_SCOPE_THREAD
 * ... __NV_THREAD_SCOPE_SYSTEM, CUDA's numbers. Each is a CPU atomic (GCC's
 * __atomic builtins), sequentially consistent whatever order is asked, and
 * atomic in the whole process whatever the scope: never weaker than CUDA
 * promises, as with the emulator's atomicAdd (device_atomic.hpp). Like
 * atomicAdd, each tells the engine what it found, so that a thread
 * spinning on __nv_atomic_load_n lets the others of its block run and a
 * spin without end fails the launch naming its line.
 *
 * The types are nvcc 13's (checked against nvcc 13.0 on sm_90), so that a
 * program the emulator builds also builds with nvcc: add and sub on 4-byte
 * integers, unsigned 8-byte ones, float and double; and, or, xor, min and
 * max on 4- and 8-byte integers; the _n forms of exchange (4, 8, 16 bytes),
 * compare-exchange (2, 4, 8, 16) and load and store (1, 2, 4, 8, 16) on
 * integers and enums; the generic forms on any trivially copyable type of
 * those sizes. The value argument converts to T as nvcc's does
 * (`__nv_atomic_fetch_add(ull_ptr, 1, ...)`). Not checked, unlike nvcc:
 * that order and scope are literals and valid for the operation (a load
 * with __NV_ATOMIC_RELEASE compiles here), and that 16-byte operands need
 * sm_90. A 16-byte operation takes a lock (one of 64, by address) instead
 * of cmpxchg16b, so it is atomic against the other 16-byte ones only.
 */
#ifndef SIMTLAB_EMU_NV_ATOMIC_HPP
#define SIMTLAB_EMU_NV_ATOMIC_HPP

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <simtlab_emu/device_atomic.hpp>

/* nvcc's sign that these exist; slcc defines it on every command line as
 * nvcc does, this for the builds that do not go through slcc */
#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1
#endif

enum {
    __NV_ATOMIC_RELAXED,
    __NV_ATOMIC_CONSUME,
    __NV_ATOMIC_ACQUIRE,
    __NV_ATOMIC_RELEASE,
    __NV_ATOMIC_ACQ_REL,
    __NV_ATOMIC_SEQ_CST
};
enum {
    __NV_THREAD_SCOPE_THREAD,
    __NV_THREAD_SCOPE_BLOCK,
    __NV_THREAD_SCOPE_CLUSTER,
    __NV_THREAD_SCOPE_DEVICE,
    __NV_THREAD_SCOPE_SYSTEM
};

namespace simtlab_emu {
namespace nv_atomic {

constexpr int order = __ATOMIC_SEQ_CST;

/* The value parameters take T from the pointer only. */
template <class T>
struct same {
    using type = T;
};
template <class T>
using same_t = typename same<T>::type;

template <class T>
constexpr bool sized(std::size_t a, std::size_t b = 0, std::size_t c = 0, std::size_t d = 0, std::size_t e = 0)
{
    return sizeof(T) == a || sizeof(T) == b || sizeof(T) == c || sizeof(T) == d || sizeof(T) == e;
}
template <class T>
constexpr bool integer = std::is_integral_v<T> || std::is_enum_v<T>;
/* nvcc 13: "atomic operations add and sub are not valid on signed integer of size 8" */
template <class T>
constexpr bool addable = (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                          (sizeof(T) == 4 || (sizeof(T) == 8 && std::is_unsigned_v<T>))) ||
                         std::is_same_v<T, float> || std::is_same_v<T, double>;
template <class T>
constexpr bool bitwise = std::is_integral_v<T> && !std::is_same_v<T, bool> && sized<T>(4, 8);

/* nvcc refuses a pointer to const or volatile for every one of them */
template <class T>
constexpr bool plain = !std::is_const_v<T> && !std::is_volatile_v<T>;

/* 16 bytes: under one of 64 spin locks, chosen by address. A CUDA thread
 * holds it for one copy and never switches fibers meanwhile. */
inline std::atomic_flag wide_locks[64] = {};
struct wide_lock {
    std::atomic_flag &flag;
    explicit wide_lock(const void *p) : flag(wide_locks[(reinterpret_cast<std::uintptr_t>(p) >> 4) % 64])
    {
        while (flag.test_and_set(std::memory_order_acquire))
            ;
    }
    ~wide_lock() { flag.clear(std::memory_order_release); }
    wide_lock(const wide_lock &) = delete;
    wide_lock &operator=(const wide_lock &) = delete;
};

/* What the atomic found, for the engine's spin watch (device_atomic.hpp,
 * noted): 16 bytes are folded into 8. */
template <class T>
SIMTLAB_EMU_ALWAYS_INLINE inline void note(const T *p, const T &found, const char *file, int line)
{
    std::uint64_t bits = 0;
    if constexpr (sizeof(T) <= 8) {
        std::memcpy(&bits, &found, sizeof(T));
    } else {
        std::uint64_t half[2];
        std::memcpy(half, &found, sizeof half);
        bits = half[0] ^ (half[1] * 0x9E3779B97F4A7C15ull);
    }
    ::simtlab_emu::detail::spin_note(p, bits, ::simtlab_emu::here{file, line});
}

template <class T>
inline T load(T *p, const char *file, int line)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(p);
    T v;
    if constexpr (sizeof(T) <= 8) {
        __atomic_load(p, &v, order);
    } else {
        wide_lock l(p);
        std::memcpy(&v, p, sizeof(T));
    }
    note(p, v, file, line);
    return v;
}

template <class T>
inline void store(T *p, T v)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(p);
    if constexpr (sizeof(T) <= 8) {
        __atomic_store(p, &v, order);
    } else {
        wide_lock l(p);
        std::memcpy(p, &v, sizeof(T));
    }
}

template <class T>
inline T exchange(T *p, T v, const char *file, int line)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(p);
    T old;
    if constexpr (sizeof(T) <= 8) {
        __atomic_exchange(p, &v, &old, order);
    } else {
        wide_lock l(p);
        std::memcpy(&old, p, sizeof(T));
        std::memcpy(p, &v, sizeof(T));
    }
    note(p, old, file, line);
    return old;
}

/* Compares the bytes, as GCC's __atomic_compare_exchange does. */
template <class T>
inline bool compare_exchange(T *p, T *expected, T desired, const char *file, int line)
{
    SIMTLAB_EMU_PROFILE_ATOMIC(p);
    T seen = *expected;
    bool ok;
    if constexpr (sizeof(T) <= 8) {
        ok = __atomic_compare_exchange(p, &seen, &desired, false, order, order);
    } else {
        wide_lock l(p);
        ok = std::memcmp(p, &seen, sizeof(T)) == 0;
        if (ok)
            std::memcpy(p, &desired, sizeof(T));
        else
            std::memcpy(&seen, p, sizeof(T));
    }
    note(p, seen, file, line);
    if (!ok)
        *expected = seen;
    return ok;
}

/* One CPU instruction on integers; a compare-and-swap loop on floating
 * point (device_atomic.hpp, update). */
enum class op { add, sub, and_, or_, xor_, min, max };
template <op O, class T>
inline T fetch(T *p, T v, const char *file, int line)
{
    if constexpr (std::is_floating_point_v<T> || O == op::min || O == op::max) {
        return ::simtlab_emu::atomic::update(
            p,
            [v](T old) {
                if constexpr (O == op::add)
                    return static_cast<T>(old + v);
                else if constexpr (O == op::sub)
                    return static_cast<T>(old - v);
                else if constexpr (O == op::min)
                    return v < old ? v : old;
                else
                    return old < v ? v : old;
            },
            file, line);
    } else {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        T old;
        if constexpr (O == op::add)
            old = __atomic_fetch_add(p, v, order);
        else if constexpr (O == op::sub)
            old = __atomic_fetch_sub(p, v, order);
        else if constexpr (O == op::and_)
            old = __atomic_fetch_and(p, v, order);
        else if constexpr (O == op::or_)
            old = __atomic_fetch_or(p, v, order);
        else
            old = __atomic_fetch_xor(p, v, order);
        note(p, old, file, line);
        return old;
    }
}

} /* namespace nv_atomic */
} /* namespace simtlab_emu */

/* ---- add, sub, and, or, xor, min, max --------------------------------------- */
#define SIMTLAB_EMU_NV_FETCH(name, op_, allowed, what)                                                          \
    template <class T>                                                                                          \
    inline T __nv_atomic_fetch_##name(T *address, ::simtlab_emu::nv_atomic::same_t<T> val, int order,           \
                                      int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)                \
    {                                                                                                           \
        static_assert(::simtlab_emu::nv_atomic::plain<T>, "__nv_atomic_fetch_" #name                           \
                                                          ": the address may not point to const or volatile"); \
        static_assert(allowed<T>, "__nv_atomic_fetch_" #name ": " what);                                      \
        (void)order, (void)scope;                                                                               \
        return ::simtlab_emu::nv_atomic::fetch<::simtlab_emu::nv_atomic::op::op_>(address, val, at_file_,      \
                                                                                   at_line_);                   \
    }                                                                                                           \
    template <class T>                                                                                          \
    inline void __nv_atomic_##name(T *address, ::simtlab_emu::nv_atomic::same_t<T> val, int order,              \
                                   int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)                   \
    {                                                                                                           \
        static_assert(::simtlab_emu::nv_atomic::plain<T>, "__nv_atomic_" #name                                 \
                                                          ": the address may not point to const or volatile"); \
        static_assert(allowed<T>, "__nv_atomic_" #name ": " what);                                            \
        (void)order, (void)scope;                                                                               \
        (void)::simtlab_emu::nv_atomic::fetch<::simtlab_emu::nv_atomic::op::op_>(address, val, at_file_,       \
                                                                                  at_line_);                    \
    }
#define SIMTLAB_EMU_NV_ADD_TYPES "T must be int, unsigned, unsigned long long, float or double"
#define SIMTLAB_EMU_NV_BIT_TYPES "T must be an integer type of 4 or 8 bytes"
SIMTLAB_EMU_NV_FETCH(add, add, ::simtlab_emu::nv_atomic::addable, SIMTLAB_EMU_NV_ADD_TYPES)
SIMTLAB_EMU_NV_FETCH(sub, sub, ::simtlab_emu::nv_atomic::addable, SIMTLAB_EMU_NV_ADD_TYPES)
SIMTLAB_EMU_NV_FETCH(and, and_, ::simtlab_emu::nv_atomic::bitwise, SIMTLAB_EMU_NV_BIT_TYPES)
SIMTLAB_EMU_NV_FETCH(or, or_, ::simtlab_emu::nv_atomic::bitwise, SIMTLAB_EMU_NV_BIT_TYPES)
SIMTLAB_EMU_NV_FETCH(xor, xor_, ::simtlab_emu::nv_atomic::bitwise, SIMTLAB_EMU_NV_BIT_TYPES)
SIMTLAB_EMU_NV_FETCH(min, min, ::simtlab_emu::nv_atomic::bitwise, SIMTLAB_EMU_NV_BIT_TYPES " (no floating point)")
SIMTLAB_EMU_NV_FETCH(max, max, ::simtlab_emu::nv_atomic::bitwise, SIMTLAB_EMU_NV_BIT_TYPES " (no floating point)")
#undef SIMTLAB_EMU_NV_FETCH
#undef SIMTLAB_EMU_NV_ADD_TYPES
#undef SIMTLAB_EMU_NV_BIT_TYPES

/* ---- exchange ------------------------------------------------------------------ */
template <class T>
inline T __nv_atomic_exchange_n(T *address, ::simtlab_emu::nv_atomic::same_t<T> val, int order,
                                int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_exchange_n: the address may not point to const or volatile");
    static_assert(::simtlab_emu::nv_atomic::integer<T>,
                  "__nv_atomic_exchange_n: T must be an integer or enum type (__nv_atomic_exchange takes any type)");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(4, 8, 16), "__nv_atomic_exchange_n: T must have 4, 8 or 16 bytes");
    (void)order, (void)scope;
    return ::simtlab_emu::nv_atomic::exchange(address, val, at_file_, at_line_);
}
template <class T>
inline void __nv_atomic_exchange(T *address, T *val, T *ret, int order,
                                 int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_exchange: the address may not point to const or volatile");
    static_assert(std::is_trivially_copyable_v<T>, "__nv_atomic_exchange: T must be trivially copyable");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(4, 8, 16), "__nv_atomic_exchange: T must have 4, 8 or 16 bytes");
    (void)order, (void)scope;
    *ret = ::simtlab_emu::nv_atomic::exchange(address, *val, at_file_, at_line_);
}

/* ---- compare and exchange: weak is ignored, as on a GPU ----------------------------- */
template <class T>
inline bool __nv_atomic_compare_exchange_n(T *address, T *expected, ::simtlab_emu::nv_atomic::same_t<T> desired,
                                           bool weak, int success_order, int failure_order,
                                           int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_compare_exchange_n: the address may not point to const or volatile");
    static_assert(::simtlab_emu::nv_atomic::integer<T>, "__nv_atomic_compare_exchange_n: T must be an integer or enum "
                                                        "type (__nv_atomic_compare_exchange takes any type)");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(2, 4, 8, 16),
                  "__nv_atomic_compare_exchange_n: T must have 2, 4, 8 or 16 bytes");
    (void)weak, (void)success_order, (void)failure_order, (void)scope;
    return ::simtlab_emu::nv_atomic::compare_exchange(address, expected, desired, at_file_, at_line_);
}
template <class T>
inline bool __nv_atomic_compare_exchange(T *address, T *expected, T *desired, bool weak, int success_order,
                                         int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_compare_exchange: the address may not point to const or volatile");
    static_assert(std::is_trivially_copyable_v<T>, "__nv_atomic_compare_exchange: T must be trivially copyable");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(2, 4, 8, 16),
                  "__nv_atomic_compare_exchange: T must have 2, 4, 8 or 16 bytes");
    (void)weak, (void)success_order, (void)failure_order, (void)scope;
    return ::simtlab_emu::nv_atomic::compare_exchange(address, expected, *desired, at_file_, at_line_);
}

/* ---- load and store ------------------------------------------------------------- */
template <class T>
inline T __nv_atomic_load_n(T *address, int order, int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_load_n: the address may not point to const or volatile");
    static_assert(::simtlab_emu::nv_atomic::integer<T>,
                  "__nv_atomic_load_n: T must be an integer or enum type (__nv_atomic_load takes any type)");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(1, 2, 4, 8, 16),
                  "__nv_atomic_load_n: T must have 1, 2, 4, 8 or 16 bytes");
    (void)order, (void)scope;
    return ::simtlab_emu::nv_atomic::load(address, at_file_, at_line_);
}
template <class T>
inline void __nv_atomic_load(T *address, T *ret, int order, int scope = __NV_THREAD_SCOPE_SYSTEM SIMTLAB_EMU_AT_CALLER)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_load: the address may not point to const or volatile");
    static_assert(std::is_trivially_copyable_v<T>, "__nv_atomic_load: T must be trivially copyable");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(1, 2, 4, 8, 16),
                  "__nv_atomic_load: T must have 1, 2, 4, 8 or 16 bytes");
    (void)order, (void)scope;
    *ret = ::simtlab_emu::nv_atomic::load(address, at_file_, at_line_);
}
template <class T>
inline void __nv_atomic_store_n(T *address, ::simtlab_emu::nv_atomic::same_t<T> val, int order,
                                int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_store_n: the address may not point to const or volatile");
    static_assert(::simtlab_emu::nv_atomic::integer<T>,
                  "__nv_atomic_store_n: T must be an integer or enum type (__nv_atomic_store takes any type)");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(1, 2, 4, 8, 16),
                  "__nv_atomic_store_n: T must have 1, 2, 4, 8 or 16 bytes");
    (void)order, (void)scope;
    ::simtlab_emu::nv_atomic::store(address, val);
}
template <class T>
inline void __nv_atomic_store(T *address, T *val, int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    static_assert(::simtlab_emu::nv_atomic::plain<T>,
                  "__nv_atomic_store: the address may not point to const or volatile");
    static_assert(std::is_trivially_copyable_v<T>, "__nv_atomic_store: T must be trivially copyable");
    static_assert(::simtlab_emu::nv_atomic::sized<T>(1, 2, 4, 8, 16),
                  "__nv_atomic_store: T must have 1, 2, 4, 8 or 16 bytes");
    (void)order, (void)scope;
    ::simtlab_emu::nv_atomic::store(address, *val);
}

/* ---- fence: one full CPU fence, as __threadfence_system ------------------------ */
inline void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif
