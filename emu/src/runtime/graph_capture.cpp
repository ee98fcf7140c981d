/* simtlab CPU emulator — stream capture: work submitted to a capturing
 * stream becomes graph nodes instead of running.
 *
 * Each capturing stream has a dependency set, the nodes its next captured
 * work depends on (at first the ones cudaStreamBeginCaptureToGraph names,
 * or none); a captured node depends on the set and becomes it. An event
 * recorded in a capturing stream keeps the recording stream's set; a
 * stream that waits on it joins the capture with that set (fork), or adds
 * it to its own (join). cudaStreamGetCaptureInfo reads the set and
 * cudaStreamUpdateCaptureDependencies changes it, which is how nodes made
 * by hand (a conditional node, say) are put into a capture.
 */
#include "runtime/graph_internal.hpp"

#include <algorithm>
#include <cinttypes>
#include <vector>

namespace simtlab_emu {

namespace detail {
std::atomic<int> streams_capturing{0};
}

namespace graph {

std::unordered_map<cudaStream_t, capture_state> capturing;
std::unordered_map<cudaGraph_t, capture_origin_info> capture_origin;
std::unordered_map<cudaEvent_t, capture_state> captured_events; /* the capture an event recorded */

namespace {
unsigned long long next_capture_id = 0;
}

/* Adds a node to the graph `stream` captures into, after the stream's
 * last captured work; nullptr if the stream is not capturing. */
cudaGraphNode_t capture_add(cudaStream_t stream, cudaGraphNodeType type)
{
    auto it = capturing.find(stream);
    if (it == capturing.end())
        return nullptr;
    capture_state &c = it->second;
    cudaGraphNode_t n = add_node(c.graph, type, c.deps.data(), c.deps.size());
    c.deps.assign(1, n);
    return n;
}

} /* namespace graph */

using graph::graph_lock;

namespace detail {

bool stream_is_capturing(cudaStream_t stream)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    return graph::capturing.count(stream) != 0;
}

void capture_launch(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run)
{
    (void)runtime::capture(stream, std::move(run), cudaGraphNodeTypeKernel);
}

cudaError_t capture_launch_copy(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem,
                                cudaStream_t stream, void (*thread)(void *), const void *call, call_clone clone,
                                call_destroy destroy, const void *kernel_addr)
{
    std::shared_ptr<void> held(clone(call), destroy);
    capture_launch(stream, [site, grid, block, shmem, thread, held, kernel_addr](cudaStream_t on) {
        return run_grid(site, grid, block, shmem, on, thread, held.get(), kernel_addr);
    });
    return cudaSuccess;
}

} /* namespace detail */

namespace runtime {

bool stream_capturing(cudaStream_t stream)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return false;
    return detail::stream_is_capturing(stream);
}

cudaError_t capture(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run, cudaGraphNodeType type)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaGraphNode_t n = graph::capture_add(stream, type);
    if (!n) {
        diagnose("internal: stream 0x%" PRIxPTR " is not capturing", reinterpret_cast<std::uintptr_t>(stream));
        return cudaErrorUnknown;
    }
    n->run = std::move(run);
    return cudaSuccess;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return false;
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = graph::capturing.find(stream);
    if (it == graph::capturing.end()) {
        graph::captured_events.erase(event);
        return false;
    }
    graph::captured_events[event] = it->second;
    return true;
}

void capture_event_wait(cudaStream_t stream, cudaEvent_t event)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return;
    std::lock_guard<std::mutex> hold(graph_lock);
    auto ev = graph::captured_events.find(event);
    if (ev == graph::captured_events.end() || !graph::capture_origin.count(ev->second.graph) || !stream)
        return;
    auto it = graph::capturing.find(stream);
    if (it == graph::capturing.end()) {
        graph::capturing[stream] = ev->second; /* the waiting stream joins the capture */
        detail::streams_capturing.fetch_add(1, std::memory_order_relaxed);
    } else if (it->second.graph == ev->second.graph) {
        for (cudaGraphNode_t d : ev->second.deps) /* a join: it also waits for the event's work */
            if (std::find(it->second.deps.begin(), it->second.deps.end(), d) == it->second.deps.end())
                it->second.deps.push_back(d);
    }
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using graph::live_graph;

