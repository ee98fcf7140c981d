/* simtlab host library — chapter 04: the references a reduction is measured
 * against: CUB's device-wide reductions and cuBLAS's sasum (the vendor
 * columns of the benchmark), and the CPU sums (the tests' and benchmark's
 * references and baselines). The lifecycle is in host/04_reduce.c. */
#include <cublas_v2.h>
#include <math.h>

#include "04_reduce_internal.h"
#include "sl_backend.h"
#include "sl_cublas.h"

/* ---- vendor references ------------------------------------------------------------ */

typedef enum cub_kind { CUB_SUM, CUB_MAX, CUB_ARGMAX } cub_kind;

#if SL_BACKEND_HAS_CUB
/* One CUB call: with temp == NULL a size query, else the reduction. */
static cudaError_t cub_call(cub_kind kind, const float *x, size_t n, float *d_val, long long *d_idx, void *temp,
                            size_t *temp_bytes)
{
    switch (kind) {
    case CUB_SUM: return sl_cub_reduce_sum_f32(x, n, d_val, temp, temp_bytes, 0);
    case CUB_MAX: return sl_cub_reduce_max_f32(x, n, d_val, temp, temp_bytes, 0);
    default: return sl_cub_argmax_f32(x, n, d_val, d_idx, temp, temp_bytes, 0);
    }
}

/* CUB's two-phase protocol: size query, scratch, timed run, result (and
 * for argmax the index) back to the host. */
static sl_status cub_run(cub_kind kind, const char *what, const float *x, size_t n, float *val_host,
                         long long *idx_host, double *ms)
{
    void *temp = NULL, *d_out = NULL;
    size_t temp_bytes = 0;
    sl_event_timer timer = {NULL, NULL};
    float *d_val = NULL;
    long long *d_idx = NULL;
    sl_status st = sl_alloc_device(&d_out, 16); /* the value at 0, the 64-bit index at 8 */
    if (st != SL_OK) goto cleanup;
    d_val = (float *)d_out;
    d_idx = (long long *)((char *)d_out + 8);
    SL_CUDA_GOTO(cub_call(kind, x, n, d_val, d_idx, NULL, &temp_bytes), st, cleanup);
    if ((st = sl_alloc_device(&temp, temp_bytes ? temp_bytes : 1)) != SL_OK) goto cleanup;
    if ((st = sl_event_timer_create(&timer)) != SL_OK) goto cleanup;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    SL_LAUNCH_CHECK_GOTO(cub_call(kind, x, n, d_val, d_idx, temp, &temp_bytes), what, st, cleanup);
    if ((st = sl_event_timer_stop(&timer, ms)) != SL_OK) goto cleanup;
    if ((st = sl_copy_to_host(val_host, d_val, sizeof *val_host)) != SL_OK) goto cleanup;
    if (idx_host) st = sl_copy_to_host(idx_host, d_idx, sizeof *idx_host);
cleanup:
    sl_event_timer_destroy(&timer);
    return sl_free_device_all(st, temp, d_out, NULL);
}
#else /* the emulator build: CUB ships only with the CUDA toolkit */
static sl_status cub_run(cub_kind kind, const char *what, const float *x, size_t n, float *val_host,
                         long long *idx_host, double *ms)
{
    (void)kind, (void)x, (void)n, (void)val_host, (void)idx_host, (void)ms;
    return sl_fail(SL_ERR_UNSUPPORTED,
                   "%s: CUB is part of the CUDA toolkit and has no emulator build; run the CUDA build on a "
                   "GPU for this column", what);
}
#endif

