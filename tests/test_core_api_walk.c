/* Issue 16: every public sl_ function, walked with bad arguments. Each call
 * gets NULL for a required pointer (n > 0), n = 0, byte counts that overflow
 * (SIZE_MAX, SIZE_MAX / 4 + 1), an unknown version or enum, bad leading
 * dimensions, host arrays where device arrays belong, and device pointers
 * off by 2 bytes. Each must return a status that is not SL_OK and a message
 * that names the argument (BAD), or do the documented no-op (n = 0: ZERO);
 * none may crash. Functions that cannot report (they return a value, not a
 * status) are listed at the end with what their header requires of them.
 * tests/api_walk_coverage.py fails when a header declares an sl_ function
 * this file does not name, so the walk cannot go stale. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sl_test.h"

static int walk_failures;

static void bad_(sl_status st, const char *needle, const char *call, int line)
{
    if (st == SL_OK) {
        cr_expect(0, "line %d: %s returned SL_OK", line, call);
        walk_failures++;
    } else if (!strstr(sl_last_error(), needle)) {
        cr_expect(0, "line %d: %s: message \"%s\" does not name \"%s\"", line, call, sl_last_error(), needle);
        walk_failures++;
    }
    sl_clear_error();
}

static void zero_(sl_status st, const char *call, int line)
{
    /* n = 0: nothing to do is SL_OK, or a status whose message names n */
    if (st != SL_OK && !strstr(sl_last_error(), "n")) {
        cr_expect(0, "line %d: %s with n = 0: %s", line, call, sl_last_error());
        walk_failures++;
    }
    sl_clear_error();
}

#define BAD(call, needle) bad_((sl_clear_error(), (call)), (needle), #call, __LINE__)
#define ZERO(call) zero_((sl_clear_error(), (call)), #call, __LINE__)

#define N 1000
static float hx[N], hy[N], hz[N];
static uint32_t hu[N], hu2[N];
static uint16_t hh[N];
static int hi[N];
static double hd[N];

/* device buffers for the _device entry points; a 2-byte offset is misaligned */
static float *dx, *dy, *dz;
static double kms; /* a valid kernel_ms / ms, so that each call has one bad argument */
static void *dbytes;

static void setup_device(void)
{
    sl_test_require_device();
    cr_assert_eq(sl_alloc_device(&dx, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dy, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dz, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dbytes, N * sizeof(float)), SL_OK, "%s", sl_last_error());
}

static void teardown_device(void)
{
    sl_free_device(dx);
    sl_free_device(dy);
    sl_free_device(dz);
    sl_free_device(dbytes);
}

static float *misaligned(float *p) { return (float *)((char *)p + 2); }

Test(api_walk, core)
{
    void *p = NULL;
    BAD(sl_device_query(0, NULL), "info");
    BAD(sl_device_query(-1, &(sl_device_info){0}), "device");
    BAD(sl_alloc_device_at(NULL, 64, __FILE__, __LINE__), "ptr");
    BAD(sl_alloc_device_at(&p, SIZE_MAX, __FILE__, __LINE__), "bytes");
    BAD(sl_alloc_pinned_at(NULL, 64, __FILE__, __LINE__), "ptr");
    BAD(sl_alloc_pinned_at(&p, SIZE_MAX, __FILE__, __LINE__), "bytes");
    BAD(sl_free_device(hx), "not a live device allocation");
    BAD(sl_free_pinned(hx), "ptr");
    BAD(sl_time_repeat(NULL, NULL, 0, 1, &(sl_stats){0}), "fn");
    BAD(sl_poison_f32(NULL, 4), "p is NULL");
    BAD(sl_poison_f32(hx, SIZE_MAX / 4 + 1), "n");
    BAD(sl_poison_f32(hx, SIZE_MAX), "n");
    ZERO(sl_poison_f32(hx, 0));
    BAD(sl_fill_uniform_f32(NULL, 4, 1, 0.0f, 1.0f), "p is NULL");
    BAD(sl_fill_uniform_f32(hx, SIZE_MAX / 4 + 1, 1, 0.0f, 1.0f), "n");
    ZERO(sl_fill_uniform_f32(hx, 0, 1, 0.0f, 1.0f));
    BAD(sl_seed_from_env(NULL), "seed");
    BAD(sl_copy_to_device(NULL, hx, 64), "dst_device");
    BAD(sl_copy_to_host(NULL, hx, 64), "dst_host");
    BAD(sl_fill_bytes_device(NULL, 0, 64), "dst_device");
    BAD(sl_copy_device_to_device_timed(NULL, NULL, 64, NULL), "dst_device");
    BAD(sl_modelled_end(NULL), "out");
    BAD(sl_modelled_run(NULL, NULL, &(sl_modelled){0}), "run");
    BAD(sl_arch_limits_get(1, &(sl_arch_limits){0}), "arch");
    BAD(sl_arch_limits_get(80, NULL), "out");
    BAD(sl_occupancy_calc(80, 256, 32, 0, 0, NULL), "out");
    BAD(sl_occupancy_calc(80, 0, 32, 0, 0, &(sl_occupancy){0}), "threads");
    BAD(sl_occupancy_calc(80, 256, -1, 0, 0, &(sl_occupancy){0}), "registers");
    BAD(sl_occupancy_calc(80, 256, 32, SIZE_MAX, 0, &(sl_occupancy){0}), "shared");
    BAD(sl_cuda_versions(NULL, NULL), "driver");
    BAD(sl_device_kernel_image(0, NULL, NULL), "binary_version");
    /* sl_modelled_available, sl_modelled_begin take nothing to check */
    (void)sl_modelled_available();
    sl_modelled end;
    if (sl_modelled_begin() == SL_OK) sl_modelled_end(&end);
    sl_clear_error();
}

