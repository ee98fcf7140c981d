/* simtlab CPU emulator — error codes, the last and the sticky error, and the
 * diagnostic text.
 *
 * CUDA keeps two kinds of error state, and so do we:
 *   - the last error: what cudaGetLastError returns and clears. Every runtime
 *     call that fails, and every launch, records its result here.
 *   - the sticky error: a fault in a kernel (illegal address, device assert,
 *     ...) corrupts the CUDA context. From then on every call that touches
 *     the device returns that error, and cudaGetLastError keeps returning it,
 *     until cudaDeviceReset. Configuration errors (too many threads, too much
 *     shared memory, out of resources) are not sticky: the launch never ran.
 *
 * CUDA keeps the last error per host thread; the emulator keeps one for the
 * process, because the engine may record a launch's result from a worker
 * thread. simtlab's host code uses one host thread, where the two agree.
 */
#include "runtime/internal.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace simtlab_emu {
namespace {

std::atomic<int> last_error{cudaSuccess};
std::atomic<int> sticky{cudaSuccess};

/* The diagnostic: a fixed buffer, so that setting it allocates nothing. */
constexpr std::size_t diagnostic_capacity = 8192;
char diagnostic_text[diagnostic_capacity];
std::mutex diagnostic_lock;

struct error_info {
    cudaError_t code;
    const char *name;
    const char *text; /* as the CUDA runtime's cudaGetErrorString says it */
};

const error_info error_table[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorLaunchMaxDepthExceeded, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {cudaErrorSyncDepthExceeded, "cudaErrorSyncDepthExceeded", "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"},
    {cudaErrorLaunchPendingCountExceeded, "cudaErrorLaunchPendingCountExceeded", "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorHostMemoryAlreadyRegistered, "cudaErrorHostMemoryAlreadyRegistered",
     "part or all of the requested memory range is already mapped"},
    {cudaErrorHostMemoryNotRegistered, "cudaErrorHostMemoryNotRegistered",
     "pointer does not correspond to a registered memory region"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorNotPermitted, "cudaErrorNotPermitted", "operation not permitted"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
     "the capture was not initiated in this stream"},
    {cudaErrorStreamCaptureImplicit, "cudaErrorStreamCaptureImplicit",
     "operation would make the legacy stream depend on a capturing blocking stream"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated constraints specific to "
     "instantiated graph update"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const error_info *find_error(cudaError_t code)
{
    for (const error_info &e : error_table)
        if (e.code == code)
            return &e;
    return nullptr;
}

/* The errors after which CUDA considers the context unusable. */
bool is_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorAssert:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorLaunchTimeout:
        return true;
    default:
        return false;
    }
}

/* write(2) until done: stdio is not async-signal-safe, and the engine's
 * fault handler may set a diagnostic. */
void write_all(int fd, const char *text, std::size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, text, n);
        if (w <= 0)
            return;
        text += w;
        n -= static_cast<std::size_t>(w);
    }
}

} /* namespace */

cudaError_t record_error(cudaError_t error)
{
    if (error == cudaSuccess)
        return error;
    if (!is_sticky(error)) {
        if (int *own = device_last_error()) { /* a runtime call or a launch in device code */
            *own = error;
            return error;
        }
    }
    last_error.store(error);
    if (is_sticky(error)) {
        int expected = cudaSuccess;
        sticky.compare_exchange_strong(expected, error); /* the first one stays */
    }
    return error;
}

cudaError_t sticky_error()
{
    return static_cast<cudaError_t>(sticky.load());
}

void set_diagnostic(const char *text)
{
    if (!text)
        text = "";
    /* try_lock: if the fault handler interrupted a thread that holds the
     * lock, waiting would deadlock; the text is still printed. */
    if (diagnostic_lock.try_lock()) {
        const int needed = std::snprintf(diagnostic_text, diagnostic_capacity, "%s", text);
        mark_if_cut(diagnostic_text, diagnostic_capacity, needed);
        diagnostic_lock.unlock();
    }
    write_all(STDERR_FILENO, "simtlab-emu: ", 13);
    write_all(STDERR_FILENO, text, std::strlen(text));
    write_all(STDERR_FILENO, "\n", 1);
}

namespace runtime {

void diagnose(const char *fmt, ...)
{
    char text[diagnostic_capacity];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_diagnostic(text);
}

cudaError_t check_context()
{
    cudaError_t s = sticky_error();
    return s == cudaSuccess ? s : record_error(s);
}

keep_last_error::keep_last_error() : saved_(last_error.load()) {}

keep_last_error::~keep_last_error()
{
    last_error.store(saved_);
}

void clear_errors()
{
    last_error.store(cudaSuccess);
    sticky.store(cudaSuccess);
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaGetLastError(void)
{
    if (int *own = device_last_error()) { /* device code: the thread's own */
        const int e = *own;
        *own = cudaSuccess;
        return static_cast<cudaError_t>(e);
    }
    cudaError_t s = sticky_error();
    if (s != cudaSuccess)
        return s; /* a poisoned context keeps reporting it */
    return static_cast<cudaError_t>(last_error.exchange(cudaSuccess));
}

cudaError_t cudaPeekAtLastError(void)
{
    if (int *own = device_last_error())
        return static_cast<cudaError_t>(*own);
    cudaError_t s = sticky_error();
    return s != cudaSuccess ? s : static_cast<cudaError_t>(last_error.load());
}

const char *cudaGetErrorName(cudaError_t error)
{
    const error_info *e = find_error(error);
    return e ? e->name : "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error)
{
    const error_info *e = find_error(error);
    return e ? e->text : "unrecognized error code";
}

const char *simtlab_emu_last_diagnostic(void)
{
    return diagnostic_text;
}

void simtlab_emu_clear_diagnostic(void)
{
    std::lock_guard<std::mutex> hold(diagnostic_lock);
    diagnostic_text[0] = '\0';
}

} /* extern "C" */
