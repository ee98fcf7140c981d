/* Chapter 06 — tensor-core GEMM v3 to v5: mma.sync m16n8k16 fed by
 * ldmatrix (the map of every version is in kernels/06_tensor_gemm.cu).
 *
 * All three use one block tile: 128x128 of C, 32 of K per step, 8 warps in a
 * 2 x 4 grid, each warp 64x32 of C: 4 x 4 mma tiles of 16x8, 64 float
 * accumulators per thread. Per k16 step a warp loads 4 A fragments (one
 * ldmatrix.x4 each) and 4 B fragments (two ldmatrix.x4.trans) and issues 16
 * mma.sync: 16 x 4096 flops for 6 shared-memory instructions. The fragment
 * layouts are in kernels/common/sl_tensor.h. */
#include "06_tensor_gemm_family.cuh"
#include "common/sl_tensor.h"

#define WARP_M 64
#define WARP_N 32
#define MI (WARP_M / 16) /* mma tiles along m per warp */
#define NI (WARP_N / 8)  /* along n */
#define PIPE_STAGES 3 /* v4 and v5 */

/* mma.sync for either input type: d = a * b + d. */
template <class T> struct mma_of;
template <> struct mma_of<__half> {
    static __device__ __forceinline__ void run(float d[4], const unsigned a[4], const unsigned b[2])
    {
        sl_mma_m16n8k16_f16_f32(d, a, b, d);
    }
};
template <> struct mma_of<__nv_bfloat16> {
    static __device__ __forceinline__ void run(float d[4], const unsigned a[4], const unsigned b[2])
    {
        sl_mma_m16n8k16_bf16_f32(d, a, b, d);
    }
};

/* Where element (row, col) of a shared tile lies, as an offset in 16-bit
 * elements. A tile is 128 x 32 (rows of 4 chunks of 8 elements, 16 bytes);
 * B tile is 32 x 128 (rows of 16 chunks). v3 and v4 store them plainly, v5
 * XORs the chunk index with bits of the row (see v5). */
template <bool SWIZZLE> __device__ __forceinline__ int a_offset(int row, int chunk)
{
    return row * TG_MMA_BK + ((SWIZZLE ? chunk ^ ((row >> 1) & 3) : chunk) * 8);
}
template <bool SWIZZLE> __device__ __forceinline__ int b_offset(int row, int chunk)
{
    return row * TG_MMA_BN + ((SWIZZLE ? chunk ^ (row & 7) : chunk) * 8);
}

/* One k16 step of a warp on shared tiles as and bs: ldmatrix, then 16 mma. */
template <class T, bool SWIZZLE>
__device__ __forceinline__ void warp_step(float acc[MI][NI][4], const T *as, const T *bs, int ks, int wm, int wn,
                                          int lane)
{
    unsigned af[MI][4], bf[NI][2];
    /* A, 16x16 per tile as four 8x8 matrices: lanes 0-7 give rows 0-7 of
     * columns 0-7, lanes 8-15 rows 8-15, lanes 16-23 rows 0-7 of columns
     * 8-15, lanes 24-31 rows 8-15 of those: r[0..3] is then exactly a[0..3]
     * of the mma's A fragment. */
    for (int i = 0; i < MI; i++) {
        int row = wm * WARP_M + i * 16 + (lane % 16), chunk = ks * 2 + lane / 16;
        sl_ldmatrix_x4(af[i], as + a_offset<SWIZZLE>(row, chunk));
    }
    /* B, stored k x n (n contiguous): .trans turns each 8x8 (k x n) block
     * into the column pairs the mma's B fragment holds. Lanes 0-7 give
     * k rows 0-7 of n columns 0-7, lanes 8-15 k rows 8-15, lanes 16-31 the
     * same for the next 8 columns: r[0], r[1] are b of one n8 tile, r[2],
     * r[3] of the next. */
    for (int j = 0; j < NI; j += 2) {
        int row = ks * 16 + (lane % 16), chunk = (wn * WARP_N + j * 8) / 8 + lane / 16;
        unsigned r[4];
        sl_ldmatrix_x4_trans(r, bs + b_offset<SWIZZLE>(row, chunk));
        bf[j][0] = r[0], bf[j][1] = r[1], bf[j + 1][0] = r[2], bf[j + 1][1] = r[3];
    }
    for (int i = 0; i < MI; i++)
        for (int j = 0; j < NI; j++) mma_of<T>::run(acc[i][j], af[i], bf[j]);
}

/* The C fragment: c[0], c[1] at row g, columns 2t and 2t + 1; c[2], c[3] at
 * row g + 8 (g = lane / 4, t = lane % 4). */
