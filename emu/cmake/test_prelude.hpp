/* kernel_prelude.hpp and the Criterion header that the emulator's tests in
 * CUDA all include. */
#include "kernel_prelude.hpp"

#include <criterion/criterion.h>
