/* simtlab CPU emulator — host functions in streams, kernels launched by
 * address, stream capture, and CUDA graphs: their creation, structure
 * (edges, clones), instantiation and launches.
 *
 * Streams run eagerly (runtime_stream.cpp), so a host function or callback
 * runs when it is enqueued: after everything submitted to its stream
 * before it, before anything after it, which is stream order.
 *
 * A graph is a list of nodes, each with the nodes it depends on
 * (runtime_graph_internal.hpp). Instantiation puts them in dependency
 * order (among nodes whose dependencies are done, the one added first)
 * and a launch runs them in that order, which respects every dependency.
 * Stream capture records what would have been submitted to a capturing
 * stream (launches, copies, memsets, host functions, stream-ordered
 * allocations) as nodes that depend on the stream's last captured work;
 * an event recorded in a capturing stream carries the capture, and its
 * dependencies, over to a stream that waits on it, so fork-join capture
 * across streams works. The arguments of a captured launch or copy are
 * checked when it is captured and again when it runs.
 *
 * Node constructors and parameters: runtime_graph_nodes.cpp; memory
 * nodes: runtime_graph_memory.cpp; conditional nodes:
 * runtime_graph_conditional.cpp.
 */
#include "runtime_graph_internal.hpp"

#include <simtlab_emu/launch.hpp>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace simtlab_emu {

namespace detail {
std::atomic<int> streams_capturing{0};
}

namespace graph {

std::mutex graph_lock;

namespace {

/* A capturing stream: the graph it adds to, and the nodes its next
 * captured work depends on. */
struct capture_state {
    cudaGraph_t graph;
    std::vector<cudaGraphNode_t> deps;
    unsigned long long id;
};
struct capture_origin_info {
    cudaStream_t stream;
    bool into_existing; /* cudaStreamBeginCaptureToGraph */
};

std::unordered_map<cudaStream_t, capture_state> capturing;
std::unordered_map<cudaGraph_t, capture_origin_info> capture_origin;
std::unordered_map<cudaEvent_t, capture_state> captured_events; /* the capture an event recorded */
std::unordered_set<cudaGraph_t> graphs;                         /* live graphs */
std::unordered_set<cudaGraphExec_t> execs;                      /* live executable graphs */
unsigned long long next_serial = 0, next_capture_id = 0;

/* Kernels by address. slrewrite registers every kernel during the static
 * initialisation of the program's own files, which may come before this
 * file's: the table is made on first use and never destroyed. */
std::unordered_map<const void *, detail::args_binder> &kernel_table()
{
    static auto *table = new std::unordered_map<const void *, detail::args_binder>;
    return *table;
}

/* The nodes of `g` in dependency order; false if the edges form a cycle. */
bool dependency_order(cudaGraph_t g, std::vector<cudaGraphNode_t> *out)
{
    const std::size_t n = g->nodes.size();
    std::unordered_map<cudaGraphNode_t, std::size_t> index;
    for (std::size_t i = 0; i < n; ++i)
        index[g->nodes[i].get()] = i;
    std::vector<std::size_t> waiting(n);
    std::vector<std::vector<std::size_t>> dependents(n);
    for (std::size_t i = 0; i < n; ++i) {
        waiting[i] = g->nodes[i]->deps.size();
        for (cudaGraphNode_t d : g->nodes[i]->deps)
            dependents[index.at(d)].push_back(i);
    }
    std::set<std::size_t> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (waiting[i] == 0)
            ready.insert(i);
    out->clear();
    while (!ready.empty()) {
        std::size_t i = *ready.begin();
        ready.erase(ready.begin());
        out->push_back(g->nodes[i].get());
        for (std::size_t j : dependents[i])
            if (--waiting[j] == 0)
                ready.insert(j);
    }
    return out->size() == n;
}

bool allowed_in_body(cudaGraphNodeType t)
{
    return t == cudaGraphNodeTypeKernel || t == cudaGraphNodeTypeEmpty || t == cudaGraphNodeTypeGraph ||
           t == cudaGraphNodeTypeMemset || t == cudaGraphNodeTypeMemcpy || t == cudaGraphNodeTypeConditional;
}

const char *type_name(cudaGraphNodeType t)
{
    switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeGraph: return "child graph";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeWaitEvent: return "event wait";
    case cudaGraphNodeTypeEventRecord: return "event record";
    case cudaGraphNodeTypeMemAlloc: return "memory allocation";
    case cudaGraphNodeTypeMemFree: return "memory free";
    case cudaGraphNodeTypeConditional: return "conditional";
    default: return "unknown";
    }
}

} /* namespace */

