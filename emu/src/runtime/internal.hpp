/* simtlab CPU emulator — what the runtime's files (runtime/errors.cpp,
 * runtime/memory.cpp, runtime/device.cpp, runtime/stream.cpp, ...) share
 * among themselves and offer the libraries (emu/src/libs). The engine
 * includes none of this: it reaches the runtime only through the services
 * the runtime installs (engine/services.hpp, runtime/launch.cpp). */
#ifndef SIMTLAB_EMU_RUNTIME_INTERNAL_HPP
#define SIMTLAB_EMU_RUNTIME_INTERNAL_HPP

#include "common/text.hpp"
#include "engine/api.hpp"
#include "engine/services.hpp"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace simtlab_emu {

/* ---- the runtime's half of the engine's services (engine/services.hpp
 * describes each); the libraries call them directly ---------------------- */
bool find_allocation(std::uintptr_t addr, std::size_t window, allocation *out, std::ptrdiff_t *offset);
bool find_freed(std::uintptr_t addr, allocation *out, std::ptrdiff_t *offset);
void device_memory_open();
cudaError_t device_memory_close();
cudaError_t record_error(cudaError_t error);
cudaError_t sticky_error();
void set_diagnostic(const char *text);
/* The emulated device's properties (compute capability from SIMTLAB_EMU_CC,
 * default 8.0; the name says it is the emulator). */
const cudaDeviceProp &device_props();
cudaError_t validate_stream(cudaStream_t stream, const char *api);

namespace runtime {

/* Installs the engine's services (once; cheap afterwards): before the
 * first launch or device allocation (runtime/launch.cpp). */
void connect_engine();

/* A host-side wait (cudaDeviceSynchronize, cudaStreamSynchronize,
 * cudaEventSynchronize, cudaDeviceReset): engine_synchronize, then the
 * census counts it (runtime/launch.cpp). */
void host_wait();

/* engine_services::for_each_allocation (runtime/access.cpp). */
void for_each_allocation(void (*visit)(const allocation &a, void *ctx), void *ctx);

/* set_diagnostic with printf formatting. */
void diagnose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* For calls that touch the device: the sticky error, recorded again as the
 * last error, if the context is poisoned; else cudaSuccess. */
cudaError_t check_context();

/* Where a pointer lives, for copies and library calls. */
enum class region { host, device, device_guard };
struct located {
    region where;
    allocation alloc;       /* valid unless where == host */
    std::ptrdiff_t offset;  /* addr - alloc.base */
    bool managed;           /* device, from cudaMallocManaged: host code may use it too */
};
located locate(const void *ptr);

/* For a pointer found in an allocation's guard page or slack: sets a
 * diagnostic ("<what> 0x.. is 4 bytes past the end of device allocation
 * #3 ...") and returns cudaErrorInvalidValue. */
cudaError_t reject_guard(const located &l, const void *ptr, const char *what);

/* Whether ptr came from cudaMallocHost/cudaHostAlloc and is not freed. */
bool is_pinned(const void *ptr);
/* The cudaMallocHost/cudaHostAlloc block that contains ptr: its start,
 * mapped bytes and flags; false if none does. */
bool find_pinned(const void *ptr, void **base, std::size_t *bytes, unsigned *flags);

/* The cudaHostRegister range that contains ptr: its start and bytes; false
 * if none does. */
bool find_registered(const void *ptr, void **base, std::size_t *bytes);

/* Checks that [ptr, ptr+bytes) lies inside one live device allocation; on
 * failure sets a diagnostic that starts with `what` ("cudaMemset dst") and
 * returns cudaErrorInvalidValue. */
cudaError_t check_device_range(const void *ptr, std::size_t bytes, const char *what);

/* Checks that the host bytes a copy will read (write: also write) can be:
 * `width` bytes in each of height rows `pitch` apart, in each of depth
 * slices `slice_pitch` apart (a 1D copy: width = count, 1, 1). On failure
 * sets a diagnostic that starts with `what` ("cudaMemcpy dst 0x10") and
 * says which byte is unmapped or read-only, and returns
 * cudaErrorInvalidValue, instead of the copy dying of SIGSEGV. */
cudaError_t check_host_box(const void *base, std::size_t width, std::size_t height, std::size_t depth,
                           std::size_t pitch, std::size_t slice_pitch, bool write, const char *what);

/* Makes the allocations holding the given device ranges accessible for one
 * runtime-internal copy, and inaccessible again when it is destroyed (unless
 * a launch holds device memory open). Pass nullptr for an unused slot. The
 * runtime's registry lock is held for the scope's lifetime, so that no
 * allocation it opened can be freed under it. */
class device_access {
public:
    device_access(const void *a, const void *b = nullptr, const void *c = nullptr);
    ~device_access();
    device_access(const device_access &) = delete;
    device_access &operator=(const device_access &) = delete;

private:
    const void *ptrs_[3];
};

/* Validates a stream handle (0 is the legacy default stream). */
cudaError_t check_stream(cudaStream_t stream, const char *what);

/* Stream capture (runtime/graph.cpp): whether `stream` is being captured
 * into a graph, and adding work to that graph instead of running it. */
bool stream_capturing(cudaStream_t stream);
cudaError_t capture(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run,
                    cudaGraphNodeType type = cudaGraphNodeTypeKernel);
/* cudaMallocAsync / cudaFreeAsync on a capturing stream: a graph memory
 * allocation or free node (runtime/graph_memory.cpp). */
cudaError_t capture_malloc(const char *api, cudaStream_t stream, void **devPtr, std::size_t size);
cudaError_t capture_free(const char *api, cudaStream_t stream, void *devPtr);
/* cudaFree of a graph allocation: true if ptr is one (the result is then
 * in *result); false to free it as ordinary device memory. */
bool free_graph_allocation(void *ptr, cudaError_t *result);
/* cudaEventRecord / cudaStreamWaitEvent under capture: an event recorded
 * in a capturing stream carries the capture to a stream that waits on it.
 * Returns true when the record was captured (the event is not timed now). */
bool capture_event_record(cudaEvent_t event, cudaStream_t stream);
void capture_event_wait(cudaStream_t stream, cudaEvent_t event);

/* Whether addr lies in a __constant__/__device__ variable that a symbol
 * call (cudaMemcpyToSymbol, cudaGetSymbolAddress, ...) has named; if so its
 * address and size. */
bool find_symbol(std::uintptr_t addr, std::uintptr_t *base, std::size_t *size);

/* cudaMalloc and cudaMallocManaged (`managed`: the pages stay accessible
 * to host code); `api` names the call in diagnostics. Records the error. */
cudaError_t allocate_device(const char *api, void **devPtr, std::size_t size, const char *file, int line,
                            bool managed);

/* The driver API (driver_*.cpp) runs on the runtime's calls, but in CUDA a
 * driver call never changes what cudaGetLastError returns: while one of
 * these lives, the runtime's last error is kept, and it is put back when
 * it ends (a sticky error stays: it belongs to the context). */
class keep_last_error {
public:
    keep_last_error();
    ~keep_last_error();
    keep_last_error(const keep_last_error &) = delete;
    keep_last_error &operator=(const keep_last_error &) = delete;

private:
    int saved_;
};

/* Frees every device allocation (cudaDeviceReset). */
void release_all_allocations();
/* Forgets every stream and event (cudaDeviceReset). */
void release_all_streams_and_events();
/* Clears the last and the sticky error (cudaDeviceReset). */
void clear_errors();
/* Bytes in live device allocations (cudaMemGetInfo). */
std::size_t live_device_bytes();

} /* namespace runtime */
} /* namespace simtlab_emu */

#endif
