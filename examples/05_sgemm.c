/* Chapter 05 — one SGEMM, narrated.
 *
 * Multiplies an m x k matrix by a k x n matrix on the device with one
 * version of the ladder, says what each phase of the host library did and
 * how long it took, how many flops the kernel did per byte it had to move,
 * and checks the result against OpenBLAS on the CPU.
 *
 * Usage: 05_sgemm [m] [n] [k] [version 1-9]
 *        defaults: 512 512 512 9 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

static void print_phases(const sl_report *r, double flops, int modelling)
{
    printf("  1. cudaMalloc      A, B, C                                       %9.3f ms\n",
           r->phase_ms[SL_PHASE_ALLOC]);
    printf("  2. copy in         A and B, %7.2f MiB host -> device             %9.3f ms\n",
           r->bytes_h2d / 1048576.0, r->phase_ms[SL_PHASE_H2D]);
    printf("  3. kernel          one launch, checked                           %9.3f ms\n", r->phase_ms[SL_PHASE_KERNEL]);
    printf("  4. copy back       C, %7.2f MiB device -> host                   %9.3f ms\n",
           r->bytes_d2h / 1048576.0, r->phase_ms[SL_PHASE_D2H]);
    printf("  5. cudaFree        3 buffers                                     %9.3f ms\n",
           r->phase_ms[SL_PHASE_FREE]);
    printf("     total                                                         %9.3f ms\n", r->total_ms);
    sl_modelled_print(modelling, 5);
    printf("\n");
    if (r->phase_ms[SL_PHASE_KERNEL] > 0)
        printf("The kernel did %.3g flops at %.1f GFLOP/s%s.\n", flops, flops / (r->phase_ms[SL_PHASE_KERNEL] * 1e6),
               r->emulated ? " (emulated: CPU time)" : "");
}

int main(int argc, char **argv)
{
    long long m, n, k, version;
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 512, 0, INT_MAX, &m) || !sl_arg_ll(argc, argv, 2, 512, 0, INT_MAX, &n) ||
        !sl_arg_ll(argc, argv, 3, 512, 0, INT_MAX, &k) || !sl_arg_ll(argc, argv, 4, 9, 0, INT_MAX, &version)) {
        fprintf(help ? stdout : stderr, "usage: %s [m] [n] [k] [version 1-%d]\n       defaults: 512 512 512 %d\n", argv[0],
                sl_sgemm_version_count(), sl_sgemm_version_count());
        return help ? 0 : 2;
    }
    uint64_t seed = 0;
    if (sl_seed_from_env(&seed) != SL_OK) {
        fprintf(stderr, "%s\n", sl_last_error());
        return 2;
    }
    size_t na = (size_t)m * k, nb = (size_t)k * n, nc = (size_t)m * n;
    double flops = 2.0 * m * n * k, bytes = 4.0 * (na + nb + nc);
    printf("C = A * B with A %lld x %lld, B %lld x %lld (row-major), backend: %s\n", m, k, k, n, sl_backend_name());
    printf("%.3g flops on %.2f MiB of matrices: at best %.1f flops per byte moved, if every\n"
           "element went through the memory once. That ratio is what the tiles are for.\n\n",
           flops, bytes / 1048576.0, bytes > 0 ? flops / bytes : 0.0);
    float *a = malloc((na ? na : 1) * sizeof *a), *b = malloc((nb ? nb : 1) * sizeof *b);
    float *c = malloc((nc ? nc : 1) * sizeof *c), *ref = malloc((nc ? nc : 1) * sizeof *ref);
    if (!a || !b || !c || !ref) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    sl_fill_uniform_f32(a, na, seed, -1.0f, 1.0f);
    sl_fill_uniform_f32(b, nb, seed + 1, -1.0f, 1.0f);
    printf("Inputs: uniform in [-1, 1) from seed %llu.\n\n", (unsigned long long)seed);

    sl_opts opts = {(int)version, 0};
    sl_report r;
    int modelling = sl_modelled_open(); /* the emulator's timing model, beside its CPU times */
    int ok = sl_sgemm((size_t)m, (size_t)n, (size_t)k, 1.0f, a, (size_t)k, b, (size_t)n, 0.0f, c, (size_t)n, &opts,
                      &r) == SL_OK;
    if (!ok) fprintf(stderr, "sl_sgemm failed: %s\n", sl_last_error());
    if (ok) {
        printf("Kernel: %s", sl_sgemm_version_name(r.version));
        if (r.version >= 7) printf(", shape %s", sl_sgemm_v9_shape_name(r.version == 9 ? sl_sgemm_v9_shape() : 0));
        printf("\n        %u blocks of %d threads (%s times)\n", r.grid, r.block, r.emulated ? "emulated: CPU" : "GPU");
        print_phases(&r, flops, modelling);
        ok = sl_sgemm_cpu_openblas((size_t)m, (size_t)n, (size_t)k, 1.0f, a, (size_t)k, b, (size_t)n, 0.0f, ref,
                                   (size_t)n) == SL_OK;
    }
    if (ok && nc > 0) {
        double worst = 0.0;
        for (size_t i = 0; i < nc; i++) {
            double e = isfinite(c[i]) ? fabs((double)c[i] - ref[i]) : INFINITY;
            worst = e > worst ? e : worst;
        }
        /* |a|, |b| < 1: each dot product's error is below k * 2^-24 * k */
        double bound = 2.0 * (k + 2) * k * ldexp(1.0, -24);
        printf("\nCheck against OpenBLAS on the CPU: largest difference %.3g (bound for k = %lld: %.3g)\n", worst, k,
               bound);
        ok = worst <= bound;
        printf("  %s\n", ok ? "within the bound" : "WRONG: outside the bound");
    }
    free(a), free(b), free(c), free(ref);
    return ok ? 0 : 1;
}
