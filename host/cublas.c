/* simtlab host library — the cuBLAS helpers (see sl_cublas.h). */
#include <limits.h>

#include "sl_backend.h"
#include "sl_cublas.h"

sl_status sl_fail_cublas(cublasStatus_t status, const char *call)
{
    /* cuBLAS says only which kind of thing was wrong; the emulator's cuBLAS
     * also says which argument, and for a buffer too small, which range runs
     * how far past which allocation: that is the message's point. */
    const char *diag = sl_backend_diagnostic();
    sl_status st = sl_fail(SL_ERR_CUBLAS, "%s failed: %s (%s)%s%s", call, cublasGetStatusName(status),
                           cublasGetStatusString(status), diag[0] ? " — emulator: " : "", diag);
    sl_drop_stale_error(); /* a failed call leaves nothing for the next one to report */
    sl_backend_clear_diagnostic();
    return st;
}

cublasStatus_t sl_cublas_create(cublasHandle_t *handle)
{
    sl_backend_clear_diagnostic(); /* what a failure then quotes is this call's */
    return cublasCreate(handle);
}

sl_status sl_cublas_run_pieces(const char *call, size_t n, sl_cublas_piece_fn piece, void *ctx,
                               double *kernel_ms)
{
    *kernel_ms = 0.0;
    if (n == 0) return SL_OK;
    cublasHandle_t handle = NULL;
    cublasStatus_t cs = sl_cublas_create(&handle);
    if (cs != CUBLAS_STATUS_SUCCESS) return sl_fail_cublas(cs, "cublasCreate");
    sl_event_timer timer = {NULL, NULL};
    sl_status st = sl_event_timer_create(&timer);
    if (st == SL_OK) st = sl_event_timer_start(&timer);
    for (size_t done = 0; st == SL_OK && done < n;) {
        size_t count = n - done < (size_t)INT_MAX ? n - done : (size_t)INT_MAX;
        cs = piece(handle, done, (int)count, ctx);
        if (cs != CUBLAS_STATUS_SUCCESS) st = sl_fail_cublas(cs, call);
        done += count;
    }
    if (st == SL_OK) st = sl_event_timer_stop(&timer, kernel_ms);
    sl_event_timer_destroy(&timer);
    cublasDestroy(handle);
    return st;
}