static cudaGraphNode_t clone_node(const simtlab_emu_graph_node &n, cudaGraph_t to)
{
    std::unique_ptr<simtlab_emu_graph_node> c(new simtlab_emu_graph_node(n));
    c->graph = to;
    c->deps.clear();
    c->clone_of = const_cast<cudaGraphNode_t>(&n);
    if (n.child) {
        c->child = new_graph();
        c->child->parent = c.get();
        clone_into(n.child, c->child);
    }
    to->nodes.push_back(std::move(c));
    return to->nodes.back().get();
}

void clone_into(cudaGraph_t from, cudaGraph_t to)
{
    std::unordered_map<cudaGraphNode_t, cudaGraphNode_t> map;
    for (const auto &n : from->nodes)
        map[n.get()] = clone_node(*n, to);
    for (const auto &n : from->nodes)
        for (cudaGraphNode_t d : n->deps)
            map[n.get()]->deps.push_back(map[d]);
}

bool live_graph(cudaGraph_t graph) { return graph && graphs.count(graph); }
bool live_exec(cudaGraphExec_t exec) { return exec && execs.count(exec); }

bool live_node(cudaGraphNode_t node)
{
    if (!node)
        return false;
    for (cudaGraph_t g : graphs)
        for (const auto &n : g->nodes)
            if (n.get() == node)
                return true;
    return false;
}

cudaGraph_t new_graph()
{
    cudaGraph_t g = new simtlab_emu_graph;
    g->serial = ++next_serial;
    graphs.insert(g);
    return g;
}

void destroy_graph(cudaGraph_t graph)
{
    for (auto &n : graph->nodes) {
        if (n->child)
            destroy_graph(n->child);
        for (cudaGraph_t b : n->bodies)
            destroy_graph(b);
    }
    graphs.erase(graph);
    delete graph;
}

detail::args_binder find_binder(const void *kernel)
{
    auto it = kernel_table().find(kernel);
    return it == kernel_table().end() ? nullptr : it->second;
}

cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, const cudaGraphNode_t *deps, std::size_t ndeps)
{
    std::unique_ptr<simtlab_emu_graph_node> n(new simtlab_emu_graph_node);
    n->type = type;
    n->graph = graph;
    for (std::size_t i = 0; i < ndeps; ++i)
        if (std::find(n->deps.begin(), n->deps.end(), deps[i]) == n->deps.end())
            n->deps.push_back(deps[i]);
    graph->nodes.push_back(std::move(n));
    return graph->nodes.back().get();
}

cudaError_t check_add(const char *api, cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                      std::size_t ndeps)
{
    if (!node || !live_graph(graph) || (ndeps && !deps)) {
        runtime::diagnose("%s: %s", api,
                          !node ? "pGraphNode is NULL"
                          : !live_graph(graph) ? "graph is not a live graph (cudaGraphCreate)"
                                               : "pDependencies is NULL but numDependencies is not 0");
        return cudaErrorInvalidValue;
    }
    for (std::size_t i = 0; i < ndeps; ++i) {
        bool found = false;
        for (const auto &n : graph->nodes)
            found = found || n.get() == deps[i];
        if (!found) {
            runtime::diagnose("%s: pDependencies[%zu] is not a node of this graph", api, i);
            return cudaErrorInvalidValue;
        }
        for (std::size_t j = 0; j < i; ++j)
            if (deps[j] == deps[i]) {
                runtime::diagnose("%s: pDependencies[%zu] repeats pDependencies[%zu]", api, i, j);
                return cudaErrorInvalidValue;
            }
    }
    return cudaSuccess;
}

