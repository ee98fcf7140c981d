/* Chapter 00 — environment doctor.
 *
 * One trivial kernel, so the doctor can ask the driver which of this binary's
 * images it would run on each device (cudaFuncGetAttributes), and the list of
 * architectures nvcc built, from __CUDA_ARCH_LIST__ (nvcc 11.5 and later). */
#include <cuda_runtime.h>

#include "00_doctor.h"

__global__ void doctor_probe(int *out)
{
    if (out) *out = 1;
}

extern "C" cudaError_t sl_doctor_probe_attributes(struct cudaFuncAttributes *attr)
{
    return cudaFuncGetAttributes(attr, (const void *)doctor_probe);
}

/* __CUDA_ARCH_LIST__ expands to a comma list, hence the variadic macros. */
#define SL_STR2(...) #__VA_ARGS__
#define SL_STR(...) SL_STR2(__VA_ARGS__)

extern "C" const char *sl_doctor_built_architectures(void)
{
#if defined(SIMTLAB_EMU)
    return "emulator (no GPU code: kernels run on the CPU)";
#elif defined(__CUDA_ARCH_LIST__)
    /* e.g. "800,900": compute capability times 100 */
    return SL_STR(__CUDA_ARCH_LIST__);
#else
    return "unknown (nvcc older than 11.5)";
#endif
}
