/* Chapter 02 benchmark — when the GPU pays.
 *
 * 1. The crossover: vector add and SAXPY (12 bytes per element) for
 *    n = 2^4 .. 2^28, on the CPU (one core; all cores with OpenMP), the GPU
 *    kernel alone, and the GPU with both copies from pageable and from
 *    pinned host memory. After the sizes, the n from which each GPU column
 *    beats the faster CPU column at every larger size is printed and marked
 *    on the time chart (or "never", which for copies is the usual answer).
 * 2. Host <-> device copies, pageable against pinned, 4 KiB .. 1 GiB, with
 *    the host's own memcpy as the CPU reference.
 * 3. Launch overhead: 1 .. 4096 empty kernels launched back to back
 *    (asynchronous), each waited for (synchronised), and captured into a
 *    CUDA graph: microseconds per launch.
 * 4. Many small requests (256 floats each, 16 .. 4096 of them): a launch per
 *    request, one batched launch, a graph of the single launches, and the
 *    CPU: microseconds per request.
 * 5. Overlap: y = p(x) over 2^24 floats (pinned), split into 1 .. 32
 *    chunks on 4 streams against the same chunks on one stream.
 *
 * Sizes: on a GPU as above. The emulator stops at 2^22 floats, copies at
 * 64 MiB, 256 launches and requests, overlap at 2^18 floats of 16 FMAs in
 * 1, 4, 16 chunks (its copies are memcpy and its kernels CPU work: the
 * columns are labelled emulated and show the emulator, not a GPU).
 * Without a device the CPU columns run to 2^26 floats and 64 MiB copies,
 * and every GPU column is listed as skipped; --quick stops at 2^12.
 * Targets on a GPU, printed and not asserted: pinned copies >= 1.5x the
 * pageable ones at 64 MiB; a graph launch below half the asynchronous
 * launch's cost per kernel; overlap on 4 streams >= 1.3x the serialised run.
 *
 * Every column is checked against the CPU before it is timed.
 * Usage: bench_02_gpu_pays [--csv FILE] [--quick] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define MAX_LOG2 30
#define REQUEST_FLOATS 256
#define OVERLAP_STREAMS 4

enum { CPU, CPU_OMP, KERNEL, PAGEABLE, PINNED, NCOLS }; /* the crossover's columns, per operation */
static const char *const col_suffix[NCOLS] = {"cpu", "cpu_omp", "gpu_kernel", "gpu_pageable", "gpu_pinned"};
static const char *const op_prefix[2] = {"add", "saxpy"};
#define SAXPY_ALPHA 1.75f

typedef struct host_data {
    float *x, *y, *out;    /* pageable */
    float *px, *py, *pout; /* pinned copies of x and y, and a pinned output (device runs only) */
    double *ref;           /* the current operation's double reference */
    size_t n, max_n;
    int log2_n;
    double ms[2][NCOLS][MAX_LOG2 + 1]; /* medians for the crossover; <= 0: not run */
} host_data;

/* ---- checks ----------------------------------------------------------------------------- */
static void make_reference(host_data *h, sl_pays_op op)
{
    for (size_t i = 0; i < h->n; i++)
        h->ref[i] = op == SL_PAYS_SAXPY ? (double)SAXPY_ALPHA * h->x[i] + h->y[i] : (double)h->x[i] + h->y[i];
}

/* Vector add rounds once, so it must equal the reference rounded to float;
 * SAXPY's fmaf rounds once too, the double reference once more: 1e-7. */
static int check_floats(const float *got, const double *ref, size_t n, double tol, const char *what)
{
    sl_check c = sl_compare_f32(got, ref, n, tol);
    if (!c.passed)
        fprintf(stderr, "%s is WRONG at n=%zu: element %zu = %g, expected %g\n", what, n, c.worst, got[c.worst],
                ref[c.worst]);
    return c.passed;
}

/* ---- 1. the crossover ---------------------------------------------------------------------- */
typedef struct op_run {
    host_data *h;
    sl_pays_op op;
    int col;
    bench_inputs *d; /* x, y, out on the device */
    sl_status st;
} op_run;

