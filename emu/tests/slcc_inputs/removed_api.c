/* A C file calling a call CUDA 13.0 removed: the same message in C. */
#include <cuda_runtime_api.h>

int main(void)
{
    return cudaThreadSynchronize() != cudaSuccess;
}
