/* Hidden test of exercise 01.2 (instructor only). The student's work is
 * host code in main: the grader runs that main under the emulator's census
 * and checks what the runtime saw, not what the program printed: the
 * kernel `add` ran over every element, the result the host copied back is
 * right and was written on the device by `add` (a loop on the host, or a
 * result copied in, does not pass), and every device allocation was
 * freed. On a GPU build there is no census: only the program's own check
 * runs (the report says so). */
#include "../grading/grade.h"
#define main student_main
#include "ex2_lifecycle.cu"
#undef main

int main(void)
{
    const size_t n = 1 << 20;
    float *want = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) want[i] = 3.0f * (float)(i % 4096);
    int counted = census_begin();
    int rc = student_main();
    census_end();
    CHECK_VISIBLE(rc == 0, "the program's own check%s", rc == 0 ? "" : ": it exits non-zero");
    if (!counted) {
        CHECK_VISIBLE(1, "launches, copies and frees not checked on a GPU build (no census)");
        grade_done();
        return 0;
    }
#ifdef SIMTLAB_EMU
    unsigned long long threads = 0, launches = census_launches_of("add", &threads);
    CHECK_VISIBLE(launches >= 1 && threads >= n, "add launched over all %zu elements: %llu launch%s, %llu threads", n,
                  launches, launches == 1 ? "" : "es", threads);
    char why[512];
    int ok = received_from_kernel(want, n * sizeof(float), "add", NULL, why, sizeof why);
    CHECK_VISIBLE(ok, "c = a + b computed on the device by add and copied back%s%s", ok ? "" : ": ", ok ? "" : why);
    CHECK_HIDDEN(census.h2d_bytes >= 2 * n * sizeof(float),
                 "a and b copied to the device (%llu bytes host to device; 2 x %zu expected)", census.h2d_bytes,
                 n * sizeof(float));
    CHECK_HIDDEN(census.mallocs >= 3 && census.frees == census.mallocs,
                 "every device allocation freed: %llu cudaMalloc, %llu cudaFree", census.mallocs, census.frees);
    CHECK_HIDDEN(census.host_waits >= 1, "waits for the kernel before the copy back (cudaDeviceSynchronize): %llu",
                 census.host_waits);
#endif
    free(want);
    grade_done();
    return 0;
}
