/* simtlab host library — chapter 05's matrices in memory (see 05_matrix.h). */
#include <limits.h>
#include <string.h>

#include "05_matrix.h"

sl_status sl_matrix_span_bytes(size_t rows, size_t cols, size_t ld, const char *what, size_t *bytes)
{
    *bytes = 0;
    if (rows == 0 || cols == 0) return SL_OK;
    size_t before_last = 0;
    if (__builtin_mul_overflow(rows - 1, ld, &before_last) || before_last > SIZE_MAX - cols)
        return sl_fail(SL_ERR_OVERFLOW, "%s: %zu rows %zu floats apart do not fit in size_t", what, rows, ld);
    return sl_checked_bytes(before_last + cols, sizeof(float), what, bytes);
}

sl_status sl_matrix_upload(const sl_matrix_copy *m, const void *host, size_t *moved)
{
    SL_CUDA_RETURN(cudaMemcpy(m->device, host, m->bytes, cudaMemcpyHostToDevice));
    *moved += m->bytes;
    return SL_OK;
}

sl_status sl_matrix_upload_if_gapped(const sl_matrix_copy *m, const void *host, size_t *moved)
{
    if (m->rows <= 1 || m->ld == m->cols) return SL_OK;
    return sl_matrix_upload(m, host, moved);
}

sl_status sl_gemm_check(sl_gemm_call *g)
{
    if (!g->a) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: a is NULL", g->fn);
    if (!g->b) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: b is NULL", g->fn);
    if (!g->c) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: c is NULL", g->fn);
    static const char rule[] = "the leading dimension is the distance in floats from one row to the next, at "
                               "least the row's length";
    if (g->lda < g->k)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: lda = %zu is below k = %zu: %s", g->fn, g->lda, g->k, rule);
    if (g->ldb < g->n)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: ldb = %zu is below n = %zu: %s", g->fn, g->ldb, g->n, rule);
    if (g->ldc < g->n)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: ldc = %zu is below n = %zu: %s", g->fn, g->ldc, g->n, rule);
    const char *names[3] = {"m", "n", "k"};
    size_t dims[3] = {g->m, g->n, g->k};
    for (int i = 0; i < 3; i++)
        if (dims[i] > (size_t)INT_MAX)
            return sl_fail(SL_ERR_UNSUPPORTED, "%s: %s = %zu is above 2^31 - 1, the largest size the kernels (and "
                           "cuBLAS) take", g->fn, names[i], dims[i]);
    char what[96];
    snprintf(what, sizeof what, "%s: a (m x lda)", g->fn);
    sl_status st = sl_matrix_span_bytes(g->m, g->k, g->lda, what, &g->a_bytes);
    if (st != SL_OK) return st;
    snprintf(what, sizeof what, "%s: b (k x ldb)", g->fn);
    if ((st = sl_matrix_span_bytes(g->k, g->n, g->ldb, what, &g->b_bytes)) != SL_OK) return st;
    snprintf(what, sizeof what, "%s: c (m x ldc)", g->fn);
    return sl_matrix_span_bytes(g->m, g->n, g->ldc, what, &g->c_bytes);
}

sl_status sl_gemm_check_host(const sl_gemm_call *g)
{
    sl_status st = SL_OK;
    if (g->a_bytes) st = sl_check_host_ptr(g->fn, "a", g->a);
    if (st == SL_OK && g->b_bytes) st = sl_check_host_ptr(g->fn, "b", g->b);
    if (st == SL_OK && g->c_bytes) st = sl_check_host_ptr(g->fn, "c", g->c);
    return st;
}

sl_status sl_gemm_check_device(const sl_gemm_call *g)
{
    sl_status st = SL_OK;
    if (g->a_bytes) st = sl_check_device_buffer(g->fn, "a", g->a, sizeof(float));
    if (st == SL_OK && g->b_bytes) st = sl_check_device_buffer(g->fn, "b", g->b, sizeof(float));
    if (st == SL_OK && g->c_bytes) st = sl_check_device_buffer(g->fn, "c", g->c, sizeof(float));
    return st;
}

sl_status sl_gemm_check_apart(const sl_gemm_call *g)
{
    sl_status st = sl_check_disjoint(g->fn, "c", g->c, g->c_bytes, "a", g->a, g->a_bytes);
    return st == SL_OK ? sl_check_disjoint(g->fn, "c", g->c, g->c_bytes, "b", g->b, g->b_bytes) : st;
}

sl_status sl_count_launch(sl_status (*launch)(void *ctx), void *ctx, sl_counter_ratios *out, sl_modelled *raw)
{
    sl_modelled c;
    memset(out, 0, sizeof *out);
    sl_status st = sl_modelled_run(launch, ctx, &c);
    if (st != SL_OK) return st;
    out->ld_sectors = sl_modelled_per_request(c.gld_sectors, c.gld_requests);
    out->st_sectors = sl_modelled_per_request(c.gst_sectors, c.gst_requests);
    out->shld_conflicts = sl_modelled_per_request(c.shld_bank_conflicts, c.shld_requests);
    out->shst_conflicts = sl_modelled_per_request(c.shst_bank_conflicts, c.shst_requests);
    if (raw) *raw = c;
    return SL_OK;
}
