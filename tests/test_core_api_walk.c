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
#include <math.h>
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
    BAD(sl_sgemm_v9_use_shape(99), "shape");
    BAD(sl_sgemm_v9_use_shape(-1), "shape");
    BAD(sl_sgemm_v9_autotune(64, 64, 64, NULL, NULL), "best");
    BAD(sl_sgemm_v9_autotune(SIZE_MAX, 64, 64, &best, NULL), "m");
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
    /* the examples' model line: 0 where this build does not model; closing
     * a window never opened, at any indent, prints nothing and cannot fail */
    int opened = sl_modelled_open();
    cr_expect(opened == 0 || opened == 1);
    sl_modelled_print(opened, -5);
    sl_modelled_print(0, 1000);
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
    cr_expect_gt(sl_sgemm_v9_shape_count(), 0);
    cr_expect_null(sl_sgemm_v9_shape_name(99));
    cr_expect_null(sl_sgemm_v9_shape_name(-1));
    cr_expect_null(sl_vector_add_version_name(-1));
    cr_expect_null(sl_tgemm_version_name(-1));
    cr_expect_geq(sl_sgemm_v9_shape(), 0);
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

/* ==== WRONG POINTERS (issue 26) ==============================================
 * Every public function that takes a pointer, given a device buffer where
 * host memory belongs (each host-side argument in turn: arrays, results,
 * opts, report, kernel_ms), a freed device buffer, and an output that
 * overlaps an input. Each must return a status that is not SL_OK and a
 * message naming the argument ("name = 0x..." or both names of an
 * overlap); none may crash. The value-returning functions give their
 * documented bad answer and the message. tests/api_walk_coverage.py fails
 * when a public function with a pointer parameter is not called below this
 * line. */

/* A device pointer given where host memory belongs: "name = ... is device memory". */
#define DEV_BAD(call, name) BAD(call, name " = ")

/* freed device buffers: one of this library's, one from cudaMalloc/cudaFree */
static float *dfreed;

static sl_status run_nothing(void *ctx)
{
    (void)ctx;
    return SL_OK;
}

static sl_status time_nothing(void *ctx, double *ms)
{
    (void)ctx;
    *ms = 0.0;
    return SL_OK;
}

