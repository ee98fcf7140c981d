/* Hidden test of exercise 01.1 (instructor only; `make student` leaves
 * hidden/ out). The grader copies this file beside the student's
 * ex1_bounds.cu, which it includes with its main renamed, and runs the
 * student's kernel itself: the visible test's case again (other values,
 * so a result printed or hard-coded does not pass), then sizes the visible
 * test does not try. The arrays are exactly n long, so a thread past the
 * end faults under the emulator. One line per check (grading/grade.h). */
#include "../grading/grade.h"
#define main student_main
#include "ex1_bounds.cu"
#undef main

static int one_case(size_t n, unsigned block, int visible)
{
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 977);
        b[i] = 0.5f;
        c[i] = -1.0f;
    }
    GRADE_REQUIRE(cudaMalloc(&d_a, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_b, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_c, bytes));
    GRADE_REQUIRE(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    add<<<(unsigned)((n + block - 1) / block), block>>>(d_a, d_b, d_c, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (c[i] != (float)(i % 977) + 0.5f) bad = i;
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    int ok = bad == n ? check(1, "add, n = %zu, block %u", n, block)
                      : check(0, "add, n = %zu, block %u: c[%zu] = %g, expected %g", n, block, bad, c[bad],
                              (float)(bad % 977) + 0.5f);
    cudaFree(d_a), cudaFree(d_b), cudaFree(d_c);
    free(a), free(b), free(c);
    return ok;
}

int main(void)
{
    one_case(1000, 256, 1);
    one_case(1, 256, 0);
    one_case(31, 32, 0);
    one_case(33, 32, 0);
    one_case(257, 256, 0);
    one_case(100003, 128, 0);
    grade_done();
    return 0;
}
