/* Chapter 04 benchmark — reduction: GB/s of every version of the float sum,
 * against the device-to-device copy bandwidth measured in the same run, CUB
 * (cub::DeviceReduce::Sum), cuBLAS's cublasSasum (the sum of |x| on
 * non-negative data: a bandwidth reference) and the CPU (a double loop and a
 * pairwise float sum, one core and all cores), for n = 2^20 .. 2^30 floats in
 * steps of 4x (emulator: up to 2^22; --quick: 2^20 only; no GPU: CPU
 * columns up to 2^26).
 *
 * Bytes moved per reduction: 4n (each float read once; the partials are
 * noise). The copy column moves 8n (read + write) and is reported as such.
 * Targets on a GPU, printed and not asserted: at 2^28 floats the best
 * version reaches >= 98% of CUB and >= 90% of the copy bandwidth, and
 * >= 20x v1. Every column is checked against the double loop before it is
 * timed. After each size, a table: time, GB/s, % of copy, % of CUB, speedup
 * over the previous version and over v1.
 *
 * Usage: bench_04_reduce [--csv FILE] [--quick] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define COLUMNS "n,column,median_ms,min_ms,max_ms,gbs"
#define MAX_VERSIONS 9

typedef struct host_data {
    float *x;
    size_t n;
    double ref; /* double-loop sum of x[0..n) */
} host_data;

static void emit(bench_env *env, size_t n, const char *column, const sl_stats *s, size_t bytes)
{
    double gbs = bench_gbs(bytes, s->median_ms);
    printf("  %-16s %12.4f ms %10.2f GB/s  (min %.4f, max %.4f)\n", column, s->median_ms, gbs, s->min_ms,
           s->max_ms);
    if (env->csv)
        fprintf(env->csv, "%zu,%s,%.6f,%.6f,%.6f,%.3f\n", n, column, s->median_ms, s->min_ms, s->max_ms, gbs);
}

static int close_enough(double got, double ref, const char *what, size_t n)
{
    double rel = fabs(got - ref) / (ref != 0.0 ? fabs(ref) : 1.0);
    if (!isfinite(got) || rel > 1e-5) {
        fprintf(stderr, "%s is WRONG at n=%zu: %.9g, expected %.9g (relative error %.3g)\n", what, n, got, ref,
                rel);
        return 0;
    }
    return 1;
}

/* ---- CPU columns ------------------------------------------------------------ */
typedef struct cpu_run {
    const host_data *h;
    int which;
    double result;
} cpu_run;

static void run_cpu(void *ctx)
{
    cpu_run *c = ctx;
    const float *x = c->h->x;
    size_t n = c->h->n;
    switch (c->which) {
    case 0: c->result = sl_reduce_sum_cpu_f64(x, n); break;
    case 1: c->result = sl_reduce_sum_cpu_f64_omp(x, n); break;
    case 2: c->result = sl_reduce_sum_cpu_pairwise(x, n); break;
    default: c->result = sl_reduce_sum_cpu_pairwise_omp(x, n); break;
    }
}

static int bench_cpu(bench_env *env, const host_data *h)
{
    const char *names[4] = {"cpu_f64", "cpu_f64_omp", "cpu_pairwise", "cpu_pairwise_omp"};
    for (int k = 0; k < 4; k++) {
        cpu_run c = {h, k, NAN};
        run_cpu(&c);
        if (!close_enough(c.result, h->ref, names[k], h->n)) return 0;
        bench_host_call call = {run_cpu, &c};
        sl_stats s;
        if (sl_time_repeat(bench_time_host, &call, 1, bench_runs(env, 4 * h->n), &s) != SL_OK) return 0;
        emit(env, h->n, names[k], &s, 4 * h->n);
    }
    return 1;
}

/* ---- device columns ------------------------------------------------------------ */
typedef enum column_kind { COL_VERSION, COL_CUB, COL_SASUM } column_kind;

