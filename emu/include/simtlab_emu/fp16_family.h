/* simtlab CPU emulator — what cuda_fp16.h and cuda_bf16.h share: the
 * rounding routines of both 16-bit formats and two macros that define CUDA
 * 13's functions of a format from a handful of helpers, so that half and
 * bfloat16 are one implementation with two sets of names:
 *
 *   SIMTLAB_FP_NAMED   the names that spell the format (__half2int_rn,
 *                      __int2bfloat16_rd, __floats2half2_rn, make_bfloat162 ...)
 *   SIMTLAB_FP_SHARED  the names both formats overload (__hadd, __heq2_mask,
 *                      __hmax_nan, hsqrt, h2exp10, __hcmadd ...)
 *
 * Each value is computed exactly in double and rounded once to the format,
 * which is the correctly rounded result a GPU's half unit gives for + - * /,
 * fma and sqrt (double's 53 bits are at least 2q+2 for q = 11 and q = 8, so
 * rounding twice cannot differ from rounding once; fma rounds to odd in
 * between). The transcendental functions (hexp, hsin, htanh_approx ...) are
 * correctly rounded from glibc's double results: at least as accurate as
 * the GPU's approximations, so they may differ from a GPU's in the last
 * bit. Where CUDA documents special values (NaN to integer, saturation,
 * +0 > -0 in max and min, canonical NaN) they follow the documentation
 * (cuda_fp16.h of CUDA 13.0). C and C++.
 */
#ifndef SIMTLAB_EMU_FP16_FAMILY_H
#define SIMTLAB_EMU_FP16_FAMILY_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
#define SIMTLAB_FP_FN inline
#else
#define SIMTLAB_FP_FN static inline
#endif

/* Rounding directions of the _rn, _rz, _rd and _ru conversions. */
enum simtlab_fp_rounding {
    SIMTLAB_FP_RN = 0, /* to nearest, ties to even */
    SIMTLAB_FP_RZ = 1, /* toward zero */
    SIMTLAB_FP_RD = 2, /* toward -infinity */
    SIMTLAB_FP_RU = 3  /* toward +infinity */
};

/* Canonical quiet NaN of both half and bfloat16, as CUDA's conversions
 * and arithmetic return it for any NaN. */
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

/* The value of a 64-bit integer as a double rounded to odd (exact up to
 * 2^53; beyond, the dropped bits set the last one), so that rounding it
 * once more to a 16-bit format is correct in every direction. */
SIMTLAB_FP_FN double simtlab_fp_ull_to_odd_double(unsigned long long u)
{
    if (u < (UINT64_C(1) << 53))
        return (double)u;
    int shift = 0;
    while ((u >> shift) >= (UINT64_C(1) << 53))
        shift++;
    unsigned long long kept = u >> shift;
    if (u & ((UINT64_C(1) << shift) - 1u))
        kept |= 1u;
    return ldexp((double)kept, shift);
}

SIMTLAB_FP_FN unsigned short simtlab_fp_from_ull(unsigned long long u, int mant_bits, int bias, int mode)
{
    return simtlab_fp_round(simtlab_fp_ull_to_odd_double(u), mant_bits, bias, mode);
}

SIMTLAB_FP_FN unsigned short simtlab_fp_from_ll(long long i, int mant_bits, int bias, int mode)
{
    if (i >= 0)
        return simtlab_fp_from_ull((unsigned long long)i, mant_bits, bias, mode);
    /* -(i + 1) + 1 does not overflow for LLONG_MIN */
    double magnitude = simtlab_fp_ull_to_odd_double((unsigned long long)(-(i + 1)) + 1u);
    return simtlab_fp_round(-magnitude, mant_bits, bias, mode);
}

/* v rounded to an integral double in the given direction (v is a 16-bit
 * format's value, so every step is exact). */
