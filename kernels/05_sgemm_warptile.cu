/* Chapter 05 — SGEMM, v7 to v9: warp tiling, then double buffering, then
 * the tile shape picked per GPU (the map of every version is in
 * kernels/05_sgemm.cu).
 *
 * The block's BM x BN tile of C is split among its warps, WM x WN each;
 * a warp covers its tile in WMITER x WNITER steps of a sub-tile, in which
 * each of its 32 lanes owns a TM x TN patch. The sizes are template
 * parameters because they are the lesson of v9: which shape is fastest
 * depends on the GPU (registers, shared memory and SMs). v7 and v8 run
 * shape 0 of the table at the end of this file. */
#include "05_sgemm_family.cuh"

/* One tile shape, and what follows from it. */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN>
struct warptile {
    static constexpr int bm = BM, bn = BN, bk = BK, wm = WM, wn = WN, wniter = WNITER, tm = TM, tn = TN;
    static constexpr int threads = (BM / WM) * (BN / WN) * 32;
    static constexpr int wmiter = (WM * WN) / (32 * TM * TN * WNITER);
    static constexpr int wsubm = WM / wmiter, wsubn = WN / WNITER;
    static constexpr int a_loads = BM * BK / 4 / threads, b_loads = BK * BN / 4 / threads; /* float4s per thread */
    static constexpr int acc_rows = wmiter * TM, acc_cols = WNITER * TN;
    static_assert(wmiter >= 1 && (wsubm / TM) * (wsubn / TN) == 32, "a warp's lanes must tile its sub-tile");
    static_assert(a_loads * threads * 4 == BM * BK && b_loads * threads * 4 == BK * BN, "tiles load in float4s");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "patches are read from shared memory in float4s");
};

/* Where this thread works: its warp's tile in the block's, its patch in the warp's. */
typedef struct warptile_place {
    int t, warp_row, warp_col, lane_row, lane_col, row0, col0;
} warptile_place;

template <class W> static __device__ __forceinline__ warptile_place warptile_place_of(void)
{
    warptile_place at;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    at.t = threadIdx.x;
    at.warp_row = warp / (W::bn / W::wn), at.warp_col = warp % (W::bn / W::wn);
    at.lane_row = lane / (W::wsubn / W::tn), at.lane_col = lane % (W::wsubn / W::tn);
    at.row0 = blockIdx.y * W::bm, at.col0 = blockIdx.x * W::bn;
    return at;
}

/* global -> registers: this thread's float4s of tile q0 of A and of B (zeros past the edges). */
template <class W>
static __device__ __forceinline__ void warptile_load(float4 *a_stage, float4 *b_stage, const sl_sgemm_args &p,
                                                     const warptile_place &at, int q0, int a_vec, int b_vec)
{
    for (int l = 0; l < W::a_loads; l++) {
        int i = at.t + l * W::threads;
        a_stage[l] = sgemm_load4(p.a, p.lda, p.m, p.k, at.row0 + i / (W::bk / 4), q0 + (i % (W::bk / 4)) * 4, a_vec);
    }
    for (int l = 0; l < W::b_loads; l++) {
        int i = at.t + l * W::threads;
        b_stage[l] = sgemm_load4(p.b + at.col0, p.ldb, p.k, p.n - at.col0, q0 + i / (W::bn / 4), (i % (W::bn / 4)) * 4,
                                 b_vec);
    }
}

/* registers -> shared memory, A's tile transposed: as[q][i] = A[row0 + i][q0 + q]. */
template <class W>
static __device__ __forceinline__ void warptile_store(float (*as)[W::bm], float (*bs)[W::bn], const float4 *a_stage,
                                                      const float4 *b_stage, int t)
{
    for (int l = 0; l < W::a_loads; l++) {
        int i = t + l * W::threads, r = i / (W::bk / 4), c = (i % (W::bk / 4)) * 4;
        as[c + 0][r] = a_stage[l].x;
        as[c + 1][r] = a_stage[l].y;
        as[c + 2][r] = a_stage[l].z;
        as[c + 3][r] = a_stage[l].w;
    }
    for (int l = 0; l < W::b_loads; l++) {
        int i = t + l * W::threads;
        *reinterpret_cast<float4 *>(&bs[i / (W::bn / 4)][(i % (W::bn / 4)) * 4]) = b_stage[l];
    }
}

/* The arithmetic of one BK-deep tile: per step of k, the lane reads its
 * WMITER x TM values of A and WNITER x TN of B (float4s from neighbouring
 * addresses across the warp) and does their outer product. */
