/* The C half: host code that includes <cuda_runtime_api.h> only. */
#include <cuda_runtime_api.h>
#include <stdio.h>

int reverse8(const int *dev_in, int *dev_out);

int main(void)
{
    int host[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    int *in = NULL, *out = NULL;
    if (cudaMalloc((void **)&in, sizeof host) != cudaSuccess ||
        cudaMalloc((void **)&out, sizeof host) != cudaSuccess)
        return 1;
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    int err = reverse8(in, out);
    cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    printf("reversed:");
    for (int i = 0; i < 8; i++)
        printf(" %d", host[i]);
    printf(" (error %d)\n", err);
    return err != 0;
}