bool graph_has(cudaGraph_t graph, cudaGraphNodeType type)
{
    for (const auto &n : graph->nodes) {
        if (n->type == type || (n->child && graph_has(n->child, type)))
            return true;
        for (cudaGraph_t b : n->bodies)
            if (graph_has(b, type))
                return true;
    }
    return false;
}

cudaError_t compile_node(cudaGraphNode_t node, step_fn *out)
{
    switch (node->type) {
    case cudaGraphNodeTypeGraph: {
        if (!node->child) { /* an executable graph launched into a capture: its steps */
            *out = node->run;
            return cudaSuccess;
        }
        auto body = std::make_shared<steps>();
        cudaError_t e = compile_graph(node->child, body.get(), "child graph");
        if (e == cudaSuccess)
            *out = [body](cudaStream_t s) { return run_steps(*body, s); };
        return e;
    }
    case cudaGraphNodeTypeMemAlloc: *out = allocation_step(node->alloc); return cudaSuccess;
    case cudaGraphNodeTypeMemFree: *out = free_step(node->free_ptr); return cudaSuccess;
    case cudaGraphNodeTypeConditional: {
        std::vector<std::shared_ptr<steps>> bodies;
        for (cudaGraph_t b : node->bodies) {
            bodies.push_back(std::make_shared<steps>());
            cudaError_t e = compile_graph(b, bodies.back().get(), "conditional body");
            if (e != cudaSuccess)
                return e;
        }
        *out = conditional_step(node, std::move(bodies));
        return cudaSuccess;
    }
    default: *out = node->run; return cudaSuccess;
    }
}

cudaError_t compile_graph(cudaGraph_t graph, steps *out, const char *body)
{
    std::vector<cudaGraphNode_t> order;
    if (!dependency_order(graph, &order)) {
        runtime::diagnose("cudaGraphInstantiate: the %s's dependencies form a cycle", body ? body : "graph");
        return cudaErrorInvalidValue;
    }
    out->clear();
    for (cudaGraphNode_t n : order) {
        if (body && std::strcmp(body, "conditional body") == 0 && !allowed_in_body(n->type)) {
            runtime::diagnose("cudaGraphInstantiate: a conditional body may hold kernel, empty, child graph, memset, "
                              "memcpy and conditional nodes, not a %s node",
                              type_name(n->type));
            return cudaErrorInvalidValue;
        }
        exec_step step{n, n->type, nullptr};
        cudaError_t e = compile_node(n, &step.run);
        if (e != cudaSuccess)
            return e;
        out->push_back(std::move(step));
    }
    return cudaSuccess;
}

cudaError_t run_steps(const steps &s, cudaStream_t stream)
{
    for (const exec_step &step : s)
        if (step.run && step.enabled) {
            cudaError_t e = step.run(stream);
            if (e != cudaSuccess)
                return e;
        }
    return cudaSuccess;
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

void register_kernel(const void *kernel, args_binder bind)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::kernel_table()[kernel] = bind;
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

/* Writes up to *count entries of `all` to `out` (when out is not NULL),
 * as CUDA's graph queries do: NULL asks for the count. */
template <class T>
void hand_back(const std::vector<T> &all, T *out, size_t *count)
{
    if (!out) {
        *count = all.size();
        return;
    }
    size_t n = std::min(*count, all.size());
    std::copy(all.begin(), all.begin() + n, out);
    for (size_t i = n; i < *count; ++i)
        out[i] = T{};
    *count = n;
}

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
        return record_error(runtime::capture(
            stream,
            [fn, userData](cudaStream_t) {
                fn(userData);
                return cudaSuccess;
            },
            cudaGraphNodeTypeHost));
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
        bind = graph::find_binder(func);
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
    detail::bound_launch run = bind(site, func, gridDim, blockDim, sharedMem, args, nullptr);
    if (runtime::stream_capturing(stream))
        return record_error(runtime::capture(stream, run));
    return run(stream);
}

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

