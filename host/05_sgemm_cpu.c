/* simtlab host library — chapter 05: the CPU side of SGEMM, what the GPU
 * versions are measured against.
 *
 *   naive     the triple loop, one core: every element of C a dot product
 *             down a column of B, one cache line per multiply-add
 *   blocked   the same arithmetic, rearranged for the caches and registers
 *             as the GPU ladder rearranges it for shared memory and
 *             registers: C's rows shared among cores (OpenMP), a KC x NC
 *             panel of B copied once into NR-wide strips (it stays in L2),
 *             and a 6 x 16 patch of C held in registers over a whole strip
 *             (the CPU's v5)
 *   openblas  cblas_sgemm: hand-written assembly kernels for this CPU; the
 *             honest CPU best */
#include <cblas.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "05_matrix.h"
#include "simtlab/05_sgemm.h"

/* The shared rules, then host arrays, c apart from a and b (not in place:
 * the loops read a and b while they write c), and for the OpenMP loop m in
 * a long long. */
static sl_status check_cpu(sl_gemm_call *g, int omp)
{
    sl_status st = sl_gemm_check(g);
    char what[64];
    snprintf(what, sizeof what, "%s: m", g->fn);
    if (st == SL_OK && omp) st = sl_check_omp_count(g->m, what);
    if (st == SL_OK && g->m > 0 && g->n > 0 && (st = sl_gemm_check_host(g)) == SL_OK) st = sl_gemm_check_apart(g);
    return st;
}

/* C = beta * C on the rows [i0, i1), without reading C when beta == 0. */
static void scale_rows(const sl_gemm_call *g, float beta, size_t i0, size_t i1)
{
    for (size_t i = i0; i < i1; i++) {
        float *row = g->c + i * g->ldc;
        if (beta == 0.0f) memset(row, 0, g->n * sizeof *row);
        else if (beta != 1.0f)
            for (size_t j = 0; j < g->n; j++) row[j] *= beta;
    }
}

sl_status sl_sgemm_cpu_naive(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                             size_t ldb, float beta, float *c, size_t ldc)
{
    sl_gemm_call g = {"sl_sgemm_cpu_naive", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0};
    sl_status st = check_cpu(&g, 0);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (size_t p = 0; p < k; p++) acc += a[i * lda + p] * b[p * ldb + j];
            c[i * ldc + j] = beta == 0.0f ? alpha * acc : alpha * acc + beta * c[i * ldc + j];
        }
    return SL_OK;
}

/* ---- the blocked loop ------------------------------------------------------------- */
#define MR 6    /* rows of C in registers */
#define NR 16   /* columns of C in registers: 6 x 16 floats, 12 AVX registers */
#define KC 256  /* depth of a panel: a KC x NR strip of B is 16 KiB, within L1 */
#define NC 1024 /* width of a panel: KC x NC of B is 1 MiB, within L2 */

/* C[rows x cols] += alpha * A[rows x kc] * strip[kc x NR], the strip packed
 * (row p at strip + p * NR); rows <= MR and cols <= NR say how much of the
 * patch lies inside C. The patch's sums stay in registers for all kc
 * steps: per step 6 A values and 16 B values feed 96 multiply-adds, the
 * CPU's version of v5's register blocking. */
typedef void (*micro_kernel_fn)(const float *a, size_t lda, const float *strip, size_t kc, float alpha, float *c,
                                size_t ldc, int rows, int cols);

/* Adds alpha * acc to the part of the patch inside C. */
static void add_patch(float acc[MR][NR], float alpha, float *c, size_t ldc, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < cols; j++) c[(size_t)r * ldc + j] += alpha * acc[r][j];
}

/* The rows of A the patch reads; past the end of C, row 0 again (its
 * results are dropped), so the loop needs no test. */
static void patch_rows(const float *a, size_t lda, int rows, const float *arow[MR])
{
    for (int r = 0; r < MR; r++) arow[r] = a + (size_t)(r < rows ? r : 0) * lda;
}

