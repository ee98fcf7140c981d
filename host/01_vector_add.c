/* simtlab host library — chapter 01: vector add with the whole lifecycle,
 * its CPU baselines and its vendor column.
 *
 *   cudaMalloc -> copy a, b host->device -> launch -> launch check + sync
 *   -> copy c device->host -> cudaFree
 *
 * Every phase is timed and reported, because the lesson of chapter 01 is that
 * for one add per element the copies cost far more than the kernel. */
#include "../kernels/01_vector_add.h"
#include "sl_cublas.h"
#include "sl_internal.h"
#include "simtlab/01_vector_add.h"

#define VECTOR_ADD_BEST 3
#define VECTOR_ADD_DEFAULT_BLOCK 256

int sl_vector_add_version_count(void) { return SL_VECTOR_ADD_VERSIONS; }

const char *sl_vector_add_version_name(int version) { return sl_vector_add_kernel_name(version); }

/* Everything that can be rejected without touching the device. `v3_fits`:
 * the device buffers allow v3's 16-byte loads (sl_vector_add_v3_fits; the
 * lifecycle's own fresh cudaMalloc buffers always do). Version 0 (best) is
 * v3 where they fit, else v2; an explicit v3 that does not fit is an error,
 * never a silent v2, so the report always names the version that ran. */
static sl_status check_args(const char *fn, const float *a, const float *b, const float *c, size_t n,
                            const sl_opts *opts, int v3_fits, size_t *bytes, int *version, int *block)
{
    if (!a) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: a is NULL", fn);
    if (!b) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: b is NULL", fn);
    if (!c) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: c is NULL", fn);
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    sl_status st = sl_checked_bytes(n, sizeof(float), what, bytes);
    if (st == SL_OK) st = sl_check_host_opt(fn, "opts", opts);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_VECTOR_ADD_VERSIONS, v3_fits ? VECTOR_ADD_BEST : 2,
                          fn, version);
    if (st != SL_OK) return st;
    if (*version == 3 && !v3_fits)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->version = 3: %s's 16-byte vector loads need a, b and c at the same address "
                       "mod 16 (here %zu, %zu and %zu): pass buffers that share their alignment, or use "
                       "version 2 (or 0, which picks v2 here)",
                       fn, (size_t)a & 15u, (size_t)b & 15u, (size_t)c & 15u);
    return sl_check_block(opts ? opts->block : 0, VECTOR_ADD_DEFAULT_BLOCK, block);
}

/* One launch of a version, for sl_launch_timed. */
typedef struct vector_add_launch {
    int version, block;
    const float *a, *b;
    float *c;
    size_t n;
    unsigned *grid; /* may be NULL */
} vector_add_launch;

static cudaError_t launch_vector_add(void *ctx)
{
    const vector_add_launch *l = ctx;
    return sl_vector_add_launch(l->version, l->a, l->b, l->c, l->n, l->block, 0, l->grid);
}

static sl_status launch_timed(const vector_add_launch *l, double *kernel_ms)
{
    return sl_launch_timed(sl_vector_add_kernel_name(l->version), launch_vector_add, (void *)l, kernel_ms);
}

