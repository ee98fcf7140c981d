/* simtlab CPU emulator — <cuda_profiler_api.h>: cudaProfilerStart/Stop.
 * There is no profiler to start: both succeed and do nothing (the
 * emulator's own SIMT model is not switched by them). C and C++. */
#if !defined(__CUDA_PROFILER_API_H__)
#define __CUDA_PROFILER_API_H__

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif
