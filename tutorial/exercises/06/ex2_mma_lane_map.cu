/* Exercise 06.2 — who holds which element of an mma.sync fragment.
 * mma.sync.m16n8k16 leaves its 16x8 float result D spread over the warp:
 * lane L holds d[0..3]. Answer, in the two functions below, which row and
 * column of D lane L's d[i] is. Work it out from the PTX ISA ("Matrix
 * Fragments for mma.m16n8k16 with floating point type") or from
 * kernels/common/sl_tensor.h, not by trial: the program then runs one
 * mma.sync whose every result names its own position (A = the identity and
 * B[k][n] = 8k + n, so D[m][n] = 8m + n) and checks your map lane by lane. */
#include "ex_common.h"

static int answer_row(int lane, int i)
{
#ifdef SOLUTION
    return lane / 4 + (i >= 2 ? 8 : 0); /* g = lane / 4; c[2], c[3] are 8 rows down */
#else
    (void)i;
    return lane % 16; /* FIXME */
#endif
}

static int answer_col(int lane, int i)
{
#ifdef SOLUTION
    return (lane % 4) * 2 + (i & 1); /* t = lane % 4: columns 2t and 2t + 1 */
#else
    (void)lane;
    return i; /* FIXME */
#endif
}

/* A = the 16x16 identity, B (16x8) with B[k][n] = 8k + n, so D = A B has
 * D[m][n] = 8m + n: each lane's d[i] says where it is. The fragments of A
 * and B are built here from the ISA's table (this part is given). */
__global__ void reveal(float *out)
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
    float *d_out, out[128];
    CHECK(cudaMalloc(&d_out, sizeof out));
    reveal<<<1, 32>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            int v = (int)out[lane * 4 + i], row = v / 8, col = v % 8;
            if ((answer_row(lane, i) != row || answer_col(lane, i) != col) && wrong++ < 3)
                printf("lane %d d[%d] is D[%d][%d]; your map says D[%d][%d]\n", lane, i, row, col,
                       answer_row(lane, i), answer_col(lane, i));
        }
    printf("%s: %d of 128 positions wrong\n", wrong ? "WRONG" : "correct", wrong);
    CHECK(cudaFree(d_out));
    return wrong != 0;
}
