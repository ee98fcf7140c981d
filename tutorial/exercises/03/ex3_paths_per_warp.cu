/* Exercise 03.3 — how many paths does a warp take?
 * For each condition below, in a kernel launched with blocks of 128
 * threads, give the largest number of different paths that any one warp
 * takes (1: no warp diverges). Write your answers in ANSWER[]; the program
 * asks every lane of every warp and says where you went wrong.
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

static int path(int c, int tid, int block)
{
    switch (c) {
    case 0: return tid % 2 == 0;
    case 1: return (tid / 32) % 2 == 0;
    case 2: return (tid / 8) % 4;
    case 3: return tid < 48;
    case 4: return tid % 64 / 16;
    default: return block % 2 == 0;
    }
}

int main(void)
{
    int wrong = 0;
    for (int c = 0; c < 6; c++) {
        int most = 1;
        for (int block = 0; block < 2; block++)
            for (int w = 0; w < 4; w++) {
                int seen[4] = {0}, paths = 0;
                for (int lane = 0; lane < 32; lane++) {
                    int p = path(c, 32 * w + lane, block);
                    if (!seen[p]) seen[p] = 1, paths++;
                }
                if (paths > most) most = paths;
            }
        if (ANSWER[c] != most) {
            printf("WRONG: condition %d: your answer %d is not the most paths one warp takes\n", c, ANSWER[c]);
            wrong = 1;
        }
    }
    if (!wrong) printf("correct: every answer\n");
    return wrong;
}
