/* The emulator's timing model (<simtlab_emu/profile.h>, emu/docs/model.md):
 * the GPU data files, the parts of a launch's modelled time on kernels
 * whose bound is known, what is not modelled, and sampled launches
 * (SIMTLAB_EMU_SAMPLE_BLOCKS).
 *
 * Every expected figure is computed here, independently of the model's
 * code, from the datasheet values the test states (H200: 4.8 TB/s, 8.60 us
 * launch). Sizes are random, odd, from a seed printed on stderr
 * (SIMTLAB_TEST_SEED=<n> repeats a run).
 *
 * This file is always compiled with the profiling instrumentation
 * (sl_emu_add_test(... PROFILE), emu/CMakeLists.txt).
 *
 * Build and run: cmake --build build --target test_emu_model &&
 *                build/bin/test_emu_model */
#include <criterion/criterion.h>

#include <simtlab_emu/profile.h>

#include <cooperative_groups.h>
#include <mma.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace cg = cooperative_groups;

/* ---- helpers ----------------------------------------------------------- */

static unsigned long long seed_state;
static unsigned long long test_seed(const char *what)
{
    const char *env = std::getenv("SIMTLAB_TEST_SEED");
    const unsigned long long seed = env && *env ? std::strtoull(env, nullptr, 0)
                                                : static_cast<unsigned long long>(std::time(nullptr)) ^ getpid();
    std::fprintf(stderr, "test_emu_model %s: seed %llu (SIMTLAB_TEST_SEED=%llu repeats it)\n", what, seed, seed);
    seed_state = seed * 2862933555777941757ULL + 3037000493ULL;
    return seed;
}
/* A number in [lo, hi] from the seeded generator. */
static unsigned long long draw(unsigned long long lo, unsigned long long hi)
{
    seed_state ^= seed_state << 13;
    seed_state ^= seed_state >> 7;
    seed_state ^= seed_state << 17;
    return lo + seed_state % (hi - lo + 1);
}

template <class T> static T *device_poisoned(size_t n)
{
    T *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, n * sizeof(T)), cudaSuccess, "cudaMalloc: %s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaMemset(p, 0xFF, n * sizeof(T)), cudaSuccess); /* NaN for floats */
    return p;
}

/* The two inputs of a vector add (random and i % 977), copied to poisoned
 * device arrays, and c = a + b checked exactly against them. */
