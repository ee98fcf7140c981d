/* simtlab benchmarks — the shared core of every chapter's benchmark.
 *
 * A chapter's bench (bench/NN_name.c) holds only what is its own: how each of
 * its columns runs and is checked, its vendor, its table's heading and its
 * stated targets. Everything else is here, written once:
 *
 * - bench_init / bench_finish: --csv FILE and --quick, the device probe, the
 *   CSV header (machine, device, backend, build), the notes every chapter
 *   prints (device columns skipped without a device, emulator times labelled
 *   as such, CPU columns use the host caches), host buffers (bench_host_alloc)
 *   freed at the end, leaked device buffers reported;
 * - bench_sizes: the size loop, n = 2^log2_min .. 2^env->log2_max, calling
 *   the chapter's begin_size, cpu_columns and, where a device runs,
 *   device_columns;
 * - bench_column_run: validate, then time, one column: a checked run (its
 *   output poisoned first, so a kernel that writes nothing fails), then a
 *   warm-up and the median, min and max of bench_runs() runs; a column this
 *   build cannot run (SL_ERR_UNSUPPORTED) is listed as skipped, never timed.
 *   bench_columns runs a list of them (the CPU columns), bench_versions a
 *   column for v1..vN (the kernel versions);
 * - bench_emit: one row, on stdout and in the CSV, in the chapter's unit
 *   (GB/s from bytes moved, GFLOP/s from flops done);
 * - bench_emit_model: in an emulated run, after each device column's row,
 *   its modelled GPU time (the emulator's timing model of the launches of
 *   the column's checked run; SIMTLAB_MODEL_GPU picks the GPU), labelled
 *   "modelled, not measured", as the CSV column modelled_<gpu>_<column>; a
 *   launch the model cannot price says "not modelled: <reason>", never a
 *   number;
 * - bench_inputs: rotated device copies of the chapter's inputs, enough that
 *   the working set exceeds twice the L2 cache, so small sizes are not
 *   mistaken for DRAM bandwidth;
 * - bench_copy_ceiling: the device-to-device copy of the same bytes, the
 *   ceiling a memory-bound kernel is measured against (the copy_d2d row);
 * - bench_table: per size, each version's time, rate, % of the copy ceiling,
 *   % of the vendor, and speed-up over the previous version and over v1;
 *   the same figures for the chapter's targets line.
 *
 * The order a chapter follows (bench/01_vector_add.c, bench/04_reduce.c):
 *
 *   main:           bench_init(&spec) -> host inputs (bench_host_alloc,
 *                   bench_host_uniform_f32) -> bench_sizes -> bench_finish
 *   begin_size:     set n, print "n = 2^p (...)"
 *   cpu_columns:    bench_columns (run_host columns)
 *   device_columns: bench_inputs_make -> ceiling (bench_copy_ceiling) ->
 *                   versions (bench_versions) -> vendor (bench_column_run)
 *                   -> bench_inputs_free -> table (bench_table_print) ->
 *                   the stated targets, on a GPU only (env->have_gpu),
 *                   printed and never asserted.
 *
 * Columns that cannot run here (GPU columns without a GPU) are listed as
 * skipped, never printed as numbers; emulator times are labelled so.
 *
 * The CSV (--csv FILE) is what scripts/bench.sh reads and draws: `#` lines
 * first (date, machine, device with compute capability, driver and runtime
 * versions, clocks where readable, backend, build flags, git revision, the
 * sizes of this run and why, what each column is: bench_spec.labels, the
 * charts to draw: bench_spec.charts, marks such as a crossover: bench_mark,
 * and skipped columns), then one row a measurement:
 *
 *   n,column,median_ms,min_ms,max_ms,gbs|gflops,unit
 *
 * where the sixth field is the row's rate (GB/s or GFLOP/s for the
 * chapter's own rows; bench_emit_value rows say their unit in `unit`).
 */
#ifndef SIMTLAB_BENCH_HARNESS_H
#define SIMTLAB_BENCH_HARNESS_H

#include <stdio.h>

#include "simtlab/simtlab.h"

#define BENCH_MAX_HOST_BUFFERS 8
#define BENCH_MAX_INPUTS 4
#define BENCH_MAX_VERSIONS 16

/* What a chapter's rates count. Both are 1e9 per second: the unit names
 * the amount a column passes (bytes moved or flops done) and the label. */
typedef enum bench_unit { BENCH_GBS, BENCH_GFLOPS } bench_unit;

typedef struct bench_env bench_env;

/* What a chapter tells the harness about itself. `chapter` in the callbacks
 * is the pointer the chapter hands to bench_sizes (its host data). */
