/* Chapter 05 — SGEMM: the launchers host code calls (C linkage).
 *
 * Row-major C = alpha * A * B + beta * C, with A m x k (lda >= k), B k x n
 * (ldb >= n), C m x n (ldc >= n): A[i][p] is a[i * lda + p]. Any m, n, k:
 * every version handles the edges of its tiles. beta == 0 never reads C
 * (NaN already there is ignored, as BLAS promises). k == 0 gives
 * C = beta * C. sl_sgemm_check says what cannot run. */
#ifndef SIMTLAB_KERNELS_05_SGEMM_H
#define SIMTLAB_KERNELS_05_SGEMM_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SL_SGEMM_VERSIONS 9
/* v1 and v2 take a block of 32 x (block / 32) threads: block is a multiple
 * of 32 from 32 to 1024. v3-v9 have the block their tile fixes. */
#define SL_SGEMM_FREE_BLOCK_VERSIONS 2
/* Sizes are ints on the device (as in cuBLAS); row tiles go on grid.y. */
#define SL_SGEMM_MAX_DIM 2147483647
#define SL_SGEMM_MAX_ROW_TILES 65535

typedef enum sl_sgemm_problem {
    SL_SGEMM_FINE = 0,
    SL_SGEMM_BAD_VERSION,   /* outside 1..SL_SGEMM_VERSIONS */
    SL_SGEMM_EMPTY,         /* m or n is 0: nothing to write */
    SL_SGEMM_BAD_LDA,       /* lda < k */
    SL_SGEMM_BAD_LDB,       /* ldb < n */
    SL_SGEMM_BAD_LDC,       /* ldc < n */
    SL_SGEMM_TOO_LARGE,     /* m, n or k above SL_SGEMM_MAX_DIM, or too many row tiles for grid.y */
    SL_SGEMM_BAD_BLOCK,     /* v1/v2: not a multiple of 32 in 32..1024; v3-v9: not 0 and not their own */
    SL_SGEMM_BAD_V9_CONFIG  /* v9's shape outside 0..sl_sgemm_v9_config_count() - 1 */
} sl_sgemm_problem;

/* One multiplication as the launcher sees it. */
typedef struct sl_sgemm_args {
    int m, n, k;
    float alpha, beta;
    const float *a;
    size_t lda;
    const float *b;
    size_t ldb;
    float *c;
    size_t ldc;
} sl_sgemm_args;

/* Checks (version, sizes, leading dimensions, block; v9's tile shape
 * `v9_config`, ignored by the other versions) without touching the device. Sizes are size_t here so that
 * a too-large one is named, not truncated. */
sl_sgemm_problem sl_sgemm_check(int version, size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc,
                                int block, int v9_config);

/* The block a version launches with: `block` for v1/v2 (0 = 256), the
 * tile's own for v3-v9 (v9: of config `v9_config`; v7 and v8: of config 0). */
int sl_sgemm_block_threads(int version, int block, int v9_config);
/* Blocks the launch uses for an m x n result. */
unsigned sl_sgemm_grid_blocks(int version, int block, int v9_config, size_t m, size_t n);

/* Runs version `version` on `stream` without synchronizing (v9 with tile
 * shape `v9_config`). cudaErrorInvalidValue when sl_sgemm_check finds a
 * problem or a pointer is NULL, else the launch's error. */
cudaError_t sl_sgemm_launch(int version, int block, int v9_config, const sl_sgemm_args *args, cudaStream_t stream);

/* "v1 naive (threadIdx.x along rows)", ...; NULL outside 1..SL_SGEMM_VERSIONS. */
const char *sl_sgemm_kernel_name(int version);

/* Flops per byte a block loads from global memory, from its tile of C
 * alone (bm x bn elements, k-deep: 2 bm bn k flops on 4 (bm + bn) k
 * bytes): bm bn / (2 (bm + bn)). v1 and v2 have no tile: each
 * multiply-add loads its own two floats, 0.25. */
double sl_sgemm_tile_flops_per_byte(int version, int v9_config);

/* v9's tile shapes, the autotuner's candidates: how many, and each one as
 * "BM128 BN128 BK16 WM64 WN64 TM8 TN4 (128 threads)"; NULL outside the
 * range. Shape 0 is also v7's and v8's. */
int sl_sgemm_v9_config_count(void);
const char *sl_sgemm_v9_config_name(int config);

#ifdef __cplusplus
}
#endif

#endif
