/* Chapter 00 — environment doctor.
 *
 * One trivial kernel, so the doctor can ask the driver which of this binary's
 * images it would run on each device (cudaFuncGetAttributes), and the list of
 * architectures nvcc built, from __CUDA_ARCH_LIST__ (nvcc 11.5 and later). */
#include <cuda_runtime.h>

#include "00_doctor.h"
#include "common/sl_arch_list.h"

__global__ void doctor_probe(int *out)
{
    if (out) *out = 1;
}

extern "C" cudaError_t sl_doctor_probe_attributes(struct cudaFuncAttributes *attr)
{
    return cudaFuncGetAttributes(attr, (const void *)doctor_probe);
}

/* The library's kernels are built in one nvcc configuration
 * (CMAKE_CUDA_ARCHITECTURES): this file's list is theirs. */
extern "C" const char *sl_doctor_built_architectures(void) { return sl_file_architectures(); }
