/* Exercise 01.4 — the grid by hand (pencil and paper).
 * Vector add with one thread per element, v1 of the chapter:
 *
 *     size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
 *     if (i < n) c[i] = a[i] + b[i];
 *
 * launched for n = 1000003 elements in blocks of 128 threads, with as few
 * blocks as cover every element. A warp is 32 consecutive threads of a
 * block (tutorial 01, "Threads, warps, blocks, grids"). Answer in the
 * constants below:
 *   BLOCKS        how many blocks the launch has;
 *   IDLE_THREADS  how many of its threads have no element (i >= n);
 *   SPLIT_WARPS   how many warps of the whole grid have lanes on both sides
 *                 of `if (i < n)` (some lanes add, some do not);
 *   EMPTY_WARPS   how many warps have no lane that adds.
 * The program launches such a grid, counts each of these on the device, and
 * says which of your answers are wrong (not what the count is). Then: what
 * does a split warp cost (chapter 03 measures it), and why is one split
 * warp per launch nothing to worry about? */
#include "ex_common.h"

#ifdef SOLUTION
/* ceil(1000003 / 128) = 7813 blocks = 1000064 threads, 61 of them past the
 * end. The last block starts at element 7812 * 128 = 999936 and holds the
 * last 67 elements: its warp 0 (lanes 0-31) and warp 1 (32-63) are full,
 * warp 2 (64-95) has 3 adding lanes and 29 idle ones, and warp 3 (96-127)
 * has none. One warp in 7813 * 4 diverges, for one comparison: nothing. */
#define BLOCKS 7813
#define IDLE_THREADS 61
#define SPLIT_WARPS 1
#define EMPTY_WARPS 1
#else
#define BLOCKS 0       /* FIXME */
#define IDLE_THREADS 0 /* FIXME */
#define SPLIT_WARPS -1 /* FIXME */
#define EMPTY_WARPS -1 /* FIXME */
#endif

#define N 1000003
#define THREADS 128

/* counts[0]: blocks, [1]: idle threads, [2]: split warps, [3]: empty warps */
__global__ void count_grid(size_t n, unsigned *counts)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int adds = i < n;
    unsigned mask = __ballot_sync(0xffffffffu, adds);
    if (threadIdx.x == 0) atomicAdd(&counts[0], 1u);
    if (!adds) atomicAdd(&counts[1], 1u);
    if (threadIdx.x % 32 == 0) {
        if (mask != 0u && mask != 0xffffffffu) atomicAdd(&counts[2], 1u);
        if (mask == 0u) atomicAdd(&counts[3], 1u);
    }
}

static int check(const char *what, long long answer, unsigned counted)
{
    if (answer == (long long)counted) {
        printf("correct: %s = %lld\n", what, answer);
        return 0;
    }
    printf("WRONG: %s = %lld is not what the device counted\n", what, answer);
    return 1;
}

int main(void)
{
    unsigned *d_counts = NULL, counts[4] = {0, 0, 0, 0};
    CHECK(cudaMalloc((void **)&d_counts, sizeof counts));
    CHECK(cudaMemset(d_counts, 0, sizeof counts));
    count_grid<<<(N + THREADS - 1) / THREADS, THREADS>>>((size_t)N, d_counts);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(counts, d_counts, sizeof counts, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_counts));
    int wrong = 0;
    wrong |= check("BLOCKS", BLOCKS, counts[0]);
    wrong |= check("IDLE_THREADS", IDLE_THREADS, counts[1]);
    wrong |= check("SPLIT_WARPS", SPLIT_WARPS, counts[2]);
    wrong |= check("EMPTY_WARPS", EMPTY_WARPS, counts[3]);
    return wrong;
}
