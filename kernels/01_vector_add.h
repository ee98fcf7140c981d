/* Chapter 01 — vector add: the launchers host code calls (C linkage). */
#ifndef SIMTLAB_KERNELS_01_VECTOR_ADD_H
#define SIMTLAB_KERNELS_01_VECTOR_ADD_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SL_VECTOR_ADD_VERSIONS 3

/* Launches version 1..3 of c = a + b on device buffers, `block` threads per
 * block, on `stream`; returns the launch's error (cudaGetLastError) without
 * synchronizing. *grid_out receives the number of blocks launched. */
cudaError_t sl_vector_add_launch(int version, const float *a, const float *b, float *c, size_t n,
                                 int block, cudaStream_t stream, unsigned *grid_out);
/* "v1 one thread per element", ... ; NULL outside 1..SL_VECTOR_ADD_VERSIONS. */
const char *sl_vector_add_kernel_name(int version);

#ifdef __cplusplus
}
#endif

#endif
