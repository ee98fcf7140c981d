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
 * The answers are stored below as hashes, so that they are not in view;
 * the program says which of yours are wrong. Then: why does a CUDA program
 * that checks only cudaGetLastError() after each launch miss most kernel
 * faults, and where in a program should cudaDeviceSynchronize() go when
 * debugging (and why not everywhere in the finished program)? */
#include <stdio.h>
#include "../common/ex_answer.h"

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
#define FIRST_FAULT_REPORT 0 /* FIXME */
#define COPY_FAILS_TOO -1    /* FIXME */
#define CONFIG_REPORT 0      /* FIXME */
#define CONFIG_STICKY -1     /* FIXME */
#endif

/* FNV-1a of "question:answer": the check knows the hash, not the answer. */
#define HASH_FIRST_FAULT_REPORT 0xabc6781dul
#define HASH_COPY_FAILS_TOO 0x8210bf8eul
#define HASH_CONFIG_REPORT 0x4ded0c8bul
#define HASH_CONFIG_STICKY 0x4d382601ul

static int check(const char *name, int answer, unsigned long want)
{
    if (fnv1a(name, answer) == want) {
        printf("correct: %s = %d\n", name, answer);
        return 0;
    }
    printf("WRONG: %s = %d is not the answer\n", name, answer);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 3) { /* for whoever writes a question: ex3 NAME ANSWER prints the hash */
        int a = 0;
        sscanf(argv[2], "%d", &a);
        printf("0x%08lx\n", fnv1a(argv[1], a));
        return 0;
    }
    int wrong = 0;
    wrong |= check("FIRST_FAULT_REPORT", FIRST_FAULT_REPORT, HASH_FIRST_FAULT_REPORT);
    wrong |= check("COPY_FAILS_TOO", COPY_FAILS_TOO, HASH_COPY_FAILS_TOO);
    wrong |= check("CONFIG_REPORT", CONFIG_REPORT, HASH_CONFIG_REPORT);
    wrong |= check("CONFIG_STICKY", CONFIG_STICKY, HASH_CONFIG_STICKY);
    return wrong;
}
