/* simtlab CPU emulator — the driver API's devices, contexts, streams and
 * events, and the module and launch calls it cannot offer.
 *
 * The model is CUDA's primary context: one context per device, which the
 * runtime uses too. The emulator has one device, so there is one primary
 * context, and the runtime holds it from the start (as it would after its
 * first call on a GPU): it is current on every thread until the program
 * changes that, and cuDevicePrimaryCtxGetState reports it active.
 *
 * cuCtxCreate makes a context of its own, a handle that is pushed on the
 * calling thread's context stack, can be made current, popped and
 * destroyed, and is checked like a real one (a destroyed context is an
 * error wherever it is passed). Its memory, streams and events are the
 * device's, shared with the primary context: cuCtxDestroy waits for the
 * device but frees nothing that was allocated while it was current (on a
 * GPU it would). emu/docs/libraries.md, "The driver API".
 *
 * cuInit is checked (its flags must be 0) but not required: the runtime,
 * which initializes the driver, is always up here. On a GPU, driver calls
 * made before cuInit or any runtime call return CUDA_ERROR_NOT_INITIALIZED.
 */
#include "libs/driver/internal.hpp"

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

/* A context handle: the device's, primary or made by cuCtxCreate. */
struct simtlab_emu_cu_context {
    bool primary;
    bool destroyed;
    unsigned flags;
};

