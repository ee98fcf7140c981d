/* Tests of what the tutorial survey of 12-04 needed (emu/README.md,
 * "Programs tried"): kernels with reference parameters (code-samples'
 * unified-memory dataElem_um_c++_2), <cuda/atomic> (printf-alternative) and
 * managed memory beyond the device's size (unified-memory-oversubscription).
 *
 *   build/bin/test_emu_tutorials --verbose
 */
#include <cuda/atomic>
#include <cuda/barrier> /* one cuda::thread_scope for both */
#include <cuda/std/atomic>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

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

/* A template kernel whose reference parameter the launch deduces; its
 * by-value parameter stays each thread's own copy. */
template <class T>
__global__ void bump_deduced(T &e, int by)
{
    atomicAdd(&e.hits[threadIdx.x % 37], 1);
    by += 1000; /* a copy: the caller's `by` must not change */
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        e.value += by - 1000;
        e.sum = e.value * 0.25;
    }
}

Test(reference_param, a_deduced_template_kernel_writes_the_callers_object)
{
    Element *e = new Element;
    e->value = 10;
    e->sum = -1.0;
    for (int &h : e->hits)
        h = 0;
    int by = 7;
    bump_deduced<<<2, 53>>>(*e, by);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(e->value, 17, "the kernel changed a copy: value %d", e->value);
    cr_expect_eq(e->sum, 17 * 0.25);
    cr_expect_eq(by, 7, "a by-value parameter changed the caller's variable: %d", by);
    int total = 0;
    for (int i = 0; i < 37; ++i)
        total += e->hits[i];
    cr_expect_eq(total, 106);
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
    const cudaError_t got = cudaMallocManaged(&m, big);
    if (got == cudaErrorMemoryAllocation && std::strstr(simtlab_emu_last_diagnostic(), "could not map"))
        cr_skip_test("this host does not overcommit address space (vm.overcommit_memory=2?): %s",
                     simtlab_emu_last_diagnostic());
    cr_assert_eq(got, cudaSuccess, "%s", simtlab_emu_last_diagnostic());
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

/* ---- <cuda/atomic> -------------------------------------------------------- */

/* libcu++'s scope values, in cuda::std and named in cuda:: */
static_assert(cuda::thread_scope_system == 0 && cuda::thread_scope_device == 1 && cuda::thread_scope_block == 2 &&
              cuda::std::thread_scope_thread == 10);
static_assert(std::is_same_v<cuda::thread_scope, cuda::std::thread_scope>);

struct atomics {
    cuda::atomic<int, cuda::thread_scope_device> count;
    cuda::std::atomic<int> down;
    cuda::atomic<unsigned long long, cuda::thread_scope_block> bits;
    cuda::std::atomic<int> lo, hi;
    cuda::atomic<float> fsum;
    cuda::std::atomic<double> dmax; /* by a compare_exchange loop */
    cuda::std::atomic<int *> cursor;
    cuda::std::atomic<unsigned> swaps;
};

__global__ void use_atomics(atomics *a, const int *values, const float *fvalues, const double *dvalues, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    a->count.fetch_add(1, cuda::memory_order_relaxed);
    a->down -= 2;
    a->bits.fetch_or(1ull << (i % 64));
    a->lo.fetch_min(values[i]);
    a->hi.fetch_max(values[i]);
    a->fsum += fvalues[i];
    double seen = a->dmax.load(cuda::std::memory_order_acquire);
    while (seen < dvalues[i] && !a->dmax.compare_exchange_weak(seen, dvalues[i], cuda::std::memory_order_acq_rel,
                                                              cuda::std::memory_order_acquire)) {
    }
    int *slot = a->cursor.fetch_add(1); /* pointer arithmetic in elements */
    *slot = i;
    a->swaps.exchange(static_cast<unsigned>(i));
    ++a->swaps;
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
}

Test(cuda_atomic, every_operation_from_many_threads_against_host_references)
{
    const unsigned seed = static_cast<unsigned>(std::time(nullptr));
    std::printf("cuda_atomic seed %u\n", seed);
    std::srand(seed);
    const int n = 3 * 97 + 5; /* odd, and a partial last block */
    atomics *a = nullptr;
    int *values = nullptr, *slots = nullptr;
    float *fvalues = nullptr;
    double *dvalues = nullptr;
    cr_assert_eq(cudaMallocManaged(&a, sizeof *a), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&values, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&fvalues, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&dvalues, n * sizeof(double)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&slots, n * sizeof(int)), cudaSuccess);
    new (a) atomics{};
    a->count = 0, a->down = 1000, a->bits = 0, a->lo = 1 << 30, a->hi = -(1 << 30), a->fsum = 0.0f;
    a->dmax = -1e300, a->cursor = slots, a->swaps = 0;
    int want_lo = 1 << 30, want_hi = -(1 << 30);
    double want_sum = 0, want_dmax = -1e300;
    for (int i = 0; i < n; ++i) {
        values[i] = std::rand() % 200001 - 100000;
        fvalues[i] = static_cast<float>(std::rand() % 1000) / 64.0f; /* exact sums in float */
        dvalues[i] = std::ldexp(static_cast<double>(std::rand()), -20) - 1000.0;
        slots[i] = -1;
        want_lo = std::min(want_lo, values[i]), want_hi = std::max(want_hi, values[i]);
        want_sum += fvalues[i], want_dmax = std::max(want_dmax, dvalues[i]);
    }
    use_atomics<<<4, 97>>>(a, values, fvalues, dvalues, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(a->count.load(), n);
    cr_expect_eq(a->down.load(), 1000 - 2 * n);
    cr_expect_eq(a->bits.load(), ~0ull);
    cr_expect_eq(a->lo.load(), want_lo);
    cr_expect_eq(a->hi.load(), want_hi);
    cr_expect_eq(static_cast<double>(a->fsum.load()), want_sum);
    cr_expect_eq(a->dmax.load(), want_dmax);
    cr_expect_eq(a->cursor.load(), slots + n);
    std::vector<int> seen(n, 0);
    for (int i = 0; i < n; ++i) {
        cr_assert(slots[i] >= 0 && slots[i] < n, "slot %d holds %d", i, slots[i]);
        seen[slots[i]]++;
    }
    for (int i = 0; i < n; ++i)
        cr_expect_eq(seen[i], 1, "thread %d claimed %d slots", i, seen[i]);
    cr_expect_lt(a->swaps.load(), static_cast<unsigned>(n) + n);
    cudaFree(a), cudaFree(values), cudaFree(fvalues), cudaFree(dvalues), cudaFree(slots);
}

__global__ void histogram_by_ref(const int *v, int n, int *hist)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        cuda::atomic_ref<int, cuda::thread_scope_device> bin(hist[v[i] % 13]);
        bin.fetch_add(1, cuda::memory_order_relaxed);
        cuda::std::atomic_ref<int> total(hist[13]);
        total++;
    }
}