typedef struct bench_spec {
    const char *title;          /* printed first, and recorded in the CSV */
    bench_unit unit;
    int name_width;             /* printed width of the column names */
    const char *gpu_columns;    /* listed as skipped where no device runs */
    /* Sizes n = 2^log2_min, then every log2_step, up to the largest for this run: */
    int log2_min, log2_step;
    int log2_max_gpu, log2_max_emulated, log2_max_no_device, log2_max_quick;
    /* Per size, in this order: set the size and print its line; the CPU
     * columns; the device columns (only where env->device). 0: stop. */
    void (*begin_size)(void *chapter, int log2_n, size_t n);
    int (*cpu_columns)(bench_env *env, void *chapter, size_t n); /* NULL: none (--probe says cpu=0) */
    int (*device_columns)(bench_env *env, void *chapter, int log2_n, size_t n);
    /* Optional (NULL: none), each list ended by an entry whose first field is NULL: */
    const struct bench_label *labels; /* what each column is, for the reader and the charts */
    const struct bench_chart *charts; /* the charts bench.sh draws (NULL: rate against n) */
    /* Optional: the chapter's own options. Called with an argument the harness
     * does not know, at argv[*i]; takes it (and a value, advancing *i) and
     * returns 1, or returns 0 (a usage error). `usage` is their line in the
     * usage message ("[--config 12-04] [--timed]"). */
    int (*option)(bench_env *env, int argc, char **argv, int *i);
    const char *usage;
} bench_spec;

/* "cpu_omp" is "CPU, all cores (OpenMP)": printed once before the first
 * size, written to the CSV (# label:), and the legend's text in the charts. */
typedef struct bench_label {
    const char *column, *text;
} bench_label;

/* One chart: a gnuplot line per series, x from the CSV's n, y from `y`, a
 * gnuplot expression over the row's fields ($1 n, $3 median_ms, $6 rate),
 * e.g. "$6" (the rate) or "($3*1000/$1)" (microseconds per launch).
 * `series` lists the columns, blank-separated; a name ending in '*' takes
 * every column that starts with the rest. Written to the CSV as
 * "# chart: id;title;xlabel;ylabel;y;logy;series" (bench/plot.gp draws it). */
typedef struct bench_chart {
    const char *id;       /* the file's suffix: 02_gpu_pays-<id>.png */
    const char *title;    /* what it shows; bench.sh adds the machine and backend */
    const char *xlabel;   /* with its unit: "n (floats)" */
    const char *ylabel;   /* with its unit: "time per call (ms)" */
    const char *y;        /* a column number ("3") or an expression in parentheses ("($3*1000/$1)"); NULL: "6", the rate */
    int logy;             /* values that span decades */
    const char *series;
} bench_chart;

struct bench_env {
    int have_gpu;            /* a CUDA device answered (never true in emulator builds) */
    int emulated;            /* this binary runs kernels on the CPU emulator */
    int device;              /* have_gpu || emulated: the device columns run */
    sl_device_info device_info; /* valid when device */
    char why_no_gpu[512];    /* the error text when !device */
    FILE *csv;               /* NULL when no CSV was asked for */
    int quick;               /* --quick: fewer sizes, one timed run a column (smoke test) */
    int log2_max;            /* the largest size of this run */
    const bench_spec *spec;
    double start_ms;         /* sl_host_ms() at bench_init: for the progress lines */
    double sizes_start_ms;   /* when bench_sizes began its first size (after the
                                inputs were made): the estimate's clock */
    void *host[BENCH_MAX_HOST_BUFFERS]; /* freed by bench_finish */
    int host_count;
};

/* Parses --csv FILE, --quick and --probe, probes the device, starts the
 * OpenMP thread pool (so no CPU column times its start-up), writes the CSV
 * header (see the top of this file) and prints the title, the device, the
 * sizes of this run and the notes. --probe prints one line
 * "backend=cuda|emulator device=1|0 reason=..." and nothing else (bench.sh
 * asks it which binaries to run). Returns 0 on success, 2 on a usage error,
 * 3 after --probe (nothing more to do). */
int bench_init(bench_env *env, int argc, char **argv, const bench_spec *spec);
/* Frees the host buffers, closes the CSV, reports leaked device buffers;
 * returns the exit status (0 when ok). */
int bench_finish(bench_env *env, int ok);

/* A host buffer of `bytes`, freed by bench_finish; NULL (said on stderr)
 * when the host is out of memory. */
void *bench_host_alloc(bench_env *env, size_t bytes);
/* n uniform floats in [lo, hi) from `seed` (sl_fill_uniform_f32). */
float *bench_host_uniform_f32(bench_env *env, size_t n, uint64_t seed, float lo, float hi);

/* For n = 2^p, every size of the run: the spec's begin_size, cpu_columns and
 * device_columns, and after each size a progress line with an estimate of
 * the time left. Returns 0 at the first failure (the reason already said). */