struct add_inputs {
    size_t n;
    float *a, *b, *c;
    std::vector<float> ha, hb;
    explicit add_inputs(size_t count) : n(count), ha(count), hb(count)
    {
        a = device_poisoned<float>(n), b = device_poisoned<float>(n), c = device_poisoned<float>(n);
        for (size_t i = 0; i < n; i++)
            ha[i] = static_cast<float>(draw(0, 1000)), hb[i] = static_cast<float>(i % 977);
        cudaMemcpy(a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    }
    void check_sum() const
    {
        std::vector<float> hc(n);
        cudaMemcpy(hc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(hc[i], ha[i] + hb[i], "c[%zu]", i);
    }
    ~add_inputs() { cudaFree(a), cudaFree(b), cudaFree(c); }
};

static simtlab_emu_model_time modelled(const char *what)
{
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s: %s", what, simtlab_emu_last_diagnostic());
    simtlab_emu_model_time t;
    cr_assert_eq(simtlab_emu_model_total(&t), 0, "%s: nothing modelled (%s)", what, simtlab_emu_profile_why());
    std::fprintf(stderr, "  %-34s %s: total %.3f us = fixed %.3f + max(issue %.3f, shared %.3f, dram %.3f, "
                 "latency %.3f): %s%s%s\n", what, t.gpu, t.total_us, t.fixed_us, t.issue_us, t.shared_us, t.dram_us,
                 t.latency_us, t.bound, t.modelled ? "" : " ", t.modelled ? "" : t.not_modelled);
    return t;
}

#define MODEL(what, launch)                                                                            \
    ([&] {                                                                                             \
        simtlab_emu_profile_begin();                                                                   \
        launch;                                                                                        \
        simtlab_emu_profile_end();                                                                     \
        return modelled(what);                                                                         \
    }())

/* The H200's data-sheet figures this file checks against (emu/gpus/h200.gpu
 * cites them): read here, not from the model. */
constexpr double h200_dram_bytes_per_us = 4.8e12 / 1e6;
constexpr double h200_launch_us = 8.60;

/* ---- kernels ------------------------------------------------------------ */

__global__ void vector_add(const float *a, const float *b, float *c, size_t n)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* One path: `steps` dependent steps with constants of its own (each P
 * its own loop in the compiled code). */
__host__ __device__ static unsigned step(unsigned v, unsigned p)
{
    return (v ^ (v >> (p + 1))) * (2654435761u + 2 * p) + p;
}
template <unsigned P> __device__ static unsigned run_path(unsigned v, int steps)
{
    for (int s = 0; s < steps; s++)
        v = step(v, P);
    return v;
}

/* Lane l takes path l % k, behind a switch: a warp runs its k paths one
 * after another. */
__global__ void k_paths(unsigned *out, int k, int steps)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i;
    switch ((threadIdx.x % 32) % static_cast<unsigned>(k)) {
    case 0: v = run_path<0>(v, steps); break;
    case 1: v = run_path<1>(v, steps); break;
    case 2: v = run_path<2>(v, steps); break;
    case 3: v = run_path<3>(v, steps); break;
    case 4: v = run_path<4>(v, steps); break;
    case 5: v = run_path<5>(v, steps); break;
    case 6: v = run_path<6>(v, steps); break;
    case 7: v = run_path<7>(v, steps); break;
    default: break;
    }
    out[i] = v;
}

__global__ void write_one(int *out)
{
    out[threadIdx.x] = static_cast<int>(threadIdx.x);
}

__global__ void coop_phases(int *a)
{
    cg::grid_group grid = cg::this_grid();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = static_cast<int>(i);
    grid.sync();
    a[i] += a[(i + 1) % (gridDim.x * blockDim.x)];
}

__global__ void child_fill(int *out, int base)
{
    out[base + threadIdx.x] = base + static_cast<int>(threadIdx.x);
}
/* Each block launches a child grid from device code (dynamic parallelism). */
__global__ void parent_launches(int *out)
{
    if (threadIdx.x == 0)
        child_fill<<<1, 32>>>(out, static_cast<int>(blockIdx.x) * 32);
}

/* The same work in every block: thread i sums in[i * iters .. + iters),
 * so no two blocks share a sector (the footprint of a sample scales). */
__global__ void uniform_work(const float *in, float *out, size_t n, int iters)
{
    const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = 0.0f;
    for (int j = 0; j < iters; j++)
        s += in[i * iters + j];
    out[i] = s;
}

/* A grid-stride loop: each thread loads a[i] and b[i] at many i, no load's
 * address depending on another's value, and no barrier. */
__global__ void vector_add_strided(const float *a, const float *b, float *c, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

/* `steps` loads, each in a barrier interval of its own. */
__global__ void loads_between_barriers(const float *in, float *out, int steps)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x, all = gridDim.x * blockDim.x;
    float v = 0.0f;
    for (int s = 0; s < steps; s++) {
        v += in[(size_t)s * all + i];
        __syncthreads();
    }
    out[i] = v;
}

/* One warp per 16x16 tile of C = A B: A row-major (ldm k), B column-major
 * (ldm k), C row-major (ldm n), loaded and stored by WMMA straight from
 * and to global memory, as chapter 06's v1 does. */
__global__ void wmma_tiles(const __half *a, const __half *b, float *c, int n, int k)
{
    using namespace nvcuda;
    const int tm = blockIdx.y, tn = blockIdx.x;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, a + (size_t)tm * 16 * k + kk, k);
        wmma::load_matrix_sync(fb, b + (size_t)tn * 16 * k + kk, k);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tm * 16 * n + tn * 16, acc, n, wmma::mem_row_major);
}

