/* simtlab host library — the per-phase report every wrapper fills. */
#include <string.h>

#include "sl_internal.h"

void sl_report_begin(sl_report *r, int version, int block)
{
    if (!r || sl_check_host_ptr("sl_report_begin", "report", r) != SL_OK) return;
    memset(r, 0, sizeof *r);
    r->version = version;
    r->block = block;
    r->emulated = sl_backend_is_emulator();
}

const char *sl_phase_name(sl_phase phase)
{
    static const char *const names[SL_PHASE_COUNT] = {
        "cudaMalloc", "copy host->device", "kernel", "copy device->host", "cudaFree"};
    return (unsigned)phase < SL_PHASE_COUNT ? names[phase] : "(unknown phase)";
}

void sl_report_print(const sl_report *r, FILE *out)
{
    if (!r || !out || sl_check_host_ptr("sl_report_print", "report", r) != SL_OK ||
        sl_check_host_ptr("sl_report_print", "out", out) != SL_OK)
        return;
    const char *clock = r->emulated ? "emulated (CPU) ms" : "GPU ms";
    fprintf(out, "  %-20s %12s\n", "phase", clock);
    for (int p = 0; p < SL_PHASE_COUNT; p++)
        fprintf(out, "  %-20s %12.3f\n", sl_phase_name((sl_phase)p), r->phase_ms[p]);
    fprintf(out, "  %-20s %12.3f\n", "total", r->total_ms);
}
