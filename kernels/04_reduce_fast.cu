/* Chapter 04 — reduction, v7 to v9: a grid that fits the GPU, 16-byte
 * loads, and then fewer passes, on the float sum (see kernels/04_reduce.cu
 * for the whole ladder).
 *
 * All three size the grid to the GPU (a few blocks per SM, from
 * cudaDevAttrMultiProcessorCount; sl_reduce_plan_make does it) and let each
 * thread walk the array with a grid-stride loop, so the number of blocks,
 * partial results and atomics no longer grows with n. warp_sum and
 * block_sum_unrolled, from v5 and v6, are in kernels/04_reduce_sum_f32.cuh.
 * The same versions for the other operators: kernels/04_reduce_ops.cu. */
#include "04_reduce_family.cuh"
#include "04_reduce_sum_f32.cuh"

/* v7-v9's load phase: each thread of the grid adds its share of x in one
 * register. `head` scalar elements bring x to a 16-byte boundary; then
 * whole float4 vectors, a grid-stride apart so that each step of the grid
 * reads one contiguous stretch; then the at most 3 elements of the tail. */
static __device__ __forceinline__ float thread_sum(const float *__restrict__ x, size_t n, size_t head)
{
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t body = (n - head) / 4;
    float v = 0.0f;
    if (tid < head) v = x[tid];
    const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
    for (size_t j = tid; j < body; j += stride) {
        float4 q = x4[j];
        v += (q.x + q.y) + (q.z + q.w);
    }
    size_t tail = head + 4 * body;
    if (tid < n - tail) v += x[tail + tid];
    return v;
}

/* v7 — many elements per thread, 16-byte loads.
 * v6 still ran one block per 2 * BLOCK elements: millions of blocks for a
 * large n, each paying for its tree. Here a resident-sized grid strides over
 * the array in float4 loads (a quarter of the load instructions), each
 * thread adds its elements in a register, and v6's tree runs once per
 * block. Cost: a scalar head and tail for any n and alignment; still a
 * second launch over the few thousand partials. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_v7_vectorized(const float *__restrict__ x, size_t n, size_t head,
                                                              float *__restrict__ partials)
{
    __shared__ float s[BLOCK];
    float v = block_sum_unrolled<BLOCK>(s, thread_sum(x, n, head));
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

/* v7's second pass: one block adds the partials with a block-stride loop. */
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_partials_one_block(const float *__restrict__ partials, size_t count,
                                                                   float *__restrict__ out)
{
    __shared__ float s[BLOCK];
    float v = 0.0f;
    for (size_t i = threadIdx.x; i < count; i += BLOCK) v += partials[i];
    v = block_sum_unrolled<BLOCK>(s, v);
    if (threadIdx.x == 0) *out = v;
}

/* v8/v9's block reduction, shuffles only. Each warp adds its own 32 values,
 * lane 0 of each warp leaves the warp's sum in warp_sums (32 floats of
 * shared memory), and warp 0 adds those: one barrier instead of
 * log2(block). Every thread of the block must call it; thread 0 returns the
 * sum. Call __syncthreads() before reusing warp_sums. */
static __device__ __forceinline__ float block_sum_shfl(float v, float *warp_sums)
{
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
    return v;
}

/* v8 — warp-shuffle block reduction, one atomic per block.
 * v7 needed a second launch, and its tree a barrier per level. Here each
 * warp reduces with shuffles, warp 0 reduces the warps' results (one
 * barrier), and thread 0 adds the block's sum to the answer with a single
 * atomicAdd (the other operators: max and argmax use an integer atomicMax
 * on an order-preserving key, see kernels/04_reduce_ops.cuh). Cost: the
 * answer must be zeroed first (a memset), and float sums now depend on the
 * order the atomics land in. */
__global__ void reduce_v8_atomic(const float *__restrict__ x, size_t n, size_t head, float *out)
{
    __shared__ float warp_sums[32];
    float v = block_sum_shfl(thread_sum(x, n, head), warp_sums);
    if (threadIdx.x == 0) atomicAdd(out, v);
}

