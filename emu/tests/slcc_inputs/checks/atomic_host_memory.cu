// A histogram whose counts are host memory handed to the kernel: a local
// variable (stack), a small malloc (heap) or a large one (a block malloc
// maps by itself), chosen by argv[1]. A GPU without HMM or ATS cannot
// reach host pageable memory; the checked build (plain slcc) reports the
// atomic; --fast runs it as a hardware-coherent system would.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void count_odd(const int *values, int n, int *count)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && values[i] % 2)
        atomicAdd(count, 1); // BUG: count is host memory
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "malloc";
    int pageable = -1; // 1: the device reaches host pageable memory (HMM or ATS)
    cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0);
    printf("pageableMemoryAccess = %d\n", pageable);
    int *values;
    cudaMallocManaged(&values, 128 * sizeof(int));
    for (int i = 0; i < 128; i++)
        values[i] = i;
    int on_stack = 0;
    int *count = &on_stack;
    if (strcmp(kind, "malloc") == 0)
        count = (int *)malloc(sizeof(int));
    else if (strcmp(kind, "large") == 0)
        count = (int *)malloc(1 << 20);
    *count = 0;
    count_odd<<<2, 64>>>(values, 128, count);
    const cudaError_t err = cudaDeviceSynchronize();
    printf("odd values (%s): %d: %s\n", kind, *count, cudaGetErrorString(err));
    if (count != &on_stack)
        free(count);
    cudaFree(values);
    return err != cudaSuccess;
}
