/* The host library's shared core: errors and hints, tracked allocations and
 * the leak report, the timing loop, the report, validation, random inputs
 * and argument parsing. Chapter tests stand on these, so they are tested on
 * their own. (tests/test_00_doctor.c is chapter 00, the doctor.) */
#include <criterion/criterion.h>
#include <math.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "../host/sl_internal.h" /* sl_fail, sl_free_device_all: the core's own internals */
#include "sl_test.h"

Test(core, every_status_has_a_name)
{
    for (int s = SL_OK; s <= SL_ERR_UNSUPPORTED; s++)
        cr_assert(strncmp(sl_status_name((sl_status)s), "SL_", 3) == 0, "status %d", s);
}

Test(core, the_hint_table_covers_the_errors_students_meet)
{
    const int codes[] = {cudaErrorInsufficientDriver, cudaErrorNoDevice, cudaErrorNoKernelImageForDevice,
                         cudaErrorMemoryAllocation, cudaErrorIllegalAddress, cudaErrorAssert,
                         cudaErrorInvalidConfiguration, cudaErrorLaunchOutOfResources,
                         cudaErrorInvalidValue};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        cr_assert_not_null(sl_cuda_error_hint(codes[i]), "no hint for %s", cudaGetErrorName(codes[i]));
    cr_assert(strstr(sl_cuda_error_hint(cudaErrorNoKernelImageForDevice), "CMAKE_CUDA_ARCHITECTURES=native"));
    cr_assert(strstr(sl_cuda_error_hint(cudaErrorAssert), "sticky"));
    cr_assert_null(sl_cuda_error_hint(cudaSuccess));
}

Test(core, a_device_error_line_names_the_call_the_error_and_the_fix)
{
    sl_test_require_device();
    void *p = NULL;
    /* More than any device has: cudaErrorMemoryAllocation. */
    sl_status st = sl_alloc_device(&p, (size_t)1 << 62);
    cr_assert_eq(st, SL_ERR_CUDA, "%s", sl_status_name(st));
    cr_assert_null(p);
    const char *msg = sl_last_error();
    cr_assert(strstr(msg, "cudaMalloc"), "%s", msg);
    cr_assert(strstr(msg, "test_core.c:"), "%s", msg);
    cr_assert(strstr(msg, "cudaErrorMemoryAllocation"), "%s", msg);
    cr_assert(strstr(msg, "hint:"), "%s", msg);
}

/* CUDA 13 refuses a bad configuration with cudaErrorInvalidValue, so the
 * hint for an error from a launch speaks of the configuration; a wait names
 * the launch it waited for. No device needed: only the message is made. */
Test(core, a_launch_error_names_the_launch_and_a_wait_names_what_it_waited_for)
{
    cr_assert_eq(sl_fail_launch(cudaErrorInvalidValue, "k<<<1, 2048>>>", 0, "t.c", 7), SL_ERR_CUDA);
    const char *msg = sl_last_error();
    cr_expect(strstr(msg, "k<<<1, 2048>>> failed at t.c:7: cudaErrorInvalidValue"), "%s", msg);
    cr_expect(strstr(msg, "1024 threads per block"), "%s", msg);
    cr_assert_eq(sl_fail_launch(cudaErrorAssert, "k<<<4, 256>>>", 1, "t.c", 9), SL_ERR_CUDA);
    msg = sl_last_error();
    cr_expect(strstr(msg, "cudaDeviceSynchronize() after k<<<4, 256>>> failed at t.c:9: cudaErrorAssert"), "%s", msg);
    cr_expect(!strstr(msg, "1024 threads per block"), "%s", msg);
    /* elsewhere cudaErrorInvalidValue keeps its general hint */
    cr_assert_eq(sl_fail_cuda(cudaErrorInvalidValue, "cudaMemcpy", "t.c", 11), SL_ERR_CUDA);
    msg = sl_last_error();
    cr_expect(strstr(msg, "an argument is out of range") && !strstr(msg, "1024 threads per block"), "%s", msg);
}

