/* Exercise 04.2 — the warp-shuffle final stage.
 * The block tree (v5 of kernels/04_reduce_ladder.cu) stops when 64 values
 * are left; warp 0 takes them into registers and must finish the sum with
 * __shfl_down_sync, without shared memory and without barriers. Write
 * warp_sum. Hints: 5 steps, offsets 16, 8, 4, 2, 1; all 32 lanes call the
 * shuffle with the full mask 0xffffffff; afterwards lane 0 holds the sum. */
#include "ex_common.h"

#define BLOCK 256

__device__ long long warp_sum(long long v)
{
#ifdef SOLUTION
    /* After the step with offset d, lane i holds lanes i .. i + 2d - 1. */
    for (unsigned offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
#else
    /* FIXME: combine the 32 lanes' values so that lane 0 ends with the sum */
#endif
    return v;
}

__global__ void block_sums(const int *x, size_t n, long long *partials)
{
    __shared__ long long s[BLOCK];
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        long long v = warp_sum(s[tid] + s[tid + 32]);
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

int main(void)
{
    const size_t n = 1000003;
    unsigned blocks = (unsigned)((n + BLOCK - 1) / BLOCK);
    int *x = (int *)malloc(n * sizeof(int));
    long long *partials = (long long *)malloc(blocks * sizeof(long long));
    long long want = fill_inputs(x, n);
    int *d_x;
    long long *d_partials;
    CHECK(cudaMalloc(&d_x, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partials, blocks * sizeof(long long)));
    CHECK(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));
    block_sums<<<blocks, BLOCK>>>(d_x, n, d_partials);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(partials, d_partials, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    long long got = 0;
    for (unsigned b = 0; b < blocks; b++) got += partials[b];
    int wrong = check_sum("warp-shuffle final stage", got, want);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_partials));
    free(x);
    free(partials);
    return wrong;
}
