/* Chapter 01 benchmark — vector add: GB/s of every version, kernel only and
 * end to end (both copies included), against a CPU loop on one core and on
 * all cores, and against cuBLAS (cublasSaxpy with alpha = 1 on a copy of b),
 * for n = 2^10 .. 2^28.
 *
 * Bytes moved per element: 12 (read a and b, write c). Target on a GPU: v3
 * within 10% of the device-to-device copy bandwidth for n >= 2^24, and
 * end-to-end GB/s an order of magnitude below kernel GB/s (the bus).
 *
 * Every version is checked against the CPU result before it is timed.
 * Usage: bench_01_vector_add [--csv FILE] [--quick] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define COLUMNS "n,column,median_ms,min_ms,max_ms,gbs"

typedef struct host_buffers {
    float *a, *b, *c;
    double *ref;
    size_t n;
} host_buffers;

typedef struct device_set {
    int copies;          /* rotated so the working set exceeds the L2 */
    float **a, **b, **c; /* copies x n floats each */
    size_t n;
} device_set;

static void emit(bench_env *env, size_t n, const char *column, const sl_stats *s, size_t bytes)
{
    double gbs = bench_gbs(bytes, s->median_ms);
    printf("  %-12s %12.4f ms %10.2f GB/s  (min %.4f, max %.4f)\n", column, s->median_ms, gbs,
           s->min_ms, s->max_ms);
    if (env->csv)
        fprintf(env->csv, "%zu,%s,%.6f,%.6f,%.6f,%.3f\n", n, column, s->median_ms, s->min_ms,
                s->max_ms, gbs);
}

/* ---- CPU baselines ------------------------------------------------------- */
static void run_cpu(void *ctx)
{
    host_buffers *h = ctx;
    sl_vector_add_cpu(h->a, h->b, h->c, h->n);
}

static void run_cpu_omp(void *ctx)
{
    host_buffers *h = ctx;
    sl_vector_add_cpu_omp(h->a, h->b, h->c, h->n);
}

static int check_host_result(const host_buffers *h, const char *what)
{
    sl_check c = sl_compare_f32(h->c, h->ref, h->n, 0.0);
    if (!c.passed)
        fprintf(stderr, "%s is WRONG at n=%zu: element %zu = %g, expected %g\n", what, h->n, c.worst,
                h->c[c.worst], h->ref[c.worst]);
    return c.passed;
}

static int bench_cpu(bench_env *env, host_buffers *h)
{
    bench_host_fn fns[2] = {run_cpu, run_cpu_omp};
    const char *names[2] = {"cpu", "cpu_omp"};
    for (int k = 0; k < 2; k++) {
        sl_poison_f32(h->c, h->n);
        fns[k](h);
        if (!check_host_result(h, names[k])) return 0;
        bench_host_call call = {fns[k], h};
        sl_stats s;
        sl_time_repeat(bench_time_host, &call, 1, bench_runs(env, 12 * h->n), &s);
        emit(env, h->n, names[k], &s, 12 * h->n);
    }
    return 1;
}

/* ---- device columns ------------------------------------------------------ */
static void free_set(device_set *d)
{
    for (int i = 0; i < d->copies; i++) {
        if (d->a) sl_device_free(d->a[i]);
        if (d->b) sl_device_free(d->b[i]);
        if (d->c) sl_device_free(d->c[i]);
    }
    free(d->a);
    free(d->b);
    free(d->c);
    memset(d, 0, sizeof *d);
}

static sl_status make_set(bench_env *env, const host_buffers *h, device_set *d)
{
    size_t bytes = h->n * sizeof(float);
    memset(d, 0, sizeof *d);
    d->n = h->n;
    d->copies = bench_rotation(env, 3 * bytes);
    d->a = calloc((size_t)d->copies, sizeof *d->a);
    d->b = calloc((size_t)d->copies, sizeof *d->b);
    d->c = calloc((size_t)d->copies, sizeof *d->c);
    if (!d->a || !d->b || !d->c) return SL_ERR_HOST_MEMORY;
    for (int i = 0; i < d->copies; i++) {
        sl_status st;
        if ((st = sl_device_alloc(&d->a[i], bytes)) != SL_OK) return st;
        if ((st = sl_device_alloc(&d->b[i], bytes)) != SL_OK) return st;
        if ((st = sl_device_alloc(&d->c[i], bytes)) != SL_OK) return st;
        if ((st = sl_copy_to_device(d->a[i], h->a, bytes)) != SL_OK) return st;
        if ((st = sl_copy_to_device(d->b[i], h->b, bytes)) != SL_OK) return st;
    }
    return SL_OK;
}

typedef struct kernel_run {
    device_set *d;
    sl_opts opts;
    int next;     /* which copy the next run uses */
    int cublas;   /* time cublasSaxpy instead of our kernel */
} kernel_run;

static sl_status time_kernel(void *ctx, double *ms)
{
    kernel_run *k = ctx;
    int i = k->next++ % k->d->copies;
    if (k->cublas) /* c = 1 * a + c, where c holds a copy of b */
        return sl_vendor_saxpy_device(1.0f, k->d->a[i], k->d->c[i], k->d->n, ms);
    return sl_vector_add_device(k->d->a[i], k->d->b[i], k->d->c[i], k->d->n, &k->opts, ms);
}