static void run_cpu(void *ctx)
{
    op_run *r = ctx;
    host_data *h = r->h;
    float alpha = SAXPY_ALPHA;
    r->st = r->col == CPU ? sl_pays_cpu(r->op, alpha, h->x, h->y, h->out, h->n)
                          : sl_pays_cpu_omp(r->op, alpha, h->x, h->y, h->out, h->n);
}

static sl_status time_device(void *ctx, double *ms)
{
    op_run *r = ctx;
    host_data *h = r->h;
    if (r->col == KERNEL) {
        int k = bench_inputs_next(r->d);
        return sl_pays_device(r->op, SAXPY_ALPHA, r->d->copy[0][k], r->d->copy[1][k], r->d->copy[2][k], h->n, ms);
    }
    int pinned = r->col == PINNED;
    return sl_pays_round_trip(r->op, SAXPY_ALPHA, pinned ? h->px : h->x, pinned ? h->py : h->y,
                              pinned ? h->pout : h->out, h->n, r->d->copy[0][0], r->d->copy[1][0], r->d->copy[2][0], ms);
}

static sl_status poison(void *ctx)
{
    op_run *r = ctx;
    host_data *h = r->h;
    sl_poison_f32(h->out, h->n);
    if (h->pout) sl_poison_f32(h->pout, h->n);
    return r->d ? sl_fill_bytes_device(r->d->copy[2][0], 0xFF, h->n * sizeof(float)) : SL_OK;
}

static int check_run(void *ctx, const char *name, size_t n)
{
    op_run *r = ctx;
    host_data *h = r->h;
    const float *got = h->out;
    if (r->col < KERNEL && r->st != SL_OK) {
        fprintf(stderr, "%s failed at n=%zu: %s\n", name, n, sl_last_error());
        return 0;
    }
    if (r->col == KERNEL) {
        if (sl_copy_to_host(h->out, r->d->copy[2][0], n * sizeof(float)) != SL_OK) {
            fprintf(stderr, "%s failed at n=%zu: %s\n", name, n, sl_last_error());
            return 0;
        }
    } else if (r->col == PINNED) {
        got = h->pout;
    }
    return check_floats(got, h->ref, n, r->op == SL_PAYS_SAXPY ? 1e-7 : 0.0, name);
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    h->n = n;
    h->log2_n = log2_n;
    printf("n = 2^%d (%zu floats, %.3g MiB moved by the kernel, the same over the bus with copies)\n", log2_n, n,
           12.0 * n / 1048576.0);
}

static int run_columns(bench_env *env, host_data *h, sl_pays_op op, int first, int last, bench_inputs *d)
{
    char name[32];
    for (int c = first; c <= last; c++) {
        op_run r = {h, op, c, d, SL_OK};
        snprintf(name, sizeof name, "%s_%s", op_prefix[op], col_suffix[c]);
        bench_column col = {.name = name, .ctx = &r, .prepare = poison, .check = check_run,
                            .inputs = c == KERNEL ? d : NULL, .bytes = bench_bytes_saxpy(h->n)};
        if (c < KERNEL) col.run_host = run_cpu;
        else col.run_device = time_device;
        if (!bench_column_run(env, h->n, &col, &h->ms[op][c][h->log2_n])) return 0;
    }
    return 1;
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    host_data *h = chapter;
    (void)n;
    for (int op = 0; op < 2; op++) {
        make_reference(h, (sl_pays_op)op);
        if (!run_columns(env, h, (sl_pays_op)op, CPU, CPU_OMP, NULL)) return 0;
    }
    return 1;
}

