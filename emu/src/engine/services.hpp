/* simtlab CPU emulator — what the engine needs from the layer above it, as
 * an interface: a table of functions (engine_services) that the runtime
 * fills in and hands over once, with install_services, before the first
 * launch or device allocation (runtime/launch.cpp, connect_engine: the one
 * place). The engine includes no runtime header and calls the runtime only
 * through this table, so dependencies run one way:
 *
 *     common <- engine (+ profile, checks) <- runtime <- libs
 *
 * (emu/tests/check_layers.py checks it at every `ctest`.) Calls through the
 * table are made per launch or on failure paths, never per thread or per
 * access. Until the runtime installs it, the table holds stubs that print
 * an internal error and fail, so a missed install is loud, never a crash.
 *
 * Not installed; not for kernels. */
#ifndef SIMTLAB_EMU_ENGINE_SERVICES_HPP
#define SIMTLAB_EMU_ENGINE_SERVICES_HPP

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>

namespace simtlab_emu {

/* One live device allocation (cudaMalloc). The runtime places each in its own
 * mapping, its end against a PROT_NONE guard page, so that a kernel's access
 * past the end faults; while no kernel runs the pages are PROT_NONE too, so
 * that a host dereference of a device pointer faults and is explained. */
struct allocation {
    std::uintptr_t base; /* what cudaMalloc returned */
    std::size_t size;    /* bytes asked for */
    const char *file;    /* where it was made, when known, else nullptr */
    int line;
    unsigned long serial; /* 1, 2, 3 ... in order of allocation */
};

struct engine_services {
    /* The allocation that contains `addr`, or else the nearest one within
     * `window` bytes, into *out; *offset is addr - out->base (negative
     * before it, >= size past its end). Returns false when none is near.
     * Async-signal safe: called from the fault handler. */
    bool (*find_allocation)(std::uintptr_t addr, std::size_t window, allocation *out, std::ptrdiff_t *offset);
    /* A freed device allocation whose mapping (guards included) holds addr
     * (a use after free). Async-signal safe, like find_allocation. */
    bool (*find_freed)(std::uintptr_t addr, allocation *out, std::ptrdiff_t *offset);
    /* Calls visit(a, ctx) for every live device allocation, under the
     * runtime's lock (visit must not call the runtime). For the SIMT
     * counters' "is this address global?" (profile/profile.cpp). */
    void (*for_each_allocation)(void (*visit)(const allocation &a, void *ctx), void *ctx);
    /* Whether addr lies in page-locked (cudaMallocHost, cudaHostAlloc) or
     * registered (cudaHostRegister) host memory, which a GPU may reach
     * (checks/checkers.cpp, atomics on host memory). */
    bool (*host_memory_reachable)(const void *addr);

    /* Makes every device allocation readable and writable (a launch
     * begins) or inaccessible again (it ends). Nested calls count. Allocations
     * end on a 16-byte boundary before the guard page, so up to 15 bytes past
     * the end do not fault: those bytes hold a canary that
     * device_memory_close() checks; if one changed it sets a diagnostic
     * naming the allocation and how many bytes past its end were written,
     * and returns cudaErrorIllegalAddress. */
    void (*device_memory_open)();
    cudaError_t (*device_memory_close)();

    /* Records the result of a runtime call or launch as CUDA does: `error`
     * becomes the last error (in device code: the thread's own, see
     * device_last_error); a sticky error (illegal address, assert, launch
     * failure, ...) also poisons the context, so that every later call
     * returns it until cudaDeviceReset. Returns `error`. */
    cudaError_t (*record_error)(cudaError_t error);
    /* The sticky error, or cudaSuccess. */
    cudaError_t (*sticky_error)();
    /* Sets the text simtlab_emu_last_diagnostic() returns and prints it to
     * stderr, prefixed "simtlab-emu: ". */
    void (*set_diagnostic)(const char *text);

    /* The emulated device's properties (common/settings.hpp: SIMTLAB_EMU_CC). */
    const cudaDeviceProp &(*device_props)();
    /* cudaSuccess if `stream` is 0 (the legacy default stream) or a live
     * handle from cudaStreamCreate*; else cudaErrorInvalidResourceHandle
     * with a diagnostic naming `api`. Does not record the error. */
    cudaError_t (*validate_stream)(cudaStream_t stream, const char *api);
};

/* Hands the engine its services (every field set). Once, before the first
 * launch or device allocation; later calls replace the table (for tests of
 * the engine alone), never while a launch runs. */
void install_services(const engine_services &services);

} /* namespace simtlab_emu */

#endif
