/* cuRAND as the emulator provides it (curand_kernel.h, curand.h): the
 * statistics of uniform and normal draws, from the device API and from the
 * host API, against bounds derived from the sample size; reproducibility
 * for a seed; independence of subsequences; the host API's checks.
 * The sequences are not NVIDIA's, so no value is compared with a GPU's.
 * (The quasi-random Sobol' generators: test_emu_curand_sobol.cu.)
 *
 *   build/bin/test_emu_curand --verbose
 */
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

/* Mean and variance of v, in double. */
struct moments {
    double mean, var;
};
template <class T>
moments moments_of(const T *v, std::size_t n)
{
    double s = 0.0;
    for (std::size_t i = 0; i < n; i++)
        s += static_cast<double>(v[i]);
    const double mean = s / static_cast<double>(n);
    double q = 0.0;
    for (std::size_t i = 0; i < n; i++)
        q += (static_cast<double>(v[i]) - mean) * (static_cast<double>(v[i]) - mean);
    return {mean, q / static_cast<double>(n - 1)};
}

/* Bounds: 6 standard errors for the sample size n (a false failure about
 * once in 5e8 runs). Uniform on (0,1]: mean 1/2, variance 1/12, the
 * variance's standard error sqrt((mu4 - sigma^4) / n) with mu4 = 1/80.
 * Standard normal: mean 0, variance 1, mu4 = 3. */
void expect_uniform(const moments &m, std::size_t n, const char *what, unsigned seed)
{
    const double se_mean = std::sqrt(1.0 / 12.0 / n), se_var = std::sqrt((1.0 / 80.0 - 1.0 / 144.0) / n);
    cr_expect(std::fabs(m.mean - 0.5) < 6 * se_mean, "%s (seed %u): mean %.6f, expected 0.5 +- %.6f", what, seed,
              m.mean, 6 * se_mean);
    cr_expect(std::fabs(m.var - 1.0 / 12.0) < 6 * se_var, "%s (seed %u): variance %.6f, expected %.6f +- %.6f", what,
              seed, m.var, 1.0 / 12.0, 6 * se_var);
}
void expect_normal(const moments &m, std::size_t n, double mean, double sd, const char *what, unsigned seed)
{
    const double se_mean = sd / std::sqrt(static_cast<double>(n)), se_var = sd * sd * std::sqrt(2.0 / n);
    cr_expect(std::fabs(m.mean - mean) < 6 * se_mean, "%s (seed %u): mean %.6f, expected %.6f +- %.6f", what, seed,
              m.mean, mean, 6 * se_mean);
    cr_expect(std::fabs(m.var - sd * sd) < 6 * se_var, "%s (seed %u): variance %.6f, expected %.6f +- %.6f", what,
              seed, m.var, sd * sd, 6 * se_var);
}

unsigned test_seed(const char *name)
{
    const unsigned seed = static_cast<unsigned>(std::time(nullptr));
    std::printf("%s: seed %u\n", name, seed);
    return seed;
}

} /* namespace */

/* ---- device API ------------------------------------------------------------- */

template <class State>
__global__ void draw(unsigned long long seed, int per_thread, float *uni, float *nor, double *unid, double *nord)
{
    const int t = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    State st;
    curand_init(seed, t, 0, &st);
    for (int k = 0; k < per_thread; k++) {
        uni[t * per_thread + k] = curand_uniform(&st);
        nor[t * per_thread + k] = curand_normal(&st);
        unid[t * per_thread + k] = curand_uniform_double(&st);
        nord[t * per_thread + k] = curand_normal_double(&st);
    }
}

