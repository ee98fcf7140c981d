/* The planted student bugs: each kernel below carries one mistake that
 * students make, and each test checks that the emulator catches it the way
 * the tutorial promises — a wrong result where a GPU gives a wrong result,
 * and otherwise a failed launch whose diagnostic names the kernel, block,
 * thread, source line and cause. Every test must end quickly: none of these
 * bugs may hang the emulator.
 *
 * Build and run: cmake --build build --target test_emu_bugs &&
 *                build/bin/test_emu_bugs */
#include <criterion/criterion.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

/* ---- helpers ----------------------------------------------------------- */

static const char *diagnostic()
{
    return simtlab_emu_last_diagnostic();
}

#define EXPECT_DIAGNOSTIC_HAS(text) \
    cr_assert(std::strstr(diagnostic(), (text)) != nullptr, "diagnostic lacks \"%s\": %s", (text), diagnostic())

/* The diagnostics below name the first thread to hit the bug, which with
 * the default schedule (threads start in index order) is known; a seed from
 * the environment would pick another. */
static void use_index_order()
{
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
}

/* Input 1, 2, 3, ... so that a sum missing or repeating an element is off. */
static float *upload_ramp(size_t n)
{
    std::vector<float> host(n);
    for (size_t i = 0; i < n; i++)
        host[i] = static_cast<float>(i % 97 + 1);
    float *device = nullptr;
    cr_assert_eq(cudaMalloc(&device, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    return device;
}

/* The block sums, in double precision, independent of any kernel. */
static std::vector<double> reference_block_sums(size_t n, unsigned block)
{
    std::vector<double> sums(n / block, 0.0);
    for (size_t i = 0; i < n; i++)
        sums[i / block] += static_cast<double>(i % 97 + 1);
    return sums;
}

/* How many of the kernel's block sums differ from the reference. */
static int count_wrong_sums(const float *device_sums, const std::vector<double> &want)
{
    std::vector<float> got(want.size());
    cr_assert_eq(cudaMemcpy(got.data(), device_sums, got.size() * sizeof(float), cudaMemcpyDeviceToHost),
                 cudaSuccess);
    int wrong = 0;
    for (size_t b = 0; b < want.size(); b++)
        wrong += !(std::fabs(got[b] - want[b]) <= 1e-3 * want[b]); /* NaN counts as wrong */
    return wrong;
}

/* ---- 1. a missing __syncthreads in a shared-memory reduction ------------- */

constexpr unsigned reduce_block = 256;

/* The correct tree reduction (the tutorial's v3), as the control. */
__global__ void reduce_tree(const float *in, float *out)
{
    __shared__ float partial[reduce_block];
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * reduce_block + t];
    __syncthreads();
    for (unsigned stride = reduce_block / 2; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}

/* BUG: no __syncthreads() inside the loop, so a thread may read
 * partial[t + stride] before its owner has added into it. */
__global__ void reduce_tree_missing_sync(const float *in, float *out)
{
    __shared__ float partial[reduce_block];
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * reduce_block + t];
    __syncthreads();
    for (unsigned stride = reduce_block / 2; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}

/* BUG: the last thread sums the tile without waiting for the others'
 * stores. Threads started in index order would hide it (the last thread
 * runs last); a seeded random order does not. */
__global__ void reduce_by_last_thread_missing_sync(const float *in, float *out)
{
    __shared__ float tile[reduce_block];
    const unsigned t = threadIdx.x;
    tile[t] = in[blockIdx.x * reduce_block + t];
    if (t == reduce_block - 1) {
        float sum = 0.0f;
        for (unsigned i = 0; i < reduce_block; i++)
            sum += tile[i];
        out[blockIdx.x] = sum;
    }
}

static void check_reduction_bug(void (*buggy)(const float *, float *), const char *name)
{
    /* Before the first launch: the engine reads it at each launch. */
    cr_assert_eq(setenv("SIMTLAB_EMU_SEED", "12345", 1), 0);
    const size_t n = size_t{64} * reduce_block;
    float *in = upload_ramp(n), *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, n / reduce_block * sizeof(float)), cudaSuccess);
    const std::vector<double> want = reference_block_sums(n, reduce_block);

    reduce_tree<<<n / reduce_block, reduce_block>>>(in, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", diagnostic());
    cr_assert_eq(count_wrong_sums(out, want), 0, "the correct reduction must pass under a seed");

    buggy<<<n / reduce_block, reduce_block>>>(in, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s: a data race is not a launch error", name);
    const int wrong = count_wrong_sums(out, want);
    cr_assert_gt(wrong, 0, "%s: every block sum came out right; the race went unseen", name);
    cudaFree(in);
    cudaFree(out);
}

Test(bugs, missing_syncthreads_in_a_tree_reduction_gives_wrong_sums_under_a_seed)
{
    check_reduction_bug(reduce_tree_missing_sync, "reduce_tree_missing_sync");
}

Test(bugs, missing_syncthreads_before_one_thread_sums_the_tile_gives_wrong_sums_under_a_seed)
{
    check_reduction_bug(reduce_by_last_thread_missing_sync, "reduce_by_last_thread_missing_sync");
}

/* ---- 2. an out-of-bounds write ------------------------------------------------ */

/* BUG: no `if (i < n)`: the last block runs past the end of the array. */
__global__ void scale_without_bounds_check(float *out, int n)
{
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    out[i] = 2.0f * static_cast<float>(i + n);
}

Test(bugs, an_out_of_bounds_write_names_block_thread_bytes_past_the_end_and_allocation)
{
    use_index_order();
    const int n = 1000; /* 4000 bytes: a multiple of 16, so its end abuts the guard page */
    float *out = nullptr;
    const int alloc_line = __LINE__ + 1;
    cr_assert_eq(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    scale_without_bounds_check<<<4, 256>>>(out, n);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress, "%s", diagnostic());
    /* Element 1000 is thread 232 of block 3: 256 * 3 + 232. */
    char made_at[64];
    std::snprintf(made_at, sizeof made_at, "test_emu_bugs.cu:%d", alloc_line);
    EXPECT_DIAGNOSTIC_HAS("out-of-bounds");
    EXPECT_DIAGNOSTIC_HAS("kernel scale_without_bounds_check");
    EXPECT_DIAGNOSTIC_HAS("block (3,0,0)");
    EXPECT_DIAGNOSTIC_HAS("thread (232,0,0)");
    EXPECT_DIAGNOSTIC_HAS("offset 4000, the first byte past the end of the 4000-byte allocation");
    EXPECT_DIAGNOSTIC_HAS("(its bytes are at offsets 0 to 3999)");
    EXPECT_DIAGNOSTIC_HAS(made_at);
#if defined(__x86_64__)
    EXPECT_DIAGNOSTIC_HAS("out-of-bounds write"); /* the page-fault error code says so */
#endif
}

/* Allocations of 2 MiB and more are laid out for huge pages (their end on a
 * 2 MiB boundary): running off their end must fault just the same. */
Test(bugs, an_out_of_bounds_write_past_a_huge_page_allocation_is_caught_too)
{
    use_index_order();
    const int n = (3 << 20) / 4 + 4 * 256 - 24; /* 3 MiB and 4072 bytes: ends 24 bytes into a 4-block tail */
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, n * sizeof(float)), cudaSuccess);
    const int blocks = (n + 255) / 256;
    scale_without_bounds_check<<<blocks, 256>>>(out, n);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress, "%s", diagnostic());
    char expected[160];
    std::snprintf(expected, sizeof expected, "offset %d, the first byte past the end of the %d-byte allocation",
                  n * 4, n * 4);
    EXPECT_DIAGNOSTIC_HAS(expected);
    char block[32];
    std::snprintf(block, sizeof block, "block (%d,0,0)", n / 256);
    EXPECT_DIAGNOSTIC_HAS(block);
}

