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
 * This program checks only that each answer is an answer (a whole number,
 * not the -1 you were given); whether it is right is graded by `make
 * grade`'s instructor checks, which count each on the device. Then: what
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
#define BLOCKS -1       /* FIXME */
#define IDLE_THREADS -1 /* FIXME */
#define SPLIT_WARPS -1  /* FIXME */
#define EMPTY_WARPS -1  /* FIXME */
#endif

static int answered(const char *what, long long answer)
{
    if (answer >= 0) {
        printf("answered: %s = %lld\n", what, answer);
        return 0;
    }
    printf("WRONG: %s = %lld is not an answer yet (a whole number, 0 or more)\n", what, answer);
    return 1;
}

int main(void)
{
    int wrong = 0;
    wrong |= answered("BLOCKS", BLOCKS);
    wrong |= answered("IDLE_THREADS", IDLE_THREADS);
    wrong |= answered("SPLIT_WARPS", SPLIT_WARPS);
    wrong |= answered("EMPTY_WARPS", EMPTY_WARPS);
    if (!wrong) printf("every answer is well formed: `make grade EX=01-4` checks whether they are right\n");
    return wrong;
}
