/* Chapter 04 — reduction, v7 to v9: a grid that fits the GPU, 16-byte
 * loads, and then fewer passes (see kernels/04_reduce.cu for the ladder).
 *
 * All three size the grid to the GPU (a few blocks per SM, from
 * cudaDevAttrMultiProcessorCount) and let each thread walk the array with a
 * grid-stride loop, so the number of blocks, partial results and atomics no
 * longer grows with n. */
#include "04_reduce_ops.cuh"

/* v7 — many elements per thread, 16-byte loads.
 * v6 still ran one block per 2 * BLOCK elements: millions of blocks for a
 * large n, each paying for its tree. Here a resident-sized grid strides over
 * the array in float4/int4 loads (a quarter of the load instructions), each
 * thread combines its elements in a register, and the tree runs once per
 * block. Cost: a scalar head and tail for any n and alignment; still a
 * second launch over the few thousand partials. */
template <class Op, class In, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_v7_vectorized(const In *__restrict__ x, size_t n, size_t head, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = sl_block_reduce_unrolled<Op, BLOCK>(s, sl_thread_accumulate<Op>(x, n, head));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* v7's second pass: one block folds the partials with a block-stride loop. */
template <class Op, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_partials_one_block(const typename Op::acc *__restrict__ partials, size_t count,
                              typename Op::acc *__restrict__ out)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = Op::identity();
    for (size_t i = threadIdx.x; i < count; i += BLOCK) v = Op::combine(v, partials[i]);
    v = sl_block_reduce_unrolled<Op, BLOCK>(s, v);
    if (threadIdx.x == 0) *out = v;
}

/* v8 — warp-shuffle block reduction, one atomic per block.
 * v7 needed a second launch, and its tree a barrier per level. Here each
 * warp reduces with shuffles, warp 0 reduces the warps' results (one
 * barrier), and thread 0 merges the block's result into the answer with a
 * single atomic: atomicAdd for sums; for max, atomicMax on the float's bits
 * made order-preserving as an unsigned (sl_float_order_key), because CUDA
 * has no float atomicMax and a CAS loop would retry under contention. Cost:
 * the target must be zeroed first (a memset), max/argmax need a tiny decode
 * launch, and float sums now depend on the order the atomics land in. */
template <class Op, class In>
__global__ void reduce_v8_atomic(const In *__restrict__ x, size_t n, size_t head, typename Op::atom *target)
{
    typedef typename Op::acc acc;
    __shared__ acc warp_sums[32];
    acc v = sl_block_reduce_shfl<Op>(sl_thread_accumulate<Op>(x, n, head), warp_sums);
    if (threadIdx.x == 0) Op::atomic_merge(target, v);
}

/* v8 for max and argmax: the atomics' key back into the result type. */
template <class Op>
__global__ void reduce_decode(const typename Op::atom *target, typename Op::acc *out)
{
    *out = Op::decode(*target);
}

/* v9 — single pass: the last block done reduces the partials.
 * v8 needed a memset before and (for max) a decode after, and its float
 * sums were not reproducible. Here each block writes its partial, makes it
 * visible to the whole GPU (__threadfence), then takes a ticket from a
 * counter; the block that draws the last ticket knows every partial is
 * written and reduces them, in a fixed order. One launch, no atomics on
 * the data. atomicInc(counter, grid - 1) wraps to 0 on the last ticket, so
 * the counter is reset for the next launch without another instruction.
 * Cost: the last block's extra work, and a counter that must start at 0. */
template <class Op, class In>
__global__ void reduce_v9_single_pass(const In *__restrict__ x, size_t n, size_t head,
                                      typename Op::acc *partials, unsigned *counter, typename Op::acc *out)
{
    typedef typename Op::acc acc;
    __shared__ acc warp_sums[32];
    __shared__ int is_last_block;
    acc v = sl_block_reduce_shfl<Op>(sl_thread_accumulate<Op>(x, n, head), warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence(); /* the partial is visible everywhere before the ticket is */
        unsigned ticket = atomicInc(counter, gridDim.x - 1);
        is_last_block = ticket == gridDim.x - 1;
    }
    __syncthreads(); /* also: warp_sums is free to reuse */
    if (!is_last_block) return;
    __threadfence(); /* the other side: read the partials only after the ticket */
    acc w = Op::identity();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) w = Op::combine(w, partials[b]);
    w = sl_block_reduce_shfl<Op>(w, warp_sums);
    if (threadIdx.x == 0) *out = w;
}

