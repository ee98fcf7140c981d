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
 * The program checks your answers against the model and says why. Then
 * compare with what `make bench CH=02` measures (on a GPU machine). */
#include "../common/ex_check.h"

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

static const double cpu_gbs = 60.0, gpu_gbs = 1000.0, bus_gbs = 32.0, launch_s = 5e-6;

static double cpu_s(double n) { return 12.0 * n / (cpu_gbs * 1e9); }
static double kernel_s(double n) { return launch_s + 12.0 * n / (gpu_gbs * 1e9); }
static double copies_s(double n) { return kernel_s(n) + 12.0 * n / (bus_gbs * 1e9); }

/* The model's answer: the first 2^p (p <= 40) from which the GPU stays faster. */
static int model_crossover(double (*gpu)(double))
{
    int from = -1;
    for (int p = 0; p <= 40; p++) {
        double n = (double)(1ULL << p);
        if (gpu(n) < cpu_s(n)) {
            if (from < 0) from = p;
        } else {
            from = -1;
        }
    }
    return from;
}

static int check(const char *what, int answer, int want)
{
    if (answer == want) {
        printf("%s: correct (%s)\n", what, want < 0 ? "never" : "2^p as you said");
        return 0;
    }
    printf("WRONG: %s: your answer %d is not the model's. ", what, answer);
    if (want < 0)
        printf("Compare the bus alone, 12n / %.0f GB/s, with the CPU's 12n / %.0f GB/s.\n", bus_gbs, cpu_gbs);
    else
        printf("Solve 5 us + 12n / %.0f GB/s < 12n / %.0f GB/s for n.\n", gpu_gbs, cpu_gbs);
    return 1;
}

int main(void)
{
    int wrong = check("kernel alone", KERNEL_ONLY_LOG2, model_crossover(kernel_s));
    wrong += check("with copies ", WITH_COPIES_LOG2, model_crossover(copies_s));
    if (!wrong)
        printf("correct: both crossovers\n");
    return wrong ? 1 : 0;
}
