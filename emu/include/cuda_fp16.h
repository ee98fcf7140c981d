/* simtlab CPU emulator — IEEE binary16 ("half") for host code and kernels:
 * every function and operator of CUDA 13's cuda_fp16.h (its documented
 * set: conversions in the four rounding directions, arithmetic with _rn,
 * _sat and _relu forms, ordered and unordered comparisons with their half2
 * bool, half2 and mask forms, max/min with and without NaN propagation,
 * the math functions, __hcmadd, atomicAdd), except the shuffles without
 * _sync, which CUDA 13 has only for GPUs it no longer supports. Shuffles
 * (__shfl_*_sync) and the cache-hinted loads and stores (__ldg, __stcs ...)
 * of half types are the emulator's templates (device_warp.hpp,
 * device_math.hpp). emu/tests/slcc_inputs/fp16_every_name.cu calls each
 * name.
 *
 * The storage types compile in C and C++: __half is a struct holding the
 * 16-bit pattern in `__x`, __half2 holds two of them as .x (the low 16
 * bits) and .y. The functions are inline (static inline in C) so they serve
 * host code and emulated kernels alike; in C the names bfloat16 shares
 * (__hadd ...) are half's. In C++ __half also converts to and from the
 * arithmetic types as CUDA's does (to integers toward zero, so that, as
 * with nvcc, `h * 2.0f` is ambiguous) and has the operators CUDA's header
 * gives host and device code.
 *
 * How the values are computed: simtlab_emu/fp16_family.h.
 */
#ifndef SIMTLAB_EMU_CUDA_FP16_H
#define SIMTLAB_EMU_CUDA_FP16_H

#include <cuda_runtime_api.h> /* float2 */
#include <simtlab_emu/fp16_family.h>

/* ---- the half types ----------------------------------------------------- */

#define SIMTLAB_HALF_MANT_BITS 10
#define SIMTLAB_HALF_BIAS 15
#define simtlab_half_ONE 0x3C00u
#define simtlab_half_INF 0x7C00u

SIMTLAB_FP_FN unsigned short simtlab_half_from_double(double v, int mode)
{
    return simtlab_fp_round(v, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, mode);
}

