/* The emulator's execution engine: every thread runs once with the right
 * indices, barriers (with early exits and the _count/_and/_or variants),
 * shared memory (static, dynamic, poisoned), launch-configuration errors with
 * CUDA's codes, warp collectives with full and partial masks, assert, and
 * the sticky error an illegal address leaves.
 *
 * Expected values come from the CUDA Programming Guide's definitions
 * (thread and block indexing, __syncthreads_count et al.), computed here on
 * the host independently of the engine.
 *
 * Build and run: cmake --build build --target test_emu_engine &&
 *                build/bin/test_emu_engine */
#include <criterion/criterion.h>

/* Device assert is compiled out under NDEBUG, as with nvcc: keep it. */
#undef NDEBUG
#include <assert.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <thread>
#include <vector>

/* ---- helpers ----------------------------------------------------------- */

template <class T>
static T *device_alloc(size_t count)
{
    T *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, count * sizeof(T)), cudaSuccess, "cudaMalloc: %s",
                 simtlab_emu_last_diagnostic());
    return p;
}

template <class T>
static std::vector<T> copy_back(const T *device, size_t count)
{
    std::vector<T> host(count);
    cr_assert_eq(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost),
                 cudaSuccess);
    return host;
}

static void expect_launch_ok(const char *what)
{
    cudaError_t launch = cudaGetLastError();
    cr_assert_eq(launch, cudaSuccess, "%s: launch failed with %s: %s", what,
                 cudaGetErrorName(launch), simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", what);
}

/* ---- indexing ------------------------------------------------------------ */

/* Packs every built-in index into one word so that one comparison checks
 * them all: 5 bits per component (the tests keep every value below 32). */
__device__ static unsigned pack_ids(uint3 b, uint3 t)
{
    return b.x | b.y << 5 | b.z << 10 | t.x << 15 | t.y << 20 | t.z << 25;
}

__global__ void write_ids(unsigned *out, unsigned *dims)
{
    const unsigned block_linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned thread_linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    out[block_linear * threads + thread_linear] = pack_ids(blockIdx, threadIdx);
    if (block_linear == 0 && thread_linear == 0) {
        dims[0] = gridDim.x, dims[1] = gridDim.y, dims[2] = gridDim.z;
        dims[3] = blockDim.x, dims[4] = blockDim.y, dims[5] = blockDim.z;
    }
}

/* Launches write_ids and checks that each (block, thread) wrote its own
 * slot, in the order the Programming Guide defines (x fastest). */
static void check_indexing(dim3 grid, dim3 block)
{
    const size_t total = size_t{grid.x} * grid.y * grid.z * block.x * block.y * block.z;
    unsigned *out = device_alloc<unsigned>(total);
    unsigned *dims = device_alloc<unsigned>(6);
    cr_assert_eq(cudaMemset(out, 0xAB, total * sizeof(unsigned)), cudaSuccess);
    write_ids<<<grid, block>>>(out, dims);
    expect_launch_ok("write_ids");
    std::vector<unsigned> host = copy_back(out, total);
    std::vector<unsigned> got_dims = copy_back(dims, 6);
    size_t i = 0;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++)
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++, i++) {
                            unsigned want = bx | by << 5 | bz << 10 | tx << 15 | ty << 20 | tz << 25;
                            cr_assert_eq(host[i], want, "slot %zu: got 0x%x, want 0x%x", i, host[i], want);
                        }
    const unsigned want_dims[6] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
    for (int d = 0; d < 6; d++)
        cr_assert_eq(got_dims[d], want_dims[d], "dimension %d", d);
    cudaFree(out);
    cudaFree(dims);
}

Test(engine, every_thread_of_a_1d_grid_runs_once_with_its_index)
{
    check_indexing(dim3(7), dim3(31));
}

Test(engine, every_thread_of_a_2d_grid_runs_once_with_its_index)
{
    check_indexing(dim3(5, 3), dim3(16, 8));
}

Test(engine, every_thread_of_a_3d_grid_runs_once_with_its_index)
{
    check_indexing(dim3(3, 2, 4), dim3(4, 3, 5));
}

__global__ void mark_block(int *out)
{
    out[blockIdx.x] += blockIdx.x + 1; /* += : a block run twice shows up */
}

