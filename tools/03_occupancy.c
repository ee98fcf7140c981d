/* occupancy — the theoretical occupancy of a kernel, with no GPU (chapter 03).
 *
 *   build/bin/occupancy --registers 32 --threads 256 --shared 4096 --arch 80
 *   build/bin/occupancy --resources build/resources.txt --ch 03 --threads 256
 *
 * The first form takes one kernel's resources (from ptxas -v or
 * cudaFuncGetAttributes) and prints, for the architecture asked (every one
 * the calculator knows without --arch), how many blocks and warps an SM
 * holds, what each resource alone would allow, and the one that limits it.
 * The second reads build/resources.txt (ptxas's report, kept by a CUDA
 * build) and prints one line per kernel and architecture of chapter NN.
 * The arithmetic is host/03_occupancy.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: occupancy [--registers R] [--threads T] [--shared BYTES] [--dynamic BYTES] [--arch A]\n"
            "       occupancy --resources build/resources.txt --ch NN [--threads T] [--dynamic BYTES] [--arch A]\n"
            "\n"
            "The theoretical occupancy of a kernel: how many of its blocks and warps one SM holds\n"
            "at once, and which resource (registers, shared memory, warps, block slots) limits it.\n"
            "\n"
            "  --registers R     registers per thread, 0..255 (ptxas -v: 'Used R registers'); default 32\n"
            "  --threads T       threads per block, 1..1024; default 256\n"
            "  --shared BYTES    static shared memory per block (ptxas -v: 'N bytes smem'); default 0\n"
            "  --dynamic BYTES   dynamic shared memory per block (the launch's third <<<>>> argument); default 0\n"
            "  --arch A          75, 80, 86, 89, 90, 100 or 120 (compute capability x 10); default: all of them\n"
            "  --resources FILE  read every kernel's registers and shared memory from FILE (build/resources.txt,\n"
            "                    written by a CUDA build) ...\n"
            "  --ch NN           ... and print the kernels of chapter NN (01..07)\n"
            "  --help            this text\n");
}

/* The integer value of option argv[*i] (the word after it), in [min, max]. */
static int option_ll(int argc, char **argv, int *i, long long min, long long max, long long *out)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "occupancy: %s needs a value\n", argv[*i]);
        return 0;
    }
    if (!sl_arg_ll(argc, argv, *i + 1, 0, min, max, out)) {
        fprintf(stderr, "occupancy: %s %s: expected an integer in %lld..%lld\n", argv[*i], argv[*i + 1], min, max);
        return 0;
    }
    (*i)++;
    return 1;
}

static int run_one(int arch, int threads, int registers, size_t shared, size_t dynamic)
{
    size_t count = 0;
    const int *archs = sl_occupancy_archs(&count);
    printf("%d registers per thread, %d threads per block, %zu + %zu bytes of shared memory per block\n",
           registers, threads, shared, dynamic);
    printf("blocks per SM that each resource allows ('-': no limit), and what the SM holds:\n\n");
    printf("%-7s %6s %6s %6s %6s %7s %10s %6s  %s\n", "arch", "regs", "smem", "warps", "slots", "blocks",
           "warps", "occ.", "limited by");
    for (size_t i = 0; i < count; i++) {
        if (arch && archs[i] != arch) continue;
        sl_occupancy o;
        if (sl_occupancy_calc(archs[i], threads, registers, shared, dynamic, &o) != SL_OK) {
            fprintf(stderr, "occupancy: %s\n", sl_last_error());
            return 2;
        }
        char text[64], by[4][16];
        const int v[4] = {o.blocks_by_registers, o.blocks_by_shared, o.blocks_by_warps, o.blocks_by_slots};
        for (int k = 0; k < 4; k++) {
            if (v[k] < 0)
                snprintf(by[k], sizeof by[k], "-");
            else
                snprintf(by[k], sizeof by[k], "%d", v[k]);
        }
        printf("sm_%-4d %6s %6s %6s %6s %7d %6d/%-3d %5.1f%%  %s\n", archs[i], by[0], by[1], by[2], by[3],
               o.active_blocks, o.active_warps, o.max_warps, 100.0 * o.occupancy,
               sl_occupancy_limits_text(o.limits, text, sizeof text));
    }
    printf("\nocc. = resident warps / the most an SM holds; regs and smem count whole allocation units\n"
           "(registers: 256 per warp; shared memory: 128 bytes, 256 on sm_75, plus 1 KB per block from sm_80 on).\n");
    return 0;
}

