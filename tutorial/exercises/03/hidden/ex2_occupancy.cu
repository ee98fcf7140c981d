/* Hidden test of exercise 03.2 (instructor only): the answer key. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex2_occupancy.cu"
#undef main

int main(void)
{
    int formed = BLOCKS_PER_SM >= 1 && BLOCKS_PER_SM <= 32 && OCCUPANCY_PCT >= 1 && OCCUPANCY_PCT <= 100 &&
                 (LIMIT == 'r' || LIMIT == 's' || LIMIT == 't' || LIMIT == 'b');
    CHECK_VISIBLE(formed, "every answer well formed%s", formed ? "" : ": one is not answered yet");
    /* registers: 64 x 32 = 2048 a warp, 8 warps a block: 16384, 4 blocks;
     * threads 8, shared 164 / 17 = 9, blocks 32: 4 blocks, 32 of 64 warps. */
    CHECK_HIDDEN(BLOCKS_PER_SM == 4, "blocks per SM%s",
                 BLOCKS_PER_SM == 4 ? "" : ": wrong (work out what each limit alone allows: registers, threads, "
                                           "shared memory with its reserved KB, the block limit; take the smallest)");
    CHECK_HIDDEN(OCCUPANCY_PCT == 50, "occupancy%s",
                 OCCUPANCY_PCT == 50 ? "" : ": wrong (resident warps, blocks per SM x 8, over the 64 an SM holds)");
    CHECK_HIDDEN(LIMIT == 'r', "the limit%s", LIMIT == 'r' ? "" : ": wrong (which resource runs out first?)");
    grade_done();
    return 0;
}
