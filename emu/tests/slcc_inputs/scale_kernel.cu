/* Half of a two-file program: the kernel and a C-callable launcher that
 * reverse-copies through shared memory, for scale_main.c. */
#define TILE 8

__global__ void reverse_tile(const int *in, int *out)
{
    __shared__ int tile[TILE];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}

extern "C" int reverse8(const int *dev_in, int *dev_out)
{
    reverse_tile<<<1, TILE>>>(dev_in, dev_out);
    return (int)cudaGetLastError();
}
