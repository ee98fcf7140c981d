/* simtlab host library — chapter 07: errors and debugging.
 *
 * Each case of sl_errors_run makes one mistake on purpose and checks every
 * CUDA call the way the rest of the library does (sl_fail_cuda: the error's
 * name and text, file:line, the emulator's explanation, the hint). It checks
 * a launch in two steps, and records which one reported the error, because
 * that is the lesson: the launch (with cudaGetLastError) reports what was
 * wrong with the launch itself; a fault while the kernel ran is reported by
 * the next call that waits for it (cudaDeviceSynchronize). */
#include <string.h>
#include "../kernels/07_errors.h"
#include "sl_internal.h"
#include "simtlab/07_errors.h"

/* The architecture kernels/07_errors_noimage.cu is built for in the CUDA
 * build (CMakeLists.txt passes it; 121 is the newest nvcc 13.0 knows). */
#ifndef SL_07_WRONG_ARCH
#define SL_07_WRONG_ARCH 121
#endif

static const struct {
    const char *name, *mistake;
} cases[SL_ERRORS_CASE_COUNT] = {
    {"assert", "a kernel asserts x[i] >= 0, and x[617] is -1"},
    {"oob", "a kernel without `if (i < n)` scales n = 1000 floats with 4 blocks of 256 threads: "
            "threads 1000-1023 read and write past the end"},
    {"oom", "one cudaMalloc asks for 1 GiB more than the device's whole memory"},
    {"config", "a kernel is launched with 2048 threads per block (the limit is 1024)"},
    {"resources", "a kernel that needs more than 64 registers per thread is launched with 1024 threads "
                  "per block (65536 registers per SM)"},
    {"noimage", "a kernel built only for another GPU's architecture is launched"},
    {"hostderef", "host code reads a buffer that cudaMalloc returned (device memory)"},
    {"race", "a block reverses its piece of an array through shared memory without the __syncthreads() "
             "between the writes and the reads"},
    {"leak", "a device buffer is allocated and never freed"},
};

const char *sl_errors_case_name(sl_errors_case c)
{
    return (unsigned)c < SL_ERRORS_CASE_COUNT ? cases[c].name : NULL;
}

const char *sl_errors_case_mistake(sl_errors_case c)
{
    return (unsigned)c < SL_ERRORS_CASE_COUNT ? cases[c].mistake : NULL;
}

sl_status sl_errors_case_parse(const char *name, sl_errors_case *out)
{
    sl_status st = sl_check_host_ptr("sl_errors_case_parse", "out", out);
    if (st == SL_OK) st = sl_check_host_opt("sl_errors_case_parse", "name", name);
    if (st != SL_OK) return st;
    for (int c = 0; name && c < SL_ERRORS_CASE_COUNT; c++)
        if (strcmp(name, cases[c].name) == 0) {
            *out = (sl_errors_case)c;
            return SL_OK;
        }
    return sl_fail(SL_ERR_INVALID_ARGUMENT,
                   "sl_errors_case_parse: name = \"%s\" is not a case: assert, oob, oom, config, resources, "
                   "noimage, hostderef, race or leak", name ? name : "(NULL)");
}

int sl_errors_image_runs(int sm, int ptx, int major, int minor)
{
    /* it returns the answer, not a status: what is not an architecture, a
     * flag or a capability runs nothing */
    if (sm < 10 || (ptx != 0 && ptx != 1) || major < 1 || minor < 0 || minor > 9) return 0;
    long long cc = (long long)major * 10 + minor; /* major * 10 overflows an int past 214748364 */
    if (ptx) return cc >= sm;
    return major == sm / 10 && minor >= sm % 10;
}

sl_status sl_errors_check_host_readable(const void *ptr, const char *name)
{
    if (!name) name = "ptr";
    if (!ptr) return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_errors_check_host_readable: %s is NULL", name);
    struct cudaPointerAttributes attr;
    cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
    if (err != cudaSuccess) return sl_fail_cuda(err, "cudaPointerGetAttributes", __FILE__, __LINE__);
    if (attr.type == cudaMemoryTypeDevice)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s = %p is device memory (cudaPointerGetAttributes says cudaMemoryTypeDevice): host code "
                       "must not dereference it; copy it to host memory first, cudaMemcpy(host, %s, bytes, "
                       "cudaMemcpyDeviceToHost) (sl_copy_to_host)", name, ptr, name);
    return SL_OK;
}

/* ---- the two steps of a checked launch ------------------------------------ */
static sl_status check_launch(cudaError_t launch_err, const char *what, sl_errors_outcome *out)
{
    if (launch_err == cudaSuccess) launch_err = cudaGetLastError();
    if (launch_err != cudaSuccess) {
        out->cuda_error = (int)launch_err;
        out->reported_by = "the launch";
        return sl_fail_launch(launch_err, what, 0, __FILE__, __LINE__);
    }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        out->cuda_error = (int)err;
        out->reported_by = "cudaDeviceSynchronize";
        return sl_fail_launch(err, what, 1, __FILE__, __LINE__); /* "cudaDeviceSynchronize() after <what>" */
    }
    return SL_OK;
}

