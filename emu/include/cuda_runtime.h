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
 * __CUDACC__ and __CUDA_ARCH__ are deliberately not defined: code tests
 * them to mean "compiled by nvcc" / "device pass", and both would select
 * code paths (inline PTX, host-only branches) that the emulator cannot
 * take. Kernels that need to know test SIMTLAB_EMU (cuda_runtime_api.h).
 */
#if !defined(__CUDA_RUNTIME_H__)
#define __CUDA_RUNTIME_H__ /* the toolkit's guard: code tests it */

#include <cuda_runtime_api.h>

#ifdef __cplusplus
#include <simtlab_emu/device.hpp>
#include <simtlab_emu/occupancy.hpp>
#include <simtlab_emu/runtime_overloads.hpp>
#endif

#endif
