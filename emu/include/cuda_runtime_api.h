/* simtlab CPU emulator — the CUDA runtime API subset, for C and C++.
 *
 * Host code (plain C11) and kernels (compiled as C++17) include this header in
 * emulator builds instead of the CUDA toolkit's. Names, signatures and the
 * numeric values of cudaError_t and cudaDeviceAttr follow the CUDA 13 runtime,
 * so code written against the real toolkit compiles here unchanged and error
 * numbers printed by either backend mean the same thing.
 *
 * Implemented in emu/src/runtime*.cpp. Only what simtlab's chapters use is here;
 * an unsupported call is a compile error, never a silent stub.
 */
#ifndef SIMTLAB_EMU_CUDA_RUNTIME_API_H
#define SIMTLAB_EMU_CUDA_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

#define SIMTLAB_EMU 1
/* The runtime version the emulator mimics (CUDA 13.0 encodes as 13000). */
#define CUDART_VERSION 13000

#ifdef __cplusplus
extern "C" {
#endif

/* ---- error codes: CUDA's own numbers ---------------------------------- */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotPermitted = 800,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
} cudaError_t;

/* ---- vector types ------------------------------------------------------ */
typedef struct uint3 { unsigned int x, y, z; } uint3;
typedef struct int2 { int x, y; } int2;
typedef struct int4 { int x, y, z, w; } int4;
typedef struct uint2 { unsigned int x, y; } uint2;
typedef struct uint4 { unsigned int x, y, z, w; } uint4;
typedef struct float2 { float x, y; } float2;
typedef struct float4 { float x, y, z, w; } float4;
typedef struct double2 { double x, y; } double2;

#ifdef __cplusplus
} /* extern "C" */
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
extern "C" {
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

/* Host-side constructors (C has no constructors). */
static inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z) { uint3 v = {x, y, z}; return v; }
static inline int2 make_int2(int x, int y) { int2 v = {x, y}; return v; }
static inline int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }
static inline uint2 make_uint2(unsigned int x, unsigned int y) { uint2 v = {x, y}; return v; }
static inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { uint4 v = {x, y, z, w}; return v; }
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static inline double2 make_double2(double x, double y) { double2 v = {x, y}; return v; }

/* ---- handles ----------------------------------------------------------- */
typedef struct simtlab_emu_stream *cudaStream_t;
typedef struct simtlab_emu_event *cudaEvent_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00

/* ---- device properties (the fields simtlab reads; same names as CUDA) -- */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int integrated;
    int concurrentKernels;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    size_t sharedMemPerBlockOptin;
    int maxBlocksPerMultiProcessor;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrConcurrentKernels = 31,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* ---- errors ------------------------------------------------------------ */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* ---- versions and devices --------------------------------------------- */
cudaError_t cudaDriverGetVersion(int *driverVersion);
cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);

/* ---- memory ------------------------------------------------------------ */
cudaError_t cudaMalloc(void **devPtr, size_t size);
/* cudaMalloc(p, n) called by name records the caller's file:line for the
 * leak list and for out-of-bounds diagnostics ("allocated at foo.cu:42"). */
cudaError_t simtlab_emu_malloc_at(void **devPtr, size_t size, const char *file, int line);
#define cudaMalloc(p, n) simtlab_emu_malloc_at((void **)(p), (n), __FILE__, __LINE__)
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);

/* ---- streams and events (events time host work: label them emulated) -- */
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);

/* ---- kernels ----------------------------------------------------------- */
/* `func` is the address of a kernel (a __global__ function). */
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);

/* ---- simtlab extensions (not CUDA; prefixed so nobody mistakes them) --- */
/* 1 in every emulator build: host code may label timings "emulated". */
int simtlab_emu_is_emulator(void);
/* Prints every device allocation still live, with the file:line that made it
 * where known; returns how many there are. Also run at process exit. */
size_t simtlab_emu_report_live_allocations(void *FILE_stream);
/* The emulator's last diagnostic, one paragraph naming the kernel, block,
 * thread and cause ("" when none). Tests assert on it; the host error layer
 * appends it to sl_last_error(). */
const char *simtlab_emu_last_diagnostic(void);
void simtlab_emu_clear_diagnostic(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SIMTLAB_EMU_CUDA_RUNTIME_API_H */