static void setup_device_and_freed(void)
{
    setup_device();
    cr_assert_eq(sl_alloc_device(&dfreed, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_free_device(dfreed), SL_OK, "%s", sl_last_error());
}

Test(api_walk, wrong_pointers_core_and_occupancy, .init = setup_device_and_freed, .fini = teardown_device)
{
    void *any = dx;
    DEV_BAD(sl_device_query(0, (sl_device_info *)dbytes), "info");
    BAD(sl_alloc_device_at((void **)dbytes, 64, __FILE__, __LINE__), "ptr");
    BAD(sl_alloc_pinned_at((void **)dbytes, 64, __FILE__, __LINE__), "ptr");
    BAD(sl_free_device_at(hx, __FILE__, __LINE__), "not a live device allocation");
    BAD(sl_free_device_at(dfreed, __FILE__, __LINE__), "double free");
    BAD(sl_free_pinned_at(dx, __FILE__, __LINE__), "not a live pinned allocation");
    DEV_BAD(sl_time_repeat(time_nothing, NULL, 0, 1, (sl_stats *)dbytes), "stats");
    DEV_BAD(sl_poison_f32(dx, N), "p");
    BAD(sl_poison_f32(dfreed, N), "was freed");
    DEV_BAD(sl_fill_uniform_f32(dx, N, 1, 0.0f, 1.0f), "p");
    DEV_BAD(sl_seed_from_env((uint64_t *)dbytes), "seed");
    DEV_BAD(sl_copy_to_device(dx, dy, 64), "src_host");
    DEV_BAD(sl_copy_to_host(dx, dy, 64), "dst_host");
    BAD(sl_copy_to_host(hx, dfreed, 64), "was freed");
    BAD(sl_copy_to_device(dfreed, hx, 64), "was freed");
    BAD(sl_fill_bytes_device(dfreed, 0, 64), "was freed");
    DEV_BAD(sl_copy_device_to_device_timed(dx, dy, 64, (double *)dbytes), "ms");
    BAD(sl_copy_device_to_device_timed(dx, dx + 1, 64, &kms), "overlap");
    DEV_BAD(sl_modelled_end((sl_modelled *)dbytes), "out");
    DEV_BAD(sl_modelled_run(run_nothing, NULL, (sl_modelled *)dbytes), "out");
    DEV_BAD(sl_arch_limits_get(80, (sl_arch_limits *)dbytes), "out");
    DEV_BAD(sl_occupancy_calc(80, 256, 32, 0, 0, (sl_occupancy *)dbytes), "out");
    DEV_BAD(sl_cuda_versions((int *)dbytes, &(int){0}), "driver");
    DEV_BAD(sl_device_kernel_image(0, &(int){0}, (int *)dbytes), "ptx_version");
    DEV_BAD(sl_errors_case_parse("oob", (sl_errors_case *)dbytes), "out");
    DEV_BAD(sl_errors_case_parse((const char *)dbytes, &(sl_errors_case){0}), "name");
    DEV_BAD(sl_errors_run(SL_ERRORS_OOM, (sl_errors_outcome *)dbytes), "out");
    BAD(sl_errors_check_host_readable(any, "d_any"), "d_any");
    DEV_BAD(sl_tgemm_tile_of(1, (int *)dbytes, NULL, NULL, NULL), "bm");
    /* value-returning and void functions: the bad answer, and the message */
    sl_check ck = sl_compare_f32(dx, hd, N, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "got = "), "%s", sl_last_error());
    ck = sl_compare_f32(hx, (const double *)dbytes, N / 2, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "ref = "), "%s", sl_last_error());
    cr_expect_eq(sl_rng_next((uint64_t *)dbytes), 0);
    cr_expect(strstr(sl_last_error(), "state"), "%s", sl_last_error());
    long long ll = 0;
    char prog[] = "prog", five[] = "5";
    char *argv[] = {prog, five, NULL};
    cr_expect_eq(sl_arg_ll(2, argv, 1, 0, 0, 10, (long long *)dbytes), 0);
    cr_expect(strstr(sl_last_error(), "out = "), "%s", sl_last_error());
    cr_expect_eq(sl_arg_ll(3, argv, 2, 0, 0, 10, &ll), 0, "a NULL argv entry is no integer");
    sl_report_begin((sl_report *)dbytes, 1, 256);
    cr_expect(strstr(sl_last_error(), "report = "), "%s", sl_last_error());
    sl_report_print((const sl_report *)dbytes, stderr);
    cr_expect(strstr(sl_last_error(), "report = "), "%s", sl_last_error());
    cr_expect_eq(sl_alloc_report_leaks((FILE *)dbytes), 0);
    cr_expect(strstr(sl_last_error(), "out = "), "%s", sl_last_error());
    cr_expect_not_null(sl_occupancy_archs((size_t *)dbytes));
    cr_expect(strstr(sl_last_error(), "count = "), "%s", sl_last_error());
    cr_expect_str_eq(sl_occupancy_limits_text(1u, (char *)dbytes, 16), "");
    cr_expect(strstr(sl_last_error(), "buf = "), "%s", sl_last_error());
    cr_expect(isnan(sl_reduce_sum_cpu_f64(dx, N)) && strstr(sl_last_error(), "x = "), "%s", sl_last_error());
    cr_expect(isnan(sl_reduce_sum_cpu_f64_omp(dfreed, N)) && strstr(sl_last_error(), "was freed"), "%s",
              sl_last_error());
    cr_expect(isnan(sl_reduce_sum_cpu_pairwise(dx, N)) && strstr(sl_last_error(), "x = "), "%s", sl_last_error());
    cr_expect(isnan(sl_reduce_sum_cpu_pairwise_omp(dx, N)) && strstr(sl_last_error(), "x = "), "%s",
              sl_last_error());
    sl_clear_error();
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}

