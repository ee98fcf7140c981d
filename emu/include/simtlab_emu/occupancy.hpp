/* simtlab CPU emulator — the C++ forms of the occupancy calculator and of
 * the per-kernel shared-memory preference, as the toolkit's <cuda_runtime.h> has
 * them: they take the kernel itself (a function, which C++ does not turn
 * into a const void * by itself) and add cudaOccupancyMaxPotentialBlockSize.
 * The model is emu/src/runtime/device_config.cpp's: threads, block slots
 * and shared memory per SM; no registers (the emulator compiles no machine
 * code to count them).
 */
#ifndef SIMTLAB_EMU_OCCUPANCY_HPP
#define SIMTLAB_EMU_OCCUPANCY_HPP

#include <cuda_runtime_api.h>

template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void *>(func),
                                                           blockSize, dynamicSMemSize);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize,
                                                                                 unsigned int flags)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        numBlocks, reinterpret_cast<const void *>(func), blockSize, dynamicSMemSize, flags);
}

template <class T>
static inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T func,
                                                                    int numBlocks, int blockSize)
{
    return ::cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, reinterpret_cast<const void *>(func),
                                                       numBlocks, blockSize);
}

template <class T>
static inline cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config)
{
    return ::cudaFuncSetSharedMemConfig(reinterpret_cast<const void *>(func), config);
}

/* The block size (a multiple of the warp size, at most blockSizeLimit when
 * that is not 0) that keeps the most threads resident per SM, the larger
 * size on a tie; *minGridSize is the grid that fills every SM with it.
 * smem_for(block size) gives the dynamic shared memory a block needs. */
template <class T, class SMemForBlock>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, SMemForBlock smem_for, int blockSizeLimit = 0,
    unsigned int flags = cudaOccupancyDefault)
{
    if (!minGridSize || !blockSize)
        return cudaErrorInvalidValue;
    int device = 0, max_threads = 0, warp = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e != cudaSuccess)
        return e;
    int limit = blockSizeLimit > 0 && blockSizeLimit < max_threads ? blockSizeLimit : max_threads;
    int best_size = 0, best_blocks = 0;
    for (int size = limit / warp * warp; size > 0; size -= warp) {
        int blocks = 0;
        e = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, reinterpret_cast<const void *>(func), size, static_cast<size_t>(smem_for(size)), flags);
        if (e != cudaSuccess)
            return e;
        if (blocks * size > best_blocks * best_size)
            best_size = size, best_blocks = blocks;
    }
    *blockSize = best_size;
    *minGridSize = best_blocks * sms;
    return cudaSuccess;
}

template <class T, class SMemForBlock>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                                                         SMemForBlock smem_for,
                                                                         int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func, smem_for,
                                                                   blockSizeLimit, cudaOccupancyDefault);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                      size_t dynamicSMemSize = 0,
                                                                      int blockSizeLimit = 0,
                                                                      unsigned int flags = cudaOccupancyDefault)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, [dynamicSMemSize](int) { return dynamicSMemSize; }, blockSizeLimit, flags);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, dynamicSMemSize,
                                                       blockSizeLimit, cudaOccupancyDefault);
}

#endif
