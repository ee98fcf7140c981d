/* racecheck: shared-memory hazards between barriers (emu/README.md,
 * "racecheck and memcheck"). Each kernel below is small enough to work out
 * by hand which pair of threads the default schedule (threads start in
 * index order, each runs until it waits) finds first:
 *   - a thread reads a word another thread wrote in the same barrier
 *     interval (RAW), writes a word another read (WAR), or writes a word
 *     another wrote (WAW), with no __syncthreads between: the launch fails
 *     with cudaErrorLaunchFailure, naming the kind, both threads, both
 *     lines and the variable;
 *   - the same kernels with the barrier pass and compute the right values;
 *   - lanes of one warp ordered by __syncwarp or a shuffle are not a race;
 *     without either, they are (Volta's independent thread scheduling).
 *
 * Always compiled with the instrumentation (emu/CMakeLists.txt).
 * Build and run: cmake --build build --target test_emu_racecheck &&
 *                build/bin/test_emu_racecheck */
#include <criterion/criterion.h>

#include <simtlab_emu/profile.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

/* ---- helpers ----------------------------------------------------------- */

static void setup_default(void)
{
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
    cr_assert_eq(unsetenv("SIMTLAB_EMU_RACECHECK"), 0);
    cr_assert_eq(simtlab_emu_profile_available(), 1, "this test must be built with the instrumentation");
}

