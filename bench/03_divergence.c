/* Chapter 03 benchmark — what divergence costs.
 *
 * On a GPU, for n = 2^20 items: the k-way split by lane (v1) against the same
 * work split by warp (v2, the control) for k = 1..32, with 4096 steps per
 * path, so that the fixed costs of a launch (starting it, scheduling its
 * blocks, the loads and stores) are a few percent of the control's time.
 * For each k it prints three slowdowns with the expected k beside them:
 *   wall   time(v1) / time(v2), the fixed costs inside;
 *   net    the same with each launch's fixed cost taken out, measured in the
 *          same run as the same launch with 0 steps per path;
 *   cycles the median per-warp clock64() cycles of v1 over v2's (the first
 *          4096 warps), which see neither launch nor scheduling.
 * Then the escape-time loop in image, shuffled and sorted order (v3-v5), the
 * short branch (predicated) and the long branch (a real jump), mixed keys
 * against grouped (v6-v9), and a sweep of n from 2^12 to 2^24 at k = 32 with
 * the resident warps per SM beside it: where the fixed cost dominates, where
 * too few warps leave the paths' latency unhidden, where the kernel is
 * issue-bound. Every column is checked against the CPU reference before it
 * is timed. Target on a GPU, printed and never asserted: the net slowdown
 * within 15% of k for every k.
 *
 * --config 12-04 runs the configuration of the one H200 run of 2026-12-04
 * (256 steps per path, wall clock only, then the same at 2^12 items), so its
 * figures (bench/data/03_divergence_h200_2026-12-04.csv) can be reproduced.
 *
 * Without a GPU: the modelled GPU time of the 12-04 configuration (the
 * emulator's timing model, emu/docs/model.md, on the GPU SIMTLAB_MODEL_GPU
 * names, default h200) of v1 and v2 for each k at 2^20 items (sampled
 * blocks) and at 2^12, and their slowdown beside k; then the table modelled
 * from the warps' real paths (simtlab/core.h, sl_modelled): SIMT efficiency,
 * diverged branches per warp, and the ratio of warp-level issues (basic
 * blocks) of a version over its control's, with the expected 1/k and k
 * beside them. Both are models, labelled so, never a GPU time; the chart
 * draws three lines: k, the modelled slowdown and the H200's 12-04
 * measurement from its data file. --timed also runs the GPU's tables on the
 * emulator at a small size (CPU times, labelled), to check the code.
 *
 * CSV: the timed rows (n, column v1_k4, v1_k4_fixed, ...), the slowdown
 * against k as rows with n = k (slowdown_wall, _net, _cycles on a GPU;
 * slowdown_measured under --config 12-04; slowdown_modelled_<gpu>,
 * slowdown_h200_1204 and issue_ratio_modelled under the emulator;
 * expected_k), drawn as 03_divergence-slowdown, and the sweep's slowdowns
 * against n, drawn as 03_divergence-sweep.
 *
 * Usage: bench_03_divergence [--csv FILE] [--quick] [--config 12-04] [--timed] */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define WORK 256      /* steps of each path, the branches and the escape cap */
#define WIDTH 1024    /* escape-time image width */
#define MODEL_N 4096  /* items the model looks at: 128 warps */
#define WORK_1204 256 /* steps per path of the 12-04 run */
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
        chart_point(env, k, "issue_ratio_modelled",
                    control.inst_executed ? (double)split.inst_executed / (double)control.inst_executed : 0.0);
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

/* ---- the modelled GPU time of the 12-04 configuration (no GPU needed) ----------------- */

/* The emulator's timing model (emu/docs/model.md) of the k-way split at the
 * 12-04 configuration (256 steps per path, 256 threads per block), at 2^20
 * items, the size the H200 measured, and at 2^12: a time on the GPU that
 * SIMTLAB_MODEL_GPU names (default h200), modelled, never measured. At 2^20
 * the launch's 4096 blocks are sampled (MODEL_SAMPLE_BLOCKS of them, spread
 * over the grid, the counts scaled by the grid: the split's work does not
 * depend on its data, so sampling is sound here). */
