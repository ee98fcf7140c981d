/* Chapter 05 — SGEMM: the map of every version, v1 to v3, and the
 * chapter's SGEMM dispatch.
 *
 * C = alpha * A * B + beta * C, row-major, any m, n, k. An m x n x k product
 * does 2mnk flops on 4(mk + kn + 2mn) bytes at the least: at 4096 that is
 * 137 GFLOP on 200 MB, 680 flops per byte, far above any GPU's ratio of
 * compute to bandwidth. So SGEMM can be compute-bound, and the whole ladder
 * is about feeding the arithmetic units: every step raises the flops each
 * loaded byte pays for (the arithmetic intensity), from global memory to
 * shared memory to registers. Each version changes one thing:
 *
 *   v1  naive, threadIdx.x along the rows      this file
 *   v2  coalesced, threadIdx.x along columns
 *   v3  32 x 32 shared-memory tiles
 *   v4  1D register blocking (8 per thread)    kernels/05_sgemm_blocked.cu
 *   v5  2D register blocking (8 x 8)
 *   v6  float4 loads, A's tile transposed
 *   v7  warp tiling                            kernels/05_sgemm_warptile.cu
 *   v8  v7 + double-buffered shared memory
 *   v9  v8 in 5 tile shapes; the autotuner
 *       picks one per device
 *
 * bench/data/version_map.csv maps the names of the earlier numbering, in
 * which one v7 was today's v9, to these.
 *
 * The files:
 *   kernels/05_sgemm.h            the contract with host/05_sgemm.c
 *   kernels/05_sgemm_family.cuh   what the SGEMM files share
 *
 * Build and run: make examples && build/bin/05_sgemm        (GPU)
 *                                 build/bin/05_sgemm_emu    (CPU emulator)
 * one version:   build/bin/05_sgemm_emu 256 256 256 8       (m, n, k, version)
 * test, bench:   build/bin/test_05_sgemm_emu, build/bin/bench_05_sgemm
 */
#include <stdint.h>

#include "05_sgemm_family.cuh"

#define V3_TILE 32
#define DEFAULT_BLOCK 256

extern "C" const char *sl_sgemm_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 naive (threadIdx.x along rows)";
    case 2: return "v2 coalesced (threadIdx.x along columns)";
    case 3: return "v3 32x32 shared-memory tiles";
    case 4: return "v4 1D register blocking (8 per thread)";
    case 5: return "v5 2D register blocking (8x8 per thread)";
    case 6: return "v6 float4 loads, transposed A tile";
    case 7: return "v7 warp tiling";
    case 8: return "v8 warp tiling, double-buffered";
    case 9: return "v9 warp tiling, double-buffered, autotuned";
    default: return NULL;
    }
}

extern "C" int sl_sgemm_v9_config_count(void) { return sgemm_warptile_config_count(); }

extern "C" const char *sl_sgemm_v9_config_name(int config) { return sgemm_warptile_config_name(config); }

/* The block and tile of C of a version. v1 puts 32 threads (threadIdx.x)
 * along the rows of C, v2 along its columns. */
static sgemm_shape shape_of(int version, int block, int v9_config)
{
    int b = block ? block : DEFAULT_BLOCK;
    sgemm_shape s = {b, 32, b / 32};
    switch (version) {
    case 1: break;
    case 2: s.bm = b / 32, s.bn = 32; break;
    case 3: s.threads = V3_TILE * V3_TILE, s.bm = s.bn = V3_TILE; break;
    case 7:
    case 8:
    case 9: s = sgemm_warptile_shape(version, v9_config); break;
    default: s = sgemm_blocked_shape(version); break;
    }
    return s;
}

extern "C" sl_sgemm_problem sl_sgemm_check(int version, size_t m, size_t n, size_t k, size_t lda, size_t ldb,
                                           size_t ldc, int block, int v9_config)
{
    if (version < 1 || version > SL_SGEMM_VERSIONS) return SL_SGEMM_BAD_VERSION;
    if (lda < k) return SL_SGEMM_BAD_LDA;
    if (ldb < n) return SL_SGEMM_BAD_LDB;
    if (ldc < n) return SL_SGEMM_BAD_LDC;
    if (version == 9 && (v9_config < 0 || v9_config >= sgemm_warptile_config_count())) return SL_SGEMM_BAD_V9_CONFIG;
    if (version <= SL_SGEMM_FREE_BLOCK_VERSIONS) {
        if (block != 0 && (block < 32 || block > 1024 || block % 32 != 0)) return SL_SGEMM_BAD_BLOCK;
    } else if (block != 0 && block != shape_of(version, 0, v9_config).threads) {
        return SL_SGEMM_BAD_BLOCK;
    }
    if (m > SL_SGEMM_MAX_DIM || n > SL_SGEMM_MAX_DIM || k > SL_SGEMM_MAX_DIM) return SL_SGEMM_TOO_LARGE;
    sgemm_shape s = shape_of(version, block, v9_config);
    if ((m + s.bm - 1) / s.bm > SL_SGEMM_MAX_ROW_TILES) return SL_SGEMM_TOO_LARGE;
    if (m == 0 || n == 0) return SL_SGEMM_EMPTY;
    return SL_SGEMM_FINE;
}

