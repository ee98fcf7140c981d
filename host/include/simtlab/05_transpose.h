/* simtlab — chapter 05: the matrix transpose through shared memory
 * (kernels/05_transpose.cu, host/05_transpose.c). */
#ifndef SIMTLAB_05_TRANSPOSE_H
#define SIMTLAB_05_TRANSPOSE_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = in transposed, with the whole lifecycle and the phase report of
 * sl_vector_add. `in` is rows x cols, row-major, ld_in floats from one row
 * to the next (ld_in >= cols); `out` is cols x rows, ld_out apart
 * (ld_out >= rows). Only the matrix's own elements of `out` are written:
 * what lies between its rows (ld_out > rows) is kept.
 * Versions 1..4 (0 = best = 4): 1 naive, 2 shared tile, 3 padded shared
 * tile, 4 padded tile with 4 elements per thread. Each version has its own
 * block (1024 threads for v1-v3, 256 for v4): opts->block must be 0 or that.
 * rows == 0 or cols == 0 is a no-op. */
sl_status sl_transpose(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                       const sl_opts *opts, sl_report *report);
int sl_transpose_version_count(void);
const char *sl_transpose_version_name(int version);

/* The same on device buffers (the benchmark's): *kernel_ms is the kernel's time. */
sl_status sl_transpose_device(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                              const sl_opts *opts, double *kernel_ms);

/* CPU baseline: the transpose in 32 x 32 blocks, so that both the rows read
 * and the rows written stay in cache, blocks shared among cores (OpenMP). */
sl_status sl_transpose_cpu(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out);

#ifdef __cplusplus
}
#endif

#endif