static sl_status vendor_checks(const char *fn, const float *x, size_t n, const void *out, const char *out_name,
                               double *kernel_ms)
{
    SL_NULL_CHECK(x, fn);
    sl_status st = sl_check_host_ptr(fn, out_name, out); /* written on the host */
    if (st == SL_OK) st = sl_check_host_ptr(fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    char what[96];
    size_t bytes = 0;
    snprintf(what, sizeof what, "%s: n", fn);
    st = sl_checked_bytes(n, sizeof *x, what, &bytes);
    if (st == SL_OK && n > 0) st = sl_check_device_buffer(fn, "x", x, sizeof *x);
    return st;
}

sl_status sl_vendor_reduce_sum_f32_device(const float *x, size_t n, float *sum, double *kernel_ms)
{
    sl_status st = vendor_checks("sl_vendor_reduce_sum_f32_device", x, n, sum, "sum", kernel_ms);
    if (st != SL_OK) return st;
    *sum = 0.0f;
    return n == 0 ? SL_OK : cub_run(CUB_SUM, "cub::DeviceReduce::Sum", x, n, sum, NULL, kernel_ms);
}

sl_status sl_vendor_reduce_max_f32_device(const float *x, size_t n, float *max, double *kernel_ms)
{
    sl_status st = vendor_checks("sl_vendor_reduce_max_f32_device", x, n, max, "max", kernel_ms);
    if (st != SL_OK) return st;
    *max = -INFINITY;
    return n == 0 ? SL_OK : cub_run(CUB_MAX, "cub::DeviceReduce::Max", x, n, max, NULL, kernel_ms);
}

sl_status sl_vendor_reduce_argmax_f32_device(const float *x, size_t n, size_t *index, float *value, double *kernel_ms)
{
    sl_status st = vendor_checks("sl_vendor_reduce_argmax_f32_device", x, n, value, "value", kernel_ms);
    if (st == SL_OK) st = sl_reduce_argmax_check(x, n, index, value, "sl_vendor_reduce_argmax_f32_device");
    if (st != SL_OK) return st;
    long long idx = 0;
    st = cub_run(CUB_ARGMAX, "cub::DeviceReduce::ArgMax", x, n, value, &idx, kernel_ms);
    if (st == SL_OK) *index = (size_t)idx;
    return st;
}

/* cublasSasum: sum of |x[i]|, in pieces (the count is an int), each
 * piece's result added on the host. The default host pointer mode makes
 * each call wait for its result, so the event pair brackets the whole
 * device work. */
typedef struct sasum_args {
    const float *x;
    float sum;
} sasum_args;

static cublasStatus_t sasum_piece(cublasHandle_t handle, size_t offset, int count, void *ctx)
{
    sasum_args *a = ctx;
    float part = 0.0f;
    cublasStatus_t cs = cublasSasum(handle, count, a->x + offset, 1, &part);
    a->sum += part;
    return cs;
}

sl_status sl_vendor_sasum_device(const float *x, size_t n, float *sum, double *kernel_ms)
{
    sl_status st = vendor_checks("sl_vendor_sasum_device", x, n, sum, "sum", kernel_ms);
    if (st != SL_OK) return st;
    sasum_args args = {x, 0.0f};
    st = sl_cublas_run_pieces("cublasSasum", n, sasum_piece, &args, kernel_ms);
    *sum = args.sum;
    return st;
}

/* ---- CPU references and baselines ----------------------------------------------
 *
 * Two orders of addition, because the order is what decides a float sum's
 * error (tutorial/04-reduction.md):
 *   - one running double accumulator: every float converts exactly and each
 *     addition rounds at 2^-53, so the error is at most about
 *     n * 2^-53 * sum |x| — the reference the tests compare against;
 *   - pairwise (recursive halving) in float: the additions form a tree of
 *     depth log2(n), so the error is about log2(n) * 2^-24 * sum |x|, the
 *     same shape as a GPU tree reduction's. */

/* The references return a sum, not a status: bad arguments give NaN and
 * a message (see simtlab/04_reduce.h). */
static int cpu_args_ok(const char *fn, const float *x, size_t n, int omp)
{
    if (n > 0 && sl_check_host_ptr(fn, "x", x) != SL_OK) return 0;
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    return !omp || sl_check_omp_count(n, what) == SL_OK;
}

double sl_reduce_sum_cpu_f64(const float *x, size_t n)
{
    if (!cpu_args_ok("sl_reduce_sum_cpu_f64", x, n, 0)) return NAN;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += (double)x[i];
    return sum;
}

double sl_reduce_sum_cpu_f64_omp(const float *x, size_t n)
{
    if (!cpu_args_ok("sl_reduce_sum_cpu_f64_omp", x, n, 1)) return NAN;
    /* Each core sums one contiguous range (static schedule), then the
     * per-core sums are added: a different order than the serial loop, so
     * the last bits may differ from sl_reduce_sum_cpu_f64. */
    double sum = 0.0;
    long long count = (long long)n;
#pragma omp parallel for schedule(static) reduction(+ : sum)
    for (long long i = 0; i < count; i++) sum += (double)x[i];
    return sum;
}

/* Below this many elements a plain loop: recursing to single elements
 * would cost a call per add and change the error bound only by a constant. */
#define PAIRWISE_LEAF 32

static float pairwise(const float *x, size_t n)
{
    if (n <= PAIRWISE_LEAF) {
        float sum = 0.0f;
        for (size_t i = 0; i < n; i++) sum += x[i];
        return sum;
    }
    size_t half = n / 2;
    return pairwise(x, half) + pairwise(x + half, n - half);
}

float sl_reduce_sum_cpu_pairwise(const float *x, size_t n)
{
    if (!cpu_args_ok("sl_reduce_sum_cpu_pairwise", x, n, 0)) return NAN;
    return pairwise(x, n);
}

float sl_reduce_sum_cpu_pairwise_omp(const float *x, size_t n)
{
    if (!cpu_args_ok("sl_reduce_sum_cpu_pairwise_omp", x, n, 1)) return NAN;
    if (n == 0) return 0.0f;
    /* 64 equal pieces, summed pairwise on whichever core is free, then the
     * 64 piece sums pairwise: the same error bound as the serial version. */
    enum { PIECES = 64 };
    float piece[PIECES];
#pragma omp parallel for schedule(dynamic, 1)
    for (int p = 0; p < PIECES; p++) {
        size_t lo = n / PIECES * (size_t)p + (n % PIECES < (size_t)p ? n % PIECES : (size_t)p);
        size_t len = n / PIECES + ((size_t)p < n % PIECES ? 1 : 0);
        piece[p] = pairwise(x + lo, len);
    }
    return pairwise(piece, PIECES);
}