/* ---- 3. a barrier inside divergent code ---------------------------------------- */

/* Not a bug since sm_70, though it looks like one: the two halves of the
 * block wait at different __syncthreads calls. Each is `bar.sync 0`, and a
 * round of barrier 0 counts every live thread of the block whichever call
 * it waits at, so both halves meet in one round (SGEMM_CUDA's
 * double-buffered kernel relies on this). */
__global__ void divergent_barrier(int *out)
{
    __shared__ int tile[32];
    const unsigned t = threadIdx.x;
    if (t < 16) {
        tile[t] = 1;
        __syncthreads();
        out[t] = tile[t + 16];
    } else {
        tile[t] = 2;
        __syncthreads();
        out[t] = tile[t - 16];
    }
}

/* The launch just made failed as barrier divergence, threads 0-15 waiting
 * at line `first` and 16-31 at line `second` (`variant`: how the second
 * call is named after its site, "" for plain __syncthreads). */
static void expect_halves_diverged(int first, int second, const char *variant)
{
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure, "%s", diagnostic());
    char lower[96], upper[128];
    std::snprintf(lower, sizeof lower, "threads 0-15 wait at %s:%d", __FILE__, first);
    std::snprintf(upper, sizeof upper, "threads 16-31 wait at %s:%d%s", __FILE__, second, variant);
    EXPECT_DIAGNOSTIC_HAS("barrier divergence");
    EXPECT_DIAGNOSTIC_HAS(lower);
    EXPECT_DIAGNOSTIC_HAS(upper);
}

