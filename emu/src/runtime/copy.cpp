/* simtlab CPU emulator — copies between host and device memory, memset,
 * and pinned host memory.
 *
 * Every copy is checked against where its pointers live before any byte
 * moves: "device" means inside a live cudaMalloc allocation, "host" means
 * anything else, and a pointer in an allocation's guard page or slack is
 * neither (it is an out-of-bounds device pointer). The kind must agree with
 * that, so that swapped arguments, a host pointer passed as device memory
 * and ranges past the end of an allocation are reported with the pointer,
 * the allocation and the file:line that made it, rather than crashing.
 * cudaMemcpyDefault infers the direction, as with unified addressing.
 *
 * The Async variants validate the stream and then run at once: the
 * emulator executes streams eagerly, in submission order.
 */
#include "runtime/census.hpp"
#include "runtime/internal.hpp"

#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

namespace simtlab_emu {
namespace {

std::mutex pinned_lock;
std::map<void *, std::size_t> pinned; /* cudaMallocHost: ptr -> mapped bytes */
std::map<void *, unsigned> pinned_flags; /* cudaHostAlloc's flags, for cudaHostGetFlags */

std::size_t page_size()
{
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return page;
}

const char *kind_name(cudaMemcpyKind kind)
{
    switch (kind) {
    case cudaMemcpyHostToHost: return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault: return "cudaMemcpyDefault";
    }
    return "an unknown cudaMemcpyKind";
}

/* Checks the pointers against the copy kind; on a mismatch says which
 * pointer is where, and hints at swapped arguments when that would fit. */
cudaError_t check_kind(const char *api, cudaMemcpyKind kind, const void *dst, bool dst_dev, const void *src,
                       bool src_dev)
{
    bool want_dst_dev, want_src_dev;
    switch (kind) {
    case cudaMemcpyDefault: return cudaSuccess;
    case cudaMemcpyHostToHost: want_dst_dev = false, want_src_dev = false; break;
    case cudaMemcpyHostToDevice: want_dst_dev = true, want_src_dev = false; break;
    case cudaMemcpyDeviceToHost: want_dst_dev = false, want_src_dev = true; break;
    case cudaMemcpyDeviceToDevice: want_dst_dev = true, want_src_dev = true; break;
    default:
        runtime::diagnose("%s: kind %d is not a cudaMemcpyKind", api, static_cast<int>(kind));
        return cudaErrorInvalidMemcpyDirection;
    }
    if (dst_dev == want_dst_dev && src_dev == want_src_dev)
        return cudaSuccess;
    bool swapped_fits = dst_dev == want_src_dev && src_dev == want_dst_dev;
    const char *hint = swapped_fits ? " (did you swap dst and src?)" : "";
    if (dst_dev != want_dst_dev)
        runtime::diagnose("%s: %s but dst 0x%" PRIxPTR " is %s memory%s", api, kind_name(kind),
                          reinterpret_cast<std::uintptr_t>(dst), dst_dev ? "device" : "host", hint);
    else
        runtime::diagnose("%s: %s but src 0x%" PRIxPTR " is %s memory%s", api, kind_name(kind),
                          reinterpret_cast<std::uintptr_t>(src), src_dev ? "device" : "host", hint);
    return cudaErrorInvalidValue;
}

/* cudaMemcpy and cudaMemcpyAsync after their own argument checks. */
cudaError_t copy_checked(const char *api, void *dst, const void *src, std::size_t count, cudaMemcpyKind kind)
{
    if (static_cast<unsigned>(kind) > cudaMemcpyDefault) {
        runtime::diagnose("%s: kind %d is not a cudaMemcpyKind", api, static_cast<int>(kind));
        return cudaErrorInvalidMemcpyDirection;
    }
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src) {
        runtime::diagnose("%s: %s is NULL (count %zu)", api, !dst ? "dst" : "src", count);
        return cudaErrorInvalidValue;
    }
    runtime::located ld = runtime::locate(dst), ls = runtime::locate(src);
    char what[128];
    if (ld.where == runtime::region::device_guard) {
        std::snprintf(what, sizeof what, "%s: dst", api);
        return runtime::reject_guard(ld, dst, what);
    }
    if (ls.where == runtime::region::device_guard) {
        std::snprintf(what, sizeof what, "%s: src", api);
        return runtime::reject_guard(ls, src, what);
    }
    bool dst_dev = ld.where == runtime::region::device, src_dev = ls.where == runtime::region::device;
    /* Managed memory is both: it matches whichever side the kind names. So
     * is pinned host memory (cudaMallocHost, cudaHostAlloc): with unified
     * addressing the device reaches it, and a GPU's runtime copies into it
     * under cudaMemcpyHostToDevice too (tutorials allocate their "device"
     * buffers so). */
    void *pinned_base;
    std::size_t pinned_bytes;
    unsigned pinned_flags_of;
    const bool dst_both = ld.managed || (!dst_dev && runtime::find_pinned(dst, &pinned_base, &pinned_bytes, &pinned_flags_of));
    const bool src_both = ls.managed || (!src_dev && runtime::find_pinned(src, &pinned_base, &pinned_bytes, &pinned_flags_of));
    bool kind_dst_dev = dst_both ? kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice : dst_dev;
    bool kind_src_dev = src_both ? kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice : src_dev;
    cudaError_t e = check_kind(api, kind, dst, kind_dst_dev, src, kind_src_dev);
    if (e != cudaSuccess)
        return e;
    std::snprintf(what, sizeof what, "%s dst", api);
    if (dst_dev && (e = runtime::check_device_range(dst, count, what)) != cudaSuccess)
        return e;
    std::snprintf(what, sizeof what, "%s src", api);
    if (src_dev && (e = runtime::check_device_range(src, count, what)) != cudaSuccess)
        return e;
    std::snprintf(what, sizeof what, "%s dst", api);
    if (!dst_dev && (e = runtime::check_host_box(dst, count, 1, 1, count, count, true, what)) != cudaSuccess)
        return e;
    std::snprintf(what, sizeof what, "%s src", api);
    if (!src_dev && (e = runtime::check_host_box(src, count, 1, 1, count, count, false, what)) != cudaSuccess)
        return e;
    runtime::device_access open(dst_dev ? dst : nullptr, src_dev ? src : nullptr);
    std::memmove(dst, src, count);
    census::copied(dst, dst_dev, src, src_dev, count); /* while both are open */
    return cudaSuccess;
}

cudaError_t memset_checked(const char *api, void *ptr, int value, std::size_t count)
{
    if (count == 0)
        return cudaSuccess;
    char what[128];
    std::snprintf(what, sizeof what, "%s devPtr", api);
    cudaError_t e = runtime::check_device_range(ptr, count, what);
    if (e != cudaSuccess)
        return e;
    runtime::device_access open(ptr);
    std::memset(ptr, value, count);
    census::memset_done(ptr, count);
    return cudaSuccess;
}

} /* namespace */