typedef struct device_run {
    float **x; /* rotated copies of the input */
    int copies, next;
    size_t n;
    column_kind kind;
    sl_opts opts;
    float result;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    const float *x = d->x[d->next++ % d->copies];
    switch (d->kind) {
    case COL_VERSION: return sl_reduce_sum_f32_device(x, d->n, &d->result, &d->opts, ms);
    case COL_CUB: return sl_vendor_reduce_sum_f32_device(x, d->n, &d->result, ms);
    default: return sl_vendor_sasum_device(x, d->n, &d->result, ms);
    }
}

/* Validates the column once, then times it; *median_ms < 0 when skipped. */
static int bench_column(bench_env *env, device_run *d, const host_data *h, const char *name, double *median_ms)
{
    double ms;
    *median_ms = -1.0;
    d->result = NAN;
    sl_status st = time_device(d, &ms);
    d->next = 0;
    if (st == SL_ERR_UNSUPPORTED) {
        bench_skip(env, name, sl_last_error());
        return 1;
    }
    if (st != SL_OK) {
        fprintf(stderr, "%s failed at n=%zu: %s\n", name, h->n, sl_last_error());
        return 0;
    }
    if (!close_enough(d->result, h->ref, name, h->n)) return 0;
    sl_stats s;
    if (sl_time_repeat(time_device, d, 2, bench_runs(env, 4 * h->n), &s) != SL_OK) return 0;
    emit(env, h->n, name, &s, 4 * h->n);
    *median_ms = s.median_ms;
    return 1;
}

/* Device-to-device copy of the same bytes: the ceiling for reading them. */
static int bench_copy(bench_env *env, device_run *d, float *dst, double *copy_gbs)
{
    size_t bytes = d->n * sizeof(float);
    double t[25];
    int runs = bench_runs(env, 2 * bytes) < 25 ? bench_runs(env, 2 * bytes) : 25;
    for (int r = 0; r < runs; r++)
        if (sl_device_copy_timed(dst, d->x[r % d->copies], bytes, &t[r]) != SL_OK) return 0;
    for (int i = 1; i < runs; i++) /* insertion sort: runs <= 25 */
        for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double tmp = t[j];
            t[j] = t[j - 1];
            t[j - 1] = tmp;
        }
    sl_stats s = {t[runs / 2], t[0], t[runs - 1], runs};
    emit(env, d->n, "copy_d2d", &s, 2 * bytes);
    *copy_gbs = bench_gbs(2 * bytes, s.median_ms);
    return 1;
}

static void print_table(size_t n, const double *ms, double copy_gbs, double cub_ms)
{
    printf("  %-44s %10s %9s %7s %7s %6s %6s\n", "version", "ms", "GB/s", "%copy", "%CUB", "step", "vs v1");
    for (int v = 1; v <= MAX_VERSIONS; v++) {
        if (ms[v] <= 0) continue;
        double gbs = bench_gbs(4 * n, ms[v]);
        printf("  %-44s %10.4f %9.2f %6.1f%% ", sl_reduce_version_name(v), ms[v], gbs,
               copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0);
        if (cub_ms > 0) printf("%6.1f%% ", 100.0 * cub_ms / ms[v]);
        else printf("%7s ", "-");
        printf("%5.2fx %5.1fx\n", v > 1 && ms[v - 1] > 0 ? ms[v - 1] / ms[v] : 1.0, ms[1] > 0 ? ms[1] / ms[v] : 0.0);
    }
}

/* The header's targets, for the size where they are stated. */
static void print_targets(const double *ms, double copy_gbs, double cub_ms, size_t n)
{
    int best = 1;
    for (int v = 2; v <= MAX_VERSIONS; v++)
        if (ms[v] > 0 && ms[v] < ms[best]) best = v;
    double gbs = bench_gbs(4 * n, ms[best]);
    printf("targets at n = 2^28: best version v%d at %.1f%% of CUB (target >= 98%%), %.1f%% of copy bandwidth "
           "(target >= 90%%), %.1fx v1 (target >= 20x)\n",
           best, cub_ms > 0 ? 100.0 * cub_ms / ms[best] : 0.0, copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0.0,
           ms[best] > 0 ? ms[1] / ms[best] : 0.0);
}

