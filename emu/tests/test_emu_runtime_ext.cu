/* Tests of the runtime beyond simtlab's chapters: symbols (__constant__ and
 * __device__ variables), the C++ overloads (typed pointers, kernels passed as
 * themselves, cudaLaunchKernel), memory kinds (managed, mapped and
 * registered host memory, pointer attributes), host functions in streams,
 * stream capture and graphs, and the kernel clock.
 *
 *   build/bin/test_emu_runtime_ext --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <chrono>
#include <cstring>
#include <vector>

static bool diagnostic_has(const char *needle)
{
    return std::strstr(simtlab_emu_last_diagnostic(), needle) != nullptr;
}

/* ---- symbols ------------------------------------------------------------- */

__constant__ float coeffs[8];
__device__ int counter_var;

__global__ void scale_by_coeffs(float *out)
{
    out[threadIdx.x] = coeffs[threadIdx.x] * 2.0f;
}

__global__ void bump_counter() { atomicAdd(&counter_var, 1); }

Test(symbols, memcpy_to_constant_is_seen_by_a_kernel)
{
    float host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    cr_assert_eq(cudaMemcpyToSymbol(coeffs, host, sizeof host), cudaSuccess);
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, sizeof host), cudaSuccess);
    scale_by_coeffs<<<1, 8>>>(d);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    float back[8];
    cr_assert_eq(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 8; ++i)
        cr_expect_eq(back[i], 2.0f * (i + 1));
    cudaFree(d);
}

Test(symbols, offset_and_from_symbol_round_trip)
{
    float zeros[8] = {0};
    float two[2] = {9.5f, -1.0f};
    cr_assert_eq(cudaMemcpyToSymbol(coeffs, zeros, sizeof zeros), cudaSuccess);
    cr_assert_eq(cudaMemcpyToSymbol(coeffs, two, sizeof two, 3 * sizeof(float)), cudaSuccess);
    float back[8];
    cr_assert_eq(cudaMemcpyFromSymbol(back, coeffs, sizeof back), cudaSuccess);
    cr_expect_eq(back[2], 0.0f);
    cr_expect_eq(back[3], 9.5f);
    cr_expect_eq(back[4], -1.0f);
    cr_expect_eq(back[5], 0.0f);
}

