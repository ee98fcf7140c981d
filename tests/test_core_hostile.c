/* Issue 26, section 5: the course library's own API under the calls a
 * careless student makes. Each test is one finding of the issue: a handled
 * failure must not break the next valid call; device pointers given to
 * host-side functions are refused, naming the argument, not a SIGSEGV; a
 * freed device buffer is named as freed, with where it was allocated and
 * freed; in-place calls are refused (or, for the lifecycle functions,
 * right); the cuBLAS wrappers say why; and the smaller ones. The walk over
 * every public function with every kind of wrong pointer and size is
 * tests/test_core_api_walk.c. */
#include <criterion/criterion.h>
#include <cuda_runtime_api.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sl_test.h"

#define N 1000

/* Fails the test unless `st` is not SL_OK and the message holds every
 * one of the (up to three) words. */
#define EXPECT_REFUSED(call, w1, w2, w3) expect_refused_((call), #call, (w1), (w2), (w3), __LINE__)

static void expect_refused_(sl_status st, const char *call, const char *w1, const char *w2, const char *w3, int line)
{
    cr_expect_neq(st, SL_OK, "line %d: %s returned SL_OK", line, call);
    const char *words[] = {w1, w2, w3};
    for (int i = 0; i < 3; i++)
        if (words[i])
            cr_expect(strstr(sl_last_error(), words[i]) != NULL, "line %d: %s: \"%s\" is not in: %s", line, call,
                      words[i], sl_last_error());
    sl_clear_error();
}

/* Valid calls after a handled failure: both must succeed, with the right
 * answers. */
static void expect_valid_calls_work(const char *after)
{
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 1.0f, c[i] = NAN;
    sl_status st = sl_vector_add(a, b, c, N, NULL, NULL);
    cr_assert_eq(st, SL_OK, "after %s, a valid sl_vector_add failed: %s", after, sl_last_error());
    for (int i = 0; i < N; i++) cr_assert_eq(c[i], (float)i + 1.0f, "after %s: c[%d] = %g", after, i, (double)c[i]);
    float sum = 0.0f;
    st = sl_reduce_sum_f32(b, N, &sum, NULL, NULL);
    cr_assert_eq(st, SL_OK, "after %s, a valid sl_reduce_sum_f32 failed: %s", after, sl_last_error());
    cr_assert_eq(sum, (float)N, "after %s: sum = %g", after, (double)sum);
}

/* ---- a handled failure does not break the next valid call --------------- */

Test(hostile, a_failed_allocation_does_not_break_the_next_call)
{
    sl_test_require_device();
    void *p = NULL;
    EXPECT_REFUSED(sl_alloc_device(&p, SIZE_MAX), "cudaMalloc", NULL, NULL);
    cr_assert_null(p);
    expect_valid_calls_work("a failed sl_alloc_device(&p, SIZE_MAX)");
}

Test(hostile, a_refused_copy_does_not_break_the_next_call)
{
    sl_test_require_device();
    float h[16] = {0}, *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, sizeof h), SL_OK, "%s", sl_last_error());
    /* a range past the end of the buffer: the runtime refuses it */
    EXPECT_REFUSED(sl_fill_bytes_device(d, 0, SIZE_MAX), "cudaMemset", NULL, NULL);
    expect_valid_calls_work("a refused sl_fill_bytes_device");
    if (sl_backend_is_emulator()) { /* a GPU driver may fault on the host side instead */
        EXPECT_REFUSED(sl_copy_to_host(h, d, SIZE_MAX), "cudaMemcpy", NULL, NULL);
        expect_valid_calls_work("a refused sl_copy_to_host");
        EXPECT_REFUSED(sl_copy_to_device(d, h, 2 * sizeof h), "cudaMemcpy", NULL, NULL);
        expect_valid_calls_work("a refused sl_copy_to_device");
    }
    cr_assert_eq(sl_free_device(d), SL_OK, "%s", sl_last_error());
}

