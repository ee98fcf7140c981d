/* simtlab host library — chapter 03: warps and divergence, with the whole
 * lifecycle, the CPU reference, the modelled counters and the per-warp view.
 *
 *   cudaMalloc (x, out, the order) -> copy x host->device, make and copy the
 *   order -> launch -> launch check + sync -> copy out device->host -> cudaFree
 *
 * The order (which item each thread takes) is what separates a divergent
 * version from its control for v4/v5 and v7/v9: it is made on the host
 * before the timed launch, never inside it. */
#include <stdlib.h>
#include <string.h>

#include "../kernels/03_divergence.h"
#include "sl_internal.h"
#include "simtlab/03_divergence.h"

#define DIV_BEST 2
#define DIV_DEFAULT_BLOCK 256
#define DIV_DEFAULT_K 2
#define DIV_DEFAULT_WORK 128
#define DIV_MAX_WORK (1 << 20)
#define DIV_DEFAULT_WIDTH 1024
#define DIV_MAX_WIDTH 65536
#define DIV_SHUFFLE_SEED 0x03d1ce5eedULL

int sl_divergence_version_count(void) { return SL_DIVERGENCE_VERSIONS; }

const char *sl_divergence_version_name(int version) { return sl_divergence_kernel_name(version); }

int sl_divergence_control(int version)
{
    static const int control[SL_DIVERGENCE_VERSIONS + 1] = {0, 2, 2, 3, 3, 3, 7, 7, 9, 9};
    return version >= 1 && version <= SL_DIVERGENCE_VERSIONS ? control[version] : 0;
}

static int reads_x(int version) { return version < 3 || version > 5; }
static int has_order(int version) { return version == 4 || version == 5 || version == 7 || version == 9; }

/* One call, after validation. */
typedef struct div_call {
    const char *fn;
    sl_divergence_plan plan;
    size_t n, threads;
} div_call;

/* The image of v3-v5: `width` pixels a row, as many rows as n needs. */
static sl_div_plane plane_for(size_t n, int width)
{
    size_t height = n ? (n + (size_t)width - 1) / (size_t)width : 1;
    sl_div_plane g = {(uint32_t)width, -2.25f, 3.0f / (float)width, -1.25f, 2.5f / (float)height};
    return g;
}

static sl_status check_params(const char *fn, const sl_divergence_params *p, int version, int *k, int *work,
                              int *width)
{
    *k = p && p->k ? p->k : DIV_DEFAULT_K;
    *work = p && p->work ? p->work : DIV_DEFAULT_WORK;
    *width = p && p->width ? p->width : DIV_DEFAULT_WIDTH;
    if ((version == 1 || version == 2) && (*k < 1 || *k > SL_DIVERGENCE_MAX_K || (*k & (*k - 1))))
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: params->k = %d: the paths of a warp split must divide its 32 lanes evenly: "
                       "1, 2, 4, 8, 16 or 32 (0 = %d)", fn, *k, DIV_DEFAULT_K);
    if (*work < 1 || *work > DIV_MAX_WORK)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: params->work = %d: steps per path from 1 to %d (0 = %d)", fn,
                       *work, DIV_MAX_WORK, DIV_DEFAULT_WORK);
    if (*width < 1 || *width > DIV_MAX_WIDTH)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: params->width = %d: pixels per row from 1 to %d (0 = %d)", fn,
                       *width, DIV_MAX_WIDTH, DIV_DEFAULT_WIDTH);
    return SL_OK;
}

