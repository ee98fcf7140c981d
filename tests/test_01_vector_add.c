/* Chapter 01 — vector add: every version, every size class, every bad input.
 *
 * The reference is the sum in double precision on the CPU; a float sum of two
 * floats rounds once, so each output must equal the reference rounded to
 * float exactly — any other value is a bug. Outputs are poisoned with NaN
 * before every run so a skipped element cannot pass. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl_test.h"

static const size_t sizes[] = {1, 2, 31, 32, 33, 1000003, (size_t)1 << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

typedef struct inputs {
    float *a, *b, *c;
    double *ref;
    size_t n;
} inputs;

/* Inputs at an element offset `shift` from a 16-byte boundary, so v3's head
 * and tail code paths run. */
static inputs make_inputs(size_t n, uint64_t seed, size_t shift)
{
    inputs in;
    in.n = n;
    in.a = (float *)sl_test_alloc((n + 4) * sizeof(float));
    in.b = (float *)sl_test_alloc((n + 4) * sizeof(float));
    in.c = (float *)sl_test_alloc((n + 4) * sizeof(float));
    in.ref = (double *)sl_test_alloc(n * sizeof(double));
    sl_fill_uniform_f32(in.a + shift, n, seed, -1000.0f, 1000.0f);
    sl_fill_uniform_f32(in.b + shift, n, seed ^ 0x5bd1e995u, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
        in.ref[i] = (double)(float)((double)in.a[shift + i] + (double)in.b[shift + i]);
    return in;
}

static void free_inputs(inputs *in)
{
    free(in->a);
    free(in->b);
    free(in->c);
    free(in->ref);
}

static void check_version_on_all_sizes(int version, int block, size_t shift)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("vector_add");
    for (size_t s = 0; s < NSIZES; s++) {
        size_t n = sizes[s];
        inputs in = make_inputs(n, seed + s, shift);
        float *c = in.c + shift;
        sl_poison_f32(in.c, n + 4);
        sl_opts opts = {version, block};
        sl_report rep;
        sl_status st = sl_vector_add(in.a + shift, in.b + shift, c, n, &opts, &rep);
        cr_assert_eq(st, SL_OK, "v%d n=%zu block=%d: %s", version, n, block, sl_last_error());
        sl_check chk = sl_compare_f32(c, in.ref, n, 0.0);
        cr_assert(chk.passed,
                  "v%d n=%zu block=%d shift=%zu seed=%llu: element %zu is %.9g, expected %.9g "
                  "(%zu non-finite)",
                  version, n, block, shift, (unsigned long long)seed, chk.worst, c[chk.worst],
                  in.ref[chk.worst], chk.nonfinite);
        /* Nothing outside [0, n) may be written. */
        for (size_t i = 0; i < shift; i++) cr_assert(isnan(in.c[i]), "v%d wrote before c[0]", version);
        for (size_t i = shift + n; i < n + 4; i++) cr_assert(isnan(in.c[i]), "v%d wrote past c[n-1]", version);
        cr_assert_eq(rep.version, version);
        cr_assert_eq(rep.bytes_h2d, 2 * n * sizeof(float));
        cr_assert_eq(rep.bytes_d2h, n * sizeof(float));
        free_inputs(&in);
    }
    cr_assert_eq(sl_alloc_live_count(), 0, "device buffers leaked");
}

Test(vector_add, v1_matches_reference_on_all_sizes) { check_version_on_all_sizes(1, 256, 0); }
Test(vector_add, v2_matches_reference_on_all_sizes) { check_version_on_all_sizes(2, 256, 0); }
Test(vector_add, v3_matches_reference_on_all_sizes) { check_version_on_all_sizes(3, 256, 0); }
Test(vector_add, v3_handles_every_misalignment)
{
    for (size_t shift = 1; shift < 4; shift++) check_version_on_all_sizes(3, 256, shift);
}
Test(vector_add, odd_block_sizes_work)
{
    for (int v = 1; v <= 3; v++) {
        check_version_on_all_sizes(v, 33, 0);
        check_version_on_all_sizes(v, 1024, 0);
    }
}
Test(vector_add, version_zero_picks_the_best)
{
    sl_test_require_device();
    float a[3] = {1, 2, 3}, b[3] = {4, 5, 6}, c[3];
    sl_opts opts = {0, 0};
    sl_report rep;
    cr_assert_eq(sl_vector_add(a, b, c, 3, &opts, &rep), SL_OK, "%s", sl_last_error());
    cr_assert_eq(rep.version, sl_vector_add_version_count());
    cr_assert_eq(rep.block, 256);
    cr_assert(c[0] == 5 && c[1] == 7 && c[2] == 9);
}

