/* Chapter 04 — reduction, v1 to v6: the shared-memory tree, one flaw at a
 * time (see kernels/04_reduce.cu for the whole ladder).
 *
 * Every version here is two-pass or more: a block reduces its elements to
 * one partial result, and the same kernel runs again over the partials until
 * one value is left (n = 2^30 with v1 and 256 threads: 4194304 partials,
 * then 16384, 64, 1). Block sizes are powers of two from 64 to 1024. */
#include "04_reduce_ops.cuh"

/* v1 — interleaved addressing.
 * The textbook tree: at step s, every thread whose index is a multiple of 2s
 * adds the value s slots to its right. Correct, but `tid % (2 * s)` leaves
 * the active threads scattered over every warp: the warps diverge and stay
 * resident doing nothing, and % is a slow instruction. */
template <class Op, class In>
__global__ void reduce_v1_interleaved(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char sl_reduce_shared[];
    acc *s = reinterpret_cast<acc *>(sl_reduce_shared);
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? Op::load(x[i], (long long)i) : Op::identity();
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] = Op::combine(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* v2 — strided index, no divergence.
 * v1's active threads were scattered; here thread tid works on slot
 * 2 * s * tid, so the active threads are the first ones and whole warps
 * retire together. The cost: the slots a warp touches are 2s apart, and at
 * 4-byte values and s >= 16 they fall in the same shared-memory banks, so a
 * warp's access is replayed once per conflicting bank (up to 16-way). */
template <class Op, class In>
__global__ void reduce_v2_strided(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char sl_reduce_shared[];
    acc *s = reinterpret_cast<acc *>(sl_reduce_shared);
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? Op::load(x[i], (long long)i) : Op::identity();
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        if (index < blockDim.x) s[index] = Op::combine(s[index], s[index + stride]);
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* v3 — sequential addressing.
 * v2's stride-2s slots made a warp hit the same banks; here the tree folds
 * the upper half of the live values onto the lower half, so the active
 * threads are contiguous and a warp reads 32 consecutive slots, 32 distinct
 * banks. Left to fix: half the threads are idle from the first step on. */
template <class Op, class In>
__global__ void reduce_v3_sequential(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char sl_reduce_shared[];
    acc *s = reinterpret_cast<acc *>(sl_reduce_shared);
    unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + tid;
    s[tid] = i < n ? Op::load(x[i], (long long)i) : Op::identity();
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] = Op::combine(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* Two elements per thread, 2 * blockDim apart so that both loads coalesce;
 * v4-v6 all start this way. */
template <class Op, class In>
static __device__ __forceinline__ typename Op::acc load_two(const In *__restrict__ x, size_t n)
{
    size_t i = (size_t)blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    typename Op::acc v = i < n ? Op::load(x[i], (long long)i) : Op::identity();
    if (i + blockDim.x < n) v = Op::combine(v, Op::load(x[i + blockDim.x], (long long)(i + blockDim.x)));
    return v;
}

/* v4 — first add during load.
 * v3's first step left half the threads idle; here each thread combines two
 * elements while loading, so the same work needs half the blocks and every
 * thread adds at least once. Cost: none to speak of; the tree is still a
 * barrier per step, also for the last steps that only one warp does. */
template <class Op, class In>
__global__ void reduce_v4_first_add(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char sl_reduce_shared[];
    acc *s = reinterpret_cast<acc *>(sl_reduce_shared);
    unsigned tid = threadIdx.x;
    s[tid] = load_two<Op>(x, n);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] = Op::combine(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* v5 — the last warp unrolled with shuffles.
 * v4 paid a block-wide barrier for each of the last 5 steps although only
 * warp 0 works in them. Once 64 values are left, warp 0 takes them into
 * registers and finishes with __shfl_down_sync: no shared memory, no
 * barrier, and no reliance on the old implicit warp-synchronous `volatile`
 * trick (wrong since Volta's independent thread scheduling). */
template <class Op, class In>
__global__ void reduce_v5_warp_unrolled(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    extern __shared__ __align__(16) unsigned char sl_reduce_shared[];
    acc *s = reinterpret_cast<acc *>(sl_reduce_shared);
    unsigned tid = threadIdx.x;
    s[tid] = load_two<Op>(x, n);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] = Op::combine(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid < 32) {
        acc v = sl_warp_reduce<Op>(Op::combine(s[tid], s[tid + 32]));
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

/* v6 — complete unroll on a compile-time block size.
 * v5's loop still computes its bound and branches at every step. With the
 * block size a template parameter every step is an `if` the compiler
 * decides, and the loop disappears. Cost: one instantiation per block size
 * (the launcher dispatches 64..1024), and the shared array is static. */
template <class Op, class In, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    reduce_v6_unrolled(const In *__restrict__ x, size_t n, typename Op::acc *__restrict__ partials)
{
    typedef typename Op::acc acc;
    __shared__ acc s[BLOCK];
    acc v = sl_block_reduce_unrolled<Op, BLOCK>(s, load_two<Op>(x, n));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* ---- launchers -------------------------------------------------------------- */

template <class Op, class In>
static void launch_v6(const In *x, size_t n, typename Op::acc *dst, unsigned grid, int block, cudaStream_t st)
{
    switch (block) {
    case 64: reduce_v6_unrolled<Op, In, 64><<<grid, 64, 0, st>>>(x, n, dst); break;
    case 128: reduce_v6_unrolled<Op, In, 128><<<grid, 128, 0, st>>>(x, n, dst); break;
    case 256: reduce_v6_unrolled<Op, In, 256><<<grid, 256, 0, st>>>(x, n, dst); break;
    case 512: reduce_v6_unrolled<Op, In, 512><<<grid, 512, 0, st>>>(x, n, dst); break;
    default: reduce_v6_unrolled<Op, In, 1024><<<grid, 1024, 0, st>>>(x, n, dst); break;
    }
}

/* One pass of `version` over `n` values of type In into grid partials. */
template <class Op, class In>
static cudaError_t launch_pass(int version, const In *x, size_t n, typename Op::acc *dst, unsigned grid,
                               int block, cudaStream_t st)
{
    size_t shared = (size_t)block * sizeof(typename Op::acc);
    switch (version) {
    case 1: reduce_v1_interleaved<Op, In><<<grid, block, shared, st>>>(x, n, dst); break;
    case 2: reduce_v2_strided<Op, In><<<grid, block, shared, st>>>(x, n, dst); break;
    case 3: reduce_v3_sequential<Op, In><<<grid, block, shared, st>>>(x, n, dst); break;
    case 4: reduce_v4_first_add<Op, In><<<grid, block, shared, st>>>(x, n, dst); break;
    case 5: reduce_v5_warp_unrolled<Op, In><<<grid, block, shared, st>>>(x, n, dst); break;
    case 6: launch_v6<Op, In>(x, n, dst, grid, block, st); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

/* The passes: input -> partials A -> partials B -> A -> ... -> out. Each pass
 * has one block per `per_block` values; the pass with one block writes out. */
template <class Op, class In>
static cudaError_t run_ladder(int version, const In *x, size_t n, int block, const sl_reduce_plan *plan,
                              unsigned char *ws, typename Op::acc *out, cudaStream_t st)
{
    typedef typename Op::acc acc;
    size_t per_block = (size_t)block * (version >= 4 ? 2 : 1);
    acc *buf[2] = {reinterpret_cast<acc *>(ws + plan->offset_a), reinterpret_cast<acc *>(ws + plan->offset_b)};
    size_t blocks = (n + per_block - 1) / per_block;
    acc *dst = blocks == 1 ? out : buf[0];
    cudaError_t err = launch_pass<Op, In>(version, x, n, dst, (unsigned)blocks, block, st);
    for (int k = 1; err == cudaSuccess && blocks > 1; k ^= 1) {
        const acc *src = dst;
        size_t count = blocks;
        blocks = (count + per_block - 1) / per_block;
        dst = blocks == 1 ? out : buf[k];
        err = launch_pass<Op, acc>(version, src, count, dst, (unsigned)blocks, block, st);
    }
    return err;
}

struct ladder_family {
    template <class Op, class In>
    static cudaError_t run(int version, const In *x, size_t n, int block, const sl_reduce_plan *plan,
                           unsigned char *ws, typename Op::acc *out, cudaStream_t st)
    {
        return run_ladder<Op, In>(version, x, n, block, plan, ws, out, st);
    }
};

cudaError_t sl_reduce_ladder_run(int version, sl_reduce_op op, const void *x, size_t n, int block,
                                 const sl_reduce_plan *plan, unsigned char *ws, void *out, cudaStream_t stream)
{
    return sl_reduce_dispatch<ladder_family>(version, op, x, n, block, plan, ws, out, stream);
}
