// Two arrays carved out of the dynamic shared memory, but the launch asks
// for room for one: the second array lies past the dynamic size. The
// checked build (plain slcc) reports it; --fast writes past it unseen.
#include <cstdio>

__global__ void scale_twice(const float *in, float *out)
{
    extern __shared__ float buffer[];
    float *doubled = buffer + blockDim.x;
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buffer[t] = in[i];
    doubled[t] = 2.0f * in[i]; // BUG: the launch gave blockDim.x floats, not 2 * blockDim.x
    __syncthreads();
    out[i] = buffer[t] + doubled[t];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 128 * sizeof(float));
    cudaMalloc(&out, 128 * sizeof(float));
    cudaMemset(in, 0, 128 * sizeof(float));
    scale_twice<<<2, 64, 64 * sizeof(float)>>>(in, out);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("scale twice: %s\n", cudaGetErrorString(err));
    cudaFree(in);
    cudaFree(out);
    return err != cudaSuccess;
}
