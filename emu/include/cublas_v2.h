/* simtlab CPU emulator — <cublas_v2.h>, the header host code includes for
 * cuBLAS. As in the CUDA toolkit it brings in the runtime API and the
 * cuBLAS API; see cublas_api.h for what the emulator provides. */
#ifndef SIMTLAB_EMU_CUBLAS_V2_H
#define SIMTLAB_EMU_CUBLAS_V2_H
#define CUBLAS_V2_H_ /* the toolkit's guard */

#include <cuda_runtime_api.h>
#include <cublas_api.h>

#endif