Test(symbols, a_copy_past_the_symbol_is_rejected)
{
    float host[8] = {0};
    cr_expect_eq(cudaMemcpyToSymbol(coeffs, host, sizeof host, sizeof(float)), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("past the end of the symbol (32 bytes)"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemcpyFromSymbol(host, coeffs, 4, 40), cudaErrorInvalidValue);
}

Test(symbols, wrong_direction_and_device_pointer_as_symbol_are_rejected)
{
    float host[8] = {0};
    cr_expect_eq(cudaMemcpyToSymbol(coeffs, host, 4, 0, cudaMemcpyDeviceToHost), cudaErrorInvalidMemcpyDirection);
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64), cudaSuccess);
    cr_expect_eq(cudaMemcpyToSymbol(coeffs, d, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("is device memory"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemcpyToSymbol((const void *)d, host, 4, 0, cudaMemcpyHostToDevice), cudaErrorInvalidSymbol);
    cr_expect(diagnostic_has("not a __device__ or __constant__ variable"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(d);
}

Test(symbols, device_to_device_copy_into_a_symbol)
{
    float host[8] = {8, 7, 6, 5, 4, 3, 2, 1};
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, sizeof host), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemcpyToSymbolAsync(coeffs, d, sizeof host, 0, cudaMemcpyDeviceToDevice, 0), cudaSuccess);
    float back[8];
    cr_assert_eq(cudaMemcpyFromSymbolAsync(back, coeffs, sizeof back, 0, cudaMemcpyDeviceToHost, 0), cudaSuccess);
    cr_expect_eq(back[0], 8.0f);
    cr_expect_eq(back[7], 1.0f);
    cudaFree(d);
}

Test(symbols, address_and_size_of_a_device_variable)
{
    int *p = nullptr;
    size_t size = 0;
    cr_assert_eq(cudaGetSymbolAddress((void **)&p, counter_var), cudaSuccess);
    cr_expect_eq(p, &counter_var);
    cr_assert_eq(cudaGetSymbolSize(&size, coeffs), cudaSuccess);
    cr_expect_eq(size, sizeof(float) * 8);
    int zero = 0;
    cr_assert_eq(cudaMemcpyToSymbol(counter_var, &zero, sizeof zero), cudaSuccess);
    bump_counter<<<3, 32>>>();
    int got = 0;
    /* The symbol's address is a device pointer: cudaMemcpy accepts it. */
    cr_assert_eq(cudaMemcpy(&got, p, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(got, 96);
}

/* ---- C++ overloads -------------------------------------------------------- */

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

Test(overloads, typed_malloc_host_and_launch_kernel_with_an_args_array)
{
    const int n = 100;
    float *hx = nullptr, *hy = nullptr, *dx = nullptr, *dy = nullptr;
    cr_assert_eq(cudaMallocHost(&hx, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocHost(&hy, n * sizeof(float), cudaHostAllocDefault), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dx, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dy, n * sizeof(float)), cudaSuccess);
    for (int i = 0; i < n; ++i)
        hx[i] = (float)i, hy[i] = 1.0f;
    cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice);
    float a = 3.0f;
    int count = n;
    void *args[] = {&a, &dx, &dy, &count};
    cr_assert_eq(cudaLaunchKernel(axpy, dim3(4), dim3(32), args, 0, 0), cudaSuccess);
    cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
        cr_expect_eq(hy[i], 3.0f * i + 1.0f);
    /* Through the C form, now that the kernel's types are known. */
    cr_assert_eq(cudaLaunchKernel((const void *)axpy, dim3(4), dim3(32), args, 0, 0), cudaSuccess);
    cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    cr_expect_eq(hy[5], 2 * 15.0f + 1.0f);
    cudaFreeHost(hx);
    cudaFreeHost(hy);
    cudaFree(dx);
    cudaFree(dy);
}

/* Not a kernel: the emulator cannot know its parameter types (every kernel
 * the rewriter saw is registered at start-up, test_emu_corpus_fixes.cu). */
static void not_a_kernel(int *) {}

Test(overloads, launch_kernel_errors)
{
    cr_expect_eq(cudaLaunchKernel(axpy, dim3(1), dim3(2000), nullptr, 0, 0), cudaErrorInvalidValue);
    void *args[] = {nullptr};
    cr_expect_eq(cudaLaunchKernel((const void *)not_a_kernel, dim3(1), dim3(1), args, 0, 0), cudaErrorNotSupported);
    cr_expect(diagnostic_has("parameter types"), "%s", simtlab_emu_last_diagnostic());
    float a = 1;
    float *p = nullptr;
    int n = 0;
    void *ok[] = {&a, &p, &p, &n};
    cr_expect_eq(cudaLaunchKernel(axpy, dim3(1), dim3(2000), ok, 0, 0), cudaErrorInvalidValue);
}

Test(overloads, func_attributes_with_the_kernel_itself_and_default_event_stream)
{
    cr_assert_eq(cudaFuncSetAttribute(axpy, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024), cudaSuccess);
    cudaFuncAttributes attr;
    cr_assert_eq(cudaFuncGetAttributes(&attr, axpy), cudaSuccess);
    cr_expect_eq(attr.maxDynamicSharedSizeBytes, 64 * 1024);
    cudaEvent_t a, b;
    cr_assert_eq(cudaEventCreateWithFlags(&a, cudaEventDefault), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_expect_eq(cudaEventRecord(a), cudaSuccess);
    cr_expect_eq(cudaEventRecord(b), cudaSuccess);
    cr_expect_eq(cudaEventQuery(b), cudaSuccess);
    float ms = -1;
    cr_expect_eq(cudaEventElapsedTime(&ms, a, b), cudaSuccess);
    cr_expect_geq(ms, 0.0f);
    cudaStream_t s1, s2;
    cr_assert_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
    cr_assert_eq(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, -1), cudaSuccess);
    unsigned flags = 99;
    cr_expect_eq(cudaStreamGetFlags(s1, &flags), cudaSuccess);
    cr_expect_eq(flags, (unsigned)cudaStreamNonBlocking);
    cr_expect_eq(cudaStreamQuery(s2), cudaSuccess);
    cr_expect_eq(cudaStreamQuery(cudaStreamPerThread), cudaSuccess);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
}

/* ---- memory kinds ------------------------------------------------------- */

__global__ void add_one(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += 1;
}

Test(memory_kinds, managed_memory_is_seen_by_host_and_kernel)
{
    const int n = 300;
    int *m = nullptr;
    cr_assert_eq(cudaMallocManaged(&m, n * sizeof(int)), cudaSuccess);
    for (int i = 0; i < n; ++i)
        m[i] = i; /* host writes: no trap */
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    cr_expect_eq(cudaMemPrefetchAsync(m, n * sizeof(int), dev, 0, 0), cudaSuccess);
    cr_expect_eq(cudaMemAdvise(m, n * sizeof(int), cudaMemAdviseSetReadMostly, dev), cudaSuccess);
    cr_expect_eq(cudaMemPrefetchAsync(m, n * sizeof(int), 0), cudaSuccess); /* the older int-device form */
    add_one<<<(n + 127) / 128, 128>>>(m, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; ++i)
        cr_expect_eq(m[i], i + 1);
    cudaPointerAttributes attr;
    cr_assert_eq(cudaPointerGetAttributes(&attr, m + 5), cudaSuccess);
    cr_expect_eq(attr.type, cudaMemoryTypeManaged);
    cr_expect_eq(attr.hostPointer, m + 5);
    /* Copies accept it on either side. */
    int host[4] = {7, 7, 7, 7};
    cr_expect_eq(cudaMemcpy(m, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess);
    cr_expect_eq(cudaMemcpy(host, m + 10, sizeof host, cudaMemcpyHostToHost), cudaSuccess);
    cr_expect_eq(host[0], 11);
    cr_expect_eq(cudaFree(m), cudaSuccess);
}

Test(memory_kinds, managed_memory_errors)
{
    int *m = nullptr;
    cr_expect_eq(cudaMallocManaged(&m, 64, 0x40u), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("cudaMemAttachGlobal"), "%s", simtlab_emu_last_diagnostic());
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64), cudaSuccess);
    cudaMemLocation dev = {cudaMemLocationTypeDevice, 0};
    cr_expect_eq(cudaMemPrefetchAsync(d, 64, dev, 0, 0), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("not managed memory"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaMallocManaged(&m, 64), cudaSuccess);
    cudaMemLocation bad = {cudaMemLocationTypeDevice, 3};
    cr_expect_eq(cudaMemPrefetchAsync(m, 64, bad, 0, 0), cudaErrorInvalidDevice);
    cr_expect_eq(cudaMemPrefetchAsync(m, 65, dev, 0, 0), cudaErrorInvalidValue);
    cudaPointerAttributes attr;
    cr_assert_eq(cudaPointerGetAttributes(&attr, d), cudaSuccess);
    cr_expect_eq(attr.type, cudaMemoryTypeDevice);
    cr_expect_eq(attr.hostPointer, nullptr);
    int local = 0;
    cr_assert_eq(cudaPointerGetAttributes(&attr, &local), cudaSuccess);
    cr_expect_eq(attr.type, cudaMemoryTypeUnregistered);
    cudaFree(d);
    cudaFree(m);
}

Test(memory_kinds, mapped_host_memory_is_written_by_a_kernel)
{
    cr_assert_eq(cudaSetDeviceFlags(cudaDeviceMapHost), cudaSuccess);
    unsigned flags = 0;
    cr_assert_eq(cudaGetDeviceFlags(&flags), cudaSuccess);
    cr_expect(flags & cudaDeviceMapHost);
    int can_map = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0), cudaSuccess);
    cr_expect_eq(can_map, 1);
    int *h = nullptr, *d = nullptr;
    cr_assert_eq(cudaHostAlloc(&h, 64 * sizeof(int), cudaHostAllocMapped), cudaSuccess);
    for (int i = 0; i < 64; ++i)
        h[i] = 10 * i;
    cr_assert_eq(cudaHostGetDevicePointer(&d, h, 0), cudaSuccess);
    add_one<<<1, 64>>>(d, 64);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_expect_eq(h[0], 1);
    cr_expect_eq(h[63], 631);
    cr_assert_eq(cudaHostGetFlags(&flags, h), cudaSuccess);
    cr_expect_eq(flags, (unsigned)cudaHostAllocMapped);
    cudaPointerAttributes attr;
    cr_assert_eq(cudaPointerGetAttributes(&attr, h + 3), cudaSuccess);
    cr_expect_eq(attr.type, cudaMemoryTypeHost);
    cr_expect_eq(cudaSetDeviceFlags(0x3u), cudaErrorInvalidValue);
    cudaFreeHost(h);
}