/* ---- the GPU data files -------------------------------------------------- */

Test(model_gpus, an_unknown_gpu_is_an_error_listing_the_known_ones)
{
    char err[512];
    cr_assert_eq(simtlab_emu_model_select("gtx9999", err, sizeof err), -1);
    for (const char *known : {"h200", "a100", "rtx4090", "t4"})
        cr_assert(std::strstr(err, known) != nullptr, "the message lists %s: %s", known, err);
    cr_assert(std::strstr(err, "gtx9999") != nullptr, "the message names the argument: %s", err);
    cr_assert_eq(simtlab_emu_model_select("../h200", err, sizeof err), -1, "a path is not a GPU name");
    cr_assert_eq(simtlab_emu_model_select("", err, sizeof err), -1);
}

Test(model_gpus, each_known_gpu_loads_and_is_used)
{
    char err[512];
    int *out = device_poisoned<int>(32);
    for (const char *name : {"h200", "a100", "rtx4090", "t4"}) {
        cr_assert_eq(simtlab_emu_model_select(name, err, sizeof err), 0, "%s: %s", name, err);
        cr_assert_str_eq(simtlab_emu_model_gpu(), name);
        simtlab_emu_model_time t = MODEL(name, (write_one<<<1, 32>>>(out)));
        cr_assert_str_eq(t.gpu, name);
        cr_assert(t.modelled);
        cr_assert_str_eq(t.counts, "instruction counts: basic blocks, no SASS weights");
    }
    cudaFree(out);
}

/* ---- the parts ------------------------------------------------------------ */

Test(model_parts, a_large_vector_add_is_dram_bound_at_bytes_over_bandwidth)
{
    test_seed("vector add");
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const size_t n = (size_t{1} << 22) + 2 * draw(0, 1u << 18) + 1; /* odd; 12 bytes each: dram above the fixed cost */
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
    add_inputs in(n);
    simtlab_emu_model_time t = MODEL("vector add", (vector_add<<<blocks, threads>>>(in.a, in.b, in.c, n)));
    in.check_sum();
    /* two arrays read, one written, each once: 12 bytes per item */
    const double expect_us = 12.0 * static_cast<double>(n) / h200_dram_bytes_per_us;
    cr_assert(t.modelled, "%s", t.not_modelled);
    cr_assert_str_eq(t.bound, "dram");
    cr_assert(std::fabs(t.dram_us - expect_us) <= 0.10 * expect_us, "dram %.3f us, bytes/bandwidth %.3f us",
              t.dram_us, expect_us);
    cr_assert(std::fabs(t.fixed_us - h200_launch_us) < 1e-9, "fixed %.3f us", t.fixed_us);
    cr_assert(std::fabs(t.total_us - (t.fixed_us + t.dram_us)) < 1e-9);
}

/* Independent loads overlap (Little's law, emu/docs/model.md "latency"):
 * a grid-stride loop of many loads per thread on one block per SM waits one
 * global latency, not one per load, so it is DRAM-bound, as a GPU is. */
