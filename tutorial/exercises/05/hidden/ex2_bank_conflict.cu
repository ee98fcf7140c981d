/* Hidden test of exercise 05.2 (instructor only). The grader runs
 * row_sums itself, measuring its shared-load bank conflicts here (not
 * through the student's program): the visible test's 4096 rows with other
 * values, then other shapes. On a GPU build the conflicts are not graded
 * (no modelled counters; Nsight Compute measures them there). */
#include "../grading/grade.h"
#define main student_main
#include "ex2_bank_conflict.cu"
#undef main

static void one_case(int rows, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    const int cols = 32;
    size_t elems = (size_t)rows * cols;
    float *m = (float *)malloc(elems * sizeof(float)), *sums = (float *)malloc(rows * sizeof(float));
    for (size_t i = 0; i < elems; i++) m[i] = (float)((i * 13) % 17) - 8.0f; /* small integers: sums exact */
    float *d_m, *d_sums;
    GRADE_REQUIRE(cudaMalloc(&d_m, elems * sizeof(float)));
    GRADE_REQUIRE(cudaMalloc(&d_sums, rows * sizeof(float)));
    GRADE_REQUIRE(cudaMemcpy(d_m, m, elems * sizeof(float), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(d_sums, 0xff, rows * sizeof(float)));
    model_window_begin();
    row_sums<<<rows / 32, 32>>>(d_m, cols, d_sums);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    const simtlab_emu_profile_figures *f = model_window_end();
    if (!f)
        check(no_model_here(), "bank conflicts: no modelled counters%s", no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
    else
        check(f->shld_bank_conflicts == 0 && f->shld_requests > 0,
              "no bank conflict in the shared-memory loads, %d rows: %llu in %llu requests (modelled; the target is 0)",
              rows, f->shld_bank_conflicts, f->shld_requests);
#else
    model_window_end();
    check(1, "bank conflicts not graded on a GPU build (no modelled counters; measure with ncu)");
#endif
    GRADE_REQUIRE(cudaMemcpy(sums, d_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    float want = 0.0f;
    for (int r = 0; r < rows && bad < 0; r++) {
        want = 0.0f;
        for (int j = 0; j < cols; j++) want += m[(size_t)r * cols + j];
        if (!(sums[r] == want)) bad = r;
    }
    if (bad < 0)
        check(1, "row sums of a %d x %d matrix", rows, cols);
    else
        check(0, "row sums, %d rows: row %d is %g, expected %g", rows, bad, sums[bad], want);
    cudaFree(d_m), cudaFree(d_sums);
    free(m), free(sums);
}

int main(void)
{
    one_case(4096, 1); /* the visible test's case */
    one_case(32, 0);
    one_case(64 * 32, 0);
    grade_done();
    return 0;
}
