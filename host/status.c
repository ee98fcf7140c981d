/* simtlab host library — status codes, the last-error line, and the table
 * that turns a CUDA error into advice. Errors are part of the lesson: a
 * student who sees "cudaErrorInvalidConfiguration" should also read what
 * usually causes it and what to change. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sl_backend.h"
#include "sl_internal.h"

/* Room for the longest message the library composes (a launch failure quotes
 * the emulator's diagnostic, which names up to eight source paths) at any
 * checkout path a student is likely to have. A longer one is cut at a word
 * and ends with cut_marker, never mid-word (sl_fail). */
enum { last_error_capacity = 8192 };
static const char cut_marker[] = " [... message cut]";
static _Thread_local char last_error[last_error_capacity];
static _Thread_local int hold_depth;

void sl_error_hold(void) { hold_depth++; }

void sl_error_release(void)
{
    if (hold_depth > 0) hold_depth--;
}

const char *sl_status_name(sl_status status)
{
    switch (status) {
    case SL_OK: return "SL_OK";
    case SL_ERR_INVALID_ARGUMENT: return "SL_ERR_INVALID_ARGUMENT";
    case SL_ERR_OVERFLOW: return "SL_ERR_OVERFLOW";
    case SL_ERR_NO_DEVICE: return "SL_ERR_NO_DEVICE";
    case SL_ERR_CUDA: return "SL_ERR_CUDA";
    case SL_ERR_CUBLAS: return "SL_ERR_CUBLAS";
    case SL_ERR_HOST_MEMORY: return "SL_ERR_HOST_MEMORY";
    case SL_ERR_UNSUPPORTED: return "SL_ERR_UNSUPPORTED";
    }
    return "SL_ERR_(unknown)";
}

const char *sl_last_error(void) { return last_error; }

void sl_clear_error(void) { last_error[0] = '\0'; }

sl_status sl_fail(sl_status status, const char *fmt, ...)
{
    if (hold_depth > 0) return status;
    va_list ap;
    va_start(ap, fmt);
    int needed = vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    if (needed >= 0 && (size_t)needed >= sizeof last_error)
        sl_cut_at_word(last_error, sizeof last_error, cut_marker);
    return status;
}

void sl_cut_at_word(char *text, size_t cap, const char *marker)
{
    size_t mlen = strlen(marker);
    if (cap == 0 || mlen + 1 > cap) return;
    /* the last space that leaves room for the marker and the terminator */
    size_t end = strlen(text);
    if (end > cap - 1 - mlen) end = cap - 1 - mlen;
    size_t cut = end;
    while (cut > 0 && text[cut] != ' ') cut--;
    if (cut == 0) cut = end; /* one word longer than the buffer: cut it */
    /* never split a UTF-8 sequence (the messages use an em dash) */
    while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80) cut--;
    memcpy(text + cut, marker, mlen + 1);
}

struct hint {
    int error;
    const char *text;
};

/* Causes and fixes, from the CUDA Runtime API's descriptions of each code
 * and from what goes wrong most often in a course. */
static const struct hint hints[] = {
    {cudaErrorInsufficientDriver,
     "run the emulator build instead (build/bin/*_emu; `make test` runs every test under it). "
     "Only if this machine does have an NVIDIA GPU: its driver is missing or older than this "
     "CUDA runtime: nvidia-smi shows the CUDA version the driver supports"},
    {cudaErrorNoDevice,
     "run the emulator build instead (build/bin/*_emu; `make test` runs every test under it). "
     "Only if this machine does have an NVIDIA GPU: the driver does not see it: check "
     "nvidia-smi and CUDA_VISIBLE_DEVICES"},
    {cudaErrorNoKernelImageForDevice,
     "this binary carries no machine code or PTX for this GPU's compute capability "
     "(make doctor shows both): rebuild with cmake -B build -DCMAKE_CUDA_ARCHITECTURES=native"},
    {cudaErrorMemoryAllocation,
     "the device ran out of memory: free buffers you no longer need, or process the data in "
     "smaller pieces (cudaMemGetInfo tells what is free)"},
    {cudaErrorIllegalAddress,
     "a kernel read or wrote outside its allocations (a missing `if (i < n)`, an index "
     "computed in int that overflowed, or a host pointer passed to a kernel); the context is "
     "now unusable: restart the process. Under the emulator the message above names the "
     "thread and the allocation; on a GPU run compute-sanitizer"},
    {cudaErrorAssert,
     "a device-side assert() failed; the error is sticky: every later call fails until the "
     "process restarts its CUDA context"},
    {cudaErrorInvalidConfiguration,
     "the launch asked for more than the device allows: at most 1024 threads per block "
     "(blockDim.x*y*z), no zero dimensions, grid.y and grid.z at most 65535, and no more "
     "dynamic shared memory than the per-block limit"},
    {cudaErrorLaunchOutOfResources,
     "the kernel needs more registers per block than the SM has: use fewer threads per "
     "block, or __launch_bounds__ so the compiler limits registers (check with "
     "nvcc -Xptxas -v)"},
    {cudaErrorInvalidValue,
     "an argument is out of range: a NULL or too-large size, a host pointer where a device "
     "pointer belongs, or a cudaMemcpy kind that does not match the pointers (dst comes first)"},
    {cudaErrorInvalidDevicePointer,
     "the pointer is not a device allocation: pass what cudaMalloc returned"},
    {cudaErrorInvalidMemcpyDirection, "the cudaMemcpyKind does not match the two pointers"},
    {cudaErrorLaunchFailure,
     "the kernel failed while it ran (on the emulator: see its message above); the context "
     "is unusable: restart the process"},
    {cudaErrorIllegalInstruction,
     "the kernel executed an invalid instruction, often a warp-synchronous operation "
     "(__shfl_sync, __syncwarp) whose mask names lanes that did not take part"},
    {cudaErrorMisalignedAddress,
     "a load or store used an address not aligned to its size (e.g. a float4 access at an "
     "address that is not a multiple of 16)"},
    {cudaErrorInvalidDevice, "the device number is not below cudaGetDeviceCount()"},
    {cudaErrorInvalidResourceHandle, "a stream or event was used after it was destroyed, or never created"},
};

