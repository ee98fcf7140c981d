/* Chapter 07 — errors and debugging: each case says what it should.
 *
 * For every case of sl_errors_run: the status, the CUDA error and the call
 * that reported it, whether it is sticky, and the key words of the message
 * (the CUDA error's name, and under the emulator its diagnosis). Criterion
 * runs each test in a process of its own, so the sticky errors of one case
 * (assert, oob, race) cannot leak into the next. On a GPU some cases differ
 * by nature, and the test says so where it accepts either outcome: a small
 * overrun need not fault, a race may give right answers by luck. The
 * example's output is checked case by case by emu.07_errors.* (cmake/07_errors.cmake). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "07_errors.h"
#include "sl_test.h"

/* cudaError_t values, as both runtimes define them. */
enum { ERR_INVALID_VALUE = 1, ERR_MEMORY = 2, ERR_NO_IMAGE = 209, ERR_ILLEGAL_ADDRESS = 700,
       ERR_OUT_OF_RESOURCES = 701, ERR_ASSERT = 710, ERR_LAUNCH_FAILURE = 719 };

static void expect_words(const char *w1, const char *w2, const char *w3)
{
    const char *words[] = {w1, w2, w3};
    for (int i = 0; i < 3; i++)
        if (words[i]) cr_expect(strstr(sl_last_error(), words[i]) != NULL, "\"%s\" is not in: %s", words[i], sl_last_error());
}

static int emulated(void) { return sl_backend_is_emulator(); }

Test(errors, every_case_has_a_name_that_parses_back_and_a_mistake)
{
    for (int c = 0; c < SL_ERRORS_CASE_COUNT; c++) {
        const char *name = sl_errors_case_name((sl_errors_case)c);
        cr_assert_not_null(name);
        cr_assert_not_null(sl_errors_case_mistake((sl_errors_case)c));
        sl_errors_case back = SL_ERRORS_CASE_COUNT;
        cr_assert_eq(sl_errors_case_parse(name, &back), SL_OK, "%s", sl_last_error());
        cr_assert_eq((int)back, c);
    }
    cr_assert_null(sl_errors_case_name(SL_ERRORS_CASE_COUNT));
    cr_assert_null(sl_errors_case_mistake((sl_errors_case)-1));
}

Test(errors, a_bad_case_name_or_null_argument_is_named)
{
    sl_errors_case c;
    sl_test_expect_failure(sl_errors_case_parse("segfault", &c), SL_ERR_INVALID_ARGUMENT, "\"segfault\"");
    sl_test_expect_failure(sl_errors_case_parse(NULL, &c), SL_ERR_INVALID_ARGUMENT, "(NULL)");
    sl_test_expect_failure(sl_errors_case_parse("oob", NULL), SL_ERR_INVALID_ARGUMENT, "out");
    sl_errors_outcome o;
    sl_test_expect_failure(sl_errors_run(SL_ERRORS_CASE_COUNT, &o), SL_ERR_INVALID_ARGUMENT, "c = 9");
    sl_test_expect_failure(sl_errors_run(SL_ERRORS_OOB, NULL), SL_ERR_INVALID_ARGUMENT, "out");
}

/* The compatibility rules of the CUDA Programming Guide ("Binary
 * Compatibility", "PTX Compatibility"), on the pairs a student meets. */
Test(errors, machine_code_runs_on_its_major_version_and_ptx_on_every_later_one)
{
    cr_expect(sl_errors_image_runs(80, 0, 8, 0));
    cr_expect(sl_errors_image_runs(80, 0, 8, 6));  /* A100 code on an RTX 3090 */
    cr_expect(sl_errors_image_runs(80, 0, 8, 9));
    cr_expect(!sl_errors_image_runs(86, 0, 8, 0)); /* minor too high */
    cr_expect(!sl_errors_image_runs(80, 0, 9, 0)); /* H100: another major, no image */
    cr_expect(!sl_errors_image_runs(90, 0, 8, 0));
    cr_expect(!sl_errors_image_runs(90, 0, 12, 0));
    cr_expect(!sl_errors_image_runs(121, 0, 12, 0));
    cr_expect(sl_errors_image_runs(121, 0, 12, 1));
    cr_expect(sl_errors_image_runs(80, 1, 9, 0));   /* PTX: JIT-compiled for a newer GPU */
    cr_expect(sl_errors_image_runs(80, 1, 12, 0));
    cr_expect(!sl_errors_image_runs(80, 1, 7, 5));  /* never for an older one */
    cr_expect(!sl_errors_image_runs(90, 1, 8, 9));
}