#define MODEL_1204_LOG2 20
#define MODEL_SMALL_LOG2 12
#define MODEL_SAMPLE_BLOCKS "64"

typedef struct model_call {
    const uint32_t *d_x;
    uint32_t *d_out;
    size_t n;
    sl_divergence_params p;
    sl_opts opts;
} model_call;

static sl_status run_model_call(void *ctx)
{
    model_call *c = ctx;
    double ms = 0.0;
    return sl_divergence_device(c->d_x, c->d_out, c->n, &c->p, &c->opts, &ms);
}

/* us of one call of `version` at k; -1 with *note why not. */
static double model_us(model_call *c, int version, int k, char *gpu, size_t gpu_cap, char *note, size_t note_cap)
{
    sl_modelled m;
    c->p.k = k;
    c->opts.version = version;
    if (sl_modelled_run(run_model_call, c, &m) != SL_OK) {
        snprintf(note, note_cap, "not modelled: %s", sl_last_error());
        return -1.0;
    }
    snprintf(gpu, gpu_cap, "%s", m.model_gpu[0] ? m.model_gpu : "h200");
    snprintf(note, note_cap, "%s", m.model_note);
    return m.model_us;
}

static int print_modelled_time(bench_env *env)
{
    if (sl_modelled_available() != SL_OK) {
        bench_skip(env, "slowdown_modelled_*", sl_last_error());
        return 1;
    }
    size_t n_big = (size_t)1 << MODEL_1204_LOG2, bytes = n_big * sizeof(uint32_t);
    uint32_t *x = malloc(bytes), *d_x = NULL, *d_out = NULL;
    int ok = x && sl_alloc_device(&d_x, bytes) == SL_OK && sl_alloc_device(&d_out, bytes) == SL_OK;
    uint64_t state = 3; /* the keys main() draws, at the size the H200 ran */
    for (size_t i = 0; ok && i < n_big; i++) x[i] = (uint32_t)sl_rng_next(&state);
    if (ok) ok = sl_copy_to_device(d_x, x, bytes) == SL_OK;
    free(x);
    if (!ok) {
        fprintf(stderr, "bench_03: the modelled run at 2^%d: %s\n", MODEL_1204_LOG2, sl_last_error());
        sl_free_device(d_x);
        sl_free_device(d_out);
        return 0;
    }
    char gpu[32] = "h200", note[200] = "";
    double t[2][3][33]; /* [size][version][k] */
    const int log2s[2] = {MODEL_1204_LOG2, MODEL_SMALL_LOG2};
    for (int s = 0; ok && s < 2; s++)
        for (int k = 1; ok && k <= 32; k *= 2) {
            model_call c = {d_x, d_out, (size_t)1 << log2s[s], {k, WORK_1204, WIDTH}, {1, 256}};
            for (int v = 1; v <= 2; v++) {
                t[s][v][k] = model_us(&c, v, k, gpu, sizeof gpu, note, sizeof note);
                if (t[s][v][k] < 0) { /* said, never a number */
                    bench_skip(env, "slowdown_modelled_*", note);
                    ok = 0;
                    break;
                }
            }
        }
    sl_free_device(d_x);
    sl_free_device(d_out);
    if (!ok) return 1; /* said above: never a number */
    printf("\nmodelled %s time of the 12-04 configuration (the emulator's timing model: modelled, not measured;\n"
           "256 steps per path, 256 threads per block; 2^20 from %s sampled blocks of 4096, scaled by the grid):\n",
           gpu, getenv("SIMTLAB_EMU_SAMPLE_BLOCKS") ? getenv("SIMTLAB_EMU_SAMPLE_BLOCKS") : "all");
    printf("  %4s %11s %11s %9s %9s   %11s %11s %9s\n", "k", "v1 us 2^20", "v2 us 2^20", "slowdown", "expected",
           "v1 us 2^12", "v2 us 2^12", "slowdown");
    char col[64];
    snprintf(col, sizeof col, "slowdown_modelled_%s", gpu);
    for (int k = 1; k <= 32; k *= 2) {
        double big = t[0][1][k] / t[0][2][k], small = t[1][1][k] / t[1][2][k];
        printf("  %4d %11.2f %11.2f %9.2f %9d   %11.2f %11.2f %9.2f\n", k, t[0][1][k], t[0][2][k], big, k, t[1][1][k],
               t[1][2][k], small);
        chart_point(env, k, col, big);
        chart_point(env, k, "expected_k", (double)k);
        if (env->csv)
            fprintf(env->csv, "# modelled_time,%s,k=%d,v1_us_2^20=%.6g,v2_us_2^20=%.6g,v1_us_2^12=%.6g,v2_us_2^12=%.6g\n",
                    gpu, k, t[0][1][k], t[0][2][k], t[1][1][k], t[1][2][k]);
    }
    printf("  (the bound of the last launch: %s; tutorial/03-warps-and-divergence.md reads these figures)\n",
           note[0] ? note : "-");
    return 1;
}

