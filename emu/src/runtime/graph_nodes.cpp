/* simtlab CPU emulator — graph nodes built by hand (kernel, memcpy,
 * memset, host, empty, child graph, event record and wait), the generic
 * cudaGraphAddNode, node parameters, and the updates of executable
 * graphs (cudaGraphExec*SetParams, cudaGraphExecUpdate).
 *
 * A node keeps its parameters and a step made from them; setting a node's
 * parameters remakes its step (later instantiations see it), setting them
 * on an executable graph remakes that graph's copy of the step only. A
 * copy or memset node's pointers are checked when it is made and again
 * each time it runs, by the same checks as cudaMemcpy3D and cudaMemset.
 */
#include "runtime/graph_internal.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace simtlab_emu {
namespace graph {

cudaError_t make_kernel_run(const char *api, const cudaKernelNodeParams *p, step_fn *run, std::vector<void *> *args)
{
    if (!p) {
        runtime::diagnose("%s: pNodeParams is NULL", api);
        return cudaErrorInvalidValue;
    }
    if (!p->func) { /* what CUDA says of a NULL function */
        runtime::diagnose("%s: pNodeParams->func is NULL", api);
        return cudaErrorInvalidDeviceFunction;
    }
    if (p->extra) {
        runtime::diagnose("%s: pNodeParams->extra is not emulated (pass the arguments in kernelParams)", api);
        return cudaErrorNotSupported;
    }
    detail::args_binder bind = find_binder(p->func);
    if (!bind) {
        runtime::diagnose("%s: the emulator does not know the parameter types of the kernel at 0x%" PRIxPTR
                          " (it learns them from the kernel's definition in a file slcc rewrote, or from a "
                          "cudaLaunchKernel, cudaFuncGetAttributes or cudaFuncSetAttribute call with the kernel "
                          "itself, not cast to void *)",
                          api, reinterpret_cast<std::uintptr_t>(p->func));
        return cudaErrorNotSupported;
    }
    launch_site site{"graph kernel node", "?", 0};
    step_fn made = bind_launch(bind, site, p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams, args);
    if (!made) {
        runtime::diagnose("%s: pNodeParams->kernelParams is NULL but the kernel has parameters", api);
        return cudaErrorInvalidValue;
    }
    *run = std::move(made);
    return cudaSuccess;
}

cudaError_t make_memcpy_run(const char *api, const cudaMemcpy3DParms *p, step_fn *run)
{
    if (!p) {
        runtime::diagnose("%s: pCopyParams is NULL", api);
        return cudaErrorInvalidValue;
    }
    if (p->srcArray || p->dstArray) {
        runtime::diagnose("%s: CUDA arrays (srcArray, dstArray) are not emulated", api);
        return cudaErrorNotSupported;
    }
    if (!p->srcPtr.ptr || !p->dstPtr.ptr) {
        runtime::diagnose("%s: %s is NULL", api, !p->srcPtr.ptr ? "srcPtr.ptr" : "dstPtr.ptr");
        return cudaErrorInvalidValue;
    }
    if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault) {
        runtime::diagnose("%s: kind %d is not a cudaMemcpyKind", api, static_cast<int>(p->kind));
        return cudaErrorInvalidMemcpyDirection;
    }
    const cudaMemcpy3DParms copy = *p;
    *run = [copy](cudaStream_t) { return cudaMemcpy3D(&copy); };
    return cudaSuccess;
}

/* The bytes a memset node covers, from dst to the end of its last row. */
static std::size_t memset_span(const cudaMemsetParams &m)
{
    std::size_t rows = m.height ? m.height : 1;
    return (rows - 1) * m.pitch + m.width * m.elementSize;
}

