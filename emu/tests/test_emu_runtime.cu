/* Tests of the emulator's runtime: memory, errors, the device, streams and
 * events. Each error path is checked for the code CUDA documents and for a
 * diagnostic that names the cause.
 *
 * Criterion forks a process per test, so each test starts with a fresh
 * runtime: environment variables set at the top of a test take effect.
 *
 *   build/bin/test_emu_runtime --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

static bool diagnostic_has(const char *needle)
{
    return std::strstr(simtlab_emu_last_diagnostic(), needle) != nullptr;
}

static std::uintptr_t addr(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }

/* ---- allocation ------------------------------------------------------- */

Test(memory, malloc_rejects_a_null_devptr)
{
    cr_expect_eq(cudaMalloc((void **)nullptr, 16), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("devPtr is NULL"), "diagnostic: %s", simtlab_emu_last_diagnostic());
}

Test(memory, malloc_of_zero_bytes_succeeds_with_null)
{
    float *p = (float *)0x1;
    cr_expect_eq(cudaMalloc(&p, 0), cudaSuccess);
    cr_expect_null(p);
}

Test(memory, malloc_beyond_device_memory_fails)
{
    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    void *p = nullptr;
    cr_expect_eq(cudaMalloc(&p, prop.totalGlobalMem + 1), cudaErrorMemoryAllocation);
    cr_expect_null(p);
    cr_expect(diagnostic_has("out of device memory"));
    cr_expect_eq(cudaGetLastError(), cudaErrorMemoryAllocation);
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "not sticky: reading it cleared it");
}

/* The data ends less than 16 bytes before a page boundary (where the guard
 * page starts), and starts on a 16-byte boundary. */
Test(memory, allocations_are_16_byte_aligned_and_end_at_the_guard_page)
{
    const long page = sysconf(_SC_PAGESIZE);
    const size_t sizes[] = {1, 15, 16, 17, 100, 4095, 4096, 4097, 1000003};
    for (size_t n : sizes) {
        void *p = nullptr;
        cr_assert_eq(cudaMalloc(&p, n), cudaSuccess);
        std::uintptr_t end = addr(p) + n;
        std::uintptr_t guard = (end + page - 1) / page * page;
        cr_expect_eq(addr(p) % 16, 0u, "size %zu: base 0x%lx", n, (unsigned long)addr(p));
        cr_expect_lt(guard - end, 16u, "size %zu: %lu bytes of slack", n, (unsigned long)(guard - end));
        cr_expect_eq(cudaFree(p), cudaSuccess);
    }
}

Test(memory, SIMTLAB_EMU_ALIGN_256_gives_cuda_alignment)
{
    setenv("SIMTLAB_EMU_ALIGN", "256", 1);
    for (size_t n = 1; n < 1000; n += 77) {
        void *p = nullptr;
        cr_assert_eq(cudaMalloc(&p, n), cudaSuccess);
        cr_expect_eq(addr(p) % 256, 0u, "size %zu", n);
        cudaFree(p);
    }
}

Test(memory, host_dereference_of_a_device_pointer_dies_by_sigsegv, .signal = SIGSEGV)
{
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64 * sizeof(float)), cudaSuccess);
    volatile float *v = d;
    v[0] = 1.0f; /* device memory is not host memory */
}

/* The same in a child whose stderr we read: it must say what happened. */
Test(memory, host_dereference_is_explained)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    cr_assert_neq(child, -1);
    if (child == 0) {
        dup2(fds[1], STDERR_FILENO);
        float *d = nullptr;
        if (cudaMalloc(&d, 64 * sizeof(float)) != cudaSuccess)
            _exit(3);
        volatile float *v = d;
        v[3] = 1.0f;
        _exit(0); /* not reached */
    }
    close(fds[1]);
    char text[4096] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof text - 1 && (r = read(fds[0], text + got, sizeof text - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "status 0x%x", status);
    cr_expect(std::strstr(text, "device pointer") != nullptr, "stderr: %s", text);
    cr_expect(std::strstr(text, "test_emu_runtime.cu") != nullptr, "names the allocation's file: %s", text);
}

