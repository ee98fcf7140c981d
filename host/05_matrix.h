/* simtlab host library — chapter 05's matrices in memory (host/05_matrix.c):
 * row-major with a leading dimension, shared by host/05_transpose.c and
 * host/05_sgemm.c. */
#ifndef SIMTLAB_05_MATRIX_H
#define SIMTLAB_05_MATRIX_H

#include "sl_backend.h"
#include "sl_internal.h"

/* Bytes a rows x cols matrix spans with `ld` floats from one row to the next
 * (ld >= cols): (rows - 1) * ld + cols floats, 0 when rows or cols is 0 (a
 * caller's array may end right after the last row's last element).
 * SL_ERR_OVERFLOW naming `what` when that does not fit in size_t. */
sl_status sl_matrix_span_bytes(size_t rows, size_t cols, size_t ld, const char *what, size_t *bytes);

/* A matrix on the host and its copy on the device, same leading dimension. */
typedef struct sl_matrix_copy {
    size_t rows, cols, ld, bytes; /* bytes: the span */
    void *device;
} sl_matrix_copy;

/* Uploads the span of `host` into m->device; adds the bytes to *moved. */
sl_status sl_matrix_upload(const sl_matrix_copy *m, const void *host, size_t *moved);
/* An output's rows are ld apart; the floats between them (ld > cols) are the
 * caller's and must survive the copy back, which moves the whole span: so
 * such an output is uploaded first. A tight output (ld == cols, or one row)
 * is not. Returns SL_OK and moves nothing then. */
sl_status sl_matrix_upload_if_gapped(const sl_matrix_copy *m, const void *host, size_t *moved);

/* A launch's four modelled ratios, per warp request: global load and store
 * sectors, shared load and store bank conflicts. */
typedef struct sl_counter_ratios {
    double ld_sectors, st_sectors, shld_conflicts, shst_conflicts;
} sl_counter_ratios;

/* Runs launch(ctx) (one checked launch) with the backend's SIMT counters
 * on and fills *out with its ratios (and *raw, when not NULL, with the
 * counts). A failed launch's message is kept over the counters'. */
sl_status sl_count_launch(sl_status (*launch)(void *ctx), void *ctx, sl_counter_ratios *out, sl_modelled *raw);

/* One C = alpha * A * B + beta * C call's matrices, as every SGEMM entry
 * point (device, vendor, CPU) receives them. */
typedef struct sl_gemm_call {
    const char *fn; /* the public function's name, for messages */
    size_t m, n, k;
    const float *a;
    size_t lda;
    const float *b;
    size_t ldb;
    float *c;
    size_t ldc;
    size_t a_bytes, b_bytes, c_bytes; /* the spans, set by sl_gemm_check */
} sl_gemm_call;

/* The rules every entry point shares, in this order: a, b, c not NULL (even
 * for zero sizes); lda >= k, ldb >= n, ldc >= n; m, n, k up to 2^31 - 1
 * (SL_ERR_UNSUPPORTED); the spans' byte counts (SL_ERR_OVERFLOW). Each
 * message names the argument. */
sl_status sl_gemm_check(sl_gemm_call *g);

/* After sl_gemm_check, where the matrices are: host arrays
 * (sl_gemm_check_host) or device buffers aligned to a float
 * (sl_gemm_check_device); a span of 0 bytes is not looked at. */
sl_status sl_gemm_check_host(const sl_gemm_call *g);
sl_status sl_gemm_check_device(const sl_gemm_call *g);

/* C must not overlap A or B: the products read A and B while they write C
 * (the kernels take them __restrict__), so C = A * B in place would read
 * values already overwritten. SL_ERR_INVALID_ARGUMENT naming both. */
sl_status sl_gemm_check_apart(const sl_gemm_call *g);

#endif
