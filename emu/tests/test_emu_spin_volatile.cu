/* Volatile spin loops (issue 16) in a kernel built with the spin watch
 * (SIMTLAB_EMU_SPIN_BUILD). The tests: test_emu_spin_volatile.cuh. */
#include "test_emu_spin_volatile.cuh"
