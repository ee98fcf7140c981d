/* Hidden test of exercise 03.3 (instructor only): the answer key. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex3_paths_per_warp.cu"
#undef main

int main(void)
{
    /* 0: lanes alternate; 1: a warp shares threadIdx.x / 32; 2: 4 groups of 8
     * lanes; 3: warp 1 splits at 48; 4: two groups of 16; 5: per block. */
    static const int key[6] = {2, 1, 4, 2, 2, 1};
    int formed = 1;
    for (int c = 0; c < 6; c++) formed &= ANSWER[c] >= 1 && ANSWER[c] <= 32;
    CHECK_VISIBLE(formed, "every answer well formed%s", formed ? "" : ": one is not answered yet");
    for (int c = 0; c < 6; c++)
        CHECK_HIDDEN(ANSWER[c] == key[c], "condition %d%s", c,
                     ANSWER[c] == key[c] ? "" : ": wrong (the most paths one warp of 32 consecutive threads takes)");
    grade_done();
    return 0;
}
