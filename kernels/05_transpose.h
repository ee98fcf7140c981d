/* Chapter 05 — matrix transpose: the launchers host code calls (C linkage).
 *
 * out (cols x rows) = in (rows x cols) transposed, both row-major with
 * leading dimensions (elements from one row to the next): in[i * ld_in + j]
 * goes to out[j * ld_out + i]. Any rows and cols (not only multiples of the
 * tile); sl_transpose_check says what cannot run. */
#ifndef SIMTLAB_KERNELS_05_TRANSPOSE_H
#define SIMTLAB_KERNELS_05_TRANSPOSE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SL_TRANSPOSE_VERSIONS 4
/* The tile every version works in: 32 x 32 elements, one warp wide. */
#define SL_TRANSPOSE_TILE 32
/* The grid puts row tiles on y, whose limit is 65535 blocks. */
#define SL_TRANSPOSE_MAX_ROW_TILES 65535

typedef enum sl_transpose_problem {
    SL_TRANSPOSE_FINE = 0,
    SL_TRANSPOSE_BAD_VERSION,  /* outside 1..SL_TRANSPOSE_VERSIONS */
    SL_TRANSPOSE_EMPTY,        /* rows or cols is 0: nothing to launch */
    SL_TRANSPOSE_BAD_LD_IN,    /* ld_in < cols */
    SL_TRANSPOSE_BAD_LD_OUT,   /* ld_out < rows */
    SL_TRANSPOSE_TOO_MANY_ROWS /* more than 65535 row tiles, or cols past the x limit */
} sl_transpose_problem;

sl_transpose_problem sl_transpose_check(int version, size_t rows, size_t cols, size_t ld_in, size_t ld_out);

/* Threads per block of a version: 1024 (32 x 32) for v1-v3, 256 (32 x 8) for v4. */
int sl_transpose_block_threads(int version);
/* Blocks the launch uses. */
unsigned sl_transpose_grid_blocks(size_t rows, size_t cols);

/* Transposes on `stream` without synchronizing. cudaErrorInvalidValue when
 * sl_transpose_check finds a problem (EMPTY included: the host returns
 * before), else the launch's error. */
cudaError_t sl_transpose_launch(int version, const float *in, size_t rows, size_t cols, size_t ld_in, float *out,
                                size_t ld_out, cudaStream_t stream);

/* "v1 naive (uncoalesced stores)", ...; NULL outside 1..SL_TRANSPOSE_VERSIONS. */
const char *sl_transpose_kernel_name(int version);

#ifdef __cplusplus
}
#endif

#endif