Test(errors, a_failed_device_assert_is_cudaErrorAssert_and_sticky)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_ASSERT, &o);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_ASSERT);
    cr_expect(o.sticky, "a failed assert must leave the context unusable");
    expect_words("cudaErrorAssert", "errors_assert_non_negative", NULL);
    /* The wait reports the kernel's error; the library names the launch it
     * waited for (on a GPU the kernel's name is otherwise only in the
     * device's own line on stderr). */
    if (!strcmp(o.reported_by, "cudaDeviceSynchronize"))
        expect_words("cudaDeviceSynchronize() after errors_assert_non_negative<<<4, 256>>>", NULL, NULL);
    if (emulated()) expect_words("Assertion `x[i] >= 0.0f` failed", "thread (105,0,0)", "block (2,0,0)");
    /* On a GPU, cudaDeviceSynchronize as a rule; cudaGetLastError only if
     * the runtime had already seen the fault, which nothing promises. */
    cr_expect(!strcmp(o.reported_by, "the launch") || !strcmp(o.reported_by, "cudaDeviceSynchronize"),
              "reported by \"%s\"", o.reported_by);
}

Test(errors, a_missing_bounds_check_is_an_illegal_address_named_by_the_emulator)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_OOB, &o);
    if (!emulated() && st == SL_OK) {
        /* A GPU need not fault on 96 bytes past a 4000-byte buffer: the
         * page is still mapped. That is why compute-sanitizer exists. */
        cr_expect_eq(o.cuda_error, 0);
        return;
    }
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_ILLEGAL_ADDRESS);
    cr_expect(o.sticky);
    expect_words("cudaErrorIllegalAddress", "errors_scale_unchecked", NULL);
    if (emulated()) {
        expect_words("past the end", "4000-byte allocation", "offset 4000");
        expect_words("block (3,0,0), thread (232,0,0)", NULL, NULL);
        cr_expect(!strcmp(o.reported_by, "the launch") || !strcmp(o.reported_by, "cudaDeviceSynchronize"),
                  "reported by \"%s\"", o.reported_by);
    }
}

Test(errors, asking_for_more_than_the_device_has_is_out_of_memory_and_not_sticky)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_OOM, &o);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_MEMORY);
    cr_expect_str_eq(o.reported_by, "cudaMalloc");
    cr_expect(!o.sticky, "out of memory must leave the context usable");
    cr_expect_eq(sl_alloc_live_count(), 0);
    expect_words("cudaErrorMemoryAllocation", "cudaMalloc", "cudaMemGetInfo");
    if (emulated()) expect_words("out of device memory", "the emulated device has", NULL);
}

/* CUDA 13 answers cudaErrorInvalidValue (measured on an NVIDIA H200, CUDA
 * 13.0, driver 580.159.04, 2026-12-04); older versions answered
 * cudaErrorInvalidConfiguration. */
Test(errors, a_block_of_2048_threads_is_refused_at_the_launch)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_CONFIG, &o);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_INVALID_VALUE);
    cr_expect_str_eq(o.reported_by, "the launch");
    cr_expect(!o.sticky);
    cr_expect_eq(sl_alloc_live_count(), 0);
    expect_words("cudaErrorInvalidValue", "1024 threads per block", "errors_scale<<<1, 2048>>>");
    if (emulated()) expect_words("block (2048,1,1)", "above the device's limit", NULL);
}

Test(errors, too_many_registers_for_the_block_is_out_of_resources_on_a_gpu)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_RESOURCES, &o);
    cr_expect_eq(sl_alloc_live_count(), 0);
    if (emulated()) {
        /* The emulator cannot show it, and says so. */
        cr_assert_eq(st, SL_ERR_UNSUPPORTED, "%s: %s", sl_status_name(st), sl_last_error());
        cr_expect_eq(o.regs_per_thread, 0);
        expect_words("counts no registers", "cudaErrorLaunchOutOfResources", "-Xptxas -v");
        return;
    }
    cr_assert_gt(o.regs_per_thread, 64, "the kernel was meant to need more than 64 registers per thread");
    cr_expect_lt(o.max_block, 1024);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_OUT_OF_RESOURCES);
    cr_expect_str_eq(o.reported_by, "the launch");
    expect_words("cudaErrorLaunchOutOfResources", "registers", NULL);
}

