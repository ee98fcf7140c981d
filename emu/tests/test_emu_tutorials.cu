/* Tests of what the tutorial survey of 12-04 needed (emu/README.md,
 * "Programs tried"): kernels with reference parameters (code-samples'
 * unified-memory dataElem_um_c++_2), <cuda/atomic> (printf-alternative) and
 * managed memory beyond the device's size (unified-memory-oversubscription).
 *
 *   build/bin/test_emu_tutorials --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>

/* ---- reference parameters ----------------------------------------------- */

/* A class whose objects live in managed memory, as in the unified-memory
 * post: the kernel gets the object by reference, CUDA passes its address. */
struct Managed {
    void *operator new(std::size_t n)
    {
        void *p = nullptr;
        if (cudaMallocManaged(&p, n) != cudaSuccess)
            throw std::bad_alloc();
        return p;
    }
    void operator delete(void *p) { cudaFree(p); }
};

struct Element : Managed {
    int value;
    double sum;
    int hits[37];
};

__global__ void bump(Element &e, int by)
{
    atomicAdd(&e.hits[threadIdx.x % 37], 1);
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        e.value += by; /* the caller's object, not a copy */
        e.sum = e.value * 0.5;
    }
}

__global__ void read_const_ref(const Element &e, int *out)
{
    out[threadIdx.x] = e.value + static_cast<int>(threadIdx.x);
}

Test(reference_param, the_kernel_writes_the_callers_managed_object)
{
    Element *e = new Element;
    e->value = 41;
    e->sum = -1.0;
    for (int &h : e->hits)
        h = 0;
    bump<<<3, 101>>>(*e, 1);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(e->value, 42, "the kernel changed a copy: value %d", e->value);
    cr_expect_eq(e->sum, 21.0);
    int total = 0;
    for (int i = 0; i < 37; ++i) {
        int want = 3 * (101 / 37 + (i < 101 % 37 ? 1 : 0));
        cr_expect_eq(e->hits[i], want, "hits[%d] = %d, want %d", i, e->hits[i], want);
        total += e->hits[i];
    }
    cr_expect_eq(total, 303);
    delete e;
}

Test(reference_param, const_reference_and_cudaLaunchKernel_with_the_objects_address)
{
    Element *e = new Element;
    e->value = 1000;
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 19 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 19; ++i)
        out[i] = -7;
    read_const_ref<<<1, 19>>>(*e, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < 19; ++i)
        cr_expect_eq(out[i], 1000 + i);
    /* the C++ form of cudaLaunchKernel: args[0] is the object's address */
    e->value = 5;
    for (int i = 0; i < 19; ++i)
        out[i] = -7;
    void *args[] = {e, &out};
    cr_assert_eq(cudaLaunchKernel(read_const_ref, dim3(1), dim3(19), args, 0, nullptr), cudaSuccess, "%s",
                 simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 19; ++i)
        cr_expect_eq(out[i], 5 + i);
    cudaFree(out);
    delete e;
}

/* ---- managed memory beyond the device ------------------------------------ */

__global__ void touch_pages(char *p, const std::size_t *offsets, int n, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[offsets[i]] += 1;
        atomicAdd(sum, p[offsets[i]]);
    }
}

Test(managed_oversubscription, beyond_the_device_up_to_the_host_with_cudaMallocs_limit_kept)
{
    cudaDeviceProp prop;
    cr_assert_eq(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    const std::size_t total = prop.totalGlobalMem;
    /* cudaMalloc keeps the device's size */
    void *d = nullptr;
    cr_expect_eq(cudaMalloc(&d, total + 1), cudaErrorMemoryAllocation);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "out of device memory"), "%s",
              simtlab_emu_last_diagnostic());
    (void)cudaGetLastError();

    /* managed memory may oversubscribe it (pages committed when touched) */
    const std::size_t big = total + total / 16 + 12345;
    char *m = nullptr;
    cr_assert_eq(cudaMallocManaged(&m, big), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    const unsigned seed = static_cast<unsigned>(std::time(nullptr));
    std::printf("managed_oversubscription seed %u\n", seed);
    std::srand(seed);
    enum { n = 61 };
    std::size_t *offsets = nullptr;
    int *sum = nullptr;
    cr_assert_eq(cudaMallocManaged(&offsets, n * sizeof *offsets), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&sum, sizeof *sum), cudaSuccess);
    offsets[0] = 0, offsets[1] = big - 1, offsets[2] = total; /* first byte, last byte, past the device */
    for (int i = 3; i < n; ++i) /* distinct pages: i-th slice of the allocation */
        offsets[i] = (big / n) * i + static_cast<std::size_t>(std::rand()) % (big / n);
    long want = 0;
    for (int i = 0; i < n; ++i) {
        m[offsets[i]] = static_cast<char>(i % 50);
        want += i % 50 + 1;
    }
    *sum = 0;
    touch_pages<<<2, 32>>>(m, offsets, n, sum);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(*sum, want);
    for (int i = 0; i < n; ++i)
        cr_expect_eq(m[offsets[i]], static_cast<char>(i % 50 + 1), "byte at %zu", offsets[i]);

    /* device memory is counted without the managed memory */
    cr_expect_eq(cudaMalloc(&d, 1 << 20), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cudaFree(d);

    /* more than the host has: refused, naming the size and the cap */
    char *huge = nullptr;
    const std::size_t too_much = std::size_t{1} << 50;
    cr_expect_eq(cudaMallocManaged(&huge, too_much), cudaErrorMemoryAllocation);
    cr_expect_null(huge);
    const char *diag = simtlab_emu_last_diagnostic();
    cr_expect(std::strstr(diag, "cudaMallocManaged(1125899906842624 bytes)"), "%s", diag);
    cr_expect(std::strstr(diag, "physical memory and swap"), "%s", diag);
    (void)cudaGetLastError();
    cr_expect_eq(cudaFree(m), cudaSuccess);
    cudaFree(offsets);
    cudaFree(sum);
}
