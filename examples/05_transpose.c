/* Chapter 05 — one transpose, narrated.
 *
 * Transposes a rows x cols matrix on the device with one version, says what
 * each phase did and how long it took, how many bytes the kernel moved and
 * at what rate, and checks every element against the input.
 *
 * Usage: 05_transpose [rows] [cols] [version 1-4]
 *        defaults: 4096 4096 4 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

int main(int argc, char **argv)
{
    long long rows, cols, version;
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 4096, 0, INT_MAX, &rows) || !sl_arg_ll(argc, argv, 2, 4096, 0, INT_MAX, &cols) ||
        !sl_arg_ll(argc, argv, 3, 4, 0, INT_MAX, &version)) {
        fprintf(help ? stdout : stderr, "usage: %s [rows] [cols] [version 1-%d]\n       defaults: 4096 4096 4\n", argv[0],
                sl_transpose_version_count());
        return help ? 0 : 2;
    }
    uint64_t seed = 0;
    if (sl_seed_from_env(&seed) != SL_OK) {
        fprintf(stderr, "%s\n", sl_last_error());
        return 2;
    }
    size_t count = (size_t)rows * (size_t)cols, bytes = count * sizeof(float);
    printf("Transpose of a %lld x %lld matrix (%.1f MiB), backend: %s\n", rows, cols, bytes / 1048576.0,
           sl_backend_name());
    float *in = malloc(bytes ? bytes : 1), *out = malloc(bytes ? bytes : 1);
    if (!in || !out) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    sl_fill_uniform_f32(in, count, seed, -1.0f, 1.0f);
    sl_opts opts = {(int)version, 0};
    sl_report r;
    int modelling = sl_modelled_open(); /* the emulator's timing model, beside its CPU times */
    if (sl_transpose(in, (size_t)rows, (size_t)cols, (size_t)cols, out, (size_t)rows, &opts, &r) != SL_OK) {
        fprintf(stderr, "sl_transpose failed: %s\n", sl_last_error());
        free(in), free(out);
        return 1;
    }
    printf("Kernel: %s, %u blocks of %d threads (%s times)\n", sl_transpose_version_name(r.version), r.grid, r.block,
           r.emulated ? "emulated: CPU" : "GPU");
    printf("  1. cudaMalloc      in, out                                       %9.3f ms\n", r.phase_ms[SL_PHASE_ALLOC]);
    printf("  2. copy in         in, %7.1f MiB host -> device                 %9.3f ms\n", r.bytes_h2d / 1048576.0,
           r.phase_ms[SL_PHASE_H2D]);
    printf("  3. kernel          reads and writes every element once           %9.3f ms\n", r.phase_ms[SL_PHASE_KERNEL]);
    printf("  4. copy back       out, %7.1f MiB device -> host                %9.3f ms\n", r.bytes_d2h / 1048576.0,
           r.phase_ms[SL_PHASE_D2H]);
    printf("  5. cudaFree        2 buffers                                     %9.3f ms\n", r.phase_ms[SL_PHASE_FREE]);
    printf("     total                                                         %9.3f ms\n", r.total_ms);
    sl_modelled_print(modelling, 5);
    printf("\n");
    if (r.phase_ms[SL_PHASE_KERNEL] > 0)
        printf("The kernel moved %.1f MiB (read + write) at %.1f GB/s%s; a device-to-device copy\n"
               "of the same bytes is the ceiling (bench_05_transpose measures both).\n",
               2.0 * bytes / 1048576.0, 2.0 * bytes / (r.phase_ms[SL_PHASE_KERNEL] * 1e6),
               r.emulated ? " (emulated: CPU time)" : "");
    size_t wrong = 0;
    for (size_t i = 0; i < (size_t)rows; i++)
        for (size_t j = 0; j < (size_t)cols; j++) wrong += out[j * (size_t)rows + i] != in[i * (size_t)cols + j];
    printf("\nCheck: %zu of %zu elements %s\n", count - wrong, count, wrong ? "right: WRONG" : "right");
    free(in), free(out);
    return wrong ? 1 : 0;
}
