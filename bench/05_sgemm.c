/* Chapter 05 benchmark — SGEMM: GFLOP/s of every version against cuBLAS
 * (cublasSgemm, row-major through the transpose identity) and the CPU (the
 * naive triple loop up to 512^3, the cache-blocked OpenMP loop, OpenBLAS),
 * on square products n = 128 .. 4096 in steps of 2x (emulator: up to 256;
 * --quick: 128; no device: CPU columns up to 2048), then the skinny shapes
 * 4096 x 4096 x 64 and 64 x 4096 x 4096 (not on the emulator: too slow).
 *
 * Flops per product: 2mnk. On a GPU, v9's tile shape is first autotuned at
 * the largest square size (every shape's GFLOP/s and the pick go to the
 * CSV). Every column is checked against OpenBLAS before it is timed.
 * Targets, printed and not asserted: on a GPU, the best version at >= 80%
 * of cuBLAS at 4096 (moonshot 90%); on the CPU, the blocked loop within 4x
 * of OpenBLAS at the largest size of the run, measured in the same run.
 * Without a GPU: the arithmetic intensity of each version's tile (from its
 * shape), and, in the emulator build with the counters compiled in, the
 * modelled sectors per request and bank conflicts at 128^3.
 *
 * Usage: bench_05_sgemm [--csv FILE] [--quick] */
#include <math.h>
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define TARGET_LOG2 12
#define NAIVE_MAX_FLOPS (2.0 * 512 * 512 * 512)
#define MODEL_SIZE 128

typedef struct host_data {
    float *a, *b, *c, *ref; /* big enough for the largest shape */
    size_t m, n, k;
    const char *suffix; /* "" for the square sizes, "@MxNxK" for the skinny ones */
} host_data;

static double flops_of(const host_data *h) { return bench_flops_gemm(h->m, h->n, h->k); }

/* In GFLOP/s the harness's `bytes` only sets the number of timed runs; the
 * bytes a product touches (4 (mk + kn + mn)) would give 25 runs to a
 * 4096 x 4096 x 64 product. 1 byte per flop gives long products few runs. */
static size_t runs_proxy(const host_data *h) { return (size_t)flops_of(h); }

/* |a|, |b| < 1: two float products of length k differ by at most twice the
 * error bound of one, 2 (k + 2) k 2^-24 each. */
static int close_to_ref(const host_data *h, const float *c, const char *name)
{
    double bound = 4.0 * (h->k + 2) * h->k * ldexp(1.0, -24);
    for (size_t i = 0; i < h->m * h->n; i++)
        if (!(fabs((double)c[i] - h->ref[i]) <= bound)) {
            fprintf(stderr, "%s is WRONG at %zux%zux%zu: C[%zu] = %.9g, OpenBLAS %.9g (bound %.3g)\n", name, h->m,
                    h->n, h->k, i, c[i], h->ref[i], bound);
            return 0;
        }
    return 1;
}

static void column_name(char *out, size_t cap, const char *base, const host_data *h)
{
    snprintf(out, cap, "%s%s", base, h->suffix);
}

/* ---- CPU columns ------------------------------------------------------------ */
typedef sl_status (*cpu_sgemm)(size_t, size_t, size_t, float, const float *, size_t, const float *, size_t, float,
                               float *, size_t);

typedef struct cpu_run {
    host_data *h;
    cpu_sgemm fn;
} cpu_run;

static void run_cpu(void *ctx)
{
    cpu_run *r = ctx;
    host_data *h = r->h;
    r->fn(h->m, h->n, h->k, 1.0f, h->a, h->k, h->b, h->n, 0.0f, h->c, h->n);
}

static sl_status poison_c(void *ctx)
{
    cpu_run *r = ctx;
    return sl_poison_f32(r->h->c, r->h->m * r->h->n);
}

static int check_cpu(void *ctx, const char *name, size_t n)
{
    (void)n;
    cpu_run *r = ctx;
    return close_to_ref(r->h, r->h->c, name);
}

static void begin_shape(host_data *h, size_t m, size_t n, size_t k, const char *suffix)
{
    h->m = m, h->n = n, h->k = k, h->suffix = suffix;
    sl_sgemm_cpu_openblas(m, n, k, 1.0f, h->a, k, h->b, n, 0.0f, h->ref, n);
    printf("%zu x %zu x %zu (%.3g flops, %.1f MiB of matrices)\n", m, n, k, flops_of(h),
           4.0 * (m * k + k * n + m * n) / 1048576.0);
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    (void)log2_n;
    begin_shape(chapter, n, n, n, "");
}

