/* simtlab kernels — the architectures nvcc compiled a kernel file for. */
#ifndef SIMTLAB_KERNELS_COMMON_SL_ARCH_LIST_H
#define SIMTLAB_KERNELS_COMMON_SL_ARCH_LIST_H

#include <cuda_runtime.h> /* in the emulator build, defines SIMTLAB_EMU */

/* __CUDA_ARCH_LIST__ expands to a comma list, hence the variadic macros. */
#define SL_ARCH_STR2(...) #__VA_ARGS__
#define SL_ARCH_STR(...) SL_ARCH_STR2(__VA_ARGS__)

/* The architectures nvcc compiled the calling file for, e.g. "800,900"
 * (compute capability x 100, from __CUDA_ARCH_LIST__, nvcc 11.5 and later),
 * or a note in the emulator build. nvcc sets the list per file, so this is
 * static: each file that calls it answers for its own compilation, and a
 * file built for other architectures than the rest of the library (chapter
 * 07's no-image kernel) says so. */
static inline const char *sl_file_architectures(void)
{
#if defined(SIMTLAB_EMU)
    return "emulator (no GPU code: kernels run on the CPU)";
#elif defined(__CUDA_ARCH_LIST__)
    return SL_ARCH_STR(__CUDA_ARCH_LIST__);
#else
    return "unknown (nvcc older than 11.5)";
#endif
}

#endif
