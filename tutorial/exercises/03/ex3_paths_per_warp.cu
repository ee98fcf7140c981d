/* Exercise 03.3 — how many paths does a warp take?
 * For each condition below, in a kernel launched with blocks of 128
 * threads, give the largest number of different paths that any one warp
 * takes (1: no warp diverges). Write your answers in ANSWER[]; the program
 * holds only the answers' hashes (so that they are not in view) and names
 * each condition you got wrong.
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
#include "../common/ex_answer.h"

#ifdef SOLUTION
/* 0: lanes alternate, 2. 1: a warp's lanes share threadIdx.x / 32, 1.
 * 2: groups of 8 lanes, 4 per warp, 4. 3: warp 1 holds threads 32-63,
 * split at 48, 2. 4: a warp covers 32 consecutive threads: 2 groups of 16,
 * 2. 5: the whole block goes one way, 1. */
static const int ANSWER[6] = {2, 1, 4, 2, 2, 1};
#else
static const int ANSWER[6] = {0, 0, 0, 0, 0, 0}; /* FIXME */
#endif

/* FNV-1a of "CONDITION_c:answer": the check knows the hash, not the answer. */
static const unsigned long HASH[6] = {0x61b92031ul, 0x6a3f109ful, 0x0d6aad0dul,
                                      0x20dd2714ul, 0x1d2c792dul, 0xa58a90abul};

static unsigned long condition_hash(int c, int answer)
{
    char name[32];
    snprintf(name, sizeof name, "CONDITION_%d", c);
    return fnv1a(name, answer);
}

int main(void)
{
    int wrong = 0;
    for (int c = 0; c < 6; c++)
        if (condition_hash(c, ANSWER[c]) != HASH[c]) {
            printf("WRONG: condition %d: your answer %d is not the most paths one warp takes\n", c, ANSWER[c]);
            wrong = 1;
        }
    if (!wrong) printf("correct: every answer\n");
    return wrong;
}
