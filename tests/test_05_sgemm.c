/* Chapter 05 — SGEMM: every version (and every v9 tile shape) on shapes that
 * are no multiple of any tile, alpha and beta, leading dimensions with gaps
 * that must survive, NaN in C with beta == 0, k == 0, random schedules,
 * misaligned device buffers, the CPU baselines, cuBLAS, and bad arguments.
 *
 * The reference is a double-precision triple loop written here. Tolerance:
 * a float dot product of length k, summed in any order, is within
 * (k - 1) * 2^-24 * sum_p |a_ip b_pj| of the exact one (Higham, Accuracy and
 * Stability of Numerical Algorithms, 3.1), so each element must satisfy
 *   |got - ref| <= 2 (k + 2) 2^-24 (|alpha| sum_p |a_ip b_pj| + |beta c_ij|)
 * (the factor 2 and the +2: alpha, beta and the final add round too). The
 * bound scales with k, and a wrong index is off by O(1) relative, far
 * outside it. Under the emulator the file takes about a minute on 2 cores. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "05_sgemm.h"
#include "sl_test.h"

#define SENTINEL -12345.0f

typedef struct problem {
    size_t m, n, k, lda, ldb, ldc;
    float alpha, beta;
    float *a, *b, *c; /* c: C before the call (poisoned inside when beta == 0), gaps SENTINEL */
    double *ref, *bound;
} problem;

static problem make_problem(size_t m, size_t n, size_t k, size_t pad, float alpha, float beta, uint64_t seed)
{
    problem p = {m, n, k, k + pad, n + 2 * pad, n + pad, alpha, beta, NULL, NULL, NULL, NULL, NULL};
    size_t na = m * p.lda, nb = k * p.ldb, nc = m * p.ldc;
    p.a = sl_test_alloc(na * sizeof(float));
    p.b = sl_test_alloc(nb * sizeof(float));
    p.c = sl_test_alloc(nc * sizeof(float));
    p.ref = sl_test_alloc(m * n * sizeof(double));
    p.bound = sl_test_alloc(m * n * sizeof(double));
    sl_fill_uniform_f32(p.a, na, seed, -1.0f, 1.0f);
    sl_fill_uniform_f32(p.b, nb, seed + 1, -1.0f, 1.0f);
    sl_fill_uniform_f32(p.c, nc, seed + 2, -1.0f, 1.0f);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < p.ldc; j++)
            if (j >= n) p.c[i * p.ldc + j] = SENTINEL;
            else if (beta == 0.0f) p.c[i * p.ldc + j] = NAN; /* must be ignored, never read */
    double unit = ldexp(1.0, -24);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double dot = 0.0, mag = 0.0;
            for (size_t q = 0; q < k; q++) {
                double prod = (double)p.a[i * p.lda + q] * p.b[q * p.ldb + j];
                dot += prod;
                mag += fabs(prod);
            }
            double cij = beta == 0.0f ? 0.0 : p.c[i * p.ldc + j];
            p.ref[i * n + j] = alpha * dot + beta * cij;
            p.bound[i * n + j] = 2.0 * (double)(k + 2) * unit * (fabs(alpha) * mag + fabs(beta * cij)) + 1e-30;
        }
    return p;
}

static void free_problem(problem *p)
{
    free(p->a), free(p->b), free(p->c), free(p->ref), free(p->bound);
}

/* A copy of C as it was before the call, for the call to overwrite. */
static float *fresh_c(const problem *p)
{
    float *c = sl_test_alloc(p->m * p->ldc * sizeof(float));
    memcpy(c, p->c, p->m * p->ldc * sizeof(float));
    return c;
}

static void expect_product(const problem *p, const float *got, const char *what)
{
    for (size_t i = 0; i < p->m; i++)
        for (size_t j = 0; j < p->ldc; j++) {
            float g = got[i * p->ldc + j];
            if (j >= p->n) {
                cr_assert(g == SENTINEL, "%s %zux%zux%zu: C[%zu][%zu] = %g is in the gap between rows and was "
                          "overwritten", what, p->m, p->n, p->k, i, j, g);
                continue;
            }
            double ref = p->ref[i * p->n + j], err = fabs((double)g - ref);
            cr_assert(isfinite(g) && err <= p->bound[i * p->n + j],
                      "%s %zux%zux%zu (alpha %g, beta %g): C[%zu][%zu] = %.9g, expected %.9g (error %.3g > %.3g)",
                      what, p->m, p->n, p->k, p->alpha, p->beta, i, j, g, ref, err, p->bound[i * p->n + j]);
        }
}

