/* simtlab host library — the modelled SIMT counters around a call (see
 * simtlab/core.h); the backend's side is in host/backend.c. */
#include "sl_internal.h"

sl_status sl_modelled_run(sl_status (*run)(void *ctx), void *ctx, sl_modelled *out)
{
    if (!run) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_modelled_run: run is NULL");
    sl_status checked = sl_check_host_ptr("sl_modelled_run", "out", out);
    if (checked != SL_OK) return checked;
    sl_status st = sl_modelled_begin();
    if (st != SL_OK) return st;
    sl_status ran = run(ctx);
    if (ran != SL_OK) {
        sl_error_hold(); /* the call's own failure is the news */
        sl_modelled_end(out);
        sl_error_release();
        return ran;
    }
    return sl_modelled_end(out);
}

double sl_modelled_per_request(unsigned long long count, unsigned long long requests)
{
    return requests ? (double)count / (double)requests : 0.0;
}
