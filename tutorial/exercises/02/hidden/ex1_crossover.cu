/* Hidden test of exercise 02.1 (instructor only): the answer key. The
 * student's program only says whether each answer is well formed; all ten
 * points are the answers'. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex1_crossover.cu"
#undef main

int main(void)
{
    int formed = (KERNEL_ONLY_LOG2 == -1 || (KERNEL_ONLY_LOG2 >= 0 && KERNEL_ONLY_LOG2 <= 62)) &&
                 (WITH_COPIES_LOG2 == -1 || (WITH_COPIES_LOG2 >= 0 && WITH_COPIES_LOG2 <= 62));
    CHECK_VISIBLE(formed, "both answers well formed%s", formed ? "" : ": one is not answered yet");
    /* 5 us + 12n / 1000 GB/s < 12n / 60 GB/s from n = 26596 on: 2^15 is the
     * first power of two; with the bus (12n / 32 GB/s alone is slower than
     * the CPU) never. */
    CHECK_HIDDEN(KERNEL_ONLY_LOG2 == 15, "the kernel alone%s",
                 KERNEL_ONLY_LOG2 == 15 ? "" : ": wrong (solve 5 us + 12n / 1000 GB/s < 12n / 60 GB/s for n, then "
                                               "take the first power of two above it)");
    CHECK_HIDDEN(WITH_COPIES_LOG2 == -1, "with both copies%s",
                 WITH_COPIES_LOG2 == -1 ? "" : ": wrong (add the bus, 12n / 32 GB/s, to the kernel's time and "
                                               "compare with the CPU's 12n / 60 GB/s)");
    grade_done();
    return 0;
}