SIMTLAB_FP_FN double simtlab_fp_round_integral(double v, int mode)
{
    if (mode == SIMTLAB_FP_RZ)
        return trunc(v);
    if (mode == SIMTLAB_FP_RD)
        return floor(v);
    if (mode == SIMTLAB_FP_RU)
        return ceil(v);
    double r = floor(v);
    double d = v - r; /* NaN for infinities: then r stays */
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
        r += 1.0;
    return r == 0.0 ? copysign(0.0, v) : r;
}

/* To an integer type, as CUDA documents its conversions: rounded in the
 * direction asked, saturated to [lo, hi], NaN to `nan_value`. */
SIMTLAB_FP_FN long long simtlab_fp_to_ll(double v, int mode, long long lo, long long hi, long long nan_value)
{
    if (v != v)
        return nan_value;
    double r = simtlab_fp_round_integral(v, mode);
    if (r <= (double)lo)
        return lo;
    if (r >= (double)hi)
        return hi;
    return (long long)r;
}

SIMTLAB_FP_FN unsigned long long simtlab_fp_to_ull(double v, int mode, unsigned long long hi,
                                                   unsigned long long nan_value)
{
    if (v != v)
        return nan_value;
    double r = simtlab_fp_round_integral(v, mode);
    if (r <= 0.0)
        return 0;
    if (r >= (double)hi)
        return hi;
    return (unsigned long long)r;
}

/* ==========================================================================
 * SIMTLAB_FP_NAMED(NAME, NAME2, H, H2, P, FN): the functions whose names
 * spell the format, for NAME = half (H = __half, H2 = __half2, NAME2 =
 * half2) or bfloat16 (__nv_bfloat16, __nv_bfloat162, bfloat162). P names
 * the helpers each header defines first:
 *   P##_make(unsigned short bits) -> H       P##_d(H) -> double (exact)
 *   P##_r(double, mode) -> H                 P##_from_ll(long long, mode) -> H
 *   P##_pair(H lo, H hi) -> H2               P##_from_ull(unsigned long long, mode) -> H
 *   P##_ONE, P##_INF: the bits of 1.0 and of +infinity
 * FN is `inline` or `static inline`. ========================================= */

/* H -> integer type T, one rounding direction */
#define SIMTLAB_FP_TO_SIGNED(NAME, H, P, FN, T, SUFFIX, MODE, LO, HI, NANV)                                          \
    FN T __##NAME##2##SUFFIX(H h) { return (T)simtlab_fp_to_ll(P##_d(h), MODE, LO, HI, NANV); }
#define SIMTLAB_FP_TO_UNSIGNED(NAME, H, P, FN, T, SUFFIX, MODE, HI, NANV)                                            \
    FN T __##NAME##2##SUFFIX(H h) { return (T)simtlab_fp_to_ull(P##_d(h), MODE, HI, NANV); }
