/* simtlab CPU emulator — the driver API's memory calls: allocation, copies,
 * memsets, cuMemGetAddressRange and pointer attributes.
 *
 * A CUdeviceptr is the address the runtime's allocation has, so cuMemAlloc
 * memory goes to cudaMemcpy and a kernel, and cudaMalloc memory to
 * cuMemcpyDtoH, with the same checks (ranges, guard pages, the leak report).
 * Async variants run in stream order, which the emulator keeps by running
 * each call at once. The runtime's checks print messages that name the
 * runtime call a driver call runs on (cuMemcpyHtoD runs on cudaMemcpy).
 */
#include "libs/driver/internal.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <link.h>

namespace simtlab_emu {
namespace {

template <class Call>
CUresult on_runtime(Call call)
{
    runtime::keep_last_error keep;
    return driver::result_of(call());
}

void *as_ptr(CUdeviceptr p)
{
    return reinterpret_cast<void *>(static_cast<std::uintptr_t>(p));
}

CUresult allocate(const char *api, CUdeviceptr *dptr, size_t bytesize, const char *file, int line, bool managed)
{
    if (!dptr) {
        runtime::diagnose("%s(NULL, %zu): dptr is NULL: pass the address of a CUdeviceptr", api, bytesize);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *dptr = 0;
    if (bytesize == 0) { /* unlike cudaMalloc, which gives NULL */
        runtime::diagnose("%s: bytesize is 0", api);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context(api);
    if (r != CUDA_SUCCESS)
        return r;
    void *p = nullptr;
    r = on_runtime([&] { return runtime::allocate_device(api, &p, bytesize, file, line, managed); });
    if (r == CUDA_SUCCESS)
        *dptr = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
    return r;
}

/* dl_iterate_phdr's callback: whether a loaded segment holds the address. */
struct image_search {
    std::uintptr_t addr;
    bool found;
    const char *object;
};

int find_in_image(struct dl_phdr_info *info, size_t, void *data)
{
    image_search *s = static_cast<image_search *>(data);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        std::uintptr_t start = info->dlpi_addr + ph.p_vaddr;
        if (ph.p_type == PT_LOAD && s->addr >= start && s->addr < start + ph.p_memsz) {
            s->found = true;
            s->object = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "the program";
            return 1;
        }
    }
    return 0;
}

/* The allocation that holds ptr, or why there is none (a message naming
 * `api`). */
CUresult find_range(const char *api, CUdeviceptr ptr, std::uintptr_t *base, std::size_t *size, bool *managed,
                    bool *pinned, unsigned long *serial)
{
    const void *p = as_ptr(ptr);
    runtime::located l = runtime::locate(p);
    *managed = *pinned = false;
    *serial = 0;
    if (l.where == runtime::region::device) {
        *base = l.alloc.base, *size = l.alloc.size, *managed = l.managed, *serial = l.alloc.serial;
        return CUDA_SUCCESS;
    }
    if (l.where == runtime::region::device_guard) {
        char what[96];
        std::snprintf(what, sizeof what, "%s: dptr", api);
        runtime::reject_guard(l, p, what);
        return CUDA_ERROR_NOT_FOUND;
    }
    void *pbase;
    std::size_t bytes;
    unsigned flags;
    if (p && (runtime::find_pinned(p, &pbase, &bytes, &flags) || runtime::find_registered(p, &pbase, &bytes))) {
        *base = reinterpret_cast<std::uintptr_t>(pbase), *size = bytes, *pinned = true;
        return CUDA_SUCCESS;
    }
    image_search s = {static_cast<std::uintptr_t>(ptr), false, nullptr};
    if (p)
        dl_iterate_phdr(find_in_image, &s);
    if (s.found)
        /* On a GPU a string literal or variable of device code is in the
         * module's global memory; the emulator compiles device code for
         * the host, so it is in the program's own static data. */
        runtime::diagnose("%s(0x%llx): not CUDA memory: it is static data of %s (a string literal or variable of "
                          "device code, such as __FILE__ in a kernel, is host memory under the emulator; on a GPU "
                          "it would be the module's global memory)",
                          api, ptr, s.object);
    else
        runtime::diagnose("%s(0x%llx): not CUDA memory: no device allocation (cuMemAlloc, cudaMalloc, managed), "
                          "pinned host allocation or registered host range holds it",
                          api, ptr);
    return CUDA_ERROR_NOT_FOUND;
}

/* cuMemsetD16/D32: `n` elements of `elem` bytes, each `value`. */
CUresult fill_checked(const char *api, CUdeviceptr dst, const void *value, std::size_t elem, std::size_t n)
{
    if (n == 0)
        return CUDA_SUCCESS;
    if (dst % elem != 0) {
        runtime::diagnose("%s: dstDevice 0x%llx is not aligned to %zu bytes", api, dst, elem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (n > SIZE_MAX / elem) {
        runtime::diagnose("%s: %zu elements of %zu bytes overflow size_t", api, n, elem);
        return CUDA_ERROR_INVALID_VALUE;
    }
    char what[96];
    std::snprintf(what, sizeof what, "%s dstDevice", api);
    CUresult r = on_runtime([&] { return runtime::check_device_range(as_ptr(dst), n * elem, what); });
    if (r != CUDA_SUCCESS)
        return r;
    runtime::device_access open(as_ptr(dst));
    unsigned char *out = static_cast<unsigned char *>(as_ptr(dst));
    for (std::size_t i = 0; i < n; i++)
        std::memcpy(out + i * elem, value, elem);
    return CUDA_SUCCESS;
}

CUresult fill(const char *api, CUdeviceptr dst, std::uint32_t value, std::size_t elem, std::size_t n,
              CUstream stream, bool async)
{
    CUresult r = driver::need_context(api);
    if (r != CUDA_SUCCESS)
        return r;
    runtime::keep_last_error keep;
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess && async)
        e = runtime::check_stream(stream, api);
    if (e != cudaSuccess)
        return driver::result_of(e);
    if (async && runtime::stream_capturing(stream)) {
        cudaError_t captured = runtime::capture(
            stream,
            [=](cudaStream_t) {
                std::uint16_t v16 = static_cast<std::uint16_t>(value);
                CUresult f = fill_checked(api, dst, elem == 2 ? static_cast<const void *>(&v16) : &value, elem, n);
                return f == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
            },
            cudaGraphNodeTypeMemset);
        return driver::result_of(captured);
    }
    std::uint16_t v16 = static_cast<std::uint16_t>(value);
    return fill_checked(api, dst, elem == 2 ? static_cast<const void *>(&v16) : &value, elem, n);
}

/* The width of each attribute's value, for cuPointerGetAttributes' zeros. */
std::size_t attribute_bytes(CUpointer_attribute a)
{
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: return sizeof(CUcontext);
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: return sizeof(CUdeviceptr);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: return sizeof(size_t);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: return sizeof(unsigned long long);
    default: return sizeof(unsigned int);
    }
}

/* One attribute of a pointer the emulator knows (`found`), or of one it
 * does not. `quiet`: cuPointerGetAttributes, which gives zeros for what a
 * pointer does not have instead of failing. */
CUresult pointer_attribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr, bool quiet)
{
    const char *api = quiet ? "cuPointerGetAttributes" : "cuPointerGetAttribute";
    if (!data) {
        runtime::diagnose("%s: data is NULL", api);
        return CUDA_ERROR_INVALID_VALUE;
    }
    std::uintptr_t base = 0;
    std::size_t size = 0;
    bool managed, pinned;
    unsigned long serial;
    bool found;
    {
        runtime::keep_last_error keep;
        if (quiet) { /* no message for a pointer CUDA does not know: that is an answer here */
            runtime::located l = runtime::locate(as_ptr(ptr));
            void *pb;
            std::size_t pbytes;
            unsigned pflags;
            managed = l.managed, pinned = false, serial = l.alloc.serial;
            found = l.where == runtime::region::device;
            if (found)
                base = l.alloc.base, size = l.alloc.size;
            else if (l.where == runtime::region::host && ptr &&
                     (runtime::find_pinned(as_ptr(ptr), &pb, &pbytes, &pflags) ||
                      runtime::find_registered(as_ptr(ptr), &pb, &pbytes)))
                found = pinned = true, base = reinterpret_cast<std::uintptr_t>(pb), size = pbytes;
        } else {
            found = find_range(api, ptr, &base, &size, &managed, &pinned, &serial) == CUDA_SUCCESS;
        }
    }
    if (!found) {
        if (quiet) {
            std::memset(data, 0, attribute_bytes(attribute));
            return CUDA_SUCCESS;
        }
        return CUDA_ERROR_INVALID_VALUE;
    }
    unsigned int flag;
    switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext *>(data) = driver::current_or_primary(); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *static_cast<unsigned int *>(data) = pinned ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<CUdeviceptr *>(data) = ptr; break; /* unified addressing */
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (!managed && !pinned) {
            if (quiet) {
                *static_cast<void **>(data) = nullptr;
                break;
            }
            runtime::diagnose("%s(CU_POINTER_ATTRIBUTE_HOST_POINTER, 0x%llx): device memory has no host address "
                              "(cuMemAllocManaged or cuMemAllocHost memory has)",
                              api, ptr);
            return CUDA_ERROR_INVALID_VALUE;
        }
        *static_cast<void **>(data) = as_ptr(ptr);
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        /* Device allocations by their serial number, pinned blocks by
         * address with the top bit set: unique among live allocations. */
        *static_cast<unsigned long long *>(data) =
            pinned ? (1ull << 63) | static_cast<unsigned long long>(base) : static_cast<unsigned long long>(serial);
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: flag = managed; std::memcpy(data, &flag, sizeof flag); break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: flag = 0; std::memcpy(data, &flag, sizeof flag); break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr *>(data) = base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t *>(data) = size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: flag = 1; std::memcpy(data, &flag, sizeof flag); break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: /* the emulator has no IPC */
        flag = 0;
        std::memcpy(data, &flag, sizeof flag);
        break;
    default:
        if (static_cast<int>(attribute) < CU_POINTER_ATTRIBUTE_CONTEXT ||
            static_cast<int>(attribute) > CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID) {
            runtime::diagnose("%s: %d is not a CUpointer_attribute", api, static_cast<int>(attribute));
            return CUDA_ERROR_INVALID_VALUE;
        }
        runtime::diagnose("%s: attribute %d is not one the emulator answers (it answers the context, memory type, "
                          "device and host pointer, buffer id, managed, device ordinal, range start and size, "
                          "mapped, IPC capable)",
                          api, static_cast<int>(attribute));
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return CUDA_SUCCESS;
}

} /* namespace */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

#undef cuMemAlloc_v2
#undef cuMemAllocManaged

CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    CUresult r = driver::need_context("cuMemGetInfo");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaMemGetInfo(free, total); });
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    return allocate("cuMemAlloc", dptr, bytesize, nullptr, 0, false);
}