cudaError_t make_memset_run(const char *api, const cudaMemsetParams *p, step_fn *run)
{
    if (!p || !p->dst) {
        runtime::diagnose("%s: %s is NULL", api, !p ? "pMemsetParams" : "pMemsetParams->dst");
        return cudaErrorInvalidValue;
    }
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4) {
        runtime::diagnose("%s: pMemsetParams->elementSize is %u; it must be 1, 2 or 4", api, p->elementSize);
        return cudaErrorInvalidValue;
    }
    if (p->height > 1 && p->pitch < p->width * p->elementSize) {
        runtime::diagnose("%s: pMemsetParams->pitch (%zu) is less than a row (width %zu x elementSize %u)", api,
                          p->pitch, p->width, p->elementSize);
        return cudaErrorInvalidValue;
    }
    char what[96];
    std::snprintf(what, sizeof what, "%s pMemsetParams->dst", api);
    cudaError_t e = runtime::check_device_range(p->dst, memset_span(*p), what);
    if (e != cudaSuccess)
        return e;
    const cudaMemsetParams m = *p;
    *run = [m](cudaStream_t) {
        std::size_t rows = m.height ? m.height : 1, row_bytes = m.width * m.elementSize;
        std::vector<unsigned char> pattern;
        if (m.elementSize != 1) /* wider elements: the pattern, element by element, through the checked copy */
            for (std::size_t i = 0; i < row_bytes; ++i)
                pattern.push_back(static_cast<unsigned char>(m.value >> (8 * (i % m.elementSize))));
        for (std::size_t r = 0; r < rows; ++r) {
            char *row = static_cast<char *>(m.dst) + r * m.pitch;
            cudaError_t err = m.elementSize == 1 ? cudaMemset(row, static_cast<int>(m.value & 0xFF), row_bytes)
                                                 : cudaMemcpy(row, pattern.data(), row_bytes, cudaMemcpyHostToDevice);
            if (err != cudaSuccess)
                return err;
        }
        return cudaSuccess;
    };
    return cudaSuccess;
}

cudaError_t make_host_run(const char *api, const cudaHostNodeParams *p, step_fn *run)
{
    if (!p || !p->fn) {
        runtime::diagnose("%s: %s is NULL", api, !p ? "pNodeParams" : "pNodeParams->fn");
        return cudaErrorInvalidValue;
    }
    cudaHostFn_t fn = p->fn;
    void *data = p->userData;
    *run = [fn, data](cudaStream_t) {
        fn(data);
        return cudaSuccess;
    };
    return cudaSuccess;
}

} /* namespace graph */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using graph::graph_lock;

namespace {

/* The checks every cudaGraphAdd*Node makes, then the node (nullptr and a
 * recorded error if the checks fail). */
cudaGraphNode_t checked_add(const char *api, cudaError_t *e, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                            const cudaGraphNode_t *deps, std::size_t ndeps, cudaGraphNodeType type)
{
    *e = graph::check_add(api, pGraphNode, graph, deps, ndeps);
    if (*e != cudaSuccess)
        return nullptr;
    return *pGraphNode = graph::add_node(graph, type, deps, ndeps);
}

/* A node of a live graph, of the given type; sets a diagnostic if not. */
cudaError_t check_node(const char *api, cudaGraphNode_t node, cudaGraphNodeType type, const void *params)
{
    if (!graph::live_node(node)) {
        runtime::diagnose("%s: node is not a node of a live graph", api);
        return cudaErrorInvalidValue;
    }
    if (node->type != type) {
        runtime::diagnose("%s: node is not a node of this type", api);
        return cudaErrorInvalidValue;
    }
    if (!params) {
        runtime::diagnose("%s: the parameters pointer is NULL", api);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* The executable graph's step for `node`, or nullptr with a diagnostic. */
graph::exec_step *exec_step_of(const char *api, cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeType type,
                               const void *params, cudaError_t *e)
{
    *e = cudaErrorInvalidValue;
    if (!graph::live_exec(exec) || !params) {
        runtime::diagnose("%s: %s", api, !params ? "the parameters pointer is NULL"
                                                 : "hGraphExec is not a live executable graph");
        return nullptr;
    }
    for (graph::exec_step &s : exec->order)
        if (s.origin == node && node) {
            if (s.type != type) {
                runtime::diagnose("%s: node is not a node of this type", api);
                return nullptr;
            }
            *e = cudaSuccess;
            return &s;
        }
    runtime::diagnose("%s: node is not a node of the graph hGraphExec was instantiated from", api);
    return nullptr;
}

cudaMemcpy3DParms copy_1d(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(const_cast<void *>(src), count, count, 1);
    p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
    p.extent = make_cudaExtent(count, 1, 1);
    p.kind = kind;
    return p;
}

} /* namespace */

extern "C" {

/* ---- adding nodes ---------------------------------------------------------------- */

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *p)
{
    const char *api = "cudaGraphAddKernelNode";
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::step_fn run;
    std::vector<void *> args;
    cudaError_t e = graph::check_add(api, pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess)
        e = graph::make_kernel_run(api, p, &run, &args);
    if (e != cudaSuccess)
        return record_error(e);
    cudaGraphNode_t n = *pGraphNode = graph::add_node(graph, cudaGraphNodeTypeKernel, pDependencies, numDependencies);
    n->run = std::move(run);
    n->kernel = *p;
    n->kernel_args = std::move(args);
    n->kernel.kernelParams = n->kernel_args.data();
    n->kernel_known = true;
    return cudaSuccess;
}

extern "C++" { /* a template, inside the file's extern "C" */
/* cudaGraphAddXNode for memcpy, memset and host nodes: make(api, p, &run)
 * checks and builds the step; store keeps the parameters in the node. */
template <class P, class Make, class Store>
static cudaError_t add_params_node(const char *api, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   cudaGraphNodeType type, const P *p, Make make, Store store)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::step_fn run;
    cudaError_t e = graph::check_add(api, pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess)
        e = make(api, p, &run);
    if (e != cudaSuccess)
        return record_error(e);
    cudaGraphNode_t n = *pGraphNode = graph::add_node(graph, type, pDependencies, numDependencies);
    n->run = std::move(run);
    store(n, *p);
    return cudaSuccess;
}
} /* extern "C++" */

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms *pCopyParams)
{
    return add_params_node("cudaGraphAddMemcpyNode", pGraphNode, graph, pDependencies, numDependencies,
                           cudaGraphNodeTypeMemcpy, pCopyParams, graph::make_memcpy_run,
                           [](cudaGraphNode_t n, const cudaMemcpy3DParms &p) { n->copy = p; });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
    const cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
    return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *p)
{
    return add_params_node("cudaGraphAddMemsetNode", pGraphNode, graph, pDependencies, numDependencies,
                           cudaGraphNodeTypeMemset, p, graph::make_memset_run,
                           [](cudaGraphNode_t n, const cudaMemsetParams &q) { n->set = q; });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const struct cudaHostNodeParams *pNodeParams)
{
    return add_params_node("cudaGraphAddHostNode", pGraphNode, graph, pDependencies, numDependencies,
                           cudaGraphNodeTypeHost, pNodeParams, graph::make_host_run,
                           [](cudaGraphNode_t n, const cudaHostNodeParams &p) { n->host = p; });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e;
    checked_add("cudaGraphAddEmptyNode", &e, pGraphNode, graph, pDependencies, numDependencies,
                cudaGraphNodeTypeEmpty);
    return record_error(e);
}

