/* cuRAND's quasi-random Sobol' generators as the emulator provides them
 * (curand.h's CURAND_RNG_QUASI_*, curand_kernel.h's curandStateSobol32/64
 * and their scrambled forms):
 *   - dimensions 1 and 2 against the definition, computed here in double
 *     precision without the emulator's direction numbers: van der Corput's
 *     radical inverse, and the Pascal matrix mod 2 that the polynomial x + 1
 *     with m_1 = 1 generates, both in Gray-code order;
 *   - exact stratification (every dimension's first 2^m points fall one in
 *     each interval [k 2^-m, (k+1) 2^-m), for all 3667 dimensions, plain and
 *     scrambled; dimensions 1 and 2 together one in each elementary box of
 *     area 2^-m);
 *   - the host generator's dimension-major order and its offset against
 *     device states; curand_uniform / curand_normal against the host's
 *     conversions; skipahead against stepping (random offsets, seed printed);
 *   - the inverse normal distribution function against erfc;
 *   - the host API's statuses, and a zero direction vector failing the launch.
 *
 *   build/bin/test_emu_curand_sobol --verbose
 */
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <type_traits>
#include <vector>

namespace {

unsigned test_seed(const char *name)
{
    const char *env = std::getenv("SIMTLAB_SEED");
    const unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 0)) : static_cast<unsigned>(std::time(nullptr));
    std::printf("%s: seed %u (SIMTLAB_SEED=%u repeats it)\n", name, seed, seed);
    return seed;
}

unsigned long long next_random(unsigned long long *s) /* splitmix64 */
{
    unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Point n of dimension 1 (van der Corput in Gray-code order): bit b of
 * gray(n) contributes 2^-(b+1). */
double dim1_point(unsigned long long n)
{
    const unsigned long long g = n ^ (n >> 1);
    double x = 0.0;
    for (int b = 0; b < 64; b++)
        if ((g >> b) & 1ull)
            x += std::ldexp(1.0, -(b + 1));
    return x;
}

/* Point n of dimension 2: polynomial x + 1, m_1 = 1, whose generator matrix
 * is Pascal's triangle mod 2 (digit j of direction number k is
 * binomial(k, j) mod 2, that is (j & ~k) == 0 by Lucas), digits j < 32. */
double dim2_point(unsigned long long n)
{
    const unsigned long long g = n ^ (n >> 1);
    double x = 0.0;
    for (int j = 0; j < 32; j++) {
        int digit = 0;
        for (int k = j; k < 64; k++)
            if (((g >> k) & 1ull) && (j & ~k) == 0)
                digit ^= 1;
        if (digit)
            x += std::ldexp(1.0, -(j + 1));
    }
    return x;
}

/* Fills device (managed) memory with NaN-like poison before a run. */
template <class T>
T *managed(std::size_t n)
{
    T *p = nullptr;
    cr_assert_eq(cudaMallocManaged(&p, n * sizeof(T)), cudaSuccess);
    std::memset(p, 0xff, n * sizeof(T));
    return p;
}

} /* namespace */

/* ---- device states ----------------------------------------------------------- */

/* Thread t: dimension dims[t], from point offsets[t], `per` words. */
template <class State, class Vectors, class Word>
__global__ void words(Vectors *vectors, const int *dims, const Word *offsets, int per, Word *out)
{
    const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    State s;
    curand_init(vectors[dims[t]], offsets[t], &s);
    for (int k = 0; k < per; k++)
        out[t * per + k] = curand(&s);
}

