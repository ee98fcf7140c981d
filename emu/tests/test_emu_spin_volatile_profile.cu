/* Volatile spin loops (issue 16) in a kernel built for the SIMT counters
 * (SIMTLAB_EMU_PROFILE_BUILD). The tests: test_emu_spin_volatile.cuh. */
#include "test_emu_spin_volatile.cuh"
