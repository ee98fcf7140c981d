/* Chapter 05 — SGEMM v7: warp tiling with double-buffered shared memory,
 * in five tile shapes for the autotuner (the map of every version is in
 * kernels/05_transpose.cu).
 *
 * The block's BM x BN tile of C is split among its warps, WM x WN each;
 * a warp covers its tile in WMITER x WNITER steps of a sub-tile, in which
 * each of its 32 lanes owns a TM x TN patch. The sizes are template
 * parameters because they are the lesson: which shape is fastest depends
 * on the GPU (registers, shared memory and SMs), so the host's autotuner
 * times each one on the device at hand and keeps the best. */
#include "05_sgemm_family.cuh"

/* v7 — warp tiling, double-buffered shared memory.
 * v6's threads each walked their own 8 x 8 patch, and a block loaded its
 * next tile only after everyone had finished the current one. Here (1) the
 * lanes of a warp own neighbouring patches of one warp tile, so a warp's
 * shared loads are a few contiguous runs (fewer wavefronts) and its
 * registers hold the warp tile's operands, the level that CUTLASS calls the
 * warp tile; (2) two shared buffers alternate: the global loads of tile
 * i + 1 are issued into registers before tile i's arithmetic, and written to
 * the other buffer after it, so their latency hides behind the FMAs and
 * one barrier per tile suffices instead of two. Cost: twice the shared
 * memory and more registers (the staged float4s), and eight more template
 * parameters, one right set per GPU: hence the autotuner. */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    sgemm_v7_warptile(sl_sgemm_args p, int a_vec, int b_vec)
{
    const int threads = (BM / WM) * (BN / WN) * 32;
    const int wmiter = (WM * WN) / (32 * TM * TN * WNITER);
    const int wsubm = WM / wmiter, wsubn = WN / WNITER;
    const int a_loads = BM * BK / 4 / threads, b_loads = BK * BN / 4 / threads;
    static_assert(wmiter >= 1 && (wsubm / TM) * (wsubn / TN) == 32, "a warp's lanes must tile its sub-tile");
    static_assert(a_loads * threads * 4 == BM * BK && b_loads * threads * 4 == BK * BN, "tiles load in float4s");
    static_assert(TM % 4 == 0 && TN % 4 == 0, "patches are read from shared memory in float4s");

    __shared__ __align__(16) float as[2][BK][BM]; /* transposed: as[s][q][i] = A[row0 + i][q0 + q] */
    __shared__ __align__(16) float bs[2][BK][BN];
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int warp_row = warp / (BN / WN), warp_col = warp % (BN / WN);
    int lane_row = lane / (wsubn / TN), lane_col = lane % (wsubn / TN);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const float *b_block = p.b + col0;
    int b_cols = p.n - col0;

    float4 a_stage[a_loads], b_stage[b_loads];
    float acc[wmiter * TM][WNITER * TN];
    for (int r = 0; r < wmiter * TM; r++)
        for (int c = 0; c < WNITER * TN; c++) acc[r][c] = 0.0f;
    float reg_m[wmiter * TM], reg_n[WNITER * TN];

    /* global -> registers: tile q0 of A and B (zeros past the edges) */
#define V7_LOAD(q0)                                                                                           \
    do {                                                                                                      \
        for (int l = 0; l < a_loads; l++) {                                                                   \
            int i = t + l * threads;                                                                          \
            a_stage[l] = sgemm_load4(p.a, p.lda, p.m, p.k, row0 + i / (BK / 4), (q0) + (i % (BK / 4)) * 4, a_vec); \
        }                                                                                                     \
        for (int l = 0; l < b_loads; l++) {                                                                   \
            int i = t + l * threads;                                                                          \
            b_stage[l] = sgemm_load4(b_block, p.ldb, p.k, b_cols, (q0) + i / (BN / 4), (i % (BN / 4)) * 4, b_vec); \
        }                                                                                                     \
    } while (0)
    /* registers -> shared buffer s, A transposed */
#define V7_STORE(s)                                                                                           \
    do {                                                                                                      \
        for (int l = 0; l < a_loads; l++) {                                                                   \
            int i = t + l * threads, r = i / (BK / 4), c = (i % (BK / 4)) * 4;                                \
            as[s][c + 0][r] = a_stage[l].x;                                                                   \
            as[s][c + 1][r] = a_stage[l].y;                                                                   \
            as[s][c + 2][r] = a_stage[l].z;                                                                   \
            as[s][c + 3][r] = a_stage[l].w;                                                                   \
        }                                                                                                     \
        for (int l = 0; l < b_loads; l++) {                                                                   \
            int i = t + l * threads;                                                                          \
            *reinterpret_cast<float4 *>(&bs[s][i / (BN / 4)][(i % (BN / 4)) * 4]) = b_stage[l];               \
        }                                                                                                     \
    } while (0)

    V7_LOAD(0);
    V7_STORE(0);
    __syncthreads();
    for (int q0 = 0, cur = 0; q0 < p.k; q0 += BK, cur ^= 1) {
        int more = q0 + BK < p.k;
        if (more) V7_LOAD(q0 + BK); /* in flight during the arithmetic below */
        for (int q = 0; q < BK; q++) {
            for (int wm = 0; wm < wmiter; wm++)
                for (int r = 0; r < TM; r += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(
                        &as[cur][q][warp_row * WM + wm * wsubm + lane_row * TM + r]);
                    float *m = &reg_m[wm * TM + r];
                    m[0] = v.x, m[1] = v.y, m[2] = v.z, m[3] = v.w;
                }
            for (int wn = 0; wn < WNITER; wn++)
                for (int c = 0; c < TN; c += 4) {
                    float4 v = *reinterpret_cast<const float4 *>(
                        &bs[cur][q][warp_col * WN + wn * wsubn + lane_col * TN + c]);
                    float *n = &reg_n[wn * TN + c];
                    n[0] = v.x, n[1] = v.y, n[2] = v.z, n[3] = v.w;
                }
            for (int r = 0; r < wmiter * TM; r++)
                for (int c = 0; c < WNITER * TN; c++) acc[r][c] += reg_m[r] * reg_n[c];
        }
        /* The other buffer was last read before the previous barrier: free to fill. */
        if (more) V7_STORE(cur ^ 1);
        __syncthreads();
    }
#undef V7_LOAD
#undef V7_STORE

    for (int wm = 0; wm < wmiter; wm++)
        for (int r = 0; r < TM; r++) {
            int row = row0 + warp_row * WM + wm * wsubm + lane_row * TM + r;
            if (row >= p.m) continue;
            for (int wn = 0; wn < WNITER; wn++)
                for (int c = 0; c < TN; c++) {
                    int col = col0 + warp_col * WN + wn * wsubn + lane_col * TN + c;
                    if (col < p.n)
                        sgemm_store(p.c, (size_t)row * p.ldc + col, acc[wm * TM + r][wn * TN + c], p.alpha, p.beta);
                }
        }
}

