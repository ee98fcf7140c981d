/* simtlab host library — the vendor library (cuBLAS) as a benchmark column.
 * In emulator builds cuBLAS is the emulator's, on OpenBLAS: its times are
 * CPU times and the benchmarks label them so. */
#include <cublas_v2.h>
#include <limits.h>

#include "sl_internal.h"

static sl_status fail_cublas(cublasStatus_t s, const char *call)
{
    return sl_fail(SL_ERR_CUBLAS, "%s failed: %s (%s)", call, cublasGetStatusName(s),
                   cublasGetStatusString(s));
}

sl_status sl_vendor_saxpy_device(float alpha, const float *x, float *y, size_t n, double *ms)
{
    if (!x || !y || !ms)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_vendor_saxpy_device: %s is NULL",
                       !x ? "x" : !y ? "y" : "ms");
    *ms = 0.0;
    if (n == 0) return SL_OK;
    cublasHandle_t handle = NULL;
    cublasStatus_t cs = cublasCreate(&handle);
    if (cs != CUBLAS_STATUS_SUCCESS) return fail_cublas(cs, "cublasCreate");
    sl_event_timer timer = {NULL, NULL};
    sl_status st = sl_event_timer_create(&timer);
    if (st == SL_OK) st = sl_event_timer_start(&timer);
    /* cublasSaxpy takes an int count: larger arrays go in pieces. */
    for (size_t done = 0; st == SL_OK && done < n;) {
        size_t chunk = n - done < (size_t)INT_MAX ? n - done : (size_t)INT_MAX;
        cs = cublasSaxpy(handle, (int)chunk, &alpha, x + done, 1, y + done, 1);
        if (cs != CUBLAS_STATUS_SUCCESS) st = fail_cublas(cs, "cublasSaxpy");
        done += chunk;
    }
    if (st == SL_OK) st = sl_event_timer_stop(&timer, ms);
    sl_event_timer_destroy(&timer);
    cublasDestroy(handle);
    return st;
}