static cudaError_t add_child(const char *api, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t *deps, size_t ndeps, cudaGraph_t child, bool move)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = graph::check_add(api, pGraphNode, graph, deps, ndeps);
    if (e == cudaSuccess && (!graph::live_graph(child) || child == graph || child->parent)) {
        runtime::diagnose("%s: childGraph %s", api, !graph::live_graph(child) ? "is not a live graph"
                                                    : child == graph           ? "is the graph itself"
                                                                               : "already belongs to a node");
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess && (graph::graph_has(child, cudaGraphNodeTypeMemAlloc) ||
                             graph::graph_has(child, cudaGraphNodeTypeMemFree) ||
                             graph::graph_has(child, cudaGraphNodeTypeConditional))) {
        runtime::diagnose("%s: childGraph has memory or conditional nodes, which a child graph may not hold", api);
        e = cudaErrorNotSupported;
    }
    if (e != cudaSuccess)
        return record_error(e);
    cudaGraphNode_t n = *pGraphNode = graph::add_node(graph, cudaGraphNodeTypeGraph, deps, ndeps);
    if (move) {
        n->child = child;
    } else {
        n->child = graph::new_graph();
        graph::clone_into(child, n->child);
    }
    n->child->parent = n;
    return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph)
{
    return add_child("cudaGraphAddChildGraphNode", pGraphNode, graph, pDependencies, numDependencies, childGraph,
                     false);
}

