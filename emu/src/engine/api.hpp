/* simtlab CPU emulator — what the engine (emu/src/engine: grids, fibers,
 * barriers, warps, faults) offers the layers above it: the runtime, the
 * libraries. Beside this, kernels and the public headers use
 * <simtlab_emu/engine.hpp>. What the engine needs in return is
 * engine/services.hpp. Not installed; not for kernels. */
#ifndef SIMTLAB_EMU_ENGINE_API_HPP
#define SIMTLAB_EMU_ENGINE_API_HPP

#include <simtlab_emu/engine.hpp>

#include <cuda_runtime_api.h>
#include <cstddef>

namespace simtlab_emu {

/* In a CUDA thread: that thread's own last error, which device-side
 * cudaGetLastError/cudaPeekAtLastError read and record_error writes there
 * (dynamic parallelism keeps one per thread); nullptr in host code. */
int *device_last_error();

/* Installs the process's SIGSEGV/SIGBUS handler once (idempotent). The
 * runtime calls it before handing out the first device pointer (after
 * install_services). A fault in a kernel thread becomes
 * cudaErrorIllegalAddress with a diagnostic; a fault in host code on a
 * device allocation is explained, then the default action runs (the
 * process dies as it would on a GPU machine). */
void install_fault_handler();

/* Waits for all work on all streams (launches are synchronous today, so
 * this only has to order with a launch another host thread has in
 * flight). In device code it fails the launch. */
void engine_synchronize();

/* Static shared memory a kernel used in its last launch, for
 * cudaFuncGetAttributes (0 if never launched). */
std::size_t kernel_static_shared_bytes(const void *kernel_addr);

/* cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * bytes): later launches of the kernel may ask for up to `bytes` of dynamic
 * shared memory, and static + dynamic may reach `optin_limit` (the device's
 * sharedMemPerBlockOptin). Returns cudaErrorInvalidValue when bytes is
 * negative or too large. */
cudaError_t engine_set_max_dynamic_shared(const void *kernel_addr, int bytes, std::size_t optin_limit);
/* What cudaFuncGetAttributes reports as maxDynamicSharedSizeBytes: the value
 * set above, or else CUDA's default, what is left of `per_block` (the
 * device's sharedMemPerBlock, 48 KB) after the kernel's static shared
 * memory. */
std::size_t kernel_max_dynamic_shared_bytes(const void *kernel_addr, std::size_t per_block);
/* cudaDeviceReset: every kernel's attributes back to their defaults. (Its
 * static shared memory stays: that is a fact of the code, not a setting.) */
void engine_reset_function_attributes();

namespace engine {
/* Runs a grid launched from the host, cooperative or not, to its end
 * (launches are synchronous): checks the configuration, opens device
 * memory, runs the blocks and what they launched from device code, closes
 * device memory and records the result (services: record_error).
 * run_grid and the cooperative launch (runtime/launch.cpp) call it; the
 * stream is theirs to check. */
cudaError_t launch_grid(const launch_site &site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                        void (*body)(void *closure), void *closure, const void *kernel_addr, bool cooperative);
} /* namespace engine */

} /* namespace simtlab_emu */

#endif