/* The shapes, each with its own alpha, beta and padding. */
typedef struct shape {
    size_t m, n, k, pad;
    float alpha, beta;
} shape;

static const shape shapes[] = {
    {1, 1, 1, 0, 1.0f, 0.0f},          {17, 33, 65, 3, 1.5f, -0.5f},  {127, 129, 31, 0, -2.0f, 1.0f},
    {1000, 3, 7, 1, 0.75f, 0.0f},      {256, 256, 256, 0, 1.0f, 0.0f}, {67, 45, 70, 4, 1.0f, 2.0f},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void check_version(int version, uint64_t seed)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        const shape *sh = &shapes[s];
        problem p = make_problem(sh->m, sh->n, sh->k, sh->pad, sh->alpha, sh->beta, seed + 10 * s);
        float *c = fresh_c(&p);
        sl_opts opts = {version, 0};
        sl_report rep;
        cr_assert_eq(sl_sgemm(p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc, &opts, &rep), SL_OK,
                     "v%d %zux%zux%zu: %s", version, p.m, p.n, p.k, sl_last_error());
        char what[64];
        snprintf(what, sizeof what, "v%d (v9 shape %d)", version, sl_sgemm_v9_shape());
        expect_product(&p, c, what);
        cr_assert_eq(rep.version, version);
        size_t c_span = ((p.m - 1) * p.ldc + p.n) * sizeof(float);
        cr_assert_eq(rep.bytes_d2h, c_span);
        free(c);
        free_problem(&p);
    }
    cr_assert_eq(sl_alloc_live_count(), 0, "device buffers leaked");
}

static void check_all_shapes(int version)
{
    sl_test_require_device();
    check_version(version, sl_test_seed("sgemm"));
}

Test(sgemm, v1_naive_within_the_k_bound) { check_all_shapes(1); }
Test(sgemm, v2_coalesced_within_the_k_bound) { check_all_shapes(2); }
Test(sgemm, v3_shared_tiles_within_the_k_bound) { check_all_shapes(3); }
Test(sgemm, v4_1d_blocking_within_the_k_bound) { check_all_shapes(4); }
Test(sgemm, v5_2d_blocking_within_the_k_bound) { check_all_shapes(5); }
Test(sgemm, v6_vectorized_within_the_k_bound) { check_all_shapes(6); }
Test(sgemm, v7_warp_tiling_within_the_k_bound) { check_all_shapes(7); }
Test(sgemm, v8_double_buffered_within_the_k_bound) { check_all_shapes(8); }

/* v9 in every tile shape the autotuner may pick. */
Test(sgemm, v9_every_tile_shape_within_the_k_bound)
{
    sl_test_require_device();
    uint64_t seed = sl_test_seed("sgemm v9");
    for (int s = 0; s < sl_sgemm_v9_shape_count(); s++) {
        cr_assert_eq(sl_sgemm_v9_use_shape(s), SL_OK, "%s", sl_last_error());
        check_version(9, seed);
    }
}

Test(sgemm, v1_v2_take_any_block_that_is_a_multiple_of_32)
{
    sl_test_require_device();
    problem p = make_problem(45, 37, 19, 1, 1.0f, 0.5f, sl_test_seed("blocks"));
    int blocks[4] = {32, 96, 256, 1024};
    for (int v = 1; v <= 2; v++)
        for (int b = 0; b < 4; b++) {
            float *c = fresh_c(&p);
            sl_opts opts = {v, blocks[b]};
            sl_report rep;
            cr_assert_eq(sl_sgemm(p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc, &opts, &rep),
                         SL_OK, "v%d block %d: %s", v, blocks[b], sl_last_error());
            expect_product(&p, c, v == 1 ? "v1 block" : "v2 block");
            cr_assert_eq(rep.block, blocks[b]);
            free(c);
        }
    free_problem(&p);
}

/* Every version reads the tiles other threads loaded: a missing barrier
 * would show under a random order of threads. */
