/* Chapter 03 — warps and divergence: every version's results equal the CPU
 * reference (the same arithmetic, kernels/03_divergence_work.h, so equal to
 * the bit) and its control's; every bad argument is rejected by name; the
 * emulator's modelled SIMT efficiency of the k-way split is 1/k within the
 * stated tolerance, the control's about 100%. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl_test.h"

static const size_t sizes[] = {1, 31, 33, 1021, 4099};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static uint32_t *random_x(size_t n, uint64_t seed)
{
    uint32_t *x = sl_test_alloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = (uint32_t)sl_rng_next(&seed);
    return x;
}

/* Version v (block `block`) on every size against the CPU, outputs poisoned. */
static void check_version(int v, sl_divergence_params p, int block)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("divergence");
    for (size_t s = 0; s < NSIZES; s++) {
        size_t n = sizes[s];
        uint32_t *x = random_x(n, seed + s), *got = sl_test_alloc(n * 4), *want = sl_test_alloc(n * 4);
        memset(got, 0xA5, n * 4);
        cr_assert_eq(sl_divergence_cpu(x, want, n, &p, v), SL_OK, "%s", sl_last_error());
        sl_opts opts = {v, block};
        sl_report r;
        cr_assert_eq(sl_divergence(x, got, n, &p, &opts, &r), SL_OK, "v%d n=%zu: %s", v, n, sl_last_error());
        cr_assert_eq(r.version, v);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(got[i], want[i], "v%d k=%d n=%zu: out[%zu] = %u, expected %u", v, p.k, n, i, got[i],
                         want[i]);
        free(x), free(got), free(want);
    }
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(divergence, split_by_lane_and_by_warp_equal_the_reference_for_every_k)
{
    for (int k = 1; k <= 32; k *= 2) {
        sl_divergence_params p = {k, 7, 0};
        check_version(1, p, 64);
        check_version(2, p, 64);
    }
}

Test(divergence, escape_time_in_every_order_equals_the_reference)
{
    sl_divergence_params p = {0, 64, 37};
    for (int v = 3; v <= 5; v++) check_version(v, p, 96);
}

Test(divergence, short_and_long_branches_mixed_and_grouped_equal_the_reference)
{
    sl_divergence_params p = {0, 9, 0};
    for (int v = 6; v <= 9; v++) check_version(v, p, 32);
}

/* The escape-time image really has a spread of trip counts (else sorting
 * would teach nothing), and the reference's count is right where it is
 * known by hand: c = 0 never escapes, c = 1.5 (outside |c| <= 2) escapes at
 * the second test (|z_1| = 1.5, |z_2| = 3.75 > 2). */
Test(divergence, escape_reference_spreads_and_matches_hand_counts)
{
    /* width 4: dx = 0.75, pixels at -2.25, -1.5, -0.75, 0; one row: dy = 2.5, y = -1.25 */
    size_t n = 4;
    uint32_t out[4];
    sl_divergence_params p = {0, 100, 4};
    cr_assert_eq(sl_divergence_cpu(NULL, out, n, &p, 3), SL_OK, "%s", sl_last_error());
    /* c = -2.25 - 1.25i: |c| > 2, escapes after one step (it = 1) */
    cr_assert_eq(out[0], 1u);
    size_t big = 4096;
    uint32_t *img = sl_test_alloc(big * 4);
    sl_divergence_params q = {0, 200, 64};
    cr_assert_eq(sl_divergence_cpu(NULL, img, big, &q, 3), SL_OK);
    size_t capped = 0, fast = 0;
    for (size_t i = 0; i < big; i++) capped += img[i] == 200, fast += img[i] <= 3;
    cr_assert(capped > big / 10 && fast > big / 10, "%zu capped, %zu escape within 3 of %zu", capped, fast, big);
    free(img);
}

