/* Tests of what real programs (cuda-samples, llm.c, SGEMM_CUDA; see
 * emu/README.md, "Programs tried") needed beyond the other tests: launches
 * of kernel templates with deduced arguments, kernels known by address
 * before any typed use.
 *
 *   build/bin/test_emu_corpus_fixes --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include "corpus_fixes_kernels.cuh"

/* ---- kernel templates launched without their template arguments --------- */

template <class T>
__global__ void axpy_deduced(T *y, const T *x, T a, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

Test(deduced_launch, template_arguments_come_from_the_argument_types)
{
    const int n = 100;
    float *x = nullptr, *y = nullptr;
    cr_assert_eq(cudaMallocManaged(&x, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&y, n * sizeof(float)), cudaSuccess);
    for (int i = 0; i < n; i++) {
        x[i] = static_cast<float>(i);
        y[i] = 1.0f;
    }
    /* T = float from y (float *) and x (float * to const T *) and 3.0f. */
    axpy_deduced<<<(n + 31) / 32, 32>>>(y, x, 3.0f, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; i++)
        cr_expect_eq(y[i], 3.0f * i + 1.0f, "y[%d] = %g", i, y[i]);
    cudaFree(x);
    cudaFree(y);
}

Test(deduced_launch, a_template_from_an_included_header)
{
    const int n = 40;
    long long *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(long long)), cudaSuccess);
    const long long base = 1LL << 40; /* T = long long: a value an int would not hold */
    fill_from_header<<<2, 32>>>(out, base, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < n; i++)
        cr_expect_eq(out[i], base + i);
    cudaFree(out);
}

Test(deduced_launch, a_bad_configuration_is_still_an_error)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, sizeof(int)), cudaSuccess);
    fill_from_header<<<1, 2048>>>(out, 1, 1);
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidConfiguration);
    cudaFree(out);
}

/* ---- every kernel is known by its address from the start ----------------- */

__global__ void only_by_address(int *out, int v) { out[threadIdx.x] = v * 10 + static_cast<int>(threadIdx.x); }

Test(kernel_registry, c_style_launch_of_a_kernel_never_named_with_its_type)
{
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 4 * sizeof(int)), cudaSuccess);
    int v = 7;
    void *args[] = {&out, &v};
    const void *k = reinterpret_cast<const void *>(only_by_address);
    cr_assert_eq(cudaLaunchKernel(k, dim3(1), dim3(4), args, 0, nullptr), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(out[i], 70 + i);
    cudaFree(out);
}