namespace simtlab_emu {
namespace {

std::mutex context_lock; /* guards everything below but the stacks */
simtlab_emu_cu_context primary_context = {true, false, 0};
unsigned primary_retains = 0;
/* Every context cuCtxCreate made, destroyed ones included, so that a stale
 * handle is recognized instead of read after it was freed. */
std::vector<std::unique_ptr<simtlab_emu_cu_context>> created;

/* This thread's context stack; its back is the current context. It starts
 * with the primary context, which the runtime made current. */
struct context_stack {
    std::vector<CUcontext> entries{&primary_context};
};
thread_local context_stack stack;

CUresult check_device(CUdevice dev, const char *api)
{
    if (dev != 0) {
        runtime::diagnose("%s: device %d does not exist (the emulator has one device, 0)", api, dev);
        return CUDA_ERROR_INVALID_DEVICE;
    }
    return CUDA_SUCCESS;
}

/* Under context_lock: whether ctx is a context handle at all. */
bool known(CUcontext ctx)
{
    if (ctx == &primary_context)
        return true;
    for (const auto &c : created)
        if (c.get() == ctx)
            return true;
    return false;
}

/* A handle passed to a call: CUDA_SUCCESS, or why not. */
CUresult check_handle(CUcontext ctx, const char *api)
{
    std::lock_guard<std::mutex> hold(context_lock);
    if (!known(ctx)) {
        runtime::diagnose("%s: %p is not a context (cuCtxCreate or cuDevicePrimaryCtxRetain gives one)", api,
                          static_cast<void *>(ctx));
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (ctx->destroyed) {
        runtime::diagnose("%s: context %p was destroyed with cuCtxDestroy", api, static_cast<void *>(ctx));
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    return CUDA_SUCCESS;
}

/* A runtime call made for a driver call: its result as a CUresult, the
 * runtime's last error left as it was. */
template <class Call>
CUresult on_runtime(Call call)
{
    runtime::keep_last_error keep;
    return driver::result_of(call());
}

} /* namespace */

CUresult driver::need_context(const char *api)
{
    CUcontext ctx = stack.entries.empty() ? nullptr : stack.entries.back();
    if (!ctx) {
        runtime::diagnose("%s: no context is current on this thread (cuCtxPopCurrent or cuCtxSetCurrent(NULL) "
                          "left none): make one current with cuCtxSetCurrent or cuCtxPushCurrent",
                          api);
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    std::lock_guard<std::mutex> hold(context_lock);
    if (ctx->destroyed) {
        runtime::diagnose("%s: the current context %p was destroyed with cuCtxDestroy (pop it, or make another "
                          "one current)",
                          api, static_cast<void *>(ctx));
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    }
    return CUDA_SUCCESS;
}

CUcontext driver::current_or_primary()
{
    return stack.entries.empty() || !stack.entries.back() ? &primary_context : stack.entries.back();
}

CUresult driver::not_supported(const char *api, const char *what)
{
    runtime::diagnose("%s is not supported: %s. The emulator runs kernels compiled from the program's CUDA "
                      "source (<<<...>>> or cudaLaunchKernel); it has no PTX JIT and loads no module image",
                      api, what);
    return CUDA_ERROR_NOT_SUPPORTED;
}

} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

/* ---- initialization, version, devices ------------------------------------ */

CUresult cuInit(unsigned int Flags)
{
    if (Flags != 0) {
        runtime::diagnose("cuInit(%u): Flags must be 0", Flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) {
        runtime::diagnose("cuDriverGetVersion: driverVersion is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    if (!device) {
        runtime::diagnose("cuDeviceGet: device is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(ordinal, "cuDeviceGet");
    if (r == CUDA_SUCCESS)
        *device = ordinal;
    return r;
}

CUresult cuDeviceGetCount(int *count)
{
    if (!count) {
        runtime::diagnose("cuDeviceGetCount: count is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    if (!name || len <= 0) {
        runtime::diagnose("cuDeviceGetName: %s", !name ? "name is NULL" : "len must be positive");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceGetName");
    if (r == CUDA_SUCCESS)
        std::snprintf(name, static_cast<std::size_t>(len), "%s", device_props().name);
    return r;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    if (!bytes) {
        runtime::diagnose("cuDeviceTotalMem: bytes is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceTotalMem");
    if (r == CUDA_SUCCESS)
        *bytes = device_props().totalGlobalMem;
    return r;
}

/* The toolkit numbers CUdevice_attribute and cudaDeviceAttr alike, so the
 * runtime answers; the driver declares a few attributes more, each whether
 * (or how far) the device has a feature the emulator does not have: 0. */
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    if (!pi) {
        runtime::diagnose("cuDeviceGetAttribute: pi is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceGetAttribute");
    if (r != CUDA_SUCCESS)
        return r;
    switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1:
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH:
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
    case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS:
    case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH:
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
        *pi = 0;
        return CUDA_SUCCESS;
    default:
        break;
    }
    return on_runtime([&] { return cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev); });
}

/* One device: no peer to reach. */
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    if (!canAccessPeer) {
        runtime::diagnose("cuDeviceCanAccessPeer: canAccessPeer is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceCanAccessPeer");
    if (r == CUDA_SUCCESS)
        r = check_device(peerDev, "cuDeviceCanAccessPeer");
    if (r == CUDA_SUCCESS)
        r = on_runtime([&] { return cudaDeviceCanAccessPeer(canAccessPeer, dev, peerDev); });
    return r;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    if (!uuid) {
        runtime::diagnose("cuDeviceGetUuid: uuid is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceGetUuid");
    if (r == CUDA_SUCCESS)
        *uuid = device_props().uuid;
    return r;
}

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    CUresult r = check_device(dev, "cuDeviceGetPCIBusId");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaDeviceGetPCIBusId(pciBusId, len, dev); });
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    if (!major || !minor) {
        runtime::diagnose("cuDeviceComputeCapability: %s is NULL", !major ? "major" : "minor");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDeviceComputeCapability");
    if (r == CUDA_SUCCESS)
        *major = device_props().major, *minor = device_props().minor;
    return r;
}

/* ---- the primary context --------------------------------------------------- */

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    if (!pctx) {
        runtime::diagnose("cuDevicePrimaryCtxRetain: pctx is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDevicePrimaryCtxRetain");
    if (r != CUDA_SUCCESS)
        return r;
    std::lock_guard<std::mutex> hold(context_lock);
    primary_retains++;
    *pctx = &primary_context;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CUresult r = check_device(dev, "cuDevicePrimaryCtxRelease");
    if (r != CUDA_SUCCESS)
        return r;
    std::lock_guard<std::mutex> hold(context_lock);
    if (primary_retains == 0) {
        runtime::diagnose("cuDevicePrimaryCtxRelease: the primary context of device 0 is released more often "
                          "than cuDevicePrimaryCtxRetain retained it");
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    primary_retains--;
    return CUDA_SUCCESS;
}

/* What cudaDeviceReset does: every allocation, stream and event is gone. */
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    CUresult r = check_device(dev, "cuDevicePrimaryCtxReset");
    if (r != CUDA_SUCCESS)
        return r;
    return driver::result_of(cudaDeviceReset());
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    CUresult r = check_device(dev, "cuDevicePrimaryCtxSetFlags");
    if (r != CUDA_SUCCESS)
        return r;
    if (flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) {
        runtime::diagnose("cuDevicePrimaryCtxSetFlags: unknown flags 0x%x", flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    std::lock_guard<std::mutex> hold(context_lock);
    primary_context.flags = flags;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    if (!flags || !active) {
        runtime::diagnose("cuDevicePrimaryCtxGetState: %s is NULL", !flags ? "flags" : "active");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuDevicePrimaryCtxGetState");
    if (r != CUDA_SUCCESS)
        return r;
    std::lock_guard<std::mutex> hold(context_lock);
    *flags = primary_context.flags;
    *active = 1; /* the runtime holds it */
    return CUDA_SUCCESS;
}

/* ---- contexts -------------------------------------------------------------- */

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags, CUdevice dev)
{
    if (!pctx) {
        runtime::diagnose("cuCtxCreate: pctx is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pctx = nullptr;
    if (ctxCreateParams && (ctxCreateParams->execAffinityParams || ctxCreateParams->cigParams)) {
        runtime::diagnose("cuCtxCreate: the emulator has no execution affinity and no CIG: pass NULL "
                          "ctxCreateParams");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) {
        runtime::diagnose("cuCtxCreate: unknown flags 0x%x", flags);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_device(dev, "cuCtxCreate");
    if (r != CUDA_SUCCESS)
        return r;
    std::lock_guard<std::mutex> hold(context_lock);
    created.push_back(std::unique_ptr<simtlab_emu_cu_context>(new simtlab_emu_cu_context{false, false, flags}));
    *pctx = created.back().get();
    stack.entries.push_back(*pctx);
    return CUDA_SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    if (!ctx) {
        runtime::diagnose("cuCtxDestroy: ctx is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_handle(ctx, "cuCtxDestroy");
    if (r != CUDA_SUCCESS)
        return r;
    if (ctx->primary) {
        runtime::diagnose("cuCtxDestroy: %p is the device's primary context: release it with "
                          "cuDevicePrimaryCtxRelease (cuDevicePrimaryCtxReset ends its work)",
                          static_cast<void *>(ctx));
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    r = on_runtime([] { return cudaDeviceSynchronize(); });
    {
        std::lock_guard<std::mutex> hold(context_lock);
        ctx->destroyed = true;
    }
    /* Popped if it is current here, as in CUDA; where it stays on a stack
     * (another thread's, or below this one's top) a call made while it is
     * current says it was destroyed. */
    if (!stack.entries.empty() && stack.entries.back() == ctx)
        stack.entries.pop_back();
    return r;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    if (!pctx) {
        runtime::diagnose("cuCtxGetCurrent: pctx is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pctx = stack.entries.empty() ? nullptr : stack.entries.back();
    return CUDA_SUCCESS;
}

/* Replaces the top of the stack; NULL takes it off. */
CUresult cuCtxSetCurrent(CUcontext ctx)
{
    if (!ctx) {
        if (!stack.entries.empty())
            stack.entries.pop_back();
        return CUDA_SUCCESS;
    }
    CUresult r = check_handle(ctx, "cuCtxSetCurrent");
    if (r != CUDA_SUCCESS)
        return r;
    if (stack.entries.empty())
        stack.entries.push_back(ctx);
    else
        stack.entries.back() = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    if (!ctx) {
        runtime::diagnose("cuCtxPushCurrent: ctx is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = check_handle(ctx, "cuCtxPushCurrent");
    if (r == CUDA_SUCCESS)
        stack.entries.push_back(ctx);
    return r;
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    if (stack.entries.empty()) {
        runtime::diagnose("cuCtxPopCurrent: no context is current on this thread");
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    if (pctx)
        *pctx = stack.entries.back();
    stack.entries.pop_back();
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
    CUresult r = driver::need_context("cuCtxSynchronize");
    return r != CUDA_SUCCESS ? r : on_runtime([] { return cudaDeviceSynchronize(); });
}

CUresult cuCtxGetDevice(CUdevice *device)
{
    if (!device) {
        runtime::diagnose("cuCtxGetDevice: device is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context("cuCtxGetDevice");
    if (r == CUDA_SUCCESS)
        *device = 0;
    return r;
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
    if (!flags) {
        runtime::diagnose("cuCtxGetFlags: flags is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context("cuCtxGetFlags");
    if (r != CUDA_SUCCESS)
        return r;
    std::lock_guard<std::mutex> hold(context_lock);
    *flags = stack.entries.back()->flags;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    if (!version) {
        runtime::diagnose("cuCtxGetApiVersion: version is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = ctx ? check_handle(ctx, "cuCtxGetApiVersion") : driver::need_context("cuCtxGetApiVersion");
    if (r == CUDA_SUCCESS)
        *version = 13000; /* the toolkit's value for a CUDA 13 context */
    return r;
}

/* ---- streams and events: the runtime's own handles ------------------------ */

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    CUresult r = driver::need_context("cuStreamCreate");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaStreamCreateWithFlags(phStream, Flags); });
}

CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    CUresult r = driver::need_context("cuStreamCreateWithPriority");
    return r != CUDA_SUCCESS ? r
                             : on_runtime([&] { return cudaStreamCreateWithPriority(phStream, flags, priority); });
}

CUresult cuStreamDestroy_v2(CUstream hStream)
{
    CUresult r = driver::need_context("cuStreamDestroy");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaStreamDestroy(hStream); });
}

CUresult cuStreamSynchronize(CUstream hStream)
{
    CUresult r = driver::need_context("cuStreamSynchronize");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaStreamSynchronize(hStream); });
}

CUresult cuStreamQuery(CUstream hStream)
{
    CUresult r = driver::need_context("cuStreamQuery");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaStreamQuery(hStream); });
}

CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags)
{
    CUresult r = driver::need_context("cuStreamWaitEvent");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaStreamWaitEvent(hStream, hEvent, Flags); });
}

CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    CUresult r = driver::need_context("cuLaunchHostFunc");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaLaunchHostFunc(hStream, fn, userData); });
}

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    CUresult r = driver::need_context("cuEventCreate");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventCreateWithFlags(phEvent, Flags); });
}

CUresult cuEventRecord(CUevent hEvent, CUstream hStream)
{
    CUresult r = driver::need_context("cuEventRecord");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventRecord(hEvent, hStream); });
}

CUresult cuEventSynchronize(CUevent hEvent)
{
    CUresult r = driver::need_context("cuEventSynchronize");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventSynchronize(hEvent); });
}

CUresult cuEventQuery(CUevent hEvent)
{
    CUresult r = driver::need_context("cuEventQuery");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventQuery(hEvent); });
}

CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    CUresult r = driver::need_context("cuEventElapsedTime");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventElapsedTime(pMilliseconds, hStart, hEnd); });
}