/* Every half is exactly a float: rebuild the float's bits. */
SIMTLAB_FP_FN float simtlab_half_bits_to_float(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp_field = (h >> 10) & 0x1Fu;
    uint32_t mant = h & 0x3FFu;
    uint32_t bits;
    float f;
    if (exp_field == 0x1F) {
        bits = sign | 0x7F800000u | (mant << 13);
    } else if (exp_field == 0) {
        /* subnormal or zero: mant units of 2^-24, exact in float */
        f = (float)mant * 5.9604644775390625e-08f;
        return sign ? -f : f;
    } else {
        bits = sign | ((exp_field - 15u + 127u) << 23) | (mant << 13);
    }
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The raw bit patterns, as CUDA's __half_raw and __half2_raw. */
typedef struct __half_raw {
    unsigned short x;
} __half_raw;
typedef struct __half2_raw {
    unsigned short x, y;
} __half2_raw;

#ifdef __cplusplus
struct __nv_bfloat16;
#endif

typedef struct __attribute__((aligned(2))) __half {
    unsigned short __x;
#ifdef __cplusplus
    __half() = default;
    __half(const __half_raw &r) : __x(r.x) {}
    __half &operator=(const __half_raw &r) { __x = r.x; return *this; }
    operator __half_raw() const { __half_raw r; r.x = __x; return r; }
    explicit __half(const __nv_bfloat16 f); /* defined in cuda_bf16.h, as CUDA does */
    __half(float f) : __x(simtlab_half_from_double(f, SIMTLAB_FP_RN)) {}
    __half(double d) : __x(simtlab_half_from_double(d, SIMTLAB_FP_RN)) {}
    __half(short i) : __x(simtlab_fp_from_ll(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(unsigned short i) : __x(simtlab_fp_from_ull(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(int i) : __x(simtlab_fp_from_ll(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(unsigned int i) : __x(simtlab_fp_from_ull(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(long i) : __x(simtlab_fp_from_ll(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(unsigned long i) : __x(simtlab_fp_from_ull(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(long long i) : __x(simtlab_fp_from_ll(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half(unsigned long long i)
        : __x(simtlab_fp_from_ull(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, SIMTLAB_FP_RN)) {}
    __half &operator=(float f) { return *this = __half(f); }
    __half &operator=(double d) { return *this = __half(d); }
    __half &operator=(short i) { return *this = __half(i); }
    __half &operator=(unsigned short i) { return *this = __half(i); }
    __half &operator=(int i) { return *this = __half(i); }
    __half &operator=(unsigned int i) { return *this = __half(i); }
    __half &operator=(long long i) { return *this = __half(i); }
    __half &operator=(unsigned long long i) { return *this = __half(i); }
    /* defined below the functions (SIMTLAB_FP_MEMBERS) */
    operator float() const;
    operator signed char() const;
    operator unsigned char() const;
    operator char() const;
    operator short() const;
    operator unsigned short() const;
    operator int() const;
    operator unsigned int() const;
    operator long() const;
    operator unsigned long() const;
    operator long long() const;
    operator unsigned long long() const;
    operator bool() const;
#endif
} __half;

typedef struct __attribute__((aligned(4))) __half2 {
    __half x, y;
#ifdef __cplusplus
    __half2() = default;
    __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    __half2 &operator=(const __half2_raw &r) { return *this = __half2(r); }
    operator __half2_raw() const { __half2_raw r; r.x = x.__x; r.y = y.__x; return r; }
#endif
} __half2;

typedef __half half;
typedef __half2 half2;

/* ---- the helpers fp16_family.h's macros need ------------------------------ */

SIMTLAB_FP_FN __half simtlab_half_make(unsigned short bits)
{
    __half h;
    h.__x = bits;
    return h;
}
SIMTLAB_FP_FN double simtlab_half_d(__half h) { return (double)simtlab_half_bits_to_float(h.__x); }
SIMTLAB_FP_FN __half simtlab_half_r(double d, int mode) { return simtlab_half_make(simtlab_half_from_double(d, mode)); }
SIMTLAB_FP_FN __half simtlab_half_rn(double d) { return simtlab_half_r(d, SIMTLAB_FP_RN); }
SIMTLAB_FP_FN __half simtlab_half_from_ll(long long i, int mode)
{
    return simtlab_half_make(simtlab_fp_from_ll(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, mode));
}
SIMTLAB_FP_FN __half simtlab_half_from_ull(unsigned long long i, int mode)
{
    return simtlab_half_make(simtlab_fp_from_ull(i, SIMTLAB_HALF_MANT_BITS, SIMTLAB_HALF_BIAS, mode));
}
SIMTLAB_FP_FN __half2 simtlab_half_pair(__half lo, __half hi)
{
    __half2 v;
    v.x = lo;
    v.y = hi;
    return v;
}

/* ---- CUDA's functions -------------------------------------------------------- */

SIMTLAB_FP_NAMED(half, half2, __half, __half2, simtlab_half, SIMTLAB_FP_FN)
SIMTLAB_FP_SHARED(__half, __half2, simtlab_half, SIMTLAB_FP_FN)

/* Named constants, as CUDA's cuda_fp16.hpp defines them. */
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00u)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFu)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFu)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001u)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00u)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000u)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000u)

/* ---- C++ only: operators, conversions, atomics ---------------------------- */
#ifdef __cplusplus
SIMTLAB_FP_OPERATORS(__half, __half2, simtlab_half)
SIMTLAB_FP_MEMBERS(half, __half, simtlab_half)

/* ---- atomics on half types ----------------------------------------------
 * atomicAdd on __half (sm_70+) and __half2 (sm_60+), and on the bfloat16
 * types in cuda_bf16.h: a compare-and-swap loop over the 2 or 4 bytes.
 * Each half of a __half2 is rounded once, as on a GPU, and (as CUDA
 * documents) the two halves are each atomic, not necessarily as a pair:
 * here they are a pair. Returns the old value. */
namespace simtlab_emu {
namespace atomic {
template <class T, class F>
inline T half_update(T *address, F add)
{
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "a 2- or 4-byte half type");
#ifdef SIMTLAB_EMU_PROFILE_ATOMIC
    SIMTLAB_EMU_PROFILE_ATOMIC(address);
#endif
    T old;
    __atomic_load(address, &old, __ATOMIC_SEQ_CST);
    T desired = add(old);
    while (!__atomic_compare_exchange(address, &old, &desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        desired = add(old);
    return old;
}
} /* namespace atomic */
} /* namespace simtlab_emu */

inline __half atomicAdd(__half *address, __half val)
{
    return ::simtlab_emu::atomic::half_update(address, [val](__half old) { return __hadd(old, val); });
}
inline __half2 atomicAdd(__half2 *address, __half2 val)
{
    return ::simtlab_emu::atomic::half_update(address, [val](__half2 old) { return __hadd2(old, val); });
}
#endif

#endif /* SIMTLAB_EMU_CUDA_FP16_H */