Test(api_walk, wrong_pointers_vector_add_and_pays, .init = setup_device_and_freed, .fini = teardown_device)
{
    sl_opts *dopts = (sl_opts *)dbytes;
    double *dms = (double *)dbytes;
    sl_request req = {.offset = 0, .count = 4, .scale = 1.0f, .bias = 0.0f};
    DEV_BAD(sl_vector_add(dx, hy, hz, N, NULL, NULL), "a");
    DEV_BAD(sl_vector_add(hx, hy, dz, N, NULL, NULL), "c");
    DEV_BAD(sl_vector_add(hx, hy, hz, N, dopts, NULL), "opts");
    DEV_BAD(sl_vector_add(hx, hy, hz, N, NULL, (sl_report *)dbytes), "report");
    BAD(sl_vector_add(hx, dfreed, hz, N, NULL, NULL), "was freed");
    DEV_BAD(sl_vector_add_cpu(hx, dy, hz, N), "b");
    DEV_BAD(sl_vector_add_cpu_omp(hx, hy, dz, N), "c");
    BAD(sl_vector_add_cpu(hx, hy, hx, N), "overlap");
    BAD(sl_vector_add_cpu_omp(hx, hy, hy + 1, N - 1), "overlap");
    DEV_BAD(sl_vector_add_device(dx, dy, dz, N, dopts, &kms), "opts");
    DEV_BAD(sl_vector_add_device(dx, dy, dz, N, NULL, dms), "kernel_ms");
    BAD(sl_vector_add_device(dfreed, dy, dz, N, NULL, &kms), "was freed");
    BAD(sl_vector_add_device(dx, dy, dy, N, NULL, &kms), "overlap");
    DEV_BAD(sl_vendor_saxpy_device(1.0f, dx, dy, N, dms), "kernel_ms");
    BAD(sl_vendor_saxpy_device(1.0f, dx, dfreed, N, &kms), "was freed");
    BAD(sl_vendor_saxpy_device(1.0f, dx, dx, N, &kms), "overlap");
    DEV_BAD(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, dx, hy, hz, N), "x");
    DEV_BAD(sl_pays_cpu_omp(SL_PAYS_SAXPY, 1.0f, hx, hy, dz, N), "out");
    BAD(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, hx, hy, hy, N), "overlap");
    DEV_BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, dx, dy, dz, N, dms), "kernel_ms");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, dx, dy, dx, N, &kms), "overlap");
    BAD(sl_pays_device(SL_PAYS_SAXPY, 1.0f, dx, dfreed, dz, N, &kms), "was freed");
    DEV_BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, dx, hy, hz, N, dx, dy, dz, &kms), "x");
    DEV_BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, dz, N, dx, dy, dz, &kms), "out");
    DEV_BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, N, dx, dy, dz, dms), "ms");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, N, dx, dx, dz, &kms), "overlap");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, N, dx, dy, dfreed, &kms), "was freed");
    BAD(sl_pays_round_trip(SL_PAYS_SAXPY, 1.0f, hx, hy, hz, SIZE_MAX / 2, dx, dy, dz, &kms), "n");
    DEV_BAD(sl_pays_copy_timed(dx, dy, 64, 1, &kms), "host");
    DEV_BAD(sl_pays_copy_timed(dx, hy, 64, 1, dms), "ms");
    BAD(sl_pays_copy_timed(dfreed, hy, 64, 1, &kms), "was freed");
    DEV_BAD(sl_launch_overhead(SL_LAUNCH_ASYNC, 10, dms), "ms");
    DEV_BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, dx, dz, N, (sl_request *)dbytes, 1, NULL, &kms), "list");
    DEV_BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, dx, dz, N, &req, 1, NULL, dms), "ms");
    BAD(sl_requests_device(SL_BATCH_ONE_BY_ONE, dx, dx, N, &req, 1, NULL, &kms), "overlap");
    BAD(sl_requests_device(SL_BATCH_ONE_LAUNCH, dx, dz, N, &req, 1, (sl_request *)dz, &kms), "overlap");
    BAD(sl_requests_device(SL_BATCH_ONE_LAUNCH, dx, dz, N, &req, 1, (sl_request *)dfreed, &kms), "was freed");
    DEV_BAD(sl_requests_cpu(dx, hz, N, &req, 1), "in");
    DEV_BAD(sl_requests_cpu(hx, hz, N, (sl_request *)dbytes, 1), "list");
    BAD(sl_requests_cpu(hx, hx, N, &req, 1), "overlap");
    DEV_BAD(sl_overlap_run(dx, hy, N, 4, 2, 2, dx, dy, &kms), "x");
    DEV_BAD(sl_overlap_run(hx, hy, N, 4, 2, 2, dx, dy, dms), "ms");
    BAD(sl_overlap_run(hx, hy, N, 4, 2, 2, dx, dx, &kms), "overlap");
    BAD(sl_overlap_run(hx, hx + 1, N - 1, 4, 2, 2, dx, dy, &kms), "overlap");
    BAD(sl_overlap_run(hx, hy, N, 4, 2, 2, dfreed, dy, &kms), "was freed");
    BAD(sl_overlap_run(hx, hy, SIZE_MAX, 4, 2, 2, dx, dy, &kms), "n");
    DEV_BAD(sl_poly_cpu(hx, dy, N, 4), "y");
    DEV_BAD(sl_poly_cpu_omp(dx, hy, N, 4), "x");
    BAD(sl_poly_cpu(hx, hx, N, 4), "overlap");
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}