Test(core, leaks_are_reported_with_the_line_that_allocated)
{
    sl_test_require_device();
    void *d = NULL, *h = NULL;
    cr_assert_eq(sl_alloc_device(&d, 4096), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_pinned(&h, 100), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_live_count(), 2);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_eq(sl_alloc_report_leaks(out), 2);
    fclose(out);
    cr_assert(strstr(text, "device 4096 bytes from"), "%s", text);
    cr_assert(strstr(text, "pinned 100 bytes from"), "%s", text);
    cr_assert(strstr(text, "test_core.c:"), "%s", text);
    free(text);
    cr_assert_eq(sl_free_device(d), SL_OK);
    cr_assert_eq(sl_free_pinned(h), SL_OK);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(core, freeing_what_was_not_allocated_is_an_error_not_a_crash)
{
    int local = 0;
    cr_assert_eq(sl_free_device(&local), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "not a live device allocation"), "%s", sl_last_error());
    cr_assert_eq(sl_free_pinned(&local), SL_ERR_INVALID_ARGUMENT);
    cr_assert_eq(sl_free_device(NULL), SL_OK);
    cr_assert_eq(sl_alloc_device_at(NULL, 4, __FILE__, __LINE__), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "sl_alloc_device: ptr is NULL"), "%s", sl_last_error());
}

typedef struct fake_clock {
    int calls;
} fake_clock;

/* Returns 1, 2, 3, ... ms: warm-up calls included. */
static sl_status counting_run(void *ctx, double *ms)
{
    fake_clock *c = ctx;
    *ms = ++c->calls;
    return SL_OK;
}

static sl_status failing_run(void *ctx, double *ms)
{
    int *calls = ctx;
    ++*calls;
    *ms = 0;
    return SL_ERR_CUDA;
}

Test(core, time_repeat_takes_median_min_max_after_warmup)
{
    fake_clock c = {0};
    sl_stats s;
    cr_assert_eq(sl_time_repeat(counting_run, &c, 2, 5, &s), SL_OK);
    cr_assert_eq(c.calls, 7);
    /* timed runs returned 3, 4, 5, 6, 7 */
    cr_assert_float_eq(s.min_ms, 3.0, 1e-12);
    cr_assert_float_eq(s.median_ms, 5.0, 1e-12);
    cr_assert_float_eq(s.max_ms, 7.0, 1e-12);
    c.calls = 0;
    cr_assert_eq(sl_time_repeat(counting_run, &c, 0, 4, &s), SL_OK);
    cr_assert_float_eq(s.median_ms, 2.5, 1e-12);
}

Test(core, time_repeat_rejects_bad_arguments_and_stops_at_a_failure)
{
    fake_clock c = {0};
    sl_stats s;
    cr_assert_eq(sl_time_repeat(counting_run, &c, 0, 0, &s), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "runs"));
    cr_assert_eq(sl_time_repeat(counting_run, &c, -1, 3, &s), SL_ERR_INVALID_ARGUMENT);
    cr_assert_eq(sl_time_repeat(NULL, &c, 0, 3, &s), SL_ERR_INVALID_ARGUMENT);
    int calls = 0;
    cr_assert_eq(sl_time_repeat(failing_run, &calls, 0, 3, &s), SL_ERR_CUDA);
    cr_assert_eq(calls, 1, "runs went on after a failure");
}

Test(core, random_inputs_depend_only_on_the_seed)
{
    float a[64], b[64], c[64];
    sl_fill_uniform_f32(a, 64, 123, -2.0f, 2.0f);
    sl_fill_uniform_f32(b, 64, 123, -2.0f, 2.0f);
    sl_fill_uniform_f32(c, 64, 124, -2.0f, 2.0f);
    cr_assert(memcmp(a, b, sizeof a) == 0);
    cr_assert(memcmp(a, c, sizeof a) != 0);
    for (int i = 0; i < 64; i++) cr_assert(a[i] >= -2.0f && a[i] < 2.0f);
}

Test(core, the_backend_knows_what_it_is)
{
    cr_assert_str_eq(sl_backend_name(), sl_backend_is_emulator() ? "emulator" : "cuda");
}

Test(core, the_random_stream_is_splitmix64)
{
    /* splitmix64's published first outputs for seed 0 (Steele, Lea and
     * Flood's reference implementation; also Java's SplittableRandom). */
    uint64_t state = 0;
    cr_assert_eq(sl_rng_next(&state), 0xE220A8397B1DCDAFull);
    cr_assert_eq(sl_rng_next(&state), 0x6E789E6AA1B965F4ull);
}

Test(core, report_begin_clears_everything_and_records_the_launch)
{
    sl_report r;
    memset(&r, 0x5A, sizeof r);
    sl_report_begin(&r, 3, 128);
    cr_assert_eq(r.version, 3);
    cr_assert_eq(r.block, 128);
    cr_assert_eq(r.grid, 0);
    cr_assert_eq(r.bytes_h2d, 0);
    cr_assert_eq(r.emulated, sl_backend_is_emulator());
    for (int p = 0; p < SL_PHASE_COUNT; p++) cr_assert_eq(r.phase_ms[p], 0.0);
}

