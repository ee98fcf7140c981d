/* Exercise 05.3 — how many bytes does a tiled kernel move?
 * The kernel below is SGEMM v3's tiling (kernels/05_sgemm.cu) for square
 * n x n matrices, n a multiple of TILE. Write predicted_loads: how many
 * floats the kernel loads from global memory, from A and B together, as a
 * formula in n and TILE. This program prints your formula's answers and
 * checks only that they are answers (a positive whole number of floats);
 * whether the formula is right is graded by `make grade`'s instructor
 * checks, which count the kernel's loads on the device for these n and
 * others. (To check yourself first, count them: an atomicAdd per load.)
 * Then: how many flops does the kernel do per byte it loads, and how does
 * that change with TILE? */
#include "ex_common.h"

template <int TILE>
__global__ void tiled_sgemm(const float *a, const float *b, float *c, int n)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int q0 = 0; q0 < n; q0 += TILE) {
        as[threadIdx.y][threadIdx.x] = a[(size_t)row * n + q0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(size_t)(q0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int q = 0; q < TILE; q++) acc += as[threadIdx.y][q] * bs[q][threadIdx.x];
        __syncthreads();
    }
    c[(size_t)row * n + col] = acc;
}

static double predicted_loads(double n, double tile)
{
#ifdef SOLUTION
    /* (n / tile)^2 blocks, each walks n / tile steps, each step loads a
     * tile x tile piece of A and one of B: 2 n^3 / tile floats. Each element
     * is loaded n / tile times instead of n times (v2): the tile divides the
     * traffic by its width, and the flops per byte grow with it, 2n^3 flops
     * on 8 n^3 / tile bytes = tile / 4. */
    return 2.0 * n * n * n / tile;
#else
    (void)n, (void)tile;
    return 0.0; /* FIXME: floats loaded from A and B together */
#endif
}

static int answered(int n, int tile)
{
    double said = predicted_loads(n, tile);
    if (said >= 1 && said == floor(said) && said < 1e18) {
        printf("n = %d, TILE = %d: your formula says %.0f floats\n", n, tile, said);
        return 0;
    }
    printf("WRONG: n = %d, TILE = %d: %g is not an answer yet (a positive whole number of floats)\n", n, tile, said);
    return 1;
}

int main(void)
{
    (void)tiled_sgemm<16>, (void)tiled_sgemm<32>; /* the kernel the question is about */
    int wrong = 0;
    wrong |= answered(64, 16);
    wrong |= answered(128, 16);
    wrong |= answered(128, 32);
    wrong |= answered(192, 32);
    if (!wrong) printf("every answer is well formed: `make grade EX=05-3` checks whether they are right\n");
    return wrong;
}