Test(api_walk, vector_add_and_pays)
{
    sl_opts bad_version = {.version = 99};
    sl_opts bad_block = {.block = -32};
    BAD(sl_vector_add(NULL, hy, hz, N, NULL, NULL), "a");
    BAD(sl_vector_add(hx, NULL, hz, N, NULL, NULL), "b");
    BAD(sl_vector_add(hx, hy, NULL, N, NULL, NULL), "c");
    BAD(sl_vector_add(hx, hy, hz, SIZE_MAX / 4 + 1, NULL, NULL), "n");
    BAD(sl_vector_add(hx, hy, hz, SIZE_MAX, NULL, NULL), "n");
    BAD(sl_vector_add(hx, hy, hz, N, &bad_version, NULL), "version");
    BAD(sl_vector_add(hx, hy, hz, N, &bad_block, NULL), "block");
    ZERO(sl_vector_add(hx, hy, hz, 0, NULL, NULL));
    BAD(sl_vector_add_cpu(NULL, hy, hz, N), "a");
    BAD(sl_vector_add_cpu(hx, hy, NULL, N), "c");
    ZERO(sl_vector_add_cpu(hx, hy, hz, 0));
    BAD(sl_vector_add_cpu_omp(hx, NULL, hz, N), "b");
    BAD(sl_vector_add_cpu_omp(hx, hy, hz, SIZE_MAX), "n");
    BAD(sl_pays_cpu((sl_pays_op)7, 1.0f, hx, hy, hz, N), "op");
    BAD(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, NULL, hy, hz, N), "x");
    BAD(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, hx, hy, NULL, N), "out");
    ZERO(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, 0));
    BAD(sl_pays_cpu_omp(SL_PAYS_SAXPY, 1.0f, hx, NULL, hz, N), "y");
    BAD(sl_pays_cpu_omp(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, SIZE_MAX), "n");
    BAD(sl_launch_overhead((sl_launch_mode)9, 10, &(double){0}), "mode");
    BAD(sl_launch_overhead(SL_LAUNCH_ASYNC, -1, &(double){0}), "count");
    BAD(sl_launch_overhead(SL_LAUNCH_ASYNC, 10, NULL), "ms");
    sl_request req = {.offset = 0, .count = 4, .scale = 1.0f, .bias = 0.0f};
    BAD(sl_requests_cpu(NULL, hz, N, &req, 1), "in");
    BAD(sl_requests_cpu(hx, NULL, N, &req, 1), "out");
    BAD(sl_requests_cpu(hx, hz, N, NULL, 1), "list");
    BAD(sl_requests_cpu(hx, hz, N, &req, -1), "count");
    BAD(sl_requests_cpu(hx, hz, 2, &req, 1), "request");
    BAD(sl_poly_cpu(NULL, hz, N, 4), "x");
    BAD(sl_poly_cpu(hx, NULL, N, 4), "y");
    BAD(sl_poly_cpu(hx, hz, N, -1), "terms");
    BAD(sl_poly_cpu_omp(hx, hz, N, 5000), "terms");
    BAD(sl_poly_cpu_omp(hx, hz, SIZE_MAX, 4), "n");
}

