/* simtlab host library — chapter 05: SGEMM with the whole lifecycle, v9's
 * autotuner and the cuBLAS column (the CPU baselines: host/05_sgemm_cpu.c).
 *
 *   cudaMalloc (A, B, C) -> copy A, B host->device (and C when beta != 0,
 *   or when its rows have gaps to keep) -> launch -> launch check + sync
 *   -> copy C device->host -> cudaFree
 *
 * The lesson of the report: 2mnk flops on 4(mk + kn + mn) bytes, so unlike
 * chapters 01 and 04, from a few hundred on a side the kernel, not the
 * copies, is what takes the time, and that is why the ladder is worth it. */
#include <limits.h>
#include <string.h>

#include "../kernels/05_sgemm.h"
#include "05_matrix.h"
#include "simtlab/05_sgemm.h"
#include "sl_cublas.h"

#define SGEMM_BEST 9

/* The shape v9 runs in this process: the autotuner's pick, or 0. */
static int v9_shape;

int sl_sgemm_version_count(void) { return SL_SGEMM_VERSIONS; }

const char *sl_sgemm_version_name(int version) { return sl_sgemm_kernel_name(version); }

int sl_sgemm_v9_shape_count(void) { return sl_sgemm_v9_config_count(); }

const char *sl_sgemm_v9_shape_name(int shape) { return sl_sgemm_v9_config_name(shape); }

int sl_sgemm_v9_shape(void) { return v9_shape; }

sl_status sl_sgemm_v9_use_shape(int shape)
{
    if (shape < 0 || shape >= sl_sgemm_v9_config_count())
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_sgemm_v9_use_shape: shape = %d: v9 has shapes 0 to %d", shape,
                       sl_sgemm_v9_config_count() - 1);
    v9_shape = shape;
    return SL_OK;
}

/* One call after validation. */
typedef struct sgemm_call {
    sl_gemm_call g;
    float alpha, beta;
    int version, block, shape;
} sgemm_call;

/* Everything that can be rejected without touching the device: the
 * matrices (sl_gemm_check), then version and block (the kernel layer's
 * rules, as messages). */
static sl_status check_args(sgemm_call *c, const sl_opts *opts)
{
    sl_status st = sl_gemm_check(&c->g);
    if (st == SL_OK) st = sl_check_host_opt(c->g.fn, "opts", opts);
    if (st != SL_OK) return st;
    if ((st = sl_check_version(opts ? opts->version : 0, SL_SGEMM_VERSIONS, SGEMM_BEST, c->g.fn, &c->version)) !=
        SL_OK)
        return st;
    int block = opts ? opts->block : 0;
    c->shape = v9_shape;
    switch (sl_sgemm_check(c->version, c->g.m, c->g.n, c->g.k, c->g.lda, c->g.ldb, c->g.ldc, block, c->shape)) {
    case SL_SGEMM_FINE:
    case SL_SGEMM_EMPTY: break;
    case SL_SGEMM_BAD_BLOCK:
        if (c->version <= SL_SGEMM_FREE_BLOCK_VERSIONS)
            return sl_fail(SL_ERR_INVALID_ARGUMENT,
                           "opts->block = %d: %s's %s runs blocks of 32 x (block / 32) threads, so block must be "
                           "a multiple of 32 from 32 to 1024 (0 = 256)",
                           block, c->g.fn, sl_sgemm_kernel_name(c->version));
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: %s's %s runs %d threads per block, fixed by its tile; pass 0 or %d", block,
                       c->g.fn, sl_sgemm_kernel_name(c->version), sl_sgemm_block_threads(c->version, 0, c->shape),
                       sl_sgemm_block_threads(c->version, 0, c->shape));
    case SL_SGEMM_TOO_LARGE:
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: m = %zu needs more than %d row tiles (grid.y's limit) for %s",
                       c->g.fn, c->g.m, SL_SGEMM_MAX_ROW_TILES, sl_sgemm_kernel_name(c->version));
    default: /* the leading dimensions and sizes passed sl_gemm_check */
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: version %d cannot run these arguments", c->g.fn, c->version);
    }
    c->block = sl_sgemm_block_threads(c->version, block, c->shape);
    return SL_OK;
}

