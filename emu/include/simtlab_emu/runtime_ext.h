/* simtlab CPU emulator — the runtime API beyond simtlab's own chapters:
 * memory kinds (managed, mapped and registered host memory, pointer
 * attributes), symbols (__constant__ and __device__ variables), stream
 * callbacks and host functions, and CUDA graphs (stream capture and a few
 * manual nodes). Included by <cuda_runtime_api.h>, for C and C++; the C++
 * template overloads that CUDA's <cuda_runtime.h> adds are in
 * simtlab_emu/runtime_overloads.hpp.
 *
 * Names, signatures and numbers follow the CUDA 13 runtime. Implemented in
 * emu/src/runtime/unified.cpp (memory kinds, symbols) and
 * emu/src/runtime/graph.cpp (callbacks, graphs).
 */
#ifndef SIMTLAB_EMU_RUNTIME_EXT_H
#define SIMTLAB_EMU_RUNTIME_EXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- flags ------------------------------------------------------------- */
#ifndef cudaHostAllocPortable
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaStreamPerThread ((cudaStream_t)0x2)
#endif
/* Device-side named streams of dynamic parallelism (CDP2): a tail launch
 * runs after the launching grid and all its other work; a fire-and-forget
 * launch depends on nothing. */
#ifndef cudaStreamTailLaunch
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
#endif
#ifndef cudaEventInterprocess
#define cudaEventInterprocess 0x04
#endif

/* ---- memory kinds ------------------------------------------------------ */
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};

enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6
};

enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};

struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};

/* cudaMallocManaged memory is a device allocation (tracked, guarded, in the
 * leak list) that host code may also read and write at any time. */
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
cudaError_t simtlab_emu_malloc_managed_at(void **devPtr, size_t size, unsigned int flags, const char *file,
                                          int line);
/* Prefetches and advice move nothing: all memory is host memory. The
 * arguments are checked. */
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location);
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void *ptr);
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
cudaError_t cudaSetDeviceFlags(unsigned int flags);
cudaError_t cudaGetDeviceFlags(unsigned int *flags);
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr);

/* ---- symbols: __constant__ and __device__ variables ---------------------
 * In the emulator such a variable is an ordinary global, so its address is
 * its device address. These C forms cannot know the variable's size; the
 * C++ templates (symbol by reference) pass it, and check offset + count. */
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
/* What the templates call: `symbol_bytes` is sizeof the variable (0:
 * unknown). `to_symbol` says which way; `api` names the call in messages. */
cudaError_t simtlab_emu_symbol_copy(const char *api, int to_symbol, void *symbol, size_t symbol_bytes,
                                    void *other, size_t count, size_t offset, enum cudaMemcpyKind kind,
                                    cudaStream_t stream);
cudaError_t simtlab_emu_symbol_address(const char *api, void **devPtr, size_t *size, const void *symbol,
                                       size_t symbol_bytes);

/* ---- stream callbacks and host functions -------------------------------
 * Streams run eagerly, so a callback runs when it is enqueued, after all
 * work submitted before it and before any submitted after it: stream order.
 * Under stream capture it becomes a graph node instead. */
#ifndef CUDART_CB
#define CUDART_CB /* the calling convention of callbacks: nothing on Linux */
#endif
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority);
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);

/* ---- CUDA graphs ------------------------------------------------------ */
typedef struct simtlab_emu_graph *cudaGraph_t;
typedef struct simtlab_emu_graph_exec *cudaGraphExec_t;
typedef struct simtlab_emu_graph_node *cudaGraphNode_t;

enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2
};
enum cudaGraphNodeType {
    cudaGraphNodeTypeKernel = 0x00,
    cudaGraphNodeTypeMemcpy = 0x01,
    cudaGraphNodeTypeMemset = 0x02,
    cudaGraphNodeTypeHost = 0x03,
    cudaGraphNodeTypeGraph = 0x04,
    cudaGraphNodeTypeEmpty = 0x05,
    cudaGraphNodeTypeWaitEvent = 0x06,
    cudaGraphNodeTypeEventRecord = 0x07,
    cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
    cudaGraphNodeTypeExtSemaphoreWait = 0x09,
    cudaGraphNodeTypeMemAlloc = 0x0a,
    cudaGraphNodeTypeMemFree = 0x0b,
    cudaGraphNodeTypeConditional = 0x0d,
    cudaGraphNodeTypeCount
};

struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value;
    unsigned int elementSize;
    size_t width;
    size_t height;
};
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams *pNodeParams);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams *pMemsetParams);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams *pNodeParams);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t *pDependencies, size_t numDependencies);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);

/* ---- kernels by address ------------------------------------------------
 * The C forms, with the kernel as `const void *`, can launch a kernel only
 * if the emulator has seen its parameter types: through a <<<>>> launch, or
 * a C++ cudaLaunchKernel / cudaFuncGetAttributes with the kernel itself
 * (not cast to void *). Otherwise they return cudaErrorNotSupported. */
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMTLAB_EMU_RUNTIME_EXT_H */