const char *sl_cuda_error_hint(int cuda_error)
{
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (hints[i].error == cuda_error) return hints[i].text;
    return NULL;
}

static int is_no_device(cudaError_t err)
{
    return err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice;
}

/* The failure is now reported: collect it from the runtime, so that the
 * next valid call (whose launch returns cudaGetLastError()) does not report
 * it again as its own, and forget the emulator's text now quoted. A sticky
 * error stays: CUDA keeps returning it from every call. */
static sl_status handled(sl_status st)
{
    sl_drop_stale_error();
    sl_backend_clear_diagnostic();
    return st;
}

static sl_status fail_cuda_hinted(cudaError_t err, const char *call, const char *hint, const char *file,
                                  int line)
{
    if (is_no_device(err))
        /* What a student on a machine without a GPU must read first is that,
         * not the driver's wording ("CUDA driver version is insufficient");
         * the call and the raw code come last, for whoever debugs a driver. */
        return handled(sl_fail(SL_ERR_NO_DEVICE, "%s: %s (%s at %s:%d: %s, %s)", SL_NO_GPU_TEXT, hint, call, file,
                               line, cudaGetErrorName(err), cudaGetErrorString(err)));
    const char *diag = sl_backend_diagnostic();
    return handled(sl_fail(SL_ERR_CUDA, "%s failed at %s:%d: %s (%s)%s%s%s%s", call, file, line,
                           cudaGetErrorName(err), cudaGetErrorString(err), diag[0] ? " — emulator: " : "", diag,
                           hint ? " — hint: " : "", hint ? hint : ""));
}

sl_status sl_fail_cuda(cudaError_t err, const char *call, const char *file, int line)
{
    return fail_cuda_hinted(err, call, sl_cuda_error_hint((int)err), file, line);
}

/* CUDA 13 refuses a bad launch configuration with cudaErrorInvalidValue
 * (measured on an NVIDIA H200, CUDA 13.0, driver 580.159.04, 2026-12-04),
 * whose general hint speaks of sizes and pointers: from a launch, the
 * configuration is what was out of range. */
static const char launch_invalid_value_hint[] =
    "the launch asked for more than the device allows (CUDA 13 reports it as cudaErrorInvalidValue, "
    "older versions as cudaErrorInvalidConfiguration): at most 1024 threads per block "
    "(blockDim.x*y*z), no zero dimensions, grid.y and grid.z at most 65535, and no more dynamic "
    "shared memory than the per-block limit";

sl_status sl_fail_launch(cudaError_t err, const char *what, int at_sync, const char *file, int line)
{
    if (!what) what = "a kernel launch";
    if (at_sync) {
        char call[256];
        snprintf(call, sizeof call, "cudaDeviceSynchronize() after %s", what);
        return sl_fail_cuda(err, call, file, line);
    }
    return fail_cuda_hinted(err, what, err == cudaErrorInvalidValue ? launch_invalid_value_hint
                                                                    : sl_cuda_error_hint((int)err),
                            file, line);
}

sl_status sl_checked_bytes(size_t n, size_t elem, const char *arg, size_t *bytes)
{
    if (elem != 0 && n > SIZE_MAX / elem)
        return sl_fail(SL_ERR_OVERFLOW, "%s = %zu elements of %zu bytes overflows size_t", arg, n,
                       elem);
    *bytes = n * elem;
    return SL_OK;
}

sl_status sl_check_omp_count(size_t n, const char *arg)
{
    if (n > (size_t)LLONG_MAX)
        return sl_fail(SL_ERR_OVERFLOW, "%s = %zu: the OpenMP loop counts in long long, which ends at %lld", arg, n,
                       LLONG_MAX);
    return SL_OK;
}

sl_status sl_check_version(int version, int count, int best, const char *chapter, int *resolved)
{
    if (version == 0) {
        *resolved = best;
        return SL_OK;
    }
    if (version < 1 || version > count)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "opts->version = %d: %s has versions 1..%d (0 = best)",
                       version, chapter, count);
    *resolved = version;
    return SL_OK;
}

sl_status sl_check_block(int block, int default_block, int *resolved)
{
    if (block == 0) block = default_block;
    /* 1024 is the limit of every GPU since compute capability 2.0; checking it
     * here rejects bad input before a CUDA context exists. */
    if (block < 0 || block > 1024)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: threads per block must be 1..1024 (0 = default %d)", block,
                       default_block);
    *resolved = block;
    return SL_OK;
}

sl_status sl_check_block_on_device(int block)
{
    int device = 0, limit = 0;
    SL_CUDA_RETURN(cudaGetDevice(&device));
    SL_CUDA_RETURN(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxThreadsPerBlock, device));
    if (block > limit)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "opts->block = %d: device %d allows at most %d threads per block", block,
                       device, limit);
    return SL_OK;
}
