/* Tests of what the second round of real programs needed (emu/README.md,
 * "Programs tried"): __trap() in device code (llm.c layernorm_backward), a
 * launch that relies on a kernel's default argument (shfl_scan) and NULL
 * passed for a pointer parameter (llm.c classifier_fused).
 *
 *   build/bin/test_emu_corpus_blockers2 --verbose
 */
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cstddef>
#include <cstdio>
#include <cstring>

#include "corpus_blockers2_kernels.cuh"

/* ---- __trap ---------------------------------------------------------------- */

__global__ void trap_at(int block, int thread, int *out)
{
    if (static_cast<int>(blockIdx.x) == block && static_cast<int>(threadIdx.x) == thread)
        __trap(); /* TRAP_LINE */
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

/* The line of the __trap above, found in this file's own text so that the
 * test does not hard-code it. */
static int trap_line()
{
    FILE *f = std::fopen(__FILE__, "r");
    cr_assert(f, "cannot read %s", __FILE__);
    char line[512];
    int n = 0, found = 0;
    while (std::fgets(line, sizeof line, f)) {
        n++;
        if (std::strstr(line, "__trap(); /* TRAP_LINE */")) {
            found = n;
            break;
        }
    }
    std::fclose(f);
    cr_assert_neq(found, 0, "marker not found");
    return found;
}

Test(trap, ends_the_launch_with_cudaErrorLaunchFailure_naming_kernel_block_thread_and_line)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 3 * 64 * sizeof(int)), cudaSuccess);
    trap_at<<<3, 64>>>(2, 37, out);
    const cudaError_t e = cudaDeviceSynchronize();
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert_eq(e, cudaErrorLaunchFailure, "got %s: %s", cudaGetErrorName(e), diag);
    cr_assert(std::strstr(diag, "kernel trap_at"), "diagnostic: %s", diag);
    cr_assert(std::strstr(diag, "block (2,0,0)"), "diagnostic: %s", diag);
    cr_assert(std::strstr(diag, "thread (37,0,0)"), "diagnostic: %s", diag);
    char where[600];
    std::snprintf(where, sizeof where, "__trap() called at %s:%d", __FILE__, trap_line());
    cr_assert(std::strstr(diag, where), "diagnostic: %s (expected \"%s\")", diag, where);
}

Test(trap, the_error_is_sticky_as_on_a_gpu)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(int)), cudaSuccess);
    trap_at<<<1, 64>>>(0, 0, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    /* The context is unusable: later calls keep failing with the same error. */
    int *more = nullptr;
    cr_assert_eq(cudaMalloc(&more, 16), cudaErrorLaunchFailure);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
}

Test(trap, a_kernel_that_does_not_reach_it_runs_normally)
{
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 2 * 32 * sizeof(int)), cudaSuccess);
    std::memset(out, 0, 2 * 32 * sizeof(int));
    trap_at<<<2, 32>>>(-1, -1, out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < 64; i++)
        cr_assert_eq(out[i], 1, "out[%d]", i);
    cudaFree(out);
}

/* ---- default arguments and NULL ------------------------------------------- */

/* As shfl_scan does: a trailing pointer parameter defaulting to NULL, and
 * a second default after it. */
__global__ void scale_and_maybe_sum(const int *in, int *out, int n, int *sum = NULL, int factor = 3 + 1)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        out[i] = in[i] * factor;
        if (sum)
            atomicAdd(sum, out[i]);
    }
}

/* Declared with its defaults first and defined later, as headers do. */
__global__ void fill_value(int *out, int n, int value = -7);
__global__ void fill_value(int *out, int n, int value)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = value;
}