Test(bugs, two_call_sites_of_syncthreads_meet_in_one_round)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(out, 0xFF, 32 * sizeof(int)), cudaSuccess);
    divergent_barrier<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", diagnostic());
    int got[32];
    cr_assert_eq(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int t = 0; t < 32; t++) /* each half read what the other wrote before the barrier */
        cr_assert_eq(got[t], t < 16 ? 2 : 1, "thread %d read %d", t, got[t]);
}

/* BUG, on one line: half the block waits in __syncthreads, half in
 * __syncthreads_count. They are two barrier calls, even on the same line. */
constexpr int same_line_barriers = __LINE__ + 4;
__global__ void two_barrier_variants_on_one_line(int *out)
{
    const unsigned t = threadIdx.x;
    if (t < 16) __syncthreads(); else out[t] = __syncthreads_count(1);
}

Test(bugs, two_barrier_variants_on_one_line_are_divergent_too)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    two_barrier_variants_on_one_line<<<1, 32>>>(out);
    expect_halves_diverged(same_line_barriers, same_line_barriers, " (__syncthreads_count)");
}

/* ---- 4. a shuffle that counts on a lane which has exited ------------------------ */

/* BUG: lane 5 returns early, yet the shuffle's full mask names it. */
__global__ void shuffle_after_early_return(int *out)
{
    const unsigned lane = threadIdx.x % 32;
    if (lane == 5)
        return;
    out[lane] = __shfl_down_sync(0xffffffffu, static_cast<int>(lane), 1);
}

Test(bugs, a_shuffle_with_an_exited_lane_names_the_lane)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    shuffle_after_early_return<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalInstruction, "%s", diagnostic());
    EXPECT_DIAGNOSTIC_HAS("kernel shuffle_after_early_return");
    EXPECT_DIAGNOSTIC_HAS("lane 5");
    EXPECT_DIAGNOSTIC_HAS("exited");
    EXPECT_DIAGNOSTIC_HAS("__shfl_down_sync");
}

/* The same bug seen from the other side: the lane has already exited when
 * the others arrive (lane 31 of each warp exits; the order is reversed by
 * starting the exiting lane's warp-mates only after it is gone). */
__global__ void shuffle_after_lane_0_returned(int *out)
{
    const unsigned lane = threadIdx.x % 32;
    if (lane == 0)
        return; /* lane 0 runs first and is gone before lane 1 arrives */
    out[lane] = __shfl_sync(0xffffffffu, static_cast<int>(lane), 0);
}

Test(bugs, a_shuffle_naming_a_lane_that_already_exited_names_the_lane)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    shuffle_after_lane_0_returned<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalInstruction, "%s", diagnostic());
    EXPECT_DIAGNOSTIC_HAS("lane 0");
    EXPECT_DIAGNOSTIC_HAS("has already exited");
}

/* ---- 5. other warp-level mistakes: never a hang ------------------------------- */

