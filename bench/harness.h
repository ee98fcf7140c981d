/* simtlab benchmarks — the one harness every chapter's benchmark uses.
 *
 * - warm-up, then the median, min and max of N timed runs (sl_time_repeat);
 * - device work timed with CUDA events, host work with the monotonic clock;
 * - inputs rotated over enough copies that the working set exceeds twice the
 *   L2 cache, so that small sizes are not mistaken for DRAM bandwidth;
 * - results as a table on stdout and as CSV whose header records the machine,
 *   the device and the build;
 * - columns that cannot run here (GPU columns without a GPU) are listed as
 *   skipped, never printed as numbers. Emulator timings are labelled so.
 */
#ifndef SIMTLAB_BENCH_HARNESS_H
#define SIMTLAB_BENCH_HARNESS_H

#include <stdio.h>

#include "simtlab/simtlab.h"

typedef struct bench_env {
    int have_gpu;            /* a CUDA device answered (never true in emulator builds) */
    int emulated;            /* this binary runs kernels on the CPU emulator */
    sl_device_info device;   /* valid when have_gpu or emulated */
    char why_no_gpu[512];    /* the error text when !have_gpu */
    FILE *csv;               /* NULL when no CSV was asked for */
    int quick;               /* --quick: fewer sizes and runs (smoke test) */
} bench_env;

/* Parses --csv FILE and --quick, probes the device, writes the CSV header
 * (the machine, device, backend and build as # comments, then `columns`).
 * Returns 0 on success, 2 on a usage error. */
int bench_init(bench_env *env, int argc, char **argv, const char *title, const char *columns);
void bench_finish(bench_env *env);

/* Prints "skipped: <columns> (<reason>)" once, on stdout and into the CSV. */
void bench_skip(bench_env *env, const char *columns, const char *reason);

/* Copies of a buffer to rotate through: enough that `copies * bytes` is at
 * least twice the L2 cache (at least 1, at most 64). */
int bench_rotation(const bench_env *env, size_t bytes);

/* Timed runs for a problem that moves `bytes` per run: more runs for small
 * problems, so each size takes a similar, short time. */
int bench_runs(const bench_env *env, size_t bytes);

/* GB/s for `bytes` moved in `ms` milliseconds. */
double bench_gbs(size_t bytes, double ms);

/* Host wall time of fn(ctx) in *ms, for CPU baselines (an sl_timed_fn). */
typedef void (*bench_host_fn)(void *ctx);
typedef struct bench_host_call {
    bench_host_fn fn;
    void *ctx;
} bench_host_call;
sl_status bench_time_host(void *call, double *ms);

#endif
