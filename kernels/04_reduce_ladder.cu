/* Chapter 04 — reduction, v1 to v6: the shared-memory tree, one flaw at a
 * time, on the float sum (see kernels/04_reduce.cu for the whole ladder).
 *
 * Every version here is two-pass or more: a block reduces its elements to
 * one partial sum, and the same kernel runs again over the partials until
 * one value is left (n = 2^30 with v1 and 256 threads: 4194304 partials,
 * then 16384, 64, 1; the loop is sl_reduce_ladder_passes in
 * kernels/04_reduce.cu). Block sizes are powers of two from 64 to 1024.
 * v5 and v6 finish with warp_sum and block_sum_unrolled from
 * kernels/04_reduce_sum_f32.cuh, because v7-v9 reuse them. The same
 * versions for the other operators: kernels/04_reduce_ops.cu. */
#include "04_reduce_family.cuh"
#include "04_reduce_sum_f32.cuh"

/* One element per thread (v1-v3); 0 past the end, so the tree adds it
 * without a test. */
static __device__ __forceinline__ float load_one(const float *__restrict__ x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    return i < n ? x[i] : 0.0f;
}

/* v1 — interleaved addressing.
 * The textbook tree: at step s, every thread whose index is a multiple of 2s
 * adds the value s slots to its right. Correct, but `tid % (2 * s)` leaves
 * the active threads scattered over every warp: the warps diverge and stay
 * resident doing nothing, and % is a slow instruction. */
__global__ void reduce_v1_interleaved(const float *__restrict__ x, size_t n, float *__restrict__ partials)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = load_one(x, n);
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
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
__global__ void reduce_v2_strided(const float *__restrict__ x, size_t n, float *__restrict__ partials)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = load_one(x, n);
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned index = 2 * stride * tid;
        if (index < blockDim.x) s[index] += s[index + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* v3 — sequential addressing.
 * v2's stride-2s slots made a warp hit the same banks; here the tree folds
 * the upper half of the live values onto the lower half, so the active
 * threads are contiguous and a warp reads 32 consecutive slots, 32 distinct
 * banks. Left to fix: half the threads are idle from the first step on. */
__global__ void reduce_v3_sequential(const float *__restrict__ x, size_t n, float *__restrict__ partials)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = load_one(x, n);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* Two elements per thread, blockDim apart so that both loads coalesce: a
 * block covers 2 * blockDim elements. v4-v6 all start this way. */
static __device__ __forceinline__ float load_two(const float *__restrict__ x, size_t n)
{
    size_t i = (size_t)blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if (i + blockDim.x < n) v += x[i + blockDim.x];
    return v;
}

/* v4 — first add during load.
 * v3's first step left half the threads idle; here each thread adds two
 * elements while loading, so the same work needs half the blocks and every
 * thread adds at least once. Cost: none to speak of; the tree is still a
 * barrier per step, also for the last steps that only one warp does. */
__global__ void reduce_v4_first_add(const float *__restrict__ x, size_t n, float *__restrict__ partials)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = load_two(x, n);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

/* v5 — the last warp unrolled with shuffles.
 * v4 paid a block-wide barrier for each of the last 5 steps although only
 * warp 0 works in them. Once 64 values are left, warp 0 takes them into
 * registers and finishes with __shfl_down_sync (warp_sum): no shared
 * memory, no barrier, and no reliance on the old implicit warp-synchronous
 * `volatile` trick (wrong since Volta's independent thread scheduling). */
__global__ void reduce_v5_warp_unrolled(const float *__restrict__ x, size_t n, float *__restrict__ partials)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    s[tid] = load_two(x, n);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        float v = warp_sum(s[tid] + s[tid + 32]);
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

/* v6 — complete unroll on a compile-time block size.
 * v5's loop still computes its bound and branches at every step. With the
 * block size a template parameter every step is an `if` the compiler
 * decides (block_sum_unrolled), and the loop disappears. Cost: one
 * instantiation per block size (the launcher picks one of 64..1024), and
 * the shared array is static. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_v6_unrolled(const float *__restrict__ x, size_t n,
                                                            float *__restrict__ partials)
{
    __shared__ float s[BLOCK];
    float v = block_sum_unrolled<BLOCK>(s, load_two(x, n));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* ---- launchers -------------------------------------------------------------- */

template <int BLOCK>
static void launch_v6(const float *x, size_t n, float *partials, unsigned grid, cudaStream_t stream)
{
    reduce_v6_unrolled<BLOCK><<<grid, BLOCK, 0, stream>>>(x, n, partials);
}

typedef void (*v6_launcher)(const float *x, size_t n, float *partials, unsigned grid, cudaStream_t stream);
static const v6_launcher v6_by_block[] = {launch_v6<64>, launch_v6<128>, launch_v6<256>, launch_v6<512>,
                                          launch_v6<1024>};

/* One pass of the plan's version over `count` floats (the input, or the
 * partials of the pass before: the float sum's partials are floats too, so
 * every pass runs the same kernel). v1-v5 size their shared array at launch:
 * one float per thread. */
static cudaError_t ladder_pass(const sl_reduce_plan *plan, const void *src, size_t count, void *dst, unsigned grid,
                               cudaStream_t stream)
{
    const float *x = static_cast<const float *>(src);
    float *partials = static_cast<float *>(dst);
    int block = plan->block;
    size_t shared = (size_t)block * sizeof(float);
    switch (plan->version) {
    case 1: reduce_v1_interleaved<<<grid, block, shared, stream>>>(x, count, partials); break;
    case 2: reduce_v2_strided<<<grid, block, shared, stream>>>(x, count, partials); break;
    case 3: reduce_v3_sequential<<<grid, block, shared, stream>>>(x, count, partials); break;
    case 4: reduce_v4_first_add<<<grid, block, shared, stream>>>(x, count, partials); break;
    case 5: reduce_v5_warp_unrolled<<<grid, block, shared, stream>>>(x, count, partials); break;
    case 6: v6_by_block[sl_reduce_block_slot(block)](x, count, partials, grid, stream); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

cudaError_t sl_reduce_ladder_sum_f32(const sl_reduce_plan *plan, const void *x, unsigned char *ws, void *out,
                                     cudaStream_t stream)
{
    return sl_reduce_ladder_passes(plan, x, ws, out, ladder_pass, ladder_pass, stream);
}
