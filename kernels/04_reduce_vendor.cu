/* Chapter 04 — the vendor reference: CUB's device-wide reductions.
 *
 * cub::DeviceReduce is what a production CUDA program calls, tuned per
 * architecture; the benchmark states our versions as a percentage of it.
 * CUDA backend only: the build leaves *_vendor.cu out of emulator builds,
 * and host/reduce.c answers SL_ERR_UNSUPPORTED there.
 *
 * Every call follows CUB's two-phase protocol: with temp == NULL it only
 * writes the scratch size it needs into *temp_bytes; with a buffer of that
 * size it runs. NaN: CUB's Max and ArgMax compare with < and >, so a NaN
 * does not propagate reliably; the benchmark feeds them NaN-free data. */
#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>

#include "04_reduce.h"

extern "C" cudaError_t sl_cub_reduce_sum_f32(const float *x, size_t n, float *out, void *temp,
                                             size_t *temp_bytes, cudaStream_t stream)
{
    if (!temp_bytes) return cudaErrorInvalidValue;
    /* num_items as a 64-bit integer: CUB picks its 64-bit offset path. */
    return cub::DeviceReduce::Sum(temp, *temp_bytes, x, out, (long long)n, stream);
}

extern "C" cudaError_t sl_cub_reduce_max_f32(const float *x, size_t n, float *out, void *temp,
                                             size_t *temp_bytes, cudaStream_t stream)
{
    if (!temp_bytes) return cudaErrorInvalidValue;
    return cub::DeviceReduce::Max(temp, *temp_bytes, x, out, (long long)n, stream);
}

extern "C" cudaError_t sl_cub_argmax_f32(const float *x, size_t n, float *max_out, long long *index_out,
                                         void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    if (!temp_bytes) return cudaErrorInvalidValue;
    /* CUB writes the index as cuda::std::int64_t, which is long long's size. */
    static_assert(sizeof(long long) == sizeof(cuda::std::int64_t), "64-bit index");
    return cub::DeviceReduce::ArgMax(temp, *temp_bytes, x, max_out,
                                     reinterpret_cast<cuda::std::int64_t *>(index_out),
                                     (cuda::std::int64_t)n, stream);
}
