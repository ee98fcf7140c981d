/* Helpers shared by the chapter tests (tests/test_NN_*.c). */
#ifndef SIMTLAB_SL_TEST_H
#define SIMTLAB_SL_TEST_H

#include <stddef.h>
#include <stdint.h>

#include "simtlab/simtlab.h"

/* In the CUDA build: skips the calling test, with a printed reason, when no
 * usable device is present (Criterion forks before each test, so the probe
 * never creates a context in the parent). In the emulator build: returns. */
void sl_test_require_device(void);

/* The seed for this test's random inputs, printed to stderr with the test's
 * name so that a failure can be replayed with SIMTLAB_SEED=<seed>. */
uint64_t sl_test_seed(const char *test_name);

/* Asserts that a call failed with `expected` and that sl_last_error()
 * contains `needle` (the argument's name, say). */
void sl_test_expect_failure(sl_status st, sl_status expected, const char *needle);

/* malloc that fails the test (not the process) when memory is short. */
void *sl_test_alloc(size_t bytes);

#endif
