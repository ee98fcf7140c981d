/* Chapter 04 — parallel reduction: the launchers host code calls (C linkage).
 *
 * One launcher runs any version (1..SL_REDUCE_VERSIONS) of any operator on a
 * device array and leaves the result, one accumulator value, in device
 * memory. The versions need scratch space (per-block partial results, v9's
 * block counter): ask sl_reduce_workspace_bytes, allocate that much, fill it
 * with zero bytes once, and pass it to every launch of that version, operator,
 * n and block. */
#ifndef SIMTLAB_KERNELS_04_REDUCE_H
#define SIMTLAB_KERNELS_04_REDUCE_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SL_REDUCE_VERSIONS 9
/* Block sizes: the tree halves the block at each step and the last 64
 * partial values go to one warp, so a block is a power of two, 64..1024. */
#define SL_REDUCE_MIN_BLOCK 64
#define SL_REDUCE_MAX_BLOCK 1024
/* v8's argmax packs the value's 32-bit key and a 32-bit index into one
 * 64-bit atomicMax, so it needs n <= 2^32 (the other versions do not). */
#define SL_REDUCE_V8_ARGMAX_MAX_N 4294967296ULL

/* The operators, and the type of their result (= their accumulator):
 *   SUM_F32          float in, float accumulator, float result
 *   SUM_F32_F64ACC   float in, double accumulator and result
 *   SUM_I32          int in, long long accumulator and result (exact: an
 *                    int accumulator wraps past 2^31 - 1)
 *   MAX_F32          float in, float result; NaN wins (numpy's np.max)
 *   ARGMAX_F32       float in, sl_argmax_pair result: the maximum and the
 *                    lowest index holding it; NaN wins, lowest NaN index */
typedef enum sl_reduce_op {
    SL_REDUCE_SUM_F32 = 0,
    SL_REDUCE_SUM_F32_F64ACC,
    SL_REDUCE_SUM_I32,
    SL_REDUCE_MAX_F32,
    SL_REDUCE_ARGMAX_F32,
    SL_REDUCE_OP_COUNT
} sl_reduce_op;

typedef struct sl_argmax_pair {
    float value;
    long long index;
} sl_argmax_pair;

/* Bytes of the result that sl_reduce_launch writes to `out` (0 for a bad op). */
size_t sl_reduce_result_bytes(sl_reduce_op op);

/* Scratch bytes that version `version` of `op` needs for n elements and
 * `block` threads per block. cudaErrorInvalidValue for a bad version, op or
 * n == 0, cudaErrorInvalidConfiguration for a bad block or a grid too large. */
cudaError_t sl_reduce_workspace_bytes(int version, sl_reduce_op op, size_t n, int block, size_t *bytes);

/* Reduces x[0..n) (float, or int for SL_REDUCE_SUM_I32; device memory) into
 * *out (device memory, sl_reduce_result_bytes(op) bytes) with every launch the
 * version needs, on `stream`, without synchronizing. Returns the first launch
 * error. *grid_out (may be NULL) receives the first pass's block count. */
cudaError_t sl_reduce_launch(int version, sl_reduce_op op, const void *x, size_t n, int block,
                             void *workspace, size_t workspace_bytes, void *out, cudaStream_t stream,
                             unsigned *grid_out);

/* "v1 interleaved addressing (divergent)", ...; NULL outside 1..SL_REDUCE_VERSIONS. */
const char *sl_reduce_kernel_name(int version);
/* "sum_f32", "sum_f32_f64acc", "sum_i32", "max_f32", "argmax_f32"; NULL otherwise. */
const char *sl_reduce_op_name(sl_reduce_op op);

/* ---- CUB references (kernels/04_reduce_vendor.cu, CUDA backend only) ----
 * Each takes CUB's temporary storage: call once with temp == NULL to get
 * *temp_bytes, allocate, call again. Results go to device memory. */
cudaError_t sl_cub_reduce_sum_f32(const float *x, size_t n, float *out, void *temp, size_t *temp_bytes,
                                  cudaStream_t stream);
cudaError_t sl_cub_reduce_max_f32(const float *x, size_t n, float *out, void *temp, size_t *temp_bytes,
                                  cudaStream_t stream);
/* *index_out is a 64-bit index (cuda::std::int64_t). */
cudaError_t sl_cub_argmax_f32(const float *x, size_t n, float *max_out, long long *index_out, void *temp,
                              size_t *temp_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
