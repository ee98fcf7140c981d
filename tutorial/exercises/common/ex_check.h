/* For every chapter's exercises: CHECK(call) runs a CUDA runtime call and,
 * if it fails, says where, which call and why, and ends the program. */
#ifndef EX_CHECK_H
#define EX_CHECK_H
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__,   \
                    #call, cudaGetErrorName(err_), cudaGetErrorString(err_));    \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

#endif
