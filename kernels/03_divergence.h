/* Chapter 03 — warps and divergence: the launchers host code calls (C linkage). */
#ifndef SIMTLAB_KERNELS_03_DIVERGENCE_H
#define SIMTLAB_KERNELS_03_DIVERGENCE_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "03_divergence_work.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SL_DIVERGENCE_VERSIONS 9
#define SL_DIVERGENCE_MAX_K 32

/* One launch: which version, its parameters, and the threads it covers
 * (global thread ids t0 .. t0 + threads - 1 of the whole problem; a whole
 * call is t0 = 0, threads = sl_divergence_threads(...)). */
typedef struct sl_divergence_plan {
    int version;        /* 1..SL_DIVERGENCE_VERSIONS */
    int k;              /* v1, v2: paths, a power of two 1..32 */
    int work;           /* loop length of a path, the branches, or the escape cap */
    int block;          /* threads per block, a multiple of 32 */
    sl_div_plane plane; /* v3-v5: the image */
} sl_divergence_plan;

/* Threads a whole call of `version` needs for n items: n, rounded up to a
 * whole group of 32k for v2 (its warps take strided items of a group). */
size_t sl_divergence_threads(int version, size_t n, int k);

/* Launches the plan over threads t0 .. t0 + threads - 1 on `stream`;
 * returns the launch's error without synchronizing. x: the values (v1, v2,
 * v6-v9); order: the item each thread takes (v4, v5, v7, v9; NULL: thread
 * i takes item i); out[item] receives the item's result. clocks (may be
 * NULL): per warp of this launch, clock64() at entry and after the warp's
 * last lane is done, lane 0 writing clocks[2w], clocks[2w + 1].
 * cudaErrorInvalidValue for a version, k or block this chapter does not have. */
cudaError_t sl_divergence_launch(const sl_divergence_plan *p, const uint32_t *x, const uint32_t *order,
                                 uint32_t *out, size_t n, size_t t0, size_t threads, long long *clocks,
                                 cudaStream_t stream);
/* "v1 split by lane % k", ...; NULL outside 1..SL_DIVERGENCE_VERSIONS. */
const char *sl_divergence_kernel_name(int version);

#ifdef __cplusplus
}
#endif

#endif