/* ---- the timed columns (a GPU; the emulator's times would be CPU times) --------------- */

/* What a timed run measures. The 12-04 configuration (--config 12-04) is the
 * one the page's first H200 table came from: 2^20 items, 256 steps per path,
 * wall-clock slowdowns with every fixed cost inside them. The default
 * measures divergence itself: 16x the work per item, so that the fixed costs
 * (the launch, block scheduling, the loads and stores) are a few percent of
 * the control's time; those costs measured in the same run (the same launch
 * with 0 steps per path) and taken out; the per-warp cycles the kernels
 * record with clock64(); and a sweep of n that shows where the fixed cost,
 * the issue rate or too few resident warps sets the time. */
#define WORK_TIMED 4096 /* steps per path by default on a GPU */
#define CLOCK_WARPS 4096 /* warps whose clocks are read: the first ones of the call */

static struct {
    int config_1204; /* --config 12-04 */
    int timed;       /* --timed: the timed columns on the emulator too (CPU times) */
} opt;

static int chapter_option(bench_env *env, int argc, char **argv, int *i)
{
    (void)env;
    if (strcmp(argv[*i], "--timed") == 0) {
        opt.timed = 1;
        return 1;
    }
    if (strcmp(argv[*i], "--config") == 0 && *i + 1 < argc) {
        const char *name = argv[++*i];
        if (strcmp(name, "12-04") == 0) {
            opt.config_1204 = 1;
            return 1;
        }
        fprintf(stderr, "--config %s: the configurations are: 12-04 (the H200 run of 2026-12-04)\n", name);
    }
    return 0;
}

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

/* One column: `version` at k and d->p.work steps, checked, then timed (its
 * median in *ms); written to the CSV at the run's n (or at `csv_n`). */
static int timed(bench_env *env, device_run *d, int version, int k, const char *name, double *ms)
{
    d->p.k = k;
    d->opts.version = version;
    bench_column col = {.name = name, .ctx = d, .run_device = time_device, .prepare = poison_out,
                        .check = check_device, .bytes = bench_bytes_divergence(d->h->n)};
    return bench_column_run(env, d->h->n, &col, ms);
}

static int compare_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* The median, over the first warps of one call, of a warp's cycles from its
 * entry to its last lane's end (clock64(), SM cycles). -1 on a failure. */
static double median_warp_cycles(const device_run *d, int version, int k)
{
    sl_divergence_params p = d->p;
    p.k = k;
    sl_opts o = d->opts;
    o.version = version;
    size_t warps = (d->h->n + 31) / 32, count = warps < CLOCK_WARPS ? warps : CLOCK_WARPS;
    sl_divergence_warp *w = calloc(count, sizeof *w);
    long long *c = calloc(count, sizeof *c);
    double median = -1.0;
    if (w && c && sl_divergence_warps(d->h->x, d->h->n, &p, &o, 0, count, w) == SL_OK) {
        for (size_t i = 0; i < count; i++) c[i] = w[i].clock_stop - w[i].clock_start;
        qsort(c, count, sizeof *c, compare_ll);
        median = count % 2 ? (double)c[count / 2] : 0.5 * ((double)c[count / 2 - 1] + (double)c[count / 2]);
    } else if (w && c) {
        fprintf(stderr, "warp clocks of v%d at k = %d: %s\n", version, k, sl_last_error());
    }
    free(w);
    free(c);
    return median;
}