int bench_sizes(bench_env *env, void *chapter);
/* The estimate bench_sizes prints: seconds left after `done_work` of
 * `total_work` took `elapsed_s` (work in any unit; -1 when nothing is done). */
double bench_seconds_left(double elapsed_s, double done_work, double total_work);
/* "  [3 of 7 done, 12 s so far, about 30 s left]" (stdout). */
void bench_progress(const bench_env *env, int done, int total, double done_work, double total_work);

/* Prints "skipped: <columns> (<reason>)" once, on stdout and into the CSV. */
void bench_skip(bench_env *env, const char *columns, const char *reason);

/* Copies of a buffer to rotate through: enough that `copies * bytes` is at
 * least twice the L2 cache (at least 1, at most 64). */
int bench_rotation(const bench_env *env, size_t bytes);

/* Timed runs for a problem that moves `bytes` per run: more runs for small
 * problems, so each size takes a similar, short time; at most 5 in an
 * emulated binary (an emulated kernel takes up to seconds and its spread is
 * the host's, so more runs add minutes and no information). One with
 * --quick, and no warm-up: a smoke test of every column and chart, whose
 * times are single samples. */
int bench_runs(const bench_env *env, size_t bytes);
/* sl_time_repeat with the emulator's checks (memcheck, racecheck) paused:
 * every timed run of device work goes through it, after that work was
 * checked once with the checks on, so that every emulated column is timed
 * alike, as `slcc --fast` would build it. Nothing changes on a GPU. */
sl_status bench_time_repeat(sl_timed_fn fn, void *ctx, int warmup, int runs, sl_stats *out);
/* The modelled time of one call of a device column: the emulator's timing
 * model (emu/docs/model.md) of every launch of the column's checked run
 * (bench_column_run), on the GPU SIMTLAB_MODEL_GPU names (default h200).
 * Modelled, not measured: it never comes from a clock. Only kernels are
 * modelled: a column's copies and vendor calls are not in it, and a call
 * that launched no kernel is "not modelled". */
typedef struct bench_model {
    int modelled;   /* 1: us holds; 0: note says why not ("not modelled: ...") */
    double us;      /* per call, microseconds; < 0 when not modelled */
    char gpu[32];   /* the model's GPU ("h200"); empty when unknown */
    char note[160]; /* the bound of the longest launch ("issue-bound"), or why not modelled */
    char counts[64]; /* the instruction counts' unit ("basic blocks, no SASS weights") */
} bench_model;
/* After a device column's row, in an emulated run: "<column> modelled <gpu>
 * time <ms> <rate> (modelled, not measured; <bound>)" on stdout, and the row
 * n,modelled_<gpu>_<column>,ms,ms,ms,rate,unit in the CSV; or, not modelled,
 * "<column> modelled <gpu> time: not modelled: <reason>" and a "# not
 * modelled:" line: never a number. bench_column_run calls it for every
 * device column; `amount` as for bench_emit. */
void bench_emit_model(bench_env *env, size_t n, const char *column, const bench_model *m, double amount);

/* How many back-to-back calls one timed sample of a CPU column makes, so a
 * sample lasts at least BENCH_MIN_SAMPLE_MS on the host clock: 1 for a call
 * of that length or more, up to BENCH_MAX_REPEAT. `call_ms`: one call's time. */
#define BENCH_MIN_SAMPLE_MS 0.2
#define BENCH_MAX_REPEAT 4096
int bench_host_repeat(double call_ms);

/* Giga-units per second: `amount` bytes or flops in `ms` milliseconds. */
double bench_rate(double amount, double ms);
/* The chapter's unit as printed: "GB/s" or "GFLOP/s" (in the CSV: gbs, gflops). */
const char *bench_unit_label(const bench_env *env);

/* One row: "  <column>  <median> ms  <rate> <unit>  (min, max)" on stdout and
 * n,column,median_ms,min_ms,max_ms,rate in the CSV; `amount` is what one run
 * moves or computes, in the chapter's unit (bytes for GB/s, flops for GFLOP/s). */
void bench_emit(bench_env *env, size_t n, const char *column, const sl_stats *s, double amount);
/* A row in a unit of its own ("us/launch", "GB/s"): `value` printed and in
 * the CSV's rate field, `unit` in its unit field. */
void bench_emit_value(bench_env *env, size_t n, const char *column, const sl_stats *s, double value,
                      const char *unit);
/* A mark on chart `chart` at x (a vertical line labelled `label`), e.g. the
 * n where the GPU starts to win: "# mark: chart;x;label" in the CSV and a
 * line on stdout. */
void bench_mark(bench_env *env, const char *chart, double x, const char *label);

