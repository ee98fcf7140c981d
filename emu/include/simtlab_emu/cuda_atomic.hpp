/* simtlab CPU emulator — libcu++'s atomics: <cuda/atomic> and
 * <cuda/std/atomic>.
 *
 *   cuda::std::atomic<T>, cuda::atomic<T, cuda::thread_scope_...>,
 *   cuda::std::atomic_ref<T>, cuda::atomic_ref<T, scope>,
 *   cuda::std::atomic_flag, cuda::std::atomic_thread_fence,
 *   cuda::atomic_thread_fence(order, scope), cuda::std::memory_order_*
 *   (also as cuda::memory_order_*), cuda::thread_scope.
 *
 * They work in device and host code on any memory the program may use
 * there (device, managed, pinned, host). Every operation is a CPU atomic
 * (GCC's __atomic builtins, sequentially consistent whatever order is
 * asked: never weaker than CUDA's, as the emulator's atomicAdd), and, like
 * atomicAdd, tells the engine the value it found (spin_note, engine.hpp):
 * a kernel thread that spins on load(), wait() or a compare-exchange lets
 * the other threads of its block run, and a spin that never ends fails the
 * launch naming its line instead of hanging. Every scope is the whole
 * process, so the scope parameter changes nothing.
 *
 * T: integral, floating-point, pointer, or any trivially copyable type of
 * 1, 2, 4 or 8 bytes (load, store, exchange and compare-exchange only).
 * fetch_add/fetch_sub on floating point and pointers, and libcu++'s
 * fetch_min/fetch_max, are compare-and-swap loops.
 */
#ifndef SIMTLAB_EMU_CUDA_ATOMIC_HPP
#define SIMTLAB_EMU_CUDA_ATOMIC_HPP

#include <cuda_runtime.h>
#include <simtlab_emu/cuda_scope.hpp>

#include <atomic>
#include <cstddef>
#include <type_traits>

namespace cuda {

namespace std {
using namespace ::std;
using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;
} // namespace std

using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;

} // namespace cuda