Test(sobol, first_points_of_dimensions_1_and_2_follow_the_definition)
{
    curandDirectionVectors32_t *v32;
    curandDirectionVectors64_t *v64;
    cr_assert_eq(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS);
    const int per = 4096;
    curandDirectionVectors32_t *d32 = managed<curandDirectionVectors32_t>(2);
    curandDirectionVectors64_t *d64 = managed<curandDirectionVectors64_t>(2);
    std::memcpy(d32, v32, 2 * sizeof *d32);
    std::memcpy(d64, v64, 2 * sizeof *d64);
    int *dims = managed<int>(2);
    dims[0] = 0;
    dims[1] = 1;
    unsigned *off32 = managed<unsigned>(2);
    unsigned long long *off64 = managed<unsigned long long>(2);
    off32[0] = off32[1] = 0;
    off64[0] = off64[1] = 0;
    unsigned *w32 = managed<unsigned>(2 * per);
    unsigned long long *w64 = managed<unsigned long long>(2 * per);
    words<curandStateSobol32_t><<<1, 2>>>(d32, dims, off32, per, w32);
    words<curandStateSobol64_t><<<1, 2>>>(d64, dims, off64, per, w64);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    const double first[8] = {0.0, 0.5, 0.75, 0.25, 0.375, 0.875, 0.625, 0.125};
    for (int i = 0; i < 8; i++)
        cr_expect_eq(std::ldexp(static_cast<double>(w32[i]), -32), first[i], "dimension 1, point %d: %.9g", i,
                     std::ldexp(static_cast<double>(w32[i]), -32));
    for (int i = 0; i < per; i++) {
        const double x1 = std::ldexp(static_cast<double>(w32[i]), -32), y1 = dim1_point(i);
        const double x2 = std::ldexp(static_cast<double>(w32[per + i]), -32), y2 = dim2_point(i);
        cr_assert_eq(x1, y1, "32-bit dimension 1, point %d: %.17g, expected %.17g", i, x1, y1);
        cr_assert_eq(x2, y2, "32-bit dimension 2, point %d: %.17g, expected %.17g", i, x2, y2);
        /* 64-bit: the same first 32 digits (dimension 1 has no more below 2^12 points). */
        cr_assert_eq(w64[i] >> 32, static_cast<unsigned long long>(w32[i]), "64-bit dimension 1, point %d", i);
        cr_assert_eq(w64[per + i] >> 32, static_cast<unsigned long long>(w32[per + i]), "64-bit dimension 2, point %d",
                     i);
    }
    /* The conversions cuRAND documents: floats at the centre of their 2^-32
     * cell, doubles from 32 bits with a whole 2^-32 added. */
    curandStateSobol32_t s;
    curand_init(v32[0], 1u, &s);
    cr_expect_eq(curand_uniform(&s), 0.5f + 0x1p-33f);
    cr_expect_eq(curand_uniform_double(&s), 0.75 + 0x1p-32);
    curandStateSobol64_t s64;
    curand_init(v64[0], 1ull, &s64);
    cr_expect_eq(curand_uniform_double(&s64), 0.5 + 0x1p-54);
    for (void *p : {(void *)d32, (void *)d64, (void *)dims, (void *)off32, (void *)off64, (void *)w32, (void *)w64})
        cudaFree(p);
}

/* Every dimension's first 2^m points: one word in each of the 2^m
 * intervals of its top m bits, exactly. */
static void check_stratified(curandRngType_t type, const char *name)
{
    curandGenerator_t g;
    cr_assert_eq(curandCreateGeneratorHost(&g, type), CURAND_STATUS_SUCCESS);
    const unsigned dims = 3667, m = 10, per = 1u << m;
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(g, dims), CURAND_STATUS_SUCCESS);
    std::vector<unsigned> out(static_cast<std::size_t>(dims) * per, 0xdeadbeefu);
    cr_assert_eq(curandGenerate(g, out.data(), out.size()), CURAND_STATUS_SUCCESS);
    std::vector<unsigned char> seen(per);
    for (unsigned d = 0; d < dims; d++) {
        std::fill(seen.begin(), seen.end(), 0);
        for (unsigned j = 0; j < per; j++)
            seen[out[static_cast<std::size_t>(d) * per + j] >> (32 - m)]++;
        for (unsigned k = 0; k < per; k++)
            cr_assert_eq(seen[k], 1, "%s dimension %u: %u of the first %u points in [%u, %u) / %u", name, d + 1, seen[k],
                         per, k, k + 1, per);
    }
    /* Dimensions 1 and 2 together are a (0, 2)-sequence: the first 2^m
     * points put one in each box 2^-a by 2^-(m-a). */
    for (unsigned a = 0; a <= m; a++) {
        std::vector<unsigned char> box(per, 0);
        for (unsigned j = 0; j < per; j++) {
            const unsigned x = a ? out[j] >> (32 - a) : 0, y = a < m ? out[per + j] >> (32 - (m - a)) : 0;
            box[(x << (m - a)) | y]++;
        }
        for (unsigned k = 0; k < per; k++)
            cr_assert_eq(box[k], 1, "%s: box %u of shape 2^-%u x 2^-%u holds %u points", name, k, a, m - a, box[k]);
    }
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

