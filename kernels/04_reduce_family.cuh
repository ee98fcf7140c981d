/* Chapter 04 — how kernels/04_reduce.cu hands a plan to the file that runs
 * it, and the host-side steps those files share (included by
 * kernels/04_reduce*.cu only; host code, no kernels).
 *
 *   float sum, v1-v6   sl_reduce_ladder_sum_f32   kernels/04_reduce_ladder.cu
 *   float sum, v7-v9   sl_reduce_fast_sum_f32     kernels/04_reduce_fast.cu
 *   other operators    sl_reduce_ops_run          kernels/04_reduce_ops.cu
 *
 * Each takes the plan from sl_reduce_plan_make and trusts it. */
#ifndef SIMTLAB_KERNELS_04_REDUCE_FAMILY_CUH
#define SIMTLAB_KERNELS_04_REDUCE_FAMILY_CUH

#include <stddef.h>

#include "04_reduce.h"

cudaError_t sl_reduce_ladder_sum_f32(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                                     cudaStream_t stream);
cudaError_t sl_reduce_fast_sum_f32(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                                   cudaStream_t stream);
cudaError_t sl_reduce_ops_run(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                              cudaStream_t stream);

/* One pass of v1-v6: `grid` blocks reduce the `count` values at `src` into
 * one partial result each at `dst`. */
typedef cudaError_t (*sl_reduce_pass_fn)(const sl_reduce_plan *plan, const void *src, size_t count, void *dst,
                                         unsigned grid, cudaStream_t stream);

/* v1-v6 run the same kernel again over the partials until one value is
 * left: input -> partials A -> B -> A -> ... -> out, each pass with one
 * block per plan->block (v4-v6: 2 * plan->block) values. `first` runs over
 * the input, `again` over partials (for the float sum they are the same
 * function; an operator whose accumulator is not its input type needs two).
 * Defined in kernels/04_reduce.cu, beside the plan that lays out A and B. */
cudaError_t sl_reduce_ladder_passes(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                                    sl_reduce_pass_fn first, sl_reduce_pass_fn again, cudaStream_t stream);

/* v6 and v7 are compiled once per block size; their launchers sit in tables
 * of five, 64 to 1024, and this is the index of `block` in such a table. */
static inline int sl_reduce_block_slot(int block)
{
    int slot = 0;
    while ((SL_REDUCE_MIN_BLOCK << slot) < block) slot++;
    return slot;
}

/* v7-v9 read 16-byte vectors: the elements before x + head is 16-byte
 * aligned are read one by one (x itself is aligned to its element). */
static inline size_t sl_reduce_head(const void *x, size_t elem_bytes, size_t n)
{
    size_t misaligned = ((size_t)x & 15u) / elem_bytes;
    size_t head = misaligned ? 4 - misaligned : 0;
    return head < n ? head : n;
}

#endif