namespace runtime {

/* The host side of a copy, probed before it is touched: one byte of every
 * page the copy reads or writes goes through the kernel with
 * process_vm_readv on this process itself, which fails (EFAULT) where an
 * access would fault instead of raising SIGSEGV; for a destination the
 * bytes read are written back with process_vm_writev, which honours the
 * page's protection (a string literal, a PROT_READ page). Writing them
 * back changes nothing but what a concurrent writer of those same bytes
 * would race the copy for anyway. One system call per 512 pages (2 MiB):
 * about a microsecond for a small copy, and little next to the copy for a
 * big one. Where the calls are not permitted (seccomp), the check is
 * skipped and the copy runs as before. */
namespace {
struct host_probe {
    static constexpr unsigned batch = 512;
    pid_t self = getpid();
    bool write;
    bool unavailable = false;
    std::uintptr_t bad = 0; /* the first byte that failed */
    bool bad_on_write = false;
    unsigned n = 0;
    iovec remote[batch];
    unsigned char bytes[batch];

    /* Probes the queued bytes; false once one failed. */
    bool flush()
    {
        if (n == 0 || unavailable)
            return true;
        iovec local = {bytes, n};
        const unsigned count = n;
        n = 0;
        ssize_t got = process_vm_readv(self, &local, 1, remote, count, 0);
        if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
            unavailable = true;
            return true;
        }
        if (got < static_cast<ssize_t>(count)) {
            bad = reinterpret_cast<std::uintptr_t>(remote[got < 0 ? 0 : got].iov_base);
            return false;
        }
        if (!write)
            return true;
        got = process_vm_writev(self, &local, 1, remote, count, 0);
        if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
            unavailable = true;
            return true;
        }
        if (got < static_cast<ssize_t>(count)) {
            /* What failed was written back as far as `got`; the rest never. */
            bad = reinterpret_cast<std::uintptr_t>(remote[got < 0 ? 0 : got].iov_base);
            bad_on_write = true;
            return false;
        }
        return true;
    }
    bool add(std::uintptr_t addr)
    {
        remote[n].iov_base = reinterpret_cast<void *>(addr);
        remote[n].iov_len = 1;
        return ++n < batch || flush();
    }
};
} /* namespace */

