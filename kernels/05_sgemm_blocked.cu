/* Chapter 05 — SGEMM, v4 to v6: each thread computes several elements of C
 * from registers (the map of every version is in kernels/05_sgemm.cu).
 *
 * v3 did one multiply-add per two shared-memory loads, so shared memory,
 * not arithmetic, set its pace. Register blocking reuses what a thread has
 * loaded: a thread that owns TM elements of a column loads one B value and
 * uses it TM times (v4); one that owns a TM x TN patch loads TM + TN values
 * and does TM * TN multiply-adds with them (v5, v6). Tiles are loaded with
 * zeros past the edges of A and B, and only elements inside C are stored. */
#include "05_sgemm_family.cuh"

/* ---- v4: 64 x 64 tiles, 8 rows per thread ------------------------------------ */
#define V4_BM 64
#define V4_BN 64
#define V4_BK 8
#define V4_TM 8
#define V4_THREADS (V4_BM * V4_BN / V4_TM) /* 512 */

/* v4 — 1D register blocking.
 * Each thread computes 8 elements of one column of C: per step of k it
 * reads one B value from shared memory into a register and uses it for 8
 * multiply-adds, each with an A value that all 32 lanes of the warp share
 * (one broadcast). Shared loads per multiply-add: 2 -> 1.125. Cost: 8
 * accumulators per thread, and a 64 x 64 tile leaves small matrices with
 * few blocks. */
__global__ void __launch_bounds__(V4_THREADS) sgemm_v4_blocked_1d(sl_sgemm_args p)
{
    __shared__ float as[V4_BM][V4_BK];
    __shared__ float bs[V4_BK][V4_BN];
    int t = threadIdx.x;
    int tcol = t % V4_BN, trow = t / V4_BN; /* this thread: rows trow*8 .. trow*8+7 of the tile, column tcol */
    int row0 = blockIdx.y * V4_BM, col0 = blockIdx.x * V4_BN;
    int a_row = t / V4_BK, a_col = t % V4_BK; /* one element of each tile per thread (512 of each) */
    int b_row = t / V4_BN, b_col = t % V4_BN;
    float acc[V4_TM] = {0.0f};
    for (int q0 = 0; q0 < p.k; q0 += V4_BK) {
        int ar = row0 + a_row, ac = q0 + a_col, br = q0 + b_row, bc = col0 + b_col;
        as[a_row][a_col] = ar < p.m && ac < p.k ? p.a[(size_t)ar * p.lda + ac] : 0.0f;
        bs[b_row][b_col] = br < p.k && bc < p.n ? p.b[(size_t)br * p.ldb + bc] : 0.0f;
        __syncthreads();
        for (int q = 0; q < V4_BK; q++) {
            float b = bs[q][tcol];
            for (int r = 0; r < V4_TM; r++) acc[r] += as[trow * V4_TM + r][q] * b;
        }
        __syncthreads();
    }
    int col = col0 + tcol;
    for (int r = 0; r < V4_TM; r++) {
        int row = row0 + trow * V4_TM + r;
        if (row < p.m && col < p.n) sgemm_store(p.c, (size_t)row * p.ldc + col, acc[r], p.alpha, p.beta);
    }
}

/* ---- v5, v6: 128 x 128 tiles, 8 x 8 per thread ------------------------------- */
#define BIG_BM 128
#define BIG_BN 128
#define BIG_BK 8
#define BIG_TM 8
#define BIG_TN 8
#define BIG_THREADS (BIG_BM * BIG_BN / (BIG_TM * BIG_TN)) /* 256 */

/* The 8 x 8 patch of C a thread owns, stored with the epilogue. */
static __device__ __forceinline__ void store_patch(const sl_sgemm_args *p, float acc[BIG_TM][BIG_TN], int row0,
                                                   int col0)
{
    for (int r = 0; r < BIG_TM; r++)
        for (int c = 0; c < BIG_TN; c++) {
            int row = row0 + r, col = col0 + c;
            if (row < p->m && col < p->n) sgemm_store(p->c, (size_t)row * p->ldc + col, acc[r][c], p->alpha, p->beta);
        }
}

/* v5 — 2D register blocking.
 * v4 reused each B value 8 times but loaded a fresh A value for every
 * multiply-add. Here a thread owns an 8 x 8 patch: per step of k it loads
 * 8 A values and 8 B values into registers and does their 64 products (an
 * outer product): 16 shared loads per 64 multiply-adds, 0.25 per FMA. Cost:
 * 64 accumulators + 16 operands per thread (about 100 registers), so fewer
 * threads fit on an SM; a 128 x 128 tile wastes more work at the edges. */
__global__ void __launch_bounds__(BIG_THREADS) sgemm_v5_blocked_2d(sl_sgemm_args p)
{
    __shared__ float as[BIG_BM][BIG_BK];
    __shared__ float bs[BIG_BK][BIG_BN];
    int t = threadIdx.x;
    int trow = t / (BIG_BN / BIG_TN), tcol = t % (BIG_BN / BIG_TN);
    int row0 = blockIdx.y * BIG_BM, col0 = blockIdx.x * BIG_BN;
    float acc[BIG_TM][BIG_TN] = {{0.0f}};
    float reg_m[BIG_TM], reg_n[BIG_TN];
    for (int q0 = 0; q0 < p.k; q0 += BIG_BK) {
        /* 1024 elements of each tile, 4 per thread, consecutive threads on consecutive columns */
        for (int i = t; i < BIG_BM * BIG_BK; i += BIG_THREADS) {
            int r = i / BIG_BK, c = i % BIG_BK, ar = row0 + r, ac = q0 + c;
            as[r][c] = ar < p.m && ac < p.k ? p.a[(size_t)ar * p.lda + ac] : 0.0f;
        }
        for (int i = t; i < BIG_BK * BIG_BN; i += BIG_THREADS) {
            int r = i / BIG_BN, c = i % BIG_BN, br = q0 + r, bc = col0 + c;
            bs[r][c] = br < p.k && bc < p.n ? p.b[(size_t)br * p.ldb + bc] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BIG_BK; q++) {
            for (int r = 0; r < BIG_TM; r++) reg_m[r] = as[trow * BIG_TM + r][q];
            for (int c = 0; c < BIG_TN; c++) reg_n[c] = bs[q][tcol * BIG_TN + c];
            for (int r = 0; r < BIG_TM; r++)
                for (int c = 0; c < BIG_TN; c++) acc[r][c] += reg_m[r] * reg_n[c];
        }
        __syncthreads();
    }
    store_patch(&p, acc, row0 + trow * BIG_TM, col0 + tcol * BIG_TN);
}

