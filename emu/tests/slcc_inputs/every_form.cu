/* Every construct slrewrite rewrites, in one program that checks itself:
 * a template kernel whose argument list holds a '>', a launch over several
 * lines with all three configuration values, a 2-D __shared__ tile and a
 * scalar in one declaration, extern __shared__ (dynamic) memory, and a
 * file-scope __shared__ array.
 *
 * One 4x4 block transposes in[i] = i through the tile; the expected output
 * is worked out by hand in test_slcc.c. */
#include <stdio.h>

#define N 4

__shared__ int row_counts[N];

template <int WIDTH, bool COUNT>
__global__ void transpose_and_sum(const int *in, int *out)
{
    __shared__ int tile[WIDTH][WIDTH + 1], total;
    extern __shared__ int ones[];
    unsigned x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * WIDTH + x];
    ones[y * WIDTH + x] = COUNT ? 1 : 0;
    if (x == 0 && y == 0)
        total = 0;
    if (x == 0)
        row_counts[y] = 0;
    __syncthreads();
    out[y * WIDTH + x] = tile[x][y];
    atomicAdd(&total, tile[y][x]);
    atomicAdd(&row_counts[y], ones[y * WIDTH + x]);
    __syncthreads();
    if (x == 0 && y == 0)
        out[WIDTH * WIDTH] = total;
    if (x == 0)
        out[WIDTH * WIDTH + 1 + y] = row_counts[y];
}

int main(void)
{
    enum { OUT = N * N + 1 + N };
    int in[N * N], out[OUT];
    for (int i = 0; i < N * N; i++)
        in[i] = i;
    int *din = NULL, *dout = NULL;
    if (cudaMalloc((void **)&din, sizeof in) != cudaSuccess ||
        cudaMalloc((void **)&dout, sizeof out) != cudaSuccess)
        return 1;
    cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
    transpose_and_sum<N, (N > 2)><<<1,
                                   dim3(N, N),
                                   N * N * sizeof(int)>>>(din,
                                                          dout);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    cudaFree(din);
    cudaFree(dout);
    if (err != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("transposed:");
    for (int i = 0; i < N * N; i++)
        printf(" %d", out[i]);
    printf("\ntotal: %d\nrow counts:", out[N * N]);
    for (int i = 0; i < N; i++)
        printf(" %d", out[N * N + 1 + i]);
    printf("\n");
    return 0;
}
