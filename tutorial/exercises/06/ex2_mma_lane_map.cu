/* Exercise 06.2 — who holds which element of an mma.sync fragment.
 * mma.sync.m16n8k16 leaves its 16x8 float result D spread over the warp:
 * lane L holds d[0..3]. Answer, in the two functions below, which row and
 * column of D lane L's d[i] is. Work it out from the PTX ISA ("Matrix
 * Fragments for mma.m16n8k16 with floating point type") or from
 * common/sl_tensor.h. This program checks only that your map is a map: 128
 * different positions of the 16 x 8 result, one per lane and register;
 * whether it is the right one is graded by `make grade`'s instructor
 * checks, which run one mma.sync whose every result names its own
 * position. (You can write that check yourself: A = the identity and
 * B[k][n] = 8k + n give D[m][n] = 8m + n.) */
#include "ex_common.h"

static int answer_row(int lane, int i)
{
#ifdef SOLUTION
    return lane / 4 + (i >= 2 ? 8 : 0); /* g = lane / 4; c[2], c[3] are 8 rows down */
#else
    (void)i;
    return lane % 16; /* FIXME */
#endif
}

static int answer_col(int lane, int i)
{
#ifdef SOLUTION
    return (lane % 4) * 2 + (i & 1); /* t = lane % 4: columns 2t and 2t + 1 */
#else
    (void)lane;
    return i; /* FIXME */
#endif
}

int main(void)
{
    int seen[16][8] = {{0}}, wrong = 0;
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            int row = answer_row(lane, i), col = answer_col(lane, i);
            if (row < 0 || row > 15 || col < 0 || col > 7) {
                if (!wrong++) printf("WRONG: lane %d d[%d] -> D[%d][%d] is outside the 16 x 8 result\n", lane, i, row, col);
            } else if (seen[row][col]++) {
                if (!wrong++) printf("WRONG: lane %d d[%d] -> D[%d][%d], a position another lane already holds\n", lane, i,
                                     row, col);
            }
        }
    if (wrong)
        printf("WRONG: %d of 128 positions are not a map of the result\n", wrong);
    else
        printf("your map puts the 128 registers on the 128 positions: `make grade EX=06-2` checks it against the "
               "device\n");
    return wrong != 0;
}
