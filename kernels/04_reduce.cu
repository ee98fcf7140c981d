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
 * until one value is left; v7 finishes with one small block).
 *
 * The files, in reading order:
 *   kernels/04_reduce.h            the contract with host/04_reduce.c
 *   kernels/04_reduce.cu           this file: names, the rules
 *                                  (sl_reduce_check), the plan of grid and
 *                                  scratch, made once (sl_reduce_plan_make),
 *                                  and sl_reduce_launch, which hands the
 *                                  plan to the file that runs it
 *   kernels/04_reduce_ladder.cu    v1-v6 on the float sum: the lesson
 *   kernels/04_reduce_fast.cu      v7-v9 on the float sum: the lesson
 *   kernels/04_reduce_sum_f32.cuh  warp_sum (v5) and block_sum_unrolled
 *                                  (v6), which v7-v9 reuse
 *   kernels/04_reduce_ops.cuh      the other operators: float sum with a
 *   kernels/04_reduce_ops.cu       double accumulator, exact int sum into
 *                                  long long, max and argmax (NaN wins, ties
 *                                  go to the lowest index), through the same
 *                                  nine versions, written once as templates
 *   kernels/04_reduce_family.cuh   what these files hand each other
 *   kernels/04_reduce_vendor.cu    CUB, the reference (CUDA backend only)
 *
 * Build and run: make examples && build/bin/04_reduce        (GPU)
 *                                 build/bin/04_reduce_emu    (CPU emulator)
 * one version:   build/bin/04_reduce_emu 1000003 3 256       (n, version, block)
 * test, bench:   build/bin/test_04_reduce_emu, build/bin/bench_04_reduce
 */
#include <limits.h>
#include <string.h>

#include "04_reduce_family.cuh"
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

/* ---- the rules and the plan ---------------------------------------------------- */

extern "C" sl_reduce_problem sl_reduce_check(int version, sl_reduce_op op, size_t n, int block)
{
    if (version < 1 || version > SL_REDUCE_VERSIONS) return SL_REDUCE_BAD_VERSION;
    if (sl_reduce_result_bytes(op) == 0) return SL_REDUCE_BAD_OP;
    if (n == 0) return SL_REDUCE_EMPTY;
    if (block < SL_REDUCE_MIN_BLOCK || block > SL_REDUCE_MAX_BLOCK || (block & (block - 1)) != 0)
        return SL_REDUCE_BAD_BLOCK;
    if (version == 8 && op == SL_REDUCE_ARGMAX_F32 && n > SL_REDUCE_V8_ARGMAX_MAX_N)
        return SL_REDUCE_V8_ARGMAX_TOO_LARGE;
    return SL_REDUCE_FINE;
}

/* v1-v6: values one block reduces per pass (v4-v6 add two while loading). */
static size_t values_per_block(const sl_reduce_plan *plan)
{
    return (size_t)plan->block * (plan->version >= 4 ? 2 : 1);
}

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

static size_t round16(size_t bytes) { return (bytes + 15u) & ~(size_t)15u; }

/* The grid and scratch of one reduction. v1-v6: a block per 1 or 2 blocks'
 * worth of elements, partials A for the first pass and B for the second
 * (later passes alternate, each smaller). v7-v9: two waves of resident
 * blocks (more only add partials or atomics; fewer leave SMs idle), no more
 * than there are 16-byte vectors to read; partials A for v7 and v9. */
extern "C" cudaError_t sl_reduce_plan_make(int version, sl_reduce_op op, size_t n, int block, sl_reduce_plan *plan)
{
    if (!plan) return cudaErrorInvalidValue;
    memset(plan, 0, sizeof *plan); /* a plan that failed is all zeros */
    if (sl_reduce_check(version, op, n, block) != SL_REDUCE_FINE) return cudaErrorInvalidValue;
    sl_reduce_plan p = *plan;
    p.version = version;
    p.op = op;
    p.n = n;
    p.block = block;
    if (version <= 6) {
        size_t blocks = ceil_div(n, values_per_block(&p));
        if (blocks > INT_MAX) return cudaErrorInvalidValue; /* grid.x limit 2^31 - 1 */
        size_t second = ceil_div(blocks, values_per_block(&p));
        p.grid = (unsigned)blocks;
        p.count_a = blocks > 1 ? blocks : 0;
        p.count_b = second > 1 ? second : 0;
    } else {
        size_t blocks = ceil_div(n / 4 + 1, (size_t)block);
        unsigned cap = sl_resident_blocks(block, 2u);
        p.grid = blocks < cap ? (unsigned)blocks : cap;
        if (version != 8) p.count_a = p.grid;
    }
    size_t acc_bytes = sl_reduce_result_bytes(op);
    p.offset_a = 16; /* after the header: v8's key, v9's counter */
    p.offset_b = p.offset_a + round16(p.count_a * acc_bytes);
    p.workspace_bytes = p.offset_b + round16(p.count_b * acc_bytes);
    *plan = p;
    return cudaSuccess;
}

/* ---- running a plan ------------------------------------------------------------- */

cudaError_t sl_reduce_ladder_passes(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                                    sl_reduce_pass_fn first, sl_reduce_pass_fn again, cudaStream_t stream)
{
    size_t per_block = values_per_block(plan);
    void *partials[2] = {ws + plan->offset_a, ws + plan->offset_b};
    size_t blocks = plan->grid;
    void *dst = blocks == 1 ? out : partials[0];
    cudaError_t err = first(plan, x, plan->n, dst, (unsigned)blocks, stream);
    for (int k = 1; err == cudaSuccess && blocks > 1; k ^= 1) {
        const void *src = dst;
        size_t count = blocks;
        blocks = ceil_div(count, per_block);
        dst = blocks == 1 ? out : partials[k];
        err = again(plan, src, count, dst, (unsigned)blocks, stream);
    }
    return err;
}

/* Trusts the plan (sl_reduce_plan_make checked everything); the float sum
 * runs the lesson's kernels, the other operators their templates. */
extern "C" cudaError_t sl_reduce_launch(const sl_reduce_plan *plan, const void *x, void *workspace, void *out,
                                        cudaStream_t stream)
{
    if (!plan || !x || !workspace || !out) return cudaErrorInvalidValue;
    unsigned char *ws = static_cast<unsigned char *>(workspace);
    if (plan->op != SL_REDUCE_SUM_F32) return sl_reduce_ops_run(plan, x, ws, out, stream);
    if (plan->version <= 6) return sl_reduce_ladder_sum_f32(plan, x, ws, out, stream);
    return sl_reduce_fast_sum_f32(plan, x, ws, out, stream);
}
