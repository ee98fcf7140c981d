/* The emulator's settings (SIMTLAB_EMU_*, emu/src/common/settings.hpp):
 * each is read once per process and kept, except SIMTLAB_EMU_SEED, which is
 * read at every launch; a bad value gets one line on stderr naming the
 * variable and the value, and the default is used.
 *
 * Criterion runs each test in a process of its own, so each starts with no
 * setting read yet.
 *
 * Build and run: cmake --build build --target test_emu_settings &&
 *                build/bin/test_emu_settings */
#include <criterion/criterion.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

/* ---- helpers ----------------------------------------------------------- */

static void setup_default(void)
{
    for (const char *name : {"SIMTLAB_EMU_SEED", "SIMTLAB_EMU_SYNCCHECK", "SIMTLAB_EMU_THREADS", "SIMTLAB_EMU_CC"})
        cr_assert_eq(unsetenv(name), 0);
}

/* stderr into a file, then back: what the emulator printed meanwhile. */
struct stderr_capture {
    int saved = -1;
    FILE *file = nullptr;
    stderr_capture()
    {
        std::fflush(stderr);
        file = std::tmpfile();
        cr_assert_not_null(file);
        saved = dup(2);
        cr_assert_geq(saved, 0);
        cr_assert_geq(dup2(fileno(file), 2), 0);
    }
    std::string end()
    {
        std::fflush(stderr);
        dup2(saved, 2);
        close(saved);
        std::string text;
        std::rewind(file);
        char buf[4096];
        for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file)) > 0;)
            text.append(buf, n);
        std::fclose(file);
        return text;
    }
};

static int count_of(const std::string &text, const char *what)
{
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        n++;
    return n;
}

static void expect_launch_ok(const char *what)
{
    const cudaError_t err = cudaGetLastError();
    cr_assert_eq(err, cudaSuccess, "%s: %s: %s", what, cudaGetErrorName(err), simtlab_emu_last_diagnostic());
}

/* Each thread takes a ticket as it starts: tickets[t] is thread t's place
 * in the start order. */
__global__ void start_order(unsigned *next, unsigned *tickets)
{
    tickets[threadIdx.x] = atomicAdd(next, 1u);
}

constexpr unsigned order_threads = 256;

/* True when the block's threads started in index order. */
static bool started_in_index_order()
{
    unsigned *next = nullptr, *tickets = nullptr;
    cr_assert_eq(cudaMalloc(&next, sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&tickets, order_threads * sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMemset(next, 0, sizeof(unsigned)), cudaSuccess);
    cr_assert_eq(cudaMemset(tickets, 0xAB, order_threads * sizeof(unsigned)), cudaSuccess); /* poisoned */
    start_order<<<1, order_threads>>>(next, tickets);
    expect_launch_ok("start_order");
    std::vector<unsigned> host(order_threads);
    cr_assert_eq(cudaMemcpy(host.data(), tickets, order_threads * sizeof(unsigned), cudaMemcpyDeviceToHost),
                 cudaSuccess);
    cudaFree(next);
    cudaFree(tickets);
    std::vector<bool> seen(order_threads, false);
    bool in_order = true;
    for (unsigned t = 0; t < order_threads; t++) {
        cr_assert_lt(host[t], order_threads, "thread %u: ticket %u (never ran?)", t, host[t]);
        cr_assert(!seen[host[t]], "ticket %u taken twice", host[t]);
        seen[host[t]] = true;
        in_order = in_order && host[t] == t;
    }
    return in_order;
}

/* Threads 32-63 exit before the barrier that threads 0-31 wait at: a
 * synccheck failure by default, fine with SIMTLAB_EMU_SYNCCHECK=0. */
__global__ void barrier_for_the_first_warp(float *data)
{
    const unsigned t = threadIdx.x;
    if (t >= 32)
        return;
    data[t] += 1.0f;
    __syncthreads();
    if (t == 0)
        data[0] = 100.0f;
}

static cudaError_t run_first_warp_barrier()
{
    float *data = nullptr;
    cr_assert_eq(cudaMalloc(&data, 64 * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaMemset(data, 0, 64 * sizeof(float)), cudaSuccess);
    barrier_for_the_first_warp<<<1, 64>>>(data);
    const cudaError_t err = cudaGetLastError();
    cudaFree(data);
    return err;
}

/* ---- read once ----------------------------------------------------------- */

Test(settings, a_setting_is_read_once_per_process, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "0", 1), 0);
    cr_assert_eq(run_first_warp_barrier(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    /* changed after the first launch read it: kept as it was */
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "1", 1), 0);
    cr_assert_eq(run_first_warp_barrier(), cudaSuccess,
                 "SIMTLAB_EMU_SYNCCHECK was read again after the first launch: %s", simtlab_emu_last_diagnostic());
}