/* Runs one device column once on copy 0 and compares with the CPU. */
static int validate_device(kernel_run *k, host_buffers *h, const char *name)
{
    size_t bytes = h->n * sizeof(float);
    double ms;
    sl_status st = sl_device_fill_bytes(k->d->c[0], 0xFF, bytes); /* poison: NaN */
    if (k->cublas && st == SL_OK) st = sl_copy_to_device(k->d->c[0], h->b, bytes);
    if (st == SL_OK) st = time_kernel(k, &ms);
    if (st == SL_OK) st = sl_copy_to_host(h->c, k->d->c[0], bytes);
    k->next = 0;
    if (st != SL_OK) {
        fprintf(stderr, "%s failed at n=%zu: %s\n", name, h->n, sl_last_error());
        return 0;
    }
    /* cuBLAS computes 1*a + b with one rounding, the same as a + b. */
    return check_host_result(h, name);
}

typedef struct end_to_end_run {
    host_buffers *h;
    sl_opts opts;
} end_to_end_run;

/* One sl_vector_add: the time of both copies and the kernel (allocation and
 * free are left out: a program that adds many times allocates once). */
static sl_status time_end_to_end(void *ctx, double *ms)
{
    end_to_end_run *e = ctx;
    sl_report rep;
    sl_status st = sl_vector_add(e->h->a, e->h->b, e->h->c, e->h->n, &e->opts, &rep);
    *ms = rep.phase_ms[SL_PHASE_H2D] + rep.phase_ms[SL_PHASE_KERNEL] + rep.phase_ms[SL_PHASE_D2H];
    return st;
}

static int bench_device(bench_env *env, host_buffers *h)
{
    device_set d;
    sl_status st = make_set(env, h, &d);
    if (st != SL_OK) {
        fprintf(stderr, "device buffers for n=%zu: %s\n", h->n, sl_last_error());
        free_set(&d);
        return 0;
    }
    int ok = 1;
    size_t bytes = 12 * h->n;
    char name[32];
    for (int v = 1; ok && v <= sl_vector_add_version_count(); v++) {
        kernel_run k = {&d, {v, 256}, 0, 0};
        snprintf(name, sizeof name, "v%d", v);
        ok = validate_device(&k, h, name);
        sl_stats s;
        if (ok && sl_time_repeat(time_kernel, &k, 2, bench_runs(env, bytes), &s) == SL_OK)
            emit(env, h->n, name, &s, bytes);
    }
    /* cuBLAS: the vendor's own streaming kernel, on a copy of b. */
    kernel_run k = {&d, {0, 0}, 0, 1};
    for (int i = 0; ok && i < d.copies; i++)
        ok = sl_copy_to_device(d.c[i], h->b, h->n * sizeof(float)) == SL_OK;
    if (ok && validate_device(&k, h, "cublas")) {
        sl_stats s;
        if (sl_time_repeat(time_kernel, &k, 2, bench_runs(env, bytes), &s) == SL_OK)
            emit(env, h->n, env->emulated ? "cublas_emu" : "cublas", &s, bytes);
    }
    free_set(&d);

    /* End to end: both copies and the kernel, as a student's program pays. */
    for (int v = 1; ok && v <= sl_vector_add_version_count(); v++) {
        end_to_end_run e = {h, {v, 256}};
        sl_stats s;
        ok = sl_time_repeat(time_end_to_end, &e, 0, bench_runs(env, bytes), &s) == SL_OK;
        if (!ok) {
            fprintf(stderr, "v%d end to end failed at n=%zu: %s\n", v, h->n, sl_last_error());
            break;
        }
        snprintf(name, sizeof name, "v%d_e2e", v);
        emit(env, h->n, name, &s, bytes);
    }
    return ok;
}

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, "01 vector add (c = a + b, 12 bytes per element)", COLUMNS);
    if (rc) return rc;
    int log2_max = env.quick ? 20 : env.emulated ? 24 : 28;
    size_t max_n = (size_t)1 << log2_max;
    host_buffers h = {malloc(max_n * sizeof(float)), malloc(max_n * sizeof(float)),
                      malloc(max_n * sizeof(float)), malloc(max_n * sizeof(double)), 0};
    if (!h.a || !h.b || !h.c || !h.ref) {
        fprintf(stderr, "out of host memory for n = 2^%d\n", log2_max);
        return 1;
    }
    sl_fill_uniform_f32(h.a, max_n, 1, -1.0f, 1.0f);
    sl_fill_uniform_f32(h.b, max_n, 2, -1.0f, 1.0f);
    for (size_t i = 0; i < max_n; i++) h.ref[i] = (double)(float)((double)h.a[i] + (double)h.b[i]);
    if (!env.have_gpu && !env.emulated)
        bench_skip(&env, "v1 v2 v3 cublas v1_e2e v2_e2e v3_e2e", "no CUDA device on this machine");
    printf("CPU columns use the host caches as they come: below a few MiB they are not DRAM numbers.\n");

    int ok = 1;
    for (int p = 10; ok && p <= log2_max; p += 2) {
        h.n = (size_t)1 << p;
        printf("n = 2^%d (%zu floats, %.1f MiB moved)\n", p, h.n, 12.0 * h.n / 1048576.0);
        ok = bench_cpu(&env, &h);
        if (ok && (env.have_gpu || env.emulated)) ok = bench_device(&env, &h);
    }
    free(h.a);
    free(h.b);
    free(h.c);
    free(h.ref);
    bench_finish(&env);
    return ok ? 0 : 1;
}
