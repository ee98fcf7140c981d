/* simtlab host library — the core's device facts and device-resident
 * building blocks (copies, fills, the timed device-to-device copy). */
#include <stdio.h>
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
    sl_event_timer timer;
    sl_status st = sl_event_timer_create(&timer);
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