/* ---- launchers -------------------------------------------------------------- */

template <class Op, class In, int BLOCK>
static void launch_v7_block(const In *x, size_t n, size_t head, const sl_reduce_plan *plan, unsigned char *ws,
                            typename Op::acc *out, cudaStream_t st)
{
    typedef typename Op::acc acc;
    acc *partials = plan->grid == 1 ? out : reinterpret_cast<acc *>(ws + plan->offset_a);
    reduce_v7_vectorized<Op, In, BLOCK><<<plan->grid, BLOCK, 0, st>>>(x, n, head, partials);
    if (plan->grid > 1 && cudaPeekAtLastError() == cudaSuccess)
        reduce_partials_one_block<Op, BLOCK><<<1, BLOCK, 0, st>>>(partials, plan->grid, out);
}

template <class Op, class In>
static void launch_v7(const In *x, size_t n, size_t head, int block, const sl_reduce_plan *plan,
                      unsigned char *ws, typename Op::acc *out, cudaStream_t st)
{
    switch (block) {
    case 64: launch_v7_block<Op, In, 64>(x, n, head, plan, ws, out, st); break;
    case 128: launch_v7_block<Op, In, 128>(x, n, head, plan, ws, out, st); break;
    case 256: launch_v7_block<Op, In, 256>(x, n, head, plan, ws, out, st); break;
    case 512: launch_v7_block<Op, In, 512>(x, n, head, plan, ws, out, st); break;
    default: launch_v7_block<Op, In, 1024>(x, n, head, plan, ws, out, st); break;
    }
}

template <class Op, class In>
static cudaError_t launch_v8(const In *x, size_t n, size_t head, int block, const sl_reduce_plan *plan,
                             unsigned char *ws, typename Op::acc *out, cudaStream_t st)
{
    typedef typename Op::atom atom;
    /* Sums accumulate straight into the result; max/argmax into the key
     * slot of the workspace header. Zero bytes are every op's identity. */
    atom *target = Op::atom_is_acc ? reinterpret_cast<atom *>(out) : reinterpret_cast<atom *>(ws);
    cudaError_t err = cudaMemsetAsync(target, 0, sizeof(atom), st);
    if (err != cudaSuccess) return err;
    reduce_v8_atomic<Op, In><<<plan->grid, block, 0, st>>>(x, n, head, target);
    if (!Op::atom_is_acc && cudaPeekAtLastError() == cudaSuccess) reduce_decode<Op><<<1, 1, 0, st>>>(target, out);
    return cudaGetLastError();
}

template <class Op, class In>
static cudaError_t run_fast(int version, const In *x, size_t n, int block, const sl_reduce_plan *plan,
                            unsigned char *ws, typename Op::acc *out, cudaStream_t st)
{
    /* Elements before x + head is 16-byte aligned (x itself is In-aligned). */
    size_t misaligned = ((size_t)x & 15u) / sizeof(In);
    size_t head = misaligned ? 4 - misaligned : 0;
    if (head > n) head = n;
    switch (version) {
    case 7: launch_v7<Op, In>(x, n, head, block, plan, ws, out, st); break;
    case 8: return launch_v8<Op, In>(x, n, head, block, plan, ws, out, st);
    case 9: {
        typedef typename Op::acc acc;
        unsigned *counter = reinterpret_cast<unsigned *>(ws);
        acc *partials = reinterpret_cast<acc *>(ws + plan->offset_a);
        reduce_v9_single_pass<Op, In><<<plan->grid, block, 0, st>>>(x, n, head, partials, counter, out);
        break;
    }
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

struct fast_family {
    template <class Op, class In>
    static cudaError_t run(int version, const In *x, size_t n, int block, const sl_reduce_plan *plan,
                           unsigned char *ws, typename Op::acc *out, cudaStream_t st)
    {
        return run_fast<Op, In>(version, x, n, block, plan, ws, out, st);
    }
};

cudaError_t sl_reduce_fast_run(int version, sl_reduce_op op, const void *x, size_t n, int block,
                               const sl_reduce_plan *plan, unsigned char *ws, void *out, cudaStream_t stream)
{
    return sl_reduce_dispatch<fast_family>(version, op, x, n, block, plan, ws, out, stream);
}