Test(memory_kinds, registered_host_memory)
{
    std::vector<int> buf(256, 5);
    int *d = nullptr;
    cr_expect_eq(cudaHostGetDevicePointer((void **)&d, buf.data(), 0), cudaErrorInvalidValue);
    cr_assert_eq(cudaHostRegister(buf.data(), buf.size() * sizeof(int), cudaHostRegisterMapped), cudaSuccess);
    cr_expect_eq(cudaHostRegister(buf.data() + 10, 16, cudaHostRegisterDefault),
                 cudaErrorHostMemoryAlreadyRegistered);
    cr_assert_eq(cudaHostGetDevicePointer((void **)&d, buf.data() + 16, 0), cudaSuccess);
    cr_expect_eq(d, buf.data() + 16);
    add_one<<<1, 32>>>(d, 32);
    cr_expect_eq(buf[16], 6);
    cr_expect_eq(buf[15], 5);
    cr_assert_eq(cudaHostUnregister(buf.data()), cudaSuccess);
    cr_expect_eq(cudaHostUnregister(buf.data()), cudaErrorHostMemoryNotRegistered);
    cr_expect_eq(cudaHostRegister(nullptr, 16, 0), cudaErrorInvalidValue);
}

/* ---- host functions, callbacks, graphs ---------------------------------------- */