template <class W>
static __device__ __forceinline__ void warptile_multiply(float (*acc)[W::acc_cols], const float (*as)[W::bm],
                                                         const float (*bs)[W::bn], const warptile_place &at)
{
    float reg_m[W::acc_rows], reg_n[W::acc_cols];
    for (int q = 0; q < W::bk; q++) {
        for (int wm = 0; wm < W::wmiter; wm++)
            for (int r = 0; r < W::tm; r += 4) {
                float4 v = *reinterpret_cast<const float4 *>(
                    &as[q][at.warp_row * W::wm + wm * W::wsubm + at.lane_row * W::tm + r]);
                float *m = &reg_m[wm * W::tm + r];
                m[0] = v.x, m[1] = v.y, m[2] = v.z, m[3] = v.w;
            }
        for (int wn = 0; wn < W::wniter; wn++)
            for (int c = 0; c < W::tn; c += 4) {
                float4 v = *reinterpret_cast<const float4 *>(
                    &bs[q][at.warp_col * W::wn + wn * W::wsubn + at.lane_col * W::tn + c]);
                float *n = &reg_n[wn * W::tn + c];
                n[0] = v.x, n[1] = v.y, n[2] = v.z, n[3] = v.w;
            }
        for (int r = 0; r < W::acc_rows; r++)
            for (int c = 0; c < W::acc_cols; c++) acc[r][c] += reg_m[r] * reg_n[c];
    }
}

/* The epilogue: the lane's patches that lie inside C. */
template <class W>
static __device__ __forceinline__ void warptile_epilogue(float (*acc)[W::acc_cols], const sl_sgemm_args &p,
                                                         const warptile_place &at)
{
    for (int wm = 0; wm < W::wmiter; wm++)
        for (int r = 0; r < W::tm; r++) {
            int row = at.row0 + at.warp_row * W::wm + wm * W::wsubm + at.lane_row * W::tm + r;
            if (row >= p.m) continue;
            for (int wn = 0; wn < W::wniter; wn++)
                for (int c = 0; c < W::tn; c++) {
                    int col = at.col0 + at.warp_col * W::wn + wn * W::wsubn + at.lane_col * W::tn + c;
                    if (col < p.n)
                        sgemm_store(p.c, (size_t)row * p.ldc + col, acc[wm * W::tm + r][wn * W::tn + c], p.alpha,
                                    p.beta);
                }
        }
}

/* v7 — warp tiling.
 * v6's threads each walked their own 8 x 8 patch, laid out thread by thread
 * over the block's tile, so the float4s a warp read from shared memory were
 * scattered over the tile (more wavefronts per request). Here the lanes of
 * a warp own neighbouring patches of one warp tile: a warp's shared loads
 * are a few contiguous runs, and its registers hold the warp tile's
 * operands, the level CUTLASS calls the warp tile. Cost: one more level of
 * indices, and still two barriers per tile, the global loads exposed. */
template <class W>
__global__ void __launch_bounds__(W::threads) sgemm_v7_warptile(sl_sgemm_args p, int a_vec, int b_vec)
{
    __shared__ __align__(16) float as[W::bk][W::bm];
    __shared__ __align__(16) float bs[W::bk][W::bn];
    warptile_place at = warptile_place_of<W>();
    float4 a_stage[W::a_loads], b_stage[W::b_loads];
    float acc[W::acc_rows][W::acc_cols];
    for (int r = 0; r < W::acc_rows; r++)
        for (int c = 0; c < W::acc_cols; c++) acc[r][c] = 0.0f;
    for (int q0 = 0; q0 < p.k; q0 += W::bk) {
        warptile_load<W>(a_stage, b_stage, p, at, q0, a_vec, b_vec);
        warptile_store<W>(as, bs, a_stage, b_stage, at.t);
        __syncthreads();
        warptile_multiply<W>(acc, as, bs, at);
        __syncthreads(); /* before the next tile overwrites what others still read */
    }
    warptile_epilogue<W>(acc, p, at);
}

/* v8 — v7 + double-buffered shared memory.
 * v7's warps waited for each tile's global loads before any arithmetic,
 * and the whole block waited again before loading the next. Here two
 * shared buffers alternate: the global loads of tile i + 1 are issued into
 * registers before tile i's arithmetic and written to the other buffer
 * after it, so their latency hides behind the FMAs, and one barrier per
 * tile suffices instead of two. Cost: twice the shared memory and the
 * registers of the staged float4s held across the arithmetic. */
