/* Chapter 03 benchmark — what divergence costs.
 *
 * On a GPU, for n = 2^20 items: the k-way split by lane (v1) against the same
 * work split by warp (v2, the control) for k = 1..32: the slowdown
 * time(v1) / time(v2) with the expected k beside it; the escape-time loop in
 * image, shuffled and sorted order (v3-v5); the short branch (predicated)
 * and the long branch (a real jump), mixed keys against grouped (v6-v9).
 * Every column is checked against the CPU reference before it is timed.
 * Target on a GPU, printed and never asserted: the slowdown within 15% of k
 * for every k.
 *
 * Without a GPU: the same table modelled by the emulator from the warps'
 * real paths (simtlab/core.h, sl_modelled): SIMT efficiency, diverged
 * branches per warp, and the modelled slowdown, warp-level issues (basic
 * blocks) of a version over its control's, with the expected 1/k and k
 * beside them. It is a model, labelled so, never a GPU time.
 *
 * CSV: the timed rows (n, column v1_k4, ...), and the slowdown against k as
 * rows with n = k (slowdown_measured on a GPU, slowdown_modelled under the
 * emulator, expected_k), which bench.sh draws as the chart 03_divergence-slowdown.
 *
 * Usage: bench_03_divergence [--csv FILE] [--quick] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define WORK 256      /* steps of each path, the branches and the escape cap */
#define WIDTH 1024    /* escape-time image width */
#define MODEL_N 4096  /* items the model looks at: 128 warps */
#define TARGET_PCT 15 /* the slowdown within 15% of k */

typedef struct host_data {
    uint32_t *x, *want, *got;
    size_t n;
} host_data;

/* ---- the modelled table (no GPU needed) ----------------------------------------------- */

/* A point of the slowdown chart: a CSV row with n = k (no time: the value is a ratio). */
static void chart_point(bench_env *env, int k, const char *column, double value)
{
    if (env->csv) fprintf(env->csv, "%d,%s,0,0,0,%.6g,x\n", k, column, value);
}

static void print_expected(double value, const char *suffix)
{
    if (isnan(value)) printf(" %8s%s", "-", suffix[0] ? " " : "");
    else printf(" %8.3g%s", value, suffix);
}

static int modelled(const host_data *h, int version, int k, sl_modelled *m)
{
    sl_divergence_params p = {k, WORK, 64};
    sl_opts opts = {version, 256};
    return sl_divergence_modelled(h->x, MODEL_N, &p, &opts, m) == SL_OK;
}

static void model_row(bench_env *env, const char *what, const sl_modelled *m, const sl_modelled *control,
                      double expected_eff, double expected_slowdown)
{
    double slowdown = control->inst_executed ? (double)m->inst_executed / (double)control->inst_executed : 0.0;
    double diverged = m->warps ? (double)m->branches_diverged / (double)m->warps : 0.0;
    printf("  %-36s %8.1f%%", what, 100.0 * m->simt_efficiency);
    print_expected(100.0 * expected_eff, "%");
    printf(" %10.2f %10.2f", diverged, slowdown);
    print_expected(expected_slowdown, "");
    printf("\n");
    if (env->csv)
        fprintf(env->csv, "# modelled,%s,n=%d,simt_efficiency=%.4f,branches_diverged_per_warp=%.3f,slowdown=%.3f\n",
                what, MODEL_N, m->simt_efficiency, diverged, slowdown);
}

