/* Chapter 03 — divergence, warp by warp.
 *
 * Runs one version over n items with the whole lifecycle, checks it against
 * the CPU, then shows the first warps one line each: on a GPU, clock64() at
 * each warp's entry and exit as a bar (a warp split k ways runs its paths
 * one after another, so its bar is about k times the control's); without
 * one, each warp's SIMT efficiency as the emulator models it (a bar of 32
 * lanes, filled by the lanes that were active per issue).
 *
 * Usage: 03_divergence [version 1-9] [k 1-32] [n] [warps to show]
 *        defaults: 1 4 4096 8 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

#define BAR 48

static void bar(double fraction)
{
    int filled = (int)(fraction * BAR + 0.5);
    if (filled > BAR) filled = BAR;
    putchar('|');
    for (int i = 0; i < BAR; i++) putchar(i < filled ? '#' : '.');
    putchar('|');
}

static void show_warps(const sl_divergence_warp *w, size_t count, int on_gpu)
{
    if (on_gpu) {
        long long longest = 1;
        for (size_t i = 0; i < count; i++)
            if (w[i].clock_stop - w[i].clock_start > longest) longest = w[i].clock_stop - w[i].clock_start;
        printf("Each warp from entry to its last lane's exit, clock64() cycles of its SM (measured):\n");
        for (size_t i = 0; i < count; i++) {
            long long c = w[i].clock_stop - w[i].clock_start;
            printf("  warp %3zu ", i);
            bar((double)c / (double)longest);
            printf(" %10lld cycles\n", c);
        }
        return;
    }
    if (!w[0].modelled) {
        printf("No per-warp view here: no GPU, and this build has no modelled counters (%s).\n", sl_last_error());
        return;
    }
    printf("Each warp's SIMT efficiency, modelled by the emulator (lanes active per issue / 32; no GPU here):\n");
    for (size_t i = 0; i < count; i++) {
        printf("  warp %3zu ", i);
        bar(w[i].simt_efficiency);
        printf(" %5.1f%%  %llu diverged branches\n", 100.0 * w[i].simt_efficiency, w[i].branches_diverged);
    }
}

int main(int argc, char **argv)
{
    long long version, k, n_arg, show;
    /* --help or -h: the usage on stdout, exit 0; a bad argument: on stderr, exit 2. */
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    if (help || !sl_arg_ll(argc, argv, 1, 1, 0, 1000, &version) || !sl_arg_ll(argc, argv, 2, 4, 0, 1000, &k) ||
        !sl_arg_ll(argc, argv, 3, 4096, 1, 1LL << 32, &n_arg) || !sl_arg_ll(argc, argv, 4, 8, 1, 1024, &show)) {
        fprintf(help ? stdout : stderr, "usage: %s [version 1-%d] [k 1-32] [n] [warps to show]\n"
                "       defaults: 1 4 4096 8\n", argv[0],
                sl_divergence_version_count());
        return help ? 0 : 2;
    }
    size_t n = (size_t)n_arg;
    uint32_t *x = malloc(n * 4), *out = malloc(n * 4), *want = malloc(n * 4);
    sl_divergence_warp *w = calloc((size_t)show, sizeof *w);
    if (!x || !out || !want || !w) {
        fprintf(stderr, "out of host memory for n = %zu\n", n);
        return 1;
    }
    uint64_t state = 3;
    for (size_t i = 0; i < n; i++) x[i] = (uint32_t)sl_rng_next(&state);
    sl_divergence_params p = {(int)k, 128, 64};
    sl_opts opts = {(int)version, 256};
    sl_report r;
    int rc = 1;
    printf("Chapter 03 on %s: %s, k = %lld, n = %zu items, %d steps each\n", sl_backend_name(),
           sl_divergence_version_name((int)version) ? sl_divergence_version_name((int)version) : "?", k, n, p.work);
    int modelling = sl_modelled_open(); /* the emulator's timing model, beside its CPU times */
    if (sl_divergence(x, out, n, &p, &opts, &r) != SL_OK) {
        fprintf(stderr, "sl_divergence failed: %s\n", sl_last_error());
        goto done;
    }
    printf("  copy in %.3f ms, kernel %.3f ms%s, copy back %.3f ms; %u blocks of %d threads\n",
           r.phase_ms[SL_PHASE_H2D], r.phase_ms[SL_PHASE_KERNEL], r.emulated ? " (emulated: CPU time)" : "",
           r.phase_ms[SL_PHASE_D2H], r.grid, r.block);
    sl_modelled_print(modelling, 2);
    if (sl_divergence_cpu(x, want, n, &p, r.version) != SL_OK) {
        fprintf(stderr, "%s\n", sl_last_error());
        goto done;
    }
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) wrong += out[i] != want[i];
    printf("  check against the CPU: %s (%zu of %zu differ)\n\n", wrong ? "WRONG" : "equal, bit for bit", wrong, n);
    size_t warps = (n + 31) / 32;
    size_t count = (size_t)show < warps ? (size_t)show : warps;
    if (sl_divergence_warps(x, n, &p, &opts, 0, count, w) != SL_OK) {
        fprintf(stderr, "sl_divergence_warps failed: %s\n", sl_last_error());
        goto done;
    }
    show_warps(w, count, !sl_backend_is_emulator());
    if (sl_divergence_control(r.version) != r.version)
        printf("\nCompare with its control: %s %d %lld %zu\n", argv[0], sl_divergence_control(r.version), k, n);
    else /* v2, v3, v7, v9 are the controls: point at the divergent twin */
        printf("\nThis is a control; compare with its divergent twin: %s %d %lld %zu\n", argv[0],
               r.version == 3 ? 4 : r.version - 1, k, n);
    rc = wrong ? 1 : 0;
done:
    free(x), free(out), free(want), free(w);
    return rc;
}
