/* Chapter 02 — when the GPU pays, narrated.
 *
 * For one size n it times SAXPY (out = alpha * x + y) four ways and says
 * which wins: on one CPU core, on all cores, as a kernel on data already on
 * the device, and as a kernel with both copies, from pageable and from
 * pinned host memory. Then what a launch costs, and what batching and
 * overlap buy. Every result is checked against the CPU.
 *
 * Usage: 02_gpu_pays [n]      default 4194304 (2^22) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

#define ALPHA 2.0f

static double median_of_5(sl_status (*run)(void *ctx, double *ms), void *ctx)
{
    sl_stats s;
    if (sl_time_repeat(run, ctx, 1, 5, &s) != SL_OK) return -1.0;
    return s.median_ms;
}

typedef struct job {
    const float *x, *y;
    float *out;
    size_t n;
    float *dx, *dy, *dout;
    int where; /* 0 cpu, 1 cpu_omp, 2 kernel, 3 round trip */
} job;

static sl_status run_job(void *ctx, double *ms)
{
    job *j = ctx;
    if (j->where == 2) return sl_pays_device(SL_PAYS_SAXPY, ALPHA, j->dx, j->dy, j->dout, j->n, ms);
    if (j->where == 3) return sl_pays_round_trip(SL_PAYS_SAXPY, ALPHA, j->x, j->y, j->out, j->n, j->dx, j->dy, j->dout, ms);
    double t = sl_host_ms();
    sl_status st = j->where == 0 ? sl_pays_cpu(SL_PAYS_SAXPY, ALPHA, j->x, j->y, j->out, j->n)
                                 : sl_pays_cpu_omp(SL_PAYS_SAXPY, ALPHA, j->x, j->y, j->out, j->n);
    *ms = sl_host_ms() - t;
    return st;
}

