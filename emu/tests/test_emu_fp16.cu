/* Tests of the emulator's cuda_fp16.h and cuda_bf16.h.
 *
 * Expected bit patterns come from the IEEE 754 binary16 / bfloat16 formats
 * (worked out by hand in the comments), and the sweeps compare against
 * references built differently from the implementation: values of half
 * patterns from the formula (-1)^s * m * 2^e with ldexp, and rounding by a
 * search for the nearest representable value in a sorted table.
 *
 *   build/bin/test_emu_fp16 --verbose
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

static unsigned short h_bits(float f) { return __half_as_ushort(__float2half(f)); }
static unsigned short bf_bits(float f) { return __bfloat16_as_ushort(__float2bfloat16(f)); }

static float float_from_bits(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

/* The value of a half pattern, straight from the format's definition. */
static double half_value(unsigned short h)
{
    int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = std::ldexp((double)m, -24);
    else
        v = std::ldexp((double)(1024 + m), e - 25);
    return sign ? -v : v;
}

/* Round-to-nearest-even to half by search: the positive finite halves
 * 0x0000..0x7BFF are increasing, so find the two neighbours of |x| and
 * take the nearer, the even pattern on a tie. Beyond 65504 the next step
 * would be 65536, so |x| >= 65520 (the midpoint) rounds to infinity. */
