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
 * The program holds only the answers' hashes (so that they are not in
 * view) and says which answer is wrong, with a hint. Then: what would 32
 * registers per thread give, and what would limit it? */
#include "../common/ex_check.h"
#include "../common/ex_answer.h"

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

/* FNV-1a of "question:answer" (a character answer as its code): the check
 * knows the hash, not the answer. */
#define HASH_BLOCKS_PER_SM 0x7501d02eul
#define HASH_OCCUPANCY_PCT 0x6ad8a359ul
#define HASH_LIMIT 0x2ba13e6cul

int main(void)
{
    int wrong = 0;
    if (fnv1a("BLOCKS_PER_SM", BLOCKS_PER_SM) != HASH_BLOCKS_PER_SM) {
        printf("WRONG: blocks per SM: your answer %d is not what the rules give: work out what each limit "
               "alone allows (registers, threads, shared memory with its reserved KB, the block limit) and "
               "take the smallest\n", BLOCKS_PER_SM);
        wrong = 1;
    }
    if (fnv1a("OCCUPANCY_PCT", OCCUPANCY_PCT) != HASH_OCCUPANCY_PCT) {
        printf("WRONG: occupancy: your answer %d%% is not the resident warps (blocks per SM x 8 warps of "
               "256 threads) over the 64 an SM holds\n", OCCUPANCY_PCT);
        wrong = 1;
    }
    if (fnv1a("LIMIT", LIMIT) != HASH_LIMIT) {
        printf("WRONG: limit: your answer '%c' is not the resource that runs out first\n", LIMIT);
        wrong = 1;
    }
    if (!wrong)
        printf("correct: %d blocks per SM, %d%% occupancy, limited by '%c'\n", BLOCKS_PER_SM, OCCUPANCY_PCT, LIMIT);
    return wrong;
}