Test(model_parts, a_grid_stride_loop_of_independent_loads_is_dram_bound_not_latency_bound)
{
    test_seed("grid-stride");
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const size_t n = (size_t{1} << 22) + 2 * draw(0, 1u << 18) + 1; /* about 120 loop trips per thread */
    const unsigned threads = 256, blocks = 132;                     /* one block on each of the H200's SMs */
    add_inputs in(n);
    simtlab_emu_model_time t = MODEL("grid-stride vector add", (vector_add_strided<<<blocks, threads>>>(in.a, in.b, in.c, n)));
    in.check_sum();
    const double expect_us = 12.0 * static_cast<double>(n) / h200_dram_bytes_per_us;
    cr_assert(t.modelled, "%s", t.not_modelled);
    /* one load per trip and array, each its own request: counted as such */
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_window(&f), 0);
    const double trips = static_cast<double>(n) / (blocks * threads);
    cr_assert(static_cast<double>(f.gld_requests) >= 2.0 * (trips - 1) * blocks * threads / 32,
              "%llu load requests for %.1f trips", f.gld_requests, trips);
    /* counted as one dependent load each, the latency would be
     * 2 x trips x 400 cycles / 1.98 GHz, about 48 us: 4x the DRAM time */
    cr_assert_str_eq(t.bound, "dram", "bound %s: latency %.3f us, dram %.3f us", t.bound, t.latency_us, t.dram_us);
    cr_assert(t.latency_us < 0.5 * t.dram_us, "latency %.3f us, dram %.3f us", t.latency_us, t.dram_us);
    cr_assert(std::fabs(t.dram_us - expect_us) <= 0.10 * expect_us, "dram %.3f us, bytes/bandwidth %.3f us",
              t.dram_us, expect_us);
}

/* Loads in different barrier intervals cannot overlap: one global latency
 * (400 cycles at 1980 MHz on the H200, emu/gpus/h200.gpu's sources) each. */
Test(model_parts, loads_separated_by_barriers_each_wait_a_global_latency)
{
    test_seed("barrier steps");
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const int steps = static_cast<int>(draw(60, 120)); /* 12-24 us of latency: above the fixed cost */
    const unsigned threads = 128, blocks = 132;
    float *in = device_poisoned<float>(static_cast<size_t>(steps) * blocks * threads);
    float *out = device_poisoned<float>(static_cast<size_t>(blocks) * threads);
    cudaMemset(in, 0, static_cast<size_t>(steps) * blocks * threads * sizeof(float));
    simtlab_emu_model_time t = MODEL("loads between barriers", (loads_between_barriers<<<blocks, threads>>>(in, out, steps)));
    cr_assert(t.modelled, "%s", t.not_modelled);
    const double global_us = steps * 400.0 / 1980.0; /* cycles / MHz */
    cr_assert_str_eq(t.bound, "latency", "bound %s", t.bound);
    cr_assert(t.latency_us > std::max({t.issue_us, t.shared_us, t.dram_us}));
    cr_assert(t.latency_us >= global_us && t.latency_us <= 1.5 * global_us,
              "latency %.3f us for %d dependent loads (%.3f us of global latency)", t.latency_us, steps, global_us);
    cudaFree(in), cudaFree(out);
}

/* WMMA's load_matrix_sync and store_matrix_sync on global memory are
 * global requests whose sectors are those of the tile: a 16x16 half tile
 * whose rows start on 32-byte boundaries is 16 sectors, a 16x16 float tile
 * 32. Without them chapter 06's v1 would read nothing from DRAM. */