CUresult simtlab_emu_cu_mem_alloc_at(CUdeviceptr *dptr, size_t bytesize, const char *file, int line)
{
    return allocate("cuMemAlloc", dptr, bytesize, file, line, false);
}

CUresult simtlab_emu_cu_mem_alloc_managed_at(CUdeviceptr *dptr, size_t bytesize, unsigned int flags,
                                             const char *file, int line)
{
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) {
        runtime::diagnose("cuMemAllocManaged(%zu bytes): flags 0x%x must be CU_MEM_ATTACH_GLOBAL or "
                          "CU_MEM_ATTACH_HOST",
                          bytesize, flags);
        if (dptr)
            *dptr = 0;
        return CUDA_ERROR_INVALID_VALUE;
    }
    return allocate("cuMemAllocManaged", dptr, bytesize, file, line, true);
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    return simtlab_emu_cu_mem_alloc_managed_at(dptr, bytesize, flags, nullptr, 0);
}

/* Rows of WidthInBytes, each starting at a multiple of the pitch the
 * runtime chooses; ElementSizeBytes (4, 8 or 16) is the widest access a
 * kernel makes, which the runtime's pitch already suits. */
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                            unsigned int ElementSizeBytes)
{
    if (!dptr || !pPitch) {
        runtime::diagnose("cuMemAllocPitch: %s is NULL", !dptr ? "dptr" : "pPitch");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *dptr = 0;
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) {
        runtime::diagnose("cuMemAllocPitch: ElementSizeBytes %u must be 4, 8 or 16", ElementSizeBytes);
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (WidthInBytes == 0 || Height == 0) {
        runtime::diagnose("cuMemAllocPitch: a %zu x %zu allocation is empty", WidthInBytes, Height);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context("cuMemAllocPitch");
    if (r != CUDA_SUCCESS)
        return r;
    void *p = nullptr;
    r = on_runtime([&] { return cudaMallocPitch(&p, pPitch, WidthInBytes, Height); });
    *dptr = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
    return r;
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    CUresult r = driver::need_context("cuMemFree");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaFree(as_ptr(dptr)); });
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    CUresult r = driver::need_context("cuMemAllocHost");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaHostAlloc(pp, bytesize, cudaHostAllocDefault); });
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    CUresult r = driver::need_context("cuMemHostAlloc");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaHostAlloc(pp, bytesize, Flags); });
}