Test(engine, a_grid_much_larger_than_the_worker_count_runs_every_block_once)
{
    const int blocks = 4099;
    int *out = device_alloc<int>(blocks);
    cudaMemset(out, 0, blocks * sizeof(int));
    mark_block<<<blocks, 1>>>(out);
    expect_launch_ok("mark_block");
    std::vector<int> host = copy_back(out, blocks);
    for (int b = 0; b < blocks; b++)
        cr_assert_eq(host[b], b + 1, "block %d", b);
    cudaFree(out);
}

/* ---- barriers and shared memory ------------------------------------------ */

/* Each thread stores its id, then reads its mirror's: correct only if the
 * barrier really waited for every thread's store. */
__global__ void reverse_through_shared(int *out)
{
    __shared__ int tile[1024];
    const unsigned t = threadIdx.x;
    tile[t] = static_cast<int>(t) * 3;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}

static void check_reverse(unsigned blocks, unsigned threads)
{
    int *out = device_alloc<int>(blocks * threads);
    reverse_through_shared<<<blocks, threads>>>(out);
    expect_launch_ok("reverse_through_shared");
    std::vector<int> host = copy_back(out, blocks * threads);
    for (unsigned b = 0; b < blocks; b++)
        for (unsigned t = 0; t < threads; t++)
            cr_assert_eq(host[b * threads + t], static_cast<int>(threads - 1 - t) * 3,
                         "block %u thread %u", b, t);
    cudaFree(out);
}

Test(engine, shared_memory_written_before_a_barrier_is_seen_by_every_thread_after_it)
{
    check_reverse(6, 256);
}

Test(engine, blocks_of_1024_threads_wait_at_a_barrier)
{
    check_reverse(3, 1024);
}

Test(engine, a_block_of_one_thread_passes_its_barrier)
{
    check_reverse(5, 1);
}

/* A barrier reached outside a block (a __host__ __device__ function called
 * on the host) returns 0 at once: before any launch, and after launches
 * whose barriers used the same call site, on one worker (the launching
 * thread itself runs the blocks) and on two. */
__host__ __device__ int count_at_barrier(int predicate)
{
    return __syncthreads_count(predicate);
}

__global__ void count_through_barrier(int *out)
{
    const int n = count_at_barrier(1);
    if (threadIdx.x == 0)
        out[blockIdx.x] = n;
}

static void check_host_barrier(const char *threads)
{
    setenv("SIMTLAB_EMU_THREADS", threads, 1);
    cr_assert_eq(count_at_barrier(1), 0, "before any launch");
    int *out = device_alloc<int>(4);
    for (int round = 0; round < 3; round++) {
        count_through_barrier<<<4, 96>>>(out);
        expect_launch_ok("count_through_barrier");
        std::vector<int> host = copy_back(out, 4);
        for (int b = 0; b < 4; b++)
            cr_assert_eq(host[b], 96, "round %d block %d", round, b);
        cr_assert_eq(count_at_barrier(1), 0, "after launch %d", round);
    }
    cudaFree(out);
}

Test(engine, a_barrier_on_the_host_returns_at_once_with_one_worker)
{
    check_host_barrier("1");
}

Test(engine, a_barrier_on_the_host_returns_at_once_with_two_workers)
{
    check_host_barrier("2");
}

/* Threads of the upper half return before the barrier the rest call: with
 * bar.sync semantics the barrier waits only for threads that have not
 * exited, so this must neither hang nor fail. */
__global__ void half_exit_then_barrier(int *out)
{
    __shared__ int tile[64];
    const unsigned t = threadIdx.x;
    if (t >= 32)
        return;
    tile[t] = static_cast<int>(t) + 100;
    __syncthreads();
    out[t] = tile[31 - t];
}

Test(engine, a_barrier_waits_only_for_threads_that_have_not_exited)
{
    /* The PTX rule itself: synccheck (test_emu_synccheck.cu) would fail it. */
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "0", 1), 0);
    int *out = device_alloc<int>(32);
    half_exit_then_barrier<<<4, 64>>>(out);
    expect_launch_ok("half_exit_then_barrier");
    std::vector<int> host = copy_back(out, 32);
    for (int t = 0; t < 32; t++)
        cr_assert_eq(host[t], 31 - t + 100, "thread %d", t);
    cudaFree(out);
}

/* Odd threads exit while even ones already wait (threads start in order,
 * so thread 0 waits before thread 1 exits): the barrier completes then. */
