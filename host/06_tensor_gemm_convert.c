/* simtlab host library — chapter 06: float <-> half and float <-> bfloat16
 * in plain C, round to nearest even, and the CPU reference product.
 *
 * binary16: value = (-1)^s 2^(e - 15) 1.m for e = 1..30, 2^-14 0.m for
 * e = 0 (subnormals, steps of 2^-24), infinity or NaN for e = 31.
 * bfloat16: the top 16 bits of a float, same exponent range as float. */
#include <stdio.h>
#include <string.h>

#include "sl_internal.h"
#include "simtlab/06_tensor_gemm.h"

static uint32_t bits_of(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float float_of(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* q + 1 when the `shift` bits dropped from v are more than half, or exactly
 * half and q is odd (ties to even). */
static uint32_t round_shift(uint32_t v, int shift)
{
    uint32_t q = v >> shift, rest = v & ((1u << shift) - 1), half = 1u << (shift - 1);
    return q + (rest > half || (rest == half && (q & 1)));
}

uint16_t sl_float_to_half(float f)
{
    uint32_t x = bits_of(f), mag = x & 0x7fffffffu;
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    if (mag > 0x7f800000u) return sign | 0x7e00u | (uint16_t)((mag >> 13) & 0x1ffu); /* NaN, quiet */
    if (mag >= 0x477ff000u) return sign | 0x7c00u; /* >= 65520 = 65504 + half a step: infinity */
    if (mag >= 0x38800000u) /* >= 2^-14: normal; rebias 127 -> 15 and round 23 -> 10 mantissa bits */
        return sign | (uint16_t)round_shift(mag - 0x38000000u, 13); /* a carry into the exponent is right */
    int e = (int)(mag >> 23); /* subnormal or zero: the float is (1.m) 2^(e - 127); count steps of 2^-24 */
    if (e < 102) return sign; /* below 2^-25, half the smallest subnormal: zero */
    uint32_t significand = (mag & 0x7fffffu) | 0x800000u; /* value = significand 2^(e - 150) */
    return sign | (uint16_t)round_shift(significand, 126 - e); /* 0x400 after rounding is the smallest normal */
}

float sl_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return float_of(sign | 0x7f800000u | (m << 13)); /* infinity, or NaN with its payload */
    if (e != 0) return float_of(sign | ((e + 112) << 23) | (m << 13));
    if (m == 0) return float_of(sign);
    /* subnormal m 2^-24: normalise */
    int shift = 0;
    while (!(m & 0x400u)) m <<= 1, shift++;
    return float_of(sign | ((uint32_t)(113 - shift) << 23) | ((m & 0x3ffu) << 13));
}

uint16_t sl_float_to_bf16(float f)
{
    uint32_t x = bits_of(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* NaN: keep it one, quiet */
    return (uint16_t)(round_shift(x & 0x7fffffffu, 16) | ((x >> 16) & 0x8000u)); /* overflow becomes infinity */
}

float sl_bf16_to_float(uint16_t h) { return float_of((uint32_t)h << 16); }

static int bad_type(sl_tgemm_type type) { return type != SL_TGEMM_F16 && type != SL_TGEMM_BF16; }

/* A conversion's arrays: n elements of in_elem and out_elem bytes, host
 * memory, and apart (not in place: the widths differ, so element i of out
 * lands on elements of in not yet read). */
static sl_status check_conversion(const char *fn, const void *in, size_t in_elem, const void *out, size_t out_elem,
                                  size_t n)
{
    char what[64];
    size_t in_bytes = 0, out_bytes = 0;
    snprintf(what, sizeof what, "%s: n", fn);
    sl_status st = sl_checked_bytes(n, in_elem > out_elem ? in_elem : out_elem, what, &in_bytes);
    if (st == SL_OK) st = sl_check_host_ptr(fn, "in", in);
    if (st == SL_OK) st = sl_check_host_ptr(fn, "out", out);
    if (st != SL_OK) return st;
    in_bytes = n * in_elem, out_bytes = n * out_elem;
    return sl_check_disjoint(fn, "out", out, out_bytes, "in", in, in_bytes);
}

sl_status sl_tgemm_round(sl_tgemm_type type, const float *in, uint16_t *out, size_t n)
{
    if (bad_type(type)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_tgemm_round: type = %d is not SL_TGEMM_F16 or SL_TGEMM_BF16", (int)type);
    if (n == 0) return SL_OK;
    sl_status st = check_conversion("sl_tgemm_round", in, sizeof *in, out, sizeof *out, n);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < n; i++) out[i] = type == SL_TGEMM_F16 ? sl_float_to_half(in[i]) : sl_float_to_bf16(in[i]);
    return SL_OK;
}

sl_status sl_tgemm_widen(sl_tgemm_type type, const uint16_t *in, float *out, size_t n)
{
    if (bad_type(type)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_tgemm_widen: type = %d is not SL_TGEMM_F16 or SL_TGEMM_BF16", (int)type);
    if (n == 0) return SL_OK;
    sl_status st = check_conversion("sl_tgemm_widen", in, sizeof *in, out, sizeof *out, n);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < n; i++) out[i] = type == SL_TGEMM_F16 ? sl_half_to_float(in[i]) : sl_bf16_to_float(in[i]);
    return SL_OK;
}

sl_status sl_tgemm_cpu_reference(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a,
                                 const uint16_t *b, double *c)
{
    static const char fn[] = "sl_tgemm_cpu_reference";
    if (bad_type(type)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: type = %d is not SL_TGEMM_F16 or SL_TGEMM_BF16", fn, (int)type);
    SL_NULL_CHECK(a, fn);
    SL_NULL_CHECK(b, fn);
    SL_NULL_CHECK(c, fn);
    /* the byte counts of a (m x k halves), b (k x n) and c (m x n doubles) */
    size_t mn = 0, mk = 0, kn = 0, a_bytes = 0, b_bytes = 0, c_bytes = 0;
    sl_status st = sl_checked_bytes(m, n, "sl_tgemm_cpu_reference: m x n", &mn);
    if (st == SL_OK) st = sl_checked_bytes(mn, sizeof *c, "sl_tgemm_cpu_reference: c (m x n doubles)", &c_bytes);
    if (st == SL_OK) st = sl_checked_bytes(m, k, "sl_tgemm_cpu_reference: m x k", &mk);
    if (st == SL_OK) st = sl_checked_bytes(mk, sizeof *a, "sl_tgemm_cpu_reference: a (m x k)", &a_bytes);
    if (st == SL_OK) st = sl_checked_bytes(k, n, "sl_tgemm_cpu_reference: k x n", &kn);
    if (st == SL_OK) st = sl_checked_bytes(kn, sizeof *b, "sl_tgemm_cpu_reference: b (k x n)", &b_bytes);
    if (st == SL_OK) st = sl_check_omp_count(m, "sl_tgemm_cpu_reference: m");
    if (st != SL_OK || c_bytes == 0) return st;
    if ((st = sl_check_host_ptr(fn, "c", c)) != SL_OK) return st;
    if (a_bytes && ((st = sl_check_host_ptr(fn, "a", a)) != SL_OK || (st = sl_check_host_ptr(fn, "b", b)) != SL_OK))
        return st;
    /* not in place: c is written while a and b are read */
    if ((st = sl_check_disjoint(fn, "c", c, c_bytes, "a", a, a_bytes)) != SL_OK ||
        (st = sl_check_disjoint(fn, "c", c, c_bytes, "b", b, b_bytes)) != SL_OK)
        return st;
    float (*value)(uint16_t) = type == SL_TGEMM_F16 ? sl_half_to_float : sl_bf16_to_float;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)m; i++) {
        double *row = c + (size_t)i * n;
        for (size_t j = 0; j < n; j++) row[j] = 0.0;
        for (size_t p = 0; p < k; p++) {
            double x = value(a[(size_t)i * k + p]);
            const uint16_t *brow = b + p * n;
            for (size_t j = 0; j < n; j++) row[j] += x * value(brow[j]);
        }
    }
    return SL_OK;
}
