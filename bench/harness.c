/* simtlab benchmarks — the shared core of every chapter's benchmark (see
 * harness.h for what it offers and the order a chapter follows). */
#include "harness.h"

#include <cuda_runtime_api.h>
#ifdef SIMTLAB_EMU /* the emulator's cuda_runtime_api.h says so */
#include <simtlab_emu/profile.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* cmake/Chapters.cmake passes the build's flags and the source tree. */
#ifndef SIMTLAB_BUILD_FLAGS
#define SIMTLAB_BUILD_FLAGS "unknown"
#endif
/* The architectures the CUDA build compiled the kernels for (CMake's
 * CMAKE_CUDA_ARCHITECTURES, e.g. "80,90"); "none" without nvcc. */
#ifndef SIMTLAB_CUDA_ARCHS
#define SIMTLAB_CUDA_ARCHS "unknown"
#endif
#ifndef SIMTLAB_SOURCE_DIR
#define SIMTLAB_SOURCE_DIR "."
#endif

static void cpu_model(char *out, size_t cap)
{
    snprintf(out, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                snprintf(out, cap, "%s", colon + 2);
                out[strcspn(out, "\n")] = '\0';
            }
            break;
        }
    }
    fclose(f);
}

/* The source tree's git revision: SIMTLAB_GIT_REVISION from the
 * environment (bench.sh sets it), else git asked at run time, else "unknown". */
static void git_revision(char *out, size_t cap)
{
    const char *env = getenv("SIMTLAB_GIT_REVISION");
    snprintf(out, cap, "%s", env && *env ? env : "unknown");
    if (env && *env) return;
    FILE *p = popen("git -C '" SIMTLAB_SOURCE_DIR "' describe --always --dirty 2>/dev/null", "r");
    if (!p) return;
    if (fgets(out, (int)cap, p)) out[strcspn(out, "\n")] = '\0';
    else snprintf(out, cap, "unknown");
    pclose(p);
}

/* "major.minor" of a CUDA version number (12040 -> 12.4); "none" for 0. */
static void cuda_version_text(int v, char *out, size_t cap)
{
    if (v > 0) snprintf(out, cap, "%d.%d", v / 1000, (v % 1000) / 10);
    else snprintf(out, cap, "none");
}

static void write_csv_header(bench_env *env, const char *title)
{
    struct utsname u;
    char cpu[256], when[64], rev[128], drv[32], rt[32];
    time_t now = time(NULL);
    uname(&u);
    cpu_model(cpu, sizeof cpu);
    git_revision(rev, sizeof rev);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int driver = 0, runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
    cuda_version_text(driver, drv, sizeof drv);
    cuda_version_text(runtime, rt, sizeof rt);
    FILE *f = env->csv;
    fprintf(f, "# simtlab benchmark: %s\n# date: %s\n", title, when);
    fprintf(f, "# machine: %s %s, %s, %ld cores\n", u.nodename, u.machine, cpu, sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(f, "# backend: %s; built for: %s\n", sl_backend_name(),
            sl_backend_is_emulator() ? "the emulator (no GPU code: kernels run on the CPU)"
                                     : "sm " SIMTLAB_CUDA_ARCHS);
    fprintf(f, "# build: %s\n# git: %s\n", SIMTLAB_BUILD_FLAGS, rev);
    fprintf(f, "# cuda: driver %s, runtime %s%s\n", drv, rt,
            env->emulated ? " (the emulator's stand-in numbers)" : "");
    if (env->device) {
        const sl_device_info *d = &env->device_info;
        fprintf(f, "# device: %s (compute capability %d.%d, %d SMs, %.1f GiB, L2 %.1f MiB)%s\n", d->name, d->major,
                d->minor, d->sm_count, d->global_mem_bytes / 1073741824.0, d->l2_bytes / 1048576.0,
                env->emulated ? " — EMULATED: device times are CPU times" : "");
        int sm_khz = 0, mem_khz = 0;
        if (cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0) != cudaSuccess) sm_khz = 0;
        if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess) mem_khz = 0;
        if (sm_khz > 0 || mem_khz > 0)
            fprintf(f, "# clocks: SM %d MHz, memory %d MHz (peak, as the device reports them)%s\n", sm_khz / 1000,
                    mem_khz / 1000, env->emulated ? "; emulated device: not a real clock" : "");
        else
            fprintf(f, "# clocks: not readable\n");
    } else {
        fprintf(f, "# device: none (%s)\n", env->why_no_gpu);
    }
    const bench_spec *spec = env->spec;
    fprintf(f, "# sizes: n = 2^%d .. 2^%d, every 2^%d (a GPU runs to 2^%d)\n", spec->log2_min, env->log2_max,
            spec->log2_step, spec->log2_max_gpu);
    fprintf(f, "# device columns: %s\n", spec->gpu_columns ? spec->gpu_columns : "");
    for (const bench_label *l = spec->labels; l && l->column; l++) fprintf(f, "# label: %s=%s\n", l->column, l->text);
    for (const bench_chart *c = spec->charts; c && c->id; c++)
        fprintf(f, "# chart: %s;%s;%s;%s;%s;%d;%s\n", c->id, c->title, c->xlabel, c->ylabel, c->y ? c->y : "6",
                c->logy, c->series);
    fprintf(f, "n,column,median_ms,min_ms,max_ms,%s,unit\n", spec->unit == BENCH_GFLOPS ? "gflops" : "gbs");
}