Test(api_walk, vector_add_and_pays_device, .init = setup_device, .fini = teardown_device)
{
    BAD(sl_vector_add_device(NULL, dy, dz, N, NULL, &kms), "a");
    BAD(sl_vector_add_device(hx, dy, dz, N, NULL, &kms), "a");
    BAD(sl_vector_add_device(dx, hy, dz, N, NULL, &kms), "b");
    BAD(sl_vector_add_device(dx, dy, hz, N, NULL, &kms), "c");
    BAD(sl_vector_add_device(misaligned(dx), dy, dz, N - 1, &(sl_opts){.version = 2}, &kms), "a");
    BAD(sl_vector_add_device(dx, dy, dz, N, &(sl_opts){.version = 99}, &kms), "version");
    BAD(sl_vector_add_device(dx, dy, dz, SIZE_MAX / 4 + 1, NULL, &kms), "n");
    ZERO(sl_vector_add_device(dx, dy, dz, 0, NULL, &kms));
    BAD(sl_vendor_saxpy_device(1.0f, NULL, dy, N, &kms), "x");
    BAD(sl_vendor_saxpy_device(1.0f, hx, dy, N, &kms), "x");
    BAD(sl_vendor_saxpy_device(1.0f, dx, hy, N, &kms), "y");
    BAD(sl_vendor_saxpy_device(1.0f, dx, dy, SIZE_MAX, &kms), "n");
    BAD(sl_pays_device((sl_pays_op)7, 1.0f, dx, dy, dz, N, &kms), "op");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, NULL, dy, dz, N, &kms), "x");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, hx, dy, dz, N, &kms), "x");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, dx, dy, hz, N, &kms), "out");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, NULL, hy, hz, N, dx, dy, dz, &kms), "x");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, N, NULL, dy, dz, &kms), "dx");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, N, hx, dy, dz, &kms), "dx");
    BAD(sl_pays_copy_timed(NULL, hx, 64, 1, &kms), "device");
    BAD(sl_pays_copy_timed(dx, NULL, 64, 1, &kms), "host");
    BAD(sl_pays_copy_timed(dx, hx, SIZE_MAX, 1, &kms), "bytes");
    sl_request req = {.offset = 0, .count = 4, .scale = 1.0f, .bias = 0.0f};
    BAD(sl_requests_device((sl_batch_mode)9, dx, dz, N, &req, 1, (sl_request *)dbytes, &kms), "mode");
    BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, NULL, dz, N, &req, 1, (sl_request *)dbytes, &kms), "in");
    BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, hx, dz, N, &req, 1, (sl_request *)dbytes, &kms), "in = ");
    BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, dx, dz, N, NULL, 1, (sl_request *)dbytes, &kms), "list");
    BAD(sl_overlap_run(NULL, hy, N, 4, 2, 2, dx, dy, &kms), "x");
    BAD(sl_overlap_run(hx, hy, N, 4, 2, 2, NULL, dy, &kms), "d_x");
    BAD(sl_overlap_run(hx, hy, N, 4, 0, 2, dx, dy, &kms), "chunks");
    BAD(sl_overlap_run(hx, hy, N, 4, 2, 0, dx, dy, &kms), "streams");
}

Test(api_walk, divergence)
{
    sl_divergence_params bad_k = {.k = 3};
    sl_divergence_warp warp;
    sl_modelled m;
    BAD(sl_divergence(NULL, hu2, N, NULL, NULL, NULL), "x");
    BAD(sl_divergence(hu, NULL, N, NULL, NULL, NULL), "out");
    BAD(sl_divergence(hu, hu2, N, &bad_k, NULL, NULL), "k");
    BAD(sl_divergence(hu, hu2, N, NULL, &(sl_opts){.version = 99}, NULL), "version");
    BAD(sl_divergence(hu, hu2, SIZE_MAX / 4 + 1, NULL, NULL, NULL), "n");
    BAD(sl_divergence_cpu(NULL, hu2, N, NULL, 1), "x");
    BAD(sl_divergence_cpu(hu, NULL, N, NULL, 1), "out");
    BAD(sl_divergence_cpu(hu, hu2, N, NULL, 99), "version");
    BAD(sl_divergence_modelled(NULL, N, NULL, NULL, &m), "x");
    BAD(sl_divergence_modelled(hu, N, NULL, NULL, NULL), "out");
    BAD(sl_divergence_modelled(hu, N, NULL, &(sl_opts){.version = 99}, &m), "version");
    BAD(sl_divergence_warps(hu, N, NULL, NULL, 0, 1, NULL), "warp");
    BAD(sl_divergence_warps(NULL, N, NULL, NULL, 0, 1, &warp), "x");
    BAD(sl_divergence_warps(hu, N, NULL, NULL, SIZE_MAX, 1, &warp), "first");
}