static int print_modelled(bench_env *env, const host_data *h)
{
    if (sl_modelled_available() != SL_OK) {
        bench_skip(env, "modelled columns", sl_last_error());
        return 1;
    }
    printf("\nmodelled by the emulator (not measured, not a GPU time): %d items, 256 threads per block,\n"
           "%d steps per path; slowdown = warp-level issues (basic blocks) over the control's\n", MODEL_N, WORK);
    printf("  %-36s %9s %9s %10s %10s %8s\n", "version", "SIMT eff", "expected", "div/warp", "slowdown", "expected");
    for (int k = 1; k <= 32; k *= 2) {
        sl_modelled split, control;
        if (!modelled(h, 1, k, &split) || !modelled(h, 2, k, &control)) return 0;
        char what[64];
        snprintf(what, sizeof what, "v1 split by lane %% %d", k);
        model_row(env, what, &split, &control, 1.0 / k, k);
        chart_point(env, k, "slowdown_modelled",
                    control.inst_executed ? (double)split.inst_executed / (double)control.inst_executed : 0.0);
        chart_point(env, k, "expected_k", (double)k);
    }
    sl_modelled m[10];
    for (int v = 2; v <= 9; v++)
        if (!modelled(h, v, 32, &m[v])) return 0;
    /* expected: the control ~100%; v6's branch may be predicated (no cost) or not; v8's two loops halve it */
    static const double eff[10] = {0, 0, 1.0, 0, 0, 1.0, 1.0, 1.0, 0.5, 1.0};
    static const double slow[10] = {0, 0, 1.0, 1.0, 0, 0, 1.0, 1.0, 2.0, 1.0}; /* 0: none stated */
    for (int v = 3; v <= 9; v++) {
        int c = sl_divergence_control(v);
        model_row(env, sl_divergence_version_name(v), &m[v], &m[c], eff[v] > 0 ? eff[v] : NAN,
                  slow[v] > 0 ? slow[v] : NAN);
    }
    printf("  (ncu: smsp__thread_inst_executed_per_inst_executed / 32, smsp__sass_branch_targets_threads_divergent\n"
           "   per warp. v6's short branch: nvcc predicates it, so a GPU pays nothing; GCC may compile it as a\n"
           "   branch, which the model then counts: see tutorial/03-warps-and-divergence.md)\n");
    return 1;
}

/* ---- the timed columns (a GPU; the emulator's times would be CPU times) --------------- */

typedef struct device_run {
    const host_data *h;
    uint32_t *d_x, *d_out;
    sl_divergence_params p;
    sl_opts opts;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    return sl_divergence_device(d->d_x, d->d_out, d->h->n, &d->p, &d->opts, ms);
}

static sl_status poison_out(void *ctx)
{
    device_run *d = ctx;
    return sl_fill_bytes_device(d->d_out, 0xA5, d->h->n * sizeof(uint32_t));
}