static int log2_max_of_run(const bench_env *env)
{
    const bench_spec *spec = env->spec;
    if (env->quick) return spec->log2_max_quick;
    if (env->emulated) return spec->log2_max_emulated;
    return env->have_gpu ? spec->log2_max_gpu : spec->log2_max_no_device;
}

static void probe_device(bench_env *env)
{
    env->emulated = sl_backend_is_emulator();
    if (sl_device_query(0, &env->device_info) == SL_OK) {
        env->have_gpu = !env->emulated;
    } else {
        env->emulated = 0;
        snprintf(env->why_no_gpu, sizeof env->why_no_gpu, "%s", sl_last_error());
        char *hint = strstr(env->why_no_gpu, " — hint:"); /* make doctor explains it */
        if (hint) snprintf(hint, sizeof env->why_no_gpu - (size_t)(hint - env->why_no_gpu), "; see make doctor");
    }
    env->device = env->have_gpu || env->emulated;
}

/* Why this run stops below the GPU's largest size, in words. */
static const char *why_smaller(const bench_env *env)
{
    if (env->quick) return "--quick";
    if (env->emulated) return "the emulator runs every CUDA thread on this CPU";
    if (!env->have_gpu) return "no GPU here: CPU columns only, kept short";
    return NULL;
}

/* What every chapter says before its first size: what ran where. */
static void print_notes(bench_env *env)
{
    const sl_device_info *d = &env->device_info;
    printf("simtlab benchmark — %s\n", env->spec->title);
    if (env->have_gpu)
        printf("device: %s (sm_%d%d, %d SMs)\n", d->name, d->major, d->minor, d->sm_count);
    else if (env->emulated)
        printf("device: %s — EMULATED: device columns are CPU-emulator times, not GPU times\n", d->name);
    else
        printf("device: none — GPU columns are skipped (%s)\n", env->why_no_gpu);
    if (!env->device) bench_skip(env, env->spec->gpu_columns, "no CUDA device on this machine");
    if (env->emulated)
        printf("Device columns are CPU-emulator times: they show the emulator's costs, not a GPU's.\n");
    printf("CPU columns use the host caches as they come: below a few MiB they are not DRAM numbers.\n");
    const bench_spec *spec = env->spec;
    const char *why = why_smaller(env);
    printf("sizes: n = 2^%d .. 2^%d", spec->log2_min, env->log2_max);
    if (why && env->log2_max < spec->log2_max_gpu) printf(" (on a GPU up to 2^%d; smaller here: %s)", spec->log2_max_gpu, why);
    printf("\n");
    if (spec->labels) {
        printf("columns:\n");
        for (const bench_label *l = spec->labels; l->column; l++)
            printf("  %-*s %s\n", spec->name_width, l->column, l->text);
    }
}

/* Start the OpenMP pool now: its threads' creation would otherwise be timed
 * in the first OpenMP column (tens of milliseconds for a microsecond loop). */
static void warm_up_openmp(void)
{
#ifdef _OPENMP
    volatile int sink = 0;
    for (int round = 0; round < 3; round++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0) sink = sink + omp_get_num_threads();
        }
    }
    (void)sink;
