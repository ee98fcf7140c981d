/* Chapter 02 — when the GPU pays: every operation against an independent
 * reference, the round trips from pageable and pinned memory, copies,
 * launch modes, small requests in every mode, overlap in every chunking,
 * and every bad argument.
 *
 * References are computed here in double precision: x + y rounds once, so
 * vector add must equal it rounded to float exactly; saxpy's fmaf rounds
 * once too, so it must be within one float rounding (1e-7 relative) of the
 * double value. Outputs are poisoned with NaN before every run. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sl_test.h"

static const size_t sizes[] = {1, 31, 33, 257, 1000003};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define ALPHA 2.5f

static double reference(sl_pays_op op, float x, float y)
{
    return op == SL_PAYS_SAXPY ? (double)ALPHA * x + y : (double)x + y;
}

static void expect_matches(sl_pays_op op, const float *x, const float *y, const float *out, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        double want = reference(op, x[i], y[i]);
        double tol = op == SL_PAYS_SAXPY ? 1e-7 * fabs(want) + 1e-30 : 0.0;
        if (op == SL_PAYS_VECTOR_ADD) want = (float)want;
        cr_assert(fabs(out[i] - want) <= tol, "%s %s n=%zu: out[%zu] = %.9g, expected %.9g", what,
                  sl_pays_op_name(op), n, i, out[i], want);
    }
}

static float *random_floats(size_t n, uint64_t seed)
{
    float *p = sl_test_alloc(n * sizeof(float));
    sl_fill_uniform_f32(p, n, seed, -100.0f, 100.0f);
    return p;
}

Test(gpu_pays, cpu_baselines_match_the_double_reference)
{
    uint64_t seed = sl_test_seed("cpu_baselines");
    for (size_t s = 0; s < NSIZES; s++) {
        size_t n = sizes[s];
        float *x = random_floats(n, seed + s), *y = random_floats(n, seed + s + 100), *out = sl_test_alloc(n * 4);
        for (int op = 0; op < 2; op++) {
            sl_poison_f32(out, n);
            cr_assert_eq(sl_pays_cpu((sl_pays_op)op, ALPHA, x, y, out, n), SL_OK, "%s", sl_last_error());
            expect_matches((sl_pays_op)op, x, y, out, n, "cpu");
            sl_poison_f32(out, n);
            cr_assert_eq(sl_pays_cpu_omp((sl_pays_op)op, ALPHA, x, y, out, n), SL_OK, "%s", sl_last_error());
            expect_matches((sl_pays_op)op, x, y, out, n, "cpu_omp");
        }
        free(x);
        free(y);
        free(out);
    }
}

Test(gpu_pays, kernel_and_both_round_trips_match_on_every_size)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("kernel_and_round_trips");
    for (size_t s = 0; s < NSIZES; s++) {
        size_t n = sizes[s], bytes = n * sizeof(float);
        float *x = random_floats(n, seed + s), *y = random_floats(n, seed + s + 7), *out = sl_test_alloc(bytes);
        float *dx, *dy, *dout, *px, *py, *pout;
        cr_assert_eq(sl_alloc_device(&dx, bytes), SL_OK);
        cr_assert_eq(sl_alloc_device(&dy, bytes), SL_OK);
        cr_assert_eq(sl_alloc_device(&dout, bytes), SL_OK);
        cr_assert_eq(sl_alloc_pinned(&px, bytes), SL_OK, "%s", sl_last_error());
        cr_assert_eq(sl_alloc_pinned(&py, bytes), SL_OK);
        cr_assert_eq(sl_alloc_pinned(&pout, bytes), SL_OK);
        memcpy(px, x, bytes);
        memcpy(py, y, bytes);
        for (int op = 0; op < 2; op++) {
            double ms = -1;
            /* the kernel alone, on device buffers */
            cr_assert_eq(sl_copy_to_device(dx, x, bytes), SL_OK);
            cr_assert_eq(sl_copy_to_device(dy, y, bytes), SL_OK);
            cr_assert_eq(sl_fill_bytes_device(dout, 0xFF, bytes), SL_OK);
            cr_assert_eq(sl_pays_device((sl_pays_op)op, ALPHA, dx, dy, dout, n, &ms), SL_OK, "%s", sl_last_error());
            cr_assert(ms >= 0);
            cr_assert_eq(sl_copy_to_host(out, dout, bytes), SL_OK);
            expect_matches((sl_pays_op)op, x, y, out, n, "kernel");
            /* with both copies, from pageable and from pinned memory */
            cr_assert_eq(sl_fill_bytes_device(dx, 0xFF, bytes), SL_OK); /* the copy in must bring x */
            sl_poison_f32(out, n);
            cr_assert_eq(sl_pays_round_trip((sl_pays_op)op, ALPHA, x, y, out, n, dx, dy, dout, &ms), SL_OK, "%s",
                         sl_last_error());
            expect_matches((sl_pays_op)op, x, y, out, n, "pageable round trip");
            sl_poison_f32(pout, n);
            cr_assert_eq(sl_pays_round_trip((sl_pays_op)op, ALPHA, px, py, pout, n, dx, dy, dout, &ms), SL_OK);
            expect_matches((sl_pays_op)op, x, y, pout, n, "pinned round trip");
        }
        sl_free_device(dx);
        sl_free_device(dy);
        sl_free_device(dout);
        sl_free_pinned(px);
        sl_free_pinned(py);
        sl_free_pinned(pout);
        free(x);
        free(y);
        free(out);
    }
    cr_assert_eq(sl_alloc_live_count(), 0, "buffers leaked");
}

