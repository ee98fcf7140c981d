/* Chapter 06 — tensor-core GEMM: the launchers host code calls (C linkage).
 *
 * C = A * B with 16-bit inputs (f16 or bf16) and float accumulation and
 * output. Row-major and tight: A is m x k (a[i * k + p]), B is k x n, C is
 * m x n. v1-v5 see only multiples of their tile (sl_tgemm_tile): the
 * edges are PADDED, not predicated: host/06_tensor_gemm.c copies a matrix
 * whose sides are not multiples into a zero-filled buffer of the next
 * multiples (zeros add nothing to a dot product) and copies the m x n corner
 * of C back. v6 (Hopper, kernels/06_tensor_gemm_wgmma.cu) takes any m and
 * n, k multiples of 8 (sl_tgemm_granule: TMA wants row pitches in 16-byte
 * steps); TMA fills the rest of its tiles with zeros and its stores are
 * predicated. sl_tgemm_check says what cannot run. */
#ifndef SIMTLAB_KERNELS_06_TENSOR_GEMM_H
#define SIMTLAB_KERNELS_06_TENSOR_GEMM_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* v1-v6; v6 (wgmma + TMA, kernels/06_tensor_gemm_wgmma.cu) runs only on
 * sm_90. */
#define SL_TGEMM_VERSIONS 6
#define SL_TGEMM_HOPPER_VERSION 6
/* Sizes are ints on the device; tiles along m go on grid.y. */
#define SL_TGEMM_MAX_ROW_TILES 65535

typedef enum sl_tgemm_problem {
    SL_TGEMM_FINE = 0,
    SL_TGEMM_BAD_VERSION, /* outside 1..SL_TGEMM_VERSIONS */
    SL_TGEMM_NOT_PADDED,  /* m, n or k is 0 or not a multiple of the version's granule */
    SL_TGEMM_TOO_LARGE    /* a side above 2^31 - 1, or more than SL_TGEMM_MAX_ROW_TILES tiles along m */
} sl_tgemm_problem;

/* The block tile of a version: bm x bn of C per block, bk of K per step,
 * and the threads of a block. */
typedef struct sl_tgemm_tile_shape {
    int bm, bn, bk, threads;
} sl_tgemm_tile_shape;

/* One multiplication as the launcher sees it: sizes multiples of the tile;
 * a and b hold 16-bit elements (f16 bits, or bf16 bits when bf16 != 0). */
typedef struct sl_tgemm_args {
    int m, n, k;
    int bf16;
    const void *a;
    const void *b;
    float *c;
} sl_tgemm_args;

/* The tile of `version`; all zero outside 1..SL_TGEMM_VERSIONS. */
sl_tgemm_tile_shape sl_tgemm_tile(int version);
/* What m, n and k must be multiples of for `version` (only bm, bn, bk are
 * set): its tile for v1-v5; 1, 8, 8 for v6 (TMA's 16-byte row pitches). */
sl_tgemm_tile_shape sl_tgemm_granule(int version);
sl_tgemm_problem sl_tgemm_check(int version, size_t m, size_t n, size_t k);
/* Runs `version` on `stream` without synchronizing. cudaErrorInvalidValue
 * when sl_tgemm_check finds a problem or a pointer is NULL, else the
 * launch's error. k == 0 is a problem here (the host writes the zeros). */
cudaError_t sl_tgemm_launch(int version, const sl_tgemm_args *args, cudaStream_t stream);
/* v6's launch, in kernels/06_tensor_gemm_wgmma.cu (CUDA build only; the
 * emulator's sl_tgemm_launch answers cudaErrorNotSupported for v6). The
 * caller checks that the device is compute capability 9.0. */
cudaError_t tgemm_wgmma_launch(const sl_tgemm_args *args, cudaStream_t stream);
/* "v1 WMMA 16x16x16, one warp per tile", ...; NULL outside the range. */
const char *sl_tgemm_kernel_name(int version);

#ifdef __cplusplus
}
#endif

#endif
