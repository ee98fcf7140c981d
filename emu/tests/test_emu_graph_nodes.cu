/* Tests of the CUDA graph API beyond stream capture: nodes built by hand
 * (memset, kernel, memcpy, host) with edges added afterwards, executable
 * graph updates, memory allocation and free nodes with the device's graph
 * memory attributes, conditional IF and WHILE nodes, and bad arguments.
 * Inputs are random (the seed is printed; SIMTLAB_TEST_SEED repeats a run),
 * outputs are poisoned with NaN before each launch, references are
 * computed in double precision on the CPU.
 *
 *   build/bin/test_emu_graph_nodes --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <unistd.h>
#include <vector>

static bool diagnostic_has(const char *needle)
{
    return std::strstr(simtlab_emu_last_diagnostic(), needle) != nullptr;
}

static unsigned test_seed()
{
    const char *env = std::getenv("SIMTLAB_TEST_SEED");
    unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : std::random_device{}();
    std::printf("seed %u (SIMTLAB_TEST_SEED=%u repeats this run)\n", seed, seed);
    return seed;
}

/* Relative closeness; NaN is never close. */
static bool close_to(double got, double want) { return std::fabs(got - want) <= 1e-5 * (1.0 + std::fabs(want)); }

/* ---- a graph built by hand ------------------------------------------------------ */

/* Row r of y (pitched): y[r][c] += a * x[c] * (r + 1). */
__global__ void axpy_rows(const float *x, float *y, size_t pitch_floats, int cols, int rows, float a)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols && r < rows)
        y[r * pitch_floats + c] += a * x[c] * (r + 1);
}

struct host_note {
    int calls;
    float first_seen; /* what the host buffer held when the host node ran */
    const float *watch;
};

static void note_host(void *p)
{
    host_note *n = static_cast<host_note *>(p);
    n->calls++;
    n->first_seen = n->watch[0];
}

