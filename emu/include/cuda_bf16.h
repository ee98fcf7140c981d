/* simtlab CPU emulator — bfloat16 for host code and kernels: every function
 * and operator of CUDA 13's cuda_bf16.h, as cuda_fp16.h does for half
 * (the same implementation, simtlab_emu/fp16_family.h, with bfloat16's
 * widths). emu/tests/slcc_inputs/fp16_every_name.cu calls each name.
 *
 * bfloat16 is float's upper half: 8 exponent bits, 7 stored mantissa bits.
 * The storage types compile in C and C++ (__nv_bfloat16 holds the pattern in
 * `__x`, __nv_bfloat162 holds .x and .y). The functions whose names spell
 * bfloat16 (conversions, bit casts, pairs) exist in C too; the arithmetic,
 * comparison and math functions share their names with the half ones
 * (__hadd, __heq, hsqrt ...), as in CUDA, so they are C++ overloads and
 * exist only in C++.
 */
#ifndef SIMTLAB_EMU_CUDA_BF16_H
#define SIMTLAB_EMU_CUDA_BF16_H

#include <cuda_fp16.h>

#define SIMTLAB_BF16_MANT_BITS 7
#define SIMTLAB_BF16_BIAS 127
#define simtlab_bf16_ONE 0x3F80u
#define simtlab_bf16_INF 0x7F80u

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
typedef struct __nv_bfloat162_raw {
    unsigned short x, y;
} __nv_bfloat162_raw;

typedef struct __attribute__((aligned(2))) __nv_bfloat16 {
    unsigned short __x;
#ifdef __cplusplus
    __nv_bfloat16() = default;
    __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) { __x = r.x; return *this; }
    operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
    explicit __nv_bfloat16(const __half h)
        : __x(simtlab_bf16_from_double(simtlab_half_bits_to_float(h.__x), SIMTLAB_FP_RN)) {}
    __nv_bfloat16(float f) : __x(simtlab_bf16_from_double(f, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(double d) : __x(simtlab_bf16_from_double(d, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(short i) : __x(simtlab_fp_from_ll(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned short i)
        : __x(simtlab_fp_from_ull(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(int i) : __x(simtlab_fp_from_ll(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned int i)
        : __x(simtlab_fp_from_ull(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(long i) : __x(simtlab_fp_from_ll(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned long i)
        : __x(simtlab_fp_from_ull(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(long long i)
        : __x(simtlab_fp_from_ll(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16(unsigned long long i)
        : __x(simtlab_fp_from_ull(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, SIMTLAB_FP_RN)) {}
    __nv_bfloat16 &operator=(float f) { return *this = __nv_bfloat16(f); }
    __nv_bfloat16 &operator=(double d) { return *this = __nv_bfloat16(d); }
    __nv_bfloat16 &operator=(short i) { return *this = __nv_bfloat16(i); }
    __nv_bfloat16 &operator=(unsigned short i) { return *this = __nv_bfloat16(i); }
    __nv_bfloat16 &operator=(int i) { return *this = __nv_bfloat16(i); }
    __nv_bfloat16 &operator=(unsigned int i) { return *this = __nv_bfloat16(i); }
    __nv_bfloat16 &operator=(long long i) { return *this = __nv_bfloat16(i); }
    __nv_bfloat16 &operator=(unsigned long long i) { return *this = __nv_bfloat16(i); }
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
} __nv_bfloat16;

typedef struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
#ifdef __cplusplus
    __nv_bfloat162() = default;
    __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
    __nv_bfloat162(const __nv_bfloat162_raw &r) : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
    __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) { return *this = __nv_bfloat162(r); }
    operator __nv_bfloat162_raw() const { __nv_bfloat162_raw r; r.x = x.__x; r.y = y.__x; return r; }
#endif
} __nv_bfloat162;

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

/* ---- the helpers fp16_family.h's macros need ------------------------------ */

SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_make(unsigned short bits)
{
    __nv_bfloat16 b;
    b.__x = bits;
    return b;
}
SIMTLAB_FP_FN double simtlab_bf16_d(__nv_bfloat16 b) { return (double)simtlab_bf16_bits_to_float(b.__x); }
SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_r(double d, int mode)
{
    return simtlab_bf16_make(simtlab_bf16_from_double(d, mode));
}
SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_rn(double d) { return simtlab_bf16_r(d, SIMTLAB_FP_RN); }
SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_from_ll(long long i, int mode)
{
    return simtlab_bf16_make(simtlab_fp_from_ll(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, mode));
}
SIMTLAB_FP_FN __nv_bfloat16 simtlab_bf16_from_ull(unsigned long long i, int mode)
{
    return simtlab_bf16_make(simtlab_fp_from_ull(i, SIMTLAB_BF16_MANT_BITS, SIMTLAB_BF16_BIAS, mode));
}
SIMTLAB_FP_FN __nv_bfloat162 simtlab_bf16_pair(__nv_bfloat16 lo, __nv_bfloat16 hi)
{
    __nv_bfloat162 v;
    v.x = lo;
    v.y = hi;
    return v;
}

/* ---- CUDA's functions: the bfloat16 names in C and C++ ------------------------ */

SIMTLAB_FP_NAMED(bfloat16, bfloat162, __nv_bfloat16, __nv_bfloat162, simtlab_bf16, SIMTLAB_FP_FN)

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80u)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFu)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7Fu)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001u)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80u)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000u)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000u)

/* ---- C++ only: the shared names, operators, conversions, atomics ---------- */
#ifdef __cplusplus
SIMTLAB_FP_SHARED(__nv_bfloat16, __nv_bfloat162, simtlab_bf16, inline)
SIMTLAB_FP_OPERATORS(__nv_bfloat16, __nv_bfloat162, simtlab_bf16)
SIMTLAB_FP_MEMBERS(bfloat16, __nv_bfloat16, simtlab_bf16)

/* __half from bfloat16, declared in __half as CUDA does: through float,
 * which holds every bfloat16 exactly, rounded once. */
inline __half::__half(const __nv_bfloat16 f) : __x(simtlab_half_from_double(simtlab_bf16_d(f), SIMTLAB_FP_RN)) {}

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
