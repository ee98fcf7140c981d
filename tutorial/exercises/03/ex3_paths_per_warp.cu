/* Exercise 03.3 — how many paths does a warp take?
 * For each condition below, in a kernel launched with blocks of 128
 * threads, give the largest number of different paths that any one warp
 * takes (1: no warp diverges). Write your answers in ANSWER[]. This
 * program checks only that each is an answer; whether it is right is
 * graded by `make grade`'s instructor checks (your tree holds no answer
 * key).
 *
 *   0  if (threadIdx.x % 2 == 0)                 ... else ...
 *   1  if ((threadIdx.x / 32) % 2 == 0)          ... else ...
 *   2  switch ((threadIdx.x / 8) % 4)            four cases
 *   3  if (threadIdx.x < 48)                     ... else ...
 *   4  switch (threadIdx.x % 64 / 16)            four cases
 *   5  if (blockIdx.x % 2 == 0)                  ... else ...
 *
 * Then: which of them would a GPU run at full speed, and which at a half
 * or a quarter (if each path is long)? */
#include "../common/ex_check.h"

#ifdef SOLUTION
/* 0: lanes alternate, 2. 1: a warp's lanes share threadIdx.x / 32, 1.
 * 2: groups of 8 lanes, 4 per warp, 4. 3: warp 1 holds threads 32-63,
 * split at 48, 2. 4: a warp covers 32 consecutive threads: 2 groups of 16,
 * 2. 5: the whole block goes one way, 1. */
static const int ANSWER[6] = {2, 1, 4, 2, 2, 1};
#else
static const int ANSWER[6] = {0, 0, 0, 0, 0, 0}; /* FIXME */
#endif

int main(void)
{
    int wrong = 0;
    for (int c = 0; c < 6; c++)
        if (ANSWER[c] < 1 || ANSWER[c] > 32) {
            printf("WRONG: condition %d: %d is not an answer yet (a warp takes 1 to 32 paths)\n", c, ANSWER[c]);
            wrong = 1;
        }
    if (!wrong) printf("every answer is well formed: `make grade EX=03-3` checks whether they are right\n");
    return wrong;
}
