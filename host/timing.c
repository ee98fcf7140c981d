/* simtlab host library — clocks. Device work is timed with CUDA events (they
 * measure the GPU's own timeline, not the host's view of it); host work with
 * the monotonic clock. sl_time_repeat is the one warm-up-and-repeat loop
 * every benchmark uses. */
#include <stdlib.h>
#include <time.h>

#include "sl_internal.h"

double sl_host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

sl_status sl_event_timer_create(sl_event_timer *t)
{
    t->start = t->stop = NULL;
    SL_CUDA_RETURN(cudaEventCreate(&t->start));
    cudaError_t err = cudaEventCreate(&t->stop);
    if (err != cudaSuccess) {
        cudaEventDestroy(t->start);
        t->start = NULL;
        return sl_fail_cuda(err, "cudaEventCreate(&t->stop)", __FILE__, __LINE__);
    }
    return SL_OK;
}

void sl_event_timer_destroy(sl_event_timer *t)
{
    /* Destroying is best effort: after a sticky error it fails, and the
     * error that matters has already been reported. */
    if (t->start) cudaEventDestroy(t->start);
    if (t->stop) cudaEventDestroy(t->stop);
    t->start = t->stop = NULL;
}

sl_status sl_event_timer_start(sl_event_timer *t)
{
    SL_CUDA_RETURN(cudaEventRecord(t->start, 0));
    return SL_OK;
}

sl_status sl_event_timer_stop(sl_event_timer *t, double *ms)
{
    float elapsed = 0.0f;
    SL_CUDA_RETURN(cudaEventRecord(t->stop, 0));
    SL_CUDA_RETURN(cudaEventSynchronize(t->stop));
    SL_CUDA_RETURN(cudaEventElapsedTime(&elapsed, t->start, t->stop));
    *ms = elapsed;
    return SL_OK;
}

sl_status sl_launch_timed(const char *what, sl_launch_fn launch, void *ctx, double *kernel_ms)
{
    sl_event_timer timer = {NULL, NULL};
    sl_status st = sl_event_timer_create(&timer);
    if (st == SL_OK) st = sl_event_timer_start(&timer);
    if (st != SL_OK) goto cleanup;
    SL_LAUNCH_CHECK_GOTO(launch(ctx), what, st, cleanup);
    st = sl_event_timer_stop(&timer, kernel_ms);
cleanup:
    sl_event_timer_destroy(&timer);
    return st;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sl_status sl_time_repeat(sl_timed_fn fn, void *ctx, int warmup, int runs, sl_stats *stats)
{
    if (!fn) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_time_repeat: fn is NULL");
    sl_status checked = sl_check_host_ptr("sl_time_repeat", "stats", stats);
    if (checked != SL_OK) return checked;
    if (runs < 1 || runs > 1000)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_time_repeat: runs = %d, must be 1..1000", runs);
    if (warmup < 0)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_time_repeat: warmup = %d, must be >= 0", warmup);
    double times[1000];
    for (int i = 0; i < warmup; i++) {
        sl_status st = fn(ctx, &times[0]);
        if (st != SL_OK) return st;
    }
    for (int i = 0; i < runs; i++) {
        sl_status st = fn(ctx, &times[i]);
        if (st != SL_OK) return st;
    }
    qsort(times, (size_t)runs, sizeof times[0], compare_double);
    stats->runs = runs;
    stats->min_ms = times[0];
    stats->max_ms = times[runs - 1];
    stats->median_ms = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
    return SL_OK;
}