Test(cuda_atomic, atomic_ref_over_plain_device_memory)
{
    const unsigned seed = static_cast<unsigned>(std::time(nullptr)) + 1;
    std::printf("atomic_ref seed %u\n", seed);
    std::srand(seed);
    const int n = 4099;
    std::vector<int> v(n), want(14, 0);
    for (int &x : v) {
        x = std::rand() % 1000;
        want[x % 13]++;
    }
    want[13] = n;
    int *dv = nullptr, *dh = nullptr;
    cr_assert_eq(cudaMalloc(&dv, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dh, 14 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemset(dh, 0, 14 * sizeof(int)), cudaSuccess);
    histogram_by_ref<<<5, 67>>>(dv, n, dh);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    std::vector<int> got(14, -1);
    cr_assert_eq(cudaMemcpy(got.data(), dh, 14 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < 14; ++b)
        cr_expect_eq(got[b], want[b], "bin %d", b);
    cudaFree(dv), cudaFree(dh);
}

/* Thread 0 waits for the block's last thread, which runs after it: the
 * engine must see the spin on load() (and on wait()) and run the others. */
__global__ void spin_on_load(cuda::atomic<int, cuda::thread_scope_block> *flag, cuda::std::atomic<int> *seen)
{
    if (threadIdx.x == 0) {
        while (flag->load(cuda::memory_order_acquire) == 0) {
        }
        flag->wait(1); /* returns once the value is no longer 1 */
        seen->store(flag->load());
    } else if (threadIdx.x == blockDim.x - 1) {
        flag->store(1, cuda::memory_order_release);
        while (seen->load() == 0 && flag->load() == 1)
            flag->store(2);
    }
}

__global__ void spin_forever(cuda::std::atomic<int> *flag)
{
    while (flag->load() == 0) { /* SPIN_FOREVER_LINE */
    }
}

Test(cuda_atomic, spins_on_load_and_wait_let_the_block_run, .timeout = 60)
{
    /* read once per process, at the first spin check: set before any launch */
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    cuda::atomic<int, cuda::thread_scope_block> *flag = nullptr;
    cuda::std::atomic<int> *seen = nullptr;
    cr_assert_eq(cudaMallocManaged(&flag, sizeof *flag), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&seen, sizeof *seen), cudaSuccess);
    flag->store(0), seen->store(0);
    spin_on_load<<<1, 64>>>(flag, seen);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(seen->load(), 2);

    /* a spin nobody ends fails the launch (within SIMTLAB_EMU_SPIN_LIMIT_S, set
     * above), naming this file */
    seen->store(0);
    spin_forever<<<1, 32>>>(seen);
    cr_expect_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "test_emu_tutorials.cu"), "%s",
              simtlab_emu_last_diagnostic());
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "spins without end"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(flag), cudaFree(seen);
}

/* printf-alternative's use: a status in pinned host memory, written by a
 * kernel with release, read by the host through a volatile pointer. */
__global__ void report(cuda::std::atomic<int> *status, int code)
{
    if (threadIdx.x == 7)
        status->store(code, cuda::memory_order_release);
}

Test(cuda_atomic, host_code_and_pinned_memory)
{
    cuda::std::atomic<int> *status = nullptr;
    cr_assert_eq(cudaMallocHost(&status, sizeof *status, cudaHostAllocMapped), cudaSuccess);
    status->store(0, cuda::memory_order_release);
    report<<<1, 32>>>(status, 4321);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_expect_eq(static_cast<volatile cuda::std::atomic<int> *>(status)->load(cuda::memory_order_acquire), 4321);
    int expected = 4321;
    cr_expect(status->compare_exchange_strong(expected, 5));
    expected = 4321;
    cr_expect_not(status->compare_exchange_strong(expected, 6));
    cr_expect_eq(expected, 5, "a failed compare-exchange returns what it found");
    cuda::std::atomic_flag flag;
    flag.clear();
    cr_expect_not(flag.test_and_set());
    cr_expect(flag.test_and_set());
    cr_expect(flag.test());
    cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
    cuda::std::atomic<float> f(1.5f);
    f.fetch_sub(0.25f);
    cr_expect_eq(f.load(), 1.25f);
    cr_expect(f.is_lock_free());
    cudaFreeHost(status);
}