static std::vector<int> order;

static void note_host(void *data) { order.push_back(*static_cast<int *>(data)); }
static void note_callback(cudaStream_t, cudaError_t status, void *data)
{
    order.push_back(status == cudaSuccess ? *static_cast<int *>(data) : -1);
}

__global__ void set_value(int *p, int v) { *p = v; }

static int *read_back_into_order_ptr;
static void read_back(void *) { order.push_back(*read_back_into_order_ptr); }

Test(streams, host_functions_run_in_stream_order)
{
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    int *m = nullptr;
    cr_assert_eq(cudaMallocManaged(&m, sizeof(int)), cudaSuccess);
    read_back_into_order_ptr = m;
    int one = 1, two = 2;
    set_value<<<1, 1, 0, s>>>(m, 42);
    cr_assert_eq(cudaLaunchHostFunc(s, read_back, nullptr), cudaSuccess);
    cr_assert_eq(cudaStreamAddCallback(s, note_callback, &one, 0), cudaSuccess);
    cr_assert_eq(cudaLaunchHostFunc(s, note_host, &two), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    cr_assert_eq(order.size(), 3u);
    cr_expect_eq(order[0], 42);
    cr_expect_eq(order[1], 1);
    cr_expect_eq(order[2], 2);
    cr_expect_eq(cudaLaunchHostFunc(s, nullptr, nullptr), cudaErrorInvalidValue);
    cr_expect_eq(cudaStreamAddCallback(s, note_callback, &one, 1), cudaErrorInvalidValue);
    cudaStreamDestroy(s);
    cudaFree(m);
}

Test(graphs, stream_capture_records_and_replays_in_order)
{
    cudaStream_t s, side;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_assert_eq(cudaStreamCreate(&side), cudaSuccess);
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 4 * sizeof(int)), cudaSuccess);
    int host[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
    int three = 3;
    order.clear();
    cudaEvent_t fork, join;
    cudaEventCreate(&fork);
    cudaEventCreate(&join);

    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaSuccess);
    cudaStreamCaptureStatus status;
    cr_assert_eq(cudaStreamIsCapturing(s, &status), cudaSuccess);
    cr_expect_eq(status, cudaStreamCaptureStatusActive);
    cr_assert_eq(cudaMemcpyAsync(d, host, sizeof host, cudaMemcpyHostToDevice, s), cudaSuccess);
    cr_assert_eq(cudaEventRecord(fork, s), cudaSuccess);
    cr_assert_eq(cudaStreamWaitEvent(side, fork, 0), cudaSuccess); /* side joins the capture */
    add_one<<<1, 4, 0, side>>>(d, 4);
    cr_assert_eq(cudaEventRecord(join, side), cudaSuccess);
    cr_assert_eq(cudaStreamWaitEvent(s, join, 0), cudaSuccess);
    cr_assert_eq(cudaMemcpyAsync(out, d, sizeof out, cudaMemcpyDeviceToHost, s), cudaSuccess);
    cr_assert_eq(cudaLaunchHostFunc(s, note_host, &three), cudaSuccess);
    /* Nothing ran yet. */
    cr_expect_eq(out[0], 0);
    cr_expect_eq(order.size(), 0u);
    cudaGraph_t graph;
    cr_assert_eq(cudaStreamEndCapture(s, &graph), cudaSuccess);
    cr_assert_eq(cudaStreamIsCapturing(side, &status), cudaSuccess);
    cr_expect_eq(status, cudaStreamCaptureStatusNone);
    size_t nodes = 0;
    cr_assert_eq(cudaGraphGetNodes(graph, nullptr, &nodes), cudaSuccess);
    cr_expect_eq(nodes, 4u);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int run = 0; run < 2; ++run) {
        out[0] = out[3] = 0;
        cr_assert_eq(cudaGraphLaunch(exec, s), cudaSuccess);
        cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
        cr_expect_eq(out[0], 2); /* the copy restores host[] each time */
        cr_expect_eq(out[3], 5);
    }
    cr_expect_eq(order.size(), 2u);
    cr_assert_eq(cudaGraphExecDestroy(exec), cudaSuccess);
    cr_assert_eq(cudaGraphDestroy(graph), cudaSuccess);
    cr_expect_eq(cudaGraphExecDestroy(exec), cudaErrorInvalidValue);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(side);
    cudaStreamDestroy(s);
    cudaFree(d);
}

