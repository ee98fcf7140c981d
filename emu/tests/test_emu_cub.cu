/* The emulator's own CUB (emu/docs/libraries.md, "CUB"): warp and block reductions
 * and scans, block loads and stores, and the device-wide algorithms.
 *
 * Random inputs (seed printed; SIMTLAB_TEST_SEED repeats a run), odd block
 * sizes (33, 96, 1024) and partial warps, prime sizes with 0 and 1, outputs
 * poisoned before each run, every result against a reference computed on
 * the host in int64 or double. A non-commutative operator (composition of
 * affine maps modulo a prime) checks that every reduction and scan keeps
 * the items' order. */
#include <criterion/criterion.h>

#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "slcc_program.hpp"
#include "test_helpers.hpp"

static unsigned test_seed(void) { return announced_seed("test_emu_cub"); }

/* An affine map x -> a*x + b modulo a prime; composing them is associative
 * and not commutative, so a result in the wrong order shows. */
static const unsigned long long kPrime = 1000003ull;
struct Affine {
    unsigned long long a, b;
};
struct Compose { /* apply l, then r */
    __host__ __device__ Affine operator()(const Affine &l, const Affine &r) const
    {
        return Affine{l.a * r.a % kPrime, (r.a * l.b + r.b) % kPrime};
    }
};
static bool same(const Affine &x, const Affine &y) { return x.a == y.a && x.b == y.b; }
static Affine random_affine(std::mt19937 &rng)
{
    return Affine{1 + rng() % (kPrime - 1), rng() % kPrime};
}

template <class T>
static T *to_device(const std::vector<T> &h)
{
    T *d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, h.size()) * sizeof(T)));
    if (!h.empty())
        CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T>