Test(core, program_arguments_are_parsed_and_bounded)
{
    char *argv[] = {"prog", "1000", "0x10", "-3", "12abc", "", "99999999999999999999"};
    int argc = 7;
    long long v = -1;
    cr_assert(sl_arg_ll(argc, argv, 1, 5, 0, 2000, &v) && v == 1000);
    cr_assert(sl_arg_ll(argc, argv, 2, 5, 0, 2000, &v) && v == 16);
    cr_assert(!sl_arg_ll(argc, argv, 3, 5, 0, 2000, &v), "below the minimum");
    cr_assert(!sl_arg_ll(argc, argv, 4, 5, 0, 2000, &v), "trailing text");
    cr_assert(!sl_arg_ll(argc, argv, 5, 5, 0, 2000, &v), "empty text");
    cr_assert(!sl_arg_ll(argc, argv, 6, 5, 0, LLONG_MAX, &v), "out of range of long long");
    cr_assert(!sl_arg_ll(argc, argv, 1, 5, 0, 999, &v), "above the maximum");
    cr_assert(sl_arg_ll(argc, argv, 7, 5, 0, 2000, &v) && v == 5, "missing: the fallback");
}

/* ---- the validator itself must be able to fail ------------------------------ */
Test(validate, nan_never_passes)
{
    float got[3] = {1.0f, NAN, 3.0f};
    double ref[3] = {1.0, 2.0, 3.0};
    sl_check c = sl_compare_f32(got, ref, 3, 1e30);
    cr_assert(!c.passed);
    cr_assert_eq(c.nonfinite, 1);
    cr_assert_eq(c.worst, 1);
}

Test(validate, inf_never_passes_and_errors_are_measured)
{
    float got[2] = {INFINITY, 2.5f};
    double ref[2] = {1.0, 2.0};
    cr_assert(!sl_compare_f32(got, ref, 2, 1e30).passed);
    float close[2] = {1.0f, 2.5f};
    sl_check c = sl_compare_f32(close, ref, 2, 0.1);
    cr_assert(!c.passed);
    cr_assert_float_eq(c.max_abs, 0.5, 1e-12);
    cr_assert_float_eq(c.rel_l2, 0.5 / sqrt(5.0), 1e-12);
}

Test(validate, poison_is_nan)
{
    float p[5];
    sl_poison_f32(p, 5);
    for (int i = 0; i < 5; i++) cr_assert(isnan(p[i]));
}

/* ---- hardening: every core function checks what it is given ---------------- */

Test(core, the_leak_report_goes_to_stderr_when_no_stream_is_given)
{
    sl_test_require_device();
    void *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, 64), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_report_leaks(NULL), 1);
    cr_assert_eq(sl_free_device(d), SL_OK);
}

Test(core, compare_with_a_null_array_fails_and_says_so)
{
    double ref[2] = {1.0, 2.0};
    float got[2] = {1.0f, 2.0f};
    sl_check c = sl_compare_f32(NULL, ref, 2, 1e30);
    cr_assert(!c.passed);
    cr_assert_eq(c.nonfinite, 2);
    cr_assert(strstr(sl_last_error(), "got is NULL"), "%s", sl_last_error());
    c = sl_compare_f32(got, NULL, 2, 1e30);
    cr_assert(!c.passed);
    cr_assert(strstr(sl_last_error(), "ref is NULL"), "%s", sl_last_error());
    cr_assert(sl_compare_f32(NULL, NULL, 0, 0.0).passed, "nothing to compare passes");
}

Test(core, poison_and_fill_check_their_arguments)
{
    float p[4];
    sl_test_expect_failure(sl_poison_f32(NULL, 4), SL_ERR_INVALID_ARGUMENT, "p is NULL");
    sl_test_expect_failure(sl_poison_f32(p, SIZE_MAX / 4 + 1), SL_ERR_OVERFLOW, "sl_poison_f32: n");
    cr_assert_eq(sl_poison_f32(NULL, 0), SL_OK);
    sl_test_expect_failure(sl_fill_uniform_f32(NULL, 4, 1, 0.0f, 1.0f), SL_ERR_INVALID_ARGUMENT, "p is NULL");
    sl_test_expect_failure(sl_fill_uniform_f32(p, 4, 1, 1.0f, 1.0f), SL_ERR_INVALID_ARGUMENT, "[lo, hi)");
    sl_test_expect_failure(sl_fill_uniform_f32(p, 4, 1, 0.0f, INFINITY), SL_ERR_INVALID_ARGUMENT, "[lo, hi)");
    cr_assert_eq(sl_fill_uniform_f32(p, 4, 1, 0.0f, 1.0f), SL_OK);
}