static int same(const float *a, const float *b, size_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

int main(int argc, char **argv)
{
    long long n_arg;
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 1 << 22, 1, 1LL << 28, &n_arg)) {
        fprintf(help ? stdout : stderr, "usage: %s [n, 1 .. 2^28]\n       default: 4194304 (2^22)\n", argv[0]);
        return help ? 0 : 2;
    }
    size_t n = (size_t)n_arg, bytes = n * sizeof(float);
    int emulated = sl_backend_is_emulator();
    printf("SAXPY, out = %.1f * x + y, on n = %zu floats (%.1f MiB in, %.1f MiB out); backend: %s\n", ALPHA, n,
           2.0 * bytes / 1048576.0, bytes / 1048576.0, sl_backend_name());
    if (emulated)
        printf("(emulator: \"device\" times below are CPU times of the emulator, and the \"bus\" is memcpy)\n");

    float *x = malloc(bytes), *y = malloc(bytes), *want = malloc(bytes), *out = malloc(bytes);
    float *px = NULL, *py = NULL, *pout = NULL, *dx = NULL, *dy = NULL, *dout = NULL;
    int rc = 1;
    if (!x || !y || !want || !out) {
        fprintf(stderr, "out of host memory for n = %zu\n", n);
        goto done;
    }
    sl_fill_uniform_f32(x, n, 1, -1.0f, 1.0f);
    sl_fill_uniform_f32(y, n, 2, -1.0f, 1.0f);
    sl_pays_cpu(SL_PAYS_SAXPY, ALPHA, x, y, want, n);

    printf("\n1. On the CPU\n");
    job j = {x, y, out, n, NULL, NULL, NULL, 0};
    double cpu = median_of_5(run_job, &j);
    j.where = 1;
    double omp = median_of_5(run_job, &j);
    printf("   one core                               %10.4f ms\n", cpu);
    printf("   all cores (OpenMP)                     %10.4f ms\n", omp);
    double best_cpu = omp > 0 && omp < cpu ? omp : cpu;

    if (sl_alloc_device(&dx, bytes) != SL_OK || sl_alloc_device(&dy, bytes) != SL_OK ||
        sl_alloc_device(&dout, bytes) != SL_OK || sl_alloc_pinned(&px, bytes) != SL_OK ||
        sl_alloc_pinned(&py, bytes) != SL_OK || sl_alloc_pinned(&pout, bytes) != SL_OK) {
        printf("\nNo device here (%s).\nThe CPU columns above are all this machine can measure; run %s_emu "
               "for the emulated device, or this program on a GPU machine.\n",
               sl_last_error(), argv[0]);
        rc = 0;
        goto done;
    }
    memcpy(px, x, bytes);
    memcpy(py, y, bytes);

    printf("\n2. On the %s\n", emulated ? "emulated device" : "GPU");
    sl_copy_to_device(dx, x, bytes);
    sl_copy_to_device(dy, y, bytes);
    j = (job){x, y, out, n, dx, dy, dout, 2};
    double kernel = median_of_5(run_job, &j);
    sl_copy_to_host(out, dout, bytes);
    int ok = same(out, want, n);
    j.where = 3;
    double pageable = median_of_5(run_job, &j);
    ok = ok && same(out, want, n);
    j.x = px, j.y = py, j.out = pout;
    double pinned = median_of_5(run_job, &j);
    ok = ok && same(pout, want, n);
    printf("   the kernel alone (data already there)  %10.4f ms   %5.2fx the best CPU time\n", kernel, kernel / best_cpu);
    printf("   copy in + kernel + copy out, pageable  %10.4f ms   %5.2fx\n", pageable, pageable / best_cpu);
    printf("   copy in + kernel + copy out, pinned    %10.4f ms   %5.2fx\n", pinned, pinned / best_cpu);
    printf("   (below 1x the %s wins.) Results %s the CPU's.\n", emulated ? "device" : "GPU",
           ok ? "equal" : "DIFFER FROM");
    /* Timed apart, the round trip can come out faster than the kernel alone
     * (noise on a loaded machine): the share is then 0%, not negative. */
    double copies_share = pinned > 0 && pinned > kernel ? (pinned - kernel) / pinned : 0.0;
    if (pinned > 0)
        printf("   The copies are %.0f%% of the pinned round trip: %s\n", 100.0 * copies_share,
               emulated ? "on the emulator the bus is memcpy, so this is not a GPU's ratio."
                        : "for 2 flops per 12 bytes the bus, not the kernel, sets the time.");

    printf("\n3. What a launch costs (1000 empty kernels)\n");
    for (int m = 0; m < 3; m++) {
        double ms;
        sl_status st = sl_launch_overhead((sl_launch_mode)m, 1000, &ms);
        if (st == SL_OK) printf("   %-14s %8.2f us per launch\n", sl_launch_mode_name((sl_launch_mode)m), ms);
        else printf("   %-14s not run: %s\n", sl_launch_mode_name((sl_launch_mode)m), sl_last_error());
    }
    printf("   (ms for 1000 launches = us per launch.) A kernel shorter than this is all overhead;\n"
           "   batch small work into one launch, or replay it as a graph.\n");

    printf("\n4. Overlap: p(x) with 32 FMAs per element, copies and compute on 4 streams\n");
    size_t m = n < ((size_t)1 << 20) ? n : (size_t)1 << 20;
    double one = 0, four = 0;
    sl_status st = sl_overlap_run(px, pout, m, 32, 1, 1, dx, dy, &one);
    if (st == SL_OK) st = sl_overlap_run(px, pout, m, 32, 8, 4, dx, dy, &four);
    if (st == SL_OK)
        printf("   serialised (all in, compute, all out) %9.3f ms\n   8 chunks on 4 streams                 %9.3f ms"
               "   (%.2fx)\n",
               one, four, four > 0 ? one / four : 0.0);
    else
        printf("   not run: %s\n", sl_last_error());
    if (emulated) printf("   The emulator runs each stream's work in order on the host: no overlap to see here.\n");
    rc = ok && st == SL_OK ? 0 : 1;
done:
    sl_free_device(dx);
    sl_free_device(dy);
    sl_free_device(dout);
    sl_free_pinned(px);
    sl_free_pinned(py);
    sl_free_pinned(pout);
    free(x);
    free(y);
    free(want);
    free(out);
    return rc;
}