Test(memory, free_of_null_is_a_no_op)
{
    cr_expect_eq(cudaFree(nullptr), cudaSuccess);
}

Test(memory, double_free_is_an_error_that_names_the_pointer)
{
    void *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, 100), cudaSuccess);
    cr_assert_eq(cudaFree(p), cudaSuccess);
    cr_expect_eq(cudaFree(p), cudaErrorInvalidValue);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%lx", (unsigned long)addr(p));
    cr_expect(diagnostic_has("double free"), "diagnostic: %s", simtlab_emu_last_diagnostic());
    cr_expect(diagnostic_has(hex), "names %s: %s", hex, simtlab_emu_last_diagnostic());
}

Test(memory, free_of_a_host_or_interior_pointer_is_an_error)
{
    float host[4];
    cr_expect_eq(cudaFree(host), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("not a device pointer"));
    char *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 100), cudaSuccess);
    cr_expect_eq(cudaFree(d + 8), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("8 bytes into allocation"), "diagnostic: %s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaFree(d), cudaSuccess);
}

Test(memory, leak_report_lists_file_and_line)
{
    void *a = nullptr, *b = nullptr;
    cr_assert_eq(cudaMalloc(&a, 123), cudaSuccess);
    const int line_a = __LINE__ - 1;
    cr_assert_eq(cudaMalloc(&b, 456), cudaSuccess);
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_expect_eq(simtlab_emu_report_live_allocations(f), 2u);
    char text[2048] = {0};
    rewind(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char where[256];
    std::snprintf(where, sizeof where, "test_emu_runtime.cu:%d", line_a);
    cr_expect(std::strstr(text, where) != nullptr, "want %s in:\n%s", where, text);
    cr_expect(std::strstr(text, "123 bytes") != nullptr && std::strstr(text, "456 bytes") != nullptr, "%s", text);
    cudaFree(a);
    f = tmpfile();
    cr_expect_eq(simtlab_emu_report_live_allocations(f), 1u);
    fclose(f);
    cudaFree(b);
    cr_expect_eq(simtlab_emu_report_live_allocations(stderr), 0u);
}

/* At exit the runtime lists what is still allocated: run a child that
 * leaks and read its stderr. */
Test(memory, leaks_are_reported_at_exit)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    cr_assert_neq(child, -1);
    int line = 0;
    if (child == 0) {
        dup2(fds[1], STDERR_FILENO);
        void *a = nullptr, *b = nullptr;
        cudaMalloc(&a, 10);
        cudaMalloc(&b, 20);
        std::exit(0);
    }
    line = __LINE__ - 4; /* the line of cudaMalloc(&a, 10) */
    close(fds[1]);
    char text[4096] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof text - 1 && (r = read(fds[0], text + got, sizeof text - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    waitpid(child, nullptr, 0);
    char where[128];
    cr_expect(std::strstr(text, "2 device allocations still live at exit") != nullptr, "stderr: %s", text);
    std::snprintf(where, sizeof where, "test_emu_runtime.cu:%d", line);
    cr_expect(std::strstr(text, where) != nullptr, "want %s in: %s", where, text);
}

Test(memory, pinned_host_memory)
{
    void *p = nullptr;
    cr_assert_eq(cudaMallocHost(&p, 1000), cudaSuccess);
    cr_expect_eq(addr(p) % (std::uintptr_t)sysconf(_SC_PAGESIZE), 0u, "page-aligned");
    std::memset(p, 7, 1000); /* host memory: the host may touch it */
    cr_expect_eq(cudaFreeHost(p), cudaSuccess);
    cr_expect_eq(cudaFreeHost(p), cudaErrorInvalidValue, "freed twice");
    void *m = std::malloc(64);
    cr_expect_eq(cudaFreeHost(m), cudaErrorInvalidValue, "not from cudaMallocHost");
    std::free(m);
    void *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64), cudaSuccess);
    cr_expect_eq(cudaFreeHost(d), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("cudaFree"), "hints at cudaFree: %s", simtlab_emu_last_diagnostic());
    cudaFree(d);
}

