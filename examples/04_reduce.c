/* Chapter 04 — one reduction, narrated.
 *
 * Sums n floats on the device with one version of the ladder and tells,
 * phase by phase, what the host library did and how long each phase took.
 * Then it compares the sum with the CPU's double-precision loop and says how
 * large the error is next to what the order of additions predicts.
 *
 * Usage: 04_reduce [n] [version 1-9] [threads per block]
 *        defaults: 16777216 (2^24) 9 256 */
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

static void print_phases(const sl_report *r, size_t bytes, int modelling)
{
    printf("  1. cudaMalloc      x, the scratch for partial sums, the result  %9.3f ms\n",
           r->phase_ms[SL_PHASE_ALLOC]);
    printf("  2. copy in         x, %7.1f MiB host -> device                  %9.3f ms\n",
           r->bytes_h2d / 1048576.0, r->phase_ms[SL_PHASE_H2D]);
    printf("  3. kernel(s)       every launch of the version, checked          %9.3f ms\n",
           r->phase_ms[SL_PHASE_KERNEL]);
    printf("  4. copy back       the sum, %zu bytes device -> host               %9.3f ms\n",
           r->bytes_d2h, r->phase_ms[SL_PHASE_D2H]);
    printf("  5. cudaFree        3 buffers                                     %9.3f ms\n",
           r->phase_ms[SL_PHASE_FREE]);
    printf("     total                                                         %9.3f ms\n", r->total_ms);
    sl_modelled_print(modelling, 5);
    printf("\n");
    if (r->phase_ms[SL_PHASE_KERNEL] > 0)
        printf("The kernel read %.1f MiB at %.1f GB/s%s. The copy in moved the same bytes over\n"
               "the bus first: for data that is not already on the device, the copy is the cost.\n",
               bytes / 1048576.0, bytes / (r->phase_ms[SL_PHASE_KERNEL] * 1e6),
               r->emulated ? " (emulated: CPU time)" : "");
}

int main(int argc, char **argv)
{
    long long n_arg, version, block;
    /* Range checks beyond "a number >= 0" are the library's: its message
     * names the argument and the allowed values. */
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 1 << 24, 0, (long long)(SIZE_MAX / sizeof(double)), &n_arg) ||
        !sl_arg_ll(argc, argv, 2, 9, 0, INT_MAX, &version) ||
        !sl_arg_ll(argc, argv, 3, 256, 0, INT_MAX, &block)) {
        fprintf(help ? stdout : stderr, "usage: %s [n] [version 1-%d] [threads per block]\n"
                "       defaults: 16777216 (2^24) 9 256\n", argv[0], sl_reduce_version_count());
        return help ? 0 : 2;
    }
    uint64_t seed = 0;
    if (sl_seed_from_env(&seed) != SL_OK) {
        fprintf(stderr, "%s\n", sl_last_error());
        return 2;
    }
    size_t n = (size_t)n_arg, bytes = n * sizeof(float);
    printf("Sum of n = %zu floats (%.1f MiB), backend: %s\n", n, bytes / 1048576.0, sl_backend_name());
    float *x = malloc(bytes ? bytes : 1);
    if (!x) {
        fprintf(stderr, "out of host memory for n = %zu\n", n);
        return 1;
    }
    sl_fill_uniform_f32(x, n, seed, 0.0f, 1.0f);
    printf("Inputs: uniform in [0, 1) from seed %llu (all positive: no cancellation).\n\n",
           (unsigned long long)seed);

    sl_opts opts = {(int)version, (int)block};
    sl_report r;
    float sum = NAN; /* poisoned: a result never written shows up */
    int modelling = sl_modelled_open(); /* the emulator's timing model, beside its CPU times */
    if (sl_reduce_sum_f32(x, n, &sum, &opts, &r) != SL_OK) {
        fprintf(stderr, "sl_reduce_sum_f32 failed: %s\n", sl_last_error());
        free(x);
        return 1;
    }
    printf("Kernel: %s, %u blocks of %d threads in the first pass (%s times)\n",
           sl_reduce_version_name(r.version), r.grid, r.block, r.emulated ? "emulated: CPU" : "GPU");
    print_phases(&r, bytes, modelling);

    double ref = sl_reduce_sum_cpu_f64(x, n);
    double rel = ref != 0.0 ? fabs(sum - ref) / ref : fabs((double)sum);
    double tree = (log2(n > 1 ? (double)n : 2.0) + 1) * ldexp(1.0, -24);
    printf("\nCheck against the CPU's double loop: device %.9g, CPU %.9g\n", sum, ref);
    printf("  relative error %.3g; a float tree of depth log2(n) predicts up to ~%.3g,\n"
           "  a float loop adding one element after another up to ~%.3g.\n",
           rel, tree, (double)n * ldexp(1.0, -24));
    int ok = isfinite(sum) && rel <= 1e-5;
    printf("  %s\n", ok ? "within the 1e-5 the tests allow" : "WRONG: outside the 1e-5 the tests allow");
    free(x);
    return ok ? 0 : 1;
}
