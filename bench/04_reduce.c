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

#include "amounts.h"
#include "harness.h"

#define TARGET_LOG2 28

typedef struct host_data {
    float *x;
    size_t n;
    double ref; /* double-loop sum of x[0..n) */
} host_data;

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

static int check_cpu(void *ctx, const char *name, size_t n)
{
    const cpu_run *c = ctx;
    return close_enough(c->result, c->h->ref, name, n);
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    h->n = n;
    h->ref = sl_reduce_sum_cpu_f64(h->x, n);
    printf("n = 2^%d (%zu floats, %.1f MiB read)\n", log2_n, n, 4.0 * n / 1048576.0);
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    const host_data *h = chapter;
    const char *names[4] = {"cpu_f64", "cpu_f64_omp", "cpu_pairwise", "cpu_pairwise_omp"};
    cpu_run runs[4];
    bench_column cols[4];
    for (int k = 0; k < 4; k++) {
        runs[k] = (cpu_run){h, k, NAN};
        cols[k] = (bench_column){.name = names[k], .ctx = &runs[k], .run_host = run_cpu, .check = check_cpu,
                                 .bytes = bench_bytes_reduce(n)};
    }
    return bench_columns(env, n, cols, 4);
}

/* ---- device columns ------------------------------------------------------------ */
typedef enum column_kind { COL_VERSION, COL_CUB, COL_SASUM } column_kind;

typedef struct device_run {
    bench_inputs *in; /* rotated copies of x */
    const host_data *h;
    column_kind kind;
    sl_opts opts;
    float result;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    const float *x = d->in->copy[0][bench_inputs_next(d->in)];
    size_t n = d->h->n;
    switch (d->kind) {
    case COL_VERSION: return sl_reduce_sum_f32_device(x, n, &d->result, &d->opts, ms);
    case COL_CUB: return sl_vendor_reduce_sum_f32_device(x, n, &d->result, ms);
    default: return sl_vendor_sasum_device(x, n, &d->result, ms);
    }
}

/* Before the checked run: a result that no run wrote cannot pass. */
static sl_status forget_result(void *ctx)
{
    ((device_run *)ctx)->result = NAN;
    return SL_OK;
}

static int check_device(void *ctx, const char *name, size_t n)
{
    const device_run *d = ctx;
    return close_enough(d->result, d->h->ref, name, n);
}

/* Without a GPU, what each version would make a GPU do, as the emulator
 * models it from the warps' real paths and addresses (n = 2^16, 256
 * threads): the figures behind each kernel's comment. Printed as a table
 * and as "# modelled," lines in the CSV (charts skip # lines). */
#define MODEL_LOG2 16
/* the first size of the spec below: the modelled table is printed once */
#define SPEC_LOG2_MIN 20

static void print_modelled(bench_env *env)
{
    size_t n = (size_t)1 << MODEL_LOG2;
    printf("modelled by the emulator (not measured), n = 2^%d, 256 threads per block:\n", MODEL_LOG2);
    printf("  %-46s %9s %14s %14s %12s %9s\n", "version", "SIMT eff", "diverged/warp", "shared confl/req",
           "ld sect/req", "barriers");
    for (int v = 1; v <= sl_reduce_version_count(); v++) {
        sl_modelled m;
        if (sl_reduce_modelled(v, n, 256, &m) != SL_OK) {
            bench_skip(env, "modelled columns", sl_last_error());
            return;
        }
        double diverged = m.warps ? (double)m.branches_diverged / (double)m.warps : 0.0;
        double conflicts = sl_modelled_per_request(m.shld_bank_conflicts + m.shst_bank_conflicts,
                                                   m.shld_requests + m.shst_requests);
        double sectors = sl_modelled_per_request(m.gld_sectors, m.gld_requests);
        printf("  %-46s %8.1f%% %14.2f %14.2f %12.2f %9llu\n", sl_reduce_version_name(v), 100.0 * m.simt_efficiency,
               diverged, conflicts, sectors, m.barriers);
        if (env->csv)
            fprintf(env->csv, "# modelled,v%d,n=%zu,simt_efficiency=%.4f,branches_diverged_per_warp=%.3f,"
                    "shared_bank_conflicts_per_request=%.3f,global_load_sectors_per_request=%.3f,barriers=%llu\n",
                    v, n, m.simt_efficiency, diverged, conflicts, sectors, m.barriers);
    }
    printf("  (ncu: smsp__thread_inst_executed_per_inst_executed / 32, smsp__sass_branch_targets_threads_divergent,\n"
           "   l1tex__data_bank_conflicts_pipe_lsu_mem_shared, l1tex__t_sectors_pipe_lsu_mem_global_op_ld per request)\n");
}