#define SIMTLAB_FP_TO_INTEGERS(NAME, H, P, FN, MODE, R)                                                              \
    SIMTLAB_FP_TO_SIGNED(NAME, H, P, FN, int, int_##R, MODE, -2147483647LL - 1, 2147483647LL, 0)                   \
    SIMTLAB_FP_TO_UNSIGNED(NAME, H, P, FN, unsigned int, uint_##R, MODE, 4294967295ULL, 0)                         \
    SIMTLAB_FP_TO_SIGNED(NAME, H, P, FN, short, short_##R, MODE, -32768LL, 32767LL, 0)                             \
    SIMTLAB_FP_TO_UNSIGNED(NAME, H, P, FN, unsigned short, ushort_##R, MODE, 65535ULL, 0)                          \
    SIMTLAB_FP_TO_SIGNED(NAME, H, P, FN, long long, ll_##R, MODE, -9223372036854775807LL - 1,                      \
                         9223372036854775807LL, -9223372036854775807LL - 1)                                        \
    SIMTLAB_FP_TO_UNSIGNED(NAME, H, P, FN, unsigned long long, ull_##R, MODE, 18446744073709551615ULL,             \
                           9223372036854775808ULL)
/* integer type -> H, one rounding direction */
#define SIMTLAB_FP_FROM_INTEGERS(NAME, H, P, FN, MODE, R)                                                            \
    FN H __int2##NAME##_##R(int i) { return P##_from_ll(i, MODE); }                                                 \
    FN H __uint2##NAME##_##R(unsigned int i) { return P##_from_ull(i, MODE); }                                      \
    FN H __short2##NAME##_##R(short i) { return P##_from_ll(i, MODE); }                                             \
    FN H __ushort2##NAME##_##R(unsigned short i) { return P##_from_ull(i, MODE); }                                  \
    FN H __ll2##NAME##_##R(long long i) { return P##_from_ll(i, MODE); }                                            \
    FN H __ull2##NAME##_##R(unsigned long long i) { return P##_from_ull(i, MODE); }

#define SIMTLAB_FP_NAMED(NAME, NAME2, H, H2, P, FN)                                                                  \
    FN unsigned short __##NAME##_as_ushort(H h) { return h.__x; }                                                   \
    FN short __##NAME##_as_short(H h) { return (short)h.__x; }                                                      \
    FN H __ushort_as_##NAME(unsigned short bits) { return P##_make(bits); }                                         \
    FN H __short_as_##NAME(short bits) { return P##_make((unsigned short)bits); }                                   \
    FN H __float2##NAME(float f) { return P##_r(f, SIMTLAB_FP_RN); }                                                \
    FN H __float2##NAME##_rn(float f) { return P##_r(f, SIMTLAB_FP_RN); }                                           \
    FN H __float2##NAME##_rz(float f) { return P##_r(f, SIMTLAB_FP_RZ); }                                           \
    FN H __float2##NAME##_rd(float f) { return P##_r(f, SIMTLAB_FP_RD); }                                           \
    FN H __float2##NAME##_ru(float f) { return P##_r(f, SIMTLAB_FP_RU); }                                           \
    FN H __double2##NAME(double d) { return P##_r(d, SIMTLAB_FP_RN); }                                              \
    FN float __##NAME##2float(H h) { return (float)P##_d(h); }                                                      \
    SIMTLAB_FP_TO_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RN, rn)                                                       \
    SIMTLAB_FP_TO_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RZ, rz)                                                       \
    SIMTLAB_FP_TO_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RD, rd)                                                       \
    SIMTLAB_FP_TO_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RU, ru)                                                       \
    SIMTLAB_FP_TO_SIGNED(NAME, H, P, FN, signed char, char_rz, SIMTLAB_FP_RZ, -128LL, 127LL, 0)                   \
    SIMTLAB_FP_TO_UNSIGNED(NAME, H, P, FN, unsigned char, uchar_rz, SIMTLAB_FP_RZ, 255ULL, 0)                      \
    SIMTLAB_FP_FROM_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RN, rn)                                                     \
    SIMTLAB_FP_FROM_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RZ, rz)                                                     \
    SIMTLAB_FP_FROM_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RD, rd)                                                     \
    SIMTLAB_FP_FROM_INTEGERS(NAME, H, P, FN, SIMTLAB_FP_RU, ru)                                                     \
    /* pairs: x is the low 16 bits, y the high */                                                                   \
    FN H2 __halves2##NAME2(H lo, H hi) { return P##_pair(lo, hi); }                                                 \
    FN H2 make_##NAME2(H x, H y) { return P##_pair(x, y); }                                                         \
    FN H2 __float2##NAME2##_rn(float f) { return P##_pair(__float2##NAME##_rn(f), __float2##NAME##_rn(f)); }       \
    FN H2 __floats2##NAME2##_rn(float lo, float hi)                                                                 \
    {                                                                                                               \
        return P##_pair(__float2##NAME##_rn(lo), __float2##NAME##_rn(hi));                                          \
    }                                                                                                               \
    FN H2 __float22##NAME2##_rn(float2 f) { return P##_pair(__float2##NAME##_rn(f.x), __float2##NAME##_rn(f.y)); } \
    FN float2 __##NAME2##2float2(H2 v)                                                                              \
    {                                                                                                               \
        float2 f;                                                                                                   \
        f.x = __##NAME##2float(v.x);                                                                                \
        f.y = __##NAME##2float(v.y);                                                                                \
        return f;                                                                                                   \
    }                                                                                                               \
    FN H2 __##NAME##2##NAME2(H h) { return P##_pair(h, h); }                                                        \
    FN H __low2##NAME(H2 v) { return v.x; }                                                                         \
    FN H __high2##NAME(H2 v) { return v.y; }                                                                        \
    FN H2 __low2##NAME2(H2 v) { return P##_pair(v.x, v.x); }                                                        \
    FN H2 __high2##NAME2(H2 v) { return P##_pair(v.y, v.y); }                                                       \
    FN H2 __lows2##NAME2(H2 a, H2 b) { return P##_pair(a.x, b.x); }                                                 \
    FN H2 __highs2##NAME2(H2 a, H2 b) { return P##_pair(a.y, b.y); }