/* Everything that can be rejected without touching the device. */
static sl_status check_args(const char *fn, const uint32_t *x, const uint32_t *out, size_t n,
                            const sl_divergence_params *params, const sl_opts *opts, div_call *c)
{
    memset(c, 0, sizeof *c);
    c->fn = fn;
    c->n = n;
    sl_status st = sl_check_host_opt(fn, "opts", opts);
    if (st == SL_OK) st = sl_check_host_opt(fn, "params", params);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_DIVERGENCE_VERSIONS, DIV_BEST, fn, &c->plan.version);
    if (st != SL_OK) return st;
    int v = c->plan.version;
    if (!out) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (!x && reads_x(v))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: x is NULL (version %d reads it; only v3-v5 do not)", fn, v);
    if (n > UINT32_MAX)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: n = %zu: items are 32-bit indices, n <= %u", fn, n,
                       (unsigned)UINT32_MAX);
    int width = 0;
    if ((st = check_params(fn, params, v, &c->plan.k, &c->plan.work, &width)) != SL_OK) return st;
    c->plan.plane = plane_for(n, width);
    if ((st = sl_check_block(opts ? opts->block : 0, DIV_DEFAULT_BLOCK, &c->plan.block)) != SL_OK) return st;
    if (c->plan.block % 32 != 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: %s's kernels reason about whole warps, so a block must be a multiple "
                       "of 32 (0 = default %d)", c->plan.block, fn, DIV_DEFAULT_BLOCK);
    c->threads = sl_divergence_threads(v, n, c->plan.k);
    return SL_OK;
}

/* x and out as the host side or the device side of a call: host arrays or
 * device buffers (x only where the version reads it), and apart (the
 * kernels take them __restrict__, and the CPU reference does the same). */
static sl_status check_arrays(const div_call *c, const uint32_t *x, const uint32_t *out, int on_device)
{
    if (c->n == 0) return SL_OK;
    int with_x = reads_x(c->plan.version);
    size_t bytes = c->n * sizeof *out;
    sl_status st = SL_OK;
    if (on_device) {
        if (with_x) st = sl_check_device_buffer(c->fn, "x", x, sizeof *x);
        if (st == SL_OK) st = sl_check_device_buffer(c->fn, "out", out, sizeof *out);
    } else {
        if (with_x) st = sl_check_host_ptr(c->fn, "x", x);
        if (st == SL_OK) st = sl_check_host_ptr(c->fn, "out", out);
    }
    if (st == SL_OK && with_x) st = sl_check_disjoint(c->fn, "out", out, bytes, "x", x, bytes);
    return st;
}

/* ---- orders: which item each thread takes ------------------------------------- */