Test(api_walk, divergence_device, .init = setup_device, .fini = teardown_device)
{
    BAD(sl_divergence_device(NULL, (uint32_t *)dy, N, NULL, NULL, &kms), "x");
    BAD(sl_divergence_device(hu, (uint32_t *)dy, N, NULL, &(sl_opts){.version = 1}, &kms), "x");
    BAD(sl_divergence_device((uint32_t *)dx, hu2, N, NULL, NULL, &kms), "out");
    BAD(sl_divergence_device((uint32_t *)dx, (uint32_t *)dy, N, NULL, &(sl_opts){.version = 99}, &kms), "version");
}

Test(api_walk, reduce)
{
    float s, v;
    double sd;
    long long sl;
    size_t idx;
    sl_modelled m;
    BAD(sl_reduce_sum_f32(NULL, N, &s, NULL, NULL), "x");
    BAD(sl_reduce_sum_f32(hx, N, NULL, NULL, NULL), "sum");
    BAD(sl_reduce_sum_f32(hx, SIZE_MAX / 4 + 1, &s, NULL, NULL), "n");
    BAD(sl_reduce_sum_f32(hx, N, &s, &(sl_opts){.version = 99}, NULL), "version");
    BAD(sl_reduce_sum_f32(hx, N, &s, &(sl_opts){.block = 33}, NULL), "block");
    BAD(sl_reduce_sum_f32_f64acc(NULL, N, &sd, NULL, NULL), "x");
    BAD(sl_reduce_sum_f32_f64acc(hx, N, NULL, NULL, NULL), "sum");
    BAD(sl_reduce_sum_i32(NULL, N, &sl, NULL, NULL), "x");
    BAD(sl_reduce_sum_i32(hi, N, NULL, NULL, NULL), "sum");
    BAD(sl_reduce_max_f32(NULL, N, &v, NULL, NULL), "x");
    BAD(sl_reduce_max_f32(hx, N, NULL, NULL, NULL), "max");
    BAD(sl_reduce_argmax_f32(NULL, N, &idx, &v, NULL, NULL), "x");
    BAD(sl_reduce_argmax_f32(hx, N, NULL, &v, NULL, NULL), "index");
    BAD(sl_reduce_modelled(99, N, 0, &m), "version");
    BAD(sl_reduce_modelled(1, N, 0, NULL), "out");
    BAD(sl_reduce_modelled(1, N, 33, &m), "block");
}

Test(api_walk, reduce_device, .init = setup_device, .fini = teardown_device)
{
    float s, v;
    double sd;
    long long sl;
    size_t idx;
    BAD(sl_reduce_sum_f32_device(NULL, N, &s, NULL, &kms), "x");
    BAD(sl_reduce_sum_f32_device(hx, N, &s, NULL, &kms), "x");
    BAD(sl_reduce_sum_f32_device(dx, N, NULL, NULL, &kms), "sum");
    BAD(sl_reduce_sum_f32_device(misaligned(dx), N - 1, &s, NULL, &kms), "x");
    BAD(sl_reduce_sum_f32_device(dx, N, &s, &(sl_opts){.version = 99}, &kms), "version");
    BAD(sl_reduce_sum_f32_f64acc_device(hx, N, &sd, NULL, &kms), "x");
    BAD(sl_reduce_sum_f32_f64acc_device(dx, N, NULL, NULL, &kms), "sum");
    BAD(sl_reduce_sum_i32_device(hi, N, &sl, NULL, &kms), "x");
    BAD(sl_reduce_sum_i32_device((int *)dx, N, NULL, NULL, &kms), "sum");
    BAD(sl_reduce_max_f32_device(hx, N, &v, NULL, &kms), "x");
    BAD(sl_reduce_max_f32_device(dx, N, NULL, NULL, &kms), "max");
    BAD(sl_reduce_argmax_f32_device(hx, N, &idx, &v, NULL, &kms), "x");
    BAD(sl_reduce_argmax_f32_device(dx, N, NULL, &v, NULL, &kms), "index");
    BAD(sl_vendor_reduce_sum_f32_device(hx, N, &s, &kms), "x");
    BAD(sl_vendor_reduce_sum_f32_device(dx, N, NULL, &kms), "sum");
    BAD(sl_vendor_reduce_max_f32_device(hx, N, &v, &kms), "x");
    BAD(sl_vendor_reduce_argmax_f32_device(hx, N, &idx, &v, &kms), "x");
    BAD(sl_vendor_sasum_device(NULL, N, &s, &kms), "x");
    BAD(sl_vendor_sasum_device(hx, N, &s, &kms), "x");
    BAD(sl_vendor_sasum_device(dx, SIZE_MAX, &s, &kms), "n");
}