__global__ void odd_exit_while_even_wait(int *out)
{
    __shared__ int tile[128];
    const unsigned t = threadIdx.x;
    if (t % 2)
        return;
    tile[t] = static_cast<int>(t);
    __syncthreads();
    out[t / 2] = tile[126 - t];
}

Test(engine, threads_exiting_while_others_wait_release_the_barrier)
{
    /* The PTX rule itself: synccheck (test_emu_synccheck.cu) would fail it. */
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "0", 1), 0);
    int *out = device_alloc<int>(64);
    odd_exit_while_even_wait<<<1, 128>>>(out);
    expect_launch_ok("odd_exit_while_even_wait");
    std::vector<int> host = copy_back(out, 64);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(host[i], 126 - 2 * i, "slot %d", i);
    cudaFree(out);
}

__global__ void barrier_votes(int *out)
{
    const unsigned t = threadIdx.x;
    out[0 * blockDim.x + t] = __syncthreads_count(t % 3 == 0);
    out[1 * blockDim.x + t] = __syncthreads_and(t < 1000);
    out[2 * blockDim.x + t] = __syncthreads_and(t != 57);
    out[3 * blockDim.x + t] = __syncthreads_or(t == 57);
    out[4 * blockDim.x + t] = __syncthreads_or(0);
}

Test(engine, syncthreads_count_and_or_combine_every_threads_predicate)
{
    const unsigned n = 100;
    int *out = device_alloc<int>(5 * n);
    barrier_votes<<<2, n>>>(out);
    expect_launch_ok("barrier_votes");
    std::vector<int> host = copy_back(out, 5 * n);
    int multiples_of_3 = 0;
    for (unsigned t = 0; t < n; t++)
        multiples_of_3 += t % 3 == 0;
    const int want[5] = {multiples_of_3, 1, 0, 1, 0};
    for (int v = 0; v < 5; v++)
        for (unsigned t = 0; t < n; t++)
            cr_assert_eq(host[v * n + t], want[v], "vote %d, thread %u", v, t);
    cudaFree(out);
}

__global__ void reverse_dynamic(float *out)
{
    extern __shared__ float dyn[];
    const unsigned t = threadIdx.x;
    dyn[t] = 0.5f * static_cast<float>(t);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = dyn[blockDim.x - 1 - t];
}

Test(engine, dynamic_shared_memory_is_shared_by_the_block)
{
    const unsigned threads = 200, blocks = 3;
    float *out = device_alloc<float>(threads * blocks);
    reverse_dynamic<<<blocks, threads, threads * sizeof(float)>>>(out);
    expect_launch_ok("reverse_dynamic");
    std::vector<float> host = copy_back(out, threads * blocks);
    for (unsigned i = 0; i < threads * blocks; i++)
        cr_assert_float_eq(host[i], 0.5f * static_cast<float>(threads - 1 - i % threads), 0.0f,
                           "slot %u", i);
    cudaFree(out);
}

/* Thread 0 reads before anyone writes: it must see the poison (0xFF bytes),
 * in the second block too, after the first block wrote the same memory. */
__global__ void read_before_write(int *ints, float *floats, int *dyn_out)
{
    __shared__ int si[4];
    __shared__ float sf[4];
    extern __shared__ int dyn[];
    if (threadIdx.x == 0) {
        ints[blockIdx.x] = si[1];
        floats[blockIdx.x] = sf[2];
        dyn_out[blockIdx.x] = dyn[3];
    }
    __syncthreads();
    si[threadIdx.x] = 7;
    sf[threadIdx.x] = 7.0f;
    dyn[threadIdx.x] = 7;
}

Test(engine, shared_memory_is_poisoned_at_block_start)
{
    int *ints = device_alloc<int>(2), *dyn = device_alloc<int>(2);
    float *floats = device_alloc<float>(2);
    read_before_write<<<2, 4, 4 * sizeof(int)>>>(ints, floats, dyn);
    expect_launch_ok("read_before_write");
    std::vector<int> hi = copy_back(ints, 2), hd = copy_back(dyn, 2);
    std::vector<float> hf = copy_back(floats, 2);
    for (int b = 0; b < 2; b++) {
        cr_assert_eq(hi[b], -1, "block %d: static int read before write", b);
        cr_assert(std::isnan(hf[b]), "block %d: static float read before write gave %g", b, hf[b]);
        cr_assert_eq(hd[b], -1, "block %d: dynamic int read before write", b);
    }
    cudaFree(ints);
    cudaFree(dyn);
    cudaFree(floats);
}