template <class State>
static void check_device_api(const char *name)
{
    const unsigned seed = test_seed(name);
    const int threads = 4 * 128, per = 97;
    const std::size_t n = static_cast<std::size_t>(threads) * per;
    float *u = nullptr, *z = nullptr;
    double *ud = nullptr, *zd = nullptr;
    cr_assert_eq(cudaMallocManaged(&u, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&z, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&ud, n * sizeof(double)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&zd, n * sizeof(double)), cudaSuccess);
    std::memset(u, 0xff, n * sizeof(float)); /* NaN: a value not written fails below */
    std::memset(z, 0xff, n * sizeof(float));
    std::memset(ud, 0xff, n * sizeof(double));
    std::memset(zd, 0xff, n * sizeof(double));
    draw<State><<<4, 128>>>(seed, per, u, z, ud, zd);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (std::size_t i = 0; i < n; i++) {
        cr_assert(u[i] > 0.0f && u[i] <= 1.0f, "%s: uniform[%zu] = %g outside (0, 1]", name, i, (double)u[i]);
        cr_assert(ud[i] > 0.0 && ud[i] <= 1.0, "%s: uniform_double[%zu] = %g outside (0, 1]", name, i, ud[i]);
        cr_assert(std::isfinite(z[i]) && std::isfinite(zd[i]), "%s: normal[%zu] not finite", name, i);
    }
    expect_uniform(moments_of(u, n), n, "curand_uniform", seed);
    expect_uniform(moments_of(ud, n), n, "curand_uniform_double", seed);
    expect_normal(moments_of(z, n), n, 0.0, 1.0, "curand_normal", seed);
    expect_normal(moments_of(zd, n), n, 0.0, 1.0, "curand_normal_double", seed);

    /* Neighbouring subsequences are uncorrelated: the correlation of thread
     * t's uniforms with thread t+1's, over all pairs, within 6 / sqrt(pairs). */
    double c = 0.0;
    std::size_t pairs = 0;
    for (int t = 0; t + 1 < threads; t++)
        for (int k = 0; k < per; k++, pairs++)
            c += (u[t * per + k] - 0.5) * (u[(t + 1) * per + k] - 0.5);
    const double corr = c / pairs * 12.0;
    cr_expect(std::fabs(corr) < 6.0 / std::sqrt(static_cast<double>(pairs)), "%s (seed %u): correlation %.5f", name,
              seed, corr);

    /* The same seed gives the same numbers; another seed others. */
    std::vector<float> first(u, u + n);
    draw<State><<<4, 128>>>(seed, per, u, z, ud, zd);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_expect(std::memcmp(first.data(), u, n * sizeof(float)) == 0, "%s: same seed, other numbers", name);
    draw<State><<<4, 128>>>(seed + 1ull, per, u, z, ud, zd);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    std::size_t same = 0;
    for (std::size_t i = 0; i < n; i++)
        same += first[i] == u[i];
    cr_expect(same < n / 1000, "%s: seeds %u and %u share %zu of %zu values", name, seed, seed + 1, same, n);
    cudaFree(u);
    cudaFree(z);
    cudaFree(ud);
    cudaFree(zd);
}

Test(curand_device, xorwow_state_uniform_and_normal_statistics)
{
    check_device_api<curandState>("curandState");
}

Test(curand_device, philox_state_uniform_and_normal_statistics)
{
    check_device_api<curandStatePhilox4_32_10_t>("curandStatePhilox4_32_10_t");
}

/* curand_init's offset and skipahead land where drawing would. */
__global__ void offsets(unsigned long long seed, unsigned *out)
{
    curandState a, b, c;
    curand_init(seed, 5, 0, &a);
    for (int k = 0; k < 11; k++)
        curand(&a);
    curand_init(seed, 5, 11, &b);
    curand_init(seed, 5, 0, &c);
    skipahead(11ull, &c);
    out[0] = curand(&a);
    out[1] = curand(&b);
    out[2] = curand(&c);
    curandStatePhilox4_32_10_t p;
    curand_init(seed, 0, 0, &p);
    skipahead_sequence(5ull, &p);
    curandStatePhilox4_32_10_t q;
    curand_init(seed, 5, 0, &q);
    out[3] = curand(&p);
    out[4] = curand(&q);
}

Test(curand_device, offset_and_skipahead_agree_with_drawing)
{
    unsigned *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 5 * sizeof(unsigned)), cudaSuccess);
    offsets<<<1, 1>>>(test_seed("offsets"), out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(out[0], out[1]);
    cr_expect_eq(out[0], out[2]);
    cr_expect_eq(out[3], out[4]);
    cudaFree(out);
}