Test(settings, synccheck_read_at_the_first_launch_is_on_by_default, .init = setup_default)
{
    cr_assert_eq(run_first_warp_barrier(), cudaErrorLaunchFailure);
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "synccheck") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
}

/* ---- the seed: read at every launch ------------------------------------- */

Test(settings, the_seed_is_read_at_every_launch, .init = setup_default)
{
    cr_assert(started_in_index_order(), "without SIMTLAB_EMU_SEED threads start in index order");
    cr_assert_eq(setenv("SIMTLAB_EMU_SEED", "12345", 1), 0);
    cr_assert(!started_in_index_order(), "SIMTLAB_EMU_SEED set between launches was not read");
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
    cr_assert(started_in_index_order(), "SIMTLAB_EMU_SEED unset between launches was not read");
}

Test(settings, a_bad_seed_is_reported_once_and_ignored, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SEED", "twelve", 1), 0);
    stderr_capture capture;
    const bool first = started_in_index_order();
    const bool second = started_in_index_order();
    const std::string text = capture.end();
    cr_assert(first && second, "a bad seed must leave the index order");
    cr_assert_eq(count_of(text, "SIMTLAB_EMU_SEED=twelve"), 1, "stderr: %s", text.c_str());
}

/* ---- bad values: one line each, and the default ------------------------- */

Test(settings, bad_values_are_reported_once_each_and_the_defaults_used, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_THREADS", "0", 1), 0);
    cr_assert_eq(setenv("SIMTLAB_EMU_SYNCCHECK", "yes", 1), 0);
    cr_assert_eq(setenv("SIMTLAB_EMU_CC", "sm_90", 1), 0);
    stderr_capture capture;
    /* default synccheck (1): the barrier some threads exited before fails,
     * twice (a launch failure is sticky: cudaDeviceReset in between, which
     * does not read the settings again) */
    const cudaError_t first = run_first_warp_barrier();
    const cudaError_t reset = cudaDeviceReset();
    const cudaError_t second = run_first_warp_barrier();
    cudaDeviceProp p;
    const cudaError_t props = cudaGetDeviceProperties(&p, 0);
    const std::string text = capture.end();
    cr_assert_eq(first, cudaErrorLaunchFailure, "%s", cudaGetErrorName(first));
    cr_assert_eq(reset, cudaSuccess);
    cr_assert_eq(second, cudaErrorLaunchFailure, "%s", cudaGetErrorName(second));
    cr_assert_eq(props, cudaSuccess);
    cr_assert_eq(p.major * 10 + p.minor, 80, "default compute capability 8.0, got %d.%d", p.major, p.minor);
    cr_assert_eq(count_of(text, "SIMTLAB_EMU_THREADS=0"), 1, "stderr: %s", text.c_str());
    cr_assert_eq(count_of(text, "SIMTLAB_EMU_SYNCCHECK=yes"), 1, "stderr: %s", text.c_str());
    cr_assert_eq(count_of(text, "SIMTLAB_EMU_CC=sm_90"), 1, "stderr: %s", text.c_str());
}

Test(settings, an_empty_value_is_the_same_as_unset, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_CC", "", 1), 0);
    cr_assert_eq(setenv("SIMTLAB_EMU_THREADS", "", 1), 0);
    stderr_capture capture;
    cudaDeviceProp p;
    const cudaError_t props = cudaGetDeviceProperties(&p, 0);
    const bool in_order = started_in_index_order();
    const std::string text = capture.end();
    cr_assert_eq(props, cudaSuccess);
    cr_assert_eq(p.major * 10 + p.minor, 80);
    cr_assert(in_order);
    cr_assert_eq(count_of(text, "SIMTLAB_EMU_"), 0, "stderr: %s", text.c_str());
}

Test(settings, a_valid_value_is_taken, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_CC", "86", 1), 0);
    cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_assert_eq(p.major * 10 + p.minor, 86);
}