Test(sgemm, every_version_within_bound_under_random_schedules)
{
    sl_test_require_device();
    problem p = make_problem(67, 45, 70, 2, 1.0f, -1.0f, sl_test_seed("schedules"));
    const char *seeds[2] = {"1", "20260405"};
    for (int k = 0; k < 2; k++) {
        setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        for (int v = 3; v <= SL_SGEMM_VERSIONS; v++) {
            float *c = fresh_c(&p);
            sl_opts opts = {v, 0};
            cr_assert_eq(sl_sgemm(p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc, &opts, NULL),
                         SL_OK, "v%d seed %s: %s", v, seeds[k], sl_last_error());
            expect_product(&p, c, "random schedule");
            free(c);
        }
    }
    unsetenv("SIMTLAB_EMU_SEED");
    free_problem(&p);
}

/* v6 to v9 load float4s only from 16-byte aligned rows: device pointers one
 * float off, and odd leading dimensions, take the scalar path. */
Test(sgemm, vectorized_versions_handle_misaligned_rows)
{
    sl_test_require_device();
    problem p = make_problem(70, 66, 41, 1, 1.0f, 0.0f, sl_test_seed("misaligned"));
    size_t na = p.m * p.lda, nb = p.k * p.ldb, nc = p.m * p.ldc;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cr_assert_eq(sl_alloc_device(&d_a, (na + 1) * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_b, (nb + 1) * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_a + 1, p.a, na * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_b + 1, p.b, nb * sizeof(float)), SL_OK, "%s", sl_last_error());
    for (int v = 6; v <= SL_SGEMM_VERSIONS; v++) {
        cr_assert_eq(sl_copy_to_device(d_c, p.c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
        sl_opts opts = {v, 0};
        double ms = -1.0;
        cr_assert_eq(sl_sgemm_device(p.m, p.n, p.k, p.alpha, d_a + 1, p.lda, d_b + 1, p.ldb, p.beta, d_c, p.ldc,
                                     &opts, &ms),
                     SL_OK, "v%d: %s", v, sl_last_error());
        cr_assert(ms >= 0.0);
        float *c = fresh_c(&p);
        cr_assert_eq(sl_copy_to_host(c, d_c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
        char what[32];
        snprintf(what, sizeof what, "v%d misaligned", v);
        expect_product(&p, c, what);
        free(c);
    }
    cr_assert_eq(sl_free_device(d_a), SL_OK);
    cr_assert_eq(sl_free_device(d_b), SL_OK);
    cr_assert_eq(sl_free_device(d_c), SL_OK);
    free_problem(&p);
}

/* k == 0: no products, C = beta * C; beta == 0 then writes zeros over NaN. */
Test(sgemm, k_zero_scales_c_by_beta)
{
    sl_test_require_device();
    for (int v = 1; v <= SL_SGEMM_VERSIONS; v++) {
        float a[1] = {7.0f}, b[3] = {7.0f, 7.0f, 7.0f};
        float c[6] = {1, 2, 3, 4, 5, 6}, z[6] = {NAN, NAN, NAN, NAN, NAN, NAN};
        sl_opts opts = {v, 0};
        cr_assert_eq(sl_sgemm(2, 3, 0, 1.0f, a, 0, b, 3, 2.0f, c, 3, &opts, NULL), SL_OK, "v%d: %s", v,
                     sl_last_error());
        float want[6] = {2, 4, 6, 8, 10, 12}, zeros[6] = {0};
        cr_assert_arr_eq(c, want, sizeof want, "v%d: k = 0 must give C = beta * C", v);
        cr_assert_eq(sl_sgemm(2, 3, 0, 1.0f, a, 0, b, 3, 0.0f, z, 3, &opts, NULL), SL_OK, "%s", sl_last_error());
        cr_assert_arr_eq(z, zeros, sizeof zeros, "v%d: k = 0, beta = 0 must give zeros", v);
    }
}

Test(sgemm, zero_m_or_n_is_a_no_op)
{
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, c[4] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL};
    cr_assert_eq(sl_sgemm(0, 2, 2, 1.0f, a, 2, b, 2, 0.0f, c, 2, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_sgemm(2, 0, 2, 1.0f, a, 2, b, 0, 0.0f, c, 0, NULL, NULL), SL_OK, "%s", sl_last_error());
    cr_assert(c[0] == SENTINEL && c[3] == SENTINEL);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

Test(sgemm, version_zero_is_v9_and_the_report_has_every_phase)
{
    sl_test_require_device();
    float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4] = {NAN, NAN, NAN, NAN};
    sl_report rep;
    /* A (2x3) * B (3x2) = [[1+3, 2+3], [4+6, 5+6]] */
    cr_assert_eq(sl_sgemm(2, 2, 3, 1.0f, a, 3, b, 2, 0.0f, c, 2, NULL, &rep), SL_OK, "%s", sl_last_error());
    float want[4] = {4, 5, 10, 11};
    cr_assert_arr_eq(c, want, sizeof want);
    cr_assert_eq(rep.version, 9);
    cr_assert_eq(rep.bytes_h2d, sizeof a + sizeof b, "beta = 0 and a tight C: C is not copied in");
    cr_assert_eq(rep.bytes_d2h, sizeof c);
    cr_assert_eq(rep.emulated, sl_backend_is_emulator());
    for (int p = 0; p < SL_PHASE_COUNT; p++) cr_assert(rep.phase_ms[p] >= 0.0 && isfinite(rep.phase_ms[p]));
    cr_assert(sl_sgemm_version_name(9) != NULL && sl_sgemm_version_name(10) == NULL);
    cr_assert(sl_sgemm_v9_shape_name(0) != NULL && sl_sgemm_v9_shape_name(sl_sgemm_v9_shape_count()) == NULL);
}

/* ---- the baselines ----------------------------------------------------------------- */
typedef sl_status (*cpu_sgemm)(size_t, size_t, size_t, float, const float *, size_t, const float *, size_t, float,
                               float *, size_t);

Test(sgemm, cpu_baselines_within_the_k_bound)
{
    cpu_sgemm fns[3] = {sl_sgemm_cpu_naive, sl_sgemm_cpu_blocked, sl_sgemm_cpu_openblas};
    const char *names[3] = {"cpu naive", "cpu blocked", "cpu openblas"};
    uint64_t seed = sl_test_seed("cpu");
    /* 300 x 1100 x 270: the blocked loop's second panel of B and second depth step */
    shape extra[2] = {{300, 1100, 270, 3, 1.0f, 0.0f}, {5, 17, 3, 1, -1.0f, 0.5f}};
    for (size_t s = 0; s < NSHAPES + 2; s++) {
        const shape *sh = s < NSHAPES ? &shapes[s] : &extra[s - NSHAPES];
        problem p = make_problem(sh->m, sh->n, sh->k, sh->pad, sh->alpha, sh->beta, seed + s);
        for (int f = 0; f < 3; f++) {
            if (f == 0 && sh->m * sh->n * sh->k > 20000000) continue; /* the naive loop is slow */
            float *c = fresh_c(&p);
            cr_assert_eq(fns[f](p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc), SL_OK, "%s: %s",
                         names[f], sl_last_error());
            expect_product(&p, c, names[f]);
            free(c);
        }
        free_problem(&p);
    }
}

/* cuBLAS is column-major; the row-major product goes through the identity
 * (AB)^T = B^T A^T. A non-square shape with padding would expose swapped
 * sizes or leading dimensions. */
Test(sgemm, cublas_through_the_transpose_identity_matches)
{
    sl_test_require_device();
    problem p = make_problem(37, 21, 13, 2, 1.25f, -0.75f, sl_test_seed("cublas"));
    size_t na = p.m * p.lda, nb = p.k * p.ldb, nc = p.m * p.ldc;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    cr_assert_eq(sl_alloc_device(&d_a, na * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_b, nb * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_alloc_device(&d_c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_a, p.a, na * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_b, p.b, nb * sizeof(float)), SL_OK, "%s", sl_last_error());
    cr_assert_eq(sl_copy_to_device(d_c, p.c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
    double ms = -1.0;
    cr_assert_eq(sl_vendor_sgemm_device(p.m, p.n, p.k, p.alpha, d_a, p.lda, d_b, p.ldb, p.beta, d_c, p.ldc, &ms),
                 SL_OK, "%s", sl_last_error());
    float *c = fresh_c(&p);
    cr_assert_eq(sl_copy_to_host(c, d_c, nc * sizeof(float)), SL_OK, "%s", sl_last_error());
    expect_product(&p, c, "cublasSgemm");
    free(c);
    cr_assert_eq(sl_free_device(d_a), SL_OK);
    cr_assert_eq(sl_free_device(d_b), SL_OK);
    cr_assert_eq(sl_free_device(d_c), SL_OK);
    free_problem(&p);
}

/* ---- the autotuner ------------------------------------------------------------------- */
Test(sgemm, autotuner_runs_on_a_gpu_only_and_makes_its_pick_the_one_v9_runs)
{
    sl_test_require_device();
    int best = -1;
    double ms[16];
    sl_status st = sl_sgemm_v9_autotune(256, 256, 256, &best, ms);
    if (sl_backend_is_emulator()) {
        sl_test_expect_failure(st, SL_ERR_UNSUPPORTED, "GPU");
        return;
    }
    cr_assert_eq(st, SL_OK, "%s", sl_last_error());
    cr_assert(best >= 0 && best < sl_sgemm_v9_shape_count());
    cr_assert_eq(sl_sgemm_v9_shape(), best);
    for (int s = 0; s < sl_sgemm_v9_shape_count(); s++) cr_assert(ms[s] > 0.0 && ms[best] <= ms[s]);
    cr_assert_eq(sl_alloc_live_count(), 0);
}

/* ---- bad arguments --------------------------------------------------------------------- */
Test(sgemm, bad_arguments_are_rejected_by_name)
{
    float a[64] = {0}, b[64] = {0}, c[64] = {0};
    sl_opts v10 = {10, 0}, v3_block = {3, 256}, v1_block = {1, 100};
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "a is NULL");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, NULL, 4, 0, c, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "b is NULL");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, b, 4, 0, NULL, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "c is NULL");
    sl_test_expect_failure(sl_sgemm(4, 4, 5, 1, a, 4, b, 4, 0, c, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "lda = 4");
    sl_test_expect_failure(sl_sgemm(4, 5, 4, 1, a, 4, b, 4, 0, c, 5, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "ldb = 4");
    sl_test_expect_failure(sl_sgemm(4, 5, 4, 1, a, 4, b, 5, 0, c, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT, "ldc = 4");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, &v10, NULL), SL_ERR_INVALID_ARGUMENT,
                           "opts->version");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, &v3_block, NULL), SL_ERR_INVALID_ARGUMENT,
                           "opts->block");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, &v1_block, NULL), SL_ERR_INVALID_ARGUMENT,
                           "opts->block");
    size_t huge = SIZE_MAX / 8;
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, huge, b, 4, 0, c, 4, NULL, NULL), SL_ERR_OVERFLOW, "a (m x lda)");
    sl_test_expect_failure(sl_sgemm(4, 4, 4, 1, a, 4, b, 4, 0, c, huge, NULL, NULL), SL_ERR_OVERFLOW, "c (m x ldc)");
    sl_test_expect_failure(sl_sgemm((size_t)1 << 31, 4, 4, 1, a, 4, b, 4, 0, c, 4, NULL, NULL), SL_ERR_UNSUPPORTED,
                           "m = 2147483648");
    sl_test_expect_failure(sl_sgemm_v9_use_shape(99), SL_ERR_INVALID_ARGUMENT, "shape = 99");
    sl_test_expect_failure(sl_sgemm_cpu_blocked(4, 4, 5, 1, a, 4, b, 4, 0, c, 4), SL_ERR_INVALID_ARGUMENT, "lda = 4");
    sl_test_expect_failure(sl_sgemm_cpu_openblas(4, 4, 4, 1, NULL, 4, b, 4, 0, c, 4), SL_ERR_INVALID_ARGUMENT,
                           "a is NULL");
    double ms = 0.0;
    sl_test_expect_failure(sl_sgemm_device(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, NULL, NULL), SL_ERR_INVALID_ARGUMENT,
                           "kernel_ms is NULL");
    sl_test_require_device();
    sl_test_expect_failure(sl_sgemm_device(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, NULL, &ms), SL_ERR_INVALID_ARGUMENT,
                           "a = ");
    sl_test_expect_failure(sl_vendor_sgemm_device(4, 4, 4, 1, a, 4, b, 4, 0, c, 4, &ms), SL_ERR_INVALID_ARGUMENT,
                           "a = ");
    cr_assert_eq(sl_alloc_live_count(), 0);
}
