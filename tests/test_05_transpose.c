/* Chapter 05 — transpose: every version on shapes that are not multiples of
 * the 32 x 32 tile, with leading dimensions whose gaps must survive, under
 * random schedules, on device buffers, and every bad argument.
 *
 * A transpose moves values without arithmetic, so every comparison is
 * exact: out[j][i] must be the very float in[i][j]. Outputs are poisoned
 * (NaN) first, the gaps between their rows hold a sentinel that must come
 * back unchanged. Under the emulator the whole file takes a few seconds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "05_transpose.h"
#include "sl_test.h"

#define SENTINEL -12345.0f

typedef struct shape {
    size_t rows, cols, pad_in, pad_out; /* ld_in = cols + pad_in, ld_out = rows + pad_out */
} shape;

static const shape shapes[] = {{1, 1, 0, 0}, {1, 1000, 0, 0}, {1000, 1, 3, 0}, {33, 65, 0, 0},
                               {33, 65, 7, 5}, {1025, 513, 0, 0}, {1025, 513, 1, 2}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* in: rows x ld_in, random values (gaps too: they must not be copied). */
static float *make_input(const shape *s, uint64_t seed)
{
    size_t ld = s->cols + s->pad_in, count = s->rows * ld;
    float *in = sl_test_alloc(count * sizeof *in);
    sl_fill_uniform_f32(in, count, seed, -100.0f, 100.0f);
    return in;
}

/* out: cols x ld_out, NaN inside the matrix, SENTINEL in the gaps. */
static float *make_output(const shape *s)
{
    size_t ld = s->rows + s->pad_out, count = s->cols * ld;
    float *out = sl_test_alloc(count * sizeof *out);
    for (size_t j = 0; j < s->cols; j++)
        for (size_t i = 0; i < ld; i++) out[j * ld + i] = i < s->rows ? NAN : SENTINEL;
    return out;
}

static void expect_transposed(const shape *s, const float *in, const float *out, const char *what)
{
    size_t ld_in = s->cols + s->pad_in, ld_out = s->rows + s->pad_out;
    for (size_t j = 0; j < s->cols; j++)
        for (size_t i = 0; i < ld_out; i++) {
            float want = i < s->rows ? in[i * ld_in + j] : SENTINEL;
            float got = out[j * ld_out + i];
            cr_assert(got == want, "%s %zux%zu (ld %zu, %zu): out[%zu][%zu] = %g, expected %g%s", what, s->rows,
                      s->cols, ld_in, ld_out, j, i, got, want, i < s->rows ? "" : " (a gap between rows)");
        }
}

static void check_version(int version)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("transpose");
    for (size_t k = 0; k < NSHAPES; k++) {
        const shape *s = &shapes[k];
        float *in = make_input(s, seed + k), *out = make_output(s);
        sl_opts opts = {version, 0};
        sl_report rep;
        cr_assert_eq(sl_transpose(in, s->rows, s->cols, s->cols + s->pad_in, out, s->rows + s->pad_out, &opts, &rep),
                     SL_OK, "v%d %zux%zu: %s", version, s->rows, s->cols, sl_last_error());
        char what[16];
        snprintf(what, sizeof what, "v%d", version);
        expect_transposed(s, in, out, what);
        cr_assert_eq(rep.version, version);
        cr_assert_eq(rep.block, version == 4 ? 256 : 1024);
        cr_assert_eq(rep.grid, (unsigned)(((s->rows + 31) / 32) * ((s->cols + 31) / 32)));
        free(in);
        free(out);
    }
    cr_assert_eq(sl_alloc_live_count(), 0, "device buffers leaked");
}

Test(transpose, v1_naive_is_exact_on_odd_shapes) { check_version(1); }
Test(transpose, v2_shared_tile_is_exact_on_odd_shapes) { check_version(2); }
Test(transpose, v3_padded_tile_is_exact_on_odd_shapes) { check_version(3); }
Test(transpose, v4_four_per_thread_is_exact_on_odd_shapes) { check_version(4); }

/* The shared-tile versions read what other threads wrote: a missing
 * barrier would show under a random order of threads. */