Test(launch, a_kernel_launched_with_fewer_arguments_gets_its_default_arguments)
{
    const int n = 97; /* prime: a partial last block */
    int *in = nullptr, *out = nullptr, *sum = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&sum, sizeof(int)), cudaSuccess);
    long expected_sum = 0;
    for (int i = 0; i < n; i++) {
        in[i] = 5 * i - 11;
        expected_sum += 4L * in[i];
    }

    std::memset(out, 0xff, n * sizeof(int));
    scale_and_maybe_sum<<<(n + 31) / 32, 32>>>(in, out, n); /* sum = NULL, factor = 4 */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], 4 * in[i], "out[%d] = %d", i, out[i]);

    *sum = 0;
    std::memset(out, 0xff, n * sizeof(int));
    scale_and_maybe_sum<<<(n + 31) / 32, 32>>>(in, out, n, sum); /* factor = 4 */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(*sum, expected_sum);

    *sum = 0;
    scale_and_maybe_sum<<<(n + 31) / 32, 32>>>(in, out, n, sum, 2); /* every argument */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(*sum, expected_sum / 2);

    std::memset(out, 0, n * sizeof(int));
    fill_value<<<4, 32>>>(out, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], -7, "out[%d] = %d", i, out[i]);
    cudaFree(in);
    cudaFree(out);
    cudaFree(sum);
}

Test(launch, a_kernel_of_an_included_header_gets_its_default_arguments)
{
    const int n = 53;
    int *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&out, 2 * n * sizeof(int)), cudaSuccess);
    std::memset(out, 0, 2 * n * sizeof(int));
    header_fill<<<2, 32>>>(out, n); /* value 42, stride 1 */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], 42, "out[%d] = %d", i, out[i]);
    header_fill<<<2, 32>>>(out, n, -3); /* stride 1 */
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], -3, "out[%d] = %d", i, out[i]);
    cudaFree(out);
}

/* As llm.c's classifier kernels: optional outputs tested against NULL. */
__global__ void optional_outputs(const float *in, float *twice, float *square, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    if (twice != NULL)
        twice[i] = 2.0f * in[i];
    if (square != nullptr)
        square[i] = in[i] * in[i];
}

Test(launch, NULL_and_0_pass_for_pointer_parameters)
{
    const int n = 61;
    float *in = nullptr, *twice = nullptr, *square = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&twice, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&square, n * sizeof(float)), cudaSuccess);
    for (int i = 0; i < n; i++)
        in[i] = 0.5f * static_cast<float>(i) - 3.0f;
    for (int i = 0; i < n; i++)
        twice[i] = square[i] = -1.0f;

    optional_outputs<<<2, 32>>>(in, twice, NULL, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++) {
        cr_assert_eq(twice[i], 2.0f * in[i], "twice[%d]", i);
        cr_assert_eq(square[i], -1.0f, "square[%d] written", i);
    }
    optional_outputs<<<2, 32>>>(in, 0, square, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(square[i], in[i] * in[i], "square[%d]", i);
    cudaFree(in);
    cudaFree(twice);
    cudaFree(square);
}

/* ---- tiles of more than 32 threads ------------------------------------------ */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdlib>
#include <ctime>
#include <vector>

namespace cg = cooperative_groups;

/* Each thread writes its slot, the tile syncs, each reads a slot written by
 * another warp of its tile: without a working sync the read finds the
 * poison (the emulator runs the threads of a block one after another). */
template <unsigned Size>
__global__ void tile_rotate(const int *in, int *out, int *meta)
{
    __shared__ cg::block_tile_memory<1024> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
    __shared__ int slot[1024];
    const unsigned t = block.thread_rank();
    const unsigned g = blockIdx.x * block.size() + t;
    slot[t] = in[g];
    tile.sync();
    const unsigned first = t - tile.thread_rank();
    const unsigned members = first + Size <= block.size() ? Size : block.size() - first;
    out[g] = slot[first + (tile.thread_rank() + 37u) % members];
    meta[g] = static_cast<int>(tile.meta_group_rank() * 10000u + tile.meta_group_size() * 100u +
                               (tile.thread_rank() == t % Size ? 1u : 0u));
}

template <unsigned Size>
__global__ void tile_reduce(const int *in, int *sum, int *max)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<Size>(block);
    const int v = in[blockIdx.x * block.size() + block.thread_rank()];
    const int s = cg::reduce(tile, v, cg::plus<int>());
    const int m = cg::reduce(tile, v, cg::greater<int>());
    sum[blockIdx.x * block.size() + block.thread_rank()] = s;
    max[blockIdx.x * block.size() + block.thread_rank()] = m;
}