CUresult cuMemFreeHost(void *p)
{
    CUresult r = driver::need_context("cuMemFreeHost");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaFreeHost(p); });
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    CUresult r = driver::need_context("cuMemHostRegister");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaHostRegister(p, bytesize, Flags); });
}

CUresult cuMemHostUnregister(void *p)
{
    CUresult r = driver::need_context("cuMemHostUnregister");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaHostUnregister(p); });
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    if (!pdptr) {
        runtime::diagnose("cuMemHostGetDevicePointer: pdptr is NULL");
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pdptr = 0;
    CUresult r = driver::need_context("cuMemHostGetDevicePointer");
    if (r != CUDA_SUCCESS)
        return r;
    void *d = nullptr;
    r = on_runtime([&] { return cudaHostGetDevicePointer(&d, p, Flags); });
    *pdptr = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(d));
    return r;
}

/* The allocation that contains dptr, anywhere in it: its start and the
 * bytes asked for. A pinned host block gives its mapped bytes (whole
 * pages), a registered range the bytes registered. Either output may be
 * NULL. */
CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    CUresult r = driver::need_context("cuMemGetAddressRange");
    if (r != CUDA_SUCCESS)
        return r;
    std::uintptr_t base = 0;
    std::size_t size = 0;
    bool managed, pinned;
    unsigned long serial;
    {
        runtime::keep_last_error keep;
        r = find_range("cuMemGetAddressRange", dptr, &base, &size, &managed, &pinned, &serial);
    }
    /* Zeros on failure: a program that does not check the result then
     * reads an empty range instead of whatever its variables held. */
    if (pbase)
        *pbase = r == CUDA_SUCCESS ? static_cast<CUdeviceptr>(base) : 0;
    if (psize)
        *psize = r == CUDA_SUCCESS ? size : 0;
    return r;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    CUresult r = driver::need_context("cuMemcpy");
    return r != CUDA_SUCCESS ? r
                             : on_runtime([&] { return cudaMemcpy(as_ptr(dst), as_ptr(src), ByteCount, cudaMemcpyDefault); });
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    CUresult r = driver::need_context("cuMemcpyAsync");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpyAsync(as_ptr(dst), as_ptr(src), ByteCount, cudaMemcpyDefault, hStream);
    });
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    CUresult r = driver::need_context("cuMemcpyHtoD");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpy(as_ptr(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice);
    });
}

CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUresult r = driver::need_context("cuMemcpyDtoH");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpy(dstHost, as_ptr(srcDevice), ByteCount, cudaMemcpyDeviceToHost);
    });
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    CUresult r = driver::need_context("cuMemcpyDtoD");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpy(as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, cudaMemcpyDeviceToDevice);
    });
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream)
{
    CUresult r = driver::need_context("cuMemcpyHtoDAsync");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpyAsync(as_ptr(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream);
    });
}

CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    CUresult r = driver::need_context("cuMemcpyDtoHAsync");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpyAsync(dstHost, as_ptr(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream);
    });
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    CUresult r = driver::need_context("cuMemcpyDtoDAsync");
    return r != CUDA_SUCCESS ? r : on_runtime([&] {
        return cudaMemcpyAsync(as_ptr(dstDevice), as_ptr(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream);
    });
}

/* One side of a CUDA_MEMCPY2D: its first byte, or why there is none. */
static CUresult side_2d(const char *api, const char *side, CUmemorytype type, const void *host, CUdeviceptr device,
                        size_t x, size_t y, size_t pitch, const void **start, bool *on_device)
{
    switch (type) {
    case CU_MEMORYTYPE_HOST: *start = host, *on_device = false; break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: *start = as_ptr(device), *on_device = true; break;
    case CU_MEMORYTYPE_ARRAY:
        runtime::diagnose("%s: %sMemoryType is CU_MEMORYTYPE_ARRAY: the emulator has no CUDA arrays", api, side);
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        runtime::diagnose("%s: %sMemoryType %d is not a CUmemorytype", api, side, static_cast<int>(type));
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (!*start) {
        runtime::diagnose("%s: the %s pointer is NULL", api, side);
        return CUDA_ERROR_INVALID_VALUE;
    }
    *start = static_cast<const char *>(*start) + y * pitch + x;
    return CUDA_SUCCESS;
}

/* cuMemcpy2D(Async): the runtime's 2D copy, in the direction the memory
 * types name (unified memory: as the pointers say). */
static CUresult copy_2d(const char *api, const CUDA_MEMCPY2D *c, CUstream stream, bool async)
{
    if (!c) {
        runtime::diagnose("%s: pCopy is NULL", api);
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context(api);
    if (r != CUDA_SUCCESS)
        return r;
    const void *src, *dst;
    bool src_dev, dst_dev;
    r = side_2d(api, "src", c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch, &src,
                &src_dev);
    if (r == CUDA_SUCCESS)
        r = side_2d(api, "dst", c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch,
                    &dst, &dst_dev);
    if (r != CUDA_SUCCESS)
        return r;
    cudaMemcpyKind kind = src_dev ? (dst_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost)
                                  : (dst_dev ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
    if (c->srcMemoryType == CU_MEMORYTYPE_UNIFIED || c->dstMemoryType == CU_MEMORYTYPE_UNIFIED)
        kind = cudaMemcpyDefault;
    void *to = const_cast<void *>(dst);
    return on_runtime([&] {
        return async ? cudaMemcpy2DAsync(to, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, kind, stream)
                     : cudaMemcpy2D(to, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, kind);
    });
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    return copy_2d("cuMemcpy2D", pCopy, nullptr, false);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    return copy_2d("cuMemcpy2DAsync", pCopy, hStream, true);
}

CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    CUresult r = driver::need_context("cuMemsetD8");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaMemset(as_ptr(dstDevice), uc, N); });
}

CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    CUresult r = driver::need_context("cuMemsetD8Async");
    return r != CUDA_SUCCESS ? r : on_runtime([&] { return cudaMemsetAsync(as_ptr(dstDevice), uc, N, hStream); });
}

CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return fill("cuMemsetD16", dstDevice, us, 2, N, nullptr, false);
}

CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    return fill("cuMemsetD16Async", dstDevice, us, 2, N, hStream, true);
}

CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return fill("cuMemsetD32", dstDevice, ui, 4, N, nullptr, false);
}

CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    return fill("cuMemsetD32Async", dstDevice, ui, 4, N, hStream, true);
}

/* A pointer CUDA does not know is an error here (CUDA_ERROR_INVALID_VALUE),
 * as in CUDA; cuPointerGetAttributes answers zeros for it instead. */
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    CUresult r = driver::need_context("cuPointerGetAttribute");
    return r != CUDA_SUCCESS ? r : pointer_attribute(data, attribute, ptr, false);
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes, void **data,
                                CUdeviceptr ptr)
{
    if (numAttributes > 0 && (!attributes || !data)) {
        runtime::diagnose("cuPointerGetAttributes: %s is NULL", !attributes ? "attributes" : "data");
        return CUDA_ERROR_INVALID_VALUE;
    }
    CUresult r = driver::need_context("cuPointerGetAttributes");
    for (unsigned i = 0; r == CUDA_SUCCESS && i < numAttributes; i++)
        r = pointer_attribute(data[i], attributes[i], ptr, true);
    return r;
}

} /* extern "C" */