Test(transpose, tiled_versions_exact_under_three_random_schedules)
{
    sl_test_require_device();
    shape s = {67, 45, 2, 3};
    float *in = make_input(&s, sl_test_seed("schedules"));
    const char *seeds[3] = {"1", "20260405", "987654321"};
    for (int k = 0; k < 3; k++) {
        setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        for (int v = 2; v <= 4; v++) {
            float *out = make_output(&s);
            sl_opts opts = {v, 0};
            cr_assert_eq(sl_transpose(in, s.rows, s.cols, s.cols + 2, out, s.rows + 3, &opts, NULL), SL_OK,
                         "v%d seed %s: %s", v, seeds[k], sl_last_error());
            expect_transposed(&s, in, out, "random schedule");
            free(out);
        }
    }
    unsetenv("SIMTLAB_EMU_SEED");
    free(in);
}

Test(transpose, device_entry_point_keeps_the_leading_dimensions)
{
    sl_test_require_device();
    shape s = {70, 40, 6, 9};
    size_t ld_in = s.cols + s.pad_in, ld_out = s.rows + s.pad_out;
    float *in = make_input(&s, sl_test_seed("device")), *out = make_output(&s);
    float *d_in = NULL, *d_out = NULL;
    cr_assert_eq(sl_alloc_device(&d_in, s.rows * ld_in * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_out, s.cols * ld_out * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_in, in, s.rows * ld_in * sizeof(float)), SL_OK, "%s", sl_last_error());
    for (int v = 1; v <= sl_transpose_version_count(); v++) {
        cr_assert_eq(sl_copy_to_device(d_out, out, s.cols * ld_out * sizeof(float)), SL_OK, "%s", sl_last_error());
        sl_opts opts = {v, 0};
        double ms = -1.0;
        cr_assert_eq(sl_transpose_device(d_in, s.rows, s.cols, ld_in, d_out, ld_out, &opts, &ms), SL_OK, "v%d: %s",
                     v, sl_last_error());
        cr_assert(ms >= 0.0);
        float *got = make_output(&s);
        cr_assert_eq(sl_copy_to_host(got, d_out, s.cols * ld_out * sizeof(float)), SL_OK, "%s", sl_last_error());
        expect_transposed(&s, in, got, "device");
        free(got);
    }
    cr_assert_eq(sl_free_device(d_in), SL_OK);
    cr_assert_eq(sl_free_device(d_out), SL_OK);
    free(in);
    free(out);
}

Test(transpose, cpu_baseline_is_exact)
{
    for (size_t k = 0; k < NSHAPES; k++) {
        const shape *s = &shapes[k];
        float *in = make_input(s, 7 + k), *out = make_output(s);
        cr_assert_eq(sl_transpose_cpu(in, s->rows, s->cols, s->cols + s->pad_in, out, s->rows + s->pad_out), SL_OK,
                     "%s", sl_last_error());
        expect_transposed(s, in, out, "cpu");
        free(in);
        free(out);
    }
}

