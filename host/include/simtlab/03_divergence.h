/* simtlab — chapter 03: warps and divergence (kernels/03_divergence.cu,
 * host/03_divergence.c). */
#ifndef SIMTLAB_03_DIVERGENCE_H
#define SIMTLAB_03_DIVERGENCE_H

#include <stdint.h>

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The versions (opts->version), in pairs of a divergent kernel and its
 * control, which does the same work on the same items with no warp split
 * (0 picks v2, the uniform control):
 *   1 split by lane % k        2 split by warp (control)
 *   3 escape time, image order 4 shuffled  5 sorted by trip count
 *   6 short branch, mixed keys 7 short branch, grouped (control)
 *   8 long branch, mixed keys  9 long branch, grouped (control)
 * out[i] is the same for every version of a pair: item i's result. */
typedef struct sl_divergence_params {
    int k;     /* v1, v2: paths, a power of two 1..32 (0 = 2); item i takes path i % k */
    int work;  /* steps of each path and branch, and the escape-time cap: 1..2^20 (0 = 128) */
    int width; /* v3-v5: pixels per image row, 1..65536 (0 = 1024); height = ceil(n / width) */
} sl_divergence_params;

/* Runs a version over n items with the whole lifecycle. x[i] (n values) is
 * read by v1, v2 and v6-v9 (the branches' key is bit 0); v3-v5 compute pixel
 * i of the complex plane [-2.25, 0.75] x [-1.25, 1.25] from i alone and do
 * not read x (it may be NULL). out[i]: item i's result (for v3-v5 its
 * escape-time iterations). Blocks must be a multiple of 32 (whole warps);
 * n <= 2^32 - 1 (items are 32-bit indices). `params` and `report` may be NULL.
 * v5's order comes from a first, untimed run of v3 (the trip counts of the
 * "previous frame"), counted in the report's total only. Host arrays; out
 * may be x (x is copied in first). */
sl_status sl_divergence(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                        const sl_opts *opts, sl_report *report);
/* The same on device buffers (x may be NULL for v3-v5): *kernel_ms is the
 * timed launch alone; orders are built and uploaded before it. Not in
 * place: out apart from x, here and in sl_divergence_cpu. */
sl_status sl_divergence_device(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                               const sl_opts *opts, double *kernel_ms);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_divergence_version_count(void);
const char *sl_divergence_version_name(int version);
/* The version a divergent version is measured against (2, 3, 7, 9; a
 * control is its own). 0 outside 1..9. */
int sl_divergence_control(int version);
/* The CPU reference: out[i] for `version` from the same arithmetic, one core. */
sl_status sl_divergence_cpu(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                            int version);

/* What a GPU would do with one call of a version, modelled by the emulator
 * (simtlab/core.h, sl_modelled): every launch of the call summed. The CUDA
 * build answers SL_ERR_UNSUPPORTED. */
sl_status sl_divergence_modelled(const uint32_t *x, size_t n, const sl_divergence_params *params,
                                 const sl_opts *opts, sl_modelled *out);

/* One warp of a call. */
typedef struct sl_divergence_warp {
    long long clock_start, clock_stop; /* clock64() at entry and when its last lane was done (SM cycles) */
    int modelled;                      /* 1: the fields below are the emulator's model of this warp alone */
    double simt_efficiency;            /* lanes per basic-block issue / 32 */
    unsigned long long inst_executed, branches_diverged;
} sl_divergence_warp;

/* Runs the call once with per-warp clocks and fills warp[0 .. count) for
 * warps first .. first + count - 1 of it; where the emulator's counters
 * exist, also models each of those warps on its own. On the emulator the
 * clocks are emulated cycles, not a GPU's. */
sl_status sl_divergence_warps(const uint32_t *x, size_t n, const sl_divergence_params *params,
                              const sl_opts *opts, size_t first, size_t count, sl_divergence_warp *warp);

#ifdef __cplusplus
}
#endif

#endif
