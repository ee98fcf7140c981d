/* simtlab host library — chapter 05: the transpose with the whole lifecycle,
 * and its CPU baseline.
 *
 *   cudaMalloc (in, out) -> copy in host->device (and out, when its rows
 *   have gaps to keep) -> launch -> launch check + sync -> copy out
 *   device->host -> cudaFree
 *
 * The device copies keep the caller's leading dimensions, so the kernel
 * sees exactly the layout the caller has. */
#include <string.h>

#include "../kernels/05_transpose.h"
#include "05_matrix.h"
#include "simtlab/05_transpose.h"

#define TRANSPOSE_BEST 4

int sl_transpose_version_count(void) { return SL_TRANSPOSE_VERSIONS; }

const char *sl_transpose_version_name(int version) { return sl_transpose_kernel_name(version); }

/* One call after validation. */
typedef struct transpose_call {
    const char *fn;
    size_t rows, cols, ld_in, ld_out;
    size_t in_bytes, out_bytes; /* the spans */
    int version, block;
} transpose_call;

/* Everything that can be rejected without touching the device. */
static sl_status check_args(transpose_call *c, const float *in, const float *out, const sl_opts *opts)
{
    if (!in) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: in is NULL", c->fn);
    if (!out) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: out is NULL", c->fn);
    sl_status st = sl_check_host_opt(c->fn, "opts", opts);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_TRANSPOSE_VERSIONS, TRANSPOSE_BEST, c->fn,
                                    &c->version);
    if (st != SL_OK) return st;
    int own = sl_transpose_block_threads(c->version);
    if (opts && opts->block != 0 && opts->block != own)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: %s's %s runs %d threads per block, the shape of its 32 x 32 tile; "
                       "pass 0 or %d",
                       opts->block, c->fn, sl_transpose_kernel_name(c->version), own, own);
    c->block = own;
    char what[96];
    snprintf(what, sizeof what, "%s: in (rows x ld_in)", c->fn);
    if ((st = sl_matrix_span_bytes(c->rows, c->cols, c->ld_in, what, &c->in_bytes)) != SL_OK) return st;
    snprintf(what, sizeof what, "%s: out (cols x ld_out)", c->fn);
    if ((st = sl_matrix_span_bytes(c->cols, c->rows, c->ld_out, what, &c->out_bytes)) != SL_OK) return st;
    switch (sl_transpose_check(c->version, c->rows, c->cols, c->ld_in, c->ld_out)) {
    case SL_TRANSPOSE_FINE:
    case SL_TRANSPOSE_EMPTY: return SL_OK;
    case SL_TRANSPOSE_BAD_LD_IN:
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: ld_in = %zu is below cols = %zu: rows of in would overlap (ld_in is the distance "
                       "in floats from one row to the next, at least the row's length)",
                       c->fn, c->ld_in, c->cols);
    case SL_TRANSPOSE_BAD_LD_OUT:
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: ld_out = %zu is below rows = %zu: out has cols rows of rows floats each, so its "
                       "leading dimension must be at least rows",
                       c->fn, c->ld_out, c->rows);
    case SL_TRANSPOSE_TOO_MANY_ROWS:
        return sl_fail(SL_ERR_UNSUPPORTED, "%s: rows = %zu needs more than %d row tiles of 32 (grid.y's limit)",
                       c->fn, c->rows, SL_TRANSPOSE_MAX_ROW_TILES);
    default: return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: version %d does not exist", c->fn, c->version);
    }
}

typedef struct transpose_launch {
    const transpose_call *call;
    const float *in;
    float *out;
} transpose_launch;

static cudaError_t launch_transpose(void *ctx)
{
    const transpose_launch *l = ctx;
    const transpose_call *c = l->call;
    return sl_transpose_launch(c->version, l->in, c->rows, c->cols, c->ld_in, l->out, c->ld_out, 0);
}

static sl_status launch_timed(const transpose_call *c, const float *in, float *out, double *ms)
{
    transpose_launch l = {c, in, out};
    return sl_launch_timed(sl_transpose_kernel_name(c->version), launch_transpose, &l, ms);
}

