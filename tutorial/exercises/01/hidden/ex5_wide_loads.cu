/* Hidden test of exercise 01.5 (instructor only). The grader runs add4
 * itself: the visible test's case again (other values), then sizes the
 * visible test does not try (every remainder n % 4, n smaller than one
 * group, other grids; arrays exactly n long, so a read past the end faults
 * under the emulator; c poisoned, so an element nobody wrote shows). The
 * load requests are compared with the grader's own copy of add1, not the
 * student's (which the student's file could change). */
#include "../grading/grade.h"
#define main student_main
#include "ex5_wide_loads.cu"
#undef main

/* add1 as the exercise gives it: the reference the requests are measured against. */
__global__ void key_add1(const float *a, const float *b, float *c, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

static void one_case(size_t n, unsigned blocks, unsigned threads, int measure, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1009);
        b[i] = 0.25f;
        c[i] = -7.0f;
    }
    GRADE_REQUIRE(cudaMalloc(&d_a, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_b, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_c, bytes));
    GRADE_REQUIRE(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    double ref = -1.0, mine = -1.0;
    if (measure) {
        model_window_begin();
        key_add1<<<blocks, threads>>>(d_a, d_b, d_c, n);
        GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
        if (model_window_end()) ref = (double)figures->gld_requests;
#endif
    }
    GRADE_REQUIRE(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    model_window_begin();
    add4<<<blocks, threads>>>(d_a, d_b, d_c, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    if (model_window_end()) mine = (double)figures->gld_requests;
#else
    model_window_end();
#endif
    GRADE_REQUIRE(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (c[i] != (float)(i % 1009) + 0.25f) bad = i;
    if (bad == n)
        check(1, "add4, n = %zu (n %% 4 = %zu), %u x %u threads", n, n % 4, blocks, threads);
    else
        check(0, "add4, n = %zu, %u x %u: c[%zu] = %g, expected %g", n, blocks, threads, bad, c[bad],
              (float)(bad % 1009) + 0.25f);
    if (measure) {
#ifdef SIMTLAB_EMU
        if (ref <= 0 || mine < 0)
            check(no_model_here(), "load requests, n = %zu: no modelled counters%s", n, no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
        else
            check(mine / ref <= 0.30, "load requests, n = %zu: %.0f against add1's %.0f, ratio %.2f (modelled; at most "
                  "0.30)", n, mine, ref, mine / ref);
#else
        check(1, "load requests not graded on a GPU build (no modelled counters; measure with ncu)");
#endif
    }
    cudaFree(d_a), cudaFree(d_b), cudaFree(d_c);
    free(a), free(b), free(c);
}

int main(void)
{
    one_case(1000003, 64, 256, 1, 1); /* the visible test's case */
    one_case(1, 1, 32, 0, 0);
    one_case(3, 2, 32, 0, 0);
    one_case(6, 1, 64, 0, 0);
    one_case(4097, 3, 96, 0, 0);
    one_case(65538, 7, 128, 0, 0);
    one_case(262147, 16, 256, 1, 0);
    grade_done();
    return 0;
}