Test(gpu_pays, bad_arguments_are_named)
{
    float a[4] = {0}, b[4] = {0}, c[4];
    double ms;
    sl_test_expect_failure(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, NULL, b, c, 4), SL_ERR_INVALID_ARGUMENT, "x is NULL");
    sl_test_expect_failure(sl_pays_cpu_omp(SL_PAYS_SAXPY, 1.0f, a, b, NULL, 4), SL_ERR_INVALID_ARGUMENT, "out is NULL");
    sl_test_expect_failure(sl_pays_cpu((sl_pays_op)7, 1.0f, a, b, c, 4), SL_ERR_INVALID_ARGUMENT, "op = 7");
    sl_test_expect_failure(sl_pays_cpu(SL_PAYS_VECTOR_ADD, 1.0f, a, b, c, SIZE_MAX / 2), SL_ERR_OVERFLOW, "n");
    cr_assert_eq(sl_pays_cpu(SL_PAYS_VECTOR_ADD, 1.0f, NULL, NULL, NULL, 0), SL_OK, "n = 0 is a no-op");
    sl_test_expect_failure(sl_pays_device(SL_PAYS_SAXPY, 1.0f, a, b, c, 4, NULL), SL_ERR_INVALID_ARGUMENT, "kernel_ms");
    sl_test_expect_failure(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, a, b, c, 4, NULL, NULL, NULL, &ms),
                           SL_ERR_INVALID_ARGUMENT, "dx is NULL");
    sl_test_expect_failure(sl_pays_copy_timed(NULL, a, 16, 1, &ms), SL_ERR_INVALID_ARGUMENT, "device is NULL");
    sl_test_expect_failure(sl_launch_overhead(SL_LAUNCH_ASYNC, 0, &ms), SL_ERR_INVALID_ARGUMENT, "count = 0");
    sl_test_expect_failure(sl_launch_overhead((sl_launch_mode)5, 1, &ms), SL_ERR_INVALID_ARGUMENT, "mode = 5");
    sl_test_expect_failure(sl_overlap_run(a, c, 4, 8, 0, 1, NULL, NULL, &ms), SL_ERR_INVALID_ARGUMENT, "chunks = 0");
    sl_test_expect_failure(sl_overlap_run(a, c, 4, 8, 1, 17, NULL, NULL, &ms), SL_ERR_INVALID_ARGUMENT, "streams = 17");
    sl_test_expect_failure(sl_poly_cpu(a, c, 4, -1), SL_ERR_INVALID_ARGUMENT, "terms = -1");
    sl_request bad[2] = {{0, 4, 1.0f, 0.0f}, {2, 3, 1.0f, 0.0f}}; /* the second ends at 5 > 4 */
    sl_test_expect_failure(sl_requests_cpu(a, c, 4, bad, 2), SL_ERR_INVALID_ARGUMENT, "list[1]");
    sl_test_expect_failure(sl_requests_cpu(a, c, 4, bad, 0), SL_ERR_INVALID_ARGUMENT, "count = 0");
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(gpu_pays, copies_arrive_both_ways_from_pageable_and_pinned)
{
    sl_test_require_device();
    const size_t bytes = 3 * 4096 + 12;
    unsigned char *src = sl_test_alloc(bytes), *back = sl_test_alloc(bytes), *pinned;
    void *dev;
    for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 7 + 3);
    cr_assert_eq(sl_alloc_device(&dev, bytes), SL_OK);
    cr_assert_eq(sl_alloc_pinned(&pinned, bytes), SL_OK);
    double ms = -1;
    cr_assert_eq(sl_pays_copy_timed(dev, src, bytes, 1, &ms), SL_OK, "%s", sl_last_error());
    cr_assert(ms >= 0);
    memset(pinned, 0, bytes);
    cr_assert_eq(sl_pays_copy_timed(dev, pinned, bytes, 0, &ms), SL_OK);
    cr_assert(memcmp(pinned, src, bytes) == 0, "device -> pinned host lost bytes");
    memset(pinned, 0x5A, bytes);
    cr_assert_eq(sl_pays_copy_timed(dev, pinned, bytes, 1, &ms), SL_OK);
    cr_assert_eq(sl_pays_copy_timed(dev, back, bytes, 0, &ms), SL_OK);
    for (size_t i = 0; i < bytes; i++) cr_assert_eq(back[i], 0x5A, "byte %zu", i);
    sl_free_device(dev);
    sl_free_pinned(pinned);
    free(src);
    free(back);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* A graph column may be missing from a backend, but then it says so. */
