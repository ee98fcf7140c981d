/* simtlab host library — the core's device facts and device-resident
 * building blocks (copies, fills, the timed device-to-device copy). */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "sl_internal.h"

sl_status sl_device_query(int device, sl_device_info *info)
{
    if (!info) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_device_query: info is NULL");
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
    if (bytes == 0) return SL_OK;
    if (!dst_device || !src_host)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_copy_to_device: %s is NULL",
                       !dst_device ? "dst_device" : "src_host");
    SL_CUDA_RETURN(cudaMemcpy(dst_device, src_host, bytes, cudaMemcpyHostToDevice));
    return SL_OK;
}

sl_status sl_copy_to_host(void *dst_host, const void *src_device, size_t bytes)
{
    if (bytes == 0) return SL_OK;
    if (!dst_host || !src_device)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_copy_to_host: %s is NULL",
                       !dst_host ? "dst_host" : "src_device");
    SL_CUDA_RETURN(cudaMemcpy(dst_host, src_device, bytes, cudaMemcpyDeviceToHost));
    return SL_OK;
}

sl_status sl_fill_bytes_device(void *dst_device, int value, size_t bytes)
{
    if (bytes == 0) return SL_OK;
    if (!dst_device) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_fill_bytes_device: dst_device is NULL");
    SL_CUDA_RETURN(cudaMemset(dst_device, value, bytes));
    return SL_OK;
}

sl_status sl_copy_device_to_device_timed(void *dst_device, const void *src_device, size_t bytes, double *ms)
{
    if (!dst_device || !src_device || !ms)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_copy_device_to_device_timed: %s is NULL",
                       !dst_device ? "dst_device" : !src_device ? "src_device" : "ms");
    sl_status st;
    if ((st = sl_check_device_buffer("sl_copy_device_to_device_timed", "dst_device", dst_device, 1)) != SL_OK ||
        (st = sl_check_device_buffer("sl_copy_device_to_device_timed", "src_device", src_device, 1)) != SL_OK)
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

sl_status sl_check_device_buffer(const char *fn, const char *name, const void *ptr, size_t align)
{
    if (!ptr) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
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
