// A student's reduction that forgot the __syncthreads() in its loop: each
// step reads partial sums other threads have not written yet. The checked
// build (plain slcc) reports the race; --fast prints a wrong sum.
#include <cstdio>

__global__ void block_sums(const float *x, float *sums)
{
    __shared__ float partial[256];
    const unsigned t = threadIdx.x;
    partial[t] = x[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s)
            partial[t] += partial[t + s]; // BUG: no __syncthreads() after this step
    }
    if (t == 0)
        sums[blockIdx.x] = partial[0];
}

int main()
{
    float *x, *sums;
    cudaMallocManaged(&x, 1024 * sizeof(float));
    cudaMallocManaged(&sums, 4 * sizeof(float));
    for (int i = 0; i < 1024; i++)
        x[i] = 1.0f;
    block_sums<<<4, 256>>>(x, sums);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("sum = %g (want 256): %s\n", sums[0], cudaGetErrorString(err));
    cudaFree(x);
    cudaFree(sums);
    return err != cudaSuccess;
}
