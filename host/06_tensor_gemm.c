/* simtlab host library — chapter 06: the tensor-core GEMM with the whole
 * lifecycle, the device entry point, cublasGemmEx and the emulator's model
 * (conversions and the CPU reference: host/06_tensor_gemm_convert.c).
 *
 *   pad A (m x k) and B (k x n) on the host to multiples of the version's
 *   tile (only when a side is not one) -> cudaMalloc -> copy in -> launch
 *   -> launch check + sync -> copy C back (its m x n corner) -> cudaFree
 *
 * For v1-v5 the edges are padded, not predicated: zeros in the padding add
 * nothing to any dot product, and the kernels stay free of bounds checks.
 * The cost is a host copy of each padded matrix, in the H2D phase of the
 * report. v6 (Hopper) needs only n and k padded to multiples of 8 (TMA's
 * 16-byte row pitch); TMA's zero fill and predicated stores do the rest.
 * v6 runs only on a device of compute capability 9.0 exactly; anywhere
 * else, and under the emulator, it is SL_ERR_UNSUPPORTED with the reason. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/06_tensor_gemm.h"
#include "sl_backend.h"
#include "sl_cublas.h"
#include "simtlab/06_tensor_gemm.h"

#define TGEMM_BEST 5 /* the best that runs everywhere */

int sl_tgemm_version_count(void) { return SL_TGEMM_VERSIONS; }

const char *sl_tgemm_version_name(int version) { return sl_tgemm_kernel_name(version); }

sl_status sl_tgemm_tile_of(int version, int *bm, int *bn, int *bk, int *threads)
{
    static const char fn[] = "sl_tgemm_tile_of";
    sl_status st;
    if ((st = sl_check_host_opt(fn, "bm", bm)) != SL_OK || (st = sl_check_host_opt(fn, "bn", bn)) != SL_OK ||
        (st = sl_check_host_opt(fn, "bk", bk)) != SL_OK || (st = sl_check_host_opt(fn, "threads", threads)) != SL_OK)
        return st;
    int v = version == 0 ? TGEMM_BEST : version;
    if (v < 1 || v > SL_TGEMM_VERSIONS)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_tgemm_tile_of: version = %d: chapter 06 has versions 1 to %d "
                       "(0 = the best)", version, SL_TGEMM_VERSIONS);
    sl_tgemm_tile_shape s = sl_tgemm_tile(v);
    if (bm) *bm = s.bm;
    if (bn) *bn = s.bn;
    if (bk) *bk = s.bk;
    if (threads) *threads = s.threads;
    return SL_OK;
}

/* v6 needs an sm_90 GPU: not the emulator, not another architecture (its
 * code exists only as sm_90a machine code). */
static sl_status check_hopper(const char *fn)
{
    if (sl_backend_is_emulator())
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: v6 needs an sm_90 GPU (wgmma and TMA are not emulated)", fn);
    int dev = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* clear it: asking is not a failure of the caller's */
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: v6 (wgmma + TMA) needs an sm_90 GPU, and no device answered (%s)", fn,
                       cudaGetErrorString(e));
    }
    if (major != 9 || minor != 0)
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: v6 (wgmma + TMA) needs an sm_90 GPU (compute capability 9.0; it is "
                       "built for sm_90a only); this device is %d.%d", fn, major, minor);
    return SL_OK;
}

/* mma.sync m16n8k16, ldmatrix and cp.async (v3-v5) and bf16 tensor-core
 * inputs (every version) need compute capability 8.0; built for sm_75 (a
 * T4) those kernels are empty traps (kernels/common/sl_tensor.h,
 * kernels/06_tensor_gemm.cu). Refused by name before anything launches. */
