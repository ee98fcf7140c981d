/* Chapter 01 benchmark — vector add: GB/s of every version, kernel only and
 * end to end (both copies included), against a CPU loop on one core and on
 * all cores, against cuBLAS (cublasSaxpy with alpha = 1 on a copy of b) and
 * against the device-to-device copy bandwidth measured in the same run, for
 * n = 2^10 .. 2^28 (emulator: up to 2^24; --quick: up to 2^20).
 *
 * Bytes moved per element: 12 (read a and b, write c). The copy column
 * copies a, 8 bytes per element (read + write), and is reported as such.
 * Targets on a GPU, printed for n >= 2^24 and not asserted: v3 within 10%
 * of the device-to-device copy bandwidth. End to end (copies in and out
 * of pageable host memory, then the kernel) is bounded by the bus: the
 * ratio to the kernel's time is at least the device's memory bandwidth over
 * the bus's, which for an H200 (4.8 TB/s specified) on a PCIe 5.0 or 4.0
 * x16 link (about 64 or 32 GB/s per direction) is about 75x to 150x, and
 * more from pageable memory; measured on an H200 (2026-12-04): 322x to
 * 469x (tutorial/01). It is printed, not a target. After each size, a table: time,
 * GB/s, % of copy, % of cuBLAS, speedup over the previous version and v1.
 *
 * Every column is checked against the CPU result before it is timed.
 * Usage: bench_01_vector_add [--csv FILE] [--quick] */
#include <stdlib.h>

#include "amounts.h"
#include "harness.h"

#define TARGET_VERSION 3
#define TARGET_LOG2_MIN 24

typedef struct host_buffers {
    float *a, *b, *c;
    double *ref;
    size_t n;
} host_buffers;

enum { IN_A, IN_B, IN_C }; /* the rotated device buffers; c is the output */

