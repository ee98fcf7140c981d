/* Exercise 02.1 — the crossover, by arithmetic.
 * Vector add moves 12 bytes per element (reads x and y, writes out). The
 * chapter worked this out for a server with an H200; do it here for a
 * desktop, with these round figures (arithmetic, not a measurement of any
 * machine):
 *
 *   CPU, all cores, memory bandwidth           60 GB/s
 *   GPU memory bandwidth                     1000 GB/s
 *   PCIe 4.0 x16, each direction               32 GB/s (both directions at once)
 *   one kernel launch, start to finish          5 us
 *
 * and a model where each part runs at its bandwidth: the CPU takes
 * 12n / 60 GB/s; the kernel alone 5 us + 12n / 1000 GB/s; with copies the
 * kernel's time plus 8n bytes in and 4n bytes out over the bus, one after
 * the other.
 *
 * Answer in the two constants below, as log2(n) of the first power of two
 * at which the GPU is faster than the CPU (-1: never, at any n):
 *   KERNEL_ONLY_LOG2  the kernel alone, data already on the device;
 *   WITH_COPIES_LOG2  with both copies.
 * This program checks only that each answer is an answer (a power of
 * two's exponent, or -1); whether it is right is graded by `make grade`'s
 * instructor checks (your tree holds no answer key). Then compare with
 * what `make bench CH=02` measures (on a GPU machine). */
#include "../common/ex_check.h"

#ifdef SOLUTION
/* Kernel alone: 5e-6 + 12n/1e12 < 12n/6e10  <=>  n > 5e-6 / (2e-10 - 1.2e-11)
 * = 26596, so 2^15 = 32768 is the first power of two (2^14 = 16384 is not).
 * With copies: the bus alone takes 12n / 32 GB/s, already more than the
 * CPU's 12n / 60 GB/s, so the GPU never wins. */
#define KERNEL_ONLY_LOG2 15
#define WITH_COPIES_LOG2 (-1)
#else
#define KERNEL_ONLY_LOG2 (-2) /* FIXME: log2(n), or -1 for never */
#define WITH_COPIES_LOG2 (-2) /* FIXME: log2(n), or -1 for never */
#endif

static int answered(const char *what, int answer)
{
    if (answer == -1 || (answer >= 0 && answer <= 62)) {
        printf("answered: %s = %d%s\n", what, answer, answer < 0 ? " (never)" : "");
        return 0;
    }
    printf("WRONG: %s = %d is not an answer yet (log2 of a power of two, 0 to 62, or -1 for never)\n", what,
           answer);
    return 1;
}

int main(void)
{
    int wrong = answered("KERNEL_ONLY_LOG2", KERNEL_ONLY_LOG2);
    wrong |= answered("WITH_COPIES_LOG2", WITH_COPIES_LOG2);
    if (!wrong) printf("both answers are well formed: `make grade EX=02-1` checks whether they are right\n");
    return wrong;
}
