/* Shared by the chapter 01 exercises: a checked CUDA call and the check of
 * c = a + b, so each exercise is about its own lesson. */
#ifndef EX_COMMON_H
#define EX_COMMON_H
#include "../common/ex_check.h"

/* Inputs a[i] = i, b[i] = 2i; expects c[i] = 3i exactly. Returns 0 if right. */
static void fill_inputs(float *a, float *b, float *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 4096);
        b[i] = 2.0f * (float)(i % 4096);
        c[i] = -1.0f; /* poison: a result never written shows up */
    }
}

static int check_result(const float *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float want = 3.0f * (float)(i % 4096);
        if (c[i] != want) {
            printf("WRONG: c[%zu] = %g, expected %g\n", i, c[i], want);
            return 1;
        }
    }
    printf("correct: all %zu elements\n", n);
    return 0;
}
#endif