/* ---- the shapes the autotuner tries ---------------------------------------------
 * Each keeps its two buffers within 48 KiB of static shared memory and its
 * loads whole float4s per thread. 0 is the default before tuning. */
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN>
static cudaError_t launch_v7(const sl_sgemm_args *args, cudaStream_t stream)
{
    int a_vec = sgemm_rows_aligned16(args->a, args->lda), b_vec = sgemm_rows_aligned16(args->b, args->ldb);
    int threads = (BM / WM) * (BN / WN) * 32;
    sgemm_v7_warptile<BM, BN, BK, WM, WN, WNITER, TM, TN>
        <<<sgemm_grid(args, BM, BN), threads, 0, stream>>>(*args, a_vec, b_vec);
    return cudaGetLastError();
}

typedef cudaError_t (*v7_launcher)(const sl_sgemm_args *args, cudaStream_t stream);

typedef struct v7_config {
    v7_launcher launch;
    sgemm_shape shape;
    const char *name;
} v7_config;

static const v7_config configs[] = {
    {launch_v7<128, 128, 16, 64, 64, 4, 8, 4>, {128, 128, 128}, "BM128 BN128 BK16 WM64 WN64 TM8 TN4 (128 threads)"},
    {launch_v7<128, 128, 8, 64, 32, 2, 8, 4>, {256, 128, 128}, "BM128 BN128 BK8 WM64 WN32 TM8 TN4 (256 threads)"},
    {launch_v7<64, 128, 16, 32, 64, 2, 4, 4>, {128, 64, 128}, "BM64 BN128 BK16 WM32 WN64 TM4 TN4 (128 threads)"},
    {launch_v7<128, 64, 16, 64, 32, 2, 4, 4>, {128, 128, 64}, "BM128 BN64 BK16 WM64 WN32 TM4 TN4 (128 threads)"},
    {launch_v7<64, 64, 16, 32, 32, 2, 4, 4>, {128, 64, 64}, "BM64 BN64 BK16 WM32 WN32 TM4 TN4 (128 threads)"},
};
#define CONFIG_COUNT ((int)(sizeof configs / sizeof configs[0]))

int sgemm_warptile_config_count(void) { return CONFIG_COUNT; }

const char *sgemm_warptile_config_name(int config)
{
    return config >= 0 && config < CONFIG_COUNT ? configs[config].name : NULL;
}

sgemm_shape sgemm_warptile_shape(int config)
{
    sgemm_shape none = {0, 1, 1};
    return config >= 0 && config < CONFIG_COUNT ? configs[config].shape : none;
}

cudaError_t sgemm_warptile_launch(int config, const sl_sgemm_args *args, cudaStream_t stream)
{
    if (config < 0 || config >= CONFIG_COUNT) return cudaErrorInvalidValue;
    return configs[config].launch(args, stream);
}
