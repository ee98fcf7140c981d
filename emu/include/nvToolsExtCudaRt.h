/* simtlab CPU emulator — <nvToolsExtCudaRt.h>: the older include path of the same
 * NVTX API, nvtx3/nvToolsExtCudaRt.h (no tool attached: every call does nothing). */
#include "nvtx3/nvToolsExtCudaRt.h"
