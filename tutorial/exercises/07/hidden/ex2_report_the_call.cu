/* Hidden test of exercise 07.2 (instructor only). The grader calls the
 * student's pipeline() itself: the visible test's four runs (with the
 * emulator's census on the run without a mistake: y must come from the
 * kernel scale, not from the host), then mistakes the visible test does not
 * plant (so that reports keyed to the visible test's mistakes do not pass):
 * a NULL input, a NULL output, an allocation too large for want of a
 * mistake of its own. */
#include "../grading/grade.h"
#define main student_main
#include "ex2_report_the_call.cu"
#undef main

#define KEY_N 1000

/* Runs pipeline() with `m` on x (NULL: none) into y (NULL: none); the
 * report must name a call that contains `want` (NULL: nothing may fail). */
static void run_case(enum mistake m, const float *x, float *y, size_t n, const char *what, const char *want,
                     int visible)
{
    int (*check)(int, const char *, ...) = visible ? CHECK_VISIBLE : CHECK_HIDDEN;
    memset(&failure, 0, sizeof failure);
    cudaError_t err = pipeline(x, y, n, m);
    (void)cudaGetLastError();
    if (!want) {
        int ok = err == cudaSuccess && !failure.call;
        for (size_t i = 0; i < n && ok; i++) ok = y[i] == 2.0f * x[i];
        check(ok, "%s: y = 2x, nothing reported%s", what, ok ? "" : ": wrong");
        return;
    }
    int named = failure.call && strstr(failure.call, want) && err != cudaSuccess && err == failure.err;
    check(named, "%s: reports %s%s%s", what, want, named ? "" : ", but the report names ",
          named ? "" : (failure.call ? failure.call : "nothing"));
}

int main(void)
{
    static float x[KEY_N], y[KEY_N], want[KEY_N];
    /* never 0: scale doubles in place, and a value it leaves as it was keeps its writer (the host) */
    for (int i = 0; i < KEY_N; i++) x[i] = (float)(i % 97) - 13.5f, y[i] = -1.0f, want[i] = 2.0f * x[i];
    int counted = census_begin();
    run_case(NONE, x, y, KEY_N, "no mistake", NULL, 1);
    census_end();
    if (counted) {
#ifdef SIMTLAB_EMU
        char why[512];
        int ok = census_launches_of("scale", NULL) >= 1 &&
                 received_from_kernel(want, sizeof want, "scale", NULL, why, sizeof why);
        if (census_launches_of("scale", NULL) == 0) snprintf(why, sizeof why, "scale was never launched");
        CHECK_VISIBLE(ok, "no mistake: y computed on the device by scale%s%s", ok ? "" : ": ", ok ? "" : why);
#endif
    }
    run_case(TOO_LARGE, x, y, KEY_N, "1 PiB cudaMalloc", "cudaMalloc", 1);
    run_case(BAD_BLOCK, x, y, KEY_N, "2048 threads per block", "cudaGetLastError", 1);
    run_case(DOUBLE_FREE, x, y, KEY_N, "freed twice", "cudaFree", 1);
    run_case(NONE, NULL, y, KEY_N, "a NULL input", "cudaMemcpy(d_x, x", 0);
    run_case(NONE, x, NULL, KEY_N, "a NULL output", "cudaMemcpy(y, d_x", 0);
    run_case(NONE, x, y, (size_t)1 << 42, "16 TiB of input, no mistake planted", "cudaMalloc", 0);
    grade_done();
    return 0;
}