Test(graph_nodes, memset_kernel_memcpy_host_by_hand_match_the_cpu)
{
    std::mt19937 rng(test_seed());
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    const int cols = 1009, rows = 3; /* prime width, odd height */
    const float a = dist(rng);
    std::vector<float> x(cols);
    for (float &v : x)
        v = dist(rng);
    float *d_x, *d_y;
    size_t pitch;
    cr_assert_eq(cudaMalloc(&d_x, cols * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocPitch((void **)&d_y, &pitch, cols * sizeof(float), rows), cudaSuccess);
    std::vector<float> out(rows * cols);
    host_note note = {0, 0.0f, out.data()};

    cudaGraph_t graph;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    /* The host node is added first, with no dependencies: the edge added
     * at the end must still make it run last. */
    cudaGraphNode_t host_node, upload, set, kernel, download;
    cudaHostNodeParams hp = {note_host, &note};
    cr_assert_eq(cudaGraphAddHostNode(&host_node, graph, nullptr, 0, &hp), cudaSuccess);
    cr_assert_eq(cudaGraphAddMemcpyNode1D(&upload, graph, nullptr, 0, d_x, x.data(), cols * sizeof(float),
                                          cudaMemcpyHostToDevice),
                 cudaSuccess);
    const float start = 1.5f;
    unsigned bits;
    std::memcpy(&bits, &start, sizeof bits);
    cudaMemsetParams ms = {};
    ms.dst = d_y;
    ms.pitch = pitch;
    ms.value = bits;
    ms.elementSize = 4;
    ms.width = cols;
    ms.height = rows;
    cr_assert_eq(cudaGraphAddMemsetNode(&set, graph, nullptr, 0, &ms), cudaSuccess);
    size_t pitch_floats = pitch / sizeof(float);
    int ncols = cols, nrows = rows;
    float scale = a;
    void *args[] = {&d_x, &d_y, &pitch_floats, &ncols, &nrows, &scale};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)axpy_rows;
    kp.gridDim = dim3((cols + 127) / 128, rows);
    kp.blockDim = dim3(128);
    kp.kernelParams = args;
    cudaGraphNode_t before_kernel[] = {upload, set};
    cr_assert_eq(cudaGraphAddKernelNode(&kernel, graph, before_kernel, 2, &kp), cudaSuccess);
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = make_cudaPitchedPtr(d_y, pitch, cols, rows);
    cp.dstPtr = make_cudaPitchedPtr(out.data(), cols * sizeof(float), cols, rows);
    cp.extent = make_cudaExtent(cols * sizeof(float), rows, 1);
    cp.kind = cudaMemcpyDeviceToHost;
    cr_assert_eq(cudaGraphAddMemcpyNode(&download, graph, &kernel, 1, &cp), cudaSuccess);
    cr_assert_eq(cudaGraphAddDependencies(graph, &download, &host_node, nullptr, 1), cudaSuccess);

    /* Its shape, as the queries see it. */
    size_t count = 0;
    cr_assert_eq(cudaGraphGetRootNodes(graph, nullptr, &count), cudaSuccess);
    cr_expect_eq(count, 2u);
    cr_assert_eq(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count), cudaSuccess);
    cr_expect_eq(count, 4u);
    cudaGraphNode_t from[4], to[4];
    cr_assert_eq(cudaGraphGetEdges(graph, from, to, nullptr, &count), cudaSuccess);
    bool download_to_host = false;
    for (size_t i = 0; i < count; ++i)
        download_to_host = download_to_host || (from[i] == download && to[i] == host_node);
    cr_expect(download_to_host);
    cudaGraphNodeType type;
    cr_assert_eq(cudaGraphNodeGetType(download, &type), cudaSuccess);
    cr_expect_eq(type, cudaGraphNodeTypeMemcpy);
    cr_assert_eq(cudaGraphNodeGetType(set, &type), cudaSuccess);
    cr_expect_eq(type, cudaGraphNodeTypeMemset);

    /* A DOT picture: one line per node and per edge. */
    char dot_path[64];
    std::snprintf(dot_path, sizeof dot_path, "/tmp/simtlab_graph_nodes_%d.dot", static_cast<int>(getpid()));
    cr_assert_eq(cudaGraphDebugDotPrint(graph, dot_path, 0), cudaSuccess);
    std::FILE *dot = std::fopen(dot_path, "r");
    cr_assert(dot);
    char line[256];
    int dot_nodes = 0, dot_edges = 0;
    while (std::fgets(line, sizeof line, dot)) {
        dot_edges += std::strstr(line, "->") != nullptr;
        dot_nodes += std::strstr(line, "[label=") != nullptr;
    }
    std::fclose(dot);
    std::remove(dot_path);
    cr_expect_eq(dot_nodes, 5);
    cr_expect_eq(dot_edges, 4);
    cr_expect_eq(cudaGraphDebugDotPrint(graph, nullptr, 0), cudaErrorInvalidValue);

    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int launch = 0; launch < 2; ++launch) { /* the memset resets y: the same result each time */
        std::fill(out.begin(), out.end(), NAN);
        cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
        cr_assert_eq(cudaStreamSynchronize(0), cudaSuccess);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                double want = start + static_cast<double>(a) * x[c] * (r + 1);
                cr_assert(close_to(out[r * cols + c], want), "launch %d y[%d][%d] = %g, want %g", launch, r, c,
                          out[r * cols + c], want);
            }
        cr_expect_eq(note.calls, launch + 1);
        cr_expect(close_to(note.first_seen, start + static_cast<double>(a) * x[0]),
                  "the host node ran before the copy it depends on (saw %g)", note.first_seen);
    }
    cr_assert_eq(cudaGraphExecDestroy(exec), cudaSuccess);
    cr_assert_eq(cudaGraphDestroy(graph), cudaSuccess);
    cudaFree(d_x);
    cudaFree(d_y);
}

/* ---- executable graph updates -------------------------------------------------- */

__global__ void scale_into(const float *x, float *y, int n, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = f * x[i];
}