static T *poisoned(size_t n)
{
    T *d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, n) * sizeof(T)));
    CHECK_CUDA(cudaMemset(d, 0xA5, std::max<size_t>(1, n) * sizeof(T)));
    return d;
}
template <class T>
static std::vector<T> to_host(const T *d, size_t n)
{
    std::vector<T> h(n);
    if (n)
        CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

/* ---- BlockReduce ------------------------------------------------------ */
/* Per block: [0] Sum of all, [1] Sum of the first num_valid, [2] Max,
 * [3] Sum of 3 items per thread, [4] Reduce(Sum) with num_valid. */
template <int BLOCK>
__global__ void block_reduce_kernel(const int *in, long long *out, int num_valid)
{
    typedef cub::BlockReduce<long long, BLOCK> BR;
    __shared__ typename BR::TempStorage temp;
    const int t = threadIdx.x;
    const int *mine = in + blockIdx.x * BLOCK * 3;
    long long x = mine[t];
    long long r = BR(temp).Sum(x);
    if (t == 0)
        out[blockIdx.x * 5 + 0] = r;
    __syncthreads();
    r = BR(temp).Sum(x, num_valid);
    if (t == 0)
        out[blockIdx.x * 5 + 1] = r;
    __syncthreads();
    r = BR(temp).Reduce(x, cub::Max());
    if (t == 0)
        out[blockIdx.x * 5 + 2] = r;
    __syncthreads();
    long long items[3] = {mine[t * 3], mine[t * 3 + 1], mine[t * 3 + 2]};
    r = BR(temp).Sum(items);
    if (t == 0)
        out[blockIdx.x * 5 + 3] = r;
    __syncthreads();
    r = BR(temp).Reduce(x, cub::Sum(), num_valid);
    if (t == 0)
        out[blockIdx.x * 5 + 4] = r;
}

template <int BLOCK>
static void check_block_reduce(std::mt19937 &rng, int num_valid)
{
    const int blocks = 3;
    std::vector<int> h(blocks * BLOCK * 3);
    for (int &v : h)
        v = (int)(rng() % 2000001) - 1000000;
    int *d_in = to_device(h);
    long long *d_out = poisoned<long long>(blocks * 5);
    block_reduce_kernel<BLOCK><<<blocks, BLOCK>>>(d_in, d_out, num_valid);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<long long> out = to_host(d_out, blocks * 5);
    for (int b = 0; b < blocks; ++b) {
        const int *m = h.data() + b * BLOCK * 3;
        long long all = 0, valid = 0, mx = m[0], three = 0;
        for (int t = 0; t < BLOCK; ++t) {
            all += m[t];
            if (t < num_valid)
                valid += m[t];
            mx = std::max<long long>(mx, m[t]);
        }
        for (int i = 0; i < BLOCK * 3; ++i)
            three += m[i];
        cr_assert_eq(out[b * 5 + 0], all, "block %d of %d: Sum %lld, expected %lld", b, BLOCK, out[b * 5], all);
        cr_assert_eq(out[b * 5 + 1], valid, "block %d of %d: Sum(x, %d) %lld, expected %lld", b, BLOCK, num_valid,
                     out[b * 5 + 1], valid);
        cr_assert_eq(out[b * 5 + 2], mx, "block %d of %d: Max", b, BLOCK);
        cr_assert_eq(out[b * 5 + 3], three, "block %d of %d: Sum(items[3])", b, BLOCK);
        cr_assert_eq(out[b * 5 + 4], valid, "block %d of %d: Reduce(x, Sum, %d)", b, BLOCK, num_valid);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}

Test(cub_block, reduce_matches_int64_reference_on_odd_blocks)
{
    std::mt19937 rng(test_seed());
    check_block_reduce<96>(rng, 33);
    check_block_reduce<96>(rng, 96);
    check_block_reduce<33>(rng, 1);
    check_block_reduce<1024>(rng, 1000);
    check_block_reduce<1>(rng, 1);
}

/* Floats: the sum is close to the double reference (a tree's rounding). */
__global__ void block_reduce_float_kernel(const float *in, float *out)
{
    typedef cub::BlockReduce<float, 256> BR;
    __shared__ typename BR::TempStorage temp;
    float s = BR(temp).Sum(in[blockIdx.x * 256 + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

Test(cub_block, reduce_float_close_to_double_reference)
{
    std::mt19937 rng(test_seed());
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const int blocks = 7;
    std::vector<float> h(blocks * 256);
    for (float &v : h)
        v = u(rng);
    float *d_in = to_device(h);
    float *d_out = poisoned<float>(blocks);
    block_reduce_float_kernel<<<blocks, 256>>>(d_in, d_out);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<float> out = to_host(d_out, blocks);
    for (int b = 0; b < blocks; ++b) {
        double ref = 0, mag = 0;
        for (int t = 0; t < 256; ++t) {
            ref += h[b * 256 + t];
            mag += std::fabs(h[b * 256 + t]);
        }
        cr_assert(std::isfinite(out[b]) && std::fabs(out[b] - ref) <= 1e-6 * mag + 1e-6,
                  "block %d: %.9g, expected %.9g", b, out[b], ref);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}

/* Order: BlockReduce, BlockScan and the warp primitives with Compose, in a
 * 2D block of 16x6 = 96 threads. */
__global__ void ordered_kernel(const Affine *in, Affine *reduce_out, Affine *scan_out, Affine *warp_out,
                               Affine *wscan_out)
{
    typedef cub::BlockReduce<Affine, 16, cub::BLOCK_REDUCE_RAKING, 6> BR;
    typedef cub::BlockScan<Affine, 16, cub::BLOCK_SCAN_WARP_SCANS, 6> BS;
    typedef cub::WarpReduce<Affine, 8> WR;
    typedef cub::WarpScan<Affine> WS;
    __shared__ typename BR::TempStorage rtemp;
    __shared__ typename BS::TempStorage stemp;
    __shared__ typename WR::TempStorage wtemp[12];
    __shared__ typename WS::TempStorage wstemp[3];
    const int t = threadIdx.y * 16 + threadIdx.x;
    const Affine x = in[t];
    Affine r = BR(rtemp).Reduce(x, Compose());
    if (t == 0)
        reduce_out[0] = r;
    Affine s, agg;
    BS(stemp).InclusiveScan(x, s, Compose(), agg);
    scan_out[t] = s;
    if (t == 0)
        scan_out[96] = agg;
    Affine w = WR(wtemp[t / 8]).Reduce(x, Compose());
    if (t % 8 == 0)
        warp_out[t / 8] = w;
    Affine ws;
    WS(wstemp[t / 32]).InclusiveScan(x, ws, Compose());
    wscan_out[t] = ws;
}

Test(cub_block, reductions_and_scans_keep_the_order_of_a_non_commutative_op)
{
    std::mt19937 rng(test_seed());
    std::vector<Affine> h(96);
    for (Affine &a : h)
        a = random_affine(rng);
    Affine *d_in = to_device(h);
    Affine *d_r = poisoned<Affine>(1), *d_s = poisoned<Affine>(97), *d_w = poisoned<Affine>(12),
           *d_ws = poisoned<Affine>(96);
    ordered_kernel<<<1, dim3(16, 6)>>>(d_in, d_r, d_s, d_w, d_ws);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<Affine> r = to_host(d_r, 1), s = to_host(d_s, 97), w = to_host(d_w, 12), ws = to_host(d_ws, 96);
    Compose op;
    Affine acc = h[0];
    cr_assert(same(s[0], h[0]), "scan[0]");
    for (int i = 1; i < 96; ++i) {
        acc = op(acc, h[i]);
        cr_assert(same(s[i], acc), "BlockScan::InclusiveScan[%d] out of order", i);
    }
    cr_assert(same(r[0], acc), "BlockReduce::Reduce out of order");
    cr_assert(same(s[96], acc), "BlockScan block_aggregate");
    for (int g = 0; g < 12; ++g) {
        Affine e = h[g * 8];
        for (int i = 1; i < 8; ++i)
            e = op(e, h[g * 8 + i]);
        cr_assert(same(w[g], e), "WarpReduce<8> group %d out of order", g);
    }
    for (int wp = 0; wp < 3; ++wp) {
        Affine e = h[wp * 32];
        for (int i = 0; i < 32; ++i) {
            if (i)
                e = op(e, h[wp * 32 + i]);
            cr_assert(same(ws[wp * 32 + i], e), "WarpScan::InclusiveScan warp %d lane %d", wp, i);
        }
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_r));
    CHECK_CUDA(cudaFree(d_s));
    CHECK_CUDA(cudaFree(d_w));
    CHECK_CUDA(cudaFree(d_ws));
}

/* ---- BlockScan -------------------------------------------------------- */
/* A running prefix carried across tiles by a callback, as CUB's examples
 * scan a long array with one block. */
struct RunningPrefix {
    long long total;
    __device__ long long operator()(long long block_aggregate)
    {
        long long old = total;
        total += block_aggregate;
        return old;
    }
};

template <int BLOCK>
__global__ void block_scan_kernel(const int *in, long long *excl, long long *incl, long long *aggs,
                                  long long *excl3, long long *tiled, int n_tiled)
{
    typedef cub::BlockScan<long long, BLOCK> BS;
    __shared__ typename BS::TempStorage temp;
    const int t = threadIdx.x;
    long long agg;
    BS(temp).ExclusiveSum((long long)in[t], excl[t], agg);
    if (t == 0)
        aggs[0] = agg;
    __syncthreads();
    BS(temp).InclusiveSum((long long)in[t], incl[t], agg);
    if (t == 0)
        aggs[1] = agg;
    __syncthreads();
    long long items[3] = {in[3 * t], in[3 * t + 1], in[3 * t + 2]}, out[3];
    BS(temp).ExclusiveSum(items, out, agg);
    for (int i = 0; i < 3; ++i)
        excl3[3 * t + i] = out[i];
    if (t == 0)
        aggs[2] = agg;
    __syncthreads();
    RunningPrefix prefix{100};
    for (int base = 0; base < n_tiled; base += BLOCK) {
        long long x = base + t < n_tiled ? in[base + t] : 0, y;
        BS(temp).InclusiveSum(x, y, prefix);
        __syncthreads();
        if (base + t < n_tiled)
            tiled[base + t] = y;
    }
}

template <int BLOCK>
static void check_block_scan(std::mt19937 &rng, int n_tiled)
{
    std::vector<int> h(std::max(BLOCK * 3, n_tiled));
    for (int &v : h)
        v = (int)(rng() % 2001) - 1000;
    int *d_in = to_device(h);
    long long *d_excl = poisoned<long long>(BLOCK), *d_incl = poisoned<long long>(BLOCK),
              *d_aggs = poisoned<long long>(3), *d_excl3 = poisoned<long long>(3 * BLOCK),
              *d_tiled = poisoned<long long>(n_tiled);
    block_scan_kernel<BLOCK><<<1, BLOCK>>>(d_in, d_excl, d_incl, d_aggs, d_excl3, d_tiled, n_tiled);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<long long> excl = to_host(d_excl, BLOCK), incl = to_host(d_incl, BLOCK), aggs = to_host(d_aggs, 3),
                           excl3 = to_host(d_excl3, 3 * BLOCK), tiled = to_host(d_tiled, n_tiled);
    long long run = 0;
    for (int t = 0; t < BLOCK; ++t) {
        cr_assert_eq(excl[t], run, "%d threads: ExclusiveSum[%d] %lld, expected %lld", BLOCK, t, excl[t], run);
        run += h[t];
        cr_assert_eq(incl[t], run, "%d threads: InclusiveSum[%d]", BLOCK, t);
    }
    cr_assert_eq(aggs[0], run, "ExclusiveSum aggregate");
    cr_assert_eq(aggs[1], run, "InclusiveSum aggregate");
    run = 0;
    for (int i = 0; i < 3 * BLOCK; ++i) {
        cr_assert_eq(excl3[i], run, "%d threads: ExclusiveSum(items[3])[%d]", BLOCK, i);
        run += h[i];
    }
    cr_assert_eq(aggs[2], run, "ExclusiveSum(items) aggregate");
    run = 100;
    for (int i = 0; i < n_tiled; ++i) {
        run += h[i];
        cr_assert_eq(tiled[i], run, "%d threads, prefix callback: InclusiveSum[%d] %lld, expected %lld", BLOCK, i,
                     tiled[i], run);
    }
    CHECK_CUDA(cudaFree(d_in));
    for (long long *p : {d_excl, d_incl, d_aggs, d_excl3, d_tiled})
        CHECK_CUDA(cudaFree(p));
}

Test(cub_block, scans_match_int64_reference)
{
    std::mt19937 rng(test_seed());
    check_block_scan<96>(rng, 1009);
    check_block_scan<33>(rng, 97);
    check_block_scan<1024>(rng, 4099);
}

/* ExclusiveScan with an initial value and Max, in a block of 96. */
__global__ void block_exclusive_max_kernel(const int *in, int *out)
{
    typedef cub::BlockScan<int, 96> BS;
    __shared__ typename BS::TempStorage temp;
    BS(temp).ExclusiveScan(in[threadIdx.x], out[threadIdx.x], -7, cub::Max());
}

Test(cub_block, exclusive_scan_with_initial_value)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(96);
    for (int &v : h)
        v = (int)(rng() % 1000) - 500;
    int *d_in = to_device(h), *d_out = poisoned<int>(96);
    block_exclusive_max_kernel<<<1, 96>>>(d_in, d_out);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, 96);
    int run = -7;
    for (int t = 0; t < 96; ++t) {
        cr_assert_eq(out[t], run, "ExclusiveScan(Max, -7)[%d] %d, expected %d", t, out[t], run);
        run = std::max(run, h[t]);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}

/* ---- WarpReduce / WarpScan -------------------------------------------- */
/* A block of 48 threads: warp 0 full, warp 1 of 16 lanes. */
__global__ void warp_kernel(const int *in, int *sum, int *sum_valid, int *sum16, int *incl, int *excl, int *aggs)
{
    typedef cub::WarpReduce<int> WR;
    typedef cub::WarpReduce<int, 16> WR16;
    typedef cub::WarpScan<int> WS;
    __shared__ typename WR::TempStorage rt[2];
    __shared__ typename WR16::TempStorage rt16[3];
    __shared__ typename WS::TempStorage st[2];
    const int t = threadIdx.x, w = t / 32;
    const int x = in[t];
    int r = WR(rt[w]).Sum(x);
    if (t % 32 == 0)
        sum[w] = r;
    r = WR(rt[w]).Sum(x, 7);
    if (t % 32 == 0)
        sum_valid[w] = r;
    r = WR16(rt16[t / 16]).Sum(x);
    if (t % 16 == 0)
        sum16[t / 16] = r;
    int agg;
    WS(st[w]).InclusiveSum(x, incl[t], agg);
    if (t % 32 == 0)
        aggs[w] = agg;
    WS(st[w]).ExclusiveSum(x, excl[t]);
}

Test(cub_warp, reduce_and_scan_with_a_partial_warp)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(48);
    for (int &v : h)
        v = (int)(rng() % 20001) - 10000;
    int *d_in = to_device(h);
    int *d_sum = poisoned<int>(2), *d_sv = poisoned<int>(2), *d_s16 = poisoned<int>(3), *d_incl = poisoned<int>(48),
        *d_excl = poisoned<int>(48), *d_aggs = poisoned<int>(2);
    warp_kernel<<<1, 48>>>(d_in, d_sum, d_sv, d_s16, d_incl, d_excl, d_aggs);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> sum = to_host(d_sum, 2), sv = to_host(d_sv, 2), s16 = to_host(d_s16, 3),
                     incl = to_host(d_incl, 48), excl = to_host(d_excl, 48), aggs = to_host(d_aggs, 2);
    for (int w = 0; w < 2; ++w) {
        const int lanes = w == 0 ? 32 : 16;
        long long all = 0, first7 = 0, run = 0;
        for (int l = 0; l < lanes; ++l) {
            all += h[w * 32 + l];
            if (l < 7)
                first7 += h[w * 32 + l];
            cr_assert_eq(excl[w * 32 + l], run, "ExclusiveSum warp %d lane %d", w, l);
            run += h[w * 32 + l];
            cr_assert_eq(incl[w * 32 + l], run, "InclusiveSum warp %d lane %d", w, l);
        }
        cr_assert_eq(sum[w], all, "WarpReduce::Sum warp %d: %d, expected %lld", w, sum[w], all);
        cr_assert_eq(sv[w], first7, "WarpReduce::Sum(x, 7) warp %d", w);
        cr_assert_eq(aggs[w], all, "WarpScan aggregate warp %d", w);
    }
    for (int g = 0; g < 3; ++g) {
        long long e = 0;
        for (int l = 0; l < 16; ++l)
            e += h[g * 16 + l];
        cr_assert_eq(s16[g], e, "WarpReduce<int,16> group %d", g);
    }
    CHECK_CUDA(cudaFree(d_in));
    for (int *p : {d_sum, d_sv, d_s16, d_incl, d_excl, d_aggs})
        CHECK_CUDA(cudaFree(p));
}

/* ---- BlockLoad / BlockStore ------------------------------------------- */
template <cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA>
__global__ void load_store_kernel(const int *in, int *out, int valid)
{
    typedef cub::BlockLoad<int, 32, 4, LA> BL;
    typedef cub::BlockStore<int, 32, 4, SA> BSt;
    __shared__ typename BL::TempStorage lt;
    __shared__ typename BSt::TempStorage st;
    int items[4];
    BL(lt).Load(in, items, valid, -1);
    for (int i = 0; i < 4; ++i)
        items[i] *= 2;
    __syncthreads();
    BSt(st).Store(out, items, valid);
}

Test(cub_block, load_store_with_valid_items_and_default)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(128);
    for (int &v : h)
        v = (int)(rng() % 1000);
    int *d_in = to_device(h);
    int *d_out = poisoned<int>(128);
    load_store_kernel<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT><<<1, 32>>>(d_in, d_out, 101);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, 128);
    for (int i = 0; i < 128; ++i) {
        if (i < 101)
            cr_assert_eq(out[i], 2 * h[i], "direct [%d]", i);
        else
            cr_assert_eq((unsigned)out[i], 0xA5A5A5A5u, "direct [%d] past valid_items was written", i);
    }
    CHECK_CUDA(cudaMemset(d_out, 0xA5, 128 * sizeof(int)));
    load_store_kernel<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED><<<1, 32>>>(d_in, d_out, 77);
    CHECK_CUDA(cudaDeviceSynchronize());
    out = to_host(d_out, 128);
    for (int i = 0; i < 128; ++i) {
        if (i < 77)
            cr_assert_eq(out[i], 2 * h[i], "striped [%d]", i);
        else
            cr_assert_eq((unsigned)out[i], 0xA5A5A5A5u, "striped [%d] past valid_items was written", i);
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}

/* A BlockReduce declared for 256 threads in a block of 128 fails the
 * launch, naming the call. */
__global__ void wrong_shape_kernel(const float *in, float *out)
{
    typedef cub::BlockReduce<float, 256> BR;
    __shared__ typename BR::TempStorage temp;
    float s = BR(temp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0)
        *out = s;
}

Test(cub_block, wrong_block_shape_fails_the_launch_with_a_message)
{
    float *d_in = poisoned<float>(256), *d_out = poisoned<float>(1);
    wrong_shape_kernel<<<1, 128>>>(d_in, d_out);
    cudaError_t e = cudaDeviceSynchronize();
    cr_assert_neq(e, cudaSuccess, "a BlockReduce<float,256> in a block of 128 threads ran");
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(diag, "cub::BlockReduce::Sum") && std::strstr(diag, "256x1x1"), "diagnostic: %s", diag);
    (void)cudaFree(d_in); /* the launch's error is sticky: these may fail */
    (void)cudaFree(d_out);
}

/* ---- device-wide ------------------------------------------------------ */
static const int kSizes[] = {0, 1, 2, 31, 97, 1009, 65537};

/* Runs a CUB call twice, as programs do: size query, then the work. */
#define TWO_PHASE(call_with_temp)                                                                                 \
    do {                                                                                                          \
        void *d_temp_storage = nullptr;                                                                           \
        size_t temp_storage_bytes = 0;                                                                            \
        CHECK_CUDA(call_with_temp);                                                                               \
        cr_assert_gt(temp_storage_bytes, 0u, "temp_storage_bytes is 0");                                          \
        CHECK_CUDA(cudaMalloc(&d_temp_storage, temp_storage_bytes));                                              \
        CHECK_CUDA(call_with_temp);                                                                               \
        CHECK_CUDA(cudaFree(d_temp_storage));                                                                     \
    } while (0)

Test(cub_device, reduce_sum_max_min_argmax_on_prime_sizes)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<int> h(n);
        for (int &v : h)
            v = (int)(rng() % 2000001) - 1000000;
        if (n > 5)
            h[n / 2] = h[n / 3] = 1000001; /* a tie: ArgMax takes the first */
        int *d_in = to_device(h);
        long long *d_sum = poisoned<long long>(1);
        int *d_max = poisoned<int>(1), *d_min = poisoned<int>(1);
        cub::KeyValuePair<int, int> *d_amax = poisoned<cub::KeyValuePair<int, int>>(1),
                                    *d_amin = poisoned<cub::KeyValuePair<int, int>>(1);
        TWO_PHASE(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_sum, n));
        TWO_PHASE(cub::DeviceReduce::Max(d_temp_storage, temp_storage_bytes, d_in, d_max, n));
        TWO_PHASE(cub::DeviceReduce::Min(d_temp_storage, temp_storage_bytes, d_in, d_min, n));
        TWO_PHASE(cub::DeviceReduce::ArgMax(d_temp_storage, temp_storage_bytes, d_in, d_amax, n));
        TWO_PHASE(cub::DeviceReduce::ArgMin(d_temp_storage, temp_storage_bytes, d_in, d_amin, n));
        long long sum = 0;
        int mx = std::numeric_limits<int>::lowest(), mn = std::numeric_limits<int>::max(), imax = 1, imin = 1;
        for (int i = 0; i < n; ++i) {
            sum += h[i];
            if (i == 0 || h[i] > mx)
                mx = h[i], imax = i;
            if (i == 0 || h[i] < mn)
                mn = h[i], imin = i;
        }
        cr_assert_eq(to_host(d_sum, 1)[0], sum, "n=%d: Sum", n);
        cr_assert_eq(to_host(d_max, 1)[0], mx, "n=%d: Max", n);
        cr_assert_eq(to_host(d_min, 1)[0], mn, "n=%d: Min", n);
        cub::KeyValuePair<int, int> am = to_host(d_amax, 1)[0], an = to_host(d_amin, 1)[0];
        cr_assert(am.key == imax && am.value == mx, "n=%d: ArgMax {%d, %d}, expected {%d, %d}", n, am.key, am.value,
                  imax, mx);
        cr_assert(an.key == imin && an.value == mn, "n=%d: ArgMin {%d, %d}, expected {%d, %d}", n, an.key, an.value,
                  imin, mn);
        /* CCCL's form with separate outputs and a 64-bit count */
        int *d_v = poisoned<int>(1);
        long long *d_i = poisoned<long long>(1);
        TWO_PHASE(cub::DeviceReduce::ArgMax(d_temp_storage, temp_storage_bytes, d_in, d_v, d_i, (long long)n));
        cr_assert(to_host(d_v, 1)[0] == mx && to_host(d_i, 1)[0] == imax, "n=%d: ArgMax(value, index)", n);
        TWO_PHASE(cub::DeviceReduce::ArgMin(d_temp_storage, temp_storage_bytes, d_in, d_v, d_i, (long long)n));
        cr_assert(to_host(d_v, 1)[0] == mn && to_host(d_i, 1)[0] == imin, "n=%d: ArgMin(value, index)", n);
        CHECK_CUDA(cudaFree(d_v));
        CHECK_CUDA(cudaFree(d_i));
        CHECK_CUDA(cudaFree(d_in));
        CHECK_CUDA(cudaFree(d_sum));
        CHECK_CUDA(cudaFree(d_max));
        CHECK_CUDA(cudaFree(d_min));
        CHECK_CUDA(cudaFree(d_amax));
        CHECK_CUDA(cudaFree(d_amin));
    }
}