/* ---- graphs ---------------------------------------------------------------------- */

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph || flags != 0) {
        runtime::diagnose("cudaGraphCreate: %s", !pGraph ? "pGraph is NULL" : "flags must be 0");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph_lock);
    *pGraph = graph::new_graph();
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || graph::capture_origin.count(graph) || graph->parent) {
        runtime::diagnose("cudaGraphDestroy: %s", !live_graph(graph) ? "graph is not a live graph"
                                                  : graph->parent     ? "graph belongs to a node (a child graph or "
                                                                        "a conditional body); destroy its graph"
                                                                      : "graph is still being captured");
        return record_error(cudaErrorInvalidValue);
    }
    graph::destroy_graph(graph);
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!pGraphClone || !live_graph(originalGraph)) {
        runtime::diagnose("cudaGraphClone: %s", !pGraphClone ? "pGraphClone is NULL" : "originalGraph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    if (graph::graph_has(originalGraph, cudaGraphNodeTypeMemAlloc) ||
        graph::graph_has(originalGraph, cudaGraphNodeTypeMemFree) ||
        graph::graph_has(originalGraph, cudaGraphNodeTypeConditional)) {
        runtime::diagnose("cudaGraphClone: a graph with memory allocation, free or conditional nodes cannot be "
                          "cloned");
        return record_error(cudaErrorNotSupported);
    }
    cudaGraph_t clone = graph::new_graph();
    graph::clone_into(originalGraph, clone);
    *pGraphClone = clone;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!pNode || !originalNode || !live_graph(clonedGraph)) {
        runtime::diagnose("cudaGraphNodeFindInClone: %s", !pNode ? "pNode is NULL"
                                                          : !originalNode ? "originalNode is NULL"
                                                                          : "clonedGraph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    for (const auto &n : clonedGraph->nodes)
        if (n->clone_of == originalNode) {
            *pNode = n.get();
            return cudaSuccess;
        }
    runtime::diagnose("cudaGraphNodeFindInClone: originalNode has no copy in clonedGraph");
    return record_error(cudaErrorInvalidValue);
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || !numNodes) {
        runtime::diagnose("cudaGraphGetNodes: %s", !numNodes ? "numNodes is NULL" : "graph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    std::vector<cudaGraphNode_t> all;
    for (const auto &n : graph->nodes)
        all.push_back(n.get());
    hand_back(all, nodes, numNodes);
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *pRootNodes, size_t *pNumRootNodes)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || !pNumRootNodes) {
        runtime::diagnose("cudaGraphGetRootNodes: %s",
                          !pNumRootNodes ? "pNumRootNodes is NULL" : "graph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    std::vector<cudaGraphNode_t> roots;
    for (const auto &n : graph->nodes)
        if (n->deps.empty())
            roots.push_back(n.get());
    hand_back(roots, pRootNodes, pNumRootNodes);
    return cudaSuccess;
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
                              cudaGraphEdgeData *edgeData, size_t *numEdges)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || !numEdges || (!from) != (!to)) {
        runtime::diagnose("cudaGraphGetEdges: %s", !numEdges           ? "numEdges is NULL"
                                                   : !live_graph(graph) ? "graph is not a live graph"
                                                                        : "from and to must both be NULL or both not");
        return record_error(cudaErrorInvalidValue);
    }
    std::vector<cudaGraphNode_t> f, t;
    for (const auto &n : graph->nodes)
        for (cudaGraphNode_t d : n->deps) {
            f.push_back(d);
            t.push_back(n.get());
        }
    size_t count = *numEdges;
    hand_back(f, from, &count);
    hand_back(t, to, numEdges);
    if (edgeData && from)
        for (size_t i = 0; i < *numEdges; ++i)
            edgeData[i] = cudaGraphEdgeData{};
    return cudaSuccess;
}

