/* Chapter 02 — when the GPU pays: the kernels the chapter measures.
 *
 * Chapter 02 is about everything around a kernel: the bus, the launch, the
 * copies that can or cannot overlap. Its kernels are therefore small and
 * plain, so that what the benchmark measures is the cost around them:
 *
 *   add              out = x + y, grid-stride (1 flop per 12 bytes)
 *   saxpy            out = alpha * x + y, grid-stride (2 flops per 12 bytes)
 *   empty            does nothing: its time is the launch's cost alone
 *   request_one      one small request: out[i] = scale * in[i] + bias over
 *                    one segment, one launch per request
 *   request_batched  every request of a list in one launch, a block each
 *   poly             a polynomial of `terms` FMAs per element: a kernel as
 *                    long as the copies around it, so overlap can show
 *
 * Host code reaches them through the launchers below (C linkage), which
 * return the launch's error and never synchronize.
 * Build and run: make examples && build/bin/02_gpu_pays      (GPU)
 *                                 build/bin/02_gpu_pays_emu  (CPU emulator)
 */
#include <cuda_runtime.h>

#include "02_gpu_pays.h"
#include "common/sl_launch.h"

/* Add — out = x + y, grid-stride.
 * Chapter 01's vector add as its v2 does it, here with chapter 02's own
 * launcher: one add per 12 bytes moved, so what a run of it costs is the
 * bus and the launch around it. */
__global__ void add_grid_stride(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ out,
                                size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = x[i] + y[i];
}

/* SAXPY — out = alpha * x + y (BLAS writes y in place; a separate output
 * keeps the buffers of vector add, so the two are measured alike).
 * Grid-stride like chapter 01's v2: a grid that fills the GPU once walks any
 * n. Two flops (a multiply and an add, one FMA) per 12 bytes moved: as
 * memory-bound as vector add, so the two share a crossover. */
__global__ void saxpy_grid_stride(float alpha, const float *__restrict__ x, const float *__restrict__ y,
                                  float *__restrict__ out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = fmaf(alpha, x[i], y[i]);
}

/* Empty — no work at all.
 * What one launch costs the host (the asynchronous call) and the GPU (the
 * block's start and end), with nothing of the kernel's own on top. */
__global__ void empty_kernel(void) {}

/* One request — a segment of `count` elements at `offset`.
 * A block-stride loop over the segment; small requests use one block, and
 * each request pays a whole launch. */
__global__ void request_one(const float *__restrict__ in, float *__restrict__ out, sl_pays_segment r)
{
    for (unsigned i = threadIdx.x + blockIdx.x * blockDim.x; i < r.count; i += blockDim.x * gridDim.x)
        out[r.offset + i] = fmaf(r.scale, in[r.offset + i], r.bias);
}

/* Batched — block b serves request b of the list.
 * One launch for the whole list: its cost is paid once, and the requests
 * run side by side on different SMs instead of one after another. The
 * list itself is one more copy (16 bytes a request). */
__global__ void request_batched(const float *__restrict__ in, float *__restrict__ out,
                                const sl_pays_segment *__restrict__ list, int count)
{
    for (int b = blockIdx.x; b < count; b += gridDim.x) {
        sl_pays_segment r = list[b];
        for (unsigned i = threadIdx.x; i < r.count; i += blockDim.x) out[r.offset + i] = fmaf(r.scale, in[r.offset + i], r.bias);
    }
}

/* Poly — y = p(x), Horner's rule with `terms` FMAs per element.
 * The knob that makes a kernel take as long as its copies (2 * terms flops
 * per 8 bytes), so that overlapping them with streams has something to
 * hide. Coefficients 1/(k+1) keep |p(x)| small for x in [-1, 1). */
__global__ void poly_horner(const float *__restrict__ x, float *__restrict__ y, size_t n, int terms)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = x[i], acc = 0.0f;
        for (int k = terms; k >= 1; k--) acc = fmaf(acc, v, 1.0f / (float)(k + 1));
        y[i] = acc;
    }
}

/* ---- launchers ------------------------------------------------------------------ */

/* A grid-stride grid: enough blocks for n, at most four waves of resident blocks. */
static unsigned stride_grid(size_t n, int block) { return sl_stride_grid(n, block, 4u); }

extern "C" cudaError_t sl_pays_add_launch(const float *x, const float *y, float *out, size_t n, int block,
                                          cudaStream_t stream)
{
    if (block <= 0) return cudaErrorInvalidValue;
    add_grid_stride<<<stride_grid(n, block), block, 0, stream>>>(x, y, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_saxpy_launch(float alpha, const float *x, const float *y, float *out, size_t n, int block,
                                       cudaStream_t stream)
{
    if (block <= 0) return cudaErrorInvalidValue;
    saxpy_grid_stride<<<stride_grid(n, block), block, 0, stream>>>(alpha, x, y, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_empty_launch(cudaStream_t stream)
{
    empty_kernel<<<1, 32, 0, stream>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t sl_request_launch_one(const float *in, float *out, sl_pays_segment r, int block,
                                             cudaStream_t stream)
{
    if (block <= 0) return cudaErrorInvalidValue;
    request_one<<<stride_grid(r.count, block), block, 0, stream>>>(in, out, r);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_request_launch_batched(const float *in, float *out, const sl_pays_segment *list,
                                                 int count, int block, cudaStream_t stream)
{
    if (block <= 0 || count <= 0) return cudaErrorInvalidValue;
    request_batched<<<(unsigned)count, block, 0, stream>>>(in, out, list, count);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_poly_launch(const float *x, float *y, size_t n, int terms, int block, cudaStream_t stream)
{
    if (block <= 0 || terms < 0) return cudaErrorInvalidValue;
    poly_horner<<<stride_grid(n, block), block, 0, stream>>>(x, y, n, terms);
    return cudaGetLastError();
}
