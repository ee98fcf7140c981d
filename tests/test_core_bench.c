/* The bench harness (bench/harness.c) under the emulator: the statistics of
 * known samples, the L2 sizing rule, the repeat rule for short CPU calls,
 * the time-left estimate, the CSV's metadata and columns, and the byte
 * counts behind the GB/s columns (bench/amounts.h) against the global
 * memory the kernels really use, as the emulator models it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amounts.h"
#include "harness.h"
#include "sl_test.h"

Test(bench_harness, median_min_max_of_known_samples)
{
    double odd[5] = {5.0, 1.0, 4.0, 2.0, 3.0};
    sl_stats s = bench_stats_of(odd, 5);
    cr_assert_float_eq(s.median_ms, 3.0, 1e-12);
    cr_assert_float_eq(s.min_ms, 1.0, 1e-12);
    cr_assert_float_eq(s.max_ms, 5.0, 1e-12);
    cr_assert_eq(s.runs, 5);
    double even[4] = {10.0, 2.0, 8.0, 4.0}; /* sorted 2 4 8 10: median (4 + 8) / 2 */
    s = bench_stats_of(even, 4);
    cr_assert_float_eq(s.median_ms, 6.0, 1e-12);
    cr_assert_float_eq(s.min_ms, 2.0, 1e-12);
    cr_assert_float_eq(s.max_ms, 10.0, 1e-12);
    double one[1] = {7.5};
    s = bench_stats_of(one, 1);
    cr_assert_float_eq(s.median_ms, 7.5, 1e-12);
    s = bench_stats_of(NULL, 0);
    cr_assert_eq(s.runs, 0);
}

Test(bench_harness, rate_is_amount_per_nanosecond)
{
    cr_assert_float_eq(bench_rate(12e9, 1000.0), 12.0, 1e-12); /* 12 GB in 1 s */
    cr_assert_float_eq(bench_rate(1e6, 1.0), 1.0, 1e-12);      /* 1 MB in 1 ms = 1 GB/s */
    cr_assert_float_eq(bench_rate(1e6, 0.0), 0.0, 1e-12);
}

/* Enough copies that the rotation is at least twice the L2, 1 .. 64. */
Test(bench_harness, rotation_exceeds_twice_the_l2)
{
    bench_env env;
    memset(&env, 0, sizeof env);
    env.device_info.l2_bytes = 50 << 20; /* an H100/H200-sized L2 */
    size_t l2 = (size_t)50 << 20;
    cr_assert_eq(bench_rotation(&env, l2), 2);                 /* 2 x 50 MiB */
    cr_assert_eq(bench_rotation(&env, (l2 * 2) / 3 + 1), 3);   /* 3 x 33.3 MiB >= 100 MiB */
    cr_assert_eq(bench_rotation(&env, 4 * l2), 1);             /* one copy is already 4x */
    cr_assert_eq(bench_rotation(&env, 1024), 64);              /* capped */
    cr_assert_eq(bench_rotation(&env, 0), 1);
    for (size_t bytes = 4096; bytes < 8 * l2; bytes *= 3) {
        int k = bench_rotation(&env, bytes);
        cr_assert(k == 64 || (size_t)k * bytes >= 2 * l2, "%zu bytes: %d copies", bytes, k);
        cr_assert(k == 1 || (size_t)(k - 1) * bytes < 2 * l2, "%zu bytes: %d copies is more than needed", bytes, k);
    }
    env.device_info.l2_bytes = 0; /* unknown: assume 50 MiB */
    cr_assert_eq(bench_rotation(&env, l2), 2);
}

/* The emulator has no L2 to defeat, and each live allocation costs every
 * emulated launch (its checks open and close them all): one copy. */
Test(bench_harness, the_emulator_rotates_no_copies)
{
    bench_env env;
    memset(&env, 0, sizeof env);
    env.device_info.l2_bytes = 50 << 20;
    env.emulated = 1;
    for (size_t bytes = 1024; bytes < ((size_t)1 << 30); bytes *= 7)
        cr_assert_eq(bench_rotation(&env, bytes), 1, "%zu bytes", bytes);
}

Test(bench_harness, short_cpu_calls_are_timed_in_batches)
{
    cr_assert_eq(bench_host_repeat(1.0), 1);
    cr_assert_eq(bench_host_repeat(BENCH_MIN_SAMPLE_MS), 1);
    int k = bench_host_repeat(0.001); /* 1 us: 200 of them make 0.2 ms */
    cr_assert(k >= 200 && k <= 201, "%d", k);
    cr_assert_eq(bench_host_repeat(1e-9), BENCH_MAX_REPEAT);
    cr_assert_eq(bench_host_repeat(0.0), BENCH_MAX_REPEAT);
}

