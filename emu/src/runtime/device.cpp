/* simtlab CPU emulator — the one emulated device: properties, attributes,
 * versions, synchronisation, reset, and per-kernel attributes.
 *
 * The device claims compute capability 8.0 (A100) by default, so that code
 * written for sm_80 takes its sm_80 paths; SIMTLAB_EMU_CC=9.0 (or 90) makes
 * it claim another, with that generation's shared-memory and occupancy
 * limits. Sizes that describe the host (cores, RAM, cache) are the host's:
 * the name says plainly that this is the emulator.
 */
#include "checks/api.hpp"
#include "common/settings.hpp"
#include "runtime/internal.hpp"
#include <simtlab_emu/engine.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace simtlab_emu {
namespace {

/* Per compute capability, from the CUDA C++ Programming Guide, "Technical
 * Specifications per Compute Capability": shared memory per SM, the most a
 * block may opt in to, resident threads and blocks per SM. */
struct generation {
    int major, minor;
    std::size_t shared_per_sm, shared_optin;
    int threads_per_sm, blocks_per_sm;
};
const generation generations[] = {
    {7, 0, 98304, 98304, 2048, 32},   /* V100: 96 KB */
    {7, 5, 65536, 65536, 1024, 16},   /* T4: 64 KB */
    {8, 0, 167936, 166912, 2048, 32}, /* A100: 164 KB per SM, 163 KB per block */
    {8, 6, 102400, 101376, 1536, 16}, /* RTX 30: 100 KB, 99 KB */
    {8, 7, 167936, 166912, 1536, 16}, /* Jetson Orin */
    {8, 9, 102400, 101376, 1536, 24}, /* RTX 40 / L4 */
    {9, 0, 233472, 232448, 2048, 32}, /* H100/H200: 228 KB, 227 KB */
    {10, 0, 233472, 232448, 2048, 32},
    {12, 0, 102400, 101376, 1536, 24}, /* 24 blocks: CUDA 13.0's cuda_occupancy.h */
};

/* A100's boost clock, 1410 MHz, in kHz as CUDA reports it. */
constexpr int clock_rate_khz = 1410000;
/* CUDA 13 dropped memoryClockRate from cudaDeviceProp; the attribute stays.
 * The emulator's "device memory" is host DRAM, so we describe one DDR4-3200
 * channel: 1600 MHz, double data rate, 64 bits wide. The doctor's
 * 2 * clock * width / 8 then gives 25.6 GB/s, a plausible single-channel
 * figure, and nobody mistakes it for HBM. */
constexpr int memory_clock_rate_khz = 1600000;
constexpr int memory_bus_width_bits = 64;
/* Used when the host does not report its cache sizes: A100's L2, 40 MB. */
constexpr int fallback_l2_bytes = 40 * 1024 * 1024;
constexpr std::size_t default_shared_per_block = 48 * 1024;

const generation &generation_for(int major, int minor)
{
    for (const generation &g : generations)
        if (g.major == major && g.minor == minor)
            return g;
    for (const generation &g : generations)
        if (g.major == 8 && g.minor == 0)
            return g; /* unknown generation: A100's limits */
    return generations[0];
}

int host_cores()
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 1;
}

int host_cache_bytes()
{
    long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (l2 > 0)
        return static_cast<int>(l2);
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    return l3 > 0 ? static_cast<int>(l3) : fallback_l2_bytes;
}

/* Half the host's RAM: the rest is left to the host program. */
std::size_t host_memory_share()
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return std::size_t{4} << 30;
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 2;
}


/* The fields beyond the sizes: what the emulated device can do. A kernel is
 * CPU code, so it can read any host memory (mapped, pageable, managed) and
 * its atomics are the host's; textures, surfaces, clusters, IPC and peers
 * are not emulated and read 0, as on a device without them. */