Test(cub_device, reduce_with_an_ordered_op_and_float_sum)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<Affine> h(n);
        for (Affine &a : h)
            a = random_affine(rng);
        Affine *d_in = to_device(h), *d_out = poisoned<Affine>(1);
        const Affine init{3, 5};
        TWO_PHASE(cub::DeviceReduce::Reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, n, Compose(), init));
        Affine e = init;
        for (int i = 0; i < n; ++i)
            e = Compose()(e, h[i]);
        cr_assert(same(to_host(d_out, 1)[0], e), "n=%d: Reduce(Compose) out of order", n);
        CHECK_CUDA(cudaFree(d_in));
        CHECK_CUDA(cudaFree(d_out));

        std::vector<float> f(n);
        std::uniform_real_distribution<float> u(-1, 1);
        double ref = 0, mag = 0;
        for (float &v : f)
            v = u(rng), ref += v, mag += std::fabs(v);
        float *d_f = to_device(f), *d_fs = poisoned<float>(1);
        TWO_PHASE(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, d_f, d_fs, n));
        float got = to_host(d_fs, 1)[0];
        cr_assert(std::isfinite(got) && std::fabs(got - ref) <= 1e-6 * mag + 1e-6, "n=%d: float Sum %.9g vs %.9g", n,
                  got, ref);
        CHECK_CUDA(cudaFree(d_f));
        CHECK_CUDA(cudaFree(d_fs));
    }
}

