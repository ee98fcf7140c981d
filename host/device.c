/* simtlab host library — the core's device facts and device-resident
 * building blocks (copies, fills, the timed device-to-device copy). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "sl_backend.h"
#include "sl_internal.h"

sl_status sl_device_query(int device, sl_device_info *info)
{
    sl_status st = sl_check_host_ptr("sl_device_query", "info", info);
    if (st != SL_OK) return st;
    memset(info, 0, sizeof *info);
    int count = 0;
    SL_CUDA_RETURN(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_device_query: device = %d, this machine has %d",
                       device, count);
    struct cudaDeviceProp prop;
    SL_CUDA_RETURN(cudaGetDeviceProperties(&prop, device));
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->major = prop.major;
    info->minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->global_mem_bytes = prop.totalGlobalMem;
    info->l2_bytes = prop.l2CacheSize;
    info->max_threads_per_block = prop.maxThreadsPerBlock;
    info->shared_per_block = prop.sharedMemPerBlock;
    /* CUDA 13 dropped memoryClockRate from cudaDeviceProp; the attribute
     * remains. Peak = 2 transfers per clock (DDR/HBM) * clock * bus bytes. */
    int clock_khz = 0, bus_bits = 0;
    SL_CUDA_RETURN(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
    SL_CUDA_RETURN(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
    info->peak_bandwidth_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    return SL_OK;
}

sl_status sl_copy_to_device(void *dst_device, const void *src_host, size_t bytes)
{
    static const char fn[] = "sl_copy_to_device";
    if (bytes == 0) return SL_OK;
    sl_status st = sl_check_device_buffer(fn, "dst_device", dst_device, 1);
    if (st == SL_OK) st = sl_check_host_ptr(fn, "src_host", src_host);
    if (st != SL_OK) return st;
    SL_CUDA_RETURN(cudaMemcpy(dst_device, src_host, bytes, cudaMemcpyHostToDevice));
    return SL_OK;
}

sl_status sl_copy_to_host(void *dst_host, const void *src_device, size_t bytes)
{
    static const char fn[] = "sl_copy_to_host";
    if (bytes == 0) return SL_OK;
    sl_status st = sl_check_host_ptr(fn, "dst_host", dst_host);
    if (st == SL_OK) st = sl_check_device_buffer(fn, "src_device", src_device, 1);
    if (st != SL_OK) return st;
    SL_CUDA_RETURN(cudaMemcpy(dst_host, src_device, bytes, cudaMemcpyDeviceToHost));
    return SL_OK;
}

sl_status sl_fill_bytes_device(void *dst_device, int value, size_t bytes)
{
    if (bytes == 0) return SL_OK;
    sl_status st = sl_check_device_buffer("sl_fill_bytes_device", "dst_device", dst_device, 1);
    if (st != SL_OK) return st;
    SL_CUDA_RETURN(cudaMemset(dst_device, value, bytes));
    return SL_OK;
}

sl_status sl_copy_device_to_device_timed(void *dst_device, const void *src_device, size_t bytes, double *ms)
{
    static const char fn[] = "sl_copy_device_to_device_timed";
    sl_status st;
    if ((st = sl_check_device_buffer(fn, "dst_device", dst_device, 1)) != SL_OK ||
        (st = sl_check_device_buffer(fn, "src_device", src_device, 1)) != SL_OK ||
        (st = sl_check_host_ptr(fn, "ms", ms)) != SL_OK ||
        (st = sl_check_disjoint(fn, "dst_device", dst_device, bytes, "src_device", src_device, bytes)) != SL_OK)
        return st;
    sl_event_timer timer;
    st = sl_event_timer_create(&timer);
    if (st != SL_OK) return st;
    st = sl_event_timer_start(&timer);
    if (st == SL_OK) {
        cudaError_t err = cudaMemcpy(dst_device, src_device, bytes, cudaMemcpyDeviceToDevice);
        st = err == cudaSuccess ? sl_event_timer_stop(&timer, ms)
                                : sl_fail_cuda(err, "cudaMemcpy(DeviceToDevice)", __FILE__, __LINE__);
    }
    sl_event_timer_destroy(&timer);
    return st;
}

static const char *memory_type_name(enum cudaMemoryType type)
{
    switch (type) {
    case cudaMemoryTypeHost: return "pinned host memory";
    case cudaMemoryTypeDevice: return "device memory";
    case cudaMemoryTypeManaged: return "managed memory";
    default: return "ordinary host memory";
    }
}

/* Where `ptr` lives, as cudaPointerGetAttributes says; 0 when it cannot
 * say (no driver, no device: then nothing is device memory), with the
 * error it left collected. */
static int memory_type_of(const void *ptr, enum cudaMemoryType *type)
{
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
    if (err != cudaSuccess) {
        sl_drop_stale_error();
        return 0;
    }
    *type = attr.type;
    return 1;
}

/* "was freed: ..." when `ptr` lies in a device buffer that was freed: this
 * library's record (with both file:lines) first, then the backend's. */
static int describe_freed(const void *ptr, char *buf, size_t size)
{
    return sl_alloc_describe_freed(ptr, buf, size) || sl_backend_describe_freed(ptr, buf, size);
}

sl_status sl_check_device_buffer(const char *fn, const char *name, const void *ptr, size_t align)
{
    if (!ptr) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
    char freed[640];
    /* a runtime that refuses to describe a freed pointer is answered by
     * this library's record of what it freed */
    if ((err != cudaSuccess || attr.type == cudaMemoryTypeUnregistered) && describe_freed(ptr, freed, sizeof freed)) {
        if (err != cudaSuccess) sl_drop_stale_error();
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s = %p was freed: it is %s. Pass a live buffer (free a buffer "
                       "only after its last use)", fn, name, ptr, freed);
    }
    if (err != cudaSuccess) return sl_fail_cuda(err, "cudaPointerGetAttributes", __FILE__, __LINE__);
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: %s = %p is %s, not device memory: copy the data to a buffer from sl_alloc_device "
                       "first (sl_copy_to_device), or call the host version of this function",
                       fn, name, ptr, memory_type_name(attr.type));
    if (align > 1 && (uintptr_t)ptr % align != 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: %s = %p is not aligned to its %zu-byte elements (a GPU faults with "
                       "cudaErrorMisalignedAddress): pass the start of an element",
                       fn, name, ptr, align);
    return SL_OK;
}

static sl_status check_host_side(const char *fn, const char *name, const void *ptr)
{
    enum cudaMemoryType type = cudaMemoryTypeUnregistered; /* what it is when the runtime cannot say */
    if (memory_type_of(ptr, &type) && type == cudaMemoryTypeDevice)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: %s = %p is device memory (cudaMalloc, sl_alloc_device), which host code cannot read or "
                       "write: pass a host array (copy device data back first with sl_copy_to_host), or call the "
                       "_device version of this function where there is one",
                       fn, name, ptr);
    char freed[640];
    if (type == cudaMemoryTypeUnregistered && describe_freed(ptr, freed, sizeof freed))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s = %p was freed: it is %s. It was device memory, which host "
                       "code cannot use either: pass a host array", fn, name, ptr, freed);
    return SL_OK;
}

