/* Exercise 07.3 — which call reports it? (pencil and paper)
 * On a GPU a launch returns before the kernel has run: the host goes on
 * while the GPU works. So an error can come back from a call made long
 * after the mistake. Read this host code as running on a GPU:
 *
 *     scale<<<4, 256>>>(d_x, n);           the kernel writes past the end of d_x,
 *                                         far enough that the GPU faults
 *     e1 = cudaGetLastError();            [1]
 *     e2 = cudaDeviceSynchronize();       [2]
 *     e3 = cudaMemcpy(h, d_y, bytes,
 *                     cudaMemcpyDeviceToHost);   [3]  (d_y: another, valid buffer)
 *
 * and answer in the constants below:
 *   FIRST_FAULT_REPORT  the number of the first call that returns
 *                       cudaErrorIllegalAddress (1, 2 or 3);
 *   COPY_FAILS_TOO      1 if call [3] fails as well, 0 if it works;
 *   CONFIG_REPORT       the same code with scale<<<4, 2048>>> instead (a
 *                       bad configuration, nothing runs): the number of the
 *                       first call that returns its error (cudaErrorInvalidValue
 *                       on CUDA 13; older versions: cudaErrorInvalidConfiguration);
 *   CONFIG_STICKY       1 if after that error every later CUDA call fails
 *                       too, 0 if the program can carry on.
 * This program checks only that each answer is an answer; whether it is
 * right is graded by `make grade`'s instructor checks (your tree holds no
 * answer key). Then: why does a CUDA program
 * that checks only cudaGetLastError() after each launch miss most kernel
 * faults, and where in a program should cudaDeviceSynchronize() go when
 * debugging (and why not everywhere in the finished program)? */
#include <stdio.h>

#ifdef SOLUTION
/* [1] sees only what was wrong with the launch itself: the kernel has not
 * run yet. [2] waits for the kernel and returns its fault; the fault is
 * sticky, so [3] fails too, with the same error (the context is unusable:
 * restart the process). A bad configuration is refused by the launch, so
 * [1] reports it, and it is not sticky. (The emulator may report a fault
 * earlier than a GPU: build/bin/07_errors_emu oob says which call did.)
 * Checking only [1] misses every fault of a kernel; while debugging,
 * synchronize after each launch (or set CUDA_LAUNCH_BLOCKING=1) so a fault
 * is reported next to the launch that caused it, and in the finished
 * program synchronize only where the host needs the results: each
 * synchronization stops the host from queueing more work. */
#define FIRST_FAULT_REPORT 2
#define COPY_FAILS_TOO 1
#define CONFIG_REPORT 1
#define CONFIG_STICKY 0
#else
#define FIRST_FAULT_REPORT 0 /* FIXME: 1, 2 or 3 */
#define COPY_FAILS_TOO -1    /* FIXME: 1 or 0 */
#define CONFIG_REPORT 0      /* FIXME: 1, 2 or 3 */
#define CONFIG_STICKY -1     /* FIXME: 1 or 0 */
#endif

static int answered(const char *name, int answer, int lo, int hi)
{
    if (answer >= lo && answer <= hi) {
        printf("answered: %s = %d\n", name, answer);
        return 0;
    }
    printf("WRONG: %s = %d is not an answer yet (%d to %d)\n", name, answer, lo, hi);
    return 1;
}

int main(void)
{
    int wrong = 0;
    wrong |= answered("FIRST_FAULT_REPORT", FIRST_FAULT_REPORT, 1, 3);
    wrong |= answered("COPY_FAILS_TOO", COPY_FAILS_TOO, 0, 1);
    wrong |= answered("CONFIG_REPORT", CONFIG_REPORT, 1, 3);
    wrong |= answered("CONFIG_STICKY", CONFIG_STICKY, 0, 1);
    if (!wrong) printf("every answer is well formed: `make grade EX=07-3` checks whether they are right\n");
    return wrong;
}
