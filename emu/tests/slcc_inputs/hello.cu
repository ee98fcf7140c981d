/* slcc's smoke test: each thread writes its threadIdx.x into its own slot,
 * the host prints the array. With BLOCKS blocks of THREADS threads the
 * output is "0 1 2 3" once per block. */
#include <stdio.h>

#include "hello_config.h"

__global__ void write_thread_ids(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = (int)threadIdx.x;
}

int main(void)
{
    enum { N = BLOCKS * THREADS };
    int host[N];
    int *dev = NULL;
    if (cudaMalloc((void **)&dev, sizeof host) != cudaSuccess)
        return 1;
    write_thread_ids<<<BLOCKS, THREADS>>>(dev);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(dev);
    if (err != cudaSuccess) {
        printf("CUDA error: %s\n", cudaGetErrorString(err));
        return 1;
    }
    printf("hello:");
    for (int i = 0; i < N; i++)
        printf(" %d", host[i]);
    printf("\n");
    return 0;
}