/* BUG: the mask leaves out the odd lanes, but they call too. */
__global__ void shuffle_mask_without_caller(int *out)
{
    out[threadIdx.x] = __shfl_sync(0x55555555u, static_cast<int>(threadIdx.x), 0);
}

Test(bugs, a_shuffle_whose_mask_leaves_out_the_caller_fails)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    shuffle_mask_without_caller<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalInstruction, "%s", diagnostic());
    EXPECT_DIAGNOSTIC_HAS("thread (1,0,0)");
    EXPECT_DIAGNOSTIC_HAS("the calling lane 1 is not in its own mask");
}

/* BUG: half the warp waits at a shuffle, the other half at __syncthreads:
 * neither can complete. */
__global__ void shuffle_against_barrier(int *out)
{
    const unsigned t = threadIdx.x;
    if (t < 16)
        out[t] = __shfl_xor_sync(0xffffffffu, static_cast<int>(t), 1);
    else
        __syncthreads();
}

Test(bugs, lanes_at_a_shuffle_while_others_wait_at_a_barrier_is_a_diagnosed_deadlock)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    shuffle_against_barrier<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalInstruction, "%s", diagnostic());
    EXPECT_DIAGNOSTIC_HAS("deadlock");
    EXPECT_DIAGNOSTIC_HAS("lanes 0-15 of warp 0 wait at __shfl_xor_sync");
    EXPECT_DIAGNOSTIC_HAS("for lanes 16-31");
    EXPECT_DIAGNOSTIC_HAS("threads 16-31 wait at __syncthreads");
}

/* A failed block leaves threads parked at a barrier, at a shuffle and in
 * the ready queue; their stacks go back to the worker for later launches.
 * Were one given back twice, two fibers of a later block would share it. */
__global__ void reverse_tiles(int *out)
{
    __shared__ int tile[256];
    const unsigned t = threadIdx.x;
    tile[t] = static_cast<int>(blockIdx.x * 256 + t);
    __syncthreads();
    const int mine = tile[255 - t];
    __syncthreads();
    tile[t] = mine + 1;
    __syncthreads();
    out[blockIdx.x * 256 + t] = tile[t];
}

Test(bugs, launches_after_a_reset_run_on_the_stacks_a_failed_block_left)
{
    for (int round = 0; round < 3; ++round) {
        int *out = nullptr;
        cr_assert_eq(cudaMalloc(&out, 64 * 256 * sizeof(int)), cudaSuccess);
        shuffle_against_barrier<<<8, 32>>>(out);
        cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalInstruction, "%s", diagnostic());
        cr_assert_eq(cudaDeviceReset(), cudaSuccess);
        cr_assert_eq(cudaMalloc(&out, 64 * 256 * sizeof(int)), cudaSuccess);
        reverse_tiles<<<64, 256>>>(out);
        cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "round %d: %s", round, diagnostic());
        static int host[64 * 256];
        cr_assert_eq(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
        for (int b = 0; b < 64; ++b)
            for (int t = 0; t < 256; ++t)
                cr_assert_eq(host[b * 256 + t], b * 256 + (255 - t) + 1, "round %d, block %d, thread %d", round,
                             b, t);
        cr_assert_eq(cudaFree(out), cudaSuccess);
    }
}

/* BUG: two overlapping masks in one warp (lanes 0-15 wait with the full
 * mask; lane 16 arrives with only the upper half). */
__global__ void overlapping_masks(int *out)
{
    const unsigned t = threadIdx.x;
    const unsigned mask = t < 16 ? 0xffffffffu : 0xffff0000u;
    out[t] = __shfl_sync(mask, static_cast<int>(t), 0);
}

Test(bugs, lanes_meeting_with_different_masks_fail)
{
    use_index_order();
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    overlapping_masks<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalInstruction, "%s", diagnostic());
    EXPECT_DIAGNOSTIC_HAS("lane 16 calls __shfl_sync");
    EXPECT_DIAGNOSTIC_HAS("with mask 0xffff0000 while lanes 0-15 wait");
    EXPECT_DIAGNOSTIC_HAS("with mask 0xffffffff");
}
