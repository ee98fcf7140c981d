/* Chapter 04 — parallel reduction: the launchers host code calls (C linkage).
 *
 * The path of one reduction: sl_reduce_check (the rules, no device) ->
 * sl_reduce_plan_make (grid and scratch, once) -> allocate and zero
 * plan.workspace_bytes -> sl_reduce_launch(&plan, ...) as often as wanted.
 * The launch leaves the result, one accumulator value, in device memory. */
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

/* argmax's result: the index first, as in the public API's outputs. */
typedef struct sl_argmax_pair {
    long long index;
    float value;
} sl_argmax_pair;

/* Bytes of the result that sl_reduce_launch writes to `out` (0 for a bad op). */
size_t sl_reduce_result_bytes(sl_reduce_op op);

/* Why a (version, op, n, block) cannot run; the host turns each into a
 * message that names the argument. These are the chapter's only rules. */
typedef enum sl_reduce_problem {
    SL_REDUCE_FINE = 0,
    SL_REDUCE_BAD_VERSION,        /* outside 1..SL_REDUCE_VERSIONS */
    SL_REDUCE_BAD_OP,             /* not an sl_reduce_op */
    SL_REDUCE_EMPTY,              /* n == 0: nothing to launch (the host returns the identity) */
    SL_REDUCE_BAD_BLOCK,          /* not a power of two in SL_REDUCE_MIN_BLOCK..SL_REDUCE_MAX_BLOCK */
    SL_REDUCE_V8_ARGMAX_TOO_LARGE /* v8's argmax with n > SL_REDUCE_V8_ARGMAX_MAX_N */
} sl_reduce_problem;

/* Checks the arguments without touching the device. */
sl_reduce_problem sl_reduce_check(int version, sl_reduce_op op, size_t n, int block);

/* One reduction, laid out once and carried down to every launch: the first
 * pass's grid and the scratch. The workspace holds, each at a 16-byte
 * boundary: a 16-byte header (v8's atomic target when it needs decoding,
 * v9's block counter), partial buffer A (count_a values), partial buffer B
 * (count_b values). */
typedef struct sl_reduce_plan {
    int version;
    sl_reduce_op op;
    size_t n;
    int block;
    unsigned grid; /* blocks of the first pass */
    size_t count_a, count_b;
    size_t offset_a, offset_b;
    size_t workspace_bytes;
} sl_reduce_plan;

/* Lays out one reduction. v7-v9 size their grid to the current device
 * (cudaDevAttrMultiProcessorCount), so call this after the device is
 * chosen. cudaErrorInvalidValue when sl_reduce_check finds a problem, and
 * for a first pass of more than 2^31 - 1 blocks (as CUDA 13 refuses such a
 * grid). Allocate plan->workspace_bytes, fill it with zero bytes once, and
 * pass it to every launch of this plan. */
cudaError_t sl_reduce_plan_make(int version, sl_reduce_op op, size_t n, int block, sl_reduce_plan *plan);

/* Reduces x[0..plan->n) (float, or int for SL_REDUCE_SUM_I32; device
 * memory) into *out (device memory, sl_reduce_result_bytes(plan->op) bytes)
 * with every launch the version needs, on `stream`, without synchronizing.
 * Returns the first launch error. */
cudaError_t sl_reduce_launch(const sl_reduce_plan *plan, const void *x, void *workspace, void *out,
                             cudaStream_t stream);

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
