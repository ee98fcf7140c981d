/* Chapter 04 — parallel reduction: from the divergent textbook kernel to the
 * speed of CUB.
 *
 * A reduction reads n elements and writes one value: like vector add it is
 * bound by memory bandwidth, but its threads must cooperate, so every
 * version is about how they do it with as little waiting as possible.
 * Nine versions, each removing one flaw of the one before (after Mark
 * Harris's "Optimizing Parallel Reduction in CUDA", in today's CUDA):
 *
 *   v1  interleaved addressing, tid % (2s)     kernels/04_reduce_ladder.cu
 *   v2  strided index 2*s*tid                  (no divergence; bank conflicts)
 *   v3  sequential addressing                  (conflict-free; idle threads)
 *   v4  first add during load                  (half the blocks)
 *   v5  last warp with __shfl_down_sync        (no barriers in the last 5 steps)
 *   v6  complete unroll, template<int BLOCK>   (no loop)
 *   v7  grid-stride loop, 16-byte loads        kernels/04_reduce_fast.cu
 *   v8  shuffle block reduce, 1 atomic/block   (no second pass)
 *   v9  single pass, last block done           (one launch, deterministic)
 *
 * v1-v7 are two-pass (v1-v6 run the same kernel again over the partials
 * until one value is left; v7 finishes with one small block). Five
 * operators (kernels/04_reduce_ops.cuh) go through every version: float sum
 * with a float or a double accumulator, exact int sum into long long, float
 * max and argmax, where NaN wins and ties go to the lowest index.
 *
 * This file: the plan of each launch (grid, scratch) and the dispatcher.
 * Host code reaches every version through sl_reduce_launch (C linkage).
 * Build and run: make examples && build/bin/04_reduce        (GPU)
 *                                 build/bin/04_reduce_emu    (CPU emulator)
 */
#include <limits.h>

#include "04_reduce_ops.cuh"
#include "common/sl_launch.h"

extern "C" const char *sl_reduce_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 interleaved addressing (divergent)";
    case 2: return "v2 strided index (bank conflicts)";
    case 3: return "v3 sequential addressing";
    case 4: return "v4 first add during load";
    case 5: return "v5 last warp with shuffles";
    case 6: return "v6 complete unroll (template block size)";
    case 7: return "v7 grid-stride loop, 16-byte loads";
    case 8: return "v8 shuffle block reduce, one atomic per block";
    case 9: return "v9 single pass, last block done";
    default: return NULL;
    }
}

extern "C" const char *sl_reduce_op_name(sl_reduce_op op)
{
    switch (op) {
    case SL_REDUCE_SUM_F32: return "sum_f32";
    case SL_REDUCE_SUM_F32_F64ACC: return "sum_f32_f64acc";
    case SL_REDUCE_SUM_I32: return "sum_i32";
    case SL_REDUCE_MAX_F32: return "max_f32";
    case SL_REDUCE_ARGMAX_F32: return "argmax_f32";
    default: return NULL;
    }
}

extern "C" size_t sl_reduce_result_bytes(sl_reduce_op op)
{
    switch (op) {
    case SL_REDUCE_SUM_F32: return sizeof(float);
    case SL_REDUCE_SUM_F32_F64ACC: return sizeof(double);
    case SL_REDUCE_SUM_I32: return sizeof(long long);
    case SL_REDUCE_MAX_F32: return sizeof(float);
    case SL_REDUCE_ARGMAX_F32: return sizeof(sl_argmax_pair);
    default: return 0;
    }
}

/* Two waves of resident blocks: more only add partials (v7, v9) or atomics
 * (v8); fewer leave SMs idle. */
static unsigned resident_grid(int block) { return sl_resident_blocks(block, 2u); }

static size_t round16(size_t bytes) { return (bytes + 15u) & ~(size_t)15u; }

static bool block_ok(int block)
{
    return block >= SL_REDUCE_MIN_BLOCK && block <= SL_REDUCE_MAX_BLOCK && (block & (block - 1)) == 0;
}

/* The grid and scratch of one reduction. v1-v6: a block per 1 or 2 blocks'
 * worth of elements, partials A for the first pass and B for the second
 * (later passes alternate, each smaller). v7-v9: a resident-sized grid. */
static cudaError_t make_plan(int version, sl_reduce_op op, size_t n, int block, sl_reduce_plan *plan)
{
    size_t acc_bytes = sl_reduce_result_bytes(op);
    if (version < 1 || version > SL_REDUCE_VERSIONS || acc_bytes == 0 || n == 0) return cudaErrorInvalidValue;
    if (!block_ok(block)) return cudaErrorInvalidConfiguration;
    plan->count_a = plan->count_b = 0;
    if (version <= 6) {
        size_t per_block = (size_t)block * (version >= 4 ? 2 : 1);
        size_t blocks = (n + per_block - 1) / per_block;
        if (blocks > INT_MAX) return cudaErrorInvalidConfiguration; /* grid.x limit 2^31 - 1 */
        size_t second = (blocks + per_block - 1) / per_block;
        plan->grid = (unsigned)blocks;
        plan->count_a = blocks > 1 ? blocks : 0;
        plan->count_b = second > 1 ? second : 0;
    } else {
        if (version == 8 && op == SL_REDUCE_ARGMAX_F32 && n > SL_REDUCE_V8_ARGMAX_MAX_N) return cudaErrorInvalidValue;
        size_t vectors = n / 4 + 1;
        size_t blocks = (vectors + (size_t)block - 1) / (size_t)block;
        unsigned cap = resident_grid(block);
        plan->grid = blocks < cap ? (unsigned)blocks : cap;
        if (version != 8) plan->count_a = plan->grid;
    }
    plan->offset_a = 16; /* after the header: v8's key, v9's counter */
    plan->offset_b = plan->offset_a + round16(plan->count_a * acc_bytes);
    plan->bytes = plan->offset_b + round16(plan->count_b * acc_bytes);
    return cudaSuccess;
}

extern "C" cudaError_t sl_reduce_workspace_bytes(int version, sl_reduce_op op, size_t n, int block, size_t *bytes)
{
    sl_reduce_plan plan;
    cudaError_t err = make_plan(version, op, n, block, &plan);
    if (bytes) *bytes = err == cudaSuccess ? plan.bytes : 0;
    return err;
}

extern "C" cudaError_t sl_reduce_launch(int version, sl_reduce_op op, const void *x, size_t n, int block,
                                        void *workspace, size_t workspace_bytes, void *out, cudaStream_t stream,
                                        unsigned *grid_out)
{
    sl_reduce_plan plan;
    cudaError_t err = make_plan(version, op, n, block, &plan);
    if (err != cudaSuccess) return err;
    if (!x || !out || !workspace || workspace_bytes < plan.bytes) return cudaErrorInvalidValue;
    unsigned char *ws = static_cast<unsigned char *>(workspace);
    if (grid_out) *grid_out = plan.grid;
    if (version <= 6) return sl_reduce_ladder_run(version, op, x, n, block, &plan, ws, out, stream);
    return sl_reduce_fast_run(version, op, x, n, block, &plan, ws, out, stream);
}