Test(bench_harness, time_left_scales_with_the_work_left)
{
    cr_assert_float_eq(bench_seconds_left(10.0, 1.0, 4.0), 30.0, 1e-12);
    cr_assert_float_eq(bench_seconds_left(10.0, 4.0, 4.0), 0.0, 1e-12);
    cr_assert_float_eq(bench_seconds_left(10.0, 0.0, 4.0), -1.0, 1e-12);
}

static int noop_cpu(bench_env *env, void *c, size_t n) { (void)env, (void)c, (void)n; return 1; }
static int noop_dev(bench_env *env, void *c, int p, size_t n) { (void)env, (void)c, (void)p, (void)n; return 1; }
static void noop_size(void *c, int p, size_t n) { (void)c, (void)p, (void)n; }

static void read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t got = fread(buf, 1, cap - 1, f);
    buf[got] = '\0';
    fclose(f);
}

/* The CSV says where and how it was measured, then one row a measurement. */
Test(bench_harness, csv_header_carries_the_metadata_and_the_columns)
{
    static const bench_label labels[] = {{"cpu", "one core"}, {NULL, NULL}};
    static const bench_chart charts[] = {{"t", "a title", "n", "ms", "3", 1, "cpu v*"}, {NULL, NULL, NULL, NULL, NULL, 0, NULL}};
    bench_spec spec = {.title = "test bench", .unit = BENCH_GBS, .name_width = 8, .gpu_columns = "v1 v2",
                       .log2_min = 4, .log2_step = 2, .log2_max_gpu = 20, .log2_max_emulated = 8,
                       .log2_max_no_device = 10, .log2_max_quick = 6, .begin_size = noop_size,
                       .cpu_columns = noop_cpu, .device_columns = noop_dev, .labels = labels, .charts = charts};
    char path[] = "/tmp/simtlab_bench_csv_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    char *argv[] = {"bench", "--csv", path, NULL};
    bench_env env;
    cr_assert_eq(bench_init(&env, 3, argv, &spec), 0);
    cr_assert_eq(env.log2_max, env.emulated ? 8 : env.have_gpu ? 20 : 10);
    sl_stats s = {2.0, 1.0, 3.0, 5};
    bench_emit(&env, 1024, "cpu", &s, 12.0 * 1024);
    bench_emit_value(&env, 16, "launch", &s, 125.0, "us/launch");
    bench_mark(&env, "t", 65536, "wins here");
    cr_assert_eq(bench_finish(&env, 1), 0);
    char text[8192];
    read_file(path, text, sizeof text);
    unlink(path);
    static const char *const must[] = {"# simtlab benchmark: test bench\n", "# date: 20", "# machine: ", "# backend: ",
                                       "# build: ", "# git: ", "# cuda: driver ", "# device: ", "# sizes: n = 2^4 .. 2^",
                                       "# device columns: v1 v2\n", "# label: cpu=one core\n",
                                       "# chart: t;a title;n;ms;3;1;cpu v*\n", "# mark: t;65536;wins here\n",
                                       "\nn,column,median_ms,min_ms,max_ms,gbs,unit\n"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++)
        cr_assert(strstr(text, must[i]) != NULL, "the CSV lacks \"%s\":\n%s", must[i], text);
    if (env.device) cr_assert(strstr(text, "# clocks: ") != NULL, "no clocks line:\n%s", text);
    /* 12 KiB in 2 ms = 0.006144 GB/s */
    cr_assert(strstr(text, "\n1024,cpu,2.000000,1.000000,3.000000,0.006144,GB/s\n") != NULL, "row:\n%s", text);
    cr_assert(strstr(text, "\n16,launch,2.000000,1.000000,3.000000,125,us/launch\n") != NULL, "row:\n%s", text);
    /* after the header line, every line is a # note (a skip, a mark) or a row of 7 fields */
    const char *line = strstr(text, "\nn,column") + 1;
    int rows = 0;
    for (line = strchr(line, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        if (*line == '#') continue;
        int commas = 0;
        for (const char *c = line; *c && *c != '\n'; c++) commas += *c == ',';
        cr_assert_eq(commas, 6, "not a row of 7 fields: %.60s", line);
        rows++;
    }
    cr_assert_eq(rows, 2);
}

Test(bench_harness, probe_and_bad_usage_stop_before_any_output_file)
{
    bench_spec spec = {.title = "probe", .log2_min = 4, .log2_step = 1, .begin_size = noop_size,
                       .cpu_columns = noop_cpu, .device_columns = noop_dev};
    bench_env env;
    char *probe[] = {"bench", "--probe", NULL};
    cr_assert_eq(bench_init(&env, 2, probe, &spec), 3);
    char *bad[] = {"bench", "--frobnicate", NULL};
    cr_assert_eq(bench_init(&env, 2, bad, &spec), 2);
}

/* ---- the byte counts behind GB/s, against the kernels' real traffic ---------
 * The emulator's SIMT counters give, per launch, the 32-byte sectors that the
 * bytes each warp's loads and stores used would need (sl_modelled's
 * *_sectors_ideal, from the lanes' real addresses). For sizes where every
 * warp is whole and aligned, 32 times their sum is the bytes the kernel
 * used: every version must use exactly what bench/amounts.h says the
 * operation moves (a version that fetches more sectors than it uses shows
 * that in gld_sectors, not here). */

static int modelled_or_skip(void)
{
    if (sl_modelled_available() != SL_OK) {
        cr_skip_test("no modelled counters in this build: %s", sl_last_error());
        return 0;
    }
    return 1;
}

typedef struct vadd_call {
    const float *a, *b;
    float *c;
    size_t n;
    sl_opts opts;
} vadd_call;

static sl_status run_vadd(void *ctx)
{
    vadd_call *v = ctx;
    return sl_vector_add(v->a, v->b, v->c, v->n, &v->opts, NULL);
}

Test(bench_amounts, vector_add_moves_12_bytes_per_element_in_every_version)
{
    if (!modelled_or_skip()) return;
    const size_t n = 3 * 8192; /* whole warps, several blocks */
    float *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c);
    cr_assert(a && b && c);
    for (int v = 1; v <= sl_vector_add_version_count(); v++) {
        vadd_call call = {a, b, c, n, {v, 0}};
        sl_modelled m;
        cr_assert_eq(sl_modelled_run(run_vadd, &call, &m), SL_OK, "v%d: %s", v, sl_last_error());
        const unsigned long long loads = 32 * m.gld_sectors_ideal, stores = 32 * m.gst_sectors_ideal;
        cr_expect_eq(loads, 8ull * n, "v%d loads %llu bytes, a and b are %zu", v, loads, 8 * n);
        cr_expect_eq(stores, 4ull * n, "v%d stores %llu bytes, c is %zu", v, stores, 4 * n);
        cr_expect_eq(loads + stores, (unsigned long long)bench_bytes_vector_add(n), "v%d", v);
    }
    free(a);
    free(b);
    free(c);
}