cudaError_t check_host_box(const void *base, std::size_t width, std::size_t height, std::size_t depth,
                           std::size_t pitch, std::size_t slice_pitch, bool write, const char *what)
{
    const std::uintptr_t lo = reinterpret_cast<std::uintptr_t>(base);
    const std::uintptr_t page = page_size();
    const std::size_t span = (depth - 1) * slice_pitch + (height - 1) * pitch + width;
    if (span - 1 > UINTPTR_MAX - lo) {
        runtime::diagnose("%s 0x%" PRIxPTR ": %zu bytes from there run past the end of the address space", what,
                          lo, span);
        return cudaErrorInvalidValue;
    }
    /* 8 KiB: not on the caller's stack; freed when its thread ends */
    static thread_local std::unique_ptr<host_probe> probe_store;
    if (!probe_store)
        probe_store.reset(new host_probe);
    host_probe &p = *probe_store;
    p.write = write;
    p.n = 0;
    p.unavailable = false;
    p.bad = 0;
    p.bad_on_write = false;
    std::uintptr_t last_page = ~std::uintptr_t{0};
    bool ok = true;
    for (std::size_t z = 0; ok && z < depth; z++)
        for (std::size_t y = 0; ok && y < height; y++) {
            const std::uintptr_t row = lo + z * slice_pitch + y * pitch, end = row + width;
            for (std::uintptr_t a = row; ok && a < end; a = (a & ~(page - 1)) + page) {
                if ((a & ~(page - 1)) == last_page)
                    continue;
                last_page = a & ~(page - 1);
                ok = p.add(a);
                if (p.unavailable)
                    return cudaSuccess;
            }
        }
    if (ok)
        ok = p.flush();
    if (ok)
        return cudaSuccess;
    runtime::diagnose("%s 0x%" PRIxPTR ": the byte at 0x%" PRIxPTR " (offset %" PRIuPTR " of the %zu-byte range) %s;"
                      " the copy would crash the program, so nothing was copied",
                      what, lo, p.bad, p.bad - lo, span,
                      p.bad_on_write ? "is read-only host memory (a string literal, a const array, a PROT_READ page?)"
                                     : "is not mapped host memory (a wild or freed pointer, or a count too large?)");
    return cudaErrorInvalidValue;
}

bool is_pinned(const void *ptr)
{
    std::lock_guard<std::mutex> hold(pinned_lock);
    return pinned.count(const_cast<void *>(ptr)) != 0;
}

