/* The emulator's headers as code written for the CUDA toolkit sees them:
 * each header by its toolkit name, the toolkit's include guards, every
 * vector type with its size and alignment and its make_* function, every
 * device attribute, limits, cache configurations, the occupancy calculator,
 * and calls the emulator does not do (cudaErrorNotSupported, named).
 *
 * Expected sizes, alignments and enum numbers are those of CUDA 13's
 * headers; device values are the CUDA C++ Programming Guide's
 * ("Technical Specifications per Compute Capability") for sm_80 and sm_90.
 *
 * Build and run:  cmake --build build --target test_emu_toolkit_headers &&
 *                 build/bin/test_emu_toolkit_headers --verbose
 */
#include <criterion/criterion.h>

#include <builtin_types.h>
#include <cuda_device_runtime_api.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <device_types.h>
#include <driver_types.h>
#include <host_defines.h>
#include <math_constants.h>
#include <surface_types.h>
#include <texture_types.h>
#include <vector_functions.h>
#include <vector_types.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

/* ---- the guards that code such as cuda-samples' helper_cuda.h tests ---- */
#if !defined(__CUDA_RUNTIME_H__) || !defined(__CUDA_RUNTIME_API_H__) || !defined(__DRIVER_TYPES_H__) ||     \
    !defined(__VECTOR_TYPES_H__) || !defined(__VECTOR_FUNCTIONS_H__) || !defined(__DEVICE_FUNCTIONS_H__) || \
    !defined(__HOST_DEFINES_H__) || !defined(__DEVICE_TYPES_H__) || !defined(__TEXTURE_TYPES_H__) ||        \
    !defined(__SURFACE_TYPES_H__) || !defined(__MATH_CONSTANTS_H__) || !defined(__CUDA_PROFILER_API_H__) ||  \
    !defined(__CUDA_DEVICE_RUNTIME_API_H__) || !defined(__DEVICE_LAUNCH_PARAMETERS_H__) ||                   \
    !defined(__BUILTIN_TYPES_H__)
#error "a toolkit include guard is missing"
#endif
#if CUDART_VERSION < 13000
#error "CUDART_VERSION"
#endif

