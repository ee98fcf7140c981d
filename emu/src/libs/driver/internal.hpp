/* simtlab CPU emulator — what the driver API's files (libs/driver/errors.cpp,
 * libs/driver/context.cpp, libs/driver/memory.cpp) share. The driver API runs on the
 * runtime: its calls check their arguments, name themselves in messages,
 * call the runtime's, and turn its cudaError_t into a CUresult. */
#ifndef SIMTLAB_EMU_DRIVER_INTERNAL_HPP
#define SIMTLAB_EMU_DRIVER_INTERNAL_HPP

#include "runtime/internal.hpp"

#include <cuda.h>

namespace simtlab_emu {
namespace driver {

/* The CUresult of a runtime result: the same number where the driver has
 * it (the toolkit numbers the two alike), else the nearest driver error
 * (a bad pitch, symbol or copy direction is CUDA_ERROR_INVALID_VALUE; a bad
 * function is CUDA_ERROR_INVALID_HANDLE). */
CUresult result_of(cudaError_t e);

/* CUDA_SUCCESS if a context is current on this thread and not destroyed;
 * else CUDA_ERROR_INVALID_CONTEXT (none is current) or
 * CUDA_ERROR_CONTEXT_IS_DESTROYED, with a message that starts with `api`. */
CUresult need_context(const char *api);

/* The context current on this thread, or the primary context if none is
 * (what a pointer's CU_POINTER_ATTRIBUTE_CONTEXT names). */
CUcontext current_or_primary();

/* A call that needs what the emulator does not have (a PTX JIT, a module
 * image): one line on stderr naming the call and why, and
 * CUDA_ERROR_NOT_SUPPORTED. */
CUresult not_supported(const char *api, const char *what);

} /* namespace driver */
} /* namespace simtlab_emu */

#endif