/* The k-way split at the run's n: wall times, the same launches with no work
 * (their fixed cost), and the warps' cycles. */
static int split_table(bench_env *env, device_run *d)
{
    double t1[33] = {0}, t2[33] = {0}, f1[33] = {0}, f2[33] = {0}, c1[33] = {0}, c2[33] = {0};
    char name[40];
    const int work = d->p.work;
    int ok = 1;
    for (int k = 1; ok && k <= 32; k *= 2) {
        d->p.work = work;
        snprintf(name, sizeof name, "v1_k%d", k);
        ok = timed(env, d, 1, k, name, &t1[k]);
        snprintf(name, sizeof name, "v2_k%d", k);
        if (ok) ok = timed(env, d, 2, k, name, &t2[k]);
        if (opt.config_1204) continue;
        d->p.work = 0; /* the same launches, 0 steps per path: what is left is fixed */
        snprintf(name, sizeof name, "v1_k%d_fixed", k);
        if (ok) ok = timed(env, d, 1, k, name, &f1[k]);
        snprintf(name, sizeof name, "v2_k%d_fixed", k);
        if (ok) ok = timed(env, d, 2, k, name, &f2[k]);
        d->p.work = work;
        c1[k] = median_warp_cycles(d, 1, k);
        c2[k] = median_warp_cycles(d, 2, k);
    }
    d->p.work = work;
    if (!ok) return 0;
    const char *what = env->emulated ? "EMULATED (CPU times and the emulator's cycles, not a GPU's)"
                                     : env->device_info.name;
    printf("\nslowdown of the k-way split at n = %zu, %d steps per path, on %s:\n", d->h->n, work, what);
    if (opt.config_1204) {
        printf("  (the 12-04 configuration: wall-clock medians, fixed costs included)\n");
        printf("  %4s %10s %10s %9s %9s\n", "k", "v1 ms", "v2 ms", "slowdown", "expected");
        for (int k = 1; k <= 32; k *= 2) {
            double s = t2[k] > 0 ? t1[k] / t2[k] : 0.0;
            printf("  %4d %10.4f %10.4f %9.2f %9d\n", k, t1[k], t2[k], s, k);
            chart_point(env, k, "slowdown_measured", s);
            chart_point(env, k, "expected_k", (double)k);
        }
        return 1;
    }
    printf("  wall = time(v1) / time(v2); fixed = each launch with 0 steps per path; net = (v1 - its fixed) /\n"
           "  (v2 - its fixed); cycles = median per-warp clock64() cycles of v1 over v2's (first %d warps)\n",
           CLOCK_WARPS);
    printf("  %4s %10s %10s %9s %9s %7s %8s %8s %8s %9s %s\n", "k", "v1 ms", "v2 ms", "v1 fixed", "v2 fixed",
           "fixed%", "wall", "net", "cycles", "expected", "net within 15%");
    for (int k = 1; k <= 32; k *= 2) {
        double wall = t2[k] > 0 ? t1[k] / t2[k] : 0.0;
        double net = t2[k] - f2[k] > 0 ? (t1[k] - f1[k]) / (t2[k] - f2[k]) : 0.0;
        double cyc = c2[k] > 0 && c1[k] > 0 ? c1[k] / c2[k] : 0.0;
        double pct = t2[k] > 0 ? 100.0 * f2[k] / t2[k] : 0.0;
        printf("  %4d %10.4f %10.4f %9.4f %9.4f %6.1f%% %8.2f %8.2f %8.2f %9d %s\n", k, t1[k], t2[k], f1[k], f2[k],
               pct, wall, net, cyc, k,
               net >= k * (1 - TARGET_PCT / 100.0) && net <= k * (1 + TARGET_PCT / 100.0) ? "yes" : "NO");
        if (env->csv) fprintf(env->csv, "# split,k=%d,v1_ms=%.6g,v2_ms=%.6g,v1_fixed_ms=%.6g,v2_fixed_ms=%.6g,"
                              "v1_cycles=%.6g,v2_cycles=%.6g\n", k, t1[k], t2[k], f1[k], f2[k], c1[k], c2[k]);
        const char *prefix = env->emulated ? "emulated_" : "";
        char col[48];
        snprintf(col, sizeof col, "%sslowdown_wall", prefix);
        chart_point(env, k, col, wall);
        snprintf(col, sizeof col, "%sslowdown_net", prefix);
        if (net > 0) chart_point(env, k, col, net);
        if (cyc > 0) {
            snprintf(col, sizeof col, "%sslowdown_cycles", prefix);
            chart_point(env, k, col, cyc);
        }
        chart_point(env, k, "expected_k", (double)k);
    }
    return 1;
}

