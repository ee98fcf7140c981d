/* Hidden test of exercise 05.1 (instructor only). The grader runs stencil
 * itself, under the default schedule and random ones (SIMTLAB_EMU_SEED):
 * the visible test's size with other values, then sizes that put the halo
 * at both ends of the array (1, 3, a block, a block and one). Inputs are
 * small whole numbers: the sums are exact. */
#include "../grading/grade.h"
#define main student_main
#include "ex1_tiled_stencil.cu"
#undef main

static void one_case(int n, const char *seed, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) in[i] = (float)((i * 7) % 23) - 11.0f;
    float *d_in, *d_out;
    GRADE_REQUIRE(cudaMalloc(&d_in, n * sizeof(float)));
    GRADE_REQUIRE(cudaMalloc(&d_out, n * sizeof(float)));
    GRADE_REQUIRE(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(d_out, 0xff, n * sizeof(float)));
    if (seed) setenv("SIMTLAB_EMU_SEED", seed, 1);
    else unsetenv("SIMTLAB_EMU_SEED");
    stencil<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    float want = 0.0f;
    for (int i = 0; i < n && bad < 0; i++) {
        want = 0.0f;
        for (int d = -3; d <= 3; d++)
            if (i + d >= 0 && i + d < n) want += in[i + d];
        if (!(out[i] == want)) bad = i;
    }
    if (bad < 0)
        check(1, "stencil, n = %d, schedule %s", n, seed ? seed : "default");
    else
        check(0, "stencil, n = %d, schedule %s: out[%d] = %g, expected %g", n, seed ? seed : "default", bad, out[bad],
              want);
    cudaFree(d_in), cudaFree(d_out);
    free(in), free(out);
}

int main(void)
{
    one_case(100003, NULL, 1); /* the visible test's case */
    one_case(100003, "1", 1);
    one_case(1, NULL, 0);
    one_case(3, "2", 0);
    one_case(256, NULL, 0);
    one_case(257, "3", 0);
    one_case(1000, "4", 0);
    grade_done();
    return 0;
}