template <unsigned Size>
static void check_tiles(unsigned block_size, unsigned blocks, unsigned seed)
{
    const unsigned n = block_size * blocks;
    int *in = nullptr, *out = nullptr, *meta = nullptr, *sum = nullptr, *max = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&meta, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&sum, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&max, n * sizeof(int)), cudaSuccess);
    std::srand(seed);
    for (unsigned i = 0; i < n; i++)
        in[i] = std::rand() % 2001 - 1000;
    std::memset(out, 0xab, n * sizeof(int));
    std::memset(sum, 0xab, n * sizeof(int));
    std::memset(max, 0xab, n * sizeof(int));

    tile_rotate<Size><<<blocks, block_size>>>(in, out, meta);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    tile_reduce<Size><<<blocks, block_size>>>(in, sum, max);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());

    const unsigned tiles = (block_size + Size - 1) / Size;
    for (unsigned b = 0; b < blocks; b++)
        for (unsigned t = 0; t < block_size; t++) {
            const unsigned g = b * block_size + t, first = t / Size * Size;
            const unsigned members = first + Size <= block_size ? Size : block_size - first;
            const unsigned rank = t - first;
            cr_assert_eq(out[g], in[b * block_size + first + (rank + 37u) % members],
                         "seed %u, tile %u, block %u thread %u", seed, Size, b, t);
            cr_assert_eq(meta[g], static_cast<int>(t / Size * 10000u + tiles * 100u + 1u),
                         "seed %u, tile %u, thread %u: meta %d", seed, Size, t, meta[g]);
            long s = 0;
            int m = -100000;
            for (unsigned k = first; k < first + members; k++) {
                s += in[b * block_size + k];
                m = in[b * block_size + k] > m ? in[b * block_size + k] : m;
            }
            cr_assert_eq(sum[g], s, "seed %u, tile %u, block %u thread %u", seed, Size, b, t);
            cr_assert_eq(max[g], m, "seed %u, tile %u, block %u thread %u", seed, Size, b, t);
        }
    cudaFree(in);
    cudaFree(out);
    cudaFree(meta);
    cudaFree(sum);
    cudaFree(max);
}

Test(multi_warp_tiles, sync_rank_meta_group_and_reduce_of_64_to_512_thread_tiles)
{
    const unsigned seed = static_cast<unsigned>(std::time(nullptr));
    std::printf("multi_warp_tiles seed %u\n", seed);
    check_tiles<64>(256, 3, seed);
    check_tiles<128>(512, 2, seed + 1);
    check_tiles<128>(320, 2, seed + 2); /* a last tile of 64 threads */
    check_tiles<256>(1024, 1, seed + 3);
    check_tiles<512>(512, 2, seed + 4); /* the whole block */
}

/* The same with a tile made at run time (a thread_group) and with a tile
 * of 64 made from a tile of 256. */
__global__ void runtime_and_nested_tiles(const int *in, int *out_runtime, int *out_nested)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 128);
    __shared__ int slot[512];
    const unsigned t = block.thread_rank();
    slot[t] = in[t];
    tile.sync();
    const unsigned first = t / 128u * 128u;
    out_runtime[t] = slot[first + (t - first + 37u) % 128u];
    block.sync();
    auto big = cg::tiled_partition<256>(block);
    auto small = cg::tiled_partition<64>(big);
    slot[t] = -in[t];
    small.sync();
    const unsigned first64 = t / 64u * 64u;
    out_nested[t] = slot[first64 + (small.thread_rank() + 37u) % 64u];
}

Test(multi_warp_tiles, runtime_tiles_and_tiles_of_tiles_sync_their_own_threads)
{
    int *in = nullptr, *a = nullptr, *b = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, 512 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&a, 512 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&b, 512 * sizeof(int)), cudaSuccess);
    for (int i = 0; i < 512; i++)
        in[i] = 7 * i + 3;
    runtime_and_nested_tiles<<<1, 512>>>(in, a, b);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (unsigned t = 0; t < 512; t++) {
        const unsigned f = t / 128u * 128u, g = t / 64u * 64u;
        cr_assert_eq(a[t], in[f + (t - f + 37u) % 128u], "runtime tile, thread %u", t);
        cr_assert_eq(b[t], -in[g + (t - g + 37u) % 64u], "nested tile, thread %u", t);
    }
    cudaFree(in);
    cudaFree(a);
    cudaFree(b);
}

