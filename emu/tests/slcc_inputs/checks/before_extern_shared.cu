// A write before the start of extern __shared__ memory (a negative
// index). The checked build (plain slcc) reports it; --fast lands in
// memory before the block's shared memory unseen.
#include <cstdio>

__global__ void mirror(const float *in, float *out)
{
    extern __shared__ float d[];
    const unsigned t = threadIdx.x;
    d[t] = in[t];
    d[-1 - (int)t] = in[t]; // BUG: d[-1], d[-2], ...: before the array
    __syncthreads();
    out[t] = d[t];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(in, 0, 64 * sizeof(float));
    mirror<<<2, 64, 64 * sizeof(float)>>>(in, out);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("mirror: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err != cudaSuccess;
}
