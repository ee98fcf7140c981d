/* simtlab host library — the one seam between the two backends.
 *
 * The same host sources build twice: against the CUDA toolkit
 * (libsimtlab_cuda) and against the CPU emulator's headers (libsimtlab_emu,
 * where emu/include/cuda_runtime_api.h defines SIMTLAB_EMU). Host code that
 * must behave differently under the emulator asks this header, never
 * SIMTLAB_EMU itself; host/backend.c is the only file of host/ that tests
 * it. What differs:
 *   - the backend's name, and whether times are emulated (CPU) times;
 *   - the emulator's own explanation of the last failure (which thread, which
 *     allocation, which barrier), added to the error line;
 *   - CUB and other device libraries that ship only with the CUDA toolkit:
 *     SL_BACKEND_HAS_CUB is 0 in emulator builds, where the kernels/NN_*_vendor.cu files
 *     is not built and the chapter answers SL_ERR_UNSUPPORTED;
 *   - the emulator's modelled SIMT counters (sectors per request, bank
 *     conflicts), which the CUDA build does not have.
 * The kernels' side of the seam is kernels/common (PTX the emulator
 * implements in C++); the emulator's side is described in emu/README.md. */
#ifndef SIMTLAB_SL_BACKEND_H
#define SIMTLAB_SL_BACKEND_H

#include <cuda_runtime_api.h>

#include "simtlab/core.h"

#ifdef SIMTLAB_EMU
#define SL_BACKEND_HAS_CUB 0
#else
#define SL_BACKEND_HAS_CUB 1
#endif

/* The emulator's explanation of the last failed launch or call on this
 * thread; "" in the CUDA build, where the driver gives none. */
const char *sl_backend_diagnostic(void);
/* Forgets that explanation once it is in a message, so that it is not
 * quoted again under a later failure it does not belong to. */
void sl_backend_clear_diagnostic(void);

/* Where the backend itself knows that `ptr` lies in device memory that was
 * freed (the emulator keeps freed ranges in quarantine and knows where each
 * was allocated): writes what it was ("device allocation #3 (4000 bytes,
 * allocated at F:L), which cudaFree has released") into buf and returns 1.
 * 0 where it does not know (always in the CUDA build). */
int sl_backend_describe_freed(const void *ptr, char *buf, size_t size);

/* The modelled SIMT counters (simtlab/core.h's sl_modelled_*) are the
 * emulator's (emu/include/simtlab_emu/profile.h); host/backend.c reaches
 * them, and answers SL_ERR_UNSUPPORTED in the CUDA build. */

#endif
