/* simtlab CPU emulator — <nvToolsExt.h>: the older include path of the same
 * NVTX API, nvtx3/nvToolsExt.h (no tool attached: every call does nothing). */
#include "nvtx3/nvToolsExt.h"
