/* Thrust on the emulator (Debian's Thrust 1.17, CPP device system) and NVTX
 * with no tool attached. emu/docs/libraries.md, "Thrust and NVTX".
 *
 * Random inputs (seed printed; SIMTLAB_TEST_SEED repeats a run), odd and
 * prime sizes, outputs poisoned before each run, every result against a
 * reference computed on the CPU without Thrust. Without libthrust-dev the
 * Thrust tests skip, saying so. */
#include <criterion/criterion.h>

#include <nvToolsExtCudaRt.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "slcc_program.hpp"
#include "test_helpers.hpp"

#ifdef SIMTLAB_EMU_THRUST
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#endif

static unsigned test_seed(void) { return announced_seed("test_emu_thrust"); }

#ifdef SIMTLAB_EMU_THRUST
#define NEED_THRUST() (void)0
#else
#define NEED_THRUST() cr_skip_test("Thrust is not installed: apt-get install libthrust-dev libcub-dev")
#endif

__global__ void affine_kernel(const int *in, long long *out, int n, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (long long)a * in[i] + b;
}

#ifdef SIMTLAB_EMU_THRUST
struct cube_plus {
    int c;
    __host__ __device__ long long operator()(int x) const { return (long long)x * x * x + c; }
};
#endif

Test(thrust, sort_by_key_device_vector)
{
    NEED_THRUST();
#ifdef SIMTLAB_EMU_THRUST
    std::mt19937 rng(test_seed());
    const int n = 100003; /* prime */
    std::vector<unsigned> keys(n);
    std::uniform_int_distribution<unsigned> dist(0, 50000); /* repeated keys on purpose */
    for (auto &k : keys)
        k = dist(rng);
    thrust::device_vector<unsigned> d_keys(keys.begin(), keys.end());
    thrust::device_vector<int> d_vals(n);
    thrust::sequence(d_vals.begin(), d_vals.end());
    thrust::sort_by_key(d_keys.begin(), d_keys.end(), d_vals.begin());

    /* back through cudaMemcpy on the raw pointers: device memory to CUDA */
    std::vector<unsigned> got_keys(n, 0xDEADBEEFu);
    std::vector<int> got_vals(n, -1);
    CHECK_CUDA(cudaMemcpy(got_keys.data(), thrust::raw_pointer_cast(d_keys.data()), n * sizeof(unsigned),
                          cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(got_vals.data(), thrust::raw_pointer_cast(d_vals.data()), n * sizeof(int),
                          cudaMemcpyDeviceToHost));
    std::vector<unsigned> ref = keys;
    std::sort(ref.begin(), ref.end());
    std::vector<char> seen(n, 0);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(got_keys[i], ref[i], "key %d: %u, expected %u", i, got_keys[i], ref[i]);
        int v = got_vals[i];
        cr_assert(v >= 0 && v < n && !seen[v], "value %d: %d is not a fresh index", i, v);
        seen[v] = 1;
        cr_assert_eq(keys[v], got_keys[i], "value %d: index %d carries key %u, not %u", i, v, keys[v], got_keys[i]);
    }
#endif
}