namespace simtlab_emu {
namespace cuda_atomic {

constexpr int order = __ATOMIC_SEQ_CST;

template <class T>
constexpr bool supported = ::std::is_trivially_copyable_v<T> &&
                           (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
constexpr bool integral = ::std::is_integral_v<T> && !::std::is_same_v<T, bool>;
template <class T>
constexpr bool arithmetic = integral<T> || ::std::is_floating_point_v<T>;
template <class T>
constexpr bool addable = arithmetic<T> || ::std::is_pointer_v<T>;

/* The operations on one object at p, shared by atomic and atomic_ref. `f`
 * and `l` are the caller's place, for the spin diagnostic. */
template <class T>
struct ops {
    static_assert(supported<T>, "cuda::atomic<T>: the emulator needs a trivially copyable T of 1, 2, 4 or 8 bytes");

    static T noted(const T *p, T v, const char *f, int l) { return ::simtlab_emu::atomic::noted(p, v, f, l); }

    static T load(const T *p, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        T v;
        __atomic_load(const_cast<T *>(p), &v, order);
        return noted(p, v, f, l);
    }
    static void store(T *p, T v)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        __atomic_store(p, &v, order);
    }
    static T exchange(T *p, T v, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        T old;
        __atomic_exchange(p, &v, &old, order);
        return noted(p, old, f, l);
    }
    /* compares the bytes, as the C++ standard's compare_exchange does */
    static bool compare_exchange(T *p, T &expected, T desired, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        T seen = expected;
        bool ok = __atomic_compare_exchange(p, &seen, &desired, false, order, order);
        noted(p, seen, f, l);
        expected = seen;
        return ok;
    }
    template <class F>
    static T update(T *p, F fn, const char *f, int l)
    {
        return ::simtlab_emu::atomic::update(p, fn, f, l);
    }
    static T fetch_add(T *p, T v, const char *f, int l)
    {
        if constexpr (integral<T>) {
            SIMTLAB_EMU_PROFILE_ATOMIC(p);
            return noted(p, __atomic_fetch_add(p, v, order), f, l);
        } else {
            return update(p, [v](T old) { return static_cast<T>(old + v); }, f, l);
        }
    }
    static T fetch_sub(T *p, T v, const char *f, int l)
    {
        if constexpr (integral<T>) {
            SIMTLAB_EMU_PROFILE_ATOMIC(p);
            return noted(p, __atomic_fetch_sub(p, v, order), f, l);
        } else {
            return update(p, [v](T old) { return static_cast<T>(old - v); }, f, l);
        }
    }
    static T fetch_ptr_add(T *p, ::std::ptrdiff_t d, const char *f, int l)
    {
        return update(p, [d](T old) { return old + d; }, f, l); /* in elements, not bytes */
    }
    static T fetch_and(T *p, T v, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        return noted(p, __atomic_fetch_and(p, v, order), f, l);
    }
    static T fetch_or(T *p, T v, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        return noted(p, __atomic_fetch_or(p, v, order), f, l);
    }
    static T fetch_xor(T *p, T v, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        return noted(p, __atomic_fetch_xor(p, v, order), f, l);
    }
    static T fetch_min(T *p, T v, const char *f, int l)
    {
        return update(p, [v](T old) { return v < old ? v : old; }, f, l);
    }
    static T fetch_max(T *p, T v, const char *f, int l)
    {
        return update(p, [v](T old) { return old < v ? v : old; }, f, l);
    }
    /* waits while the value's bytes equal old's: each look is a noted
     * load, so the engine runs the other threads meanwhile */
    static void wait(const T *p, T old, const char *f, int l)
    {
        for (;;) {
            T now = load(p, f, l);
            if (__builtin_memcmp(&now, &old, sizeof(T)) != 0)
                return;
        }
    }
};

#define SIMTLAB_EMU_CA_AT , const char *f_ = __builtin_FILE(), int l_ = __builtin_LINE()
#define SIMTLAB_EMU_CA_ORDER ::std::memory_order = ::std::memory_order_seq_cst
#define SIMTLAB_EMU_CA_IF(cond) template <class U = T, ::std::enable_if_t<(cond), int> = 0>

/* The members of atomic<T> and atomic_ref<T> over the object at ptr(),
 * written once: `Self` gives ptr() (CRTP), CV is `volatile` for the
 * volatile overloads or nothing. */
#define SIMTLAB_EMU_CA_MEMBERS(CONST, CV)                                                                          \
    T load(SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) const CV { return ops<T>::load(ptr(), f_, l_); }               \
    operator T() const CV { return ops<T>::load(ptr(), "<cuda/atomic> conversion", 0); }                           \
    void store(T v, SIMTLAB_EMU_CA_ORDER) CONST CV { ops<T>::store(ptr(), v); }                                   \
    T exchange(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV { return ops<T>::exchange(ptr(), v, f_, l_); } \
    bool compare_exchange_weak(T &e, T d, ::std::memory_order, ::std::memory_order SIMTLAB_EMU_CA_AT) CONST CV     \
    {                                                                                                              \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                      \
    }                                                                                                              \
    bool compare_exchange_weak(T &e, T d, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                        \
    {                                                                                                              \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                      \
    }                                                                                                              \
    bool compare_exchange_strong(T &e, T d, ::std::memory_order, ::std::memory_order SIMTLAB_EMU_CA_AT) CONST CV   \
    {                                                                                                              \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                      \
    }                                                                                                              \
    bool compare_exchange_strong(T &e, T d, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                      \
    {                                                                                                              \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                      \
    }                                                                                                              \
    void wait(T old, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) const CV { ops<T>::wait(ptr(), old, f_, l_); }       \
    void notify_one() CONST CV {}                                                                                  \
    void notify_all() CONST CV {}                                                                                  \
    bool is_lock_free() const CV { return true; }                                                                 \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T fetch_add(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV             \
    {                                                                                                              \
        return ops<T>::fetch_add(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T fetch_sub(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV             \
    {                                                                                                              \
        return ops<T>::fetch_sub(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(::std::is_pointer_v<U>)                                                                      \
    T fetch_add(::std::ptrdiff_t d, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                               \
    {                                                                                                              \
        return ops<T>::fetch_ptr_add(ptr(), d, f_, l_);                                                            \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(::std::is_pointer_v<U>)                                                                      \
    T fetch_sub(::std::ptrdiff_t d, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                               \
    {                                                                                                              \
        return ops<T>::fetch_ptr_add(ptr(), -d, f_, l_);                                                           \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T fetch_and(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV               \
    {                                                                                                              \
        return ops<T>::fetch_and(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T fetch_or(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                \
    {                                                                                                              \
        return ops<T>::fetch_or(ptr(), v, f_, l_);                                                                 \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T fetch_xor(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV               \
    {                                                                                                              \
        return ops<T>::fetch_xor(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T fetch_min(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV             \
    {                                                                                                              \
        return ops<T>::fetch_min(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T fetch_max(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV             \
    {                                                                                                              \
        return ops<T>::fetch_max(ptr(), v, f_, l_);                                                                \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator++() CONST CV { return step(1) + 1; }      \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator++(int) CONST CV { return step(1); }       \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator--() CONST CV { return step(-1) - 1; }     \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator--(int) CONST CV { return step(-1); }      \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T operator+=(T v) CONST CV                                                   \
    {                                                                                                              \
        return static_cast<T>(ops<T>::fetch_add(ptr(), v, "<cuda/atomic> +=", 0) + v);                            \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(arithmetic<U>) T operator-=(T v) CONST CV                                                   \
    {                                                                                                              \
        return static_cast<T>(ops<T>::fetch_sub(ptr(), v, "<cuda/atomic> -=", 0) - v);                            \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(::std::is_pointer_v<U>) T operator+=(::std::ptrdiff_t d) CONST CV                           \
    {                                                                                                              \
        return ops<T>::fetch_ptr_add(ptr(), d, "<cuda/atomic> +=", 0) + d;                                         \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(::std::is_pointer_v<U>) T operator-=(::std::ptrdiff_t d) CONST CV                           \
    {                                                                                                              \
        return ops<T>::fetch_ptr_add(ptr(), -d, "<cuda/atomic> -=", 0) - d;                                        \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T operator&=(T v) CONST CV                                                     \
    {                                                                                                              \
        return ops<T>::fetch_and(ptr(), v, "<cuda/atomic> &=", 0) & v;                                            \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T operator|=(T v) CONST CV                                                     \
    {                                                                                                              \
        return ops<T>::fetch_or(ptr(), v, "<cuda/atomic> |=", 0) | v;                                             \
    }                                                                                                              \
    SIMTLAB_EMU_CA_IF(integral<U>) T operator^=(T v) CONST CV                                                     \
    {                                                                                                              \
        return ops<T>::fetch_xor(ptr(), v, "<cuda/atomic> ^=", 0) ^ v;                                            \
    }

/* ++ and -- on integers and pointers: returns the old value */
#define SIMTLAB_EMU_CA_STEP(CONST, CV)                                                                             \
    T step(int by) CONST CV                                                                                        \
    {                                                                                                              \
        if constexpr (::std::is_pointer_v<T>)                                                                      \
            return ops<T>::fetch_ptr_add(ptr(), by, "<cuda/atomic> ++/--", 0);                                     \
        else                                                                                                       \
            return ops<T>::fetch_add(ptr(), static_cast<T>(by), "<cuda/atomic> ++/--", 0);                         \
    }

/* The atomic object: the value itself, nothing else, so that it can live in
 * memory the program allocated (cudaMallocHost, cudaMalloc) and be cast to. */
template <class T>
class atomic_value {
public:
    using value_type = T;
    using difference_type = ::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T>;
    static constexpr bool is_always_lock_free = true;

    atomic_value() noexcept = default;
    constexpr atomic_value(T v) noexcept : value_(v) {}
    atomic_value(const atomic_value &) = delete;
    atomic_value &operator=(const atomic_value &) = delete;
    atomic_value &operator=(const atomic_value &) volatile = delete;
    T operator=(T v) noexcept
    {
        store(v);
        return v;
    }
    T operator=(T v) volatile noexcept
    {
        store(v);
        return v;
    }

    SIMTLAB_EMU_CA_MEMBERS(, )
    SIMTLAB_EMU_CA_MEMBERS(, volatile)

private:
    T *ptr() const { return const_cast<T *>(&value_); }
    T *ptr() const volatile { return const_cast<T *>(&value_); }
    SIMTLAB_EMU_CA_STEP(, )
    SIMTLAB_EMU_CA_STEP(, volatile)
    alignas(sizeof(T)) T value_;
};

/* A reference to an object the program owns: every access through it is
 * atomic (the object must be aligned to its size, as libcu++ requires). */
template <class T>
class atomic_reference {
public:
    using value_type = T;
    using difference_type = ::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T>;
    static constexpr bool is_always_lock_free = true;
    static constexpr ::std::size_t required_alignment = sizeof(T);

    explicit atomic_reference(T &obj) noexcept : p_(&obj) {}
    atomic_reference(const atomic_reference &) noexcept = default;
    atomic_reference &operator=(const atomic_reference &) = delete;
    T operator=(T v) const noexcept
    {
        store(v);
        return v;
    }

    SIMTLAB_EMU_CA_MEMBERS(const, )

private:
    T *ptr() const { return p_; }
    SIMTLAB_EMU_CA_STEP(const, )
    T *p_;
};

#undef SIMTLAB_EMU_CA_MEMBERS
#undef SIMTLAB_EMU_CA_STEP
#undef SIMTLAB_EMU_CA_IF
#undef SIMTLAB_EMU_CA_ORDER
#undef SIMTLAB_EMU_CA_AT

} // namespace cuda_atomic
} // namespace simtlab_emu

namespace cuda {
namespace std {

template <class T>
struct atomic : ::simtlab_emu::cuda_atomic::atomic_value<T> {
    using ::simtlab_emu::cuda_atomic::atomic_value<T>::atomic_value;
    using ::simtlab_emu::cuda_atomic::atomic_value<T>::operator=;
};

template <class T>
struct atomic_ref : ::simtlab_emu::cuda_atomic::atomic_reference<T> {
    using ::simtlab_emu::cuda_atomic::atomic_reference<T>::atomic_reference;
    using ::simtlab_emu::cuda_atomic::atomic_reference<T>::operator=;
};

/* test_and_set / clear on one bool, noted like the other atomics */
struct atomic_flag {
    atomic_flag() noexcept = default;
    atomic_flag(const atomic_flag &) = delete;
    atomic_flag &operator=(const atomic_flag &) = delete;
    bool test_and_set(memory_order = memory_order_seq_cst, const char *f = __builtin_FILE(),
                      int l = __builtin_LINE()) volatile noexcept
    {
        return ops().exchange(p(), 1, f, l) != 0;
    }
    void clear(memory_order = memory_order_seq_cst) volatile noexcept { ops().store(p(), 0); }
    bool test(memory_order = memory_order_seq_cst, const char *f = __builtin_FILE(),
              int l = __builtin_LINE()) const volatile noexcept
    {
        return ops().load(p(), f, l) != 0;
    }
    void wait(bool old, memory_order = memory_order_seq_cst, const char *f = __builtin_FILE(),
              int l = __builtin_LINE()) const volatile noexcept
    {
        ops().wait(p(), old ? 1 : 0, f, l);
    }
    void notify_one() volatile noexcept {}
    void notify_all() volatile noexcept {}

private:
    static ::simtlab_emu::cuda_atomic::ops<unsigned char> ops() { return {}; }
    unsigned char *p() const volatile { return const_cast<unsigned char *>(&v_); }
    unsigned char v_ = 0;
};

/* One full CPU fence orders this thread's accesses for every observer:
 * what the widest scope promises. */
inline void atomic_thread_fence(memory_order) noexcept
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void atomic_signal_fence(memory_order) noexcept
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

} // namespace std

template <class T, thread_scope Scope = thread_scope_system>
struct atomic : ::simtlab_emu::cuda_atomic::atomic_value<T> {
    using ::simtlab_emu::cuda_atomic::atomic_value<T>::atomic_value;
    using ::simtlab_emu::cuda_atomic::atomic_value<T>::operator=;
};

template <class T, thread_scope Scope = thread_scope_system>
struct atomic_ref : ::simtlab_emu::cuda_atomic::atomic_reference<T> {
    using ::simtlab_emu::cuda_atomic::atomic_reference<T>::atomic_reference;
    using ::simtlab_emu::cuda_atomic::atomic_reference<T>::operator=;
};

using std::atomic_signal_fence;
using std::atomic_thread_fence;
inline void atomic_thread_fence(memory_order, thread_scope) noexcept
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

} // namespace cuda

#endif
