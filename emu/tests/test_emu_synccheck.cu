/* synccheck: a __syncthreads that not every thread of the block reaches is
 * undefined behaviour in CUDA, even when the threads that skip it then exit
 * (CUDA Programming Guide: __syncthreads is allowed in conditional code only
 * if the condition evaluates identically across the block). The emulator
 * fails such a launch with cudaErrorLaunchFailure and a diagnostic that
 * names the barrier's line, the threads that reached it and those that
 * exited, as compute-sanitizer's synccheck reports it.
 * SIMTLAB_EMU_SYNCCHECK=0 turns the check off for code that relies on the
 * PTX rule (bar.sync waits only for threads that have not exited).
 *
 * The thread lists below are worked out by hand from each kernel's
 * condition (threads start in index order; a seed is removed).
 *
 * Build and run: cmake --build build --target test_emu_synccheck &&
 *                build/bin/test_emu_synccheck */
#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

/* ---- helpers ----------------------------------------------------------- */

static void setup_default(void)
{
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SYNCCHECK"), 0);
}

static float *upload_ones(unsigned n)
{
    std::vector<float> host(n, 1.0f);
    float *device = nullptr;
    cr_assert_eq(cudaMalloc(&device, n * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    return device;
}

static std::vector<float> download(const float *device, unsigned n)
{
    std::vector<float> host(n, -1.0f);
    cr_assert_eq(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

/* The launch just made failed with cudaErrorLaunchFailure, and its
 * diagnostic holds every one of `words` (NULL-terminated). */
static void expect_synccheck_failure(const char *const *words)
{
    const cudaError_t err = cudaGetLastError();
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert_eq(err, cudaErrorLaunchFailure, "expected cudaErrorLaunchFailure, got %s: %s",
                 cudaGetErrorName(err), diag);
    for (; *words; words++)
        cr_assert(std::strstr(diag, *words) != nullptr, "diagnostic lacks \"%s\": %s", *words, diag);
}

static void expect_launch_ok(const char *what)
{
    const cudaError_t err = cudaGetLastError();
    cr_assert_eq(err, cudaSuccess, "%s: %s: %s", what, cudaGetErrorName(err), simtlab_emu_last_diagnostic());
}

/* ":<line>" of a barrier, as the diagnostic names it (file:line). */
static const char *at_line(int line)
{
    static char text[32];
    std::snprintf(text, sizeof text, ".cu:%d ", line);
    return text;
}

/* ---- 1. the barrier inside the reduction's `if (t < stride)` ---------------- */

constexpr int branch_barrier_line = __LINE__ + 12;
/* Threads 32-63 never enter the branch and run off the end of the loop:
 * the first barrier is reached by threads 0-31 only. */
__global__ void barrier_inside_the_branch(float *data)
{
    __shared__ float partial[64];
    const unsigned t = threadIdx.x;
    partial[t] = data[t];
    __syncthreads();
    for (unsigned stride = 32; stride > 0; stride /= 2) {
        if (t < stride) {
            partial[t] += partial[t + stride];
            __syncthreads();
        }
    }
    if (t == 0)
        data[0] = partial[0];
}

Test(synccheck, a_barrier_inside_if_t_less_than_stride_fails_naming_the_line_and_the_threads,
     .init = setup_default)
{
    float *data = upload_ones(64);
    barrier_inside_the_branch<<<1, 64>>>(data);
    const char *words[] = {"synccheck", "__syncthreads()", at_line(branch_barrier_line),
                           "reached by threads 0-31", "threads 32-63", "exited without reaching it",
                           "barrier_inside_the_branch", "SIMTLAB_EMU_SYNCCHECK=0", nullptr};
    expect_synccheck_failure(words);
    cudaFree(data);
}

/* ---- 2. `if (t < 32) __syncthreads();` ------------------------------------ */

constexpr int first_warp_line = __LINE__ + 6;
__global__ void barrier_for_the_first_warp(float *data)
{
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    data[i] += 1.0f;
    if (t < 32)
        __syncthreads();
    if (t == 0)
        data[i] = 100.0f;
}

Test(synccheck, a_barrier_for_the_first_warp_only_fails, .init = setup_default)
{
    float *data = upload_ones(128);
    barrier_for_the_first_warp<<<2, 64>>>(data);
    const char *words[] = {at_line(first_warp_line), "reached by threads 0-31", "threads 32-63", nullptr};
    expect_synccheck_failure(words);
    /* Both blocks break the rule; which one the emulator's workers finish
     * first is the schedule's choice, so either may be the one named. */
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(diag, "block (0,0,0)") != nullptr || std::strstr(diag, "block (1,0,0)") != nullptr,
              "diagnostic names neither launched block: %s", diag);
    cudaFree(data);
}

/* ---- 3. a barrier in a loop whose trip count differs per thread ------------- */

constexpr int loop_barrier_line = __LINE__ + 5;
__global__ void barrier_in_a_loop_of_t_mod_4_trips(float *data)
{
    const unsigned t = threadIdx.x;
    for (unsigned i = 0; i < t % 4; i++)
        __syncthreads();
    data[t] = static_cast<float>(t);
}

/* Threads 0 and 4 make no trip and exit; the first round is reached by the
 * other six. */
Test(synccheck, a_barrier_in_a_loop_with_a_per_thread_trip_count_fails, .init = setup_default)
{
    float *data = upload_ones(8);
    barrier_in_a_loop_of_t_mod_4_trips<<<1, 8>>>(data);
    const char *words[] = {at_line(loop_barrier_line), "reached by threads 1-3, 5-7", "threads 0, 4 ",
                           nullptr};
    expect_synccheck_failure(words);
    cudaFree(data);
}

/* The variants are named too. */
constexpr int count_line = __LINE__ + 5;
__global__ void count_for_even_threads(int *out)
{
    const unsigned t = threadIdx.x;
    if (t % 2 == 0)
        out[t / 2] = __syncthreads_count(1);
}

Test(synccheck, a_syncthreads_count_for_even_threads_fails_naming_the_variant, .init = setup_default)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 16 * sizeof(int)), cudaSuccess);
    count_for_even_threads<<<1, 32>>>(out);
    /* The odd threads exited: listed one by one. */
    const char *words[] = {"__syncthreads_count()", at_line(count_line), "reached by threads 0, 2, 4",
                           "threads 1, 3, 5", nullptr};
    expect_synccheck_failure(words);
    cudaFree(out);
}

