/* Chapter 06 benchmark — tensor-core GEMM: GFLOP/s (TFLOP/s = GFLOP/s /
 * 1000) of v1-v6 with f16 inputs (v6, Hopper's wgmma + TMA, only on a
 * compute capability 9.0 GPU: elsewhere its column is absent and the
 * reason printed), v5 with bf16, cublasGemmEx (f16 and bf16 inputs, float
 * output, CUBLAS_COMPUTE_32F) and chapter 05's best SGEMM (v9) on the same
 * rounded inputs as floats, against OpenBLAS sgemm on those floats on the
 * CPU, on square products n = 256 .. 8192 in steps of 2x (emulator: 256
 * only; no device: CPU columns up to 2048; --quick: 256).
 *
 * Every column is checked before it is timed: relative L2 error against
 * OpenBLAS below 2e-3 (f16) or 1e-2 (bf16). Flops per product: 2n^3.
 * Targets, printed and never asserted, measured on a GPU only: on an H200
 * v5 at >= 55% of cuBLAS (mma.sync reaches about 60-65% of what wgmma
 * does on Hopper), v6 at >= 85% at 8192; on an Ampere-class GPU v5 at
 * >= 80%.
 * Without a GPU: the emulator's modelled shared-memory bank conflicts of v3
 * and v4 (plain tiles) and v5 (swizzled; must be 0) at 128 x 128 x 64.
 *
 * Usage: bench_06_tensor_gemm [--csv FILE] [--quick] */
#include <math.h>
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define MODEL_M 128
#define MODEL_K 64

typedef struct host_data {
    float *fa, *fb;        /* uniform in [-1, 1) */
    uint16_t *a[2], *b[2]; /* rounded to f16 [0] and bf16 [1] */
    float *ra[2], *rb[2];  /* the rounded values as floats */
    float *c, *ref[2];     /* a column's C; OpenBLAS on the rounded floats */
    double *ref_d;
    size_t n;
} host_data;

static double flops_of(size_t n) { return bench_flops_gemm(n, n, n); }

static int close_to_ref(host_data *h, int type, const float *c, const char *name)
{
    size_t nn = h->n * h->n;
    for (size_t i = 0; i < nn; i++) h->ref_d[i] = h->ref[type][i];
    double tol = type ? 1e-2 : 2e-3;
    sl_check chk = sl_compare_f32(c, h->ref_d, nn, tol);
    if (!chk.passed)
        fprintf(stderr, "%s is WRONG at %zu^3: relative L2 error %.3g (bound %.0e), C[%zu] = %.9g vs OpenBLAS %.9g\n",
                name, h->n, chk.rel_l2, tol, chk.worst, c[chk.worst], h->ref_d[chk.worst]);
    return chk.passed;
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    (void)log2_n;
    host_data *h = chapter;
    h->n = n;
    for (int t = 0; t < 2; t++) {
        sl_tgemm_round((sl_tgemm_type)t, h->fa, h->a[t], n * n);
        sl_tgemm_round((sl_tgemm_type)t, h->fb, h->b[t], n * n);
        sl_tgemm_widen((sl_tgemm_type)t, h->a[t], h->ra[t], n * n);
        sl_tgemm_widen((sl_tgemm_type)t, h->b[t], h->rb[t], n * n);
        sl_sgemm_cpu_openblas(n, n, n, 1.0f, h->ra[t], n, h->rb[t], n, 0.0f, h->ref[t], n);
    }
    printf("%zu^3 (%.3g flops; inputs %.1f MiB in 16 bits)\n", n, flops_of(n), 4.0 * n * n / 1048576.0);
}

/* ---- the CPU column: OpenBLAS sgemm on the f16-rounded inputs ------------------ */
static void run_openblas(void *ctx)
{
    host_data *h = ctx;
    sl_sgemm_cpu_openblas(h->n, h->n, h->n, 1.0f, h->ra[0], h->n, h->rb[0], h->n, 0.0f, h->c, h->n);
}

static sl_status poison_c(void *ctx)
{
    host_data *h = ctx;
    return sl_poison_f32(h->c, h->n * h->n);
}