bool find_pinned(const void *ptr, void **base, std::size_t *bytes, unsigned *flags)
{
    std::lock_guard<std::mutex> hold(pinned_lock);
    auto it = pinned.upper_bound(const_cast<void *>(ptr));
    if (it == pinned.begin())
        return false;
    --it;
    if (static_cast<const char *>(ptr) >= static_cast<const char *>(it->first) + it->second)
        return false;
    *base = it->first;
    *bytes = it->second;
    *flags = pinned_flags[it->first];
    return true;
}
} /* namespace runtime */
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    if (!ptr) {
        runtime::diagnose("cudaHostAlloc(NULL, %zu): ptr is NULL", size);
        return record_error(cudaErrorInvalidValue);
    }
    *ptr = nullptr;
    if (flags > 0x7u) { /* Portable | Mapped | WriteCombined */
        runtime::diagnose("cudaHostAlloc(%zu bytes): unknown flags 0x%x", size, flags);
        return record_error(cudaErrorInvalidValue);
    }
    if (size == 0)
        return cudaSuccess;
    std::size_t bytes = (size + page_size() - 1) / page_size() * page_size();
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        runtime::diagnose("cudaMallocHost(%zu bytes): the host could not map it (%s)", size,
                          std::strerror(errno));
        return record_error(cudaErrorMemoryAllocation);
    }
    std::lock_guard<std::mutex> hold(pinned_lock);
    pinned[p] = bytes;
    pinned_flags[p] = flags;
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    std::size_t bytes = 0;
    {
        std::lock_guard<std::mutex> hold(pinned_lock);
        auto it = pinned.find(ptr);
        if (it != pinned.end()) {
            bytes = it->second;
            pinned.erase(it);
            pinned_flags.erase(ptr);
        }
    }
    if (bytes == 0) {
        /* Outside pinned_lock: locate takes the registry lock, and
         * diagnose_bad_free takes the two in the other order. */
        bool device = runtime::locate(ptr).where != runtime::region::host;
        runtime::diagnose("cudaFreeHost(0x%" PRIxPTR "): not memory from cudaMallocHost/cudaHostAlloc%s",
                          reinterpret_cast<std::uintptr_t>(ptr),
                          device ? "; it is device memory: free it with cudaFree" : "");
        return record_error(cudaErrorInvalidValue);
    }
    munmap(ptr, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = record_error(copy_checked("cudaMemcpy", dst, src, count, kind));
    return e;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = record_error(runtime::check_stream(stream, "cudaMemcpyAsync"));
    if (e == cudaSuccess && runtime::stream_capturing(stream)) {
        /* The graph checks and copies each time it runs. */
        return record_error(runtime::capture(
            stream, [=](cudaStream_t) { return record_error(copy_checked("cudaMemcpyAsync", dst, src, count, kind)); },
            cudaGraphNodeTypeMemcpy));
    }
    if (e == cudaSuccess) /* streams run eagerly, in order: copy now */
        e = record_error(copy_checked("cudaMemcpyAsync", dst, src, count, kind));
    if (e == cudaSuccess)
        census::async_op(stream, true);
    return e;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = record_error(memset_checked("cudaMemset", devPtr, value, count));
    return e;
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    cudaError_t e = runtime::check_context();
    if (e == cudaSuccess)
        e = record_error(runtime::check_stream(stream, "cudaMemsetAsync"));
    if (e == cudaSuccess && runtime::stream_capturing(stream))
        return record_error(runtime::capture(
            stream, [=](cudaStream_t) { return record_error(memset_checked("cudaMemsetAsync", devPtr, value, count)); },
            cudaGraphNodeTypeMemset));
    if (e == cudaSuccess)
        e = record_error(memset_checked("cudaMemsetAsync", devPtr, value, count));
    if (e == cudaSuccess)
        census::async_op(stream, false);
    return e;
}

} /* extern "C" */