Test(model_parts, wmma_tiles_in_global_memory_are_counted_as_their_sectors)
{
    test_seed("wmma");
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const int tiles_m = static_cast<int>(2 * draw(1, 3) + 1), tiles_n = static_cast<int>(2 * draw(1, 3) + 1);
    const int tiles_k = static_cast<int>(draw(1, 4));
    const int m = 16 * tiles_m, n = 16 * tiles_n, k = 16 * tiles_k;
    std::vector<__half> ha(static_cast<size_t>(m) * k), hb(static_cast<size_t>(n) * k);
    std::vector<double> fa(ha.size()), fb(hb.size());
    for (size_t i = 0; i < ha.size(); i++)
        fa[i] = static_cast<double>(static_cast<int>(draw(0, 8)) - 4), ha[i] = __float2half(static_cast<float>(fa[i]));
    for (size_t i = 0; i < hb.size(); i++)
        fb[i] = static_cast<double>(static_cast<int>(draw(0, 8)) - 4), hb[i] = __float2half(static_cast<float>(fb[i]));
    __half *a = device_poisoned<__half>(ha.size()), *b = device_poisoned<__half>(hb.size());
    float *c = device_poisoned<float>(static_cast<size_t>(m) * n);
    cudaMemcpy(a, ha.data(), ha.size() * sizeof(__half), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), hb.size() * sizeof(__half), cudaMemcpyHostToDevice);
    simtlab_emu_model_time t = MODEL("wmma from global", (wmma_tiles<<<dim3(tiles_n, tiles_m), 32>>>(a, b, c, n, k)));
    cr_assert(t.modelled, "%s", t.not_modelled);
    std::vector<float> hc(static_cast<size_t>(m) * n);
    cudaMemcpy(hc.data(), c, hc.size() * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double ref = 0;
            for (int p = 0; p < k; p++)
                ref += fa[static_cast<size_t>(i) * k + p] * fb[static_cast<size_t>(j) * k + p];
            cr_assert_eq(static_cast<double>(hc[static_cast<size_t>(i) * n + j]), ref, "c[%d][%d]", i, j);
        }
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_window(&f), 0);
    const unsigned long long warps = static_cast<unsigned long long>(tiles_m) * tiles_n;
    cr_assert_eq(f.gld_sectors, warps * tiles_k * 2 * 16, "%llu load sectors, expected %llu", f.gld_sectors,
                 warps * tiles_k * 2 * 16);
    cr_assert(f.gld_requests >= warps * tiles_k * 2, "%llu load requests", f.gld_requests);
    cr_assert_eq(f.gst_sectors, warps * 32, "%llu store sectors", f.gst_sectors);
    cr_assert(f.gst_requests >= warps, "%llu store requests", f.gst_requests);
    /* every byte of A, B and C once: the footprint */
    simtlab_emu_model_time last;
    cr_assert_eq(simtlab_emu_model_last(&last), 0);
    const double bytes = 2.0 * (ha.size() + hb.size()) + 4.0 * hc.size();
    cr_assert(std::fabs(last.dram_bytes - bytes) < 1.0, "dram bytes %.0f, expected %.0f", last.dram_bytes, bytes);
    cudaFree(a), cudaFree(b), cudaFree(c);
}

Test(model_parts, divergence_multiplies_the_issue_part_and_not_the_fixed_one)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const unsigned blocks = 1056, threads = 256; /* 8 blocks per SM of 132 */
    unsigned *out = device_poisoned<unsigned>(blocks * threads);
    const int steps = 64;
    double issue1 = 0, fixed1 = 0;
    for (int k : {1, 2, 4, 8}) {
        char what[32];
        std::snprintf(what, sizeof what, "%d paths", k);
        simtlab_emu_model_time t = MODEL(what, (k_paths<<<blocks, threads>>>(out, k, steps)));
        cr_assert(t.modelled, "%s", t.not_modelled);
        std::vector<unsigned> h(blocks * threads);
        cudaMemcpy(h.data(), out, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
        for (unsigned i = 0; i < blocks * threads; i += 997) { /* a CPU reference at some items */
            unsigned v = i;
            const unsigned path = ((i % threads) % 32) % static_cast<unsigned>(k);
            for (int s = 0; s < steps; s++)
                v = step(v, path);
            cr_assert_eq(h[i], v, "out[%u] with %d paths", i, k);
        }
        if (k == 1) {
            issue1 = t.issue_us, fixed1 = t.fixed_us;
            continue;
        }
        const double ratio = t.issue_us / issue1;
        cr_assert(ratio >= 0.8 * k && ratio <= 1.2 * k, "%d paths: issue x%.2f of one path's", k, ratio);
        cr_assert_eq(t.fixed_us, fixed1, "the fixed part does not depend on the paths");
    }
    cudaFree(out);
}

Test(model_parts, a_tiny_grid_is_bound_by_the_fixed_cost)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    int *out = device_poisoned<int>(32);
    simtlab_emu_model_time t = MODEL("one warp", (write_one<<<1, 32>>>(out)));
    cr_assert(t.modelled, "%s", t.not_modelled);
    cr_assert_str_eq(t.bound, "fixed");
    cr_assert(t.total_us >= h200_launch_us && t.total_us < 1.2 * h200_launch_us, "total %.3f us", t.total_us);
    cudaFree(out);
}

