/* Chapter 05 benchmark — transpose: GB/s of every version on n x n floats,
 * against the device-to-device copy of the same bytes measured in the same
 * run (the ceiling: a transpose reads and writes each element once, like a
 * copy), and the CPU (the 32 x 32 blocked transpose and memcpy, all cores
 * and one), for n = 256 .. 16384 in steps of 2x (emulator: up to 512;
 * --quick: 256; no device: CPU columns up to 8192).
 *
 * Bytes moved per transpose: 8 n^2 (read + write). Target on a GPU,
 * printed and not asserted: at n = 8192, v4 reaches >= 85% of the copy.
 * Every column is checked element by element before it is timed.
 *
 * Without a GPU, the emulator build also prints what it models for each
 * version at n = 64 (labelled "modelled by the emulator"): global sectors
 * per request of loads and stores, shared-memory bank conflicts per
 * request. Those show v1's uncoalesced stores, v2's 32-way conflicts and
 * v3's none; they need kernels built with the counters
 * (-DSIMTLAB_EMU_PROFILE=ON), else the bench says why it skipped them.
 *
 * Usage: bench_05_transpose [--csv FILE] [--quick] */
#include <string.h>

#include "amounts.h"
#include "harness.h"

#define TARGET_LOG2 13
#define MODEL_SIDE 64

typedef struct host_data {
    float *in, *out;
    size_t n; /* the side */
} host_data;

static int check_transposed(const host_data *h, const float *out, const char *name)
{
    size_t n = h->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (out[j * n + i] != h->in[i * n + j]) {
                fprintf(stderr, "%s is WRONG at n=%zu: out[%zu][%zu] = %g, expected %g\n", name, n, j, i,
                        out[j * n + i], h->in[i * n + j]);
                return 0;
            }
    return 1;
}

/* ---- CPU columns ------------------------------------------------------------ */
typedef struct cpu_run {
    host_data *h;
    int memcpy_only;
} cpu_run;

static void run_cpu(void *ctx)
{
    cpu_run *c = ctx;
    size_t n = c->h->n;
    if (c->memcpy_only) memcpy(c->h->out, c->h->in, n * n * sizeof(float));
    else sl_transpose_cpu(c->h->in, n, n, n, c->h->out, n);
}

static sl_status poison_out(void *ctx)
{
    cpu_run *c = ctx;
    return sl_poison_f32(c->h->out, c->h->n * c->h->n);
}

static int check_cpu(void *ctx, const char *name, size_t n)
{
    const cpu_run *c = ctx;
    (void)n;
    if (c->memcpy_only) return memcmp(c->h->out, c->h->in, c->h->n * c->h->n * sizeof(float)) == 0;
    return check_transposed(c->h, c->h->out, name);
}

static void begin_size(void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    h->n = n;
    printf("n = 2^%d: %zu x %zu floats (%.1f MiB read, as much written)\n", log2_n, n, n,
           4.0 * n * n / 1048576.0);
}

static int bench_cpu(bench_env *env, void *chapter, size_t n)
{
    host_data *h = chapter;
    cpu_run runs[2] = {{h, 0}, {h, 1}};
    bench_column cols[2] = {
        {.name = "cpu_blocked_omp", .ctx = &runs[0], .run_host = run_cpu, .prepare = poison_out, .check = check_cpu,
         .bytes = bench_bytes_transpose(n, n)},
        {.name = "cpu_memcpy", .ctx = &runs[1], .run_host = run_cpu, .prepare = poison_out, .check = check_cpu,
         .bytes = bench_bytes_transpose(n, n)},
    };
    return bench_columns(env, n, cols, 2);
}

/* ---- device columns ------------------------------------------------------------ */
typedef struct device_run {
    bench_inputs *in; /* input 0: rotated copies of in; input 1: the output */
    host_data *h;
    sl_opts opts;
} device_run;

static sl_status time_device(void *ctx, double *ms)
{
    device_run *d = ctx;
    size_t n = d->h->n;
    const float *x = d->in->copy[0][bench_inputs_next(d->in)];
    return sl_transpose_device(x, n, n, n, d->in->copy[1][0], n, &d->opts, ms);
}

/* The output on the device, poisoned before the checked run. */
static sl_status poison_device_out(void *ctx)
{
    device_run *d = ctx;
    return sl_fill_bytes_device(d->in->copy[1][0], 0xff, d->h->n * d->h->n * sizeof(float));
}

static int check_device(void *ctx, const char *name, size_t n)
{
    device_run *d = ctx;
    if (sl_copy_to_host(d->h->out, d->in->copy[1][0], n * n * sizeof(float)) != SL_OK) {
        fprintf(stderr, "%s: copying the result back failed: %s\n", name, sl_last_error());
        return 0;
    }
    return check_transposed(d->h, d->h->out, name);
}

