/* Chapter 06 — tensor-core GEMM: the float <-> half / bf16 conversions bit
 * for bit, every version in both input types on 16x8x16, 64x64x64,
 * 127x65x33 (no multiple of any tile: the padding) and 256x512x128 (v6, on
 * an sm_90 GPU only, also 1024^3; under the emulator its refusal), the
 * device entry point, cublasGemmEx, the emulator's modelled bank conflicts
 * of v3, v4 and v5, and bad arguments.
 *
 * Products: inputs uniform in [-1, 1), rounded to the 16-bit type; the
 * reference multiplies those rounded values in double. Pass: relative L2
 * error below 2e-3 (f16) or 1e-2 (bf16), the bounds; the products
 * are exact in float and the sum's own error is about 2^-24 k, so a wrong
 * fragment layout (an O(1) error) fails by orders of magnitude.
 * The lane-by-lane fragment layouts of mma.sync and ldmatrix are tested
 * against the PTX ISA's tables in emu/tests/test_emu_tensor.cu and
 * tests/kernels/test_sl_tensor.cu; not repeated here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sl_test.h"

/* ---- conversions, on values whose 16-bit patterns are worked out by hand ----- */
typedef struct known {
    float value;
    uint16_t bits;
    const char *why;
} known;

Test(convert, float_to_half_rounds_to_nearest_even)
{
    const known cases[] = {
        {1.0f, 0x3c00, "1 = 2^0: exponent 15"},
        {-2.0f, 0xc000, "sign, exponent 16"},
        {0.0f, 0x0000, "+0"},
        {-0.0f, 0x8000, "-0 keeps its sign"},
        {65504.0f, 0x7bff, "the largest half"},
        {65519.99f, 0x7bff, "just below 65504 + half a step (16): rounds down"},
        {65520.0f, 0x7c00, "65504 + 16 exactly: tie, 0x7bff is odd, so up: infinity"},
        {1e10f, 0x7c00, "overflow: infinity"},
        {1.0f + 0x1p-11f, 0x3c00, "1 + half a step: tie, to the even 0x3c00"},
        {1.0f + 3 * 0x1p-11f, 0x3c02, "1 + 1.5 steps: tie, to the even 0x3c02"},
        {1.0f + 0x1p-11f + 0x1p-20f, 0x3c01, "just above the tie: up"},
        {0.1f, 0x2e66, "0.1: 0x2e66 (0.0999755859375) is nearest"},
        {0x1p-14f, 0x0400, "2^-14: the smallest normal"},
        {0x1p-24f, 0x0001, "2^-24: the smallest subnormal"},
        {0x1p-25f, 0x0000, "half the smallest subnormal: tie, to the even 0"},
        {0x1.8p-25f, 0x0001, "0.75 of a step: up to 1"},
        {3 * 0x1p-25f, 0x0002, "1.5 steps: tie, to the even 2"},
        {0x1p-30f, 0x0000, "far below: zero"},
        {-0x1p-24f, 0x8001, "negative subnormal"},
        {0x1.ffcp-15f, 0x0400, "1023.5 steps: tie, to the even 1024 = the smallest normal"},
        {INFINITY, 0x7c00, "+infinity"},
        {-INFINITY, 0xfc00, "-infinity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t got = sl_float_to_half(cases[i].value);
        cr_expect_eq(got, cases[i].bits, "half(%a) = 0x%04x, want 0x%04x (%s)", (double)cases[i].value, got,
                     cases[i].bits, cases[i].why);
    }
    uint16_t nan = sl_float_to_half(NAN), neg_nan = sl_float_to_half(-NAN);
    cr_expect((nan & 0x7c00) == 0x7c00 && (nan & 0x3ff) != 0 && (nan & 0x200), "NaN -> 0x%04x: not a quiet NaN", nan);
    cr_expect(neg_nan & 0x8000, "-NaN keeps its sign: 0x%04x", neg_nan);
    uint32_t snan_bits = 0x7f800001u; /* a signalling NaN whose payload is all below half's mantissa */
    float snan;
    memcpy(&snan, &snan_bits, sizeof snan);
    uint16_t h = sl_float_to_half(snan);
    cr_expect((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0, "a NaN must not become infinity: 0x%04x", h);
}

Test(convert, float_to_bf16_rounds_to_nearest_even)
{
    const known cases[] = {
        {1.0f, 0x3f80, "1: the top half of 0x3f800000"},
        {-1.0f, 0xbf80, "sign"},
        {3.14159265f, 0x4049, "pi: 0x40490fdb rounds down"},
        {1.0f + 0x1p-8f, 0x3f80, "half a step above 1: tie, to the even 0x3f80"},
        {1.0f + 3 * 0x1p-8f, 0x3f82, "1.5 steps: tie, to the even 0x3f82"},
        {3.4028235e38f, 0x7f80, "FLT_MAX: above the largest bf16 + half a step: infinity"},
        {0x1p-149f, 0x0000, "the smallest float subnormal: zero"},
        {0x1p-133f, 0x0001, "the smallest bf16 subnormal"},
        {-0.0f, 0x8000, "-0"},
        {INFINITY, 0x7f80, "+infinity"},
        {-INFINITY, 0xff80, "-infinity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint16_t got = sl_float_to_bf16(cases[i].value);
        cr_expect_eq(got, cases[i].bits, "bf16(%a) = 0x%04x, want 0x%04x (%s)", (double)cases[i].value, got,
                     cases[i].bits, cases[i].why);
    }
    uint32_t tie_bits = 0x00018000u; /* 1.5 bf16 subnormal steps: tie, to the even 2 */
    float tie;
    memcpy(&tie, &tie_bits, sizeof tie);
    cr_expect_eq(sl_float_to_bf16(tie), 0x0002);
    uint32_t snan_bits = 0x7f800001u; /* plain rounding would carry nothing and give infinity */
    float snan;
    memcpy(&snan, &snan_bits, sizeof snan);
    uint16_t b = sl_float_to_bf16(snan);
    cr_expect((b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0, "a NaN must stay a NaN: 0x%04x", b);
}

Test(convert, every_16_bit_pattern_widens_exactly_and_rounds_back_to_itself)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        float f = sl_half_to_float((uint16_t)h), g = sl_bf16_to_float((uint16_t)h);
        int half_nan = (h & 0x7c00) == 0x7c00 && (h & 0x3ff), bf_nan = (h & 0x7f80) == 0x7f80 && (h & 0x7f);
        cr_assert_eq(isnan(f) != 0, half_nan, "half 0x%04x -> %a", h, (double)f);
        cr_assert_eq(isnan(g) != 0, bf_nan, "bf16 0x%04x -> %a", h, (double)g);
        if (!half_nan) cr_assert_eq(sl_float_to_half(f), h, "half 0x%04x -> %a -> 0x%04x", h, (double)f, sl_float_to_half(f));
        if (!bf_nan) cr_assert_eq(sl_float_to_bf16(g), h, "bf16 0x%04x -> %a", h, (double)g);
    }
    /* values worked out by hand */
    cr_expect_eq(sl_half_to_float(0x0001), 0x1p-24f);
    cr_expect_eq(sl_half_to_float(0x03ff), 1023 * 0x1p-24f);
    cr_expect_eq(sl_half_to_float(0x7bff), 65504.0f);
    cr_expect_eq(sl_half_to_float(0x3555), 0x1.554p-2f);
    cr_expect_eq(sl_bf16_to_float(0x4049), 3.140625f);
}

/* ---- products ------------------------------------------------------------------------- */
typedef struct problem {
    sl_tgemm_type type;
    size_t m, n, k;
    uint16_t *a, *b;
    double *ref;
} problem;

static problem make_problem(sl_tgemm_type type, size_t m, size_t n, size_t k, uint64_t seed)
{
    problem p = {type, m, n, k, sl_test_alloc(m * k * 2 + 2), sl_test_alloc(k * n * 2 + 2),
                 sl_test_alloc(m * n * sizeof(double) + 8)};
    float *fa = sl_test_alloc(m * k * 4 + 4), *fb = sl_test_alloc(k * n * 4 + 4);
    sl_fill_uniform_f32(fa, m * k, seed, -1.0f, 1.0f);
    sl_fill_uniform_f32(fb, k * n, seed + 1, -1.0f, 1.0f);
    cr_assert_eq(sl_tgemm_round(type, fa, p.a, m * k), SL_OK);
    cr_assert_eq(sl_tgemm_round(type, fb, p.b, k * n), SL_OK);
    cr_assert_eq(sl_tgemm_cpu_reference(type, m, n, k, p.a, p.b, p.ref), SL_OK, "%s", sl_last_error());
    free(fa), free(fb);
    return p;
}

static void free_problem(problem *p) { free(p->a), free(p->b), free(p->ref); }

static double tolerance(sl_tgemm_type type) { return type == SL_TGEMM_F16 ? 2e-3 : 1e-2; }

static void check_version(int version, sl_tgemm_type type, size_t m, size_t n, size_t k)
{
    char name[64];
    snprintf(name, sizeof name, "tgemm v%d %s %zux%zux%zu", version, type ? "bf16" : "f16", m, n, k);
    problem p = make_problem(type, m, n, k, sl_test_seed(name));
    float *c = sl_test_alloc(m * n * sizeof(float));
    sl_poison_f32(c, m * n);
    sl_opts opts = {version, 0};
    sl_report r;
    cr_assert_eq(sl_tgemm(type, m, n, k, p.a, p.b, c, &opts, &r), SL_OK, "%s: %s", name, sl_last_error());
    cr_assert_eq(r.version, version);
    sl_check chk = sl_compare_f32(c, p.ref, m * n, tolerance(type));
    cr_assert(chk.passed, "%s: relative L2 error %.3g (bound %.0e), worst C[%zu] = %.9g vs %.9g, %zu not finite", name,
              chk.rel_l2, tolerance(type), chk.worst, c[chk.worst], p.ref[chk.worst], chk.nonfinite);
    free(c);
    free_problem(&p);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

static void check_all_shapes(int version)
{
    static const size_t shapes[4][3] = {{16, 8, 16}, {64, 64, 64}, {127, 65, 33}, {256, 512, 128}};
    sl_test_require_device();
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 4; s++) check_version(version, (sl_tgemm_type)t, shapes[s][0], shapes[s][1], shapes[s][2]);
}

Test(tgemm, v1_wmma_every_shape_f16_and_bf16) { check_all_shapes(1); }
Test(tgemm, v2_wmma_shared_every_shape_f16_and_bf16) { check_all_shapes(2); }
Test(tgemm, v3_mma_ldmatrix_every_shape_f16_and_bf16) { check_all_shapes(3); }
Test(tgemm, v4_cp_async_pipeline_every_shape_f16_and_bf16) { check_all_shapes(4); }
Test(tgemm, v5_swizzled_every_shape_f16_and_bf16) { check_all_shapes(5); }

/* v6 (wgmma + TMA, kernels/06_tensor_gemm_wgmma.cu) runs only on an sm_90
 * GPU; this is the only place its results are checked. 127x65x33 and
 * 16x8x16 exercise TMA's
 * zero fill (rows past m, K past k) and the predicated stores; 1024^3 wraps
 * the 4-stage ring four times. Outputs are poisoned with NaN first. */
Test(tgemm, v6_wgmma_tma_every_shape_f16_and_bf16_on_sm90)
{
    static const size_t shapes[5][3] = {{16, 8, 16}, {64, 64, 64}, {127, 65, 33}, {256, 512, 128}, {1024, 1024, 1024}};
    if (sl_backend_is_emulator()) cr_skip_test("v6 is not emulated: v6_is_refused_under_the_emulator_with_the_reason");
    sl_test_require_device();
    uint16_t a[256] = {0}, b[128] = {0};
    float c[128];
    sl_opts v6 = {6, 0};
    sl_status st = sl_tgemm(SL_TGEMM_F16, 16, 8, 16, a, b, c, &v6, NULL);
    if (st == SL_ERR_UNSUPPORTED) cr_skip_test("%s", sl_last_error());
    cr_assert_eq(st, SL_OK, "%s", sl_last_error());
    for (int t = 0; t < 2; t++)
        for (int s = 0; s < 5; s++) check_version(6, (sl_tgemm_type)t, shapes[s][0], shapes[s][1], shapes[s][2]);
}

Test(tgemm, v6_is_refused_under_the_emulator_with_the_reason)
{
    if (!sl_backend_is_emulator()) cr_skip_test("a CUDA build: v6_wgmma_tma_every_shape_f16_and_bf16_on_sm90 runs it");
    uint16_t a[4] = {0}, b[4] = {0};
    float c[4];
    sl_opts v6 = {6, 0};
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_BF16, 2, 2, 2, a, b, c, &v6, NULL), SL_ERR_UNSUPPORTED,
                           "v6 needs an sm_90 GPU (wgmma and TMA are not emulated)");
    sl_tgemm_model model;
    sl_test_expect_failure(sl_tgemm_modelled(6, 128, 128, 64, &model), SL_ERR_UNSUPPORTED, "v6 needs an sm_90 GPU");
    /* argument checks come first, as for v1-v5 */
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 2, 2, 2, NULL, b, c, &v6, NULL), SL_ERR_INVALID_ARGUMENT, "a is NULL");
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* k = 160: five pipeline steps, so the 3-stage ring of v4 and v5 wraps
 * around and its last commit groups are empty. */