sl_status sl_check_host_ptr(const char *fn, const char *name, const void *ptr)
{
    if (!ptr) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    return check_host_side(fn, name, ptr);
}

sl_status sl_check_host_opt(const char *fn, const char *name, const void *ptr)
{
    return ptr ? check_host_side(fn, name, ptr) : SL_OK;
}

static int overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    if (!a || !b || a_bytes == 0 || b_bytes == 0) return 0;
    /* each range clamped at the top of the address space */
    uintptr_t x_end = a_bytes > UINTPTR_MAX - x ? UINTPTR_MAX : x + a_bytes;
    uintptr_t y_end = b_bytes > UINTPTR_MAX - y ? UINTPTR_MAX : y + b_bytes;
    return x < y_end && y < x_end;
}

sl_status sl_check_disjoint(const char *fn, const char *a_name, const void *a, size_t a_bytes, const char *b_name,
                            const void *b, size_t b_bytes)
{
    if (!overlap(a, a_bytes, b, b_bytes)) return SL_OK;
    return sl_fail(SL_ERR_INVALID_ARGUMENT,
                   "%s: %s (%p, %zu bytes) and %s (%p, %zu bytes) overlap: %s does not work in place (it would "
                   "read values it has already overwritten); give %s memory of its own",
                   fn, a_name, a, a_bytes, b_name, b, b_bytes, fn, a_name);
}

sl_status sl_check_same_or_disjoint(const char *fn, const char *a_name, const void *a, const char *b_name,
                                    const void *b, size_t bytes)
{
    if (a == b || !overlap(a, bytes, b, bytes)) return SL_OK;
    return sl_fail(SL_ERR_INVALID_ARGUMENT,
                   "%s: %s (%p) and %s (%p) overlap, %td bytes apart: %s may be %s itself (in place), not shifted "
                   "into it; pass the same pointer, or arrays that do not overlap",
                   fn, a_name, a, b_name, b, (char *)b - (char *)a, a_name, b_name);
}

void sl_drop_stale_error(void)
{
    /* cudaGetLastError resets a non-sticky error and keeps a sticky one */
    (void)cudaGetLastError();
}