/* Is the context still usable? A sticky error makes every call fail. */
static int probe_sticky(void)
{
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, 4);
    if (err != cudaSuccess) return 1;
    cudaFree(p);
    return 0;
}

static sl_status upload(float **d_x, const float *h, size_t n)
{
    sl_status st = sl_alloc_device(d_x, n * sizeof(float));
    if (st == SL_OK) st = sl_copy_to_device(*d_x, h, n * sizeof(float));
    return st;
}

/* ---- the cases ---------------------------------------------------------------- */
static sl_status run_assert(sl_errors_outcome *out)
{
    enum { N = 1000 };
    float h[N], *d_x = NULL;
    for (int i = 0; i < N; i++) h[i] = (float)i;
    h[617] = -1.0f;
    sl_status st = upload(&d_x, h, N);
    if (st == SL_OK) st = check_launch(sl_errors_launch_assert(d_x, N, 256), "errors_assert_non_negative<<<4, 256>>>", out);
    if (st != SL_OK) out->sticky = probe_sticky();
    return sl_free_device_all(st, d_x, NULL, NULL);
}

static sl_status run_oob(sl_errors_outcome *out)
{
    enum { N = 1000 };
    float h[N], *d_x = NULL;
    for (int i = 0; i < N; i++) h[i] = 1.0f;
    sl_status st = upload(&d_x, h, N);
    if (st == SL_OK)
        st = check_launch(sl_errors_launch_unchecked_scale(d_x, N, 2.0f, 256), "errors_scale_unchecked<<<4, 256>>>", out);
    if (st != SL_OK) out->sticky = probe_sticky();
    return sl_free_device_all(st, d_x, NULL, NULL);
}

static sl_status run_oom(sl_errors_outcome *out)
{
    size_t free_b = 0, total = 0;
    SL_CUDA_RETURN(cudaMemGetInfo(&free_b, &total));
    void *d_big = NULL;
    sl_status st = sl_alloc_device(&d_big, total + ((size_t)1 << 30));
    if (st != SL_OK) {
        out->cuda_error = (int)cudaErrorMemoryAllocation;
        out->reported_by = "cudaMalloc";
        /* Not sticky: the allocation failed, nothing ran. Clear it, as a
         * program that recovers (frees memory, asks for less) would. */
        (void)cudaGetLastError();
        out->sticky = probe_sticky();
        return st;
    }
    return sl_free_device(d_big);
}

static sl_status run_config(sl_errors_outcome *out)
{
    float *d_x = NULL;
    sl_status st = sl_alloc_device(&d_x, 1000 * sizeof(float));
    if (st == SL_OK) st = sl_fill_bytes_device(d_x, 0, 1000 * sizeof(float));
    if (st == SL_OK) st = check_launch(sl_errors_launch_scale(d_x, 1000, 2.0f, 1, 2048), "errors_scale<<<1, 2048>>>", out);
    if (st != SL_OK && out->cuda_error) out->sticky = probe_sticky();
    return sl_free_device_all(st, d_x, NULL, NULL);
}

static sl_status run_resources(sl_errors_outcome *out)
{
    enum { N = 4096 };
    struct cudaFuncAttributes attr;
    SL_CUDA_RETURN(sl_errors_register_hungry_attributes(&attr));
    out->regs_per_thread = attr.numRegs;
    out->max_block = attr.maxThreadsPerBlock;
    float h[N], *d_in = NULL, *d_out = NULL;
    for (int i = 0; i < N; i++) h[i] = 1.0f / (float)(i + 1);
    sl_status st = upload(&d_in, h, N);
    if (st == SL_OK) st = sl_alloc_device(&d_out, N * sizeof(float));
    if (st == SL_OK)
        st = check_launch(sl_errors_launch_register_hungry(d_in, d_out, N, 1024), "errors_register_hungry<<<4, 1024>>>", out);
    if (st != SL_OK && out->cuda_error) out->sticky = probe_sticky();
    st = sl_free_device_all(st, d_in, d_out, NULL);
    if (st == SL_OK && sl_backend_is_emulator())
        return sl_fail(SL_ERR_UNSUPPORTED,
                       "errors_register_hungry<<<4, 1024>>> ran: the emulator counts no registers "
                       "(cudaFuncGetAttributes gives numRegs = 0), so it cannot refuse a launch for them as a GPU "
                       "does with cudaErrorLaunchOutOfResources (too many resources requested for launch); on a GPU, "
                       "nvcc -Xptxas -v prints the registers per thread and cudaFuncGetAttributes' "
                       "maxThreadsPerBlock the largest block that fits");
    return st;
}