/* ---- copies and memset ------------------------------------------------ */

/* Pinned host memory is reachable from the device: a copy whose kind names
 * it as the device side works, as on a GPU with unified addressing
 * (tutorials allocate their "device" buffers with cudaMallocHost); plain
 * malloc'ed memory named as the device side is still refused. */
Test(memory, pinned_memory_matches_either_side_of_a_copy)
{
    const size_t n = 1031;
    float *pin = nullptr, *pin2 = nullptr, *dev = nullptr;
    cr_assert_eq(cudaMallocHost(&pin, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaHostAlloc(&pin2, n * sizeof(float), cudaHostAllocDefault), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dev, n * sizeof(float)), cudaSuccess);
    std::vector<float> host(n), back(n, -1.0f);
    for (size_t i = 0; i < n; i++)
        host[i] = (float)i * 0.5f - 7.0f;
    for (size_t i = 0; i < n; i++)
        pin[i] = pin2[i] = NAN;
    cr_expect_eq(cudaMemcpy(pin, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess, "%s",
                 simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemcpy(dev, pin, n * sizeof(float), cudaMemcpyDeviceToDevice), cudaSuccess);
    cr_expect_eq(cudaMemcpy(pin2, dev, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(cudaMemcpy(back.data(), pin2, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(back[i], host[i], "element %zu: %g", i, back[i]);
    /* pageable memory named as the device: refused, as before */
    std::vector<float> other(n);
    cr_expect_eq(cudaMemcpy(other.data(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice),
                 cudaErrorInvalidValue);
    cudaFreeHost(pin);
    cudaFreeHost(pin2);
    cudaFree(dev);
}

Test(memcpy, round_trip_and_device_to_device)
{
    float in[50], out[50];
    for (int i = 0; i < 50; ++i)
        in[i] = (float)i * 0.5f, out[i] = -1.0f;
    float *a = nullptr, *b = nullptr;
    cr_assert_eq(cudaMalloc(&a, sizeof in), cudaSuccess);
    cr_assert_eq(cudaMalloc(&b, sizeof in), cudaSuccess);
    cr_expect_eq(cudaMemcpy(a, in, sizeof in, cudaMemcpyHostToDevice), cudaSuccess);
    cr_expect_eq(cudaMemcpy(b, a, sizeof in, cudaMemcpyDeviceToDevice), cudaSuccess);
    cr_expect_eq(cudaMemcpy(out, b, sizeof in, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_arr_eq(out, in, sizeof in);
    cudaFree(a);
    cudaFree(b);
}

Test(memcpy, swapped_arguments_are_diagnosed)
{
    float host[8] = {0};
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, sizeof host), cudaSuccess);
    cr_expect_eq(cudaMemcpy(host, d, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    char want[128];
    std::snprintf(want, sizeof want, "cudaMemcpyHostToDevice but dst 0x%lx is host memory (did you swap dst and src?)",
                  (unsigned long)addr(host));
    cr_expect(diagnostic_has(want), "want '%s' in '%s'", want, simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_expect_eq(cudaMemcpy(d, host, sizeof host, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("did you swap"));
    cr_expect_eq(cudaMemcpy(host, host + 4, 4, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    cudaFree(d);
}

Test(memcpy, a_range_past_the_end_names_the_allocation)
{
    float host[32] = {0};
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 30 * sizeof(float)), cudaSuccess);
    const int line = __LINE__ - 1;
    cr_expect_eq(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("runs 8 bytes past the end"), "%s", simtlab_emu_last_diagnostic());
    char where[128];
    std::snprintf(where, sizeof where, "test_emu_runtime.cu:%d", line);
    cr_expect(diagnostic_has(where), "names %s: %s", where, simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemcpy(host, d + 10, 21 * sizeof(float), cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("runs 4 bytes past the end"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemcpy(host, d + 10, 20 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    /* a pointer just past the end is neither device nor host memory */
    cr_expect_eq(cudaMemcpy(d + 30, host, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("past the end"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(d);
}

Test(memcpy, default_kind_infers_directions)
{
    int in[10], out[10] = {0};
    for (int i = 0; i < 10; ++i)
        in[i] = i * i;
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, sizeof in), cudaSuccess);
    cr_expect_eq(cudaMemcpy(d, in, sizeof in, cudaMemcpyDefault), cudaSuccess);
    cr_expect_eq(cudaMemcpy(out, d, sizeof in, cudaMemcpyDefault), cudaSuccess);
    cr_expect_arr_eq(out, in, sizeof in);
    cr_expect_eq(cudaMemcpy(out, in, sizeof in, cudaMemcpyHostToHost), cudaSuccess);
    cudaFree(d);
}

Test(memcpy, zero_bytes_and_bad_kinds)
{
    int x = 0;
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 4), cudaSuccess);
    cr_expect_eq(cudaMemcpy(d, &x, 0, cudaMemcpyHostToDevice), cudaSuccess);
    cr_expect_eq(cudaMemcpy(d, &x, 4, (cudaMemcpyKind)7), cudaErrorInvalidMemcpyDirection);
    cr_expect_eq(cudaMemcpy(nullptr, &x, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    cudaFree(d);
}

Test(memcpy, memset_fills_and_checks_its_range)
{
    unsigned char out[40];
    unsigned char *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 40), cudaSuccess);
    cr_expect_eq(cudaMemset(d, 0xAB, 40), cudaSuccess);
    cr_expect_eq(cudaMemset(d + 8, 0x11, 4), cudaSuccess);
    cr_expect_eq(cudaMemcpy(out, d, 40, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int i = 0; i < 40; ++i)
        cr_expect_eq(out[i], (i >= 8 && i < 12) ? 0x11 : 0xAB, "byte %d", i);
    cr_expect_eq(cudaMemset(d + 30, 0, 11), cudaErrorInvalidValue);
    cr_expect(diagnostic_has("runs 1 byte past the end"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaMemset(out, 0, 4), cudaErrorInvalidValue, "host memory");
    cr_expect(diagnostic_has("not device memory"));
    cudaFree(d);
}

/* ---- errors ------------------------------------------------------------ */

Test(errors, names_and_strings_follow_cuda)
{
    cr_expect_str_eq(cudaGetErrorName(cudaSuccess), "cudaSuccess");
    cr_expect_str_eq(cudaGetErrorString(cudaSuccess), "no error");
    cr_expect_str_eq(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorNoKernelImageForDevice),
                     "no kernel image is available for execution on the device");
    cr_expect_str_eq(cudaGetErrorString(cudaErrorAssert), "device-side assert triggered");
    cr_expect_str_eq(cudaGetErrorName(cudaErrorLaunchOutOfResources), "cudaErrorLaunchOutOfResources");
    cr_expect_str_eq(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");
    /* every code of the header has its own name */
    const cudaError_t all[] = {
        cudaErrorInvalidValue, cudaErrorMemoryAllocation, cudaErrorInitializationError, cudaErrorCudartUnloading,
        cudaErrorInvalidConfiguration, cudaErrorInvalidPitchValue, cudaErrorInvalidSymbol,
        cudaErrorInvalidHostPointer, cudaErrorInvalidDevicePointer, cudaErrorInvalidMemcpyDirection,
        cudaErrorInsufficientDriver, cudaErrorMissingConfiguration, cudaErrorInvalidDeviceFunction,
        cudaErrorNoDevice, cudaErrorInvalidDevice, cudaErrorNoKernelImageForDevice,
        cudaErrorInvalidResourceHandle, cudaErrorNotReady, cudaErrorIllegalAddress,
        cudaErrorLaunchOutOfResources, cudaErrorLaunchTimeout, cudaErrorAssert, cudaErrorIllegalInstruction,
        cudaErrorMisalignedAddress, cudaErrorLaunchFailure, cudaErrorNotPermitted, cudaErrorNotSupported,
        cudaErrorUnknown};
    for (cudaError_t e : all) {
        cr_expect(std::strncmp(cudaGetErrorName(e), "cudaError", 9) == 0, "code %d: %s", (int)e, cudaGetErrorName(e));
        cr_expect_str_neq(cudaGetErrorString(e), "unrecognized error code", "code %d", (int)e);
    }
}

Test(errors, get_last_error_clears_and_peek_does_not)
{
    cr_expect_eq(cudaSetDevice(3), cudaErrorInvalidDevice);
    cr_expect_eq(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    cr_expect_eq(cudaPeekAtLastError(), cudaErrorInvalidDevice);
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidDevice);
    cr_expect_eq(cudaGetLastError(), cudaSuccess);
    cr_expect_eq(cudaPeekAtLastError(), cudaSuccess);
}

Test(errors, diagnostic_can_be_cleared)
{
    cudaSetDevice(1);
    cr_expect(diagnostic_has("device 1 does not exist"), "%s", simtlab_emu_last_diagnostic());
    simtlab_emu_clear_diagnostic();
    cr_expect_str_eq(simtlab_emu_last_diagnostic(), "");
}

/* ---- the device -------------------------------------------------------- */

Test(device, one_device_with_the_documented_properties)
{
    int n = 0, dev = -1;
    cr_expect_eq(cudaGetDeviceCount(&n), cudaSuccess);
    cr_expect_eq(n, 1);
    cr_expect_eq(cudaGetDevice(&dev), cudaSuccess);
    cr_expect_eq(dev, 0);
    cr_expect_eq(cudaSetDevice(0), cudaSuccess);
    cr_expect_eq(cudaSetDevice(1), cudaErrorInvalidDevice);
    cudaDeviceProp p;
    cr_expect_eq(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_expect(std::strstr(p.name, "emulator") != nullptr, "name: %s", p.name);
    cr_expect_eq(p.major, 8);
    cr_expect_eq(p.minor, 0);
    cr_expect_eq(p.multiProcessorCount, (int)sysconf(_SC_NPROCESSORS_ONLN));
    cr_expect_eq(p.warpSize, 32);
    cr_expect_eq(p.maxThreadsPerBlock, 1024);
    cr_expect(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 64);
    cr_expect(p.maxGridSize[0] == 2147483647 && p.maxGridSize[1] == 65535 && p.maxGridSize[2] == 65535);
    cr_expect_eq(p.sharedMemPerBlock, 48u * 1024u);
    cr_expect_eq(p.sharedMemPerBlockOptin, 163u * 1024u, "A100: 163 KB per block (Programming Guide)");
    cr_expect_eq(p.regsPerBlock, 65536);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    cr_expect_eq(p.totalGlobalMem, (size_t)pages * (size_t)page / 2);
    cr_expect_gt(p.l2CacheSize, 0);
    cr_expect_eq(simtlab_emu_is_emulator(), 1);
}

Test(device, attributes_agree_with_properties)
{
    cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    struct {
        cudaDeviceAttr attr;
        long want;
    } cases[] = {
        {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
        {cudaDevAttrMaxBlockDimZ, 64},
        {cudaDevAttrMaxGridDimX, 2147483647},
        {cudaDevAttrMaxSharedMemoryPerBlock, (long)p.sharedMemPerBlock},
        {cudaDevAttrWarpSize, 32},
        {cudaDevAttrMultiProcessorCount, p.multiProcessorCount},
        {cudaDevAttrComputeCapabilityMajor, p.major},
        {cudaDevAttrComputeCapabilityMinor, p.minor},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long)p.sharedMemPerBlockOptin},
        {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth},
        {cudaDevAttrL2CacheSize, p.l2CacheSize},
        {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
    };
    for (auto &c : cases) {
        int v = -1;
        cr_expect_eq(cudaDeviceGetAttribute(&v, c.attr, 0), cudaSuccess);
        cr_expect_eq(v, c.want, "attribute %d", (int)c.attr);
    }
    int clock = 0;
    cr_expect_eq(cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, 0), cudaSuccess);
    cr_expect_gt(clock, 0, "a placeholder the doctor can compute bandwidth from");
    int v;
    cr_expect_eq(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0), cudaErrorInvalidValue);
    cr_expect_eq(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 2), cudaErrorInvalidDevice);
}

Test(device, SIMTLAB_EMU_CC_selects_compute_capability_9_0)
{
    setenv("SIMTLAB_EMU_CC", "9.0", 1);
    cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_expect_eq(p.major, 9);
    cr_expect_eq(p.minor, 0);
    cr_expect_eq(p.sharedMemPerBlockOptin, 227u * 1024u, "H100: 227 KB per block");
    cr_expect(std::strstr(p.name, "sm_90") != nullptr, "name: %s", p.name);
}

Test(device, SIMTLAB_EMU_CC_accepts_the_two_digit_form)
{
    setenv("SIMTLAB_EMU_CC", "86", 1);
    int major = 0, minor = 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
    cr_expect(major == 8 && minor == 6, "got %d.%d", major, minor);
}

Test(device, versions_and_memory_info)
{
    int driver = 0, runtime = 0;
    cr_expect_eq(cudaDriverGetVersion(&driver), cudaSuccess);
    cr_expect_eq(cudaRuntimeGetVersion(&runtime), cudaSuccess);
    cr_expect_eq(driver, 13000);
    cr_expect_eq(runtime, 13000);
    size_t free0 = 0, total = 0, free1 = 0;
    cr_assert_eq(cudaMemGetInfo(&free0, &total), cudaSuccess);
    void *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, 1 << 20), cudaSuccess);
    cr_assert_eq(cudaMemGetInfo(&free1, &total), cudaSuccess);
    cr_expect_eq(free0 - free1, (size_t)1 << 20);
    cr_expect_leq(free0, total);
    cudaFree(p);
    cr_expect_eq(cudaDeviceSynchronize(), cudaSuccess);
}

__global__ void fill_kernel(float *out, int n, float value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = value;
}

Test(device, function_attributes)
{
    cudaFuncAttributes a;
    cr_expect_eq(cudaFuncGetAttributes(&a, nullptr), cudaErrorInvalidDeviceFunction);
    cr_assert_eq(cudaFuncGetAttributes(&a, (const void *)fill_kernel), cudaSuccess);
    cr_expect_eq(a.binaryVersion, 80);
    cr_expect_eq(a.ptxVersion, 80);
    cr_expect_eq(a.maxThreadsPerBlock, 1024);
    cr_expect_eq(a.sharedSizeBytes, 0u);
    cr_expect_eq(cudaFuncSetAttribute((const void *)fill_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      100 * 1024),
                 cudaSuccess, "below A100's 163 KB opt-in");
    cr_assert_eq(cudaFuncGetAttributes(&a, (const void *)fill_kernel), cudaSuccess);
    cr_expect_eq(a.maxDynamicSharedSizeBytes, 100 * 1024);
    cr_expect_eq(cudaFuncSetAttribute((const void *)fill_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      200 * 1024),
                 cudaErrorInvalidValue);
    cr_expect_eq(cudaFuncSetAttribute(nullptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 1),
                 cudaErrorInvalidDeviceFunction);
}

/* cudaDeviceReset returns every function attribute to its default: a launch
 * that needed the MaxDynamicSharedMemorySize opt-in fails again after it. */
Test(device, reset_forgets_the_dynamic_shared_memory_opt_in)
{
    const void *kernel = (const void *)fill_kernel;
    const std::size_t dynamic = 64 * 1024; /* above the default 48 KB, below the 163 KB opt-in */
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 4), cudaSuccess);
    cr_assert_eq(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dynamic), cudaSuccess);
    fill_kernel<<<1, 32, dynamic>>>(d, 1, 1.0f);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "with the opt-in: %s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaDeviceReset(), cudaSuccess);

    cudaFuncAttributes a;
    cr_assert_eq(cudaFuncGetAttributes(&a, kernel), cudaSuccess);
    cr_expect_eq(a.maxDynamicSharedSizeBytes, 48 * 1024, "the default again after the reset");
    cr_assert_eq(cudaMalloc(&d, 4), cudaSuccess);
    fill_kernel<<<1, 32, dynamic>>>(d, 1, 1.0f);
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidValue, "the launch after the reset needs the opt-in again");
    cr_expect(diagnostic_has("65536 bytes of dynamic shared memory"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(d);
}

/* ---- streams and events ------------------------------------------------- */

Test(streams, async_copies_on_a_stream_and_bad_handles)
{
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    int in[4] = {1, 2, 3, 4}, out[4] = {0};
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, sizeof in), cudaSuccess);
    cr_expect_eq(cudaMemcpyAsync(d, in, sizeof in, cudaMemcpyHostToDevice, s), cudaSuccess);
    cr_expect_eq(cudaMemsetAsync(d, 0, 4, s), cudaSuccess);
    cr_expect_eq(cudaMemcpyAsync(out, d, sizeof in, cudaMemcpyDeviceToHost, 0), cudaSuccess);
    cr_expect_eq(cudaStreamSynchronize(s), cudaSuccess);
    cr_expect_eq(cudaStreamQuery(s), cudaSuccess);
    cr_expect(out[0] == 0 && out[1] == 2 && out[3] == 4);
    cr_expect_eq(cudaStreamDestroy(s), cudaSuccess);
    cr_expect_eq(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle, "destroyed");
    cr_expect(diagnostic_has("not a live stream"));
    cr_expect_eq(cudaMemcpyAsync(d, in, 4, cudaMemcpyHostToDevice, s), cudaErrorInvalidResourceHandle);
    cr_expect_eq(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle, "twice");
    cr_expect_eq(cudaStreamSynchronize((cudaStream_t)in), cudaErrorInvalidResourceHandle, "made up");
    cr_expect_eq(cudaStreamCreate(nullptr), cudaErrorInvalidValue);
    cudaFree(d);
}

Test(events, elapsed_time_measures_a_host_sleep)
{
    cudaEvent_t start, stop;
    cr_assert_eq(cudaEventCreate(&start), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&stop), cudaSuccess);
    cr_expect_eq(cudaEventRecord(start, 0), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cr_expect_eq(cudaEventRecord(stop, 0), cudaSuccess);
    cr_expect_eq(cudaEventSynchronize(stop), cudaSuccess);
    cr_expect_eq(cudaEventQuery(stop), cudaSuccess);
    float ms = 0.0f;
    cr_assert_eq(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
    /* a correctness check of the clock, not a speed test: generous bounds */
    cr_expect(ms >= 49.0f && ms < 1000.0f, "slept 50 ms, measured %.3f ms", ms);
    cr_expect_eq(cudaEventElapsedTime(&ms, stop, start), cudaSuccess);
    cr_expect_lt(ms, 0.0f, "reversed events give a negative time");
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

Test(events, errors_follow_cuda)
{
    cudaEvent_t a, b, untimed;
    cr_assert_eq(cudaEventCreate(&a), cudaSuccess);
    cr_assert_eq(cudaEventCreate(&b), cudaSuccess);
    cr_assert_eq(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming), cudaSuccess);
    float ms;
    cr_expect_eq(cudaEventRecord(a, 0), cudaSuccess);
    /* CUDA: an event never recorded gives cudaErrorInvalidResourceHandle */
    cr_expect_eq(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
    cr_expect(diagnostic_has("never recorded"));
    cr_expect_eq(cudaEventRecord(untimed, 0), cudaSuccess);
    cr_expect_eq(cudaEventElapsedTime(&ms, a, untimed), cudaErrorInvalidResourceHandle);
    cr_expect(diagnostic_has("cudaEventDisableTiming"));
    cr_expect_eq(cudaEventElapsedTime(nullptr, a, a), cudaErrorInvalidValue);
    cr_expect_eq(cudaEventCreateWithFlags(&b, 0x80), cudaErrorInvalidValue);
    cr_expect_eq(cudaEventDestroy(a), cudaSuccess);
    cr_expect_eq(cudaEventRecord(a, 0), cudaErrorInvalidResourceHandle, "destroyed");
    cr_expect_eq(cudaEventDestroy(a), cudaErrorInvalidResourceHandle);
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_expect_eq(cudaStreamWaitEvent(s, b, 0), cudaSuccess);
    cr_expect_eq(cudaStreamWaitEvent(s, a, 0), cudaErrorInvalidResourceHandle);
    cudaStreamDestroy(s);
    cr_expect_eq(cudaEventRecord(b, s), cudaErrorInvalidResourceHandle, "destroyed stream");
    cudaEventDestroy(b);
    cudaEventDestroy(untimed);
}

/* ---- sticky errors after a fault ---------------------------------------- */

__global__ void write_past_the_end(float *out, int n)
{
    if (threadIdx.x == 0)
        out[n + 4] = 1.0f; /* 16 bytes past the end: the guard page */
}

__global__ void write_one_past_the_end(unsigned char *out, int n)
{
    if (threadIdx.x == 0)
        out[n] = 1; /* inside the slack before the guard page */
}

Test(sticky, a_fault_poisons_the_context_until_reset)
{
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 32 * sizeof(float)), cudaSuccess);
    write_past_the_end<<<1, 32>>>(d, 32);
    cr_expect_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    cr_expect(diagnostic_has("write_past_the_end"), "names the kernel: %s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaGetLastError(), cudaErrorIllegalAddress);
    cr_expect_eq(cudaGetLastError(), cudaErrorIllegalAddress, "sticky: reading does not clear it");
    void *p = nullptr;
    cr_expect_eq(cudaMalloc(&p, 16), cudaErrorIllegalAddress, "every device call reports it");
    float h[4];
    cr_expect_eq(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaErrorIllegalAddress);
    cr_expect_eq(cudaDeviceReset(), cudaSuccess);
    cr_expect_eq(cudaGetLastError(), cudaSuccess);
    cr_expect_eq(simtlab_emu_report_live_allocations(stderr), 0u, "reset freed every allocation");
    cr_expect_eq(cudaMalloc(&p, 16), cudaSuccess);
    cudaFree(p);
}

Test(sticky, a_write_into_the_slack_is_caught_by_the_canary)
{
    unsigned char *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 100), cudaSuccess); /* 100 is not a multiple of 16: 12 bytes of slack */
    write_one_past_the_end<<<1, 1>>>(d, 100);
    cr_expect_eq(cudaGetLastError(), cudaErrorIllegalAddress);
    cr_expect(diagnostic_has("1 byte past the end of device allocation"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaFree(d), cudaErrorIllegalAddress, "freed, but the context stays poisoned");
}

Test(sticky, a_configuration_error_is_not_sticky)
{
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 4), cudaSuccess);
    fill_kernel<<<1, 2048>>>(d, 1, 0.0f);
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidValue);
    cr_expect_eq(cudaGetLastError(), cudaSuccess);
    cr_expect_eq(cudaDeviceSynchronize(), cudaSuccess);
    fill_kernel<<<1, 32>>>(d, 1, 2.5f);
    cr_expect_eq(cudaGetLastError(), cudaSuccess);
    float h = 0;
    cr_expect_eq(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(h, 2.5f);
    cudaFree(d);
}
