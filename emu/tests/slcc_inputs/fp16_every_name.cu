/* Every function, operator and constant of CUDA 13's cuda_fp16.h and
 * cuda_bf16.h (the names their declarations give, taken from the 13.0
 * toolkit's headers), called from a kernel, for both formats; a sample of
 * results is checked against a reference that rounds by searching all
 * 65536 bit patterns (nothing of the emulator's rounding). Built by slcc
 * (test_slcc_cuda_programs.c); it also builds with nvcc 13, which is how
 * the names and signatures were checked against CUDA's own.
 *
 *   slcc fp16_every_name.cu -o fp16_every_name && ./fp16_every_name
 *
 * Prints "fp16_every_name: ok" and exits 0 when every check passed;
 * otherwise one FAIL line per failed check and exit status 1.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

/* ---- the reference ----------------------------------------------------------- */

/* A 16-bit format: half (10 mantissa bits, bias 15) or bfloat16 (7, 127). */
struct format {
    int mant_bits, bias;
};
__host__ __device__ constexpr format half_format() { return {10, 15}; }
__host__ __device__ constexpr format bf16_format() { return {7, 127}; }

/* The value of bit pattern b, from the definition of the format. */
__host__ __device__ double ref_value(format f, unsigned b)
{
    const unsigned exp_field = (b >> f.mant_bits) & ((1u << (15 - f.mant_bits)) - 1u);
    const unsigned mant = b & ((1u << f.mant_bits) - 1u);
    const double sign = (b & 0x8000u) ? -1.0 : 1.0;
    const unsigned all_ones = (1u << (15 - f.mant_bits)) - 1u;
    if (exp_field == all_ones)
        return mant ? NAN : sign * INFINITY;
    if (exp_field == 0)
        return sign * ldexp((double)mant, 1 - f.bias - f.mant_bits);
    return sign * ldexp((double)(mant | (1u << f.mant_bits)), (int)exp_field - f.bias - f.mant_bits);
}

/* x rounded to the nearest pattern, ties to even, by search: the nearest
 * finite value, or infinity at or beyond the largest finite value plus
 * half its spacing. */
__host__ __device__ unsigned ref_round(format f, double x)
{
    if (x != x)
        return 0x7FFFu;
    const unsigned inf = ((1u << (15 - f.mant_bits)) - 1u) << f.mant_bits;
    const unsigned sign = (x < 0 || (x == 0 && signbit(x))) ? 0x8000u : 0u;
    const double ax = fabs(x);
    const double max = ref_value(f, inf - 1u);
    if (ax >= max + (max - ref_value(f, inf - 2u)) / 2)
        return sign | inf;
    unsigned best = 0;
    for (unsigned b = 1; b < inf; ++b) {
        const double d = fabs(ref_value(f, b) - ax), db = fabs(ref_value(f, best) - ax);
        if (d < db || (d == db && (b & 1u) == 0))
            best = b;
    }
    return sign | best;
}

__device__ int failures;

#define CHECK(cond)                                                                                     \
    do {                                                                                                \
        if (!(cond)) {                                                                                  \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                                              \
            atomicAdd(&failures, 1);                                                                    \
        }                                                                                               \
    } while (0)

/* Bits of a value of either format. */
__device__ unsigned bits(__half h) { return __half_as_ushort(h); }
__device__ unsigned bits(__nv_bfloat16 b) { return __bfloat16_as_ushort(b); }
__device__ format fmt_of(__half) { return half_format(); }
__device__ format fmt_of(__nv_bfloat16) { return bf16_format(); }

/* ---- the names both formats share (overloads), one template for both ------- */

