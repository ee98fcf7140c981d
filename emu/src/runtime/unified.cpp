/* simtlab CPU emulator — memory kinds and symbols.
 *
 * In the emulator every byte is host memory; what differs between the
 * kinds is what the runtime checks and reports:
 *   - cudaMallocManaged: a device allocation (runtime/memory.cpp: guard
 *     page, canary, leak list) whose pages are never closed to host code;
 *   - cudaHostAlloc/cudaMallocHost (runtime/copy.cpp) and cudaHostRegister
 *     (here): host memory a kernel may use; its device pointer is itself;
 *   - __constant__ and __device__ variables: ordinary globals, so a symbol's
 *     address is its device address. Once a symbol call has named one, its
 *     range counts as device memory for copies (find_symbol).
 * Prefetches and advice move nothing and only check their arguments.
 */
#include "runtime/internal.hpp"

#include <cinttypes>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace simtlab_emu {
namespace {

std::mutex unified_lock; /* guards the maps below */
std::map<std::uintptr_t, std::size_t> symbols; /* base -> bytes */
struct registration {
    std::size_t bytes;
    unsigned flags;
};
std::map<std::uintptr_t, registration> registered; /* cudaHostRegister: base -> range */
unsigned device_flags = 0;

void note_symbol(const void *symbol, std::size_t bytes)
{
    if (bytes == 0)
        return;
    std::lock_guard<std::mutex> hold(unified_lock);
    symbols[reinterpret_cast<std::uintptr_t>(symbol)] = bytes;
}

/* The registered symbol containing addr (under unified_lock). */
bool symbol_containing(std::uintptr_t addr, std::uintptr_t *base, std::size_t *size)
{
    auto it = symbols.upper_bound(addr);
    if (it == symbols.begin())
        return false;
    --it;
    if (addr >= it->first + it->second)
        return false;
    *base = it->first;
    *size = it->second;
    return true;
}

/* The cudaHostRegister range containing addr (under unified_lock). */
const registration *registered_containing(std::uintptr_t addr, std::uintptr_t *base)
{
    auto it = registered.upper_bound(addr);
    if (it == registered.begin())
        return nullptr;
    --it;
    if (addr >= it->first + it->second.bytes)
        return nullptr;
    *base = it->first;
    return &it->second;
}

/* A symbol argument must be a variable, not a cudaMalloc pointer. */
cudaError_t check_symbol(const char *api, const void *symbol)
{
    if (!symbol) {
        runtime::diagnose("%s: symbol is NULL", api);
        return cudaErrorInvalidSymbol;
    }
    std::uintptr_t base;
    std::size_t bytes;
    if (runtime::find_symbol(reinterpret_cast<std::uintptr_t>(symbol), &base, &bytes))
        return cudaSuccess;
    if (runtime::locate(symbol).where != runtime::region::host) {
        runtime::diagnose("%s: 0x%" PRIxPTR " is a device allocation, not a __device__ or __constant__ "
                          "variable: copy to it with cudaMemcpy",
                          api, reinterpret_cast<std::uintptr_t>(symbol));
        return cudaErrorInvalidSymbol;
    }
    return cudaSuccess;
}

/* The symbol's size: the template's sizeof, else what an earlier call
 * registered, else 0 (unknown: the C form with a never-named variable). */
std::size_t symbol_size(const void *symbol, std::size_t symbol_bytes)
{
    if (symbol_bytes)
        return symbol_bytes;
    std::lock_guard<std::mutex> hold(unified_lock);
    std::uintptr_t base;
    std::size_t size;
    std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(symbol);
    return symbol_containing(addr, &base, &size) && base == addr ? size : 0;
}

cudaError_t symbol_copy(const char *api, bool to_symbol, char *symbol, std::size_t symbol_bytes, void *other,
                        std::size_t count, std::size_t offset, cudaMemcpyKind kind)
{
    cudaError_t e = check_symbol(api, symbol);
    if (e != cudaSuccess)
        return e;
    note_symbol(symbol, symbol_bytes);
    std::size_t bytes = symbol_size(symbol, symbol_bytes);
    if (bytes && (offset > bytes || count > bytes - offset)) {
        runtime::diagnose("%s: offset %zu + count %zu bytes runs past the end of the symbol (%zu bytes)", api,
                          offset, count, bytes);
        return cudaErrorInvalidValue;
    }
    if (count == 0)
        return cudaSuccess;
    if (!other) {
        runtime::diagnose("%s: %s is NULL (count %zu)", api, to_symbol ? "src" : "dst", count);
        return cudaErrorInvalidValue;
    }
    /* The symbol is device memory; the other side is what the kind says. */
    const cudaMemcpyKind host_side = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != host_side && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) {
        runtime::diagnose("%s: kind %d is not allowed (use %s, cudaMemcpyDeviceToDevice or cudaMemcpyDefault)",
                          api, static_cast<int>(kind),
                          to_symbol ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost");
        return cudaErrorInvalidMemcpyDirection;
    }
    runtime::located l = runtime::locate(other);
    const char *side = to_symbol ? "src" : "dst";
    if (l.where == runtime::region::device_guard)
        return runtime::reject_guard(l, other, side);
    bool other_dev = l.where == runtime::region::device;
    if (kind != cudaMemcpyDefault && !l.managed && other_dev != (kind == cudaMemcpyDeviceToDevice)) {
        runtime::diagnose("%s: kind %s but %s 0x%" PRIxPTR " is %s memory", api,
                          kind == cudaMemcpyDeviceToDevice ? "cudaMemcpyDeviceToDevice"
                          : to_symbol                      ? "cudaMemcpyHostToDevice"
                                                           : "cudaMemcpyDeviceToHost",
                          side, reinterpret_cast<std::uintptr_t>(other), other_dev ? "device" : "host");
        return cudaErrorInvalidValue;
    }
    if (other_dev && (e = runtime::check_device_range(other, count, api)) != cudaSuccess)
        return e;
    runtime::device_access open(other_dev ? other : nullptr);
    if (to_symbol)
        std::memmove(symbol + offset, other, count);
    else
        std::memmove(other, symbol + offset, count);
    return cudaSuccess;
}

} /* namespace */

