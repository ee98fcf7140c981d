// Records packed into a byte buffer at an offset of 2 bytes: each 4-byte
// store is misaligned, which a GPU refuses. The checked build (plain slcc)
// reports it; --fast stores it as the CPU allows.
#include <cstdio>

__global__ void pack(char *bytes, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        *(int *)(bytes + 2 + 4 * i) = i; // BUG: address 2 + 4i is not a multiple of 4
}

int main()
{
    char *bytes;
    cudaMalloc(&bytes, 4 * 64 + 8);
    pack<<<1, 64>>>(bytes, 64);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("pack: %s\n", cudaGetErrorString(err));
    cudaFree(bytes);
    return err != cudaSuccess;
}
