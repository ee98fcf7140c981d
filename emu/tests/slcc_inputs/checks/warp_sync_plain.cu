// The last warp of a reduction written warp-synchronously on plain (not
// volatile) shared memory, with no __syncwarp(): lanes read what other
// lanes wrote as if the warp ran in lock step. Since Volta it does not
// have to. The checked build (plain slcc) reports the hazard and names
// __syncwarp(); --fast prints a wrong sum.
#include <cstdio>

__device__ void warp_reduce(int *s, unsigned t)
{
    s[t] += s[t + 32]; // BUG: each step reads other lanes' sums, with no __syncwarp() between steps
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

__global__ void block_sums(const int *x, int *sums)
{
    __shared__ int partial[128];
    const unsigned t = threadIdx.x;
    partial[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64)
        partial[t] += partial[t + 64];
    __syncthreads();
    if (t < 32)
        warp_reduce(partial, t);
    if (t == 0)
        sums[blockIdx.x] = partial[0];
}

int main()
{
    int *x, *sums;
    cudaMallocManaged(&x, 512 * sizeof(int));
    cudaMallocManaged(&sums, 4 * sizeof(int));
    for (int i = 0; i < 512; i++)
        x[i] = 1;
    block_sums<<<4, 128>>>(x, sums);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("sum = %d (want 128): %s\n", sums[0], cudaGetErrorString(err));
    cudaFree(x);
    cudaFree(sums);
    return err != cudaSuccess;
}