static sl_status check_ampere(const char *fn, int version, sl_tgemm_type type)
{
    if (sl_backend_is_emulator() || version == SL_TGEMM_HOPPER_VERSION) return SL_OK;
    int mma = version >= 3 && version <= 5;
    int needs = mma || type == SL_TGEMM_BF16;
    if (!needs) return SL_OK;
    int dev = 0, major = 0, minor = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError(); /* the launch reports what is wrong with the device */
        return SL_OK;
    }
    if (major >= 8) return SL_OK;
    return sl_fail(SL_ERR_UNSUPPORTED, "%s: %s needs compute capability 8.0 or later (%s); this device is %d.%d",
                   fn, type == SL_TGEMM_BF16 && !mma ? "bf16 input" : "this version",
                   mma ? "mma.sync m16n8k16, ldmatrix and cp.async"
                                                : "bf16 tensor-core fragments",
                   major, minor);
}

static size_t round_up(size_t x, int to) { return (x + (size_t)to - 1) / (size_t)to * (size_t)to; }

/* One call after validation: the version, its tile and the padded sizes. */
typedef struct tgemm_call {
    const char *fn;
    sl_tgemm_type type;
    size_t m, n, k, mp, np, kp;
    int version;
    sl_tgemm_tile_shape tile;
} tgemm_call;

/* Everything that can be rejected without touching the device. */
static sl_status check_args(tgemm_call *c, const void *a, const void *b, const void *out, const sl_opts *opts)
{
    if (c->type != SL_TGEMM_F16 && c->type != SL_TGEMM_BF16)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: type = %d is not SL_TGEMM_F16 or SL_TGEMM_BF16", c->fn,
                       (int)c->type);
    if (!a) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: a is NULL", c->fn);
    if (!b) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: b is NULL", c->fn);
    if (!out) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: c is NULL", c->fn);
    sl_status st = sl_check_host_opt(c->fn, "opts", opts);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_TGEMM_VERSIONS, TGEMM_BEST, c->fn, &c->version);
    if (st != SL_OK) return st;
    c->tile = sl_tgemm_tile(c->version);
    int block = opts ? opts->block : 0;
    if (block != 0 && block != c->tile.threads)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "opts->block = %d: %s's %s runs %d threads per block, fixed by its "
                       "tile; pass 0 or %d", block, c->fn, sl_tgemm_kernel_name(c->version), c->tile.threads,
                       c->tile.threads);
    const char *names[3] = {"m", "n", "k"};
    size_t dims[3] = {c->m, c->n, c->k};
    for (int i = 0; i < 3; i++)
        if (dims[i] > (size_t)INT_MAX - 128)
            return sl_fail(SL_ERR_UNSUPPORTED, "%s: %s = %zu: the kernels take sides up to 2^31 - 129 (ints on the "
                           "device, padded to a tile)", c->fn, names[i], dims[i]);
    sl_tgemm_tile_shape g = sl_tgemm_granule(c->version);
    c->mp = round_up(c->m, g.bm), c->np = round_up(c->n, g.bn), c->kp = round_up(c->k, g.bk);
    if (c->m && round_up(c->mp, c->tile.bm) / (size_t)c->tile.bm > SL_TGEMM_MAX_ROW_TILES)
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: m = %zu needs more than %d row tiles (grid.y's limit) for %s", c->fn,
                       c->m, SL_TGEMM_MAX_ROW_TILES, sl_tgemm_kernel_name(c->version));
    size_t bytes;
    if ((st = sl_checked_bytes(c->mp * c->kp, 2, "a (padded m x k)", &bytes)) != SL_OK) return st;
    if ((st = sl_checked_bytes(c->kp * c->np, 2, "b (padded k x n)", &bytes)) != SL_OK) return st;
    if ((st = sl_checked_bytes(c->mp * c->np, sizeof(float), "c (padded m x n)", &bytes)) != SL_OK) return st;
    if (c->version == SL_TGEMM_HOPPER_VERSION) return check_hopper(c->fn);
    return check_ampere(c->fn, c->version, c->type);
}

