/* simtlab CPU emulator — bfloat16 for host code and kernels.
 *
 * bfloat16 is float's upper half: 8 exponent bits, 7 stored mantissa bits.
 * The storage types compile in C and C++ (__nv_bfloat16 holds the pattern in
 * `__x`, __nv_bfloat162 holds .x and .y). Conversions and bit casts have
 * their own names and exist in C too; the arithmetic and comparison
 * functions share their names with the half ones (__hadd, __heq, ...), as in
 * CUDA, so they are C++ overloads and exist only in C++.
 *
 * Rounding goes through simtlab_fp_round from cuda_fp16.h, the same tested
 * routine that half uses, with bfloat16's widths.
 */
#ifndef SIMTLAB_EMU_CUDA_BF16_H
#define SIMTLAB_EMU_CUDA_BF16_H

#include <cuda_fp16.h>

#define SIMTLAB_BF16_MANT_BITS 7
#define SIMTLAB_BF16_BIAS 127

SIMTLAB_FP_FN unsigned short simtlab_bf16_from_double(double v, int mode)
{
    return simtlab_fp_round(v, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, mode);
}

/* A bfloat16 is a float whose low 16 bits are zero. */
SIMTLAB_FP_FN float simtlab_bf16_bits_to_float(unsigned short b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

typedef struct __nv_bfloat16_raw {
    unsigned short x;
} __nv_bfloat16_raw;

typedef struct __nv_bfloat16 {
    unsigned short __x;
#ifdef __cplusplus
    __nv_bfloat16() = default;
    __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(simtlab_bf16_from_double(f, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(double d) : __x(simtlab_bf16_from_double(d, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(int i) : __x(simtlab_bf16_from_double(i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned int i) : __x(simtlab_bf16_from_double(i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(short i) : __x(simtlab_bf16_from_double(i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned short i) : __x(simtlab_bf16_from_double(i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(long long i) : __x(simtlab_bf16_from_double((double)i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned long long i) : __x(simtlab_bf16_from_double((double)i, SIMTLAB_FP_RN)) {}
    __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) { __x = r.x; return *this; }
    operator float() const { return simtlab_bf16_bits_to_float(__x); }
    operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
#endif
} __nv_bfloat16;

typedef struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
#ifdef __cplusplus
    __nv_bfloat162() = default;
    __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
#endif
} __nv_bfloat162;

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* ---- bit casts and conversions (C and C++) ----------------------------- */

SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_make(unsigned short bits)
{
    __nv_bfloat16 b;
    b.__x = bits;
    return b;
}

SIMTLAB_FP_FN unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
SIMTLAB_FP_FN short __bfloat16_as_short(__nv_bfloat16 b) { return (short)b.__x; }
SIMTLAB_FP_FN __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits) { return simtlab_bf16_make(bits); }
SIMTLAB_FP_FN __nv_bfloat16 __short_as_bfloat16(short bits) { return simtlab_bf16_make((unsigned short)bits); }

SIMTLAB_FP_FN __nv_bfloat16 __float2bfloat16(float f) { return simtlab_bf16_make(simtlab_bf16_from_double(f, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN __nv_bfloat16 __float2bfloat16_rn(float f) { return simtlab_bf16_make(simtlab_bf16_from_double(f, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN __nv_bfloat16 __float2bfloat16_rz(float f) { return simtlab_bf16_make(simtlab_bf16_from_double(f, SIMTLAB_FP_RZ)); }
SIMTLAB_FP_FN __nv_bfloat16 __float2bfloat16_rd(float f) { return simtlab_bf16_make(simtlab_bf16_from_double(f, SIMTLAB_FP_RD)); }
SIMTLAB_FP_FN __nv_bfloat16 __float2bfloat16_ru(float f) { return simtlab_bf16_make(simtlab_bf16_from_double(f, SIMTLAB_FP_RU)); }
SIMTLAB_FP_FN __nv_bfloat16 __double2bfloat16(double d) { return simtlab_bf16_make(simtlab_bf16_from_double(d, SIMTLAB_FP_RN)); }
SIMTLAB_FP_FN float __bfloat162float(__nv_bfloat16 b) { return simtlab_bf16_bits_to_float(b.__x); }

SIMTLAB_FP_FN __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi)
{
    __nv_bfloat162 v;
    v.x = lo;
    v.y = hi;
    return v;
}
SIMTLAB_FP_FN __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi)
{
    return __halves2bfloat162(__float2bfloat16_rn(lo), __float2bfloat16_rn(hi));
}
SIMTLAB_FP_FN __nv_bfloat162 __float2bfloat162_rn(float f) { return __floats2bfloat162_rn(f, f); }
SIMTLAB_FP_FN __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 b) { return __halves2bfloat162(b, b); }
SIMTLAB_FP_FN __nv_bfloat16 __low2bfloat16(__nv_bfloat162 v) { return v.x; }
SIMTLAB_FP_FN __nv_bfloat16 __high2bfloat16(__nv_bfloat162 v) { return v.y; }
SIMTLAB_FP_FN __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
SIMTLAB_FP_FN float2 __bfloat1622float2(__nv_bfloat162 v)
{
    float2 f;
    f.x = __bfloat162float(v.x);
    f.y = __bfloat162float(v.y);
    return f;
}

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80u)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFu)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7Fu)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001u)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80u)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000u)

/* ---- arithmetic and comparisons: C++ overloads of the half names ------- */
#ifdef __cplusplus
inline double simtlab_bf16_d(__nv_bfloat16 b) { return (double)simtlab_bf16_bits_to_float(b.__x); }
inline __nv_bfloat16 simtlab_bf16_rn(double d) { return simtlab_bf16_make(simtlab_bf16_from_double(d, SIMTLAB_FP_RN)); }

inline float __low2float(__nv_bfloat162 v) { return __bfloat162float(v.x); }
inline float __high2float(__nv_bfloat162 v) { return __bfloat162float(v.y); }

inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_rn(simtlab_bf16_d(a) + simtlab_bf16_d(b)); }
inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_rn(simtlab_bf16_d(a) - simtlab_bf16_d(b)); }
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_rn(simtlab_bf16_d(a) * simtlab_bf16_d(b)); }
inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_rn(simtlab_bf16_d(a) / simtlab_bf16_d(b)); }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return simtlab_bf16_rn(simtlab_fp_fma_to_odd(simtlab_bf16_d(a), simtlab_bf16_d(b), simtlab_bf16_d(c)));
}
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { return simtlab_bf16_make((unsigned short)(a.__x ^ 0x8000u)); }
inline __nv_bfloat16 __habs(__nv_bfloat16 a) { return simtlab_bf16_make((unsigned short)(a.__x & 0x7FFFu)); }

inline bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7FFFu) > 0x7F80u; }
inline int __hisinf(__nv_bfloat16 a) { return a.__x == 0x7F80u ? 1 : (a.__x == 0xFF80u ? -1 : 0); }
inline bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_d(a) == simtlab_bf16_d(b); }
inline bool __hne(__nv_bfloat16 a, __nv_bfloat16 b) { return !__hisnan(a) && !__hisnan(b) && simtlab_bf16_d(a) != simtlab_bf16_d(b); }
inline bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_d(a) < simtlab_bf16_d(b); }
inline bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_d(a) <= simtlab_bf16_d(b); }
inline bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_d(a) > simtlab_bf16_d(b); }
inline bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return simtlab_bf16_d(a) >= simtlab_bf16_d(b); }
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b)
{
    if (__hisnan(a))
        return __hisnan(b) ? simtlab_bf16_make(SIMTLAB_FP_CANONICAL_NAN) : b;
    if (__hisnan(b))
        return a;
    return simtlab_bf16_d(a) >= simtlab_bf16_d(b) ? a : b;
}
inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b)
{
    if (__hisnan(a))
        return __hisnan(b) ? simtlab_bf16_make(SIMTLAB_FP_CANONICAL_NAN) : b;
    if (__hisnan(b))
        return a;
    return simtlab_bf16_d(a) <= simtlab_bf16_d(b) ? a : b;
}