static cudaError_t add_event_node(const char *api, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event, bool record)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = graph::check_add(api, pGraphNode, graph, deps, ndeps);
    if (e == cudaSuccess && !event) {
        runtime::diagnose("%s: event is NULL", api);
        e = cudaErrorInvalidValue;
    }
    if (e != cudaSuccess)
        return record_error(e);
    cudaGraphNode_t n = *pGraphNode = graph::add_node(
        graph, record ? cudaGraphNodeTypeEventRecord : cudaGraphNodeTypeWaitEvent, deps, ndeps);
    n->event = event;
    if (record)
        n->run = [event](cudaStream_t s) { return cudaEventRecord(event, s); };
    else /* streams run eagerly: the recorded work is done; the call checks the event */
        n->run = [event](cudaStream_t s) { return cudaStreamWaitEvent(s, event, 0); };
    return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                        cudaEvent_t event)
{
    return add_event_node("cudaGraphAddEventRecordNode", pGraphNode, graph, pDependencies, numDependencies, event,
                          true);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                      cudaEvent_t event)
{
    return add_event_node("cudaGraphAddEventWaitNode", pGraphNode, graph, pDependencies, numDependencies, event,
                          false);
}

static bool default_edges(const char *api, const cudaGraphEdgeData *data, size_t n)
{
    for (size_t i = 0; data && i < n; ++i)
        if (data[i].from_port || data[i].to_port || data[i].type) {
            runtime::diagnose("%s: dependencyData[%zu]: only default edges (ports 0, type 0) are emulated", api, i);
            return false;
        }
    return true;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                             struct cudaGraphNodeParams *p)
{
    if (!p) {
        runtime::diagnose("cudaGraphAddNode: nodeParams is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    if (!default_edges("cudaGraphAddNode", dependencyData, numDependencies))
        return record_error(cudaErrorNotSupported);
    const cudaGraphNode_t *deps = pDependencies;
    const size_t n = numDependencies;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes,
                                  p->kernel.kernelParams, p->kernel.extra};
        return cudaGraphAddKernelNode(pGraphNode, graph, deps, n, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags != 0) {
            runtime::diagnose("cudaGraphAddNode: nodeParams->memcpy.flags must be 0");
            return record_error(cudaErrorInvalidValue);
        }
        return cudaGraphAddMemcpyNode(pGraphNode, graph, deps, n, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize,
                              p->memset.width, p->memset.height};
        return cudaGraphAddMemsetNode(pGraphNode, graph, deps, n, &m);
    }
    case cudaGraphNodeTypeHost: {
        cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphAddHostNode(pGraphNode, graph, deps, n, &h);
    }
    case cudaGraphNodeTypeGraph:
        if (p->graph.ownership != cudaGraphChildGraphOwnershipClone &&
            p->graph.ownership != cudaGraphChildGraphOwnershipMove) {
            runtime::diagnose("cudaGraphAddNode: nodeParams->graph.ownership is not a cudaGraphChildGraphNodeOwnership");
            return record_error(cudaErrorInvalidValue);
        }
        return add_child("cudaGraphAddNode", pGraphNode, graph, deps, n, p->graph.graph,
                         p->graph.ownership == cudaGraphChildGraphOwnershipMove);
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(pGraphNode, graph, deps, n);
    case cudaGraphNodeTypeEventRecord: return cudaGraphAddEventRecordNode(pGraphNode, graph, deps, n, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent: return cudaGraphAddEventWaitNode(pGraphNode, graph, deps, n, p->eventWait.event);
    case cudaGraphNodeTypeMemAlloc: {
        cudaMemAllocNodeParams a;
        std::memcpy(&a, &p->alloc, sizeof a);
        cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, deps, n, &a);
        p->alloc.dptr = a.dptr;
        return e;
    }
    case cudaGraphNodeTypeMemFree: return cudaGraphAddMemFreeNode(pGraphNode, graph, deps, n, p->free.dptr);
    case cudaGraphNodeTypeConditional: {
        cudaError_t e = graph::add_conditional(pGraphNode, graph, deps, n, &p->conditional);
        return record_error(e);
    }
    default:
        runtime::diagnose("cudaGraphAddNode: nodeParams->type %d is not a node type the emulator has (external "
                          "semaphores are not emulated)",
                          static_cast<int>(p->type));
        return record_error(p->type == cudaGraphNodeTypeExtSemaphoreSignal ||
                                    p->type == cudaGraphNodeTypeExtSemaphoreWait
                                ? cudaErrorNotSupported
                                : cudaErrorInvalidValue);
    }
}

cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                struct cudaGraphNodeParams *nodeParams)
{
    return cudaGraphAddNode(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}

/* ---- node parameters --------------------------------------------------------------- */

extern "C++" { /* templates, inside the file's extern "C" */

/* XNodeGetParams: the node's parameters, unless stream capture made it
 * (known(node) false), whose parameters the emulator does not keep. */
template <class P, class Known, class Field>
static cudaError_t get_node_params(const char *api, cudaGraphNode_t node, cudaGraphNodeType type, P *out,
                                   const char *what, Known known, Field field)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_node(api, node, type, out);
    if (e == cudaSuccess && !known(node)) {
        runtime::diagnose("%s: the node was made by stream capture, and the emulator does not keep a captured "
                          "%s's parameters",
                          api, what);
        e = cudaErrorNotSupported;
    }
    if (e != cudaSuccess)
        return record_error(e);
    *out = field(node);
    return cudaSuccess;
}

/* XNodeSetParams: make(api, p, &run) checks and builds the step; store
 * keeps the parameters in the node. */
template <class P, class Make, class Store>
static cudaError_t set_node_params(const char *api, cudaGraphNode_t node, cudaGraphNodeType type, const P *p,
                                   Make make, Store store)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::step_fn run;
    cudaError_t e = check_node(api, node, type, p);
    if (e == cudaSuccess)
        e = make(api, p, &run);
    if (e != cudaSuccess)
        return record_error(e);
    node->run = std::move(run);
    store(node, *p);
    return cudaSuccess;
}

/* cudaGraphExecXNodeSetParams: the executable graph's step of the node,
 * rebuilt from p. */
template <class P, class Make>
static cudaError_t set_exec_node_params(const char *api, cudaGraphExec_t exec, cudaGraphNode_t node,
                                        cudaGraphNodeType type, const P *p, Make make)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e;
    graph::exec_step *s = exec_step_of(api, exec, node, type, p, &e);
    graph::step_fn run;
    if (s)
        e = make(api, p, &run);
    if (e != cudaSuccess)
        return record_error(e);
    s->run = std::move(run);
    return cudaSuccess;
}

} /* extern "C++" */

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
    return get_node_params(
        "cudaGraphKernelNodeGetParams", node, cudaGraphNodeTypeKernel, pNodeParams, "launch",
        [](cudaGraphNode_t n) { return n->kernel_known; }, [](cudaGraphNode_t n) { return n->kernel; });
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const struct cudaKernelNodeParams *pNodeParams)
{
    const char *api = "cudaGraphKernelNodeSetParams";
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::step_fn run;
    std::vector<void *> args;
    cudaError_t e = check_node(api, node, cudaGraphNodeTypeKernel, pNodeParams);
    if (e == cudaSuccess)
        e = graph::make_kernel_run(api, pNodeParams, &run, &args);
    if (e != cudaSuccess)
        return record_error(e);
    node->run = std::move(run);
    node->kernel = *pNodeParams;
    node->kernel_args = std::move(args);
    node->kernel.kernelParams = node->kernel_args.data();
    node->kernel_known = true;
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms *pNodeParams)
{
    return get_node_params(
        "cudaGraphMemcpyNodeGetParams", node, cudaGraphNodeTypeMemcpy, pNodeParams, "copy",
        [](cudaGraphNode_t n) { return n->copy.dstPtr.ptr != nullptr; }, [](cudaGraphNode_t n) { return n->copy; });
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms *pNodeParams)
{
    return set_node_params("cudaGraphMemcpyNodeSetParams", node, cudaGraphNodeTypeMemcpy, pNodeParams,
                           graph::make_memcpy_run,
                           [](cudaGraphNode_t n, const cudaMemcpy3DParms &p) { n->copy = p; });
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst, const void *src, size_t count,
                                           enum cudaMemcpyKind kind)
{
    const cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
    return cudaGraphMemcpyNodeSetParams(node, &p);
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams *pNodeParams)
{
    return get_node_params(
        "cudaGraphMemsetNodeGetParams", node, cudaGraphNodeTypeMemset, pNodeParams, "memset",
        [](cudaGraphNode_t n) { return n->set.dst != nullptr; }, [](cudaGraphNode_t n) { return n->set; });
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams *pNodeParams)
{
    return set_node_params("cudaGraphMemsetNodeSetParams", node, cudaGraphNodeTypeMemset, pNodeParams,
                           graph::make_memset_run,
                           [](cudaGraphNode_t n, const cudaMemsetParams &p) { n->set = p; });
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
    return get_node_params(
        "cudaGraphHostNodeGetParams", node, cudaGraphNodeTypeHost, pNodeParams, "host function",
        [](cudaGraphNode_t n) { return n->host.fn != nullptr; }, [](cudaGraphNode_t n) { return n->host; });
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
    return set_node_params("cudaGraphHostNodeSetParams", node, cudaGraphNodeTypeHost, pNodeParams,
                           graph::make_host_run,
                           [](cudaGraphNode_t n, const cudaHostNodeParams &p) { n->host = p; });
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_node("cudaGraphChildGraphNodeGetGraph", node, cudaGraphNodeTypeGraph, pGraph);
    if (e == cudaSuccess && !node->child) {
        runtime::diagnose("cudaGraphChildGraphNodeGetGraph: the node is a graph launched into a stream capture; "
                          "the emulator keeps no graph for it");
        e = cudaErrorNotSupported;
    }
    if (e != cudaSuccess)
        return record_error(e);
    *pGraph = node->child;
    return cudaSuccess;
}

