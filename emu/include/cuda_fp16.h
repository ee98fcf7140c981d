/* simtlab CPU emulator — IEEE binary16 ("half") for host code and kernels.
 *
 * The storage types compile in C and C++: __half is a struct holding the
 * 16-bit pattern in `__x`, __half2 holds two of them as .x and .y. The
 * functions are inline (static inline in C) so they serve host code and
 * emulated kernels alike. In C++ __half also converts to and from float and
 * has the arithmetic and comparison operators that CUDA's header gives
 * host+device code.
 *
 * Arithmetic is done in double and rounded once to half, which gives the
 * correctly rounded result a GPU's half unit gives: double (53 bits) is wide
 * enough that rounding twice after +, -, *, / cannot differ from rounding
 * once (Figueroa's p >= 2q+2 condition), and fma uses round-to-odd in the
 * intermediate so that it is correct as well.
 *
 * The conversion routine below (simtlab_fp_round) is shared with
 * cuda_bf16.h; it is parameterised by the number of mantissa bits and the
 * exponent bias, so one tested routine serves both formats.
 */
#ifndef SIMTLAB_EMU_CUDA_FP16_H
#define SIMTLAB_EMU_CUDA_FP16_H

#include <cuda_runtime_api.h> /* float2 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#ifdef __cplusplus
#include <cmath> /* the C++-only math functions below */
#endif

#ifdef __cplusplus
#define SIMTLAB_FP_FN inline
#else
#define SIMTLAB_FP_FN static inline
#endif

/* ---- format-independent rounding (shared with cuda_bf16.h) ------------ */

/* Rounding directions of the _rn, _rz, _rd and _ru conversions. */
enum simtlab_fp_rounding {
    SIMTLAB_FP_RN = 0, /* to nearest, ties to even */
    SIMTLAB_FP_RZ = 1, /* toward zero */
    SIMTLAB_FP_RD = 2, /* toward -infinity */
    SIMTLAB_FP_RU = 3  /* toward +infinity */
};

/* Canonical quiet NaN of both half and bfloat16, as CUDA's conversions
 * return it for any NaN input. */
#define SIMTLAB_FP_CANONICAL_NAN 0x7FFFu

SIMTLAB_FP_FN uint64_t simtlab_fp_double_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

