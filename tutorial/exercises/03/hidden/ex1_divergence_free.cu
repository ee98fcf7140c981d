/* Hidden test of exercise 03.1 (instructor only). The grader runs
 * two_paths itself: the visible test's case (other inputs, so that a
 * printed or hard-coded result does not pass) with the modelled SIMT
 * efficiency measured here, not by the student's program, then other
 * sizes and blocks. The expected results are the grader's own (not the
 * student's path_a and path_b). On a GPU build the efficiency is not
 * graded: there are no modelled counters.
 * The grader (scripts/grade.py) adds one more hidden check on the emulator:
 * two_paths's modelled issue time over this test's launches, read from the
 * emulator's CSV, at most 1.1x that of the reference solution run under
 * this test in the same grading run, with the same slcc; it counts only
 * when every check above passed. */
#define GRADE_MODEL_ISSUE_KERNEL two_paths
#define GRADE_MODEL_ISSUE_RATIO 1.1
#include "../grading/grade.h"
#define main student_main
#include "ex1_divergence_free.cu"
#undef main

static unsigned key_path(int i, unsigned v)
{
    for (int j = 0; j < 64; j++) v = (i % 2 == 0) ? v * 2654435761u + 12345u : (v ^ (v >> 13)) * 2246822519u;
    return v;
}

static void one_case(int n, int block, int measure, int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    unsigned *x = (unsigned *)malloc(n * sizeof(unsigned)), *out = (unsigned *)malloc(n * sizeof(unsigned));
    for (int i = 0; i < n; i++) x[i] = ((unsigned)i * 2654435761u) ^ 0x5bd1e995u;
    unsigned *d_x, *d_out;
    GRADE_REQUIRE(cudaMalloc(&d_x, n * sizeof(unsigned)));
    GRADE_REQUIRE(cudaMalloc(&d_out, n * sizeof(unsigned)));
    GRADE_REQUIRE(cudaMemcpy(d_x, x, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    GRADE_REQUIRE(cudaMemset(d_out, 0xAB, n * sizeof(unsigned)));
    model_window_begin();
    two_paths<<<(n + block - 1) / block, block>>>(d_x, d_out, n);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
#ifdef SIMTLAB_EMU
    const simtlab_emu_profile_figures *f = model_window_end();
    if (measure) {
        if (!f)
            check(no_model_here(), "SIMT efficiency: no modelled counters%s", no_model_here() ? " in this build: not graded here" : " (build with slcc --profile)");
        else
            check(f->simt_efficiency > 0.9, "SIMT efficiency, n = %d, blocks of %d: %.1f%% (modelled; above 90%%)", n,
                  block, 100.0 * f->simt_efficiency);
    }
#else
    model_window_end();
    if (measure) check(1, "SIMT efficiency not graded on a GPU build (no modelled counters)");
#endif
    GRADE_REQUIRE(cudaMemcpy(out, d_out, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (out[i] != key_path(i, x[i])) bad = i;
    if (bad < 0)
        check(1, "two_paths, n = %d, blocks of %d", n, block);
    else
        check(0, "two_paths, n = %d, blocks of %d: out[%d] = %u, expected %u (every item taken exactly once?)", n,
              block, bad, out[bad], key_path(bad, x[bad]));
    cudaFree(d_x), cudaFree(d_out);
    free(x), free(out);
}

int main(void)
{
    one_case(1 << 14, 256, 1, 1); /* the visible test's case */
    one_case(1000, 256, 0, 0);
    one_case(4096, 128, 1, 0);
    one_case(64 * 37, 64, 0, 0);
    grade_done();
    return 0;
}
