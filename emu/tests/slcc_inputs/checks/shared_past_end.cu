// A neighbour sum that reads one element past the end of a static
// __shared__ array in its last thread. The checked build (plain slcc)
// names the array; --fast reads whatever lies after it.
#include <cstdio>

__global__ void neighbour_sums(const float *in, float *out)
{
    __shared__ float tile[64];
    const unsigned t = threadIdx.x;
    tile[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    out[blockIdx.x * 64 + t] = tile[t] + tile[t + 1]; // BUG: tile[64] for t == 63
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 128 * sizeof(float));
    cudaMalloc(&out, 128 * sizeof(float));
    cudaMemset(in, 0, 128 * sizeof(float));
    neighbour_sums<<<2, 64>>>(in, out);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("neighbour sums: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err != cudaSuccess;
}
