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
