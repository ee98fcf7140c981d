/* Spin loops (issue 16): a thread that waits for a flag another thread of
 * its block sets. Valid since Volta's independent thread scheduling (the
 * emulator reports sm_80), and a hang in an emulator whose threads switch
 * only at barriers and warp operations. The emulator lets the other
 * threads run while one spins on an atomic, and fails a spin that can never
 * end (SIMTLAB_EMU_SPIN_LIMIT_S) instead of hanging. Each test has a
 * timeout: a hang fails it.
 *
 * Build and run: cmake --build build --target test_emu_spin &&
 *                build/bin/test_emu_spin */
#include <criterion/criterion.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#define EXPECT_DIAGNOSTIC_HAS(text)                                                                   \
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), (text)) != nullptr, "diagnostic lacks \"%s\": %s", \
              (text), simtlab_emu_last_diagnostic())

/* Thread 0 waits for thread 1's data, handed over through a flag: the
 * classic producer/consumer in one block. Thread 0 starts first and spins
 * before thread 1 has run at all. */
__global__ void flag_handoff(int *flag, int *data, int *out)
{
    if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
        __threadfence();
        out[0] = data[0] + data[1];
    } else if (threadIdx.x == 1) {
        data[0] = 40;
        data[1] = 2;
        __threadfence();
        atomicExch(flag, 1);
    }
}

/* A spin lock taken in turn by every thread of the block, each of which
 * spins on atomicCAS while another holds it across a spin of its own:
 * thread t holds the lock until thread t+1 has announced itself. */
__global__ void lock_passing(int *lock, int *announced, int *counter)
{
    const int t = threadIdx.x;
    atomicExch(&announced[t], 1);
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    if (t + 1 < static_cast<int>(blockDim.x))
        while (atomicOr(&announced[t + 1], 0) == 0) {
        }
    *counter += 1; /* under the lock */
    atomicExch(lock, 0);
}

/* Thread 0 waits for a flag no thread sets. */
__global__ void flag_nobody_sets(int *flag)
{
    if (threadIdx.x == 0)
        while (atomicCAS(flag, 1, 2) != 1) {
        }
}

/* Thread 0 waits for thread 1, which waits at a barrier thread 0 never
 * reaches. */
__global__ void spin_against_a_barrier(int *flag)
{
    if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
    } else {
        __syncthreads();
        atomicExch(flag, 1);
    }
}

static int *zeroed(size_t n)
{
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(d, 0, n * sizeof(int)), cudaSuccess);
    return d;
}

Test(spin, a_flag_handoff_between_two_threads_of_a_block_completes_with_the_data, .timeout = 60)
{
    int *flag = zeroed(1), *data = zeroed(2), *out = zeroed(1);
    flag_handoff<<<1, 2>>>(flag, data, out);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    int got = 0;
    cr_assert_eq(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(got, 42);
    cudaFree(flag);
    cudaFree(data);
    cudaFree(out);
}

Test(spin, a_flag_handoff_completes_in_many_blocks_of_many_threads_under_a_seed, .timeout = 60)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SEED", "7", 1), 0); /* threads start in a shuffled order */
    const int blocks = 64;
    int *flag = zeroed(blocks), *data = zeroed(2 * blocks), *out = zeroed(blocks);
    /* 256 threads: the spinner hands over to threads that have not started */
    for (int b = 0; b < blocks; b++) {
        flag_handoff<<<1, 256>>>(flag + b, data + 2 * b, out + b);
        cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    }
    int got[blocks];
    cr_assert_eq(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int b = 0; b < blocks; b++)
        cr_assert_eq(got[b], 42, "launch %d", b);
    cudaFree(flag);
    cudaFree(data);
    cudaFree(out);
}

Test(spin, a_spin_lock_passed_along_a_block_counts_every_thread, .timeout = 60)
{
    const int n = 128;
    int *lock = zeroed(1), *announced = zeroed(n), *counter = zeroed(1);
    lock_passing<<<1, n>>>(lock, announced, counter);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    int got = 0;
    cr_assert_eq(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(got, n);
    cudaFree(lock);
    cudaFree(announced);
    cudaFree(counter);
}

Test(spin, a_spin_on_a_flag_nobody_sets_fails_naming_the_line_within_seconds, .timeout = 60)
{
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    int *flag = zeroed(1);
    const auto start = std::chrono::steady_clock::now();
    flag_nobody_sets<<<2, 64>>>(flag);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    cr_assert_lt(s, 20.0, "took %.1f s", s);
    EXPECT_DIAGNOSTIC_HAS("flag_nobody_sets");
    EXPECT_DIAGNOSTIC_HAS("thread (0,0,0)");
    EXPECT_DIAGNOSTIC_HAS("spins without end at");
    EXPECT_DIAGNOSTIC_HAS("test_emu_spin.cu:59");
    EXPECT_DIAGNOSTIC_HAS("SIMTLAB_EMU_SPIN_LIMIT_S");
    cudaFree(flag);
}

Test(spin, a_spin_whose_setter_waits_at_a_barrier_fails_instead_of_hanging, .timeout = 60)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    int *flag = zeroed(1);
    spin_against_a_barrier<<<1, 32>>>(flag);
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    EXPECT_DIAGNOSTIC_HAS("spins without end at");
    EXPECT_DIAGNOSTIC_HAS("test_emu_spin.cu:68");
    EXPECT_DIAGNOSTIC_HAS("every other thread of the block waits");
    cudaFree(flag);
}
