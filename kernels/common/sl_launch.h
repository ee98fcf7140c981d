/* simtlab kernels — host-side helpers the launchers share. */
#ifndef SIMTLAB_KERNELS_COMMON_SL_LAUNCH_H
#define SIMTLAB_KERNELS_COMMON_SL_LAUNCH_H

#include <cuda_runtime.h>
#include <stddef.h>

/* Blocks of `block` threads that fill every SM of the current device
 * `waves` times over: the grid a grid-stride kernel wants. More blocks only
 * add scheduling work (and, for reductions, partials); fewer leave SMs idle.
 * Falls back to one SM of 2048 threads if the device cannot be asked. */
static inline unsigned sl_resident_blocks(int block, unsigned waves)
{
    int device = 0, sms = 1, per_sm = 2048;
    if (cudaGetDevice(&device) == cudaSuccess) {
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    }
    unsigned per = (unsigned)(block > 0 && per_sm / block > 0 ? per_sm / block : 1);
    return (unsigned)sms * per * waves;
}

/* The grid of a grid-stride kernel over `items` work items: a block per
 * `block` items (at least one), capped at `waves` waves of resident blocks
 * (sl_resident_blocks), past which the loop inside the kernel walks the
 * rest. `block` > 0. */
static inline unsigned sl_stride_grid(size_t items, int block, unsigned waves)
{
    unsigned cap = sl_resident_blocks(block, waves);
    size_t blocks = (items + (size_t)block - 1) / (size_t)block;
    if (blocks == 0) blocks = 1;
    return blocks < cap ? (unsigned)blocks : cap;
}

#endif
