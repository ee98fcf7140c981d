/* simtlab CPU emulator — host functions in streams, kernels launched by
 * address, and CUDA graphs: their creation, clones, instantiation and
 * launches.
 *
 * Streams run eagerly (runtime/stream.cpp), so a host function or callback
 * runs when it is enqueued: after everything submitted to its stream
 * before it, before anything after it, which is stream order.
 *
 * A graph is a list of nodes, each with the nodes it depends on
 * (runtime/graph_internal.hpp). Instantiation puts them in dependency
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
 * Stream capture: runtime/graph_capture.cpp; edges and other structure
 * queries: runtime/graph_edges.cpp; node constructors and parameters:
 * runtime/graph_nodes.cpp; memory nodes: runtime/graph_memory.cpp;
 * conditional nodes: runtime_graph_conditional.cpp.
 */
#include "runtime/graph_internal.hpp"

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

namespace graph {

std::mutex graph_lock;

namespace {

std::unordered_set<cudaGraph_t> graphs;                         /* live graphs */
std::unordered_set<cudaGraphExec_t> execs;                      /* live executable graphs */
unsigned long long next_serial = 0;

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

} /* namespace */

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

detail::bound_launch bind_launch(detail::args_binder bind, const launch_site &site, const void *kernel, dim3 grid,
                                 dim3 block, std::size_t shmem, void **args, std::vector<void *> *values)
{
    if (bind->params > 0 && !args)
        return detail::bound_launch{}; /* empty: the caller reports the missing arguments */
    std::vector<void *> at(bind->params);
    std::shared_ptr<void> call(bind->from_args(kernel, args, at.data()), bind->destroy);
    if (values)
        *values = std::move(at);
    void (*thread)(void *) = bind->thread;
    return [site, grid, block, shmem, thread, call, kernel](cudaStream_t stream) {
        return run_grid(site, grid, block, shmem, stream, thread, call.get(), kernel);
    };
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

} /* namespace graph */

using graph::graph_lock;

namespace detail {

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

} /* namespace simtlab_emu */

using namespace simtlab_emu;
using graph::live_graph;

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
    detail::bound_launch run = graph::bind_launch(bind, site, func, gridDim, blockDim, sharedMem, args, nullptr);
    if (runtime::stream_capturing(stream))
        return record_error(runtime::capture(stream, run));
    return run(stream);
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
