/* Chapter 02 — when the GPU pays: the launchers host code calls (C linkage).
 * Each returns the launch's error (cudaGetLastError) without synchronizing. */
#ifndef SIMTLAB_KERNELS_02_GPU_PAYS_H
#define SIMTLAB_KERNELS_02_GPU_PAYS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One request as the kernels read it: a segment of `count` elements at
 * `offset`, out = scale * in + bias. Its layout is the public sl_request's
 * (simtlab/02_gpu_pays.h), which host/02_gpu_pays.c checks field by field
 * at compile time, so a list of sl_request on the device reads as a list
 * of these. */
typedef struct sl_pays_segment {
    size_t offset;
    unsigned count;
    float scale, bias;
} sl_pays_segment;

/* out = x + y over n floats (grid-stride, one add each). */
cudaError_t sl_pays_add_launch(const float *x, const float *y, float *out, size_t n, int block,
                               cudaStream_t stream);
/* out = alpha * x + y over n floats (grid-stride, one fmaf each). */
cudaError_t sl_saxpy_launch(float alpha, const float *x, const float *y, float *out, size_t n, int block,
                            cudaStream_t stream);
/* One block of 32 threads that does nothing. */
cudaError_t sl_empty_launch(cudaStream_t stream);
/* out[r.offset + i] = r.scale * in[r.offset + i] + r.bias for i < r.count. */
cudaError_t sl_request_launch_one(const float *in, float *out, sl_pays_segment r, int block, cudaStream_t stream);
/* Every request of `list` (a device array of `count`) in one launch, a block each. */
cudaError_t sl_request_launch_batched(const float *in, float *out, const sl_pays_segment *list, int count,
                                      int block, cudaStream_t stream);
/* y[i] = p(x[i]) by Horner's rule, `terms` FMAs: acc = fmaf(acc, x, 1/(k+1))
 * for k = terms .. 1, from acc = 0 (sl_poly_cpu does the same, in order). */
cudaError_t sl_poly_launch(const float *x, float *y, size_t n, int terms, int block, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