static int check_openblas(void *ctx, const char *name, size_t n)
{
    (void)n;
    return close_to_ref(ctx, 0, ((host_data *)ctx)->c, name);
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    host_data *h = chapter;
    bench_column col = {.name = "cpu_openblas", .ctx = h, .run_host = run_openblas, .prepare = poison_c,
                        .check = check_openblas, .bytes = (size_t)flops_of(n), .flops = flops_of(n)};
    return bench_column_run(env, n, &col, NULL);
}

/* ---- device columns -------------------------------------------------------------- */
typedef enum column_kind { COL_VERSION, COL_CUBLAS, COL_SGEMM } column_kind;

typedef struct device_run {
    bench_inputs *in; /* 0: A, 1: B (16-bit), 2: C; for COL_SGEMM 0, 1 are the floats */
    host_data *h;
    column_kind kind;
    int type;
    sl_opts opts;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    size_t n = d->h->n;
    int k = bench_inputs_next(d->in);
    const void *a = d->in->copy[0][k], *b = d->in->copy[1][k];
    float *c = d->in->copy[2][k];
    switch (d->kind) {
    case COL_CUBLAS: return sl_vendor_tgemm_device((sl_tgemm_type)d->type, n, n, n, a, b, c, ms);
    case COL_SGEMM: {
        sl_opts best = {0, 0};
        return sl_sgemm_device(n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, &best, ms);
    }
    default: return sl_tgemm_device((sl_tgemm_type)d->type, n, n, n, a, b, c, &d->opts, ms);
    }
}

static sl_status poison_device_c(void *ctx)
{
    device_run *d = ctx;
    return sl_fill_bytes_device(d->in->copy[2][0], 0xff, d->h->n * d->h->n * sizeof(float));
}

static int check_device(void *ctx, const char *name, size_t n)
{
    device_run *d = ctx;
    if (sl_copy_to_host(d->h->c, d->in->copy[2][0], n * n * sizeof(float)) != SL_OK) {
        fprintf(stderr, "%s: copying C back failed: %s\n", name, sl_last_error());
        return 0;
    }
    return close_to_ref(d->h, d->type, d->h->c, name);
}

/* One set of inputs on the device: 16-bit of `type`, or the floats. */
static int with_inputs(bench_env *env, host_data *h, int type, int floats, bench_inputs *in)
{
    size_t nn = h->n * h->n, e = floats ? 4 : 2;
    size_t bytes[3] = {nn * e, nn * e, nn * 4};
    const void *host[3] = {floats ? (const void *)h->ra[type] : h->a[type],
                           floats ? (const void *)h->rb[type] : h->b[type], NULL};
    return bench_inputs_make(env, in, 3, host, bytes, h->n) == SL_OK;
}

