/* simtlab CPU emulator — its settings: the SIMTLAB_EMU_* environment
 * variables, each read in one place (common/settings.cpp), a leaf that
 * every layer may use. Nothing else in emu/src calls getenv for them.
 *
 * Reading. Each variable is read once per process, at the first call of its
 * function below (a function-local static: thread-safe), and kept: setting
 * it later in the same process changes nothing. The one exception is
 * SIMTLAB_EMU_SEED, read at every launch (see it below). A child of fork()
 * keeps what its parent had read.
 *
 * Validation. A value that is not valid gets one line on stderr, once per
 * process, naming the variable and the value ("simtlab-emu: ignoring
 * SIMTLAB_EMU_THREADS=0 (expected ...)"), and the default is used; a bad
 * value never stops the program. An empty value is the same as unset.
 *
 * The reference (name: meaning; default; valid values):
 *
 *   SIMTLAB_EMU_ALIGN: the alignment of every device allocation's start
 *       (cudaMalloc, cudaMallocManaged, ...). Default 16. A power of two
 *       from 16 to 4096, in decimal; 256 gives CUDA's own guarantee.
 *   SIMTLAB_EMU_CC: the emulated device's compute capability (its
 *       properties follow from it). Default 8.0. "M.m" (major 1 to 12,
 *       minor 0 to 9, as "9.0") or the two-digit form ("86").
 *   SIMTLAB_EMU_THREADS: worker OS threads that run a grid's blocks.
 *       Default: the host's hardware threads. 1 to 1024 (decimal, 0x hex
 *       or 0 octal, as strtoull reads them).
 *   SIMTLAB_EMU_STACK_KB: KiB of stack per CUDA thread (each a fiber on
 *       its own mmap'd stack with a guard page). Default 64. 16 to 1048576.
 *   SIMTLAB_EMU_SEED: when set, threads of a block start in an order
 *       shuffled from this seed (and warp and barrier wake-ups likewise),
 *       so that a race shows up as a wrong result; unset: index order.
 *       Default unset. 0 to 2^64-1 (as strtoull reads them). Read at EVERY
 *       launch, not once: programs run one kernel under several schedules
 *       by setting it between launches (tutorial exercises 04 and 05,
 *       tests/test_04_reduce.c, emu/tests/test_emu_device.cu, ...). A bad
 *       value is reported once per distinct value.
 *   SIMTLAB_EMU_SYNCCHECK: 1: a __syncthreads that some of the block's
 *       threads exited before fails the launch (compute-sanitizer's
 *       synccheck); 0: the barrier waits only for the threads left.
 *       Default 1. 0 or 1.
 *   SIMTLAB_EMU_SPIN_LIMIT_S: seconds a spinning thread may find the same
 *       value while nothing else of the grid progresses before the launch
 *       fails as a hang. Default 5. A number > 0 (strtod: "0.5", "1e3",
 *       "inf").
 *   SIMTLAB_EMU_LOCKSTEP: 0: volatile accesses in kernels built with the
 *       spin watch take no turns (the lanes of a warp do not interleave
 *       them). Default 1 (on). "0" turns it off; any other value counts as
 *       on ("1" is the valid one; others are reported, then taken as on).
 *   SIMTLAB_EMU_MEMCHECK: 0 turns off the memory checker in instrumented
 *       builds. Default on (when instrumented code is linked). "0" or "1";
 *       any other value is reported, then taken as 1.
 *   SIMTLAB_EMU_RACECHECK: 0 turns off the shared-memory race checker in
 *       instrumented builds; 1 also asks for it (a warning when no kernel is
 *       instrumented). Default on (when instrumented). "0" or "1"; any
 *       other value is reported, then taken as 1.
 *   SIMTLAB_EMU_PROFILE: the SIMT counters. 1: profile every launch and
 *       print a table per kernel at exit; "launch": print a table after
 *       every launch; 0: off even in a --profile build. Default: on in a
 *       build made with `slcc --profile`, else off. "0", "1" or "launch";
 *       any other value is reported, then taken as 1.
 *   SIMTLAB_EMU_SAMPLE_BLOCKS: a launch from the host whose grid has more
 *       blocks than this runs only this many of them, and the SIMT
 *       counters scale by the ratio (profile/model.hpp; cooperative and
 *       device-side launches run whole). Default unset (0: every block
 *       runs). A decimal number above 0.
 *   SIMTLAB_EMU_PROFILE_CSV: a file to which each profiled launch appends
 *       one CSV row of its counters (a header first when the file is
 *       empty). Default unset (no CSV). Any path.
 *
 * Not settings of the runtime, so not here: SIMTLAB_EMU_PROFILE_BUILD (a
 * compile-time macro), slcc's TMPDIR, CMake options. */
#ifndef SIMTLAB_EMU_COMMON_SETTINGS_HPP
#define SIMTLAB_EMU_COMMON_SETTINGS_HPP

#include <cstddef>
#include <cstdint>

namespace simtlab_emu {
namespace settings {

std::size_t align();                           /* SIMTLAB_EMU_ALIGN */
void compute_capability(int *major, int *minor); /* SIMTLAB_EMU_CC */
unsigned threads();                            /* SIMTLAB_EMU_THREADS */
std::size_t stack_kib();                       /* SIMTLAB_EMU_STACK_KB */
/* SIMTLAB_EMU_SEED, read now (at each launch): true and the seed when set
 * to a valid value, else false. */
bool seed(std::uint64_t *value);
bool synccheck();                              /* SIMTLAB_EMU_SYNCCHECK */
double spin_limit_s();                         /* SIMTLAB_EMU_SPIN_LIMIT_S */
bool lockstep();                               /* SIMTLAB_EMU_LOCKSTEP */
/* SIMTLAB_EMU_MEMCHECK, SIMTLAB_EMU_RACECHECK: -1 unset, 0, 1. */
int memcheck();
int racecheck();
/* SIMTLAB_EMU_PROFILE: -1 unset, 0, 1 (1 also for "launch"); and whether
 * it is "launch". */
int profile();
bool profile_each_launch();
/* SIMTLAB_EMU_SAMPLE_BLOCKS: the number, or 0 when unset (or bad). */
std::uint64_t sample_blocks();
/* SIMTLAB_EMU_PROFILE_CSV: the path, or nullptr when unset or empty. */
const char *profile_csv();

} /* namespace settings */
} /* namespace simtlab_emu */

#endif
