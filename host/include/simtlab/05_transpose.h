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
 * rows == 0 or cols == 0 is a no-op. Host arrays; out may be in (in place:
 * in is copied in before out comes back). */
sl_status sl_transpose(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                       const sl_opts *opts, sl_report *report);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_transpose_version_count(void);
const char *sl_transpose_version_name(int version);

/* The same on device buffers (the benchmark's): *kernel_ms is the kernel's
 * time. Not in place: out must not overlap in (SL_ERR_INVALID_ARGUMENT naming
 * both), nor in sl_transpose_cpu. */
sl_status sl_transpose_device(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                              const sl_opts *opts, double *kernel_ms);

/* What the CPU emulator models for one launch of `version` on a rows x cols
 * transpose, from the warps' real addresses (its SIMT counters, after
 * Nsight Compute's metrics): modelled, never measured. 4 sectors per
 * request is a warp's 32 floats in 128 contiguous bytes; 32 is one sector
 * per lane. A bank conflict is a shared-memory wavefront beyond the first
 * of a request: 31 per request is a 32-way conflict. SL_ERR_UNSUPPORTED,
 * saying why, in the CUDA build and where the kernels were compiled
 * without the counters. */
typedef struct sl_transpose_model {
    double load_sectors_per_request;          /* global loads */
    double store_sectors_per_request;         /* global stores */
    double shared_load_conflicts_per_request; /* 0 where there is no shared memory */
    double shared_store_conflicts_per_request;
    unsigned long long shared_bank_conflicts; /* loads and stores, the whole launch */
} sl_transpose_model;
sl_status sl_transpose_modelled(int version, size_t rows, size_t cols, sl_transpose_model *model);

/* CPU baseline: the transpose in 32 x 32 blocks, so that both the rows read
 * and the rows written stay in cache, blocks shared among cores (OpenMP). */
sl_status sl_transpose_cpu(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out);

#ifdef __cplusplus
}
#endif

#endif
