/* simtlab CPU emulator — graph memory: allocation and free nodes,
 * cudaMallocAsync / cudaFreeAsync under stream capture, and the device's
 * graph memory attributes.
 *
 * An allocation node owns one address for its graph's lifetime: a device
 * allocation made when the node is added (so kernels, copies, memcheck and
 * the leak list all see ordinary device memory). Running the node makes
 * the allocation live; a free node in the same graph, a free node of
 * another graph, cudaFree or cudaFreeAsync end its life. The memory itself
 * is given back once the allocation is not live and neither its graph nor
 * an executable graph made from it holds it any more; an allocation still
 * live then is given back when the program frees it.
 *
 * The counters follow CUDA's definitions: "used" is the memory associated
 * with graph allocations. A GPU keeps the physical memory of a freed graph
 * allocation for the next one (allocations whose lives do not overlap
 * share it) until cudaDeviceGraphMemTrim gives back what no live
 * allocation needs; so used grows to the most that was live at once and
 * shrinks only by a trim. "Reserved" (what the graph allocator holds) is
 * the same figure here: the emulator keeps nothing beyond it. Streams run
 * one after another in the emulator, so graphs launched "concurrently" on
 * several streams share that memory too.
 */
#include "runtime/graph_internal.hpp"

#include <algorithm>
#include <cinttypes>
#include <map>