static cudaError_t event_of(const char *api, cudaGraphNode_t node, cudaGraphNodeType type, cudaEvent_t *out)
{
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_node(api, node, type, out);
    if (e != cudaSuccess)
        return record_error(e);
    *out = node->event;
    return cudaSuccess;
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_of("cudaGraphEventRecordNodeGetEvent", node, cudaGraphNodeTypeEventRecord, event_out);
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out)
{
    return event_of("cudaGraphEventWaitNodeGetEvent", node, cudaGraphNodeTypeWaitEvent, event_out);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams *p)
{
    if (!p) {
        runtime::diagnose("cudaGraphNodeSetParams: nodeParams is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes,
                                  p->kernel.kernelParams, p->kernel.extra};
        return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize,
                              p->memset.width, p->memset.height};
        return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
        cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphHostNodeSetParams(node, &h);
    }
    default:
        runtime::diagnose("cudaGraphNodeSetParams: the emulator sets the parameters of kernel, memcpy, memset and "
                          "host nodes only (type %d)",
                          static_cast<int>(p->type));
        return record_error(cudaErrorNotSupported);
    }
}

/* ---- executable graphs -------------------------------------------------------------- */

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams *pNodeParams)
{
    const char *api = "cudaGraphExecKernelNodeSetParams";
    std::lock_guard<std::mutex> hold(graph_lock);
    graph::step_fn run;
    cudaError_t e = graph::make_kernel_run(api, pNodeParams, &run, nullptr); /* CUDA checks the function first */
    graph::exec_step *s = nullptr;
    if (e == cudaSuccess)
        s = exec_step_of(api, hGraphExec, node, cudaGraphNodeTypeKernel, pNodeParams, &e);
    if (e != cudaSuccess)
        return record_error(e);
    s->run = std::move(run);
    return cudaSuccess;
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms *pNodeParams)
{
    return set_exec_node_params("cudaGraphExecMemcpyNodeSetParams", hGraphExec, node, cudaGraphNodeTypeMemcpy,
                                pNodeParams, graph::make_memcpy_run);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void *dst,
                                               const void *src, size_t count, enum cudaMemcpyKind kind)
{
    const cudaMemcpy3DParms p = copy_1d(dst, src, count, kind);
    return cudaGraphExecMemcpyNodeSetParams(hGraphExec, node, &p);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams *pNodeParams)
{
    return set_exec_node_params("cudaGraphExecMemsetNodeSetParams", hGraphExec, node, cudaGraphNodeTypeMemset,
                                pNodeParams, graph::make_memset_run);
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams *pNodeParams)
{
    return set_exec_node_params("cudaGraphExecHostNodeSetParams", hGraphExec, node, cudaGraphNodeTypeHost,
                                pNodeParams, graph::make_host_run);
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                 cudaGraph_t childGraph)
{
    const char *api = "cudaGraphExecChildGraphNodeSetParams";
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e;
    graph::exec_step *s = exec_step_of(api, hGraphExec, node, cudaGraphNodeTypeGraph, childGraph, &e);
    if (s && !graph::live_graph(childGraph)) {
        runtime::diagnose("%s: childGraph is not a live graph", api);
        e = cudaErrorInvalidValue;
    }
    auto body = std::make_shared<graph::steps>();
    if (e == cudaSuccess)
        e = graph::compile_graph(childGraph, body.get(), "child graph");
    if (e != cudaSuccess)
        return record_error(e);
    s->run = [body](cudaStream_t st) { return graph::run_steps(*body, st); };
    return cudaSuccess;
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       struct cudaGraphNodeParams *p)
{
    if (!p) {
        runtime::diagnose("cudaGraphExecNodeSetParams: nodeParams is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        cudaKernelNodeParams k = {p->kernel.func, p->kernel.gridDim, p->kernel.blockDim, p->kernel.sharedMemBytes,
                                  p->kernel.kernelParams, p->kernel.extra};
        return cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        cudaMemsetParams m = {p->memset.dst, p->memset.pitch, p->memset.value, p->memset.elementSize,
                              p->memset.width, p->memset.height};
        return cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
        cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphExecHostNodeSetParams(graphExec, node, &h);
    }
    case cudaGraphNodeTypeGraph: return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p->graph.graph);
    default:
        runtime::diagnose("cudaGraphExecNodeSetParams: the emulator updates kernel, memcpy, memset, host and child "
                          "graph nodes only (type %d)",
                          static_cast<int>(p->type));
        return record_error(cudaErrorNotSupported);
    }
}