Test(hostile, a_refused_sgemm_does_not_break_the_next_call)
{
    sl_test_require_device();
    static float a[64 * 64], b[64 * 64], c[64 * 64];
    float *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, 16 * sizeof(float)), SL_OK, "%s", sl_last_error());
    /* device memory where sl_sgemm wants host arrays: refused before any copy */
    EXPECT_REFUSED(sl_sgemm(4, 4, 4, 1.0f, d, 4, b, 4, 0.0f, c, 4, NULL, NULL), "a = ", "device memory", NULL);
    expect_valid_calls_work("sl_sgemm refused a device a");
    /* cuBLAS refusing buffers too small for 64 x 64 (the emulator's cuBLAS
     * checks every range; a GPU's would read past them) */
    if (sl_backend_is_emulator()) {
        double ms = 0.0;
        EXPECT_REFUSED(sl_vendor_sgemm_device(64, 64, 64, 1.0f, d, 64, d, 64, 0.0f, d, 64, &ms), "c", NULL, NULL);
        float *e = NULL, *f = NULL;
        cr_assert_eq(sl_alloc_device(&e, 16 * sizeof(float)), SL_OK, "%s", sl_last_error());
        cr_assert_eq(sl_alloc_device(&f, 16 * sizeof(float)), SL_OK, "%s", sl_last_error());
        EXPECT_REFUSED(sl_vendor_sgemm_device(8, 8, 8, 1.0f, d, 8, e, 8, 0.0f, f, 8, &ms), "cublasSgemm", NULL,
                       NULL);
        expect_valid_calls_work("a refused sl_vendor_sgemm_device");
        /* host memory that is not mapped: the copy in is refused */
        EXPECT_REFUSED(sl_sgemm(64, 64, 64, 1.0f, (const float *)0x10, 64, b, 64, 0.0f, c, 64, NULL, NULL),
                       "cudaMemcpy", NULL, NULL);
        expect_valid_calls_work("sl_sgemm refused unmapped host memory");
        sl_free_device(e);
        sl_free_device(f);
    }
    (void)a;
    cr_assert_eq(sl_free_device(d), SL_OK, "%s", sl_last_error());
}

/* An error left by the caller's own unchecked CUDA call is not the next
 * launch's: the library's launches do not report it as theirs. */