void fill_capabilities(cudaDeviceProp *p, const generation &g)
{
    std::memcpy(p->uuid.bytes, "simtlab-emulator", 16);
    p->textureAlignment = 512; /* what A100 and H100 report */
    p->texturePitchAlignment = 32;
    p->surfaceAlignment = 512;
    p->canMapHostMemory = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->managedMemory = 1;
    p->hostNativeAtomicSupported = 1;
    p->pageableMemoryAccess = 1;
    p->concurrentManagedAccess = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->pageableMemoryAccessUsesHostPageTables = 1;
    p->directManagedMemAccessFromHost = 1;
    p->cooperativeLaunch = 1;
    p->hostRegisterSupported = 1;
    /* CUDA reserves 1 KB of shared memory per block (per SM minus opt-in). */
    p->reservedSharedMemPerBlock = g.shared_per_sm - g.shared_optin;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
    /* The checked build (memcheck on, checks/checkers.cpp) refuses a kernel's
     * atomics on host pageable memory, as a GPU without HMM or ATS faults
     * on any access to it (most discrete GPUs: CUDA Programming Guide,
     * "Unified Memory"); its device says so. Without the checks the device
     * is a hardware-coherent one (ATS, as Grace Hopper), where it works. */
    if (checkers::memcheck_on()) {
        p->pageableMemoryAccess = 0;
        p->pageableMemoryAccessUsesHostPageTables = 0;
        p->hostNativeAtomicSupported = 0;
    }
}

cudaDeviceProp build_props()
{
    cudaDeviceProp p;
    std::memset(&p, 0, sizeof p);
    settings::compute_capability(&p.major, &p.minor); /* SIMTLAB_EMU_CC, read once */
    const generation &g = generation_for(p.major, p.minor);
    p.multiProcessorCount = host_cores();
    std::snprintf(p.name, sizeof p.name, "simtlab CPU emulator (sm_%d%d, %d host cores)", p.major, p.minor,
                  p.multiProcessorCount);
    p.totalGlobalMem = host_memory_share();
    p.sharedMemPerBlock = default_shared_per_block;
    p.regsPerBlock = 65536;
    p.warpSize = 32;
    p.memPitch = 2147483647;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
    p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
    p.totalConstMem = 65536;
    p.integrated = 0; /* device memory is not host-accessible outside kernels */
    p.concurrentKernels = 1;
    p.asyncEngineCount = 1;
    p.unifiedAddressing = 1;
    p.memoryBusWidth = memory_bus_width_bits;
    p.l2CacheSize = host_cache_bytes();
    /* A persisting L2 set-aside and access policy windows exist on sm_80 and
     * later; the emulator records a window and a set-aside and ignores them
     * (runtime/pool.cpp). A100 sets aside at most 3/4 of its L2 (30 of 40
     * MB); A100 and H100 report a 134213632-byte maximum window. */
    p.persistingL2CacheMaxSize = p.l2CacheSize / 4 * 3;
    p.accessPolicyMaxWindowSize = 134213632;
    p.memoryPoolsSupported = 1; /* the default pool only (runtime/pool.cpp) */
    p.maxThreadsPerMultiProcessor = g.threads_per_sm;
    p.sharedMemPerMultiprocessor = g.shared_per_sm;
    p.regsPerMultiprocessor = 65536;
    p.sharedMemPerBlockOptin = g.shared_optin;
    p.maxBlocksPerMultiProcessor = g.blocks_per_sm;
    fill_capabilities(&p, g);
    return p;
}

cudaError_t check_device(int device, const char *api)
{
    if (device == 0)
        return cudaSuccess;
    runtime::diagnose("%s: device %d does not exist (the emulator has one device, 0)", api, device);
    return cudaErrorInvalidDevice;
}

/* The attributes beyond the sizes, mostly one cudaDeviceProp field each;
 * those about textures, surfaces, pools, NUMA and interop read 0 ("absent").
 * False for a number that is not an attribute of CUDA 13. */