template <class H, class H2>
__device__ void shared_names(H2 (*pair)(H, H), H (*from_float)(float), float (*to_float)(H), float *sink)
{
    const format f = fmt_of(H());
    const H one = from_float(1.0f), two = from_float(2.0f), three = from_float(3.0f), half_ = from_float(0.5f);
    const H nan = from_float(NAN), pzero = from_float(0.0f), nzero = from_float(-0.0f);
    const H x = from_float(1.3f), y = from_float(-2.7f), z = from_float(0.6f);
    const double vx = ref_value(f, bits(x)), vy = ref_value(f, bits(y)), vz = ref_value(f, bits(z));
    const H2 p = pair(x, y), q = pair(z, x), r = pair(y, z);

    /* arithmetic: each value is rounded once */
    CHECK(bits(__hadd(x, y)) == ref_round(f, vx + vy));
    CHECK(bits(__hsub(x, y)) == ref_round(f, vx - vy));
    CHECK(bits(__hmul(x, y)) == ref_round(f, vx * vy));
    CHECK(bits(__hdiv(x, y)) == ref_round(f, vx / vy));
    CHECK(bits(__hfma(x, y, z)) == ref_round(f, vx * vy + vz)); /* exact in double for these */
    CHECK(bits(__hadd_rn(x, z)) == ref_round(f, vx + vz));
    CHECK(bits(__hsub_rn(x, z)) == ref_round(f, vx - vz));
    CHECK(bits(__hmul_rn(x, z)) == ref_round(f, vx * vz));
    CHECK(bits(__hadd_sat(z, z)) == bits(one));   /* 1.2 saturates to 1 */
    CHECK(bits(__hsub_sat(z, x)) == bits(pzero)); /* negative saturates to +0 */
    CHECK(bits(__hmul_sat(nan, x)) == 0u);        /* NaN to +0 */
    CHECK(bits(__hfma_sat(z, half_, z)) == ref_round(f, vz * 0.5 + vz));
    CHECK(bits(__hfma_relu(y, x, z)) == 0u);      /* negative: 0 */
    CHECK(bits(__hfma_relu(x, x, z)) == ref_round(f, vx * vx + vz));
    CHECK(bits(__hfma_relu(nan, x, z)) == 0x7FFFu);
    CHECK(bits(__hneg(x)) == (bits(x) ^ 0x8000u));
    CHECK(bits(__habs(y)) == (bits(y) & 0x7FFFu));

    /* pairs, lane by lane */
    CHECK(bits(__hadd2(p, q).x) == ref_round(f, vx + vz) && bits(__hadd2(p, q).y) == ref_round(f, vy + vx));
    CHECK(bits(__hsub2(p, q).y) == ref_round(f, vy - vx));
    CHECK(bits(__hmul2(p, q).x) == ref_round(f, vx * vz));
    CHECK(bits(__h2div(p, q).y) == ref_round(f, vy / vx));
    CHECK(bits(__hfma2(p, q, r).x) == ref_round(f, vx * vz + vy));
    CHECK(bits(__hadd2_rn(p, q).y) == bits(__hadd(y, x)));
    CHECK(bits(__hsub2_rn(p, q).x) == bits(__hsub(x, z)));
    CHECK(bits(__hmul2_rn(p, q).x) == bits(__hmul(x, z)));
    CHECK(bits(__hadd2_sat(p, q).y) == 0u && bits(__hadd2_sat(p, q).x) == bits(one));
    CHECK(bits(__hsub2_sat(q, p).x) == 0u);
    CHECK(bits(__hmul2_sat(q, q).x) == ref_round(f, ref_value(f, ref_round(f, vz * vz))));
    CHECK(bits(__hfma2_sat(p, p, p).x) == bits(one));
    CHECK(bits(__hfma2_relu(p, q, q).y) == 0u);
    CHECK(bits(__hneg2(p).x) == bits(__hneg(x)) && bits(__habs2(p).y) == bits(__habs(y)));
    {
        /* (1 + 2i)(3 + 4i) + (0.5 + 0.5i) = -4.5 + 10.5i */
        const H2 c = __hcmadd(pair(one, two), pair(three, from_float(4.0f)), pair(half_, half_));
        CHECK(to_float(c.x) == -4.5f && to_float(c.y) == 10.5f);
    }

    /* comparisons: ordered ones false for NaN, unordered ones true */
    CHECK(__heq(x, x) && !__heq(x, nan) && __hequ(x, nan));
    CHECK(__hne(x, y) && !__hne(nan, nan) && __hneu(nan, nan) && !__hneu(x, x));
    CHECK(__hlt(y, x) && !__hlt(nan, x) && __hltu(nan, x) && !__hltu(x, y));
    CHECK(__hle(y, x) && __hle(x, x) && !__hle(x, nan) && __hleu(x, nan));
    CHECK(__hgt(x, y) && !__hgt(nan, y) && __hgtu(nan, y) && !__hgtu(y, x));
    CHECK(__hge(x, y) && __hge(x, x) && !__hge(nan, x) && __hgeu(nan, x));
    CHECK(__hisnan(nan) && !__hisnan(x));
    CHECK(__hisinf(from_float(INFINITY)) == 1 && __hisinf(from_float(-INFINITY)) == -1 && __hisinf(x) == 0);
    /* the pair forms: __hgt2 gives 1.0 / 0.0 per lane, _mask 0xFFFF per lane */
    const H2 pn = pair(x, nan); /* (1.3, NaN) against q = (0.6, 1.3) */
    CHECK(bits(__hgt2(pn, q).x) == bits(one) && bits(__hgt2(pn, q).y) == 0u);
    CHECK(bits(__hgtu2(pn, q).y) == bits(one));
    CHECK(__hgt2_mask(pn, q) == 0x0000FFFFu && __hgtu2_mask(pn, q) == 0xFFFFFFFFu);
    CHECK(__hlt2_mask(q, pn) == 0x0000FFFFu && __hltu2_mask(q, pn) == 0xFFFFFFFFu);
    CHECK(__heq2_mask(pn, pn) == 0x0000FFFFu && __hequ2_mask(pn, pn) == 0xFFFFFFFFu);
    CHECK(__hne2_mask(pn, q) == 0x0000FFFFu && __hneu2_mask(pn, q) == 0xFFFFFFFFu);
    CHECK(__hle2_mask(q, pn) == 0x0000FFFFu && __hleu2_mask(q, pn) == 0xFFFFFFFFu);
    CHECK(__hge2_mask(pn, q) == 0x0000FFFFu && __hgeu2_mask(pn, q) == 0xFFFFFFFFu);
    CHECK(bits(__heq2(pn, pn).y) == 0u && bits(__hequ2(pn, pn).y) == bits(one));
    CHECK(bits(__hne2(pn, q).x) == bits(one) && bits(__hneu2(pn, q).y) == bits(one));
    CHECK(bits(__hlt2(q, pn).x) == bits(one) && bits(__hltu2(q, pn).y) == bits(one));
    CHECK(bits(__hle2(q, pn).x) == bits(one) && bits(__hleu2(q, pn).y) == bits(one));
    CHECK(bits(__hge2(pn, q).x) == bits(one) && bits(__hgeu2(pn, q).y) == bits(one));
    CHECK(!__hbgt2(pn, q) && __hbgtu2(pn, q) && __hbgt2(pair(two, two), pair(one, one)));
    CHECK(!__hbeq2(pn, pn) && __hbequ2(pn, pn) && __hbeq2(p, p));
    CHECK(!__hbne2(pn, q) && __hbneu2(pn, q));
    CHECK(!__hblt2(q, pn) && __hbltu2(q, pn) && !__hble2(q, pn) && __hbleu2(q, pn));
    CHECK(!__hbge2(pn, q) && __hbgeu2(pn, q));
    CHECK(bits(__hisnan2(pn).y) == bits(one) && bits(__hisnan2(pn).x) == 0u);

    /* max and min: the other operand for one NaN, +0 > -0; _nan: NaN */
    CHECK(bits(__hmax(x, y)) == bits(x) && bits(__hmin(x, y)) == bits(y));
    CHECK(bits(__hmax(nan, y)) == bits(y) && bits(__hmin(x, nan)) == bits(x));
    CHECK(bits(__hmax(nzero, pzero)) == 0x0000u && bits(__hmin(pzero, nzero)) == 0x8000u);
    CHECK(bits(__hmax_nan(nan, y)) == 0x7FFFu && bits(__hmin_nan(x, nan)) == 0x7FFFu);
    CHECK(bits(__hmax_nan(x, y)) == bits(x) && bits(__hmin_nan(x, y)) == bits(y));
    CHECK(bits(__hmax2(pn, q).y) == bits(x) && bits(__hmin2(pn, q).x) == bits(z));
    CHECK(bits(__hmax2_nan(pn, q).y) == 0x7FFFu && bits(__hmin2_nan(pn, q).y) == 0x7FFFu);

    /* math: correctly rounded values of exact references */
    CHECK(bits(hsqrt(two)) == ref_round(f, sqrt(2.0)) && bits(hrsqrt(from_float(4.0f))) == bits(half_));
    CHECK(bits(hrcp(from_float(4.0f))) == ref_round(f, 0.25) && bits(hrcp(three)) == ref_round(f, 1.0 / 3.0));
    CHECK(bits(hexp(pzero)) == bits(one) && bits(hexp2(three)) == ref_round(f, 8.0));
    CHECK(bits(hexp10(two)) == ref_round(f, 100.0) && bits(hlog(one)) == 0u);
    CHECK(bits(hlog2(from_float(8.0f))) == bits(three) && bits(hlog10(from_float(100.0f))) == bits(two));
    CHECK(bits(hsin(pzero)) == 0u && bits(hcos(pzero)) == bits(one));
    CHECK(bits(htanh(from_float(INFINITY))) == bits(one) && bits(htanh_approx(pzero)) == 0u);
    CHECK(bits(hrint(from_float(2.5f))) == bits(two) && bits(hrint(from_float(3.5f))) == ref_round(f, 4.0));
    CHECK(bits(hrint(from_float(-0.5f))) == 0x8000u);
    CHECK(bits(htrunc(y)) == ref_round(f, -2.0) && bits(hfloor(y)) == ref_round(f, -3.0));
    CHECK(bits(hceil(y)) == ref_round(f, -2.0) && bits(hceil(x)) == bits(two));
    CHECK(bits(h2sqrt(pair(from_float(4.0f), two)).x) == bits(two));
    CHECK(bits(h2rsqrt(pair(from_float(4.0f), two)).x) == bits(half_));
    CHECK(bits(h2rcp(pair(two, two)).y) == bits(half_));
    CHECK(bits(h2exp(pair(pzero, pzero)).x) == bits(one) && bits(h2exp2(pair(one, one)).y) == bits(two));
    CHECK(bits(h2exp10(pair(one, one)).x) == ref_round(f, 10.0));
    CHECK(bits(h2log(pair(one, one)).x) == 0u && bits(h2log2(pair(two, two)).x) == bits(one));
    CHECK(bits(h2log10(pair(from_float(10.0f), one)).x) == bits(one));
    CHECK(bits(h2sin(pair(pzero, pzero)).y) == 0u && bits(h2cos(pair(pzero, pzero)).y) == bits(one));
    CHECK(bits(h2tanh(pair(pzero, pzero)).x) == 0u && bits(h2tanh_approx(pair(pzero, pzero)).x) == 0u);
    CHECK(bits(h2ceil(p).x) == bits(two) && bits(h2floor(p).y) == ref_round(f, -3.0));
    CHECK(bits(h2trunc(p).y) == ref_round(f, -2.0) && bits(h2rint(p).x) == bits(one));

    /* lanes */
    CHECK(__low2float(p) == to_float(x) && __high2float(p) == to_float(y));
    CHECK(bits(__lowhigh2highlow(p).x) == bits(y) && bits(__lowhigh2highlow(p).y) == bits(x));

    /* operators, as CUDA maps them: != is unordered */
    H a = x;
    CHECK(bits(a + y) == bits(__hadd(x, y)) && bits(a - y) == bits(__hsub(x, y)));
    CHECK(bits(a * y) == bits(__hmul(x, y)) && bits(a / y) == bits(__hdiv(x, y)));
    a += y;
    a -= y;
    a *= one;
    a /= one;
    CHECK(bits(a) == bits(__hsub(__hadd(x, y), y)));
    CHECK(bits(+x) == bits(x) && bits(-x) == bits(__hneg(x)));
    a = one;
    CHECK(bits(++a) == bits(two) && bits(a++) == bits(two) && bits(a) == bits(three));
    CHECK(bits(--a) == bits(two) && bits(a--) == bits(two) && bits(a) == bits(one));
    CHECK(x == x && nan != nan && x != y && y < x && y <= x && x > y && x >= y && !(nan == nan));
    H2 b = p;
    CHECK(bits((p + q).x) == bits(__hadd(x, z)) && bits((p - q).y) == bits(__hsub(y, x)));
    CHECK(bits((p * q).x) == bits(__hmul(x, z)) && bits((p / q).y) == bits(__hdiv(y, x)));
    b += q;
    b -= q;
    b *= pair(one, one);
    b /= pair(one, one);
    CHECK(bits(b.x) == bits(__hsub(__hadd(x, z), z)));
    CHECK(bits((+p).y) == bits(y) && bits((-p).y) == bits(__hneg(y)));
    b = pair(one, two);
    ++b;
    b++;
    --b;
    b--;
    CHECK(bits(b.x) == bits(one) && bits(b.y) == bits(two));
    /* a pair is != when both lanes are (unordered) */
    CHECK(p == p && pair(nan, nan) != pair(nan, nan) && !(pn != pn));
    CHECK(pair(one, one) < pair(two, two) && pair(one, two) <= pair(one, two));
    CHECK(pair(two, two) > pair(one, one) && pair(two, two) >= pair(two, one));

    /* conversions of the type itself: integers toward zero */
    CHECK((int)y == -2 && (unsigned)x == 1u && (short)y == -2 && (unsigned short)three == 3u);
    CHECK((long)y == -2 && (unsigned long)three == 3ul && (long long)y == -2 && (unsigned long long)x == 1u);
    CHECK((signed char)y == -2 && (unsigned char)three == 3u && (char)three == 3 && (bool)x && !(bool)nzero);
    CHECK((float)x == to_float(x));
    H from_int = 7;
    from_int = 5u;
    CHECK(to_float(from_int) == 5.0f);
    from_int = (long long)-9;
    CHECK(to_float(from_int) == -9.0f);
    from_int = 2.5;
    CHECK(to_float(from_int) == 2.5f);
    sink[0] += to_float(H((short)1)) + to_float(H((unsigned short)1)) + to_float(H(1l)) + to_float(H(1ul)) +
               to_float(H(1ull)) + to_float(H(1u));
}