sl_status sl_vector_add(const float *a, const float *b, float *c, size_t n, const sl_opts *opts,
                        sl_report *report)
{
    static const char fn[] = "sl_vector_add";
    sl_report local;
    sl_report *r = report ? report : &local;
    size_t bytes = 0;
    int version = 0, block = 0;
    sl_status st = check_args(fn, a, b, c, n, opts, 1, &bytes, &version, &block);
    if (st == SL_OK) st = sl_check_host_opt(fn, "report", report);
    /* host arrays: the copies read a and b and write c (c may be a or b) */
    if (st == SL_OK && n > 0 && (st = sl_check_host_ptr(fn, "a", a)) == SL_OK &&
        (st = sl_check_host_ptr(fn, "b", b)) == SL_OK)
        st = sl_check_host_ptr(fn, "c", c);
    if (st != SL_OK) return st;
    sl_report_begin(r, version, block);
    if (n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(block)) != SL_OK) return st;

    double t_start = sl_host_ms(), t;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;

    t = sl_host_ms();
    if ((st = sl_alloc_device(&d_a, bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_b, bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_c, bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice), st, cleanup);
    SL_CUDA_GOTO(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice), st, cleanup);
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;
    r->bytes_h2d = 2 * bytes;

    vector_add_launch l = {version, block, d_a, d_b, d_c, n, &r->grid};
    if ((st = launch_timed(&l, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = bytes;

cleanup:
    t = sl_host_ms();
    st = sl_free_device_all(st, d_a, d_b, d_c);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

sl_status sl_vector_add_device(const float *a, const float *b, float *c, size_t n,
                               const sl_opts *opts, double *kernel_ms)
{
    size_t bytes = 0;
    int version = 0, block = 0;
    sl_status st = SL_OK;
    /* Device memory, whole floats: checked first, so that a pointer into the
     * middle of a float is named as such rather than as a v3 misfit. */
    if (n > 0 && ((st = sl_check_device_buffer("sl_vector_add_device", "a", a, sizeof *a)) != SL_OK ||
                  (st = sl_check_device_buffer("sl_vector_add_device", "b", b, sizeof *b)) != SL_OK ||
                  (st = sl_check_device_buffer("sl_vector_add_device", "c", c, sizeof *c)) != SL_OK))
        return st;
    st = check_args("sl_vector_add_device", a, b, c, n, opts, sl_vector_add_v3_fits(a, b, c), &bytes, &version,
                    &block);
    if (st != SL_OK) return st;
    if ((st = sl_check_host_ptr("sl_vector_add_device", "kernel_ms", kernel_ms)) != SL_OK) return st;
    *kernel_ms = 0.0;
    /* not in place: the kernels take their arrays __restrict__ */
    if ((st = sl_check_disjoint("sl_vector_add_device", "c", c, bytes, "a", a, bytes)) != SL_OK ||
        (st = sl_check_disjoint("sl_vector_add_device", "c", c, bytes, "b", b, bytes)) != SL_OK)
        return st;
    if (n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(block)) != SL_OK) return st;
    vector_add_launch l = {version, block, a, b, c, n, NULL};
    return launch_timed(&l, kernel_ms);
}

/* ---- CPU baselines: what the GPU must beat -------------------------------- */

/* Host arrays; c apart from a and b (not in place, as on the device). */
static sl_status check_cpu_args(const char *fn, const float *a, const float *b, const float *c, size_t n)
{
    if (n == 0) return SL_OK;
    size_t bytes = 0;
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    sl_status st;
    if ((st = sl_check_host_ptr(fn, "a", a)) != SL_OK || (st = sl_check_host_ptr(fn, "b", b)) != SL_OK ||
        (st = sl_check_host_ptr(fn, "c", c)) != SL_OK || (st = sl_checked_bytes(n, sizeof *a, what, &bytes)) != SL_OK ||
        (st = sl_check_disjoint(fn, "c", c, bytes, "a", a, bytes)) != SL_OK)
        return st;
    return sl_check_disjoint(fn, "c", c, bytes, "b", b, bytes);
}

sl_status sl_vector_add_cpu(const float *a, const float *b, float *c, size_t n)
{
    sl_status st = check_cpu_args("sl_vector_add_cpu", a, b, c, n);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
    return SL_OK;
}

sl_status sl_vector_add_cpu_omp(const float *a, const float *b, float *c, size_t n)
{
    sl_status st = check_cpu_args("sl_vector_add_cpu_omp", a, b, c, n);
    if (st == SL_OK) st = sl_check_omp_count(n, "sl_vector_add_cpu_omp: n");
    if (st != SL_OK) return st;
    /* Signed loop index: OpenMP before 3.0 wanted one; a static schedule
     * gives each core one contiguous range, which is best for streaming. */
    long long count = (long long)n;
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < count; i++) c[i] = a[i] + b[i];
    return SL_OK;
}

/* ---- the vendor column: cublasSaxpy ---------------------------------------- */

typedef struct saxpy_args {
    float alpha;
    const float *x;
    float *y;
} saxpy_args;

static cublasStatus_t saxpy_piece(cublasHandle_t handle, size_t offset, int count, void *ctx)
{
    saxpy_args *a = ctx;
    return cublasSaxpy(handle, count, &a->alpha, a->x + offset, 1, a->y + offset, 1);
}

sl_status sl_vendor_saxpy_device(float alpha, const float *x, float *y, size_t n, double *kernel_ms)
{
    static const char fn[] = "sl_vendor_saxpy_device";
    sl_status st = sl_check_host_ptr(fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    size_t bytes = 0;
    st = sl_checked_bytes(n, sizeof *x, "sl_vendor_saxpy_device: n", &bytes);
    if (st == SL_OK && n > 0 && (st = sl_check_device_buffer(fn, "x", x, sizeof *x)) == SL_OK &&
        (st = sl_check_device_buffer(fn, "y", y, sizeof *y)) == SL_OK)
        st = sl_check_disjoint(fn, "y", y, bytes, "x", x, bytes); /* cuBLAS defines no aliasing */
    if (st != SL_OK) return st;
    saxpy_args args = {alpha, x, y};
    return sl_cublas_run_pieces("cublasSaxpy", n, saxpy_piece, &args, kernel_ms);
}
