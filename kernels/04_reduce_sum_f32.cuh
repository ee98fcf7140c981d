/* Chapter 04 — two steps of the float sum that later versions build on, in
 * a header because both lesson files use them (kernels/04_reduce_ladder.cu,
 * kernels/04_reduce_fast.cu):
 *
 *   warp_sum            v5's last warp: 32 values in 5 shuffles (v5-v9)
 *   block_sum_unrolled  v6's tree on a compile-time block size, one
 *                       tree_step per level (v6, v7)
 *
 * A header is not run through the emulator's rewriter, so it declares no
 * __shared__ arrays: the kernels pass theirs in. */
#ifndef SIMTLAB_KERNELS_04_REDUCE_SUM_F32_CUH
#define SIMTLAB_KERNELS_04_REDUCE_SUM_F32_CUH

#include <cuda_runtime.h>

#define SL_FULL_MASK 0xffffffffu

/* A warp's 32 values in 5 shuffles, register to register: after the step
 * with offset d, lane i holds the sum of lanes i..i+2d-1, and lane 0 ends
 * with the warp's sum. All 32 lanes must call it (the mask is the full
 * warp), also those whose result nobody reads. */
static __device__ __forceinline__ float warp_sum(float v)
{
    for (unsigned offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(SL_FULL_MASK, v, offset);
    return v;
}

/* One step of v6's tree: the lower `half` threads add the value `half`
 * slots up, and keep the running sum in v as well, so that each step reads
 * shared memory once. */
static __device__ __forceinline__ float tree_step(float *s, float v, unsigned half)
{
    unsigned tid = threadIdx.x;
    if (tid < half) s[tid] = v = v + s[tid + half];
    __syncthreads();
    return v;
}

/* v6's tree: with BLOCK known at compile time every `if (BLOCK >= ...)` is
 * decided by the compiler and the loop is gone; the last 64 values go to
 * warp 0's shuffles. `s` holds BLOCK floats. Thread 0 returns the block's
 * sum. */
template <int BLOCK>
static __device__ __forceinline__ float block_sum_unrolled(float *s, float v)
{
    unsigned tid = threadIdx.x;
    s[tid] = v;
    __syncthreads();
    if (BLOCK >= 1024) v = tree_step(s, v, 512);
    if (BLOCK >= 512) v = tree_step(s, v, 256);
    if (BLOCK >= 256) v = tree_step(s, v, 128);
    if (BLOCK >= 128) v = tree_step(s, v, 64);
    if (tid < 32) v = warp_sum(v + s[tid + 32]);
    return v;
}

#endif