Test(divergence, device_variant_equals_the_lifecycle)
{
    sl_test_require_device();
    size_t n = 2053;
    uint32_t *x = random_x(n, sl_test_seed("divergence_device")), *want = sl_test_alloc(n * 4),
             *got = sl_test_alloc(n * 4), *d_x = NULL, *d_out = NULL;
    cr_assert_eq(sl_alloc_device(&d_x, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_device(&d_out, n * 4), SL_OK);
    cr_assert_eq(sl_copy_to_device(d_x, x, n * 4), SL_OK);
    sl_divergence_params p = {8, 5, 50};
    for (int v = 1; v <= 9; v++) {
        sl_opts opts = {v, 128};
        double ms = -1.0;
        cr_assert_eq(sl_divergence_cpu(x, want, n, &p, v), SL_OK);
        cr_assert_eq(sl_divergence_device(d_x, d_out, n, &p, &opts, &ms), SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert_eq(sl_copy_to_host(got, d_out, n * 4), SL_OK);
        cr_assert(ms >= 0.0);
        cr_assert_eq(memcmp(got, want, n * 4), 0, "v%d differs from the reference", v);
    }
    cr_assert_eq(sl_divergence_device(x, d_out, n, &p, &(sl_opts){1, 0}, &(double){0}), SL_ERR_INVALID_ARGUMENT,
                 "a host x must be rejected");
    sl_free_device(d_x), sl_free_device(d_out);
    free(x), free(want), free(got);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(divergence, bad_arguments_are_rejected_by_name)
{
    uint32_t x[64] = {0}, out[64];
    sl_divergence_params p = {0, 0, 0};
    sl_test_expect_failure(sl_divergence(x, NULL, 64, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "out");
    sl_test_expect_failure(sl_divergence(NULL, out, 64, NULL, &(sl_opts){1, 0}, NULL), SL_ERR_INVALID_ARGUMENT, "x");
    sl_test_expect_failure(sl_divergence(x, out, 64, &(sl_divergence_params){3, 0, 0}, &(sl_opts){1, 0}, NULL),
                           SL_ERR_INVALID_ARGUMENT, "params->k = 3");
    sl_test_expect_failure(sl_divergence(x, out, 64, &(sl_divergence_params){64, 0, 0}, &(sl_opts){2, 0}, NULL),
                           SL_ERR_INVALID_ARGUMENT, "params->k = 64");
    sl_test_expect_failure(sl_divergence(x, out, 64, &(sl_divergence_params){0, -1, 0}, NULL, NULL),
                           SL_ERR_INVALID_ARGUMENT, "params->work");
    sl_test_expect_failure(sl_divergence(x, out, 64, &(sl_divergence_params){0, 0, 70000}, NULL, NULL),
                           SL_ERR_INVALID_ARGUMENT, "params->width");
    sl_test_expect_failure(sl_divergence(x, out, 64, &p, &(sl_opts){1, 48}, NULL), SL_ERR_INVALID_ARGUMENT,
                           "opts->block = 48");
    sl_test_expect_failure(sl_divergence(x, out, 64, &p, &(sl_opts){10, 0}, NULL), SL_ERR_INVALID_ARGUMENT,
                           "version");
    sl_test_expect_failure(sl_divergence(x, out, (size_t)UINT32_MAX + 1, &p, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "32-bit");
    sl_test_expect_failure(sl_divergence_device(x, out, 64, &p, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "kernel_ms");
    sl_test_expect_failure(sl_divergence_cpu(x, out, 64, &(sl_divergence_params){5, 0, 0}, 1),
                           SL_ERR_INVALID_ARGUMENT, "params->k = 5");
    sl_test_expect_failure(sl_divergence_modelled(x, 64, &p, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "out");
    sl_test_expect_failure(sl_divergence_warps(x, 64, &p, NULL, 2, 1, &(sl_divergence_warp){0}),
                           SL_ERR_INVALID_ARGUMENT, "warps 2 .. 2");
    /* v3-v5 do not read x; n == 0 is a no-op */
    cr_assert_eq(sl_divergence(NULL, out, 0, NULL, &(sl_opts){3, 0}, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_divergence(x, out, 0, NULL, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_divergence_control(1), 2);
    cr_assert_eq(sl_divergence_control(4), 3);
    cr_assert_eq(sl_divergence_control(8), 9);
    cr_assert_eq(sl_divergence_control(0), 0);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- the modelled counters: what the kernels' comments claim ---------------------- */

#define SIMT_TOLERANCE 0.10 /* relative, of 1/k: the loop dominates; its entry and exit run full */

Test(divergence, modelled_efficiency_of_the_k_way_split_is_one_over_k)
{
    if (sl_modelled_available() != SL_OK) cr_skip_test("no modelled counters in this build: %s", sl_last_error());
    size_t n = 1024;
    uint32_t *x = random_x(n, 3);
    for (int k = 1; k <= 32; k *= 2) {
        sl_divergence_params p = {k, 64, 0};
        sl_modelled split, control;
        cr_assert_eq(sl_divergence_modelled(x, n, &p, &(sl_opts){1, 256}, &split), SL_OK, "%s", sl_last_error());
        cr_assert_eq(sl_divergence_modelled(x, n, &p, &(sl_opts){2, 256}, &control), SL_OK, "%s", sl_last_error());
        double want = 1.0 / k;
        cr_assert(split.simt_efficiency >= want * (1 - SIMT_TOLERANCE) &&
                      split.simt_efficiency <= want * (1 + SIMT_TOLERANCE) + 0.02,
                  "k = %d: split SIMT efficiency %.4f, expected 1/k = %.4f within %.0f%%", k, split.simt_efficiency,
                  want, 100 * SIMT_TOLERANCE);
        cr_assert(control.simt_efficiency >= 0.97, "k = %d: control %.4f, expected ~1", k, control.simt_efficiency);
        cr_assert_eq(control.warps, split.warps);
        if (k > 1) cr_assert(split.branches_diverged >= split.warps, "k = %d: %llu diverged in %llu warps", k,
                             split.branches_diverged, split.warps);
    }
    free(x);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(divergence, modelled_long_branch_halves_and_sorting_helps_escape_time)
{
    if (sl_modelled_available() != SL_OK) cr_skip_test("no modelled counters in this build: %s", sl_last_error());
    size_t n = 2048;
    uint32_t *x = random_x(n, 5);
    sl_modelled m[10];
    sl_divergence_params p = {0, 64, 64};
    for (int v = 3; v <= 9; v++)
        cr_assert_eq(sl_divergence_modelled(x, n, &p, &(sl_opts){v, 256}, &m[v]), SL_OK, "v%d: %s", v,
                     sl_last_error());
    /* random keys: both loops in every warp, half the lanes each */
    cr_assert(m[8].simt_efficiency > 0.45 && m[8].simt_efficiency < 0.6, "v8 %.3f", m[8].simt_efficiency);
    cr_assert(m[9].simt_efficiency > 0.95, "v9 %.3f", m[9].simt_efficiency);
    /* the escape loop: shuffled worst, sorted best */
    cr_assert(m[4].simt_efficiency < m[3].simt_efficiency, "v4 %.3f v3 %.3f", m[4].simt_efficiency,
              m[3].simt_efficiency);
    cr_assert(m[5].simt_efficiency > 0.9 && m[5].simt_efficiency > m[3].simt_efficiency, "v5 %.3f v3 %.3f",
              m[5].simt_efficiency, m[3].simt_efficiency);
    free(x);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(divergence, per_warp_view_models_each_warp)
{
    sl_test_require_device();
    size_t n = 256;
    uint32_t *x = random_x(n, 9);
    sl_divergence_warp w[8];
    sl_divergence_params p = {4, 32, 0};
    cr_assert_eq(sl_divergence_warps(x, n, &p, &(sl_opts){1, 128}, 0, 8, w), SL_OK, "%s", sl_last_error());
    for (int i = 0; i < 8; i++) {
        cr_assert(w[i].clock_stop >= w[i].clock_start, "warp %d: clocks %lld .. %lld", i, w[i].clock_start,
                  w[i].clock_stop);
        if (w[i].modelled)
            cr_assert(w[i].simt_efficiency > 0.2 && w[i].simt_efficiency < 0.3, "warp %d: %.3f (k = 4)", i,
                      w[i].simt_efficiency);
    }
    free(x);
    cr_assert_eq(sl_alloc_live_count(), 0);
}