Test(graphs, capture_errors)
{
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cudaGraph_t graph;
    cr_expect_eq(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    cr_expect_eq(cudaStreamEndCapture(s, &graph), cudaErrorIllegalState);
    cr_assert_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed), cudaSuccess);
    cr_expect_eq(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed), cudaErrorIllegalState);
    cr_assert_eq(cudaStreamEndCapture(s, &graph), cudaSuccess);
    cudaGraphExec_t exec;
    cr_expect_eq(cudaGraphInstantiate(&exec, nullptr, 0), cudaErrorInvalidValue);
    cr_expect_eq(cudaGraphLaunch(nullptr, s), cudaErrorInvalidValue);
    cr_assert_eq(cudaGraphDestroy(graph), cudaSuccess);
    cudaStreamDestroy(s);
}

Test(graphs, manual_nodes_clone_and_the_cuda11_instantiate)
{
    cudaGraph_t graph, clone;
    cr_assert_eq(cudaGraphCreate(&graph, 0), cudaSuccess);
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 8 * sizeof(int)), cudaSuccess);
    cudaMemsetParams ms = {};
    ms.dst = d;
    ms.value = 0x01020304;
    ms.elementSize = 4;
    ms.width = 8;
    ms.height = 1;
    cudaGraphNode_t memset_node, kernel_node, host_node;
    cr_assert_eq(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &ms), cudaSuccess);
    int n = 8;
    void *args[] = {&d, &n};
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, add_one); /* teaches the emulator add_one's parameter types */
    cudaKernelNodeParams kp = {};
    kp.func = (void *)add_one;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(8);
    kp.kernelParams = args;
    cr_assert_eq(cudaGraphAddKernelNode(&kernel_node, graph, &memset_node, 1, &kp), cudaSuccess);
    n = 1000; /* the node copied the values when it was added */
    int seven = 7;
    cudaHostNodeParams hp = {note_host, &seven};
    cr_assert_eq(cudaGraphAddHostNode(&host_node, graph, &kernel_node, 1, &hp), cudaSuccess);
    cudaGraphNodeType type;
    cr_assert_eq(cudaGraphNodeGetType(host_node, &type), cudaSuccess);
    cr_expect_eq(type, cudaGraphNodeTypeHost);
    cr_assert_eq(cudaGraphClone(&clone, graph), cudaSuccess);
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, clone, nullptr, nullptr, 0), cudaSuccess);
    order.clear();
    cr_assert_eq(cudaGraphLaunch(exec, 0), cudaSuccess);
    int back[8];
    cr_assert_eq(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(back[0], 0x01020305);
    cr_expect_eq(back[7], 0x01020305);
    cr_assert_eq(order.size(), 1u);
    cr_expect_eq(order[0], 7);
    kp.func = (void *)not_a_kernel;
    cr_expect_eq(cudaGraphAddKernelNode(&kernel_node, graph, nullptr, 0, &kp), cudaErrorNotSupported);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaGraphDestroy(clone);
    cudaFree(d);
}