Test(sobol, every_dimension_is_stratified_exactly)
{
    check_stratified(CURAND_RNG_QUASI_SOBOL32, "Sobol32");
    check_stratified(CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, "scrambled Sobol32");
}

/* ---- host generator against device states ------------------------------------ */

template <class State>
__global__ void conversions(curandDirectionVectors32_t *v, unsigned offset, int per, float *u, double *ud,
                            float *z, double *zd)
{
    const int d = static_cast<int>(threadIdx.x);
    State s;
    curand_init(v[d], offset, &s);
    for (int k = 0; k < per; k++)
        u[d * per + k] = curand_uniform(&s);
    curand_init(v[d], offset, &s);
    for (int k = 0; k < per; k++)
        ud[d * per + k] = curand_uniform_double(&s);
    curand_init(v[d], offset, &s);
    for (int k = 0; k < per; k++)
        z[d * per + k] = curand_normal(&s);
    curand_init(v[d], offset, &s);
    for (int k = 0; k < per; k++)
        zd[d * per + k] = curand_normal_double(&s);
}

Test(sobol, host_generator_is_dimension_major_and_matches_device_states)
{
    const unsigned seed = test_seed("sobol host order");
    unsigned long long rs = seed;
    const unsigned dims = 7 + static_cast<unsigned>(next_random(&rs) % 13); /* 7..19 */
    const unsigned offset = static_cast<unsigned>(next_random(&rs) % 100000);
    const int per = 211; /* prime */
    const std::size_t n = static_cast<std::size_t>(dims) * per;
    std::printf("dims %u, offset %u, %d points each\n", dims, offset, per);

    curandGenerator_t g;
    cr_assert_eq(curandCreateGenerator(&g, CURAND_RNG_QUASI_DEFAULT), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(g, dims), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    unsigned *host_words = managed<unsigned>(2 * n);
    /* Two calls of n continue each dimension where the first stopped. */
    cr_assert_eq(curandGenerate(g, host_words, n), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerate(g, host_words + n, n), CURAND_STATUS_SUCCESS);

    curandDirectionVectors32_t *v;
    cr_assert_eq(curandGetDirectionVectors32(&v, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
    curandDirectionVectors32_t *dv = managed<curandDirectionVectors32_t>(dims);
    std::memcpy(dv, v, dims * sizeof *dv);
    int *dim_of = managed<int>(2 * dims);
    unsigned *offs = managed<unsigned>(2 * dims);
    for (unsigned t = 0; t < 2 * dims; t++) {
        dim_of[t] = static_cast<int>(t % dims);
        offs[t] = offset + (t / dims) * per;
    }
    unsigned *dev = managed<unsigned>(2 * n);
    words<curandStateSobol32_t><<<1, 2 * dims>>>(dv, dim_of, offs, per, dev);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (unsigned call = 0; call < 2; call++)
        for (unsigned d = 0; d < dims; d++)
            for (int j = 0; j < per; j++) {
                const unsigned want = dev[(call * dims + d) * per + j];
                const unsigned got = host_words[call * n + d * per + j];
                cr_assert_eq(got, want, "seed %u: call %u, dimension %u, point %u: host %08x, device state %08x", seed,
                             call, d + 1, offset + call * per + j, got, want);
            }

    /* The conversions: host and device give the same values. */
    float *hu = managed<float>(n), *hz = managed<float>(n), *du = managed<float>(n), *dz = managed<float>(n);
    double *hud = managed<double>(n), *hzd = managed<double>(n), *dud = managed<double>(n), *dzd = managed<double>(n);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateUniform(g, hu, n), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateUniformDouble(g, hud, n), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateNormal(g, hz, n, 0.0f, 1.0f), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateNormalDouble(g, hzd, n, 0.0, 1.0), CURAND_STATUS_SUCCESS);
    conversions<curandStateSobol32_t><<<1, dims>>>(dv, offset, per, du, dud, dz, dzd);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (std::size_t i = 0; i < n; i++) {
        cr_assert_eq(hu[i], du[i], "seed %u: uniform %zu: host %.9g, device %.9g", seed, i, (double)hu[i],
                     (double)du[i]);
        cr_assert_eq(hud[i], dud[i], "seed %u: uniform double %zu", seed, i);
        cr_assert_eq(hz[i], dz[i], "seed %u: normal %zu: host %.9g, device %.9g", seed, i, (double)hz[i],
                     (double)dz[i]);
        cr_assert_eq(hzd[i], dzd[i], "seed %u: normal double %zu", seed, i);
        cr_assert(hu[i] > 0.0f && hu[i] < 1.0f && std::isfinite(hz[i]), "seed %u: value %zu", seed, i);
    }
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
    for (void *p : {(void *)host_words, (void *)dv, (void *)dim_of, (void *)offs, (void *)dev, (void *)hu, (void *)hz,
                    (void *)du, (void *)dz, (void *)hud, (void *)hzd, (void *)dud, (void *)dzd})
        cudaFree(p);
}

/* A 64-bit generator in host memory against 64-bit states; n / dims per dimension. */
Test(sobol, sobol64_host_generator_matches_its_states)
{
    curandGenerator_t g;
    cr_assert_eq(curandCreateGeneratorHost(&g, CURAND_RNG_QUASI_SOBOL64), CURAND_STATUS_SUCCESS);
    const unsigned dims = 5, per = 97;
    const unsigned long long offset = (1ull << 33) + 12345; /* past 32 bits */
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(g, dims), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
    std::vector<unsigned long long> out(dims * per, 0);
    cr_assert_eq(curandGenerateLongLong(g, out.data(), out.size()), CURAND_STATUS_SUCCESS);
    curandDirectionVectors64_t *v;
    cr_assert_eq(curandGetDirectionVectors64(&v, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS);
    for (unsigned d = 0; d < dims; d++) {
        curandStateSobol64_t s;
        curand_init(v[d], offset, &s);
        for (unsigned j = 0; j < per; j++)
            cr_assert_eq(out[d * per + j], curand(&s), "dimension %u, point %llu", d + 1, offset + j);
    }
    std::vector<double> u(dims * per);
    cr_assert_eq(curandGenerateUniformDouble(g, u.data(), u.size()), CURAND_STATUS_SUCCESS);
    for (unsigned d = 0; d < dims; d++) {
        curandStateSobol64_t s;
        curand_init(v[d], offset + per, &s);
        for (unsigned j = 0; j < per; j++)
            cr_assert_eq(u[d * per + j], curand_uniform_double(&s), "uniform double: dimension %u, point %u", d + 1,
                         j);
    }
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
}

/* ---- skipahead ---------------------------------------------------------------- */

template <class State, class Vectors, class Word>
static void check_skipahead(Vectors *v, const Word *c, unsigned long long *rs, unsigned seed, const char *name)
{
    for (int trial = 0; trial < 40; trial++) {
        const unsigned d = static_cast<unsigned>(next_random(rs) % 3667);
        const Word start = static_cast<Word>(next_random(rs) % 100000), n = static_cast<Word>(next_random(rs) % 5000);
        State a, b;
        if constexpr (std::is_same<State, curandStateScrambledSobol32_t>::value ||
                      std::is_same<State, curandStateScrambledSobol64_t>::value) {
            curand_init(v[d], c[d], start, &a);
            curand_init(v[d], c[d], start, &b);
        } else {
            curand_init(v[d], start, &a);
            curand_init(v[d], start, &b);
        }
        for (Word k = 0; k < n; k++)
            (void)curand(&a);
        skipahead(n, &b);
        for (int k = 0; k < 8; k++) {
            const Word x = curand(&a), y = curand(&b);
            cr_assert_eq(x, y, "%s (seed %u): dimension %u from %llu: %llu steps then %d: %llx, skipahead: %llx", name,
                         seed, d + 1, (unsigned long long)start, (unsigned long long)n, k, (unsigned long long)x,
                         (unsigned long long)y);
        }
    }
}

Test(sobol, skipahead_equals_stepping)
{
    const unsigned seed = test_seed("sobol skipahead");
    unsigned long long rs = seed;
    curandDirectionVectors32_t *v32, *s32;
    curandDirectionVectors64_t *v64, *s64;
    unsigned *c32;
    unsigned long long *c64;
    cr_assert_eq(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetDirectionVectors32(&s32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6),
                 CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetDirectionVectors64(&s64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6),
                 CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetScrambleConstants32(&c32), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGetScrambleConstants64(&c64), CURAND_STATUS_SUCCESS);
    check_skipahead<curandStateSobol32_t>(v32, c32, &rs, seed, "Sobol32");
    check_skipahead<curandStateScrambledSobol32_t>(s32, c32, &rs, seed, "scrambled Sobol32");
    check_skipahead<curandStateSobol64_t>(v64, c64, &rs, seed, "Sobol64");
    check_skipahead<curandStateScrambledSobol64_t>(s64, c64, &rs, seed, "scrambled Sobol64");
    /* Scrambled: point 0 is the scramble constant, and the host generator
     * uses the same vectors and constants. */
    curandStateScrambledSobol32_t s;
    curand_init(s32[4], c32[4], 0u, &s);
    cr_expect_eq(curand(&s), c32[4]);
    curandGenerator_t g;
    cr_assert_eq(curandCreateGeneratorHost(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL32), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(g, 5), CURAND_STATUS_SUCCESS);
    unsigned out[5 * 4];
    cr_assert_eq(curandGenerate(g, out, 20), CURAND_STATUS_SUCCESS);
    curand_init(s32[4], c32[4], 0u, &s);
    for (int j = 0; j < 4; j++)
        cr_expect_eq(out[16 + j], curand(&s), "scrambled host generator, dimension 5, point %d", j);
    curandDestroyGenerator(g);
}

/* ---- the inverse normal distribution function --------------------------------- */

Test(sobol, normals_invert_the_distribution_function)
{
    const unsigned seed = test_seed("sobol normal");
    unsigned long long rs = seed;
    for (int i = 0; i < 20000; i++) {
        const unsigned x = static_cast<unsigned>(next_random(&rs));
        const double z = simtlab_emu::sobol::normal_double(x);
        /* The probability cuRAND's mirrored form inverts. */
        const unsigned lo = x > 0x80000000u ? 0xffffffffu - x : x;
        const double p = lo * 0x1p-32 + 0x1p-33;
        cr_assert(std::isfinite(z), "seed %u: x %08x: z %g", seed, x, z);
        cr_assert((z > 0) == (x >= 0x80000000u), "seed %u: x %08x: z %.17g has the wrong sign", seed, x, z);
        cr_assert(std::fabs(0.5 * std::erfc(-(x > 0x80000000u ? -z : z) * 0.70710678118654752440) - p) <= 1e-14 * p,
                  "seed %u: x %08x: Phi(%.17g) is not %.17g", seed, x, z, p);
    }
    /* The extremes: the smallest word's cell centre, 2^-33, and its mirror. */
    cr_expect(std::fabs(simtlab_emu::sobol::normal_double(0u) + 6.3379) < 1e-3, "%.17g",
              simtlab_emu::sobol::normal_double(0u));
    cr_expect_eq(simtlab_emu::sobol::normal_double(0xffffffffu), -simtlab_emu::sobol::normal_double(0u));
}

/* ---- statuses -------------------------------------------------------------------- */

Test(sobol, the_host_api_checks_its_arguments)
{
    curandGenerator_t q, q64, p;
    cr_assert_eq(curandCreateGenerator(&q, CURAND_RNG_QUASI_SOBOL32), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandCreateGenerator(&q64, CURAND_RNG_QUASI_SOBOL64), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandCreateGenerator(&p, CURAND_RNG_PSEUDO_DEFAULT), CURAND_STATUS_SUCCESS);
    cr_expect_eq(curandSetQuasiRandomGeneratorDimensions(q, 0), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandSetQuasiRandomGeneratorDimensions(q, 20001), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandSetQuasiRandomGeneratorDimensions(q, 3668), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "3667") != nullptr, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(curandSetQuasiRandomGeneratorDimensions(p, 2), CURAND_STATUS_TYPE_ERROR);
    cr_expect_eq(curandSetPseudoRandomGeneratorSeed(q, 5), CURAND_STATUS_TYPE_ERROR);
    cr_expect_eq(curandSetGeneratorOrdering(q, CURAND_ORDERING_PSEUDO_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandSetGeneratorOrdering(p, CURAND_ORDERING_QUASI_DEFAULT), CURAND_STATUS_OUT_OF_RANGE);
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(q, 3), CURAND_STATUS_SUCCESS);
    unsigned *w = nullptr;
    unsigned long long *l = nullptr;
    float *f = nullptr;
    cr_assert_eq(cudaMalloc(&w, 64 * sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&l, 64 * sizeof(unsigned long long)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&f, 64 * sizeof(float)), cudaSuccess);
    cr_expect_eq(curandGenerate(q, w, 7), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    cr_expect_eq(curandGenerateNormal(q, f, 9, 0.0f, 1.0f), CURAND_STATUS_SUCCESS); /* no pairs: 3 points */
    cr_expect_eq(curandGenerateNormal(q, f, 3, 0.0f, -1.0f), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandGenerate(q64, w, 4), CURAND_STATUS_TYPE_ERROR);
    cr_expect_eq(curandGenerateLongLong(q, l, 3), CURAND_STATUS_TYPE_ERROR);
    cr_expect_eq(curandGenerateLongLong(p, l, 4), CURAND_STATUS_TYPE_ERROR);
    cr_expect_eq(curandGenerateLongLong(q64, l, 4), CURAND_STATUS_SUCCESS);
    curandDirectionVectors32_t *v32 = nullptr;
    curandDirectionVectors64_t *v64 = nullptr;
    cr_expect_eq(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_64_JOEKUO6), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandGetDirectionVectors64(&v64, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandGetDirectionVectors32(nullptr, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_OUT_OF_RANGE);
    cr_expect_eq(curandGetScrambleConstants32(nullptr), CURAND_STATUS_OUT_OF_RANGE);
    /* The table has cuRAND's 20000 entries; the emulator's stop at 3667. */
    cr_assert_eq(curandGetDirectionVectors32(&v32, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
    cr_expect_neq(v32[3666][31], 0u);
    cr_expect_eq(v32[3667][0], 0u);
    cr_expect_eq(v32[19999][31], 0u);
    cudaFree(w);
    cudaFree(l);
    cudaFree(f);
    curandDestroyGenerator(q);
    curandDestroyGenerator(q64);
    curandDestroyGenerator(p);
}

__global__ void init_from(curandDirectionVectors32_t *v, unsigned *out)
{
    curandStateSobol32_t s;
    curand_init(v[threadIdx.x], 0u, &s);
    out[threadIdx.x] = curand(&s);
}

/* Direction vectors past the emulator's 3667 dimensions are zero: the
 * launch fails with a message instead of a sequence of zeros. */
Test(sobol, a_dimension_past_the_table_fails_the_launch)
{
    curandDirectionVectors32_t *v;
    cr_assert_eq(curandGetDirectionVectors32(&v, CURAND_DIRECTION_VECTORS_32_JOEKUO6), CURAND_STATUS_SUCCESS);
    curandDirectionVectors32_t *d = nullptr;
    unsigned *out = nullptr;
    cr_assert_eq(cudaMalloc(&d, 2 * sizeof *d), cudaSuccess);
    cr_assert_eq(cudaMalloc(&out, 2 * sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, v + 3666, 2 * sizeof *d, cudaMemcpyHostToDevice), cudaSuccess);
    init_from<<<1, 2>>>(d, out);
    cr_expect_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "3667") != nullptr, "%s", simtlab_emu_last_diagnostic());
    cudaFree(d);
    cudaFree(out);
}
