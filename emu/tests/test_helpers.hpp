/* Helpers shared by the emulator's .cu tests: device buffers allocated and
 * poisoned, so that a value nobody wrote cannot pass for a result, and
 * copied back for checking (test_emu_cdp, test_emu_coop); the seed of a
 * test's random inputs, printed so that a run can be repeated, and a
 * checked CUDA call (test_emu_cub, test_emu_thrust). */
#ifndef SIMTLAB_EMU_TESTS_TEST_HELPERS_HPP
#define SIMTLAB_EMU_TESTS_TEST_HELPERS_HPP

#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

/* count T's of device memory, every byte `poison`; the caller frees it. */
template <class T>
static T *device_alloc(size_t count, int poison = 0xAB)
{
    T *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, count * sizeof(T)), cudaSuccess, "cudaMalloc: %s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaMemset(p, poison, count * sizeof(T)), cudaSuccess);
    return p;
}

template <class T>
static std::vector<T> copy_back(const T *device, size_t count)
{
    std::vector<T> host(count);
    cr_assert_eq(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return host;
}

/* SIMTLAB_TEST_SEED, or the time; printed (to stderr) with the test's name. */
static inline unsigned announced_seed(const char *test)
{
    const char *env = std::getenv("SIMTLAB_TEST_SEED");
    unsigned seed = env && *env ? (unsigned)std::strtoul(env, nullptr, 10) : (unsigned)std::time(nullptr);
    std::fprintf(stderr, "%s: seed %u (SIMTLAB_TEST_SEED=%u repeats it)\n", test, seed, seed);
    return seed;
}

#define CHECK_CUDA(call)                                                                                          \
    do {                                                                                                          \
        cudaError_t e_ = (call);                                                                                  \
        cr_assert_eq(e_, cudaSuccess, "%s: %s (%s)", #call, cudaGetErrorString(e_), simtlab_emu_last_diagnostic()); \
    } while (0)

#endif /* SIMTLAB_EMU_TESTS_TEST_HELPERS_HPP */