/* k = 32 over n: resident warps per SM from too few to many. Where the fixed
 * cost is most of the control's time the wall slowdown is far below k; where
 * the SMs hold too few warps to hide the path's latency, both versions wait
 * and the slowdown drops too; in between, the kernel is issue-bound and the
 * slowdown is k. */
static int sweep(bench_env *env, device_run *d, int log2_lo, int log2_hi, int step)
{
    enum { max_rows = 16 };
    struct { size_t n; double t1, t2, f1, f2; } row[max_rows];
    int rows = 0, ok = 1;
    const int k = 32;
    printf("\nthe sweep: k = %d, %d steps per path, n from 2^%d to 2^%d\n", k, d->p.work, log2_lo, log2_hi);
    for (int p = log2_lo; ok && p <= log2_hi && rows < max_rows; p += step) {
        size_t n = (size_t)1 << p;
        if (n > d->h->n) break;
        host_data sub = *d->h;
        sub.n = n;
        device_run s = *d;
        s.h = &sub;
        char name[48];
        row[rows].n = n;
        snprintf(name, sizeof name, "sweep_v1_k%d", k);
        ok = timed(env, &s, 1, k, name, &row[rows].t1);
        snprintf(name, sizeof name, "sweep_v2_k%d", k);
        if (ok) ok = timed(env, &s, 2, k, name, &row[rows].t2);
        s.p.work = 0;
        snprintf(name, sizeof name, "sweep_v1_k%d_fixed", k);
        if (ok) ok = timed(env, &s, 1, k, name, &row[rows].f1);
        snprintf(name, sizeof name, "sweep_v2_k%d_fixed", k);
        if (ok) ok = timed(env, &s, 2, k, name, &row[rows].f2);
        if (ok) rows++;
    }
    if (!ok) return 0;
    int sms = env->device_info.sm_count > 0 ? env->device_info.sm_count : 1;
    printf("  %10s %10s %10s %10s %9s %7s %8s %8s\n", "n", "warps/SM", "v1 ms", "v2 ms", "v2 fixed", "fixed%",
           "wall", "net");
    for (int r = 0; r < rows; r++) {
        double wall = row[r].t2 > 0 ? row[r].t1 / row[r].t2 : 0.0;
        double net = row[r].t2 - row[r].f2 > 0 ? (row[r].t1 - row[r].f1) / (row[r].t2 - row[r].f2) : 0.0;
        printf("  %10zu %10.2f %10.4f %10.4f %9.4f %6.1f%% %8.2f %8.2f\n", row[r].n, (double)row[r].n / 32.0 / sms,
               row[r].t1, row[r].t2, row[r].f2, row[r].t2 > 0 ? 100.0 * row[r].f2 / row[r].t2 : 0.0, wall, net);
        if (env->csv) {
            fprintf(env->csv, "%zu,sweep_slowdown_wall,0,0,0,%.6g,x\n", row[r].n, wall);
            if (net > 0) fprintf(env->csv, "%zu,sweep_slowdown_net,0,0,0,%.6g,x\n", row[r].n, net);
        }
    }
    printf("  (warps/SM: the call's warps over the SMs; an SM holds at most 64 resident warps at once (sm_80, sm_90):\n"
           "   below a few per scheduler the paths' latency is not hidden; far above, the blocks run in waves)\n");
    return 1;
}

