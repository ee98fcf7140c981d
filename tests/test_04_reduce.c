/* Chapter 04 — reduction: every version and operator, odd sizes, NaN, ties,
 * bad input, leaks, and a barrier-dependent version under random schedules.
 *
 * References are computed here, independently of the library: a double loop
 * for float sums, a long long loop for int sums, a plain scan for max and
 * argmax. Tolerances follow from the order of additions (see
 * tutorial/04-reduction.md):
 *   - float accumulator: a sum of k non-negative floats in any order has a
 *     relative error below about (depth) * 2^-24, where depth is the longest
 *     chain of additions: log2(n) for a tree, plus the elements one thread
 *     adds in sequence (v7-v9). Inputs are uniform in [0, 1), so there is
 *     no cancellation and the relative bound means something. We allow
 *     max(1e-5, (depth + 2) * 2^-24).
 *   - double accumulator: the same with 2^-53; 1e-10 is far above that and
 *     far below the ~1e-8..1e-7 a float accumulator makes at n = 10^6.
 *   - int sums, max and argmax are exact.
 *
 * Sizes: 1, 2, 31, 33, 255, 257, 1000003 and a largest size for every
 * version and operator. The largest is 2^24 + 1 on a GPU and 2^20 + 1 under
 * the emulator, which runs one CPU fiber per element: both are odd, take
 * three passes of a 256-thread tree (v1-v6), and leave the float sum's
 * bound at its widest; 2^24 + 1 under the emulator costs 16 times the time
 * and checks nothing more. */
#include <criterion/criterion.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "04_reduce.h"
#include "sl_test.h"

static size_t big_size(void)
{
    return sl_backend_is_emulator() ? ((size_t)1 << 20) + 1 : ((size_t)1 << 24) + 1;
}
static const size_t sizes[] = {1, 2, 31, 33, 255, 257, 1000003, 0 /* big_size() */};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define BIG big_size()

/* Ints uniform in [-2^30, 2^30): both signs, and sums of a few elements
 * already leave the int32 range. */
static void fill_ints(int *p, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) p[i] = (int)((int64_t)(sl_rng_next(&s) >> 33) - ((int64_t)1 << 30));
}

static double ref_sum(const float *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s;
}

static int log2_ceil(size_t n)
{
    int k = 0;
    while (((size_t)1 << k) < n) k++;
    return k;
}

/* The float accumulator's bound for this run (header comment). */
static double float_tolerance(size_t n, const sl_report *rep)
{
    double per_thread = 1.0;
    if (rep->version >= 7) per_thread = ceil((double)n / ((double)rep->grid * rep->block));
    double bound = (per_thread + log2_ceil(n) + 2) * ldexp(1.0, -24);
    return bound > 1e-5 ? bound : 1e-5;
}

static void check_sum_f32(int version, size_t n, uint64_t seed)
{
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, seed, 0.0f, 1.0f);
    double ref = ref_sum(x, n);
    float got = NAN; /* poisoned */
    sl_opts opts = {version, 256};
    sl_report rep;
    cr_assert_eq(sl_reduce_sum_f32(x, n, &got, &opts, &rep), SL_OK, "v%d n=%zu: %s", version, n, sl_last_error());
    double rel = fabs(got - ref) / ref, tol = float_tolerance(n, &rep);
    cr_assert(isfinite(got) && rel <= tol, "v%d n=%zu seed=%llu: sum %.9g, expected %.9g (rel %.3g > %.3g)", version,
              n, (unsigned long long)seed, got, ref, rel, tol);
    cr_assert_eq(rep.version, version);
    cr_assert_eq(rep.bytes_h2d, n * sizeof(float));
    cr_assert_eq(rep.bytes_d2h, sizeof(float));
    free(x);
}

