/* Shared by the chapter 04 exercises: a checked CUDA call, int inputs with
 * a known sum, and the check of a result against it. */
#ifndef EX04_COMMON_H
#define EX04_COMMON_H
#include "../common/ex_check.h"

/* x[i] = i % 1000 - 500: both signs, and a sum the host computes exactly. */
static long long fill_inputs(int *x, size_t n)
{
    long long sum = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = (int)(i % 1000) - 500;
        sum += x[i];
    }
    return sum;
}

static int check_sum(const char *what, long long got, long long want)
{
    if (got != want) {
        printf("WRONG (%s): sum %lld, expected %lld\n", what, got, want);
        return 1;
    }
    printf("correct (%s): sum %lld\n", what, got);
    return 0;
}
#endif
