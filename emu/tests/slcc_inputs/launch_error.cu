/* A launch CUDA rejects: 2048 threads per block is above every device's
 * limit of 1024, so cudaGetLastError reports cudaErrorInvalidValue (CUDA 13). */
#include <stdio.h>

__global__ void fill(int *p) { p[threadIdx.x] = 1; }

static void launch_too_big(int *d) { fill<<<1, 2048>>>(d); }

int main(void)
{
    int *d = NULL;
    if (cudaMalloc((void **)&d, 2048 * sizeof(int)) != cudaSuccess)
        return 1;
    launch_too_big(d);
    printf("%s\n", cudaGetErrorName(cudaGetLastError()));
    cudaFree(d);
    return 0;
}
