/* Hidden test of exercise 04.4 (instructor only). The grader runs
 * reduce_sequential itself: the visible test's size with other values, its
 * bank conflicts measured here against the grader's own copy of v2 (not
 * the student's reduce_strided, which the student's file could change),
 * then other sizes. Every block's partial sum is checked. On a GPU build
 * the conflicts are not graded (no modelled counters). */
#include "../grading/grade.h"
#define main student_main
#include "ex4_bank_conflicts.cu"
#undef main

/* v2's strided index, as the exercise gives it: the reference. */
__global__ void key_reduce_strided(const int *x, size_t n, int *partials)
{
    __shared__ int sh[256];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * 256 + t;
    sh[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < 256; s *= 2) {
        unsigned index = 2 * s * t;
        if (index < 256) sh[index] += sh[index + s];
        __syncthreads();
    }
    if (t == 0) partials[blockIdx.x] = sh[0];
}

static void one_case(size_t n, int measure, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    unsigned blocks = (unsigned)((n + 255) / 256);
    int *x = (int *)malloc(n * sizeof(int)), *partials = (int *)malloc(blocks * sizeof(int));
    for (size_t i = 0; i < n; i++) x[i] = (int)((i * 31337) % 1999) - 999;
    int *d_x, *d_partials;
    GRADE_REQUIRE(cudaMalloc(&d_x, n * sizeof(int)));
    GRADE_REQUIRE(cudaMalloc(&d_partials, blocks * sizeof(int)));
    GRADE_REQUIRE(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));
    double ref = -1, mine = -1;
    if (measure) {
        model_window_begin();
        key_reduce_strided<<<blocks, 256>>>(d_x, n, d_partials);
        GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
        if (model_window_end()) ref = (double)(figures->shld_bank_conflicts + figures->shst_bank_conflicts);
#endif
    }
    GRADE_REQUIRE(cudaMemset(d_partials, 0x7f, blocks * sizeof(int)));
    model_window_begin();
    reduce_sequential<<<blocks, 256>>>(d_x, n, d_partials);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    if (model_window_end()) mine = (double)(figures->shld_bank_conflicts + figures->shst_bank_conflicts);
#else
    model_window_end();
#endif
    GRADE_REQUIRE(cudaMemcpy(partials, d_partials, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    unsigned bad = blocks;
    int want = 0;
    for (unsigned b = 0; b < blocks && bad == blocks; b++) {
        want = 0;
        for (size_t i = (size_t)b * 256; i < n && i < (size_t)(b + 1) * 256; i++) want += x[i];
        if (partials[b] != want) bad = b;
    }
    if (bad == blocks)
        check(1, "reduce_sequential, n = %zu", n);
    else
        check(0, "reduce_sequential, n = %zu: block %u summed to %d, expected %d", n, bad, partials[bad], want);
    if (measure) {
#ifdef SIMTLAB_EMU
        if (ref <= 0 || mine < 0)
            check(no_model_here(), "bank conflicts: no modelled counters%s", no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
        else
            check(mine / ref <= 0.05, "bank conflicts, n = %zu: %.0f against v2's %.0f, ratio %.2f (modelled; at most "
                  "0.05)", n, mine, ref, mine / ref);
#else
        check(1, "bank conflicts not graded on a GPU build (no modelled counters; measure with ncu)");
#endif
    }
    cudaFree(d_x), cudaFree(d_partials);
    free(x), free(partials);
}

int main(void)
{
    one_case(100003, 1, 1); /* the visible test's case */
    one_case(1, 0, 0);
    one_case(257, 0, 0);
    one_case(65539, 1, 0);
    grade_done();
    return 0;
}