/* ---- vector types: CUDA's sizes and alignments ------------------------- */
#define SIZE_ALIGN(T, size, align) \
    static_assert(sizeof(T) == (size) && alignof(T) == (align), #T " has CUDA's size and alignment")
SIZE_ALIGN(char1, 1, 1);   SIZE_ALIGN(uchar1, 1, 1);   SIZE_ALIGN(char2, 2, 2);    SIZE_ALIGN(uchar2, 2, 2);
SIZE_ALIGN(char3, 3, 1);   SIZE_ALIGN(uchar3, 3, 1);   SIZE_ALIGN(char4, 4, 4);    SIZE_ALIGN(uchar4, 4, 4);
SIZE_ALIGN(short1, 2, 2);  SIZE_ALIGN(ushort1, 2, 2);  SIZE_ALIGN(short2, 4, 4);   SIZE_ALIGN(ushort2, 4, 4);
SIZE_ALIGN(short3, 6, 2);  SIZE_ALIGN(ushort3, 6, 2);  SIZE_ALIGN(short4, 8, 8);   SIZE_ALIGN(ushort4, 8, 8);
SIZE_ALIGN(int1, 4, 4);    SIZE_ALIGN(uint1, 4, 4);    SIZE_ALIGN(int2, 8, 8);     SIZE_ALIGN(uint2, 8, 8);
SIZE_ALIGN(int3, 12, 4);   SIZE_ALIGN(uint3, 12, 4);   SIZE_ALIGN(int4, 16, 16);   SIZE_ALIGN(uint4, 16, 16);
SIZE_ALIGN(long1, 8, 8);   SIZE_ALIGN(ulong1, 8, 8);   SIZE_ALIGN(long2, 16, 16);  SIZE_ALIGN(ulong2, 16, 16);
SIZE_ALIGN(long3, 24, 8);  SIZE_ALIGN(ulong3, 24, 8);  SIZE_ALIGN(long4, 32, 16);  SIZE_ALIGN(ulong4, 32, 16);
SIZE_ALIGN(long4_16a, 32, 16);  SIZE_ALIGN(long4_32a, 32, 32);
SIZE_ALIGN(ulong4_16a, 32, 16); SIZE_ALIGN(ulong4_32a, 32, 32);
SIZE_ALIGN(longlong1, 8, 8);    SIZE_ALIGN(ulonglong1, 8, 8);   SIZE_ALIGN(longlong2, 16, 16);
SIZE_ALIGN(ulonglong2, 16, 16); SIZE_ALIGN(longlong3, 24, 8);   SIZE_ALIGN(ulonglong3, 24, 8);
SIZE_ALIGN(longlong4, 32, 16);  SIZE_ALIGN(ulonglong4, 32, 16); SIZE_ALIGN(longlong4_16a, 32, 16);
SIZE_ALIGN(longlong4_32a, 32, 32); SIZE_ALIGN(ulonglong4_16a, 32, 16); SIZE_ALIGN(ulonglong4_32a, 32, 32);
SIZE_ALIGN(float1, 4, 4);  SIZE_ALIGN(float2, 8, 8);   SIZE_ALIGN(float3, 12, 4);  SIZE_ALIGN(float4, 16, 16);
SIZE_ALIGN(double1, 8, 8); SIZE_ALIGN(double2, 16, 16); SIZE_ALIGN(double3, 24, 8); SIZE_ALIGN(double4, 32, 16);
SIZE_ALIGN(double4_16a, 32, 16); SIZE_ALIGN(double4_32a, 32, 32);
SIZE_ALIGN(dim3, 12, 4);

/* Each make_<T>N(1, 2, ...) must put 1, 2, ... in x, y, z, w: sums of the
 * fields weighted 1, 10, 100, 1000 tell a swap from the right order. */
template <class V>
static double weigh1(V v) { return v.x; }
template <class V>
static double weigh2(V v) { return v.x + 10.0 * v.y; }
template <class V>
static double weigh3(V v) { return v.x + 10.0 * v.y + 100.0 * v.z; }
template <class V>
static double weigh4(V v) { return v.x + 10.0 * v.y + 100.0 * v.z + 1000.0 * v.w; }

#define CHECK_MAKE_ALL(prefix)                                                                   \
    do {                                                                                         \
        cr_expect_eq(weigh1(make_##prefix##1(1)), 1.0, "make_" #prefix "1");                     \
        cr_expect_eq(weigh2(make_##prefix##2(1, 2)), 21.0, "make_" #prefix "2");                 \
        cr_expect_eq(weigh3(make_##prefix##3(1, 2, 3)), 321.0, "make_" #prefix "3");             \
        cr_expect_eq(weigh4(make_##prefix##4(1, 2, 3, 4)), 4321.0, "make_" #prefix "4");         \
    } while (0)

Test(toolkit_headers, every_make_function_fills_x_y_z_w_in_order)
{
    CHECK_MAKE_ALL(char);
    CHECK_MAKE_ALL(uchar);
    CHECK_MAKE_ALL(short);
    CHECK_MAKE_ALL(ushort);
    CHECK_MAKE_ALL(int);
    CHECK_MAKE_ALL(uint);
    CHECK_MAKE_ALL(long);
    CHECK_MAKE_ALL(ulong);
    CHECK_MAKE_ALL(longlong);
    CHECK_MAKE_ALL(ulonglong);
    CHECK_MAKE_ALL(float);
    CHECK_MAKE_ALL(double);
    cr_expect_eq(weigh4(make_double4_32a(1, 2, 3, 4)), 4321.0);
    cr_expect_eq(weigh4(make_longlong4_16a(1, 2, 3, 4)), 4321.0);
    cr_expect_eq(weigh4(make_ulong4_32a(1, 2, 3, 4)), 4321.0);
    /* Negative values survive in the signed types. */
    cr_expect_eq(make_char2(-3, 4).x, -3);
    cr_expect_eq(make_short4(1, 2, 3, -7).w, -7);
}

/* A kernel receives vector types by value and writes them, as device code
 * does with float4 loads. */
__global__ void swizzle(const float4 *in, int2 *out, double3 *d)
{
    float4 v = in[threadIdx.x];
    out[threadIdx.x] = make_int2(static_cast<int>(v.w), static_cast<int>(v.x));
    d[threadIdx.x] = make_double3(v.y, v.z, v.x + v.y);
}

Test(toolkit_headers, vector_types_pass_through_a_kernel)
{
    float4 host_in[2] = {make_float4(1, 2, 3, 4), make_float4(5, 6, 7, 8)};
    float4 *in;
    int2 *out;
    double3 *d;
    cr_assert_eq(cudaMalloc((void **)&in, sizeof host_in), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&out, 2 * sizeof(int2)), cudaSuccess);
    cr_assert_eq(cudaMalloc((void **)&d, 2 * sizeof(double3)), cudaSuccess);
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    swizzle<<<1, 2>>>(in, out, d);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    int2 o[2];
    double3 dd[2];
    cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
    cudaMemcpy(dd, d, sizeof dd, cudaMemcpyDeviceToHost);
    cr_expect(o[0].x == 4 && o[0].y == 1 && o[1].x == 8 && o[1].y == 5);
    cr_expect(dd[1].x == 6 && dd[1].y == 7 && dd[1].z == 11);
    cudaFree(in), cudaFree(out), cudaFree(d);
}

Test(toolkit_headers, math_constants_have_their_values)
{
    cr_expect_float_eq(CUDART_PI_F, 3.14159265f, 1e-7f);
    cr_expect_float_eq(CUDART_PI, std::acos(-1.0), 1e-15);
    cr_expect_float_eq(CUDART_SQRT_2PI, std::sqrt(2.0 * std::acos(-1.0)), 1e-15);
    cr_expect_float_eq(CUDART_L2E, 1.0 / std::log(2.0), 1e-15);
    cr_expect_float_eq(CUDART_LNT, std::log(10.0), 1e-15);
    cr_expect(std::isinf(CUDART_INF_F) && CUDART_INF_F > 0);
    cr_expect(std::isnan(CUDART_NAN) && std::isnan(CUDART_NAN_F));
    cr_expect(std::signbit(CUDART_NEG_ZERO_F));
    cr_expect_eq(CUDART_TWO_TO_M1022, std::ldexp(1.0, -1022));
}

/* ---- attributes --------------------------------------------------------- */

/* The numbers of CUDA 13's cudaDeviceAttr, less the reserved ones. */
static bool is_cuda13_attribute(int a)
{
    return (a >= 1 && a <= 43) || (a >= 45 && a <= 91) || (a >= 95 && a <= 101 && a != 96) || a == 106 ||
           a == 108 || a == 109 || (a >= 111 && a <= 121) || a == 125 || a == 126 || a == 130 || a == 131 ||
           (a >= 133 && a <= 135) || a == 138 || a == 139 || a == 140 || (a >= 142 && a <= 144) || a == 147;
}

Test(toolkit_headers, every_attribute_of_cuda_13_reads_and_others_are_refused)
{
    for (int a = 0; a <= 160; a++) {
        int value = -12345;
        cudaError_t e = cudaDeviceGetAttribute(&value, static_cast<cudaDeviceAttr>(a), 0);
        if (is_cuda13_attribute(a)) {
            cr_expect_eq(e, cudaSuccess, "attribute %d: %s", a, simtlab_emu_last_diagnostic());
            cr_expect_neq(value, -12345, "attribute %d left unset", a);
        } else {
            cr_expect_eq(e, cudaErrorInvalidValue, "number %d is not an attribute", a);
        }
    }
    cudaGetLastError();
}

static int attr(cudaDeviceAttr a)
{
    int v = -1;
    cr_assert_eq(cudaDeviceGetAttribute(&v, a, 0), cudaSuccess, "attribute %d", static_cast<int>(a));
    return v;
}

/* What cuda-samples read: the compute mode and integration decide whether
 * findCudaDevice and gpuGetMaxGflopsDeviceId pick the device at all. */
Test(toolkit_headers, the_attributes_the_samples_test_have_the_emulated_devices_values)
{
    cr_expect_eq(attr(cudaDevAttrComputeMode), cudaComputeModeDefault);
    cr_expect_neq(attr(cudaDevAttrComputeMode), cudaComputeModeProhibited);
    cr_expect_eq(attr(cudaDevAttrIntegrated), 0);
    cr_expect_eq(attr(cudaDevAttrGpuOverlap), 1);
    cr_expect_eq(attr(cudaDevAttrKernelExecTimeout), 0);
    cr_expect_eq(attr(cudaDevAttrWarpSize), 32);
    cr_expect_eq(attr(cudaDevAttrMemoryPoolsSupported), 1); /* the default pool, runtime/pool.cpp */
    cr_expect_eq(attr(cudaDevAttrHostNativeAtomicSupported), 1);
    cr_expect_eq(attr(cudaDevAttrMaxTexture2DWidth), 0); /* textures are not emulated */

    cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_expect_eq(attr(cudaDevAttrComputeCapabilityMajor), p.major);
    cr_expect_eq(attr(cudaDevAttrComputeCapabilityMinor), p.minor);
    cr_expect_eq(attr(cudaDevAttrMultiProcessorCount), p.multiProcessorCount);
    cr_expect_eq(attr(cudaDevAttrCanMapHostMemory), p.canMapHostMemory);
    cr_expect_eq(attr(cudaDevAttrManagedMemory), p.managedMemory);
    cr_expect_eq(attr(cudaDevAttrCooperativeLaunch), p.cooperativeLaunch);
    cr_expect_eq(attr(cudaDevAttrMaxPitch), static_cast<int>(p.memPitch));
    cr_expect_eq(attr(cudaDevAttrReservedSharedMemoryPerBlock), static_cast<int>(p.reservedSharedMemPerBlock));
    cr_expect_eq(attr(cudaDevAttrConcurrentManagedAccess), p.concurrentManagedAccess);
    /* sm_80 by default: 164 KB of shared memory per SM, 1 KB reserved per
     * block, 2048 threads and 32 blocks per SM. */
    if (!std::getenv("SIMTLAB_EMU_CC")) {
        cr_expect_eq(p.major * 10 + p.minor, 80);
        cr_expect_eq(p.sharedMemPerMultiprocessor, 167936u);
        cr_expect_eq(p.reservedSharedMemPerBlock, 1024u);
        cr_expect_eq(p.maxBlocksPerMultiProcessor, 32);
    }
    cr_expect_eq(std::memcmp(p.uuid.bytes, "simtlab-emulator", 16), 0);
}

/* SIMTLAB_EMU_CC picks the generation: read in this test's own process
 * before anything else asks for the properties. */
Test(toolkit_headers, simtlab_emu_cc_9_0_describes_an_h100)
{
    setenv("SIMTLAB_EMU_CC", "9.0", 1);
    cr_expect_eq(attr(cudaDevAttrComputeCapabilityMajor), 9);
    cr_expect_eq(attr(cudaDevAttrComputeCapabilityMinor), 0);
    cr_expect_eq(attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor), 233472); /* 228 KB */
    cr_expect_eq(attr(cudaDevAttrMaxSharedMemoryPerBlockOptin), 232448);     /* 227 KB */
    cr_expect_eq(attr(cudaDevAttrReservedSharedMemoryPerBlock), 1024);
}

/* ---- limits, cache and shared-memory configurations ------------------- */

Test(toolkit_headers, limits_start_at_cudas_defaults_and_read_back_what_was_set)
{
    size_t v = 0;
    cr_assert_eq(cudaDeviceGetLimit(&v, cudaLimitStackSize), cudaSuccess);
    cr_expect_eq(v, 1024u);
    cr_assert_eq(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize), cudaSuccess);
    cr_expect_eq(v, 1u << 20);
    cr_assert_eq(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20), cudaSuccess);
    cr_assert_eq(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize), cudaSuccess);
    cr_expect_eq(v, 64u << 20);
    cr_expect_eq(cudaDeviceGetLimit(&v, static_cast<cudaLimit>(42)), cudaErrorInvalidValue);
    cr_expect_eq(cudaDeviceGetLimit(nullptr, cudaLimitStackSize), cudaErrorInvalidValue);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "pValue") != nullptr);

    cudaFuncCache c = cudaFuncCachePreferNone;
    cr_assert_eq(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
    cr_assert_eq(cudaDeviceGetCacheConfig(&c), cudaSuccess);
    cr_expect_eq(c, cudaFuncCachePreferShared);
    cudaSharedMemConfig s = cudaSharedMemBankSizeDefault;
    cr_assert_eq(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
    cr_assert_eq(cudaDeviceGetSharedMemConfig(&s), cudaSuccess);
    cr_expect_eq(s, cudaSharedMemBankSizeEightByte);
    cr_expect_eq(cudaDeviceSetSharedMemConfig(static_cast<cudaSharedMemConfig>(7)), cudaErrorInvalidValue);
    cudaGetLastError();
}

/* ---- occupancy ----------------------------------------------------------- */

__global__ void plain_kernel(float *p)
{
    p[threadIdx.x] = 0;
}

static int blocks_per_sm(int block, size_t dynamic_shared)
{
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<const void *>(plain_kernel),
                                                                  block, dynamic_shared);
    cr_assert_eq(e, cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    return n;
}

/* sm_80: 2048 threads, 32 blocks and 164 KB of shared memory per SM, whole
 * warps, 1 KB reserved per block, shared memory in 128-byte units. */
Test(toolkit_headers, occupancy_follows_the_sm_80_limits)
{
    if (std::getenv("SIMTLAB_EMU_CC"))
        cr_skip_test("the expectations are sm_80's");
    cr_expect_eq(blocks_per_sm(256, 0), 8);   /* 2048 / 256 */
    cr_expect_eq(blocks_per_sm(1024, 0), 2);
    cr_expect_eq(blocks_per_sm(32, 0), 32);   /* 64 by threads, 32 block slots */
    cr_expect_eq(blocks_per_sm(100, 0), 16);  /* 4 warps = 128 threads: 2048 / 128 */
    /* 48 KB + 1 KB reserved = 50176 bytes a block: 167936 / 50176 = 3. */
    cr_expect_eq(blocks_per_sm(128, 48 * 1024), 3);
    cr_expect_eq(blocks_per_sm(2048, 0), 0);  /* more than a block may have */
    cr_expect_eq(blocks_per_sm(128, 200 * 1024), 0);
    int n;
    cr_expect_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<const void *>(plain_kernel),
                                                               0, 0),
                 cudaErrorInvalidValue);
    cudaGetLastError();

    size_t avail = 0;
    cr_assert_eq(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, plain_kernel, 4, 256), cudaSuccess);
    /* 167936 / 4 = 41984 a block, less the 1 KB reserved. */
    cr_expect_eq(avail, 41984u - 1024u);

    /* Shared memory that grows with the block: 64 bytes a thread. At 1024
     * threads: 2 blocks by threads, 66560 bytes a block -> 2 by shared; at
     * 512 threads: 4 and 33792 -> 4: 2048 resident threads either way, and
     * the larger block wins the tie. */
    int min_grid = 0, block = 0;
    cr_assert_eq(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, plain_kernel,
                                                                [](int b) { return size_t(b) * 64; }),
                 cudaSuccess);
    cr_expect_eq(block, 1024);
    int sms = attr(cudaDevAttrMultiProcessorCount);
    cr_expect_eq(min_grid, 2 * sms);
    /* With 2048 bytes a thread: 1024 threads need 2 MB, which no SM has;
     * 64 threads need 132096 bytes, one block, and nothing larger fits. */
    cr_assert_eq(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, plain_kernel,
                                                                [](int b) { return size_t(b) * 2048; }),
                 cudaSuccess);
    cr_expect_eq(block, 64);
    cr_expect_eq(min_grid, sms);
}