/* A tile's shfl of values wider than 8 bytes (shfl_scan's integral image
 * moves uint4 with shfl_xor). */
struct three_floats {
    float a, b, c;
};

__global__ void wide_shuffles(uint4 *xor_out, three_floats *from_out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
    const unsigned t = block.thread_rank();
    const uint4 mine = make_uint4(t, 1000u + t, 2000u + t, 3000u + t);
    xor_out[t] = warp.shfl_xor(mine, 5u);
    const three_floats f = {0.5f * static_cast<float>(t), -1.0f * static_cast<float>(t), 7.0f};
    from_out[t] = half.shfl(f, (half.thread_rank() + 3u) % 16u);
}

Test(multi_warp_tiles, a_tile_shuffles_values_wider_than_8_bytes)
{
    uint4 *x = nullptr;
    three_floats *f = nullptr;
    cr_assert_eq(cudaMallocManaged(&x, 64 * sizeof(uint4)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&f, 64 * sizeof(three_floats)), cudaSuccess);
    std::memset(x, 0xff, 64 * sizeof(uint4));
    std::memset(f, 0xff, 64 * sizeof(three_floats));
    wide_shuffles<<<1, 64>>>(x, f);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (unsigned t = 0; t < 64; t++) {
        const unsigned s = (t & ~31u) | ((t & 31u) ^ 5u);
        cr_assert(x[t].x == s && x[t].y == 1000u + s && x[t].z == 2000u + s && x[t].w == 3000u + s,
                  "thread %u got (%u,%u,%u,%u)", t, x[t].x, x[t].y, x[t].z, x[t].w);
        const unsigned h = (t & ~15u) | (((t & 15u) + 3u) % 16u);
        cr_assert(f[t].a == 0.5f * static_cast<float>(h) && f[t].b == -1.0f * static_cast<float>(h) && f[t].c == 7.0f,
                  "thread %u", t);
    }
    cudaFree(x);
    cudaFree(f);
}

/* ---- cuda::pipeline_consumer_wait_prior, <cuda/std/type_traits> ------------- */
#include <cuda/pipeline>
#include <cuda/std/type_traits>

