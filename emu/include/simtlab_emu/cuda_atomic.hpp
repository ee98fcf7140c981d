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
using namespace ::std; /* memory_order and the memory_order_* constants among them */
} // namespace std

/* libcu++ names the orders in cuda:: too */
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
/* What fetch_add/fetch_sub add: T, or for a pointer a count of elements. */
template <class T>
using difference = ::std::conditional_t<::std::is_pointer_v<T>, ::std::ptrdiff_t, T>;

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
    /* A read-modify-write the CPU does at once: `op` does it at p and
     * returns the value it found, which is noted. */
    template <class Op>
    static T read_modify_write(T *p, Op op, const char *f, int l)
    {
        SIMTLAB_EMU_PROFILE_ATOMIC(p);
        return noted(p, op(p), f, l);
    }
    static T exchange(T *p, T v, const char *f, int l)
    {
        return read_modify_write(p, [&v](T *q) { T old; __atomic_exchange(q, &v, &old, order); return old; }, f, l);
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
    using difference_type = difference<T>;
    /* one instruction on integers, a compare-and-swap loop on floating
     * point and pointers */
    static T fetch_add(T *p, difference_type v, const char *f, int l)
    {
        if constexpr (integral<T>)
            return read_modify_write(p, [v](T *q) { return __atomic_fetch_add(q, v, order); }, f, l);
        else
            return update(p, [v](T old) { return static_cast<T>(old + v); }, f, l);
    }
    static T fetch_sub(T *p, difference_type v, const char *f, int l)
    {
        if constexpr (integral<T>)
            return read_modify_write(p, [v](T *q) { return __atomic_fetch_sub(q, v, order); }, f, l);
        else
            return update(p, [v](T old) { return static_cast<T>(old - v); }, f, l);
    }
    static T fetch_and(T *p, T v, const char *f, int l)
    {
        return read_modify_write(p, [v](T *q) { return __atomic_fetch_and(q, v, order); }, f, l);
    }
    static T fetch_or(T *p, T v, const char *f, int l)
    {
        return read_modify_write(p, [v](T *q) { return __atomic_fetch_or(q, v, order); }, f, l);
    }
    static T fetch_xor(T *p, T v, const char *f, int l)
    {
        return read_modify_write(p, [v](T *q) { return __atomic_fetch_xor(q, v, order); }, f, l);
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

/* compare_exchange_weak or _strong (the same here: a CPU's strong one),
 * with one order or two */
#define SIMTLAB_EMU_CA_CAS(NAME, CONST, CV)                                                                    \
    bool NAME(T &e, T d, ::std::memory_order, ::std::memory_order SIMTLAB_EMU_CA_AT) CONST CV                  \
    {                                                                                                          \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                  \
    }                                                                                                          \
    bool NAME(T &e, T d, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                                      \
    {                                                                                                          \
        return ops<T>::compare_exchange(ptr(), e, d, f_, l_);                                                  \
    }

/* fetch_NAME(v), for the T where COND holds: ops<T>::NAME's old value */
#define SIMTLAB_EMU_CA_FETCH(COND, NAME, V, CONST, CV)                                                         \
    SIMTLAB_EMU_CA_IF(COND) T NAME(V v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV                       \
    {                                                                                                          \
        return ops<T>::NAME(ptr(), v, f_, l_);                                                                 \
    }

/* x OP= v: the new value, from FETCH's old one */
#define SIMTLAB_EMU_CA_COMPOUND(COND, OP, FETCH, V, CONST, CV)                                                 \
    SIMTLAB_EMU_CA_IF(COND) T operator OP##=(V v) CONST CV                                                     \
    {                                                                                                          \
        return static_cast<T>(ops<T>::FETCH(ptr(), v, "<cuda/atomic> " #OP "=", 0) OP v);                      \
    }

/* The members of atomic<T> and atomic_ref<T> over the object at ptr(),
 * written once: `Self` gives ptr() (CRTP), CV is `volatile` for the
 * volatile overloads or nothing. */
#define SIMTLAB_EMU_CA_MEMBERS(CONST, CV)                                                                      \
    T load(SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) const CV { return ops<T>::load(ptr(), f_, l_); }            \
    operator T() const CV { return ops<T>::load(ptr(), "<cuda/atomic> conversion", 0); }                       \
    void store(T v, SIMTLAB_EMU_CA_ORDER) CONST CV { ops<T>::store(ptr(), v); }                                \
    T exchange(T v, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) CONST CV { return ops<T>::exchange(ptr(), v, f_, l_); } \
    SIMTLAB_EMU_CA_CAS(compare_exchange_weak, CONST, CV)                                                       \
    SIMTLAB_EMU_CA_CAS(compare_exchange_strong, CONST, CV)                                                     \
    void wait(T old, SIMTLAB_EMU_CA_ORDER SIMTLAB_EMU_CA_AT) const CV { ops<T>::wait(ptr(), old, f_, l_); }    \
    void notify_one() CONST CV {}                                                                              \
    void notify_all() CONST CV {}                                                                              \
    bool is_lock_free() const CV { return true; }                                                              \
    SIMTLAB_EMU_CA_FETCH(addable<U>, fetch_add, difference_type, CONST, CV)                                    \
    SIMTLAB_EMU_CA_FETCH(addable<U>, fetch_sub, difference_type, CONST, CV)                                    \
    SIMTLAB_EMU_CA_FETCH(integral<U>, fetch_and, T, CONST, CV)                                                 \
    SIMTLAB_EMU_CA_FETCH(integral<U>, fetch_or, T, CONST, CV)                                                  \
    SIMTLAB_EMU_CA_FETCH(integral<U>, fetch_xor, T, CONST, CV)                                                 \
    SIMTLAB_EMU_CA_FETCH(arithmetic<U>, fetch_min, T, CONST, CV)                                               \
    SIMTLAB_EMU_CA_FETCH(arithmetic<U>, fetch_max, T, CONST, CV)                                               \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator++() CONST CV { return step(1) + 1; }   \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator++(int) CONST CV { return step(1); }    \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator--() CONST CV { return step(-1) - 1; }  \
    SIMTLAB_EMU_CA_IF(integral<U> || ::std::is_pointer_v<U>) T operator--(int) CONST CV { return step(-1); }   \
    SIMTLAB_EMU_CA_COMPOUND(addable<U>, +, fetch_add, difference_type, CONST, CV)                              \
    SIMTLAB_EMU_CA_COMPOUND(addable<U>, -, fetch_sub, difference_type, CONST, CV)                              \
    SIMTLAB_EMU_CA_COMPOUND(integral<U>, &, fetch_and, T, CONST, CV)                                           \
    SIMTLAB_EMU_CA_COMPOUND(integral<U>, |, fetch_or, T, CONST, CV)                                            \
    SIMTLAB_EMU_CA_COMPOUND(integral<U>, ^, fetch_xor, T, CONST, CV)

/* ++ and -- on integers and pointers: returns the old value */
#define SIMTLAB_EMU_CA_STEP(CONST, CV)                                                                         \
    T step(int by) CONST CV                                                                                    \
    {                                                                                                          \
        return ops<T>::fetch_add(ptr(), static_cast<difference_type>(by), "<cuda/atomic> ++/--", 0);           \
    }

/* The atomic object: the value itself, nothing else, so that it can live in
 * memory the program allocated (cudaMallocHost, cudaMalloc) and be cast to. */
template <class T>
class atomic_value {
public:
    using value_type = T;
    using difference_type = difference<T>;
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
    using difference_type = difference<T>;
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
#undef SIMTLAB_EMU_CA_COMPOUND
#undef SIMTLAB_EMU_CA_FETCH
#undef SIMTLAB_EMU_CA_CAS
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
