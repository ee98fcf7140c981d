/* simtlab CPU emulator — a graph's structure: its nodes, edges and root
 * nodes, each node's dependencies and dependents, adding and removing
 * edges, clones' nodes, node types, and a DOT picture of it.
 *
 * Every edge is a default one (full completion of the upstream node, no
 * ports): edge data other than zeros is refused. An edge that closes a
 * cycle is accepted, as CUDA does; the graph then does not instantiate.
 */
#include "runtime/graph_internal.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

using namespace simtlab_emu;
using graph::graph_lock;
using graph::live_graph;

namespace {

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

} /* namespace */

extern "C" {

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

} /* extern "C" */
