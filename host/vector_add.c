/* simtlab host library — chapter 01: vector add with the whole lifecycle.
 *
 *   cudaMalloc -> copy a, b host->device -> launch -> launch check + sync
 *   -> copy c device->host -> cudaFree
 *
 * Every phase is timed and reported, because the lesson of chapter 01 is that
 * for one add per element the copies cost far more than the kernel. */
#include <string.h>

#include "../kernels/01_vector_add.h"
#include "sl_internal.h"

#define VECTOR_ADD_BEST 3
#define VECTOR_ADD_DEFAULT_BLOCK 256

int sl_vector_add_version_count(void) { return SL_VECTOR_ADD_VERSIONS; }

const char *sl_vector_add_version_name(int version) { return sl_vector_add_kernel_name(version); }

/* Everything that can be rejected without touching the device. */
static sl_status check_args(const float *a, const float *b, const float *c, size_t n,
                            const sl_opts *opts, size_t *bytes, int *version, int *block)
{
    if (!a) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_vector_add: a is NULL");
    if (!b) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_vector_add: b is NULL");
    if (!c) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_vector_add: c is NULL");
    sl_status st = sl_checked_bytes(n, sizeof(float), "sl_vector_add: n", bytes);
    if (st != SL_OK) return st;
    st = sl_check_version(opts ? opts->version : 0, SL_VECTOR_ADD_VERSIONS, VECTOR_ADD_BEST,
                          "sl_vector_add", version);
    if (st != SL_OK) return st;
    return sl_check_block(opts ? opts->block : 0, VECTOR_ADD_DEFAULT_BLOCK, block);
}

static void report_begin(sl_report *r, int version, int block)
{
    memset(r, 0, sizeof *r);
    r->version = version;
    r->block = block;
    r->emulated = sl_backend_is_emulator();
}

sl_status sl_vector_add(const float *a, const float *b, float *c, size_t n, const sl_opts *opts,
                        sl_report *report)
{
    sl_report local;
    sl_report *r = report ? report : &local;
    size_t bytes = 0;
    int version = 0, block = 0;
    sl_status st = check_args(a, b, c, n, opts, &bytes, &version, &block);
    if (st != SL_OK) return st;
    report_begin(r, version, block);
    if (n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(block)) != SL_OK) return st;

    double t_start = sl_host_ms(), t;
    float *d_a = NULL, *d_b = NULL, *d_c = NULL;
    sl_event_timer timer = {NULL, NULL};

    t = sl_host_ms();
    if ((st = sl_device_alloc(&d_a, bytes)) != SL_OK) goto cleanup;
    if ((st = sl_device_alloc(&d_b, bytes)) != SL_OK) goto cleanup;
    if ((st = sl_device_alloc(&d_c, bytes)) != SL_OK) goto cleanup;
    r->phase_ms[SL_PHASE_ALLOC] = sl_host_ms() - t;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice), st, cleanup);
    SL_CUDA_GOTO(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice), st, cleanup);
    r->phase_ms[SL_PHASE_H2D] = sl_host_ms() - t;
    r->bytes_h2d = 2 * bytes;

    if ((st = sl_event_timer_create(&timer)) != SL_OK) goto cleanup;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    SL_LAUNCH_CHECK_GOTO(sl_vector_add_launch(version, d_a, d_b, d_c, n, block, 0, &r->grid),
                         sl_vector_add_kernel_name(version), st, cleanup);
    if ((st = sl_event_timer_stop(&timer, &r->phase_ms[SL_PHASE_KERNEL])) != SL_OK) goto cleanup;

    t = sl_host_ms();
    SL_CUDA_GOTO(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost), st, cleanup);
    r->phase_ms[SL_PHASE_D2H] = sl_host_ms() - t;
    r->bytes_d2h = bytes;

cleanup:
    sl_event_timer_destroy(&timer);
    t = sl_host_ms();
    /* Free everything even after a failure; keep the first error. */
    sl_status free_st = sl_device_free(d_a);
    sl_status free_b = sl_device_free(d_b), free_c = sl_device_free(d_c);
    if (free_st == SL_OK) free_st = free_b;
    if (free_st == SL_OK) free_st = free_c;
    r->phase_ms[SL_PHASE_FREE] = sl_host_ms() - t;
    r->total_ms = sl_host_ms() - t_start;
    return st != SL_OK ? st : free_st;
}

sl_status sl_vector_add_device(const float *a, const float *b, float *c, size_t n,
                               const sl_opts *opts, double *kernel_ms)
{
    size_t bytes = 0;
    int version = 0, block = 0;
    sl_status st = check_args(a, b, c, n, opts, &bytes, &version, &block);
    if (st != SL_OK) return st;
    if (!kernel_ms) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_vector_add_device: kernel_ms is NULL");
    *kernel_ms = 0.0;
    if (n == 0) return SL_OK;
    if ((st = sl_check_block_on_device(block)) != SL_OK) return st;
    sl_event_timer timer;
    if ((st = sl_event_timer_create(&timer)) != SL_OK) return st;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    SL_LAUNCH_CHECK_GOTO(sl_vector_add_launch(version, a, b, c, n, block, 0, NULL),
                         sl_vector_add_kernel_name(version), st, cleanup);
    st = sl_event_timer_stop(&timer, kernel_ms);
cleanup:
    sl_event_timer_destroy(&timer);
    return st;
}