inline __nv_bfloat16 hsqrt(__nv_bfloat16 a) { return simtlab_bf16_rn(std::sqrt(simtlab_bf16_d(a))); }
inline __nv_bfloat16 hrsqrt(__nv_bfloat16 a) { return simtlab_bf16_rn(1.0 / std::sqrt(simtlab_bf16_d(a))); }
inline __nv_bfloat16 hrcp(__nv_bfloat16 a) { return simtlab_bf16_rn(1.0 / simtlab_bf16_d(a)); }
inline __nv_bfloat16 hexp(__nv_bfloat16 a) { return simtlab_bf16_rn(std::exp(simtlab_bf16_d(a))); }
inline __nv_bfloat16 hlog(__nv_bfloat16 a) { return simtlab_bf16_rn(std::log(simtlab_bf16_d(a))); }
inline __nv_bfloat16 htanh(__nv_bfloat16 a) { return simtlab_bf16_rn(std::tanh(simtlab_bf16_d(a))); }

inline __nv_bfloat162 __hadd2(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
inline __nv_bfloat162 __hsub2(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
inline __nv_bfloat162 __hmul2(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
inline __nv_bfloat162 __h2div(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
inline __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c)
{
    return __halves2bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __nv_bfloat162 __hneg2(__nv_bfloat162 a) { return __halves2bfloat162(__hneg(a.x), __hneg(a.y)); }
inline __nv_bfloat162 __hmax2(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
inline __nv_bfloat162 __hmin2(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(__hmin(a.x, b.x), __hmin(a.y, b.y)); }
inline bool __hbeq2(__nv_bfloat162 a, __nv_bfloat162 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }

inline __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
inline __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
inline __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
inline __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
inline __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hadd(a, b); }
inline __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hsub(a, b); }
inline __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hmul(a, b); }
inline __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hdiv(a, b); }
inline __nv_bfloat16 operator+(const __nv_bfloat16 &a) { return a; }
inline __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
inline bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
inline bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hne(a, b); }
inline bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
inline bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }
inline bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
inline bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }

inline __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
inline __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
inline __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }
inline __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hadd2(a, b); }
inline bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbeq2(a, b); }

/* atomicAdd on bfloat16 (sm_80+) and its pair (sm_90+; sm_80 in CUDA 12+
 * headers through a CAS loop): as cuda_fp16.h's, each half rounded once. */
inline __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val)
{
    return ::simtlab_emu::atomic::half_update(address, [val](__nv_bfloat16 old) { return __hadd(old, val); });
}
inline __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val)
{
    return ::simtlab_emu::atomic::half_update(address, [val](__nv_bfloat162 old) { return __hadd2(old, val); });
}
#endif

#endif /* SIMTLAB_EMU_CUDA_BF16_H */