/* ---- the names that spell the format ------------------------------------------ */

#define NAMED_CALLS(NAME, NAME2, H, H2, FMT, INF_BITS)                                                              \
    {                                                                                                               \
        const format f = FMT;                                                                                       \
        const H nan = __float2##NAME(NAN), big = __float2##NAME(1e30f);                                             \
        CHECK(__##NAME##_as_ushort(__ushort_as_##NAME(0x3C01u)) == 0x3C01u);                                        \
        CHECK(__##NAME##_as_short(__short_as_##NAME(-2)) == -2);                                                    \
        CHECK(__##NAME##_as_ushort(__float2##NAME(0.1f)) == ref_round(f, 0.1f));                                    \
        CHECK(__##NAME##_as_ushort(__float2##NAME##_rn(0.1f)) == ref_round(f, 0.1f));                              \
        CHECK(__##NAME##_as_ushort(__double2##NAME(0.1)) == ref_round(f, 0.1));                                     \
        {                                                                                                           \
            /* the directed ones bracket the value: rd <= v <= ru, rz toward 0 */                                  \
            const double v = 0.1f;                                                                                  \
            const double d = ref_value(f, __##NAME##_as_ushort(__float2##NAME##_rd(0.1f)));                         \
            const double u = ref_value(f, __##NAME##_as_ushort(__float2##NAME##_ru(0.1f)));                         \
            const double t = ref_value(f, __##NAME##_as_ushort(__float2##NAME##_rz(-0.1f)));                        \
            CHECK(d < v && v < u && (__##NAME##_as_ushort(__float2##NAME##_ru(0.1f)) -                              \
                                         __##NAME##_as_ushort(__float2##NAME##_rd(0.1f))) == 1);                    \
            CHECK(t == -d);                                                                                         \
        }                                                                                                           \
        CHECK(__##NAME##2float(__float2##NAME(1.5f)) == 1.5f);                                                      \
        /* to integers: ties to even, directed, saturated, NaN */                                                   \
        CHECK(__##NAME##2int_rn(__float2##NAME(2.5f)) == 2 && __##NAME##2int_rn(__float2##NAME(3.5f)) == 4);       \
        CHECK(__##NAME##2int_rz(__float2##NAME(-1.5f)) == -1 && __##NAME##2int_rd(__float2##NAME(-1.5f)) == -2);   \
        CHECK(__##NAME##2int_ru(__float2##NAME(-1.5f)) == -1 && __##NAME##2int_rn(nan) == 0);                      \
        CHECK(__##NAME##2uint_rn(__float2##NAME(-3.0f)) == 0u && __##NAME##2uint_rz(__float2##NAME(7.5f)) == 7u);  \
        CHECK(__##NAME##2uint_rd(__float2##NAME(7.5f)) == 7u && __##NAME##2uint_ru(__float2##NAME(7.5f)) == 8u);   \
        CHECK(__##NAME##2short_rn(big) == SHRT_MAX && __##NAME##2short_rz(__hneg(big)) == SHRT_MIN);              \
        CHECK(__##NAME##2short_rd(__float2##NAME(2.5f)) == 2 && __##NAME##2short_ru(__float2##NAME(2.5f)) == 3);   \
        CHECK(__##NAME##2ushort_rn(big) == USHRT_MAX && __##NAME##2ushort_rz(nan) == 0);                          \
        CHECK(__##NAME##2ushort_rd(__float2##NAME(2.5f)) == 2 && __##NAME##2ushort_ru(__float2##NAME(2.5f)) == 3); \
        CHECK(__##NAME##2ll_rn(nan) == LLONG_MIN && __##NAME##2ll_rz(__float2##NAME(-2.5f)) == -2);               \
        CHECK(__##NAME##2ll_rd(__float2##NAME(-2.5f)) == -3 && __##NAME##2ll_ru(__float2##NAME(-2.5f)) == -2);     \
        CHECK(__##NAME##2ull_rn(nan) == 0x8000000000000000ull && __##NAME##2ull_rz(__float2##NAME(-1.0f)) == 0u);  \
        CHECK(__##NAME##2ull_rd(__float2##NAME(9.5f)) == 9u && __##NAME##2ull_ru(__float2##NAME(9.5f)) == 10u);    \
        CHECK(__##NAME##2char_rz(big) == 127 && __##NAME##2char_rz(__float2##NAME(-3.9f)) == -3);                 \
        CHECK(__##NAME##2uchar_rz(__float2##NAME(-5.0f)) == 0 && __##NAME##2uchar_rz(big) == 255);                \
        /* from integers: 2049 needs 12 bits, 2^60 + 1 needs 61 */                                                  \
        CHECK(__##NAME##_as_ushort(__int2##NAME##_rn(2049)) == ref_round(f, 2049.0));                               \
        CHECK(__##NAME##_as_ushort(__int2##NAME##_rd(2049)) == ref_round(f, 2048.0));                               \
        CHECK(ref_value(f, __##NAME##_as_ushort(__int2##NAME##_ru(2049))) > 2049.0);                                \
        CHECK(__##NAME##_as_ushort(__int2##NAME##_rz(-2049)) == ref_round(f, -2048.0));                             \
        CHECK(__##NAME##2float(__uint2##NAME##_rn(5u)) == 5.0f && __##NAME##2float(__uint2##NAME##_rz(5u)) == 5.0f); \
        CHECK(__##NAME##2float(__uint2##NAME##_rd(5u)) == 5.0f && __##NAME##2float(__uint2##NAME##_ru(5u)) == 5.0f); \
        CHECK(__##NAME##2float(__short2##NAME##_rn(-6)) == -6.0f && __##NAME##2float(__short2##NAME##_rz(-6)) == -6.0f); \
        CHECK(__##NAME##2float(__short2##NAME##_rd(-6)) == -6.0f && __##NAME##2float(__short2##NAME##_ru(-6)) == -6.0f); \
        CHECK(__##NAME##2float(__ushort2##NAME##_rn(6)) == 6.0f && __##NAME##2float(__ushort2##NAME##_rz(6)) == 6.0f); \
        CHECK(__##NAME##2float(__ushort2##NAME##_rd(6)) == 6.0f && __##NAME##2float(__ushort2##NAME##_ru(6)) == 6.0f); \
        {                                                                                                           \
            /* a power of two plus one: 2^14 + 1 for half, 2^60 + 1 for bfloat16 (beyond double's 53 bits) */     \
            const long long p60 = f.mant_bits == 10 ? 1ll << 14 : 1ll << 60;                                        \
            const unsigned at = ref_round(f, (double)p60);                                                          \
            CHECK(__##NAME##_as_ushort(__ll2##NAME##_rn(p60 + 1)) == at);                                           \
            CHECK(__##NAME##_as_ushort(__ll2##NAME##_rz(p60 + 1)) == at);                                           \
            CHECK(__##NAME##_as_ushort(__ll2##NAME##_rd(-p60 - 1)) == ((at | 0x8000u) + 1u));                       \
            CHECK(__##NAME##_as_ushort(__ull2##NAME##_ru((unsigned long long)p60 + 1u)) == at + 1u);               \
            CHECK(__##NAME##_as_ushort(__ull2##NAME##_rn(1u)) == ref_round(f, 1.0));                               \
            CHECK(__##NAME##_as_ushort(__ull2##NAME##_rz(3u)) == ref_round(f, 3.0));                               \
            CHECK(__##NAME##_as_ushort(__ull2##NAME##_rd(3u)) == ref_round(f, 3.0));                               \
            CHECK(__##NAME##_as_ushort(__ll2##NAME##_ru(3)) == ref_round(f, 3.0));                                  \
        }                                                                                                           \
        /* pairs: x is the low half */                                                                              \
        const H one = __float2##NAME(1.0f), two = __float2##NAME(2.0f);                                             \
        const H2 v = __halves2##NAME2(one, two), w = make_##NAME2(two, one);                                        \
        CHECK(__##NAME##_as_ushort(v.x) == __##NAME##_as_ushort(one) && __##NAME##_as_ushort(w.x) == __##NAME##_as_ushort(two)); \
        CHECK(__##NAME##2float(__float2##NAME2##_rn(3.0f).y) == 3.0f);                                              \
        CHECK(__##NAME##2float(__floats2##NAME2##_rn(1.0f, 2.0f).y) == 2.0f);                                       \
        CHECK(__##NAME##2float(__float22##NAME2##_rn(make_float2(4.0f, 5.0f)).x) == 4.0f);                         \
        CHECK(__##NAME2##2float2(v).y == 2.0f && __##NAME##2float(__##NAME##2##NAME2(two).x) == 2.0f);             \
        CHECK(__##NAME##2float(__low2##NAME(v)) == 1.0f && __##NAME##2float(__high2##NAME(v)) == 2.0f);            \
        CHECK(__##NAME##2float(__low2##NAME2(v).y) == 1.0f && __##NAME##2float(__high2##NAME2(v).x) == 2.0f);      \
        CHECK(__##NAME##2float(__lows2##NAME2(v, w).y) == 2.0f && __##NAME##2float(__highs2##NAME2(v, w).y) == 1.0f); \
        (void)INF_BITS;                                                                                             \
    }

/* The warp, memory and atomic functions of both formats, in every thread. */
template <class H, class H2>
__device__ void warp_and_memory(H2 (*pair)(H, H), H (*from_float)(float), float (*to_float)(H), H *mem, H2 *mem2,
                                H *sum, H2 *sum2)
{
    const unsigned lane = threadIdx.x % 32, me = threadIdx.x;
    const H mine = from_float((float)lane);
    const H2 mine2 = pair(mine, from_float(-(float)lane));
    CHECK(to_float(__shfl_sync(0xFFFFFFFFu, mine, 3)) == 3.0f);
    CHECK(to_float(__shfl_up_sync(0xFFFFFFFFu, mine, 1)) == (float)(lane == 0 ? 0 : lane - 1));
    CHECK(to_float(__shfl_down_sync(0xFFFFFFFFu, mine, 1)) == (float)(lane == 31 ? 31 : lane + 1));
    CHECK(to_float(__shfl_xor_sync(0xFFFFFFFFu, mine, 1)) == (float)(lane ^ 1u));
    CHECK(to_float(__shfl_sync(0xFFFFFFFFu, mine2, 5).y) == -5.0f);
    CHECK(to_float(__shfl_up_sync(0xFFFFFFFFu, mine2, 2).x) == (float)(lane < 2 ? lane : lane - 2));
    CHECK(to_float(__shfl_down_sync(0xFFFFFFFFu, mine2, 2).x) == (float)(lane > 29 ? lane : lane + 2));
    CHECK(to_float(__shfl_xor_sync(0xFFFFFFFFu, mine2, 2).y) == -(float)(lane ^ 2u));
    /* cache-hinted loads and stores: plain ones here */
    __stwb(&mem[me], mine);
    __stcg(&mem[me], mine);
    __stcs(&mem[me], mine);
    __stwt(&mem[me], mine);
    __stwb(&mem2[me], mine2);
    __stcg(&mem2[me], mine2);
    __stcs(&mem2[me], mine2);
    __stwt(&mem2[me], mine2);
    __syncwarp();
    /* a lane of the same warp, which __syncwarp ordered */
    const unsigned at = me ^ 7u;
    const float other = (float)(lane ^ 7u);
    CHECK(to_float(__ldg(&mem[at])) == other && to_float(__ldcg(&mem[at])) == other);
    CHECK(to_float(__ldca(&mem[at])) == other && to_float(__ldcs(&mem[at])) == other);
    CHECK(to_float(__ldlu(&mem[at])) == other && to_float(__ldcv(&mem[at])) == other);
    CHECK(to_float(__ldg(&mem2[at]).y) == -other && to_float(__ldcg(&mem2[at]).y) == -other);
    CHECK(to_float(__ldca(&mem2[at]).y) == -other && to_float(__ldcs(&mem2[at]).y) == -other);
    CHECK(to_float(__ldlu(&mem2[at]).y) == -other && to_float(__ldcv(&mem2[at]).y) == -other);
    /* 64 threads add 1 each: exact in both formats */
    atomicAdd(sum, from_float(1.0f));
    atomicAdd(sum2, pair(from_float(1.0f), from_float(2.0f)));
}

__device__ __half2 half_pair(__half a, __half b) { return __halves2half2(a, b); }
__device__ __half half_from(float v) { return __float2half(v); }
__device__ float half_to(__half h) { return __half2float(h); }
__device__ __nv_bfloat162 bf16_pair(__nv_bfloat16 a, __nv_bfloat16 b) { return __halves2bfloat162(a, b); }
__device__ __nv_bfloat16 bf16_from(float v) { return __float2bfloat16(v); }
__device__ float bf16_to(__nv_bfloat16 b) { return __bfloat162float(b); }

struct scratch {
    __half mem[64];
    __half2 mem2[64];
    __nv_bfloat16 bmem[64];
    __nv_bfloat162 bmem2[64];
    __half sum;
    __half2 sum2;
    __nv_bfloat16 bsum;
    __nv_bfloat162 bsum2;
    float sink[1];
};

__global__ void every_name(scratch *s)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        shared_names<__half, __half2>(half_pair, half_from, half_to, s->sink);
        shared_names<__nv_bfloat16, __nv_bfloat162>(bf16_pair, bf16_from, bf16_to, s->sink);
        NAMED_CALLS(half, half2, __half, __half2, half_format(), 0x7C00u)
        NAMED_CALLS(bfloat16, bfloat162, __nv_bfloat16, __nv_bfloat162, bf16_format(), 0x7F80u)
        /* the constants */
        CHECK(__half_as_ushort(CUDART_INF_FP16) == 0x7C00u && __half_as_ushort(CUDART_NAN_FP16) == 0x7FFFu);
        CHECK(__half_as_ushort(CUDART_MAX_NORMAL_FP16) == ref_round(half_format(), 65504.0));
        CHECK(__half_as_ushort(CUDART_MIN_DENORM_FP16) == ref_round(half_format(), ldexp(1.0, -24)));
        CHECK(__half_as_ushort(CUDART_ONE_FP16) == 0x3C00u && __half_as_ushort(CUDART_ZERO_FP16) == 0u);
        CHECK(__half_as_ushort(CUDART_NEG_ZERO_FP16) == 0x8000u);
        CHECK(__bfloat16_as_ushort(CUDART_INF_BF16) == 0x7F80u && __bfloat16_as_ushort(CUDART_NAN_BF16) == 0x7FFFu);
        CHECK(__bfloat16_as_ushort(CUDART_MAX_NORMAL_BF16) == 0x7F7Fu);
        CHECK(__bfloat16_as_ushort(CUDART_MIN_DENORM_BF16) == ref_round(bf16_format(), ldexp(1.0, -133)));
        CHECK(__bfloat16_as_ushort(CUDART_ONE_BF16) == 0x3F80u && __bfloat16_as_ushort(CUDART_ZERO_BF16) == 0u);
        CHECK(__bfloat16_as_ushort(CUDART_NEG_ZERO_BF16) == 0x8000u);
        /* the raw types and the conversions between the formats */
        __half_raw hr;
        hr.x = 0x3C00u;
        __half h = hr;
        __half2_raw h2r;
        h2r.x = 0x4000u;
        h2r.y = 0x3C00u;
        __half2 h2 = h2r;
        __half2_raw back = h2;
        CHECK(__half2float(h) == 1.0f && __low2float(h2) == 2.0f && back.y == 0x3C00u);
        __nv_bfloat16_raw br;
        br.x = 0x3F80u;
        __nv_bfloat16 b = br;
        __nv_bfloat162_raw b2r;
        b2r.x = 0x4000u;
        b2r.y = 0x3F80u;
        __nv_bfloat162 b2 = b2r;
        CHECK(__bfloat162float(b) == 1.0f && __high2float(b2) == 1.0f);
        CHECK(__half2float(__half(__float2bfloat16(0.1f))) == __half2float(__float2half(__bfloat162float(__float2bfloat16(0.1f)))));
        CHECK(__bfloat162float(__nv_bfloat16(__float2half(3.0f))) == 3.0f);
        half hh = 1.0f;
        half2 hh2 = __half2half2(hh);
        nv_bfloat16 bb = 1.0f;
        nv_bfloat162 bb2 = __bfloat162bfloat162(bb);
        CHECK(__high2float(hh2) == 1.0f && __high2float(bb2) == 1.0f);
    }
    warp_and_memory<__half, __half2>(half_pair, half_from, half_to, s->mem, s->mem2, &s->sum, &s->sum2);
    warp_and_memory<__nv_bfloat16, __nv_bfloat162>(bf16_pair, bf16_from, bf16_to, s->bmem, s->bmem2, &s->bsum,
                                                   &s->bsum2);
}

int main()
{
    scratch *s;
    if (cudaMallocManaged(&s, sizeof *s) != cudaSuccess) {
        printf("cudaMallocManaged failed\n");
        return 1;
    }
    memset(s, 0, sizeof *s);
    /* one block of 64: two warps, so that every warp function sees a whole warp */
    every_name<<<1, 64>>>(s);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("kernel failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    int failed = 0;
    cudaMemcpyFromSymbol(&failed, failures, sizeof failed);
    if (__half2float(s->sum) != 64.0f || __low2float(s->sum2) != 64.0f || __high2float(s->sum2) != 128.0f ||
        __bfloat162float(s->bsum) != 64.0f || __low2float(s->bsum2) != 64.0f || __high2float(s->bsum2) != 128.0f) {
        printf("FAIL atomicAdd: %g %g %g %g %g %g\n", __half2float(s->sum), __low2float(s->sum2),
               __high2float(s->sum2), __bfloat162float(s->bsum), __low2float(s->bsum2), __high2float(s->bsum2));
        failed++;
    }
    cudaFree(s);
    if (failed) {
        printf("fp16_every_name: %d checks failed\n", failed);
        return 1;
    }
    printf("fp16_every_name: ok\n");
    return 0;
}