Test(graph_nodes, exec_updates_change_the_result_and_not_the_graph)
{
    std::mt19937 rng(test_seed());
    std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
    const int n = 997;
    std::vector<float> x(n), y(n);
    for (float &v : x)
        v = dist(rng);
    const float f1 = dist(rng), f2 = dist(rng) + 10.0f;
    float *d_x, *d_y, *d_z;
    cr_assert_eq(cudaMalloc(&d_x, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&d_y, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&d_z, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);

    cudaGraph_t graph;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    int count = n;
    float f = f1;
    void *args[] = {&d_x, &d_y, &count, &f};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)scale_into;
    kp.gridDim = dim3((n + 63) / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = args;
    cudaGraphNode_t k;
    cr_assert_eq(cudaGraphAddKernelNode(&k, graph, nullptr, 0, &kp), cudaSuccess);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

    auto check = [&](float *dev, float factor, const char *when) {
        std::fill(y.begin(), y.end(), NAN);
        cr_assert_eq(cudaMemcpy(y.data(), dev, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        for (int i = 0; i < n; ++i)
            cr_assert(close_to(y[i], static_cast<double>(factor) * x[i]), "%s: y[%d] = %g, want %g", when, i, y[i],
                      static_cast<double>(factor) * x[i]);
    };
    cr_assert_eq(cudaMemset(d_y, 0xff, n * sizeof(float)), cudaSuccess); /* NaN */
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    check(d_y, f1, "first launch");

    /* The executable graph's copy changes: another factor, another output. */
    f = f2;
    args[1] = &d_z;
    cr_assert_eq(cudaMemset(d_z, 0xff, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaGraphExecKernelNodeSetParams(exec, k, &kp), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    check(d_z, f2, "after cudaGraphExecKernelNodeSetParams");
    /* A disabled node does nothing; enabled again, it runs. */
    unsigned enabled = 7;
    cr_assert_eq(cudaGraphNodeSetEnabled(exec, k, 0), cudaSuccess);
    cr_assert_eq(cudaGraphNodeGetEnabled(exec, k, &enabled), cudaSuccess);
    cr_expect_eq(enabled, 0u);
    cr_assert_eq(cudaMemset(d_z, 0, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    check(d_z, 0.0f, "launch with the kernel node disabled");
    cr_assert_eq(cudaGraphNodeSetEnabled(exec, k, 1), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    check(d_z, f2, "launch with the kernel node enabled again");
    /* The graph's node keeps its own parameters. */
    cudaKernelNodeParams back = {};
    cr_assert_eq(cudaGraphKernelNodeGetParams(k, &back), cudaSuccess);
    cr_expect_eq(back.func, (void *)scale_into);
    cr_expect_eq(*static_cast<float *>(back.kernelParams[3]), f1);
    cr_expect_eq(*static_cast<float **>(back.kernelParams[1]), d_y);

    /* cudaGraphExecUpdate from a captured graph of the same shape. */
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaGraph_t captured;
    const float f3 = -f2;
    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    scale_into<<<(n + 63) / 64, 64, 0, s>>>(d_x, d_y, n, f3);
    cr_assert_eq(cudaStreamEndCapture(s, &captured), cudaSuccess);
    cudaGraphExecUpdateResultInfo info;
    cr_assert_eq(cudaGraphExecUpdate(exec, captured, &info), cudaSuccess);
    cr_expect_eq(info.result, cudaGraphExecUpdateSuccess);
    cr_assert_eq(cudaMemset(d_y, 0xff, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    check(d_y, f3, "after cudaGraphExecUpdate");

    /* An executable graph launched into a capture becomes one node of the
     * captured graph, which runs it. */
    cudaGraph_t outer;
    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, s), cudaSuccess);
    cr_assert_eq(cudaStreamEndCapture(s, &outer), cudaSuccess);
    size_t outer_nodes = 0;
    cr_assert_eq(cudaGraphGetNodes(outer, nullptr, &outer_nodes), cudaSuccess);
    cr_expect_eq(outer_nodes, 1u);
    cudaGraphExec_t outer_exec;
    cr_assert_eq(cudaGraphInstantiate(&outer_exec, outer, 0), cudaSuccess);
    cr_assert_eq(cudaMemset(d_y, 0xff, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(outer_exec, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    check(d_y, f3, "the executable graph launched inside a captured graph");
    cudaGraphExecDestroy(outer_exec);
    cudaGraphDestroy(outer);

    /* Another shape is refused, and the executable graph is unchanged. */
    cudaGraphNode_t extra;
    cr_assert_eq(cudaGraphAddEmptyNode(&extra, captured, nullptr, 0), cudaSuccess);
    cr_expect_eq(cudaGraphExecUpdate(exec, captured, &info), cudaErrorGraphExecUpdateFailure);
    cr_expect_eq(info.result, cudaGraphExecUpdateErrorTopologyChanged);
    cudaGraphExecUpdateResult old_result;
    cudaGraphNode_t error_node;
    cr_expect_eq(cudaGraphExecUpdate(exec, captured, &error_node, &old_result), cudaErrorGraphExecUpdateFailure);
    cr_expect_eq(old_result, cudaGraphExecUpdateErrorTopologyChanged);

    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(captured);
    cudaStreamDestroy(s);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
}

/* ---- memory nodes ------------------------------------------------------------------ */

__global__ void fill_index(int *p, int n, int mul)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * mul;
}

static unsigned long long graph_mem(cudaGraphMemAttributeType attr)
{
    unsigned long long v = ~0ull;
    cr_assert_eq(cudaDeviceGetGraphMemAttribute(0, attr, &v), cudaSuccess);
    return v;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes)
{
    cudaMemAllocNodeParams p;
    std::memset(&p, 0, sizeof p);
    p.bytesize = bytes;
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    return p;
}

Test(graph_nodes, alloc_and_free_nodes_and_the_memory_attributes)
{
    std::mt19937 rng(test_seed());
    const int n = 1000 + static_cast<int>(rng() % 1000);
    const int mul = 2 + static_cast<int>(rng() % 7);
    const size_t bytes = n * sizeof(int);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0u);

    /* alloc -> kernel -> copy out -> free */
    cudaGraph_t graph;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaMemAllocNodeParams ap = alloc_params(bytes);
    cudaGraphNode_t alloc, kernel, copy, free_node;
    cr_assert_eq(cudaGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &ap), cudaSuccess);
    cr_assert_neq(ap.dptr, nullptr);
    int *d = static_cast<int *>(ap.dptr);
    int count = n, m = mul;
    void *args[] = {&d, &count, &m};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill_index;
    kp.gridDim = dim3((n + 255) / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    cr_assert_eq(cudaGraphAddKernelNode(&kernel, graph, &alloc, 1, &kp), cudaSuccess);
    std::vector<int> out(n);
    cr_assert_eq(cudaGraphAddMemcpyNode1D(&copy, graph, &kernel, 1, out.data(), d, bytes, cudaMemcpyDeviceToHost),
                 cudaSuccess);
    cr_assert_eq(cudaGraphAddMemFreeNode(&free_node, graph, &copy, 1, d), cudaSuccess);
    /* A second free of the same allocation in its own graph is refused. */
    cudaGraphNode_t again;
    cr_expect_eq(cudaGraphAddMemFreeNode(&again, graph, &free_node, 1, d), cudaErrorInvalidValue);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    cudaGraphExec_t second;
    cr_expect_eq(cudaGraphInstantiate(&second, graph, 0), cudaErrorNotSupported); /* one at a time */
    cr_assert_eq(cudaGraphDestroy(graph), cudaSuccess); /* the executable graph keeps the memory */
    for (int launch = 0; launch < 2; ++launch) {
        std::fill(out.begin(), out.end(), -1);
        cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
        for (int i = 0; i < n; ++i)
            cr_assert_eq(out[i], i * mul, "launch %d out[%d] = %d", launch, i, out[i]);
        /* Freed by its free node, but its memory stays with the graphs
         * (reused by the next launch: it does not grow) until a trim. */
        cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), bytes);
        cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemHigh), bytes);
        cr_expect_geq(graph_mem(cudaGraphMemAttrReservedMemCurrent), bytes);
    }
    cr_expect_eq(cudaFree(d), cudaErrorInvalidValue); /* its own graph frees it */
    cr_assert_eq(cudaDeviceGraphMemTrim(0), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0u);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemHigh), bytes);
    cr_assert_eq(cudaGraphExecDestroy(exec), cudaSuccess);

    /* An allocation the graph does not free: live after the launch. */
    cudaGraph_t keeps;
    cr_assert_eq(cudaGraphCreate(&keeps, 0), cudaSuccess);
    cudaMemAllocNodeParams kp2 = alloc_params(bytes + 12);
    cr_assert_eq(cudaGraphAddMemAllocNode(&alloc, keeps, nullptr, 0, &kp2), cudaSuccess);
    d = static_cast<int *>(kp2.dptr);
    cr_assert_eq(cudaGraphAddKernelNode(&kernel, keeps, &alloc, 1, &kp), cudaSuccess);
    cr_assert_eq(cudaGraphInstantiate(&exec, keeps, 0), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), bytes + 12);
    cr_assert_eq(cudaDeviceGraphMemTrim(0), cudaSuccess); /* live: a trim keeps it */
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), bytes + 12);
    std::fill(out.begin(), out.end(), -1);
    cr_assert_eq(cudaMemcpy(out.data(), d, bytes, cudaMemcpyDeviceToHost), cudaSuccess); /* usable after the graph */
    cr_expect_eq(out[n - 1], (n - 1) * mul);
    cr_expect_eq(cudaGraphLaunch(exec, 0), cudaErrorInvalidValue); /* still live */
    cr_expect(diagnostic_has("has not been freed"));
    cr_assert_eq(cudaFree(d), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), bytes + 12); /* freeing does not shrink it */
    cr_assert_eq(cudaDeviceGraphMemTrim(0), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0u); /* trimming does */
    cr_expect_eq(cudaFree(d), cudaErrorInvalidValue); /* not live any more */
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    cr_assert_eq(cudaFreeAsync(d, 0), cudaSuccess);
    cr_assert_eq(cudaDeviceGraphMemTrim(0), cudaSuccess);
    unsigned long long zero = 0;
    cr_assert_eq(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemHigh), 0u); /* restarts at the current value */
    cr_assert_eq(cudaGraphExecDestroy(exec), cudaSuccess);

    /* With auto-free, a relaunch frees the last launch's allocation. */
    cr_assert_eq(cudaGraphInstantiateWithFlags(&exec, keeps, cudaGraphInstantiateFlagAutoFreeOnLaunch), cudaSuccess);
    for (int launch = 0; launch < 3; ++launch)
        cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), bytes + 12);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemHigh), bytes + 12); /* one allocation live at a time */
    cr_assert_eq(cudaFree(d), cudaSuccess);
    cr_assert_eq(cudaGraphExecDestroy(exec), cudaSuccess);
    cr_assert_eq(cudaGraphDestroy(keeps), cudaSuccess);

    /* Stream capture makes cudaMallocAsync / cudaFreeAsync memory nodes. */
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    int *dc = nullptr;
    cr_assert_eq(cudaMallocAsync(&dc, bytes, s), cudaSuccess);
    cr_assert_neq(dc, nullptr);
    fill_index<<<(n + 255) / 256, 256, 0, s>>>(dc, n, mul + 1);
    cr_assert_eq(cudaMemcpyAsync(out.data(), dc, bytes, cudaMemcpyDeviceToHost, s), cudaSuccess);
    cr_assert_eq(cudaFreeAsync(dc, s), cudaSuccess);
    cudaGraph_t captured;
    cr_assert_eq(cudaStreamEndCapture(s, &captured), cudaSuccess);
    cudaGraphNode_t nodes[4];
    size_t nn = 4;
    cr_assert_eq(cudaGraphGetNodes(captured, nodes, &nn), cudaSuccess);
    cr_assert_eq(nn, 4u);
    const cudaGraphNodeType want[4] = {cudaGraphNodeTypeMemAlloc, cudaGraphNodeTypeKernel, cudaGraphNodeTypeMemcpy,
                                       cudaGraphNodeTypeMemFree};
    for (int i = 0; i < 4; ++i) {
        cudaGraphNodeType t;
        cr_assert_eq(cudaGraphNodeGetType(nodes[i], &t), cudaSuccess);
        cr_expect_eq(t, want[i], "captured node %d has type %d, want %d", i, t, want[i]);
    }
    cr_assert_eq(cudaGraphInstantiate(&exec, captured, 0), cudaSuccess);
    std::fill(out.begin(), out.end(), -1);
    cr_assert_eq(cudaGraphLaunch(exec, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < n; ++i)
        cr_assert_eq(out[i], i * (mul + 1), "captured: out[%d] = %d", i, out[i]);
    cr_assert_eq(cudaDeviceGraphMemTrim(0), cudaSuccess);
    cr_expect_eq(graph_mem(cudaGraphMemAttrUsedMemCurrent), 0u); /* its free node freed it */
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(captured);
    cudaStreamDestroy(s);
}

