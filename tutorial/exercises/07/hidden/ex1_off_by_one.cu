/* Hidden test of exercise 07.1 (instructor only). The grader runs
 * differences itself: the visible test's size with other values, then
 * other sizes and blocks, the arrays exactly n and n - 1 long, so that a
 * thread past either end faults under the emulator's memcheck. */
#include "../grading/grade.h"
#define main student_main
#include "ex1_off_by_one.cu"
#undef main

static void one_case(size_t n, unsigned block, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    float *x = (float *)malloc(n * sizeof(float)), *d = (float *)malloc((n - 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) x[i] = (float)((i * 37) % 1013);
    float *d_x, *d_d;
    GRADE_REQUIRE(cudaMalloc(&d_x, n * sizeof(float)));
    GRADE_REQUIRE(cudaMalloc(&d_d, (n - 1) * sizeof(float)));
    GRADE_REQUIRE(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(d_d, 0xff, (n - 1) * sizeof(float)));
    differences<<<(unsigned)((n + block - 1) / block), block>>>(d_x, d_d, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(d, d_d, (n - 1) * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i + 1 < n && bad == n; i++)
        if (!(d[i] == x[i + 1] - x[i])) bad = i;
    if (bad == n)
        check(1, "differences, n = %zu, block %u", n, block);
    else
        check(0, "differences, n = %zu, block %u: d[%zu] = %g, expected %g", n, block, bad, d[bad],
              x[bad + 1] - x[bad]);
    cudaFree(d_x), cudaFree(d_d);
    free(x), free(d);
}

int main(void)
{
    one_case(1000, 256, 1); /* the visible test's case */
    one_case(2, 256, 0);
    one_case(3, 32, 0);
    one_case(257, 256, 0);
    one_case(4097, 128, 0);
    grade_done();
    return 0;
}