static void micro_kernel_plain(const float *a, size_t lda, const float *strip, size_t kc, float alpha, float *c,
                               size_t ldc, int rows, int cols)
{
    float acc[MR][NR] = {{0.0f}};
    const float *arow[MR];
    patch_rows(a, lda, rows, arow);
    for (size_t p = 0; p < kc; p++)
        for (int r = 0; r < MR; r++)
            for (int j = 0; j < NR; j++) acc[r][j] += arow[r][p] * strip[p * NR + j];
    add_patch(acc, alpha, c, ldc, rows, cols);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The same with AVX2 and FMA, written with intrinsics so that the 12
 * accumulators are certainly registers and each step is a fused
 * multiply-add: what OpenBLAS's kernels are, in assembly. Picked at run
 * time where the CPU has them (pick_micro_kernel). */
__attribute__((target("avx2,fma"))) static void micro_kernel_avx2(const float *a, size_t lda, const float *strip,
                                                                  size_t kc, float alpha, float *c, size_t ldc,
                                                                  int rows, int cols)
{
    const float *arow[MR];
    patch_rows(a, lda, rows, arow);
    __m256 acc[MR][2];
#pragma GCC unroll 6
    for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
    for (size_t p = 0; p < kc; p++) {
        __m256 b0 = _mm256_loadu_ps(strip + p * NR), b1 = _mm256_loadu_ps(strip + p * NR + 8);
#pragma GCC unroll 6 /* unrolled, acc[r] is 12 named registers; rolled, an array in memory */
        for (int r = 0; r < MR; r++) {
            __m256 av = _mm256_broadcast_ss(arow[r] + p);
            acc[r][0] = _mm256_fmadd_ps(av, b0, acc[r][0]);
            acc[r][1] = _mm256_fmadd_ps(av, b1, acc[r][1]);
        }
    }
    float out[MR][NR];
#pragma GCC unroll 6
    for (int r = 0; r < MR; r++) {
        _mm256_storeu_ps(out[r], acc[r][0]);
        _mm256_storeu_ps(out[r] + 8, acc[r][1]);
    }
    add_patch(out, alpha, c, ldc, rows, cols);
}
#endif

static micro_kernel_fn pick_micro_kernel(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return micro_kernel_avx2;
#endif
    return micro_kernel_plain;
}

/* Copies B[p0 .. p0+kc) x [j0 .. j0+nc) into NR-wide strips, zero-padded on
 * the right: strip s holds columns j0 + s*NR .., row after row. */
static void pack_panel(const sl_gemm_call *g, size_t p0, size_t kc, size_t j0, size_t nc, float *packed)
{
    size_t strips = (nc + NR - 1) / NR;
    long long count = (long long)strips;
#pragma omp parallel for schedule(static)
    for (long long s = 0; s < count; s++) {
        size_t jj = j0 + (size_t)s * NR, width = nc - (size_t)s * NR < NR ? nc - (size_t)s * NR : NR;
        float *dst = packed + (size_t)s * kc * NR;
        for (size_t p = 0; p < kc; p++) {
            const float *src = g->b + (p0 + p) * g->ldb + jj;
            for (size_t j = 0; j < NR; j++) dst[p * NR + j] = j < width ? src[j] : 0.0f;
        }
    }
}

sl_status sl_sgemm_cpu_blocked(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                               const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    sl_gemm_call g = {"sl_sgemm_cpu_blocked", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0};
    sl_status st = check_cpu(&g, 1);
    if (st != SL_OK || m == 0 || n == 0) return st;
    float *packed = malloc((size_t)KC * ((NC + NR - 1) / NR * NR) * sizeof *packed);
    if (!packed) return sl_fail(SL_ERR_HOST_MEMORY, "%s: no host memory for a %d x %d panel of B", g.fn, KC, NC);
    micro_kernel_fn kernel = pick_micro_kernel();
    long long row_blocks = (long long)((m + MR - 1) / MR);
#pragma omp parallel for schedule(static)
    for (long long rb = 0; rb < row_blocks; rb++) {
        size_t i0 = (size_t)rb * MR;
        scale_rows(&g, beta, i0, i0 + MR < m ? i0 + MR : m);
    }
    for (size_t j0 = 0; j0 < n; j0 += NC) {
        size_t nc = n - j0 < NC ? n - j0 : NC;
        for (size_t p0 = 0; p0 < k; p0 += KC) {
            size_t kc = k - p0 < KC ? k - p0 : KC;
            pack_panel(&g, p0, kc, j0, nc, packed);
            long long strips = (long long)((nc + NR - 1) / NR);
            /* each core takes rows of C; all of them read the same packed panel */
#pragma omp parallel for schedule(static)
            for (long long rb = 0; rb < row_blocks; rb++) {
                size_t i0 = (size_t)rb * MR;
                int rows = m - i0 < MR ? (int)(m - i0) : MR;
                for (long long s = 0; s < strips; s++) {
                    size_t jj = j0 + (size_t)s * NR;
                    int cols = n - jj < NR ? (int)(n - jj) : NR;
                    kernel(a + i0 * lda + p0, lda, packed + (size_t)s * kc * NR, kc, alpha, c + i0 * ldc + jj, ldc,
                           rows, cols);
                }
            }
        }
    }
    free(packed);
    return SL_OK;
}

/* ---- OpenBLAS ------------------------------------------------------------------------ */

sl_status sl_sgemm_cpu_openblas(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    sl_gemm_call g = {"sl_sgemm_cpu_openblas", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0};
    sl_status st = check_cpu(&g, 0);
    if (st != SL_OK || m == 0 || n == 0) return st;
    if (lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: OpenBLAS takes leading dimensions up to 2^31 - 1", g.fn);
    /* BLAS wants lda >= max(1, k) even when k == 0 */
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, alpha, a, lda ? (int)lda : 1, b,
                (int)ldb, beta, c, (int)ldc);
    return SL_OK;
}
