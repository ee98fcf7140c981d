/* Tests of the driver API subset (<cuda.h>, src/driver_*.cpp): devices and
 * their attributes against the runtime's, contexts, memory round trips with
 * random data, memsets, cuMemGetAddressRange, pointer attributes, error
 * names and texts, the module calls it cannot offer, and driver and runtime
 * calls mixed on the same memory and stream.
 *
 *   build/bin/test_emu_driver_api --verbose
 *   DRIVER_TEST_SEED=123 build/bin/test_emu_driver_api   (repeats a run)
 */
#include <cuda.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <set>
#include <string>
#include <vector>

static bool diagnostic_has(const char *needle)
{
    return std::strstr(simtlab_emu_last_diagnostic(), needle) != nullptr;
}

static unsigned test_seed(const char *test)
{
    const char *env = std::getenv("DRIVER_TEST_SEED");
    unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : static_cast<unsigned>(std::time(nullptr));
    std::printf("test_emu_driver_api %s: seed %u (DRIVER_TEST_SEED=%u repeats it)\n", test, seed, seed);
    return seed;
}

static const char *result_name(CUresult r)
{
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    return name ? name : "(not a CUresult)";
}

#define CU_OK(call)                                                                                                    \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        cr_assert_eq(r_, CUDA_SUCCESS, "%s: %s (%s)", #call, result_name(r_), simtlab_emu_last_diagnostic());         \
    } while (0)

static void *ptr_of(CUdeviceptr d)
{
    return reinterpret_cast<void *>(static_cast<std::uintptr_t>(d));
}

static CUdeviceptr dptr_of(const void *p)
{
    return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
}

/* ---- devices ----------------------------------------------------------------- */

Test(driver_device, init_count_get_name_and_memory_agree_with_the_runtime)
{
    CU_OK(cuInit(0));
    cr_expect_eq(cuInit(1), CUDA_ERROR_INVALID_VALUE, "cuInit's flags must be 0");
    int version = 0, runtime_version = 0;
    CU_OK(cuDriverGetVersion(&version));
    cr_assert_eq(cudaDriverGetVersion(&runtime_version), cudaSuccess);
    cr_expect_eq(version, runtime_version);
    cr_expect_eq(version, CUDA_VERSION);

    int count = 0, runtime_count = 0;
    CU_OK(cuDeviceGetCount(&count));
    cr_assert_eq(cudaGetDeviceCount(&runtime_count), cudaSuccess);
    cr_expect_eq(count, runtime_count);
    CUdevice dev = -1;
    CU_OK(cuDeviceGet(&dev, 0));
    cr_expect_eq(dev, 0);
    cr_expect_eq(cuDeviceGet(&dev, count), CUDA_ERROR_INVALID_DEVICE);

    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    char name[256];
    std::memset(name, 'x', sizeof name);
    CU_OK(cuDeviceGetName(name, sizeof name, 0));
    cr_expect_str_eq(name, prop.name);
    char small[5];
    CU_OK(cuDeviceGetName(small, sizeof small, 0));
    cr_expect_eq(std::strlen(small), 4u, "a short buffer gets a truncated, terminated name");
    cr_expect_eq(std::strncmp(small, prop.name, 4), 0);

    size_t total = 0;
    CU_OK(cuDeviceTotalMem(&total, 0));
    cr_expect_eq(total, prop.totalGlobalMem);
    cr_expect_eq(cuDeviceTotalMem(&total, 1), CUDA_ERROR_INVALID_DEVICE);
}

/* Every attribute number the toolkit declares, up to CU_DEVICE_ATTRIBUTE_MAX:
 * the driver answers exactly what the runtime answers, and 0 for the
 * driver's own attributes, features the emulator does not have. */
Test(driver_device, every_attribute_agrees_with_cudaDeviceGetAttribute)
{
    const std::set<int> driver_only = {CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH,
                                       CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1,
                                       CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
                                       CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
                                       CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS,
                                       CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK,
                                       CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH,
                                       CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                       CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED};
    int answered = 0;
    for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; a++) {
        int from_driver = -12345, from_runtime = -54321;
        CUresult r = cuDeviceGetAttribute(&from_driver, static_cast<CUdevice_attribute>(a), 0);
        cudaError_t e = cudaDeviceGetAttribute(&from_runtime, static_cast<cudaDeviceAttr>(a), 0);
        cudaGetLastError();
        if (e != cudaSuccess && driver_only.count(a)) {
            cr_expect_eq(r, CUDA_SUCCESS, "attribute %d: %s", a, result_name(r));
            cr_expect_eq(from_driver, 0, "attribute %d: a feature the emulator does not have", a);
            continue;
        }
        cr_expect_eq(r == CUDA_SUCCESS, e == cudaSuccess, "attribute %d: driver %s, runtime %s", a, result_name(r),
                     cudaGetErrorName(e));
        if (r == CUDA_SUCCESS && e == cudaSuccess) {
            cr_expect_eq(from_driver, from_runtime, "attribute %d: driver %d, runtime %d", a, from_driver, from_runtime);
            answered++;
        }
    }
    cr_expect_gt(answered, 20, "the common attributes are answered (got %d)", answered);

    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    int v = 0;
    CU_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
    cr_expect_eq(v, prop.major);
    CU_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
    cr_expect_eq(v, prop.multiProcessorCount);
    CU_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0));
    cr_expect_eq(v, 32);
    CU_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 0));
    cr_expect_eq(static_cast<size_t>(v), prop.sharedMemPerBlock);
    int major = 0, minor = -1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    CU_OK(cuDeviceComputeCapability(&major, &minor, 0));