/* ---- the setting: SIMTLAB_EMU_SYNCCHECK=0 -------------------------------- */

/* With the check off the PTX rule holds: the barrier waits for the threads
 * that have not exited, and the kernel completes. Thread 0 of each block
 * writes 100 after its block's first warp passed the barrier. */
Test(synccheck, synccheck_0_accepts_a_barrier_that_exited_threads_skip, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "0", 1), 0);
    float *data = upload_ones(128);
    barrier_for_the_first_warp<<<2, 64>>>(data);
    expect_launch_ok("barrier_for_the_first_warp with SIMTLAB_EMU_SYNCCHECK=0");
    const std::vector<float> host = download(data, 128);
    cr_assert_eq(host[0], 100.0f);
    cr_assert_eq(host[64], 100.0f);
    cr_assert_eq(host[1], 2.0f);
    cr_assert_eq(host[127], 2.0f);
    cudaFree(data);
}

Test(synccheck, synccheck_1_is_the_default, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "1", 1), 0);
    float *data = upload_ones(64);
    barrier_inside_the_branch<<<1, 64>>>(data);
    const char *words[] = {"synccheck", nullptr};
    expect_synccheck_failure(words);
    cudaFree(data);
}

/* ---- correct kernels pass ------------------------------------------------ */

/* Barriers in branches every thread of a block takes the same way (a
 * condition on blockIdx, blockDim or a kernel argument), and an
 * out-of-range guard around the work instead of an early return: 64 ones
 * per block summed by a tree whose barrier every thread reaches. */
__global__ void uniform_branches(const float *in, float *out, unsigned n, int extra_round)
{
    __shared__ float partial[64];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? in[i] : 0.0f;
    if (blockDim.x == 64)
        __syncthreads();
    if (extra_round) {
        partial[t] += 0.0f;
        __syncthreads();
    }
    if (blockIdx.x % 2 == 1) {
        __syncthreads(); /* the odd blocks wait once more: uniform within a block */
    }
    for (unsigned stride = 32; stride > 0; stride /= 2) {
        if (t < stride)
            partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}

Test(synccheck, barriers_in_uniform_branches_pass, .init = setup_default)
{
    const unsigned n = 4 * 64 - 5; /* the last block's last 5 threads load nothing */
    float *in = upload_ones(n);
    float *out = upload_ones(4);
    uniform_branches<<<4, 64>>>(in, out, n, 1);
    expect_launch_ok("uniform_branches");
    const std::vector<float> host = download(out, 4);
    cr_assert_eq(host[0], 64.0f);
    cr_assert_eq(host[1], 64.0f);
    cr_assert_eq(host[2], 64.0f);
    cr_assert_eq(host[3], 59.0f);
    cudaFree(in);
    cudaFree(out);
}

/* Threads may exit after the last barrier: nothing is left to reach. */
__global__ void exit_after_the_last_barrier(float *data)
{
    __shared__ float tile[32];
    const unsigned t = threadIdx.x;
    tile[t] = data[t];
    __syncthreads();
    if (t >= 16)
        return;
    data[t] = tile[31 - t];
}

Test(synccheck, exits_after_the_last_barrier_pass, .init = setup_default)
{
    float *data = upload_ones(32);
    exit_after_the_last_barrier<<<1, 32>>>(data);
    expect_launch_ok("exit_after_the_last_barrier");
    cr_assert_eq(download(data, 1)[0], 1.0f);
    cudaFree(data);
}