/* ---- host API ----------------------------------------------------------------- */

Test(curand_host, generate_uniform_and_normal_into_device_memory)
{
    const unsigned seed = test_seed("curand_host");
    const std::size_t n = 200002; /* even, for the normals */
    float *d = nullptr;
    double *dd = nullptr;
    cr_assert_eq(cudaMalloc(&d, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dd, n * sizeof(double)), cudaSuccess);
    std::vector<float> h(n);
    std::vector<double> hd(n);
    curandGenerator_t g = nullptr;
    cr_assert_eq(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);

    cr_assert_eq(curandGenerateUniform(g, d, n), CURAND_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (std::size_t i = 0; i < n; i++)
        cr_assert(h[i] > 0.0f && h[i] <= 1.0f, "uniform[%zu] = %g", i, (double)h[i]);
    expect_uniform(moments_of(h.data(), n), n, "curandGenerateUniform", seed);

    cr_assert_eq(curandGenerateUniformDouble(g, dd, n), CURAND_STATUS_SUCCESS);
    cr_assert_eq(cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
    expect_uniform(moments_of(hd.data(), n), n, "curandGenerateUniformDouble", seed);

    cr_assert_eq(curandGenerateNormal(g, d, n, 3.0f, 0.25f), CURAND_STATUS_SUCCESS);
    cr_assert_eq(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    expect_normal(moments_of(h.data(), n), n, 3.0, 0.25, "curandGenerateNormal", seed);

    cr_assert_eq(curandGenerateNormalDouble(g, dd, n, -1.0, 2.0), CURAND_STATUS_SUCCESS);
    cr_assert_eq(cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
    expect_normal(moments_of(hd.data(), n), n, -1.0, 2.0, "curandGenerateNormalDouble", seed);

    /* A new seed restarts the sequence; two halves are the whole. */
    cr_assert_eq(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateUniform(g, d, 1000), CURAND_STATUS_SUCCESS);
    std::vector<float> whole(1000), halves(1000);
    cr_assert_eq(cudaMemcpy(whole.data(), d, 1000 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(curandSetPseudoRandomGeneratorSeed(g, seed), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateUniform(g, d, 500), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandGenerateUniform(g, d + 500, 500), CURAND_STATUS_SUCCESS);
    cr_assert_eq(cudaMemcpy(halves.data(), d, 1000 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect(whole == halves, "two calls of 500 differ from one of 1000");

    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
    cudaFree(d);
    cudaFree(dd);
}

Test(curand_host, bad_arguments_get_cuRANDs_status_and_a_message)
{
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64 * sizeof(float)), cudaSuccess);
    curandGenerator_t g = nullptr;
    cr_assert_eq(curandGenerateUniform(g, d, 64), CURAND_STATUS_NOT_INITIALIZED);
    cr_assert_eq(curandCreateGenerator(&g, static_cast<curandRngType_t>(150)), CURAND_STATUS_TYPE_ERROR);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "150"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandSetQuasiRandomGeneratorDimensions(g, 2), CURAND_STATUS_TYPE_ERROR);
    cr_assert_eq(curandGenerateNormal(g, d, 63, 0.0f, 1.0f), CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "odd"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(curandGenerateUniform(g, d, 65), CURAND_STATUS_OUT_OF_RANGE); /* past the allocation */
    std::vector<float> host(8);
    cr_assert_eq(curandGenerateUniform(g, host.data(), 8), CURAND_STATUS_OUT_OF_RANGE); /* host memory */
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_NOT_INITIALIZED);

    /* A host generator writes host memory. */
    cr_assert_eq(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_DEFAULT), CURAND_STATUS_SUCCESS);
    for (float &v : host)
        v = -1.0f;
    cr_assert_eq(curandGenerateUniform(g, host.data(), 8), CURAND_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    for (float v : host)
        cr_assert(v > 0.0f && v <= 1.0f);
    cr_assert_eq(curandDestroyGenerator(g), CURAND_STATUS_SUCCESS);
    cudaFree(d);
}