Test(cub_device, scans_including_in_place_and_custom_op)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<int> h(n);
        for (int &v : h)
            v = (int)(rng() % 2001) - 1000;
        int *d_in = to_device(h), *d_ex = poisoned<int>(n), *d_inc = poisoned<int>(n), *d_max = poisoned<int>(n),
            *d_data = to_device(h);
        TWO_PHASE(cub::DeviceScan::ExclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_ex, n));
        TWO_PHASE(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, d_in, d_inc, n));
        TWO_PHASE(cub::DeviceScan::ExclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_max, cub::Max(), -2000,
                                                 n));
        TWO_PHASE(cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, d_data, d_data, n));
        std::vector<int> ex = to_host(d_ex, n), inc = to_host(d_inc, n), mx = to_host(d_max, n),
                         data = to_host(d_data, n);
        long long run = 0;
        int m = -2000;
        for (int i = 0; i < n; ++i) {
            cr_assert_eq(ex[i], run, "n=%d: ExclusiveSum[%d]", n, i);
            cr_assert_eq(mx[i], m, "n=%d: ExclusiveScan(Max)[%d]", n, i);
            run += h[i];
            m = std::max(m, h[i]);
            cr_assert_eq(inc[i], run, "n=%d: InclusiveSum[%d]", n, i);
            cr_assert_eq(data[i], run, "n=%d: in-place InclusiveSum[%d]", n, i);
        }
        std::vector<Affine> a(n);
        for (Affine &x : a)
            x = random_affine(rng);
        Affine *d_a = to_device(a), *d_as = poisoned<Affine>(n);
        TWO_PHASE(cub::DeviceScan::InclusiveScan(d_temp_storage, temp_storage_bytes, d_a, d_as, Compose(), n));
        std::vector<Affine> as = to_host(d_as, n);
        Affine e = n ? a[0] : Affine{1, 0};
        for (int i = 0; i < n; ++i) {
            if (i)
                e = Compose()(e, a[i]);
            cr_assert(same(as[i], e), "n=%d: InclusiveScan(Compose)[%d]", n, i);
        }
        for (int *p : {d_in, d_ex, d_inc, d_max, d_data})
            CHECK_CUDA(cudaFree(p));
        CHECK_CUDA(cudaFree(d_a));
        CHECK_CUDA(cudaFree(d_as));
    }
}

/* Radix sort against std::stable_sort. */
template <class K>
static void check_sort_pairs(std::mt19937 &rng, int n, int begin_bit, int end_bit, bool descending)
{
    std::vector<K> keys(n);
    std::vector<int> vals(n);
    for (int i = 0; i < n; ++i) {
        unsigned long long r = ((unsigned long long)rng() << 32) | rng();
        if (std::is_floating_point<K>::value)
            keys[i] = (K)((double)(long long)(r % 2001) - 1000) / 8;
        else
            keys[i] = (K)(r % 5 == 0 ? r % 7 : r); /* repeats, so stability shows */
        vals[i] = i;
    }
    const K *d_kin = to_device(keys);
    int *d_vin = to_device(vals);
    K *d_kout = poisoned<K>(n);
    int *d_vout = poisoned<int>(n);
    if (descending)
        TWO_PHASE(cub::DeviceRadixSort::SortPairsDescending(d_temp_storage, temp_storage_bytes, d_kin, d_kout,
                                                            d_vin, d_vout, n, begin_bit, end_bit));
    else
        TWO_PHASE(cub::DeviceRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, d_kin, d_kout, d_vin, d_vout,
                                                  n, begin_bit, end_bit));
    /* the reference: the values' order over the whole key, or for a part
     * of an unsigned key (or an empty range) the order of those bits */
    const int width = end_bit - begin_bit;
    const bool whole = width == (int)(sizeof(K) * 8);
    auto field = [&](K k) {
        unsigned long long b = (unsigned long long)k >> begin_bit;
        return width >= 64 ? b : b & ((1ull << width) - 1);
    };
    auto before = [&](int x, int y) {
        const K a = keys[x], b = keys[y];
        if (whole)
            return descending ? b < a : a < b;
        return descending ? field(b) < field(a) : field(a) < field(b);
    };
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), before);
    std::vector<K> ko = to_host(d_kout, n);
    std::vector<int> vo = to_host(d_vout, n);
    for (int i = 0; i < n; ++i) {
        cr_assert_eq(vo[i], order[i], "n=%d bits [%d,%d)%s: value[%d] %d, expected %d", n, begin_bit, end_bit,
                     descending ? " descending" : "", i, vo[i], order[i]);
        cr_assert(std::memcmp(&ko[i], &keys[order[i]], sizeof(K)) == 0, "n=%d: key[%d]", n, i);
    }
    /* the input was only read */
    std::vector<K> kin = to_host(d_kin, n);
    cr_assert(n == 0 || std::memcmp(kin.data(), keys.data(), n * sizeof(K)) == 0, "d_keys_in was modified");
    CHECK_CUDA(cudaFree((void *)d_kin));
    CHECK_CUDA(cudaFree(d_vin));
    CHECK_CUDA(cudaFree(d_kout));
    CHECK_CUDA(cudaFree(d_vout));
}

Test(cub_device, radix_sort_pairs_is_stable_with_bit_ranges)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        check_sort_pairs<unsigned>(rng, n, 0, 32, false);
        check_sort_pairs<int>(rng, n, 0, 32, false);
        check_sort_pairs<int>(rng, n, 0, 32, true);
        check_sort_pairs<unsigned>(rng, n, 3, 17, false); /* odd range: passes of 8 and 6 bits */
        check_sort_pairs<unsigned long long>(rng, n, 0, 64, false);
        check_sort_pairs<float>(rng, n, 0, 32, false);
        check_sort_pairs<double>(rng, n, 0, 64, true);
        check_sort_pairs<unsigned char>(rng, n, 0, 8, false);
        check_sort_pairs<short>(rng, n, 5, 5, false); /* empty range: a stable copy */
    }
}

