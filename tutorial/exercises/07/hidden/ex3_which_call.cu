/* Hidden test of exercise 07.3 (instructor only): the answer key. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex3_which_call.cu"
#undef main

int main(void)
{
    int formed = FIRST_FAULT_REPORT >= 1 && FIRST_FAULT_REPORT <= 3 && (COPY_FAILS_TOO == 0 || COPY_FAILS_TOO == 1) &&
                 CONFIG_REPORT >= 1 && CONFIG_REPORT <= 3 && (CONFIG_STICKY == 0 || CONFIG_STICKY == 1);
    CHECK_VISIBLE(formed, "every answer well formed%s", formed ? "" : ": one is not answered yet");
    /* [1] sees only the launch; [2] waits and returns the fault, which is
     * sticky, so [3] fails too; a bad configuration is refused by the launch:
     * [1], and it is not sticky. */
    CHECK_HIDDEN(FIRST_FAULT_REPORT == 2, "FIRST_FAULT_REPORT%s",
                 FIRST_FAULT_REPORT == 2 ? "" : ": wrong (has the kernel run when the launch returns?)");
    CHECK_HIDDEN(COPY_FAILS_TOO == 1, "COPY_FAILS_TOO%s",
                 COPY_FAILS_TOO == 1 ? "" : ": wrong (what happens to a context after a kernel faults?)");
    CHECK_HIDDEN(CONFIG_REPORT == 1, "CONFIG_REPORT%s",
                 CONFIG_REPORT == 1 ? "" : ": wrong (who refuses a configuration: the launch or the kernel?)");
    CHECK_HIDDEN(CONFIG_STICKY == 0, "CONFIG_STICKY%s",
                 CONFIG_STICKY == 0 ? "" : ": wrong (did anything run on the device?)");
    grade_done();
    return 0;
}