/* One line a size: how the GPU columns compare with the faster CPU column. */
static void print_size_summary(const host_data *h, int op)
{
    int p = h->log2_n;
    double cpu = h->ms[op][CPU][p], omp = h->ms[op][CPU_OMP][p];
    double best = omp > 0 && omp < cpu ? omp : cpu;
    printf("  %s: the faster CPU column takes %.4g ms; the kernel alone is %.2fx that, with pageable copies "
           "%.2fx, with pinned copies %.2fx (below 1x the GPU wins)\n",
           op_prefix[op], best, h->ms[op][KERNEL][p] / best, h->ms[op][PAGEABLE][p] / best,
           h->ms[op][PINNED][p] / best);
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    (void)log2_n;
    size_t bytes = n * sizeof(float);
    const void *host[3] = {h->x, h->y, NULL};
    size_t sizes[3] = {bytes, bytes, bytes};
    memcpy(h->px, h->x, bytes);
    memcpy(h->py, h->y, bytes);
    bench_inputs d;
    if (bench_inputs_make(env, &d, 3, host, sizes, n) != SL_OK) return 0;
    int ok = 1;
    for (int op = 0; ok && op < 2; op++) {
        make_reference(h, (sl_pays_op)op);
        ok = run_columns(env, h, (sl_pays_op)op, KERNEL, PINNED, &d);
        if (ok) print_size_summary(h, op);
    }
    bench_inputs_free(&d);
    return ok;
}

/* The smallest size from which column `col` beats the faster CPU column at
 * every larger size measured; -1: never. */
static int crossover(const bench_env *env, const host_data *h, int op, int col)
{
    int from = -1;
    for (int p = env->spec->log2_min; p <= env->log2_max; p += env->spec->log2_step) {
        double cpu = h->ms[op][CPU][p], omp = h->ms[op][CPU_OMP][p], gpu = h->ms[op][col][p];
        double best = omp > 0 && omp < cpu ? omp : cpu;
        if (gpu > 0 && gpu < best) {
            if (from < 0) from = p;
        } else {
            from = -1;
        }
    }
    return from;
}

/* One line an operation: from which n each GPU column beats the faster CPU
 * column (at that size and every larger one measured), marked on its chart. */
static void report_crossovers(bench_env *env, const host_data *h)
{
    for (int op = 0; op < 2; op++) {
        char chart[32], label[3][64];
        int from[3];
        snprintf(chart, sizeof chart, "time-%s", op_prefix[op]);
        printf("crossover%s, %s (up to n = 2^%d):", env->emulated ? " (EMULATED, not a GPU's)" : "", op_prefix[op],
               env->log2_max);
        for (int col = KERNEL; col <= PINNED; col++) {
            int p = from[col - KERNEL] = crossover(env, h, op, col);
            if (p < 0) printf(" %s never;", col_suffix[col]);
            else printf(" %s from 2^%d;", col_suffix[col], p);
            snprintf(label[col - KERNEL], sizeof label[0], "%s wins from 2^%d", col_suffix[col], p);
        }
        printf("\n");
        for (int k = 0; k < 3; k++)
            if (from[k] >= 0) bench_mark(env, chart, (double)((size_t)1 << from[k]), label[k]);
    }
}

/* What the header's targets compare, kept as the runs go (GPU runs only print them). */
static struct {
    double h2d_ms[2];     /* pageable, pinned at TARGET_COPY_LOG2 bytes */
    double launch_us[3];  /* async, synced, graph at the largest count */
    double serial_ms, best_overlap_ms;
} targets = {{-1, -1}, {-1, -1, -1}, -1, -1};
#define TARGET_COPY_LOG2 26

static void print_targets(void)
{
    printf("\ntargets (printed, not asserted):\n");
    if (targets.h2d_ms[0] > 0 && targets.h2d_ms[1] > 0)
        printf("  pinned host->device copies of 64 MiB %.2fx the pageable ones (target >= 1.5x)\n",
               targets.h2d_ms[0] / targets.h2d_ms[1]);
    if (targets.launch_us[0] > 0 && targets.launch_us[2] > 0)
        printf("  a graph launch %.2f us per kernel, %.0f%% of the asynchronous launch's %.2f us (target < 50%%)\n",
               targets.launch_us[2], 100.0 * targets.launch_us[2] / targets.launch_us[0], targets.launch_us[0]);
    if (targets.serial_ms > 0 && targets.best_overlap_ms > 0)
        printf("  overlap on %d streams %.2fx the serialised run (target >= 1.3x)\n", 4,
               targets.serial_ms / targets.best_overlap_ms);
}

