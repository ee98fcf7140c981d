/* simtlab CPU emulator — what the graph files share: runtime/graph.cpp
 * (graphs, instantiation, launches), runtime/graph_capture.cpp (stream
 * capture), runtime/graph_edges.cpp (structure), runtime/graph_nodes.cpp (node
 * constructors, parameters, executable updates), runtime/graph_memory.cpp
 * (allocation and free nodes) and runtime/graph_conditional.cpp
 * (conditional nodes).
 *
 * A graph holds its nodes in the order they were added; each node lists
 * the nodes it depends on (its incoming edges). Instantiation orders the
 * nodes topologically (among ready nodes, the one added first) and turns
 * each into a step: a function that performs the node's work on a stream.
 * A child graph or conditional node's step runs the steps of its compiled
 * body graphs. Everything here is guarded by graph_lock, except running
 * the steps, which happens outside it.
 */
#ifndef SIMTLAB_EMU_RUNTIME_GRAPH_INTERNAL_HPP
#define SIMTLAB_EMU_RUNTIME_GRAPH_INTERNAL_HPP

#include "runtime/internal.hpp"

#include <simtlab_emu/launch.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace simtlab_emu {
namespace graph {

using step_fn = std::function<cudaError_t(cudaStream_t)>;
struct allocation; /* runtime/graph_memory.cpp */
struct condition;  /* runtime/graph_conditional.cpp */

} /* namespace graph */
} /* namespace simtlab_emu */

struct simtlab_emu_graph_node {
    cudaGraphNodeType type;
    cudaGraph_t graph;                   /* the graph it belongs to */
    std::vector<cudaGraphNode_t> deps;   /* incoming edges */
    cudaGraphNode_t clone_of = nullptr;  /* set by cudaGraphClone */
    simtlab_emu::graph::step_fn run;     /* the work, for nodes whose step is a plain function */
    /* Parameters, by type. A kernel node made by stream capture has a run
     * but no recorded parameters (kernel_known false). */
    bool kernel_known = false;
    cudaKernelNodeParams kernel{};
    std::vector<void *> kernel_args; /* addresses of the bound argument copies */
    cudaMemcpy3DParms copy{};
    cudaMemsetParams set{};
    cudaHostNodeParams host{};
    cudaEvent_t event = nullptr;
    cudaGraph_t child = nullptr;                          /* child graph node: its own copy */
    std::shared_ptr<simtlab_emu::graph::allocation> alloc; /* allocation node */
    void *free_ptr = nullptr;                             /* free node */
    std::shared_ptr<simtlab_emu::graph::condition> cond;  /* conditional node */
    cudaGraphConditionalNodeType cond_type = cudaGraphCondTypeIf;
    std::vector<cudaGraph_t> bodies;                      /* conditional node: its body graphs */
};

struct simtlab_emu_graph {
    std::vector<std::unique_ptr<simtlab_emu_graph_node>> nodes;
    cudaGraphNode_t parent = nullptr; /* the child-graph or conditional node that owns it */
    std::vector<std::shared_ptr<simtlab_emu::graph::condition>> handles; /* made on it */
    unsigned long long serial = 0;
    int execs = 0; /* live executable graphs made from it */
};

namespace simtlab_emu {
namespace graph {

struct exec_step {
    cudaGraphNode_t origin; /* the node it was made from (only compared) */
    cudaGraphNodeType type;
    step_fn run;             /* empty: nothing to do */
    bool enabled = true;     /* cudaGraphNodeSetEnabled */
};
using steps = std::vector<exec_step>;

} /* namespace graph */
} /* namespace simtlab_emu */

struct simtlab_emu_graph_exec {
    simtlab_emu::graph::steps order;
    unsigned long long flags = 0;
    unsigned long long source_serial = 0;
    /* The source graph's shape, for cudaGraphExecUpdate: its nodes in the
     * order added, their types, and each one's dependencies as indices. */
    std::vector<cudaGraphNode_t> origin_nodes;
    std::vector<cudaGraphNodeType> origin_types;
    std::vector<std::vector<std::size_t>> origin_deps;
    std::vector<std::shared_ptr<simtlab_emu::graph::allocation>> allocs;  /* made by its allocation nodes */
    std::vector<std::shared_ptr<simtlab_emu::graph::condition>> handles; /* set to their default at launch */
};