static void check_sum_f64acc(int version, size_t n, uint64_t seed)
{
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, seed, 0.0f, 1.0f);
    double ref = ref_sum(x, n), got = NAN;
    sl_opts opts = {version, 256};
    cr_assert_eq(sl_reduce_sum_f32_f64acc(x, n, &got, &opts, NULL), SL_OK, "v%d n=%zu: %s", version, n,
                 sl_last_error());
    double rel = fabs(got - ref) / ref;
    cr_assert(isfinite(got) && rel <= 1e-10, "v%d n=%zu seed=%llu: sum %.17g, expected %.17g (rel %.3g)", version,
              n, (unsigned long long)seed, got, ref, rel);
    free(x);
}

static void check_sum_i32(int version, size_t n, uint64_t seed)
{
    int *x = sl_test_alloc(n * sizeof *x);
    fill_ints(x, n, seed);
    long long ref = 0, got = LLONG_MIN; /* poisoned */
    for (size_t i = 0; i < n; i++) ref += x[i];
    sl_opts opts = {version, 256};
    cr_assert_eq(sl_reduce_sum_i32(x, n, &got, &opts, NULL), SL_OK, "v%d n=%zu: %s", version, n, sl_last_error());
    cr_assert_eq(got, ref, "v%d n=%zu seed=%llu: sum %lld, expected %lld", version, n, (unsigned long long)seed,
                 got, ref);
    free(x);
}

static void check_max(int version, size_t n, uint64_t seed)
{
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, seed, -1000.0f, 1000.0f);
    float ref = -INFINITY, got = NAN;
    for (size_t i = 0; i < n; i++) ref = x[i] > ref ? x[i] : ref;
    sl_opts opts = {version, 256};
    cr_assert_eq(sl_reduce_max_f32(x, n, &got, &opts, NULL), SL_OK, "v%d n=%zu: %s", version, n, sl_last_error());
    cr_assert(got == ref, "v%d n=%zu seed=%llu: max %.9g, expected %.9g", version, n, (unsigned long long)seed, got,
              ref);
    free(x);
}

/* Uniform values below 1, and 2.0 planted at up to three random places:
 * the answer is the lowest of them. */
static void check_argmax(int version, size_t n, uint64_t seed)
{
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, seed, -1.0f, 1.0f);
    uint64_t s = seed ^ 0xA5A5A5A5u;
    size_t lowest = n;
    for (int k = 0; k < 3; k++) {
        size_t at = (size_t)(sl_rng_next(&s) % n);
        x[at] = 2.0f;
        lowest = at < lowest ? at : lowest;
    }
    size_t index = SIZE_MAX;
    float value = NAN;
    sl_opts opts = {version, 256};
    cr_assert_eq(sl_reduce_argmax_f32(x, n, &index, &value, &opts, NULL), SL_OK, "v%d n=%zu: %s", version, n,
                 sl_last_error());
    cr_assert(index == lowest && value == 2.0f, "v%d n=%zu seed=%llu: argmax %zu (%g), expected %zu (2)", version,
              n, (unsigned long long)seed, index, value, lowest);
    free(x);
}

typedef void (*op_check)(int version, size_t n, uint64_t seed);

static void check_all_sizes(int version, op_check check, const char *name)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed(name);
    for (size_t s = 0; s < NSIZES; s++) check(version, sizes[s] ? sizes[s] : BIG, seed + s);
    cr_assert_eq(sl_alloc_live_count(), 0, "device buffers leaked");
}