/* v9 — single pass: the last block done reduces the partials.
 * v8 needed a memset before, and its float sums were not reproducible.
 * Here each block writes its partial, makes it visible to the whole GPU
 * (__threadfence), then takes a ticket from a counter; the block that draws
 * the last ticket knows every partial is written and adds them, in a fixed
 * order. One launch, no atomics on the data. atomicInc(counter, grid - 1)
 * wraps to 0 on the last ticket, so the counter is reset for the next
 * launch without another instruction. Cost: the last block's extra work,
 * and a counter that must start at 0. */
__global__ void reduce_v9_single_pass(const float *__restrict__ x, size_t n, size_t head, float *partials,
                                      unsigned *counter, float *out)
{
    __shared__ float warp_sums[32];
    __shared__ int is_last_block;
    float v = block_sum_shfl(thread_sum(x, n, head), warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence(); /* the partial is visible everywhere before the ticket is */
        unsigned ticket = atomicInc(counter, gridDim.x - 1);
        is_last_block = ticket == gridDim.x - 1;
    }
    __syncthreads(); /* also: warp_sums is free to reuse */
    if (!is_last_block) return;
    __threadfence(); /* the other side: read the partials only after the ticket */
    float w = 0.0f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) w += partials[b];
    w = block_sum_shfl(w, warp_sums);
    if (threadIdx.x == 0) *out = w;
}

/* ---- launchers -------------------------------------------------------------- */

/* v7's two launches; with a grid of one block the first writes the answer. */
template <int BLOCK>
static void launch_v7(const sl_reduce_plan *plan, const float *x, size_t head, float *partials, float *out,
                      cudaStream_t stream)
{
    float *first = plan->grid == 1 ? out : partials;
    reduce_v7_vectorized<BLOCK><<<plan->grid, BLOCK, 0, stream>>>(x, plan->n, head, first);
    if (plan->grid > 1 && cudaPeekAtLastError() == cudaSuccess)
        reduce_partials_one_block<BLOCK><<<1, BLOCK, 0, stream>>>(partials, plan->grid, out);
}

typedef void (*v7_launcher)(const sl_reduce_plan *plan, const float *x, size_t head, float *partials, float *out,
                            cudaStream_t stream);
static const v7_launcher v7_by_block[] = {launch_v7<64>, launch_v7<128>, launch_v7<256>, launch_v7<512>,
                                          launch_v7<1024>};

/* The workspace (kernels/04_reduce.h): a 16-byte header, here v9's block
 * counter, then partials A, one float per block of the grid. */
cudaError_t sl_reduce_fast_sum_f32(const sl_reduce_plan *plan, const void *x_in, unsigned char *ws, void *out_dev,
                                   cudaStream_t stream)
{
    const float *x = static_cast<const float *>(x_in);
    float *out = static_cast<float *>(out_dev), *partials = reinterpret_cast<float *>(ws + plan->offset_a);
    unsigned *counter = reinterpret_cast<unsigned *>(ws);
    size_t n = plan->n, head = sl_reduce_head(x, sizeof(float), n);
    cudaError_t err = cudaSuccess;
    switch (plan->version) {
    case 7: v7_by_block[sl_reduce_block_slot(plan->block)](plan, x, head, partials, out, stream); break;
    case 8:
        err = cudaMemsetAsync(out, 0, sizeof(float), stream); /* 0.0f is all zero bits */
        if (err == cudaSuccess) reduce_v8_atomic<<<plan->grid, plan->block, 0, stream>>>(x, n, head, out);
        break;
    case 9:
        reduce_v9_single_pass<<<plan->grid, plan->block, 0, stream>>>(x, n, head, partials, counter, out);
        break;
    default: return cudaErrorInvalidValue;
    }
    return err != cudaSuccess ? err : cudaGetLastError();
}