namespace simtlab_emu {
namespace graph {

extern std::mutex graph_lock; /* guards every graph, node and executable graph */

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

/* Capturing streams, the stream each capture began on (by graph), and
 * the captures events recorded (runtime/graph_capture.cpp). */
extern std::unordered_map<cudaStream_t, capture_state> capturing;
extern std::unordered_map<cudaGraph_t, capture_origin_info> capture_origin;
extern std::unordered_map<cudaEvent_t, capture_state> captured_events;
/* The node type's name, for diagnostics ("memory free"). */
const char *type_name(cudaGraphNodeType t);

bool live_graph(cudaGraph_t graph);
bool live_exec(cudaGraphExec_t exec);
/* Whether `node` is a node of a live graph. */
bool live_node(cudaGraphNode_t node);
cudaGraphNode_t add_node(cudaGraph_t graph, cudaGraphNodeType type, const cudaGraphNode_t *deps, std::size_t ndeps);
/* The common checks of the cudaGraphAdd*Node calls: sets a diagnostic
 * naming `api` and the argument and returns the error. */
cudaError_t check_add(const char *api, cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                      std::size_t ndeps);
/* A new empty graph (registered as live), and a graph's destruction with
 * everything it owns. */
cudaGraph_t new_graph();
void destroy_graph(cudaGraph_t graph);
/* Copies the nodes of `from` into the empty graph `to`, edges included
 * (memory and conditional nodes excepted: the callers refuse them). */
void clone_into(cudaGraph_t from, cudaGraph_t to);
/* The node's own step (kernel, copy, memset, host, event, captured work);
 * for child graphs, memory and conditional nodes, compiles what they hold.
 * Returns cudaSuccess or an error with a diagnostic. */
cudaError_t compile_node(cudaGraphNode_t node, step_fn *out);
/* A graph's nodes in dependency order, compiled. `body` names what it is
 * for in diagnostics ("conditional body"), nullptr for a top-level graph. */
cudaError_t compile_graph(cudaGraph_t graph, steps *out, const char *body);
cudaError_t run_steps(const steps &s, cudaStream_t stream);
/* True if a graph (or a graph nested in it) has a node of this type. */
bool graph_has(cudaGraph_t graph, cudaGraphNodeType type);

/* The binder of a kernel's parameter types (launch.hpp), if it was seen. */
simtlab_emu::detail::args_binder find_binder(const void *kernel);
/* A launch of the kernel at `kernel` with copies of the values at args[i],
 * made with its binder; values, where not null, receives each copy's
 * address. Empty when args is NULL and the kernel has parameters. */
simtlab_emu::detail::bound_launch bind_launch(simtlab_emu::detail::args_binder bind, const simtlab_emu::launch_site &site,
                                             const void *kernel, dim3 grid, dim3 block, std::size_t shmem,
                                             void **args, std::vector<void *> *values);
/* Adds a node to the graph `stream` captures into, after the stream's
 * last captured work; nullptr if the stream is not capturing. */
cudaGraphNode_t capture_add(cudaStream_t stream, cudaGraphNodeType type);

/* ---- node parameters (runtime/graph_nodes.cpp) ---- */
cudaError_t make_kernel_run(const char *api, const cudaKernelNodeParams *p, step_fn *run, std::vector<void *> *args);
cudaError_t make_memcpy_run(const char *api, const cudaMemcpy3DParms *p, step_fn *run);
cudaError_t make_memset_run(const char *api, const cudaMemsetParams *p, step_fn *run);
cudaError_t make_host_run(const char *api, const cudaHostNodeParams *p, step_fn *run);

/* ---- memory nodes (runtime/graph_memory.cpp) ---- */
/* Reserves the address of a new allocation node's memory. */
cudaError_t new_allocation(const char *api, cudaGraph_t graph, std::size_t bytes,
                           std::shared_ptr<allocation> *out);
void *allocation_address(const allocation &a);
std::size_t allocation_bytes(const allocation &a);
/* Checks that a free node of `graph` may free `ptr`, and records it. */
cudaError_t note_free_node(const char *api, cudaGraph_t graph, void *ptr);
step_fn allocation_step(std::shared_ptr<allocation> a);
step_fn free_step(void *ptr);
/* Before a launch of an executable graph: its allocations from the last
 * launch must have been freed (or are freed now, with auto-free). */
cudaError_t check_allocations_before_launch(simtlab_emu_graph_exec *exec);

/* ---- conditional nodes (runtime/graph_conditional.cpp) ---- */
cudaError_t add_conditional(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *deps,
                            std::size_t ndeps, cudaConditionalNodeParams *p);
step_fn conditional_step(cudaGraphNode_t node, std::vector<std::shared_ptr<steps>> bodies);
void reset_conditions(const std::vector<std::shared_ptr<condition>> &handles);
/* Whether a conditional node of `graph` (or of a graph nested in it) uses `c`. */
bool handle_used(cudaGraph_t graph, const condition *c);

} /* namespace graph */
} /* namespace simtlab_emu */

#endif