static void print_table(const bench_env *env, const bench_table *t, double bf16_v5_ms, double bf16_cublas_ms,
                        double sgemm_ms)
{
    printf("  %-50s %10s %9s %8s\n", "f16 inputs", "ms", bench_unit_label(env), "%cuBLAS");
    for (int v = 1; v <= t->versions; v++)
        if (t->ms[v] > 0)
            printf("  %-50s %10.4f %9.1f %7.1f%%\n", t->version_name(v), t->ms[v], bench_table_rate(t, v),
                   t->vendor_ms > 0 ? bench_table_pct_vendor(t, v) : 0.0);
    if (sgemm_ms > 0)
        printf("  %-50s %10.4f %9.1f %7.1f%%\n", "chapter 05 SGEMM v9 (float, CUDA cores)", sgemm_ms,
               bench_rate(t->amount, sgemm_ms), t->vendor_ms > 0 ? 100.0 * t->vendor_ms / sgemm_ms : 0.0);
    if (bf16_v5_ms > 0 && bf16_cublas_ms > 0)
        printf("  %-50s %10.4f %9.1f %7.1f%% (of cuBLAS bf16)\n", "v5 with bf16 inputs", bf16_v5_ms,
               bench_rate(t->amount, bf16_v5_ms), 100.0 * bf16_cublas_ms / bf16_v5_ms);
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    (void)log2_n;
    host_data *h = chapter;
    bench_inputs in;
    bench_table t = {.version_name = sl_tgemm_version_name, .versions = sl_tgemm_version_count(),
                     .amount = flops_of(n), .vendor = "cuBLAS", .vendor_ms = -1.0};
    double bf16_v5 = -1, bf16_cublas = -1, sgemm = -1;
    device_run d = {&in, h, COL_VERSION, 0, {0, 0}};
    bench_column col = {.ctx = &d, .run_device = time_device, .prepare = poison_device_c, .check = check_device,
                        .inputs = &in, .bytes = (size_t)flops_of(n), .flops = flops_of(n)};
    int ok = with_inputs(env, h, 0, 0, &in);
    if (ok) ok = bench_versions(env, n, &col, &d.opts, &t);
    d.kind = COL_CUBLAS, col.name = env->emulated ? "cublas_emu" : "cublas";
    if (ok) ok = bench_column_run(env, n, &col, &t.vendor_ms);
    if (ok) bench_inputs_free(&in);
    /* bf16: v5 and cuBLAS */
    if (ok && (ok = with_inputs(env, h, 1, 0, &in))) {
        d.type = 1, d.kind = COL_VERSION, d.opts.version = 5, col.name = "bf16_v5";
        ok = bench_column_run(env, n, &col, &bf16_v5);
        d.kind = COL_CUBLAS, col.name = env->emulated ? "bf16_cublas_emu" : "bf16_cublas";
        if (ok) ok = bench_column_run(env, n, &col, &bf16_cublas);
        bench_inputs_free(&in);
    }
    /* chapter 05's best on the f16-rounded values as floats */
    if (ok && (ok = with_inputs(env, h, 0, 1, &in))) {
        d.type = 0, d.kind = COL_SGEMM, col.name = "sgemm_v9";
        ok = bench_column_run(env, n, &col, &sgemm);
        bench_inputs_free(&in);
    }
    if (!ok) return 0;
    print_table(env, &t, bf16_v5, bf16_cublas, sgemm);
    if (env->have_gpu && t.vendor_ms > 0)
        printf("target at %zu^3 on %s: v5 at %.1f%% of cuBLAS (H200: >= 55%%; Ampere-class: >= 80%%)\n", n,
               env->device_info.name, bench_table_pct_vendor(&t, 5));
    if (env->have_gpu && t.vendor_ms > 0 && t.ms[6] > 0)
        printf("target at %zu^3 on %s: v6 at %.1f%% of cuBLAS (H200 at 8192: >= 85%%)\n", n, env->device_info.name,
               bench_table_pct_vendor(&t, 6));
    return 1;
}

/* ---- without a GPU: the model ------------------------------------------------------ */
static void csv_value(bench_env *env, size_t n, const char *column, double value, const char *unit)
{
    if (env->csv) fprintf(env->csv, "%zu,%s,0,0,0,%.6g,%s\n", n, column, value, unit);
}

static void modelled_columns(bench_env *env)
{
    printf("\nmodelled by the emulator, %d x %d x %d (SIMT counters from the warps' real addresses; ldmatrix's row "
           "reads included, cp.async's shared writes not): not GPU measurements\n", MODEL_M, MODEL_M, MODEL_K);
    printf("  %-50s %14s %14s %12s\n", "version", "shld confl/req", "shst confl/req", "ld sect/req");
    for (int v = 3; v <= 5; v++) {
        sl_tgemm_model m;
        sl_status st = sl_tgemm_modelled(v, MODEL_M, MODEL_M, MODEL_K, &m);
        if (st == SL_ERR_UNSUPPORTED) {
            bench_skip(env, "modelled bank conflicts of v3, v4 and v5", sl_last_error());
            return;
        }
        if (st != SL_OK) {
            fprintf(stderr, "v%d: %s\n", v, sl_last_error());
            return;
        }
        printf("  %-50s %14.2f %14.2f %12.2f\n", sl_tgemm_version_name(v), m.shared_load_conflicts_per_request,
               m.shared_store_conflicts_per_request, m.load_sectors_per_request);
        char name[48];
        snprintf(name, sizeof name, "v%d_modelled_shld_conflicts_per_req", v);
        csv_value(env, MODEL_M, name, m.shared_load_conflicts_per_request, "conflicts/request (modelled)");
        snprintf(name, sizeof name, "v%d_modelled_shst_conflicts_per_req", v);
        csv_value(env, MODEL_M, name, m.shared_store_conflicts_per_request, "conflicts/request (modelled)");
    }
}