#pragma GCC diagnostic pop
    cr_expect_eq(major, prop.major);
    cr_expect_eq(minor, prop.minor);
    cr_expect_eq(cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3), CUDA_ERROR_INVALID_DEVICE);
}

/* ---- contexts ---------------------------------------------------------------- */

Test(driver_context, the_primary_context_is_current_and_retained)
{
    CUcontext current = nullptr, primary = nullptr, again = nullptr;
    CU_OK(cuCtxGetCurrent(&current));
    cr_assert_not_null(current, "the runtime's primary context is current from the start");
    CU_OK(cuDevicePrimaryCtxRetain(&primary, 0));
    cr_expect_eq(primary, current);
    CU_OK(cuDevicePrimaryCtxRetain(&again, 0));
    cr_expect_eq(again, primary, "one primary context per device");
    CU_OK(cuDevicePrimaryCtxRelease(0));
    CU_OK(cuDevicePrimaryCtxRelease(0));
    cr_expect_eq(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT, "released more often than retained");

    CU_OK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
    unsigned flags = 0;
    int active = 0;
    CU_OK(cuDevicePrimaryCtxGetState(0, &flags, &active));
    cr_expect_eq(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
    cr_expect_eq(active, 1);
    CU_OK(cuCtxGetFlags(&flags));
    cr_expect_eq(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
    CUdevice dev = -1;
    CU_OK(cuCtxGetDevice(&dev));
    cr_expect_eq(dev, 0);
    CU_OK(cuCtxSynchronize());
    cr_expect_eq(cuCtxDestroy(primary), CUDA_ERROR_INVALID_CONTEXT, "the primary context is released, not destroyed");
}

Test(driver_context, created_contexts_push_pop_and_destroy_share_the_devices_memory)
{
    CUcontext primary = nullptr, mine = nullptr, current = nullptr;
    CU_OK(cuCtxGetCurrent(&primary));
    CU_OK(cuCtxCreate(&mine, nullptr, 0, 0));
    cr_assert_not_null(mine);
    cr_expect_neq(mine, primary);
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_eq(current, mine, "cuCtxCreate makes the new context current");

    /* Memory made in it is the device's: the runtime reads it. */
    CUdeviceptr d = 0;
    CU_OK(cuMemAlloc(&d, 64));
    const char text[] = "made in a created context";
    CU_OK(cuMemcpyHtoD(d, text, sizeof text));
    char back[sizeof text] = {0};
    cr_assert_eq(cudaMemcpy(back, ptr_of(d), sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_str_eq(back, text);

    CUcontext popped = nullptr;
    CU_OK(cuCtxPopCurrent(&popped));
    cr_expect_eq(popped, mine);
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_eq(current, primary);
    CU_OK(cuCtxPushCurrent(mine));
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_eq(current, mine);

    CU_OK(cuMemFree(d));
    CU_OK(cuCtxDestroy(mine));
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_eq(current, primary, "destroying the current context pops it");
    cr_expect_eq(cuCtxSetCurrent(mine), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect(diagnostic_has("destroyed"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cuCtxDestroy(mine), CUDA_ERROR_INVALID_CONTEXT, "destroyed twice");
    int not_a_context = 0;
    cr_expect_eq(cuCtxPushCurrent(reinterpret_cast<CUcontext>(&not_a_context)), CUDA_ERROR_INVALID_CONTEXT);

    /* Destroyed below the top of the stack: it stays there, and once it is
     * current again calls say it was destroyed. */
    CUcontext below = nullptr;
    CU_OK(cuCtxCreate(&below, nullptr, 0, 0));
    CU_OK(cuCtxPushCurrent(primary));
    CU_OK(cuCtxDestroy(below));
    CU_OK(cuCtxPopCurrent(nullptr));
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_eq(current, below);
    cr_expect_eq(cuMemAlloc(&d, 16), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    cr_expect(diagnostic_has("destroyed"), "%s", simtlab_emu_last_diagnostic());
    CU_OK(cuCtxPopCurrent(nullptr));
    CU_OK(cuMemAlloc(&d, 16));
    CU_OK(cuMemFree(d));

    CUexecAffinityParam affinity = {};
    CUctxCreateParams params = {&affinity, 1, nullptr};
    CUcontext other = nullptr;
    cr_expect_eq(cuCtxCreate(&other, &params, 0, 0), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_null(other);
}

Test(driver_context, with_no_current_context_calls_fail_until_one_is_set)
{
    CUcontext primary = nullptr;
    CU_OK(cuCtxPopCurrent(&primary));
    CUcontext current = primary;
    CU_OK(cuCtxGetCurrent(&current));
    cr_expect_null(current);
    CUdeviceptr d = 0;
    cr_expect_eq(cuMemAlloc(&d, 16), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect(diagnostic_has("no context is current"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    cr_expect_eq(cuCtxPopCurrent(nullptr), CUDA_ERROR_INVALID_CONTEXT);
    CU_OK(cuCtxSetCurrent(primary));
    CU_OK(cuMemAlloc(&d, 16));
    CU_OK(cuMemFree(d));
}

/* ---- memory ------------------------------------------------------------------ */

Test(driver_memory, copies_round_trip_random_data_through_every_path)
{
    std::mt19937 rng(test_seed("copies"));
    const size_t sizes[] = {1, 7, 1021, 65537};
    CUstream stream = nullptr;
    CU_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    for (size_t n : sizes) {
        std::vector<unsigned char> src(n), back(n);
        for (auto &b : src)
            b = static_cast<unsigned char>(rng());
        CUdeviceptr a = 0, b = 0, m = 0;
        CU_OK(cuMemAlloc(&a, n));
        CU_OK(cuMemAlloc(&b, n));
        CU_OK(cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));

        std::memset(back.data(), 0xEE, n);
        CU_OK(cuMemcpyHtoD(a, src.data(), n));
        CU_OK(cuMemcpyDtoD(b, a, n));
        CU_OK(cuMemcpyDtoH(back.data(), b, n));
        cr_expect_eq(std::memcmp(back.data(), src.data(), n), 0, "sync HtoD, DtoD, DtoH of %zu bytes", n);

        std::memset(back.data(), 0xEE, n);
        CU_OK(cuMemsetD8(a, 0, n));
        CU_OK(cuMemsetD8(b, 0, n));
        CU_OK(cuMemcpyHtoDAsync(a, src.data(), n, stream));
        CU_OK(cuMemcpyDtoDAsync(b, a, n, stream));
        CU_OK(cuMemcpyDtoHAsync(back.data(), b, n, stream));
        CU_OK(cuStreamSynchronize(stream));
        cr_expect_eq(std::memcmp(back.data(), src.data(), n), 0, "async HtoD, DtoD, DtoH of %zu bytes", n);

        /* cuMemcpy infers the direction (unified addressing), managed memory
         * is host-visible. */
        std::memset(back.data(), 0xEE, n);
        CU_OK(cuMemcpy(m, dptr_of(src.data()), n));
        cr_expect_eq(std::memcmp(ptr_of(m), src.data(), n), 0, "cuMemcpy into managed memory, %zu bytes", n);
        CU_OK(cuMemcpyAsync(dptr_of(back.data()), m, n, stream));
        CU_OK(cuStreamSynchronize(stream));
        cr_expect_eq(std::memcmp(back.data(), src.data(), n), 0, "cuMemcpyAsync back, %zu bytes", n);

        CU_OK(cuMemFree(a));
        CU_OK(cuMemFree(b));
        CU_OK(cuMemFree(m));
    }
    CU_OK(cuStreamDestroy(stream));
}

Test(driver_memory, allocation_errors_are_reported_and_leave_the_runtimes_last_error)
{
    cudaGetLastError();
    CUdeviceptr d = 123;
    cr_expect_eq(cuMemAlloc(&d, 0), CUDA_ERROR_INVALID_VALUE, "cuMemAlloc of 0 bytes is an error, unlike cudaMalloc");
    cr_expect_eq(d, 0u);
    cr_expect_eq(cuMemAlloc(nullptr, 16), CUDA_ERROR_INVALID_VALUE);
    size_t total = 0;
    CU_OK(cuDeviceTotalMem(&total, 0));
    cr_expect_eq(cuMemAlloc(&d, total + 1), CUDA_ERROR_OUT_OF_MEMORY);
    cr_expect(diagnostic_has("cuMemAlloc"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cuMemAllocManaged(&d, 16, 0), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "driver calls leave cudaGetLastError alone");

    int not_device = 0;
    cr_expect_eq(cuMemFree(dptr_of(&not_device)), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cudaGetLastError(), cudaSuccess);
    /* A runtime error stays the runtime's across a driver call that succeeds. */
    cr_expect_eq(cudaMalloc(static_cast<void **>(nullptr), 4), cudaErrorInvalidValue);
    CU_OK(cuMemAlloc(&d, 16));
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidValue);
    CU_OK(cuMemFree(d));

    size_t free_bytes = 0, total_bytes = 0;
    CU_OK(cuMemGetInfo(&free_bytes, &total_bytes));
    cr_expect_eq(total_bytes, total);
    cr_expect_leq(free_bytes, total_bytes);
}

Test(driver_memory, memsets_fill_exactly_their_elements)
{
    std::mt19937 rng(test_seed("memsets"));
    const size_t n = 1009; /* prime */
    const size_t bytes = 4 * (n + 2);
    CUdeviceptr d = 0;
    CU_OK(cuMemAlloc(&d, bytes));
    CUstream stream = nullptr;
    CU_OK(cuStreamCreate(&stream, 0));
    for (int async = 0; async < 2; async++) {
        std::vector<unsigned char> host(bytes);
        const unsigned char v8 = static_cast<unsigned char>(rng());
        const unsigned short v16 = static_cast<unsigned short>(rng());
        const unsigned int v32 = static_cast<unsigned int>(rng());

        CU_OK(cuMemsetD8(d, 0xA5, bytes));
        CU_OK(async ? cuMemsetD32Async(d + 4, v32, n, stream) : cuMemsetD32(d + 4, v32, n));
        CU_OK(cuStreamSynchronize(stream));
        CU_OK(cuMemcpyDtoH(host.data(), d, bytes));
        std::vector<unsigned int> words(n + 2);
        std::memcpy(words.data(), host.data(), bytes);
        cr_expect_eq(words[0], 0xA5A5A5A5u, "the word before is untouched");
        cr_expect_eq(words[n + 1], 0xA5A5A5A5u, "the word after is untouched");
        size_t wrong = 0;
        for (size_t i = 1; i <= n; i++)
            wrong += words[i] != v32;
        cr_expect_eq(wrong, 0u, "cuMemsetD32%s: %zu of %zu words wrong", async ? "Async" : "", wrong, n);

        CU_OK(cuMemsetD8(d, 0xA5, bytes));
        CU_OK(async ? cuMemsetD16Async(d + 2, v16, n, stream) : cuMemsetD16(d + 2, v16, n));
        CU_OK(cuStreamSynchronize(stream));
        CU_OK(cuMemcpyDtoH(host.data(), d, bytes));
        std::vector<unsigned short> halves(bytes / 2);
        std::memcpy(halves.data(), host.data(), bytes);
        cr_expect_eq(halves[0], 0xA5A5u);
        cr_expect_eq(halves[n + 1], 0xA5A5u);
        wrong = 0;
        for (size_t i = 1; i <= n; i++)
            wrong += halves[i] != v16;
        cr_expect_eq(wrong, 0u, "cuMemsetD16%s: %zu of %zu halves wrong", async ? "Async" : "", wrong, n);

        CU_OK(async ? cuMemsetD8Async(d + 1, v8, n, stream) : cuMemsetD8(d + 1, v8, n));
        CU_OK(cuStreamSynchronize(stream));
        CU_OK(cuMemcpyDtoH(host.data(), d, bytes));
        wrong = 0;
        for (size_t i = 1; i <= n; i++)
            wrong += host[i] != v8;
        cr_expect_eq(wrong, 0u, "cuMemsetD8%s: %zu of %zu bytes wrong", async ? "Async" : "", wrong, n);
    }
    cr_expect_eq(cuMemsetD32(d + 2, 1, 4), CUDA_ERROR_INVALID_VALUE, "cuMemsetD32 needs 4-byte alignment");
    cr_expect_eq(cuMemsetD32(d, 1, n + 3), CUDA_ERROR_INVALID_VALUE, "past the end of the allocation");
    cr_expect(diagnostic_has("cuMemsetD32"), "%s", simtlab_emu_last_diagnostic());
    CU_OK(cuStreamDestroy(stream));
    CU_OK(cuMemFree(d));
}

Test(driver_memory, address_range_of_interior_pointers_is_their_allocation)
{
    std::mt19937 rng(test_seed("address_range"));
    const size_t sizes[] = {1, 13, 4096, 100003};
    CUdeviceptr bases[4];
    for (int i = 0; i < 4; i++)
        CU_OK(cuMemAlloc(&bases[i], sizes[i]));
    for (int round = 0; round < 50; round++) {
        int i = static_cast<int>(rng() % 4);
        size_t offset = rng() % sizes[i];
        CUdeviceptr base = 1, p = bases[i] + offset;
        size_t size = 1;
        CU_OK(cuMemGetAddressRange(&base, &size, p));
        cr_expect_eq(base, bases[i], "allocation %d, offset %zu: base", i, offset);
        cr_expect_eq(size, sizes[i], "allocation %d, offset %zu: size %zu", i, offset, size);
    }
    /* Either output may be NULL. */
    CUdeviceptr base = 0;
    size_t size = 0;
    CU_OK(cuMemGetAddressRange(&base, nullptr, bases[2] + 100));
    cr_expect_eq(base, bases[2]);
    CU_OK(cuMemGetAddressRange(nullptr, &size, bases[3] + 5));
    cr_expect_eq(size, sizes[3]);

    /* cudaMalloc and managed memory are the same registry. */
    void *rt = nullptr;
    cr_assert_eq(cudaMalloc(&rt, 777), cudaSuccess);
    CU_OK(cuMemGetAddressRange(&base, &size, dptr_of(rt) + 776));
    cr_expect_eq(base, dptr_of(rt));
    cr_expect_eq(size, 777u);

    /* Not CUDA memory: the stack, the heap, one past the end, freed memory. */
    int on_stack = 0;
    std::vector<char> on_heap(64);
    const CUdeviceptr not_cuda[] = {dptr_of(&on_stack), dptr_of(on_heap.data()), bases[1] + sizes[1], 0};
    for (CUdeviceptr p : not_cuda) {
        base = 1, size = 1;
        cr_expect_eq(cuMemGetAddressRange(&base, &size, p), CUDA_ERROR_NOT_FOUND, "0x%llx", p);
        cr_expect_eq(base, 0u, "outputs are zeroed on failure");
        cr_expect_eq(size, 0u);
    }
    CU_OK(cuMemFree(bases[0]));
    cr_expect_eq(cuMemGetAddressRange(&base, &size, bases[0]), CUDA_ERROR_NOT_FOUND, "freed");
    for (int i = 1; i < 4; i++)
        CU_OK(cuMemFree(bases[i]));
    cudaFree(rt);
}

Test(driver_memory, address_range_of_static_data_says_it_is_host_memory_here)
{
    static const char device_file_name[] = "a string a kernel could hold";
    CUdeviceptr base = 1;
    size_t size = 1;
    cr_expect_eq(cuMemGetAddressRange(&base, &size, dptr_of(device_file_name)), CUDA_ERROR_NOT_FOUND);
    cr_expect(diagnostic_has("static data"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(size, 0u);
}

Test(driver_memory, host_memory_is_pinned_and_mapped)
{
    void *h = nullptr, *mapped = nullptr;
    CU_OK(cuMemAllocHost(&h, 100));
    CU_OK(cuMemHostAlloc(&mapped, 50, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
    CUdeviceptr dev_view = 0;
    CU_OK(cuMemHostGetDevicePointer(&dev_view, mapped, 0));
    cr_expect_eq(dev_view, dptr_of(mapped), "unified addressing: the same address");
    CUdeviceptr base = 0;
    size_t size = 0;
    CU_OK(cuMemGetAddressRange(&base, &size, dptr_of(static_cast<char *>(h) + 99)));
    cr_expect_eq(base, dptr_of(h));
    cr_expect_geq(size, 100u, "whole pages");
    CU_OK(cuMemFreeHost(h));
    CU_OK(cuMemFreeHost(mapped));
    cr_expect_eq(cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE, "freed twice");
}

Test(driver_memory, pitched_2d_copies_move_exactly_the_box)
{
    std::mt19937 rng(test_seed("2d"));
    const size_t width = 37, height = 11; /* bytes per row, rows: odd, prime */
    std::vector<unsigned char> src(width * height), back(width * height, 0xEE);
    for (auto &b : src)
        b = static_cast<unsigned char>(rng());
    CUdeviceptr a = 0, b = 0;
    size_t pitch_a = 0, pitch_b = 0;
    CU_OK(cuMemAllocPitch(&a, &pitch_a, width, height, 4));
    CU_OK(cuMemAllocPitch(&b, &pitch_b, width + 5, height + 3, 16));
    cr_assert_geq(pitch_a, width);
    cr_assert_geq(pitch_b, width + 5);
    CU_OK(cuMemsetD8(b, 0x5A, pitch_b * (height + 3)));

    /* host -> a, then a -> b at column 5, row 3, then b's box -> host */
    CUDA_MEMCPY2D c;
    std::memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = src.data(), c.srcPitch = width;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE, c.dstDevice = a, c.dstPitch = pitch_a;
    c.WidthInBytes = width, c.Height = height;
    CU_OK(cuMemcpy2D(&c));
    std::memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = a, c.srcPitch = pitch_a;
    c.dstMemoryType = CU_MEMORYTYPE_UNIFIED, c.dstDevice = b, c.dstPitch = pitch_b, c.dstXInBytes = 5, c.dstY = 3;
    c.WidthInBytes = width, c.Height = height;
    CUstream stream = nullptr;
    CU_OK(cuStreamCreate(&stream, 0));
    CU_OK(cuMemcpy2DAsync(&c, stream));
    CU_OK(cuStreamSynchronize(stream));
    std::memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcDevice = b, c.srcPitch = pitch_b, c.srcXInBytes = 5, c.srcY = 3;
    c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = back.data(), c.dstPitch = width;
    c.WidthInBytes = width, c.Height = height;
    CU_OK(cuMemcpy2D(&c));
    cr_expect_eq(std::memcmp(back.data(), src.data(), src.size()), 0, "the box came back");

    /* b outside the box is untouched */
    std::vector<unsigned char> whole(pitch_b * (height + 3));
    CU_OK(cuMemcpyDtoH(whole.data(), b, whole.size()));
    size_t changed = 0;
    for (size_t y = 0; y < height + 3; y++)
        for (size_t x = 0; x < pitch_b; x++) {
            bool in_box = y >= 3 && y < 3 + height && x >= 5 && x < 5 + width;
            if (!in_box)
                changed += whole[y * pitch_b + x] != 0x5A;
        }
    cr_expect_eq(changed, 0u, "%zu bytes outside the box changed", changed);

    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    cr_expect_eq(cuMemcpy2D(&c), CUDA_ERROR_NOT_SUPPORTED, "no CUDA arrays");
    c.srcMemoryType = CU_MEMORYTYPE_DEVICE, c.srcY = height + 3; /* the box runs past b's end */
    cr_expect_eq(cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuMemAllocPitch(&a, &pitch_a, width, height, 3), CUDA_ERROR_INVALID_VALUE, "element size 3");
    CU_OK(cuStreamDestroy(stream));
    CU_OK(cuMemFree(b));
}

Test(driver_device, uuid_and_pci_bus_id_are_the_runtimes)
{
    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    CUuuid uuid;
    std::memset(&uuid, 0xFF, sizeof uuid);
    CU_OK(cuDeviceGetUuid(&uuid, 0));
    cr_expect_eq(std::memcmp(uuid.bytes, prop.uuid.bytes, sizeof uuid.bytes), 0);
    char bus[32] = {0}, rt_bus[32] = {0};
    CU_OK(cuDeviceGetPCIBusId(bus, sizeof bus, 0));
    cr_assert_eq(cudaDeviceGetPCIBusId(rt_bus, sizeof rt_bus, 0), cudaSuccess);
    cr_expect_str_eq(bus, rt_bus);
    cr_expect_eq(cuDeviceGetUuid(&uuid, 2), CUDA_ERROR_INVALID_DEVICE);
}

static void expect_attributes_agree(const void *p, const char *what);

static void CUDA_CB record_value(void *user)
{
    int *slot = static_cast<int *>(user);
    slot[1] = slot[0]; /* what the stream's earlier copy left in slot[0] */
}

Test(driver_memory, registered_host_memory_and_host_functions_follow_the_stream)
{
    std::mt19937 rng(test_seed("host_fn"));
    int *slots = static_cast<int *>(std::calloc(1024, sizeof(int)));
    cr_assert_not_null(slots);
    CU_OK(cuMemHostRegister(slots, 1024 * sizeof(int), CU_MEMHOSTREGISTER_DEVICEMAP));
    unsigned int type = 0;
    CU_OK(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dptr_of(slots + 7)));
    cr_expect_eq(type, static_cast<unsigned>(CU_MEMORYTYPE_HOST), "registered memory is host memory CUDA knows");
    cr_expect_neq(cuMemHostRegister(slots, 1024 * sizeof(int), 0), CUDA_SUCCESS, "registered twice");
    CUdeviceptr base = 0;
    size_t size = 0;
    CU_OK(cuMemGetAddressRange(&base, &size, dptr_of(slots + 1000)));
    cr_expect_eq(base, dptr_of(slots));
    cr_expect_eq(size, 1024 * sizeof(int));
    expect_attributes_agree(slots + 3, "registered");

    const int value = static_cast<int>(rng() % 100000) + 1;
    CUdeviceptr d = 0;
    CU_OK(cuMemAlloc(&d, sizeof(int)));
    CU_OK(cuMemsetD32(d, static_cast<unsigned>(value), 1));
    CUstream stream = nullptr;
    CU_OK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    slots[0] = slots[1] = -1;
    CU_OK(cuMemcpyDtoHAsync(slots, d, sizeof(int), stream));
    CU_OK(cuLaunchHostFunc(stream, record_value, slots));
    CU_OK(cuStreamSynchronize(stream));
    cr_expect_eq(slots[1], value, "the host function ran after the copy (%d, want %d)", slots[1], value);

    CU_OK(cuStreamDestroy(stream));
    CU_OK(cuMemFree(d));
    CU_OK(cuMemHostUnregister(slots));
    cr_expect_neq(cuMemHostUnregister(slots), CUDA_SUCCESS, "unregistered twice");
    std::free(slots);
}

/* ---- pointer attributes ---------------------------------------------------- */

static void expect_attributes_agree(const void *p, const char *what)
{
    cudaPointerAttributes rt;
    cr_assert_eq(cudaPointerGetAttributes(&rt, p), cudaSuccess);
    unsigned int type = 99, managed = 99;
    CUdeviceptr dev = 1;
    void *host = reinterpret_cast<void *>(1);
    int ordinal = 99;
    CUcontext ctx = nullptr;
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_HOST_POINTER,
                                   CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, CU_POINTER_ATTRIBUTE_CONTEXT};
    void *data[] = {&type, &managed, &dev, &host, &ordinal, &ctx};
    CU_OK(cuPointerGetAttributes(6, attrs, data, dptr_of(p)));
    switch (rt.type) {
    case cudaMemoryTypeUnregistered:
        cr_expect_eq(type, 0u, "%s: unknown pointers get zeros", what);
        cr_expect_null(ctx, "%s", what);
        break;
    case cudaMemoryTypeHost: cr_expect_eq(type, static_cast<unsigned>(CU_MEMORYTYPE_HOST), "%s", what); break;
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged: cr_expect_eq(type, static_cast<unsigned>(CU_MEMORYTYPE_DEVICE), "%s", what); break;
    }
    cr_expect_eq(managed, rt.type == cudaMemoryTypeManaged ? 1u : 0u, "%s: is managed", what);
    cr_expect_eq(ptr_of(dev), rt.devicePointer, "%s: device pointer", what);
    cr_expect_eq(host, rt.hostPointer, "%s: host pointer", what);
    if (rt.type != cudaMemoryTypeUnregistered) {
        cr_expect_eq(ordinal, rt.device, "%s: device", what);
        cr_expect_not_null(ctx, "%s: context", what);
    }
}

Test(driver_pointer, attributes_agree_with_cudaPointerGetAttributes)
{
    void *d = nullptr, *m = nullptr, *h = nullptr;
    cr_assert_eq(cudaMalloc(&d, 40), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&m, 40), cudaSuccess);
    cr_assert_eq(cudaMallocHost(&h, 40), cudaSuccess);
    int plain = 0;
    expect_attributes_agree(d, "device");
    expect_attributes_agree(static_cast<char *>(d) + 39, "device, last byte");
    expect_attributes_agree(m, "managed");
    expect_attributes_agree(h, "pinned");
    expect_attributes_agree(&plain, "unregistered host");

    CUdeviceptr start = 0;
    size_t size = 0;
    CU_OK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, dptr_of(d) + 17));
    CU_OK(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, dptr_of(d) + 17));
    cr_expect_eq(start, dptr_of(d));
    cr_expect_eq(size, 40u);
    unsigned long long id_d = 0, id_m = 0;
    CU_OK(cuPointerGetAttribute(&id_d, CU_POINTER_ATTRIBUTE_BUFFER_ID, dptr_of(d)));
    CU_OK(cuPointerGetAttribute(&id_m, CU_POINTER_ATTRIBUTE_BUFFER_ID, dptr_of(m)));
    cr_expect_neq(id_d, id_m, "buffer ids are unique");

    /* The one-attribute call fails where the many-attribute call answers zeros. */
    unsigned int type = 0;
    cr_expect_eq(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dptr_of(&plain)),
                 CUDA_ERROR_INVALID_VALUE);
    void *host = nullptr;
    cr_expect_eq(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, dptr_of(d)), CUDA_ERROR_INVALID_VALUE,
                 "device memory has no host address");
    cr_expect_eq(cuPointerGetAttribute(&type, static_cast<CUpointer_attribute>(77), dptr_of(d)),
                 CUDA_ERROR_INVALID_VALUE);
    cr_expect_eq(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, dptr_of(d)),
                 CUDA_ERROR_NOT_SUPPORTED);
    cudaFree(d);
    cudaFree(m);
    cudaFreeHost(h);
}

/* ---- errors ------------------------------------------------------------------ */

Test(driver_errors, names_and_texts_cover_every_result_and_match_the_runtime)
{
    const char *s = nullptr;
    CU_OK(cuGetErrorName(CUDA_ERROR_NOT_FOUND, &s));
    cr_expect_str_eq(s, "CUDA_ERROR_NOT_FOUND");
    CU_OK(cuGetErrorString(CUDA_ERROR_NOT_FOUND, &s));
    cr_expect_str_eq(s, "named symbol not found");
    CU_OK(cuGetErrorName(CUDA_SUCCESS, &s));
    cr_expect_str_eq(s, "CUDA_SUCCESS");
    CU_OK(cuGetErrorName(CUDA_ERROR_KEY_ROTATION, &s));
    cr_expect_str_eq(s, "CUDA_ERROR_KEY_ROTATION");
    CU_OK(cuGetErrorString(CUDA_ERROR_NOT_SUPPORTED, &s));
    cr_expect_str_eq(s, "operation not supported");

    /* The toolkit's numbers. */
    cr_expect_eq(CUDA_ERROR_INVALID_CONTEXT, 201);
    cr_expect_eq(CUDA_ERROR_ILLEGAL_ADDRESS, 700);
    cr_expect_eq(CUDA_ERROR_NOT_SUPPORTED, 801);
    cr_expect_eq(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, 900);
    cr_expect_eq(CUDA_ERROR_UNKNOWN, 999);

    /* Every number from 0 to 1000: a CUresult has a unique name that starts
     * with CUDA_ and a text; where the runtime has the same number, the two
     * texts agree; the rest are refused. */
    std::set<std::string> names;
    int results = 0;
    for (int code = -1; code <= 1000; code++) {
        const char *name = reinterpret_cast<const char *>(1), *text = reinterpret_cast<const char *>(1);
        CUresult rn = cuGetErrorName(static_cast<CUresult>(code), &name);
        CUresult rs = cuGetErrorString(static_cast<CUresult>(code), &text);
        cr_expect_eq(rn, rs, "%d", code);
        if (rn != CUDA_SUCCESS) {
            cr_expect_eq(rn, CUDA_ERROR_INVALID_VALUE, "%d", code);
            cr_expect_null(name, "%d: NULL for an unknown code", code);
            cr_expect_null(text, "%d", code);
            continue;
        }
        results++;
        cr_assert_not_null(name);
        cr_assert_not_null(text);
        cr_expect_eq(std::strncmp(name, "CUDA_", 5), 0, "%d: %s", code, name);
        cr_expect_gt(std::strlen(text), 3u, "%d", code);
        cr_expect(names.insert(name).second, "%d: %s named twice", code, name);
        const char *rt_name = cudaGetErrorName(static_cast<cudaError_t>(code));
        if (std::strcmp(rt_name, "unrecognized error code") != 0)
            cr_expect_str_eq(text, cudaGetErrorString(static_cast<cudaError_t>(code)), "%d (%s, %s)", code, name,
                             rt_name);
    }
    cr_expect_eq(results, 101, "CUDA 13 declares 101 CUresult values, got %d", results);
    cr_expect_eq(cuGetErrorName(CUDA_SUCCESS, nullptr), CUDA_ERROR_INVALID_VALUE);
}

/* ---- what needs a PTX JIT ---------------------------------------------------- */

Test(driver_modules, module_launch_and_link_calls_are_not_supported_and_say_so)
{
    CUmodule mod = reinterpret_cast<CUmodule>(1);
    cr_expect_eq(cuModuleLoad(&mod, "kernel.cubin"), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_null(mod);
    cr_expect(diagnostic_has("cuModuleLoad is not supported") && diagnostic_has("from the program's CUDA source"),
              "%s", simtlab_emu_last_diagnostic());
    const char ptx[] = ".version 8.0\n.target sm_80\n";
    cr_expect_eq(cuModuleLoadData(&mod, ptx), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(cuModuleLoadDataEx(&mod, ptx, 0, nullptr, nullptr), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(cuModuleLoadFatBinary(&mod, ptx), CUDA_ERROR_NOT_SUPPORTED);
    CUfunction f = reinterpret_cast<CUfunction>(1);
    cr_expect_eq(cuModuleGetFunction(&f, mod, "kernel"), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_null(f);
    cr_expect(diagnostic_has("cuModuleGetFunction"), "%s", simtlab_emu_last_diagnostic());
    CUdeviceptr g = 1;
    size_t bytes = 1;
    cr_expect_eq(cuModuleGetGlobal(&g, &bytes, mod, "x"), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(g, 0u);
    cr_expect_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect(diagnostic_has("cuLaunchKernel"), "%s", simtlab_emu_last_diagnostic());
    CUlinkState link = reinterpret_cast<CUlinkState>(1);
    cr_expect_eq(cuLinkCreate(0, nullptr, nullptr, &link), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_null(link);
    cr_expect_eq(cuLinkAddData(link, CU_JIT_INPUT_PTX, const_cast<char *>(ptx), sizeof ptx, "k", 0, nullptr, nullptr),
                 CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "k.ptx", 0, nullptr, nullptr), CUDA_ERROR_NOT_SUPPORTED);
    void *cubin = reinterpret_cast<void *>(1);
    cr_expect_eq(cuLinkComplete(link, &cubin, &bytes), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_null(cubin);
    cr_expect_eq(cuLinkDestroy(link), CUDA_ERROR_NOT_SUPPORTED);
    cr_expect_eq(cuModuleUnload(mod), CUDA_ERROR_NOT_SUPPORTED);
}

/* ---- runtime and driver together ------------------------------------------- */

__global__ void affine(const float *in, float *out, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i] + b;
}

Test(driver_mixed, runtime_and_driver_share_memory_streams_and_events)
{
    std::mt19937 rng(test_seed("mixed"));
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    const int n = 1031; /* prime */
    std::vector<float> in(n), out(n);
    for (float &x : in)
        x = dist(rng);

    /* Driver memory, a driver stream and events, a runtime copy and launch. */
    CUdeviceptr d_in = 0;
    float *d_out = nullptr;
    CU_OK(cuMemAlloc(&d_in, n * sizeof(float)));
    cr_assert_eq(cudaMalloc(&d_out, n * sizeof(float)), cudaSuccess);
    CUstream stream = nullptr;
    CU_OK(cuStreamCreate(&stream, CU_STREAM_DEFAULT));
    CUevent start = nullptr, stop = nullptr;
    CU_OK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CU_OK(cuEventCreate(&stop, CU_EVENT_DEFAULT));

    CU_OK(cuMemsetD32Async(dptr_of(d_out), 0x7FC00000u, n, stream)); /* poison: NaN */
    CU_OK(cuEventRecord(start, stream));
    cr_assert_eq(cudaMemcpyAsync(ptr_of(d_in), in.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream),
                 cudaSuccess);
    affine<<<(n + 127) / 128, 128, 0, stream>>>(static_cast<const float *>(ptr_of(d_in)), d_out, 2.5f, -3.0f, n);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    CU_OK(cuEventRecord(stop, stream));
    std::fill(out.begin(), out.end(), 0.0f);
    CU_OK(cuMemcpyDtoHAsync(out.data(), dptr_of(d_out), n * sizeof(float), stream));
    CU_OK(cuEventSynchronize(stop));
    CU_OK(cuStreamSynchronize(stream));
    CU_OK(cuStreamQuery(stream));
    CU_OK(cuEventQuery(stop));
    float ms = -1.0f;
    CU_OK(cuEventElapsedTime(&ms, start, stop));
    cr_expect_geq(ms, 0.0f);
    float rt_ms = -1.0f;
    cr_assert_eq(cudaEventElapsedTime(&rt_ms, start, stop), cudaSuccess);
    cr_expect_eq(ms, rt_ms, "the same events, the same time");

    int wrong = 0;
    for (int i = 0; i < n; i++) {
        double want = 2.5 * static_cast<double>(in[i]) - 3.0;
        if (!(std::fabs(out[i] - want) <= 1e-4 * (1.0 + std::fabs(want))))
            wrong++;
    }
    cr_expect_eq(wrong, 0, "%d of %d elements wrong", wrong, n);

    /* A runtime stream waits on a driver event; a driver stream on a runtime
     * event. */
    cudaStream_t rt_stream = nullptr;
    cr_assert_eq(cudaStreamCreate(&rt_stream), cudaSuccess);
    CU_OK(cuStreamWaitEvent(rt_stream, stop, 0));
    cudaEvent_t rt_event = nullptr;
    cr_assert_eq(cudaEventCreate(&rt_event), cudaSuccess);
    cr_assert_eq(cudaEventRecord(rt_event, rt_stream), cudaSuccess);
    CU_OK(cuStreamWaitEvent(stream, rt_event, CU_EVENT_WAIT_DEFAULT));
    CU_OK(cuCtxSynchronize());

    /* Frees cross over too. */
    cr_expect_eq(cudaFree(ptr_of(d_in)), cudaSuccess);
    CU_OK(cuMemFree(dptr_of(d_out)));
    CU_OK(cuEventDestroy(start));
    CU_OK(cuEventDestroy(stop));
    cr_expect_eq(cudaEventDestroy(rt_event), cudaSuccess);
    CU_OK(cuStreamDestroy(stream));
    cr_expect_eq(cuStreamDestroy(stream), CUDA_ERROR_INVALID_HANDLE, "destroyed twice");
    cr_expect_eq(cudaGetLastError(), cudaSuccess, "the driver's failure is not the runtime's last error");
    cr_expect_eq(cudaStreamDestroy(rt_stream), cudaSuccess);
    cr_expect_eq(simtlab_emu_report_live_allocations(nullptr), 0u, "nothing leaked");
}
