/* simtlab CPU emulator — <host_defines.h>: the function and variable
 * qualifiers (__host__, __device__, __forceinline__, __align__ ...), for C
 * and C++; simtlab_emu/device.hpp includes it. In C++ this header then
 * brings in <cuda_runtime.h>, which nvcc includes into every .cu anyway;
 * in C, where a header shared with kernels may still spell
 * __host__ __device__, the qualifiers are all it gives. */
#if !defined(__HOST_DEFINES_H__)
#define __HOST_DEFINES_H__

#ifdef __cplusplus
/* Before the macros: libstdc++ spells an attribute __noinline__
 * (shared_ptr_base.h), which the macro below would break. */
#include <memory>
#endif

/* Every function is a host function in the emulator, so the space qualifiers
 * vanish. __device__ and __constant__ variables become ordinary globals:
 * host code reaches them through cudaMemcpyToSymbol on a GPU and directly
 * here. __managed__ memory is not emulated beyond that: a __managed__
 * variable is a plain global, visible to host and kernels alike, which is
 * what managed memory promises, without page migration. */
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
/* Plain `inline`, not always_inline: a student stepping through a kernel in
 * gdb wants to see the helper's own frame. */
#define __forceinline__ inline
/* libstdc++ spells GCC's attribute __noinline__ in its own headers
 * (__attribute__((__noinline__)) in bits/shared_ptr_base.h), which this
 * macro would turn into a syntax error: <memory> is read first, so that
 * its include guard keeps it from being read again under the macro. GCC 12
 * happened to read it earlier through other headers; GCC 13 did not. */
#ifdef __cplusplus
#include <memory>
#endif
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* __restrict__ is a GCC keyword already. */

#ifdef __cplusplus
#include <cuda_runtime.h>
#endif

#endif
