/* simtlab host library — internals shared by the files of host/ (not installed).
 *
 * The core's own: it includes simtlab/core.h and nothing of any chapter, so a
 * core file (alloc.c, status.c, ...) cannot come to depend on one. Each
 * chapter's host file includes its own chapter's header itself
 * (tests/core_layers.sh checks both). */
#ifndef SIMTLAB_SL_INTERNAL_H
#define SIMTLAB_SL_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stdarg.h>

#include "simtlab/core.h"

/* Records `status` with a printf-style message as this thread's last error
 * and returns `status`, so that `return sl_fail(...)` reads naturally. */
sl_status sl_fail(sl_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Ends `text` (a buffer of `cap` bytes that a message overflowed) at the last
 * whole word that leaves room for `marker`, then the marker: a message a
 * student reads is never cut mid-word without saying so. */
void sl_cut_at_word(char *text, size_t cap, const char *marker);

/* While held (nesting counts), sl_fail and sl_fail_cuda return their status
 * but leave the last error's message alone: cleanup after a failure must
 * not overwrite the message of the error that caused it. */
void sl_error_hold(void);
void sl_error_release(void);

/* Frees up to three tracked device buffers (NULL is fine), all of them even
 * after a failure. The first error wins: when `first` is already a failure
 * it is returned and its message kept; otherwise the first free's error. */
sl_status sl_free_device_all(sl_status first, void *a, void *b, void *c);

/* The words every "no driver / no device" message starts with (the tests'
 * skip reason and scripts/skipped-tests.sh use the same words). */
#define SL_NO_GPU_TEXT "no usable CUDA GPU on this machine (no driver / no device)"

/* Records a failed CUDA call: the call's text, file:line, the error's name
 * and string, and the hint for it. Returns SL_ERR_NO_DEVICE for "no driver /
 * no device" errors, whose message starts with SL_NO_GPU_TEXT and ends with
 * the call and the raw code in parentheses; SL_ERR_CUDA otherwise. */
sl_status sl_fail_cuda(cudaError_t err, const char *call, const char *file, int line);

/* Records a failed launch of `what` (a kernel's name or "k<<<g, b>>>"): refused
 * by the launch itself (at_sync 0; cudaErrorInvalidValue gets the hint for a
 * bad configuration), or reported by the cudaDeviceSynchronize that followed
 * it (at_sync 1), whose message then reads "cudaDeviceSynchronize() after
 * <what>", since the error belongs to the kernel, not to the wait. */
sl_status sl_fail_launch(cudaError_t err, const char *what, int at_sync, const char *file, int line);

/* Checks a CUDA runtime call; on failure records it, sets `status` and jumps
 * to `label` (the function's cleanup), so buffers are always freed. */
#define SL_CUDA_GOTO(call, status, label)                                    \
    do {                                                                     \
        cudaError_t sl_err_ = (call);                                        \
        if (sl_err_ != cudaSuccess) {                                        \
            (status) = sl_fail_cuda(sl_err_, #call, __FILE__, __LINE__);     \
            goto label;                                                      \
        }                                                                    \
    } while (0)

/* Checks a CUDA runtime call in a function with nothing to clean up. */
#define SL_CUDA_RETURN(call)                                                 \
    do {                                                                     \
        cudaError_t sl_err_ = (call);                                        \
        if (sl_err_ != cudaSuccess)                                          \
            return sl_fail_cuda(sl_err_, #call, __FILE__, __LINE__);         \
    } while (0)

/* Drops an error that an earlier call left in the runtime's last error and
 * nobody collected (the caller's own unchecked call, say), so that the
 * launch that follows, whose launcher returns cudaGetLastError(), does not
 * report it as its own. A sticky error (a fault: the context is unusable)
 * is not dropped: CUDA keeps reporting it, and so does the launch. The
 * library's own failures never leave one behind (sl_fail_cuda collects
 * it). */
void sl_drop_stale_error(void);

/* After a launch: cudaGetLastError catches a bad configuration at once,
 * cudaDeviceSynchronize catches faults while the kernel ran. A stale error
 * from before is dropped first (sl_drop_stale_error). */
#define SL_LAUNCH_CHECK_GOTO(launch_err, what, status, label)                \
    do {                                                                     \
        sl_drop_stale_error();                                               \
        cudaError_t sl_err_ = (launch_err);                                  \
        if (sl_err_ == cudaSuccess) sl_err_ = cudaGetLastError();            \
        if (sl_err_ != cudaSuccess) {                                        \
            (status) = sl_fail_launch(sl_err_, what, 0, __FILE__, __LINE__); \
            goto label;                                                      \
        }                                                                    \
        sl_err_ = cudaDeviceSynchronize();                                   \
        if (sl_err_ != cudaSuccess) {                                        \
            (status) = sl_fail_launch(sl_err_, what, 1, __FILE__, __LINE__); \
            goto label;                                                      \
        }                                                                    \
    } while (0)

/* Names the NULL argument in the message, as every entry point must. */
#define SL_NULL_CHECK(ptr, fn)                                                            \
    do {                                                                                  \
        if (!(ptr)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, #ptr); \
    } while (0)

/* n elements of `elem` bytes: SL_ERR_OVERFLOW naming `arg` when n * elem
 * does not fit in size_t. */
sl_status sl_checked_bytes(size_t n, size_t elem, const char *arg, size_t *bytes);

/* A `_device` entry point's buffer argument: `ptr` (named `name` in the
 * message of function `fn`) must be device (or managed) memory, as
 * cudaPointerGetAttributes sees it, and aligned to `align` bytes (the
 * element size its kernels load). A host array, or a device pointer offset
 * into the middle of an element, is SL_ERR_INVALID_ARGUMENT naming it. */
sl_status sl_check_device_buffer(const char *fn, const char *name, const void *ptr, size_t align);

/* A host-side argument: `ptr` (named `name` in the message of function
 * `fn`) is memory that host code reads or writes. NULL, device memory
 * (cudaMalloc), and a device buffer that was freed are
 * SL_ERR_INVALID_ARGUMENT naming it; host, pinned and managed memory pass.
 * (Without a usable device nothing can be device memory: it passes.)
 * sl_check_host_opt is the same for an optional argument (NULL passes). */
sl_status sl_check_host_ptr(const char *fn, const char *name, const void *ptr);
sl_status sl_check_host_opt(const char *fn, const char *name, const void *ptr);

/* Aliasing. sl_check_disjoint: the byte ranges [a, a + a_bytes) and
 * [b, b + b_bytes) must not share a byte (an output that is also an input
 * of a matrix product, a transpose or a conversion). sl_check_same_or_disjoint:
 * an elementwise output may be exactly its input (out == x: element i is
 * read and written by the same step), but not shifted into it. Empty
 * ranges pass. SL_ERR_INVALID_ARGUMENT naming both arguments otherwise. */
sl_status sl_check_disjoint(const char *fn, const char *a_name, const void *a, size_t a_bytes, const char *b_name,
                            const void *b, size_t b_bytes);
sl_status sl_check_same_or_disjoint(const char *fn, const char *a_name, const void *a, const char *b_name,
                                    const void *b, size_t bytes);

/* When `ptr` lies in a device buffer that sl_alloc_device made and
 * sl_free_device has since freed (and no live buffer holds it now), writes
 * what it was ("[offset N of ]the B-byte device buffer allocated at F:L and
 * freed at F:L") into buf and returns 1; else returns 0. */
int sl_alloc_describe_freed(const void *ptr, char *buf, size_t size);

/* OpenMP loops count in long long: SL_ERR_OVERFLOW naming `arg` when n does
 * not fit. */
sl_status sl_check_omp_count(size_t n, const char *arg);

/* Resolves opts->block (0 = `default_block`) and rejects what no GPU can run
 * (negative, above 1024) without touching the device. */
sl_status sl_check_block(int block, int default_block, int *resolved);
/* Checks a resolved block size against the device's own limit. */
sl_status sl_check_block_on_device(int block);

/* Validates opts->version against 1..count (0 = best). */
sl_status sl_check_version(int version, int count, int best, const char *chapter, int *resolved);

/* Device work timed with a pair of CUDA events. */
typedef struct sl_event_timer {
    cudaEvent_t start, stop;
} sl_event_timer;

sl_status sl_event_timer_create(sl_event_timer *t);

/* Every launch a kernel call needs, made by `launch(ctx)` (which returns the
 * first launch's error without synchronizing), timed with a pair of events,
 * then checked (cudaGetLastError, and cudaDeviceSynchronize for faults while
 * it ran). `what` names the kernel in a failure's message. */
typedef cudaError_t (*sl_launch_fn)(void *ctx);
sl_status sl_launch_timed(const char *what, sl_launch_fn launch, void *ctx, double *kernel_ms);
void sl_event_timer_destroy(sl_event_timer *t);
sl_status sl_event_timer_start(sl_event_timer *t);
/* Records the stop event, waits for it, returns the elapsed milliseconds. */
sl_status sl_event_timer_stop(sl_event_timer *t, double *ms);

#endif
