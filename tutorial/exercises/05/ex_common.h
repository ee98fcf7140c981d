/* Shared by the chapter 05 exercises: a checked CUDA call (CHECK) and the
 * comparison of a result with the host's. */
#ifndef EX05_COMMON_H
#define EX05_COMMON_H
#include <math.h>

#include "../common/ex_check.h"

/* 0 when every got[i] is within tol of want[i], else says where and returns 1. */
static inline int check_close(const char *what, const float *got, const float *want, size_t n, float tol)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= tol)) {
            printf("WRONG (%s): element %zu is %g, expected %g\n", what, i, got[i], want[i]);
            return 1;
        }
    printf("correct (%s): %zu values\n", what, n);
    return 0;
}
#endif
