/* simtlab CPU emulator — the host's side of a launch (run_grid, cooperative
 * launches, a kernel called without <<<>>>), and the one place where the
 * runtime hands the engine its services (connect_engine).
 *
 * The engine (emu/src/engine) runs grids; what a launch means to the CUDA
 * runtime around it (its stream, the census, the last error) is here. The
 * engine calls back into the runtime only through the engine_services
 * table (engine/services.hpp) that connect_engine installs, before the
 * first launch (run_grid, run_cooperative_grid) or device allocation
 * (allocate_device, which also installs the fault handler). Every other
 * engine entry the runtime uses (engine/api.hpp) needs no service. */
#include "runtime/census.hpp"
#include "runtime/internal.hpp"

#include <simtlab_emu/cooperative.hpp>

#include <cstdio>

namespace simtlab_emu {

namespace {

bool host_memory_reachable(const void *addr)
{
    void *base = nullptr;
    std::size_t bytes = 0;
    unsigned flags = 0;
    return runtime::find_pinned(addr, &base, &bytes, &flags) || runtime::find_registered(addr, &base, &bytes);
}

constexpr engine_services runtime_services = {
    find_allocation,
    find_freed,
    runtime::for_each_allocation,
    host_memory_reachable,
    device_memory_open,
    device_memory_close,
    record_error,
    sticky_error,
    set_diagnostic,
    device_props,
    validate_stream,
};

} /* namespace */

namespace runtime {

void connect_engine()
{
    /* once per process, thread-safe; afterwards one load and a branch */
    static const bool connected = [] {
        install_services(runtime_services);
        return true;
    }();
    (void)connected;
}

void host_wait()
{
    engine_synchronize();
    census::host_wait();
}

} /* namespace runtime */

cudaError_t run_grid(const launch_site &site, dim3 grid, dim3 block, size_t dynamic_shared_bytes,
                     cudaStream_t stream, void (*body)(void *closure), void *closure, const void *kernel_addr)
{
    runtime::connect_engine();
    /* launches are synchronous: every stream is in order; the census
     * (runtime/census.cpp) counts the streams used */
    census::launch_begin(site, grid, block, stream);
    const cudaError_t result =
        engine::launch_grid(site, grid, block, dynamic_shared_bytes, body, closure, kernel_addr, false);
    census::launch_end();
    return result;
}

void report_host_call_of_kernel(const char *kernel, const char *file, int line)
{
    char text[1024];
    std::snprintf(text, sizeof text,
                  "kernel %s (defined at %s:%d) was called like a host function, without <<<>>>: "
                  "launch it with %s<<<grid, block>>>(...). It did not run (nvcc rejects such a call: "
                  "\"a __global__ function call must be configured\")",
                  kernel, file, line, kernel);
    set_diagnostic(text);
    record_error(cudaErrorInvalidConfiguration);
}

namespace coop {

cudaError_t args_missing(const launch_site &site)
{
    char text[512];
    std::snprintf(text, sizeof text,
                  "cudaLaunchCooperativeKernel of %s at %s:%d: args is NULL but the kernel has parameters "
                  "(pass an array of pointers to the argument values)",
                  site.kernel, site.file, site.line);
    set_diagnostic(text);
    return record_error(cudaErrorInvalidValue);
}

cudaError_t run_cooperative_grid(const launch_site &site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                                 cudaStream_t stream, void (*body)(void *closure), void *closure,
                                 const void *kernel_addr)
{
    runtime::connect_engine();
    if (cudaError_t err = validate_stream(stream, "cudaLaunchCooperativeKernel"))
        return record_error(err);
    return engine::launch_grid(site, grid, block, dynamic_shared_bytes, body, closure, kernel_addr, true);
}

} /* namespace coop */
} /* namespace simtlab_emu */

extern "C" cudaError_t(cudaLaunchCooperativeKernel)(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                     size_t sharedMem, cudaStream_t stream)
{
    (void)gridDim, (void)blockDim, (void)args, (void)sharedMem, (void)stream;
    char text[512];
    std::snprintf(text, sizeof text,
                  "cudaLaunchCooperativeKernel(%p, ...): the emulator launches a kernel cooperatively only where "
                  "C++ code names it, as cudaLaunchCooperativeKernel(kernel, ...) or "
                  "cudaLaunchCooperativeKernel((void *)kernel, ...); a kernel held in a void * variable has lost "
                  "its parameter types",
                  func);
    simtlab_emu::set_diagnostic(text);
    return simtlab_emu::record_error(cudaErrorNotSupported);
}