/* cudaGraphExecUpdate: the graph must have the executable graph's shape
 * (the same number of nodes, added in the same order, of the same types,
 * with the same edges); then every step is remade from the graph's node at
 * the same place. Memory nodes cannot be updated. */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo)
{
    const char *api = "cudaGraphExecUpdate";
    std::lock_guard<std::mutex> hold(graph_lock);
    if (!graph::live_exec(hGraphExec) || !graph::live_graph(hGraph) || !resultInfo) {
        runtime::diagnose("%s: %s", api, !resultInfo                     ? "resultInfo is NULL"
                                         : !graph::live_exec(hGraphExec) ? "hGraphExec is not a live executable graph"
                                                                         : "hGraph is not a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    auto fail = [&](cudaGraphExecUpdateResult r, cudaGraphNode_t node, cudaGraphNode_t from, const char *why) {
        resultInfo->result = r;
        resultInfo->errorNode = node;
        resultInfo->errorFromNode = from;
        runtime::diagnose("%s: %s", api, why);
        return record_error(cudaErrorGraphExecUpdateFailure);
    };
    *resultInfo = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateSuccess, nullptr, nullptr};
    simtlab_emu_graph_exec *x = hGraphExec;
    if (hGraph->nodes.size() != x->origin_nodes.size())
        return fail(cudaGraphExecUpdateErrorTopologyChanged, nullptr, nullptr,
                    "hGraph has a different number of nodes than hGraphExec's graph");
    std::unordered_map<cudaGraphNode_t, std::size_t> index;
    for (std::size_t i = 0; i < hGraph->nodes.size(); ++i)
        index[hGraph->nodes[i].get()] = i;
    for (std::size_t i = 0; i < hGraph->nodes.size(); ++i) {
        cudaGraphNode_t n = hGraph->nodes[i].get();
        if (n->type != x->origin_types[i])
            return fail(cudaGraphExecUpdateErrorNodeTypeChanged, n, nullptr,
                        "a node of hGraph has another type than the node at its place in hGraphExec's graph");
        std::vector<std::size_t> deps;
        for (cudaGraphNode_t d : n->deps)
            deps.push_back(index.at(d));
        std::vector<std::size_t> want = x->origin_deps[i];
        std::sort(deps.begin(), deps.end());
        std::sort(want.begin(), want.end());
        if (deps != want)
            return fail(cudaGraphExecUpdateErrorTopologyChanged, n, nullptr,
                        "a node of hGraph has other dependencies than the node at its place in hGraphExec's graph");
        if (n->type == cudaGraphNodeTypeMemAlloc || n->type == cudaGraphNodeTypeMemFree)
            return fail(cudaGraphExecUpdateErrorNotSupported, n, nullptr,
                        "graphs with memory allocation or free nodes cannot be updated");
    }
    std::vector<graph::step_fn> runs(hGraph->nodes.size());
    for (std::size_t i = 0; i < hGraph->nodes.size(); ++i) {
        cudaError_t e = graph::compile_node(hGraph->nodes[i].get(), &runs[i]);
        if (e != cudaSuccess)
            return fail(cudaGraphExecUpdateError, hGraph->nodes[i].get(), nullptr, "a node of hGraph is not valid");
    }
    for (graph::exec_step &s : x->order)
        for (std::size_t i = 0; i < x->origin_nodes.size(); ++i)
            if (x->origin_nodes[i] == s.origin)
                s.run = runs[i];
    x->handles = hGraph->handles;
    return cudaSuccess;
}

} /* extern "C" */