Test(api_walk, wrong_pointers_divergence_and_reduce, .init = setup_device_and_freed, .fini = teardown_device)
{
    sl_opts *dopts = (sl_opts *)dbytes;
    double *dms = (double *)dbytes;
    uint32_t *dux = (uint32_t *)dx, *duy = (uint32_t *)dy;
    const sl_divergence_params *dparams = (const sl_divergence_params *)dbytes;
    sl_modelled m;
    sl_divergence_warp warp;
    float s, v;
    double sd;
    long long sl;
    size_t idx;
    DEV_BAD(sl_divergence(dux, hu2, N, NULL, NULL, NULL), "x");
    DEV_BAD(sl_divergence(hu, duy, N, NULL, NULL, NULL), "out");
    DEV_BAD(sl_divergence(hu, hu2, N, dparams, NULL, NULL), "params");
    DEV_BAD(sl_divergence(hu, hu2, N, NULL, dopts, NULL), "opts");
    DEV_BAD(sl_divergence(hu, hu2, N, NULL, NULL, (sl_report *)dbytes), "report");
    DEV_BAD(sl_divergence_device(dux, duy, N, dparams, NULL, &kms), "params");
    DEV_BAD(sl_divergence_device(dux, duy, N, NULL, dopts, &kms), "opts");
    DEV_BAD(sl_divergence_device(dux, duy, N, NULL, NULL, dms), "kernel_ms");
    BAD(sl_divergence_device(dux, dux, N, NULL, &(sl_opts){.version = 1}, &kms), "overlap");
    BAD(sl_divergence_device((uint32_t *)dfreed, duy, N, NULL, &(sl_opts){.version = 1}, &kms), "was freed");
    DEV_BAD(sl_divergence_cpu(dux, hu2, N, NULL, 1), "x");
    DEV_BAD(sl_divergence_cpu(hu, hu2, N, dparams, 1), "params");
    BAD(sl_divergence_cpu(hu, hu, N, NULL, 1), "overlap");
    BAD(sl_divergence_cpu(hu, hu2, (size_t)UINT32_MAX + 1, NULL, 1), "n");
    DEV_BAD(sl_divergence_modelled(dux, N, NULL, NULL, &m), "x");
    DEV_BAD(sl_divergence_modelled(hu, N, dparams, NULL, &m), "params");
    DEV_BAD(sl_divergence_modelled(hu, N, NULL, dopts, &m), "opts");
    DEV_BAD(sl_divergence_modelled(hu, N, NULL, NULL, (sl_modelled *)dbytes), "out");
    DEV_BAD(sl_divergence_warps(dux, N, NULL, NULL, 0, 1, &warp), "x");
    DEV_BAD(sl_divergence_warps(hu, N, dparams, NULL, 0, 1, &warp), "params");
    DEV_BAD(sl_divergence_warps(hu, N, NULL, dopts, 0, 1, &warp), "opts");
    DEV_BAD(sl_divergence_warps(hu, N, NULL, NULL, 0, 1, (sl_divergence_warp *)dbytes), "warp");
    DEV_BAD(sl_reduce_sum_f32(dx, N, &s, NULL, NULL), "x");
    DEV_BAD(sl_reduce_sum_f32(hx, N, (float *)dbytes, NULL, NULL), "sum");
    DEV_BAD(sl_reduce_sum_f32(hx, N, &s, dopts, NULL), "opts");
    DEV_BAD(sl_reduce_sum_f32(hx, N, &s, NULL, (sl_report *)dbytes), "report");
    BAD(sl_reduce_sum_f32(dfreed, N, &s, NULL, NULL), "was freed");
    DEV_BAD(sl_reduce_sum_f32_f64acc(hx, N, (double *)dbytes, NULL, NULL), "sum");
    DEV_BAD(sl_reduce_sum_i32((int *)dx, N, &sl, NULL, NULL), "x");
    DEV_BAD(sl_reduce_max_f32(hx, N, (float *)dbytes, NULL, NULL), "max");
    DEV_BAD(sl_reduce_argmax_f32(hx, N, (size_t *)dbytes, &v, NULL, NULL), "index");
    DEV_BAD(sl_reduce_argmax_f32(hx, N, &idx, (float *)dbytes, NULL, NULL), "value");
    DEV_BAD(sl_reduce_sum_f32_device(dx, N, (float *)dbytes, NULL, &kms), "sum");
    DEV_BAD(sl_reduce_sum_f32_device(dx, N, &s, dopts, &kms), "opts");
    DEV_BAD(sl_reduce_sum_f32_device(dx, N, &s, NULL, dms), "kernel_ms");
    BAD(sl_reduce_sum_f32_device(dfreed, N, &s, NULL, &kms), "was freed");
    DEV_BAD(sl_reduce_sum_f32_f64acc_device(dx, N, &sd, NULL, dms), "kernel_ms");
    DEV_BAD(sl_reduce_sum_i32_device((int *)dx, N, (long long *)dbytes, NULL, &kms), "sum");
    DEV_BAD(sl_reduce_max_f32_device(dx, N, (float *)dbytes, NULL, &kms), "max");
    DEV_BAD(sl_reduce_argmax_f32_device(dx, N, (size_t *)dbytes, &v, NULL, &kms), "index");
    DEV_BAD(sl_reduce_argmax_f32_device(dx, N, &idx, (float *)dbytes, NULL, &kms), "value");
    DEV_BAD(sl_vendor_reduce_sum_f32_device(dx, N, (float *)dbytes, &kms), "sum");
    DEV_BAD(sl_vendor_reduce_max_f32_device(dx, N, &v, dms), "kernel_ms");
    DEV_BAD(sl_vendor_reduce_argmax_f32_device(dx, N, (size_t *)dbytes, &v, &kms), "index");
    DEV_BAD(sl_vendor_sasum_device(dx, N, (float *)dbytes, &kms), "sum");
    BAD(sl_vendor_sasum_device(dfreed, N, &s, &kms), "was freed");
    DEV_BAD(sl_reduce_modelled(1, N, 0, (sl_modelled *)dbytes), "out");
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}