static unsigned short reference_half(long double x)
{
    unsigned short sign = std::signbit(x) ? 0x8000 : 0;
    long double a = std::fabs(x);
    if (a >= 65520.0L)
        return sign | 0x7C00;
    unsigned lo = 0, hi = 0x7BFF;
    while (lo < hi) { /* largest pattern with value <= a */
        unsigned mid = (lo + hi + 1) / 2;
        if ((long double)half_value((unsigned short)mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo == 0x7BFF)
        return sign | 0x7BFF;
    long double below = half_value((unsigned short)lo), above = half_value((unsigned short)(lo + 1));
    long double d_below = a - below, d_above = above - a;
    unsigned pick = d_below < d_above ? lo : (d_above < d_below ? lo + 1 : ((lo & 1) ? lo + 1 : lo));
    return (unsigned short)(sign | pick);
}

/* Round-to-nearest-even to bfloat16: the neighbours of a float are its
 * truncation and the next pattern up. */
static unsigned short reference_bf16(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    unsigned short t = (unsigned short)(u >> 16);
    double x = std::fabs((double)f);
    double below = std::fabs((double)float_from_bits((uint32_t)t << 16));
    double above = std::fabs((double)float_from_bits((uint32_t)(t + 1) << 16));
    if (((t + 1) & 0x7FFF) == 0x7F80)
        above = std::ldexp(1.0, 128); /* IEEE: round as if the exponent were unbounded */
    double d_below = x - below, d_above = above - x;
    if (d_below < d_above)
        return t;
    if (d_above < d_below)
        return (unsigned short)(t + 1);
    return (t & 1) ? (unsigned short)(t + 1) : t;
}

/* xorshift: reproducible inputs; the seed is printed. */
static uint32_t rng_state = 0x9E3779B9u;
static uint32_t next_random()
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

Test(fp16, known_bit_patterns_of_float2half)
{
    cr_expect_eq(h_bits(1.0f), 0x3C00);
    cr_expect_eq(h_bits(-2.0f), 0xC000);
    cr_expect_eq(h_bits(65504.0f), 0x7BFF, "the largest finite half");
    cr_expect_eq(h_bits(65519.0f), 0x7BFF, "below the midpoint to 65536");
    cr_expect_eq(h_bits(65520.0f), 0x7C00, "the midpoint rounds (to even) to infinity");
    cr_expect_eq(h_bits(5.96e-8f), 0x0001, "the smallest subnormal, 2^-24");
    cr_expect_eq(h_bits(std::ldexp(1.0f, -25)), 0x0000, "half of 2^-24 is a tie: rounds to even (0)");
    cr_expect_eq(h_bits(std::ldexp(1.5f, -25)), 0x0001, "above the tie: rounds up");
    cr_expect_eq(h_bits(std::ldexp(1.0f, -14)), 0x0400, "the smallest normal");
    cr_expect_eq(h_bits(0.1f), 0x2E66);
    cr_expect_eq(h_bits(-0.0f), 0x8000);
    cr_expect_eq(h_bits(INFINITY), 0x7C00);
    cr_expect_eq(h_bits(-INFINITY), 0xFC00);
    cr_expect_eq(h_bits(2049.0f), 0x6800, "2049 is a tie between 2048 and 2050: to even, 2048");
    cr_expect_eq(h_bits(2051.0f), 0x6802, "2051 is a tie between 2050 and 2052: to even, 2052");
    cr_expect(__hisnan(__float2half(NAN)), "NaN stays NaN");
    cr_expect(__hisnan(__float2half(-NAN)));
}

Test(fp16, directed_conversions)
{
    cr_expect_eq(__half_as_ushort(__float2half_rz(2051.0f)), 0x6801, "toward zero: 2050");
    cr_expect_eq(__half_as_ushort(__float2half_rz(65520.0f)), 0x7BFF, "toward zero never overflows");
    cr_expect_eq(__half_as_ushort(__float2half_rz(-2051.0f)), 0xE801);
    cr_expect_eq(__half_as_ushort(__float2half_rd(-2049.5f)), 0xE801, "down: -2050");
    cr_expect_eq(__half_as_ushort(__float2half_ru(2048.5f)), 0x6801, "up: 2050");
    cr_expect_eq(__half_as_ushort(__float2half_ru(1e-30f)), 0x0001, "up from a tiny positive: 2^-24");
    cr_expect_eq(__half_as_ushort(__float2half_rd(1e-30f)), 0x0000);
}

Test(fp16, every_half_pattern_round_trips_through_float)
{
    for (unsigned u = 0; u < 65536; ++u) {
        __half h = __ushort_as_half((unsigned short)u);
        float f = __half2float(h);
        double want = half_value((unsigned short)u);
        if (std::isnan(want)) {
            cr_assert(std::isnan(f), "pattern 0x%04x is NaN but became %g", u, f);
            cr_assert(__hisnan(__float2half(f)), "NaN 0x%04x did not stay NaN", u);
            continue;
        }
        cr_assert_eq((double)f, want, "pattern 0x%04x: half2float gave %.10g, the format says %.10g", u, f, want);
        cr_assert(std::signbit(f) == std::signbit(want), "pattern 0x%04x lost its sign", u);
        cr_assert_eq(h_bits(f), u, "pattern 0x%04x came back as 0x%04x", u, h_bits(f));
    }
}

Test(fp16, random_floats_round_to_the_nearest_half)
{
    cr_log_info("seed 0x%08x", rng_state);
    for (int i = 0; i < 200000; ++i) {
        /* exponents concentrated on the half range, subnormals included */
        uint32_t r = next_random();
        int e = (int)(next_random() % 48) - 30;
        float f = std::ldexp(1.0f + (float)(r & 0xFFFFFF) / 16777216.0f, e) * ((r >> 31) ? -1.0f : 1.0f);
        unsigned short want = reference_half((long double)f);
        cr_assert_eq(h_bits(f), want, "%.9g: got 0x%04x, nearest-even is 0x%04x", f, h_bits(f), want);
    }
}

Test(fp16, arithmetic_rounds_once)
{
    __half one = __float2half(1.0f);
    __half tiny = __ushort_as_half(0x1000); /* 2^-11: half an ulp of 1 */
    cr_expect_eq(__half_as_ushort(__hadd(one, tiny)), 0x3C00, "1 + 2^-11 is a tie: to even, 1");
    cr_expect_eq(__half_as_ushort(__hadd(__ushort_as_half(0x3C01), tiny)), 0x3C02, "tie: to even, 1+2^-9");
    cr_expect_eq(__half_as_ushort(__hmul(__ushort_as_half(0x3C01), __ushort_as_half(0x3C01))), 0x3C02,
                 "(1+2^-10)^2 = 1 + 2^-9 + 2^-20 -> 1 + 2^-9");
    cr_expect_eq(__half_as_ushort(__hsub(one, one)), 0x0000);
    cr_expect_eq(__half_as_ushort(__hdiv(one, __float2half(3.0f))), 0x3555, "1/3 -> 0x3555");
    /* 1.333984375 * 1.5 = 2.0009765625 = 2(1 + 2^-11), a tie between 2 and
     * 2 + 2^-9; adding 2^-24 puts it just above, so a single rounding gives
     * 0x4001. Rounding the sum to float first lands exactly on the tie and
     * then to even (0x4000): this checks that fma rounds only once. */
    __half a = __ushort_as_half(0x3D56), b = __ushort_as_half(0x3E00), c = __ushort_as_half(0x0001);
    cr_expect_eq(__half_as_ushort(__hfma(a, b, c)), 0x4001);
    cr_expect_eq(__half_as_ushort(__hfma(a, b, __hneg(c))), 0x4000);
}

Test(fp16, fma_matches_exact_reference_on_random_inputs)
{
    /* The product of two halves has 22 bits and the sum spans at most 41
     * (for results in range), so long double (64 bits) holds it exactly. */
    for (int i = 0; i < 100000; ++i) {
        unsigned short ua = (unsigned short)(next_random() & 0x7FFF), ub = (unsigned short)(next_random() & 0x7FFF);
        unsigned short uc = (unsigned short)(next_random() & 0xFFFF);
        if (((ua >> 10) & 31) == 31 || ((ub >> 10) & 31) == 31 || ((uc >> 10) & 31) == 31)
            continue;
        long double exact = (long double)half_value(ua) * half_value(ub) + half_value(uc);
        if (std::fabs(exact) > 1e6L)
            continue;
        unsigned short got = __half_as_ushort(__hfma(__ushort_as_half(ua), __ushort_as_half(ub), __ushort_as_half(uc)));
        unsigned short want = reference_half(exact);
        if (exact == 0) /* the sign of an exact zero sum is a separate rule */
            got &= 0x7FFF, want &= 0x7FFF;
        cr_assert_eq(got, want, "fma(0x%04x, 0x%04x, 0x%04x): got 0x%04x, want 0x%04x", ua, ub, uc, got, want);
    }
}

Test(fp16, comparisons_and_nan)
{
    __half nan = __ushort_as_half(0x7E00), one = __float2half(1.0f), two = __float2half(2.0f);
    cr_expect(__hlt(one, two));
    cr_expect(!__hlt(two, one));
    cr_expect(__heq(__ushort_as_half(0x0000), __ushort_as_half(0x8000)), "+0 == -0");
    cr_expect(!__heq(nan, nan), "NaN is not equal to itself");
    cr_expect(!__hne(nan, one), "ordered not-equal is false with NaN");
    cr_expect(!__hlt(nan, one) && !__hge(nan, one));
    cr_expect(__hisnan(nan) && !__hisnan(one));
    cr_expect_eq(__hisinf(__ushort_as_half(0xFC00)), -1);
    cr_expect_eq(__half_as_ushort(__hmax(nan, two)), __half_as_ushort(two), "max ignores one NaN");
}

Test(fp16, half2_lanes_are_independent)
{
    __half2 v = __floats2half2_rn(1.5f, -3.0f);
    cr_expect_eq(__half_as_ushort(__low2half(v)), 0x3E00);
    cr_expect_eq(__half_as_ushort(__high2half(v)), 0xC200);
    __half2 s = __hadd2(v, __halves2half2(__float2half(0.5f), __float2half(1.0f)));
    cr_expect_eq(__low2float(s), 2.0f);
    cr_expect_eq(__high2float(s), -2.0f);
    __half2 f = __hfma2(v, __float2half2_rn(2.0f), __float2half2_rn(1.0f));
    cr_expect_eq(__low2float(f), 4.0f);
    cr_expect_eq(__high2float(f), -5.0f);
}

Test(fp16, cpp_operators_and_conversions)
{
    __half a = 1.5f, b = 2.0f;
    cr_expect_eq((float)(a * b), 3.0f);
    cr_expect_eq((float)(a + b), 3.5f);
    cr_expect_eq((float)(b - a), 0.5f);
    cr_expect_eq((float)(a / b), 0.75f);
    cr_expect_eq(__half_as_ushort(-a), 0xBE00);
    cr_expect(a < b && b > a && a != b && a == a);
    __half c = 3;
    c += a;
    cr_expect_eq((float)c, 4.5f);
    half2 p(a, b), q = p * p;
    cr_expect_eq(__low2float(q), 2.25f);
    cr_expect_eq(__high2float(q), 4.0f);
}

Test(fp16, hsqrt_is_correctly_rounded_for_every_positive_half)
{
    /* sqrt is one of the operations for which rounding first to a format
     * of 2q+2 or more bits cannot change the final rounding, so the long
     * double square root, rounded by search, is an exact reference. */
    for (unsigned u = 0x0000; u < 0x7C00; ++u) {
        unsigned short got = __half_as_ushort(hsqrt(__ushort_as_half((unsigned short)u)));
        unsigned short want = reference_half(std::sqrt((long double)half_value((unsigned short)u)));
        cr_assert_eq(got, want, "hsqrt(0x%04x) = 0x%04x, want 0x%04x", u, got, want);
    }
    cr_expect(__hisnan(hsqrt(__float2half(-1.0f))), "sqrt of a negative is NaN");
    cr_expect_eq(__half_as_ushort(hexp(CUDART_ZERO_FP16)), 0x3C00, "e^0 = 1");
    cr_expect_eq(__half_as_ushort(CUDART_INF_FP16), 0x7C00);
    cr_expect_eq(__half_as_ushort(CUDART_MAX_NORMAL_FP16), h_bits(65504.0f));
}

Test(bf16, known_bit_patterns)
{
    cr_expect_eq(bf_bits(1.0f), 0x3F80);
    cr_expect_eq(bf_bits(3.14159f), 0x4049);
    cr_expect_eq(bf_bits(-2.0f), 0xC000);
    cr_expect_eq(bf_bits(-0.0f), 0x8000);
    cr_expect_eq(bf_bits(INFINITY), 0x7F80);
    /* 0x3F808000 lies halfway between 0x3F80 and 0x3F81: to even, 0x3F80;
     * 0x3F818000 lies between 0x3F81 and 0x3F82: to even, 0x3F82. */
    cr_expect_eq(bf_bits(float_from_bits(0x3F808000u)), 0x3F80);
    cr_expect_eq(bf_bits(float_from_bits(0x3F818000u)), 0x3F82);
    cr_expect_eq(bf_bits(float_from_bits(0x3F808001u)), 0x3F81, "just above the tie rounds up");
    cr_expect_eq(bf_bits(float_from_bits(0x7F7FFFFFu)), 0x7F80, "FLT_MAX rounds to infinity");
    cr_expect_eq(bf_bits(float_from_bits(0x00000001u)), 0x0000, "below half the smallest bf16 subnormal");
    cr_expect_eq(bf_bits(float_from_bits(0x00008000u)), 0x0000, "a subnormal tie rounds to even, 0");
    cr_expect_eq(bf_bits(float_from_bits(0x00018000u)), 0x0002, "a subnormal tie rounds to even, 2");
    cr_expect(__hisnan(__float2bfloat16(NAN)));
    cr_expect_eq(__bfloat16_as_ushort(__float2bfloat16_rz(float_from_bits(0x3F81FFFFu))), 0x3F81);
    cr_expect_eq(__bfloat162float(__ushort_as_bfloat16(0x4049)), 3.140625f);
}

Test(bf16, random_floats_round_to_the_nearest_bf16)
{
    for (int i = 0; i < 500000; ++i) {
        uint32_t u = next_random();
        float f = float_from_bits(u);
        if (std::isnan(f)) {
            cr_assert(__hisnan(__float2bfloat16(f)));
            continue;
        }
        unsigned short want = reference_bf16(f);
        cr_assert_eq(bf_bits(f), want, "0x%08x: got 0x%04x, nearest-even is 0x%04x", u, bf_bits(f), want);
    }
}

Test(bf16, arithmetic_and_operators)
{
    __nv_bfloat16 a = 1.5f, b = 2.0f;
    cr_expect_eq((float)(a * b), 3.0f);
    cr_expect_eq((float)__hadd(a, b), 3.5f);
    cr_expect(a < b);
    /* 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even, 1 */
    cr_expect_eq(__bfloat16_as_ushort(__hadd(__float2bfloat16(1.0f), __float2bfloat16(std::ldexp(1.0f, -8)))),
                 0x3F80);
    /* 1.5 * 1.359375 = 2.0390625 lies exactly halfway between the bf16s
     * 2.03125 (0x4002) and 2.046875 (0x4003). Adding 2^-100 makes the exact
     * sum just larger, so the correct result is 0x4003; in double the sum
     * rounds back onto the tie, and rounding that to even would give 0x4002.
     * This checks fma's single rounding where double alone is not enough. */
    __nv_bfloat16 x = __ushort_as_bfloat16(0x3FC0), y = __ushort_as_bfloat16(0x3FAE);
    __nv_bfloat16 tiny = __ushort_as_bfloat16(0x0D80); /* 2^-100 */
    cr_expect_eq(__bfloat16_as_ushort(__hfma(x, y, tiny)), 0x4003);
    cr_expect_eq(__bfloat16_as_ushort(__hfma(x, y, __hneg(tiny))), 0x4002);
    cr_expect_eq(__bfloat16_as_ushort(__hmul(x, y)), 0x4002, "the tie itself goes to even");
    __nv_bfloat162 v = __floats2bfloat162_rn(1.0f, -1.0f);
    cr_expect_eq(__bfloat16_as_ushort(__low2bfloat16(v)), 0x3F80);
    cr_expect_eq(__bfloat16_as_ushort(__high2bfloat16(v)), 0xBF80);
}

/* Half arithmetic inside a kernel: each thread computes x*x + 1 in half. */
__global__ void half_square_plus_one(const __half *x, __half *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = __hfma(x[i], x[i], __float2half(1.0f));
}

Test(fp16, half_arithmetic_in_a_kernel)
{
    const int n = 100;
    __half hx[n], hy[n];
    for (int i = 0; i < n; ++i)
        hx[i] = __float2half((float)i / 8.0f);
    __half *dx, *dy;
    cr_assert_eq(cudaMalloc(&dx, sizeof hx), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dy, sizeof hy), cudaSuccess);
    cr_assert_eq(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice), cudaSuccess);
    half_square_plus_one<<<(n + 31) / 32, 32>>>(dx, dy, n);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < n; ++i) {
        long double x = (long double)i / 8.0L;
        cr_expect_eq(__half_as_ushort(hy[i]), reference_half(x * x + 1.0L), "i = %d", i);
    }
    cudaFree(dx);
    cudaFree(dy);
}