__device__ __forceinline__ void store_acc(float acc[MI][NI][4], float *c, int n, size_t row0, size_t col0, int lane)
{
    const int g = lane / 4, t = lane % 4;
    for (int i = 0; i < MI; i++)
        for (int j = 0; j < NI; j++) {
            size_t r = row0 + i * 16 + g, col = col0 + j * 8 + 2 * t;
            *(float2 *)(c + r * n + col) = make_float2(acc[i][j][0], acc[i][j][1]);
            *(float2 *)(c + (r + 8) * n + col) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
}

/* v3 — mma.sync m16n8k16 fed by ldmatrix.
 * WMMA hides the fragments; mma.sync names them, so a warp can hold a 64x32
 * tile of C in registers (64 floats per thread) and reuse each A fragment 4
 * times and each B fragment 4 times per k16 step. ldmatrix moves a whole
 * fragment from shared memory in one instruction per 8x8 matrix, lanes
 * giving row addresses, instead of 8 two-byte loads per lane. Intensity per
 * block: 128*128*32*2 flops on 256*32*2 bytes = 64 flops per byte. Cost:
 * the tiles are stored plainly, 64-byte rows of A and 256-byte rows of B,
 * so the 8 rows one ldmatrix phase reads fall on the same banks: 4-way
 * conflicts for A, 8-way for B (bench 06 prints the modelled figures). */
template <class T>
__global__ void __launch_bounds__(TG_MMA_THREADS) tgemm_v3_mma(int n, int k, const T *a, const T *b, float *c)
{
    /* held as 16-byte chunks, written as such; ldmatrix reads them as T */
    __shared__ uint4 as4[TG_MMA_BM * TG_MMA_BK / 8];
    __shared__ uint4 bs4[TG_MMA_BK * TG_MMA_BN / 8];
    const T *as = (const T *)as4, *bs = (const T *)bs4;
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, wm = warp / 4, wn = warp % 4;
    const size_t row0 = (size_t)blockIdx.y * TG_MMA_BM, col0 = (size_t)blockIdx.x * TG_MMA_BN;
    float acc[MI][NI][4] = {};
    for (int p0 = 0; p0 < k; p0 += TG_MMA_BK) {
        /* 512 chunks of 16 bytes per tile, 2 per thread each */
        for (int q = tid; q < TG_MMA_BM * TG_MMA_BK / 8; q += TG_MMA_THREADS) {
            int r = q / 4, ch = q % 4;
            as4[a_offset<false>(r, ch) / 8] = *(const uint4 *)(a + (row0 + r) * k + p0 + ch * 8);
        }
        for (int q = tid; q < TG_MMA_BK * TG_MMA_BN / 8; q += TG_MMA_THREADS) {
            int r = q / 16, ch = q % 16;
            bs4[b_offset<false>(r, ch) / 8] = *(const uint4 *)(b + (size_t)(p0 + r) * n + col0 + ch * 8);
        }
        __syncthreads();
        for (int ks = 0; ks < TG_MMA_BK / 16; ks++) warp_step<T, false>(acc, as, bs, ks, wm, wn, lane);
        __syncthreads();
    }
    store_acc(acc, c, n, row0 + wm * WARP_M, col0 + wn * WARP_N, lane);
}

/* One stage of the pipeline: the block's A and B tiles of step p0, global
 * -> shared by cp.async, 16 bytes per copy, 2 + 2 per thread. */
template <class T, bool SWIZZLE>
__device__ __forceinline__ void load_stage(T *as, T *bs, const T *a, const T *b, int n, int k, size_t row0,
                                           size_t col0, int p0, int tid)
{
    for (int q = tid; q < TG_MMA_BM * TG_MMA_BK / 8; q += TG_MMA_THREADS) {
        int r = q / 4, ch = q % 4;
        sl_cp_async_16(as + a_offset<SWIZZLE>(r, ch), a + (row0 + r) * k + p0 + ch * 8);
    }
    for (int q = tid; q < TG_MMA_BK * TG_MMA_BN / 8; q += TG_MMA_THREADS) {
        int r = q / 16, ch = q % 16;
        sl_cp_async_16(bs + b_offset<SWIZZLE>(r, ch), b + (size_t)(p0 + r) * n + col0 + ch * 8);
    }
}

/* The block's whole product through a ring of PIPE_STAGES shared tiles
 * (the kernel's): v4 with the plain layout, v5 with the swizzled one. */
template <class T, bool SWIZZLE>
__device__ __forceinline__ void pipelined_gemm(T (*as)[TG_MMA_BM * TG_MMA_BK], T (*bs)[TG_MMA_BK * TG_MMA_BN], int n,
                                               int k, const T *a, const T *b, float *c)
{
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, wm = warp / 4, wn = warp % 4;
    const size_t row0 = (size_t)blockIdx.y * TG_MMA_BM, col0 = (size_t)blockIdx.x * TG_MMA_BN;
    const int steps = k / TG_MMA_BK;
    float acc[MI][NI][4] = {};
    /* the first PIPE_STAGES - 1 steps in flight, one commit group each */
    for (int s = 0; s < PIPE_STAGES - 1; s++) {
        if (s < steps) load_stage<T, SWIZZLE>(as[s], bs[s], a, b, n, k, row0, col0, s * TG_MMA_BK, tid);
        sl_cp_async_commit();
    }
    for (int step = 0; step < steps; step++) {
        sl_cp_async_wait_group(PIPE_STAGES - 2); /* this thread's copies of `step` have landed */
        __syncthreads();                         /* everyone's have; and step - 1's stage is free */
        int next = step + PIPE_STAGES - 1;
        if (next < steps)
            load_stage<T, SWIZZLE>(as[next % PIPE_STAGES], bs[next % PIPE_STAGES], a, b, n, k, row0, col0,
                                   next * TG_MMA_BK, tid);
        sl_cp_async_commit(); /* an empty group near the end keeps the count */
        const int s = step % PIPE_STAGES;
        for (int ks = 0; ks < TG_MMA_BK / 16; ks++) warp_step<T, SWIZZLE>(acc, as[s], bs[s], ks, wm, wn, lane);
    }
    sl_cp_async_wait_all();
    store_acc(acc, c, n, row0 + wm * WARP_M, col0 + wn * WARP_N, lane);
}

/* v4 — v3 + a 3-stage cp.async pipeline.
 * v3's threads loaded each tile into registers, stored it to shared memory
 * and waited at a barrier before any mma: global latency (hundreds of
 * cycles) was paid every step. cp.async copies global -> shared without
 * passing through registers and without waiting: the block issues the
 * copies of the step after next, then computes on the current one, so the
 * latency hides behind the mma. Cost: three stages of both tiles, 3 x 16 KB
 * = 48 KB of shared memory, and a __syncthreads per step still, since all
 * warps read every stage. The layout is v3's, bank conflicts included. */
template <class T>
__global__ void __launch_bounds__(TG_MMA_THREADS) tgemm_v4_pipelined(int n, int k, const T *a, const T *b, float *c)
{
    __shared__ __align__(128) T as[PIPE_STAGES][TG_MMA_BM * TG_MMA_BK];
    __shared__ __align__(128) T bs[PIPE_STAGES][TG_MMA_BK * TG_MMA_BN];
    pipelined_gemm<T, false>(as, bs, n, k, a, b, c);
}

/* v5 — v4 + a swizzled shared layout.
 * v4's plain tiles have 64-byte rows (A) and 256-byte rows (B), so the 8
 * rows one ldmatrix phase reads fall on the same banks: 4-way conflicts for
 * A, 8-way for B. Here chunk c (16 bytes) of row r goes to chunk
 * c ^ ((r >> 1) & 3) in A and c ^ (r & 7) in B: the 8 rows of a phase (and
 * the 8 chunks that 8 lanes' cp.async write) then cover all 32 banks once:
 * no conflicts, and no padding bytes. Cost: an XOR per address. */
template <class T>
__global__ void __launch_bounds__(TG_MMA_THREADS) tgemm_v5_swizzled(int n, int k, const T *a, const T *b, float *c)
{
    __shared__ __align__(128) T as[PIPE_STAGES][TG_MMA_BM * TG_MMA_BK];
    __shared__ __align__(128) T bs[PIPE_STAGES][TG_MMA_BK * TG_MMA_BN];
    pipelined_gemm<T, true>(as, bs, n, k, a, b, c);
}

template <class T>
static cudaError_t launch_mma(int version, const sl_tgemm_args *p, cudaStream_t stream)
{
    dim3 grid((unsigned)(p->n / TG_MMA_BN), (unsigned)(p->m / TG_MMA_BM));
    const T *a = (const T *)p->a, *b = (const T *)p->b;
    if (version == 3) tgemm_v3_mma<T><<<grid, TG_MMA_THREADS, 0, stream>>>(p->n, p->k, a, b, p->c);
    else if (version == 4) tgemm_v4_pipelined<T><<<grid, TG_MMA_THREADS, 0, stream>>>(p->n, p->k, a, b, p->c);
    else tgemm_v5_swizzled<T><<<grid, TG_MMA_THREADS, 0, stream>>>(p->n, p->k, a, b, p->c);
    return cudaGetLastError();
}

cudaError_t tgemm_mma_launch(int version, const sl_tgemm_args *args, cudaStream_t stream)
{
    return args->bf16 ? launch_mma<__nv_bfloat16>(version, args, stream) : launch_mma<__half>(version, args, stream);
}