Test(api_walk, sgemm_and_transpose)
{
    sl_sgemm_model sm;
    sl_transpose_model tm;
    int best;
    /* 4 x 4 x 4: lda, ldb, ldc must be at least the row length (4) */
    BAD(sl_sgemm(4, 4, 4, 1.0f, NULL, 4, hy, 4, 0.0f, hz, 4, NULL, NULL), "a");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, NULL, 4, 0.0f, hz, 4, NULL, NULL), "b");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, NULL, 4, NULL, NULL), "c");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 0, hy, 4, 0.0f, hz, 4, NULL, NULL), "lda");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 2, 0.0f, hz, 4, NULL, NULL), "ldb");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 3, NULL, NULL), "ldc");
    BAD(sl_sgemm(SIZE_MAX, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 4, NULL, NULL), "m");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 4, &(sl_opts){.version = 99}, NULL), "version");
    BAD(sl_sgemm_cpu_naive(4, 4, 4, 1.0f, NULL, 4, hy, 4, 0.0f, hz, 4), "a");
    BAD(sl_sgemm_cpu_naive(4, 4, 4, 1.0f, hx, 3, hy, 4, 0.0f, hz, 4), "lda");
    BAD(sl_sgemm_cpu_blocked(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, NULL, 4), "c");
    BAD(sl_sgemm_cpu_blocked(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 0), "ldc");
    BAD(sl_sgemm_cpu_openblas(4, 4, 4, 1.0f, hx, 4, NULL, 4, 0.0f, hz, 4), "b");
    BAD(sl_sgemm_v7_use_shape(99), "shape");
    BAD(sl_sgemm_v7_use_shape(-1), "shape");
    BAD(sl_sgemm_v7_autotune(64, 64, 64, NULL, NULL), "best");
    BAD(sl_sgemm_v7_autotune(SIZE_MAX, 64, 64, &best, NULL), "m");
    BAD(sl_sgemm_modelled(99, 64, 64, 64, &sm), "version");
    BAD(sl_sgemm_modelled(1, 64, 64, 64, NULL), "model");
    BAD(sl_transpose(NULL, 4, 4, 4, hz, 4, NULL, NULL), "in");
    BAD(sl_transpose(hx, 4, 4, 4, NULL, 4, NULL, NULL), "out");
    BAD(sl_transpose(hx, 4, 4, 3, hz, 4, NULL, NULL), "ld_in");
    BAD(sl_transpose(hx, 4, 4, 4, hz, 0, NULL, NULL), "ld_out");
    BAD(sl_transpose(hx, SIZE_MAX, 4, 4, hz, SIZE_MAX, NULL, NULL), "rows");
    BAD(sl_transpose(hx, 4, 4, 4, hz, 4, &(sl_opts){.version = 99}, NULL), "version");
    BAD(sl_transpose_cpu(NULL, 4, 4, 4, hz, 4), "in");
    BAD(sl_transpose_cpu(hx, 4, 4, 0, hz, 4), "ld_in");
    BAD(sl_transpose_modelled(99, 64, 64, &tm), "version");
    BAD(sl_transpose_modelled(1, 64, 64, NULL), "model");
}

Test(api_walk, sgemm_and_transpose_device, .init = setup_device, .fini = teardown_device)
{
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, NULL, 4, dy, 4, 0.0f, dz, 4, NULL, &kms), "a");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, hx, 4, dy, 4, 0.0f, dz, 4, NULL, &kms), "a");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, hy, 4, 0.0f, dz, 4, NULL, &kms), "b");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, hz, 4, NULL, &kms), "c");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 2, dy, 4, 0.0f, dz, 4, NULL, &kms), "lda");
    BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, hx, 4, dy, 4, 0.0f, dz, 4, &kms), "a");
    BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dz, 0, &kms), "ldc");
    BAD(sl_transpose_device(hx, 4, 4, 4, dz, 4, NULL, &kms), "in");
    BAD(sl_transpose_device(dx, 4, 4, 4, hz, 4, NULL, &kms), "out");
    BAD(sl_transpose_device(dx, 4, 4, 0, dz, 4, NULL, &kms), "ld_in");
}

