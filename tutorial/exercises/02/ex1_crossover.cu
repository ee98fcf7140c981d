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
 * The program holds only the answers' hashes (so that they are not in
 * view) and says which answer is wrong, with a hint. Then compare with
 * what `make bench CH=02` measures (on a GPU machine). */
#include "../common/ex_check.h"
#include "../common/ex_answer.h"

#ifdef SOLUTION
/* Kernel alone: 5e-6 + 12n/1e12 < 12n/6e10  <=>  n > 5e-6 / (2e-10 - 1.2e-11)
 * = 26596, so 2^15 = 32768 is the first power of two (2^14 = 16384 is not).
 * With copies: the bus alone takes 12n / 32 GB/s, already more than the
 * CPU's 12n / 60 GB/s, so the GPU never wins. */
#define KERNEL_ONLY_LOG2 15
#define WITH_COPIES_LOG2 (-1)
#else
#define KERNEL_ONLY_LOG2 0 /* FIXME */
#define WITH_COPIES_LOG2 0 /* FIXME */
#endif

/* FNV-1a of "question:answer": the check knows the hash, not the answer. */
#define HASH_KERNEL_ONLY_LOG2 0x15ecd290ul
#define HASH_WITH_COPIES_LOG2 0xdc0be0a0ul

static int check(const char *what, const char *name, int answer, unsigned long want, const char *hint)
{
    if (fnv1a(name, answer) == want) {
        printf("%s: correct (%s)\n", what, answer < 0 ? "never" : "2^p as you said");
        return 0;
    }
    printf("WRONG: %s: your answer %d is not the model's. %s\n", what, answer, hint);
    return 1;
}

int main(void)
{
    int wrong = check("kernel alone", "KERNEL_ONLY_LOG2", KERNEL_ONLY_LOG2, HASH_KERNEL_ONLY_LOG2,
                      "Solve 5 us + 12n / 1000 GB/s < 12n / 60 GB/s for n, then take the first power of two "
                      "above it.");
    wrong += check("with copies ", "WITH_COPIES_LOG2", WITH_COPIES_LOG2, HASH_WITH_COPIES_LOG2,
                   "Add the bus, 12n / 32 GB/s, to the kernel's time and compare with the CPU's 12n / 60 GB/s.");
    if (!wrong)
        printf("correct: both crossovers\n");
    return wrong ? 1 : 0;
}