Test(cub_device, radix_sort_keys_float_order_and_double_buffer)
{
    /* floats by CUB's order: -inf < negatives < -0.0 < +0.0 < positives < +inf */
    const float qnan = std::numeric_limits<float>::quiet_NaN(), neg_nan = -qnan;
    std::vector<float> h = {3.5f, -0.0f, 0.0f, -INFINITY, qnan, 1e-30f, -2.0f, INFINITY, -1e-30f, neg_nan,
                            0.0f, -0.0f, 7.0f};
    const int n = (int)h.size();
    float *d_in = to_device(h), *d_out = poisoned<float>(n);
    TWO_PHASE(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, d_in, d_out, n));
    std::vector<float> out = to_host(d_out, n);
    /* NaNs by their bits: with the sign bit before -inf, without it after +inf */
    const float want[] = {neg_nan, -INFINITY, -2.0f, -1e-30f, -0.0f, -0.0f, 0.0f, 0.0f, 1e-30f, 3.5f, 7.0f,
                          INFINITY, qnan};
    for (int i = 0; i < n; ++i)
        cr_assert(std::memcmp(&out[i], &want[i], 4) == 0, "SortKeys(float)[%d] = %g, expected %g", i, out[i],
                  want[i]);

    std::mt19937 rng(test_seed());
    for (int m : kSizes) {
        for (int end_bit : {32, 12}) {
            std::vector<unsigned> k(m);
            for (unsigned &x : k)
                x = rng();
            unsigned *d_a = to_device(k), *d_b = poisoned<unsigned>(m);
            cub::DoubleBuffer<unsigned> db(d_a, d_b);
            TWO_PHASE(cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes, db, m, 0, end_bit));
            std::vector<unsigned> got = to_host(db.Current(), m), ref = k;
            const unsigned mask = end_bit == 32 ? ~0u : (1u << end_bit) - 1;
            std::stable_sort(ref.begin(), ref.end(), [&](unsigned x, unsigned y) { return (x & mask) < (y & mask); });
            cr_assert(got == ref, "m=%d end_bit=%d: DoubleBuffer SortKeys differs from std::stable_sort", m,
                      end_bit);
            CHECK_CUDA(cudaFree(d_a));
            CHECK_CUDA(cudaFree(d_b));
        }
    }
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}

struct IsOdd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};

Test(cub_device, select_and_segmented_reduce)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<int> h(n);
        std::vector<unsigned char> flags(n);
        for (int i = 0; i < n; ++i)
            h[i] = (int)(rng() % 10), flags[i] = rng() % 3 == 0;
        int *d_in = to_device(h), *d_out = poisoned<int>(n), *d_count = poisoned<int>(1);
        unsigned char *d_flags = to_device(flags);
        TWO_PHASE(cub::DeviceSelect::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_count, n, IsOdd()));
        std::vector<int> ref;
        for (int v : h)
            if (v & 1)
                ref.push_back(v);
        int count = to_host(d_count, 1)[0];
        cr_assert_eq(count, (int)ref.size(), "n=%d: DeviceSelect::If count", n);
        cr_assert(to_host(d_out, count) == ref, "n=%d: DeviceSelect::If items", n);
        TWO_PHASE(
            cub::DeviceSelect::Flagged(d_temp_storage, temp_storage_bytes, d_in, d_flags, d_out, d_count, n));
        ref.clear();
        for (int i = 0; i < n; ++i)
            if (flags[i])
                ref.push_back(h[i]);
        count = to_host(d_count, 1)[0];
        cr_assert_eq(count, (int)ref.size(), "n=%d: DeviceSelect::Flagged count", n);
        cr_assert(to_host(d_out, count) == ref, "n=%d: DeviceSelect::Flagged items", n);

        /* segments of random lengths covering [0, n), some empty */
        std::vector<int> offsets = {0};
        while (offsets.back() < n)
            offsets.push_back(std::min(n, offsets.back() + (int)(rng() % 40)));
        const int segs = (int)offsets.size() - 1;
        int *d_off = to_device(offsets);
        long long *d_seg = poisoned<long long>(segs);
        TWO_PHASE(cub::DeviceSegmentedReduce::Sum(d_temp_storage, temp_storage_bytes, d_in, d_seg, segs, d_off,
                                                  d_off + 1));
        std::vector<long long> seg = to_host(d_seg, segs);
        for (int s = 0; s < segs; ++s) {
            long long e = 0;
            for (int i = offsets[s]; i < offsets[s + 1]; ++i)
                e += h[i];
            cr_assert_eq(seg[s], e, "n=%d: segment %d", n, s);
        }
        for (int *p : {d_in, d_out, d_count, d_off})
            CHECK_CUDA(cudaFree(p));
        CHECK_CUDA(cudaFree(d_flags));
        CHECK_CUDA(cudaFree(d_seg));
    }
}

/* A kernel on a stream fills the input; the reduction on that stream sees
 * it (stream order), and the call is captured into a graph like a kernel. */
__global__ void fill_kernel(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

Test(cub_device, stream_order_and_graph_capture)
{
    const int n = 1001;
    int *d_in = poisoned<int>(n);
    long long *d_sum = poisoned<long long>(1);
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreate(&s));
    void *d_temp = nullptr;
    size_t bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_sum, n, s));
    CHECK_CUDA(cudaMalloc(&d_temp, bytes));
    fill_kernel<<<(n + 127) / 128, 128, 0, s>>>(d_in, n, 5);
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_sum, n, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    const long long want = 5LL * n + (long long)n * (n - 1) / 2;
    cr_assert_eq(to_host(d_sum, 1)[0], want, "Sum after the fill on the same stream");

    cudaGraph_t g;
    cudaGraphExec_t ge;
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    fill_kernel<<<(n + 127) / 128, 128, 0, s>>>(d_in, n, 9);
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_sum, n, s));
    CHECK_CUDA(cudaStreamEndCapture(s, &g));
    cr_assert_eq(to_host(d_sum, 1)[0], want, "the captured Sum ran at capture");
    CHECK_CUDA(cudaGraphInstantiate(&ge, g, 0));
    CHECK_CUDA(cudaGraphLaunch(ge, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    cr_assert_eq(to_host(d_sum, 1)[0], 9LL * n + (long long)n * (n - 1) / 2, "Sum in the graph's launch");
    CHECK_CUDA(cudaGraphExecDestroy(ge));
    CHECK_CUDA(cudaGraphDestroy(g));
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(d_temp));
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_sum));
}

Test(cub_device, bad_arguments_return_invalid_value_naming_them)
{
    int *d_in = poisoned<int>(100), *d_out = poisoned<int>(100);
    void *d_temp = nullptr;
    size_t bytes = 0;
    cr_assert_eq(cub::DeviceReduce::Sum(d_temp, bytes, d_in, d_out, -1), cudaErrorInvalidValue);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "num_items"), "%s", simtlab_emu_last_diagnostic());

    CHECK_CUDA(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, 100));
    CHECK_CUDA(cudaMalloc(&d_temp, bytes));
    size_t small = bytes - 1;
    cr_assert_eq(cub::DeviceRadixSort::SortKeys(d_temp, small, d_in, d_out, 100), cudaErrorInvalidValue);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "temp_storage_bytes"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, 100, 4, 33), cudaErrorInvalidValue);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "end_bit"), "%s", simtlab_emu_last_diagnostic());
    CHECK_CUDA(cudaFree(d_temp));

    /* storage said to be large enough but really smaller */
    CHECK_CUDA(cudaMalloc(&d_temp, 8));
    cr_assert_eq(cub::DeviceRadixSort::SortKeys(d_temp, bytes, d_in, d_out, 100), cudaErrorInvalidValue);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "d_temp_storage"), "%s", simtlab_emu_last_diagnostic());
    CHECK_CUDA(cudaFree(d_temp));
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    /* the reported errors are not sticky: the device still works */
    CHECK_CUDA(cudaDeviceSynchronize());
}