static void free_copies(device_run *d, float *dst)
{
    for (int i = 0; i < d->copies; i++)
        if (d->x) sl_device_free(d->x[i]);
    free(d->x);
    sl_device_free(dst);
}

static int bench_device(bench_env *env, const host_data *h, int is_target_size)
{
    size_t bytes = h->n * sizeof(float);
    device_run d = {NULL, bench_rotation(env, bytes), 0, h->n, COL_VERSION, {0, 256}, 0.0f};
    float *dst = NULL;
    int ok = (d.x = calloc((size_t)d.copies, sizeof *d.x)) != NULL && sl_device_alloc(&dst, bytes) == SL_OK;
    for (int i = 0; ok && i < d.copies; i++)
        ok = sl_device_alloc(&d.x[i], bytes) == SL_OK && sl_copy_to_device(d.x[i], h->x, bytes) == SL_OK;
    double copy_gbs = 0.0, cub_ms = -1.0, sasum_ms = -1.0, ms[MAX_VERSIONS + 1] = {0};
    if (!ok) fprintf(stderr, "device buffers for n=%zu: %s\n", h->n, sl_last_error());
    if (ok) ok = bench_copy(env, &d, dst, &copy_gbs);
    char name[16];
    for (int v = 1; ok && v <= sl_reduce_version_count(); v++) {
        d.opts.version = v;
        snprintf(name, sizeof name, "v%d", v);
        ok = bench_column(env, &d, h, name, &ms[v]);
    }
    d.kind = COL_CUB;
    if (ok) ok = bench_column(env, &d, h, "cub", &cub_ms);
    d.kind = COL_SASUM; /* the input is non-negative, so sum |x| = sum x */
    if (ok) ok = bench_column(env, &d, h, env->emulated ? "cublas_sasum_emu" : "cublas_sasum", &sasum_ms);
    if (ok) print_table(h->n, ms, copy_gbs, cub_ms);
    if (ok && is_target_size && env->have_gpu) print_targets(ms, copy_gbs, cub_ms, h->n);
    free_copies(&d, dst);
    return ok;
}

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, "04 reduction (sum of n floats, 4 bytes per element)", COLUMNS);
    if (rc) return rc;
    int device = env.have_gpu || env.emulated;
    int log2_max = env.quick ? 20 : env.emulated ? 22 : env.have_gpu ? 30 : 26;
    size_t max_n = (size_t)1 << log2_max;
    host_data h = {malloc(max_n * sizeof(float)), 0, 0.0};
    if (!h.x) {
        fprintf(stderr, "out of host memory for n = 2^%d\n", log2_max);
        return 1;
    }
    sl_fill_uniform_f32(h.x, max_n, 1, 0.0f, 1.0f); /* non-negative: no cancellation, sasum applies */
    if (!device)
        bench_skip(&env, "copy_d2d v1 v2 v3 v4 v5 v6 v7 v8 v9 cub cublas_sasum", "no CUDA device on this machine");
    if (env.emulated)
        printf("Device columns are CPU-emulator times: they show the emulator's costs, not a GPU's.\n");
    printf("CPU columns use the host caches as they come: below a few MiB they are not DRAM numbers.\n");

    int ok = 1;
    for (int p = 20; ok && p <= log2_max; p += 2) {
        h.n = (size_t)1 << p;
        h.ref = sl_reduce_sum_cpu_f64(h.x, h.n);
        printf("n = 2^%d (%zu floats, %.1f MiB read)\n", p, h.n, 4.0 * h.n / 1048576.0);
        ok = bench_cpu(&env, &h);
        if (ok && device) ok = bench_device(&env, &h, p == 28);
    }
    free(h.x);
    bench_finish(&env);
    return ok ? 0 : 1;
}