static void expect_ok_or_unsupported_graph(sl_status st, const char *what)
{
    if (st == SL_ERR_UNSUPPORTED) {
        cr_assert(strstr(sl_last_error(), "graph") != NULL, "%s: unsupported without saying why: %s", what,
                  sl_last_error());
        return;
    }
    cr_assert_eq(st, SL_OK, "%s: %s", what, sl_last_error());
}

Test(gpu_pays, every_launch_mode_runs_and_takes_time)
{
    sl_test_require_device();
    for (int mode = 0; mode < 3; mode++)
        for (int count = 1; count <= 100; count *= 10) {
            double ms = -1;
            sl_status st = sl_launch_overhead((sl_launch_mode)mode, count, &ms);
            if (mode == SL_LAUNCH_GRAPH) expect_ok_or_unsupported_graph(st, "launch graph");
            else cr_assert_eq(st, SL_OK, "%s x%d: %s", sl_launch_mode_name((sl_launch_mode)mode), count, sl_last_error());
            if (st == SL_OK) cr_assert(ms > 0, "%d launches took no time", count);
        }
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(gpu_pays, small_requests_match_the_cpu_in_every_mode)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("small_requests");
    const size_t n = 5000;
    const int count = 37;
    float *in = random_floats(n, seed), *want = sl_test_alloc(n * 4), *got = sl_test_alloc(n * 4);
    sl_request list[37];
    uint64_t state = seed;
    for (int q = 0; q < count; q++) { /* sizes 1..300 at random places, some overlapping nothing */
        unsigned len = 1 + (unsigned)(sl_rng_next(&state) % 300);
        size_t at = (size_t)(sl_rng_next(&state) % (n - len + 1));
        list[q] = (sl_request){at, len, (float)(q % 5) - 2.0f, 0.25f * (float)q};
    }
    /* The reference: later requests overwrite earlier ones where they overlap,
     * which the batched launch does not order; so make them disjoint. */
    for (int q = 0; q < count; q++) list[q].offset = (size_t)q * 130, list[q].count = list[q].count % 130 + 1;
    sl_poison_f32(want, n);
    for (int q = 0; q < count; q++)
        for (unsigned i = 0; i < list[q].count; i++)
            want[list[q].offset + i] = (float)((double)list[q].scale * in[list[q].offset + i] + list[q].bias);
    float *d_in, *d_out;
    sl_request *d_list;
    cr_assert_eq(sl_alloc_device(&d_in, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_device(&d_out, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_device(&d_list, sizeof list), SL_OK);
    cr_assert_eq(sl_copy_to_device(d_in, in, n * 4), SL_OK);
    for (int mode = 0; mode < 3; mode++) {
        double ms = -1;
        cr_assert_eq(sl_fill_bytes_device(d_out, 0xFF, n * 4), SL_OK);
        sl_status st = sl_requests_device((sl_batch_mode)mode, d_in, d_out, n, list, count, d_list, &ms);
        if (mode == SL_BATCH_GRAPH) expect_ok_or_unsupported_graph(st, "requests graph");
        else cr_assert_eq(st, SL_OK, "%s: %s", sl_batch_mode_name((sl_batch_mode)mode), sl_last_error());
        if (st != SL_OK) continue;
        cr_assert_eq(sl_copy_to_host(got, d_out, n * 4), SL_OK);
        for (size_t i = 0; i < n; i++)
            cr_assert(memcmp(&got[i], &want[i], 4) == 0 || (isnan(got[i]) && isnan(want[i])),
                      "%s: out[%zu] = %g, expected %g", sl_batch_mode_name((sl_batch_mode)mode), i, got[i], want[i]);
    }
    /* and on the CPU */
    sl_poison_f32(got, n);
    cr_assert_eq(sl_requests_cpu(in, got, n, list, count), SL_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert(memcmp(&got[i], &want[i], 4) == 0 || (isnan(got[i]) && isnan(want[i])), "cpu: out[%zu]", i);
    sl_free_device(d_in);
    sl_free_device(d_out);
    sl_free_device(d_list);
    free(in);
    free(want);
    free(got);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* p(x) = sum_{k=1..terms} x^(k-1) / (k+1): the polynomial Horner's rule evaluates. */
static double poly_reference(double x, int terms)
{
    double sum = 0.0, power = 1.0;
    for (int k = 1; k <= terms; k++, power *= x) sum += power / (k + 1);
    return sum;
}

Test(gpu_pays, overlap_gives_the_same_answer_in_every_chunking)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("overlap");
    const size_t n = 100003; /* a prime: no chunking divides it */
    const int terms = 12;
    float *x = sl_test_alloc(n * 4), *y, *cpu = sl_test_alloc(n * 4);
    sl_fill_uniform_f32(x, n, seed, -1.0f, 1.0f);
    cr_assert_eq(sl_poly_cpu(x, cpu, n, terms), SL_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert(fabs(cpu[i] - poly_reference(x[i], terms)) < 1e-5, "poly_cpu at %zu: %g", i, cpu[i]);
    float *px, *d_x, *d_y;
    cr_assert_eq(sl_alloc_pinned(&px, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_pinned(&y, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_device(&d_x, n * 4), SL_OK);
    cr_assert_eq(sl_alloc_device(&d_y, n * 4), SL_OK);
    memcpy(px, x, n * 4);
    static const int plans[][2] = {{1, 1}, {7, 1}, {7, 4}, {64, 16}, {1024, 3}};
    for (size_t p = 0; p < sizeof plans / sizeof plans[0]; p++) {
        double ms = -1;
        sl_poison_f32(y, n);
        cr_assert_eq(sl_overlap_run(px, y, n, terms, plans[p][0], plans[p][1], d_x, d_y, &ms), SL_OK, "%s",
                     sl_last_error());
        cr_assert(memcmp(y, cpu, n * 4) == 0, "%d chunks on %d streams differ from the CPU", plans[p][0], plans[p][1]);
    }
    sl_poison_f32(y, n);
    cr_assert_eq(sl_poly_cpu_omp(x, y, n, terms), SL_OK);
    cr_assert(memcmp(y, cpu, n * 4) == 0, "poly_cpu_omp differs");
    sl_free_pinned(px);
    sl_free_pinned(y);
    sl_free_device(d_x);
    sl_free_device(d_y);
    free(x);
    free(cpu);
    cr_assert_eq(sl_alloc_live_count(), 0);
}
