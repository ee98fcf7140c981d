/* simtlab host library — chapter 01's CPU baselines: what the GPU must beat. */
#include "sl_internal.h"

void sl_vector_add_cpu(const float *a, const float *b, float *c, size_t n)
{
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

void sl_vector_add_cpu_omp(const float *a, const float *b, float *c, size_t n)
{
    /* Signed loop index: OpenMP before 3.0 wanted one; a static schedule
     * gives each core one contiguous range, which is best for streaming. */
    long long count = (long long)n;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < count; i++) c[i] = a[i] + b[i];
}
