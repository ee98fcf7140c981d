/* Chapter 07 — a kernel with no image for your GPU.
 *
 * A CUDA binary carries, for each kernel, machine code (SASS) for the
 * architectures it was built for, and optionally PTX that the driver can
 * compile for newer ones. Machine code for sm_XY runs on a GPU of compute
 * capability X.Z with Z >= Y (same major version); PTX for compute_XY runs
 * on any capability >= X.Y. A GPU that matches neither has no kernel image:
 * the launch fails with cudaErrorNoKernelImageForDevice.
 *
 * In the CUDA build this file is compiled twice. The library's own pass
 * (CMAKE_CUDA_ARCHITECTURES, 80;90 by default) leaves it empty; the
 * second (CMakeLists.txt, target simtlab_07_wrong_arch) defines
 * SL_07_WRONG_ARCH_BUILD and compiles it for SIMTLAB_07_WRONG_ARCH only,
 * machine code and no PTX (the newest architecture nvcc knows, sm_121
 * with CUDA 13.0), so that any other GPU lacks an image of it. The
 * emulator build compiles it for the CPU like every other kernel: there is
 * always an "image" there, which is what the emulator cannot show. */
#include <cuda_runtime.h>

#include "07_errors.h"
#include "common/sl_arch_list.h"

#if defined(SIMTLAB_EMU) || defined(SL_07_WRONG_ARCH_BUILD)

__global__ void errors_noimage(float *x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = (float)i;
}

extern "C" cudaError_t sl_errors_launch_noimage(float *x, size_t n)
{
    errors_noimage<<<(unsigned)((n + 255) / 256 ? (n + 255) / 256 : 1), 256>>>(x, n);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_errors_noimage_attributes(struct cudaFuncAttributes *attr)
{
    return cudaFuncGetAttributes(attr, (const void *)errors_noimage);
}

/* This file's own list (SIMTLAB_07_WRONG_ARCH), not the library's. */
extern "C" const char *sl_errors_noimage_built_architectures(void) { return sl_file_architectures(); }

#endif