#define VERSION_TESTS(n)                                                                                     \
    Test(reduce, v##n##_sum_f32_within_float_bound) { check_all_sizes(n, check_sum_f32, "v" #n " sum_f32"); } \
    Test(reduce, v##n##_sum_f64acc_within_double_bound)                                                      \
    {                                                                                                        \
        check_all_sizes(n, check_sum_f64acc, "v" #n " sum_f64acc");                                          \
    }                                                                                                        \
    Test(reduce, v##n##_sum_i32_is_exact) { check_all_sizes(n, check_sum_i32, "v" #n " sum_i32"); }         \
    Test(reduce, v##n##_max_is_exact) { check_all_sizes(n, check_max, "v" #n " max"); }                      \
    Test(reduce, v##n##_argmax_picks_lowest_of_ties) { check_all_sizes(n, check_argmax, "v" #n " argmax"); }

VERSION_TESTS(1)
VERSION_TESTS(2)
VERSION_TESTS(3)
VERSION_TESTS(4)
VERSION_TESTS(5)
VERSION_TESTS(6)
VERSION_TESTS(7)
VERSION_TESTS(8)
VERSION_TESTS(9)

/* ---- every block size, on one odd size ----------------------------------------- */
Test(reduce, every_version_works_with_every_block_size)
{
    sl_test_require_device();
    size_t n = 100003;
    int *x = sl_test_alloc(n * sizeof *x);
    fill_ints(x, n, sl_test_seed("block sizes"));
    long long ref = 0;
    for (size_t i = 0; i < n; i++) ref += x[i];
    for (int v = 1; v <= sl_reduce_version_count(); v++)
        for (int block = 64; block <= 1024; block *= 2) {
            sl_opts opts = {v, block};
            long long got = LLONG_MIN;
            cr_assert_eq(sl_reduce_sum_i32(x, n, &got, &opts, NULL), SL_OK, "v%d block %d: %s", v, block,
                         sl_last_error());
            cr_assert_eq(got, ref, "v%d block %d: %lld, expected %lld", v, block, got, ref);
        }
    free(x);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- int sums: a 32-bit accumulator would be wrong ------------------------------ */
Test(reduce, int_sum_is_exact_where_int32_wraps)
{
    sl_test_require_device();
    size_t n = BIG;
    int *x = sl_test_alloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = INT_MAX - (int)(i % 1000); /* about 2^31 each */
    long long ref = 0;
    for (size_t i = 0; i < n; i++) ref += x[i];
    /* The test can fail: the sum is ~2^51 (2^55 on a GPU), far beyond an int. */
    cr_assert(ref > INT_MAX, "the reference must overflow int32");
    for (int v = 7; v <= 9; v++) {
        sl_opts opts = {v, 256};
        long long got = 0;
        cr_assert_eq(sl_reduce_sum_i32(x, n, &got, &opts, NULL), SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert_eq(got, ref, "v%d: %lld, expected %lld", v, got, ref);
    }
    free(x);
}

/* ---- NaN: max and argmax propagate it (numpy's np.max / np.argmax) --------------- */
Test(reduce, max_and_argmax_propagate_nan)
{
    sl_test_require_device();
    size_t n = 1000003, first_nan = 777777, second_nan = 4242;
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, sl_test_seed("nan"), -1.0f, 1.0f);
    x[first_nan] = NAN;
    x[second_nan] = -NAN; /* a negative NaN must win as well */
    x[100] = INFINITY;
    for (int v = 1; v <= sl_reduce_version_count(); v++) {
        sl_opts opts = {v, 256};
        float max = 0.0f, value = 0.0f;
        size_t index = 0;
        cr_assert_eq(sl_reduce_max_f32(x, n, &max, &opts, NULL), SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert(isnan(max), "v%d: max %g, expected NaN", v, max);
        cr_assert_eq(sl_reduce_argmax_f32(x, n, &index, &value, &opts, NULL), SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert(isnan(value) && index == second_nan, "v%d: argmax %zu (%g), expected %zu (NaN)", v, index, value,
                  second_nan);
    }
    free(x);
}

Test(reduce, argmax_of_all_equal_values_is_index_zero)
{
    sl_test_require_device();
    size_t n = 4097;
    float *x = sl_test_alloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++) x[i] = -INFINITY; /* equal to the identity's value */
    for (int v = 1; v <= sl_reduce_version_count(); v++) {
        sl_opts opts = {v, 128};
        size_t index = 99;
        float value = 0.0f;
        cr_assert_eq(sl_reduce_argmax_f32(x, n, &index, &value, &opts, NULL), SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert(index == 0 && value == -INFINITY, "v%d: argmax %zu (%g), expected 0 (-inf)", v, index, value);
    }
    free(x);
}

/* ---- v7-v9's scalar head and tail: device data at every misalignment ------------- */
Test(reduce, vector_loads_handle_every_misalignment)
{
    sl_test_require_device();
    size_t n = 1000003;
    int *x = sl_test_alloc((n + 3) * sizeof *x);
    fill_ints(x, n + 3, sl_test_seed("misalignment"));
    int *d_x = NULL;
    cr_assert_eq(sl_alloc_device(&d_x, (n + 3) * sizeof *x), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_x, x, (n + 3) * sizeof *x), SL_OK, "%s", sl_last_error());
    for (size_t shift = 0; shift < 4; shift++) {
        long long ref = 0;
        for (size_t i = 0; i < n - shift; i++) ref += x[shift + i];
        for (int v = 7; v <= 9; v++) {
            sl_opts opts = {v, 256};
            long long got = 0;
            double ms = -1.0;
            cr_assert_eq(sl_reduce_sum_i32_device(d_x + shift, n - shift, &got, &opts, &ms), SL_OK, "v%d: %s", v,
                         sl_last_error());
            cr_assert_eq(got, ref, "v%d shift %zu: %lld, expected %lld", v, shift, got, ref);
            cr_assert(ms >= 0.0);
        }
    }
    cr_assert_eq(sl_free_device(d_x), SL_OK);
    free(x);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- barriers under random schedules (emulator: SIMTLAB_EMU_SEED) ----------------- */
Test(reduce, v3_and_v9_exact_under_three_random_schedules)
{
    sl_test_require_device();
    size_t n = 200003;
    int *x = sl_test_alloc(n * sizeof *x);
    fill_ints(x, n, sl_test_seed("schedules"));
    long long ref = 0;
    for (size_t i = 0; i < n; i++) ref += x[i];
    /* The engine reads the seed at every launch; Criterion runs this test in
     * its own process, so the setting ends with it. On a GPU it is ignored. */
    const char *seeds[3] = {"1", "20260402", "987654321"};
    for (int k = 0; k < 3; k++) {
        setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        for (int v = 3; v <= 9; v += 6) {
            sl_opts opts = {v, 256};
            long long got = 0;
            cr_assert_eq(sl_reduce_sum_i32(x, n, &got, &opts, NULL), SL_OK, "v%d seed %s: %s", v, seeds[k],
                         sl_last_error());
            cr_assert_eq(got, ref, "v%d schedule seed %s: %lld, expected %lld", v, seeds[k], got, ref);
        }
    }
    unsetenv("SIMTLAB_EMU_SEED");
    free(x);
}

/* ---- v9 resets its own counter: the same scratch serves the next launch ---------- */
Test(reduce, v9_counter_is_zero_after_each_launch)
{
    sl_test_require_device();
    size_t n = 300007;
    int *x = sl_test_alloc(n * sizeof *x);
    fill_ints(x, n, sl_test_seed("v9 counter"));
    long long ref = 0;
    for (size_t i = 0; i < n; i++) ref += x[i];
    int *d_x = NULL;
    void *ws = NULL, *d_out = NULL;
    sl_reduce_plan plan;
    cr_assert_eq(sl_reduce_plan_make(9, SL_REDUCE_SUM_I32, n, 256, &plan), cudaSuccess);
    cr_assert_eq(sl_alloc_device(&d_x, n * sizeof *x), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&ws, plan.workspace_bytes), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_out, sizeof(long long)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_x, x, n * sizeof *x), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_fill_bytes_device(ws, 0, plan.workspace_bytes), SL_OK, "%s", sl_last_error());
    for (int run = 0; run < 3; run++) {
        unsigned grid = plan.grid, counter = 99;
        long long got = 0;
        cr_assert_eq(sl_reduce_launch(&plan, d_x, ws, d_out, 0), cudaSuccess);
        cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
        cr_assert_eq(sl_copy_to_host(&got, d_out, sizeof got), SL_OK, "%s", sl_last_error());
        cr_assert_eq(sl_copy_to_host(&counter, ws, sizeof counter), SL_OK, "%s", sl_last_error());
        cr_assert_eq(got, ref, "run %d: %lld, expected %lld", run, got, ref);
        cr_assert(grid > 1, "the test needs several blocks to mean anything");
        cr_assert_eq(counter, 0, "run %d left the block counter at %u", run, counter);
    }
    cr_assert_eq(sl_free_device(d_x), SL_OK);
    cr_assert_eq(sl_free_device(ws), SL_OK);
    cr_assert_eq(sl_free_device(d_out), SL_OK);
    free(x);
}

/* ---- the report -------------------------------------------------------------------- */
Test(reduce, version_zero_picks_the_best_and_reports_phases)
{
    sl_test_require_device();
    float x[5] = {1, 2, 3, 4, 5}, sum = 0.0f;
    sl_opts opts = {0, 0};
    sl_report rep;
    cr_assert_eq(sl_reduce_sum_f32(x, 5, &sum, &opts, &rep), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sum, 15.0f);
    cr_assert_eq(rep.version, sl_reduce_version_count());
    cr_assert_eq(rep.block, 256);
    cr_assert(rep.grid >= 1);
    cr_assert_eq(rep.emulated, sl_backend_is_emulator());
    for (int p = 0; p < SL_PHASE_COUNT; p++) cr_assert(rep.phase_ms[p] >= 0.0 && isfinite(rep.phase_ms[p]));
    cr_assert(rep.total_ms >= rep.phase_ms[SL_PHASE_KERNEL]);
    cr_assert(sl_reduce_version_name(9) != NULL && sl_reduce_version_name(10) == NULL);
}

/* ---- empty input and bad input: a status and a message naming the cause --------- */
Test(reduce, empty_input_gives_the_identity)
{
    float x[1] = {42.0f}, sum = NAN, max = NAN;
    double dsum = NAN;
    long long isum = 7;
    int ix[1] = {3};
    cr_assert_eq(sl_reduce_sum_f32(x, 0, &sum, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_reduce_sum_f32_f64acc(x, 0, &dsum, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_reduce_sum_i32(ix, 0, &isum, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_reduce_max_f32(x, 0, &max, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert(sum == 0.0f && dsum == 0.0 && isum == 0 && max == -INFINITY);
}

Test(reduce, empty_argmax_is_an_error)
{
    float x[1] = {1.0f}, value = 0.0f;
    size_t index = 0;
    sl_test_expect_failure(sl_reduce_argmax_f32(x, 0, &index, &value, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                   "an empty array has no argmax");
}

Test(reduce, null_pointers_are_rejected_by_name)
{
    float x[4] = {0}, out = 0.0f;
    size_t index = 0;
    sl_test_expect_failure(sl_reduce_sum_f32(NULL, 4, &out, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "x is NULL");
    sl_test_expect_failure(sl_reduce_sum_f32(x, 4, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "sum is NULL");
    sl_test_expect_failure(sl_reduce_max_f32(x, 4, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "max is NULL");
    sl_test_expect_failure(sl_reduce_argmax_f32(x, 4, NULL, &out, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "index is NULL");
    sl_test_expect_failure(sl_reduce_argmax_f32(x, 4, &index, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "value is NULL");
}

Test(reduce, byte_count_overflow_is_rejected)
{
    float x[4] = {0}, out = 0.0f;
    sl_test_expect_failure(sl_reduce_sum_f32(x, SIZE_MAX / 2, &out, NULL, NULL), SL_ERR_OVERFLOW, "n");
}

Test(reduce, bad_block_sizes_are_rejected)
{
    float x[4] = {0}, out = 0.0f;
    int blocks[4] = {1025, -32, 100, 32}; /* too big, negative, not a power of two, too small */
    for (int k = 0; k < 4; k++) {
        sl_opts opts = {3, blocks[k]};
        sl_test_expect_failure(sl_reduce_sum_f32(x, 4, &out, &opts, NULL), SL_ERR_INVALID_ARGUMENT, "opts->block");
    }
}

Test(reduce, bad_versions_are_rejected)
{
    float x[4] = {0}, out = 0.0f;
    sl_opts v10 = {10, 256}, vneg = {-1, 256};
    sl_test_expect_failure(sl_reduce_sum_f32(x, 4, &out, &v10, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
    sl_test_expect_failure(sl_reduce_sum_f32(x, 4, &out, &vneg, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
}

Test(reduce, vendor_references_say_when_unsupported)
{
    sl_test_require_device();
    float *d_x = NULL, sum = 0.0f;
    float ones[1000];
    for (int i = 0; i < 1000; i++) ones[i] = 1.0f;
    double ms = 0.0;
    cr_assert_eq(sl_alloc_device(&d_x, sizeof ones), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_x, ones, sizeof ones), SL_OK, "%s", sl_last_error());
    sl_status st = sl_vendor_reduce_sum_f32_device(d_x, 1000, &sum, &ms);
    if (sl_backend_is_emulator()) {
        sl_test_expect_failure(st, SL_ERR_UNSUPPORTED, "CUB");
    } else {
        cr_assert_eq(st, SL_OK, "%s", sl_last_error());
        cr_assert_eq(sum, 1000.0f);
    }
    cr_assert_eq(sl_vendor_sasum_device(d_x, 1000, &sum, &ms), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sum, 1000.0f);
    cr_assert_eq(sl_free_device(d_x), SL_OK);
}

/* ---- the CPU references the benchmark compares against ------------------------------ */
Test(reduce, cpu_references_match_the_double_loop)
{
    size_t n = 1000003;
    float *x = sl_test_alloc(n * sizeof *x);
    sl_fill_uniform_f32(x, n, sl_test_seed("cpu references"), 0.0f, 1.0f);
    double ref = ref_sum(x, n);
    cr_assert_eq(sl_reduce_sum_cpu_f64(x, n), ref, "the serial double loop is the same order as ref_sum");
    cr_assert(fabs(sl_reduce_sum_cpu_f64_omp(x, n) - ref) <= 1e-12 * ref);
    /* pairwise float: depth log2(n) = 20 -> well inside 1e-5 */
    cr_assert(fabs(sl_reduce_sum_cpu_pairwise(x, n) - ref) <= 1e-5 * ref);
    cr_assert(fabs(sl_reduce_sum_cpu_pairwise_omp(x, n) - ref) <= 1e-5 * ref);
    free(x);
}

/* ---- hardening: what the device entry points and references are given ------ */

Test(reduce, cpu_references_give_nan_and_a_message_for_bad_arguments)
{
    float x[2] = {1.0f, 2.0f};
    cr_assert(isnan(sl_reduce_sum_cpu_f64(NULL, 4)));
    cr_assert(strstr(sl_last_error(), "x is NULL"), "%s", sl_last_error());
    cr_assert(isnan(sl_reduce_sum_cpu_f64_omp(x, SIZE_MAX)));
    cr_assert(strstr(sl_last_error(), "long long"), "%s", sl_last_error());
    cr_assert(isnan(sl_reduce_sum_cpu_pairwise(NULL, 3)));
    cr_assert(isnan(sl_reduce_sum_cpu_pairwise_omp(x, SIZE_MAX)));
    cr_assert_eq(sl_reduce_sum_cpu_pairwise_omp(NULL, 0), 0.0f);
}

Test(reduce, host_arrays_given_to_the_device_entry_points_are_named)
{
    sl_test_require_device();
    float host[64] = {0}, sum = 0.0f;
    double ms = 0.0;
    sl_opts opts = {3, 256};
    sl_test_expect_failure(sl_reduce_sum_f32_device(host, 64, &sum, &opts, &ms), SL_ERR_INVALID_ARGUMENT,
                           "x = ");
    sl_test_expect_failure(sl_reduce_max_f32_device(host, 64, &sum, &opts, &ms), SL_ERR_INVALID_ARGUMENT,
                           "host memory");
    sl_test_expect_failure(sl_vendor_sasum_device(host, 64, &sum, &ms), SL_ERR_INVALID_ARGUMENT, "x = ");
    float *d = NULL;
    cr_assert_eq(sl_alloc_device(&d, sizeof host), SL_OK, "%s", sl_last_error());
    sl_test_expect_failure(sl_vendor_sasum_device(d, SIZE_MAX / 2, &sum, &ms), SL_ERR_OVERFLOW, "n");
    for (int v = 1; v <= sl_reduce_version_count(); v++)
        for (int off = 1; off <= 2; off++) {
            sl_opts o = {v, 128};
            const float *odd = (const float *)((const char *)d + off);
            sl_test_expect_failure(sl_reduce_sum_f32_device(odd, 10, &sum, &o, &ms), SL_ERR_INVALID_ARGUMENT,
                                   "not aligned");
        }
    cr_assert_eq(sl_free_device(d), SL_OK);
}

Test(reduce, an_out_of_bounds_kernel_is_reported_not_the_cleanup_after_it)
{
    sl_test_require_device();
    if (!sl_backend_is_emulator())
        cr_skip_test("emulator only: a GPU need not fault on this read past the buffer (compute-sanitizer would)");
    float *d = NULL, sum = 0.0f;
    double ms = 0.0;
    cr_assert_eq(sl_alloc_device(&d, 1000 * sizeof(float)), SL_OK, "%s", sl_last_error());
    sl_opts opts = {3, 256};
    /* n is 100x what was allocated: the kernel reads past the buffer. */
    sl_status st = sl_reduce_sum_f32_device(d, 100000, &sum, &opts, &ms);
    cr_assert_eq(st, SL_ERR_CUDA, "%s: %s", sl_status_name(st), sl_last_error());
    cr_assert(strstr(sl_last_error(), "cudaFree") == NULL, "the cleanup's error won: %s", sl_last_error());
    cr_assert(strstr(sl_last_error(), "cudaErrorIllegalAddress") || strstr(sl_last_error(), "cudaErrorLaunchFailure"),
              "the message does not name the kernel's fault: %s", sl_last_error());
}

/* ---- what the kernels' comments claim, in the emulator's modelled counters ---- */
Test(reduce, modelled_counters_show_v1_divergent_v2_conflicted_v3_neither)
{
    if (sl_modelled_available() != SL_OK)
        cr_skip_test("no modelled counters in this build: %s", sl_last_error());
    sl_modelled m[4];
    for (int v = 1; v <= 3; v++)
        cr_assert_eq(sl_reduce_modelled(v, (size_t)1 << 16, 256, &m[v]), SL_OK, "v%d: %s", v, sl_last_error());
    double div[4], conf[4];
    for (int v = 1; v <= 3; v++) {
        div[v] = (double)m[v].branches_diverged / (double)m[v].warps;
        conf[v] = sl_modelled_per_request(m[v].shld_bank_conflicts + m[v].shst_bank_conflicts,
                                          m[v].shld_requests + m[v].shst_requests);
        /* Every version reads its floats one per lane, consecutive: 4 sectors a request. */
        cr_assert_float_eq(sl_modelled_per_request(m[v].gld_sectors, m[v].gld_requests), 4.0, 0.05, "v%d", v);
    }
    /* v1: tid % (2s) leaves active lanes scattered over every warp at every
     * step (8 steps for 256 threads, some uniform): several diverged branches
     * per warp, against v2/v3, whose steps diverge only within the last warp. */
    cr_assert(div[1] >= 4.0 * div[3], "v1 %.2f vs v3 %.2f diverged branches per warp", div[1], div[3]);
    cr_assert(m[1].simt_efficiency < m[3].simt_efficiency - 0.05, "v1 %.3f vs v3 %.3f", m[1].simt_efficiency,
              m[3].simt_efficiency);
    /* v1's active lanes stay within 32 consecutive words: no bank conflicts;
     * v2's slots 2*s*tid span several rows of banks: conflicts; v3 reads 32
     * consecutive words per warp: none. */
    cr_assert_eq(conf[1], 0.0, "v1: %.3f conflicts per request", conf[1]);
    cr_assert(conf[2] >= 1.0, "v2: %.3f conflicts per request", conf[2]);
    cr_assert_eq(conf[3], 0.0, "v3: %.3f conflicts per request", conf[3]);
    cr_assert_eq(sl_alloc_live_count(), 0);
}
