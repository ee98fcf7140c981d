/* simtlab host library — chapter 04: reductions with the whole lifecycle,
 * and the modelled counters of a version (the references, vendor and CPU,
 * are in host/04_reduce_refs.c).
 *
 *   cudaMalloc (input, scratch, result) -> copy x host->device -> every
 *   launch of the version -> launch check + sync -> copy the one result
 *   device->host -> cudaFree
 *
 * The five public operators share one lifecycle; each only names its
 * arguments and converts its result. The lesson of the report: the copy in
 * moves 4n bytes, the copy back 4 to 16 bytes, and the kernel reads the 4n
 * bytes once more, so even a perfect kernel is worth it only for data that
 * already lives on the device. */
#include <math.h>
#include <string.h>

#include "../kernels/04_reduce.h"
#include "04_reduce_internal.h"

#define REDUCE_BEST 9
#define REDUCE_DEFAULT_BLOCK 256

int sl_reduce_version_count(void) { return SL_REDUCE_VERSIONS; }

const char *sl_reduce_version_name(int version) { return sl_reduce_kernel_name(version); }

/* What one call asks for, after validation, and its plan once made. */
typedef struct reduce_call {
    const char *fn; /* the public function's name, for messages */
    sl_reduce_op op;
    const void *x;
    size_t n;
    size_t bytes; /* of x */
    int version, block;
    sl_reduce_plan plan; /* made once by make_plan, carried to every launch */
} reduce_call;

/* Everything that can be rejected without touching the device. The
 * chapter's own rules (block shape, v8's index range) are the kernel
 * layer's sl_reduce_check; here they become messages. */
static sl_status check_args(reduce_call *c, size_t elem, const sl_opts *opts)
{
    char what[96];
    if (!c->x) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: x is NULL", c->fn);
    snprintf(what, sizeof what, "%s: n", c->fn);
    sl_status st = sl_checked_bytes(c->n, elem, what, &c->bytes);
    if (st == SL_OK) st = sl_check_host_opt(c->fn, "opts", opts);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_REDUCE_VERSIONS, REDUCE_BEST, c->fn, &c->version);
    if (st != SL_OK) return st;
    if ((st = sl_check_block(opts ? opts->block : 0, REDUCE_DEFAULT_BLOCK, &c->block)) != SL_OK) return st;
    /* n == 0 is checked like n == 1: the block must still be valid. */
    switch (sl_reduce_check(c->version, c->op, c->n ? c->n : 1, c->block)) {
    case SL_REDUCE_FINE:
    case SL_REDUCE_EMPTY: return SL_OK;
    case SL_REDUCE_BAD_BLOCK:
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: %s halves the block at each step and hands the last 64 values "
                       "to one warp, so a block must be a power of two from %d to %d (0 = default %d)",
                       c->block, c->fn, SL_REDUCE_MIN_BLOCK, SL_REDUCE_MAX_BLOCK, REDUCE_DEFAULT_BLOCK);
    case SL_REDUCE_V8_ARGMAX_TOO_LARGE:
        return sl_fail(SL_ERR_UNSUPPORTED,
                       "%s: n = %zu: v8 packs the index into 32 bits of one 64-bit atomicMax, so it "
                       "handles n <= 2^32; use v9 (or version 0) for larger arrays",
                       c->fn, c->n);
    default: /* a version or operator the public functions never pass */
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: version %d of operator %d does not exist", c->fn,
                       c->version, (int)c->op);
    }
}

/* The plan, made once per call, after the device is known (v7-v9 size their
 * grid to it). */
static sl_status make_plan(reduce_call *c)
{
    cudaError_t err = sl_reduce_plan_make(c->version, c->op, c->n, c->block, &c->plan);
    return err == cudaSuccess ? SL_OK : sl_fail_cuda(err, "sl_reduce_plan_make", __FILE__, __LINE__);
}

/* The identity of each operator: the result of reducing nothing. */
static void write_identity(sl_reduce_op op, void *result)
{
    switch (op) {
    case SL_REDUCE_SUM_F32: *(float *)result = 0.0f; break;
    case SL_REDUCE_SUM_F32_F64ACC: *(double *)result = 0.0; break;
    case SL_REDUCE_SUM_I32: *(long long *)result = 0; break;
    case SL_REDUCE_MAX_F32: *(float *)result = -INFINITY; break;
    default: break; /* argmax: the caller rejects n == 0 */
    }
}

/* Scratch and result buffers on the device, the scratch zero-filled (v9's
 * counter must start at 0, and partials are poison-free that way). */
static sl_status alloc_scratch(const reduce_call *c, void **ws, void **d_out)
{
    sl_status st = sl_alloc_device(ws, c->plan.workspace_bytes);
    if (st == SL_OK) st = sl_alloc_device(d_out, sl_reduce_result_bytes(c->op));
    if (st == SL_OK) st = sl_fill_bytes_device(*ws, 0, c->plan.workspace_bytes);
    return st;
}