template <class T>
__global__ void staged_copy(const T *in, T *out, int n)
{
    static_assert(cuda::std::is_same_v<T, float> || cuda::std::is_integral<T>::value, "float or an integer");
    __shared__ T stage[2][64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int t = static_cast<int>(threadIdx.x);
    for (int s = 0; s < 2; s++) {
        pipe.producer_acquire();
        if (s * 64 + t < n)
            cuda::memcpy_async(&stage[s][t], &in[s * 64 + t], sizeof(T), pipe);
        pipe.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<1>(pipe); /* stage 0 is complete */
    if (t < n)
        out[t] = stage[0][t] * 2;
    pipe.consumer_release();
    cuda::pipeline_consumer_wait_prior<0>(pipe); /* and stage 1 */
    if (64 + t < n)
        out[64 + t] = stage[1][t] * 2;
    pipe.consumer_release();
}

Test(libcudacxx, pipeline_consumer_wait_prior_and_cuda_std_type_traits)
{
    static_assert(cuda::std::is_same<cuda::std::enable_if_t<true, int>, int>::value, "cuda::std is std");
    const int n = 101;
    float *in = nullptr, *out = nullptr;
    cr_assert_eq(cudaMallocManaged(&in, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&out, n * sizeof(float)), cudaSuccess);
    for (int i = 0; i < n; i++) {
        in[i] = 1.5f * static_cast<float>(i) - 20.0f;
        out[i] = -1.0f;
    }
    staged_copy<float><<<1, 64>>>(in, out, n);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    for (int i = 0; i < n; i++)
        cr_assert_eq(out[i], 2.0f * in[i], "out[%d] = %g", i, static_cast<double>(out[i]));
    cudaFree(in);
    cudaFree(out);
}

/* ---- cublasDgemv, cublasSgemv ---------------------------------------------- */
#include <cublas_v2.h>

#include <cmath>

Test(cublas_gemv, dgemv_and_sgemv_match_a_double_reference_with_both_operations_and_strides)
{
    const unsigned seed = static_cast<unsigned>(std::time(nullptr)) ^ 0x5a5au;
    std::printf("cublas_gemv seed %u\n", seed);
    std::srand(seed);
    const int m = 37, n = 23, lda = 41, incx = 2, incy = 3;
    double *A = nullptr, *x = nullptr, *y = nullptr;
    float *As = nullptr, *xs = nullptr, *ys = nullptr;
    const int xmax = 2 * 37, ymax = 3 * 37;
    cr_assert_eq(cudaMallocManaged(&A, lda * n * sizeof(double)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&x, xmax * sizeof(double)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&y, ymax * sizeof(double)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&As, lda * n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&xs, xmax * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&ys, ymax * sizeof(float)), cudaSuccess);
    auto rnd = [] { return static_cast<double>(std::rand() % 2001 - 1000) / 256.0; }; /* exact in float */
    for (int i = 0; i < lda * n; i++)
        As[i] = static_cast<float>(A[i] = rnd());
    cublasHandle_t h = nullptr;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    const double alpha = 1.25, beta = -0.5;
    const float alphas = 1.25f, betas = -0.5f;
    for (int op = 0; op < 2; op++) {
        const cublasOperation_t trans = op ? CUBLAS_OP_T : CUBLAS_OP_N;
        const int xl = op ? m : n, yl = op ? n : m;
        double y0[ymax];
        for (int i = 0; i < xmax; i++)
            xs[i] = static_cast<float>(x[i] = rnd());
        for (int i = 0; i < ymax; i++)
            ys[i] = static_cast<float>(y[i] = y0[i] = rnd());
        cr_assert_eq(cublasDgemv(h, trans, m, n, &alpha, A, lda, x, incx, &beta, y, incy), CUBLAS_STATUS_SUCCESS,
                     "%s", simtlab_emu_last_diagnostic());
        cr_assert_eq(cublasSgemv(h, trans, m, n, &alphas, As, lda, xs, incx, &betas, ys, incy), CUBLAS_STATUS_SUCCESS,
                     "%s", simtlab_emu_last_diagnostic());
        for (int i = 0; i < ymax; i++) {
            if (i % incy != 0 || i / incy >= yl) { /* between and after the strided elements: untouched */
                cr_assert_eq(y[i], y0[i], "op %d y[%d] written", op, i);
                continue;
            }
            const int r = i / incy;
            double ref = 0.0;
            for (int k = 0; k < xl; k++)
                ref += (op ? A[k + r * lda] : A[r + k * lda]) * x[k * incx];
            ref = alpha * ref + beta * y0[i];
            cr_assert(std::fabs(y[i] - ref) <= 1e-12 * (1.0 + std::fabs(ref)), "op %d y[%d] = %.17g, expected %.17g",
                      op, r, y[i], ref);
            cr_assert(std::fabs(ys[i] - ref) <= 1e-5 * (1.0 + std::fabs(ref)) * xl, "op %d ys[%d] = %g, expected %g",
                      op, r, static_cast<double>(ys[i]), ref);
        }
    }
    /* Bad arguments are named. */
    cr_assert_eq(cublasDgemv(h, CUBLAS_OP_N, m, n, &alpha, A, m - 1, x, 1, &beta, y, 1), CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "lda"), "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cublasDgemv(h, CUBLAS_OP_N, m, n, &alpha, A, lda, x, 0, &beta, y, 1), CUBLAS_STATUS_INVALID_VALUE);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "incx"), "%s", simtlab_emu_last_diagnostic());
    cublasDestroy(h);
    cudaFree(A);
    cudaFree(x);
    cudaFree(y);
    cudaFree(As);
    cudaFree(xs);
    cudaFree(ys);
}
