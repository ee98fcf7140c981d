/* simtlab CPU emulator — <device_atomic_functions.h>: the atomic functions.
 * In the toolkit <cuda_runtime.h> includes this header; here the device
 * side lives in <cuda_runtime.h> (simtlab_emu/device*.hpp), so in C++ this
 * header forwards there, the way nvcc makes it visible in every .cu. In C
 * there is no device code, and it brings the runtime API only. */
#if !defined(__DEVICE_ATOMIC_FUNCTIONS_H__)
#define __DEVICE_ATOMIC_FUNCTIONS_H__

#include <cuda_runtime.h>

#endif
