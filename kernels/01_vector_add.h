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
 * synchronizing. *grid_out (may be NULL) receives the number of blocks
 * launched. Version 3 needs sl_vector_add_v3_fits(a, b, c); otherwise it
 * returns cudaErrorMisalignedAddress and launches nothing (it never
 * silently runs another version). */
cudaError_t sl_vector_add_launch(int version, const float *a, const float *b, float *c, size_t n,
                                 int block, cudaStream_t stream, unsigned *grid_out);
/* 1 when a, b and c have one 16-byte-aligned float4 view in common (the
 * same address mod 16, and whole floats), which v3's vector loads need. */
int sl_vector_add_v3_fits(const float *a, const float *b, const float *c);
/* "v1 one thread per element", ... ; NULL outside 1..SL_VECTOR_ADD_VERSIONS. */
const char *sl_vector_add_kernel_name(int version);

#ifdef __cplusplus
}
#endif

#endif