/* h->c against the double reference. */
static int check_host_result(void *ctx, const char *what, size_t n)
{
    const host_buffers *h = ctx;
    sl_check c = sl_compare_f32(h->c, h->ref, n, 0.0);
    if (!c.passed)
        fprintf(stderr, "%s is WRONG at n=%zu: element %zu = %g, expected %g\n", what, n, c.worst,
                h->c[c.worst], h->ref[c.worst]);
    return c.passed;
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

static sl_status poison_host_output(void *ctx)
{
    host_buffers *h = ctx;
    sl_poison_f32(h->c, h->n);
    return SL_OK;
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_buffers *h = chapter;
    h->n = n;
    printf("n = 2^%d (%zu floats, %.1f MiB moved)\n", log2_n, n, 12.0 * n / 1048576.0);
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    host_buffers *h = chapter;
    bench_column cpu = {.name = "cpu", .ctx = h, .run_host = run_cpu, .prepare = poison_host_output,
                        .check = check_host_result, .bytes = bench_bytes_vector_add(n)};
    bench_column cols[2] = {cpu, cpu};
    cols[1].name = "cpu_omp";
    cols[1].run_host = run_cpu_omp;
    return bench_columns(env, n, cols, 2);
}

/* ---- device columns ------------------------------------------------------ */
typedef struct kernel_run {
    host_buffers *h;
    bench_inputs *d;
    sl_opts opts;
    int cublas; /* time cublasSaxpy instead of our kernel */
} kernel_run;

static sl_status time_kernel(void *ctx, double *ms)
{
    kernel_run *k = ctx;
    int i = bench_inputs_next(k->d);
    float *a = k->d->copy[IN_A][i], *b = k->d->copy[IN_B][i], *c = k->d->copy[IN_C][i];
    if (k->cublas) /* c = 1 * a + c, where c holds a copy of b */
        return sl_vendor_saxpy_device(1.0f, a, c, k->h->n, ms);
    return sl_vector_add_device(a, b, c, k->h->n, &k->opts, ms);
}

/* Before the checked run (on copy 0): c poisoned with NaN, so a kernel that
 * writes nothing fails; cuBLAS adds into c, so it gets b on top. */
static sl_status poison_device_output(void *ctx)
{
    kernel_run *k = ctx;
    size_t bytes = k->h->n * sizeof(float);
    sl_status st = sl_fill_bytes_device(k->d->copy[IN_C][0], 0xFF, bytes);
    if (k->cublas && st == SL_OK) st = sl_copy_to_device(k->d->copy[IN_C][0], k->h->b, bytes);
    return st;
}

/* After it: copy 0 of c against the CPU. cuBLAS computes 1*a + b with one
 * rounding, the same as a + b. */
static int check_device_result(void *ctx, const char *name, size_t n)
{
    kernel_run *k = ctx;
    if (sl_copy_to_host(k->h->c, k->d->copy[IN_C][0], n * sizeof(float)) != SL_OK) {
        fprintf(stderr, "%s failed at n=%zu: %s\n", name, n, sl_last_error());
        return 0;
    }
    return check_host_result(k->h, name, n);
}

/* cuBLAS: the vendor's own streaming kernel, c = 1 * a + c on copies of b. */
static int bench_cublas(bench_env *env, bench_column *col, kernel_run *k, double *median_ms)
{
    for (int i = 0; i < k->d->copies; i++)
        if (sl_copy_to_device(k->d->copy[IN_C][i], k->h->b, k->h->n * sizeof(float)) != SL_OK) {
            fprintf(stderr, "cublas failed at n=%zu: %s\n", k->h->n, sl_last_error());
            return 0;
        }
    k->cublas = 1;
    col->name = env->emulated ? "cublas_emu" : "cublas";
    return bench_column_run(env, k->h->n, col, median_ms);
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

/* End to end: both copies and the kernel, as a student's program pays. */
static int bench_end_to_end(bench_env *env, host_buffers *h, double *e2e_ms)
{
    size_t bytes = bench_bytes_vector_add(h->n);
    char name[32];
    for (int v = 1; v <= sl_vector_add_version_count() && v <= BENCH_MAX_VERSIONS; v++) {
        end_to_end_run e = {h, {v, 256}};
        sl_stats s;
        if (bench_time_repeat(time_end_to_end, &e, 0, bench_runs(env, bytes), &s) != SL_OK) {
            fprintf(stderr, "v%d end to end failed at n=%zu: %s\n", v, h->n, sl_last_error());
            return 0;
        }
        snprintf(name, sizeof name, "v%d_e2e", v);
        bench_emit(env, h->n, name, &s, (double)bytes);
        e2e_ms[v] = s.median_ms;
    }
    return 1;
}

/* The header's targets, for the sizes where they are stated. */
static void print_targets(const bench_table *t, const double *e2e_ms, int log2_n)
{
    int v = TARGET_VERSION;
    printf("targets at n = 2^%d: v%d at %.1f%% of copy bandwidth (target >= 90%%), end to end %.1fx "
           "slower than the kernel (the bus: at least device bandwidth / bus bandwidth, ~75-150x for an "
           "H200 on PCIe x16)\n",
           log2_n, v, bench_table_pct_copy(t, v), t->ms[v] > 0 ? e2e_ms[v] / t->ms[v] : 0.0);
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    host_buffers *h = chapter;
    size_t bytes = n * sizeof(float);
    const void *host[3] = {h->a, h->b, NULL};
    size_t sizes[3] = {bytes, bytes, bytes};
    bench_inputs d;
    if (bench_inputs_make(env, &d, 3, host, sizes, n) != SL_OK) return 0;
    bench_table t = {.version_name = sl_vector_add_version_name, .versions = sl_vector_add_version_count(),
                     .amount = (double)bench_bytes_vector_add(n), .vendor = "cuBLAS", .vendor_ms = -1.0};
    kernel_run k = {h, &d, {0, 256}, 0};
    bench_column col = {.ctx = &k, .run_device = time_kernel, .prepare = poison_device_output,
                        .check = check_device_result, .inputs = &d, .bytes = bench_bytes_vector_add(n)};
    int ok = bench_copy_ceiling(env, n, &d, IN_A, &t.copy_gbs) && bench_versions(env, n, &col, &k.opts, &t) &&
             bench_cublas(env, &col, &k, &t.vendor_ms);
    bench_inputs_free(&d);
    double e2e_ms[BENCH_MAX_VERSIONS + 1] = {0};
    if (ok) ok = bench_end_to_end(env, h, e2e_ms);
    if (ok) bench_table_print(env, &t);
    if (ok && env->have_gpu && log2_n >= TARGET_LOG2_MIN) print_targets(&t, e2e_ms, log2_n);
    return ok;
}

/* The measured columns, then (emulator build) each version's modelled GPU
 * time as GB/s of its own: on one log scale a modelled GPU rate and an
 * emulated CPU rate sit decades apart. The vendor column's stand-in is not
 * NVIDIA's code, so its modelled time is left out. On a GPU the modelled
 * chart has no rows and is not drawn. */
static const bench_chart charts[] = {
    {"gbs", "vector add: GB/s of every version, end to end, cuBLAS, the copy and the CPU", "n (floats)",
     "GB/s (median)", NULL, 1, "cpu cpu_omp copy_d2d v1 v2 v3 cublas cublas_emu v1_e2e v2_e2e v3_e2e"},
    {"modelled", "vector add: GB/s of each version's kernel as the timing model prices it", "n (floats)",
     "GB/s (modelled GPU time)", NULL, 1, "modelled_*_v*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "01 vector add (c = a + b, 12 bytes per element)", .unit = BENCH_GBS, .name_width = 12,
    .gpu_columns = "copy_d2d v1 v2 v3 cublas v1_e2e v2_e2e v3_e2e",
    /* 2^10 .. 2^28 in steps of 4x; the emulator stops at 2^24, --quick at 2^20 */
    .log2_min = 10, .log2_step = 2, .log2_max_gpu = 28, .log2_max_emulated = 24, .log2_max_no_device = 28,
    .log2_max_quick = 20, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc;
    size_t max_n = (size_t)1 << env.log2_max;
    host_buffers h = {bench_host_uniform_f32(&env, max_n, 1, -1.0f, 1.0f),
                      bench_host_uniform_f32(&env, max_n, 2, -1.0f, 1.0f),
                      bench_host_alloc(&env, max_n * sizeof(float)), bench_host_alloc(&env, max_n * sizeof(double)), 0};
    if (!h.a || !h.b || !h.c || !h.ref) return bench_finish(&env, 0);
    for (size_t i = 0; i < max_n; i++) h.ref[i] = (double)(float)((double)h.a[i] + (double)h.b[i]);
    return bench_finish(&env, bench_sizes(&env, &h));
}
