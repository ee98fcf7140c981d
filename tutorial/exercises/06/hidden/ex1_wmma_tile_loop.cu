/* Hidden test of exercise 06.1 (instructor only). The grader runs
 * wmma_gemm itself: the visible test's shape with other values, then
 * other k (one step; more steps than the visible test) and shapes. Inputs
 * are small whole numbers: the float sums are exact. */
#include "../grading/grade.h"
#define main student_main
#include "ex1_wmma_tile_loop.cu"
#undef main

static void one_case(int m, int n, int k, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    unsigned short *a = (unsigned short *)malloc(m * k * 2), *b = (unsigned short *)malloc(k * n * 2);
    float *c = (float *)malloc(m * n * 4);
    for (int i = 0; i < m * k; i++) a[i] = f16_of_int((i * 5 + 1) % 7);
    for (int i = 0; i < k * n; i++) b[i] = f16_of_int((i * 11) % 5);
    void *da, *db, *dc;
    GRADE_REQUIRE(cudaMalloc(&da, m * k * 2));
    GRADE_REQUIRE(cudaMalloc(&db, k * n * 2));
    GRADE_REQUIRE(cudaMalloc(&dc, m * n * 4));
    GRADE_REQUIRE(cudaMemcpy(da, a, m * k * 2, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(db, b, k * n * 2, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(dc, 0xff, m * n * 4));
    wmma_gemm<<<dim3(n / 16, m / 16), 32>>>((const __half *)da, (const __half *)db, (float *)dc, n, k);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(c, dc, m * n * 4, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            long want = 0;
            for (int p = 0; p < k; p++) want += (long)(((i * k + p) * 5 + 1) % 7) * (((p * n + j) * 11) % 5);
            wrong += !(c[i * n + j] == (float)want);
        }
    check(wrong == 0, "C = A B, %d x %d x %d%s", m, n, k, wrong ? ": elements wrong" : "");
    cudaFree(da), cudaFree(db), cudaFree(dc);
    free(a), free(b), free(c);
}

int main(void)
{
    one_case(32, 48, 64, 1); /* the visible test's shape */
    one_case(16, 16, 16, 0);
    one_case(16, 16, 128, 0);
    one_case(48, 32, 96, 0);
    grade_done();
    return 0;
}