static int bench_timed(bench_env *env, host_data *h)
{
    size_t bytes = h->n * sizeof(uint32_t);
    int work = opt.config_1204 ? WORK_1204 : env->emulated ? 16 : WORK_TIMED;
    device_run d = {h, NULL, NULL, {1, work, WIDTH}, {1, 256}};
    int ok = sl_alloc_device(&d.d_x, bytes) == SL_OK && sl_alloc_device(&d.d_out, bytes) == SL_OK &&
             sl_copy_to_device(d.d_x, h->x, bytes) == SL_OK;
    if (!ok) fprintf(stderr, "bench_03: %s\n", sl_last_error());
    if (ok) ok = split_table(env, &d);
    double ms[10] = {0};
    char name[32];
    for (int v = 3; ok && v <= 9; v++) {
        snprintf(name, sizeof name, "v%d", v);
        ok = timed(env, &d, v, 2, name, &ms[v]);
    }
    if (ok) {
        printf("escape time: image order %.4f ms, shuffled %.4f ms (%.2fx), sorted %.4f ms (%.2fx)\n", ms[3], ms[4],
               ms[4] / ms[3], ms[5], ms[5] / ms[3]);
        printf("short branch: mixed %.4f ms, grouped %.4f ms (%.2fx: predicated, expected ~1x)\n", ms[6], ms[7],
               ms[6] / ms[7]);
        printf("long branch:  mixed %.4f ms, grouped %.4f ms (%.2fx: a real jump, expected ~2x)\n", ms[8], ms[9],
               ms[8] / ms[9]);
    }
    if (ok && !opt.config_1204)
        ok = env->emulated ? sweep(env, &d, 10, 12, 2) : sweep(env, &d, 12, env->quick ? 16 : 24, 2);
    if (ok && opt.config_1204 && d.h->n >= ((size_t)1 << 12) && !env->emulated) {
        /* the run's second fact: the same split at 2^12 items (16 blocks) */
        host_data small = *h;
        small.n = (size_t)1 << 12;
        device_run s = d;
        s.h = &small;
        printf("\nthe same at n = 4096 (16 blocks of 256 threads):\n");
        for (int k = 2; ok && k <= 32; k *= 2) {
            double a = 0, b = 0;
            snprintf(name, sizeof name, "small_v1_k%d", k);
            ok = timed(env, &s, 1, k, name, &a);
            snprintf(name, sizeof name, "small_v2_k%d", k);
            if (ok) ok = timed(env, &s, 2, k, name, &b);
            if (ok) printf("  k = %2d: slowdown %.2f\n", k, b > 0 ? a / b : 0.0);
        }
    }
    sl_free_device(d.d_x);
    sl_free_device(d.d_out);
    return ok;
}

/* The one H200 measurement of the 12-04 configuration (bench/data/...), drawn
 * beside the model on a machine without a GPU: the measured line a student
 * can compare with. Missing file: said, not fatal. */
static void measured_1204_points(bench_env *env)
{
    static const char path[] = SIMTLAB_SOURCE_DIR "/bench/data/03_divergence_h200_2026-12-04.csv";
    FILE *f = fopen(path, "r");
    if (!f) {
        bench_skip(env, "slowdown_h200_1204", "bench/data/03_divergence_h200_2026-12-04.csv could not be read");
        return;
    }
    char line[512];
    printf("measured once on an NVIDIA H200, 2026-12-04 (bench/data/03_divergence_h200_2026-12-04.csv;\n"
           "--config 12-04 on a GPU reruns it): n = 2^20, 256 steps per path, wall-clock slowdown:\n ");
    while (fgets(line, sizeof line, f)) {
        long long n = 0;
        int k = 0;
        double v1 = 0, v2 = 0, s = 0;
        if (line[0] == '#' || sscanf(line, "%lld,%d,%lf,%lf,%lf", &n, &k, &v1, &v2, &s) != 5) continue;
        printf(" k=%d %.2f", k, s);
        chart_point(env, k, "slowdown_h200_1204", s);
    }
    printf("\n");
    fclose(f);
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    h->n = n;
    printf("n = 2^%d (%zu items)\n", log2_n, n);
}