/* The header's targets, for the size where they are stated. */
static void print_targets(const bench_table *t)
{
    int best = bench_table_best(t);
    printf("targets at n = 2^%d: best version v%d at %.1f%% of CUB (target >= 98%%), %.1f%% of copy bandwidth "
           "(target >= 90%%), %.1fx v1 (target >= 20x)\n",
           TARGET_LOG2, best, bench_table_pct_vendor(t, best), bench_table_pct_copy(t, best),
           t->ms[best] > 0 ? t->ms[1] / t->ms[best] : 0.0);
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    const host_data *h = chapter;
    size_t bytes = n * sizeof(float);
    const void *host[1] = {h->x};
    bench_inputs in;
    if (bench_inputs_make(env, &in, 1, host, &bytes, n) != SL_OK) return 0;
    bench_table t = {.version_name = sl_reduce_version_name, .versions = sl_reduce_version_count(),
                     .amount = (double)bench_bytes_reduce(n), .vendor = "CUB", .vendor_ms = -1.0};
    device_run d = {&in, h, COL_VERSION, {0, 256}, 0.0f};
    bench_column col = {.ctx = &d, .run_device = time_device, .prepare = forget_result, .check = check_device,
                        .inputs = &in, .bytes = bytes};
    int ok = bench_copy_ceiling(env, n, &in, 0, &t.copy_gbs) && bench_versions(env, n, &col, &d.opts, &t);
    d.kind = COL_CUB;
    col.name = "cub";
    if (ok) ok = bench_column_run(env, n, &col, &t.vendor_ms);
    d.kind = COL_SASUM; /* the input is non-negative, so sum |x| = sum x */
    col.name = env->emulated ? "cublas_sasum_emu" : "cublas_sasum";
    if (ok) ok = bench_column_run(env, n, &col, NULL);
    bench_inputs_free(&in);
    if (ok) bench_table_print(env, &t);
    if (ok && log2_n == TARGET_LOG2 && env->have_gpu) print_targets(&t);
    if (ok && env->emulated && log2_n == SPEC_LOG2_MIN) print_modelled(env);
    return ok;
}

/* The measured columns, then (emulator build) each version's modelled GPU
 * time as GB/s of its own: on one log scale a modelled GPU rate and an
 * emulated CPU rate sit decades apart, and 25 lines are not readable. The
 * vendor columns' stand-ins are not NVIDIA's code, so their modelled times
 * are left out. On a GPU the modelled chart has no rows and is not drawn. */
static const bench_chart charts[] = {
    {"gbs", "reduction: GB/s of every version, CUB, cuBLAS, the copy and the CPU", "n (floats)", "GB/s (median)",
     NULL, 1,
     "cpu_f64 cpu_f64_omp cpu_pairwise cpu_pairwise_omp copy_d2d v1 v2 v3 v4 v5 v6 v7 v8 v9 cub cublas_sasum "
     "cublas_sasum_emu"},
    {"modelled", "reduction: GB/s of each version's kernels as the timing model prices them", "n (floats)",
     "GB/s (modelled GPU time)", NULL, 1, "modelled_*_v*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "04 reduction (sum of n floats, 4 bytes per element)", .unit = BENCH_GBS, .name_width = 16,
    .gpu_columns = "copy_d2d v1 v2 v3 v4 v5 v6 v7 v8 v9 cub cublas_sasum",
    /* 2^20 .. 2^30 in steps of 4x; the emulator stops at 2^22, CPU columns alone at 2^26 */
    .log2_min = SPEC_LOG2_MIN, .log2_step = 2, .log2_max_gpu = 30, .log2_max_emulated = 22, .log2_max_no_device = 26,
    .log2_max_quick = 20, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc;
    /* non-negative: no cancellation, and sasum applies */
    host_data h = {bench_host_uniform_f32(&env, (size_t)1 << env.log2_max, 1, 0.0f, 1.0f), 0, 0.0};
    return bench_finish(&env, h.x && bench_sizes(&env, &h));
}