/* The rows x cols matrix `src` in the top-left corner of a zero-filled
 * prows x pcols one (malloc'd; NULL and SL_ERR_HOST_MEMORY when that fails). */
static sl_status padded_copy(const uint16_t *src, size_t rows, size_t cols, size_t prows, size_t pcols,
                             uint16_t **out)
{
    *out = calloc(prows * pcols, sizeof **out);
    if (!*out) return sl_fail(SL_ERR_HOST_MEMORY, "sl_tgemm: no host memory for a padded %zu x %zu copy", prows, pcols);
    for (size_t r = 0; r < rows; r++) memcpy(*out + r * pcols, src + r * cols, cols * sizeof *src);
    return SL_OK;
}

typedef struct tgemm_launch {
    int version;
    sl_tgemm_args args;
} tgemm_launch;

static cudaError_t launch_tgemm(void *ctx)
{
    const tgemm_launch *l = ctx;
    return sl_tgemm_launch(l->version, &l->args, 0);
}

static sl_status launch_timed(const tgemm_call *c, const void *a, const void *b, float *out, double *ms)
{
    tgemm_launch l = {c->version, {(int)c->mp, (int)c->np, (int)c->kp, c->type == SL_TGEMM_BF16, a, b, out}};
    return sl_launch_timed(sl_tgemm_kernel_name(c->version), launch_tgemm, &l, ms);
}

