#include "sl_test.h"

#include <criterion/criterion.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sl_test_require_device(void)
{
    if (sl_backend_is_emulator()) return;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        /* The text below is what CTest's SKIP_REGULAR_EXPRESSION matches. */
        cr_skip_test("simtlab: no usable CUDA GPU on this machine (no driver / no device); this test "
                     "runs on a GPU only, and the same test runs under the emulator in the *_emu binary "
                     "(%s: %s)",
                     err != cudaSuccess ? cudaGetErrorName(err) : "cudaGetDeviceCount",
                     err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    }
}

uint64_t sl_test_seed(const char *test_name)
{
    uint64_t seed = 0;
    cr_assert_eq(sl_seed_from_env(&seed), SL_OK, "%s", sl_last_error());
    fprintf(stderr, "%s: seed %llu (rerun with SIMTLAB_SEED=%llu)\n", test_name,
            (unsigned long long)seed, (unsigned long long)seed);
    return seed;
}

void *sl_test_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    cr_assert_not_null(p, "malloc(%zu) failed", bytes);
    return p;
}

void sl_test_expect_failure(sl_status st, sl_status expected, const char *needle)
{
    cr_assert_eq(st, expected, "status %s, expected %s (%s)", sl_status_name(st), sl_status_name(expected),
                 sl_last_error());
    cr_assert(strstr(sl_last_error(), needle) != NULL, "message \"%s\" does not name \"%s\"", sl_last_error(),
              needle);
}