Test(api_walk, tensor_gemm)
{
    int bm, bn, bk, threads;
    sl_tgemm_model tm;
    BAD(sl_tgemm_round((sl_tgemm_type)5, hx, hh, N), "type");
    BAD(sl_tgemm_round(SL_TGEMM_F16, NULL, hh, N), "in");
    BAD(sl_tgemm_round(SL_TGEMM_F16, hx, NULL, N), "out");
    ZERO(sl_tgemm_round(SL_TGEMM_F16, hx, hh, 0));
    BAD(sl_tgemm_widen(SL_TGEMM_BF16, NULL, hx, N), "in");
    BAD(sl_tgemm_widen((sl_tgemm_type)5, hh, hx, N), "type");
    BAD(sl_tgemm((sl_tgemm_type)5, 16, 16, 16, hh, hh, hz, NULL, NULL), "type");
    BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, NULL, hh, hz, NULL, NULL), "a");
    BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, NULL, NULL, NULL), "c");
    BAD(sl_tgemm(SL_TGEMM_F16, SIZE_MAX, 16, 16, hh, hh, hz, NULL, NULL), "m");
    BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, hz, &(sl_opts){.version = 99}, NULL), "version");
    BAD(sl_tgemm_tile_of(99, &bm, &bn, &bk, &threads), "version");
    ZERO(sl_tgemm_tile_of(1, NULL, NULL, NULL, &threads)); /* NULL: that figure is not wanted (the header) */
    BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, NULL, hh, hd), "a");
    BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, hh, hh, NULL), "c");
    BAD(sl_tgemm_cpu_reference((sl_tgemm_type)5, 16, 16, 16, hh, hh, hd), "type");
    BAD(sl_tgemm_modelled(99, 64, 64, 64, &tm), "version");
    BAD(sl_tgemm_modelled(1, 64, 64, 64, NULL), "model");
}

Test(api_walk, tensor_gemm_device, .init = setup_device, .fini = teardown_device)
{
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, NULL, (uint16_t *)dy, dz, NULL, &kms), "a");
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, hh, (uint16_t *)dy, dz, NULL, &kms), "a");
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, (uint16_t *)dx, (uint16_t *)dy, hz, NULL, &kms), "c");
    BAD(sl_tgemm_device((sl_tgemm_type)5, 16, 16, 16, (uint16_t *)dx, (uint16_t *)dy, dz, NULL, &kms), "type");
    BAD(sl_vendor_tgemm_device(SL_TGEMM_F16, 16, 16, 16, hh, (uint16_t *)dy, dz, &kms), "a");
    BAD(sl_vendor_tgemm_device((sl_tgemm_type)5, 16, 16, 16, (uint16_t *)dx, (uint16_t *)dy, dz, &kms), "type");
}

Test(api_walk, errors)
{
    sl_errors_case c;
    sl_errors_outcome o;
    BAD(sl_errors_case_parse(NULL, &c), "name");
    BAD(sl_errors_case_parse("assert", NULL), "out");
    BAD(sl_errors_case_parse("banana", &c), "banana");
    BAD(sl_errors_run((sl_errors_case)99, &o), "c");
    BAD(sl_errors_run(SL_ERRORS_ASSERT, NULL), "out");
    BAD(sl_errors_check_host_readable(NULL, "p"), "p");
}

/* The functions that return a value, not a status. Each is called with its
 * bad input, must not crash, and gives the answer its header documents. */