Test(thrust, reduce_transform_scan)
{
    NEED_THRUST();
#ifdef SIMTLAB_EMU_THRUST
    std::mt19937 rng(test_seed());
    const int n = 7919;
    std::vector<int> x(n);
    std::vector<float> f(n);
    std::uniform_int_distribution<int> di(-1000, 1000);
    std::uniform_real_distribution<float> df(-1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        x[i] = di(rng);
        f[i] = df(rng);
    }
    thrust::device_vector<int> dx(x.begin(), x.end());
    thrust::device_vector<float> dfv(f.begin(), f.end());

    long long sum = thrust::reduce(dx.begin(), dx.end(), 0LL);
    double fsum = thrust::reduce(dfv.begin(), dfv.end(), 0.0, thrust::plus<double>());
    thrust::device_vector<long long> t(n, -7);
    thrust::transform(dx.begin(), dx.end(), t.begin(), cube_plus{5});
    thrust::device_vector<long long> s(n, -7);
    thrust::inclusive_scan(t.begin(), t.end(), s.begin());
    thrust::host_vector<long long> hs = s, ht = t;

    long long rsum = 0, run = 0;
    double rf = 0.0;
    for (int i = 0; i < n; i++) {
        rsum += x[i];
        rf += (double)f[i];
        long long cube = (long long)x[i] * x[i] * x[i] + 5;
        cr_assert_eq(ht[i], cube, "transform %d: %lld, expected %lld", i, (long long)ht[i], cube);
        run += cube;
        cr_assert_eq(hs[i], run, "inclusive_scan %d: %lld, expected %lld", i, (long long)hs[i], run);
    }
    cr_assert_eq(sum, rsum, "reduce: %lld, expected %lld", sum, rsum);
    cr_assert(fsum == fsum && std::abs(fsum - rf) <= 1e-9 * n, "reduce of floats in double: %.17g, expected %.17g",
              fsum, rf);
#endif
}