extern "C" int sl_sgemm_block_threads(int version, int block, int v9_config)
{
    return shape_of(version, block, v9_config).threads;
}

extern "C" unsigned sl_sgemm_grid_blocks(int version, int block, int v9_config, size_t m, size_t n)
{
    sgemm_shape s = shape_of(version, block, v9_config);
    return (unsigned)(((m + s.bm - 1) / s.bm) * ((n + s.bn - 1) / s.bn));
}

extern "C" double sl_sgemm_tile_flops_per_byte(int version, int v9_config)
{
    if (version < 3 || version > SL_SGEMM_VERSIONS) return 0.25;
    sgemm_shape s = shape_of(version, 0, v9_config);
    return (double)s.bm * s.bn / (2.0 * (s.bm + s.bn));
}

/* v1 — naive.
 * One thread per element of C, a dot product of a row of A and a column of
 * B straight from global memory, threadIdx.x along the rows of C. So the 32
 * lanes of a warp read 32 different rows of A (lda apart: 32 sectors per
 * request) and write 32 rows of C. Each element of A and B is read n or m
 * times from memory (or cache): 2 flops per 8 bytes loaded. */
__global__ void sgemm_v1_naive(sl_sgemm_args p)
{
    int row = blockIdx.y * blockDim.x + threadIdx.x;
    int col = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= p.m || col >= p.n) return;
    float acc = 0.0f;
    for (int q = 0; q < p.k; q++) acc += p.a[(size_t)row * p.lda + q] * p.b[(size_t)q * p.ldb + col];
    sgemm_store(p.c, (size_t)row * p.ldc + col, acc, p.alpha, p.beta);
}

/* v2 — coalesced.
 * v1's lanes were 32 rows apart. Swapping the roles of x and y puts the
 * lanes of a warp on 32 consecutive columns: they read one row of A (the
 * same address for all: one broadcast), 128 contiguous bytes of B, and
 * write 128 contiguous bytes of C. Same flops, same bytes per flop; just
 * 4 sectors per request instead of 32. */
__global__ void sgemm_v2_coalesced(sl_sgemm_args p)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= p.m || col >= p.n) return;
    float acc = 0.0f;
    for (int q = 0; q < p.k; q++) acc += p.a[(size_t)row * p.lda + q] * p.b[(size_t)q * p.ldb + col];
    sgemm_store(p.c, (size_t)row * p.ldc + col, acc, p.alpha, p.beta);
}

/* v3 — shared-memory tiles.
 * v2 loads every element of A n times and of B m times. Here a 32 x 32
 * block loads a 32 x 32 tile of A and of B into shared memory once, and
 * each thread does its 32 multiply-adds from there: global traffic drops
 * 32x (to 2 flops per 8 bytes of *shared* traffic, 64 per 8 from DRAM).
 * Cost: two barriers per tile, and shared memory is now the bottleneck:
 * 2 shared loads per fused multiply-add. Out-of-range elements load as 0. */
__global__ void __launch_bounds__(V3_TILE *V3_TILE) sgemm_v3_shared(sl_sgemm_args p)
{
    __shared__ float as[V3_TILE][V3_TILE];
    __shared__ float bs[V3_TILE][V3_TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * V3_TILE + ty;
    int col = blockIdx.x * V3_TILE + tx;
    float acc = 0.0f;
    for (int q0 = 0; q0 < p.k; q0 += V3_TILE) {
        as[ty][tx] = row < p.m && q0 + tx < p.k ? p.a[(size_t)row * p.lda + q0 + tx] : 0.0f;
        bs[ty][tx] = q0 + ty < p.k && col < p.n ? p.b[(size_t)(q0 + ty) * p.ldb + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < V3_TILE; q++) acc += as[ty][q] * bs[q][tx];
        __syncthreads(); /* before the next tile overwrites what others still read */
    }
    if (row < p.m && col < p.n) sgemm_store(p.c, (size_t)row * p.ldc + col, acc, p.alpha, p.beta);
}

/* ---- dispatch ------------------------------------------------------------------ */

extern "C" cudaError_t sl_sgemm_launch(int version, int block, int v9_config, const sl_sgemm_args *args,
                                       cudaStream_t stream)
{
    if (!args || !args->a || !args->b || !args->c || args->m < 0 || args->n < 0 || args->k < 0) return cudaErrorInvalidValue;
    if (sl_sgemm_check(version, (size_t)args->m, (size_t)args->n, (size_t)args->k, args->lda, args->ldb, args->ldc,
                       block, v9_config) != SL_SGEMM_FINE)
        return cudaErrorInvalidValue;
    sgemm_shape s = shape_of(version, block, v9_config);
    dim3 grid = sgemm_grid(args, s.bm, s.bn);
    switch (version) {
    case 1: sgemm_v1_naive<<<grid, dim3(32, s.threads / 32), 0, stream>>>(*args); break;
    case 2: sgemm_v2_coalesced<<<grid, dim3(32, s.threads / 32), 0, stream>>>(*args); break;
    case 3: sgemm_v3_shared<<<grid, dim3(V3_TILE, V3_TILE), 0, stream>>>(*args); break;
    case 7:
    case 8:
    case 9: return sgemm_warptile_launch(version, v9_config, args, stream);
    default: return sgemm_blocked_launch(version, args, stream);
    }
    return cudaGetLastError();
}