SIMTLAB_FP_FN double simtlab_fp_bits_double(uint64_t u)
{
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Drops the low `shift` bits of `sig` with the given rounding; `negative`
 * is the sign of the value (directed modes depend on it). */
SIMTLAB_FP_FN uint64_t simtlab_fp_shift_round(uint64_t sig, int shift, bool negative, int mode)
{
    uint64_t q = sig >> shift;
    uint64_t rem = sig & ((UINT64_C(1) << shift) - 1u);
    uint64_t half = UINT64_C(1) << (shift - 1);
    bool away = false;
    if (mode == SIMTLAB_FP_RN)
        away = rem > half || (rem == half && (q & 1u));
    else if (mode == SIMTLAB_FP_RD)
        away = negative && rem != 0;
    else if (mode == SIMTLAB_FP_RU)
        away = !negative && rem != 0;
    return q + (away ? 1u : 0u);
}

/* Rounds a double to a binary format with `mant_bits` stored mantissa bits
 * and exponent bias `bias` (half: 10, 15; bfloat16: 7, 127) and returns its
 * bit pattern. Handles subnormal results, overflow (to infinity, or to the
 * largest finite value when the direction points toward zero) and NaN. */
SIMTLAB_FP_FN unsigned short simtlab_fp_round(double v, int mant_bits, int bias, int mode)
{
    uint64_t u = simtlab_fp_double_bits(v);
    bool negative = (u >> 63) != 0;
    unsigned sign = negative ? 0x8000u : 0u; /* both formats are 16 bits wide */
    int exp_field = (int)((u >> 52) & 0x7FFu);
    uint64_t mant = u & ((UINT64_C(1) << 52) - 1u);
    unsigned inf_bits = (unsigned)(2 * bias + 1) << mant_bits;
    if (exp_field == 0x7FF)
        return (unsigned short)(mant ? SIMTLAB_FP_CANONICAL_NAN : (sign | inf_bits));
    if (exp_field == 0 && mant == 0)
        return (unsigned short)sign;
    /* A double subnormal lies far below either format's range: keep it
     * nonzero (the shift below is clamped) so directed modes see it. */
    uint64_t sig = exp_field ? (mant | (UINT64_C(1) << 52)) : mant;
    int e = exp_field ? exp_field - 1023 : -1022;
    bool toward_zero = mode == SIMTLAB_FP_RZ || (mode == SIMTLAB_FP_RD && !negative) ||
                       (mode == SIMTLAB_FP_RU && negative);
    if (e > bias) /* at least 2^(emax+1): beyond every finite value */
        return (unsigned short)(sign | (toward_zero ? inf_bits - 1u : inf_bits));
    if (e >= 1 - bias) {
        /* Normal: q keeps the implicit bit, so adding it to the exponent
         * field minus one carries correctly when rounding reaches 2^(e+1),
         * up to and including infinity. */
        uint64_t q = simtlab_fp_shift_round(sig, 52 - mant_bits, negative, mode);
        return (unsigned short)(sign | (((unsigned)(e + bias - 1) << mant_bits) + (unsigned)q));
    }
    /* Subnormal result: count in units of the smallest subnormal,
     * 2^(1 - bias - mant_bits). */
    int shift = 53 - bias - mant_bits - e;
    if (shift > 60)
        shift = 60;
    return (unsigned short)(sign | (unsigned)simtlab_fp_shift_round(sig, shift, negative, mode));
}

/* a*b + c in double, rounded to odd: when the exact sum is not a double,
 * the last bit is forced to 1, so that the later rounding to a narrower
 * format sees that the value lies strictly between two of its numbers.
 * a*b must be exact in double (true for products of two halves or two
 * bfloat16s). The correction uses Knuth's TwoSum to get the exact error. */
SIMTLAB_FP_FN double simtlab_fp_fma_to_odd(double a, double b, double c)
{
    double p = a * b;
    double s = p + c;
    double bb = s - p;
    double err = (p - (s - bb)) + (c - bb);
    uint64_t bits = simtlab_fp_double_bits(s);
    if (err != 0.0 && s == s && s - s == 0.0 && (bits & 1u) == 0) {
        bool same_sign = (err > 0.0) == (s > 0.0);
        bits = same_sign ? bits + 1u : bits - 1u;
        s = simtlab_fp_bits_double(bits);
    }
    return s;
}

/* ---- the half types ----------------------------------------------------- */

#define SIMTLAB_HALF_MANT_BITS 10
#define SIMTLAB_HALF_BIAS 15

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

/* The raw bit pattern, as CUDA's __half_raw. */
typedef struct __half_raw {
    unsigned short x;
} __half_raw;

typedef struct __half {
    unsigned short __x;
#ifdef __cplusplus
    __half() = default;
    __half(const __half_raw &r) : __x(r.x) {}
    __half(float f) : __x(simtlab_half_from_double(f, SIMTLAB_FP_RN)) {}
    __half(double d) : __x(simtlab_half_from_double(d, SIMTLAB_FP_RN)) {}
    __half(int i) : __x(simtlab_half_from_double(i, SIMTLAB_FP_RN)) {}
    __half(unsigned int i) : __x(simtlab_half_from_double(i, SIMTLAB_FP_RN)) {}
    __half(short i) : __x(simtlab_half_from_double(i, SIMTLAB_FP_RN)) {}
    __half(unsigned short i) : __x(simtlab_half_from_double(i, SIMTLAB_FP_RN)) {}
    __half(long long i) : __x(simtlab_half_from_double((double)i, SIMTLAB_FP_RN)) {}
    __half(unsigned long long i) : __x(simtlab_half_from_double((double)i, SIMTLAB_FP_RN)) {}
    __half &operator=(const __half_raw &r) { __x = r.x; return *this; }
    operator float() const { return simtlab_half_bits_to_float(__x); }
    operator __half_raw() const { __half_raw r; r.x = __x; return r; }
#endif
} __half;

typedef struct __half2 {
    __half x, y;
#ifdef __cplusplus
    __half2() = default;
    __half2(const __half &a, const __half &b) : x(a), y(b) {}
#endif
} __half2;

typedef __half half;
typedef __half2 half2;

/* ---- bit casts and conversions ----------------------------------------- */

SIMTLAB_FP_FN __half simtlab_half_make(unsigned short bits)
{
    __half h;
    h.__x = bits;
    return h;
}

SIMTLAB_FP_FN unsigned short __half_as_ushort(__half h) { return h.__x; }
SIMTLAB_FP_FN short __half_as_short(__half h) { return (short)h.__x; }
SIMTLAB_FP_FN __half __ushort_as_half(unsigned short bits) { return simtlab_half_make(bits); }
SIMTLAB_FP_FN __half __short_as_half(short bits) { return simtlab_half_make((unsigned short)bits); }

SIMTLAB_FP_FN __half __float2half(float f) { return simtlab_half_make(simtlab_half_from_double(f, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN __half __float2half_rn(float f) { return simtlab_half_make(simtlab_half_from_double(f, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN __half __float2half_rz(float f) { return simtlab_half_make(simtlab_half_from_double(f, SIMTLAB_FP_RZ)); }
SIMTLAB_FP_FN __half __float2half_rd(float f) { return simtlab_half_make(simtlab_half_from_double(f, SIMTLAB_FP_RD)); }
SIMTLAB_FP_FN __half __float2half_ru(float f) { return simtlab_half_make(simtlab_half_from_double(f, SIMTLAB_FP_RU)); }
SIMTLAB_FP_FN __half __double2half(double d) { return simtlab_half_make(simtlab_half_from_double(d, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN float __half2float(__half h) { return simtlab_half_bits_to_float(h.__x); }
SIMTLAB_FP_FN __half __int2half_rn(int i) { return simtlab_half_make(simtlab_half_from_double(i, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN __half __uint2half_rn(unsigned int i) { return simtlab_half_make(simtlab_half_from_double(i, SIMTLAB_FP_RN)); }

/* Truncation to int as CUDA's __half2int_rz: NaN gives 0. (No half exceeds
 * the int range; infinities saturate.) */
SIMTLAB_FP_FN int __half2int_rz(__half h)
{
    float f = simtlab_half_bits_to_float(h.__x);
    if (f != f)
        return 0;
    if (f >= 2147483648.0f)
        return 2147483647;
    if (f <= -2147483648.0f)
        return (-2147483647 - 1);
    return (int)f;
}

SIMTLAB_FP_FN __half2 __halves2half2(__half lo, __half hi)
{
    __half2 v;
    v.x = lo;
    v.y = hi;
    return v;
}
SIMTLAB_FP_FN __half2 __floats2half2_rn(float lo, float hi) { return __halves2half2(__float2half_rn(lo), __float2half_rn(hi)); }
SIMTLAB_FP_FN __half2 __float2half2_rn(float f) { return __floats2half2_rn(f, f); }
SIMTLAB_FP_FN __half2 __half2half2(__half h) { return __halves2half2(h, h); }
SIMTLAB_FP_FN __half __low2half(__half2 v) { return v.x; }
SIMTLAB_FP_FN __half __high2half(__half2 v) { return v.y; }
SIMTLAB_FP_FN float __low2float(__half2 v) { return __half2float(v.x); }
SIMTLAB_FP_FN float __high2float(__half2 v) { return __half2float(v.y); }
SIMTLAB_FP_FN __half2 __lowhigh2highlow(__half2 v) { return __halves2half2(v.y, v.x); }

SIMTLAB_FP_FN __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
SIMTLAB_FP_FN float2 __half22float2(__half2 v)
{
    float2 f;
    f.x = __half2float(v.x);
    f.y = __half2float(v.y);
    return f;
}

/* ---- arithmetic: exact in double, rounded once ------------------------ */

SIMTLAB_FP_FN double simtlab_half_d(__half h) { return (double)simtlab_half_bits_to_float(h.__x); }
SIMTLAB_FP_FN __half simtlab_half_rn(double d) { return simtlab_half_make(simtlab_half_from_double(d, SIMTLAB_FP_RN)); }

SIMTLAB_FP_FN __half __hadd(__half a, __half b) { return simtlab_half_rn(simtlab_half_d(a) + simtlab_half_d(b)); }
SIMTLAB_FP_FN __half __hsub(__half a, __half b) { return simtlab_half_rn(simtlab_half_d(a) - simtlab_half_d(b)); }
SIMTLAB_FP_FN __half __hmul(__half a, __half b) { return simtlab_half_rn(simtlab_half_d(a) * simtlab_half_d(b)); }
SIMTLAB_FP_FN __half __hdiv(__half a, __half b) { return simtlab_half_rn(simtlab_half_d(a) / simtlab_half_d(b)); }
SIMTLAB_FP_FN __half __hfma(__half a, __half b, __half c)
{
    return simtlab_half_rn(simtlab_fp_fma_to_odd(simtlab_half_d(a), simtlab_half_d(b), simtlab_half_d(c)));
}
SIMTLAB_FP_FN __half __hneg(__half a) { return simtlab_half_make((unsigned short)(a.__x ^ 0x8000u)); }
SIMTLAB_FP_FN __half __habs(__half a) { return simtlab_half_make((unsigned short)(a.__x & 0x7FFFu)); }

SIMTLAB_FP_FN bool __hisnan(__half a) { return (a.__x & 0x7FFFu) > 0x7C00u; }
SIMTLAB_FP_FN int __hisinf(__half a)
{
    /* CUDA: -1 for -inf, 1 for +inf, 0 otherwise */
    if (a.__x == 0x7C00u)
        return 1;
    if (a.__x == 0xFC00u)
        return -1;
    return 0;
}
/* Ordered comparisons: false when either side is NaN (as IEEE and CUDA). */
SIMTLAB_FP_FN bool __heq(__half a, __half b) { return simtlab_half_d(a) == simtlab_half_d(b); }
SIMTLAB_FP_FN bool __hne(__half a, __half b) { return !__hisnan(a) && !__hisnan(b) && simtlab_half_d(a) != simtlab_half_d(b); }
SIMTLAB_FP_FN bool __hlt(__half a, __half b) { return simtlab_half_d(a) < simtlab_half_d(b); }
SIMTLAB_FP_FN bool __hle(__half a, __half b) { return simtlab_half_d(a) <= simtlab_half_d(b); }
SIMTLAB_FP_FN bool __hgt(__half a, __half b) { return simtlab_half_d(a) > simtlab_half_d(b); }
SIMTLAB_FP_FN bool __hge(__half a, __half b) { return simtlab_half_d(a) >= simtlab_half_d(b); }
/* CUDA's __hmax/__hmin return the other operand when one is NaN. */
SIMTLAB_FP_FN __half __hmax(__half a, __half b)
{
    if (__hisnan(a))
        return __hisnan(b) ? simtlab_half_make(SIMTLAB_FP_CANONICAL_NAN) : b;
    if (__hisnan(b))
        return a;
    return simtlab_half_d(a) >= simtlab_half_d(b) ? a : b;
}
SIMTLAB_FP_FN __half __hmin(__half a, __half b)
{
    if (__hisnan(a))
        return __hisnan(b) ? simtlab_half_make(SIMTLAB_FP_CANONICAL_NAN) : b;
    if (__hisnan(b))
        return a;
    return simtlab_half_d(a) <= simtlab_half_d(b) ? a : b;
}

/* Lane-wise __half2 versions. */
SIMTLAB_FP_FN __half2 __hadd2(__half2 a, __half2 b) { return __halves2half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
SIMTLAB_FP_FN __half2 __hsub2(__half2 a, __half2 b) { return __halves2half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
SIMTLAB_FP_FN __half2 __hmul2(__half2 a, __half2 b) { return __halves2half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
SIMTLAB_FP_FN __half2 __h2div(__half2 a, __half2 b) { return __halves2half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
SIMTLAB_FP_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
    return __halves2half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
SIMTLAB_FP_FN __half2 __hneg2(__half2 a) { return __halves2half2(__hneg(a.x), __hneg(a.y)); }
SIMTLAB_FP_FN __half2 __habs2(__half2 a) { return __halves2half2(__habs(a.x), __habs(a.y)); }
SIMTLAB_FP_FN __half2 __hmax2(__half2 a, __half2 b) { return __halves2half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
SIMTLAB_FP_FN __half2 __hmin2(__half2 a, __half2 b) { return __halves2half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
/* Both lanes compare true. */
SIMTLAB_FP_FN bool __hbeq2(__half2 a, __half2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }

/* Named constants, as CUDA's cuda_fp16.hpp defines them. */
#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00u)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFu)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFu)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001u)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00u)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000u)

/* ---- C++ only: math functions and operators ----------------------------- */
#ifdef __cplusplus
/* Computed in double and rounded once: at least as accurate as the GPU's
 * approximations (which CUDA documents to a few ulp), so results may differ
 * from a GPU's in the last bit. */
inline __half hsqrt(__half a) { return simtlab_half_rn(std::sqrt(simtlab_half_d(a))); }
inline __half hrsqrt(__half a) { return simtlab_half_rn(1.0 / std::sqrt(simtlab_half_d(a))); }
inline __half hrcp(__half a) { return simtlab_half_rn(1.0 / simtlab_half_d(a)); }
inline __half hexp(__half a) { return simtlab_half_rn(std::exp(simtlab_half_d(a))); }
inline __half hlog(__half a) { return simtlab_half_rn(std::log(simtlab_half_d(a))); }
inline __half htanh(__half a) { return simtlab_half_rn(std::tanh(simtlab_half_d(a))); }
inline __half hfloor(__half a) { return simtlab_half_rn(std::floor(simtlab_half_d(a))); }
inline __half hceil(__half a) { return simtlab_half_rn(std::ceil(simtlab_half_d(a))); }
inline __half htrunc(__half a) { return simtlab_half_rn(std::trunc(simtlab_half_d(a))); }
inline __half2 h2sqrt(__half2 a) { return __halves2half2(hsqrt(a.x), hsqrt(a.y)); }
inline __half2 h2exp(__half2 a) { return __halves2half2(hexp(a.x), hexp(a.y)); }


inline __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
inline __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
inline __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
inline __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
inline __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
inline __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
inline __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
inline __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
inline __half operator+(const __half &a) { return a; }
inline __half operator-(const __half &a) { return __hneg(a); }
inline __half &operator++(__half &a) { return a = __hadd(a, __ushort_as_half(0x3C00u)); }
inline __half &operator--(__half &a) { return a = __hsub(a, __ushort_as_half(0x3C00u)); }
inline __half operator++(__half &a, int) { __half old = a; ++a; return old; }
inline __half operator--(__half &a, int) { __half old = a; --a; return old; }
inline bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
inline bool operator!=(const __half &a, const __half &b) { return __hne(a, b); }
inline bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
inline bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
inline bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
inline bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

inline __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
inline __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
inline __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
inline __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
inline __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
inline __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
inline __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
inline __half2 operator-(const __half2 &a) { return __hneg2(a); }
inline bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }

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