sl_status sl_tgemm(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a, const uint16_t *b, float *c,
                   const sl_opts *opts, sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    tgemm_call call = {"sl_tgemm", type, m, n, k, 0, 0, 0, 0, {0, 0, 0, 0}};
    sl_status st = check_args(&call, a, b, c, opts);
    if (st == SL_OK) st = sl_check_host_opt(call.fn, "report", report);
    /* host arrays (read and padded here, c written here); c may overlap a
     * or b: both are copied in before c is written */
    if (st == SL_OK && m > 0 && n > 0) {
        if (k > 0 && (st = sl_check_host_ptr(call.fn, "a", a)) == SL_OK) st = sl_check_host_ptr(call.fn, "b", b);
        if (st == SL_OK) st = sl_check_host_ptr(call.fn, "c", c);
    }
    if (st != SL_OK) return st;
    sl_report_begin(r, call.version, call.tile.threads);
    if (m == 0 || n == 0) return SL_OK;
    if (k == 0) { /* an empty sum: no launch */
        memset(c, 0, m * n * sizeof *c);
        return SL_OK;
    }
    if ((st = sl_check_block_on_device(call.tile.threads)) != SL_OK) return st;
    r->grid = (unsigned)(round_up(call.mp, call.tile.bm) / call.tile.bm * (round_up(call.np, call.tile.bn) / call.tile.bn));

    double t_start = sl_host_ms(), t = t_start;
    uint16_t *d_a = NULL, *d_b = NULL, *pa = NULL, *pb = NULL;
    float *d_c = NULL, *pc = NULL;
    size_t a_bytes = call.mp * call.kp * 2, b_bytes = call.kp * call.np * 2, c_bytes = call.mp * call.np * 4;
    int padded_c = call.mp != m || call.np != n;
    if ((st = sl_alloc_device(&d_a, a_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b, b_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c, c_bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    const uint16_t *up_a = a, *up_b = b;
    if (call.mp != m || call.kp != k) {
        if ((st = padded_copy(a, m, k, call.mp, call.kp, &pa)) != SL_OK) goto cleanup;
        up_a = pa;
    }
    if (call.kp != k || call.np != n) {
        if ((st = padded_copy(b, k, n, call.kp, call.np, &pb)) != SL_OK) goto cleanup;
        up_b = pb;
    }
    SL_CUDA_GOTO(cudaMemcpy(d_a, up_a, a_bytes, cudaMemcpyHostToDevice), st, cleanup);
    SL_CUDA_GOTO(cudaMemcpy(d_b, up_b, b_bytes, cudaMemcpyHostToDevice), st, cleanup);
    r->bytes_h2d = a_bytes + b_bytes;
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;

    if ((st = launch_timed(&call, d_a, d_b, d_c, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    if (padded_c && !(pc = malloc(c_bytes))) {
        st = sl_fail(SL_ERR_HOST_MEMORY, "sl_tgemm: no host memory for the padded %zu x %zu result", call.mp, call.np);
        goto cleanup;
    }
    SL_CUDA_GOTO(cudaMemcpy(padded_c ? pc : c, d_c, c_bytes, cudaMemcpyDeviceToHost), st, cleanup);
    if (padded_c)
        for (size_t i = 0; i < m; i++) memcpy(c + i * n, pc + i * call.np, n * sizeof *c);
    r->bytes_d2h = c_bytes;
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;

cleanup:
    free(pa), free(pb), free(pc);
    t = sl_host_ms();
    st = sl_free_device_all(st, d_a, d_b, d_c);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

/* A device entry point's sizes must already be multiples of the tile (v6:
 * of its granule, 1 x 8 x 8). */
static sl_status check_unpadded(const tgemm_call *c)
{
    const char *names[3] = {"m", "n", "k"};
    size_t dims[3] = {c->m, c->n, c->k};
    sl_tgemm_tile_shape g = sl_tgemm_granule(c->version);
    int tiles[3] = {g.bm, g.bn, g.bk};
    for (int i = 0; i < 3; i++)
        if (dims[i] % (size_t)tiles[i])
            return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s = %zu is not a multiple of %d, the granule of %s; pad "
                           "it with zeros, or call sl_tgemm, which pads", c->fn, names[i], dims[i], tiles[i],
                           sl_tgemm_kernel_name(c->version));
    return SL_OK;
}

/* Device buffers, 16-byte aligned; c (m x n floats) apart from a (m x k
 * halves) and b (k x n): not in place, the product reads them while it
 * writes c. */
static sl_status check_device_buffers(const tgemm_call *call, const void *a, const void *b, const void *c)
{
    const char *fn = call->fn;
    size_t a_bytes = call->m * call->k * 2, b_bytes = call->k * call->n * 2, c_bytes = call->m * call->n * 4;
    sl_status st = sl_check_device_buffer(fn, "a", a, 16);
    if (st == SL_OK) st = sl_check_device_buffer(fn, "b", b, 16);
    if (st == SL_OK) st = sl_check_device_buffer(fn, "c", c, 16);
    if (st == SL_OK) st = sl_check_disjoint(fn, "c", c, c_bytes, "a", a, a_bytes);
    if (st == SL_OK) st = sl_check_disjoint(fn, "c", c, c_bytes, "b", b, b_bytes);
    return st;
}

sl_status sl_tgemm_device(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a, const uint16_t *b,
                          float *c, const sl_opts *opts, double *kernel_ms)
{
    tgemm_call call = {"sl_tgemm_device", type, m, n, k, 0, 0, 0, 0, {0, 0, 0, 0}};
    sl_status st = check_args(&call, a, b, c, opts);
    if (st == SL_OK) st = sl_check_host_ptr(call.fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (m == 0 || n == 0) return SL_OK;
    if ((st = check_unpadded(&call)) != SL_OK) return st;
    if ((st = check_device_buffers(&call, a, b, c)) != SL_OK) return st;
    if ((st = sl_check_block_on_device(call.tile.threads)) != SL_OK) return st;
    return launch_timed(&call, a, b, c, kernel_ms);
}

/* ---- the emulator's model ------------------------------------------------------ */

typedef struct model_run {
    const tgemm_call *call;
    const void *a, *b;
    float *c;
} model_run;

static sl_status model_launch(void *ctx)
{
    model_run *r = ctx;
    double ms = 0.0;
    return launch_timed(r->call, r->a, r->b, r->c, &ms);
}

sl_status sl_tgemm_modelled(int version, size_t m, size_t n, size_t k, sl_tgemm_model *model)
{
    static const char fn[] = "sl_tgemm_modelled";
    sl_status st = sl_check_host_ptr(fn, "model", model);
    if (st != SL_OK) return st;
    memset(model, 0, sizeof *model);
    tgemm_call call = {fn, SL_TGEMM_F16, m, n, k, 0, 0, 0, 0, {0, 0, 0, 0}};
    sl_opts opts = {version, 0};
    st = check_args(&call, model, model, model, &opts);
    if (st != SL_OK) return st;
    if (m == 0 || n == 0 || k == 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: m, n and k must be at least 1 (%zu x %zu x %zu)", fn, m, n, k);
    if ((st = check_unpadded(&call)) != SL_OK) return st;
    if ((st = sl_modelled_available()) != SL_OK) return st;
    uint16_t *d_a = NULL, *d_b = NULL;
    float *d_c = NULL;
    if ((st = sl_alloc_device(&d_a, m * k * 2)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b, k * n * 2)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c, m * n * 4)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_a, 0, m * k * 2)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_b, 0, k * n * 2)) != SL_OK) goto cleanup;
    model_run run = {&call, d_a, d_b, d_c};
    sl_modelled raw;
    if ((st = sl_modelled_run(model_launch, &run, &raw)) != SL_OK) goto cleanup;
    model->shared_load_conflicts_per_request = sl_modelled_per_request(raw.shld_bank_conflicts, raw.shld_requests);
    model->shared_store_conflicts_per_request = sl_modelled_per_request(raw.shst_bank_conflicts, raw.shst_requests);
    model->shared_load_requests = raw.shld_requests;
    model->shared_load_conflicts = raw.shld_bank_conflicts;
    model->load_sectors_per_request = sl_modelled_per_request(raw.gld_sectors, raw.gld_requests);
cleanup:
    return sl_free_device_all(st, d_a, d_b, d_c);
}

/* ---- the vendor column: cublasGemmEx --------------------------------------------
 * Row-major C = A B is, to column-major cuBLAS, C^T = B^T A^T: pass B
 * first, with n and m swapped (host/05_sgemm.c explains). */
sl_status sl_vendor_tgemm_device(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a,
                                 const uint16_t *b, float *c, double *kernel_ms)
{
    static const char fn[] = "sl_vendor_tgemm_device";
    tgemm_call call = {fn, type, m, n, k, 0, 0, 0, 0, {0, 0, 0, 0}};
    sl_status st = check_args(&call, a, b, c, NULL);
    if (st == SL_OK) st = sl_check_host_ptr(fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (m == 0 || n == 0) return SL_OK;
    if (k == 0) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: k = 0: nothing to multiply", fn);
    if ((st = check_device_buffers(&call, a, b, c)) != SL_OK) return st;
    cudaDataType in = type == SL_TGEMM_F16 ? CUDA_R_16F : CUDA_R_16BF;
    const float alpha = 1.0f, beta = 0.0f;
    cublasHandle_t handle = NULL;
    cublasStatus_t cs = sl_cublas_create(&handle);
    if (cs != CUBLAS_STATUS_SUCCESS) return sl_fail_cublas(cs, "cublasCreate");
    sl_event_timer timer = {NULL, NULL};
    if ((st = sl_event_timer_create(&timer)) == SL_OK && (st = sl_event_timer_start(&timer)) == SL_OK) {
        cs = cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha, b, in, (int)n, a, in,
                          (int)k, &beta, c, CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        st = cs != CUBLAS_STATUS_SUCCESS ? sl_fail_cublas(cs, "cublasGemmEx") : sl_event_timer_stop(&timer, kernel_ms);
    }
    sl_event_timer_destroy(&timer);
    cublasDestroy(handle);
    return st;
}