CUresult cuEventDestroy_v2(CUevent hEvent)
{
    CUresult r = driver::need_context("cuEventDestroy");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaEventDestroy(hEvent); });
}

/* ---- modules, launches and linking: no PTX JIT ---------------------------- */

static const char no_image[] = "it loads a compiled module image (cubin, fatbin or PTX)";

CUresult cuModuleLoad(CUmodule *module, const char *)
{
    if (module)
        *module = nullptr;
    return driver::not_supported("cuModuleLoad", no_image);
}

CUresult cuModuleLoadData(CUmodule *module, const void *)
{
    if (module)
        *module = nullptr;
    return driver::not_supported("cuModuleLoadData", no_image);
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *, unsigned int, CUjit_option *, void **)
{
    if (module)
        *module = nullptr;
    return driver::not_supported("cuModuleLoadDataEx", no_image);
}

CUresult cuModuleLoadFatBinary(CUmodule *module, const void *)
{
    if (module)
        *module = nullptr;
    return driver::not_supported("cuModuleLoadFatBinary", no_image);
}

CUresult cuModuleUnload(CUmodule)
{
    return driver::not_supported("cuModuleUnload", "no module can have been loaded");
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule, const char *)
{
    if (hfunc)
        *hfunc = nullptr;
    return driver::not_supported("cuModuleGetFunction", "it looks a kernel up in a loaded module");
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule, const char *)
{
    if (dptr)
        *dptr = 0;
    if (bytes)
        *bytes = 0;
    return driver::not_supported("cuModuleGetGlobal", "it looks a variable up in a loaded module");
}

