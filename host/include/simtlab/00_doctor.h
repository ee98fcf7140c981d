/* simtlab — chapter 00: the environment doctor's questions about this
 * machine and this binary (examples/00_doctor.c asks them). */
#ifndef SIMTLAB_00_DOCTOR_H
#define SIMTLAB_00_DOCTOR_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Driver and runtime versions, encoded as CUDA does (13000 = 13.0). A
 * driver version of 0 means no driver is installed. */
sl_status sl_cuda_versions(int *driver, int *runtime);
/* Which image of this binary device `device` runs: *binary_version is the
 * machine code's compute capability (x10), *ptx_version the PTX's it came
 * from. A binary_version not among sl_built_architectures() means the driver
 * JIT-compiled PTX at start-up. */
sl_status sl_device_kernel_image(int device, int *binary_version, int *ptx_version);
/* The architectures this library was compiled for ("800,900": compute
 * capability x 100, from nvcc's __CUDA_ARCH_LIST__), or a note
 * that it is the emulator build. */
const char *sl_built_architectures(void);


#ifdef __cplusplus
}
#endif

#endif
