/* __shared__ declarations written inside #define bodies (the rewriter
 * rewrites them in the macro's text): cuda-samples' cudasharedmem.h way of
 * giving each type its own `extern __shared__` name, a fixed-size tile whose
 * type, name (pasted with ##) and size are the macro's parameters, and a
 * macro used inside a kernel. Each kernel's result is checked against a
 * double-precision CPU reference on random inputs (the seed is printed).
 *
 *   build/bin/test_emu_macro_shared --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

namespace {

template <typename T> struct SharedMem;

/* As cudasharedmem.h writes it: one specialisation per type, the dynamic
 * shared memory under a different name in each, over continued lines. */
#define BUILD_SHARED_MEM(t, n)              \
    template <> struct SharedMem<t> {       \
        __device__ t *get()                 \
        {                                   \
            extern __shared__ t n[];        \
            return n;                       \
        }                                   \
        __device__ t &operator[](int i)     \
        {                                   \
            extern __shared__ t n[];        \
            return n[i];                    \
        }                                   \
    }

BUILD_SHARED_MEM(float, s_float);
BUILD_SHARED_MEM(double, s_double);

/* The lines of a multi-line #define stay lines of the file. */
static_assert(__LINE__ == 44, "the rewritten #define kept its line count");

/* A fixed-size tile at the top of a body (the macro is used in a
 * function), its type, name and size parameters, no trailing `;`. */
#define TILE(T, name, N) __shared__ T name##_tile[N]

/* Block sums of in[], blockDim.x a power of two, in dynamic shared memory
 * reached through SharedMem<T>. */
template <typename T>
__global__ void block_sums(const T *in, T *out, int n)
{
    SharedMem<T> sm;
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    sm[t] = i < (unsigned)n ? in[i] : T(0);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s)
            sm[t] += sm[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = sm.get()[0];
}

/* Reverses each block's 64 elements through a macro-declared tile. */
__global__ void reverse64(const int *in, int *out)
{
    TILE(int, rev, 64);
    const unsigned t = threadIdx.x;
    rev_tile[t] = in[blockIdx.x * 64 + t];
    __syncthreads();
    out[blockIdx.x * 64 + t] = rev_tile[63 - t];
}

unsigned test_seed()
{
    const char *e = std::getenv("SIMTLAB_SEED");
    unsigned seed = e ? (unsigned)std::strtoul(e, nullptr, 10) : (unsigned)std::time(nullptr);
    std::printf("test_emu_macro_shared: seed %u (SIMTLAB_SEED=%u repeats it)\n", seed, seed);
    return seed;
}

template <typename T>
void check_block_sums(unsigned seed, int n, unsigned block, double ulp_half)
{
    std::srand(seed);
    std::vector<T> h(n);
    for (int i = 0; i < n; i++)
        h[i] = T(std::rand() % 2001 - 1000) / T(7);
    const int blocks = (n + (int)block - 1) / (int)block;
    T *d_in, *d_out;
    cr_assert_eq(cudaMalloc(&d_in, n * sizeof(T)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&d_out, blocks * sizeof(T)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemset(d_out, 0xff, blocks * sizeof(T)), cudaSuccess); /* NaN poison */
    block_sums<T><<<blocks, block, block * sizeof(T)>>>(d_in, d_out, n);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    std::vector<T> got(blocks);
    cr_assert_eq(cudaMemcpy(got.data(), d_out, blocks * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < blocks; b++) {
        /* A tree of depth log2(block) over values of both signs: each level's
         * rounding is relative to the partial sums, so the bound scales with
         * the sum of magnitudes, not with the (possibly cancelled) sum. */
        double ref = 0.0, magnitude = 0.0;
        for (int i = b * (int)block; i < n && i < (b + 1) * (int)block; i++) {
            ref += (double)h[i];
            magnitude += std::fabs((double)h[i]);
        }
        const double bound = (std::log2((double)block) + 1.0) * ulp_half * magnitude;
        cr_expect(std::fabs((double)got[b] - ref) <= bound,
                  "seed %u, n %d, block %d: got %.9g, expected %.9g (bound %.3g)", seed, n, b, (double)got[b], ref,
                  bound);
    }
    cudaFree(d_in);
    cudaFree(d_out);
}

} // namespace

Test(macro_shared, extern_shared_specialisations_built_by_a_macro)
{
    const unsigned seed = test_seed();
    check_block_sums<float>(seed, 1009, 128, std::ldexp(1.0, -24)); /* prime size: a partial last block */
    check_block_sums<double>(seed + 1, 3001, 256, std::ldexp(1.0, -53));
}

Test(macro_shared, fixed_size_tile_declared_by_a_macro_in_a_kernel)
{
    const unsigned seed = test_seed();
    std::srand(seed);
    const int blocks = 7, n = blocks * 64;
    std::vector<int> h(n), got(n, -1);
    for (int i = 0; i < n; i++)
        h[i] = std::rand();
    int *d_in, *d_out;
    cr_assert_eq(cudaMalloc(&d_in, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&d_out, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cudaMemset(d_out, 0xff, n * sizeof(int)), cudaSuccess);
    reverse64<<<blocks, 64>>>(d_in, d_out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess);
    cr_assert_eq(cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < 64; t++)
            cr_expect_eq(got[b * 64 + t], h[b * 64 + 63 - t], "seed %u: block %d thread %d", seed, b, t);
    cudaFree(d_in);
    cudaFree(d_out);
}
