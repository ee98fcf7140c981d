/* simtlab host library — the cuBLAS helpers every chapter's vendor column
 * shares (host/cublas.c). In emulator builds cuBLAS is the emulator's, on
 * OpenBLAS: its times are CPU times and the benchmarks label them so. */
#ifndef SIMTLAB_SL_CUBLAS_H
#define SIMTLAB_SL_CUBLAS_H

#include <cublas_v2.h>

#include "sl_internal.h"

/* Records a failed cuBLAS call ("cublasSaxpy failed: NAME (text)", then
 * the emulator's explanation where there is one: which argument, which
 * range past which allocation) and returns SL_ERR_CUBLAS. */
sl_status sl_fail_cublas(cublasStatus_t status, const char *call);

/* cublasCreate, after forgetting any earlier backend explanation, so that
 * sl_fail_cublas quotes only what this handle's calls said. */
cublasStatus_t sl_cublas_create(cublasHandle_t *handle);

/* One piece of a level-1 call: elements [offset, offset + count) of the
 * caller's vectors. */
typedef cublasStatus_t (*sl_cublas_piece_fn)(cublasHandle_t handle, size_t offset, int count, void *ctx);

/* Runs `piece` over n elements in pieces of at most INT_MAX (cuBLAS counts
 * are int), on one handle, and times the whole device work with events into
 * *kernel_ms. `call` names the cuBLAS function in a failure's message.
 * n == 0 is a no-op. */
sl_status sl_cublas_run_pieces(const char *call, size_t n, sl_cublas_piece_fn piece, void *ctx,
                               double *kernel_ms);

#endif
