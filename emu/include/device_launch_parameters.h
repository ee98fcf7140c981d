/* simtlab CPU emulator — <device_launch_parameters.h>.
 *
 * In the CUDA toolkit this header declares threadIdx, blockIdx, blockDim,
 * gridDim and warpSize; sources include it to please editors. Here the
 * built-ins live with the rest of the device side, so it forwards there. */
#if !defined(__DEVICE_LAUNCH_PARAMETERS_H__)
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include <cuda_runtime.h>

#endif