/* The CPU rows of this shape; *blocked_ms and *openblas_ms for the target. */
static int cpu_shape(bench_env *env, host_data *h, size_t n, double *blocked_ms, double *openblas_ms)
{
    cpu_run runs[3] = {{h, sl_sgemm_cpu_naive}, {h, sl_sgemm_cpu_blocked}, {h, sl_sgemm_cpu_openblas}};
    const char *bases[3] = {"cpu_naive", "cpu_blocked_omp", "cpu_openblas"};
    double *ms[3] = {NULL, blocked_ms, openblas_ms};
    char names[3][64];
    int ok = 1;
    for (int i = 0; ok && i < 3; i++) {
        column_name(names[i], sizeof names[i], bases[i], h);
        if (i == 0 && flops_of(h) > NAIVE_MAX_FLOPS) continue; /* said once in main */
        bench_column col = {.name = names[i], .ctx = &runs[i], .run_host = run_cpu, .prepare = poison_c,
                            .check = check_cpu, .bytes = runs_proxy(h), .flops = flops_of(h)};
        ok = bench_column_run(env, n, &col, ms[i]);
    }
    return ok;
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    double blocked = -1, openblas = -1;
    int ok = cpu_shape(env, chapter, n, &blocked, &openblas);
    if (ok && (int)log2((double)n) == env->log2_max && blocked > 0 && openblas > 0)
        printf("target on the CPU at %zu^3: the blocked loop takes %.2fx OpenBLAS's time (target <= 4x)\n", n,
               blocked / openblas);
    return ok;
}

/* ---- device columns ------------------------------------------------------------ */
typedef enum column_kind { COL_VERSION, COL_CUBLAS } column_kind;

typedef struct device_run {
    bench_inputs *in; /* 0: A, 1: B (rotated), 2: C */
    host_data *h;
    column_kind kind;
    sl_opts opts;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    host_data *h = d->h;
    int k = bench_inputs_next(d->in);
    const float *a = d->in->copy[0][k], *b = d->in->copy[1][k];
    float *c = d->in->copy[2][k];
    if (d->kind == COL_CUBLAS) return sl_vendor_sgemm_device(h->m, h->n, h->k, 1.0f, a, h->k, b, h->n, 0.0f, c, h->n, ms);
    return sl_sgemm_device(h->m, h->n, h->k, 1.0f, a, h->k, b, h->n, 0.0f, c, h->n, &d->opts, ms);
}

static sl_status poison_device_c(void *ctx)
{
    device_run *d = ctx;
    return sl_fill_bytes_device(d->in->copy[2][0], 0xff, d->h->m * d->h->n * sizeof(float));
}

static int check_device(void *ctx, const char *name, size_t n)
{
    (void)n;
    device_run *d = ctx;
    if (sl_copy_to_host(d->h->c, d->in->copy[2][0], d->h->m * d->h->n * sizeof(float)) != SL_OK) {
        fprintf(stderr, "%s: copying C back failed: %s\n", name, sl_last_error());
        return 0;
    }
    return close_to_ref(d->h, d->h->c, name);
}

/* The harness's table has a %copy column, which means nothing for a
 * compute-bound product; this one has GFLOP/s, % of cuBLAS and the steps. */
static void print_table(const bench_env *env, const bench_table *t)
{
    printf("  %-46s %10s %9s %8s %6s %7s\n", "version", "ms", bench_unit_label(env), "%cuBLAS", "step", "vs v1");
    for (int v = 1; v <= t->versions; v++) {
        if (t->ms[v] <= 0) continue;
        printf("  %-46s %10.4f %9.1f ", t->version_name(v), t->ms[v], bench_table_rate(t, v));
        if (t->vendor_ms > 0) printf("%7.1f%% ", bench_table_pct_vendor(t, v));
        else printf("%8s ", "-");
        printf("%5.2fx %6.1fx\n", v > 1 && t->ms[v - 1] > 0 ? t->ms[v - 1] / t->ms[v] : 1.0,
               t->ms[1] > 0 ? t->ms[1] / t->ms[v] : 0.0);
    }
}