#endif
}

static void print_probe(const bench_env *env)
{
    printf("backend=%s device=%d cpu=%d reason=%s\n", sl_backend_name(), env->have_gpu, env->spec->cpu_columns != NULL,
           env->have_gpu ? "-" : env->emulated ? "emulated" : env->why_no_gpu);
}

int bench_init(bench_env *env, int argc, char **argv, const bench_spec *spec)
{
    memset(env, 0, sizeof *env);
    env->spec = spec;
    env->start_ms = sl_host_ms();
    const char *csv_path = NULL;
    int probe = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv_path = argv[++i];
        } else if (strcmp(argv[i], "--quick") == 0) {
            env->quick = 1;
        } else if (strcmp(argv[i], "--probe") == 0) {
            probe = 1;
        } else if (!spec->option || !spec->option(env, argc, argv, &i)) {
            fprintf(stderr, "usage: %s [--csv FILE] [--quick] [--probe]%s%s\n", argv[0], spec->usage ? " " : "",
                    spec->usage ? spec->usage : "");
            return 2;
        }
    }
    probe_device(env);
    if (probe) {
        print_probe(env);
        return 3;
    }
    env->log2_max = log2_max_of_run(env);
    warm_up_openmp();
    if (csv_path) {
        env->csv = fopen(csv_path, "w");
        if (!env->csv) {
            fprintf(stderr, "cannot write %s\n", csv_path);
            return 2;
        }
        write_csv_header(env, spec->title);
    }
    print_notes(env);
    return 0;
}

int bench_finish(bench_env *env, int ok)
{
    for (int i = 0; i < env->host_count; i++) free(env->host[i]);
    env->host_count = 0;
    if (env->csv) fclose(env->csv);
    env->csv = NULL;
    size_t leaks = sl_alloc_report_leaks(stderr);
    if (leaks) fprintf(stderr, "benchmark leaked %zu device buffers\n", leaks);
    return ok ? 0 : 1;
}

void *bench_host_alloc(bench_env *env, size_t bytes)
{
    void *p = env->host_count < BENCH_MAX_HOST_BUFFERS ? malloc(bytes) : NULL;
    if (!p) {
        fprintf(stderr, "out of host memory for n = 2^%d\n", env->log2_max);
        return NULL;
    }
    env->host[env->host_count++] = p;
    return p;
}

float *bench_host_uniform_f32(bench_env *env, size_t n, uint64_t seed, float lo, float hi)
{
    float *p = bench_host_alloc(env, n * sizeof(float));
    if (p) sl_fill_uniform_f32(p, n, seed, lo, hi);
    return p;
}

double bench_seconds_left(double elapsed_s, double done_work, double total_work)
{
    if (done_work <= 0 || total_work < done_work) return -1.0;
    return elapsed_s * (total_work - done_work) / done_work;
}

void bench_progress(const bench_env *env, int done, int total, double done_work, double total_work)
{
    double now = sl_host_ms();
    double elapsed = (now - env->start_ms) / 1000.0;
    /* The estimate extrapolates the time the sizes themselves took, not the
     * set-up before them (filling gigabytes of inputs), and only once a
     * twentieth of the work is done: before that it is noise. */
    double since = env->sizes_start_ms > 0 ? env->sizes_start_ms : env->start_ms;
    double left = done_work >= 0.05 * total_work
                      ? bench_seconds_left((now - since) / 1000.0, done_work, total_work)
                      : -1.0;
    printf("  [%d of %d done, %.0f s so far", done, total, elapsed);
    if (done < total && left >= 0) printf(", about %.0f s left", left);
    printf("]\n");
    fflush(stdout);
}

/* A size's share of the run's time: its n, plus a fixed cost per size (the
 * launches, the runs' minimum length) that dominates below 2^19. */
static double size_work(int log2_n) { return (double)((size_t)1 << log2_n) + 524288.0; }