/* ---- the kernel clock ------------------------------------------------------- */

__global__ void spin_cycles(long long cycles, long long *taken)
{
    clock_t start = clock();
    clock_t now = start;
    while ((long long)(now - start) < cycles)
        now = clock();
    long long s64 = clock64();
    taken[threadIdx.x] = (long long)(now - start) + 0 * s64;
}

Test(clock, spinning_on_clock_for_n_cycles_ends_in_about_n_over_the_clock_rate)
{
    int khz = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0), cudaSuccess);
    long long *taken = nullptr;
    cr_assert_eq(cudaMallocManaged(&taken, 4 * sizeof(long long)), cudaSuccess);
    const long long cycles = (long long)khz * 20; /* 20 ms at the device's rate */
    auto t0 = std::chrono::steady_clock::now();
    spin_cycles<<<1, 4>>>(cycles, taken);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (int t = 0; t < 4; ++t)
        cr_expect_geq(taken[t], cycles);
    /* Four threads, one after another: about 80 ms, far from the minutes a
     * microsecond clock would take. */
    cr_expect(ms >= 60.0 && ms < 2000.0, "took %.1f ms", ms);
    /* In host code clock() is still the C library's. */
    clock_t c0 = clock();
    cr_expect(c0 >= 0);
    cudaFree(taken);
}

/* ---- cuda::barrier, cuda::pipeline, cuda::memcpy_async ----------------------- */

#include <cuda/barrier>
#include <cuda/pipeline>

/* Each block reverses a 64-float tile through shared memory, staged with
 * memcpy_async and a block barrier. */
__global__ void reverse_tiles_with_barrier(const float *in, float *out)
{
    __shared__ float tile[64];
    __shared__ cuda::barrier<cuda::thread_scope::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    const float *src = in + blockIdx.x * 64;
    cuda::memcpy_async(&tile[threadIdx.x], &src[threadIdx.x], cuda::aligned_size_t<4>(sizeof(float)), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
}

__global__ void reverse_tiles_with_pipeline(const float *in, float *out)
{
    __shared__ float tile[64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = tile[63 - threadIdx.x];
    pipe.consumer_release();
}

__global__ void barrier_for_half_the_block()
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x / 2);
    __syncthreads();
    bar.arrive_and_wait();
}

Test(async_copy, barrier_and_pipeline_stage_tiles)
{
    const int blocks = 3, n = blocks * 64;
    float *in = nullptr, *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(float)), cudaSuccess);
    for (int i = 0; i < n; ++i)
        in[i] = (float)i;
    reverse_tiles_with_barrier<<<blocks, 64>>>(in, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; ++i)
        cr_expect_eq(out[i], (float)((i / 64) * 64 + 63 - i % 64));
    std::memset(out, 0, n * sizeof(float));
    reverse_tiles_with_pipeline<<<blocks, 64>>>(in, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; ++i)
        cr_expect_eq(out[i], (float)((i / 64) * 64 + 63 - i % 64));
    barrier_for_half_the_block<<<1, 64>>>();
    cr_expect_eq(cudaGetLastError(), cudaErrorNotSupported);
    cr_expect(diagnostic_has("expected count of 32 (the block has 64 threads)"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(in);
    cudaFree(out);
}

/* ---- inline PTX: special registers ------------------------------------------- */

__global__ void read_special_registers(unsigned *out)
{
    unsigned lane, warp, ntid;
    unsigned long long t;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%warpid;\n\t"
        "mov.u32 %1, %%ntid.x;" : "=r"(warp), "=r"(ntid));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    asm volatile("" ::: "memory"); /* a compiler barrier is left alone */
    out[threadIdx.x] = lane * 1000 + warp * 100 + ntid + (t > 0 ? 0 : 1000000);
}

Test(inline_ptx, special_registers_read_by_mov)
{
    unsigned *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 96 * sizeof(unsigned)), cudaSuccess);
    read_special_registers<<<1, 96>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (unsigned t = 0; t < 96; ++t)
        cr_expect_eq(out[t], (t % 32) * 1000 + (t / 32) * 100 + 96, "thread %u: %u", t, out[t]);
    cudaFree(out);
}
