/* simtlab host library — the modelled SIMT counters around a call (see
 * simtlab/core.h); the backend's side is in host/backend.c. */
#include "sl_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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

int sl_modelled_open(void)
{
    if (sl_modelled_available() != SL_OK || sl_modelled_begin() != SL_OK) {
        sl_clear_error(); /* not modelling is not this program's failure */
        return 0;
    }
    return 1;
}

void sl_modelled_print(int opened, int indent_spaces)
{
    if (!opened) return;
    char indent[33];
    int w = indent_spaces < 0 ? 0 : indent_spaces > 32 ? 32 : indent_spaces;
    memset(indent, ' ', (size_t)w);
    indent[w] = '\0';
    sl_modelled m;
    sl_status st = sl_modelled_end(&m);
    if (st != SL_OK) {
        printf("%skernels modelled: no figure (%s)\n", indent, sl_last_error());
        return;
    }
    char gpu[sizeof m.model_gpu];
    size_t i = 0;
    for (; m.model_gpu[i] && i + 1 < sizeof gpu; i++) gpu[i] = (char)toupper((unsigned char)m.model_gpu[i]);
    gpu[i] = '\0';
    if (m.model_us < 0)
        printf("%skernels modelled on the %s: %s\n", indent, gpu, m.model_note);
    else
        printf("%skernels modelled on the %s: %.4f ms, %s (the emulator's timing model, not measured;\n"
               "%s  instruction counts: %s)\n",
               indent, gpu, m.model_us / 1000.0, m.model_note, indent, m.model_counts);
}