int bench_sizes(bench_env *env, void *chapter)
{
    const bench_spec *spec = env->spec;
    int step = spec->log2_step > 0 ? spec->log2_step : 1;
    int total = 0, done = 0;
    double total_work = 0, done_work = 0;
    for (int p = spec->log2_min; p <= env->log2_max; p += step) {
        total++;
        total_work += size_work(p);
    }
    int ok = 1;
    env->sizes_start_ms = sl_host_ms();
    for (int p = spec->log2_min; ok && p <= env->log2_max; p += step) {
        size_t n = (size_t)1 << p;
        spec->begin_size(chapter, p, n);
        ok = spec->cpu_columns ? spec->cpu_columns(env, chapter, n) : 1;
        if (ok && env->device) ok = spec->device_columns(env, chapter, p, n);
        done_work += size_work(p);
        if (ok) bench_progress(env, ++done, total, done_work, total_work);
    }
    return ok;
}

void bench_skip(bench_env *env, const char *columns, const char *reason)
{
    printf("skipped: %s (%s)\n", columns, reason);
    if (env->csv) fprintf(env->csv, "# skipped: %s (%s)\n", columns, reason);
}

int bench_rotation(const bench_env *env, size_t bytes)
{
    /* The emulator has no L2 to defeat, and it opens and closes every live
     * device allocation around each launch (its host-dereference and overrun
     * checks, emu/README.md): 64 copies of three inputs made an emulated
     * kernel column pay for 192 allocations a launch, slower than the
     * end-to-end column's three. One copy: the columns compare like with like. */
    if (env->emulated) return 1;
    size_t l2 = env->device_info.l2_bytes > 0 ? (size_t)env->device_info.l2_bytes : (size_t)50 << 20;
    if (bytes == 0) return 1;
    size_t copies = (2 * l2 + bytes - 1) / bytes;
    return copies < 1 ? 1 : copies > 64 ? 64 : (int)copies;
}

sl_status bench_time_repeat(sl_timed_fn fn, void *ctx, int warmup, int runs, sl_stats *out)
{
#ifdef SIMTLAB_EMU
    simtlab_emu_checks_pause();
#endif
    sl_status st = sl_time_repeat(fn, ctx, warmup, runs, out);
#ifdef SIMTLAB_EMU
    simtlab_emu_checks_resume();
#endif
    return st;
}

/* ---- the modelled GPU time of a column (bench_model) ---------------------- */
static void model_reset(bench_model *m, const char *why)
{
    memset(m, 0, sizeof *m);
    m->us = -1.0;
    snprintf(m->note, sizeof m->note, "%s", why);
}

/* Opens the model's window (sl_modelled_begin) where this build models;
 * returns whether it did. */
static int model_begin(void)
{
#ifdef SIMTLAB_EMU
    return sl_modelled_available() == SL_OK && sl_modelled_begin() == SL_OK;
#else
    return 0;
#endif
}

/* Closes it: *m is the time of the `calls` calls it saw, per call. `ran`:
 * the calls' own status (a failed call is not modelled). */
static void model_end(int began, sl_status ran, int calls, bench_model *m)
{
    model_reset(m, began ? "not modelled: the call failed"
                         : "not modelled: this build has no timing model (the emulator build has; a GPU measures)");
    if (!began) return;
    sl_modelled fig;
    sl_status ended = sl_modelled_end(&fig); /* fails when no kernel was launched */
    if (ran != SL_OK || calls <= 0) return;
    if (ended != SL_OK) {
        snprintf(m->note, sizeof m->note, "not modelled: no kernel launched (a vendor library or a copy)");
        return;
    }
    if (strcmp(fig.model_gpu, "?") != 0) snprintf(m->gpu, sizeof m->gpu, "%s", fig.model_gpu); /* "?": unknown name */
    snprintf(m->counts, sizeof m->counts, "%s", fig.model_counts);
    if (fig.warps == 0) {
        snprintf(m->note, sizeof m->note, "not modelled: no kernel launched (a vendor library or a copy)");
    } else if (fig.model_us < 0) {
        snprintf(m->note, sizeof m->note, "%s", fig.model_note[0] ? fig.model_note : "not modelled: no figure");
    } else {
        m->us = fig.model_us / calls;
        m->modelled = 1;
        snprintf(m->note, sizeof m->note, "%s", fig.model_note);
    }
}

int bench_runs(const bench_env *env, size_t bytes)
{
    int runs = bytes >= ((size_t)256 << 20) ? 5 : bytes >= ((size_t)16 << 20) ? 11 : 25;
    if (env->quick) return 1;
    return env->emulated && runs > 5 ? 5 : runs;
}

