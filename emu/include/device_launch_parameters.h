/* simtlab CPU emulator — <device_launch_parameters.h>.
 *
 * In the CUDA toolkit this header declares threadIdx, blockIdx, blockDim,
 * gridDim and warpSize; sources include it to please editors. Here the
 * built-ins live with the rest of the device side, so it forwards there. */
#ifndef SIMTLAB_EMU_DEVICE_LAUNCH_PARAMETERS_H
#define SIMTLAB_EMU_DEVICE_LAUNCH_PARAMETERS_H

#include <cuda_runtime.h>

#endif
