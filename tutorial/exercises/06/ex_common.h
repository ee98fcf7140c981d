/* Shared by the chapter 06 exercises: a checked CUDA call (CHECK) and f16
 * bits for small whole numbers. */
#ifndef EX06_COMMON_H
#define EX06_COMMON_H
#include <stdio.h>
#include <stdlib.h>

#include "../../../kernels/common/sl_tensor.h"

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t err_ = (call);                                                               \
        if (err_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

/* IEEE half bits of a whole number v, 0 <= v < 2048 (exact in f16). */
__host__ __device__ static inline unsigned short f16_of_int(int v)
{
    if (v == 0) return 0;
    int e = 0;
    while ((v >> e) > 1) e++; /* 2^e <= v < 2^(e+1) */
    return (unsigned short)((e + 15) << 10 | ((v << (10 - e)) & 0x3ff));
}
#endif