typedef struct transpose_call {
    const float *in;
    float *out;
    size_t rows, cols;
    sl_opts opts;
} transpose_call;

static sl_status run_transpose(void *ctx)
{
    transpose_call *t = ctx;
    return sl_transpose(t->in, t->rows, t->cols, t->cols, t->out, t->rows, &t->opts, NULL);
}

Test(bench_amounts, transpose_reads_and_writes_each_element_once_in_every_version)
{
    if (!modelled_or_skip()) return;
    const size_t rows = 96, cols = 160; /* whole 32 x 32 tiles, not square */
    float *in = calloc(rows * cols, sizeof *in), *out = calloc(rows * cols, sizeof *out);
    cr_assert(in && out);
    for (int v = 1; v <= sl_transpose_version_count(); v++) {
        transpose_call call = {in, out, rows, cols, {v, 0}};
        sl_modelled m;
        cr_assert_eq(sl_modelled_run(run_transpose, &call, &m), SL_OK, "v%d: %s", v, sl_last_error());
        const unsigned long long used = 32 * (m.gld_sectors_ideal + m.gst_sectors_ideal);
        cr_expect_eq(used, (unsigned long long)bench_bytes_transpose(rows, cols), "v%d uses %llu bytes, the bench says %zu",
                     v, used, bench_bytes_transpose(rows, cols));
    }
    free(in);
    free(out);
}

Test(bench_amounts, a_reduction_reads_its_input_once_plus_its_partial_sums)
{
    if (!modelled_or_skip()) return;
    const size_t n = 1u << 16;
    for (int v = 1; v <= sl_reduce_version_count(); v++) {
        sl_modelled m;
        cr_assert_eq(sl_reduce_modelled(v, n, 0, &m), SL_OK, "v%d: %s", v, sl_last_error());
        const unsigned long long loads = 32 * m.gld_sectors_ideal;
        /* The input once; a later pass re-reads one partial per block of the
         * first (at most n / 32 floats, far less in practice). */
        cr_expect_geq(loads, (unsigned long long)bench_bytes_reduce(n), "v%d reads %llu bytes of %zu", v, loads,
                      bench_bytes_reduce(n));
        cr_expect_leq(loads, (unsigned long long)(bench_bytes_reduce(n) + bench_bytes_reduce(n) / 32), "v%d reads %llu",
                      v, loads);
    }
}

Test(bench_amounts, gemm_flops_are_two_per_term)
{
    /* m x k times k x n: m * n dot products of k multiply-adds. */
    cr_expect_eq(bench_flops_gemm(7, 5, 3), 210.0);
    cr_expect_eq(bench_flops_gemm(4096, 4096, 4096), 2.0 * 4096.0 * 4096.0 * 4096.0);
    cr_expect_eq(bench_flops_gemm(1, 1, 0), 0.0);
}