static const bench_label labels[] = {
    {"v1", "v1 WMMA 16x16x16, one warp per tile (f16)"},
    {"v2", "v2 WMMA over shared-memory tiles (f16)"},
    {"v3", "v3 mma.sync fed by ldmatrix (f16)"},
    {"v4", "v4 v3 + cp.async pipeline (f16)"},
    {"v5", "v5 v4 + swizzled shared memory (f16)"},
    {"v6", "v6 wgmma + TMA, producer/consumer warpgroups (f16, sm_90 only)"},
    {"cublas", "cuBLAS cublasGemmEx, f16 inputs, CUBLAS_COMPUTE_32F"},
    {"cublas_emu", "the emulator's cublasGemmEx (OpenBLAS on the CPU)"},
    {"bf16_v5", "v5 with bf16 inputs"},
    {"bf16_cublas", "cuBLAS cublasGemmEx, bf16 inputs"},
    {"bf16_cublas_emu", "the emulator's cublasGemmEx, bf16 inputs"},
    {"sgemm_v9", "chapter 05's best SGEMM (v9) on the rounded inputs as floats"},
    {"cpu_openblas", "OpenBLAS cblas_sgemm on the rounded inputs as floats"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"gflops", "tensor-core GEMM: GFLOP/s of every version, cuBLAS and the CPU", "n (m = n = k)", "GFLOP/s", NULL, 1,
     "v1 v2 v3 v4 v5 v6 cublas cublas_emu bf16_v5 bf16_cublas sgemm_v9 cpu_openblas"},
    /* the emulator build: the modelled GPU time of each version, v5 on bf16
     * and chapter 05's v9, as GFLOP/s of its own (the emulator's cuBLAS is
     * OpenBLAS, nothing to model); on a GPU it has no rows and is not drawn */
    {"modelled", "tensor-core GEMM: GFLOP/s of each kernel as the timing model prices it", "n (m = n = k)",
     "GFLOP/s (modelled GPU time)", NULL, 1, "modelled_*_v*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "06 tensor-core GEMM (C = A * B, 16-bit inputs, float output, 2n^3 flops)", .unit = BENCH_GFLOPS,
    .name_width = 30, .gpu_columns = "v1 v2 v3 v4 v5 v6 cublas bf16_v5 bf16_cublas sgemm_v9",
    /* n = 256 .. 8192 in steps of 2x; the emulator stops at 256, CPU columns alone at 2048 */
    .log2_min = 8, .log2_step = 1, .log2_max_gpu = 13, .log2_max_emulated = 8, .log2_max_no_device = 11,
    .log2_max_quick = 8, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .labels = labels, .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc == 3 ? 0 : rc;
    size_t side = (size_t)1 << env.log2_max, big = side * side;
    /* the harness keeps a few host buffers: one holds all the derived arrays */
    host_data h = {bench_host_uniform_f32(&env, big, 1, -1.0f, 1.0f), bench_host_uniform_f32(&env, big, 2, -1.0f, 1.0f),
                   {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}, NULL, {NULL, NULL}, NULL, 0};
    char *all = bench_host_alloc(&env, big * (4 * 2 + 4 * 4 + 4 + 2 * 4 + 8));
    int ok = h.fa && h.fb && all;
    if (ok) {
        h.ref_d = (double *)all, all += big * 8;
        for (int t = 0; t < 2; t++) {
            h.ra[t] = (float *)all, all += big * 4;
            h.rb[t] = (float *)all, all += big * 4;
            h.ref[t] = (float *)all, all += big * 4;
        }
        h.c = (float *)all, all += big * 4;
        for (int t = 0; t < 2; t++) {
            h.a[t] = (uint16_t *)all, all += big * 2;
            h.b[t] = (uint16_t *)all, all += big * 2;
        }
    }
    if (ok) ok = bench_sizes(&env, &h);
    if (ok && !env.have_gpu) modelled_columns(&env);
    return bench_finish(&env, ok);
}