namespace runtime {
bool find_symbol(std::uintptr_t addr, std::uintptr_t *base, std::size_t *size)
{
    std::lock_guard<std::mutex> hold(unified_lock);
    return symbol_containing(addr, base, size);
}

bool find_registered(const void *ptr, void **base, std::size_t *bytes)
{
    std::uintptr_t b;
    std::lock_guard<std::mutex> hold(unified_lock);
    const registration *r = registered_containing(reinterpret_cast<std::uintptr_t>(ptr), &b);
    if (!r)
        return false;
    *base = reinterpret_cast<void *>(b);
    *bytes = r->bytes;
    return true;
}
} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

/* ---- symbols --------------------------------------------------------------- */

cudaError_t simtlab_emu_symbol_copy(const char *api, int to_symbol, void *symbol, size_t symbol_bytes, void *other,
                                    size_t count, size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = runtime::check_context();
    if (e != cudaSuccess)
        return e;
    if ((e = record_error(runtime::check_stream(stream, api))) != cudaSuccess)
        return e;
    /* Checked now; under stream capture the copy itself becomes a node. */
    char *sym = static_cast<char *>(symbol);
    if (runtime::stream_capturing(stream)) {
        if (symbol_bytes && (offset > symbol_bytes || count > symbol_bytes - offset))
            return record_error(symbol_copy(api, to_symbol != 0, sym, symbol_bytes, other, count, offset, kind));
        std::string name = api;
        return record_error(runtime::capture(
            stream,
            [=](cudaStream_t) {
                return record_error(symbol_copy(name.c_str(), to_symbol != 0, sym, symbol_bytes, other, count, offset,
                                                kind));
            },
            cudaGraphNodeTypeMemcpy));
    }
    return record_error(symbol_copy(api, to_symbol != 0, sym, symbol_bytes, other, count, offset, kind));
}

