/* Hidden test of exercise 04.3 (instructor only): the key is the device's
 * own count of busy warps, for every block size and step (the counting
 * kernel the student's tree does not hold). The student's program only
 * says whether the formula answers everywhere; all ten points are here. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex3_busy_warps.cu"
#undef main

#define KEY_STEPS 10 /* block <= 1024: s = 1 .. 512 */

/* busy[version][k] counts the busy warps at step s = 2^k. */
__global__ void key_count_busy_warps(unsigned *busy)
{
    const int t = (int)threadIdx.x, block = (int)blockDim.x;
    int k = 0;
    for (int s = 1; s < block; s *= 2, k++) {
        const unsigned v1 = __ballot_sync(0xffffffffu, t % (2 * s) == 0);
        const unsigned v2 = __ballot_sync(0xffffffffu, 2 * s * t < block);
        if (t % 32 == 0) {
            if (v1) atomicAdd(&busy[0 * KEY_STEPS + k], 1u);
            if (v2) atomicAdd(&busy[1 * KEY_STEPS + k], 1u);
        }
    }
}

int main(void)
{
    int formed = 1;
    for (unsigned block = 64; block <= 1024; block *= 2)
        for (unsigned s = 1; s < block; s *= 2)
            for (int v = 1; v <= 2; v++) {
                unsigned said = busy_warps(v, block, s);
                formed &= said >= 1 && said <= block / 32;
            }
    CHECK_VISIBLE(formed, "the formula answers every block and step%s", formed ? "" : ": not everywhere");
    unsigned *d_busy, busy[2 * KEY_STEPS];
    GRADE_REQUIRE(cudaMalloc(&d_busy, sizeof busy));
    for (unsigned block = 64; block <= 1024; block *= 2) {
        GRADE_REQUIRE(cudaMemset(d_busy, 0, sizeof busy));
        key_count_busy_warps<<<1, block>>>(d_busy);
        GRADE_REQUIRE(cudaGetLastError());
        GRADE_REQUIRE(cudaDeviceSynchronize());
        GRADE_REQUIRE(cudaMemcpy(busy, d_busy, sizeof busy, cudaMemcpyDeviceToHost));
        int k = 0, bad = 0;
        char why[200] = "";
        for (unsigned s = 1; s < block; s *= 2, k++)
            for (int v = 1; v <= 2; v++) {
                unsigned want = busy[(v - 1) * KEY_STEPS + k], said = busy_warps(v, block, s);
                if (said != want && !bad) {
                    snprintf(why, sizeof why, ": wrong at v%d, step s = %u", v, s);
                    bad = 1;
                }
            }
        CHECK_HIDDEN(!bad, "block %u, every step, both versions%s", block, why);
    }
    cudaFree(d_busy);
    grade_done();
    return 0;
}