/* A bad input pointer faults in the algorithm's kernel, which the error names. */
Test(cub_device, bad_pointer_is_an_illegal_address_naming_the_algorithm)
{
    long long *d_sum = poisoned<long long>(1);
    void *d_temp = nullptr;
    size_t bytes = 0;
    const int *bogus = (const int *)(uintptr_t)0x1000;
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, bogus, d_sum, 10));
    CHECK_CUDA(cudaMalloc(&d_temp, bytes));
    cudaError_t e = cub::DeviceReduce::Sum(d_temp, bytes, bogus, d_sum, 10);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    cr_assert_eq(e, cudaErrorIllegalAddress, "a Sum over address 0x1000 gave %s", cudaGetErrorString(e));
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "cub::DeviceReduce::Sum"), "diagnostic: %s",
              simtlab_emu_last_diagnostic());
}

Test(cub_util, caching_allocator_and_iterators)
{
    cub::CachingDeviceAllocator alloc;
    int *d = nullptr;
    CHECK_CUDA(alloc.DeviceAllocate((void **)&d, 97 * sizeof(int)));
    cub::CountingInputIterator<int> count(10);
    long long *d_sum = poisoned<long long>(1);
    void *d_temp = nullptr;
    size_t bytes = 0;
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, count, d_sum, 97));
    CHECK_CUDA(alloc.DeviceAllocate(&d_temp, bytes));
    CHECK_CUDA(cub::DeviceReduce::Sum(d_temp, bytes, count, d_sum, 97));
    cr_assert_eq(to_host(d_sum, 1)[0], 97LL * 10 + 97LL * 96 / 2, "Sum over CountingInputIterator");
    CHECK_CUDA(alloc.DeviceFree(d_temp));
    CHECK_CUDA(alloc.DeviceFree(d));
    cr_assert_eq(alloc.DeviceFree(d), cudaErrorInvalidValue, "a second DeviceFree of one pointer");
    CHECK_CUDA(cudaFree(d_sum));
}

#ifdef CUB_PROGRAM
/* slcc builds a program written as students meet CUB, which checks itself. */
Test(cub_util, slcc_builds_a_student_style_cub_program, .timeout = 280)
{
    check_slcc_program(SLCC_PATH, CUB_PROGRAM, "cub_program", test_seed());
}
#endif

/* ---- BlockExchange and BlockRadixSort --------------------------------- */
/* 96 threads x 5 items: blocked -> striped -> blocked round trip, and the
 * striped arrangement itself. */
__global__ void exchange_kernel(const int *in, int *striped_out, int *round_trip, int *warp_striped_out)
{
    typedef cub::BlockExchange<int, 96, 5> BE;
    __shared__ typename BE::TempStorage temp;
    const int t = threadIdx.x;
    int items[5], striped[5];
    for (int i = 0; i < 5; ++i)
        items[i] = in[t * 5 + i];
    BE(temp).BlockedToStriped(items, striped);
    for (int i = 0; i < 5; ++i)
        striped_out[t * 5 + i] = striped[i];
    __syncthreads();
    BE(temp).StripedToBlocked(striped);
    for (int i = 0; i < 5; ++i)
        round_trip[t * 5 + i] = striped[i];
    __syncthreads();
    BE(temp).BlockedToWarpStriped(items);
    for (int i = 0; i < 5; ++i)
        warp_striped_out[t * 5 + i] = items[i];
}

Test(cub_block, exchange_between_arrangements)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(480);
    for (int &v : h)
        v = (int)rng();
    int *d_in = to_device(h), *d_s = poisoned<int>(480), *d_r = poisoned<int>(480), *d_w = poisoned<int>(480);
    exchange_kernel<<<1, 96>>>(d_in, d_s, d_r, d_w);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> s = to_host(d_s, 480), r = to_host(d_r, 480), w = to_host(d_w, 480);
    for (int t = 0; t < 96; ++t)
        for (int i = 0; i < 5; ++i) {
            /* striped: thread t's item i is the block's item i*96 + t */
            cr_assert_eq(s[t * 5 + i], h[i * 96 + t], "striped thread %d item %d", t, i);
            cr_assert_eq(r[t * 5 + i], h[t * 5 + i], "round trip thread %d item %d", t, i);
            /* warp-striped: within warp w, lane l's item i is item w*160 + i*32 + l */
            cr_assert_eq(w[t * 5 + i], h[(t / 32) * 160 + i * 32 + t % 32], "warp-striped thread %d item %d", t, i);
        }
    for (int *p : {d_in, d_s, d_r, d_w})
        CHECK_CUDA(cudaFree(p));
}

template <bool STRIPED, bool DESCENDING>
__global__ void block_sort_kernel(const unsigned *keys_in, unsigned *keys_out, int *vals_out, int begin_bit,
                                  int end_bit)
{
    typedef cub::BlockRadixSort<unsigned, 64, 3, int> BRS;
    __shared__ typename BRS::TempStorage temp;
    const int t = threadIdx.x;
    unsigned k[3];
    int v[3];
    for (int i = 0; i < 3; ++i)
        k[i] = keys_in[t * 3 + i], v[i] = t * 3 + i;
    if (STRIPED && DESCENDING)
        BRS(temp).SortDescendingBlockedToStriped(k, v, begin_bit, end_bit);
    else if (STRIPED)
        BRS(temp).SortBlockedToStriped(k, v, begin_bit, end_bit);
    else if (DESCENDING)
        BRS(temp).SortDescending(k, v, begin_bit, end_bit);
    else
        BRS(temp).Sort(k, v, begin_bit, end_bit);
    for (int i = 0; i < 3; ++i) {
        const int r = STRIPED ? i * 64 + t : t * 3 + i; /* the item's rank in the sorted tile */
        keys_out[r] = k[i];
        vals_out[r] = v[i];
    }
}

template <bool STRIPED, bool DESCENDING>
static void check_block_sort(std::mt19937 &rng, int begin_bit, int end_bit)
{
    std::vector<unsigned> keys(192);
    for (unsigned &k : keys)
        k = rng() % 3 == 0 ? rng() % 4 : rng(); /* repeats show stability */
    unsigned *d_k = to_device(keys), *d_ko = poisoned<unsigned>(192);
    int *d_vo = poisoned<int>(192);
    block_sort_kernel<STRIPED, DESCENDING><<<1, 64>>>(d_k, d_ko, d_vo, begin_bit, end_bit);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned> ko = to_host(d_ko, 192);
    std::vector<int> vo = to_host(d_vo, 192);
    const int width = end_bit - begin_bit;
    auto field = [&](unsigned k) { return width == 32 ? k : (k >> begin_bit) & ((1u << width) - 1); };
    std::vector<int> order(192);
    for (int i = 0; i < 192; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return DESCENDING ? field(keys[b]) < field(keys[a]) : field(keys[a]) < field(keys[b]);
    });
    for (int i = 0; i < 192; ++i) {
        cr_assert_eq(vo[i], order[i], "BlockRadixSort%s%s bits [%d,%d): rank %d holds item %d, expected %d",
                     DESCENDING ? " descending" : "", STRIPED ? " to striped" : "", begin_bit, end_bit, i, vo[i],
                     order[i]);
        cr_assert_eq(ko[i], keys[order[i]], "key at rank %d", i);
    }
    CHECK_CUDA(cudaFree(d_k));
    CHECK_CUDA(cudaFree(d_ko));
    CHECK_CUDA(cudaFree(d_vo));
}

Test(cub_block, radix_sort_pairs_blocked_and_striped)
{
    std::mt19937 rng(test_seed());
    check_block_sort<false, false>(rng, 0, 32);
    check_block_sort<true, false>(rng, 0, 32);
    check_block_sort<false, true>(rng, 0, 32);
    check_block_sort<true, true>(rng, 4, 13);
}

/* ---- more device-wide ------------------------------------------------- */
struct IsSmall {
    __host__ __device__ bool operator()(int x) const { return x < 4; }
};