/* The median, min and max of `count` samples (ms), as sl_time_repeat
 * computes them: the samples are sorted in place; count 0 gives zeros. */
sl_stats bench_stats_of(double *samples, int count);

/* ---- rotated device copies of the inputs -------------------------------- */
typedef struct bench_inputs {
    int count;                       /* inputs */
    int copies;                      /* copies of each: bench_rotation of their total bytes */
    size_t bytes[BENCH_MAX_INPUTS];
    void **copy[BENCH_MAX_INPUTS];   /* copy[i][k]: copy k of input i, on the device */
    int next;                        /* the copy the next run uses */
} bench_inputs;

/* Allocates bench_rotation(sum of bytes) copies of `count` (at most
 * BENCH_MAX_INPUTS) device buffers of
 * bytes[i] each and uploads host[i] into every copy of input i (host[i]
 * NULL: an output, left as allocated). On failure says so on stderr, frees
 * what it made and returns the status. */
sl_status bench_inputs_make(bench_env *env, bench_inputs *in, int count, const void *const *host,
                            const size_t *bytes, size_t n);
/* The copy the next run uses, then advances: 0, 1, ..., copies - 1, 0, ... */
int bench_inputs_next(bench_inputs *in);
void bench_inputs_free(bench_inputs *in);

/* ---- columns ------------------------------------------------------------ */
typedef struct bench_column {
    const char *name;              /* the row's and the CSV's column name */
    void *ctx;                     /* handed to each function below */
    void (*run_host)(void *ctx);   /* a CPU column: one run, timed by the host clock, or */
    sl_timed_fn run_device;        /* a device column: one run, its time from CUDA events */
    sl_status (*prepare)(void *ctx);  /* before the checked run (poison the output), or NULL */
    int (*check)(void *ctx, const char *name, size_t n); /* after it (required): 1 when right, else says why */
    bench_inputs *inputs;          /* the rotation the runs take copies from, or NULL */
    size_t bytes;                  /* moved per run: sets the number of runs, and the rate in GB/s */
    double flops;                  /* per run, for a chapter in GFLOP/s */
} bench_column;

/* Checks one run of the column, then times it (1 warm-up run for a CPU
 * column, 2 for a device column) and emits its row. A CPU column's sample
 * is bench_host_repeat calls timed together, divided by their number, so
 * a call of a microsecond is not lost in the clock's resolution. *median_ms (may be
 * NULL) is the median, or -1 when the column was skipped: a build without it
 * (SL_ERR_UNSUPPORTED). Returns 0 when the column failed or was wrong. */
int bench_column_run(bench_env *env, size_t n, const bench_column *col, double *median_ms);

/* bench_column_run for each column in turn (the CPU columns); 0 at the first failure. */
int bench_columns(bench_env *env, size_t n, const bench_column *cols, int count);

typedef struct bench_table bench_table;
/* The kernel versions 1..t->versions: `col` is run with opts->version = v
 * (its ctx reads *opts) and named "v<v>"; each median goes to t->ms[v]. */
int bench_versions(bench_env *env, size_t n, const bench_column *col, sl_opts *opts, bench_table *t);

/* ---- the copy ceiling --------------------------------------------------- */
/* sl_copy_device_to_device_timed of input `input` (each run its next copy)
 * into a buffer of the same size: the ceiling for moving those bytes, read
 * and written, 2 * bytes per run. The median, min and max of bench_runs()
 * runs go out as the copy_d2d row, always in GB/s; *copy_gbs is that rate.
 * Returns 0 on failure (said on stderr). */
int bench_copy_ceiling(bench_env *env, size_t n, bench_inputs *in, int input, double *copy_gbs);

/* ---- the per-size table -------------------------------------------------- */
struct bench_table {
    const char *(*version_name)(int version); /* "v3 sequential addressing" */
    int versions;                /* 1..versions */
    double ms[BENCH_MAX_VERSIONS + 1]; /* each version's median; <= 0: not run */
    double amount;               /* per run, in the chapter's unit */
    double copy_gbs;             /* the copy ceiling; <= 0: not measured */
    const char *vendor;          /* "CUB", "cuBLAS": the % column's heading */
    double vendor_ms;            /* the vendor's median; <= 0: skipped */
};

double bench_table_rate(const bench_table *t, int version);
/* Percentages of the copy ceiling (by rate) and of the vendor (by time); 0 when unknown. */
double bench_table_pct_copy(const bench_table *t, int version);
double bench_table_pct_vendor(const bench_table *t, int version);
/* The fastest version that ran. */
int bench_table_best(const bench_table *t);
/* One line a version: time, rate, % of copy, % of vendor, step, vs v1. */
void bench_table_print(const bench_env *env, const bench_table *t);

#endif