/* ==========================================================================
 * SIMTLAB_FP_SHARED(H, H2, P, FN): the names both formats overload, with
 * the same helpers. In C only half has them (C has no overloading); in
 * C++ both do. ============================== */

/* one lane-wise function of a pair from the scalar one */
#define SIMTLAB_FP_LANES1(H2, P, FN, NAME2, NAME1)                                                                   \
    FN H2 NAME2(H2 a) { return P##_pair(NAME1(a.x), NAME1(a.y)); }
#define SIMTLAB_FP_LANES2(H2, P, FN, NAME2, NAME1)                                                                   \
    FN H2 NAME2(H2 a, H2 b) { return P##_pair(NAME1(a.x, b.x), NAME1(a.y, b.y)); }
#define SIMTLAB_FP_LANES3(H2, P, FN, NAME2, NAME1)                                                                   \
    FN H2 NAME2(H2 a, H2 b, H2 c) { return P##_pair(NAME1(a.x, b.x, c.x), NAME1(a.y, b.y, c.y)); }
/* one comparison: scalar bool, pair of 1.0/0.0, pair mask, and both lanes */
#define SIMTLAB_FP_COMPARISON(H, H2, P, FN, OP, EXPR)                                                                \
    FN bool __h##OP(H a, H b)                                                                                       \
    {                                                                                                               \
        double x = P##_d(a), y = P##_d(b);                                                                          \
        return EXPR;                                                                                                \
    }                                                                                                               \
    FN H2 __h##OP##2(H2 a, H2 b)                                                                                    \
    {                                                                                                               \
        return P##_pair(P##_make(__h##OP(a.x, b.x) ? P##_ONE : 0u), P##_make(__h##OP(a.y, b.y) ? P##_ONE : 0u));   \
    }                                                                                                               \
    FN unsigned __h##OP##2_mask(H2 a, H2 b)                                                                         \
    {                                                                                                               \
        return (__h##OP(a.x, b.x) ? 0xFFFFu : 0u) | (__h##OP(a.y, b.y) ? 0xFFFF0000u : 0u);                        \
    }                                                                                                               \
    FN bool __hb##OP##2(H2 a, H2 b) { return __h##OP(a.x, b.x) && __h##OP(a.y, b.y); }
/* a math function, computed in double and rounded once */
#define SIMTLAB_FP_MATH(H, H2, P, FN, NAME, EXPR)                                                                    \
    FN H h##NAME(H a)                                                                                               \
    {                                                                                                               \
        double x = P##_d(a);                                                                                        \
        return P##_r(EXPR, SIMTLAB_FP_RN);                                                                          \
    }                                                                                                               \
    FN H2 h2##NAME(H2 a) { return P##_pair(h##NAME(a.x), h##NAME(a.y)); }

#define SIMTLAB_FP_SHARED(H, H2, P, FN)                                                                              \
    FN float __low2float(H2 v) { return (float)P##_d(v.x); }                                                        \
    FN float __high2float(H2 v) { return (float)P##_d(v.y); }                                                       \
    FN H2 __lowhigh2highlow(H2 v) { return P##_pair(v.y, v.x); }                                                    \
    FN bool __hisnan(H a) { return (a.__x & 0x7FFFu) > P##_INF; }                                                   \
    FN int __hisinf(H a) { return a.__x == P##_INF ? 1 : (a.__x == (0x8000u | P##_INF) ? -1 : 0); }               \
    FN H2 __hisnan2(H2 a)                                                                                           \
    {                                                                                                               \
        return P##_pair(P##_make(__hisnan(a.x) ? P##_ONE : 0u), P##_make(__hisnan(a.y) ? P##_ONE : 0u));           \
    }                                                                                                               \
    /* ---- arithmetic: exact in double, rounded once ---- */                                                       \
    FN H __hadd(H a, H b) { return P##_r(P##_d(a) + P##_d(b), SIMTLAB_FP_RN); }                                     \
    FN H __hsub(H a, H b) { return P##_r(P##_d(a) - P##_d(b), SIMTLAB_FP_RN); }                                     \
    FN H __hmul(H a, H b) { return P##_r(P##_d(a) * P##_d(b), SIMTLAB_FP_RN); }                                     \
    FN H __hdiv(H a, H b) { return P##_r(P##_d(a) / P##_d(b), SIMTLAB_FP_RN); }                                     \
    FN H __hfma(H a, H b, H c) { return P##_r(simtlab_fp_fma_to_odd(P##_d(a), P##_d(b), P##_d(c)), SIMTLAB_FP_RN); } \
    /* _rn: never contracted into an fma, which here nothing is */                                                  \
    FN H __hadd_rn(H a, H b) { return __hadd(a, b); }                                                               \
    FN H __hsub_rn(H a, H b) { return __hsub(a, b); }                                                               \
    FN H __hmul_rn(H a, H b) { return __hmul(a, b); }                                                               \
    /* _sat: clamped to [0, 1], NaN to +0 (and -0 to +0) */                                                         \
    FN H P##_sat(H r)                                                                                               \
    {                                                                                                               \
        return __hisnan(r) || (r.__x & 0x8000u) ? P##_make(0u) : (P##_d(r) > 1.0 ? P##_make(P##_ONE) : r);         \
    }                                                                                                               \
    FN H __hadd_sat(H a, H b) { return P##_sat(__hadd(a, b)); }                                                     \
    FN H __hsub_sat(H a, H b) { return P##_sat(__hsub(a, b)); }                                                     \
    FN H __hmul_sat(H a, H b) { return P##_sat(__hmul(a, b)); }                                                     \
    FN H __hfma_sat(H a, H b, H c) { return P##_sat(__hfma(a, b, c)); }                                             \
    /* _relu: a negative result (or -0) is +0, NaN is the canonical NaN */                                          \
    FN H __hfma_relu(H a, H b, H c)                                                                                 \
    {                                                                                                               \
        H r = __hfma(a, b, c);                                                                                      \
        return __hisnan(r) ? P##_make(SIMTLAB_FP_CANONICAL_NAN) : ((r.__x & 0x8000u) ? P##_make(0u) : r);          \
    }                                                                                                               \
    FN H __hneg(H a) { return P##_make((unsigned short)(a.__x ^ 0x8000u)); }                                        \
    FN H __habs(H a) { return P##_make((unsigned short)(a.__x & 0x7FFFu)); }                                        \
    SIMTLAB_FP_LANES2(H2, P, FN, __hadd2, __hadd)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __hsub2, __hsub)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmul2, __hmul)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __h2div, __hdiv)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __hadd2_rn, __hadd)                                                                \
    SIMTLAB_FP_LANES2(H2, P, FN, __hsub2_rn, __hsub)                                                                \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmul2_rn, __hmul)                                                                \
    SIMTLAB_FP_LANES2(H2, P, FN, __hadd2_sat, __hadd_sat)                                                           \
    SIMTLAB_FP_LANES2(H2, P, FN, __hsub2_sat, __hsub_sat)                                                           \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmul2_sat, __hmul_sat)                                                           \
    SIMTLAB_FP_LANES3(H2, P, FN, __hfma2, __hfma)                                                                   \
    SIMTLAB_FP_LANES3(H2, P, FN, __hfma2_sat, __hfma_sat)                                                           \
    SIMTLAB_FP_LANES3(H2, P, FN, __hfma2_relu, __hfma_relu)                                                         \
    SIMTLAB_FP_LANES1(H2, P, FN, __hneg2, __hneg)                                                                   \
    SIMTLAB_FP_LANES1(H2, P, FN, __habs2, __habs)                                                                   \
    /* complex a*b + c, as CUDA documents it: two fmas per part */                                                  \
    FN H2 __hcmadd(H2 a, H2 b, H2 c)                                                                                \
    {                                                                                                               \
        return P##_pair(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)), __hfma(a.y, b.x, __hfma(a.x, b.y, c.y)));  \
    }                                                                                                               \
    /* ---- comparisons: ordered ones are false, unordered (u) true, for NaN ---- */                               \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, eq, x == y)                                                                 \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, ne, x == x && y == y && x != y)                                             \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, lt, x < y)                                                                  \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, le, x <= y)                                                                 \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, gt, x > y)                                                                  \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, ge, x >= y)                                                                 \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, equ, !(x < y || x > y))                                                     \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, neu, !(x == y))                                                             \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, ltu, !(x >= y))                                                             \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, leu, !(x > y))                                                              \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, gtu, !(x <= y))                                                             \
    SIMTLAB_FP_COMPARISON(H, H2, P, FN, geu, !(x < y))                                                              \
    /* ---- max and min: +0 > -0; NaN gives the other operand (_nan: NaN) ---- */                                  \
    FN H P##_pick(H a, H b, bool larger)                                                                            \
    {                                                                                                               \
        double x = P##_d(a), y = P##_d(b);                                                                          \
        if (x == y) /* equal, or zeros of either sign */                                                            \
            return ((a.__x & 0x8000u) != 0) == larger ? b : a;                                                      \
        return (x > y) == larger ? a : b;                                                                           \
    }                                                                                                               \
    FN H __hmax(H a, H b)                                                                                           \
    {                                                                                                               \
        if (__hisnan(a) || __hisnan(b))                                                                             \
            return __hisnan(a) && __hisnan(b) ? P##_make(SIMTLAB_FP_CANONICAL_NAN) : (__hisnan(a) ? b : a);        \
        return P##_pick(a, b, true);                                                                                \
    }                                                                                                               \
    FN H __hmin(H a, H b)                                                                                           \
    {                                                                                                               \
        if (__hisnan(a) || __hisnan(b))                                                                             \
            return __hisnan(a) && __hisnan(b) ? P##_make(SIMTLAB_FP_CANONICAL_NAN) : (__hisnan(a) ? b : a);        \
        return P##_pick(a, b, false);                                                                               \
    }                                                                                                               \
    FN H __hmax_nan(H a, H b)                                                                                       \
    {                                                                                                               \
        return __hisnan(a) || __hisnan(b) ? P##_make(SIMTLAB_FP_CANONICAL_NAN) : P##_pick(a, b, true);             \
    }                                                                                                               \
    FN H __hmin_nan(H a, H b)                                                                                       \
    {                                                                                                               \
        return __hisnan(a) || __hisnan(b) ? P##_make(SIMTLAB_FP_CANONICAL_NAN) : P##_pick(a, b, false);            \
    }                                                                                                               \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmax2, __hmax)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmin2, __hmin)                                                                   \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmax2_nan, __hmax_nan)                                                           \
    SIMTLAB_FP_LANES2(H2, P, FN, __hmin2_nan, __hmin_nan)                                                           \
    /* ---- math: in double, rounded once ---- */                                                                   \
    SIMTLAB_FP_MATH(H, H2, P, FN, sqrt, sqrt(x))                                                                    \
    SIMTLAB_FP_MATH(H, H2, P, FN, rsqrt, 1.0 / sqrt(x))                                                             \
    SIMTLAB_FP_MATH(H, H2, P, FN, rcp, 1.0 / x)                                                                     \
    SIMTLAB_FP_MATH(H, H2, P, FN, exp, exp(x))                                                                      \
    SIMTLAB_FP_MATH(H, H2, P, FN, exp2, exp2(x))                                                                    \
    SIMTLAB_FP_MATH(H, H2, P, FN, exp10, pow(10.0, x))                                                              \
    SIMTLAB_FP_MATH(H, H2, P, FN, log, log(x))                                                                      \
    SIMTLAB_FP_MATH(H, H2, P, FN, log2, log2(x))                                                                    \
    SIMTLAB_FP_MATH(H, H2, P, FN, log10, log10(x))                                                                  \
    SIMTLAB_FP_MATH(H, H2, P, FN, sin, sin(x))                                                                      \
    SIMTLAB_FP_MATH(H, H2, P, FN, cos, cos(x))                                                                      \
    SIMTLAB_FP_MATH(H, H2, P, FN, tanh, tanh(x))                                                                    \
    SIMTLAB_FP_MATH(H, H2, P, FN, tanh_approx, tanh(x))                                                             \
    SIMTLAB_FP_MATH(H, H2, P, FN, ceil, ceil(x))                                                                    \
    SIMTLAB_FP_MATH(H, H2, P, FN, floor, floor(x))                                                                  \
    SIMTLAB_FP_MATH(H, H2, P, FN, trunc, trunc(x))                                                                  \
    SIMTLAB_FP_MATH(H, H2, P, FN, rint, simtlab_fp_round_integral(x, SIMTLAB_FP_RN))

