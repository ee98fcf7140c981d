/* simtlab host library — the backend seam (see sl_backend.h): the only
 * file of host/ that asks which backend it is built for. */
#include "sl_backend.h"
#include "sl_internal.h"

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