static int bench_device(bench_env *env, void *chapter, int log2_n, size_t n)
{
    host_data *h = chapter;
    size_t bytes[2] = {n * n * sizeof(float), n * n * sizeof(float)};
    const void *host[2] = {h->in, NULL};
    bench_inputs in;
    if (bench_inputs_make(env, &in, 2, host, bytes, n) != SL_OK) return 0;
    bench_table t = {.version_name = sl_transpose_version_name, .versions = sl_transpose_version_count(),
                     .amount = (double)bench_bytes_transpose(n, n), .vendor = "vendor", .vendor_ms = -1.0};
    device_run d = {&in, h, {0, 0}};
    bench_column col = {.ctx = &d, .run_device = time_device, .prepare = poison_device_out, .check = check_device,
                        .inputs = &in, .bytes = bench_bytes_transpose(n, n)};
    int ok = bench_copy_ceiling(env, n, &in, 0, &t.copy_gbs) && bench_versions(env, n, &col, &d.opts, &t);
    bench_inputs_free(&in);
    if (ok) bench_table_print(env, &t);
    if (ok && log2_n == TARGET_LOG2 && env->have_gpu)
        printf("target at n = 2^%d: v4 at %.1f%% of the copy bandwidth (target >= 85%%)\n", TARGET_LOG2,
               bench_table_pct_copy(&t, 4));
    return ok;
}

/* A modelled figure as a CSV row only (n,column,0,0,0,value,unit): the
 * harness's bench_emit_value also prints a timing line, which a figure
 * that was not timed does not have; the table above shows it. */
static void csv_value(bench_env *env, size_t n, const char *column, double value, const char *unit)
{
    if (env->csv) fprintf(env->csv, "%zu,%s,0,0,0,%.6g,%s\n", n, column, value, unit);
}

/* ---- what the emulator models ------------------------------------------------------ */
static void modelled_columns(bench_env *env)
{
    printf("\nmodelled by the emulator, %d x %d floats (its SIMT counters, not GPU measurements):\n", MODEL_SIDE,
           MODEL_SIDE);
    printf("  %-40s %12s %12s %14s %14s\n", "version", "ld sect/req", "st sect/req", "shld confl/req",
           "shst confl/req");
    for (int v = 1; v <= sl_transpose_version_count(); v++) {
        sl_transpose_model m;
        if (sl_transpose_modelled(v, MODEL_SIDE, MODEL_SIDE, &m) != SL_OK) {
            bench_skip(env, "modelled sectors and bank conflicts", sl_last_error());
            return;
        }
        printf("  %-40s %12.1f %12.1f %14.1f %14.1f\n", sl_transpose_version_name(v), m.load_sectors_per_request,
               m.store_sectors_per_request, m.shared_load_conflicts_per_request, m.shared_store_conflicts_per_request);
        char name[48];
        snprintf(name, sizeof name, "v%d_modelled_st_sectors_per_req", v);
        csv_value(env, MODEL_SIDE, name, m.store_sectors_per_request, "sectors/request (modelled)");
        snprintf(name, sizeof name, "v%d_modelled_shld_conflicts_per_req", v);
        csv_value(env, MODEL_SIDE, name, m.shared_load_conflicts_per_request,
                         "conflicts/request (modelled)");
    }
    printf("  (4 sectors per request: a warp's 128 contiguous bytes; 32: one sector per lane.\n"
           "   31 conflicts per request: a 32-way bank conflict, the request served one word at a time.)\n");
}

static const bench_label labels[] = {
    {"copy_d2d", "device-to-device copy of the same bytes (the ceiling)"},
    {"v1", "v1 naive (uncoalesced stores)"},
    {"v2", "v2 shared tile (bank conflicts)"},
    {"v3", "v3 padded shared tile"},
    {"v4", "v4 padded tile, 4 elements per thread"},
    {"cpu_blocked_omp", "CPU, 32x32 blocks, all cores (OpenMP)"},
    {"cpu_memcpy", "CPU memcpy of the same bytes, one core"},
    {NULL, NULL}};

static const bench_chart charts[] = {
    {"gbs", "transpose: GB/s moved (read + write) against the copy", "n (side of the square matrix)", "GB/s", NULL,
     0, "copy_d2d v1 v2 v3 v4 cpu_blocked_omp cpu_memcpy"},
    /* the emulator build: each version's modelled GPU time, as GB/s (on the
     * chart above, a linear scale, emulated rates would sit at zero next to
     * it); on a GPU it has no rows and is not drawn */
    {"modelled", "transpose: GB/s of each version's kernel as the timing model prices it",
     "n (side of the square matrix)", "GB/s (modelled GPU time)", NULL, 1, "modelled_*_v*"},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL}};

static const bench_spec spec = {
    .title = "05 transpose (n x n floats, 8 n^2 bytes moved)", .unit = BENCH_GBS, .name_width = 16,
    .gpu_columns = "copy_d2d v1 v2 v3 v4",
    /* n = 256 .. 16384 in steps of 2x; the emulator stops at 512, CPU columns alone at 8192 */
    .log2_min = 8, .log2_step = 1, .log2_max_gpu = 14, .log2_max_emulated = 9, .log2_max_no_device = 13,
    .log2_max_quick = 8, .begin_size = begin_size, .cpu_columns = bench_cpu, .device_columns = bench_device,
    .labels = labels, .charts = charts};

int main(int argc, char **argv)
{
    bench_env env;
    int rc = bench_init(&env, argc, argv, &spec);
    if (rc) return rc == 3 ? 0 : rc;
    size_t side = (size_t)1 << env.log2_max;
    host_data h = {bench_host_uniform_f32(&env, side * side, 1, -1.0f, 1.0f),
                   bench_host_alloc(&env, side * side * sizeof(float)), 0};
    int ok = h.in && h.out && bench_sizes(&env, &h);
    if (ok && !env.have_gpu) modelled_columns(&env);
    return bench_finish(&env, ok);
}