/* ---- 2. copies: pageable against pinned ------------------------------------------------------ */
typedef struct copy_run {
    void *device;
    void *host;      /* pageable or pinned */
    void *back;      /* where the check reads the data back */
    size_t bytes;
    int to_device;
} copy_run;

static sl_status time_copy(void *ctx, double *ms)
{
    copy_run *c = ctx;
    return sl_pays_copy_timed(c->device, c->host, c->bytes, c->to_device, ms);
}

/* The bytes arrived (first and last 4 KiB): host -> device, read back from
 * the device; device -> host, the host buffer against what was uploaded. */
static int check_copy(void *ctx, const char *name, size_t n)
{
    copy_run *c = ctx;
    size_t edge = c->bytes < 4096 ? c->bytes : 4096, last = c->bytes - edge;
    const char *dev = c->device, *host = c->host, *sent = c->back;
    unsigned char head[4096], tail[4096];
    int ok;
    if (c->to_device)
        ok = sl_copy_to_host(head, dev, edge) == SL_OK && sl_copy_to_host(tail, dev + last, edge) == SL_OK &&
             memcmp(head, host, edge) == 0 && memcmp(tail, host + last, edge) == 0;
    else
        ok = memcmp(host, sent, edge) == 0 && memcmp(host + last, sent + last, edge) == 0;
    if (!ok) fprintf(stderr, "%s is WRONG at %zu bytes: the data did not arrive\n", name, n);
    return ok;
}

typedef struct memcpy_run {
    void *dst;
    const void *src;
    size_t bytes;
} memcpy_run;

static void run_memcpy(void *ctx)
{
    memcpy_run *m = ctx;
    memcpy(m->dst, m->src, m->bytes);
}

static int check_memcpy(void *ctx, const char *name, size_t n)
{
    memcpy_run *m = ctx;
    if (memcmp(m->dst, m->src, m->bytes) == 0) return 1;
    fprintf(stderr, "%s is WRONG at %zu bytes\n", name, n);
    return 0;
}

static int bench_copies(bench_env *env, host_data *h, int log2_max)
{
    size_t max_bytes = (size_t)1 << log2_max;
    void *dev = NULL, *pinned = (void *)h->px;
    unsigned char *pageable = (unsigned char *)h->x, *sink = (unsigned char *)h->out;
    if (env->device && sl_alloc_device(&dev, max_bytes) != SL_OK) {
        fprintf(stderr, "copies: %s\n", sl_last_error());
        return 0;
    }
    printf("\nHost <-> device copies, 4 KiB .. %zu MiB: pageable (malloc) against pinned (cudaMallocHost)\n",
           max_bytes >> 20);
    int ok = 1;
    for (int p = 12; ok && p <= log2_max; p += 2) {
        size_t bytes = (size_t)1 << p;
        printf("%zu KiB\n", bytes >> 10);
        memcpy_run m = {sink, pageable, bytes};
        bench_column mc = {.name = "memcpy_host", .ctx = &m, .run_host = run_memcpy, .check = check_memcpy, .bytes = bytes};
        ok = bench_column_run(env, bytes, &mc, NULL);
        static const char *const names[4] = {"h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned"};
        for (int k = 0; ok && env->device && k < 4; k++) {
            int to_device = k < 2, is_pinned = k % 2;
            void *host = is_pinned ? pinned : (void *)(to_device ? pageable : sink);
            if (!to_device) sl_copy_to_device(dev, pageable, bytes); /* what the d2h copies bring back */
            copy_run c = {dev, host, pageable, bytes, to_device};
            bench_column col = {.name = names[k], .ctx = &c, .run_device = time_copy, .check = check_copy, .bytes = bytes};
            if (to_device && is_pinned) memcpy(pinned, pageable, bytes);
            double ms = -1;
            ok = bench_column_run(env, bytes, &col, &ms);
            if (to_device && p == TARGET_COPY_LOG2) targets.h2d_ms[is_pinned] = ms;
        }
    }
    sl_free_device(dev);
    return ok;
}

/* ---- 3. launch overhead -------------------------------------------------------------------------- */
/* A device experiment's row in a unit of its own: checked once (an
 * unsupported column is listed as skipped), then the median of `runs`. */
