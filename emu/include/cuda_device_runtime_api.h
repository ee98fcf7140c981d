/* simtlab CPU emulator — <cuda_device_runtime_api.h>: the runtime API as device code sees it (dynamic parallelism is not emulated).
 * In the toolkit <cuda_runtime.h> includes this header; here the device
 * side lives in <cuda_runtime.h> (simtlab_emu/device*.hpp), so in C++ this
 * header forwards there, the way nvcc makes it visible in every .cu. In C
 * there is no device code, and it brings the runtime API only. */
#if !defined(__CUDA_DEVICE_RUNTIME_API_H__)
#define __CUDA_DEVICE_RUNTIME_API_H__

#include <cuda_runtime.h>

#endif
