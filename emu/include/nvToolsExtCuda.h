/* simtlab CPU emulator — <nvToolsExtCuda.h>: the older include path of the same
 * NVTX API, nvtx3/nvToolsExtCuda.h (no tool attached: every call does nothing). */
#include "nvtx3/nvToolsExtCuda.h"
