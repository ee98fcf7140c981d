/* Spin loops on plain volatile loads (issue 16), shared by
 * test_emu_spin_volatile.cu (built with the spin watch) and
 * test_emu_spin_volatile_profile.cu (built for the SIMT counters). A thread
 * that waits for a flag another thread of its block sets, reading it
 * through volatile memory, is valid CUDA since Volta; the emulator's
 * threads switch only when they wait, and such a loop calls nothing, so
 * only the trace-pc hook (emu/src/profile/hooks.cpp) lets the setter run.
 * Without it every test below hangs (each has a timeout: a hang fails it). */
#include <criterion/criterion.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>

#define EXPECT_DIAGNOSTIC_HAS(text)                                                                   \
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), (text)) != nullptr, "diagnostic lacks \"%s\": %s", \
              (text), simtlab_emu_last_diagnostic())

/* The issue's kernel: thread 0 spins on a __shared__ volatile flag that a
 * later thread (1) sets. */
__global__ void shared_flag_later(int *out)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x == 1)
        flag = 1;
    if (threadIdx.x == 0) {
        while (flag == 0) {
        }
        out[0] = 42;
    }
}

/* The same on a global flag read as *(volatile int *)&flag, with data the
 * setter wrote before it: the spinner must see both. The setter is the
 * block's last thread. */
__global__ void global_flag_later(int *flag, int *data, int *out)
{
    const unsigned last = blockDim.x - 1;
    if (threadIdx.x == 0) {
        while (*(volatile int *)flag == 0) {
        }
        __threadfence();
        out[blockIdx.x] = *(volatile int *)&data[0] + *(volatile int *)&data[1];
    } else if (threadIdx.x == last) {
        data[0] = 40;
        data[1] = 2;
        __threadfence();
        *(volatile int *)flag = 1;
    }
}

/* Ping-pong: thread 1 sets `ping`, waits for `pong`; thread 0 waits for
 * `ping` and then sets `pong`. So each flag is set once by the later thread
 * and once by the earlier one, `rounds` times; every round checks the value
 * the other side wrote. */
__global__ void ping_pong(volatile int *ping, volatile int *pong, int rounds, int *errors)
{
    for (int r = 1; r <= rounds; r++) {
        if (threadIdx.x == 1) {
            *ping = r;
            while (*pong != r) {
            }
        } else if (threadIdx.x == 0) {
            while (*ping != r) {
            }
            if (*ping != r)
                atomicAdd(errors, 1);
            *pong = r;
        }
    }
}

/* A chain through the block against the start order: thread t waits for
 * thread t+1 (a later thread) to hand it a token, in shared memory, then
 * passes token + 1 to thread t-1 (an earlier one). */
__global__ void chain_down(int *out)
{
    __shared__ volatile int token[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    token[t] = 0;
    __syncthreads();
    int mine = 1;
    if (t + 1 < n) {
        while (token[t + 1] == 0) {
        }
        mine = token[t + 1] + 1;
    }
    token[t] = mine;
    out[blockIdx.x * n + t] = mine;
}

/* A spin lock: volatile reads until the lock looks free, then atomicCAS.
 * Thread t holds it until thread t+1 announced itself (a volatile spin
 * while holding), and adds to a counter under the lock with plain volatile
 * read-modify-write (a lost update shows as a count below n). */
__global__ void volatile_lock(int *lock, volatile int *announced, volatile int *counter)
{
    const int t = threadIdx.x;
    announced[t] = 1;
    for (;;) {
        while (*(volatile int *)lock != 0) {
        }
        if (atomicCAS(lock, 0, 1) == 0)
            break;
    }
    if (t + 1 < static_cast<int>(blockDim.x))
        while (announced[t + 1] == 0) {
        }
    const int c = *counter;
    *counter = c + 1;
    __threadfence();
    atomicExch(lock, 0);
}

/* Thread 0 of each block waits on a volatile flag no thread sets. */
__global__ void volatile_nobody_sets(volatile int *flag) { if (threadIdx.x == 0) while (*flag == 0) {} }
static const int nobody_line = __LINE__ - 1;

/* Thread 0 waits on a shared flag that only a thread parked at a barrier
 * (which thread 0 never reaches) would set. */
__global__ void volatile_against_a_barrier(int *out)
{
    __shared__ volatile int flag;
    if (threadIdx.x == 0) {
        flag = 0;
        while (flag == 0) {
        }
    } else {
        __syncthreads();
        flag = 1;
    }
    out[threadIdx.x] = 1;
}
static const int barrier_spin_line = __LINE__ - 8;

/* A long computation that is not a spin: thread 0 sums for longer than the
 * limit while the others have exited; its state changes, so it ends. */
__global__ void long_sum(unsigned long long n, double *out)
{
    if (threadIdx.x != 0)
        return;
    double s = 0;
    for (unsigned long long i = 1; i <= n; i++)
        s += 1.0 / static_cast<double>(i);
    out[0] = s;
}

/* A flag in shared memory handed over without a barrier is a hazard to a
 * race checker (compute-sanitizer's racecheck reports it too): the
 * instrumented build checks races by default, so the tests of a shared flag
 * turn it off. */
static void no_racecheck()
{
    cr_assert_eq(setenv("SIMTLAB_EMU_RACECHECK", "0", 1), 0);
}

static int *zeroed(size_t n)
{
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, n * sizeof(int)), cudaSuccess);
    return d;
}

