/* Hidden test of exercise 06.2 (instructor only): the key is one mma.sync
 * whose every result names its own position (A = the identity, B[k][n] =
 * 8k + n, so D[m][n] = 8m + n), the kernel the student's tree does not
 * hold. One check per register d[i], over the 32 lanes; all ten points are
 * the map's. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex2_mma_lane_map.cu"
#undef main

/* The fragments of A and B are built from the PTX ISA's table. */
__global__ void key_reveal(float *out)
{
    unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned a[4], b[2];
    for (int r = 0; r < 4; r++) {
        unsigned row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
        a[r] = (row == col ? 0x3c00u : 0u) | (row == col + 1 ? 0x3c00u << 16 : 0u);
    }
    for (int r = 0; r < 2; r++) {
        unsigned k0 = 2 * t + 8 * r;
        b[r] = f16_of_int(8 * k0 + g) | (unsigned)f16_of_int(8 * (k0 + 1) + g) << 16;
    }
    float c[4] = {0, 0, 0, 0}, d[4];
    sl_mma_m16n8k16_f16_f32(d, a, b, c);
    for (int i = 0; i < 4; i++) out[lane * 4 + i] = d[i];
}

int main(void)
{
    int seen[16][8] = {{0}}, formed = 1;
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            int row = answer_row(lane, i), col = answer_col(lane, i);
            if (row < 0 || row > 15 || col < 0 || col > 7 || seen[row][col]++) formed = 0;
        }
    CHECK_VISIBLE(formed, "the map puts 128 registers on 128 positions%s", formed ? "" : ": it does not");
    float *d_out, out[128];
    GRADE_REQUIRE(cudaMalloc(&d_out, sizeof out));
    key_reveal<<<1, 32>>>(d_out);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    cudaFree(d_out);
    for (int i = 0; i < 4; i++) {
        int bad = 0;
        for (int lane = 0; lane < 32; lane++) {
            int v = (int)out[lane * 4 + i];
            bad += answer_row(lane, i) != v / 8 || answer_col(lane, i) != v % 8;
        }
        CHECK_HIDDEN(bad == 0, "d[%d] of every lane%s", i, bad == 0 ? "" : ": wrong for some lanes");
    }
    grade_done();
    return 0;
}