/* ---- conditional nodes -------------------------------------------------------------- */

/* WHILE body: one step of the loop; the loop goes on while *counter < target. */
__global__ void count_up(int *counter, int target, cudaGraphConditionalHandle h)
{
    int now = ++*counter;
    cudaGraphSetConditional(h, now < target);
}

/* Sets the IF condition from device memory. */
__global__ void decide(const int *flag, cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, *flag != 0); }

__global__ void store(int *where, int value) { *where = value; }

__global__ void copy_int(const int *from, int *to) { *to = *from; }

Test(graph_nodes, while_node_runs_its_body_until_a_device_counter_is_reached)
{
    std::mt19937 rng(test_seed());
    const int target = 3 + static_cast<int>(rng() % 15);
    int *d_counter;
    cr_assert_eq(cudaMalloc(&d_counter, sizeof(int)), cudaSuccess);
    cudaGraph_t graph;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphConditionalHandle h;
    cr_assert_eq(cudaGraphConditionalHandleCreate(&h, graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t loop;
    cr_assert_eq(cudaGraphAddNode(&loop, graph, nullptr, nullptr, 0, &cp), cudaSuccess);
    cudaGraph_t body = cp.conditional.phGraph_out[0];
    cudaGraphNodeParams kp = {};
    kp.type = cudaGraphNodeTypeKernel;
    int tgt = target;
    void *args[] = {&d_counter, &tgt, &h};
    kp.kernel.func = (void *)count_up;
    kp.kernel.gridDim = dim3(1);
    kp.kernel.blockDim = dim3(1);
    kp.kernel.kernelParams = args;
    cudaGraphNode_t step;
    cr_assert_eq(cudaGraphAddNode(&step, body, nullptr, nullptr, 0, &kp), cudaSuccess);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int launch = 0; launch < 2; ++launch) { /* the default (1) is set again at each launch */
        cr_assert_eq(cudaMemset(d_counter, 0, sizeof(int)), cudaSuccess);
        cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
        int counter = -1;
        cr_assert_eq(cudaMemcpy(&counter, d_counter, sizeof counter, cudaMemcpyDeviceToHost), cudaSuccess);
        cr_expect_eq(counter, target, "launch %d: the loop ran %d times, want %d", launch, counter, target);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(d_counter);
}

Test(graph_nodes, if_else_node_takes_the_branch_a_kernel_chose)
{
    std::mt19937 rng(test_seed());
    int *d_flag, *d_out;
    cr_assert_eq(cudaMalloc(&d_flag, sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&d_out, sizeof(int)), cudaSuccess);
    cudaGraph_t graph;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    cudaGraphConditionalHandle h;
    cr_assert_eq(cudaGraphConditionalHandleCreate(&h, graph), cudaSuccess);
    cudaKernelNodeParams kp = {};
    void *decide_args[] = {&d_flag, &h};
    kp.func = (void *)decide;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    kp.kernelParams = decide_args;
    cudaGraphNode_t decide_node, branch, node;
    cr_assert_eq(cudaGraphAddKernelNode(&decide_node, graph, nullptr, 0, &kp), cudaSuccess);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 2;
    cr_assert_eq(cudaGraphAddNode(&branch, graph, &decide_node, nullptr, 1, &cp), cudaSuccess);
    const int then_value = 100 + static_cast<int>(rng() % 100), else_value = -then_value;
    int v_then = then_value, v_else = else_value;
    void *then_args[] = {&d_out, &v_then}, *else_args[] = {&d_out, &v_else};
    kp.func = (void *)store;
    kp.kernelParams = then_args;
    cr_assert_eq(cudaGraphAddKernelNode(&node, cp.conditional.phGraph_out[0], nullptr, 0, &kp), cudaSuccess);
    kp.kernelParams = else_args;
    cr_assert_eq(cudaGraphAddKernelNode(&node, cp.conditional.phGraph_out[1], nullptr, 0, &kp), cudaSuccess);
    /* A body is the node's: it cannot be destroyed on its own. */
    cr_expect_eq(cudaGraphDestroy(cp.conditional.phGraph_out[0]), cudaErrorInvalidValue);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int flag : {1, 0, 7, 0}) {
        int out = 0;
        cr_assert_eq(cudaMemcpy(d_flag, &flag, sizeof flag, cudaMemcpyHostToDevice), cudaSuccess);
        cr_assert_eq(cudaMemset(d_out, 0, sizeof(int)), cudaSuccess);
        cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
        cr_assert_eq(cudaMemcpy(&out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
        cr_expect_eq(out, flag ? then_value : else_value, "flag %d: got %d", flag, out);
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaFree(d_flag);
    cudaFree(d_out);
}

Test(graph_nodes, a_conditional_node_made_during_stream_capture)
{
    int *d_counter; /* [0] the loop's counter, [1] its value after the loop */
    cr_assert_eq(cudaMalloc(&d_counter, 2 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(d_counter, 0xff, 2 * sizeof(int)), cudaSuccess);
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    cudaStreamCaptureStatus status;
    cudaGraph_t graph;
    const cudaGraphNode_t *deps;
    size_t ndeps;
    cr_assert_eq(cudaStreamGetCaptureInfo(s, &status, nullptr, &graph, &deps, nullptr, &ndeps), cudaSuccess);
    cr_expect_eq(status, cudaStreamCaptureStatusActive);
    cr_expect_eq(ndeps, 0u);
    cudaGraphConditionalHandle h;
    cr_assert_eq(cudaGraphConditionalHandleCreate(&h, graph, 1, cudaGraphCondAssignDefault), cudaSuccess);
    store<<<1, 1, 0, s>>>(d_counter, 0);
    cr_assert_eq(cudaStreamGetCaptureInfo(s, &status, nullptr, &graph, &deps, nullptr, &ndeps), cudaSuccess);
    cr_assert_eq(ndeps, 1u);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeWhile;
    cp.conditional.size = 1;
    cudaGraphNode_t loop;
    cr_assert_eq(cudaGraphAddNode(&loop, graph, deps, nullptr, ndeps, &cp), cudaSuccess);
    cr_assert_eq(cudaStreamUpdateCaptureDependencies(s, &loop, nullptr, 1, cudaStreamSetCaptureDependencies),
                 cudaSuccess);
    copy_int<<<1, 1, 0, s>>>(d_counter, d_counter + 1);
    cr_assert_eq(cudaStreamEndCapture(s, &graph), cudaSuccess);
    /* The body, by capture into the node's graph. */
    cudaStream_t bs;
    cr_assert_eq(cudaStreamCreate(&bs), cudaSuccess);
    cr_assert_eq(cudaStreamBeginCaptureToGraph(bs, cp.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                               cudaStreamCaptureModeGlobal),
                 cudaSuccess);
    count_up<<<1, 1, 0, bs>>>(d_counter, 5, h);
    cr_assert_eq(cudaStreamEndCapture(bs, nullptr), cudaSuccess);
    /* The loop depends on the first store and the last store on the loop. */
    size_t nedges = 0;
    cr_assert_eq(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &nedges), cudaSuccess);
    cr_expect_eq(nedges, 2u);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    int counter[2] = {-1, -1};
    cr_assert_eq(cudaMemcpy(counter, d_counter, sizeof counter, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(counter[0], 5, "the loop left the counter at %d, want 5", counter[0]);
    cr_expect_eq(counter[1], 5, "the kernel after the loop saw %d, want 5", counter[1]);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
    cudaStreamDestroy(bs);
    cudaFree(d_counter);
}

/* ---- bad arguments ------------------------------------------------------------------ */

Test(graph_nodes, bad_arguments_are_refused_with_the_argument_named)
{
    cudaGraph_t graph, other;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    cr_assert_eq(cudaGraphCreate(&other, 0), cudaSuccess);
    cudaGraphNode_t node, foreign, a, b;
    cr_expect_eq(cudaGraphAddMemcpyNode(&node, graph, nullptr, 0, nullptr), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("pCopyParams"));
    int *d;
    cr_assert_eq(cudaMalloc(&d, 64), cudaSuccess);
    cudaMemsetParams ms = {};
    ms.dst = d;
    ms.elementSize = 3;
    ms.width = 4;
    ms.height = 1;
    cr_expect_eq(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("elementSize"));
    ms.elementSize = 4;
    ms.width = 17; /* 68 bytes into a 64-byte allocation */
    cr_expect_eq(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("dst"));
    ms.width = 4;
    ms.height = 2;
    ms.pitch = 8; /* less than a row of 16 bytes */
    cr_expect_eq(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &ms), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("pitch"));
    cr_assert_eq(cudaGraphAddEmptyNode(&foreign, other, nullptr, 0), cudaSuccess);
    cr_expect_eq(cudaGraphAddEmptyNode(&node, graph, &foreign, 1), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("pDependencies[0]"));
    cr_assert_eq(cudaGraphAddEmptyNode(&a, graph, nullptr, 0), cudaSuccess);
    cr_assert_eq(cudaGraphAddEmptyNode(&b, graph, &a, 1), cudaSuccess);
    cr_expect_eq(cudaGraphAddDependencies(graph, &a, &b, nullptr, 1), cudaErrorInvalidValue); /* already there */
    cr_expect_eq(cudaGraphAddDependencies(graph, &a, &a, nullptr, 1), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("to itself"));
    /* An edge closing a cycle is accepted, as CUDA does; the graph then does
     * not instantiate. */
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphAddDependencies(graph, &b, &a, nullptr, 1), cudaSuccess);
    cr_expect_eq(cudaGraphInstantiate(&exec, graph, 0), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("cycle"));
    cr_assert_eq(cudaGraphRemoveDependencies(graph, &b, &a, nullptr, 1), cudaSuccess);
    cr_expect_eq(cudaGraphAddMemFreeNode(&node, graph, nullptr, 0, d), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("dptr"));
    cudaMemAllocNodeParams ap;
    std::memset(&ap, 0, sizeof ap);
    ap.bytesize = 64;
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 3;
    cr_expect_eq(cudaGraphAddMemAllocNode(&node, graph, nullptr, 0, &ap), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("location"));
    unsigned long long v;
    cr_expect_eq(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &v), cudaErrorInvalidDevice);
    cr_expect_eq(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &v), cudaErrorInvalidValue);
    cudaGraphConditionalHandle h;
    cr_assert_eq(cudaGraphConditionalHandleCreate(&h, other), cudaSuccess);
    cudaGraphNodeParams cp = {};
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    cr_expect_eq(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &cp), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("handle"));
    cr_assert_eq(cudaGraphConditionalHandleCreate(&h, other), cudaSuccess);
    cp.conditional.handle = h;
    cp.conditional.size = 3;
    cr_expect_eq(cudaGraphAddNode(&node, other, nullptr, nullptr, 0, &cp), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("size"));
    /* A graph whose handles no conditional node uses does not instantiate. */
    cr_expect_eq(cudaGraphInstantiate(&exec, other, 0), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("used by no conditional node"));
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    cudaKernelNodeParams kp = {};
    cr_expect_eq(cudaGraphExecKernelNodeSetParams(exec, a, &kp), cudaErrorInvalidDeviceFunction); /* func NULL */
    kp.func = (void *)store;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(1);
    int *where = d, what = 1;
    void *store_args[] = {&where, &what};
    kp.kernelParams = store_args;
    cr_expect_eq(cudaGraphExecKernelNodeSetParams(exec, a, &kp), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("not a node of this type"));
    cr_expect_eq(cudaGraphExecKernelNodeSetParams(exec, foreign, &kp), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("not a node of the graph hGraphExec"));
    cr_expect_eq(cudaGraphInstantiateWithFlags(&exec, graph, 1ull << 40), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("flags"));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(other);
    cudaFree(d);
}