static int read_one(const int *d)
{
    int v = -1;
    cr_assert_eq(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
}

Test(spin_volatile, a_shared_flag_set_by_a_later_thread_ends_the_spin, .timeout = 60)
{
    no_racecheck();
    int *out = zeroed(1);
    shared_flag_later<<<1, 2>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(read_one(out), 42);
    /* and with the setter far behind: 256 threads, setter is thread 1 of many */
    cr_assert_eq(cudaMemset(out, 0xFF, sizeof(int)), cudaSuccess);
    shared_flag_later<<<3, 256>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(read_one(out), 42);
    cudaFree(out);
}

Test(spin_volatile, a_global_flag_set_by_the_blocks_last_thread_hands_over_the_data, .timeout = 60)
{
    const unsigned seed = static_cast<unsigned>(std::random_device{}());
    std::mt19937 rng(seed);
    const int sizes[] = {2, 33, 256, 1024};
    for (int size : sizes) {
        const int blocks = 1 + static_cast<int>(rng() % 5);
        int *flag = zeroed(1), *data = zeroed(2), *out = zeroed(blocks);
        cr_assert_eq(cudaMemset(out, 0xFF, blocks * sizeof(int)), cudaSuccess);
        global_flag_later<<<blocks, size>>>(flag, data, out);
        cr_assert_eq(cudaGetLastError(), cudaSuccess, "seed %u size %d: %s", seed, size,
                     simtlab_emu_last_diagnostic());
        for (int b = 0; b < blocks; b++) {
            int got = -1;
            cr_assert_eq(cudaMemcpy(&got, out + b, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
            cr_assert_eq(got, 42, "seed %u size %d block %d", seed, size, b);
        }
        cudaFree(flag);
        cudaFree(data);
        cudaFree(out);
    }
}

Test(spin_volatile, ping_pong_between_an_earlier_and_a_later_thread_runs_every_round, .timeout = 60)
{
    int *ping = zeroed(1), *pong = zeroed(1), *errors = zeroed(1);
    const int rounds = 37;
    ping_pong<<<1, 64>>>(ping, pong, rounds, errors);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(read_one(ping), rounds);
    cr_assert_eq(read_one(pong), rounds);
    cr_assert_eq(read_one(errors), 0);
    cudaFree(ping);
    cudaFree(pong);
    cudaFree(errors);
}

Test(spin_volatile, a_token_passed_down_a_block_against_the_start_order_counts_every_thread, .timeout = 60)
{
    no_racecheck();
    const int n = 97, blocks = 3;
    int *out = zeroed(n * blocks);
    cr_assert_eq(cudaMemset(out, 0xFF, n * blocks * sizeof(int)), cudaSuccess);
    chain_down<<<blocks, n>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    int got[n * blocks];
    cr_assert_eq(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++)
            cr_assert_eq(got[b * n + t], n - t, "block %d thread %d", b, t);
    cudaFree(out);
}

Test(spin_volatile, a_spin_lock_of_volatile_reads_and_atomicCAS_counts_every_thread, .timeout = 60)
{
    const int n = 131;
    int *lock = zeroed(1), *announced = zeroed(n), *counter = zeroed(1);
    volatile_lock<<<1, n>>>(lock, announced, counter);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(read_one(counter), n);
    cr_assert_eq(read_one(lock), 0);
    cudaFree(lock);
    cudaFree(announced);
    cudaFree(counter);
}

Test(spin_volatile, a_volatile_flag_nobody_sets_fails_naming_kernel_block_thread_and_line, .timeout = 60)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    int *flag = zeroed(1);
    const auto start = std::chrono::steady_clock::now();
    volatile_nobody_sets<<<2, 64>>>(flag);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    cr_assert_lt(s, 20.0, "took %.1f s", s);
    EXPECT_DIAGNOSTIC_HAS("volatile_nobody_sets");
    EXPECT_DIAGNOSTIC_HAS("thread (0,0,0)");
    EXPECT_DIAGNOSTIC_HAS("block (");
    EXPECT_DIAGNOSTIC_HAS("spins without end at");
    char line[64];
    std::snprintf(line, sizeof line, "test_emu_spin_volatile.cuh:%d", nobody_line);
    EXPECT_DIAGNOSTIC_HAS(line);
    EXPECT_DIAGNOSTIC_HAS("SIMTLAB_EMU_SPIN_LIMIT_S");
    cudaFree(flag);
    /* the next launch runs (the error was the launch's, a sticky one is reset by the runtime test) */
}

Test(spin_volatile, a_volatile_spin_whose_setter_waits_at_a_barrier_fails_instead_of_hanging, .timeout = 60)
{
    no_racecheck();
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    int *out = zeroed(32);
    volatile_against_a_barrier<<<1, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_DIAGNOSTIC_HAS("spins without end at");
    char line[64];
    std::snprintf(line, sizeof line, "test_emu_spin_volatile.cuh:%d", barrier_spin_line);
    EXPECT_DIAGNOSTIC_HAS(line);
    EXPECT_DIAGNOSTIC_HAS("every other thread of the block waits");
    cudaFree(out);
}

Test(spin_volatile, a_long_computation_in_one_thread_is_not_taken_for_a_spin, .timeout = 120)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "0.2", 1), 0);
    double *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, sizeof(double)), cudaSuccess);
    const unsigned long long n = 200000000ULL; /* about a second or more on the emulator */
    const auto start = std::chrono::steady_clock::now();
    long_sum<<<1, 64>>>(n, out);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    double got = 0, want = 0;
    cr_assert_eq(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (unsigned long long i = 1; i <= n; i++)
        want += 1.0 / static_cast<double>(i);
    cr_assert_eq(got, want, "got %.17g want %.17g", got, want);
    cr_assert_gt(s, 0.2, "the loop took %.2f s, under the limit: the test shows nothing", s);
    cudaFree(out);
}

/* Threads start in a shuffled order (SIMTLAB_EMU_SEED): the holder of the
 * lock may wait for a thread that has not started while the started ones
 * spin; the spinners must let unstarted threads start (it hung with the
 * ready queue served first). */
Test(spin_volatile, the_spin_lock_counts_every_thread_under_shuffled_start_orders, .timeout = 120)
{
    const int n = 131;
    for (int seed = 1; seed <= 8; seed++) { /* 7 hung before */
        char text[16];
        std::snprintf(text, sizeof text, "%d", seed);
        cr_assert_eq(setenv("SIMTLAB_EMU_SEED", text, 1), 0);
        int *lock = zeroed(1), *announced = zeroed(n), *counter = zeroed(1);
        volatile_lock<<<1, n>>>(lock, announced, counter);
        cr_assert_eq(cudaGetLastError(), cudaSuccess, "seed %d: %s", seed, simtlab_emu_last_diagnostic());
        cr_assert_eq(read_one(counter), n, "seed %d", seed);
        cudaFree(lock);
        cudaFree(announced);
        cudaFree(counter);
    }
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
}
