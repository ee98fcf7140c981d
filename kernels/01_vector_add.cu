/* Chapter 01 — vector add, and the whole lifecycle of a kernel.
 *
 * c[i] = a[i] + b[i]. One add per 12 bytes moved: this kernel is bound by
 * memory bandwidth, never by arithmetic, so the versions differ only in how
 * they issue loads and stores.
 *
 *   v1  one thread per element        (the first kernel everyone writes)
 *   v2  grid-stride loop              (a fixed grid covers any n)
 *   v3  16-byte vector loads/stores   (a quarter of the memory instructions)
 *
 * Host code reaches each version through sl_vector_add_launch (C linkage).
 * Build and run: make examples && build/bin/01_vector_add   (GPU)
 *                                 build/bin/01_vector_add_emu (CPU emulator)
 */
#include <cuda_runtime.h>
#include <limits.h>

#include "01_vector_add.h"
#include "common/sl_launch.h"

/* v1 — one thread per element.
 * The grid has ceil(n / block) blocks; the `i < n` test guards the last,
 * partial block. Indices are size_t: blockIdx.x * blockDim.x in unsigned int
 * wraps at 2^32 elements. */
__global__ void vector_add_v1_per_element(const float *__restrict__ a, const float *__restrict__ b,
                                          float *__restrict__ c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* v2 — grid-stride loop.
 * v1 needs a block per `block` elements: for n = 2^30 that is millions of
 * blocks, each paying its start-up cost. Here a grid sized to fill the GPU
 * once walks the whole array; the same kernel works for every n. */
__global__ void vector_add_v2_grid_stride(const float *__restrict__ a, const float *__restrict__ b,
                                          float *__restrict__ c, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

/* v3 — 16-byte vector loads and stores.
 * v2 issues one 4-byte load per element; a float4 access moves 16 bytes in
 * one instruction, so the memory pipeline sees a quarter of the requests.
 * float4 needs 16-byte alignment: `head` scalar elements bring c to a 16-byte
 * boundary (a and b share its misalignment; the launcher checks), and the
 * `tail` elements after the last whole float4 are done one by one. */
__global__ void vector_add_v3_vectorized(const float *__restrict__ a, const float *__restrict__ b,
                                         float *__restrict__ c, size_t n, size_t head)
{
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t body = (n - head) / 4; /* whole float4s after the head */
    const float4 *a4 = reinterpret_cast<const float4 *>(a + head);
    const float4 *b4 = reinterpret_cast<const float4 *>(b + head);
    float4 *c4 = reinterpret_cast<float4 *>(c + head);
    for (size_t i = tid; i < body; i += stride) {
        float4 x = a4[i], y = b4[i];
        c4[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    /* At most 3 head and 3 tail elements: threads 0..5 of the grid take them. */
    if (tid < head) c[tid] = a[tid] + b[tid];
    size_t tail_start = head + body * 4;
    if (tid < n - tail_start) c[tail_start + tid] = a[tail_start + tid] + b[tail_start + tid];
}

/* v2 and v3's grid: at most four waves of resident blocks, enough to hide
 * each block's start-up; more only adds scheduling work for a grid-stride
 * kernel. */
static unsigned stride_grid(size_t items, int block) { return sl_stride_grid(items, block, 4u); }

extern "C" const char *sl_vector_add_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 one thread per element";
    case 2: return "v2 grid-stride loop";
    case 3: return "v3 16-byte vector loads";
    default: return NULL;
    }
}

extern "C" int sl_vector_add_v3_fits(const float *a, const float *b, const float *c)
{
    int same = ((size_t)a & 15u) == ((size_t)c & 15u) && ((size_t)b & 15u) == ((size_t)c & 15u);
    int whole_floats = (((size_t)a | (size_t)b | (size_t)c) & 3u) == 0;
    return same && whole_floats;
}

extern "C" cudaError_t sl_vector_add_launch(int version, const float *a, const float *b, float *c,
                                            size_t n, int block, cudaStream_t stream,
                                            unsigned *grid_out)
{
    unsigned grid = 0;
    if (block <= 0) return cudaErrorInvalidValue;
    if (version == 1) {
        size_t blocks = (n + (size_t)block - 1) / (size_t)block;
        if (blocks > INT_MAX) return cudaErrorInvalidValue; /* grid.x limit 2^31-1 */
        grid = (unsigned)(blocks ? blocks : 1);
        vector_add_v1_per_element<<<grid, block, 0, stream>>>(a, b, c, n);
    } else if (version == 2) {
        grid = stride_grid(n, block);
        vector_add_v2_grid_stride<<<grid, block, 0, stream>>>(a, b, c, n);
    } else if (version == 3) {
        /* No common float4 view of a, b and c: no version 3 to run. */
        if (!sl_vector_add_v3_fits(a, b, c)) return cudaErrorMisalignedAddress;
        /* Elements until c (and so a and b) is 16-byte aligned. */
        size_t mis = ((size_t)c & 15u) / 4u;
        size_t head = mis ? 4u - mis : 0u;
        if (head > n) head = n;
        grid = stride_grid((n - head) / 4 + 6, block);
        vector_add_v3_vectorized<<<grid, block, 0, stream>>>(a, b, c, n, head);
    } else {
        return cudaErrorInvalidValue;
    }
    if (grid_out) *grid_out = grid;
    return cudaGetLastError();
}