bool more_attribute_value(const cudaDeviceProp &p, enum cudaDeviceAttr attr, int *value)
{
    switch (attr) {
    case cudaDevAttrMaxPitch: *value = static_cast<int>(p.memPitch); return true;
    case cudaDevAttrTextureAlignment: *value = static_cast<int>(p.textureAlignment); return true;
    case cudaDevAttrTexturePitchAlignment: *value = static_cast<int>(p.texturePitchAlignment); return true;
    case cudaDevAttrSurfaceAlignment: *value = static_cast<int>(p.surfaceAlignment); return true;
    case cudaDevAttrGpuOverlap: *value = p.asyncEngineCount > 0; return true;
    case cudaDevAttrKernelExecTimeout: *value = 0; return true; /* no watchdog */
    case cudaDevAttrIntegrated: *value = p.integrated; return true;
    case cudaDevAttrCanMapHostMemory: *value = p.canMapHostMemory; return true;
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; return true;
    case cudaDevAttrEccEnabled: *value = p.ECCEnabled; return true;
    case cudaDevAttrPciBusId: *value = p.pciBusID; return true;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; return true;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; return true;
    case cudaDevAttrTccDriver: *value = p.tccDriver; return true;
    case cudaDevAttrUnifiedAddressing: *value = p.unifiedAddressing; return true;
    case cudaDevAttrStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; return true;
    case cudaDevAttrGlobalL1CacheSupported: *value = p.globalL1CacheSupported; return true;
    case cudaDevAttrLocalL1CacheSupported: *value = p.localL1CacheSupported; return true;
    case cudaDevAttrManagedMemory: *value = p.managedMemory; return true;
    case cudaDevAttrIsMultiGpuBoard: *value = p.isMultiGpuBoard; return true;
    case cudaDevAttrMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; return true;
    case cudaDevAttrHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; return true;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *value = 2; return true; /* a CPU's SIMD: 2x */
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: *value = p.concurrentManagedAccess; return true;
    case cudaDevAttrComputePreemptionSupported: *value = p.computePreemptionSupported; return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; return true;
    case cudaDevAttrCooperativeLaunch: *value = p.cooperativeLaunch; return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *value = p.pageableMemoryAccessUsesHostPageTables; return true;
    case cudaDevAttrDirectManagedMemAccessFromHost: *value = p.directManagedMemAccessFromHost; return true;
    case cudaDevAttrMaxPersistingL2CacheSize: *value = p.persistingL2CacheMaxSize; return true;
    case cudaDevAttrMaxAccessPolicyWindowSize: *value = p.accessPolicyMaxWindowSize; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); return true;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; return true;
    case cudaDevAttrMemoryPoolsSupported: *value = p.memoryPoolsSupported; return true;
    case cudaDevAttrClusterLaunch: *value = p.clusterLaunch; return true;
    case cudaDevAttrMemSyncDomainCount: *value = 1; return true;
    case cudaDevAttrNumaId: *value = p.deviceNumaId; return true;
    case cudaDevAttrHostNumaId: *value = p.hostNumaId; return true;
    case cudaDevAttrMaxTexture1DWidth: case cudaDevAttrMaxTexture2DWidth: case cudaDevAttrMaxTexture2DHeight:
    case cudaDevAttrMaxTexture3DWidth: case cudaDevAttrMaxTexture3DHeight: case cudaDevAttrMaxTexture3DDepth:
    case cudaDevAttrMaxTexture2DLayeredWidth: case cudaDevAttrMaxTexture2DLayeredHeight:
    case cudaDevAttrMaxTexture2DLayeredLayers: case cudaDevAttrMaxTexture1DLayeredWidth:
    case cudaDevAttrMaxTexture1DLayeredLayers: case cudaDevAttrMaxTexture2DGatherWidth:
    case cudaDevAttrMaxTexture2DGatherHeight: case cudaDevAttrMaxTexture3DWidthAlt:
    case cudaDevAttrMaxTexture3DHeightAlt: case cudaDevAttrMaxTexture3DDepthAlt:
    case cudaDevAttrMaxTextureCubemapWidth: case cudaDevAttrMaxTextureCubemapLayeredWidth:
    case cudaDevAttrMaxTextureCubemapLayeredLayers: case cudaDevAttrMaxSurface1DWidth:
    case cudaDevAttrMaxSurface2DWidth: case cudaDevAttrMaxSurface2DHeight: case cudaDevAttrMaxSurface3DWidth:
    case cudaDevAttrMaxSurface3DHeight: case cudaDevAttrMaxSurface3DDepth: case cudaDevAttrMaxSurface1DLayeredWidth:
    case cudaDevAttrMaxSurface1DLayeredLayers: case cudaDevAttrMaxSurface2DLayeredWidth:
    case cudaDevAttrMaxSurface2DLayeredHeight: case cudaDevAttrMaxSurface2DLayeredLayers:
    case cudaDevAttrMaxSurfaceCubemapWidth: case cudaDevAttrMaxSurfaceCubemapLayeredWidth:
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: case cudaDevAttrMaxTexture1DLinearWidth:
    case cudaDevAttrMaxTexture2DLinearWidth: case cudaDevAttrMaxTexture2DLinearHeight:
    case cudaDevAttrMaxTexture2DLinearPitch: case cudaDevAttrMaxTexture2DMipmappedWidth:
    case cudaDevAttrMaxTexture2DMipmappedHeight: case cudaDevAttrMaxTexture1DMipmappedWidth:
    case cudaDevAttrCanFlushRemoteWrites: case cudaDevAttrSparseCudaArraySupported:
    case cudaDevAttrHostRegisterReadOnlySupported: case cudaDevAttrTimelineSemaphoreInteropSupported:
    case cudaDevAttrGPUDirectRDMASupported: case cudaDevAttrGPUDirectRDMAFlushWritesOptions:
    case cudaDevAttrGPUDirectRDMAWritesOrdering: case cudaDevAttrMemoryPoolSupportedHandleTypes:
    case cudaDevAttrDeferredMappingCudaArraySupported: case cudaDevAttrIpcEventSupport:
    case cudaDevAttrNumaConfig: case cudaDevAttrMpsEnabled: case cudaDevAttrD3D12CigSupported:
    case cudaDevAttrVulkanCigSupported: case cudaDevAttrGpuPciDeviceId: case cudaDevAttrGpuPciSubsystemId:
    case cudaDevAttrHostNumaMemoryPoolsSupported: case cudaDevAttrHostNumaMultinodeIpcSupported:
    case cudaDevAttrHostMemoryPoolsSupported: case cudaDevAttrOnlyPartialHostNativeAtomicSupported:
        *value = 0;
        return true;
    default:
        return false;
    }
}