Test(model_parts, launches_are_summed_over_the_window)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    int *out = device_poisoned<int>(32);
    simtlab_emu_model_time one = MODEL("one launch", (write_one<<<1, 32>>>(out)));
    simtlab_emu_model_time three = MODEL("three launches", (write_one<<<1, 32>>>(out), write_one<<<1, 32>>>(out),
                                                            write_one<<<1, 32>>>(out)));
    cr_assert_eq(three.launches, 3);
    cr_assert(std::fabs(three.total_us - 3 * one.total_us) < 1e-9, "%.3f against 3 x %.3f", three.total_us,
              one.total_us);
    cudaFree(out);
}

Test(model_parts, registers_from_ptxas_limit_occupancy)
{
    /* ptxas's table as a CUDA build writes it (build/resources.txt): the
     * row at the GPU's architecture wins. SIMTLAB_MODEL_RESOURCES is read
     * once per process, at its first modelled launch: set before it. */
    char path[] = "/tmp/test_emu_model_resources_XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_neq(fd, -1);
    const char table[] = "file arch regs smem stack spill_st spill_ld kernel\n"
                         "model.cu sm_80 40 0 0 0 0 write_one(int*)\n"
                         "model.cu sm_90 255 0 0 0 0 write_one(int*)\n";
    cr_assert_eq(write(fd, table, sizeof table - 1), (ssize_t)(sizeof table - 1));
    close(fd);
    setenv("SIMTLAB_MODEL_RESOURCES", path, 1);
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    int *out = device_poisoned<int>(32);
    MODEL("255 registers", (write_one<<<1, 32>>>(out)));
    simtlab_emu_model_time t;
    cr_assert_eq(simtlab_emu_model_last(&t), 0);
    unlink(path);
    cr_assert_eq(t.registers, 255);
    cr_assert_eq(t.registers_known, 1);
    /* 255 x 32 = 8160 registers per warp, allocated as 8192: 65536 / 8192 = 8 blocks of one warp */
    cr_assert_eq(t.blocks_per_sm, 8);
    cudaFree(out);
}

/* ---- not modelled ----------------------------------------------------------- */

Test(model_limits, a_cooperative_launch_is_not_modelled)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    const unsigned blocks = 4, threads = 64;
    int *a = device_poisoned<int>(blocks * threads);
    void *args[] = {&a};
    simtlab_emu_model_time t = MODEL("cooperative", ({
        cudaError_t e = cudaLaunchCooperativeKernel((void *)coop_phases, dim3(blocks), dim3(threads), args, 0, 0);
        cr_assert_eq(e, cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    }));
    cr_assert_eq(t.modelled, 0);
    cr_assert(std::strncmp(t.not_modelled, "not modelled: ", 14) == 0, "%s", t.not_modelled);
    cr_assert(std::strstr(t.not_modelled, "cooperative") != nullptr, "%s", t.not_modelled);
    cr_assert(t.total_us < 0, "never a number");
    cudaFree(a);
}

Test(model_limits, dynamic_parallelism_is_not_modelled)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    int *out = device_poisoned<int>(4 * 32);
    simtlab_emu_model_time t = MODEL("device launches", (parent_launches<<<4, 32>>>(out)));
    std::vector<int> h(4 * 32);
    cudaMemcpy(h.data(), out, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4 * 32; i++)
        cr_assert_eq(h[i], i, "out[%d]: the children ran", i);
    cr_assert_eq(t.modelled, 0);
    cr_assert(std::strstr(t.not_modelled, "not modelled: dynamic parallelism") == t.not_modelled, "%s",
              t.not_modelled);
    cudaFree(out);
}

/* ---- sampling ------------------------------------------------------------------ */

struct sampled_figures {
    unsigned long long blocks, inst, gld_requests, gld_sectors, gst_sectors;
    double total_us, issue_us, dram_us, scale;
};

