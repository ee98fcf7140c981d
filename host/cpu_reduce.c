/* simtlab host library — chapter 04's CPU references and baselines.
 *
 * Two orders of addition, because the order is what decides a float sum's
 * error (tutorial/04-reduction.md):
 *   - one running double accumulator: every float converts exactly and each
 *     addition rounds at 2^-53, so the error is at most about
 *     n * 2^-53 * sum |x| — the reference the tests compare against;
 *   - pairwise (recursive halving) in float: the additions form a tree of
 *     depth log2(n), so the error is about log2(n) * 2^-24 * sum |x|, the
 *     same shape as a GPU tree reduction's. */
#include "sl_internal.h"

double sl_reduce_sum_cpu_f64(const float *x, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)x[i];
    return sum;
}

double sl_reduce_sum_cpu_f64_omp(const float *x, size_t n)
{
    /* Each core sums one contiguous range (static schedule), then the
     * per-core sums are added: a different order than the serial loop, so
     * the last bits may differ from sl_reduce_sum_cpu_f64. */
    double sum = 0.0;
    long long count = (long long)n;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (long long i = 0; i < count; i++) sum += (double)x[i];
    return sum;
}

/* Below this many elements a plain loop: recursing to single elements
 * would cost a call per add and change the error bound only by a constant. */
#define PAIRWISE_LEAF 32

float sl_reduce_sum_cpu_pairwise(const float *x, size_t n)
{
    if (n <= PAIRWISE_LEAF) {
        float sum = 0.0f;
        for (size_t i = 0; i < n; i++) sum += x[i];
        return sum;
    }
    size_t half = n / 2;
    return sl_reduce_sum_cpu_pairwise(x, half) + sl_reduce_sum_cpu_pairwise(x + half, n - half);
}

float sl_reduce_sum_cpu_pairwise_omp(const float *x, size_t n)
{
    /* 64 equal pieces, summed pairwise on whichever core is free, then the
     * 64 piece sums pairwise: the same error bound as the serial version. */
    enum { PIECES = 64 };
    float piece[PIECES];
#pragma omp parallel for schedule(dynamic, 1)
    for (int p = 0; p < PIECES; p++) {
        size_t lo = n / PIECES * (size_t)p + (n % PIECES < (size_t)p ? n % PIECES : (size_t)p);
        size_t len = n / PIECES + ((size_t)p < n % PIECES ? 1 : 0);
        piece[p] = sl_reduce_sum_cpu_pairwise(x + lo, len);
    }
    return sl_reduce_sum_cpu_pairwise(piece, PIECES);
}
