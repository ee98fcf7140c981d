/* Hidden test of exercise 02.3 (instructor only). The visible test's
 * piece count is the program's own variable: here the grader runs the
 * student's main under the emulator's census, which counts poly's
 * launches and the streams they and the asynchronous copies used, and
 * knows which kernel wrote the bytes copied back. Every check reruns the
 * visible test, so they carry all ten points. On a GPU build there is no
 * census: only the program's own check runs there. */
#define GRADE_POINTS_VISIBLE 10
#include "../grading/grade.h"
#define main student_main
#include "ex3_streams.cu"
#undef main

int main(void)
{
    const int n = 1 << 20;
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        float v = (float)((i % 2001) - 1000) / 1000.0f, acc = 0.0f;
        for (int k = 64; k >= 1; k--) acc = fmaf(acc, v, 1.0f / (float)(k + 1));
        want[i] = acc;
    }
    int counted = census_begin();
    int rc = student_main();
    census_end();
    CHECK_VISIBLE(rc == 0, "the program's own check%s", rc == 0 ? "" : ": it exits non-zero");
    if (!counted) {
        CHECK_VISIBLE(1, "pieces and streams not counted on a GPU build (no census)");
    } else {
#ifdef SIMTLAB_EMU
        unsigned long long pieces = census_launches_of("poly", NULL);
        CHECK_VISIBLE(pieces >= 16 && census.launch_streams >= 4,
                      "16 pieces on 4 streams: the runtime counted %llu launch%s of poly on %llu stream%s other than "
                      "the default", pieces, pieces == 1 ? "" : "es", census.launch_streams,
                      census.launch_streams == 1 ? "" : "s");
        CHECK_VISIBLE(census.async_copies >= 32 && census.copy_streams >= 4,
                      "each piece copied in and out with cudaMemcpyAsync on its stream: %llu asynchronous copies on "
                      "%llu stream%s other than the default", census.async_copies, census.copy_streams,
                      census.copy_streams == 1 ? "" : "s");
        char why[512];
        int ok = received_from_kernel(want, n * sizeof(float), "poly", NULL, why, sizeof why);
        CHECK_VISIBLE(ok, "y computed on the device by poly and copied back%s%s", ok ? "" : ": ", ok ? "" : why);
#endif
    }
    free(want);
    grade_done();
    return 0;
}