CUresult cuLaunchKernel(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                        unsigned int, unsigned int, CUstream, void **, void **)
{
    return driver::not_supported("cuLaunchKernel", "it launches a CUfunction from a loaded module");
}

CUresult cuLinkCreate_v2(unsigned int, CUjit_option *, void **, CUlinkState *stateOut)
{
    if (stateOut)
        *stateOut = nullptr;
    return driver::not_supported("cuLinkCreate", "it links PTX and cubins at run time");
}

CUresult cuLinkAddData_v2(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned int, CUjit_option *,
                          void **)
{
    return driver::not_supported("cuLinkAddData", "it links PTX and cubins at run time");
}

CUresult cuLinkAddFile_v2(CUlinkState, CUjitInputType, const char *, unsigned int, CUjit_option *, void **)
{
    return driver::not_supported("cuLinkAddFile", "it links PTX and cubins at run time");
}

CUresult cuLinkComplete(CUlinkState, void **cubinOut, size_t *sizeOut)
{
    if (cubinOut)
        *cubinOut = nullptr;
    if (sizeOut)
        *sizeOut = 0;
    return driver::not_supported("cuLinkComplete", "it links PTX and cubins at run time");
}

CUresult cuLinkDestroy(CUlinkState)
{
    return driver::not_supported("cuLinkDestroy", "it links PTX and cubins at run time");
}

} /* extern "C" */
