#ifndef CYCLE_B_CUH
#define CYCLE_B_CUH
#include "a.cuh"
__global__ void add_b(int *x) { atomicAdd(x, A_VALUE / 100); }
#endif