Test(api_walk, functions_that_cannot_report)
{
    char buf[8];
    cr_expect_not_null(sl_status_name((sl_status)99));
    cr_expect_not_null(sl_last_error());
    sl_clear_error();
    cr_expect_not_null(sl_backend_name());
    cr_expect(sl_backend_is_emulator() == 0 || sl_backend_is_emulator() == 1);
    cr_expect_null(sl_cuda_error_hint(-12345));
    cr_expect_not_null(sl_phase_name((sl_phase)99));
    sl_report_print(NULL, NULL);
    sl_report_begin(NULL, 1, 256);
    cr_expect_eq(sl_alloc_live_count(), 0);
    cr_expect_eq(sl_alloc_report_leaks(NULL), 0);
    cr_expect(sl_host_ms() >= 0.0);
    sl_check ck = sl_compare_f32(NULL, hd, 4, 1e-6);
    cr_expect(!ck.passed);
    cr_expect_eq(sl_rng_next(NULL), 0);
    cr_expect_eq(sl_modelled_per_request(5, 0), 0.0);
    long long out = 0;
    /* 0: not such an integer (core.h), also for a NULL out or argv */
    cr_expect_eq(sl_arg_ll(2, NULL, 1, 3, 0, 10, &out), 0);
    cr_expect_eq(sl_arg_ll(0, NULL, 0, 3, 0, 10, NULL), 0);
    cr_expect_eq(sl_arg_ll(1, NULL, 5, 3, 0, 10, &out), 1);
    cr_expect_eq(out, 3);
    cr_expect_not_null(sl_occupancy_archs(NULL));
    cr_expect_not_null(sl_occupancy_limit_name((sl_occupancy_limit)99));
    cr_expect_not_null(sl_occupancy_limits_text(~0u, NULL, 0));
    cr_expect_not_null(sl_occupancy_limits_text(~0u, buf, sizeof buf));
    cr_expect_not_null(sl_built_architectures());
    cr_expect_gt(sl_vector_add_version_count(), 0);
    cr_expect_null(sl_vector_add_version_name(99));
    cr_expect_null(sl_pays_op_name((sl_pays_op)7));
    cr_expect_null(sl_launch_mode_name((sl_launch_mode)9));
    cr_expect_null(sl_batch_mode_name((sl_batch_mode)9));
    cr_expect_gt(sl_divergence_version_count(), 0);
    cr_expect_null(sl_divergence_version_name(99));
    cr_expect_eq(sl_divergence_control(99), 0);
    cr_expect_gt(sl_reduce_version_count(), 0);
    cr_expect_null(sl_reduce_version_name(-1));
    cr_expect(sl_reduce_sum_cpu_f64(NULL, 0) == 0.0);
    cr_expect(sl_reduce_sum_cpu_f64_omp(NULL, 0) == 0.0);
    cr_expect(sl_reduce_sum_cpu_pairwise(NULL, 0) == 0.0f);
    cr_expect(sl_reduce_sum_cpu_pairwise_omp(NULL, 0) == 0.0f);
    cr_expect_gt(sl_sgemm_version_count(), 0);
    cr_expect_null(sl_sgemm_version_name(99));
    cr_expect_gt(sl_sgemm_v7_shape_count(), 0);
    cr_expect_null(sl_sgemm_v7_shape_name(99));
    cr_expect_null(sl_sgemm_v7_shape_name(-1));
    cr_expect_null(sl_vector_add_version_name(-1));
    cr_expect_null(sl_tgemm_version_name(-1));
    cr_expect_geq(sl_sgemm_v7_shape(), 0);
    cr_expect_gt(sl_transpose_version_count(), 0);
    cr_expect_null(sl_transpose_version_name(99));
    cr_expect_gt(sl_tgemm_version_count(), 0);
    cr_expect_null(sl_tgemm_version_name(99));
    cr_expect_eq(sl_half_to_float(sl_float_to_half(1.5f)), 1.5f);
    cr_expect_eq(sl_bf16_to_float(sl_float_to_bf16(1.5f)), 1.5f);
    cr_expect_null(sl_errors_case_name((sl_errors_case)99));
    cr_expect_null(sl_errors_case_mistake((sl_errors_case)99));
    cr_expect_eq(sl_errors_image_runs(-1, -1, 8, 0), 0);
    sl_clear_error();
}

/* The core's device-resident building blocks: a host array where device
 * memory belongs, byte counts that overflow, and NULL with bytes > 0. */
