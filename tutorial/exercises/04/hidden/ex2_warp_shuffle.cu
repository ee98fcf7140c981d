/* Hidden test of exercise 04.2 (instructor only). The grader runs the
 * student's reduction itself (the visible test's size, other values; then
 * other sizes), and calls warp_sum directly on 32 values of its own, under
 * the emulator's counters: no shared memory and no barrier in it. */
#include "../grading/grade.h"
#define main student_main
#include "ex2_warp_shuffle.cu"
#undef main

static void one_case(size_t n, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    unsigned blocks = (unsigned)((n + 255) / 256);
    int *x = (int *)malloc(n * sizeof(int));
    long long *partials = (long long *)malloc(blocks * sizeof(long long)), want = 0, got = 0;
    for (size_t i = 0; i < n; i++) x[i] = (int)((i * 104729) % 4001) - 2000, want += x[i];
    int *d_x;
    long long *d_partials;
    GRADE_REQUIRE(cudaMalloc(&d_x, n * sizeof(int)));
    GRADE_REQUIRE(cudaMalloc(&d_partials, blocks * sizeof(long long)));
    GRADE_REQUIRE(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));
    block_sums<<<blocks, 256>>>(d_x, n, d_partials);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(partials, d_partials, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; b++) got += partials[b];
    check(got == want, "sum of %zu values: %lld%s", n, got, got == want ? "" : " (wrong)");
    cudaFree(d_x), cudaFree(d_partials);
    free(x), free(partials);
}

/* warp_sum alone: lane l holds 1000003 l^2 - 7 l + 2^40; lane 0 must end with the sum. */
__global__ void key_warp(long long *out)
{
    long long l = threadIdx.x;
    long long v = warp_sum(1000003 * l * l - 7 * l + (1LL << 40));
    if (threadIdx.x == 0) out[0] = v;
}

static void warp_alone(void)
{
    long long *d_out, got = 0, want = 0;
    for (long long l = 0; l < 32; l++) want += 1000003 * l * l - 7 * l + (1LL << 40);
    GRADE_REQUIRE(cudaMalloc(&d_out, sizeof got));
    model_window_begin();
    key_warp<<<1, 32>>>(d_out);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    const simtlab_emu_profile_figures *f = model_window_end();
    if (!f)
        CHECK_HIDDEN(no_model_here(), "warp_sum's shared memory: no modelled counters%s", no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
    else
        CHECK_HIDDEN(f->shld_requests + f->shst_requests == 0 && f->barriers == 0,
                     "warp_sum without shared memory or barriers: %llu shared loads, %llu stores, %llu barriers "
                     "(modelled)", f->shld_requests, f->shst_requests, f->barriers);
#else
    model_window_end();
    CHECK_HIDDEN(1, "warp_sum's shared memory not checked on a GPU build");
#endif
    GRADE_REQUIRE(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    CHECK_HIDDEN(got == want, "warp_sum of 32 values of the grader's: %lld%s", got, got == want ? "" : " (wrong)");
    cudaFree(d_out);
}

int main(void)
{
    one_case(1000003, 1); /* the visible test's case */
    one_case(1, 0);
    one_case(65, 0);
    one_case(100000, 0);
    warp_alone();
    grade_done();
    return 0;
}
