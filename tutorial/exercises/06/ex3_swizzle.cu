/* Exercise 06.3 — a swizzle that frees ldmatrix of bank conflicts.
 * A 32 x 128 tile of halves in shared memory: rows of 256 bytes, 16 chunks
 * of 16 bytes. ldmatrix reads 8 rows per phase, the same chunk of each: in
 * the plain layout all 8 lie 256 bytes apart, on the same 4 banks: an
 * 8-way conflict. Write place(row, chunk): where chunk `chunk` of row `row`
 * goes within that row, so that
 *   - each row's 16 chunks still fill its 16 places (a permutation), and
 *   - any 8 consecutive rows starting at a multiple of 8, same chunk, land
 *     on 8 different groups of 4 banks (place % 8 all different).
 * The kernel then stores a tile through your place() and reads it back with
 * ldmatrix, so a wrong permutation shows as wrong data, too. (v5 of
 * kernels/06_tensor_gemm_mma.cu does this for both its tiles.) */
#include "ex_common.h"

__host__ __device__ static int place(int row, int chunk)
{
#ifdef SOLUTION
    return chunk ^ (row & 7); /* XOR flips the low 3 bits: a permutation, and 8 rows give 8 values mod 8 */
#else
    (void)row;
    return chunk; /* FIXME: the plain layout */
#endif
}

/* Stores the 32 x 128 tile (element (r, c) = r * 128 + c, as 16-bit ints)
 * through place(), then lane L reads chunk 5 of rows 0-7 with
 * ldmatrix.x1: it receives row L / 4, elements 2 (L % 4) and + 1. */
__global__ void round_trip(unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[32 * 128];
    for (int q = threadIdx.x; q < 32 * 128; q += 32) {
        int r = q / 128, c = q % 128;
        tile[r * 128 + place(r, c / 8) * 8 + c % 8] = (unsigned short)(r * 128 + c);
    }
    __syncthreads();
    int lane = threadIdx.x, row = lane % 8;
    unsigned r[1];
    sl_ldmatrix_x1(r, tile + row * 128 + place(row, 5) * 8);
    out[lane] = r[0];
}

int main(void)
{
    int wrong = 0;
    for (int row = 0; row < 32; row++) { /* a permutation of each row's places */
        int seen = 0;
        for (int c = 0; c < 16; c++) seen |= 1 << place(row, c);
        if (seen != 0xffff && wrong++ < 3) printf("row %d: place() is not a permutation of 0..15\n", row);
    }
    for (int r0 = 0; r0 < 32; r0 += 8)
        for (int c = 0; c < 16; c++) {
            int groups = 0;
            for (int r = r0; r < r0 + 8; r++) groups |= 1 << (place(r, c) % 8);
            if (groups != 0xff && wrong++ < 3)
                printf("rows %d-%d, chunk %d: the 8 rows share banks (a bank conflict)\n", r0, r0 + 7, c);
        }
    unsigned *d_out, out[32];
    CHECK(cudaMalloc(&d_out, sizeof out));
    round_trip<<<1, 32>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; lane++) {
        unsigned e = (unsigned)((lane / 4) * 128 + 5 * 8 + 2 * (lane % 4)), want = e | (e + 1) << 16;
        if (out[lane] != want && wrong++ < 3) printf("lane %d read 0x%08x, want 0x%08x\n", lane, out[lane], want);
    }
    printf("%s: %d problems\n", wrong ? "WRONG" : "correct", wrong);
    CHECK(cudaFree(d_out));
    return wrong != 0;
}