Test(cub_device, partition_run_length_histogram_segmented_sort)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<int> h(n);
        for (int &v : h)
            v = rng() % 4 == 0 ? (int)(rng() % 10) : (n ? h[std::max(0, (int)(&v - h.data()) - 1)] : 0);
        int *d_in = to_device(h), *d_out = poisoned<int>(n), *d_count = poisoned<int>(1);
        TWO_PHASE(cub::DevicePartition::If(d_temp_storage, temp_storage_bytes, d_in, d_out, d_count, n, IsSmall()));
        std::vector<int> sel, rej;
        for (int v : h)
            (v < 4 ? sel : rej).push_back(v);
        std::reverse(rej.begin(), rej.end());
        sel.insert(sel.end(), rej.begin(), rej.end());
        cr_assert_eq(to_host(d_count, 1)[0], n - (int)rej.size(), "n=%d: DevicePartition::If count", n);
        cr_assert(to_host(d_out, n) == sel, "n=%d: DevicePartition::If items (rejected in reverse at the back)", n);

        int *d_unique = poisoned<int>(n), *d_lengths = poisoned<int>(n), *d_runs = poisoned<int>(1);
        TWO_PHASE(cub::DeviceRunLengthEncode::Encode(d_temp_storage, temp_storage_bytes, d_in, d_unique, d_lengths,
                                                     d_runs, n));
        std::vector<int> uniq, lens;
        for (int i = 0; i < n;) {
            int j = i;
            while (j < n && h[j] == h[i])
                ++j;
            uniq.push_back(h[i]);
            lens.push_back(j - i);
            i = j;
        }
        const int runs = to_host(d_runs, 1)[0];
        cr_assert_eq(runs, (int)uniq.size(), "n=%d: Encode runs", n);
        cr_assert(to_host(d_unique, runs) == uniq && to_host(d_lengths, runs) == lens, "n=%d: Encode", n);

        int *d_hist = poisoned<int>(5);
        TWO_PHASE(cub::DeviceHistogram::HistogramEven(d_temp_storage, temp_storage_bytes, d_in, d_hist, 6, 1, 9, n));
        std::vector<int> hist(5, 0);
        for (int v : h)
            if (v >= 1 && v < 9)
                hist[(v - 1) * 5 / 8]++;
        cr_assert(to_host(d_hist, 5) == hist, "n=%d: HistogramEven", n);
        std::vector<float> fs(n);
        for (float &f : fs)
            f = (float)(rng() % 1000) / 100.0f - 1.0f;
        const std::vector<float> levels = {0.0f, 0.5f, 2.0f, 7.25f};
        float *d_fs = to_device(fs), *d_levels = to_device(levels);
        TWO_PHASE(cub::DeviceHistogram::HistogramRange(d_temp_storage, temp_storage_bytes, d_fs, d_hist, 4, d_levels,
                                                       n));
        std::vector<int> rh(3, 0);
        for (float f : fs)
            for (int b = 0; b < 3; ++b)
                if (f >= levels[b] && f < levels[b + 1])
                    rh[b]++;
        cr_assert(to_host(d_hist, 3) == rh, "n=%d: HistogramRange", n);

        /* segments with gaps between them: the gaps keep their poison */
        std::vector<int> begins, ends;
        for (int b = 0; b < n;) {
            const int len = (int)(rng() % 50), gap = (int)(rng() % 3);
            begins.push_back(b);
            ends.push_back(std::min(n, b + len));
            b = std::min(n, b + len) + gap;
        }
        const int segs = (int)begins.size();
        std::vector<unsigned> keys(n);
        std::vector<int> vals(n);
        for (int i = 0; i < n; ++i)
            keys[i] = rng() % 16, vals[i] = i;
        unsigned *d_keys = to_device(keys), *d_kout = poisoned<unsigned>(n);
        int *d_vals = to_device(vals), *d_vout = poisoned<int>(n), *d_b = to_device(begins), *d_e = to_device(ends);
        TWO_PHASE(cub::DeviceSegmentedRadixSort::SortPairs(d_temp_storage, temp_storage_bytes, (const unsigned *)d_keys,
                                                           d_kout, (const int *)d_vals, d_vout, n, segs, d_b, d_e));
        std::vector<int> want(n, (int)0xA5A5A5A5);
        for (int s = 0; s < segs; ++s) {
            std::vector<int> idx;
            for (int i = begins[s]; i < ends[s]; ++i)
                idx.push_back(i);
            std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return keys[a] < keys[b]; });
            for (size_t k = 0; k < idx.size(); ++k)
                want[begins[s] + k] = idx[k];
        }
        cr_assert(to_host(d_vout, n) == want, "n=%d: DeviceSegmentedRadixSort::SortPairs", n);
        for (int *p : {d_in, d_out, d_count, d_unique, d_lengths, d_runs, d_hist, d_vals, d_vout, d_b, d_e})
            CHECK_CUDA(cudaFree(p));
        CHECK_CUDA(cudaFree(d_fs));
        CHECK_CUDA(cudaFree(d_levels));
        CHECK_CUDA(cudaFree(d_keys));
        CHECK_CUDA(cudaFree(d_kout));
    }
}

/* Operators whose operator() is not const (CUB calls a copy of its own). */
struct NonConstMax {
    int calls = 0;
    __device__ int operator()(int a, int b)
    {
        ++calls;
        return a > b ? a : b;
    }
};
struct NonConstEven {
    __device__ bool operator()(int x) { return x % 2 == 0; }
};

Test(cub_device, operators_without_const_call)
{
    std::mt19937 rng(test_seed());
    const int n = 997;
    std::vector<int> h(n);
    for (int &v : h)
        v = (int)(rng() % 100000);
    int *d_in = to_device(h), *d_max = poisoned<int>(1), *d_scan = poisoned<int>(n), *d_sel = poisoned<int>(n),
        *d_count = poisoned<int>(1);
    TWO_PHASE(cub::DeviceReduce::Reduce(d_temp_storage, temp_storage_bytes, d_in, d_max, n, NonConstMax(), -1));
    TWO_PHASE(cub::DeviceScan::InclusiveScan(d_temp_storage, temp_storage_bytes, d_in, d_scan, NonConstMax(), n));
    TWO_PHASE(cub::DeviceSelect::If(d_temp_storage, temp_storage_bytes, d_in, d_sel, d_count, n, NonConstEven()));
    std::vector<int> scan = to_host(d_scan, n), even;
    int m = -1;
    for (int i = 0; i < n; ++i) {
        m = std::max(m, h[i]);
        cr_assert_eq(scan[i], m, "InclusiveScan(NonConstMax)[%d]", i);
        if (h[i] % 2 == 0)
            even.push_back(h[i]);
    }
    cr_assert_eq(to_host(d_max, 1)[0], m, "Reduce(NonConstMax)");
    cr_assert_eq(to_host(d_count, 1)[0], (int)even.size(), "If(NonConstEven) count");
    cr_assert(to_host(d_sel, even.size()) == even, "If(NonConstEven) items");
    for (int *p : {d_in, d_max, d_scan, d_sel, d_count})
        CHECK_CUDA(cudaFree(p));
}

/* Segmented warp reductions: head flags and tail flags, in a warp of 32
 * and one of 16 lanes (a block of 48). */
__global__ void warp_segmented_kernel(const int *in, const int *flags, int *head_out, int *tail_out)
{
    typedef cub::WarpReduce<int> WR;
    __shared__ typename WR::TempStorage temp[2];
    const int t = threadIdx.x;
    head_out[t] = WR(temp[t / 32]).HeadSegmentedSum(in[t], flags[t]);
    tail_out[t] = WR(temp[t / 32]).TailSegmentedReduce(in[t], flags[t], cub::Max());
}

Test(cub_warp, head_and_tail_segmented_reductions)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(48), f(48);
    for (int i = 0; i < 48; ++i)
        h[i] = (int)(rng() % 1000) - 500, f[i] = rng() % 4 == 0;
    int *d_in = to_device(h), *d_f = to_device(f), *d_head = poisoned<int>(48), *d_tail = poisoned<int>(48);
    warp_segmented_kernel<<<1, 48>>>(d_in, d_f, d_head, d_tail);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> head = to_host(d_head, 48), tail = to_host(d_tail, 48);
    for (int w = 0; w < 2; ++w) {
        const int lanes = w ? 16 : 32, b = w * 32;
        for (int l = 0; l < lanes; ++l) {
            if (l == 0 || f[b + l]) { /* a head: the sum up to the next head */
                int e = h[b + l];
                for (int k = l + 1; k < lanes && !f[b + k]; ++k)
                    e += h[b + k];
                cr_assert_eq(head[b + l], e, "HeadSegmentedSum warp %d lane %d", w, l);
            }
            if (l == 0 || f[b + l - 1]) { /* a segment's first lane after a tail: max up to the next tail */
                int e = h[b + l];
                for (int k = l; k < lanes; ++k) {
                    e = std::max(e, h[b + k]);
                    if (f[b + k])
                        break;
                }
                cr_assert_eq(tail[b + l], e, "TailSegmentedReduce(Max) warp %d lane %d", w, l);
            }
        }
    }
    for (int *p : {d_in, d_f, d_head, d_tail})
        CHECK_CUDA(cudaFree(p));
}

