/* Chapter 04 — every version for the other operators: float sum into a
 * double, exact int sum into long long, max and argmax (NaN wins, ties go
 * to the lowest index).
 *
 * The lesson is in kernels/04_reduce_ladder.cu (v1-v6) and
 * kernels/04_reduce_fast.cu (v7-v9), on the float sum, with the comment
 * that says why each version exists. This file carries the same structure
 * for the operators the library offers: each `+` there is an Op::combine
 * here (the operators: kernels/04_reduce_ops.cuh), and the kernels are
 * templates over the operator Op and the input type In. What differs:
 *   - v1-v5 are one kernel, ops_tree, whose template parameter VERSION
 *     picks the load and the tree of that version;
 *   - the first pass of v1-v6 reads In, later passes read accumulators
 *     (double, long long, sl_argmax_pair), so they are two instantiations;
 *   - v8 merges max and argmax with an integer atomicMax on an
 *     order-preserving key in the workspace header, then one thread decodes
 *     the key into the result (ops_decode). */
#include "04_reduce_family.cuh"
#include "04_reduce_ops.cuh"

/* ---- v1-v6: the shared-memory tree ------------------------------------------ */

/* v1 interleaved, v2 strided index, v3 sequential, v4 the same with two
 * elements per thread, v5 with the last warp's shuffles. The shared array
 * is raw bytes because one extern __shared__ array serves every
 * accumulator type. */
template <class Op, class In, int VERSION>
__global__ void ops_tree(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char ops_shared[];
    acc *s = reinterpret_cast<acc *>(ops_shared);
    unsigned tid = threadIdx.x;
    s[tid] = VERSION >= 4 ? sl_load_two<Op>(x, n) : sl_load_one<Op>(x, n);
    __syncthreads();
    if (VERSION == 1) {
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            if (tid % (2 * stride) == 0) s[tid] = Op::combine(s[tid], s[tid + stride]);
            __syncthreads();
        }
    } else if (VERSION == 2) {
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            unsigned index = 2 * stride * tid;
            if (index < blockDim.x) s[index] = Op::combine(s[index], s[index + stride]);
            __syncthreads();
        }
    } else {
        unsigned last = VERSION == 5 ? 32 : 0; /* v5 leaves the last 64 values to warp 0 */
        for (unsigned stride = blockDim.x / 2; stride > last; stride >>= 1) {
            if (tid < stride) s[tid] = Op::combine(s[tid], s[tid + stride]);
            __syncthreads();
        }
    }
    if (VERSION != 5) {
        if (tid == 0) partials[blockIdx.x] = s[0];
    } else if (tid < 32) {
        acc v = sl_warp_reduce<Op>(Op::combine(s[tid], s[tid + 32]));
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

/* v6: the tree unrolled on a compile-time block size. */
template <class Op, class In, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    ops_v6(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = sl_block_reduce_unrolled<Op, BLOCK>(s, sl_load_two<Op>(x, n));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* ---- v7-v9: a resident grid, 16-byte loads ------------------------------------ */

/* v7: grid-stride, 16-byte loads, v6's tree; a second launch adds up. */
template <class Op, class In, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    ops_v7(const In *__restrict__ x, size_t n, size_t head, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = sl_block_reduce_unrolled<Op, BLOCK>(s, sl_thread_accumulate<Op>(x, n, head));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* v7's second pass: one block, a block-stride loop over the partials. */
template <class Op, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    ops_partials_one_block(const typename Op::acc *__restrict__ partials, size_t count,
                           typename Op::acc *__restrict__ out)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = Op::identity();
    for (size_t i = threadIdx.x; i < count; i += BLOCK) v = Op::combine(v, partials[i]);
    v = sl_block_reduce_unrolled<Op, BLOCK>(s, v);
    if (threadIdx.x == 0) *out = v;
}

/* v8: shuffle block reduce, one atomic per block into `target`. */
template <class Op, class In>
__global__ void ops_v8(const In *__restrict__ x, size_t n, size_t head, typename Op::atom *target)
{
    typedef typename Op::acc acc;
    __shared__ acc warp_results[32];
    acc v = sl_block_reduce_shfl<Op>(sl_thread_accumulate<Op>(x, n, head), warp_results);
    if (threadIdx.x == 0) Op::atomic_merge(target, v);
}

/* v8 for max and argmax: the atomics' key back into the result type. */
template <class Op>
__global__ void ops_decode(const typename Op::atom *target, typename Op::acc *out)
{
    *out = Op::decode(*target);
}

/* v9: single pass; the block that draws the last ticket reduces the
 * partials (the fences and the ticket as in reduce_v9_single_pass). */
template <class Op, class In>
__global__ void ops_v9(const In *__restrict__ x, size_t n, size_t head, typename Op::acc *partials,
                       unsigned *counter, typename Op::acc *out)
{
    typedef typename Op::acc acc;
    __shared__ acc warp_results[32];
    __shared__ int is_last_block;
    acc v = sl_block_reduce_shfl<Op>(sl_thread_accumulate<Op>(x, n, head), warp_results);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        is_last_block = atomicInc(counter, gridDim.x - 1) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last_block) return;
    __threadfence();
    acc w = Op::identity();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) w = Op::combine(w, partials[b]);
    w = sl_block_reduce_shfl<Op>(w, warp_results);
    if (threadIdx.x == 0) *out = w;
}

/* ---- launchers -------------------------------------------------------------- */

template <class Op, class In, int VERSION>
static void launch_tree(const In *x, size_t n, typename Op::acc *partials, unsigned grid, int block,
                        cudaStream_t stream)
{
    size_t shared = (size_t)block * sizeof(typename Op::acc);
    ops_tree<Op, In, VERSION><<<grid, block, shared, stream>>>(x, n, partials);
}

