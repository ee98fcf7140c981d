/* simtlab — chapter 07: errors and debugging. Each case makes one mistake
 * students make, on purpose, and reports it the way the library reports any
 * failure: a status, and one line in sl_last_error() with the CUDA error's
 * name and text, where it happened, the emulator's explanation (in the _emu
 * build) and a hint. examples/07_errors.c runs them one at a time;
 * tutorial/07-errors-and-debugging.md explains what each says. */
#ifndef SIMTLAB_07_ERRORS_H
#define SIMTLAB_07_ERRORS_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sl_errors_case {
    SL_ERRORS_ASSERT = 0, /* a device-side assert() fails */
    SL_ERRORS_OOB,        /* a kernel without `if (i < n)` writes past its buffer */
    SL_ERRORS_OOM,        /* cudaMalloc of more than the device has */
    SL_ERRORS_CONFIG,     /* a launch of 2048 threads per block */
    SL_ERRORS_RESOURCES,  /* a launch of 1024 threads of a kernel that needs too many registers */
    SL_ERRORS_NOIMAGE,    /* a kernel built for another GPU's architecture */
    SL_ERRORS_HOSTDEREF,  /* a device pointer handed to host code */
    SL_ERRORS_RACE,       /* shared memory read without the __syncthreads() that orders it */
    SL_ERRORS_LEAK,       /* a device buffer never freed */
    SL_ERRORS_CASE_COUNT
} sl_errors_case;

/* "assert", "oob", "oom", "config", "resources", "noimage", "hostderef",
 * "race", "leak"; NULL outside the enum. */
const char *sl_errors_case_name(sl_errors_case c);
/* The mistake, in one sentence; NULL outside the enum. */
const char *sl_errors_case_mistake(sl_errors_case c);
/* The case called `name`; SL_ERR_INVALID_ARGUMENT quoting it and listing
 * the names otherwise. */
sl_status sl_errors_case_parse(const char *name, sl_errors_case *out);

typedef struct sl_errors_outcome {
    int cuda_error;          /* the cudaError_t the failing call returned; 0 when none failed */
    const char *reported_by; /* which call returned it: "the launch", "cudaDeviceSynchronize",
                              * "cudaMalloc", ...; "" when none did */
    int sticky;              /* 1 when a later, unrelated call (cudaMalloc of 4 bytes) failed
                              * too: the context is unusable until the process ends */
    size_t wrong;            /* SL_ERRORS_RACE: output elements that differ from the reference */
    size_t leaked_bytes;     /* SL_ERRORS_LEAK: bytes left allocated on purpose */
    int regs_per_thread;     /* SL_ERRORS_RESOURCES: cudaFuncGetAttributes' numRegs (0: not known) */
    int max_block;           /* SL_ERRORS_RESOURCES: the most threads per block that kernel can launch with */
} sl_errors_outcome;

/* Makes the mistake of case `c` with every CUDA call checked, and returns
 * the status of the first check that failed (sl_last_error() says why):
 * SL_ERR_CUDA for a CUDA error, SL_ERR_INVALID_ARGUMENT for the device
 * pointer the library refuses to hand to host code. The cases a backend
 * cannot show return SL_ERR_UNSUPPORTED with the reason (the emulator
 * counts no registers and has no kernel images; a GPU may not fault on a
 * small overrun: SL_OK and cuda_error 0). SL_ERRORS_LEAK leaves one
 * 4096-byte buffer allocated and returns SL_OK: sl_alloc_report_leaks()
 * then lists it. A case whose error is sticky leaves the process unable
 * to use the device: run one such case per process. */
sl_status sl_errors_run(sl_errors_case c, sl_errors_outcome *out);

/* SL_OK when host code may read `ptr` (host memory, pinned or not, or
 * managed memory); SL_ERR_INVALID_ARGUMENT naming `name` when it is device
 * memory, which host code must copy (sl_copy_to_host) instead of reading. */
sl_status sl_errors_check_host_readable(const void *ptr, const char *name);

/* Whether an image built for architecture `sm` (compute capability x 10,
 * e.g. 90) runs on a GPU of compute capability major.minor: machine code
 * (ptx = 0) needs the same major version and a minor version >= its own;
 * PTX (ptx = 1) runs on any capability >= its own (the driver compiles it
 * when the program starts). 1 or 0; 0 too for what is not an architecture
 * (sm < 10), a flag (ptx other than 0 or 1) or a capability (major < 1, minor
 * outside 0..9): it returns the answer, so it cannot return a status. */
int sl_errors_image_runs(int sm, int ptx, int major, int minor);

#ifdef __cplusplus
}
#endif

#endif
