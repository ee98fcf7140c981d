/* Chapter 07 — errors and debugging: the launchers of the kernels that go
 * wrong on purpose (C linkage). Each returns the launch's error
 * (cudaGetLastError) without synchronizing, so that the caller sees which
 * call reports what: a bad launch at once, a fault while the kernel ran at
 * the next synchronizing call. */
#ifndef SIMTLAB_KERNELS_07_ERRORS_H
#define SIMTLAB_KERNELS_07_ERRORS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* assert(x[i] >= 0) for every i < n, one thread per element. */
cudaError_t sl_errors_launch_assert(const float *x, size_t n, int block);
/* x[i] *= s with no `if (i < n)`: ceil(n / block) blocks of `block`
 * threads, so every thread of the last block past n reads and writes out
 * of bounds when n is not a multiple of block. */
cudaError_t sl_errors_launch_unchecked_scale(float *x, size_t n, float s, int block);
/* The same kernel with its bounds check, launched with `grid` blocks of
 * `block` threads (any configuration, valid or not). */
cudaError_t sl_errors_launch_scale(float *x, size_t n, float s, unsigned grid, int block);
/* A kernel whose many live values need more registers per thread than an
 * SM holds for a block of 1024 threads (nvcc -Xptxas -v reports how many),
 * launched with `block` threads per block. */
cudaError_t sl_errors_launch_register_hungry(const float *in, float *out, size_t n, int block);
/* cudaFuncGetAttributes of that kernel: numRegs, maxThreadsPerBlock. */
cudaError_t sl_errors_register_hungry_attributes(struct cudaFuncAttributes *attr);
/* Reverses each 256-element piece of `in` into `out` through shared
 * memory, without the __syncthreads() between the write and the read: one
 * block of 256 threads per piece. n must be a multiple of 256
 * (cudaErrorInvalidValue and no launch otherwise). */
cudaError_t sl_errors_launch_reverse_no_sync(const float *in, float *out, size_t n);

/* kernels/07_errors_noimage.cu: a kernel compiled, in the CUDA build, for
 * one architecture only (SIMTLAB_07_WRONG_ARCH, machine code and no PTX),
 * so that no other GPU has an image of it. x[i] = i for i < n. */
cudaError_t sl_errors_launch_noimage(float *x, size_t n);
/* cudaFuncGetAttributes of that kernel (fails where there is no image). */
cudaError_t sl_errors_noimage_attributes(struct cudaFuncAttributes *attr);
/* The architectures that file was compiled for ("1210": compute capability
 * x 100, from __CUDA_ARCH_LIST__), or a note in the emulator build. */
const char *sl_errors_noimage_built_architectures(void);

#ifdef __cplusplus
}
#endif

#endif
