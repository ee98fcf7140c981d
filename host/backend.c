/* simtlab host library — the backend seam (see sl_backend.h): the only
 * file of host/ that asks which backend it is built for. */
#include "sl_backend.h"
#include "sl_internal.h"

#include <stdio.h>
#include <string.h>

#ifdef SIMTLAB_EMU
#include <simtlab_emu/profile.h>
/* emu/src/runtime/memory.cpp: for a pointer into a device allocation that
 * cudaFree released and the emulator still holds in quarantine, what it was
 * ("device allocation #3 (...)"), and 1; else 0. A simtlab extension like
 * those <cuda_runtime_api.h> declares. */
int simtlab_emu_describe_freed(const void *ptr, char *out, size_t n);
#endif

const char *sl_backend_name(void) { return sl_backend_is_emulator() ? "emulator" : "cuda"; }

int sl_backend_is_emulator(void)
{
#ifdef SIMTLAB_EMU
    return 1;
#else
    return 0;
#endif
}

const char *sl_backend_diagnostic(void)
{
#ifdef SIMTLAB_EMU
    return simtlab_emu_last_diagnostic();
#else
    return "";
#endif
}

void sl_backend_clear_diagnostic(void)
{
#ifdef SIMTLAB_EMU
    simtlab_emu_clear_diagnostic();
#endif
}

int sl_backend_describe_freed(const void *ptr, char *buf, size_t size)
{
#ifdef SIMTLAB_EMU
    return simtlab_emu_describe_freed(ptr, buf, size);
#else
    (void)ptr, (void)buf, (void)size;
    return 0;
#endif
}

sl_status sl_modelled_available(void)
{
#ifdef SIMTLAB_EMU
    if (!simtlab_emu_profile_available())
        return sl_fail(SL_ERR_UNSUPPORTED, "the emulator's SIMT counters: this program's kernels were compiled "
                       "without their instrumentation (the project builds them with it unless configured with "
                       "-DSIMTLAB_EMU_CHAPTER_COUNTERS=OFF; slcc: --profile)");
    return SL_OK;
#else
    return sl_fail(SL_ERR_UNSUPPORTED, "modelled counters come from the CPU emulator (the _emu build); on a GPU, "
                   "Nsight Compute measures the real ones");
#endif
}

sl_status sl_modelled_begin(void)
{
    sl_status st = sl_modelled_available();
#ifdef SIMTLAB_EMU
    if (st == SL_OK) simtlab_emu_profile_begin();
#endif
    return st;
}

#ifdef SIMTLAB_EMU
/* The timing model's figures for the window sl_modelled_begin opened. */
static void sl_backend_model_fill(sl_modelled *out)
{
    out->model_us = -1.0;
    simtlab_emu_model_time t;
    if (simtlab_emu_model_total(&t) != 0) {
        snprintf(out->model_note, sizeof out->model_note, "not modelled: no launch was counted");
        return;
    }
    snprintf(out->model_gpu, sizeof out->model_gpu, "%s", t.gpu);
    const char *counts = t.counts; /* "instruction counts: <unit>" */
    if (strncmp(counts, "instruction counts: ", 20) == 0) counts += 20;
    snprintf(out->model_counts, sizeof out->model_counts, "%.*s", (int)sizeof out->model_counts - 1, counts);
    if (!t.modelled) {
        snprintf(out->model_note, sizeof out->model_note, "%s", t.not_modelled);
        return;
    }
    out->model_us = t.total_us;
    snprintf(out->model_note, sizeof out->model_note, "%s-bound", t.bound);
}
#endif

sl_status sl_modelled_end(sl_modelled *out)
{
    sl_status st = sl_check_host_ptr("sl_modelled_end", "out", out);
    if (st != SL_OK) return st;
    memset(out, 0, sizeof *out);
    out->model_us = -1.0; /* not modelled until the model says otherwise */
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_end();
    simtlab_emu_profile_figures f;
    if (simtlab_emu_profile_window(&f) != 0)
        return sl_fail(SL_ERR_UNSUPPORTED, "the emulator's SIMT counters: no launch was counted%s%s",
                       simtlab_emu_profile_why()[0] ? ": " : "", simtlab_emu_profile_why());
    out->warps = f.warps;
    out->inst_executed = f.inst_executed, out->thread_inst_executed = f.thread_inst_executed;
    out->simt_efficiency = f.simt_efficiency, out->branches_diverged = f.branches_diverged;
    out->gld_requests = f.gld_requests, out->gld_sectors = f.gld_sectors, out->gld_sectors_ideal = f.gld_sectors_ideal;
    out->gst_requests = f.gst_requests, out->gst_sectors = f.gst_sectors, out->gst_sectors_ideal = f.gst_sectors_ideal;
    out->shld_requests = f.shld_requests, out->shld_bank_conflicts = f.shld_bank_conflicts;
    out->shst_requests = f.shst_requests, out->shst_bank_conflicts = f.shst_bank_conflicts;
    out->atomics = f.global_atomics + f.shared_atomics, out->barriers = f.barriers;
    sl_backend_model_fill(out);
    return f.complete ? SL_OK : sl_fail(SL_ERR_CUDA, "a counted launch failed: its counters are incomplete");
#else
    return sl_fail(SL_ERR_UNSUPPORTED, "modelled counters come from the CPU emulator (the _emu build)");
#endif
}