/* v6 — float4 loads, A's tile stored transposed.
 * v5 loaded its tiles one float per instruction, and read A's tile down a
 * column (as[trow*8 + r][q]: 8 separate loads, lanes 64 bytes apart). Here
 * each thread loads one float4 of A and one of B from global memory (16
 * bytes per instruction), and writes A's four values transposed, as[q][i],
 * so that the 8 A values a thread needs per step are contiguous: two
 * 16-byte shared loads instead of 8, and the same for B. Cost: the
 * transposed stores conflict in shared memory (4 per float4), once per
 * tile; rows that are not 16-byte aligned fall back to scalar loads. */
__global__ void __launch_bounds__(BIG_THREADS) sgemm_v6_vectorized(sl_sgemm_args p, int a_vec, int b_vec)
{
    __shared__ __align__(16) float as[BIG_BK][BIG_BM]; /* transposed: as[q][i] = A[row0 + i][q0 + q] */
    __shared__ __align__(16) float bs[BIG_BK][BIG_BN];
    int t = threadIdx.x;
    int trow = t / (BIG_BN / BIG_TN), tcol = t % (BIG_BN / BIG_TN);
    int row0 = blockIdx.y * BIG_BM, col0 = blockIdx.x * BIG_BN;
    /* one float4 of each tile per thread: A's 128 rows x 2 float4s, B's 8 rows x 32 float4s */
    int a_row = t / (BIG_BK / 4), a_col = (t % (BIG_BK / 4)) * 4;
    int b_row = t / (BIG_BN / 4), b_col = (t % (BIG_BN / 4)) * 4;
    float acc[BIG_TM][BIG_TN] = {{0.0f}};
    float reg_m[BIG_TM], reg_n[BIG_TN];
    for (int q0 = 0; q0 < p.k; q0 += BIG_BK) {
        float4 av = sgemm_load4(p.a, p.lda, p.m, p.k, row0 + a_row, q0 + a_col, a_vec);
        as[a_col + 0][a_row] = av.x;
        as[a_col + 1][a_row] = av.y;
        as[a_col + 2][a_row] = av.z;
        as[a_col + 3][a_row] = av.w;
        *reinterpret_cast<float4 *>(&bs[b_row][b_col]) =
            sgemm_load4(p.b + col0, p.ldb, p.k, p.n - col0, q0 + b_row, b_col, b_vec);
        __syncthreads();
        for (int q = 0; q < BIG_BK; q++) {
            for (int r = 0; r < BIG_TM; r += 4) {
                float4 v = *reinterpret_cast<const float4 *>(&as[q][trow * BIG_TM + r]);
                reg_m[r] = v.x, reg_m[r + 1] = v.y, reg_m[r + 2] = v.z, reg_m[r + 3] = v.w;
            }
            for (int c = 0; c < BIG_TN; c += 4) {
                float4 v = *reinterpret_cast<const float4 *>(&bs[q][tcol * BIG_TN + c]);
                reg_n[c] = v.x, reg_n[c + 1] = v.y, reg_n[c + 2] = v.z, reg_n[c + 3] = v.w;
            }
            for (int r = 0; r < BIG_TM; r++)
                for (int c = 0; c < BIG_TN; c++) acc[r][c] += reg_m[r] * reg_n[c];
        }
        __syncthreads();
    }
    store_patch(&p, acc, row0 + trow * BIG_TM, col0 + tcol * BIG_TN);
}

/* ---- the family's shapes and launcher ----------------------------------------- */

sgemm_shape sgemm_blocked_shape(int version)
{
    sgemm_shape s = {BIG_THREADS, BIG_BM, BIG_BN};
    if (version == 4) s.threads = V4_THREADS, s.bm = V4_BM, s.bn = V4_BN;
    return s;
}

cudaError_t sgemm_blocked_launch(int version, const sl_sgemm_args *args, cudaStream_t stream)
{
    sgemm_shape s = sgemm_blocked_shape(version);
    dim3 grid = sgemm_grid(args, s.bm, s.bn);
    switch (version) {
    case 4: sgemm_v4_blocked_1d<<<grid, s.threads, 0, stream>>>(*args); break;
    case 5: sgemm_v5_blocked_2d<<<grid, s.threads, 0, stream>>>(*args); break;
    case 6: {
        /* B's float4s start at column col0 + 4j: aligned when B and ldb are
         * (col0 is a multiple of 128). */
        int a_vec = sgemm_rows_aligned16(args->a, args->lda), b_vec = sgemm_rows_aligned16(args->b, args->ldb);
        sgemm_v6_vectorized<<<grid, s.threads, 0, stream>>>(*args, a_vec, b_vec);
        break;
    }
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
