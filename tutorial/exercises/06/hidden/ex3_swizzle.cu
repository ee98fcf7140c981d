/* Hidden test of exercise 06.3 (instructor only). The grader checks
 * place() itself: the visible test's three checks (a permutation per row,
 * 8 rows on 8 bank groups, chunk 5 of rows 0-7 read back by ldmatrix),
 * then ldmatrix round trips of every chunk of every group of 8 rows, in a
 * kernel of its own. */
#include "../grading/grade.h"
#define main student_main
#include "ex3_swizzle.cu"
#undef main

/* Stores the tile through place(), then lane L reads chunk `chunk` of rows
 * row0 .. row0 + 7 with ldmatrix.x1. */
__global__ void key_round_trip(unsigned *out, int chunk, int row0)
{
    __shared__ __align__(16) unsigned short tile[32 * 128];
    for (int q = threadIdx.x; q < 32 * 128; q += 32) {
        int r = q / 128, c = q % 128;
        tile[r * 128 + place(r, c / 8) * 8 + c % 8] = (unsigned short)(r * 128 + c);
    }
    __syncthreads();
    int row = row0 + (int)threadIdx.x % 8;
    unsigned r[1];
    sl_ldmatrix_x1(r, tile + row * 128 + place(row, chunk) * 8);
    out[threadIdx.x] = r[0];
}

static int round_trip(unsigned *d_out, int chunk, int row0)
{
    unsigned out[32];
    key_round_trip<<<1, 32>>>(d_out, chunk, row0);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; lane++) {
        unsigned e = (unsigned)((row0 + lane / 4) * 128 + chunk * 8 + 2 * (lane % 4)), want = e | (e + 1) << 16;
        if (out[lane] != want) return 0;
    }
    return 1;
}

int main(void)
{
    int perm = 1, groups_ok = 1;
    for (int row = 0; row < 32; row++) {
        int seen = 0;
        for (int c = 0; c < 16; c++) {
            int p = place(row, c);
            seen |= p >= 0 && p < 16 ? 1 << p : 0;
        }
        perm &= seen == 0xffff;
    }
    for (int r0 = 0; r0 < 32; r0 += 8)
        for (int c = 0; c < 16; c++) {
            int groups = 0;
            for (int r = r0; r < r0 + 8; r++) groups |= 1 << (((place(r, c) % 8) + 8) % 8);
            groups_ok &= groups == 0xff;
        }
    CHECK_VISIBLE(perm, "each row's 16 chunks on its 16 places%s", perm ? "" : ": not a permutation");
    CHECK_VISIBLE(groups_ok, "8 rows of a chunk on 8 bank groups%s", groups_ok ? "" : ": a bank conflict");
    unsigned *d_out;
    GRADE_REQUIRE(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
    if (!perm) { /* a round trip through a map that is not a permutation reads what was never stored */
        CHECK_VISIBLE(0, "chunk 5 of rows 0-7 read back by ldmatrix: not tried (not a permutation)");
        grade_done();
        return 0;
    }
    int ok = round_trip(d_out, 5, 0);
    CHECK_VISIBLE(ok, "chunk 5 of rows 0-7 read back by ldmatrix%s", ok ? "" : ": wrong data");
    for (int r0 = 0; r0 < 32; r0 += 8) {
        int all = 1;
        for (int c = 0; c < 16; c++) all &= round_trip(d_out, c, r0);
        CHECK_HIDDEN(all, "every chunk of rows %d-%d read back by ldmatrix%s", r0, r0 + 7, all ? "" : ": wrong data");
    }
    cudaFree(d_out);
    grade_done();
    return 0;
}