static int time_value(bench_env *env, size_t x, const char *name, sl_timed_fn fn, void *ctx, double per,
                      const char *unit, double *value)
{
    double ms;
    sl_status st = fn(ctx, &ms);
    if (st == SL_ERR_UNSUPPORTED) {
        bench_skip(env, name, sl_last_error());
        return 1;
    }
    sl_stats s;
    if (st == SL_OK) st = bench_time_repeat(fn, ctx, 1, env->quick ? 3 : 11, &s);
    if (st != SL_OK) {
        fprintf(stderr, "%s failed at %zu: %s\n", name, x, sl_last_error());
        return 0;
    }
    bench_emit_value(env, x, name, &s, s.median_ms * 1000.0 / per, unit);
    if (value) *value = s.median_ms * 1000.0 / per;
    return 1;
}

typedef struct launch_run {
    sl_launch_mode mode;
    int count;
} launch_run;

static sl_status time_launches(void *ctx, double *ms)
{
    launch_run *l = ctx;
    return sl_launch_overhead(l->mode, l->count, ms);
}

static int bench_launches(bench_env *env, int max_count)
{
    static const char *const names[3] = {"launch_async", "launch_synced", "launch_graph"};
    printf("\nLaunch overhead: empty kernels, microseconds per launch (host clock, to the last synchronize)\n");
    int ok = 1;
    for (int count = 1; ok && count <= max_count; count *= 4) {
        printf("%d launches\n", count);
        for (int m = 0; ok && m < 3; m++) {
            launch_run l = {(sl_launch_mode)m, count};
            ok = time_value(env, (size_t)count, names[m], time_launches, &l, count, "us/launch", &targets.launch_us[m]);
        }
    }
    return ok;
}

/* ---- 4. many small requests -------------------------------------------------------------------- */
typedef struct request_bench {
    sl_batch_mode mode;
    float *d_in, *d_out;
    sl_request *list, *d_list;
    int count;
    size_t n;
} request_bench;

static sl_status time_requests(void *ctx, double *ms)
{
    request_bench *r = ctx;
    return sl_requests_device(r->mode, r->d_in, r->d_out, r->n, r->list, r->count, r->d_list, ms);
}

/* Each mode's result against the CPU's, once, before it is timed. */
static int check_requests(request_bench *r, const float *in, float *want, float *got, const char *name)
{
    double ms;
    sl_status st = sl_fill_bytes_device(r->d_out, 0xFF, r->n * sizeof(float));
    if (st == SL_OK) st = time_requests(r, &ms);
    if (st == SL_ERR_UNSUPPORTED) return 1; /* time_value lists it as skipped */
    if (st == SL_OK) st = sl_copy_to_host(got, r->d_out, r->n * sizeof(float));
    if (st != SL_OK) {
        fprintf(stderr, "%s failed: %s\n", name, sl_last_error());
        return 0;
    }
    sl_requests_cpu(in, want, r->n, r->list, r->count);
    if (memcmp(got, want, (size_t)r->count * REQUEST_FLOATS * sizeof(float)) != 0) {
        fprintf(stderr, "%s is WRONG for %d requests\n", name, r->count);
        return 0;
    }
    return 1;
}

typedef struct request_cpu_run {
    const float *in;
    float *out;
    size_t n;
    const sl_request *list;
    int count;
} request_cpu_run;

static void run_requests_cpu(void *ctx)
{
    request_cpu_run *r = ctx;
    sl_requests_cpu(r->in, r->out, r->n, r->list, r->count);
}

static int check_requests_cpu(void *ctx, const char *name, size_t n)
{
    request_cpu_run *r = ctx;
    for (int q = 0; q < r->count; q++)
        for (unsigned i = 0; i < r->list[q].count; i++) {
            size_t at = r->list[q].offset + i;
            double want = (double)r->list[q].scale * r->in[at] + r->list[q].bias;
            if (fabs(r->out[at] - want) > 1e-6 * (1.0 + fabs(want))) {
                fprintf(stderr, "%s is WRONG for %zu requests at %zu\n", name, n, at);
                return 0;
            }
        }
    return 1;
}

