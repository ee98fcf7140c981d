/* Exercise 03.2 — occupancy, by hand.
 * An sm_80 (A100) SM has, by NVIDIA's published limits: 65536 32-bit
 * registers, allocated per warp in units of 256; at most 2048 resident
 * threads (64 warps) and 32 resident blocks; 164 KB of shared memory for
 * blocks, of which the driver reserves 1 KB per block.
 *
 * A kernel uses 64 registers per thread, 256 threads per block and 16 KB
 * of shared memory per block. Answer in the constants below:
 *   BLOCKS_PER_SM   how many of its blocks one SM holds at once;
 *   OCCUPANCY_PCT   resident warps over the 64 possible, in percent;
 *   LIMIT           what stops one more block: 'r' registers, 's' shared
 *                   memory, 't' threads (warps), 'b' the block limit.
 * This program checks only that each answer is an answer; whether it is
 * right is graded by `make grade`'s instructor checks (your tree holds no
 * answer key). Then: what would 32 registers per thread give, and what
 * would limit it? */
#include "../common/ex_check.h"

#ifdef SOLUTION
/* registers: 64 x 32 = 2048 per warp (a multiple of 256), 8 warps a block:
 * 16384 per block, 65536 / 16384 = 4 blocks. Threads: 2048 / 256 = 8.
 * Shared: 164 / (16 + 1) = 9. Blocks: 32. The least is 4, set by the
 * registers: 4 x 8 = 32 warps of 64, 50%. (With 32 registers: 8 blocks,
 * limited by threads and registers at once, 100%.) */
#define BLOCKS_PER_SM 4
#define OCCUPANCY_PCT 50
#define LIMIT 'r'
#else
#define BLOCKS_PER_SM 0 /* FIXME */
#define OCCUPANCY_PCT 0 /* FIXME */
#define LIMIT '?'       /* FIXME */
#endif

int main(void)
{
    int wrong = 0;
    if (BLOCKS_PER_SM < 1 || BLOCKS_PER_SM > 32) {
        printf("WRONG: BLOCKS_PER_SM = %d is not an answer yet (1 to 32: an SM holds at most 32 blocks)\n",
               BLOCKS_PER_SM);
        wrong = 1;
    }
    if (OCCUPANCY_PCT < 1 || OCCUPANCY_PCT > 100) {
        printf("WRONG: OCCUPANCY_PCT = %d is not an answer yet (a percentage, 1 to 100)\n", OCCUPANCY_PCT);
        wrong = 1;
    }
    if (LIMIT != 'r' && LIMIT != 's' && LIMIT != 't' && LIMIT != 'b') {
        printf("WRONG: LIMIT = '%c' is not an answer yet (one of 'r', 's', 't', 'b')\n", LIMIT);
        wrong = 1;
    }
    if (!wrong)
        printf("answered: %d blocks per SM, %d%% occupancy, limited by '%c': `make grade EX=03-2` checks whether "
               "they are right\n", BLOCKS_PER_SM, OCCUPANCY_PCT, LIMIT);
    return wrong;
}