Test(api_walk, wrong_pointers_sgemm_transpose_and_tensor_gemm, .init = setup_device_and_freed,
     .fini = teardown_device)
{
    sl_opts *dopts = (sl_opts *)dbytes;
    double *dms = (double *)dbytes;
    uint16_t *dh = (uint16_t *)dx, *dh2 = (uint16_t *)dy;
    int best;
    DEV_BAD(sl_sgemm(4, 4, 4, 1.0f, dx, 4, hy, 4, 0.0f, hz, 4, NULL, NULL), "a");
    DEV_BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, dy, 4, 0.0f, hz, 4, NULL, NULL), "b");
    DEV_BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, dz, 4, NULL, NULL), "c");
    DEV_BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 4, dopts, NULL), "opts");
    DEV_BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hz, 4, NULL, (sl_report *)dbytes), "report");
    BAD(sl_sgemm(4, 4, 4, 1.0f, hx, 4, dfreed, 4, 0.0f, hz, 4, NULL, NULL), "was freed");
    DEV_BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dz, 4, dopts, &kms), "opts");
    DEV_BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dz, 4, NULL, dms), "kernel_ms");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dx, 4, NULL, &kms), "overlap");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dy + 3, 4, NULL, &kms), "overlap");
    BAD(sl_sgemm_device(4, 4, 4, 1.0f, dfreed, 4, dy, 4, 0.0f, dz, 4, NULL, &kms), "was freed");
    BAD(sl_sgemm_device(SIZE_MAX / 2, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dz, 4, NULL, &kms), "m");
    DEV_BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dz, 4, dms), "kernel_ms");
    BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dy, 4, &kms), "overlap");
    BAD(sl_vendor_sgemm_device(4, 4, 4, 1.0f, dx, 4, dy, 4, 0.0f, dfreed, 4, &kms), "was freed");
    DEV_BAD(sl_sgemm_cpu_naive(4, 4, 4, 1.0f, dx, 4, hy, 4, 0.0f, hz, 4), "a");
    DEV_BAD(sl_sgemm_cpu_blocked(4, 4, 4, 1.0f, hx, 4, dy, 4, 0.0f, hz, 4), "b");
    DEV_BAD(sl_sgemm_cpu_openblas(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, dz, 4), "c");
    BAD(sl_sgemm_cpu_naive(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hx, 4), "overlap");
    BAD(sl_sgemm_cpu_blocked(4, 4, 4, 1.0f, hx, 4, hy, 4, 1.0f, hy + 2, 4), "overlap");
    BAD(sl_sgemm_cpu_openblas(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, hx + 15, 4), "overlap");
    BAD(sl_sgemm_cpu_openblas(4, 4, 4, 1.0f, hx, 4, hy, 4, 0.0f, dfreed, 4), "was freed");
    DEV_BAD(sl_sgemm_v9_autotune(64, 64, 64, (int *)dbytes, NULL), "best");
    DEV_BAD(sl_sgemm_v9_autotune(64, 64, 64, &best, dms), "ms_each");
    DEV_BAD(sl_sgemm_modelled(1, 64, 64, 64, (sl_sgemm_model *)dbytes), "model");
    DEV_BAD(sl_transpose(dx, 4, 4, 4, hz, 4, NULL, NULL), "in");
    DEV_BAD(sl_transpose(hx, 4, 4, 4, dz, 4, NULL, NULL), "out");
    DEV_BAD(sl_transpose(hx, 4, 4, 4, hz, 4, dopts, NULL), "opts");
    DEV_BAD(sl_transpose(hx, 4, 4, 4, hz, 4, NULL, (sl_report *)dbytes), "report");
    DEV_BAD(sl_transpose_device(dx, 4, 4, 4, dz, 4, dopts, &kms), "opts");
    DEV_BAD(sl_transpose_device(dx, 4, 4, 4, dz, 4, NULL, dms), "kernel_ms");
    BAD(sl_transpose_device(dx, 4, 4, 4, dx, 4, NULL, &kms), "overlap");
    BAD(sl_transpose_device(dx, 4, 4, 4, dfreed, 4, NULL, &kms), "was freed");
    DEV_BAD(sl_transpose_cpu(hx, 4, 4, 4, dz, 4), "out");
    BAD(sl_transpose_cpu(hx, 4, 4, 4, hx + 3, 4), "overlap");
    BAD(sl_transpose_cpu(hx, SIZE_MAX / 2, 4, 4, hz, SIZE_MAX / 2), "rows");
    DEV_BAD(sl_transpose_modelled(1, 64, 64, (sl_transpose_model *)dbytes), "model");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, dh, hh, hz, NULL, NULL), "a");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, dh, hz, NULL, NULL), "b");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, dz, NULL, NULL), "c");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 0, hh, hh, dz, NULL, NULL), "c");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, hz, dopts, NULL), "opts");
    DEV_BAD(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, hz, NULL, (sl_report *)dbytes), "report");
    DEV_BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, dh2, dz, dopts, &kms), "opts");
    DEV_BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, dh2, dz, NULL, dms), "kernel_ms");
    sl_opts v1 = {.version = 1}; /* 16 x 16 tiles: 16 needs no padding */
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, dh2, dx, &v1, &kms), "overlap");
    BAD(sl_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, (uint16_t *)dfreed, dz, &v1, &kms), "was freed");
    DEV_BAD(sl_vendor_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, dh2, dz, dms), "kernel_ms");
    BAD(sl_vendor_tgemm_device(SL_TGEMM_F16, 16, 16, 16, dh, dh2, dy, &kms), "overlap");
    DEV_BAD(sl_tgemm_modelled(1, 64, 64, 64, (sl_tgemm_model *)dbytes), "model");
    DEV_BAD(sl_tgemm_round(SL_TGEMM_F16, dx, hh, N), "in");
    DEV_BAD(sl_tgemm_round(SL_TGEMM_F16, hx, dh, N), "out");
    BAD(sl_tgemm_round(SL_TGEMM_F16, hx, (uint16_t *)hx, N), "overlap");
    DEV_BAD(sl_tgemm_widen(SL_TGEMM_F16, dh, hx, N / 2), "in");
    DEV_BAD(sl_tgemm_widen(SL_TGEMM_F16, hh, dx, N), "out");
    BAD(sl_tgemm_widen(SL_TGEMM_BF16, hh, (float *)hh, N / 2), "overlap");
    BAD(sl_tgemm_widen(SL_TGEMM_BF16, hh, dfreed, N / 2), "was freed");
    DEV_BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, dh, hh, hd), "a");
    DEV_BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, hh, dh, hd), "b");
    DEV_BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, hh, hh, (double *)dz), "c");
    BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, hh, hh, (double *)hh), "overlap");
    BAD(sl_tgemm_cpu_reference(SL_TGEMM_F16, (size_t)1 << 31, (size_t)1 << 31, 1, hh, hh, hd), "c (m x n");
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}