cudaError_t simtlab_emu_symbol_address(const char *api, void **devPtr, size_t *size, const void *symbol,
                                       size_t symbol_bytes)
{
    if (!devPtr && !size) {
        runtime::diagnose("%s: the result pointer is NULL", api);
        return record_error(cudaErrorInvalidValue);
    }
    cudaError_t e = check_symbol(api, symbol);
    if (e != cudaSuccess)
        return record_error(e);
    note_symbol(symbol, symbol_bytes);
    if (devPtr)
        *devPtr = const_cast<void *>(symbol);
    if (size) {
        std::size_t bytes = symbol_size(symbol, symbol_bytes);
        if (bytes == 0) {
            runtime::diagnose("%s: the emulator does not know the size of the variable at 0x%" PRIxPTR
                              " (pass the variable itself, in C++, not its address)",
                              api, reinterpret_cast<std::uintptr_t>(symbol));
            return record_error(cudaErrorInvalidSymbol);
        }
        *size = bytes;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum cudaMemcpyKind kind)
{
    return simtlab_emu_symbol_copy("cudaMemcpyToSymbol", 1, const_cast<void *>(symbol), 0,
                                   const_cast<void *>(src), count, offset, kind, 0);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    return simtlab_emu_symbol_copy("cudaMemcpyFromSymbol", 0, const_cast<void *>(symbol), 0, dst, count, offset,
                                   kind, 0);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return simtlab_emu_symbol_copy("cudaMemcpyToSymbolAsync", 1, const_cast<void *>(symbol), 0,
                                   const_cast<void *>(src), count, offset, kind, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return simtlab_emu_symbol_copy("cudaMemcpyFromSymbolAsync", 0, const_cast<void *>(symbol), 0, dst, count,
                                   offset, kind, stream);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (!devPtr) {
        runtime::diagnose("cudaGetSymbolAddress: devPtr is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    return simtlab_emu_symbol_address("cudaGetSymbolAddress", devPtr, nullptr, symbol, 0);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (!size) {
        runtime::diagnose("cudaGetSymbolSize: size is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    return simtlab_emu_symbol_address("cudaGetSymbolSize", nullptr, size, symbol, 0);
}

/* ---- managed memory ---------------------------------------------------------- */

cudaError_t simtlab_emu_malloc_managed_at(void **devPtr, size_t size, unsigned int flags, const char *file,
                                          int line)
{
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
        runtime::diagnose("cudaMallocManaged(%zu bytes): flags 0x%x must be cudaMemAttachGlobal or "
                          "cudaMemAttachHost",
                          size, flags);
        if (devPtr)
            *devPtr = nullptr;
        return record_error(cudaErrorInvalidValue);
    }
    return runtime::allocate_device("cudaMallocManaged", devPtr, size, file, line, true);
}

cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    return simtlab_emu_malloc_managed_at(devPtr, size, flags, nullptr, 0);
}

static cudaError_t check_managed_range(const char *api, const void *ptr, size_t count)
{
    runtime::located l = runtime::locate(ptr);
    if (l.where != runtime::region::device || !l.managed) {
        runtime::diagnose("%s: 0x%" PRIxPTR " is not managed memory (cudaMallocManaged)", api,
                          reinterpret_cast<std::uintptr_t>(ptr));
        return cudaErrorInvalidValue;
    }
    return runtime::check_device_range(ptr, count, api);
}

static cudaError_t check_location(const char *api, cudaMemLocation location)
{
    if (location.type == cudaMemLocationTypeDevice && location.id == 0)
        return cudaSuccess;
    if (location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeHostNuma ||
        location.type == cudaMemLocationTypeHostNumaCurrent)
        return cudaSuccess;
    runtime::diagnose("%s: location {type %d, id %d} is neither the host nor device 0", api,
                      static_cast<int>(location.type), location.id);
    return location.type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice : cudaErrorInvalidValue;
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = runtime::check_stream(stream, "cudaMemPrefetchAsync");
    if (e == cudaSuccess && flags != 0) {
        runtime::diagnose("cudaMemPrefetchAsync: flags 0x%x must be 0", flags);
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess)
        e = check_location("cudaMemPrefetchAsync", location);
    if (e == cudaSuccess && count > 0)
        e = check_managed_range("cudaMemPrefetchAsync", devPtr, count);
    return record_error(e);
}

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess && (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)) {
        runtime::diagnose("cudaMemAdvise: advice %d is not a cudaMemoryAdvise", static_cast<int>(advice));
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess && advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly)
        e = check_location("cudaMemAdvise", location);
    if (e == cudaSuccess && count > 0)
        e = check_managed_range("cudaMemAdvise", devPtr, count);
    return record_error(e);
}

/* ---- registered and mapped host memory -------------------------------------- */

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    if (!ptr || size == 0) {
        runtime::diagnose("cudaHostRegister(0x%" PRIxPTR ", %zu): %s", reinterpret_cast<std::uintptr_t>(ptr), size,
                          !ptr ? "ptr is NULL" : "size is 0");
        return record_error(cudaErrorInvalidValue);
    }
    if (flags & ~0xFu) {
        runtime::diagnose("cudaHostRegister: unknown flags 0x%x", flags);
        return record_error(cudaErrorInvalidValue);
    }
    if (runtime::locate(ptr).where != runtime::region::host) {
        runtime::diagnose("cudaHostRegister(0x%" PRIxPTR "): that is device memory, not host memory",
                          reinterpret_cast<std::uintptr_t>(ptr));
        return record_error(cudaErrorInvalidValue);
    }
    std::uintptr_t p = reinterpret_cast<std::uintptr_t>(ptr), base;
    std::lock_guard<std::mutex> hold(unified_lock);
    auto next = registered.lower_bound(p);
    if (registered_containing(p, &base) || (next != registered.end() && next->first < p + size)) {
        runtime::diagnose("cudaHostRegister(0x%" PRIxPTR ", %zu): the range overlaps memory already registered",
                          p, size);
        return record_error(cudaErrorHostMemoryAlreadyRegistered);
    }
    registered[p] = registration{size, flags};
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr)
{
    std::lock_guard<std::mutex> hold(unified_lock);
    if (!registered.erase(reinterpret_cast<std::uintptr_t>(ptr))) {
        runtime::diagnose("cudaHostUnregister(0x%" PRIxPTR "): not the start of a range registered with "
                          "cudaHostRegister",
                          reinterpret_cast<std::uintptr_t>(ptr));
        return record_error(cudaErrorHostMemoryNotRegistered);
    }
    return cudaSuccess;
}