static int bench_requests(bench_env *env, host_data *h, int max_count)
{
    size_t n = (size_t)max_count * REQUEST_FLOATS;
    sl_request *list = bench_host_alloc(env, (size_t)max_count * sizeof *list);
    if (!list) return 0;
    for (int q = 0; q < max_count; q++)
        list[q] = (sl_request){(size_t)q * REQUEST_FLOATS, REQUEST_FLOATS, 1.0f + (float)(q % 7), (float)(q % 5) - 2.0f};
    printf("\nMany small requests of %d floats: microseconds per request (host clock, to the synchronize)\n",
           REQUEST_FLOATS);
    request_bench r = {SL_BATCH_ONE_BY_ONE, NULL, NULL, list, NULL, 0, n};
    int ok = 1;
    if (env->device) {
        ok = sl_alloc_device(&r.d_in, n * sizeof(float)) == SL_OK && sl_alloc_device(&r.d_out, n * sizeof(float)) == SL_OK &&
             sl_alloc_device(&r.d_list, (size_t)max_count * sizeof *list) == SL_OK &&
             sl_copy_to_device(r.d_in, h->x, n * sizeof(float)) == SL_OK;
        if (!ok) fprintf(stderr, "requests: %s\n", sl_last_error());
    }
    static const char *const names[3] = {"req_one_by_one", "req_batched", "req_graph"};
    /* h->y is free now (the sizes are done): it holds the CPU's answer. */
    for (int count = 16; ok && count <= max_count; count *= 4) {
        printf("%d requests\n", count);
        r.count = count;
        request_cpu_run c = {h->x, h->out, n, list, count};
        bench_column cpu = {.name = "req_cpu", .ctx = &c, .run_host = run_requests_cpu, .check = check_requests_cpu,
                            .bytes = (size_t)count * REQUEST_FLOATS * 8};
        double cpu_ms = -1;
        ok = bench_column_run(env, (size_t)count, &cpu, &cpu_ms);
        for (int m = 0; ok && env->device && m < 3; m++) {
            r.mode = (sl_batch_mode)m;
            ok = check_requests(&r, h->x, h->y, h->out, names[m]) &&
                 time_value(env, (size_t)count, names[m], time_requests, &r, count, "us/request", NULL);
        }
    }
    sl_free_device(r.d_in);
    sl_free_device(r.d_out);
    sl_free_device(r.d_list);
    return ok;
}

/* ---- 5. overlap --------------------------------------------------------------------------------- */
typedef struct overlap_bench {
    host_data *h;
    size_t n;
    int terms, chunks, streams;
    float *d_x, *d_y;
} overlap_bench;

static sl_status time_overlap(void *ctx, double *ms)
{
    overlap_bench *o = ctx;
    return sl_overlap_run(o->h->px, o->h->pout, o->n, o->terms, o->chunks, o->streams, o->d_x, o->d_y, ms);
}

static int bench_overlap(bench_env *env, host_data *h, int log2_n, int terms, int chunks_step)
{
    size_t n = (size_t)1 << log2_n;
    overlap_bench o = {h, n, terms, 1, 1, NULL, NULL};
    printf("\nOverlap: y = p(x), %d FMAs per element, n = 2^%d pinned floats, split into chunks on %d streams "
           "against the same chunks on one stream (ms for the whole job)\n",
           terms, log2_n, OVERLAP_STREAMS);
    sl_poly_cpu(h->x, h->y, n, terms); /* the reference, in h->y */
    memcpy(h->px, h->x, n * sizeof(float));
    int ok = sl_alloc_device(&o.d_x, n * sizeof(float)) == SL_OK && sl_alloc_device(&o.d_y, n * sizeof(float)) == SL_OK;
    if (!ok) fprintf(stderr, "overlap: %s\n", sl_last_error());
    static const char *const names[2] = {"overlap_1_stream", "overlap_4_streams"};
    for (int chunks = 1; ok && chunks <= 32; chunks *= chunks_step) {
        printf("%d chunks\n", chunks);
        for (int k = 0; ok && k < 2; k++) {
            o.chunks = chunks;
            o.streams = k == 0 ? 1 : OVERLAP_STREAMS;
            double ms;
            sl_poison_f32(h->pout, n);
            ok = time_overlap(&o, &ms) == SL_OK;
            if (ok && memcmp(h->pout, h->y, n * sizeof(float)) != 0) {
                fprintf(stderr, "%s is WRONG with %d chunks\n", names[k], chunks);
                ok = 0;
            }
            if (!ok && sl_last_error()[0]) fprintf(stderr, "%s: %s\n", names[k], sl_last_error());
            double value = -1;
            if (ok) ok = time_value(env, (size_t)chunks, names[k], time_overlap, &o, 1000.0, "ms", &value);
            if (chunks == 1 && k == 0) targets.serial_ms = value;
            if (k == 1 && value > 0 && (targets.best_overlap_ms < 0 || value < targets.best_overlap_ms))
                targets.best_overlap_ms = value;
        }
    }
    sl_free_device(o.d_x);
    sl_free_device(o.d_y);
    return ok;
}