Test(hostile, an_unchecked_error_of_the_callers_own_is_not_blamed_on_the_next_launch)
{
    sl_test_require_device();
    void *p = NULL;
    (void)cudaMalloc(&p, SIZE_MAX); /* fails, and nobody collects the error */
    expect_valid_calls_work("the caller's own failed cudaMalloc");
    float *dx = NULL, *dy = NULL, *dz = NULL;
    double ms = 0.0;
    cr_assert_eq(sl_alloc_device(&dx, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dy, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dz, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_fill_bytes_device(dx, 0, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_fill_bytes_device(dy, 0, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    sl_request req = {0, 4, 1.0f, 0.0f};
    (void)cudaMalloc(&p, SIZE_MAX);
    cr_expect_eq(sl_pays_device(SL_PAYS_SAXPY, 2.0f, dx, dy, dz, N, &ms), SL_OK, "%s", sl_last_error());
    (void)cudaMalloc(&p, SIZE_MAX);
    cr_expect_eq(sl_requests_device(SL_BATCH_ONE_BY_ONE, dx, dz, N, &req, 1, NULL, &ms), SL_OK, "%s",
                 sl_last_error());
    sl_free_device(dx);
    sl_free_device(dy);
    sl_free_device(dz);
}

/* A sticky error (a fault: the context is unusable) is still reported by
 * every later call, as CUDA does. */
Test(hostile, a_sticky_error_is_still_reported_by_the_next_call)
{
    sl_test_require_device();
    sl_errors_outcome o;
    cr_assert_neq(sl_errors_run(SL_ERRORS_ASSERT, &o), SL_OK);
    cr_assert(o.sticky, "a device-side assert is sticky");
    static float a[N], b[N], c[N];
    sl_status st = sl_vector_add(a, b, c, N, NULL, NULL);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect(strstr(sl_last_error(), "cudaErrorAssert"), "%s", sl_last_error());
}

/* ---- device pointers given to host-side functions ------------------------ */

static float *dev_a, *dev_b; /* N floats each */

static void setup_device(void)
{
    sl_test_require_device();
    cr_assert_eq(sl_alloc_device(&dev_a, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&dev_b, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_fill_bytes_device(dev_a, 0, N * sizeof(float)), SL_OK, "%s", sl_last_error());
}

static void teardown_device(void)
{
    sl_free_device(dev_a);
    sl_free_device(dev_b);
}

#define DEV "device memory"

Test(hostile, device_pointers_given_to_host_functions_are_refused_by_name, .init = setup_device,
     .fini = teardown_device)
{
    static float h[N], h2[N];
    static double ref[N];
    static uint16_t hh[N];
    uint16_t *dh = (uint16_t *)dev_a;
    EXPECT_REFUSED(sl_vector_add_cpu(dev_a, h, h2, N), "a = ", DEV, NULL);
    EXPECT_REFUSED(sl_vector_add_cpu_omp(h, h2, dev_a, N), "c = ", DEV, NULL);
    EXPECT_REFUSED(sl_pays_cpu(SL_PAYS_SAXPY, 1.0f, h, dev_a, h2, N), "y = ", DEV, NULL);
    EXPECT_REFUSED(sl_pays_cpu_omp(SL_PAYS_VECTOR_ADD, 1.0f, dev_a, h, h2, N), "x = ", DEV, NULL);
    EXPECT_REFUSED(sl_poly_cpu(h, dev_a, N, 4), "y = ", DEV, NULL);
    EXPECT_REFUSED(sl_poly_cpu_omp(dev_a, h, N, 4), "x = ", DEV, NULL);
    cr_expect(isnan(sl_reduce_sum_cpu_f64(dev_a, N)));
    cr_expect(strstr(sl_last_error(), "x = ") && strstr(sl_last_error(), DEV), "%s", sl_last_error());
    cr_expect(isnan(sl_reduce_sum_cpu_pairwise_omp(dev_a, N)));
    cr_expect(strstr(sl_last_error(), "x = ") && strstr(sl_last_error(), DEV), "%s", sl_last_error());
    EXPECT_REFUSED(sl_sgemm_cpu_naive(4, 4, 4, 1.0f, dev_a, 4, h, 4, 0.0f, h2, 4), "a = ", DEV, NULL);
    EXPECT_REFUSED(sl_sgemm_cpu_blocked(4, 4, 4, 1.0f, h, 4, dev_a, 4, 0.0f, h2, 4), "b = ", DEV, NULL);
    EXPECT_REFUSED(sl_sgemm_cpu_openblas(4, 4, 4, 1.0f, h, 4, h2, 4, 0.0f, dev_a, 4), "c = ", DEV, NULL);
    EXPECT_REFUSED(sl_transpose_cpu(dev_a, 4, 4, 4, h, 4), "in = ", DEV, NULL);
    EXPECT_REFUSED(sl_divergence_cpu((uint32_t *)h, (uint32_t *)dev_a, N, NULL, 1), "out = ", DEV, NULL);
    EXPECT_REFUSED(sl_requests_cpu(h, dev_a, N, &(sl_request){0, 4, 1.0f, 0.0f}, 1), "out = ", DEV, NULL);
    sl_check ck = sl_compare_f32(dev_a, ref, N, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "got = ") && strstr(sl_last_error(), DEV), "%s",
              sl_last_error());
    ck = sl_compare_f32(h, (const double *)dev_a, N / 2, 1e-6);
    cr_expect(!ck.passed && strstr(sl_last_error(), "ref = ") && strstr(sl_last_error(), DEV), "%s",
              sl_last_error());
    sl_clear_error();
    EXPECT_REFUSED(sl_poison_f32(dev_a, N), "p = ", DEV, NULL);
    EXPECT_REFUSED(sl_fill_uniform_f32(dev_a, N, 1, 0.0f, 1.0f), "p = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm_round(SL_TGEMM_F16, dev_a, hh, N), "in = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm_round(SL_TGEMM_BF16, h, dh, N), "out = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm_widen(SL_TGEMM_F16, dh, h, N), "in = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, dh, hh, ref), "a = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm_cpu_reference(SL_TGEMM_F16, 16, 16, 16, hh, hh, (double *)dev_a), "c = ", DEV, NULL);
}

/* The wrappers that read or write some of their arguments on the host. */
Test(hostile, wrappers_refuse_device_pointers_where_they_read_or_write_the_host, .init = setup_device,
     .fini = teardown_device)
{
    static float h[N];
    static uint16_t hh[N];
    double ms = 0.0;
    size_t idx = 0;
    float v = 0.0f;
    EXPECT_REFUSED(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, (uint16_t *)dev_a, hh, h, NULL, NULL), "a = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm(SL_TGEMM_F16, 16, 16, 16, hh, hh, dev_b, NULL, NULL), "c = ", DEV, NULL);
    EXPECT_REFUSED(sl_tgemm(SL_TGEMM_F16, 15, 15, 0, hh, hh, dev_b, NULL, NULL), "c = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_argmax_f32(h, N, (size_t *)dev_b, &v, NULL, NULL), "index = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_argmax_f32(h, N, &idx, dev_b, NULL, NULL), "value = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_argmax_f32_device(dev_a, N, (size_t *)dev_b, &v, NULL, &ms), "index = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_argmax_f32_device(dev_a, N, &idx, dev_b, NULL, &ms), "value = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_max_f32(h, N, dev_b, NULL, NULL), "max = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_max_f32_device(dev_a, N, dev_b, NULL, &ms), "max = ", DEV, NULL);
    EXPECT_REFUSED(sl_reduce_sum_f32(dev_a, N, &v, NULL, NULL), "x = ", DEV, NULL);
    sl_request *d_list = (sl_request *)dev_b;
    EXPECT_REFUSED(sl_requests_device(SL_BATCH_ONE_LAUNCH, dev_a, dev_a + N / 2, N / 2, d_list, 1, d_list, &ms),
                   "list", DEV, NULL);
    EXPECT_REFUSED(sl_vector_add_device(dev_a, dev_a, dev_b, N, NULL, (double *)dev_b), "kernel_ms = ", DEV, NULL);
}

/* ---- a freed device pointer is named as freed ------------------------------ */

Test(hostile, a_freed_device_buffer_is_named_with_where_it_was_allocated_and_freed)
{
    sl_test_require_device();
    float *d = NULL, *e = NULL, *f = NULL;
    static float h[N];
    double ms = 0.0;
    char alloc_at[64], free_at[64];
    cr_assert_eq(sl_alloc_device(&e, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&f, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    snprintf(alloc_at, sizeof alloc_at, "test_core_hostile.c:%d", __LINE__ + 1);
    cr_assert_eq(sl_alloc_device(&d, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    snprintf(free_at, sizeof free_at, "test_core_hostile.c:%d", __LINE__ + 1);
    cr_assert_eq(sl_free_device(d), SL_OK, "%s", sl_last_error());
    /* where device memory belongs */
    EXPECT_REFUSED(sl_vector_add_device(d, e, f, N, NULL, &ms), "a = ", "was freed", alloc_at);
    cr_expect(strstr(sl_last_error(), "ordinary host memory") == NULL, "%s", sl_last_error());
    EXPECT_REFUSED(sl_copy_to_device(d, h, 16), "dst_device = ", "was freed", free_at);
    EXPECT_REFUSED(sl_reduce_sum_f32_device(d + 10, N - 10, &h[0], NULL, &ms), "x = ", "offset 40", free_at);
    /* where host memory belongs */
    EXPECT_REFUSED(sl_poison_f32(d, N), "p = ", "was freed", free_at);
    EXPECT_REFUSED(sl_vector_add_cpu(h, d, h, N), "b = ", "was freed", alloc_at);
    /* and freed twice */
    EXPECT_REFUSED(sl_free_device(d), "double free", alloc_at, free_at);
    sl_free_device(e);
    sl_free_device(f);
}

/* A buffer from the runtime's own cudaMalloc, freed with cudaFree: the
 * emulator knows it was freed and where it was allocated. */
Test(hostile, a_buffer_freed_with_cudaFree_is_named_as_freed_under_the_emulator)
{
    if (!sl_backend_is_emulator()) cr_skip_test("the emulator's record of freed ranges (a GPU keeps none)");
    float *d = NULL, *e = NULL;
    double ms = 0.0;
    char alloc_at[64];
    cr_assert_eq(sl_alloc_device(&e, N * sizeof(float)), SL_OK, "%s", sl_last_error());
    snprintf(alloc_at, sizeof alloc_at, "test_core_hostile.c:%d", __LINE__ + 1);
    cr_assert_eq(cudaMalloc((void **)&d, N * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaFree(d), cudaSuccess);
    EXPECT_REFUSED(sl_vector_add_device(e, d, e + 0, N, NULL, &ms), "b = ", "was freed", alloc_at);
    sl_free_device(e);
}

/* ---- in-place calls ------------------------------------------------------------ */

Test(hostile, in_place_device_and_cpu_calls_are_refused_naming_both_arguments, .init = setup_device,
     .fini = teardown_device)
{
    static float h[64 * 64], h2[64 * 64], h3[64 * 64];
    double ms = 0.0;
    float *d = dev_a; /* 1000 floats: room for 16 x 16 and more */
    EXPECT_REFUSED(sl_transpose_device(d, 16, 16, 16, d, 16, NULL, &ms), "out", "in", "overlap");
    EXPECT_REFUSED(sl_transpose_device(d, 8, 16, 16, d + 8, 8, NULL, &ms), "out", "in", "overlap");
    EXPECT_REFUSED(sl_transpose_cpu(h, 16, 16, 16, h, 16), "out", "in", "overlap");
    EXPECT_REFUSED(sl_sgemm_cpu_naive(16, 16, 16, 1.0f, h, 16, h2, 16, 0.0f, h, 16), "c", "a", "overlap");
    EXPECT_REFUSED(sl_sgemm_cpu_blocked(16, 16, 16, 1.0f, h, 16, h2, 16, 0.0f, h2, 16), "c", "b", "overlap");
    EXPECT_REFUSED(sl_sgemm_cpu_openblas(16, 16, 16, 1.0f, h, 16, h2, 16, 1.0f, h + 8, 16), "c", "a", "overlap");
    EXPECT_REFUSED(sl_sgemm_device(16, 16, 16, 1.0f, d, 16, dev_b, 16, 0.0f, d, 16, NULL, &ms), "c", "a",
                   "overlap");
    EXPECT_REFUSED(sl_vendor_sgemm_device(16, 16, 16, 1.0f, d, 16, dev_b, 16, 0.0f, dev_b, 16, &ms), "c", "b",
                   "overlap");
    EXPECT_REFUSED(sl_pays_round_trip(SL_PAYS_VECTOR_ADD, 1.0f, h, h2, h3, N / 2, d, d, dev_b, &ms), "dx", "dy",
                   "overlap");
    EXPECT_REFUSED(sl_pays_round_trip(SL_PAYS_VECTOR_ADD, 1.0f, h, h2, h3, N / 2, d, dev_b, d, &ms), "dout", "dx",
                   "overlap");
    EXPECT_REFUSED(sl_vector_add_device(d, dev_b, d, N, NULL, &ms), "c", "a", "overlap");
    EXPECT_REFUSED(sl_vector_add_cpu(h, h2, h2, N), "c", "b", "overlap");
    EXPECT_REFUSED(sl_tgemm_widen(SL_TGEMM_F16, (uint16_t *)h, h, 64), "out", "in", "overlap");
    EXPECT_REFUSED(sl_copy_device_to_device_timed(d, d + 4, 64, &ms), "dst_device", "src_device", "overlap");
}

/* The lifecycle functions copy through device buffers of their own, so an
 * output that is also an input gives the right answer. */
Test(hostile, in_place_lifecycle_calls_give_the_right_answer)
{
    sl_test_require_device();
    enum { S = 24 };
    static float m[S * S], t[S * S], a[S * S], ref[S * S];
    for (int i = 0; i < S * S; i++) m[i] = t[i] = (float)i, a[i] = (float)(i % 7) - 3.0f;
    cr_assert_eq(sl_transpose(t, S, S, S, t, S, NULL, NULL), SL_OK, "%s", sl_last_error());
    for (int i = 0; i < S; i++)
        for (int j = 0; j < S; j++) cr_assert_eq(t[j * S + i], m[i * S + j], "t[%d][%d]", j, i);
    cr_assert_eq(sl_sgemm_cpu_naive(S, S, S, 1.0f, a, S, m, S, 0.0f, ref, S), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_sgemm(S, S, S, 1.0f, a, S, m, S, 0.0f, a, S, NULL, NULL), SL_OK, "%s", sl_last_error());
    for (int i = 0; i < S * S; i++) cr_assert_eq(a[i], ref[i], "c[%d] = %g, expected %g", i, (double)a[i], (double)ref[i]);
}

/* ---- the cuBLAS wrappers say why ------------------------------------------------ */

Test(hostile, a_cublas_refusal_quotes_the_emulators_diagnosis)
{
    if (!sl_backend_is_emulator()) cr_skip_test("the emulator's cuBLAS checks ranges (a GPU's reads past them)");
    float *x = NULL, *y = NULL;
    double ms = 0.0;
    cr_assert_eq(sl_alloc_device(&x, 64 * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&y, 16 * sizeof(float)), SL_OK, "%s", sl_last_error());
    EXPECT_REFUSED(sl_vendor_saxpy_device(2.0f, x, y, 64, &ms), "cublasSaxpy", "past the end", "bytes");
    EXPECT_REFUSED(sl_vendor_sgemm_device(8, 8, 8, 1.0f, x, 8, x, 8, 0.0f, y, 8, &ms), "cublasSgemm",
                   "past the end", "allocation");
    /* and no stale text: a later, different failure does not quote it */
    void *z = NULL;
    EXPECT_REFUSED(sl_alloc_device(&z, SIZE_MAX), "cudaMalloc", NULL, NULL);
    cr_expect(strstr(sl_last_error(), "cublas") == NULL, "%s", sl_last_error());
    sl_free_device(x);
    sl_free_device(y);
}

/* ---- the smaller ones ---------------------------------------------------------------- */

Test(hostile, arg_ll_with_a_null_argv_entry_is_no_integer_not_a_crash)
{
    char prog[] = "prog";
    char *argv[] = {prog, NULL, NULL};
    long long out = 7;
    cr_expect_eq(sl_arg_ll(3, argv, 1, 5, 0, 10, &out), 0);
    cr_expect_eq(out, 7);
    cr_expect_eq(sl_arg_ll(3, argv, 3, 5, 0, 10, &out), 1);
    cr_expect_eq(out, 5);
}

Test(hostile, tgemm_cpu_reference_refuses_an_output_whose_bytes_overflow)
{
    uint16_t a[1] = {0}, b[1] = {0};
    double c[1];
    /* m * n = 2^62 fits in size_t; its 8-byte doubles do not */
    size_t side = (size_t)1 << 31;
    sl_test_expect_failure(sl_tgemm_cpu_reference(SL_TGEMM_F16, side, side, 1, a, b, c), SL_ERR_OVERFLOW, "c (m x n");
    sl_test_expect_failure(sl_tgemm_cpu_reference(SL_TGEMM_F16, 1, side, side * 4, a, b, c), SL_ERR_OVERFLOW, "k x n");
}

Test(hostile, fill_uniform_stays_below_hi_even_in_a_range_one_float_wide)
{
    static float p[N];
    const float lo = 1.0f, hi = nextafterf(1.0f, 2.0f);
    cr_assert_eq(sl_fill_uniform_f32(p, N, 42, lo, hi), SL_OK, "%s", sl_last_error());
    for (int i = 0; i < N; i++) cr_assert(p[i] >= lo && p[i] < hi, "p[%d] = %.9g is outside [lo, hi)", i, (double)p[i]);
    const float lo2 = 1e30f, hi2 = nextafterf(1e30f, INFINITY);
    cr_assert_eq(sl_fill_uniform_f32(p, N, 7, lo2, hi2), SL_OK, "%s", sl_last_error());
    for (int i = 0; i < N; i++) cr_assert(p[i] >= lo2 && p[i] < hi2, "p[%d] = %.9g", i, (double)p[i]);
}

Test(hostile, a_seed_with_blanks_or_a_sign_is_refused)
{
    const char *bad[] = {" -5", "-5", "+5", " 5", "\t7", "5 ", "0x", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t seed = 3;
        setenv("SIMTLAB_SEED", bad[i], 1);
        sl_status st = sl_seed_from_env(&seed);
        if (bad[i][0] == '\0') { /* unset-like: a clock seed */
            cr_expect_eq(st, SL_OK, "%s", sl_last_error());
            continue;
        }
        cr_expect_eq(st, SL_ERR_INVALID_ARGUMENT, "SIMTLAB_SEED=\"%s\" gave %s, seed %llu", bad[i],
                     sl_status_name(st), (unsigned long long)seed);
        cr_expect_eq(seed, 3, "SIMTLAB_SEED=\"%s\" changed the seed", bad[i]);
    }
    setenv("SIMTLAB_SEED", "18446744073709551615", 1);
    uint64_t seed = 0;
    cr_expect_eq(sl_seed_from_env(&seed), SL_OK, "%s", sl_last_error());
    cr_expect_eq(seed, UINT64_MAX);
    unsetenv("SIMTLAB_SEED");
}

Test(hostile, image_runs_does_not_overflow_on_huge_capabilities)
{
    cr_expect_eq(sl_errors_image_runs(90, 1, INT_MAX, 9), 1, "PTX for 9.0 runs on every later GPU");
    cr_expect_eq(sl_errors_image_runs(90, 1, INT_MAX / 10 + 1, 0), 1);
    cr_expect_eq(sl_errors_image_runs(90, 0, INT_MAX, 0), 0, "sm_90 machine code runs on 9.x only");
    cr_expect_eq(sl_errors_image_runs(INT_MAX, 1, 8, 0), 0);
}

/* The emulator's cudaMemcpy probes host memory through a buffer of its own
 * per thread: a thread that copies and ends must not leave it behind
 * (LeakSanitizer found 17 KB across 2 threads). */
static void *copy_once(void *arg)
{
    static float h[64];
    return (void *)(intptr_t)(sl_copy_to_device(arg, h, sizeof h) == SL_OK);
}

Test(hostile, threads_that_copy_leave_no_memory_behind)
{
    if (!sl_backend_is_emulator()) cr_skip_test("the emulator's own per-thread buffer");
    void *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, 64 * sizeof(float)), SL_OK, "%s", sl_last_error());
    enum { THREADS = 32 };
    size_t before = 0;
    for (int round = 0; round < 2; round++) { /* the first round warms up what stays (thread caches) */
        before = mallinfo2().uordblks;
        for (int i = 0; i < THREADS; i++) {
            pthread_t t;
            void *ok = NULL;
            cr_assert_eq(pthread_create(&t, NULL, copy_once, d), 0);
            cr_assert_eq(pthread_join(t, &ok), 0);
            cr_assert(ok, "the copy failed: %s", sl_last_error());
        }
    }
    size_t after = mallinfo2().uordblks;
    /* the probe buffer is 8.7 KB: 32 threads leaking it would be 278 KB */
    cr_expect_lt(after > before ? after - before : 0, (size_t)THREADS * 1024, "%zu bytes more in use after %d "
                 "threads each copied once", after - before, THREADS);
    cr_assert_eq(sl_free_device(d), SL_OK, "%s", sl_last_error());
}
