/* simtlab CPU emulator — host functions in streams, kernels launched by
 * address, and CUDA graphs.
 *
 * Streams run eagerly (runtime_stream.cpp), so a host function or callback
 * runs when it is enqueued: after everything submitted to its stream
 * before it, before anything after it, which is stream order.
 *
 * A graph is a list of nodes in the order they were added, each a function
 * that performs one piece of work on a stream. A graph launch runs them in
 * that order; any order that respects the dependencies would be right, and
 * the order of addition does (a node can only depend on nodes added before
 * it). Stream capture records what would have been submitted to a
 * capturing stream (launches, copies, memsets, host functions) as nodes;
 * an event recorded in a capturing stream carries the capture over to a
 * stream that waits on it, so fork-join capture across streams works. The
 * arguments of a captured launch or copy are checked when it is captured
 * and again when it runs.
 *
 * Not emulated: memcpy nodes added by hand (cudaGraphAddMemcpyNode), child
 * graphs, graph updates (cudaGraphExecUpdate), conditional nodes.
 */
#include "runtime_internal.hpp"

#include <simtlab_emu/launch.hpp>

#include <cinttypes>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

struct simtlab_emu_graph_node {
    cudaGraphNodeType type;
    std::function<cudaError_t(cudaStream_t)> run; /* empty for an empty node */
};

struct simtlab_emu_graph {
    std::vector<std::unique_ptr<simtlab_emu_graph_node>> nodes;
};

struct simtlab_emu_graph_exec {
    std::vector<std::function<cudaError_t(cudaStream_t)>> steps;
};

namespace simtlab_emu {

namespace detail {
std::atomic<int> streams_capturing{0};
}

namespace {

std::mutex graph_lock; /* guards everything below */
std::unordered_map<cudaStream_t, cudaGraph_t> capturing;  /* stream -> the graph it captures into */
std::unordered_map<cudaGraph_t, cudaStream_t> capture_origin;
std::unordered_map<cudaEvent_t, cudaGraph_t> captured_events;
std::unordered_map<cudaGraph_t, bool> graphs;             /* live graphs */
std::unordered_map<cudaGraphExec_t, bool> execs;          /* live executable graphs */
/* Kernels by address. slrewrite registers every kernel during the static
 * initialisation of the program's own files, which may come before this
 * file's: the table is made on first use and never destroyed. */
std::unordered_map<const void *, detail::args_binder> &kernel_table()
{
    static auto *table = new std::unordered_map<const void *, detail::args_binder>;
    return *table;
}

cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, std::function<cudaError_t(cudaStream_t)> run)
{
    graph->nodes.push_back(std::unique_ptr<simtlab_emu_graph_node>(new simtlab_emu_graph_node{type, std::move(run)}));
    return graph->nodes.back().get();
}

bool live_graph(cudaGraph_t graph) { return graph && graphs.count(graph); }

/* Common checks of the cudaGraphAdd*Node calls (under graph_lock). */
cudaError_t check_add(const char *api, cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                      size_t ndeps)
{
    if (!node || !live_graph(graph) || (ndeps && !deps)) {
        runtime::diagnose("%s: %s", api,
                          !node ? "pGraphNode is NULL"
                          : !live_graph(graph) ? "graph is not a live graph (cudaGraphCreate)"
                                               : "pDependencies is NULL but numDependencies is not 0");
        return cudaErrorInvalidValue;
    }
    for (size_t i = 0; i < ndeps; ++i) {
        bool found = false;
        for (const auto &n : graph->nodes)
            found = found || n.get() == deps[i];
        if (!found) {
            runtime::diagnose("%s: dependency %zu is not a node of this graph", api, i);
            return cudaErrorInvalidValue;
        }
    }
    return cudaSuccess;
}

} /* namespace */

namespace detail {

bool stream_is_capturing(cudaStream_t stream)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    return capturing.count(stream) != 0;
}

void capture_launch(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run)
{
    (void)runtime::capture(stream, std::move(run));
}

void register_kernel(const void *kernel, args_binder bind)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    kernel_table()[kernel] = bind;
}

cudaError_t launch_args_missing(const launch_site &site)
{
    runtime::diagnose("%s at %s:%d: args is NULL but the kernel has parameters (pass an array of pointers to "
                      "the argument values)",
                      site.kernel, site.file, site.line);
    return record_error(cudaErrorInvalidValue);
}

} /* namespace detail */