/* The flags of the pinned or registered block holding pHost; false if none. */
static bool host_block_flags(const void *pHost, unsigned *flags)
{
    void *base;
    std::size_t bytes;
    if (runtime::find_pinned(pHost, &base, &bytes, flags))
        return true;
    std::uintptr_t rbase;
    std::lock_guard<std::mutex> hold(unified_lock);
    const registration *r = registered_containing(reinterpret_cast<std::uintptr_t>(pHost), &rbase);
    if (r)
        *flags = r->flags;
    return r != nullptr;
}

cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    if (!pDevice || flags != 0) {
        runtime::diagnose("cudaHostGetDevicePointer: %s", !pDevice ? "pDevice is NULL" : "flags must be 0");
        return record_error(cudaErrorInvalidValue);
    }
    *pDevice = nullptr;
    unsigned block_flags;
    runtime::located l = runtime::locate(pHost);
    if (!(l.where == runtime::region::device && l.managed) && !host_block_flags(pHost, &block_flags)) {
        runtime::diagnose("cudaHostGetDevicePointer(0x%" PRIxPTR "): not memory from cudaHostAlloc, "
                          "cudaMallocHost or cudaHostRegister",
                          reinterpret_cast<std::uintptr_t>(pHost));
        return record_error(cudaErrorInvalidValue);
    }
    *pDevice = pHost; /* one address space: the kernel uses the host address */
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    unsigned flags;
    if (!pFlags || !host_block_flags(pHost, &flags)) {
        runtime::diagnose("cudaHostGetFlags(0x%" PRIxPTR "): %s", reinterpret_cast<std::uintptr_t>(pHost),
                          !pFlags ? "pFlags is NULL" : "not memory from cudaHostAlloc or cudaHostRegister");
        return record_error(cudaErrorInvalidValue);
    }
    *pFlags = flags;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    unsigned schedule = flags & cudaDeviceScheduleMask;
    bool one_schedule = schedule == 0 || schedule == 1 || schedule == 2 || schedule == 4;
    if ((flags & ~0x1Fu) || !one_schedule) {
        runtime::diagnose("cudaSetDeviceFlags: flags 0x%x are not a valid combination", flags);
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(unified_lock);
    device_flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags) {
        runtime::diagnose("cudaGetDeviceFlags: flags is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> hold(unified_lock);
    *flags = device_flags | cudaDeviceMapHost; /* host memory is always mapped, as on current GPUs */
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    if (!attributes) {
        runtime::diagnose("cudaPointerGetAttributes: attributes is NULL");
        return record_error(cudaErrorInvalidValue);
    }
    cudaPointerAttributes a = {cudaMemoryTypeUnregistered, cudaInvalidDeviceId, nullptr, nullptr};
    runtime::located l = runtime::locate(ptr);
    unsigned flags;
    if (l.where == runtime::region::device) {
        a.type = l.managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
        a.device = 0;
        a.devicePointer = const_cast<void *>(ptr);
        a.hostPointer = l.managed ? const_cast<void *>(ptr) : nullptr;
    } else if (l.where == runtime::region::host && ptr && host_block_flags(ptr, &flags)) {
        a.type = cudaMemoryTypeHost;
        a.device = 0;
        a.devicePointer = const_cast<void *>(ptr);
        a.hostPointer = const_cast<void *>(ptr);
    }
    *attributes = a;
    return cudaSuccess;
}

} /* extern "C" */