int bench_host_repeat(double call_ms)
{
    if (!(call_ms > 0)) return BENCH_MAX_REPEAT; /* below the clock's resolution */
    double reps = BENCH_MIN_SAMPLE_MS / call_ms;
    if (reps <= 1.0) return 1;
    return reps >= BENCH_MAX_REPEAT ? BENCH_MAX_REPEAT : (int)reps + 1;
}

static int compare_ms(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sl_stats bench_stats_of(double *samples, int count)
{
    sl_stats s = {0.0, 0.0, 0.0, count > 0 ? count : 0};
    if (count <= 0) return s;
    qsort(samples, (size_t)count, sizeof *samples, compare_ms);
    s.min_ms = samples[0];
    s.max_ms = samples[count - 1];
    s.median_ms = count % 2 ? samples[count / 2] : 0.5 * (samples[count / 2 - 1] + samples[count / 2]);
    return s;
}

double bench_rate(double amount, double ms) { return ms > 0 ? amount / (ms * 1e6) : 0.0; }

const char *bench_unit_label(const bench_env *env) { return env->spec->unit == BENCH_GFLOPS ? "GFLOP/s" : "GB/s"; }

static void emit_row(bench_env *env, size_t n, const char *column, const sl_stats *s, double rate,
                     const char *label)
{
    printf("  %-*s %12.4f ms %10.4g %s  (min %.4f, max %.4f)\n", env->spec->name_width, column, s->median_ms,
           rate, label, s->min_ms, s->max_ms);
    if (env->csv)
        fprintf(env->csv, "%zu,%s,%.6f,%.6f,%.6f,%.6g,%s\n", n, column, s->median_ms, s->min_ms, s->max_ms, rate,
                label);
}

void bench_emit(bench_env *env, size_t n, const char *column, const sl_stats *s, double amount)
{
    emit_row(env, n, column, s, bench_rate(amount, s->median_ms), bench_unit_label(env));
}

void bench_emit_value(bench_env *env, size_t n, const char *column, const sl_stats *s, double value,
                      const char *unit)
{
    emit_row(env, n, column, s, value, unit);
}

void bench_emit_model(bench_env *env, size_t n, const char *column, const bench_model *m, double amount)
{
    const char *gpu = m->gpu[0] ? m->gpu : getenv("SIMTLAB_MODEL_GPU");
    if (!gpu || !*gpu) gpu = "h200";
    if (!m->modelled) {
        printf("  %-*s modelled %s time: %s\n", env->spec->name_width, column, gpu, m->note);
        if (env->csv) fprintf(env->csv, "# not modelled: %s on %s at n=%zu (%s)\n", column, gpu, n, m->note);
        return;
    }
    static int said; /* once a run: what the modelled rows are */
    if (!said++)
        printf("  (modelled rows: the emulator's timing model of the launches of one call (the checked run) on\n"
               "   the %s (SIMTLAB_MODEL_GPU; emu/docs/model.md): modelled, not measured; instruction counts: %s)\n",
               gpu, m->counts[0] ? m->counts : "-");
    double ms = m->us / 1000.0;
    printf("  %-*s modelled %s time %10.4f ms %10.4g %s  (modelled, not measured%s%s)\n", env->spec->name_width,
           column, gpu, ms, bench_rate(amount, ms), bench_unit_label(env), m->note[0] ? "; " : "", m->note);
    if (env->csv)
        fprintf(env->csv, "%zu,modelled_%s_%s,%.6f,%.6f,%.6f,%.6g,%s\n", n, gpu, column, ms, ms, ms,
                bench_rate(amount, ms), bench_unit_label(env));
}

void bench_mark(bench_env *env, const char *chart, double x, const char *label)
{
    printf("  mark: %s at %g\n", label, x);
    if (env->csv) fprintf(env->csv, "# mark: %s;%.17g;%s\n", chart, x, label);
}

/* ---- rotated device copies of the inputs -------------------------------- */
sl_status bench_inputs_make(bench_env *env, bench_inputs *in, int count, const void *const *host,
                            const size_t *bytes, size_t n)
{
    memset(in, 0, sizeof *in);
    size_t total = 0;
    for (int i = 0; i < count; i++) total += bytes[i];
    in->count = count < BENCH_MAX_INPUTS ? count : BENCH_MAX_INPUTS;
    in->copies = bench_rotation(env, total);
    sl_status st = SL_OK;
    for (int i = 0; st == SL_OK && i < in->count; i++) {
        in->bytes[i] = bytes[i];
        in->copy[i] = calloc((size_t)in->copies, sizeof *in->copy[i]);
        if (!in->copy[i]) st = SL_ERR_HOST_MEMORY;
    }
    for (int k = 0; st == SL_OK && k < in->copies; k++)
        for (int i = 0; st == SL_OK && i < in->count; i++) {
            st = sl_alloc_device(&in->copy[i][k], bytes[i]);
            if (st == SL_OK && host[i]) st = sl_copy_to_device(in->copy[i][k], host[i], bytes[i]);
        }
    if (st != SL_OK) {
        const char *why = st == SL_ERR_HOST_MEMORY ? "out of host memory" : sl_last_error();
        fprintf(stderr, "device buffers for n=%zu: %s\n", n, why);
        bench_inputs_free(in);
    }
    return st;
}

int bench_inputs_next(bench_inputs *in)
{
    int k = in->next;
    in->next = (in->next + 1) % in->copies;
    return k;
}

void bench_inputs_free(bench_inputs *in)
{
    for (int i = 0; i < in->count; i++) {
        for (int k = 0; in->copy[i] && k < in->copies; k++) sl_free_device(in->copy[i][k]);
        free(in->copy[i]);
    }
    memset(in, 0, sizeof *in);
}

/* ---- columns ------------------------------------------------------------ */
typedef struct host_timing {
    const bench_column *col;
    int repeat; /* calls per sample */
} host_timing;

static sl_status time_host(void *ctx, double *ms)
{
    const host_timing *h = ctx;
    double t = sl_host_ms();
    for (int i = 0; i < h->repeat; i++) h->col->run_host(h->col->ctx);
    *ms = (sl_host_ms() - t) / h->repeat;
    return SL_OK;
}

/* Calls per sample for a CPU column: from one call timed alone (warm). */
static int calibrate_host(const bench_column *col)
{
    host_timing one = {col, 1};
    double ms = 0.0;
    time_host(&one, &ms);
    return bench_host_repeat(ms);
}

static sl_status run_once(const bench_column *col)
{
    double ms;
    sl_status st = col->prepare ? col->prepare(col->ctx) : SL_OK;
    if (col->inputs) col->inputs->next = 0; /* the checked run reads copy 0 */
    if (st == SL_OK && col->run_host) col->run_host(col->ctx);
    else if (st == SL_OK) st = col->run_device(col->ctx, &ms);
    if (col->inputs) col->inputs->next = 0; /* and the timed runs start there again */
    return st;
}

int bench_column_run(bench_env *env, size_t n, const bench_column *col, double *median_ms)
{
    if (median_ms) *median_ms = -1.0;
    /* A device column's checked run is also its modelled one: the timing
     * model prices the launches it makes (no run is added for the model, and
     * the timed runs below run without the counting). */
    int modelling = col->run_device && env->emulated && model_begin();
    sl_status st = run_once(col);
    char ran_why[512] = ""; /* the run's own message: closing the model's window must not replace it */
    if (st != SL_OK) snprintf(ran_why, sizeof ran_why, "%s", sl_last_error());
    bench_model model;
    model_end(modelling, st, 1, &model);
    if (st == SL_ERR_UNSUPPORTED) {
        bench_skip(env, col->name, ran_why);
        return 1;
    }
    if (st == SL_OK && !col->check(col->ctx, col->name, n)) return 0;
    sl_stats s;
    int runs = bench_runs(env, col->bytes);
    if (st == SL_OK && col->run_host) {
        host_timing h = {col, calibrate_host(col)};
        st = sl_time_repeat(time_host, &h, env->quick ? 0 : 1, runs, &s);
    } else if (st == SL_OK) {
        /* checked once above, which warms up a --quick run too */
        st = bench_time_repeat(col->run_device, col->ctx, env->quick ? 0 : 2, runs, &s);
    }
    if (st != SL_OK) {
        fprintf(stderr, "%s failed at n=%zu: %s\n", col->name, n, ran_why[0] ? ran_why : sl_last_error());
        return 0;
    }
    double amount = env->spec->unit == BENCH_GFLOPS ? col->flops : (double)col->bytes;
    bench_emit(env, n, col->name, &s, amount);
    if (col->run_device && env->emulated) bench_emit_model(env, n, col->name, &model, amount);
    if (median_ms) *median_ms = s.median_ms;
    return 1;
}

int bench_columns(bench_env *env, size_t n, const bench_column *cols, int count)
{
    int ok = 1;
    for (int i = 0; ok && i < count; i++) ok = bench_column_run(env, n, &cols[i], NULL);
    return ok;
}

int bench_versions(bench_env *env, size_t n, const bench_column *col, sl_opts *opts, bench_table *t)
{
    bench_column version = *col;
    char name[16];
    version.name = name;
    int ok = 1;
    for (int v = 1; ok && v <= t->versions && v <= BENCH_MAX_VERSIONS; v++) {
        opts->version = v;
        snprintf(name, sizeof name, "v%d", v);
        ok = bench_column_run(env, n, &version, &t->ms[v]);
    }
    return ok;
}

/* ---- the copy ceiling ---------------------------------------------------- */
typedef struct copy_run {
    bench_inputs *in;
    int input;
    void *dst;
} copy_run;

static sl_status time_copy(void *ctx, double *ms)
{
    copy_run *c = ctx;
    const void *src = c->in->copy[c->input][bench_inputs_next(c->in)];
    return sl_copy_device_to_device_timed(c->dst, src, c->in->bytes[c->input], ms);
}

int bench_copy_ceiling(bench_env *env, size_t n, bench_inputs *in, int input, double *copy_gbs)
{
    size_t bytes = in->bytes[input];
    copy_run c = {in, input, NULL};
    sl_stats s;
    *copy_gbs = 0.0;
    in->next = 0;
    sl_status st = sl_alloc_device(&c.dst, bytes);
    if (st == SL_OK) st = bench_time_repeat(time_copy, &c, 0, bench_runs(env, 2 * bytes), &s);
    in->next = 0;
    sl_free_device(c.dst);
    if (st != SL_OK) {
        fprintf(stderr, "copy_d2d failed at n=%zu: %s\n", n, sl_last_error());
        return 0;
    }
    *copy_gbs = bench_rate(2.0 * (double)bytes, s.median_ms);
    emit_row(env, n, "copy_d2d", &s, *copy_gbs, "GB/s");
    return 1;
}

/* ---- the per-size table -------------------------------------------------- */
double bench_table_rate(const bench_table *t, int version) { return bench_rate(t->amount, t->ms[version]); }

double bench_table_pct_copy(const bench_table *t, int version)
{
    return t->copy_gbs > 0 ? 100.0 * bench_table_rate(t, version) / t->copy_gbs : 0.0;
}

double bench_table_pct_vendor(const bench_table *t, int version)
{
    return t->vendor_ms > 0 && t->ms[version] > 0 ? 100.0 * t->vendor_ms / t->ms[version] : 0.0;
}

int bench_table_best(const bench_table *t)
{
    int best = 1;
    for (int v = 2; v <= t->versions && v <= BENCH_MAX_VERSIONS; v++)
        if (t->ms[v] > 0 && t->ms[v] < t->ms[best]) best = v;
    return best;
}

void bench_table_print(const bench_env *env, const bench_table *t)
{
    const double *ms = t->ms;
    char vendor[32];
    snprintf(vendor, sizeof vendor, "%%%s", t->vendor);
    printf("  %-44s %10s %9s %7s %7s %6s %6s\n", "version", "ms", bench_unit_label(env), "%copy", vendor, "step",
           "vs v1");
    for (int v = 1; v <= t->versions && v <= BENCH_MAX_VERSIONS; v++) {
        if (ms[v] <= 0) continue;
        printf("  %-44s %10.4f %9.2f %6.1f%% ", t->version_name(v), ms[v], bench_table_rate(t, v),
               bench_table_pct_copy(t, v));
        if (t->vendor_ms > 0) printf("%6.1f%% ", bench_table_pct_vendor(t, v));
        else printf("%7s ", "-");
        printf("%5.2fx %5.1fx\n", v > 1 && ms[v - 1] > 0 ? ms[v - 1] / ms[v] : 1.0, ms[1] > 0 ? ms[1] / ms[v] : 0.0);
    }
}
