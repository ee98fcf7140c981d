/* simtlab CPU emulator — what a program that uses Thrust gets from the
 * emulator (included by the emulator's <thrust/detail/config.h>).
 *
 * Thrust's CPP device system runs every algorithm on the host, where CUDA's
 * runs kernels; so the host must be able to read and write device memory:
 * a device_vector's storage (cudaMalloc'ed, see
 * thrust/system/cpp/memory_resource.h) and the program's own cudaMalloc'ed
 * buffers wrapped in thrust::device_ptr. The first Thrust header a
 * translation unit includes therefore asks the runtime, during static
 * initialisation, to keep device allocations open to host code for the
 * rest of the run (simtlab_emu_thrust_host_access). What is lost: in such a
 * program a host dereference of a device pointer is not caught; kernels'
 * overflows still are (guard pages, canaries). */
#ifndef SIMTLAB_EMU_THRUST_HPP
#define SIMTLAB_EMU_THRUST_HPP

#include <cuda_runtime_api.h>
/* thrust::system_error, thrust::cuda_category...: with the CUDA system,
 * nvcc builds see them through almost every Thrust header (cuda-samples'
 * segmentationTreeThrust catches thrust::system_error having included none
 * that declares it); the CPP system's headers do not include them. */
#include <thrust/system_error.h>

extern "C" int simtlab_emu_thrust_host_access(void);

namespace simtlab_emu {
namespace thrust_support {
/* Once per program (an inline variable), before the translation unit's own
 * globals, which may hold device_vectors. */
inline const int host_access = simtlab_emu_thrust_host_access();
} // namespace thrust_support
} // namespace simtlab_emu

#endif
