/* Hidden test of exercise 07.4 (instructor only). The program counts its
 * own calls with macros in the student's file; here the emulator's census
 * counts them instead (allocations, frees, host waits, launches) around
 * the grader's own call of run_batches(), and checks every batch that came
 * back: written on the device by scale, and right. Every check reruns the
 * visible test, so they carry all ten points. On a GPU build there is no
 * census: only the sums are checked there. */
#define GRADE_POINTS_VISIBLE 10
#include "../grading/grade.h"
#define main student_main
#include "ex4_starved_loop.cu"
#undef main

int main(void)
{
    static double got[BATCHES];
    static float h[4099], expect[4099];
    for (int b = 0; b < 64; b++) got[b] = NAN;
    int counted = census_begin();
    run_batches(got);
    census_end();
    int bad = -1;
    double exact = 0.0;
    for (int b = 0; b < 64 && bad < 0; b++) {
        exact = 0.0;
        make_batch(h, b);
        for (int i = 0; i < 4099; i++) exact += (double)((1.0f + (float)(b % 5)) * h[i]);
        if (!(fabs(got[b] - exact) <= 1e-9 * fabs(exact) + 1e-9)) bad = b;
    }
    if (bad < 0)
        CHECK_VISIBLE(1, "all 64 batch sums");
    else
        CHECK_VISIBLE(0, "batch sums: batch %d sums to %.17g, expected %.17g", bad, got[bad], exact);
    if (!counted) {
        CHECK_VISIBLE(1, "calls not counted on a GPU build (no census)");
        grade_done();
        return 0;
    }
#ifdef SIMTLAB_EMU
    CHECK_VISIBLE(census.mallocs <= 2 && census.frees <= 2 && census.frees == census.mallocs,
                  "allocated once: the runtime counted %llu cudaMalloc and %llu cudaFree (at most 2 and 2, all freed)",
                  census.mallocs, census.frees);
    CHECK_VISIBLE(census.host_waits <= 1, "no wait in the loop: the runtime counted %llu host waits "
                  "(cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize; at most 1)",
                  census.host_waits);
    unsigned long long launches = census_launches_of("scale", NULL);
    CHECK_VISIBLE(launches == 64, "every batch scaled on the device: %llu launches of scale", launches);
    /* each batch's copy back: LEN floats written by scale, and right */
    size_t copies = simtlab_emu_census_d2h_count(), b = 0, from_kernel = 0;
    for (size_t i = 0; i < copies; i++) {
        simtlab_emu_census_copy c;
        simtlab_emu_census_d2h(i, &c);
        if (c.bytes != sizeof expect || b >= 64) continue;
        make_batch(h, (int)b);
        for (int k = 0; k < 4099; k++) expect[k] = (1.0f + (float)(b % 5)) * h[k];
        from_kernel += c.host_bytes == 0 && c.kernel_bytes > 0 && kernel_is(c.kernel, "scale") &&
                       c.fnv1a == grade_hash(expect, sizeof expect);
        b++;
    }
    CHECK_VISIBLE(b == 64 && from_kernel == 64,
                  "every batch copied back as scale wrote it: %zu of %zu copies of a batch", from_kernel, b);
#endif
    grade_done();
    return 0;
}