static sl_sgemm_args kernel_args(const sgemm_call *c, const float *a, const float *b, float *cc)
{
    sl_sgemm_args p = {(int)c->g.m, (int)c->g.n, (int)c->g.k, c->alpha, c->beta, a, c->g.lda, b, c->g.ldb, cc,
                       c->g.ldc};
    return p;
}

typedef struct sgemm_launch {
    const sgemm_call *call;
    const sl_sgemm_args *args;
} sgemm_launch;

static cudaError_t launch_sgemm(void *ctx)
{
    const sgemm_launch *l = ctx;
    return sl_sgemm_launch(l->call->version, l->call->block, l->call->shape, l->args, 0);
}

static sl_status launch_timed(const sgemm_call *c, const sl_sgemm_args *p, double *ms)
{
    sgemm_launch l = {c, p};
    return sl_launch_timed(sl_sgemm_kernel_name(c->version), launch_sgemm, &l, ms);
}

sl_status sl_sgemm(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                   size_t ldb, float beta, float *c, size_t ldc, const sl_opts *opts, sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    sgemm_call call = {{"sl_sgemm", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0}, alpha, beta, 0, 0, 0};
    sl_status st = check_args(&call, opts);
    if (st == SL_OK) st = sl_check_host_opt(call.g.fn, "report", report);
    /* host arrays; c may overlap a or b: they are copied in before c comes back */
    if (st == SL_OK && m > 0 && n > 0) st = sl_gemm_check_host(&call.g);
    if (st != SL_OK) return st;
    sl_report_begin(r, call.version, call.block);
    if (m == 0 || n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(call.block)) != SL_OK) return st;
    r->grid = sl_sgemm_grid_blocks(call.version, call.block, call.shape, m, n);

    double t_start = sl_host_ms(), t = t_start;
    sl_matrix_copy d_a = {m, k, lda, call.g.a_bytes, NULL}, d_b = {k, n, ldb, call.g.b_bytes, NULL};
    sl_matrix_copy d_c = {m, n, ldc, call.g.c_bytes, NULL};
    /* k == 0: A and B span nothing; the kernel reads neither, but its
     * pointers must not be NULL. */
    if ((st = sl_alloc_device(&d_a.device, d_a.bytes ? d_a.bytes : 4)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b.device, d_b.bytes ? d_b.bytes : 4)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c.device, d_c.bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    if (d_a.bytes && (st = sl_matrix_upload(&d_a, a, &r->bytes_h2d)) != SL_OK) goto cleanup;
    if (d_b.bytes && (st = sl_matrix_upload(&d_b, b, &r->bytes_h2d)) != SL_OK) goto cleanup;
    st = beta != 0.0f ? sl_matrix_upload(&d_c, c, &r->bytes_h2d) : sl_matrix_upload_if_gapped(&d_c, c, &r->bytes_h2d);
    if (st != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;

    sl_sgemm_args p = kernel_args(&call, d_a.device, d_b.device, d_c.device);
    if ((st = launch_timed(&call, &p, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(c, d_c.device, d_c.bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = d_c.bytes;

cleanup:
    t = sl_host_ms();
    st = sl_free_device_all(st, d_a.device, d_b.device, d_c.device);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

/* A device entry point's buffers: device memory, float-aligned (not for an
 * empty span, which the kernel never touches), c apart from a and b. */
static sl_status check_device_buffers(const sl_gemm_call *g)
{
    sl_status st = sl_gemm_check_device(g);
    return st == SL_OK ? sl_gemm_check_apart(g) : st;
}

sl_status sl_sgemm_device(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                          size_t ldb, float beta, float *c, size_t ldc, const sl_opts *opts, double *kernel_ms)
{
    sgemm_call call = {{"sl_sgemm_device", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0}, alpha, beta, 0, 0, 0};
    sl_status st = check_args(&call, opts);
    if (st == SL_OK) st = sl_check_host_ptr(call.g.fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (m == 0 || n == 0) return SL_OK;
    if ((st = check_device_buffers(&call.g)) != SL_OK) return st;
    if ((st = sl_check_block_on_device(call.block)) != SL_OK) return st;
    sl_sgemm_args p = kernel_args(&call, a, b, c);
    return launch_timed(&call, &p, kernel_ms);
}

/* ---- the autotuner (GPU only) ------------------------------------------------------ */

typedef struct tune_run {
    sgemm_call call;
    sl_sgemm_args args;
} tune_run;

static sl_status tune_once(void *ctx, double *ms)
{
    tune_run *t = ctx;
    return launch_timed(&t->call, &t->args, ms);
}

sl_status sl_sgemm_v9_autotune(size_t m, size_t n, size_t k, int *best, double *ms_each)
{
    static const char fn[] = "sl_sgemm_v9_autotune";
    sl_status st = sl_check_host_ptr(fn, "best", best);
    if (st == SL_OK) st = sl_check_host_opt(fn, "ms_each", ms_each);
    if (st != SL_OK) return st;
    if (sl_backend_is_emulator())
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: the emulator's times are CPU times and say nothing about which "
                       "tile shape suits a GPU; run the CUDA build on a GPU to tune v9", fn);
    if (m == 0 || n == 0 || k == 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: m, n and k must be at least 1 to time anything (%zu x %zu x %zu)",
                       fn, m, n, k);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    tune_run t = {{{fn, m, n, k, NULL, k, NULL, n, NULL, n, 0, 0, 0}, 1.0f, 0.0f, 9, 0, 0}, {0}};
    st = sl_matrix_span_bytes(m, k, k, "sl_sgemm_v9_autotune: m x k", &t.call.g.a_bytes);
    if (st == SL_OK) st = sl_matrix_span_bytes(k, n, n, "sl_sgemm_v9_autotune: k x n", &t.call.g.b_bytes);
    if (st == SL_OK) st = sl_matrix_span_bytes(m, n, n, "sl_sgemm_v9_autotune: m x n", &t.call.g.c_bytes);
    if (st != SL_OK) return st;
    if ((st = sl_alloc_device(&d_a, t.call.g.a_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b, t.call.g.b_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c, t.call.g.c_bytes)) != SL_OK) goto cleanup;
    /* 0x3c bytes: every float 0.0115; the values do not change the time */
    if ((st = sl_fill_bytes_device(d_a, 0x3c, t.call.g.a_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_b, 0x3c, t.call.g.b_bytes)) != SL_OK) goto cleanup;
    double best_ms = 0.0;
    *best = 0;
    for (int s = 0; s < sl_sgemm_v9_config_count(); s++) {
        t.call.shape = s;
        t.call.block = sl_sgemm_block_threads(9, 0, s);
        if (sl_sgemm_check(9, m, n, k, k, n, n, 0, s) != SL_SGEMM_FINE) {
            st = sl_fail(SL_ERR_UNSUPPORTED, "%s: v9 shape %d cannot run %zu x %zu x %zu", fn, s, m, n, k);
            goto cleanup;
        }
        t.args = kernel_args(&t.call, d_a, d_b, d_c);
        sl_stats stats;
        if ((st = sl_time_repeat(tune_once, &t, 1, 5, &stats)) != SL_OK) goto cleanup;
        if (ms_each) ms_each[s] = stats.median_ms;
        if (s == 0 || stats.median_ms < best_ms) best_ms = stats.median_ms, *best = s;
    }
    v9_shape = *best;
cleanup:
    return sl_free_device_all(st, d_a, d_b, d_c);
}

/* ---- the emulator's model of each version ------------------------------------------ */

typedef struct model_run {
    const sgemm_call *call;
    sl_sgemm_args args;
} model_run;

static sl_status model_launch(void *ctx)
{
    model_run *r = ctx;
    double ms = 0.0;
    return launch_timed(r->call, &r->args, &ms);
}

sl_status sl_sgemm_modelled(int version, size_t m, size_t n, size_t k, sl_sgemm_model *model)
{
    sl_status st = sl_check_host_ptr("sl_sgemm_modelled", "model", model);
    if (st != SL_OK) return st;
    memset(model, 0, sizeof *model);
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    const float *any = (const float *)model; /* check_args wants non-NULL pointers */
    sgemm_call call = {{"sl_sgemm_modelled", m, n, k, any, k, any, n, (float *)model, n, 0, 0, 0}, 1.0f, 0.0f, 0, 0,
                       0};
    sl_opts opts = {version, 0};
    st = check_args(&call, &opts);
    if (st != SL_OK) return st;
    model->tile_flops_per_byte = sl_sgemm_tile_flops_per_byte(call.version, call.shape);
    if (m == 0 || n == 0 || k == 0) return SL_OK;
    if ((st = sl_modelled_available()) != SL_OK) return st;
    if ((st = sl_alloc_device(&d_a, call.g.a_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b, call.g.b_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c, call.g.c_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_a, 0, call.g.a_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_b, 0, call.g.b_bytes)) != SL_OK) goto cleanup;
    model_run run = {&call, kernel_args(&call, d_a, d_b, d_c)};
    sl_counter_ratios r;
    sl_modelled raw;
    if ((st = sl_count_launch(model_launch, &run, &r, &raw)) != SL_OK) goto cleanup;
    model->load_sectors_per_request = r.ld_sectors;
    model->store_sectors_per_request = r.st_sectors;
    model->shared_load_conflicts_per_request = r.shld_conflicts;
    model->shared_store_conflicts_per_request = r.shst_conflicts;
    model->simt_efficiency = raw.simt_efficiency;
cleanup:
    return sl_free_device_all(st, d_a, d_b, d_c);
}

/* ---- the vendor column: cublasSgemm --------------------------------------------------
 * cuBLAS is column-major: it reads a matrix with leading dimension ld as
 * columns ld apart. Our row-major C (m x n, rows ldc apart) is therefore,
 * to cuBLAS, the column-major n x m matrix C^T; likewise A is A^T (k x m)
 * and B is B^T (n x k). Since (AB)^T = B^T A^T, asking cuBLAS for
 * C^T = alpha * B^T A^T + beta * C^T, with no transposes, i.e.
 * cublasSgemm(N, N, n, m, k, B, ldb, A, lda, C, ldc), computes our
 * row-major C = alpha * A B + beta * C exactly, without moving any data. */
sl_status sl_vendor_sgemm_device(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                 const float *b, size_t ldb, float beta, float *c, size_t ldc, double *kernel_ms)
{
    sl_gemm_call g = {"sl_vendor_sgemm_device", m, n, k, a, lda, b, ldb, c, ldc, 0, 0, 0};
    sl_status st = sl_gemm_check(&g);
    if (st == SL_OK) st = sl_check_host_ptr(g.fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (lda > INT_MAX || ldb > INT_MAX || ldc > INT_MAX)
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: cuBLAS takes leading dimensions up to 2^31 - 1 (lda %zu, ldb %zu, "
                       "ldc %zu)", g.fn, lda, ldb, ldc);
    if (m == 0 || n == 0) return SL_OK;
    if ((st = check_device_buffers(&g)) != SL_OK) return st;
    /* cuBLAS wants its leading dimensions >= 1 even where nothing is read */
    int ld_a = lda ? (int)lda : 1, ld_b = (int)ldb, ld_c = (int)ldc;
    cublasHandle_t handle = NULL;
    cublasStatus_t cs = sl_cublas_create(&handle);
    if (cs != CUBLAS_STATUS_SUCCESS) return sl_fail_cublas(cs, "cublasCreate");
    sl_event_timer timer = {NULL, NULL};
    if ((st = sl_event_timer_create(&timer)) == SL_OK && (st = sl_event_timer_start(&timer)) == SL_OK) {
        cs = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha, b, ld_b, a, ld_a, &beta, c,
                         ld_c);
        st = cs != CUBLAS_STATUS_SUCCESS ? sl_fail_cublas(cs, "cublasSgemm") : sl_event_timer_stop(&timer, kernel_ms);
    }
    sl_event_timer_destroy(&timer);
    cublasDestroy(handle);
    return st;
}