static cudaError_t node_neighbours(const char *api, cudaGraphNode_t node, cudaGraphNode_t *out,
                                   cudaGraphEdgeData *edgeData, size_t *count, bool dependencies)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_node(node) || !count) {
        runtime::diagnose("%s: %s", api, !count ? "the count pointer is NULL" : "node is not a node of a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    std::vector<cudaGraphNode_t> all;
    if (dependencies) {
        all = node->deps;
    } else {
        for (const auto &n : node->graph->nodes)
            if (std::find(n->deps.begin(), n->deps.end(), node) != n->deps.end())
                all.push_back(n.get());
    }
    hand_back(all, out, count);
    if (edgeData && out)
        for (size_t i = 0; i < *count; ++i)
            edgeData[i] = cudaGraphEdgeData{};
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
                                         cudaGraphEdgeData *edgeData, size_t *pNumDependencies)
{
    return node_neighbours("cudaGraphNodeGetDependencies", node, pDependencies, edgeData, pNumDependencies, true);
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
                                           cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
    return node_neighbours("cudaGraphNodeGetDependentNodes", node, pDependentNodes, edgeData, pNumDependentNodes,
                           false);
}

static cudaError_t change_edges(const char *api, cudaGraph_t graph, const cudaGraphNode_t *from,
                                const cudaGraphNode_t *to, const cudaGraphEdgeData *edgeData, size_t n, bool add)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || (n && (!from || !to))) {
        runtime::diagnose("%s: %s", api, !live_graph(graph) ? "graph is not a live graph"
                                                           : "from or to is NULL but numDependencies is not 0");
        return record_error(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < n; ++i) {
        if (!from[i] || !to[i] || from[i]->graph != graph || to[i]->graph != graph || !graph::live_node(from[i]) ||
            !graph::live_node(to[i])) {
            runtime::diagnose("%s: edge %zu: from[%zu] or to[%zu] is not a node of graph", api, i, i, i);
            return record_error(cudaErrorInvalidValue);
        }
        if (edgeData && (edgeData[i].from_port || edgeData[i].to_port || edgeData[i].type)) {
            runtime::diagnose("%s: edgeData[%zu]: only default edges (ports 0, type 0) are emulated", api, i);
            return record_error(cudaErrorNotSupported);
        }
        auto &deps = to[i]->deps;
        bool present = std::find(deps.begin(), deps.end(), from[i]) != deps.end();
        /* An edge that closes a cycle is accepted, as CUDA does; the graph
         * then fails to instantiate, saying so. */
        if (add && (present || from[i] == to[i])) {
            runtime::diagnose("%s: edge %zu %s", api, i, present ? "already exists" : "goes from a node to itself");
            return record_error(cudaErrorInvalidValue);
        }
        if (!add && !present) {
            runtime::diagnose("%s: edge %zu does not exist", api, i);
            return record_error(cudaErrorInvalidValue);
        }
        if (!add && (graph::graph_has(graph, cudaGraphNodeTypeMemAlloc) ||
                     graph::graph_has(graph, cudaGraphNodeTypeMemFree))) {
            runtime::diagnose("%s: the edges of a graph with memory nodes cannot be removed", api);
            return record_error(cudaErrorNotSupported);
        }
    }
    for (size_t i = 0; i < n; ++i) {
        auto &deps = to[i]->deps;
        auto at = std::find(deps.begin(), deps.end(), from[i]); /* an edge repeated in the call counts once */
        if (add && at == deps.end())
            deps.push_back(from[i]);
        else if (!add && at != deps.end())
            deps.erase(at);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    return change_edges("cudaGraphAddDependencies", graph, from, to, edgeData, numDependencies, true);
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                        const cudaGraphEdgeData *edgeData, size_t numDependencies)
{
    return change_edges("cudaGraphRemoveDependencies", graph, from, to, edgeData, numDependencies, false);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_node(node) || !pType) {
        runtime::diagnose("cudaGraphNodeGetType: %s", !pType ? "pType is NULL" : "node is not a node of a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    *pType = node->type;
    return cudaSuccess;
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
    (void)flags; /* one level of detail: each node's type */
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!live_graph(graph) || !path) {
        runtime::diagnose("cudaGraphDebugDotPrint: %s", !path ? "path is NULL" : "graph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    std::FILE *f = std::fopen(path, "w");
    if (!f) {
        runtime::diagnose("cudaGraphDebugDotPrint: cannot write %s", path);
        return record_error(cudaErrorInvalidValue);
    }
    std::unordered_map<cudaGraphNode_t, std::size_t> index;
    std::fprintf(f, "digraph simtlab_emu_graph {\n");
    for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
        index[graph->nodes[i].get()] = i;
        std::fprintf(f, "  n%zu [label=\"%zu: %s\"];\n", i, i, graph::type_name(graph->nodes[i]->type));
    }
    for (const auto &n : graph->nodes)
        for (cudaGraphNode_t d : n->deps)
            std::fprintf(f, "  n%zu -> n%zu;\n", index[d], index[n.get()]);
    std::fprintf(f, "}\n");
    return std::fclose(f) == 0 ? cudaSuccess : record_error(cudaErrorInvalidValue);
}

/* ---- executable graphs ------------------------------------------------------------ */

static cudaError_t instantiate(const char *api, cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                               unsigned long long flags)
{
    const unsigned long long known = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                     cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!pGraphExec || !live_graph(graph) || (flags & ~known) ||
        ((flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) && (flags & cudaGraphInstantiateFlagDeviceLaunch))) {
        runtime::diagnose("%s: %s", api, !pGraphExec          ? "pGraphExec is NULL"
                                         : !live_graph(graph) ? "graph is not a live graph"
                                         : (flags & ~known)    ? "flags has bits that are not cudaGraphInstantiateFlags"
                                                               : "flags: AutoFreeOnLaunch cannot go with DeviceLaunch");
        return record_error(cudaErrorInvalidValue);
    }
    if (graph->parent) {
        runtime::diagnose("%s: graph belongs to a node (a child graph or a conditional body) and cannot be "
                          "instantiated on its own",
                          api);
        return record_error(cudaErrorInvalidValue);
    }
    const bool single = graph::graph_has(graph, cudaGraphNodeTypeMemAlloc) ||
                        graph::graph_has(graph, cudaGraphNodeTypeMemFree) ||
                        graph::graph_has(graph, cudaGraphNodeTypeConditional);
    if (single && graph->execs > 0) {
        runtime::diagnose("%s: a graph with memory or conditional nodes may have one executable graph at a time; "
                          "destroy the other first (cudaGraphExecDestroy)",
                          api);
        return record_error(cudaErrorNotSupported);
    }
    for (const auto &h : graph->handles)
        if (!graph::handle_used(graph, h.get())) {
            runtime::diagnose("%s: conditional handle 0x%llx of this graph is used by no conditional node "
                              "(cudaGraphInstantiateConditionalHandleUnused)",
                              api, reinterpret_cast<unsigned long long>(h.get()));
            return record_error(cudaErrorInvalidValue);
        }
    std::unique_ptr<simtlab_emu_graph_exec> exec(new simtlab_emu_graph_exec);
    cudaError_t e = graph::compile_graph(graph, &exec->order, nullptr);
    if (e != cudaSuccess)
        return record_error(e);
    exec->flags = flags;
    exec->source_serial = graph->serial;
    std::unordered_map<cudaGraphNode_t, std::size_t> index;
    for (std::size_t i = 0; i < graph->nodes.size(); ++i)
        index[graph->nodes[i].get()] = i;
    for (const auto &n : graph->nodes) {
        exec->origin_nodes.push_back(n.get());
        exec->origin_types.push_back(n->type);
        exec->origin_deps.emplace_back();
        for (cudaGraphNode_t d : n->deps)
            exec->origin_deps.back().push_back(index.at(d));
        if (n->type == cudaGraphNodeTypeMemAlloc)
            exec->allocs.push_back(n->alloc);
    }
    exec->handles = graph->handles;
    graph->execs++;
    *pGraphExec = exec.release();
    graph::execs.insert(*pGraphExec);
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate("cudaGraphInstantiate", pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags)
{
    return instantiate("cudaGraphInstantiateWithFlags", pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams *instantiateParams)
{
    const char *api = "cudaGraphInstantiateWithParams";
    if (!instantiateParams) {
        runtime::diagnose("%s: instantiateParams is NULL", api);
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = instantiate(api, pGraphExec, graph, instantiateParams->flags);
    instantiateParams->errNode_out = nullptr;
    if (e == cudaSuccess)
        instantiateParams->result_out = cudaGraphInstantiateSuccess;
    else if (std::strstr(simtlab_emu_last_diagnostic(), "cycle"))
        instantiateParams->result_out = cudaGraphInstantiateInvalidStructure;
    else if (std::strstr(simtlab_emu_last_diagnostic(), "used by no conditional node"))
        instantiateParams->result_out = cudaGraphInstantiateConditionalHandleUnused;
    else
        instantiateParams->result_out = cudaGraphInstantiateError;
    if (e == cudaSuccess && (instantiateParams->flags & cudaGraphInstantiateFlagUpload))
        e = cudaGraphUpload(*pGraphExec, instantiateParams->uploadStream);
    return e;
}

static cudaError_t node_enabled(const char *api, cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int *get,
                                unsigned int set)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_exec(exec)) {
        runtime::diagnose("%s: hGraphExec is not a live executable graph", api);
        return record_error(cudaErrorInvalidValue);
    }
    for (graph::exec_step &s : exec->order)
        if (s.origin == node && node) {
            if (s.type != cudaGraphNodeTypeKernel && s.type != cudaGraphNodeTypeMemset &&
                s.type != cudaGraphNodeTypeMemcpy) {
                runtime::diagnose("%s: only kernel, memset and memcpy nodes can be disabled", api);
                return record_error(cudaErrorInvalidValue);
            }
            if (get)
                *get = s.enabled ? 1 : 0;
            else
                s.enabled = set != 0;
            return cudaSuccess;
        }
    runtime::diagnose("%s: hNode is not a node of the graph hGraphExec was instantiated from", api);
    return record_error(cudaErrorInvalidValue);
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int isEnabled)
{
    return node_enabled("cudaGraphNodeSetEnabled", hGraphExec, hNode, nullptr, isEnabled);
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, unsigned int *isEnabled)
{
    if (!isEnabled) {
        runtime::diagnose("cudaGraphNodeGetEnabled: isEnabled is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    return node_enabled("cudaGraphNodeGetEnabled", hGraphExec, hNode, isEnabled, 0);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long *flags)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_exec(graphExec) || !flags) {
        runtime::diagnose("cudaGraphExecGetFlags: %s", !flags ? "flags is NULL" : "graphExec is not a live executable graph");
        return record_error(cudaErrorInvalidValue);
    }
    *flags = graphExec->flags;
    return cudaSuccess;
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaGraphUpload"));
    if (e != cudaSuccess)
        return e;
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_exec(graphExec)) {
        runtime::diagnose("cudaGraphUpload: graphExec is not a live executable graph");
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess; /* nothing to upload: the host runs it */
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    cudaError_t e = record_error(runtime::check_stream(stream, "cudaGraphLaunch"));
    if (e != cudaSuccess)
        return e;
    auto steps = std::make_shared<graph::steps>();
    std::vector<std::shared_ptr<graph::condition>> handles;
    {
        std::lock_guard<std::mutex> hold(graph_lock);
        if (!graph::live_exec(graphExec)) {
            runtime::diagnose("cudaGraphLaunch: graphExec is not a live executable graph (cudaGraphInstantiate)");
            return record_error(cudaErrorInvalidValue);
        }
        *steps = graphExec->order;
        handles = graphExec->handles;
        if ((e = runtime::check_context()) != cudaSuccess)
            return e;
        if (graph::capturing.count(stream)) {
            /* Launched into a capture: one child-graph node runs it. */
            graph::capture_add(stream, cudaGraphNodeTypeGraph)->run = [steps, handles](cudaStream_t s) {
                graph::reset_conditions(handles);
                return graph::run_steps(*steps, s);
            };
            return cudaSuccess;
        }
        if ((e = graph::check_allocations_before_launch(graphExec)) != cudaSuccess)
            return record_error(e);
    }
    graph::reset_conditions(handles);
    return record_error(graph::run_steps(*steps, stream));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_exec(graphExec)) {
        runtime::diagnose("cudaGraphExecDestroy: graphExec is not a live executable graph");
        return record_error(cudaErrorInvalidValue);
    }
    graph::execs.erase(graphExec);
    for (cudaGraph_t g : graph::graphs)
        if (g->serial == graphExec->source_serial)
            g->execs--;
    delete graphExec;
    return cudaSuccess;
}

} /* extern "C" */
