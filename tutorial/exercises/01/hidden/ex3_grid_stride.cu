/* Hidden test of exercise 01.3 (instructor only). The grader runs the
 * student's kernel itself, on the visible test's grid of 4 x 128 threads
 * (other values, so a printed or hard-coded result does not pass) and on
 * other grids and sizes. "Every element written exactly once" is checked
 * without the student's own counter (writes[], which the student's file
 * controls): by the emulator's modelled global store sectors, against
 * those of the grader's own grid-stride loop on the same buffers (several
 * times as many when threads of different blocks write the same
 * elements). On a GPU build only the results are checked. */
#include "../grading/grade.h"
#define main student_main
#include "ex3_grid_stride.cu"
#undef main

/* A grid-stride loop that writes each element once: the reference for the stores. */
__global__ void key_store_once(const float *a, const float *b, float *c, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

static void one_case(size_t n, unsigned blocks, unsigned threads, int visible)
{
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 613);
        b[i] = 0.25f;
        c[i] = -3.0f;
    }
    GRADE_REQUIRE(cudaMalloc(&d_a, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_b, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_c, bytes));
    GRADE_REQUIRE(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
#ifdef SIMTLAB_EMU
    unsigned long long ref = 0;
    model_window_begin();
    key_store_once<<<blocks, threads>>>(d_a, d_b, d_c, n);
    GRADE_REQUIRE(cudaDeviceSynchronize());
    if (model_window_end()) ref = figures->gst_sectors;
    GRADE_REQUIRE(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice)); /* the poison again */
#endif
    model_window_begin();
    add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    const simtlab_emu_profile_figures *f = model_window_end();
    if (!f || ref == 0)
        check(no_model_here(), "stores, n = %zu: no modelled counters%s", n, no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
    else
        check(f->gst_sectors <= ref + ref / 20,
              "each element written once, n = %zu, %u x %u threads: %llu store sectors against %llu for a "
              "grid-stride loop (modelled)%s",
              n, blocks, threads, f->gst_sectors, ref,
              f->gst_sectors <= ref + ref / 20 ? "" : ": elements are written by several threads (is the stride the "
                                                     "grid's?)");
#else
    model_window_end();
    check(1, "stores not checked on a GPU build (no modelled counters)");
#endif
    GRADE_REQUIRE(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (c[i] != (float)(i % 613) + 0.25f) bad = i;
    if (bad == n)
        check(1, "add, n = %zu, %u x %u threads", n, blocks, threads);
    else
        check(0, "add, n = %zu, %u x %u threads: c[%zu] = %g, expected %g", n, blocks, threads, bad, c[bad],
              (float)(bad % 613) + 0.25f);
    cudaFree(d_a), cudaFree(d_b), cudaFree(d_c);
    free(a), free(b), free(c);
}

int main(void)
{
    one_case(1000003, 4, 128, 1); /* the visible test's case */
    one_case(1, 3, 96, 0);
    one_case(777, 3, 96, 0);
    one_case(100000, 2, 64, 0);
    one_case(1000003, 7, 256, 0);
    grade_done();
    return 0;
}
