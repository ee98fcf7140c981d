/* Exercise 04.1 — the missing barrier.
 * A block sums its 256 elements in shared memory with sequential addressing
 * (v3 of kernels/04_reduce_ladder.cu). One __syncthreads() is missing: the
 * kernel may still give the right sum when threads happen to run in order,
 * and is wrong when they do not. The program runs it under the emulator's
 * default schedule and under three random ones (SIMTLAB_EMU_SEED; on a GPU
 * the variable is ignored and the hardware's own timing decides). Find the
 * barrier and explain which thread reads what too early. */
#include "ex_common.h"

#define BLOCK 256

__global__ void block_sums(const int *x, size_t n, long long *partials)
{
    __shared__ long long s[BLOCK];
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * BLOCK + tid;
    s[tid] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
#ifdef SOLUTION
        /* Step k + 1 reads s[tid + stride/2], which another thread writes in
         * step k: every thread must finish step k before any starts k + 1. */
        __syncthreads();
#else
        /* FIXME: something is missing here */
#endif
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

static long long run_once(const int *d_x, size_t n, long long *d_partials, long long *partials, unsigned blocks)
{
    block_sums<<<blocks, BLOCK>>>(d_x, n, d_partials);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(partials, d_partials, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    long long sum = 0; /* the second pass on the host: a few hundred values */
    for (unsigned b = 0; b < blocks; b++) sum += partials[b];
    return sum;
}

int main(void)
{
    const size_t n = 100003;
    unsigned blocks = (unsigned)((n + BLOCK - 1) / BLOCK);
    int *x = (int *)malloc(n * sizeof(int));
    long long *partials = (long long *)malloc(blocks * sizeof(long long));
    long long want = fill_inputs(x, n);
    int *d_x;
    long long *d_partials;
    CHECK(cudaMalloc(&d_x, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partials, blocks * sizeof(long long)));
    CHECK(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));
    const char *seeds[4] = {NULL, "1", "2", "3"};
    int wrong = 0;
    for (int k = 0; k < 4; k++) {
        char what[64];
        if (seeds[k]) setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        snprintf(what, sizeof what, "schedule %s", seeds[k] ? seeds[k] : "default");
        wrong |= check_sum(what, run_once(d_x, n, d_partials, partials, blocks), want);
    }
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_partials));
    free(x);
    free(partials);
    return wrong;
}