Test(vector_add, report_times_every_phase)
{
    sl_test_require_device();
    size_t n = 1 << 16;
    inputs in = make_inputs(n, 7, 0);
    sl_report rep;
    cr_assert_eq(sl_vector_add(in.a, in.b, in.c, n, NULL, &rep), SL_OK, "%s", sl_last_error());
    for (int p = 0; p < SL_PHASE_COUNT; p++)
        cr_assert(rep.phase_ms[p] >= 0.0 && isfinite(rep.phase_ms[p]), "phase %d", p);
    cr_assert(rep.total_ms >= rep.phase_ms[SL_PHASE_KERNEL]);
    cr_assert_eq(rep.emulated, sl_backend_is_emulator());
    cr_assert(rep.grid >= 1);
    free_inputs(&in);
}

/* ---- bad input: a status and a message naming the argument ---------------- */

Test(vector_add, null_pointers_are_rejected_by_name)
{
    float x[4] = {0};
    sl_test_expect_failure(sl_vector_add(NULL, x, x, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "a is NULL");
    sl_test_expect_failure(sl_vector_add(x, NULL, x, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "b is NULL");
    sl_test_expect_failure(sl_vector_add(x, x, NULL, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "c is NULL");
}

Test(vector_add, byte_count_overflow_is_rejected)
{
    float x[4] = {0};
    sl_test_expect_failure(sl_vector_add(x, x, x, SIZE_MAX / 2, NULL, NULL), SL_ERR_OVERFLOW, "n");
}

Test(vector_add, bad_block_sizes_are_rejected)
{
    float x[4] = {0};
    sl_opts too_big = {1, 1025}, negative = {1, -32};
    sl_test_expect_failure(sl_vector_add(x, x, x, 4, &too_big, NULL), SL_ERR_INVALID_ARGUMENT, "opts->block");
    sl_test_expect_failure(sl_vector_add(x, x, x, 4, &negative, NULL), SL_ERR_INVALID_ARGUMENT, "opts->block");
}

Test(vector_add, bad_versions_are_rejected)
{
    float x[4] = {0};
    sl_opts v9 = {9, 256}, vneg = {-1, 256};
    sl_test_expect_failure(sl_vector_add(x, x, x, 4, &v9, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
    sl_test_expect_failure(sl_vector_add(x, x, x, 4, &vneg, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
}

Test(vector_add, zero_elements_is_a_no_op)
{
    /* No device is needed to add nothing: n == 0 returns before any CUDA call. */
    float x[1] = {42.0f};
    sl_report rep;
    cr_assert_eq(sl_vector_add(x, x, x, 0, NULL, &rep), SL_OK, "%s", sl_last_error());
    cr_assert_eq(x[0], 42.0f);
    cr_assert_eq(rep.bytes_h2d, 0);
}

/* ---- no silent fallback: the version asked for is the version that runs ---- */
Test(vector_add, v3_on_buffers_without_a_common_alignment_is_refused_not_run_as_v2)
{
    sl_test_require_device();
    size_t n = 1001;
    inputs in = make_inputs(n + 1, sl_test_seed("v3 alignment"), 0);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    size_t bytes = (n + 1) * sizeof(float);
    cr_assert_eq(sl_alloc_device(&d_a, bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_b, bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_c, bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_a, in.a, bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_b, in.b, bytes), SL_OK, "%s", sl_last_error());
    /* a starts one float later than b and c: no float4 view of all three. */
    sl_opts v3 = {3, 256}, best = {0, 256};
    double ms = -1.0;
    sl_test_expect_failure(sl_vector_add_device(d_a + 1, d_b, d_c, n, &v3, &ms), SL_ERR_INVALID_ARGUMENT,
                   "opts->version = 3");
    cr_assert(strstr(sl_last_error(), "version 2"), "%s", sl_last_error());
    /* Version 0 picks what can run: v2 here, and the result is right. */
    cr_assert_eq(sl_fill_bytes_device(d_c, 0xFF, bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_vector_add_device(d_a + 1, d_b, d_c, n, &best, &ms), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_host(in.c, d_c, n * sizeof(float)), SL_OK, "%s", sl_last_error());
    for (size_t i = 0; i < n; i++) {
        float expect = in.a[i + 1] + in.b[i];
        cr_assert(in.c[i] == expect, "element %zu: %g, expected %g", i, in.c[i], expect);
    }
    cr_assert_eq(sl_free_device(d_a), SL_OK);
    cr_assert_eq(sl_free_device(d_b), SL_OK);
    cr_assert_eq(sl_free_device(d_c), SL_OK);
    free_inputs(&in);
}

Test(vector_add, the_report_names_the_version_that_ran)
{
    sl_test_require_device();
    for (int v = 0; v <= sl_vector_add_version_count(); v++) {
        size_t n = 1003;
        inputs in = make_inputs(n, 11, 1); /* host data at odd offsets: the device copies are aligned */
        sl_opts opts = {v, 0};
        sl_report rep;
        cr_assert_eq(sl_vector_add(in.a + 1, in.b + 2, in.c + 3, n, &opts, &rep), SL_OK, "%s", sl_last_error());
        cr_assert_eq(rep.version, v ? v : 3, "asked for v%d, report says v%d", v, rep.version);
        free_inputs(&in);
    }
}

/* ---- the CPU baselines are tested too: the benchmark compares against them -- */
Test(vector_add, cpu_baselines_match_reference)
{
    size_t n = 1000003;
    inputs in = make_inputs(n, sl_test_seed("cpu_baselines"), 0);
    sl_poison_f32(in.c, n);
    sl_vector_add_cpu(in.a, in.b, in.c, n);
    cr_assert(sl_compare_f32(in.c, in.ref, n, 0.0).passed, "plain loop");
    sl_poison_f32(in.c, n);
    sl_vector_add_cpu_omp(in.a, in.b, in.c, n);
    cr_assert(sl_compare_f32(in.c, in.ref, n, 0.0).passed, "OpenMP loop");
    free_inputs(&in);
}

/* ---- hardening: what the device entry points and baselines are given ------- */

Test(vector_add, cpu_baselines_check_their_arguments)
{
    float x[4] = {0};
    sl_test_expect_failure(sl_vector_add_cpu(NULL, x, x, 4), SL_ERR_INVALID_ARGUMENT, "a is NULL");
    sl_test_expect_failure(sl_vector_add_cpu_omp(x, x, NULL, 4), SL_ERR_INVALID_ARGUMENT, "c is NULL");
    sl_test_expect_failure(sl_vector_add_cpu_omp(x, x, x, SIZE_MAX), SL_ERR_OVERFLOW, "n");
    cr_assert_eq(sl_vector_add_cpu(NULL, NULL, NULL, 0), SL_OK);
}

Test(vector_add, host_arrays_given_to_the_device_entry_points_are_named)
{
    sl_test_require_device();
    float host[64] = {0};
    float *d = NULL;
    double ms = 0.0;
    sl_opts v2 = {2, 256};
    cr_assert_eq(sl_alloc_device(&d, sizeof host), SL_OK, "%s", sl_last_error());
    sl_test_expect_failure(sl_vector_add_device(host, d, d, 64, &v2, &ms), SL_ERR_INVALID_ARGUMENT,
                           "a = ");
    sl_test_expect_failure(sl_vector_add_device(d, d, host, 64, &v2, &ms), SL_ERR_INVALID_ARGUMENT,
                           "host memory");
    sl_test_expect_failure(sl_vendor_saxpy_device(1.0f, host, d, 64, &ms), SL_ERR_INVALID_ARGUMENT, "x = ");
    sl_test_expect_failure(sl_vendor_saxpy_device(1.0f, d, d, SIZE_MAX / 2, &ms), SL_ERR_OVERFLOW, "n");
    cr_assert_eq(sl_free_device(d), SL_OK);
}

Test(vector_add, device_pointers_inside_an_element_are_refused)
{
    sl_test_require_device();
    float *d = NULL;
    double ms = 0.0;
    cr_assert_eq(sl_alloc_device(&d, 1024), SL_OK, "%s", sl_last_error());
    for (int v = 1; v <= 3; v++)
        for (int off = 1; off <= 2; off++) {
            sl_opts opts = {v, 128};
            const float *odd = (const float *)((const char *)d + off);
            sl_test_expect_failure(sl_vector_add_device(odd, odd, (float *)odd, 100, &opts, &ms),
                                   SL_ERR_INVALID_ARGUMENT, "not aligned");
        }
    cr_assert_eq(sl_free_device(d), SL_OK);
}