bool attribute_value(enum cudaDeviceAttr attr, int *value)
{
    const cudaDeviceProp &p = device_props();
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); return true;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); return true;
    case cudaDevAttrWarpSize: *value = p.warpSize; return true;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; return true;
    case cudaDevAttrClockRate: *value = clock_rate_khz; return true;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; return true;
    case cudaDevAttrConcurrentKernels: *value = p.concurrentKernels; return true;
    case cudaDevAttrMemoryClockRate: *value = memory_clock_rate_khz; return true;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: *value = p.asyncEngineCount; return true;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; return true;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; return true;
    default: return more_attribute_value(p, attr, value);
    }
}

} /* namespace */

const cudaDeviceProp &device_props()
{
    static const cudaDeviceProp props = build_props();
    return props;
}

} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

int simtlab_emu_is_emulator(void)
{
    return 1;
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return record_error(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return record_error(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return record_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return record_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return record_error(check_device(device, "cudaSetDevice"));
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    if (!prop) {
        runtime::diagnose("cudaGetDeviceProperties: prop is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = check_device(device, "cudaGetDeviceProperties");
    if (e == cudaSuccess)
        *prop = device_props();
    return record_error(e);
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    if (!value) {
        runtime::diagnose("cudaDeviceGetAttribute: value is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = check_device(device, "cudaDeviceGetAttribute");
    if (e != cudaSuccess)
        return record_error(e);
    if (!attribute_value(attr, value)) {
        runtime::diagnose("cudaDeviceGetAttribute: attribute %d is not one the emulator knows", static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    if (in_kernel())
        fail_launch(cudaErrorLaunchFailure,
                    "cudaDeviceSynchronize() called in device code: since CUDA 12 dynamic parallelism (CDP2) has "
                    "no device-side cudaDeviceSynchronize, and nvcc refuses the call (on sm_90 and later always; "
                    "before, only with -DCUDA_FORCE_CDP1_IF_SUPPORTED, which the emulator does not emulate). A "
                    "parent grid cannot wait for its children: launch the work that needs their results as a "
                    "tail launch (<<<g, b, 0, cudaStreamTailLaunch>>>), or from the host after the launch");
    runtime::host_wait();
    return runtime::check_context();
}

cudaError_t cudaDeviceReset(void)
{
    runtime::host_wait();
    runtime::release_all_allocations();
    runtime::release_all_streams_and_events();
    engine_reset_function_attributes();
    runtime::clear_errors();
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    if (!free_bytes || !total_bytes) {
        runtime::diagnose("cudaMemGetInfo: %s is NULL", !free_bytes ? "free" : "total");
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    std::size_t total = device_props().totalGlobalMem, used = runtime::live_device_bytes();
    *total_bytes = total;
    *free_bytes = used < total ? total - used : 0;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    if (!attr) {
        runtime::diagnose("cudaFuncGetAttributes: attr is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    if (!func) {
        runtime::diagnose("cudaFuncGetAttributes: func is NULL (pass a __global__ function)");
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    const cudaDeviceProp &p = device_props();
    std::size_t static_shared = kernel_static_shared_bytes(func);
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = static_shared;
    attr->maxThreadsPerBlock = p.maxThreadsPerBlock;
    /* The emulator compiles no machine code, so there is no register count
     * to report: 0 says "unknown", never a made-up number. */
    attr->numRegs = 0;
    attr->ptxVersion = attr->binaryVersion = p.major * 10 + p.minor;
    attr->maxDynamicSharedSizeBytes = static_cast<int>(kernel_max_dynamic_shared_bytes(func, device_props().sharedMemPerBlock));
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    if (!func) {
        runtime::diagnose("cudaFuncSetAttribute: func is NULL (pass a __global__ function)");
        return record_error(cudaErrorInvalidDeviceFunction);
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < -1 || value > 100) {
            runtime::diagnose("cudaFuncSetAttribute: carveout %d is not a percentage (0..100) or -1", value);
            return record_error(cudaErrorInvalidValue);
        }
        return cudaSuccess; /* a hint; the emulator has no carveout to set */
    }
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) {
        runtime::diagnose("cudaFuncSetAttribute: attribute %d is not one the emulator knows", static_cast<int>(attr));
        return record_error(cudaErrorInvalidValue);
    }
    if (engine_set_max_dynamic_shared(func, value, device_props().sharedMemPerBlockOptin) != cudaSuccess) {
        std::size_t optin = device_props().sharedMemPerBlockOptin;
        std::size_t static_shared = kernel_static_shared_bytes(func);
        runtime::diagnose("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, %d): with %zu bytes of static shared "
                          "memory the most this device (sm_%d%d) allows is %zu",
                          value, static_shared, device_props().major, device_props().minor,
                          static_shared < optin ? optin - static_shared : 0);
        return record_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

} /* extern "C" */
