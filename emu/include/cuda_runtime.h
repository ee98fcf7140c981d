/* simtlab CPU emulator — <cuda_runtime.h>, what a CUDA source file sees.
 *
 * In C (host code) this is the runtime API and nothing more, as with the
 * real toolkit. In C++ (a kernel translation unit, rewritten by slrewrite)
 * it also brings in the device side: qualifiers, built-in variables,
 * barriers, warp operations, atomics and intrinsics
 * (simtlab_emu/device.hpp). Like nvcc, it makes printf (<cstdio>), the
 * <cmath> functions and the fixed-width integers (<cstdint>) available
 * without an include, because CUDA sources rely on that.
 *
 * Device printf needs nothing: a kernel thread is a CPU fiber, so it is
 * the C library's printf. Lines from different threads are not buffered
 * per thread as on a GPU, but each call writes its line whole.
 *
 * __CUDACC__ is deliberately not defined: code tests it to mean "compiled
 * by nvcc" and would take paths (nvcc's own headers, inline PTX) that the
 * emulator cannot. Code that needs to know tests SIMTLAB_EMU
 * (cuda_runtime_api.h).
 *
 * __CUDA_ARCH__ is defined, to the emulated architecture (800 unless
 * SIMTLAB_EMU_CUDA_ARCH says otherwise), in .cu files (kernel translation
 * units, which slrewrite marks SIMTLAB_EMU_KERNEL_TU) and only there. nvcc
 * compiles a .cu twice, a host pass without it and a device pass with it;
 * the emulator compiles once, and that one pass is the one that runs the
 * kernels, so device code guarded by `#if __CUDA_ARCH__ >= 700` (cuda-samples'
 * tensor-core and arrive/wait-barrier kernels, llm.c) is compiled, as it
 * would be for the GPU, instead of compiling empty. The price: host code of
 * a .cu under `#ifndef __CUDA_ARCH__` is dropped, and a __host__ __device__
 * function takes its device branch when the host calls it too (the
 * emulator's device built-ins work on the host, so that branch runs).
 * .c/.cpp files, which nvcc gives to the host compiler, never see it.
 * -DSIMTLAB_EMU_NO_CUDA_ARCH leaves it undefined for a .cu that needs its
 * host branches.
 */
#if !defined(__CUDA_RUNTIME_H__)
#define __CUDA_RUNTIME_H__ /* the toolkit's guard: code tests it */

#include <cuda_runtime_api.h>

#ifdef __cplusplus
#include <simtlab_emu/device.hpp>
#include <simtlab_emu/occupancy.hpp>
#include <simtlab_emu/runtime_overloads.hpp>
#endif

/* Last, so that none of the headers above sees it (see the top). */
#if defined(__cplusplus) && defined(SIMTLAB_EMU_KERNEL_TU) && !defined(SIMTLAB_EMU_NO_CUDA_ARCH) && \
    !defined(__CUDA_ARCH__)
#ifndef SIMTLAB_EMU_CUDA_ARCH
#define SIMTLAB_EMU_CUDA_ARCH 800
#endif
#define __CUDA_ARCH__ SIMTLAB_EMU_CUDA_ARCH
#endif

#endif