/* Sizes that are zero where nothing can be computed, for the functions
 * whose header says so (elsewhere n = 0 is a no-op, ZERO above). */
Test(api_walk, zero_where_zero_is_invalid, .init = setup_device, .fini = teardown_device)
{
    size_t idx;
    float v;
    sl_modelled m;
    sl_divergence_warp warp;
    sl_tgemm_model tm;
    BAD(sl_reduce_argmax_f32(hx, 0, &idx, &v, NULL, NULL), "n is 0");
    BAD(sl_reduce_argmax_f32_device(dx, 0, &idx, &v, NULL, &kms), "n is 0");
    BAD(sl_vendor_reduce_argmax_f32_device(dx, 0, &idx, &v, &kms), "n is 0");
    BAD(sl_reduce_modelled(1, 0, 0, &m), "n is 0");
    BAD(sl_divergence_modelled(hu, 0, NULL, NULL, &m), "n is 0");
    BAD(sl_divergence_warps(hu, N, NULL, NULL, 0, 0, &warp), "count = 0");
    BAD(sl_tgemm_modelled(1, 0, 64, 64, &tm), "at least 1");
    BAD(sl_vendor_tgemm_device(SL_TGEMM_F16, 16, 16, 0, (uint16_t *)dx, (uint16_t *)dy, dz, &kms), "k = 0");
    BAD(sl_time_repeat(time_nothing, NULL, 0, 0, &(sl_stats){0}), "runs = 0");
    BAD(sl_launch_overhead(SL_LAUNCH_ASYNC, 0, &kms), "count = 0");
    BAD(sl_overlap_run(hx, hy, N, 4, 2, 0, dx, dy, &kms), "streams = 0");
    cr_expect_eq(walk_failures, 0, "%d calls misbehaved (listed above)", walk_failures);
}