static int check_device(void *ctx, const char *name, size_t n)
{
    device_run *d = ctx;
    const host_data *h = d->h;
    if (sl_divergence_cpu(h->x, h->want, n, &d->p, d->opts.version) != SL_OK ||
        sl_copy_to_host(h->got, d->d_out, n * sizeof(uint32_t)) != SL_OK) {
        fprintf(stderr, "%s: %s\n", name, sl_last_error());
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        if (h->got[i] != h->want[i]) {
            fprintf(stderr, "%s is WRONG: out[%zu] = %u, expected %u\n", name, i, h->got[i], h->want[i]);
            return 0;
        }
    return 1;
}

static int timed(bench_env *env, device_run *d, int version, int k, const char *name, double *ms)
{
    d->p.k = k;
    d->opts.version = version;
    bench_column col = {.name = name, .ctx = d, .run_device = time_device, .prepare = poison_out,
                        .check = check_device, .bytes = bench_bytes_divergence(d->h->n)};
    return bench_column_run(env, d->h->n, &col, ms);
}

static int bench_timed(bench_env *env, host_data *h)
{
    size_t bytes = h->n * sizeof(uint32_t);
    device_run d = {h, NULL, NULL, {1, WORK, WIDTH}, {1, 256}};
    int ok = sl_alloc_device(&d.d_x, bytes) == SL_OK && sl_alloc_device(&d.d_out, bytes) == SL_OK &&
             sl_copy_to_device(d.d_x, h->x, bytes) == SL_OK;
    double split[33] = {0}, control[33] = {0}, ms[10] = {0};
    char name[32];
    for (int k = 1; ok && k <= 32; k *= 2) {
        snprintf(name, sizeof name, "v1_k%d", k);
        ok = timed(env, &d, 1, k, name, &split[k]);
        snprintf(name, sizeof name, "v2_k%d", k);
        if (ok) ok = timed(env, &d, 2, k, name, &control[k]);
    }
    for (int v = 3; ok && v <= 9; v++) {
        snprintf(name, sizeof name, "v%d", v);
        ok = timed(env, &d, v, 2, name, &ms[v]);
    }
    sl_free_device(d.d_x);
    sl_free_device(d.d_out);
    if (!ok) return 0;
    printf("\nslowdown of the k-way split, time(v1) / time(v2), measured on %s:\n", env->device_info.name);
    printf("  %4s %10s %10s %9s %9s %s\n", "k", "v1 ms", "v2 ms", "slowdown", "expected", "within 15%");
    for (int k = 2; k <= 32; k *= 2) {
        double s = control[k] > 0 ? split[k] / control[k] : 0.0;
        printf("  %4d %10.4f %10.4f %9.2f %9d %s\n", k, split[k], control[k], s, k,
               s >= k * (1 - TARGET_PCT / 100.0) && s <= k * (1 + TARGET_PCT / 100.0) ? "yes" : "NO");
        chart_point(env, k, "slowdown_measured", s);
        chart_point(env, k, "expected_k", (double)k);
    }
    printf("escape time: image order %.4f ms, shuffled %.4f ms (%.2fx), sorted %.4f ms (%.2fx)\n", ms[3], ms[4],
           ms[4] / ms[3], ms[5], ms[5] / ms[3]);
    printf("short branch: mixed %.4f ms, grouped %.4f ms (%.2fx: predicated, expected ~1x)\n", ms[6], ms[7],
           ms[6] / ms[7]);
    printf("long branch:  mixed %.4f ms, grouped %.4f ms (%.2fx: a real jump, expected ~2x)\n", ms[8], ms[9],
           ms[8] / ms[9]);
    return 1;
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    h->n = n;
    printf("n = 2^%d (%zu items, %d steps each)\n", log2_n, n, WORK);
}

static int no_cpu_columns(bench_env *env, void *chapter, size_t n)
{
    (void)env, (void)chapter, (void)n;
    return 1;
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    (void)log2_n, (void)n;
    host_data *h = chapter;
    if (!env->have_gpu) {
        bench_skip(env, "measured slowdown (v1_k* v2_k* v3 .. v9)",
                   "it needs a GPU; the emulator's times are CPU times, so its model is shown instead");
        return print_modelled(env, h);
    }
    return bench_timed(env, h);
}

static const bench_label labels[] = {
    {"slowdown_measured", "measured on the GPU"},
    {"slowdown_modelled", "modelled (warp issues)"},
    {"expected_k", "expected"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"slowdown", "the k-way split: slowdown over the warp-index control", "k (paths per warp, log scale)",
     "slowdown (x)", "6", 1, "slowdown_* expected_k"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "03 warps and divergence (k-way split, escape time, predicated vs branched)", .unit = BENCH_GBS,
    .name_width = 10, .gpu_columns = "v1_k* v2_k* v3 v4 v5 v6 v7 v8 v9 slowdown_measured",
    /* one size: 2^20 items on a GPU; the model looks at MODEL_N items whatever the size */
    .log2_min = 12, .log2_step = 8, .log2_max_gpu = 20, .log2_max_emulated = 12, .log2_max_no_device = 12,
    .log2_max_quick = 12, .begin_size = begin_size, .cpu_columns = no_cpu_columns, .device_columns = bench_device,
    .labels = labels, .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc == 3 ? 0 : rc;
    size_t max_n = (size_t)1 << env.log2_max;
    if (max_n < MODEL_N) max_n = MODEL_N;
    host_data h = {bench_host_alloc(&env, max_n * 4), bench_host_alloc(&env, max_n * 4),
                   bench_host_alloc(&env, max_n * 4), 0};
    if (!h.x || !h.want || !h.got) return bench_finish(&env, 0);
    uint64_t state = 3;
    for (size_t i = 0; i < max_n; i++) h.x[i] = (uint32_t)sl_rng_next(&state);
    return bench_finish(&env, bench_sizes(&env, &h));
}