/* ---- the run ------------------------------------------------------------------------------------ */
static const bench_label labels[] = {
    {"add_cpu", "vector add, CPU loop on 1 core"},
    {"add_cpu_omp", "vector add, CPU loop on all cores (OpenMP)"},
    {"add_gpu_kernel", "vector add, the kernel alone (data already on the device)"},
    {"add_gpu_pageable", "vector add with both copies, from pageable (malloc) memory"},
    {"add_gpu_pinned", "vector add with both copies, from pinned (cudaMallocHost) memory"},
    {"saxpy_cpu", "SAXPY, CPU loop on 1 core"},
    {"saxpy_cpu_omp", "SAXPY, CPU loop on all cores (OpenMP)"},
    {"saxpy_gpu_kernel", "SAXPY, the kernel alone"},
    {"saxpy_gpu_pageable", "SAXPY with both copies, pageable memory"},
    {"saxpy_gpu_pinned", "SAXPY with both copies, pinned memory"},
    {"memcpy_host", "memcpy host to host (the CPU's own copy)"},
    {"h2d_pageable", "host to device from pageable memory"},
    {"h2d_pinned", "host to device from pinned memory"},
    {"d2h_pageable", "device to host into pageable memory"},
    {"d2h_pinned", "device to host into pinned memory"},
    {"launch_async", "launched back to back, one wait at the end"},
    {"launch_synced", "each launch waited for"},
    {"launch_graph", "captured into a CUDA graph, one graph launch"},
    {"req_cpu", "the requests on the CPU, 1 core"},
    {"req_one_by_one", "a launch per request"},
    {"req_batched", "one launch for all (list copied in)"},
    {"req_graph", "the single launches as one CUDA graph"},
    {"overlap_1_stream", "copy in, compute, copy out per chunk, one stream"},
    {"overlap_4_streams", "the same chunks on 4 streams"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"time-add", "vector add: time per call, CPU against GPU with and without copies", "n (floats, log scale)",
     "time per call (ms, median, log scale)", "3", 1, "add_*"},
    {"time-saxpy", "SAXPY: time per call, CPU against GPU with and without copies", "n (floats, log scale)",
     "time per call (ms, median, log scale)", "3", 1, "saxpy_*"},
    {"copies", "host <-> device copy bandwidth, pageable against pinned", "bytes per copy (log scale)",
     "GB/s (median, log scale)", "6", 1, "memcpy_host h2d_* d2h_*"},
    {"launch", "kernel launch overhead", "empty kernels per batch (log scale)",
     "microseconds per launch (median, log scale)", "($3*1000/$1)", 1, "launch_*"},
    {"requests", "many small requests (256 floats each)", "requests (log scale)",
     "microseconds per request (median, log scale)", "($3*1000/$1)", 1, "req_*"},
    {"overlap", "copies overlapped with compute on streams", "chunks the job is split into (log scale)",
     "time for the whole job (ms, median)", "3", 0, "overlap_*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "02 when the GPU pays (vector add and SAXPY, copies, launches, requests, overlap)",
    .unit = BENCH_GBS, .name_width = 18,
    .gpu_columns = "add_gpu_* saxpy_gpu_* h2d_* d2h_* launch_* req_one_by_one req_batched req_graph overlap_*",
    /* 2^4 .. 2^28 in steps of 4x; the emulator stops at 2^22, CPU columns alone at 2^26, --quick at 2^12 */
    .log2_min = 4, .log2_step = 2, .log2_max_gpu = 28, .log2_max_emulated = 22, .log2_max_no_device = 26,
    .log2_max_quick = 12, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .labels = labels, .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc == 3 ? 0 : rc;
    /* On a GPU: copies to 1 GiB, 4096 launches and requests, overlap of 2^24
     * floats with 2048 FMAs each (a kernel about as long as its copies on an
     * H200-class GPU: 2^24 * 2048 * 2 flops at ~60 TFLOP/s, ~1 ms, against
     * 64 MiB each way at ~50 GB/s, ~1.3 ms: arithmetic, not measurement).
     * Elsewhere far less: the emulator runs every CUDA thread on this CPU. */
    int copy_log2 = env.quick ? 20 : env.have_gpu ? 30 : 26;
    int overlap_log2 = env.quick ? 14 : env.have_gpu ? 24 : 18;
    int overlap_terms = env.have_gpu ? 2048 : 16;
    int overlap_chunks_step = env.have_gpu ? 2 : 4;
    int max_launches = env.quick ? 16 : env.have_gpu ? 4096 : 256;
    size_t floats = (size_t)1 << env.log2_max;
    size_t copy_floats = ((size_t)1 << copy_log2) / sizeof(float);
    if (copy_floats > floats) floats = copy_floats;
    if (((size_t)1 << overlap_log2) > floats) floats = (size_t)1 << overlap_log2;
    if ((size_t)max_launches * REQUEST_FLOATS > floats) floats = (size_t)max_launches * REQUEST_FLOATS;
    host_data h = {0};
    h.max_n = floats;
    h.x = bench_host_uniform_f32(&env, floats, 1, -1.0f, 1.0f);
    h.y = bench_host_uniform_f32(&env, floats, 2, -1.0f, 1.0f);
    h.out = bench_host_alloc(&env, floats * sizeof(float));
    h.ref = bench_host_alloc(&env, ((size_t)1 << env.log2_max) * sizeof(double));
    if (!h.x || !h.y || !h.out || !h.ref) return bench_finish(&env, 0);
    if (env.device && (sl_alloc_pinned(&h.px, floats * sizeof(float)) != SL_OK ||
                       sl_alloc_pinned(&h.py, floats * sizeof(float)) != SL_OK ||
                       sl_alloc_pinned(&h.pout, floats * sizeof(float)) != SL_OK)) {
        fprintf(stderr, "pinned host memory: %s\n", sl_last_error());
        sl_free_pinned(h.px);
        sl_free_pinned(h.py);
        return bench_finish(&env, 0);
    }
    int ok = bench_sizes(&env, &h);
    if (ok && env.device) report_crossovers(&env, &h);
    if (ok) ok = bench_copies(&env, &h, copy_log2);
    if (ok) bench_progress(&env, 1, 4, -1, 4); /* no estimate: bench.sh has one */
    if (ok && env.device) ok = bench_launches(&env, max_launches);
    if (ok) bench_progress(&env, 2, 4, -1, 4); /* no estimate: bench.sh has one */
    if (ok) ok = bench_requests(&env, &h, max_launches);
    if (ok) bench_progress(&env, 3, 4, -1, 4); /* no estimate: bench.sh has one */
    if (ok && env.device) ok = bench_overlap(&env, &h, overlap_log2, overlap_terms, overlap_chunks_step);
    if (ok) bench_progress(&env, 4, 4, -1, 4); /* no estimate: bench.sh has one */
    if (ok && env.have_gpu) print_targets();
    sl_free_pinned(h.px);
    sl_free_pinned(h.py);
    sl_free_pinned(h.pout);
    return bench_finish(&env, ok);
}