namespace simtlab_emu {
namespace graph {

struct allocation {
    void *ptr = nullptr;
    std::size_t bytes = 0;
    bool live = false;
    unsigned long long owner = 0; /* the serial of the graph whose node made it */
    bool owner_frees = false;     /* its own graph has a free node for it */
    ~allocation();
};

namespace {

std::mutex mem_lock; /* guards what follows (taken after graph_lock, never before it) */
std::map<void *, allocation *> owned;          /* allocations some graph or executable graph holds */
std::map<void *, std::size_t> orphans;         /* live allocations no graph holds any more */
unsigned long long live_bytes = 0; /* of live graph allocations */
unsigned long long used = 0, used_high = 0, reserved_high = 0; /* used: memory associated with them */

void became_live(std::size_t bytes)
{
    live_bytes += bytes;
    used = std::max(used, live_bytes);
    used_high = std::max(used_high, used);
    reserved_high = std::max(reserved_high, used);
}

cudaError_t check_device(const char *api, int device)
{
    if (device != 0) {
        runtime::diagnose("%s: device %d does not exist (the emulator has one device, 0)", api, device);
        return record_error(cudaErrorInvalidDevice);
    }
    return cudaSuccess;
}

/* The end of a graph allocation's life (a free node, cudaFree). */
cudaError_t end_life(const char *what, void *ptr, bool *give_back)
{
    *give_back = false;
    std::lock_guard<std::mutex> hold(mem_lock);
    auto it = owned.find(ptr);
    if (it != owned.end()) {
        if (!it->second->live) {
            runtime::diagnose("%s: graph allocation 0x%" PRIxPTR " (%zu bytes) is not live: it was freed already, "
                              "or its graph has not run its allocation node",
                              what, reinterpret_cast<std::uintptr_t>(ptr), it->second->bytes);
            return cudaErrorInvalidValue;
        }
        it->second->live = false;
        live_bytes -= it->second->bytes;
        return cudaSuccess;
    }
    auto o = orphans.find(ptr);
    if (o != orphans.end()) {
        live_bytes -= o->second;
        orphans.erase(o);
        *give_back = true;
        return cudaSuccess;
    }
    runtime::diagnose("%s: 0x%" PRIxPTR " is not a live graph allocation", what, reinterpret_cast<std::uintptr_t>(ptr));
    return cudaErrorInvalidValue;
}

} /* namespace */

allocation::~allocation()
{
    {
        std::lock_guard<std::mutex> hold(mem_lock);
        owned.erase(ptr);
        if (live) { /* the program frees it later */
            orphans[ptr] = bytes;
            return;
        }
    }
    (void)cudaFree(ptr); /* no longer a graph allocation: freed as device memory */
}

void *allocation_address(const allocation &a) { return a.ptr; }
std::size_t allocation_bytes(const allocation &a) { return a.bytes; }

cudaError_t new_allocation(const char *api, cudaGraph_t graph, std::size_t bytes, std::shared_ptr<allocation> *out)
{
    void *p = nullptr;
    cudaError_t e = runtime::allocate_device(api, &p, bytes,
                                             "a graph allocation node (live while its graph or an executable graph "
                                             "made from it exists, or until freed)",
                                             0, false);
    if (e != cudaSuccess)
        return e;
    auto a = std::make_shared<allocation>();
    a->ptr = p;
    a->bytes = bytes;
    a->owner = graph->serial;
    std::lock_guard<std::mutex> hold(mem_lock);
    owned[p] = a.get();
    *out = std::move(a);
    return cudaSuccess;
}

cudaError_t note_free_node(const char *api, cudaGraph_t graph, void *ptr)
{
    std::lock_guard<std::mutex> hold(mem_lock);
    auto it = owned.find(ptr);
    if (it == owned.end() && !orphans.count(ptr)) {
        runtime::diagnose("%s: dptr 0x%" PRIxPTR " was not returned by a graph allocation node (or "
                          "cudaMallocAsync under capture)",
                          api, reinterpret_cast<std::uintptr_t>(ptr));
        return cudaErrorInvalidValue;
    }
    if (it != owned.end() && it->second->owner_frees) {
        runtime::diagnose("%s: dptr 0x%" PRIxPTR " is freed by a free node of its own graph already", api,
                          reinterpret_cast<std::uintptr_t>(ptr));
        return cudaErrorInvalidValue;
    }
    if (it != owned.end() && it->second->owner == graph->serial)
        it->second->owner_frees = true;
    return cudaSuccess;
}

step_fn allocation_step(std::shared_ptr<allocation> a)
{
    return [a](cudaStream_t) {
        std::lock_guard<std::mutex> hold(mem_lock);
        if (a->live) {
            runtime::diagnose("graph allocation node: its allocation 0x%" PRIxPTR " is still live",
                              reinterpret_cast<std::uintptr_t>(a->ptr));
            return record_error(cudaErrorInvalidValue);
        }
        a->live = true;
        became_live(a->bytes);
        return cudaSuccess;
    };
}

step_fn free_step(void *ptr)
{
    return [ptr](cudaStream_t) {
        bool give_back;
        cudaError_t e = end_life("graph free node", ptr, &give_back);
        if (give_back)
            (void)cudaFree(ptr);
        return record_error(e);
    };
}

cudaError_t check_allocations_before_launch(simtlab_emu_graph_exec *exec)
{
    std::lock_guard<std::mutex> hold(mem_lock);
    for (const auto &a : exec->allocs) {
        if (!a->live)
            continue;
        if (!(exec->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) {
            runtime::diagnose("cudaGraphLaunch: the graph's allocation 0x%" PRIxPTR " (%zu bytes) from its last "
                              "launch has not been freed (free it, or instantiate with "
                              "cudaGraphInstantiateFlagAutoFreeOnLaunch)",
                              reinterpret_cast<std::uintptr_t>(a->ptr), a->bytes);
            return cudaErrorInvalidValue;
        }
        a->live = false;
        live_bytes -= a->bytes;
    }
    return cudaSuccess;
}

} /* namespace graph */

namespace runtime {

bool free_graph_allocation(void *ptr, cudaError_t *result)
{
    {
        std::lock_guard<std::mutex> hold(graph::mem_lock);
        if (!graph::owned.count(ptr) && !graph::orphans.count(ptr))
            return false;
        auto it = graph::owned.find(ptr);
        if (it != graph::owned.end() && it->second->owner_frees) {
            diagnose("cudaFree: 0x%" PRIxPTR " is a graph allocation that its own graph frees (a free node); it "
                     "cannot be freed outside that graph",
                     reinterpret_cast<std::uintptr_t>(ptr));
            *result = record_error(cudaErrorInvalidValue);
            return true;
        }
    }
    bool give_back;
    *result = record_error(graph::end_life("cudaFree", ptr, &give_back));
    return !give_back; /* an orphan is freed by cudaFree itself */
}

cudaError_t capture_malloc(const char *api, cudaStream_t stream, void **devPtr, std::size_t size)
{
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    *devPtr = nullptr;
    if (size == 0)
        return cudaSuccess;
    cudaGraphNode_t n = graph::capture_add(stream, cudaGraphNodeTypeMemAlloc);
    if (!n)
        return record_error(cudaErrorUnknown);
    cudaError_t e = graph::new_allocation(api, n->graph, size, &n->alloc);
    if (e != cudaSuccess) {
        n->type = cudaGraphNodeTypeEmpty; /* the capture keeps an empty node in its place */
        return e;
    }
    *devPtr = graph::allocation_address(*n->alloc);
    return cudaSuccess;
}

cudaError_t capture_free(const char *api, cudaStream_t stream, void *devPtr)
{
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    if (!devPtr)
        return cudaSuccess;
    cudaGraph_t g = nullptr;
    {
        /* Find the capture's graph to check the free against it. */
        cudaGraphNode_t n = graph::capture_add(stream, cudaGraphNodeTypeEmpty);
        if (!n)
            return record_error(cudaErrorUnknown);
        g = n->graph;
        cudaError_t e = graph::note_free_node(api, g, devPtr);
        if (e != cudaSuccess)
            return record_error(e); /* the empty node stays, as an ordering point */
        n->type = cudaGraphNodeTypeMemFree;
        n->free_ptr = devPtr;
    }
    return cudaSuccess;
}

} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams *p)
{
    const char *api = "cudaGraphAddMemAllocNode";
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    cudaError_t e = graph::check_add(api, pGraphNode, graph, pDependencies, numDependencies);
    const char *why = nullptr;
    if (e == cudaSuccess) {
        if (!p)
            why = "nodeParams is NULL";
        else if (p->bytesize == 0)
            why = "nodeParams->bytesize is 0";
        else if (p->poolProps.allocType != cudaMemAllocationTypePinned)
            why = "nodeParams->poolProps.allocType must be cudaMemAllocationTypePinned";
        else if (p->poolProps.location.type != cudaMemLocationTypeDevice || p->poolProps.location.id != 0)
            why = "nodeParams->poolProps.location must be device 0 (cudaMemLocationTypeDevice, id 0)";
        else if (p->accessDescCount && !p->accessDescs)
            why = "nodeParams->accessDescs is NULL but accessDescCount is not 0";
        else if (graph->parent)
            why = "graph is a child graph or a conditional body, which may not hold memory nodes";
        for (size_t i = 0; !why && p && i < p->accessDescCount; ++i)
            if (p->accessDescs[i].location.type != cudaMemLocationTypeDevice || p->accessDescs[i].location.id != 0 ||
                (p->accessDescs[i].flags != cudaMemAccessFlagsProtNone &&
                 p->accessDescs[i].flags != cudaMemAccessFlagsProtRead &&
                 p->accessDescs[i].flags != cudaMemAccessFlagsProtReadWrite))
                why = "nodeParams->accessDescs: each must name device 0 and a cudaMemAccessFlags value";
        if (why) {
            runtime::diagnose("%s: %s", api, why);
            e = cudaErrorInvalidValue;
        }
    }
    if (e != cudaSuccess)
        return record_error(e);
    std::shared_ptr<graph::allocation> a;
    if ((e = graph::new_allocation(api, graph, p->bytesize, &a)) != cudaSuccess)
        return e;
    cudaGraphNode_t n = *pGraphNode =
        graph::add_node(graph, cudaGraphNodeTypeMemAlloc, pDependencies, numDependencies);
    n->alloc = std::move(a);
    p->dptr = graph::allocation_address(*n->alloc);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dptr)
{
    const char *api = "cudaGraphAddMemFreeNode";
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    cudaError_t e = graph::check_add(api, pGraphNode, graph, pDependencies, numDependencies);
    if (e == cudaSuccess && graph->parent) {
        runtime::diagnose("%s: graph is a child graph or a conditional body, which may not hold memory nodes", api);
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess)
        e = graph::note_free_node(api, graph, dptr);
    if (e != cudaSuccess)
        return record_error(e);
    cudaGraphNode_t n = *pGraphNode = graph::add_node(graph, cudaGraphNodeTypeMemFree, pDependencies, numDependencies);
    n->free_ptr = dptr;
    return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    if (!graph::live_node(node) || node->type != cudaGraphNodeTypeMemAlloc || !params_out) {
        runtime::diagnose("cudaGraphMemAllocNodeGetParams: %s",
                          !params_out ? "params_out is NULL" : "node is not an allocation node of a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    cudaMemAllocNodeParams p{};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = graph::allocation_bytes(*node->alloc);
    p.dptr = graph::allocation_address(*node->alloc);
    *params_out = p;
    return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    if (!graph::live_node(node) || node->type != cudaGraphNodeTypeMemFree || !dptr_out) {
        runtime::diagnose("cudaGraphMemFreeNodeGetParams: %s",
                          !dptr_out ? "dptr_out is NULL" : "node is not a free node of a live graph");
        return record_error(cudaErrorInvalidValue);
    }
    *static_cast<void **>(dptr_out) = node->free_ptr;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    const char *api = "cudaDeviceGetGraphMemAttribute";
    cudaError_t e = graph::check_device(api, device);
    if (e != cudaSuccess)
        return e;
    if (!value) {
        runtime::diagnose("%s: value is NULL", api);
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph::mem_lock);
    unsigned long long *out = static_cast<unsigned long long *>(value);
    switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: *out = graph::used; return cudaSuccess;
    case cudaGraphMemAttrUsedMemHigh: *out = graph::used_high; return cudaSuccess;
    case cudaGraphMemAttrReservedMemCurrent: *out = graph::used; return cudaSuccess;
    case cudaGraphMemAttrReservedMemHigh: *out = graph::reserved_high; return cudaSuccess;
    default:
        runtime::diagnose("%s: attr %d is not a cudaGraphMemAttributeType", api, static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType attr, void *value)
{
    const char *api = "cudaDeviceSetGraphMemAttribute";
    cudaError_t e = graph::check_device(api, device);
    if (e != cudaSuccess)
        return e;
    if (!value) {
        runtime::diagnose("%s: value is NULL", api);
        return record_error(cudaErrorInvalidValue);
    }
    if (attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh) {
        runtime::diagnose("%s: only the high-water marks (cudaGraphMemAttrUsedMemHigh, ReservedMemHigh) can be set",
                          api);
        return record_error(cudaErrorInvalidValue);
    }
    if (*static_cast<unsigned long long *>(value) != 0) {
        runtime::diagnose("%s: a high-water mark can only be reset, to 0", api);
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(graph::mem_lock);
    if (attr == cudaGraphMemAttrUsedMemHigh)
        graph::used_high = graph::used; /* the mark restarts at the current value */
    else
        graph::reserved_high = graph::used;
    return cudaSuccess;
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
    cudaError_t e = graph::check_device("cudaDeviceGraphMemTrim", device);
    if (e != cudaSuccess)
        return e;
    std::lock_guard<std::mutex> hold(graph::mem_lock);
    graph::used = graph::live_bytes; /* what no live allocation needs is given back */
    return cudaSuccess;
}

} /* extern "C" */
