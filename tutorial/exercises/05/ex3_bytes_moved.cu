/* Exercise 05.3 — how many bytes does a tiled kernel move?
 * The kernel below is SGEMM v3's tiling (kernels/05_sgemm.cu) for square
 * n x n matrices, n a multiple of TILE, with one addition: every load from
 * global memory is counted (atomicAdd on a counter). Before running it,
 * write predicted_loads: how many floats the kernel loads from A and B in
 * all, as a formula in n and TILE. The program compares your formula with
 * the count for several n and both tile sizes. Then: how many flops does
 * the kernel do per byte it loads, and how does that change with TILE? */
#include "ex_common.h"

template <int TILE>
__global__ void tiled_sgemm(const float *a, const float *b, float *c, int n, unsigned long long *loads)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int q0 = 0; q0 < n; q0 += TILE) {
        as[threadIdx.y][threadIdx.x] = a[(size_t)row * n + q0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(size_t)(q0 + threadIdx.y) * n + col];
        atomicAdd(loads, 2ull);
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

template <int TILE>
static int run(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) h[i] = 1.0f;
    float *d_a, *d_b, *d_c;
    unsigned long long *d_loads, loads = 0;
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMalloc(&d_loads, sizeof loads));
    CHECK(cudaMemcpy(d_a, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, h, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_loads, 0, sizeof loads));
    dim3 grid(n / TILE, n / TILE), block(TILE, TILE);
    tiled_sgemm<TILE><<<grid, block>>>(d_a, d_b, d_c, n, d_loads);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&loads, d_loads, sizeof loads, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h, d_c, bytes, cudaMemcpyDeviceToHost));
    double want = predicted_loads(n, TILE);
    int wrong = (double)loads != want || h[0] != (float)n;
    printf("%s: n = %d, TILE = %d: the kernel loaded %llu floats, your formula says %.0f\n",
           wrong ? "WRONG" : "correct", n, TILE, loads, want);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_loads));
    free(h);
    return wrong;
}

int main(void)
{
    int wrong = 0;
    wrong |= run<16>(64);
    wrong |= run<16>(128);
    wrong |= run<32>(128);
    wrong |= run<32>(192);
    return wrong;
}
