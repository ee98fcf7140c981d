/* The host library core: errors and hints, tracked allocations and the leak
 * report, the timing loop. Chapter tests stand on these, so they are tested
 * on their own. */
#include <criterion/criterion.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    sl_status st = sl_device_alloc(&p, (size_t)1 << 62);
    cr_assert_eq(st, SL_ERR_CUDA, "%s", sl_status_name(st));
    cr_assert_null(p);
    const char *msg = sl_last_error();
    cr_assert(strstr(msg, "cudaMalloc"), "%s", msg);
    cr_assert(strstr(msg, "test_00_core.c:"), "%s", msg);
    cr_assert(strstr(msg, "cudaErrorMemoryAllocation"), "%s", msg);
    cr_assert(strstr(msg, "hint:"), "%s", msg);
}

Test(core, leaks_are_reported_with_the_line_that_allocated)
{
    sl_test_require_device();
    void *d = NULL, *h = NULL;
    cr_assert_eq(sl_device_alloc(&d, 4096), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_pinned_alloc(&h, 100), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_live_count(), 2);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_eq(sl_alloc_report_leaks(out), 2);
    fclose(out);
    cr_assert(strstr(text, "device 4096 bytes from"), "%s", text);
    cr_assert(strstr(text, "pinned 100 bytes from"), "%s", text);
    cr_assert(strstr(text, "test_00_core.c:"), "%s", text);
    free(text);
    cr_assert_eq(sl_device_free(d), SL_OK);
    cr_assert_eq(sl_pinned_free(h), SL_OK);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(core, freeing_what_was_not_allocated_is_an_error_not_a_crash)
{
    int local = 0;
    cr_assert_eq(sl_device_free(&local), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "not a live device allocation"), "%s", sl_last_error());
    cr_assert_eq(sl_pinned_free(&local), SL_ERR_INVALID_ARGUMENT);
    cr_assert_eq(sl_device_free(NULL), SL_OK);
    cr_assert_eq(sl_device_alloc(NULL, 4), SL_ERR_INVALID_ARGUMENT);
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