Test(tgemm, v4_v5_pipeline_wraps_around_its_stages)
{
    sl_test_require_device();
    check_version(4, SL_TGEMM_F16, 128, 128, 160);
    check_version(5, SL_TGEMM_F16, 128, 128, 160);
}

Test(tgemm, k_zero_gives_zeros_and_empty_c_is_a_no_op)
{
    uint16_t a[4] = {0}, b[4] = {0};
    float c[4] = {7, 7, 7, 7};
    cr_assert_eq(sl_tgemm(SL_TGEMM_F16, 2, 2, 0, a, b, c, NULL, NULL), SL_OK);
    for (int i = 0; i < 4; i++) cr_expect_eq(c[i], 0.0f);
    c[0] = 7;
    cr_assert_eq(sl_tgemm(SL_TGEMM_BF16, 0, 2, 2, a, b, c, NULL, NULL), SL_OK);
    cr_expect_eq(c[0], 7.0f);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- the device entry point and cublasGemmEx, on one 128^3 product ------------------------- */
Test(tgemm, device_entry_point_and_cublas_gemm_ex_agree_with_the_reference)
{
    sl_test_require_device();
    const size_t n = 128;
    for (int t = 0; t < 2; t++) {
        problem p = make_problem((sl_tgemm_type)t, n, n, n, sl_test_seed("tgemm device"));
        uint16_t *d_a = NULL, *d_b = NULL;
        float *d_c = NULL, *c = sl_test_alloc(n * n * sizeof(float));
        cr_assert_eq(sl_alloc_device(&d_a, n * n * 2), SL_OK);
        cr_assert_eq(sl_alloc_device(&d_b, n * n * 2), SL_OK);
        cr_assert_eq(sl_alloc_device(&d_c, n * n * 4), SL_OK);
        cr_assert_eq(sl_copy_to_device(d_a, p.a, n * n * 2), SL_OK);
        cr_assert_eq(sl_copy_to_device(d_b, p.b, n * n * 2), SL_OK);
        for (int v = 0; v <= 6; v++) { /* 0..5 (v6 needs sm_90: its own test), then cuBLAS as 6 */
            double ms = -1.0;
            sl_opts opts = {v, 0};
            cr_assert_eq(sl_fill_bytes_device(d_c, 0xff, n * n * 4), SL_OK);
            sl_status st = v == 6 ? sl_vendor_tgemm_device(p.type, n, n, n, d_a, d_b, d_c, &ms)
                                  : sl_tgemm_device(p.type, n, n, n, d_a, d_b, d_c, &opts, &ms);
            cr_assert_eq(st, SL_OK, "v%d: %s", v, sl_last_error());
            cr_assert(ms >= 0.0);
            cr_assert_eq(sl_copy_to_host(c, d_c, n * n * 4), SL_OK);
            sl_check chk = sl_compare_f32(c, p.ref, n * n, tolerance(p.type));
            cr_assert(chk.passed, "%s v%d: relative L2 error %.3g", t ? "bf16" : "f16", v, chk.rel_l2);
        }
        sl_test_expect_failure(sl_tgemm_device(p.type, 100, n, n, d_a, d_b, d_c, NULL, &(double){0}),
                               SL_ERR_INVALID_ARGUMENT, "m = 100 is not a multiple of 128");
        sl_free_device(d_a), sl_free_device(d_b), sl_free_device(d_c);
        free(c);
        free_problem(&p);
    }
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- the emulator's model: v3's and v4's plain tiles conflict, v5's swizzle does not ---------- */
Test(tgemm, modelled_bank_conflicts_v3_v4_have_them_v5_has_none)
{
    sl_tgemm_model m3, m4, m5;
    sl_status st = sl_tgemm_modelled(3, 128, 128, 64, &m3);
    if (!sl_backend_is_emulator()) {
        sl_test_expect_failure(st, SL_ERR_UNSUPPORTED, "");
        return;
    }
    if (st == SL_ERR_UNSUPPORTED) cr_skip_test("the counters are not compiled in: %s", sl_last_error());
    cr_assert_eq(st, SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_tgemm_modelled(4, 128, 128, 64, &m4), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_tgemm_modelled(5, 128, 128, 64, &m5), SL_OK, "%s", sl_last_error());
    /* Per k16 step a warp makes 4 ldmatrix.x4 of A (64-byte rows: each
     * quarter-warp phase's 8 rows fall on 2 groups of 4 banks, 4 wavefronts
     * instead of 1: 12 extra per request) and 2 .x4.trans of B (256-byte
     * rows: all 8 on the same 4 banks, 8 wavefronts: 28 extra), and these
     * are v3's only shared loads: (4 x 12 + 2 x 28) / 6 = 52 / 3 conflicts
     * per request. v4 changes how the tiles arrive (cp.async), not where
     * they lie: the same 52 / 3. v5's swizzle must leave none. */
    cr_expect(m3.shared_load_requests > 0 && m4.shared_load_requests > 0 && m5.shared_load_requests > 0,
              "no shared loads were modelled");
    cr_expect(fabs(m3.shared_load_conflicts_per_request - 52.0 / 3.0) < 1e-9,
              "v3: %.4f conflicts per shared load request, want 52/3", m3.shared_load_conflicts_per_request);
    cr_expect(fabs(m4.shared_load_conflicts_per_request - 52.0 / 3.0) < 1e-9,
              "v4: %.4f conflicts per shared load request, want 52/3", m4.shared_load_conflicts_per_request);
    cr_expect_eq(m5.shared_load_conflicts, 0, "v5: %llu bank conflicts in %llu shared load requests",
                 m5.shared_load_conflicts, m5.shared_load_requests);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- bad arguments ------------------------------------------------------------------------ */
Test(tgemm, bad_arguments_are_rejected_by_name)
{
    uint16_t a[64] = {0}, b[64] = {0};
    float c[64] = {0};
    sl_opts v7 = {7, 0}, v3_block = {3, 128};
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 4, 4, 4, NULL, b, c, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "a is NULL");
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 4, 4, 4, a, NULL, c, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "b is NULL");
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 4, 4, 4, a, b, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "c is NULL");
    sl_test_expect_failure(sl_tgemm((sl_tgemm_type)7, 4, 4, 4, a, b, c, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "type = 7");
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 4, 4, 4, a, b, c, &v7, NULL), SL_ERR_INVALID_ARGUMENT, "opts->version");
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, 4, 4, 4, a, b, c, &v3_block, NULL), SL_ERR_INVALID_ARGUMENT,
                           "opts->block");
    sl_test_expect_failure(sl_tgemm(SL_TGEMM_F16, (size_t)1 << 31, 4, 4, a, b, c, NULL, NULL), SL_ERR_UNSUPPORTED,
                           "m = 2147483648");
    sl_test_expect_failure(sl_tgemm_round(SL_TGEMM_BF16, NULL, a, 4), SL_ERR_INVALID_ARGUMENT, "in is NULL");
    sl_test_expect_failure(sl_tgemm_cpu_reference(SL_TGEMM_F16, 2, 2, 2, a, b, NULL), SL_ERR_INVALID_ARGUMENT, "c is NULL");
    sl_test_expect_failure(sl_tgemm_tile_of(9, NULL, NULL, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "version = 9");
    sl_test_expect_failure(sl_tgemm_device(SL_TGEMM_F16, 128, 128, 32, a, b, c, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "kernel_ms is NULL");
    double ms;
    sl_test_require_device();
    sl_test_expect_failure(sl_tgemm_device(SL_TGEMM_F16, 128, 128, 32, a, b, c, NULL, &ms), SL_ERR_INVALID_ARGUMENT,
                           "a = ");
    sl_test_expect_failure(sl_vendor_tgemm_device(SL_TGEMM_BF16, 128, 128, 32, a, b, c, &ms), SL_ERR_INVALID_ARGUMENT,
                           "a = ");
    cr_assert_eq(sl_alloc_live_count(), 0);
}