sl_status sl_transpose(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                       const sl_opts *opts, sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    transpose_call c = {"sl_transpose", rows, cols, ld_in, ld_out, 0, 0, 0, 0};
    sl_status st = check_args(&c, in, out, opts);
    if (st == SL_OK) st = sl_check_host_opt(c.fn, "report", report);
    /* host arrays; out may overlap in: in is copied in before out comes back */
    if (st == SL_OK && c.in_bytes && (st = sl_check_host_ptr(c.fn, "in", in)) == SL_OK)
        st = sl_check_host_ptr(c.fn, "out", out);
    if (st != SL_OK) return st;
    sl_report_begin(r, c.version, c.block);
    if (rows == 0 || cols == 0) return SL_OK;
    if ((st = sl_check_block_on_device(c.block)) != SL_OK) return st;
    r->grid = sl_transpose_grid_blocks(rows, cols);

    double t_start = sl_host_ms(), t = t_start;
    sl_matrix_copy d_in = {rows, cols, ld_in, c.in_bytes, NULL}, d_out = {cols, rows, ld_out, c.out_bytes, NULL};
    if ((st = sl_alloc_device(&d_in.device, c.in_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_out.device, c.out_bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    if ((st = sl_matrix_upload(&d_in, in, &r->bytes_h2d)) != SL_OK) goto cleanup;
    if ((st = sl_matrix_upload_if_gapped(&d_out, out, &r->bytes_h2d)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;

    if ((st = launch_timed(&c, d_in.device, d_out.device, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(out, d_out.device, c.out_bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = c.out_bytes;

cleanup:
    t = sl_host_ms();
    st = sl_free_device_all(st, d_in.device, d_out.device, NULL);
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st;
}

sl_status sl_transpose_device(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out,
                              const sl_opts *opts, double *kernel_ms)
{
    transpose_call c = {"sl_transpose_device", rows, cols, ld_in, ld_out, 0, 0, 0, 0};
    sl_status st = check_args(&c, in, out, opts);
    if (st == SL_OK) st = sl_check_host_ptr(c.fn, "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    if (rows == 0 || cols == 0) return SL_OK;
    if ((st = sl_check_device_buffer(c.fn, "in", in, sizeof *in)) != SL_OK) return st;
    if ((st = sl_check_device_buffer(c.fn, "out", out, sizeof *out)) != SL_OK) return st;
    /* not in place: a tile's writes would land on elements other tiles
     * have yet to read (the kernels take in and out __restrict__) */
    if ((st = sl_check_disjoint(c.fn, "out", out, c.out_bytes, "in", in, c.in_bytes)) != SL_OK) return st;
    if ((st = sl_check_block_on_device(c.block)) != SL_OK) return st;
    return launch_timed(&c, in, out, kernel_ms);
}

/* ---- the emulator's model of each version ------------------------------------------ */

typedef struct model_run {
    const transpose_call *c;
    const float *in;
    float *out;
} model_run;

static sl_status model_launch(void *ctx)
{
    model_run *r = ctx;
    double ms = 0.0;
    return launch_timed(r->c, r->in, r->out, &ms);
}

sl_status sl_transpose_modelled(int version, size_t rows, size_t cols, sl_transpose_model *model)
{
    sl_status st = sl_check_host_ptr("sl_transpose_modelled", "model", model);
    if (st != SL_OK) return st;
    memset(model, 0, sizeof *model);
    transpose_call c = {"sl_transpose_modelled", rows, cols, cols, rows, 0, 0, 0, 0};
    sl_opts opts = {version, 0};
    float *d_in = NULL, *d_out = NULL;
    st = check_args(&c, (const float *)model, (float *)model, &opts); /* any non-NULL pointer */
    if (st != SL_OK || rows == 0 || cols == 0) return st;
    if ((st = sl_modelled_available()) != SL_OK) return st;
    if ((st = sl_alloc_device(&d_in, c.in_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_alloc_device(&d_out, c.out_bytes)) != SL_OK) goto cleanup;
    if ((st = sl_fill_bytes_device(d_in, 0, c.in_bytes)) != SL_OK) goto cleanup;
    model_run run = {&c, d_in, d_out};
    sl_counter_ratios r;
    sl_modelled raw;
    if ((st = sl_count_launch(model_launch, &run, &r, &raw)) != SL_OK) goto cleanup;
    model->load_sectors_per_request = r.ld_sectors;
    model->store_sectors_per_request = r.st_sectors;
    model->shared_load_conflicts_per_request = r.shld_conflicts;
    model->shared_store_conflicts_per_request = r.shst_conflicts;
    model->shared_bank_conflicts = raw.shld_bank_conflicts + raw.shst_bank_conflicts;
cleanup:
    return sl_free_device_all(st, d_in, d_out, NULL);
}

/* ---- CPU baseline ----------------------------------------------------------------
 * The naive double loop reads rows and writes columns: every write touches
 * a new cache line. In 32 x 32 blocks both the 32 lines read and the 32
 * lines written stay in L1 (2 x 4 KiB) while the block is done. */
#define CPU_BLOCK 32

sl_status sl_transpose_cpu(const float *in, size_t rows, size_t cols, size_t ld_in, float *out, size_t ld_out)
{
    static const char fn[] = "sl_transpose_cpu";
    if (rows == 0 || cols == 0) return SL_OK;
    if (!in) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: in is NULL", fn);
    if (!out) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (ld_in < cols) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: ld_in = %zu is below cols = %zu", fn, ld_in, cols);
    if (ld_out < rows)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: ld_out = %zu is below rows = %zu", fn, ld_out, rows);
    size_t in_bytes = 0, out_bytes = 0;
    sl_status st = sl_matrix_span_bytes(rows, cols, ld_in, "sl_transpose_cpu: in", &in_bytes);
    if (st == SL_OK) st = sl_matrix_span_bytes(cols, rows, ld_out, "sl_transpose_cpu: out", &out_bytes);
    if (st == SL_OK) st = sl_check_omp_count(rows, "sl_transpose_cpu: rows");
    if (st == SL_OK && (st = sl_check_host_ptr(fn, "in", in)) == SL_OK) st = sl_check_host_ptr(fn, "out", out);
    /* not in place: the blocks would overwrite elements not yet read */
    if (st == SL_OK) st = sl_check_disjoint(fn, "out", out, out_bytes, "in", in, in_bytes);
    if (st != SL_OK) return st;
    long long row_blocks = (long long)((rows + CPU_BLOCK - 1) / CPU_BLOCK);
#pragma omp parallel for schedule(static)
    for (long long rb = 0; rb < row_blocks; rb++) {
        size_t i0 = (size_t)rb * CPU_BLOCK, i1 = i0 + CPU_BLOCK < rows ? i0 + CPU_BLOCK : rows;
        for (size_t j0 = 0; j0 < cols; j0 += CPU_BLOCK) {
            size_t j1 = j0 + CPU_BLOCK < cols ? j0 + CPU_BLOCK : cols;
            for (size_t i = i0; i < i1; i++)
                for (size_t j = j0; j < j1; j++) out[j * ld_out + i] = in[i * ld_in + j];
        }
    }
    return SL_OK;
}
