/* Chapter 00 — environment doctor: what this binary carries for the GPU. */
#ifndef SIMTLAB_KERNELS_00_DOCTOR_H
#define SIMTLAB_KERNELS_00_DOCTOR_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cudaFuncGetAttributes of a trivial kernel on the current device: its
 * binaryVersion is the machine code the driver picked (or JIT-compiled from
 * PTX), its ptxVersion the PTX it was built from. */
cudaError_t sl_doctor_probe_attributes(struct cudaFuncAttributes *attr);
/* The architectures nvcc compiled for, e.g. "800,900" (sm_80 and sm_90), or a
 * note that this is the emulator build. */
const char *sl_doctor_built_architectures(void);

#ifdef __cplusplus
}
#endif

#endif