/* ---- what a one-device CPU emulator cannot do --------------------------- */

Test(toolkit_headers, unsupported_calls_return_not_supported_and_name_themselves)
{
    cudaIpcMemHandle_t h;
    void *p = nullptr;
    cr_expect_eq(cudaIpcGetMemHandle(&h, p), cudaErrorNotSupported);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "cudaIpcGetMemHandle") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    cr_expect_eq(cudaGetLastError(), cudaErrorNotSupported);
    cr_expect_str_eq(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported");

    int can = -1;
    cr_expect_eq(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
    cr_expect_eq(can, 0);
    cr_expect_eq(cudaDeviceEnablePeerAccess(1, 0), cudaErrorInvalidDevice);
    char bus[32];
    cr_expect_eq(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
    int dev = -1;
    cr_expect_eq(cudaDeviceGetByPCIBusId(&dev, bus), cudaSuccess);
    cr_expect_eq(dev, 0);
    cudaDeviceProp want;
    std::memset(&want, 0, sizeof want);
    cr_expect_eq(cudaChooseDevice(&dev, &want), cudaSuccess);
    cr_expect_eq(cudaProfilerStart(), cudaSuccess);
    cr_expect_eq(cudaProfilerStop(), cudaSuccess);
    cudaGetLastError();
}