Test(engine, static_shared_bytes_are_reported_to_cudaFuncGetAttributes)
{
    int *ints = device_alloc<int>(2), *dyn = device_alloc<int>(2);
    float *floats = device_alloc<float>(2);
    read_before_write<<<1, 4, 16>>>(ints, floats, dyn);
    expect_launch_ok("read_before_write");
    cudaFuncAttributes attr;
    cr_assert_eq(cudaFuncGetAttributes(&attr, reinterpret_cast<const void *>(read_before_write)), cudaSuccess);
    /* two 16-byte arrays, each placed at a 16-byte boundary */
    cr_assert_eq(attr.sharedSizeBytes, 32u);
    cudaFree(ints);
    cudaFree(dyn);
    cudaFree(floats);
}

/* ---- launch configuration errors ----------------------------------------- */

__global__ void do_nothing(int *) {}

static void expect_config_error(dim3 grid, dim3 block, size_t shmem, cudaError_t want, const char *what)
{
    do_nothing<<<grid, block, shmem>>>(nullptr);
    cudaError_t got = cudaGetLastError();
    cr_assert_eq(got, want, "%s: got %s, want %s", what, cudaGetErrorName(got), cudaGetErrorName(want));
    cr_assert_neq(std::strlen(simtlab_emu_last_diagnostic()), 0u, "%s: no diagnostic", what);
    /* Configuration errors are not sticky: the next launch works. */
    do_nothing<<<1, 1>>>(nullptr);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s: the next launch failed", what);
}

Test(engine, launch_configuration_errors_use_cudas_codes)
{
    expect_config_error(dim3(1), dim3(1025), 0, cudaErrorInvalidValue, "1025 threads");
    expect_config_error(dim3(1), dim3(64, 32), 0, cudaErrorInvalidValue, "64x32 threads");
    expect_config_error(dim3(1), dim3(0), 0, cudaErrorInvalidValue, "block.x = 0");
    expect_config_error(dim3(0), dim3(32), 0, cudaErrorInvalidValue, "grid.x = 0");
    expect_config_error(dim3(1), dim3(1, 1, 65), 0, cudaErrorInvalidValue, "block.z = 65");
    expect_config_error(dim3(1, 65536), dim3(1), 0, cudaErrorInvalidValue, "grid.y = 65536");
    expect_config_error(dim3(1, 1, 65536), dim3(1), 0, cudaErrorInvalidValue, "grid.z = 65536");
    expect_config_error(dim3(2147483648u), dim3(1), 0, cudaErrorInvalidValue, "grid.x = 2^31");
    expect_config_error(dim3(1), dim3(32), 48 * 1024 + 1, cudaErrorInvalidValue, "48 KiB + 1 dynamic");
}

/* ---- warp collectives ------------------------------------------------------ */

__global__ void rotate_and_sum(int *rotated, int *sums)
{
    const unsigned t = threadIdx.x, lane = t % 32;
    const int mine = static_cast<int>(t) * 10;
    rotated[t] = __shfl_sync(0xffffffffu, mine, static_cast<int>((lane + 1) % 32));
    int sum = mine;
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0)
        sums[t / 32] = sum;
}

Test(engine, shfl_sync_with_a_full_mask_exchanges_between_all_lanes)
{
    const unsigned n = 128;
    int *rotated = device_alloc<int>(n), *sums = device_alloc<int>(n / 32);
    rotate_and_sum<<<1, n>>>(rotated, sums);
    expect_launch_ok("rotate_and_sum");
    std::vector<int> hr = copy_back(rotated, n), hs = copy_back(sums, n / 32);
    for (unsigned t = 0; t < n; t++) {
        unsigned src = t / 32 * 32 + (t % 32 + 1) % 32;
        cr_assert_eq(hr[t], static_cast<int>(src) * 10, "thread %u", t);
    }
    for (unsigned w = 0; w < n / 32; w++) {
        int want = 0;
        for (unsigned l = 0; l < 32; l++)
            want += static_cast<int>(w * 32 + l) * 10;
        cr_assert_eq(hs[w], want, "warp %u", w);
    }
    cudaFree(rotated);
    cudaFree(sums);
}

/* Lanes 0-15 and 16-31 shuffle among themselves in the two branches of an
 * if, each with its own half mask (legal since Volta). */