static sampled_figures run_uniform(size_t n, unsigned threads, int iters)
{
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    float *in = device_poisoned<float>(n * iters), *out = device_poisoned<float>(n);
    std::vector<float> h(n * iters);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = static_cast<float>(i % 101);
    cudaMemcpy(in, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
    const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
    simtlab_emu_model_time t = MODEL("uniform", (uniform_work<<<blocks, threads>>>(in, out, n, iters)));
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_last(&f), 0);
    cudaFree(in), cudaFree(out);
    return sampled_figures{f.blocks, f.inst_executed, f.gld_requests, f.gld_sectors, f.gst_sectors,
                           t.total_us, t.issue_us, t.dram_us, t.sample_scale};
}

Test(model_sampling, a_sample_of_a_uniform_kernel_counts_as_the_whole_grid)
{
    test_seed("sampling");
    const unsigned threads = static_cast<unsigned>(32 * draw(2, 8));
    /* A partial last block, and n a multiple of 8 floats: the kernel's later
     * rows (in[i + k n]) then start on a 32-byte sector, so no two blocks
     * share a sector, which a sample could not see (emu/docs/model.md,
     * "Sampling": blocks sharing data). */
    const size_t n = threads * draw(1500, 3000) + 8 * draw(1, threads / 8 - 1);
    const int iters = static_cast<int>(draw(3, 8));
    const unsigned long long sample = draw(40, 80);
    std::fprintf(stderr, "  n %zu, %u threads per block, %d loads each, %llu blocks sampled\n", n, threads, iters,
                 sample);
    /* The sampled run in a child process: SIMTLAB_EMU_SAMPLE_BLOCKS is read
     * once per process, before this process's first launch. */
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    const pid_t child = fork();
    cr_assert_neq(child, -1);
    if (child == 0) {
        close(fds[0]);
        char text[32];
        std::snprintf(text, sizeof text, "%llu", sample);
        setenv("SIMTLAB_EMU_SAMPLE_BLOCKS", text, 1);
        sampled_figures s = run_uniform(n, threads, iters);
        const ssize_t wrote = write(fds[1], &s, sizeof s);
        _exit(wrote == (ssize_t)sizeof s ? 0 : 1);
    }
    close(fds[1]);
    sampled_figures s{};
    const ssize_t got = read(fds[0], &s, sizeof s);
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0 && got == (ssize_t)sizeof s, "the sampled run failed");
    const sampled_figures full = run_uniform(n, threads, iters);
    const unsigned long long blocks = (n + threads - 1) / threads;
    cr_assert_eq(full.scale, 1.0);
    cr_assert(std::fabs(s.scale - static_cast<double>(blocks) / static_cast<double>(sample)) < 1e-9,
              "scale %.4f: %llu blocks over %llu run", s.scale, blocks, sample);
    cr_assert_eq(s.blocks, blocks, "the blocks scale to the grid");
    auto near = [](double a, double b, double tol) { return std::fabs(a - b) <= tol * std::fabs(b); };
    const struct {
        const char *name;
        double sampled, whole;
    } pairs[] = {{"inst_executed", (double)s.inst, (double)full.inst},
                 {"gld_requests", (double)s.gld_requests, (double)full.gld_requests},
                 {"gld_sectors", (double)s.gld_sectors, (double)full.gld_sectors},
                 {"gst_sectors", (double)s.gst_sectors, (double)full.gst_sectors},
                 {"issue_us", s.issue_us, full.issue_us},
                 {"dram_us", s.dram_us, full.dram_us},
                 {"total_us", s.total_us, full.total_us}};
    for (const auto &p : pairs) {
        std::fprintf(stderr, "  %-14s sampled %.6g, whole grid %.6g\n", p.name, p.sampled, p.whole);
        cr_assert(near(p.sampled, p.whole, 0.03), "%s: sampled %.6g against %.6g", p.name, p.sampled, p.whole);
    }
}
