/* Chapter 01 — vector add, narrated.
 *
 * Adds two arrays of n floats on the device and tells, phase by phase, what
 * the host library did and how long each phase took: allocate, copy in,
 * launch, copy back, free. Then it checks every element against the CPU.
 *
 * Usage: 01_vector_add [n] [version 1-3] [threads per block]
 *        defaults: 16777216 (2^24) 3 256 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

int main(int argc, char **argv)
{
    long long n_arg, version, block;
    /* Range checks beyond "a number >= 0" are the library's: its message
     * names the argument and the allowed values. */
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 1 << 24, 0, (long long)(SIZE_MAX / sizeof(double)), &n_arg) ||
        !sl_arg_ll(argc, argv, 2, 3, 0, INT_MAX, &version) ||
        !sl_arg_ll(argc, argv, 3, 256, 0, INT_MAX, &block)) {
        fprintf(help ? stdout : stderr, "usage: %s [n] [version 1-%d] [threads per block]\n"
                "       defaults: 16777216 (2^24) 3 256\n", argv[0],
                sl_vector_add_version_count());
        return help ? 0 : 2;
    }
    uint64_t seed = 0;
    if (sl_seed_from_env(&seed) != SL_OK) {
        fprintf(stderr, "%s\n", sl_last_error());
        return 2;
    }
    size_t n = (size_t)n_arg, bytes = n * sizeof(float);
    const char *clock = sl_backend_is_emulator() ? "emulated CPU" : "GPU";
    printf("Vector add of n = %zu floats (%.1f MiB per array), backend: %s\n", n, bytes / 1048576.0,
           sl_backend_name());

    float *a = malloc(bytes ? bytes : 1), *b = malloc(bytes ? bytes : 1), *c = malloc(bytes ? bytes : 1);
    double *ref = malloc(n ? n * sizeof(double) : 1);
    if (!a || !b || !c || !ref) {
        fprintf(stderr, "out of host memory for n = %zu\n", n);
        return 1;
    }
    sl_fill_uniform_f32(a, n, seed, -1.0f, 1.0f);
    sl_fill_uniform_f32(b, n, seed + 1, -1.0f, 1.0f);
    sl_poison_f32(c, n);
    for (size_t i = 0; i < n; i++) ref[i] = (double)a[i] + (double)b[i];
    printf("Inputs: uniform in [-1, 1) from seed %llu; output poisoned with NaN.\n\n",
           (unsigned long long)seed);

    sl_opts opts = {(int)version, (int)block};
    sl_report r;
    int modelling = sl_modelled_open(); /* the emulator's timing model, beside its CPU times */
    if (sl_vector_add(a, b, c, n, &opts, &r) != SL_OK) {
        fprintf(stderr, "sl_vector_add failed: %s\n", sl_last_error());
        return 1;
    }

    printf("Kernel: %s, %u blocks of %d threads (%s times)\n", sl_vector_add_version_name(r.version),
           r.grid, r.block, clock);
    printf("  1. cudaMalloc      3 buffers on the device                      %9.3f ms\n",
           r.phase_ms[SL_PHASE_ALLOC]);
    printf("  2. copy in         a and b, %7.1f MiB host -> device            %9.3f ms\n",
           r.bytes_h2d / 1048576.0, r.phase_ms[SL_PHASE_H2D]);
    printf("  3. kernel          c[i] = a[i] + b[i], checked and synchronized %9.3f ms\n",
           r.phase_ms[SL_PHASE_KERNEL]);
    printf("  4. copy back       c, %7.1f MiB device -> host                  %9.3f ms\n",
           r.bytes_d2h / 1048576.0, r.phase_ms[SL_PHASE_D2H]);
    printf("  5. cudaFree        3 buffers                                    %9.3f ms\n",
           r.phase_ms[SL_PHASE_FREE]);
    printf("     total                                                         %9.3f ms\n",
           r.total_ms);
    sl_modelled_print(modelling, 5);
    printf("\n");

    double copies = r.phase_ms[SL_PHASE_H2D] + r.phase_ms[SL_PHASE_D2H];
    double kernel = r.phase_ms[SL_PHASE_KERNEL];
    if (r.emulated)
        printf("The copies took %.1fx as long as the add here, but these are emulator timings:\n"
               "the \"device\" is host memory and nothing crosses a bus. On a GPU the copies go\n"
               "over PCIe, far slower than device memory, and take many times the kernel's time;\n"
               "run build/bin/01_vector_add on a GPU machine to see it.\n",
               kernel > 0 ? copies / kernel : 0.0);
    else if (kernel > 0)
        printf("The copies took %.1fx as long as the add: one add per 12 bytes moved is too\n"
               "little work to pay for a trip over the bus. Keep data on the device across\n"
               "kernels (chapter 02) and this ratio is what you save.\n",
               copies / kernel);

    sl_check chk = sl_compare_f32(c, ref, n, 1e-7);
    printf("\nCheck against the CPU (double precision): %s, max abs error %.3g\n",
           chk.passed ? "all elements correct" : "WRONG", chk.max_abs);
    free(a);
    free(b);
    free(c);
    free(ref);
    return chk.passed ? 0 : 1;
}