/* ---- BlockDiscontinuity and BlockHistogram ---------------------------- */
struct Differ {
    __device__ bool operator()(int a, int b) const { return a != b; }
};

__global__ void discontinuity_histogram_kernel(const int *in, int *heads, int *tails, unsigned *hist)
{
    typedef cub::BlockDiscontinuity<int, 96> BD;
    typedef cub::BlockHistogram<int, 96, 3, 7> BH;
    __shared__ typename BD::TempStorage dtemp;
    __shared__ typename BH::TempStorage htemp;
    __shared__ unsigned counts[7];
    const int t = threadIdx.x;
    int items[3], hf[3], tf[3];
    for (int i = 0; i < 3; ++i)
        items[i] = in[t * 3 + i];
    BD(dtemp).FlagHeads(hf, items, Differ());
    __syncthreads();
    BD(dtemp).FlagTails(tf, items, Differ());
    for (int i = 0; i < 3; ++i)
        heads[t * 3 + i] = hf[i], tails[t * 3 + i] = tf[i];
    BH(htemp).Histogram(items, counts);
    __syncthreads();
    if (t < 7)
        hist[t] = counts[t];
}

Test(cub_block, discontinuity_flags_and_histogram)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(288);
    for (int i = 0; i < 288; ++i)
        h[i] = i && rng() % 3 ? h[i - 1] : (int)(rng() % 7); /* runs */
    int *d_in = to_device(h), *d_heads = poisoned<int>(288), *d_tails = poisoned<int>(288);
    unsigned *d_hist = poisoned<unsigned>(7);
    discontinuity_histogram_kernel<<<1, 96>>>(d_in, d_heads, d_tails, d_hist);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> heads = to_host(d_heads, 288), tails = to_host(d_tails, 288);
    std::vector<unsigned> hist = to_host(d_hist, 7), want(7, 0);
    for (int i = 0; i < 288; ++i) {
        cr_assert_eq(heads[i], i == 0 || h[i] != h[i - 1] ? 1 : 0, "FlagHeads[%d]", i);
        cr_assert_eq(tails[i], i == 287 || h[i] != h[i + 1] ? 1 : 0, "FlagTails[%d]", i);
        want[h[i]]++;
    }
    cr_assert(hist == want, "BlockHistogram counts");
    for (int *p : {d_in, d_heads, d_tails})
        CHECK_CUDA(cudaFree(p));
    CHECK_CUDA(cudaFree(d_hist));
}

/* ---- by-key reductions and scans --------------------------------------- */
Test(cub_device, reduce_by_key_and_scans_by_key)
{
    std::mt19937 rng(test_seed());
    for (int n : kSizes) {
        std::vector<int> keys(n), vals(n);
        for (int i = 0; i < n; ++i)
            keys[i] = i && rng() % 4 ? keys[i - 1] : (int)(rng() % 5), vals[i] = (int)(rng() % 201) - 100;
        int *d_k = to_device(keys), *d_v = to_device(vals), *d_uk = poisoned<int>(n), *d_agg = poisoned<int>(n),
            *d_runs = poisoned<int>(1), *d_ex = poisoned<int>(n), *d_in = poisoned<int>(n);
        TWO_PHASE(cub::DeviceReduce::ReduceByKey(d_temp_storage, temp_storage_bytes, d_k, d_uk, d_v, d_agg, d_runs,
                                                 cub::Sum(), n));
        TWO_PHASE(cub::DeviceScan::ExclusiveSumByKey(d_temp_storage, temp_storage_bytes, d_k, d_v, d_ex, n));
        TWO_PHASE(cub::DeviceScan::InclusiveScanByKey(d_temp_storage, temp_storage_bytes, d_k, d_v, d_in, cub::Max(),
                                                      n));
        std::vector<int> uk, agg, ex(n), in(n);
        for (int i = 0; i < n;) {
            int j = i, sum = 0, mx = vals[i];
            for (; j < n && keys[j] == keys[i]; ++j) {
                ex[j] = sum;
                sum += vals[j];
                mx = std::max(mx, vals[j]);
                in[j] = mx;
            }
            uk.push_back(keys[i]);
            agg.push_back(sum);
            i = j;
        }
        const int runs = to_host(d_runs, 1)[0];
        cr_assert_eq(runs, (int)uk.size(), "n=%d: ReduceByKey runs", n);
        cr_assert(to_host(d_uk, runs) == uk && to_host(d_agg, runs) == agg, "n=%d: ReduceByKey", n);
        cr_assert(to_host(d_ex, n) == ex, "n=%d: ExclusiveSumByKey", n);
        cr_assert(to_host(d_in, n) == in, "n=%d: InclusiveScanByKey(Max)", n);
        for (int *p : {d_k, d_v, d_uk, d_agg, d_runs, d_ex, d_in})
            CHECK_CUDA(cudaFree(p));
    }
}

/* CCCL's function objects (cuda::maximum, cuda::minimum, cuda::std::plus)
 * as CUB operators. */
#include <cuda/functional>

__global__ void cccl_ops_kernel(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 64> BR;
    __shared__ typename BR::TempStorage temp;
    const int x = in[threadIdx.x];
    int r = BR(temp).Reduce(x, cuda::maximum<>{});
    if (threadIdx.x == 0)
        out[0] = r;
    __syncthreads();
    r = BR(temp).Reduce(x, cuda::minimum<int>{});
    if (threadIdx.x == 0)
        out[1] = r;
    __syncthreads();
    r = BR(temp).Reduce(x, cuda::std::plus<int>{});
    if (threadIdx.x == 0)
        out[2] = r;
}

Test(cub_util, cccl_function_objects_as_operators)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(64);
    for (int &v : h)
        v = (int)(rng() % 20001) - 10000;
    int *d_in = to_device(h), *d_out = poisoned<int>(3);
    cccl_ops_kernel<<<1, 64>>>(d_in, d_out);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, 3);
    cr_assert_eq(out[0], *std::max_element(h.begin(), h.end()), "cuda::maximum");
    cr_assert_eq(out[1], *std::min_element(h.begin(), h.end()), "cuda::minimum");
    long long sum = 0;
    for (int v : h)
        sum += v;
    cr_assert_eq(out[2], sum, "cuda::std::plus");
    long long *d_sum = poisoned<long long>(1);
    auto twice = cuda::proclaim_return_type<long long>([] __device__(int v) { return 2LL * v; });
    cub::TransformInputIterator<long long, decltype(twice), const int *> it(d_in, twice);
    TWO_PHASE(cub::DeviceReduce::Sum(d_temp_storage, temp_storage_bytes, it, d_sum, 64));
    cr_assert_eq(to_host(d_sum, 1)[0], 2 * sum, "Sum over a TransformInputIterator of a proclaimed lambda");
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFree(d_sum));
}

/* Cache-modified loads (plain loads here) feeding a block reduction, and
 * ThreadReduce. */
__global__ void cache_modified_kernel(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 32> BR;
    __shared__ typename BR::TempStorage temp;
    cub::CacheModifiedInputIterator<cub::LOAD_LDG, int> it(in);
    int items[4];
    for (int i = 0; i < 4; ++i)
        items[i] = it[threadIdx.x * 4 + i];
    int mine = cub::ThreadReduce(items, cub::Sum());
    int total = BR(temp).Sum(mine);
    if (threadIdx.x == 0)
        cub::ThreadStore<cub::STORE_CG>(out, total);
    if (threadIdx.x == 1)
        cub::ThreadStore<cub::STORE_VOLATILE>(out + 1, cub::ThreadLoad<cub::LOAD_CV>(in + 5));
}

Test(cub_util, cache_modified_loads_and_thread_reduce)
{
    std::mt19937 rng(test_seed());
    std::vector<int> h(128);
    long long sum = 0;
    for (int &v : h)
        v = (int)(rng() % 2001) - 1000, sum += v;
    int *d_in = to_device(h), *d_out = poisoned<int>(2);
    cache_modified_kernel<<<1, 32>>>(d_in, d_out);
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out = to_host(d_out, 2);
    cr_assert_eq(out[0], sum, "sum through CacheModifiedInputIterator and ThreadReduce");
    cr_assert_eq(out[1], h[5], "ThreadLoad<LOAD_CV> / ThreadStore<STORE_VOLATILE>");
    CHECK_CUDA(cudaFree(d_in));
    CHECK_CUDA(cudaFree(d_out));
}
