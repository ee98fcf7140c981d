/* simtlab CPU emulator — conditional graph nodes (IF, IF/ELSE, WHILE,
 * SWITCH) and their handles.
 *
 * A handle is a condition value that belongs to one graph. Kernels set it
 * with cudaGraphSetConditional; a handle made with
 * cudaGraphCondAssignDefault is set to its default at the start of each
 * launch of its graph. A conditional node reads the value when it runs
 * (WHILE: before each pass over its body) and runs the chosen body graph's
 * steps on the launch's stream. The body graphs belong to the node: they
 * are made with it (cudaGraphNodeParams::conditional.phGraph_out) and may
 * be filled by the node constructors or by cudaStreamBeginCaptureToGraph.
 */
#include "runtime/graph_internal.hpp"

#include <atomic>
#include <cinttypes>
#include <unordered_set>

namespace simtlab_emu {
namespace graph {

struct condition {
    unsigned long long graph_serial;
    unsigned default_value;
    unsigned flags;
    std::atomic<unsigned> value;
};

namespace {

/* Live handles, for cudaGraphSetConditional's check. A handle outlives
 * its graph while an executable graph made from it holds it. */
std::mutex handle_lock;
std::unordered_set<const condition *> live_handles;

condition *from_handle(cudaGraphConditionalHandle h) { return reinterpret_cast<condition *>(h); }

struct handle_deleter {
    void operator()(condition *c) const
    {
        {
            std::lock_guard<std::mutex> hold(handle_lock);
            live_handles.erase(c);
        }
        delete c;
    }
};

/* The graph's handle `h`, or one of the graphs it is nested in. */
std::shared_ptr<condition> find_handle(cudaGraph_t graph, cudaGraphConditionalHandle h)
{
    for (cudaGraph_t g = graph; g; g = g->parent ? g->parent->graph : nullptr)
        for (const auto &c : g->handles)
            if (reinterpret_cast<cudaGraphConditionalHandle>(c.get()) == h)
                return c;
    return nullptr;
}

} /* namespace */

cudaError_t add_conditional(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                            std::size_t ndeps, cudaConditionalNodeParams *p)
{
    const char *api = "cudaGraphAddNode (conditional)";
    std::lock_guard<std::mutex> hold(graph_lock);
    cudaError_t e = check_add(api, pGraphNode, graph, deps, ndeps);
    if (e != cudaSuccess)
        return e;
    std::shared_ptr<condition> c = find_handle(graph, p->handle);
    const char *why = nullptr;
    if (!c)
        why = "conditional.handle was not made for this graph (cudaGraphConditionalHandleCreate)";
    else if (p->type != cudaGraphCondTypeIf && p->type != cudaGraphCondTypeWhile && p->type != cudaGraphCondTypeSwitch)
        why = "conditional.type is not a cudaGraphConditionalNodeType";
    else if ((p->type == cudaGraphCondTypeIf && p->size != 1 && p->size != 2) ||
             (p->type == cudaGraphCondTypeWhile && p->size != 1) || (p->type == cudaGraphCondTypeSwitch && p->size == 0))
        why = "conditional.size must be 1 or 2 for IF, 1 for WHILE, at least 1 for SWITCH";
    else if (p->size > 1024)
        why = "conditional.size is over 1024 bodies";
    if (why) {
        runtime::diagnose("%s: %s", api, why);
        return cudaErrorInvalidValue;
    }
    cudaGraphNode_t n = *pGraphNode = add_node(graph, cudaGraphNodeTypeConditional, deps, ndeps);
    n->cond = c;
    n->cond_type = p->type;
    for (unsigned i = 0; i < p->size; ++i) {
        cudaGraph_t body = new_graph();
        body->parent = n;
        n->bodies.push_back(body);
    }
    p->phGraph_out = n->bodies.data();
    return cudaSuccess;
}

step_fn conditional_step(cudaGraphNode_t node, std::vector<std::shared_ptr<steps>> bodies)
{
    std::shared_ptr<condition> c = node->cond;
    const cudaGraphConditionalNodeType type = node->cond_type;
    return [c, type, bodies](cudaStream_t s) {
        const std::size_t n = bodies.size();
        switch (type) {
        case cudaGraphCondTypeIf: {
            unsigned v = c->value.load();
            if (v)
                return run_steps(*bodies[0], s);
            return n == 2 ? run_steps(*bodies[1], s) : cudaSuccess;
        }
        case cudaGraphCondTypeWhile:
            while (c->value.load()) {
                cudaError_t e = run_steps(*bodies[0], s);
                if (e != cudaSuccess)
                    return e;
            }
            return cudaSuccess;
        default: {
            unsigned v = c->value.load();
            return v < n ? run_steps(*bodies[v], s) : cudaSuccess;
        }
        }
    };
}

bool handle_used(cudaGraph_t graph, const condition *c)
{
    for (const auto &n : graph->nodes) {
        if (n->cond.get() == c || (n->child && handle_used(n->child, c)))
            return true;
        for (cudaGraph_t b : n->bodies)
            if (handle_used(b, c))
                return true;
    }
    return false;
}

void reset_conditions(const std::vector<std::shared_ptr<condition>> &handles)
{
    for (const auto &c : handles)
        if (c->flags & cudaGraphCondAssignDefault)
            c->value.store(c->default_value);
}

} /* namespace graph */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags)
{
    const char *api = "cudaGraphConditionalHandleCreate";
    std::lock_guard<std::mutex> hold(graph::graph_lock);
    if (!pHandle_out || !graph::live_graph(graph) || (flags & ~static_cast<unsigned>(cudaGraphCondAssignDefault))) {
        runtime::diagnose("%s: %s", api, !pHandle_out               ? "pHandle_out is NULL"
                                         : !graph::live_graph(graph) ? "graph is not a live graph"
                                                                     : "flags must be 0 or cudaGraphCondAssignDefault");
        return record_error(cudaErrorInvalidValue);
    }
    std::shared_ptr<graph::condition> c(new graph::condition, graph::handle_deleter{});
    c->graph_serial = graph->serial;
    c->default_value = defaultLaunchValue;
    c->flags = flags;
    c->value.store(defaultLaunchValue);
    {
        std::lock_guard<std::mutex> h(graph::handle_lock);
        graph::live_handles.insert(c.get());
    }
    graph->handles.push_back(c);
    *pHandle_out = reinterpret_cast<cudaGraphConditionalHandle>(c.get());
    return cudaSuccess;
}

void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value)
{
    graph::condition *c = graph::from_handle(handle);
    {
        std::lock_guard<std::mutex> hold(graph::handle_lock);
        if (!graph::live_handles.count(c)) {
            runtime::diagnose("cudaGraphSetConditional: handle 0x%llx is not a live conditional handle "
                              "(cudaGraphConditionalHandleCreate)",
                              handle);
            (void)record_error(cudaErrorInvalidValue);
            return;
        }
    }
    c->value.store(value);
}

} /* extern "C" */
