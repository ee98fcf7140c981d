/* simtlab — chapter 05: SGEMM, from the naive kernel to cuBLAS
 * (kernels/05_sgemm*.cu, host/05_sgemm.c). */
#ifndef SIMTLAB_05_SGEMM_H
#define SIMTLAB_05_SGEMM_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C = alpha * A * B + beta * C, row-major, with the whole lifecycle and the
 * phase report of sl_vector_add. A is m x k with lda >= k floats from one
 * row to the next, B is k x n with ldb >= n, C is m x n with ldc >= n; the
 * floats between C's rows (ldc > n) are kept. beta == 0 never reads C, so
 * NaN or garbage there does not matter (and C is then not copied in unless
 * its rows have gaps to keep). m == 0 or n == 0 is a no-op; k == 0 gives
 * C = beta * C. Sizes and leading dimensions up to 2^31 - 1 (ints on the
 * device, as in cuBLAS). Host arrays; C may overlap A or B (C = A * B in
 * place is right: A and B are copied in before C comes back).
 * Versions 1..9 (0 = best = 9): 1 naive, 2 coalesced, 3 shared-memory
 * tiles, 4 1D register blocking, 5 2D register blocking, 6 float4 loads
 * with a transposed A tile, 7 warp tiling, 8 warp tiling with double
 * buffering, 9 the same in the tile shape of sl_sgemm_v9_shape() (v7 and v8
 * run shape 0). Blocks: v1 and v2 take a multiple of 32 from 32 to 1024
 * (0 = 256); v3-v9 run the block their tile fixes, so
 * opts->block must be 0 or that. */
sl_status sl_sgemm(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                   size_t ldb, float beta, float *c, size_t ldc, const sl_opts *opts, sl_report *report);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_sgemm_version_count(void);
const char *sl_sgemm_version_name(int version);

/* The same on device buffers (the benchmark's): *kernel_ms is the kernel's
 * time. Not in place: C must not overlap A or B (SL_ERR_INVALID_ARGUMENT
 * naming both), here and in the vendor and CPU functions below. */
sl_status sl_sgemm_device(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                          size_t ldb, float beta, float *c, size_t ldc, const sl_opts *opts, double *kernel_ms);

/* v9's tile shapes (block tile, warp tile, thread patch): how many there
 * are, each one's description, the one v9 runs now (0 until changed), and
 * how to change it for this process (a name is NULL outside 0 .. count - 1). */
int sl_sgemm_v9_shape_count(void);
const char *sl_sgemm_v9_shape_name(int shape);
int sl_sgemm_v9_shape(void);
sl_status sl_sgemm_v9_use_shape(int shape);

/* The autotuner: times v9 in every shape on an m x n x k product on this
 * GPU (device buffers it allocates; 1 warm-up, the median of 5 runs each),
 * makes the fastest the one v9 runs (sl_sgemm_v9_use_shape), and returns
 * it in *best. ms_each (may be NULL) receives sl_sgemm_v9_shape_count()
 * medians. On the emulator SL_ERR_UNSUPPORTED: CPU times say nothing about
 * which shape suits a GPU. */
sl_status sl_sgemm_v9_autotune(size_t m, size_t n, size_t k, int *best, double *ms_each);

/* What the CPU emulator models for one launch of `version` on an
 * m x n x k product (its SIMT counters, from the warps' real addresses:
 * modelled, never measured), and the block tile's arithmetic intensity,
 * from its shape. SL_ERR_UNSUPPORTED, saying why, in the CUDA build and
 * where the kernels were compiled without the counters; the intensity is
 * filled in either way. */
typedef struct sl_sgemm_model {
    double load_sectors_per_request;          /* global loads: 4 = a warp's 128 contiguous bytes */
    double store_sectors_per_request;
    double shared_load_conflicts_per_request; /* wavefronts beyond the first, per shared load */
    double shared_store_conflicts_per_request;
    double simt_efficiency;                   /* active lanes per warp instruction / 32 */
    double tile_flops_per_byte;               /* 2 bm bn k flops per 4 (bm + bn) k bytes loaded */
} sl_sgemm_model;
sl_status sl_sgemm_modelled(int version, size_t m, size_t n, size_t k, sl_sgemm_model *model);

/* The vendor column: cublasSgemm on device buffers, row-major through the
 * identity (AB)^T = B^T A^T (host/05_sgemm.c explains). In emulator builds
 * the emulator's cuBLAS, on OpenBLAS: CPU times. */
sl_status sl_vendor_sgemm_device(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                 const float *b, size_t ldb, float beta, float *c, size_t ldc, double *kernel_ms);

/* CPU baselines, same contract as sl_sgemm on host arrays: the naive
 * triple loop (one core); a cache-blocked loop with a register-blocked
 * inner kernel, on all cores (OpenMP); and OpenBLAS's cblas_sgemm, the
 * honest CPU best. */
sl_status sl_sgemm_cpu_naive(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                             size_t ldb, float beta, float *c, size_t ldc);
sl_status sl_sgemm_cpu_blocked(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                               const float *b, size_t ldb, float beta, float *c, size_t ldc);
sl_status sl_sgemm_cpu_openblas(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                const float *b, size_t ldb, float beta, float *c, size_t ldc);

#ifdef __cplusplus
}
#endif

#endif
