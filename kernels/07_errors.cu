/* Chapter 07 — errors and debugging: kernels that go wrong on purpose.
 *
 * Each kernel is the smallest one that makes a mistake students make, so
 * that the error it causes can be read in full: what the CUDA runtime
 * returns, what the library's message adds, what the CPU emulator explains
 * and what compute-sanitizer would report on a GPU.
 *
 *   assert_non_negative    a device-side assert() that fails   -> cudaErrorAssert
 *   scale_unchecked        no `if (i < n)`                     -> cudaErrorIllegalAddress
 *                                                                 (on a GPU only when the
 *                                                                 access leaves mapped memory)
 *   scale                  the same with its check, launched with a
 *                          configuration the device refuses   -> cudaErrorInvalidValue (CUDA 13)
 *   register_hungry        too many registers for 1024 threads -> cudaErrorLaunchOutOfResources
 *   reverse_no_sync        shared memory read before the other
 *                          threads wrote it (no __syncthreads) -> a wrong result on a GPU;
 *                                                                 the emulator's racecheck
 *   noimage (kernels/07_errors_noimage.cu)  built for another GPU -> cudaErrorNoKernelImageForDevice
 *
 * Host code reaches them through kernels/07_errors.h; host/07_errors.c runs
 * each case with the library's checks. Build and run:
 *   make examples && build/bin/07_errors_emu oob   (CPU emulator)
 *                    build/bin/07_errors oob       (GPU)
 */
/* RelWithDebInfo and Release builds define NDEBUG, which removes assert():
 * this kernel is about the assert, so it keeps it. */
#undef NDEBUG
#include <assert.h>
#include <cuda_runtime.h>

#include "07_errors.h"

static unsigned blocks_for(size_t n, int block)
{
    size_t b = (n + (size_t)block - 1) / (size_t)(block > 0 ? block : 1);
    return (unsigned)(b ? b : 1);
}

/* A device-side assert: a thread whose condition is false stops the kernel;
 * the GPU prints the file, line, block and thread, and every later CUDA
 * call of the process fails with cudaErrorAssert (a sticky error). */
__global__ void errors_assert_non_negative(const float *x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(x[i] >= 0.0f);
}

/* The bug of exercise 01.1: the grid has ceil(n / block) blocks, and the
 * threads of the last one past n read and write x[i] anyway. */
__global__ void errors_scale_unchecked(float *x, size_t n, float s)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    (void)n; /* the missing `if (i < n)` */
    x[i] = x[i] * s;
}

__global__ void errors_scale(float *x, size_t n, float s)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * s;
}

/* 80 values live across a loop: with the pointers and the index, more than
 * 64 registers per thread, the most 1024 threads of a block can have of an
 * SM's 65536 (NVIDIA's published limits for compute capability 7.5 to 12.x).
 * They are 80 named variables, not an array, so that every compiler keeps
 * them in registers without being told to unroll; each round of the loop
 * reads all of them, so all stay live. nvcc -Xptxas -v prints the count. */
#define SL_TEN(M, d) M(d##0) M(d##1) M(d##2) M(d##3) M(d##4) M(d##5) M(d##6) M(d##7) M(d##8) M(d##9)
#define SL_EIGHTY(M) SL_TEN(M, ) SL_TEN(M, 1) SL_TEN(M, 2) SL_TEN(M, 3) SL_TEN(M, 4) SL_TEN(M, 5) \
    SL_TEN(M, 6) SL_TEN(M, 7)
#define SL_LOAD(k) float a##k = in[(i + k) % n];
#define SL_STEP(k) a##k = a##k * carry + 1.0f; carry = a##k;
#define SL_SUM(k) sum += a##k;
__global__ void errors_register_hungry(const float *in, float *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    SL_EIGHTY(SL_LOAD)
    float carry = 1.0f, sum = 0.0f;
    for (int r = 0; r < 8; r++) {
        SL_EIGHTY(SL_STEP)
    }
    SL_EIGHTY(SL_SUM)
    out[i] = sum;
}

/* Thread t writes s[t] and then reads s[255 - t], which another thread
 * writes: without a __syncthreads() between the two, nothing makes that
 * write happen first. On a GPU the result depends on the order the warps
 * ran in; the emulator's racecheck reports the hazard. Blocks of 256. */
__global__ void errors_reverse_no_sync(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    size_t base = (size_t)blockIdx.x * 256;
    s[t] = in[base + t];
    /* the missing __syncthreads(); */
    out[base + t] = s[255 - t];
}

extern "C" cudaError_t sl_errors_launch_assert(const float *x, size_t n, int block)
{
    errors_assert_non_negative<<<blocks_for(n, block), block>>>(x, n);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_errors_launch_unchecked_scale(float *x, size_t n, float s, int block)
{
    errors_scale_unchecked<<<blocks_for(n, block), block>>>(x, n, s);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_errors_launch_scale(float *x, size_t n, float s, unsigned grid, int block)
{
    errors_scale<<<grid, block>>>(x, n, s);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_errors_launch_register_hungry(const float *in, float *out, size_t n, int block)
{
    errors_register_hungry<<<blocks_for(n, block), block>>>(in, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_errors_register_hungry_attributes(struct cudaFuncAttributes *attr)
{
    return cudaFuncGetAttributes(attr, (const void *)errors_register_hungry);
}

extern "C" cudaError_t sl_errors_launch_reverse_no_sync(const float *in, float *out, size_t n)
{
    if (n % 256 != 0) return cudaErrorInvalidValue; /* whole blocks of 256 only */
    errors_reverse_no_sync<<<blocks_for(n, 256), 256>>>(in, out);
    return cudaGetLastError();
}
