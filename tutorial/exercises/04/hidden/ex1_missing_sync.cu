/* Hidden test of exercise 04.1 (instructor only). The grader runs
 * block_sums itself, under the default schedule and random ones
 * (SIMTLAB_EMU_SEED), on the visible test's size with other values, and on
 * sizes the visible test does not try; every block's partial sum is
 * checked, not only the total. Under the emulator's racecheck a missing
 * barrier stops the kernel: the exercise scores 0 with its diagnosis. */
#include "../grading/grade.h"
#define main student_main
#include "ex1_missing_sync.cu"
#undef main

static void one_case(size_t n, const char *seed, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    unsigned blocks = (unsigned)((n + 255) / 256);
    int *x = (int *)malloc(n * sizeof(int));
    long long *partials = (long long *)malloc(blocks * sizeof(long long));
    for (size_t i = 0; i < n; i++) x[i] = (int)((i * 7919) % 2001) - 1000;
    int *d_x;
    long long *d_partials;
    GRADE_REQUIRE(cudaMalloc(&d_x, n * sizeof(int)));
    GRADE_REQUIRE(cudaMalloc(&d_partials, blocks * sizeof(long long)));
    GRADE_REQUIRE(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(d_partials, 0x5a, blocks * sizeof(long long)));
    if (seed) setenv("SIMTLAB_EMU_SEED", seed, 1);
    else unsetenv("SIMTLAB_EMU_SEED");
    block_sums<<<blocks, 256>>>(d_x, n, d_partials);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(partials, d_partials, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    unsigned bad = blocks;
    long long want = 0;
    for (unsigned b = 0; b < blocks && bad == blocks; b++) {
        want = 0;
        for (size_t i = (size_t)b * 256; i < n && i < (size_t)(b + 1) * 256; i++) want += x[i];
        if (partials[b] != want) bad = b;
    }
    if (bad == blocks)
        check(1, "block sums, n = %zu, schedule %s", n, seed ? seed : "default");
    else
        check(0, "block sums, n = %zu, schedule %s: block %u summed to %lld, expected %lld", n,
              seed ? seed : "default", bad, partials[bad], want);
    cudaFree(d_x), cudaFree(d_partials);
    free(x), free(partials);
}

int main(void)
{
    one_case(100003, NULL, 1); /* the visible test's case */
    one_case(100003, "1", 1);
    one_case(100003, "2", 1);
    one_case(1, NULL, 0);
    one_case(255, "4", 0);
    one_case(256, NULL, 0);
    one_case(257, "5", 0);
    one_case(65537, "6", 0);
    grade_done();
    return 0;
}
