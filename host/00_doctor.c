/* simtlab host library — chapter 00: what the environment doctor asks of
 * this machine and this binary (examples/00_doctor.c prints the answers). */
#include "../kernels/00_doctor.h"
#include "sl_internal.h"
#include "simtlab/00_doctor.h"

sl_status sl_cuda_versions(int *driver, int *runtime)
{
    sl_status st = sl_check_host_ptr("sl_cuda_versions", "driver", driver);
    if (st == SL_OK) st = sl_check_host_ptr("sl_cuda_versions", "runtime", runtime);
    if (st != SL_OK) return st;
    *driver = *runtime = 0;
    SL_CUDA_RETURN(cudaDriverGetVersion(driver));
    SL_CUDA_RETURN(cudaRuntimeGetVersion(runtime));
    return SL_OK;
}

sl_status sl_device_kernel_image(int device, int *binary_version, int *ptx_version)
{
    sl_status st = sl_check_host_ptr("sl_device_kernel_image", "binary_version", binary_version);
    if (st == SL_OK) st = sl_check_host_ptr("sl_device_kernel_image", "ptx_version", ptx_version);
    if (st != SL_OK) return st;
    SL_CUDA_RETURN(cudaSetDevice(device));
    struct cudaFuncAttributes attr;
    SL_CUDA_RETURN(sl_doctor_probe_attributes(&attr));
    *binary_version = attr.binaryVersion;
    *ptx_version = attr.ptxVersion;
    return SL_OK;
}

const char *sl_built_architectures(void) { return sl_doctor_built_architectures(); }