template <class Op, class In, int BLOCK>
static void launch_v6(const In *x, size_t n, typename Op::acc *partials, unsigned grid, int, cudaStream_t stream)
{
    ops_v6<Op, In, BLOCK><<<grid, BLOCK, 0, stream>>>(x, n, partials);
}

/* One pass of v1-v6 over `count` values of type In: v1..v5, then v6 for
 * each block size 64..1024. */
template <class Op, class In>
static cudaError_t ladder_pass(const sl_reduce_plan *plan, const void *src, size_t count, void *dst, unsigned grid,
                               cudaStream_t stream)
{
    typedef void (*launcher)(const In *, size_t, typename Op::acc *, unsigned, int, cudaStream_t);
    static const launcher launchers[] = {launch_tree<Op, In, 1>, launch_tree<Op, In, 2>, launch_tree<Op, In, 3>,
                                         launch_tree<Op, In, 4>, launch_tree<Op, In, 5>, launch_v6<Op, In, 64>,
                                         launch_v6<Op, In, 128>, launch_v6<Op, In, 256>, launch_v6<Op, In, 512>,
                                         launch_v6<Op, In, 1024>};
    int k = plan->version <= 5 ? plan->version - 1 : 5 + sl_reduce_block_slot(plan->block);
    launchers[k](static_cast<const In *>(src), count, static_cast<typename Op::acc *>(dst), grid, plan->block,
                 stream);
    return cudaGetLastError();
}

/* v7's two launches; with a grid of one block the first writes the result. */
template <class Op, class In, int BLOCK>
static void launch_v7(const sl_reduce_plan *plan, const In *x, size_t head, typename Op::acc *partials,
                      typename Op::acc *out, cudaStream_t stream)
{
    typename Op::acc *first = plan->grid == 1 ? out : partials;
    ops_v7<Op, In, BLOCK><<<plan->grid, BLOCK, 0, stream>>>(x, plan->n, head, first);
    if (plan->grid > 1 && cudaPeekAtLastError() == cudaSuccess)
        ops_partials_one_block<Op, BLOCK><<<1, BLOCK, 0, stream>>>(partials, plan->grid, out);
}

/* Sums merge straight into the result; max and argmax into the key slot of
 * the workspace header, decoded at the end. Zero bytes are every
 * operator's identity, so a memset starts the merge. */
template <class Op, class In>
static cudaError_t launch_v8(const sl_reduce_plan *plan, const In *x, size_t head, unsigned char *ws,
                             typename Op::acc *out, cudaStream_t stream)
{
    typedef typename Op::atom atom;
    atom *target = Op::atom_is_acc ? reinterpret_cast<atom *>(out) : reinterpret_cast<atom *>(ws);
    cudaError_t err = cudaMemsetAsync(target, 0, sizeof(atom), stream);
    if (err != cudaSuccess) return err;
    ops_v8<Op, In><<<plan->grid, plan->block, 0, stream>>>(x, plan->n, head, target);
    if (!Op::atom_is_acc && cudaPeekAtLastError() == cudaSuccess) ops_decode<Op><<<1, 1, 0, stream>>>(target, out);
    return cudaGetLastError();
}

/* v7-v9; the workspace: the 16-byte header (v8's key, v9's counter), then
 * partials A, one accumulator per block. */
template <class Op, class In>
static cudaError_t run_fast(const sl_reduce_plan *plan, const In *x, unsigned char *ws, typename Op::acc *out,
                            cudaStream_t stream)
{
    typedef typename Op::acc acc;
    typedef void (*v7_launcher)(const sl_reduce_plan *, const In *, size_t, acc *, acc *, cudaStream_t);
    static const v7_launcher v7_by_block[] = {launch_v7<Op, In, 64>, launch_v7<Op, In, 128>, launch_v7<Op, In, 256>,
                                              launch_v7<Op, In, 512>, launch_v7<Op, In, 1024>};
    acc *partials = reinterpret_cast<acc *>(ws + plan->offset_a);
    size_t head = sl_reduce_head(x, sizeof(In), plan->n);
    unsigned *counter = reinterpret_cast<unsigned *>(ws);
    switch (plan->version) {
    case 7: v7_by_block[sl_reduce_block_slot(plan->block)](plan, x, head, partials, out, stream); break;
    case 8: return launch_v8<Op, In>(plan, x, head, ws, out, stream);
    case 9: ops_v9<Op, In><<<plan->grid, plan->block, 0, stream>>>(x, plan->n, head, partials, counter, out); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

template <class Op, class In>
static cudaError_t run(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out, cudaStream_t stream)
{
    typedef typename Op::acc acc;
    if (plan->version <= 6)
        return sl_reduce_ladder_passes(plan, x, ws, out, ladder_pass<Op, In>, ladder_pass<Op, acc>, stream);
    return run_fast<Op, In>(plan, static_cast<const In *>(x), ws, static_cast<acc *>(out), stream);
}

/* The one place that maps the C operator enum to operator types. */
cudaError_t sl_reduce_ops_run(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                              cudaStream_t stream)
{
    switch (plan->op) {
    case SL_REDUCE_SUM_F32_F64ACC: return run<sl_sum_f32_f64acc_op, float>(plan, x, ws, out, stream);
    case SL_REDUCE_SUM_I32: return run<sl_sum_i32_op, int>(plan, x, ws, out, stream);
    case SL_REDUCE_MAX_F32: return run<sl_max_f32_op, float>(plan, x, ws, out, stream);
    case SL_REDUCE_ARGMAX_F32: return run<sl_argmax_f32_op, float>(plan, x, ws, out, stream);
    default: return cudaErrorInvalidValue;
    }
}