__global__ void half_masks(int *out)
{
    const unsigned lane = threadIdx.x % 32;
    const int mine = static_cast<int>(lane) + 1;
    if (lane < 16)
        out[lane] = __shfl_xor_sync(0x0000ffffu, mine, 1);
    else
        out[lane] = __shfl_sync(0xffff0000u, mine, 31) * 100;
}

Test(engine, shfl_sync_with_partial_masks_exchanges_within_each_mask)
{
    int *out = device_alloc<int>(32);
    half_masks<<<1, 32>>>(out);
    expect_launch_ok("half_masks");
    std::vector<int> host = copy_back(out, 32);
    for (unsigned lane = 0; lane < 16; lane++)
        cr_assert_eq(host[lane], static_cast<int>(lane ^ 1u) + 1, "lane %u", lane);
    for (unsigned lane = 16; lane < 32; lane++)
        cr_assert_eq(host[lane], 32 * 100, "lane %u", lane);
    cudaFree(out);
}

__global__ void ballot_of_even_lanes(unsigned *out)
{
    out[threadIdx.x] = __ballot_sync(0xffffffffu, threadIdx.x % 2 == 0);
}

Test(engine, ballot_sync_collects_one_bit_per_lane)
{
    unsigned *out = device_alloc<unsigned>(32);
    ballot_of_even_lanes<<<1, 32>>>(out);
    expect_launch_ok("ballot_of_even_lanes");
    std::vector<unsigned> host = copy_back(out, 32);
    for (unsigned lane = 0; lane < 32; lane++)
        cr_assert_eq(host[lane], 0x55555555u, "lane %u", lane);
    cudaFree(out);
}

/* ---- assert and sticky errors ---------------------------------------------- */

__global__ void assert_not_5(int bad)
{
    assert(static_cast<int>(threadIdx.x) != bad);
}

Test(engine, a_failed_assert_ends_the_launch_with_cudaErrorAssert)
{
    assert_not_5<<<1, 8>>>(5);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorAssert);
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(diag, "Assertion `static_cast<int>(threadIdx.x) != bad` failed"), "diagnostic: %s", diag);
    cr_assert(std::strstr(diag, "kernel assert_not_5"), "diagnostic: %s", diag);
    cr_assert(std::strstr(diag, "thread (5,0,0)"), "diagnostic: %s", diag);
    cr_assert(std::strstr(diag, "test_emu_engine.cu:"), "diagnostic: %s", diag);
}

/* Lane 31 completes the __syncwarp and goes on without parking; the launch
 * then fails while lanes wait at the shuffle: every parked stack must be
 * released exactly once (this once crashed the engine). */
__global__ void assert_while_lanes_wait_at_a_shuffle(int *out)
{
    __syncwarp();
    if (threadIdx.x == 3) assert(threadIdx.x != 3);
    out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
}

Test(engine, a_failure_while_lanes_wait_after_a_completed_collective_is_clean)
{
    int *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
    assert_while_lanes_wait_at_a_shuffle<<<1, 32>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorAssert);
    assert_while_lanes_wait_at_a_shuffle<<<1, 32>>>(out); /* the context stays poisoned */
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorAssert);
}

__global__ void write_far_away(int *p)
{
    p[threadIdx.x + (1 << 24)] = 1;
}

Test(engine, an_illegal_address_is_sticky)
{
    int *p = device_alloc<int>(16);
    write_far_away<<<1, 1>>>(p);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress, "%s", simtlab_emu_last_diagnostic());
    /* The context is poisoned: everything after fails the same way. */
    cr_assert_eq(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    int *q = nullptr;
    cr_assert_eq(cudaMalloc(&q, 64), cudaErrorIllegalAddress);
    do_nothing<<<1, 1>>>(nullptr);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress);
}

Test(engine, a_host_dereference_of_a_device_pointer_dies_with_sigsegv, .signal = SIGSEGV)
{
    int *p = device_alloc<int>(4);
    /* Device memory is inaccessible to the host, as on a discrete GPU: the
     * engine's handler explains, then the default action kills us. */
    volatile int value = *reinterpret_cast<volatile int *>(p);
    (void)value;
}

__global__ void too_much_static_shared(float *out)
{
    __shared__ float big[8192]; /* 32 KiB, plus 20 KiB dynamic: over 48 KiB */
    big[threadIdx.x] = 1.0f;
    out[threadIdx.x] = big[threadIdx.x];
}

