/* A runtime-API program that takes a few calls from the driver API, as
 * tutorials do, built with nvcc's -lcuda: cuInit, a driver allocation a
 * kernel writes, cuMemGetAddressRange on an interior pointer, and a copy
 * back with cuMemcpyDtoH. */
#include <stdio.h>

#include <cuda.h>

__global__ void cube(int *v)
{
    v[threadIdx.x] = threadIdx.x * threadIdx.x * threadIdx.x;
}

int main(void)
{
    int host[5] = {0};
    CUdeviceptr dev = 0, base = 0;
    size_t size = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuMemAlloc(&dev, sizeof host) != CUDA_SUCCESS)
        return 1;
    cube<<<1, 5>>>((int *)dev);
    if (cudaGetLastError() != cudaSuccess)
        return 2;
    CUresult r = cuMemGetAddressRange(&base, &size, dev + 3 * sizeof(int));
    cuMemcpyDtoH(host, dev, sizeof host);
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("driver: %d %d %d %d %d (%s, base %s, %zu bytes)\n", host[0], host[1], host[2], host[3], host[4], name,
           base == dev ? "ok" : "wrong", size);
    return cuMemFree(dev) == CUDA_SUCCESS ? 0 : 3;
}