template <class W>
__global__ void __launch_bounds__(W::threads) sgemm_v8_double_buffered(sl_sgemm_args p, int a_vec, int b_vec)
{
    __shared__ __align__(16) float as[2][W::bk][W::bm];
    __shared__ __align__(16) float bs[2][W::bk][W::bn];
    warptile_place at = warptile_place_of<W>();
    float4 a_stage[W::a_loads], b_stage[W::b_loads];
    float acc[W::acc_rows][W::acc_cols];
    for (int r = 0; r < W::acc_rows; r++)
        for (int c = 0; c < W::acc_cols; c++) acc[r][c] = 0.0f;
    warptile_load<W>(a_stage, b_stage, p, at, 0, a_vec, b_vec);
    warptile_store<W>(as[0], bs[0], a_stage, b_stage, at.t);
    __syncthreads();
    for (int q0 = 0, cur = 0; q0 < p.k; q0 += W::bk, cur ^= 1) {
        int more = q0 + W::bk < p.k;
        if (more) warptile_load<W>(a_stage, b_stage, p, at, q0 + W::bk, a_vec, b_vec); /* in flight below */
        warptile_multiply<W>(acc, as[cur], bs[cur], at);
        /* The other buffer was last read before the previous barrier: free to fill. */
        if (more) warptile_store<W>(as[cur ^ 1], bs[cur ^ 1], a_stage, b_stage, at.t);
        __syncthreads();
    }
    warptile_epilogue<W>(acc, p, at);
}

/* v9 — v8 in the tile shape that suits the GPU at hand.
 * v7 and v8 run one shape picked by hand (shape 0 below); which shape is
 * fastest depends on the GPU's registers, shared memory and SM count, so
 * no single choice is right everywhere. v9 is v8's kernel in each shape of
 * the table below, and the host's autotuner (sl_sgemm_v9_autotune) times
 * every one on the device at hand and keeps the fastest. Cost: five
 * instantiations to compile, and a tuning run before the first real one. */

/* ---- the shapes -----------------------------------------------------------------
 * Each keeps v8's two buffers within 48 KiB of static shared memory and its
 * loads whole float4s per thread. Shape 0 is v7's and v8's, and v9's before
 * tuning. */
template <class W> static cudaError_t launch_v7(const sl_sgemm_args *args, cudaStream_t stream)
{
    int a_vec = sgemm_rows_aligned16(args->a, args->lda), b_vec = sgemm_rows_aligned16(args->b, args->ldb);
    sgemm_v7_warptile<W><<<sgemm_grid(args, W::bm, W::bn), W::threads, 0, stream>>>(*args, a_vec, b_vec);
    return cudaGetLastError();
}

template <class W> static cudaError_t launch_v8(const sl_sgemm_args *args, cudaStream_t stream)
{
    int a_vec = sgemm_rows_aligned16(args->a, args->lda), b_vec = sgemm_rows_aligned16(args->b, args->ldb);
    sgemm_v8_double_buffered<W><<<sgemm_grid(args, W::bm, W::bn), W::threads, 0, stream>>>(*args, a_vec, b_vec);
    return cudaGetLastError();
}

typedef cudaError_t (*warptile_launcher)(const sl_sgemm_args *args, cudaStream_t stream);

typedef struct warptile_config {
    warptile_launcher launch;
    sgemm_shape shape;
    const char *name;
} warptile_config;

typedef warptile<128, 128, 16, 64, 64, 4, 8, 4> shape0;

static const warptile_config configs[] = {
    {launch_v8<shape0>, {128, 128, 128}, "BM128 BN128 BK16 WM64 WN64 TM8 TN4 (128 threads)"},
    {launch_v8<warptile<128, 128, 8, 64, 32, 2, 8, 4> >, {256, 128, 128},
     "BM128 BN128 BK8 WM64 WN32 TM8 TN4 (256 threads)"},
    {launch_v8<warptile<64, 128, 16, 32, 64, 2, 4, 4> >, {128, 64, 128},
     "BM64 BN128 BK16 WM32 WN64 TM4 TN4 (128 threads)"},
    {launch_v8<warptile<128, 64, 16, 64, 32, 2, 4, 4> >, {128, 128, 64},
     "BM128 BN64 BK16 WM64 WN32 TM4 TN4 (128 threads)"},
    {launch_v8<warptile<64, 64, 16, 32, 32, 2, 4, 4> >, {128, 64, 64}, "BM64 BN64 BK16 WM32 WN32 TM4 TN4 (128 threads)"},
};
#define CONFIG_COUNT ((int)(sizeof configs / sizeof configs[0]))

int sgemm_warptile_config_count(void) { return CONFIG_COUNT; }

const char *sgemm_warptile_config_name(int config)
{
    return config >= 0 && config < CONFIG_COUNT ? configs[config].name : NULL;
}

sgemm_shape sgemm_warptile_shape(int version, int config)
{
    sgemm_shape none = {0, 1, 1};
    if (version != 9) config = 0;
    return config >= 0 && config < CONFIG_COUNT ? configs[config].shape : none;
}

cudaError_t sgemm_warptile_launch(int version, int config, const sl_sgemm_args *args, cudaStream_t stream)
{
    switch (version) {
    case 7: return launch_v7<shape0>(args, stream);
    case 8: return launch_v8<shape0>(args, stream);
    case 9: return config >= 0 && config < CONFIG_COUNT ? configs[config].launch(args, stream) : cudaErrorInvalidValue;
    default: return cudaErrorInvalidValue;
    }
}