/* Every launch of the version, timed, checked, synchronized. */
typedef struct reduce_launch {
    const reduce_call *call;
    const void *x;
    void *ws, *out;
} reduce_launch;

static cudaError_t launch_reduce(void *ctx)
{
    const reduce_launch *l = ctx;
    return sl_reduce_launch(&l->call->plan, l->x, l->ws, l->out, 0);
}

static sl_status run_timed(const reduce_call *c, const void *d_x, void *ws, void *d_out, double *ms)
{
    reduce_launch l = {c, d_x, ws, d_out};
    return sl_launch_timed(sl_reduce_kernel_name(c->version), launch_reduce, &l, ms);
}

/* The whole lifecycle for host data; `result` receives
 * sl_reduce_result_bytes(op) bytes. */
static sl_status reduce_host(reduce_call *c, size_t elem, void *result, const sl_opts *opts, sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    sl_status st = check_args(c, elem, opts);
    if (st == SL_OK) st = sl_check_host_opt(c->fn, "report", report);
    if (st == SL_OK && c->n > 0) st = sl_check_host_ptr(c->fn, "x", c->x);
    if (st != SL_OK) return st;
    sl_report_begin(r, c->version, c->block);
    if (c->n == 0) {
        write_identity(c->op, result);
        return SL_OK;
    }
    if ((st = sl_check_block_on_device(c->block)) != SL_OK) return st;

    double t_start = sl_host_ms(), t = t_start;
    void *d_x = NULL, *ws = NULL, *d_out = NULL;
    size_t res_bytes = sl_reduce_result_bytes(c->op);
    if ((st = make_plan(c)) != SL_OK) return st;
    r->grid = c->plan.grid;
    if ((st = sl_alloc_device(&d_x, c->bytes)) != SL_OK) goto cleanup;
    if ((st = alloc_scratch(c, &ws, &d_out)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(d_x, c->x, c->bytes, cudaMemcpyHostToDevice), st, cleanup);
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;
    r->bytes_h2d = c->bytes;

    if ((st = run_timed(c, d_x, ws, d_out, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(result, d_out, res_bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = res_bytes;

cleanup:
    t = sl_host_ms();
    st = sl_free_device_all(st, d_x, ws, d_out);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

/* The same on a device-resident x: only the kernels are timed. */
static sl_status reduce_device(reduce_call *c, size_t elem, void *result, const sl_opts *opts, double *kernel_ms)
{
    sl_status st = check_args(c, elem, opts);
    if (st == SL_OK) st = sl_check_host_ptr(c->fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (c->n > 0 && (st = sl_check_device_buffer(c->fn, "x", c->x, elem)) != SL_OK) return st;
    if (c->n == 0) {
        write_identity(c->op, result);
        return SL_OK;
    }
    if ((st = sl_check_block_on_device(c->block)) != SL_OK) return st;
    void *ws = NULL, *d_out = NULL;
    if ((st = make_plan(c)) != SL_OK) return st;
    if ((st = alloc_scratch(c, &ws, &d_out)) == SL_OK && (st = run_timed(c, c->x, ws, d_out, kernel_ms)) == SL_OK)
        st = sl_copy_to_host(result, d_out, sl_reduce_result_bytes(c->op));
    return sl_free_device_all(st, ws, d_out, NULL);
}

/* ---- the public operators ------------------------------------------------------ */

/* Where a public operator runs: the whole lifecycle on host data (with a
 * report), or the kernels alone on device data (with kernel_ms). */
typedef struct reduce_where {
    int on_device;
    sl_report *report;
    double *kernel_ms;
} reduce_where;

static reduce_where on_host(sl_report *report)
{
    reduce_where w = {0, report, NULL};
    return w;
}

static reduce_where on_device(double *kernel_ms)
{
    reduce_where w = {1, NULL, kernel_ms};
    return w;
}

/* One operator call; `result` (named `result_name` in messages) receives
 * sl_reduce_result_bytes(op) bytes. */
static sl_status reduce_entry(const char *fn, sl_reduce_op op, const void *x, size_t n, void *result,
                              const char *result_name, const sl_opts *opts, reduce_where where)
{
    /* the result is written on the host, whichever side x is on */
    sl_status st = sl_check_host_ptr(fn, result_name, result);
    if (st != SL_OK) return st;
    reduce_call c = {fn, op, x, n, 0, 0, 0, {0}};
    size_t elem = op == SL_REDUCE_SUM_I32 ? sizeof(int) : sizeof(float);
    return where.on_device ? reduce_device(&c, elem, result, opts, where.kernel_ms)
                           : reduce_host(&c, elem, result, opts, where.report);
}

sl_status sl_reduce_argmax_check(const float *x, size_t n, const size_t *index, const float *value, const char *fn)
{
    SL_NULL_CHECK(x, fn);
    sl_status st = sl_check_host_ptr(fn, "index", index); /* both written on the host */
    if (st == SL_OK) st = sl_check_host_ptr(fn, "value", value);
    if (st != SL_OK) return st;
    if (n == 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: n is 0: an empty array has no argmax (no index to return)",
                       fn);
    return SL_OK;
}

static sl_status argmax_entry(const char *fn, const float *x, size_t n, size_t *index, float *value,
                              const sl_opts *opts, reduce_where where)
{
    sl_status st = sl_reduce_argmax_check(x, n, index, value, fn);
    if (st != SL_OK) return st;
    sl_argmax_pair best = {0, 0.0f};
    if ((st = reduce_entry(fn, SL_REDUCE_ARGMAX_F32, x, n, &best, "result", opts, where)) != SL_OK) return st;
    *index = (size_t)best.index;
    *value = best.value;
    return SL_OK;
}

sl_status sl_reduce_sum_f32(const float *x, size_t n, float *sum, const sl_opts *opts, sl_report *report)
{
    return reduce_entry("sl_reduce_sum_f32", SL_REDUCE_SUM_F32, x, n, sum, "sum", opts, on_host(report));
}

sl_status sl_reduce_sum_f32_f64acc(const float *x, size_t n, double *sum, const sl_opts *opts, sl_report *report)
{
    return reduce_entry("sl_reduce_sum_f32_f64acc", SL_REDUCE_SUM_F32_F64ACC, x, n, sum, "sum", opts,
                        on_host(report));
}

sl_status sl_reduce_sum_i32(const int *x, size_t n, long long *sum, const sl_opts *opts, sl_report *report)
{
    return reduce_entry("sl_reduce_sum_i32", SL_REDUCE_SUM_I32, x, n, sum, "sum", opts, on_host(report));
}

sl_status sl_reduce_max_f32(const float *x, size_t n, float *max, const sl_opts *opts, sl_report *report)
{
    return reduce_entry("sl_reduce_max_f32", SL_REDUCE_MAX_F32, x, n, max, "max", opts, on_host(report));
}

sl_status sl_reduce_argmax_f32(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                               sl_report *report)
{
    return argmax_entry("sl_reduce_argmax_f32", x, n, index, value, opts, on_host(report));
}

sl_status sl_reduce_sum_f32_device(const float *x, size_t n, float *sum, const sl_opts *opts, double *kernel_ms)
{
    return reduce_entry("sl_reduce_sum_f32_device", SL_REDUCE_SUM_F32, x, n, sum, "sum", opts,
                        on_device(kernel_ms));
}

sl_status sl_reduce_sum_f32_f64acc_device(const float *x, size_t n, double *sum, const sl_opts *opts,
                                          double *kernel_ms)
{
    return reduce_entry("sl_reduce_sum_f32_f64acc_device", SL_REDUCE_SUM_F32_F64ACC, x, n, sum, "sum", opts,
                        on_device(kernel_ms));
}

sl_status sl_reduce_sum_i32_device(const int *x, size_t n, long long *sum, const sl_opts *opts, double *kernel_ms)
{
    return reduce_entry("sl_reduce_sum_i32_device", SL_REDUCE_SUM_I32, x, n, sum, "sum", opts,
                        on_device(kernel_ms));
}

sl_status sl_reduce_max_f32_device(const float *x, size_t n, float *max, const sl_opts *opts, double *kernel_ms)
{
    return reduce_entry("sl_reduce_max_f32_device", SL_REDUCE_MAX_F32, x, n, max, "max", opts,
                        on_device(kernel_ms));
}

sl_status sl_reduce_argmax_f32_device(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                                      double *kernel_ms)
{
    return argmax_entry("sl_reduce_argmax_f32_device", x, n, index, value, opts, on_device(kernel_ms));
}

/* ---- the modelled counters of one version ------------------------------------ */

typedef struct modelled_sum {
    const float *x;
    size_t n;
    sl_opts opts;
} modelled_sum;

static sl_status run_modelled_sum(void *ctx)
{
    modelled_sum *m = ctx;
    float sum = 0.0f;
    double ms = 0.0;
    return sl_reduce_sum_f32_device(m->x, m->n, &sum, &m->opts, &ms);
}

sl_status sl_reduce_modelled(int version, size_t n, int block, sl_modelled *out)
{
    static const char fn[] = "sl_reduce_modelled";
    sl_status st = sl_check_host_ptr(fn, "out", out);
    if (st != SL_OK) return st;
    memset(out, 0, sizeof *out);
    reduce_call c = {fn, SL_REDUCE_SUM_F32, out /* any non-NULL x: checked below */, n, 0, 0, 0, {0}};
    sl_opts opts = {version, block};
    st = check_args(&c, sizeof(float), &opts);
    if (st != SL_OK) return st;
    if (n == 0) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: n is 0: nothing launches, nothing to model", fn);
    if ((st = sl_modelled_available()) != SL_OK) return st;
    float *d_x = NULL;
    if ((st = sl_alloc_device(&d_x, c.bytes)) == SL_OK && (st = sl_fill_bytes_device(d_x, 0, c.bytes)) == SL_OK) {
        modelled_sum m = {d_x, n, opts};
        st = sl_modelled_run(run_modelled_sum, &m, out);
    }
    return sl_free_device_all(st, d_x, NULL, NULL);
}
