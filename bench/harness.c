/* simtlab benchmarks — the shared harness (see harness.h). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

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

static void write_csv_header(bench_env *env, const char *title, const char *columns)
{
    struct utsname u;
    char cpu[256], when[64];
    time_t now = time(NULL);
    uname(&u);
    cpu_model(cpu, sizeof cpu);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(env->csv, "# simtlab benchmark: %s\n# date: %s\n", title, when);
    fprintf(env->csv, "# machine: %s %s, %s, %ld cores\n", u.nodename, u.machine, cpu,
            sysconf(_SC_NPROCESSORS_ONLN));
    fprintf(env->csv, "# backend: %s; built for: %s\n", sl_backend_name(), sl_built_architectures());
    if (env->have_gpu || env->emulated)
        fprintf(env->csv, "# device: %s (compute capability %d.%d, %d SMs)%s\n", env->device.name,
                env->device.major, env->device.minor, env->device.sm_count,
                env->emulated ? " — EMULATED: device times are CPU times" : "");
    else
        fprintf(env->csv, "# device: none (%s)\n", env->why_no_gpu);
    fprintf(env->csv, "%s\n", columns);
}

int bench_init(bench_env *env, int argc, char **argv, const char *title, const char *columns)
{
    memset(env, 0, sizeof *env);
    const char *csv_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv_path = argv[++i];
        } else if (strcmp(argv[i], "--quick") == 0) {
            env->quick = 1;
        } else {
            fprintf(stderr, "usage: %s [--csv FILE] [--quick]\n", argv[0]);
            return 2;
        }
    }
    env->emulated = sl_backend_is_emulator();
    if (sl_device_query(0, &env->device) == SL_OK) {
        env->have_gpu = !env->emulated;
    } else {
        env->emulated = 0;
        snprintf(env->why_no_gpu, sizeof env->why_no_gpu, "%s", sl_last_error());
        char *hint = strstr(env->why_no_gpu, " — hint:"); /* make doctor explains it */
        if (hint) snprintf(hint, sizeof env->why_no_gpu - (size_t)(hint - env->why_no_gpu), "; see make doctor");
    }
    printf("simtlab benchmark — %s\n", title);
    if (env->have_gpu)
        printf("device: %s (sm_%d%d, %d SMs)\n", env->device.name, env->device.major,
               env->device.minor, env->device.sm_count);
    else if (env->emulated)
        printf("device: %s — EMULATED: device columns are CPU-emulator times, not GPU times\n",
               env->device.name);
    else
        printf("device: none — GPU columns are skipped (%s)\n", env->why_no_gpu);
    if (csv_path) {
        env->csv = fopen(csv_path, "w");
        if (!env->csv) {
            fprintf(stderr, "cannot write %s\n", csv_path);
            return 2;
        }
        write_csv_header(env, title, columns);
    }
    return 0;
}

void bench_finish(bench_env *env)
{
    if (env->csv) fclose(env->csv);
    env->csv = NULL;
    size_t leaks = sl_alloc_report_leaks(stderr);
    if (leaks) fprintf(stderr, "benchmark leaked %zu device buffers\n", leaks);
}

void bench_skip(bench_env *env, const char *columns, const char *reason)
{
    printf("skipped: %s (%s)\n", columns, reason);
    if (env->csv) fprintf(env->csv, "# skipped: %s (%s)\n", columns, reason);
}

int bench_rotation(const bench_env *env, size_t bytes)
{
    size_t l2 = env->device.l2_bytes > 0 ? (size_t)env->device.l2_bytes : (size_t)50 << 20;
    if (bytes == 0) return 1;
    size_t copies = (2 * l2 + bytes - 1) / bytes;
    return copies < 1 ? 1 : copies > 64 ? 64 : (int)copies;
}

int bench_runs(const bench_env *env, size_t bytes)
{
    int runs = bytes >= ((size_t)256 << 20) ? 5 : bytes >= ((size_t)16 << 20) ? 11 : 25;
    return env->quick ? 3 : runs;
}

double bench_gbs(size_t bytes, double ms) { return ms > 0 ? (double)bytes / (ms * 1e6) : 0.0; }

sl_status bench_time_host(void *call, double *ms)
{
    bench_host_call *c = call;
    double t = sl_host_ms();
    c->fn(c->ctx);
    *ms = sl_host_ms() - t;
    return SL_OK;
}