namespace runtime {

bool stream_capturing(cudaStream_t stream)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return false;
    return detail::stream_is_capturing(stream);
}

cudaError_t capture(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = capturing.find(stream);
    if (it == capturing.end()) {
        diagnose("internal: stream 0x%" PRIxPTR " is not capturing", reinterpret_cast<std::uintptr_t>(stream));
        return cudaErrorUnknown;
    }
    add_node(it->second, cudaGraphNodeTypeKernel, std::move(run));
    return cudaSuccess;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return false;
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = capturing.find(stream);
    if (it == capturing.end()) {
        captured_events.erase(event);
        return false;
    }
    captured_events[event] = it->second;
    return true;
}

void capture_event_wait(cudaStream_t stream, cudaEvent_t event)
{
    if (detail::streams_capturing.load(std::memory_order_relaxed) == 0)
        return;
    std::lock_guard<std::mutex> hold(graph_lock);
    auto ev = captured_events.find(event);
    if (ev == captured_events.end() || !capture_origin.count(ev->second) || !stream)
        return;
    if (!capturing.count(stream)) {
        capturing[stream] = ev->second; /* the waiting stream joins the capture */
        detail::streams_capturing.fetch_add(1, std::memory_order_relaxed);
    }
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

/* ---- host functions ---------------------------------------------------------- */

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaLaunchHostFunc"));
    if (e != cudaSuccess)
        return e;
    if (!fn) {
        runtime::diagnose("cudaLaunchHostFunc: fn is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    if ((e = runtime::check_context()) != cudaSuccess)
        return e;
    if (runtime::stream_capturing(stream))
        return record_error(runtime::capture(stream, [fn, userData](cudaStream_t) {
            fn(userData);
            return cudaSuccess;
        }));
    fn(userData); /* everything before it in the stream has finished */
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaStreamAddCallback"));
    if (e != cudaSuccess)
        return e;
    if (!callback || flags != 0) {
        runtime::diagnose("cudaStreamAddCallback: %s", !callback ? "callback is NULL" : "flags must be 0");
        return record_error(cudaErrorInvalidValue);
    }
    if (runtime::stream_capturing(stream)) {
        runtime::diagnose("cudaStreamAddCallback: not allowed in a capturing stream (use cudaLaunchHostFunc)");
        return record_error(cudaErrorStreamCaptureUnsupported);
    }
    /* CUDA hands the callback the stream's error status: the sticky error. */
    callback(stream, sticky_error(), userData);
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    (void)priority; /* CUDA clamps any priority into the range; one host thread runs every stream */
    return cudaStreamCreateWithFlags(stream, flags);
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaStreamGetPriority"));
    if (e == cudaSuccess && !priority) {
        runtime::diagnose("cudaStreamGetPriority: priority is NULL");
        e = record_error(cudaErrorInvalidValue);
    }
    if (e == cudaSuccess)
        *priority = 0;
    return e;
}

/* ---- kernels by address ------------------------------------------------------- */

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream)
{
    detail::args_binder bind = nullptr;
    {
        std::lock_guard<std::mutex> hold(graph_lock);
        auto it = kernel_table().find(func);
        if (it != kernel_table().end())
            bind = it->second;
    }
    if (!bind) {
        runtime::diagnose("cudaLaunchKernel(0x%" PRIxPTR "): the emulator does not know this kernel's parameter "
                          "types; pass the kernel itself, not (void *)kernel, so that the C++ overload is used",
                          reinterpret_cast<std::uintptr_t>(func));
        return record_error(cudaErrorNotSupported);
    }
    launch_site site{"cudaLaunchKernel", "?", 0};
    if (!args)
        return detail::launch_args_missing(site);
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaLaunchKernel"));
    if (e != cudaSuccess)
        return e;
    detail::bound_launch run = bind(site, func, gridDim, blockDim, sharedMem, args);
    if (runtime::stream_capturing(stream))
        return record_error(runtime::capture(stream, run));
    return run(stream);
}

/* ---- stream capture ------------------------------------------------------------ */

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaStreamBeginCapture"));
    if (e != cudaSuccess)
        return e;
    if (!stream) {
        runtime::diagnose("cudaStreamBeginCapture: the legacy default stream (0) cannot be captured; create a "
                          "stream");
        return record_error(cudaErrorStreamCaptureUnsupported);
    }
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) {
        runtime::diagnose("cudaStreamBeginCapture: mode %d is not a cudaStreamCaptureMode", static_cast<int>(mode));
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    if (capturing.count(stream)) {
        runtime::diagnose("cudaStreamBeginCapture: the stream is already capturing");
        return record_error(cudaErrorIllegalState);
    }
    cudaGraph_t graph = new simtlab_emu_graph;
    graphs[graph] = true;
    capturing[stream] = graph;
    capture_origin[graph] = stream;
    detail::streams_capturing.fetch_add(1, std::memory_order_relaxed);
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    if (!pGraph) {
        runtime::diagnose("cudaStreamEndCapture: pGraph is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    auto it = capturing.find(stream);
    if (it == capturing.end()) {
        runtime::diagnose("cudaStreamEndCapture: the stream is not capturing (call cudaStreamBeginCapture first)");
        return record_error(cudaErrorIllegalState);
    }
    cudaGraph_t graph = it->second;
    if (capture_origin[graph] != stream) {
        runtime::diagnose("cudaStreamEndCapture: capture must end on the stream where it began");
        return record_error(cudaErrorStreamCaptureUnmatched);
    }
    for (auto s = capturing.begin(); s != capturing.end();) {
        if (s->second == graph) {
            s = capturing.erase(s);
            detail::streams_capturing.fetch_sub(1, std::memory_order_relaxed);
        } else {
            ++s;
        }
    }
    for (auto ev = captured_events.begin(); ev != captured_events.end();)
        ev = ev->second == graph ? captured_events.erase(ev) : std::next(ev);
    capture_origin.erase(graph);
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

/* ---- graphs ---------------------------------------------------------------------- */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph || flags != 0) {
        runtime::diagnose("cudaGraphCreate: %s", !pGraph ? "pGraph is NULL" : "flags must be 0");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    *pGraph = new simtlab_emu_graph;
    graphs[*pGraph] = true;
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || capture_origin.count(graph)) {
        runtime::diagnose("cudaGraphDestroy: not a live graph%s",
                          live_graph(graph) ? " (it is still being captured)" : "");
        return record_error(cudaErrorInvalidValue);
    }
    graphs.erase(graph);
    delete graph;
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!pGraphClone || !live_graph(originalGraph)) {
        runtime::diagnose("cudaGraphClone: %s", !pGraphClone ? "pGraphClone is NULL" : "not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    cudaGraph_t clone = new simtlab_emu_graph;
    for (const auto &n : originalGraph->nodes)
        add_node(clone, n->type, n->run);
    graphs[clone] = true;
    *pGraphClone = clone;
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || !numNodes) {
        runtime::diagnose("cudaGraphGetNodes: %s", !numNodes ? "numNodes is NULL" : "not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    if (!nodes) {
        *numNodes = graph->nodes.size();
        return cudaSuccess;
    }
    size_t n = *numNodes < graph->nodes.size() ? *numNodes : graph->nodes.size();
    for (size_t i = 0; i < n; ++i)
        nodes[i] = graph->nodes[i].get();
    for (size_t i = n; i < *numNodes; ++i)
        nodes[i] = nullptr;
    *numNodes = n;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    if (!node || !pType) {
        runtime::diagnose("cudaGraphNodeGetType: %s is NULL", !node ? "node" : "pType");
        return record_error(cudaErrorInvalidValue);
    }
    *pType = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_add("cudaGraphAddHostNode", pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess && (!pNodeParams || !pNodeParams->fn)) {
        runtime::diagnose("cudaGraphAddHostNode: %s is NULL", !pNodeParams ? "pNodeParams" : "pNodeParams->fn");
        e = cudaErrorInvalidValue;
    }
    if (e != cudaSuccess)
        return record_error(e);
    cudaHostFn_t fn = pNodeParams->fn;
    void *data = pNodeParams->userData;
    *pGraphNode = add_node(graph, cudaGraphNodeTypeHost, [fn, data](cudaStream_t) {
        fn(data);
        return cudaSuccess;
    });
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *p)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_add("cudaGraphAddMemsetNode", pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess && (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) ||
                             (p->height > 1 && p->pitch < p->width * p->elementSize))) {
        runtime::diagnose("cudaGraphAddMemsetNode: %s", !p ? "pMemsetParams is NULL"
                                                        : "elementSize must be 1, 2 or 4, and pitch at least a row");
        e = cudaErrorInvalidValue;
    }
    if (e != cudaSuccess)
        return record_error(e);
    cudaMemsetParams m = *p;
    *pGraphNode = add_node(graph, cudaGraphNodeTypeMemset, [m](cudaStream_t) {
        size_t rows = m.height ? m.height : 1, row_bytes = m.width * m.elementSize;
        for (size_t r = 0; r < rows; ++r) {
            char *row = static_cast<char *>(m.dst) + r * m.pitch;
            cudaError_t err = cudaSuccess;
            if (m.elementSize == 1) {
                err = cudaMemset(row, static_cast<int>(m.value & 0xFF), row_bytes);
            } else {
                /* Wider elements: the pattern, element by element, through
                 * the checked copy. */
                std::vector<unsigned char> pattern(row_bytes);
                for (size_t i = 0; i < row_bytes; ++i)
                    pattern[i] = static_cast<unsigned char>(m.value >> (8 * (i % m.elementSize)));
                err = cudaMemcpy(row, pattern.data(), row_bytes, cudaMemcpyDefault);
            }
            if (err != cudaSuccess)
                return err;
        }
        return cudaSuccess;
    });
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *p)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_add("cudaGraphAddKernelNode", pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess && (!p || !p->func)) {
        runtime::diagnose("cudaGraphAddKernelNode: %s is NULL", !p ? "pNodeParams" : "pNodeParams->func");
        e = cudaErrorInvalidValue;
    }
    if (e != cudaSuccess)
        return record_error(e);
    auto it = kernel_table().find(p->func);
    if (it == kernel_table().end()) {
        runtime::diagnose("cudaGraphAddKernelNode: the emulator does not know the parameter types of the kernel at "
                          "0x%" PRIxPTR " (it learns them from a cudaLaunchKernel, cudaFuncGetAttributes or "
                          "cudaFuncSetAttribute call with the kernel itself, not cast to void *)",
                          reinterpret_cast<std::uintptr_t>(p->func));
        return record_error(cudaErrorNotSupported);
    }
    if (!p->kernelParams) {
        runtime::diagnose("cudaGraphAddKernelNode: kernelParams is NULL (extra is not supported)");
        return record_error(cudaErrorInvalidValue);
    }
    launch_site site{"graph kernel node", "?", 0};
    *pGraphNode = add_node(graph, cudaGraphNodeTypeKernel,
                           it->second(site, p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams));
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_add("cudaGraphAddEmptyNode", pGraphNode, graph, pDependencies, numDependencies);
    if (e != cudaSuccess)
        return record_error(e);
    *pGraphNode = add_node(graph, cudaGraphNodeTypeEmpty, nullptr);
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    (void)flags; /* auto-free, upload, device launch, priority: nothing to do on a CPU */
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!pGraphExec || !live_graph(graph)) {
        runtime::diagnose("cudaGraphInstantiate: %s", !pGraphExec ? "pGraphExec is NULL" : "not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    cudaGraphExec_t exec = new simtlab_emu_graph_exec;
    for (const auto &n : graph->nodes)
        if (n->run)
            exec->steps.push_back(n->run);
    execs[exec] = true;
    *pGraphExec = exec;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaGraphLaunch"));
    if (e != cudaSuccess)
        return e;
    std::vector<std::function<cudaError_t(cudaStream_t)>> steps;
    {
        std::lock_guard<std::mutex> hold(graph_lock);
        if (!graphExec || !execs.count(graphExec)) {
            runtime::diagnose("cudaGraphLaunch: not a live executable graph (cudaGraphInstantiate)");
            return record_error(cudaErrorInvalidValue);
        }
        steps = graphExec->steps;
    }
    if ((e = runtime::check_context()) != cudaSuccess)
        return e;
    if (runtime::stream_capturing(stream)) {
        for (auto &step : steps)
            runtime::capture(stream, step);
        return cudaSuccess;
    }
    for (auto &step : steps)
        if ((e = step(stream)) != cudaSuccess)
            return record_error(e);
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graphExec || !execs.erase(graphExec)) {
        runtime::diagnose("cudaGraphExecDestroy: not a live executable graph");
        return record_error(cudaErrorInvalidValue);
    }
    delete graphExec;
    return cudaSuccess;
}

} /* extern "C" */