static int device_shape(bench_env *env, host_data *h, size_t n, bench_table *t)
{
    size_t bytes[3] = {h->m * h->k * sizeof(float), h->k * h->n * sizeof(float), h->m * h->n * sizeof(float)};
    const void *host[3] = {h->a, h->b, NULL};
    bench_inputs in;
    if (bench_inputs_make(env, &in, 3, host, bytes, n) != SL_OK) return 0;
    *t = (bench_table){.version_name = sl_sgemm_version_name, .versions = sl_sgemm_version_count(),
                       .amount = flops_of(h), .vendor = "cuBLAS", .vendor_ms = -1.0};
    device_run d = {&in, h, COL_VERSION, {0, 0}};
    bench_column col = {.ctx = &d, .run_device = time_device, .prepare = poison_device_c, .check = check_device,
                        .inputs = &in, .bytes = runs_proxy(h), .flops = flops_of(h)};
    int ok = 1;
    char name[64];
    if (h->suffix[0] == '\0') {
        ok = bench_versions(env, n, &col, &d.opts, t);
    } else { /* bench_versions names its rows v1..v9; these carry the shape */
        col.name = name;
        for (int v = 1; ok && v <= t->versions; v++) {
            char base[16];
            snprintf(base, sizeof base, "v%d", v);
            column_name(name, sizeof name, base, h);
            d.opts.version = v;
            ok = bench_column_run(env, n, &col, &t->ms[v]);
        }
    }
    d.kind = COL_CUBLAS;
    column_name(name, sizeof name, env->emulated ? "cublas_emu" : "cublas", h);
    col.name = name;
    if (ok) ok = bench_column_run(env, n, &col, &t->vendor_ms);
    bench_inputs_free(&in);
    if (ok) print_table(env, t);
    return ok;
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    bench_table t;
    int ok = device_shape(env, chapter, n, &t);
    if (ok && log2_n == TARGET_LOG2 && env->have_gpu) {
        int best = bench_table_best(&t);
        printf("target at 4096^3: best version v%d at %.1f%% of cuBLAS (target >= 80%%, moonshot 90%%)\n", best,
               bench_table_pct_vendor(&t, best));
    }
    return ok;
}

/* ---- the skinny shapes ------------------------------------------------------------ */
static int skinny_shapes(bench_env *env, host_data *h)
{
    static const size_t shapes[2][3] = {{4096, 4096, 64}, {64, 4096, 4096}};
    static const char *suffixes[2] = {"@4096x4096x64", "@64x4096x4096"};
    if (env->emulated) {
        bench_skip(env, "the skinny shapes 4096x4096x64 and 64x4096x4096",
                   "emulated: a billion multiply-adds per version take minutes on the CPU emulator");
        return 1;
    }
    int ok = 1;
    for (int s = 0; ok && s < 2; s++) {
        begin_shape(h, shapes[s][0], shapes[s][1], shapes[s][2], suffixes[s]);
        double blocked, openblas;
        ok = cpu_shape(env, h, 4096, &blocked, &openblas);
        bench_table t;
        if (ok && env->device) ok = device_shape(env, h, 4096, &t);
    }
    return ok;
}

/* A modelled figure as a CSV row only (n,column,0,0,0,value,unit): the
 * harness's bench_emit_value also prints a timing line, which a figure
 * that was not timed does not have; the table above shows it. */
static void csv_value(bench_env *env, size_t n, const char *column, double value, const char *unit)
{
    if (env->csv) fprintf(env->csv, "%zu,%s,0,0,0,%.6g,%s\n", n, column, value, unit);
}

/* ---- v9's autotuner (GPU only) ------------------------------------------------------- */
static int autotune(bench_env *env)
{
    size_t n = (size_t)1 << env->log2_max;
    int count = sl_sgemm_v9_shape_count(), best = 0;
    double ms[16];
    printf("autotuning v9's tile shape at %zu^3 on %s:\n", n, env->device_info.name);
    if (sl_sgemm_v9_autotune(n, n, n, &best, ms) != SL_OK) {
        fprintf(stderr, "the autotuner failed: %s\n", sl_last_error());
        return 0;
    }
    for (int s = 0; s < count; s++) {
        double gflops = bench_rate(bench_flops_gemm(n, n, n), ms[s]);
        printf("  shape %d  %-52s %9.1f GFLOP/s%s\n", s, sl_sgemm_v9_shape_name(s), gflops, s == best ? "  <- v9" : "");
        char name[32];
        snprintf(name, sizeof name, "v9_shape%d", s);
        csv_value(env, n, name, gflops, "GFLOP/s (autotune)");
    }
    if (env->csv) fprintf(env->csv, "# v9 autotuned: shape %d (%s) at %zu^3\n", best, sl_sgemm_v9_shape_name(best), n);
    return 1;
}

