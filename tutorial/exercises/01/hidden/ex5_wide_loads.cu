/* Hidden test of exercise 01.5 (instructor only; `make student` leaves
 * hidden/ out). The grader copies this file beside the student's
 * ex5_wide_loads.cu, which it includes with its main renamed, and runs
 * add4 on sizes the visible test does not try: every remainder n % 4, n
 * smaller than one group, other grids; arrays exactly n long (a read past
 * the end faults under the emulator); c poisoned, so an element nobody
 * wrote shows; and, under the emulator, add4's modelled load requests against add1's on the same input.
 * One line per check: "ok - what" or "not ok - what: why". */
#define main student_main
#include "ex5_wide_loads.cu"
#undef main

static void one_case(size_t n, unsigned blocks, unsigned threads, int measure)
{
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 1009);
        b[i] = 0.25f;
        c[i] = -7.0f;
    }
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    double ref = -1.0;
    if (measure) {
        model_begin();
        add1<<<blocks, threads>>>(d_a, d_b, d_c, n);
        CHECK(cudaDeviceSynchronize());
        ref = MODEL_END(model->gld_requests);
    }
    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    model_begin();
    add4<<<blocks, threads>>>(d_a, d_b, d_c, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    double mine = MODEL_END(model->gld_requests);
    if (err != cudaSuccess) {
        printf("not ok - n = %zu, %u x %u: the launch failed: %s\n", n, blocks, threads, cudaGetErrorString(err));
        exit(0); /* a sticky error: no later case could run */
    }
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (c[i] != (float)(i % 1009) + 0.25f) bad = i;
    if (bad == n)
        printf("ok - n = %zu (n %% 4 = %zu), %u x %u threads\n", n, n % 4, blocks, threads);
    else
        printf("not ok - n = %zu, %u x %u: c[%zu] = %g, expected %g\n", n, blocks, threads, bad, c[bad],
               (float)(bad % 1009) + 0.25f);
    if (measure) {
        if (ref <= 0 || mine < 0)
            printf("ok - load requests not graded here (no modelled counters: a GPU build; measure with ncu)\n");
        else if (mine / ref <= 0.30)
            printf("ok - load requests, n = %zu: %.0f against add1's %.0f (modelled)\n", n, mine, ref);
        else
            printf("not ok - load requests, n = %zu: %.0f against add1's %.0f, ratio %.2f (modelled; the target "
                   "is at most 0.30)\n", n, mine, ref, mine / ref);
    }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a), free(b), free(c);
}

int main(void)
{
    one_case(1, 1, 32, 0);
    one_case(3, 2, 32, 0);
    one_case(6, 1, 64, 0);
    one_case(4097, 3, 96, 0);
    one_case(65538, 7, 128, 0);
    one_case(262147, 16, 256, 1);
    return 0;
}