Test(core, a_seed_that_is_not_a_number_is_an_error_not_zero)
{
    uint64_t seed = 7;
    setenv("SIMTLAB_SEED", "banana", 1);
    sl_test_expect_failure(sl_seed_from_env(&seed), SL_ERR_INVALID_ARGUMENT, "\"banana\"");
    setenv("SIMTLAB_SEED", "-3", 1);
    sl_test_expect_failure(sl_seed_from_env(&seed), SL_ERR_INVALID_ARGUMENT, "SIMTLAB_SEED");
    setenv("SIMTLAB_SEED", "0x10", 1);
    cr_assert_eq(sl_seed_from_env(&seed), SL_OK, "%s", sl_last_error());
    cr_assert_eq(seed, 16);
    unsetenv("SIMTLAB_SEED");
}

Test(core, cleanup_after_a_failure_keeps_the_first_message)
{
    /* A failure, then a cleanup whose free fails too: the first message and
     * status stand. */
    int not_allocated = 0;
    sl_status first = sl_fail(SL_ERR_CUDA, "the launch failed first");
    sl_status st = sl_free_device_all(first, &not_allocated, NULL, NULL);
    cr_assert_eq(st, SL_ERR_CUDA);
    cr_assert_str_eq(sl_last_error(), "the launch failed first");
    /* Without an earlier failure the free's own error is reported. */
    st = sl_free_device_all(SL_OK, &not_allocated, NULL, NULL);
    cr_assert_eq(st, SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "not a live device allocation"), "%s", sl_last_error());
}

Test(core, a_copy_from_or_into_bad_host_memory_fails_naming_the_argument)
{
    /* Under the emulator (issue 16): a GPU build's driver may fault instead. */
    if (!sl_backend_is_emulator()) cr_skip_test("the emulator's host-range check (a GPU driver may fault)");
    void *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, 64), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_fill_bytes_device(d, 0, 64), SL_OK, "%s", sl_last_error());
    sl_test_expect_failure(sl_copy_to_device(d, (const void *)0x10, 64), SL_ERR_CUDA, "src_host");
    cr_assert(strstr(sl_last_error(), "src 0x10") && strstr(sl_last_error(), "not mapped"), "%s", sl_last_error());
    char *literal = (char *)"a string literal";
    sl_test_expect_failure(sl_copy_to_host(literal, d, 8), SL_ERR_CUDA, "dst_host");
    cr_assert(strstr(sl_last_error(), "read-only"), "%s", sl_last_error());
    cr_assert_str_eq(literal, "a string literal");
    cr_assert_eq(sl_free_device(d), SL_OK, "%s", sl_last_error());
}

/* A message longer than the last-error buffer ends at a whole word and says
 * it was cut; one of a few thousand characters (a launch failure quoting the
 * emulator's diagnostic at a long checkout path) is kept whole. */
Test(core, a_long_message_is_kept_whole_and_a_longer_one_is_cut_at_a_word_with_a_marker)
{
    enum { words = 4000 };
    static char text[words * 7 + 1];
    size_t len = 0;
    for (int i = 0; i < words; i++)
        len += (size_t)sprintf(text + len, "w%04d ", i); /* "w0000 w0001 ..." */
    text[len - 1] = '\0';

    /* 3000 characters: whole */
    char shorter[3001];
    memcpy(shorter, text, 3000);
    shorter[3000] = '\0';
    sl_fail(SL_ERR_CUDA, "%s", shorter);
    cr_expect_str_eq(sl_last_error(), shorter);

    /* 28000 characters: cut after a whole word, with the marker */
    sl_fail(SL_ERR_CUDA, "%s", text);
    const char *got = sl_last_error();
    const char *marker = " [... message cut]";
    size_t glen = strlen(got), mlen = strlen(marker);
    cr_assert_gt(glen, 1000u, "the cut message keeps what fits: %zu characters", glen);
    cr_assert_lt(glen, sizeof text);
    cr_assert_str_eq(got + glen - mlen, marker, "the cut message ends with the marker: ...%s",
                     got + glen - 40);
    size_t kept = glen - mlen;
    cr_expect_eq(strncmp(got, text, kept), 0, "what is kept is the message's start");
    cr_expect_eq(text[kept], ' ', "the cut falls between words, not inside one (kept %zu characters)",
                 kept);
    sl_clear_error();
}