/* v4: a random permutation (Fisher-Yates, a fixed seed: the same every run). */
static void order_shuffled(uint32_t *order, size_t n)
{
    uint64_t state = DIV_SHUFFLE_SEED;
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(sl_rng_next(&state) % i);
        uint32_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

/* v5: items by trip count, a counting sort (counts are 0..max). */
static sl_status order_by_count(uint32_t *order, const uint32_t *count, size_t n, int max)
{
    size_t *start = calloc((size_t)max + 2, sizeof *start);
    if (!start) return sl_fail(SL_ERR_HOST_MEMORY, "sl_divergence: out of host memory for the sort");
    for (size_t i = 0; i < n; i++) start[(count[i] > (uint32_t)max ? (uint32_t)max : count[i]) + 1]++;
    for (int b = 1; b <= max + 1; b++) start[b] += start[b - 1];
    for (size_t i = 0; i < n; i++) order[start[count[i] > (uint32_t)max ? (uint32_t)max : count[i]]++] = (uint32_t)i;
    free(start);
    return SL_OK;
}

/* v7, v9: the items of key 0, then those of key 1 (a stable partition). */
static void order_by_key(uint32_t *order, const uint32_t *x, size_t n)
{
    size_t at = 0;
    for (int key = 0; key < 2; key++)
        for (size_t i = 0; i < n; i++)
            if ((x[i] & 1u) == (uint32_t)key) order[at++] = (uint32_t)i;
}

/* One launch of the plan, for sl_launch_timed. */
typedef struct div_launch {
    const sl_divergence_plan *plan;
    const uint32_t *x, *order;
    uint32_t *out;
    size_t n, t0, threads;
    long long *clocks;
} div_launch;

static cudaError_t launch_div(void *ctx)
{
    const div_launch *l = ctx;
    return sl_divergence_launch(l->plan, l->x, l->order, l->out, l->n, l->t0, l->threads, l->clocks, 0);
}

static sl_status launch_timed(const div_launch *l, double *ms)
{
    return sl_launch_timed(sl_divergence_kernel_name(l->plan->version), launch_div, (void *)l, ms);
}

/* The order of the call on the device (*d_order stays NULL for versions
 * without one). host_x: x on the host, or NULL to read it back from d_x.
 * v5 first runs v3 into d_out for the trip counts (untimed). */
static sl_status make_order(const div_call *c, const uint32_t *host_x, const uint32_t *d_x, uint32_t *d_out,
                            uint32_t **d_order)
{
    int v = c->plan.version;
    if (!has_order(v)) return SL_OK;
    size_t bytes = c->n * sizeof(uint32_t);
    uint32_t *order = malloc(bytes), *aux = NULL;
    sl_status st = SL_OK;
    if (!order) return sl_fail(SL_ERR_HOST_MEMORY, "%s: out of host memory for the order (%zu bytes)", c->fn, bytes);
    if (v == 4) {
        order_shuffled(order, c->n);
    } else if (!(aux = malloc(bytes))) {
        st = sl_fail(SL_ERR_HOST_MEMORY, "%s: out of host memory (%zu bytes)", c->fn, bytes);
    } else if (v == 5) {
        sl_divergence_plan first = c->plan;
        first.version = 3;
        div_launch l = {&first, NULL, NULL, d_out, c->n, 0, c->n, NULL};
        double ms = 0.0;
        if ((st = launch_timed(&l, &ms)) == SL_OK && (st = sl_copy_to_host(aux, d_out, bytes)) == SL_OK)
            st = order_by_count(order, aux, c->n, c->plan.work);
    } else {
        if (!host_x && (st = sl_copy_to_host(aux, d_x, bytes)) == SL_OK) host_x = aux;
        if (st == SL_OK) order_by_key(order, host_x, c->n);
    }
    if (st == SL_OK && (st = sl_alloc_device(d_order, bytes)) == SL_OK)
        st = sl_copy_to_device(*d_order, order, bytes);
    free(order);
    free(aux);
    return st;
}

/* ---- the lifecycle ---------------------------------------------------------------- */

sl_status sl_divergence(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                        const sl_opts *opts, sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    static const char fn[] = "sl_divergence";
    div_call c;
    sl_status st = check_args(fn, x, out, n, params, opts, &c);
    if (st == SL_OK) st = sl_check_host_opt(fn, "report", report);
    /* host arrays; out may be x: x is copied in before out comes back */
    if (st == SL_OK && n > 0 && reads_x(c.plan.version)) st = sl_check_host_ptr(fn, "x", x);
    if (st == SL_OK && n > 0) st = sl_check_host_ptr(fn, "out", out);
    if (st != SL_OK) return st;
    sl_report_begin(r, c.plan.version, c.plan.block);
    if (n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(c.plan.block)) != SL_OK) return st;

    double t_start = sl_host_ms(), t = t_start;
    size_t bytes = n * sizeof(uint32_t);
    uint32_t *d_x = NULL, *d_out = NULL, *d_order = NULL;
    int with_x = reads_x(c.plan.version);
    if (with_x && (st = sl_alloc_device(&d_x, bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_out, bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    if (with_x) SL_CUDA_GOTO(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice), st, cleanup);
    if ((st = make_order(&c, x, d_x, d_out, &d_order)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;
    r->bytes_h2d = (with_x ? bytes : 0) + (d_order ? bytes : 0);
    r->grid = (unsigned)((c.threads + (size_t)c.plan.block - 1) / (size_t)c.plan.block);

    div_launch l = {&c.plan, d_x, d_order, d_out, n, 0, c.threads, NULL};
    if ((st = launch_timed(&l, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = bytes;

cleanup:
    t = sl_host_ms();
    st = sl_free_device_all(st, d_x, d_out, d_order);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

sl_status sl_divergence_device(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                               const sl_opts *opts, double *kernel_ms)
{
    static const char fn[] = "sl_divergence_device";
    div_call c;
    sl_status st = check_args(fn, x, out, n, params, opts, &c);
    if (st != SL_OK) return st;
    if ((st = sl_check_host_ptr(fn, "kernel_ms", kernel_ms)) != SL_OK) return st;
    *kernel_ms = 0.0;
    if (n == 0) return SL_OK;
    if ((st = check_arrays(&c, x, out, 1)) != SL_OK || (st = sl_check_block_on_device(c.plan.block)) != SL_OK)
        return st;
    uint32_t *d_order = NULL;
    if ((st = make_order(&c, NULL, x, out, &d_order)) == SL_OK) {
        div_launch l = {&c.plan, x, d_order, out, n, 0, c.threads, NULL};
        st = launch_timed(&l, kernel_ms);
    }
    return sl_free_device_all(st, d_order, NULL, NULL);
}

/* ---- the CPU reference --------------------------------------------------------------- */

static uint32_t cpu_path(uint32_t v, int path, int work)
{
    for (int j = 0; j < work; j++) v = sl_div_step(v, path);
    return v;
}

sl_status sl_divergence_cpu(const uint32_t *x, uint32_t *out, size_t n, const sl_divergence_params *params,
                            int version)
{
    div_call c;
    sl_opts opts = {version, 0};
    sl_status st = check_args("sl_divergence_cpu", x, out, n, params, &opts, &c);
    if (st == SL_OK) st = check_arrays(&c, x, out, 0);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < n; i++) {
        switch (c.plan.version) {
        case 1:
        case 2: out[i] = cpu_path(x[i], (int)(i % (size_t)c.plan.k), c.plan.work); break;
        case 3:
        case 4:
        case 5: out[i] = sl_div_escape((uint32_t)i, c.plan.plane, c.plan.work); break;
        case 6:
        case 7: out[i] = sl_div_short(x[i], c.plan.work); break;
        default: out[i] = cpu_path(x[i], (x[i] & 1u) ? 1 : 2, c.plan.work); break;
        }
    }
    return SL_OK;
}

/* ---- modelled counters and the per-warp view ----------------------------------------- */

/* x and out on the device, and the order: what one launch of the call needs. */
typedef struct div_buffers {
    uint32_t *x, *out, *order;
} div_buffers;

static sl_status buffers_make(const div_call *c, const uint32_t *x, div_buffers *b)
{
    size_t bytes = c->n * sizeof(uint32_t);
    sl_status st = SL_OK;
    memset(b, 0, sizeof *b);
    if (reads_x(c->plan.version) && ((st = sl_alloc_device(&b->x, bytes)) != SL_OK ||
                                     (st = sl_copy_to_device(b->x, x, bytes)) != SL_OK))
        return st;
    if ((st = sl_alloc_device(&b->out, bytes)) != SL_OK) return st;
    return make_order(c, x, b->x, b->out, &b->order);
}

static sl_status run_launch(void *ctx)
{
    double ms = 0.0;
    return launch_timed(ctx, &ms);
}

/* A call's checks for the modelled and per-warp functions; `fn` names them. */
static sl_status check_model_args(const char *fn, const uint32_t *x, size_t n, const sl_divergence_params *params,
                                  const sl_opts *opts, div_call *c)
{
    uint32_t any = 0; /* out is made here: any non-NULL pointer passes its check */
    sl_status st = check_args(fn, x, &any, n, params, opts, c);
    if (st != SL_OK) return st;
    if (n == 0) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: n is 0: nothing launches, nothing to show", fn);
    return reads_x(c->plan.version) ? sl_check_host_ptr(fn, "x", x) : SL_OK;
}

sl_status sl_divergence_modelled(const uint32_t *x, size_t n, const sl_divergence_params *params,
                                 const sl_opts *opts, sl_modelled *out)
{
    static const char fn[] = "sl_divergence_modelled";
    sl_status st = sl_check_host_ptr(fn, "out", out);
    if (st != SL_OK) return st;
    memset(out, 0, sizeof *out);
    div_call c;
    st = check_model_args(fn, x, n, params, opts, &c);
    if (st != SL_OK || (st = sl_modelled_available()) != SL_OK) return st;
    div_buffers b;
    if ((st = buffers_make(&c, x, &b)) == SL_OK) {
        div_launch l = {&c.plan, b.x, b.order, b.out, n, 0, c.threads, NULL};
        st = sl_modelled_run(run_launch, &l, out);
    }
    return sl_free_device_all(st, b.x, b.out, b.order);
}

/* Each of the warps on its own, one 32-thread launch each, between the
 * counters' begin and end. */
static sl_status model_warps(const div_call *c, const div_buffers *b, size_t first, size_t count,
                             sl_divergence_warp *warp)
{
    sl_divergence_plan one = c->plan;
    one.block = 32;
    for (size_t w = 0; w < count; w++) {
        sl_modelled m;
        div_launch l = {&one, b->x, b->order, b->out, c->n, 32 * (first + w), 32, NULL};
        sl_status st = sl_modelled_run(run_launch, &l, &m);
        if (st != SL_OK) return st;
        warp[w].modelled = 1;
        warp[w].simt_efficiency = m.simt_efficiency;
        warp[w].inst_executed = m.inst_executed;
        warp[w].branches_diverged = m.branches_diverged;
    }
    return SL_OK;
}

sl_status sl_divergence_warps(const uint32_t *x, size_t n, const sl_divergence_params *params,
                              const sl_opts *opts, size_t first, size_t count, sl_divergence_warp *warp)
{
    static const char fn[] = "sl_divergence_warps";
    sl_status st = sl_check_host_ptr(fn, "warp", warp);
    if (st != SL_OK) return st;
    div_call c;
    st = check_model_args(fn, x, n, params, opts, &c);
    if (st != SL_OK) return st;
    size_t warps = (c.threads + 31) / 32;
    if (count == 0 || first >= warps || count > warps - first)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: first = %zu, count = %zu: warps %zu .. %zu asked for, the call "
                       "has %zu (0 .. %zu)", fn, first, count, first, first + count - 1, warps, warps - 1);
    memset(warp, 0, count * sizeof *warp);
    size_t launched = (c.threads + (size_t)c.plan.block - 1) / (size_t)c.plan.block * (size_t)c.plan.block / 32;
    long long *clocks = malloc(2 * count * sizeof *clocks), *d_clocks = NULL;
    if (!clocks) return sl_fail(SL_ERR_HOST_MEMORY, "%s: out of host memory", fn);
    div_buffers b;
    if ((st = buffers_make(&c, x, &b)) == SL_OK && (st = sl_alloc_device(&d_clocks, 2 * launched * sizeof *clocks)) == SL_OK) {
        div_launch l = {&c.plan, b.x, b.order, b.out, n, 0, c.threads, d_clocks};
        if ((st = run_launch(&l)) == SL_OK &&
            (st = sl_copy_to_host(clocks, d_clocks + 2 * first, 2 * count * sizeof *clocks)) == SL_OK)
            for (size_t w = 0; w < count; w++) {
                warp[w].clock_start = clocks[2 * w];
                warp[w].clock_stop = clocks[2 * w + 1];
            }
        if (st == SL_OK) {
            if (sl_modelled_available() == SL_OK) st = model_warps(&c, &b, first, count, warp);
            else sl_clear_error(); /* no model in this build: not this call's failure */
        }
    }
    free(clocks);
    st = sl_free_device_all(st, b.x, b.out, b.order);
    return sl_free_device_all(st, d_clocks, NULL, NULL);
}