static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    (void)log2_n, (void)n;
    host_data *h = chapter;
    if (env->have_gpu) return bench_timed(env, h);
    bench_skip(env, "measured slowdown (v1_k* v2_k* v3 .. v9)",
               "it needs a GPU; the emulator's times are CPU times, so its model is shown instead");
    measured_1204_points(env);
    int ok = print_modelled_time(env);
    if (ok) ok = print_modelled(env, h);
    if (ok && !opt.timed)
        bench_skip(env, "emulated_slowdown_* sweep_slowdown_*",
                   "--timed runs the GPU's tables on the emulator at a small size, as CPU times");
    if (ok && opt.timed) { /* the timed path's code, run on the emulator: CPU times, labelled */
        printf("\n--timed: the GPU's tables, run on the emulator at n = %zu (CPU times, not a GPU's)\n", h->n);
        ok = bench_timed(env, h);
    }
    return ok;
}

static const bench_label labels[] = {
    {"slowdown_measured", "measured on this GPU (12-04 configuration: wall clock, fixed costs included)"},
    {"slowdown_wall", "measured on this GPU: wall clock, fixed costs included"},
    {"slowdown_net", "measured on this GPU: fixed costs (the same launch, 0 steps) taken out"},
    {"slowdown_cycles", "measured on this GPU: per-warp clock64() cycles"},
    {"slowdown_h200_1204", "measured once on an H200, 2026-12-04 (wall clock, fixed costs included)"},
    {"emulated_slowdown_wall", "emulator, CPU times (not a GPU): wall clock"},
    {"emulated_slowdown_net", "emulator, CPU times (not a GPU): fixed costs taken out"},
    {"emulated_slowdown_cycles", "emulator, emulated cycles (not a GPU's)"},
    {"slowdown_modelled_h200", "modelled on the H200 (the emulator's timing model, not measured)"},
    {"issue_ratio_modelled", "modelled warp issues, v1 over v2 (4096 items)"},
    {"expected_k", "k, the naive expectation (no fixed cost)"},
    {"sweep_slowdown_wall", "k = 32, wall clock"},
    {"sweep_slowdown_net", "k = 32, fixed costs taken out"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"slowdown", "the k-way split: slowdown over the warp-index control", "k (paths per warp, log scale)",
     "slowdown (x)", "6", 1, "expected_k slowdown_* emulated_slowdown_*"},
    {"sweep", "the k = 32 split over n: fixed-cost, latency- and issue-bound", "n (items, log scale)",
     "slowdown (x)", "6", 1, "sweep_slowdown_*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "03 warps and divergence (k-way split, escape time, predicated vs branched)", .unit = BENCH_GBS,
    .name_width = 10,
    .gpu_columns = "v1_k* v2_k* v3 v4 v5 v6 v7 v8 v9 slowdown_wall slowdown_net slowdown_cycles sweep_*",
    /* one size: 2^20 items on a GPU (the sweep runs its own); the model looks at MODEL_N items whatever the size */
    .log2_min = 12, .log2_step = 8, .log2_max_gpu = 20, .log2_max_emulated = 12, .log2_max_no_device = 12,
    .log2_max_quick = 12, .begin_size = begin_size, .cpu_columns = NULL, /* every column is a kernel */
    .device_columns = bench_device, .labels = labels, .charts = charts, .option = chapter_option,
    .usage = "[--config 12-04] [--timed]"};

int main(int argc, char **argv)
{
    bench_env env;
    /* The modelled time at 2^20 (print_modelled_time) samples the launch's
     * blocks; every other launch of an emulated run has at most 64 blocks,
     * so it runs whole. A value in the environment wins. */
    if (!getenv("SIMTLAB_EMU_SAMPLE_BLOCKS")) setenv("SIMTLAB_EMU_SAMPLE_BLOCKS", MODEL_SAMPLE_BLOCKS, 0);
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