/* ==========================================================================
 * C++: SIMTLAB_FP_OPERATORS(H, H2, P) and SIMTLAB_FP_MEMBERS(NAME, H, H2, P),
 * CUDA 13's operators and the conversions declared in the types. ========= */
#ifdef __cplusplus
#define SIMTLAB_FP_OPERATORS(H, H2, P)                                                                               \
    inline H operator+(const H &a, const H &b) { return __hadd(a, b); }                                             \
    inline H operator-(const H &a, const H &b) { return __hsub(a, b); }                                             \
    inline H operator*(const H &a, const H &b) { return __hmul(a, b); }                                             \
    inline H operator/(const H &a, const H &b) { return __hdiv(a, b); }                                             \
    inline H &operator+=(H &a, const H &b) { return a = __hadd(a, b); }                                             \
    inline H &operator-=(H &a, const H &b) { return a = __hsub(a, b); }                                             \
    inline H &operator*=(H &a, const H &b) { return a = __hmul(a, b); }                                             \
    inline H &operator/=(H &a, const H &b) { return a = __hdiv(a, b); }                                             \
    inline H operator+(const H &a) { return a; }                                                                    \
    inline H operator-(const H &a) { return __hneg(a); }                                                            \
    inline H &operator++(H &a) { return a = __hadd(a, P##_make(P##_ONE)); }                                         \
    inline H &operator--(H &a) { return a = __hsub(a, P##_make(P##_ONE)); }                                         \
    inline H operator++(H &a, int) { H old = a; ++a; return old; }                                                  \
    inline H operator--(H &a, int) { H old = a; --a; return old; }                                                  \
    inline bool operator==(const H &a, const H &b) { return __heq(a, b); }                                          \
    inline bool operator!=(const H &a, const H &b) { return __hneu(a, b); }                                         \
    inline bool operator<(const H &a, const H &b) { return __hlt(a, b); }                                           \
    inline bool operator<=(const H &a, const H &b) { return __hle(a, b); }                                          \
    inline bool operator>(const H &a, const H &b) { return __hgt(a, b); }                                           \
    inline bool operator>=(const H &a, const H &b) { return __hge(a, b); }                                          \
    inline H2 operator+(const H2 &a, const H2 &b) { return __hadd2(a, b); }                                         \
    inline H2 operator-(const H2 &a, const H2 &b) { return __hsub2(a, b); }                                         \
    inline H2 operator*(const H2 &a, const H2 &b) { return __hmul2(a, b); }                                         \
    inline H2 operator/(const H2 &a, const H2 &b) { return __h2div(a, b); }                                         \
    inline H2 &operator+=(H2 &a, const H2 &b) { return a = __hadd2(a, b); }                                         \
    inline H2 &operator-=(H2 &a, const H2 &b) { return a = __hsub2(a, b); }                                         \
    inline H2 &operator*=(H2 &a, const H2 &b) { return a = __hmul2(a, b); }                                         \
    inline H2 &operator/=(H2 &a, const H2 &b) { return a = __h2div(a, b); }                                         \
    inline H2 operator+(const H2 &a) { return a; }                                                                  \
    inline H2 operator-(const H2 &a) { return __hneg2(a); }                                                         \
    inline H2 &operator++(H2 &a) { return a = __hadd2(a, P##_pair(P##_make(P##_ONE), P##_make(P##_ONE))); }         \
    inline H2 &operator--(H2 &a) { return a = __hsub2(a, P##_pair(P##_make(P##_ONE), P##_make(P##_ONE))); }         \
    inline H2 operator++(H2 &a, int) { H2 old = a; ++a; return old; }                                               \
    inline H2 operator--(H2 &a, int) { H2 old = a; --a; return old; }                                               \
    inline bool operator==(const H2 &a, const H2 &b) { return __hbeq2(a, b); }                                      \
    inline bool operator!=(const H2 &a, const H2 &b) { return __hbneu2(a, b); }                                     \
    inline bool operator<(const H2 &a, const H2 &b) { return __hblt2(a, b); }                                       \
    inline bool operator<=(const H2 &a, const H2 &b) { return __hble2(a, b); }                                      \
    inline bool operator>(const H2 &a, const H2 &b) { return __hbgt2(a, b); }                                       \
    inline bool operator>=(const H2 &a, const H2 &b) { return __hbge2(a, b); }

/* The type's conversion operators (toward zero, as CUDA's) and
 * assignments, defined once the functions exist. */
#define SIMTLAB_FP_MEMBERS(NAME, H, P)                                                                               \
    inline H::operator float() const { return (float)P##_d(*this); }                                                \
    inline H::operator signed char() const { return __##NAME##2char_rz(*this); }                                    \
    inline H::operator unsigned char() const { return __##NAME##2uchar_rz(*this); }                                 \
    inline H::operator char() const                                                                                 \
    {                                                                                                               \
        return (char)((char)-1 < 0 ? (int)__##NAME##2char_rz(*this) : (int)__##NAME##2uchar_rz(*this));            \
    }                                                                                                               \
    inline H::operator short() const { return __##NAME##2short_rz(*this); }                                         \
    inline H::operator unsigned short() const { return __##NAME##2ushort_rz(*this); }                               \
    inline H::operator int() const { return __##NAME##2int_rz(*this); }                                             \
    inline H::operator unsigned int() const { return __##NAME##2uint_rz(*this); }                                   \
    inline H::operator long() const { return (long)__##NAME##2ll_rz(*this); }                                       \
    inline H::operator unsigned long() const { return (unsigned long)__##NAME##2ull_rz(*this); }                    \
    inline H::operator long long() const { return __##NAME##2ll_rz(*this); }                                        \
    inline H::operator unsigned long long() const { return __##NAME##2ull_rz(*this); }                              \
    inline H::operator bool() const { return (__x & 0x7FFFu) != 0; }
#endif

#endif