/* ---- without a GPU: the model ------------------------------------------------------- */
static void modelled_columns(bench_env *env)
{
    printf("\nmodelled, %d^3 (the tile's flops per byte from its shape; the rest from the emulator's SIMT "
           "counters, not GPU measurements):\n", MODEL_SIZE);
    printf("  %-46s %8s %11s %11s %12s %6s\n", "version", "flop/B", "ld sect/req", "st sect/req", "shld confl/req",
           "SIMT");
    int counters = 1;
    for (int v = 1; v <= sl_sgemm_version_count(); v++) {
        sl_sgemm_model m;
        sl_status st = sl_sgemm_modelled(v, MODEL_SIZE, MODEL_SIZE, MODEL_SIZE, &m);
        if (st != SL_OK && st != SL_ERR_UNSUPPORTED) {
            fprintf(stderr, "v%d: %s\n", v, sl_last_error());
            return;
        }
        if (st == SL_ERR_UNSUPPORTED && counters) {
            bench_skip(env, "modelled sectors and bank conflicts", sl_last_error());
            counters = 0;
        }
        printf("  %-46s %8.1f", sl_sgemm_version_name(v), m.tile_flops_per_byte);
        if (counters)
            printf(" %11.1f %11.1f %12.1f %5.0f%%\n", m.load_sectors_per_request, m.store_sectors_per_request,
                   m.shared_load_conflicts_per_request, 100.0 * m.simt_efficiency);
        else
            printf(" %11s %11s %12s %6s\n", "-", "-", "-", "-");
        char name[48];
        snprintf(name, sizeof name, "v%d_tile_flops_per_byte", v);
        csv_value(env, MODEL_SIZE, name, m.tile_flops_per_byte, "flop/byte (modelled)");
        if (!counters) continue;
        snprintf(name, sizeof name, "v%d_modelled_ld_sectors_per_req", v);
        csv_value(env, MODEL_SIZE, name, m.load_sectors_per_request, "sectors/request (modelled)");
        snprintf(name, sizeof name, "v%d_modelled_shld_conflicts_per_req", v);
        csv_value(env, MODEL_SIZE, name, m.shared_load_conflicts_per_request,
                         "conflicts/request (modelled)");
    }
}

static const bench_label labels[] = {
    {"v1", "v1 naive (threadIdx.x along rows)"},
    {"v2", "v2 coalesced"},
    {"v3", "v3 32x32 shared-memory tiles"},
    {"v4", "v4 1D register blocking"},
    {"v5", "v5 2D register blocking"},
    {"v6", "v6 float4 loads, transposed A tile"},
    {"v7", "v7 warp tiling"},
    {"v8", "v8 warp tiling, double-buffered"},
    {"v9", "v9 warp tiling, double-buffered, autotuned"},
    {"cublas", "cuBLAS cublasSgemm"},
    {"cublas_emu", "the emulator's cuBLAS (OpenBLAS on the CPU)"},
    {"cpu_naive", "CPU triple loop, one core"},
    {"cpu_blocked_omp", "CPU cache-blocked loop, all cores (OpenMP)"},
    {"cpu_openblas", "OpenBLAS cblas_sgemm"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"gflops", "SGEMM: GFLOP/s of every version, cuBLAS and the CPU", "n (m = n = k)", "GFLOP/s", NULL, 1,
     "v1 v2 v3 v4 v5 v6 v7 v8 v9 cublas cublas_emu cpu_naive cpu_blocked_omp cpu_openblas"},
    /* the emulator build: each version's modelled GPU time, as GFLOP/s of its
     * own (23 lines on one chart are not readable; the emulator's cuBLAS is
     * OpenBLAS, nothing to model); on a GPU it has no rows and is not drawn */
    {"modelled", "SGEMM: GFLOP/s of each version's kernel as the timing model prices it", "n (m = n = k)",
     "GFLOP/s (modelled GPU time)", NULL, 1, "modelled_*_v*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "05 SGEMM (C = A * B, row-major floats, 2mnk flops)", .unit = BENCH_GFLOPS, .name_width = 30,
    .gpu_columns = "v1 v2 v3 v4 v5 v6 v7 v8 v9 cublas (and v9's autotuner)",
    /* n = 128 .. 4096 in steps of 2x; the emulator stops at 256, CPU columns alone at 2048 */
    .log2_min = 7, .log2_step = 1, .log2_max_gpu = 12, .log2_max_emulated = 8, .log2_max_no_device = 11,
    .log2_max_quick = 7, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .labels = labels, .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc == 3 ? 0 : rc;
    size_t side = (size_t)1 << env.log2_max, big = side * side;
    if (!env.emulated && big < (size_t)4096 * 4096) big = (size_t)4096 * 4096; /* the skinny shapes */
    host_data h = {bench_host_uniform_f32(&env, big, 1, -1.0f, 1.0f), bench_host_uniform_f32(&env, big, 2, -1.0f, 1.0f),
                   bench_host_alloc(&env, big * sizeof(float)), bench_host_alloc(&env, big * sizeof(float)), 0, 0, 0,
                   ""};
    printf("cpu_naive runs up to 512^3 only (above, one core takes minutes per size).\n");
    int ok = h.a && h.b && h.c && h.ref && (!env.have_gpu || autotune(&env));
    if (ok) ok = bench_sizes(&env, &h);
    if (ok && !env.quick) ok = skinny_shapes(&env, &h);
    if (ok && !env.have_gpu) modelled_columns(&env);
    return bench_finish(&env, ok);
}