Test(engine, static_plus_dynamic_shared_memory_above_the_limit_fails_the_launch)
{
    float *out = device_alloc<float>(32);
    too_much_static_shared<<<1, 32, 20 * 1024>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorInvalidValue, "%s", simtlab_emu_last_diagnostic());
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "needs 32768 bytes"), "%s",
              simtlab_emu_last_diagnostic());
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "test_emu_engine.cu:"), "%s",
              simtlab_emu_last_diagnostic());
    cudaFree(out);
}

/* Deep enough to pass a 64 KiB fiber stack. */
__device__ static int recurse(volatile int *depth_out, int depth)
{
    volatile char pad[512];
    pad[0] = static_cast<char>(depth);
    *depth_out = depth;
    return depth > 100000 ? pad[0] : recurse(depth_out, depth + 1) + pad[0];
}

__global__ void overflow_the_stack(int *out)
{
    out[0] = recurse(out, 0);
}

Test(engine, a_stack_overflow_in_a_kernel_thread_is_diagnosed)
{
    int *out = device_alloc<int>(1);
    overflow_the_stack<<<1, 1>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress, "%s", simtlab_emu_last_diagnostic());
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "stack overflow"), "%s",
              simtlab_emu_last_diagnostic());
}

/* ---- a kernel called like a host function ----------------------------------
 * The check at every kernel's entry (engine.hpp, host_call_of_kernel) reads
 * a thread-local flag that the engine keeps beside its worker's in_block:
 * true in every CUDA thread, false in host code before any launch, after a
 * launch (whose blocks the calling thread ran too), after a cooperative
 * launch, after a launch that faulted, and in a new host thread. */
__global__ void count_calls(int *calls)
{
    atomicAdd(calls, 1);
}

/* Calls the kernel without <<<>>>: it must not run, and must leave
 * cudaErrorInvalidConfiguration (or the sticky error, `want`) and a
 * diagnostic naming it. */
static void expect_host_call_refused(int *calls, cudaError_t want, const char *when)
{
    const int before = *calls;
    count_calls(calls);
    cr_assert_eq(*calls, before, "%s: the kernel ran when called without <<<>>>", when);
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(diag, "kernel count_calls") && std::strstr(diag, "without <<<>>>"), "%s: diagnostic: %s",
              when, diag);
    const cudaError_t got = cudaGetLastError();
    cr_assert_eq(got, want, "%s: got %s", when, cudaGetErrorName(got));
}

Test(engine, a_kernel_called_without_a_launch_does_not_run_before_or_after_launches)
{
    int *calls = nullptr;
    cr_assert_eq(cudaMallocManaged(&calls, sizeof(int)), cudaSuccess);
    *calls = 0;
    expect_host_call_refused(calls, cudaErrorInvalidConfiguration, "before any launch");
    count_calls<<<3, 64>>>(calls);
    expect_launch_ok("count_calls");
    cr_assert_eq(*calls, 3 * 64);
    expect_host_call_refused(calls, cudaErrorInvalidConfiguration, "after a launch");
    void *args[] = {&calls};
    cr_assert_eq(cudaLaunchCooperativeKernel((void *)count_calls, dim3(2), dim3(32), args, 0, 0), cudaSuccess, "%s",
                 simtlab_emu_last_diagnostic());
    expect_launch_ok("cooperative count_calls");
    cr_assert_eq(*calls, 3 * 64 + 2 * 32);
    expect_host_call_refused(calls, cudaErrorInvalidConfiguration, "after a cooperative launch");
    std::thread other([calls] { expect_host_call_refused(calls, cudaErrorInvalidConfiguration, "another thread"); });
    other.join();
    cr_assert_eq(*calls, 3 * 64 + 2 * 32);
    cudaFree(calls);
}

Test(engine, a_kernel_called_without_a_launch_does_not_run_after_a_faulting_launch)
{
    int *calls = nullptr;
    cr_assert_eq(cudaMallocManaged(&calls, sizeof(int)), cudaSuccess);
    *calls = 0;
    int *p = device_alloc<int>(16);
    write_far_away<<<1, 1>>>(p);
    cr_assert_eq(cudaGetLastError(), cudaErrorIllegalAddress, "%s", simtlab_emu_last_diagnostic());
    expect_host_call_refused(calls, cudaErrorIllegalAddress, "after a faulting launch (sticky)");
}
