/* Tests of what real programs (cuda-samples, llm.c, SGEMM_CUDA; see
 * emu/docs/compatibility.md, "Programs tried") needed beyond the other tests: launches
 * of kernel templates with deduced arguments, kernels known by address
 * before any typed use.
 *
 *   build/bin/test_emu_corpus_fixes --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cstring>

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
    cr_expect_eq(cudaGetLastError(), cudaErrorInvalidValue);
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

/* ---- __syncthreads at several call sites in one round ------------------- */
/* __syncthreads is `bar.sync 0` wherever it is written: a round completes
 * when every live thread of the block waits at any of its call sites.
 * SGEMM_CUDA's double-buffered kernel (11) alternates two branches, each
 * with its own __syncthreads calls, between the two halves of the block. */

/* Each round, the lower half waits at one call and the upper half at
 * another; across the rounds the two halves trade places. Between two
 * rounds each thread writes its slot, and after the next round reads its
 * mirror's slot: if a round released too early, a thread would read a
 * value of the round before. */
__global__ void two_sites_per_round(int *out, int rounds)
{
    __shared__ int slot[64];
    const int t = static_cast<int>(threadIdx.x), n = static_cast<int>(blockDim.x);
    int sum = 0;
    for (int r = 0; r < rounds; r++) {
        slot[t] = r * 1000 + t;
        if ((t < n / 2) == (r % 2 == 0)) {
            __syncthreads();
            sum += slot[n - 1 - t];
            __syncthreads();
        } else {
            __syncthreads();
            sum += slot[n - 1 - t];
            __syncthreads();
        }
    }
    out[blockIdx.x * n + t] = sum;
}

Test(barrier_rounds, different_call_sites_meet_in_the_same_round)
{
    const int block = 64, blocks = 3, rounds = 7;
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, blocks * block * sizeof(int)), cudaSuccess);
    for (int i = 0; i < blocks * block; i++)
        out[i] = -1;
    two_sites_per_round<<<blocks, block>>>(out, rounds);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < block; t++) {
            long want = 0;
            for (int r = 0; r < rounds; r++)
                want += r * 1000 + (block - 1 - t);
            cr_expect_eq(out[b * block + t], want, "block %d thread %d: %d, want %ld", b, t, out[b * block + t], want);
        }
    cudaFree(out);
}

/* __syncthreads_count at two call sites counts the predicates of both. */
__global__ void count_at_two_sites(int *out)
{
    const unsigned t = threadIdx.x;
    int c;
    if (t % 3 == 0)
        c = __syncthreads_count(t % 2);
    else
        c = __syncthreads_count(t % 2);
    out[t] = c;
}

Test(barrier_rounds, syncthreads_count_sums_over_its_call_sites)
{
    const int n = 96;
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(int)), cudaSuccess);
    count_at_two_sites<<<1, n>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int t = 0; t < n; t++)
        cr_expect_eq(out[t], n / 2, "thread %d: %d", t, out[t]);
    cudaFree(out);
}

/* A thread that calls one barrier fewer than the others is still caught:
 * the upper half meets the lower half's first barrier at its own call,
 * then exits while the lower half waits at a second one (synccheck). */
__global__ void one_barrier_short(int *out)
{
    const unsigned t = threadIdx.x;
    if (t < 32) {
        __syncthreads();
        __syncthreads();
    } else {
        __syncthreads();
    }
    out[t] = 1;
}

Test(barrier_rounds, a_missing_arrival_is_still_reported)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    one_barrier_short<<<1, 64>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const char *d = simtlab_emu_last_diagnostic();
    cr_expect(std::strstr(d, "synccheck") != nullptr, "%s", d);
    cr_expect(std::strstr(d, "threads 32-63") != nullptr, "%s", d);
    cudaFree(out);
}

/* Mixing variants in one round stays an error: PTX leaves bar.sync with
 * bar.red on one barrier unpredictable. */
__global__ void plain_and_count_mixed(int *out)
{
    const unsigned t = threadIdx.x;
    if (t < 32)
        __syncthreads();
    else
        out[t] = __syncthreads_count(1);
}

Test(barrier_rounds, two_variants_in_one_round_fail)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    plain_and_count_mixed<<<1, 64>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    const char *d = simtlab_emu_last_diagnostic();
    cr_expect(std::strstr(d, "barrier divergence") != nullptr, "%s", d);
    cr_expect(std::strstr(d, "(__syncthreads_count)") != nullptr, "%s", d);
    cudaFree(out);
}

/* ---- __CUDA_ARCH__ in a .cu ------------------------------------------------ */
/* nvcc's device pass defines it; the emulator's one pass runs the kernels,
 * so a .cu sees the emulated architecture (see cuda_runtime.h). */
static_assert(__CUDA_ARCH__ == SIMTLAB_EMU_CUDA_ARCH, "__CUDA_ARCH__ is the emulated architecture");
static_assert(__CUDA_ARCH__ >= 700, "sm_80 unless SIMTLAB_EMU_CUDA_ARCH says otherwise");

/* The shape of cuda-samples' tensor-core and barrier kernels: the whole body
 * is for sm_70 and later, and compiles empty on older ones. */
__global__ void body_for_volta_and_later(int *out)
{
#if __CUDA_ARCH__ >= 700
    out[threadIdx.x] = static_cast<int>(threadIdx.x) + 1;
#endif
}

Test(cuda_arch, device_code_guarded_by_the_architecture_runs)
{
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 32 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 32; i++)
        out[i] = 0;
    body_for_volta_and_later<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 32; i++)
        cr_expect_eq(out[i], i + 1);
    cudaFree(out);
}
