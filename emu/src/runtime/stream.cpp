/* simtlab CPU emulator — streams and events.
 *
 * The emulator executes every stream's work eagerly, in submission order,
 * on the calling host thread: a copy or a launch has finished when its call
 * returns. Streams are therefore only handles, validated so that a use of a
 * destroyed or made-up stream fails as it does on a GPU
 * (cudaErrorInvalidResourceHandle).
 *
 * Events record a host timestamp (std::chrono::steady_clock) when
 * cudaEventRecord is called, so cudaEventElapsedTime measures emulated
 * time: how long the host took to emulate the work, not how long a GPU
 * would take. Benchmarks must label such numbers as emulated.
 */
#include "runtime/internal.hpp"
#include <simtlab_emu/engine.hpp>

#include <chrono>
#include <cinttypes>
#include <mutex>
#include <new>
#include <unordered_set>

struct simtlab_emu_stream {
    unsigned flags;
};

struct simtlab_emu_event {
    unsigned flags;
    bool recorded;
    std::chrono::steady_clock::time_point when;
};

namespace simtlab_emu {
namespace {

std::mutex handle_lock; /* guards both sets */
std::unordered_set<simtlab_emu_stream *> streams;
std::unordered_set<simtlab_emu_event *> events;

cudaError_t bad_event(cudaEvent_t event, const char *api)
{
    runtime::diagnose("%s: event 0x%" PRIxPTR " is not a live event (never created, or already destroyed)", api,
                      reinterpret_cast<std::uintptr_t>(event));
    return cudaErrorInvalidResourceHandle;
}

/* The event if it is live, else nullptr with a diagnostic. Takes the lock. */
simtlab_emu_event *find_event(cudaEvent_t event, const char *api)
{
    std::lock_guard<std::mutex> hold(handle_lock);
    if (event && events.count(event))
        return event;
    bad_event(event, api);
    return nullptr;
}

} /* namespace */

cudaError_t validate_stream(cudaStream_t stream, const char *api)
{
    if (!stream || stream == reinterpret_cast<cudaStream_t>(1) || stream == reinterpret_cast<cudaStream_t>(2))
        return cudaSuccess; /* the default stream: 0, cudaStreamLegacy or cudaStreamPerThread */
    std::lock_guard<std::mutex> hold(handle_lock);
    if (streams.count(stream))
        return cudaSuccess;
    runtime::diagnose("%s: stream 0x%" PRIxPTR " is not a live stream (never created, or already destroyed)", api,
                      reinterpret_cast<std::uintptr_t>(stream));
    return cudaErrorInvalidResourceHandle;
}

namespace runtime {

cudaError_t check_stream(cudaStream_t stream, const char *what)
{
    return validate_stream(stream, what);
}

void release_all_streams_and_events()
{
    std::lock_guard<std::mutex> hold(handle_lock);
    for (simtlab_emu_stream *s : streams)
        delete s;
    for (simtlab_emu_event *e : events)
        delete e;
    streams.clear();
    events.clear();
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream) {
        runtime::diagnose("cudaStreamCreate: stream is NULL (pass the address of a cudaStream_t)");
        return record_error(cudaErrorInvalidValue);
    }
    if (flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) {
        runtime::diagnose("cudaStreamCreateWithFlags: unknown flags 0x%x", flags);
        return record_error(cudaErrorInvalidValue);
    }
    if (in_kernel() && !(flags & cudaStreamNonBlocking)) {
        runtime::diagnose("cudaStreamCreateWithFlags(stream, 0x%x) in device code: a stream made in device code "
                          "must have the flag cudaStreamNonBlocking (dynamic parallelism)", flags);
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    simtlab_emu_stream *s = new (std::nothrow) simtlab_emu_stream{flags};
    if (!s)
        return record_error(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> hold(handle_lock);
    streams.insert(s);
    *stream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    if (!stream) {
        runtime::diagnose("cudaStreamDestroy: the default stream (0) cannot be destroyed");
        return record_error(cudaErrorInvalidResourceHandle);
    }
    std::lock_guard<std::mutex> hold(handle_lock);
    if (!streams.erase(stream)) {
        runtime::diagnose("cudaStreamDestroy: stream 0x%" PRIxPTR " is not a live stream (never created, or "
                          "already destroyed)",
                          reinterpret_cast<std::uintptr_t>(stream));
        return record_error(cudaErrorInvalidResourceHandle);
    }
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    cudaError_t e = record_error(validate_stream(stream, "cudaStreamSynchronize"));
    if (e != cudaSuccess)
        return e;
    runtime::host_wait();
    return runtime::check_context();
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    cudaError_t e = record_error(validate_stream(stream, "cudaStreamGetFlags"));
    if (e == cudaSuccess && !flags) {
        runtime::diagnose("cudaStreamGetFlags: flags is NULL");
        e = record_error(cudaErrorInvalidValue);
    }
    if (e == cudaSuccess) {
        std::lock_guard<std::mutex> hold(handle_lock);
        *flags = stream ? stream->flags : cudaStreamDefault;
    }
    return e;
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    cudaError_t e = record_error(validate_stream(stream, "cudaStreamQuery"));
    if (e != cudaSuccess)
        return e;
    return runtime::check_context(); /* work is done when submitted */
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    cudaError_t e = record_error(validate_stream(stream, "cudaStreamWaitEvent"));
    if (e != cudaSuccess)
        return e;
    if (!find_event(event, "cudaStreamWaitEvent"))
        return record_error(cudaErrorInvalidResourceHandle);
    if (flags != 0) {
        runtime::diagnose("cudaStreamWaitEvent: flags 0x%x are not supported (use 0)", flags);
        return record_error(cudaErrorInvalidValue);
    }
    runtime::capture_event_wait(stream, event); /* a captured event: the stream joins the capture */
    return runtime::check_context(); /* the event's work has already run */
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event) {
        runtime::diagnose("cudaEventCreate: event is NULL (pass the address of a cudaEvent_t)");
        return record_error(cudaErrorInvalidValue);
    }
    const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | 0x04u /* cudaEventInterprocess */;
    if (flags & ~known) {
        runtime::diagnose("cudaEventCreateWithFlags: unknown flags 0x%x", flags);
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    simtlab_emu_event *ev = new (std::nothrow) simtlab_emu_event{flags, false, {}};
    if (!ev)
        return record_error(cudaErrorMemoryAllocation);
    std::lock_guard<std::mutex> hold(handle_lock);
    events.insert(ev);
    *event = ev;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    std::lock_guard<std::mutex> hold(handle_lock);
    if (!event || !events.erase(event))
        return record_error(bad_event(event, "cudaEventDestroy"));
    delete event;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    cudaError_t e = record_error(validate_stream(stream, "cudaEventRecord"));
    if (e != cudaSuccess)
        return e;
    if ((e = runtime::check_context()) != cudaSuccess)
        return e;
    if (!find_event(event, "cudaEventRecord"))
        return record_error(cudaErrorInvalidResourceHandle);
    if (runtime::capture_event_record(event, stream))
        return cudaSuccess; /* a graph node now: it orders, it does not time */
    std::lock_guard<std::mutex> hold(handle_lock);
    if (!events.count(event))
        return record_error(bad_event(event, "cudaEventRecord"));
    /* Everything submitted before has finished, so "now" is when the
     * stream reaches the event. */
    event->when = std::chrono::steady_clock::now();
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    if (!find_event(event, "cudaEventSynchronize"))
        return record_error(cudaErrorInvalidResourceHandle);
    runtime::host_wait();
    return runtime::check_context();
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    if (!find_event(event, "cudaEventQuery"))
        return record_error(cudaErrorInvalidResourceHandle);
    return runtime::check_context(); /* recorded work is always complete */
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms) {
        runtime::diagnose("cudaEventElapsedTime: ms is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(handle_lock);
    if (!start || !events.count(start))
        return record_error(bad_event(start, "cudaEventElapsedTime start"));
    if (!end || !events.count(end))
        return record_error(bad_event(end, "cudaEventElapsedTime end"));
    /* CUDA's rules: both events must have been recorded, and created with
     * timing enabled; either failure is cudaErrorInvalidResourceHandle. */
    if ((start->flags | end->flags) & cudaEventDisableTiming) {
        runtime::diagnose("cudaEventElapsedTime: %s event was created with cudaEventDisableTiming",
                          (start->flags & cudaEventDisableTiming) ? "the start" : "the end");
        return record_error(cudaErrorInvalidResourceHandle);
    }
    if (!start->recorded || !end->recorded) {
        runtime::diagnose("cudaEventElapsedTime: the %s event was never recorded (call cudaEventRecord first)",
                          !start->recorded ? "start" : "end");
        return record_error(cudaErrorInvalidResourceHandle);
    }
    std::chrono::duration<double, std::milli> elapsed = end->when - start->when;
    *ms = static_cast<float>(elapsed.count());
    return cudaSuccess;
}

} /* extern "C" */