Test(thrust, raw_pointers_to_kernels_and_copies)
{
    NEED_THRUST();
#ifdef SIMTLAB_EMU_THRUST
    std::mt19937 rng(test_seed());
    const int n = 4099; /* prime, not a multiple of the block */
    std::vector<int> x(n);
    std::uniform_int_distribution<int> di(-100000, 100000);
    for (auto &v : x)
        v = di(rng);
    thrust::device_vector<int> dx(x.begin(), x.end());
    thrust::device_vector<long long> dy(n, 0x5A5A5A5A5A5ALL);

    cudaPointerAttributes attr;
    CHECK_CUDA(cudaPointerGetAttributes(&attr, thrust::raw_pointer_cast(dx.data())));
    cr_assert_eq(attr.type, cudaMemoryTypeDevice, "a device_vector's storage is device memory (type %d)", (int)attr.type);

    affine_kernel<<<(n + 127) / 128, 128>>>(thrust::raw_pointer_cast(dx.data()), thrust::raw_pointer_cast(dy.data()), n,
                                            -3, 11);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());

    /* device_vector -> cudaMalloc buffer (DeviceToDevice) -> host */
    long long *buf = nullptr;
    CHECK_CUDA(cudaMalloc(&buf, n * sizeof(long long)));
    CHECK_CUDA(cudaMemcpy(buf, thrust::raw_pointer_cast(dy.data()), n * sizeof(long long), cudaMemcpyDeviceToDevice));
    std::vector<long long> got(n, -1);
    CHECK_CUDA(cudaMemcpy(got.data(), buf, n * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        cr_assert_eq(got[i], -3LL * x[i] + 11, "element %d: %lld, expected %lld", i, got[i], -3LL * x[i] + 11);
    /* Thrust reads what the kernel wrote */
    long long total = thrust::reduce(dy.begin(), dy.end(), 0LL), ref = 0;
    for (int i = 0; i < n; i++)
        ref += -3LL * x[i] + 11;
    cr_assert_eq(total, ref, "reduce after the kernel: %lld, expected %lld", total, ref);
    CHECK_CUDA(cudaFree(buf));
#endif
}

Test(thrust, device_ptr_over_cudaMalloc)
{
    NEED_THRUST();
#ifdef SIMTLAB_EMU_THRUST
    std::mt19937 rng(test_seed());
    const int n = 10007;
    std::vector<float> h(n);
    std::uniform_real_distribution<float> df(-1e3f, 1e3f);
    for (auto &v : h)
        v = df(rng);
    float *raw = nullptr;
    CHECK_CUDA(cudaMalloc(&raw, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(raw, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    thrust::device_ptr<float> p(raw);
    thrust::sort(p, p + n, thrust::greater<float>());
    float mx = thrust::reduce(p, p + n, -1e30f, thrust::maximum<float>());
    std::vector<float> got(n, std::nanf(""));
    CHECK_CUDA(cudaMemcpy(got.data(), raw, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> ref = h;
    std::sort(ref.begin(), ref.end(), [](float a, float b) { return a > b; });
    for (int i = 0; i < n; i++)
        cr_assert(got[i] == ref[i], "element %d: %g, expected %g", i, got[i], ref[i]);
    cr_assert(mx == ref[0], "maximum %g, expected %g", mx, ref[0]);
    /* a device_vector filled from it, through iterators of both kinds */
    thrust::device_vector<float> copy(p, p + n);
    cr_assert(copy[n - 1] == ref[n - 1], "copy's last %g, expected %g", (float)copy[n - 1], ref[n - 1]);
    CHECK_CUDA(cudaFree(raw));
#endif
}

Test(thrust, device_malloc_is_device_memory)
{
    NEED_THRUST();
#ifdef SIMTLAB_EMU_THRUST
    const int n = 1031;
    thrust::device_ptr<int> p = thrust::device_malloc<int>(n);
    cudaPointerAttributes attr;
    CHECK_CUDA(cudaPointerGetAttributes(&attr, p.get()));
    cr_assert_eq(attr.type, cudaMemoryTypeDevice, "device_malloc's memory type %d", (int)attr.type);
    thrust::sequence(p, p + n, 5, 3);
    std::vector<int> got(n, -1);
    CHECK_CUDA(cudaMemcpy(got.data(), p.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        cr_assert_eq(got[i], 5 + 3 * i, "element %d: %d", i, got[i]);
    thrust::device_free(p);
    /* freed: a second cudaFree of the same pointer is a double free */
    cr_assert_eq(cudaFree(p.get()), cudaErrorInvalidValue, "device_free did not give the memory back");
    (void)cudaGetLastError();
#endif
}

Test(nvtx, no_tool_attached)
{
    nvtxEventAttributes_t a = {};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.colorType = NVTX_COLOR_ARGB;
    a.color = 0xFF00FF00u;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "range";
    a.payloadType = NVTX_PAYLOAD_TYPE_DOUBLE;
    a.payload.dValue = 2.5;
    cr_assert_eq(NVTX_VERSION, 3);
    cr_assert_eq(a.size, 48, "nvtxEventAttributes_t is %u bytes, NVTX's is 48", (unsigned)a.size);
    cr_assert_eq(nvtxRangePushA("outer"), NVTX_NO_PUSH_POP_TRACKING);
    cr_assert_eq(nvtxRangePushEx(&a), -2);
    cr_assert_eq(nvtxRangePop(), -2);
    cr_assert_eq(nvtxRangePop(), -2);
    nvtxRangeId_t id = nvtxRangeStartEx(&a);
    cr_assert_eq(id, 0u);
    nvtxRangeEnd(id);
    cr_assert_eq(nvtxRangeStartA("s"), 0u);
    nvtxMarkA("mark");
    nvtxMarkEx(&a);
    nvtxNameOsThreadA(1, "main");
    nvtxNameCategoryA(7, "cat");
    nvtxDomainHandle_t d = nvtxDomainCreateA("simtlab");
    cr_assert_null(d);
    cr_assert_null(nvtxDomainRegisterStringA(d, "s"));
    cr_assert_eq(nvtxDomainRangePushEx(d, &a), -2);
    cr_assert_eq(nvtxDomainRangePop(d), -2);
    nvtxDomainMarkEx(d, &a);
    nvtxDomainDestroy(d);
    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreate(&st));
    nvtxNameCudaStreamA(st, "stream");
    nvtxNameCudaDeviceA(0, "dev");
    CHECK_CUDA(cudaStreamDestroy(st));
}

#if defined(SLCC_PATH) && defined(THRUST_PROGRAM)
/* slcc itself finds Debian's Thrust (its link directory ahead of the guard)
 * and builds an ordinary Thrust program, which then checks itself. */
Test(thrust, slcc_builds_a_thrust_program, .timeout = 280)
{
    NEED_THRUST();
    check_slcc_program(SLCC_PATH, THRUST_PROGRAM, "thrust_program", test_seed());
}
#endif