Test(transpose, version_zero_is_v4_and_the_report_has_every_phase)
{
    sl_test_require_device();
    float in[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
    sl_report rep;
    cr_assert_eq(sl_transpose(in, 2, 3, 3, out, 2, NULL, &rep), SL_OK, "%s", sl_last_error());
    float want[6] = {1, 4, 2, 5, 3, 6};
    cr_assert_arr_eq(out, want, sizeof want);
    cr_assert_eq(rep.version, 4);
    cr_assert_eq(rep.bytes_h2d, sizeof in, "a tight output is not copied in");
    cr_assert_eq(rep.bytes_d2h, sizeof out);
    cr_assert_eq(rep.emulated, sl_backend_is_emulator());
    for (int p = 0; p < SL_PHASE_COUNT; p++) cr_assert(rep.phase_ms[p] >= 0.0 && isfinite(rep.phase_ms[p]));
    cr_assert(sl_transpose_version_name(4) != NULL && sl_transpose_version_name(5) == NULL);
}

Test(transpose, zero_sizes_are_a_no_op)
{
    float in[1] = {1.0f}, out[1] = {SENTINEL};
    cr_assert_eq(sl_transpose(in, 0, 5, 5, out, 0, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_transpose(in, 5, 0, 0, out, 5, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(out[0], SENTINEL);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(transpose, bad_arguments_are_rejected_by_name)
{
    float in[64] = {0}, out[64] = {0};
    sl_opts v5 = {5, 0}, vneg = {-1, 0}, block = {3, 256}, block4 = {4, 1024};
    sl_test_expect_failure(sl_transpose(NULL, 4, 4, 4, out, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "in is NULL");
    sl_test_expect_failure(sl_transpose(in, 4, 4, 4, NULL, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "out is NULL");
    sl_test_expect_failure(sl_transpose(NULL, 0, 0, 0, out, 0, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "in is NULL");
    sl_test_expect_failure(sl_transpose(in, 4, 8, 7, out, 8, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "ld_in = 7");
    sl_test_expect_failure(sl_transpose(in, 8, 4, 4, out, 7, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "ld_out = 7");
    sl_test_expect_failure(sl_transpose(in, 4, 4, 4, out, 4, &v5, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
    sl_test_expect_failure(sl_transpose(in, 4, 4, 4, out, 4, &vneg, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
    sl_test_expect_failure(sl_transpose(in, 4, 4, 4, out, 4, &block, NULL), SL_ERR_INVALID_ARGUMENT, "opts->block");
    sl_test_expect_failure(sl_transpose(in, 4, 4, 4, out, 4, &block4, NULL), SL_ERR_INVALID_ARGUMENT, "opts->block");
    size_t huge = SIZE_MAX / 8;
    sl_test_expect_failure(sl_transpose(in, huge, 4, 4, out, huge, NULL, NULL), SL_ERR_OVERFLOW, "in (rows x ld_in)");
    sl_test_expect_failure(sl_transpose(in, 4, huge, huge, out, 4, NULL, NULL), SL_ERR_OVERFLOW, "in (rows x ld_in)");
    sl_test_expect_failure(sl_transpose_cpu(in, 4, 8, 7, out, 8), SL_ERR_INVALID_ARGUMENT, "ld_in = 7");
    double ms = 0.0;
    sl_test_expect_failure(sl_transpose_device(in, 4, 4, 4, out, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "kernel_ms is NULL");
    sl_test_require_device();
    sl_test_expect_failure(sl_transpose_device(in, 4, 4, 4, out, 4, NULL, &ms), SL_ERR_INVALID_ARGUMENT, "in = ");
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- what the emulator models: the lesson's three claims, hand-computed -----------
 * 64 x 64 floats, one element per thread (v1-v3: 4 blocks of 32 x 32):
 *   v1's loads: a warp reads 32 consecutive floats of a row: 128 bytes, 4
 *   sectors per request; its stores go down a column, 32 rows apart: 32.
 *   v2 reads the tile down a column, tile[x][y] for 32 consecutive x: 32
 *   words in one bank, 32 wavefronts, 31 conflicts per request; its stores
 *   into the tile go along a row: none.
 *   v3's padded rows put that column in 32 banks: no conflict at all.
 * Skipped (with the reason printed) where the kernels were built without
 * the counters, and on a GPU (Nsight Compute measures the real ones). */
Test(transpose, modelled_counters_show_uncoalesced_stores_then_conflicts_then_none)
{
    sl_test_require_device();
    sl_transpose_model m[5];
    for (int v = 1; v <= 4; v++) {
        sl_status st = sl_transpose_modelled(v, 64, 64, &m[v]);
        if (st == SL_ERR_UNSUPPORTED) cr_skip_test("modelled counters: %s", sl_last_error());
        cr_assert_eq(st, SL_OK, "v%d: %s", v, sl_last_error());
    }
    cr_assert_float_eq(m[1].load_sectors_per_request, 4.0, 1e-9, "v1 loads: %g", m[1].load_sectors_per_request);
    cr_assert_float_eq(m[1].store_sectors_per_request, 32.0, 1e-9, "v1 stores: %g", m[1].store_sectors_per_request);
    cr_assert_eq(m[1].shared_bank_conflicts, 0);
    for (int v = 2; v <= 4; v++) {
        cr_assert_float_eq(m[v].load_sectors_per_request, 4.0, 1e-9, "v%d loads", v);
        cr_assert_float_eq(m[v].store_sectors_per_request, 4.0, 1e-9, "v%d stores: %g", v,
                           m[v].store_sectors_per_request);
        cr_assert_float_eq(m[v].shared_store_conflicts_per_request, 0.0, 1e-9, "v%d shared stores", v);
    }
    cr_assert_float_eq(m[2].shared_load_conflicts_per_request, 31.0, 1e-9, "v2: %g conflicts per shared load",
                       m[2].shared_load_conflicts_per_request);
    /* 128 warp reads of the tile (4096 elements / 32), 31 extra wavefronts each */
    cr_assert_eq(m[2].shared_bank_conflicts, 128ull * 31, "v2: %llu", m[2].shared_bank_conflicts);
    cr_assert_eq(m[3].shared_bank_conflicts, 0, "v3: %llu", m[3].shared_bank_conflicts);
    cr_assert_eq(m[4].shared_bank_conflicts, 0, "v4: %llu", m[4].shared_bank_conflicts);
}