extern "C" {

/* ---- stream capture ------------------------------------------------------------ */

static cudaError_t begin_capture(const char *api, cudaStream_t stream, cudaGraph_t into,
                                 const cudaGraphNode_t *deps, std::size_t ndeps, enum cudaStreamCaptureMode mode)
{
    cudaError_t e = record_error(runtime::check_stream(stream, api));
    if (e != cudaSuccess)
        return e;
    if (!stream) {
        runtime::diagnose("%s: the legacy default stream (0) cannot be captured; create a stream", api);
        return record_error(cudaErrorStreamCaptureUnsupported);
    }
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) {
        runtime::diagnose("%s: mode %d is not a cudaStreamCaptureMode", api, static_cast<int>(mode));
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    if (graph::capturing.count(stream)) {
        runtime::diagnose("%s: the stream is already capturing", api);
        return record_error(cudaErrorIllegalState);
    }
    if (into) {
        if (!live_graph(into) || (ndeps && !deps)) {
            runtime::diagnose("%s: %s", api, !live_graph(into) ? "graph is not a live graph"
                                                              : "dependencies is NULL but numDependencies is not 0");
            return record_error(cudaErrorInvalidValue);
        }
        if (graph::capture_origin.count(into)) {
            runtime::diagnose("%s: another stream is already capturing into this graph", api);
            return record_error(cudaErrorIllegalState);
        }
        for (std::size_t i = 0; i < ndeps; ++i)
            if (!deps[i] || deps[i]->graph != into) {
                runtime::diagnose("%s: dependencies[%zu] is not a node of graph", api, i);
                return record_error(cudaErrorInvalidValue);
            }
    }
    cudaGraph_t graph = into ? into : graph::new_graph();
    graph::capturing[stream] = graph::capture_state{graph, std::vector<cudaGraphNode_t>(deps, deps + ndeps),
                                                    ++graph::next_capture_id};
    graph::capture_origin[graph] = graph::capture_origin_info{stream, into != nullptr};
    detail::streams_capturing.fetch_add(1, std::memory_order_relaxed);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    return begin_capture("cudaStreamBeginCapture", stream, nullptr, nullptr, 0, mode);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                          const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                          enum cudaStreamCaptureMode mode)
{
    (void)dependencyData; /* only default edges exist in the emulator */
    if (!graph) {
        runtime::diagnose("cudaStreamBeginCaptureToGraph: graph is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    return begin_capture("cudaStreamBeginCaptureToGraph", stream, graph, dependencies, numDependencies, mode);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = graph::capturing.find(stream);
    if (it == graph::capturing.end()) {
        runtime::diagnose("cudaStreamEndCapture: the stream is not capturing (call cudaStreamBeginCapture first)");
        return record_error(cudaErrorIllegalState);
    }
    cudaGraph_t graph = it->second.graph;
    const graph::capture_origin_info origin = graph::capture_origin[graph];
    if (origin.stream != stream) {
        runtime::diagnose("cudaStreamEndCapture: capture must end on the stream where it began");
        return record_error(cudaErrorStreamCaptureUnmatched);
    }
    if (!pGraph && !origin.into_existing) {
        runtime::diagnose("cudaStreamEndCapture: pGraph is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    for (auto s = graph::capturing.begin(); s != graph::capturing.end();) {
        if (s->second.graph == graph) {
            s = graph::capturing.erase(s);
            detail::streams_capturing.fetch_sub(1, std::memory_order_relaxed);
        } else {
            ++s;
        }
    }
    for (auto ev = graph::captured_events.begin(); ev != graph::captured_events.end();)
        ev = ev->second.graph == graph ? graph::captured_events.erase(ev) : std::next(ev);
    graph::capture_origin.erase(graph);
    if (pGraph)
        *pGraph = graph;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaStreamIsCapturing"));
    if (e != cudaSuccess)
        return e;
    if (!pCaptureStatus) {
        runtime::diagnose("cudaStreamIsCapturing: pCaptureStatus is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    *pCaptureStatus = runtime::stream_capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
                                     size_t *numDependencies_out)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaStreamGetCaptureInfo"));
    if (e != cudaSuccess)
        return e;
    if (!captureStatus_out) {
        runtime::diagnose("cudaStreamGetCaptureInfo: captureStatus_out is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    /* Edge data: every edge is a default one; the array lives as long as
     * the thread, as CUDA's lives until the next call on the stream. */
    thread_local std::vector<cudaGraphEdgeData> edges;
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = graph::capturing.find(stream);
    if (it == graph::capturing.end()) {
        *captureStatus_out = cudaStreamCaptureStatusNone;
        return cudaSuccess;
    }
    const graph::capture_state &c = it->second;
    *captureStatus_out = cudaStreamCaptureStatusActive;
    if (id_out)
        *id_out = c.id;
    if (graph_out)
        *graph_out = c.graph;
    if (dependencies_out)
        *dependencies_out = c.deps.data();
    if (edgeData_out) {
        edges.assign(c.deps.size(), cudaGraphEdgeData{});
        *edgeData_out = edges.data();
    }
    if (numDependencies_out)
        *numDependencies_out = c.deps.size();
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                        unsigned long long *id_out, cudaGraph_t *graph_out,
                                        const cudaGraphNode_t **dependencies_out,
                                        const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out);
}

cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                        unsigned long long *id_out, cudaGraph_t *graph_out,
                                        const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
    return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr,
                                    numDependencies_out);
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                unsigned int flags)
{
    (void)dependencyData;
    const char *api = "cudaStreamUpdateCaptureDependencies";
    cudaError_t e = record_error(runtime::check_stream(stream, api));
    if (e != cudaSuccess)
        return e;
    if ((numDependencies && !dependencies) ||
        (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)) {
        runtime::diagnose("%s: %s", api, numDependencies && !dependencies
                                             ? "dependencies is NULL but numDependencies is not 0"
                                             : "flags must be cudaStreamAddCaptureDependencies or "
                                               "cudaStreamSetCaptureDependencies");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = graph::capturing.find(stream);
    if (it == graph::capturing.end()) {
        runtime::diagnose("%s: the stream is not capturing", api);
        return record_error(cudaErrorIllegalState);
    }
    graph::capture_state &c = it->second;
    for (size_t i = 0; i < numDependencies; ++i)
        if (!dependencies[i] || dependencies[i]->graph != c.graph || !graph::live_node(dependencies[i])) {
            runtime::diagnose("%s: dependencies[%zu] is not a node of the graph being captured", api, i);
            return record_error(cudaErrorInvalidValue);
        }
    if (flags == cudaStreamSetCaptureDependencies)
        c.deps.clear();
    for (size_t i = 0; i < numDependencies; ++i)
        if (std::find(c.deps.begin(), c.deps.end(), dependencies[i]) == c.deps.end())
            c.deps.push_back(dependencies[i]);
    return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                   const cudaGraphEdgeData *dependencyData,
                                                   size_t numDependencies, unsigned int flags)
{
    return cudaStreamUpdateCaptureDependencies(stream, dependencies, dependencyData, numDependencies, flags);
}

} /* extern "C" */