Test(errors, a_kernel_built_for_another_architecture_has_no_image)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_NOIMAGE, &o);
    cr_expect_eq(sl_alloc_live_count(), 0);
    if (emulated()) {
        cr_assert_eq(st, SL_ERR_UNSUPPORTED, "%s: %s", sl_status_name(st), sl_last_error());
        expect_words("no launch can lack a kernel image", "cudaErrorNoKernelImageForDevice", "SIMTLAB_EMU_CC");
        return;
    }
    sl_device_info info;
    cr_assert_eq(sl_device_query(0, &info), SL_OK, "%s", sl_last_error());
    const char *archs = sl_errors_noimage_built_architectures();
    int runs = sl_errors_image_runs(atoi(archs) / 10, 0, info.major, info.minor);
    if (runs) {
        cr_expect_eq(st, SL_OK, "this GPU (%d.%d) has the image %s: %s", info.major, info.minor, archs, sl_last_error());
        return;
    }
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_NO_IMAGE);
    expect_words("cudaErrorNoKernelImageForDevice", "compute capability", "CMAKE_CUDA_ARCHITECTURES");
}

Test(errors, a_device_pointer_is_refused_to_host_code_by_name)
{
    sl_test_require_device();
    sl_errors_outcome o;
    sl_test_expect_failure(sl_errors_run(SL_ERRORS_HOSTDEREF, &o), SL_ERR_INVALID_ARGUMENT, "d_x");
    expect_words("is device memory", "cudaMemcpyDeviceToHost", NULL);
    cr_expect_eq(sl_alloc_live_count(), 0);
    float host[4] = {0};
    cr_expect_eq(sl_errors_check_host_readable(host, "host"), SL_OK, "%s", sl_last_error());
    sl_test_expect_failure(sl_errors_check_host_readable(NULL, "h"), SL_ERR_INVALID_ARGUMENT, "h is NULL");
}

Test(errors, a_missing_syncthreads_is_named_by_the_emulators_racecheck)
{
    sl_test_require_device();
    if (emulated() && sl_modelled_available() != SL_OK)
        cr_skip_test("this build's kernels are not instrumented (%s): no racecheck to test", sl_last_error());
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_RACE, &o);
    cr_expect_eq(sl_alloc_live_count(), 0);
    if (!emulated()) {
        /* A GPU reports nothing: the outputs are whatever the warps' order gave. */
        cr_expect_eq(st, SL_OK, "%s", sl_last_error());
        cr_expect_leq(o.wrong, 1024);
        return;
    }
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_expect_eq(o.cuda_error, ERR_LAUNCH_FAILURE);
    expect_words("racecheck", "hazard on __shared__ s", "Race reported between");
}

Test(errors, without_racecheck_the_emulators_order_shows_the_race_as_wrong_outputs)
{
    if (!emulated()) cr_skip_test("emulator only: the emulator's thread order with racecheck off");
    setenv("SIMTLAB_EMU_RACECHECK", "0", 1); /* read once, at this process's first launch */
    sl_errors_outcome o;
    sl_status st = sl_errors_run(SL_ERRORS_RACE, &o);
    cr_assert_eq(st, SL_OK, "%s", sl_last_error());
    /* Threads of a block run in index order: threads 0-127 read the slots of
     * 128-255 before those are written (the 0xFF poison, a NaN). */
    cr_expect_eq(o.wrong, 512);
}

Test(errors, the_leak_is_listed_with_the_line_that_made_it)
{
    sl_test_require_device();
    sl_errors_outcome o;
    cr_assert_eq(sl_errors_run(SL_ERRORS_LEAK, &o), SL_OK, "%s", sl_last_error());
    cr_expect_eq(o.leaked_bytes, 4096);
    cr_expect_eq(sl_alloc_live_count(), 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_expect_eq(sl_alloc_report_leaks(f), 1);
    fclose(f);
    cr_expect(strstr(text, "device 4096 bytes from") && strstr(text, "07_errors.c:"), "%s", text);
    free(text);
}
