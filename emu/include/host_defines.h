/* simtlab CPU emulator — <host_defines.h>: the function and variable
 * qualifiers (__host__, __device__, __forceinline__, __align__ ...).
 *
 * In C++ this is <cuda_runtime.h>, which nvcc includes into every .cu
 * anyway and which defines them (simtlab_emu/device.hpp). In C, where a
 * header shared with kernels may still spell __host__ __device__, they
 * are defined here with the same meaning: nothing, or GCC's attribute. */
#if !defined(__HOST_DEFINES_H__)
#define __HOST_DEFINES_H__

#ifdef __cplusplus
#include <cuda_runtime.h>
#else
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#endif

#endif