static int *device_ints(unsigned n)
{
    int *device = nullptr;
    cr_assert_eq(cudaMalloc(&device, n * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(device, 0, n * sizeof(int)), cudaSuccess);
    return device;
}

static std::vector<int> download(const int *device, unsigned n)
{
    std::vector<int> host(n, -12345);
    cr_assert_eq(cudaMemcpy(host.data(), device, n * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

static void expect_success(const char *what)
{
    const cudaError_t err = cudaDeviceSynchronize();
    cr_assert_eq(err, cudaSuccess, "%s: %s: %s", what, cudaGetErrorName(err), simtlab_emu_last_diagnostic());
}

/* ".cu:<line>" as a diagnostic names a source line. */
static const char *at(int line)
{
    static char text[4][32];
    static int next;
    char *t = text[next++ % 4];
    std::snprintf(t, sizeof text[0], ".cu:%d", line);
    return t;
}

/* The launch just made failed with cudaErrorLaunchFailure and its
 * diagnostic holds every one of `words` (NULL-terminated). */
static void expect_hazard(const char *const *words)
{
    const cudaError_t err = cudaDeviceSynchronize();
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert_eq(err, cudaErrorLaunchFailure, "expected cudaErrorLaunchFailure, got %s: %s", cudaGetErrorName(err),
                 diag);
    for (; *words; words++)
        cr_assert(std::strstr(diag, *words) != nullptr, "diagnostic lacks \"%s\": %s", *words, diag);
}

/* ---- RAW: reading what another warp wrote, without a barrier ------------- */

constexpr int raw_write_line = __LINE__ + 7;
constexpr int raw_read_line = __LINE__ + 9;
template <bool with_barrier>
__global__ void read_the_previous_warps_value(int *out)
{
    __shared__ int cells[64];
    const unsigned t = threadIdx.x;
    cells[t] = static_cast<int>(t) * 2;
    if (with_barrier)
        __syncthreads();
    if (t >= 32) out[t] = cells[t - 32];
}

/* Thread 0 writes cells[0]; thread 32, in the second warp, reads it in the
 * same interval: the first hazard is RAW between threads 0 and 32. */
Test(racecheck, raw_without_a_barrier_is_caught_on_the_default_schedule, .init = setup_default)
{
    int *out = device_ints(64);
    read_the_previous_warps_value<false><<<1, 64>>>(out);
    const char *words[] = {"racecheck: RAW hazard", "__shared__ cells", "byte 0 of its 256",
                           "thread (0,0,0) wrote it", "thread (32,0,0)", "4-byte read",
                           at(raw_write_line), at(raw_read_line), "SIMTLAB_EMU_RACECHECK=0", nullptr};
    expect_hazard(words);
    cudaFree(out);
}

Test(racecheck, raw_with_the_barrier_passes_and_reads_the_written_values, .init = setup_default)
{
    int *out = device_ints(64);
    read_the_previous_warps_value<true><<<1, 64>>>(out);
    expect_success("with the barrier");
    const std::vector<int> got = download(out, 64);
    for (int t = 32; t < 64; t++)
        cr_assert_eq(got[t], (t - 32) * 2, "out[%d]", t);
    cudaFree(out);
}

/* ---- WAR: read a neighbour's value, then overwrite one's own ----------- */

constexpr int war_read_line = __LINE__ + 10;
constexpr int war_write_line = __LINE__ + 12;
template <bool with_barrier>
__global__ void shift_left_in_place(int *out)
{
    __shared__ int cells[65];
    const unsigned t = threadIdx.x;
    cells[t] = static_cast<int>(t);
    if (t == 0) cells[64] = 64;
    __syncthreads();
    const int right = cells[t + 1];
    if (with_barrier)
        __syncthreads();
    cells[t] = right;
    __syncthreads();
    out[t] = cells[t];
}

/* Thread 0 reads cells[1], then writes cells[0]; thread 1 then writes
 * cells[1], which thread 0 read in the same interval: WAR. */
Test(racecheck, war_reading_a_neighbour_then_overwriting_ones_own_is_caught, .init = setup_default)
{
    int *out = device_ints(64);
    shift_left_in_place<false><<<1, 64>>>(out);
    const char *words[] = {"racecheck: WAR hazard", "__shared__ cells", "byte 4 of its 260",
                           "thread (0,0,0) read it", "thread (1,0,0) did a 4-byte write",
                           at(war_read_line), at(war_write_line), "Race reported between Read access", nullptr};
    expect_hazard(words);
    cudaFree(out);
}

Test(racecheck, war_with_the_barrier_passes_and_shifts, .init = setup_default)
{
    int *out = device_ints(64);
    shift_left_in_place<true><<<1, 64>>>(out);
    expect_success("with the barrier");
    const std::vector<int> got = download(out, 64);
    for (int t = 0; t < 64; t++)
        cr_assert_eq(got[t], t + 1, "out[%d]", t);
    cudaFree(out);
}

/* ---- WAW: two warps write one word -------------------------------------- */

constexpr int waw_line = __LINE__ + 11;
template <bool with_barrier>
__global__ void everyone_writes_the_winner(int *out)
{
    __shared__ int winner;
    const unsigned t = threadIdx.x;
    if (with_barrier) {
        if (t == 0) winner = 0;
        __syncthreads();
        if (t == 63) winner = static_cast<int>(t);
    } else {
        winner = static_cast<int>(t);
    }
    __syncthreads();
    if (t == 0) out[0] = winner;
}

/* Lanes 0-31 write `winner` at one instruction (one warp-level store, not
 * a race); thread 32, of the next warp, writes it too: WAW with lane 31. */
Test(racecheck, waw_between_two_warps_is_caught, .init = setup_default)
{
    int *out = device_ints(1);
    everyone_writes_the_winner<false><<<1, 64>>>(out);
    const char *words[] = {"racecheck: WAW hazard", "__shared__ winner", "thread (31,0,0) wrote it",
                           "thread (32,0,0) did a 4-byte write", at(waw_line), nullptr};
    expect_hazard(words);
    cudaFree(out);
}

Test(racecheck, waw_separated_by_a_barrier_passes, .init = setup_default)
{
    int *out = device_ints(1);
    everyone_writes_the_winner<true><<<1, 64>>>(out);
    expect_success("with the barrier");
    cr_assert_eq(download(out, 1)[0], 63);
    cudaFree(out);
}

/* ---- within one warp ------------------------------------------------------ */

/* Each lane writes its cell, then reads its neighbour's: ordered by
 * __syncwarp (mode 1), by a shuffle of the whole warp (mode 2), or not at
 * all (mode 0). A second __syncwarp orders the reads before the writes
 * that follow. */
constexpr int warp_write_line = __LINE__ + 7;
constexpr int warp_read_line = __LINE__ + 12;
template <int mode>
__global__ void rotate_within_a_warp(int *out)
{
    __shared__ int cells[32];
    const unsigned lane = threadIdx.x;
    cells[lane] = static_cast<int>(lane) * 3;
    int token = 0;
    if (mode == 1)
        __syncwarp();
    if (mode == 2)
        token = __shfl_sync(0xffffffffu, static_cast<int>(lane), 0);
    const int next = cells[(lane + 1) % 32] + token;
    if (mode != 0)
        __syncwarp();
    cells[lane] = next;
    __syncwarp();
    out[lane] = cells[lane];
}

Test(racecheck, lanes_of_a_warp_ordered_by_syncwarp_pass, .init = setup_default)
{
    int *out = device_ints(32);
    rotate_within_a_warp<1><<<1, 32>>>(out);
    expect_success("__syncwarp");
    const std::vector<int> got = download(out, 32);
    for (int lane = 0; lane < 32; lane++)
        cr_assert_eq(got[lane], (lane + 1) % 32 * 3, "out[%d]", lane);
    cudaFree(out);
}

Test(racecheck, lanes_of_a_warp_ordered_by_a_shuffle_pass, .init = setup_default)
{
    int *out = device_ints(32);
    rotate_within_a_warp<2><<<1, 32>>>(out);
    expect_success("shuffle");
    const std::vector<int> got = download(out, 32);
    for (int lane = 0; lane < 32; lane++)
        cr_assert_eq(got[lane], (lane + 1) % 32 * 3, "out[%d]", lane);
    cudaFree(out);
}

/* Lane 0 reads cells[1] before lane 1 has run (no record yet); lane 1
 * writes cells[1], then reads cells[2]... the first hazard is lane 1's
 * write of the cell lane 0 read: WAR inside the warp, no __syncwarp. */
Test(racecheck, lanes_of_a_warp_without_syncwarp_race, .init = setup_default)
{
    int *out = device_ints(32);
    rotate_within_a_warp<0><<<1, 32>>>(out);
    const char *words[] = {"racecheck: WAR hazard", "__shared__ cells", "thread (0,0,0) read it",
                           "thread (1,0,0)", at(warp_read_line), at(warp_write_line), nullptr};
    expect_hazard(words);
    cudaFree(out);
}

/* ---- what is not a race ---------------------------------------------------- */

__global__ void histogram_of_lanes(int *out)
{
    __shared__ int bins[4];
    const unsigned t = threadIdx.x;
    if (t < 4) bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[t % 4], 1);
    __syncthreads();
    if (t < 4) out[t] = bins[t];
}

Test(racecheck, atomics_on_one_word_from_every_warp_are_not_a_race, .init = setup_default)
{
    int *out = device_ints(4);
    histogram_of_lanes<<<2, 256>>>(out);
    expect_success("atomics");
    const std::vector<int> got = download(out, 4);
    for (int b = 0; b < 4; b++)
        cr_assert_eq(got[b], 64, "bin %d", b);
    cudaFree(out);
}

Test(racecheck, simtlab_emu_racecheck_0_turns_it_off, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_RACECHECK", "0", 1), 0);
    int *out = device_ints(64);
    read_the_previous_warps_value<false><<<1, 64>>>(out);
    expect_success("racecheck off");
    cudaFree(out);
}
