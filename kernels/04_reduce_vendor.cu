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
#include <limits.h>

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

/* CUB before 2.8's ArgMax writes one pair; this kernel splits it (below).
 * Built with every CUB, so that each toolkit's build has the same kernels
 * (nvcc.resources checks ptxas's table against this file's kernels). */
typedef cub::KeyValuePair<int, float> cub_argmax_pair;
__global__ void sl_argmax_split(const cub_argmax_pair *pair, float *max_out, long long *index_out)
{
    *max_out = pair->value;
    *index_out = pair->key;
}

#if CUB_VERSION >= 200800 /* CCCL 2.8 (CUDA 12.9) and later: ArgMax with two outputs */
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
#else
/* CUB before 2.8 (CUDA 12.8 and older) has only the ArgMax that writes one
 * cub::KeyValuePair<int, float> and counts items in an int, so n is at most
 * INT_MAX here. The pair lives in the first SL_ARGMAX_PAIR_SLOT bytes of the
 * scratch (256, which keeps CUB's part as aligned as cudaMalloc's), and one
 * thread then copies it to *max_out and *index_out on the same stream. */
#define SL_ARGMAX_PAIR_SLOT 256
static_assert(sizeof(cub_argmax_pair) <= SL_ARGMAX_PAIR_SLOT, "the pair fits its slot");

extern "C" cudaError_t sl_cub_argmax_f32(const float *x, size_t n, float *max_out, long long *index_out,
                                         void *temp, size_t *temp_bytes, cudaStream_t stream)
{
    if (!temp_bytes || n > (size_t)INT_MAX) return cudaErrorInvalidValue;
    if (!temp) { /* the size query: CUB's scratch plus the pair's slot */
        size_t cub_bytes = 0;
        cudaError_t err = cub::DeviceReduce::ArgMax(NULL, cub_bytes, x, (cub_argmax_pair *)NULL, (int)n, stream);
        *temp_bytes = cub_bytes + SL_ARGMAX_PAIR_SLOT;
        return err;
    }
    if (*temp_bytes < SL_ARGMAX_PAIR_SLOT) return cudaErrorInvalidValue;
    cub_argmax_pair *pair = (cub_argmax_pair *)temp;
    size_t cub_bytes = *temp_bytes - SL_ARGMAX_PAIR_SLOT;
    cudaError_t err = cub::DeviceReduce::ArgMax((char *)temp + SL_ARGMAX_PAIR_SLOT, cub_bytes, x, pair, (int)n,
                                                stream);
    if (err != cudaSuccess) return err;
    sl_argmax_split<<<1, 1, 0, stream>>>(pair, max_out, index_out);
    return cudaGetLastError();
}
#endif