/* --resources FILE --ch NN: a line per kernel and architecture of the chapter. */
static int run_resources(const char *path, const char *chapter, int arch_only, int threads, size_t dynamic)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr,
                "occupancy: cannot read %s: a CUDA build writes it (configure with nvcc present, "
                "then cmake --build build)\n",
                path);
        return 2;
    }
    printf("chapter %s, %d threads per block, %zu bytes of dynamic shared memory (ptxas's figures from %s)\n\n",
           chapter, threads, dynamic, path);
    printf("%-7s %5s %7s %7s %10s %6s  %-24s %s\n", "arch", "regs", "smem", "blocks", "warps", "occ.",
           "limited by", "kernel");
    char line[4096];
    int rows = 0;
    size_t chlen = strlen(chapter);
    while (fgets(line, sizeof line, f)) {
        char file[256];
        int arch = 0, regs = 0, used = 0;
        size_t smem = 0, stack = 0, st = 0, ld = 0;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%255s sm_%d %d %zu %zu %zu %zu %n", file, &arch, &regs, &smem, &stack, &st, &ld, &used) < 7)
            continue;
        if (strncmp(file, chapter, chlen) != 0 || file[chlen] != '_') continue;
        if (arch_only && arch != arch_only) continue;
        char *kernel = line + used;
        kernel[strcspn(kernel, "\n")] = '\0';
        sl_occupancy o;
        char text[64];
        rows++;
        if (sl_occupancy_calc(arch, threads, regs, smem, dynamic, &o) != SL_OK) {
            printf("sm_%-4d %5d %7zu  %s  %s\n", arch, regs, smem, sl_last_error(), kernel);
            continue;
        }
        printf("sm_%-4d %5d %7zu %7d %6d/%-3d %5.1f%%  %-24s %s\n", arch, regs, smem, o.active_blocks,
               o.active_warps, o.max_warps, 100.0 * o.occupancy,
               sl_occupancy_limits_text(o.limits, text, sizeof text), kernel);
    }
    fclose(f);
    if (rows == 0) {
        fprintf(stderr, "occupancy: %s names no kernel of chapter %s\n", path, chapter);
        return 2;
    }
    printf("\nA kernel written for a fixed block size (__launch_bounds__) runs with that size, not --threads:\n"
           "look it up in the chapter's source and pass it.\n");
    return 0;
}

int main(int argc, char **argv)
{
    long long registers = 32, threads = 256, shared = 0, dynamic = 0, arch = 0;
    const char *resources = NULL, *chapter = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int ok = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--registers")) {
            ok = option_ll(argc, argv, &i, 0, 255, &registers);
        } else if (!strcmp(a, "--threads")) {
            ok = option_ll(argc, argv, &i, 1, 1024, &threads);
        } else if (!strcmp(a, "--shared")) {
            ok = option_ll(argc, argv, &i, 0, 1 << 30, &shared);
        } else if (!strcmp(a, "--dynamic")) {
            ok = option_ll(argc, argv, &i, 0, 1 << 30, &dynamic);
        } else if (!strcmp(a, "--arch")) {
            ok = option_ll(argc, argv, &i, 1, 1000, &arch);
            sl_arch_limits l;
            if (ok && sl_arch_limits_get((int)arch, &l) != SL_OK) {
                fprintf(stderr, "occupancy: --arch: %s\n", sl_last_error());
                return 2;
            }
        } else if (!strcmp(a, "--resources") && i + 1 < argc) {
            resources = argv[++i];
        } else if (!strcmp(a, "--ch") && i + 1 < argc) {
            chapter = argv[++i];
        } else {
            fprintf(stderr, "occupancy: unknown or incomplete option '%s'\n\n", a);
            ok = 0;
        }
        if (!ok) {
            usage(stderr);
            return 2;
        }
    }
    if (chapter && !resources) resources = "build/resources.txt";
    if (resources) {
        if (!chapter || strlen(chapter) != 2 || chapter[0] < '0' || chapter[0] > '9' || chapter[1] < '0' ||
            chapter[1] > '9') {
            fprintf(stderr, "occupancy: --resources needs --ch NN, a two-digit chapter (e.g. --ch 03)\n");
            return 2;
        }
        return run_resources(resources, chapter, (int)arch, (int)threads, (size_t)dynamic);
    }
    return run_one((int)arch, (int)threads, (int)registers, (size_t)shared, (size_t)dynamic);
}