static sl_status run_noimage(sl_errors_outcome *out)
{
    int device = 0, major = 0, minor = 0;
    SL_CUDA_RETURN(cudaGetDevice(&device));
    SL_CUDA_RETURN(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    SL_CUDA_RETURN(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    float *d_x = NULL;
    sl_status st = sl_alloc_device(&d_x, 256 * sizeof(float));
    if (st == SL_OK) st = check_launch(sl_errors_launch_noimage(d_x, 256), "errors_noimage<<<1, 256>>>", out);
    if (st != SL_OK && out->cuda_error == (int)cudaErrorNoKernelImageForDevice) {
        char first[1024];
        snprintf(first, sizeof first, "%s", sl_last_error());
        st = sl_fail(SL_ERR_CUDA, "%s — this kernel was built for %s (compute capability x 100; machine code "
                     "only, no PTX), and device %d has compute capability %d.%d", first,
                     sl_errors_noimage_built_architectures(), device, major, minor);
    }
    if (st != SL_OK && out->cuda_error) out->sticky = probe_sticky();
    st = sl_free_device_all(st, d_x, NULL, NULL);
    if (st == SL_OK && sl_backend_is_emulator()) {
        int runs = sl_errors_image_runs(SL_07_WRONG_ARCH, 0, major, minor);
        return sl_fail(SL_ERR_UNSUPPORTED,
                       "errors_noimage<<<1, 256>>> ran: the emulator compiles every kernel for this CPU, so no "
                       "launch can lack a kernel image here. The CUDA build compiles this kernel for sm_%d only "
                       "(machine code, no PTX), which runs on compute capability %d.%d to %d.9; the emulated "
                       "device is %d.%d (SIMTLAB_EMU_CC), where a GPU %s", SL_07_WRONG_ARCH,
                       SL_07_WRONG_ARCH / 10, SL_07_WRONG_ARCH % 10, SL_07_WRONG_ARCH / 10, major, minor,
                       runs ? "would run it too" : "would refuse it with cudaErrorNoKernelImageForDevice");
    }
    return st;
}

static sl_status run_hostderef(sl_errors_outcome *out)
{
    (void)out;
    float *d_x = NULL;
    sl_status st = sl_alloc_device(&d_x, 1000 * sizeof(float));
    if (st == SL_OK) st = sl_errors_check_host_readable(d_x, "d_x");
    return sl_free_device_all(st, d_x, NULL, NULL);
}

static sl_status run_race(sl_errors_outcome *out)
{
    enum { BLOCK = 256, N = 4 * BLOCK };
    float h_in[N], h_out[N], *d_in = NULL, *d_out = NULL;
    for (int i = 0; i < N; i++) h_in[i] = (float)i;
    sl_status st = upload(&d_in, h_in, N);
    if (st == SL_OK) st = sl_alloc_device(&d_out, N * sizeof(float));
    if (st == SL_OK) st = sl_fill_bytes_device(d_out, 0xFF, N * sizeof(float)); /* NaN: an unwritten output shows */
    if (st == SL_OK)
        st = check_launch(sl_errors_launch_reverse_no_sync(d_in, d_out, N), "errors_reverse_no_sync<<<4, 256>>>", out);
    if (st == SL_OK) st = sl_copy_to_host(h_out, d_out, N * sizeof(float));
    if (st == SL_OK)
        for (int i = 0; i < N; i++) {
            int base = i / BLOCK * BLOCK;
            if (!(h_out[i] == h_in[base + BLOCK - 1 - (i - base)])) out->wrong++;
        }
    if (st != SL_OK && out->cuda_error) out->sticky = probe_sticky();
    return sl_free_device_all(st, d_in, d_out, NULL);
}

static sl_status run_leak(sl_errors_outcome *out)
{
    void *d_forgotten = NULL;
    sl_status st = sl_alloc_device(&d_forgotten, 4096); /* never freed: on purpose */
    if (st == SL_OK) out->leaked_bytes = 4096;
    return st;
}

sl_status sl_errors_run(sl_errors_case c, sl_errors_outcome *out)
{
    sl_status st = sl_check_host_ptr("sl_errors_run", "out", out);
    if (st != SL_OK) return st;
    memset(out, 0, sizeof *out);
    out->reported_by = "";
    switch (c) {
    case SL_ERRORS_ASSERT: return run_assert(out);
    case SL_ERRORS_OOB: return run_oob(out);
    case SL_ERRORS_OOM: return run_oom(out);
    case SL_ERRORS_CONFIG: return run_config(out);
    case SL_ERRORS_RESOURCES: return run_resources(out);
    case SL_ERRORS_NOIMAGE: return run_noimage(out);
    case SL_ERRORS_HOSTDEREF: return run_hostderef(out);
    case SL_ERRORS_RACE: return run_race(out);
    case SL_ERRORS_LEAK: return run_leak(out);
    case SL_ERRORS_CASE_COUNT: break;
    }
    return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_errors_run: c = %d is not a case (0..%d)", (int)c,
                   SL_ERRORS_CASE_COUNT - 1);
}