Test(api_walk, core_device, .init = setup_device, .fini = teardown_device)
{
    BAD(sl_copy_to_device(dx, NULL, 64), "src_host");
    BAD(sl_copy_to_device(hx, hy, 64), "dst_device");
    BAD(sl_copy_to_device(dx, hx, SIZE_MAX), "bytes");
    BAD(sl_copy_to_host(hx, NULL, 64), "src_device");
    BAD(sl_copy_to_host(hx, hy, 64), "src_device");
    BAD(sl_copy_to_host(hx, dx, SIZE_MAX), "bytes");
    ZERO(sl_copy_to_device(NULL, NULL, 0));
    ZERO(sl_copy_to_host(NULL, NULL, 0));
    BAD(sl_fill_bytes_device(hx, 0, 64), "dst_device");
    BAD(sl_fill_bytes_device(dx, 0, SIZE_MAX), "bytes");
    ZERO(sl_fill_bytes_device(NULL, 0, 0));
    BAD(sl_copy_device_to_device_timed(dx, NULL, 64, &kms), "src_device");
    BAD(sl_copy_device_to_device_timed(hx, dy, 64, &kms), "dst_device");
    BAD(sl_copy_device_to_device_timed(dx, hy, 64, &kms), "src_device");
    BAD(sl_copy_device_to_device_timed(dx, dy, 64, NULL), "ms");
    BAD(sl_copy_device_to_device_timed(dx, dy, SIZE_MAX, &kms), "bytes");
    BAD(sl_pays_copy_timed(hx, hy, 64, 1, &kms), "device");
    BAD(sl_pays_copy_timed(dx, hx, 64, 1, NULL), "ms");
    BAD(sl_fill_uniform_f32(hx, 4, 1, 1.0f, 0.0f), "lo");
    BAD(sl_time_repeat(NULL, NULL, 0, 0, &(sl_stats){0}), "fn");
    sl_check ck = sl_compare_f32(NULL, hd, 4, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "got"), "%s", sl_last_error());
    sl_clear_error();
    ck = sl_compare_f32(hx, NULL, 4, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "ref"), "%s", sl_last_error());
    sl_clear_error();
    cr_expect_eq(sl_rng_next(NULL), 0);
    cr_expect(strstr(sl_last_error(), "state"), "%s", sl_last_error());
    sl_clear_error();
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}

/* Device pointers 2 bytes into an element: a GPU faults with
 * cudaErrorMisalignedAddress; each _device entry point names the argument. */
Test(api_walk, misaligned_device, .init = setup_device, .fini = teardown_device)
{
    float s;
    double sd;
    long long sl;
    size_t idx;
    sl_request req = {.offset = 0, .count = 4, .scale = 1.0f, .bias = 0.0f};
    BAD(sl_vector_add_device(dx, misaligned(dy), dz, N - 1, &(sl_opts){.version = 1}, &kms), "b");
    BAD(sl_vector_add_device(dx, dy, misaligned(dz), N - 1, &(sl_opts){.version = 3}, &kms), "c");
    BAD(sl_vendor_saxpy_device(1.0f, misaligned(dx), dy, N - 1, &kms), "x");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, misaligned(dx), dy, dz, N - 1, &kms), "x");
    BAD(sl_pays_device(SL_PAYS_VECTOR_ADD, 1.0f, dx, dy, misaligned(dz), N - 1, &kms), "out");
    BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, misaligned(dx), dz, N - 1, &req, 1, (sl_request *)dbytes, &kms), "in = ");
    BAD(sl_overlap_run(hx, hy, N - 1, 4, 2, 2, misaligned(dx), dy, &kms), "d_x");
    BAD(sl_divergence_device((uint32_t *)misaligned(dx), (uint32_t *)dy, N - 1, NULL, NULL, &kms), "x");
    BAD(sl_divergence_device((uint32_t *)dx, (uint32_t *)misaligned(dy), N - 1, NULL, NULL, &kms), "out");
    BAD(sl_reduce_sum_f32_f64acc_device(misaligned(dx), N - 1, &sd, NULL, &kms), "x");
    BAD(sl_reduce_sum_i32_device((int *)misaligned(dx), N - 1, &sl, NULL, &kms), "x");
    BAD(sl_reduce_max_f32_device(misaligned(dx), N - 1, &s, NULL, &kms), "x");
    BAD(sl_reduce_argmax_f32_device(misaligned(dx), N - 1, &idx, &s, NULL, &kms), "x");
    BAD(sl_vendor_sasum_device(misaligned(dx), N - 1, &s, &kms), "x");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, misaligned(dx), 4, dy, 4, 0.0f, dz, 4, NULL, &kms), "a");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, misaligned(dz), 4, NULL, &kms), "c");
    BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, dx, 4, misaligned(dy), 4, 0.0f, dz, 4, &kms), "b");
    BAD(sl_transpose_device(misaligned(dx), 4, 4, 4, dz, 4, NULL, &kms), "in");
    BAD(sl_transpose_device(dx, 4, 4, 4, misaligned(dz), 4, NULL, &kms), "out");
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, (uint16_t *)dx, (uint16_t *)dy, misaligned(dz), NULL, &kms), "c");
    BAD(sl_vendor_tgemm_device(SL_TGEMM_F16, 16, 16, 16, (uint16_t *)dx, (uint16_t *)dy, misaligned(dz), &kms), "c");
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}
