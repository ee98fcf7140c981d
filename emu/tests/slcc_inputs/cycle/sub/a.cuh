#ifndef CYCLE_A_CUH
#define CYCLE_A_CUH
#define A_VALUE 100
#include "b.cuh"
#endif
