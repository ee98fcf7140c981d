/* simtlab CPU emulator — the checkers that watch an instrumented kernel's
 * every access (emu/docs/checks.md "racecheck and memcheck"): racecheck (shared
 * memory hazards between barriers, checks/racecheck.cpp) and the accesses that a
 * GPU would refuse (checks/checkers.cpp: outside any __shared__ variable, a
 * misaligned address, an atomic on host memory). Both use the SIMT
 * counters' hooks (profile/internal.hpp, "observer"): they see something
 * only in kernels compiled with the instrumentation (plain slcc, the
 * checked build, which --racecheck names; slcc --profile; the chapters'
 * CMake builds), never in `slcc --fast` builds. */
#ifndef SIMTLAB_EMU_CHECKERS_HPP
#define SIMTLAB_EMU_CHECKERS_HPP

#include "checks/api.hpp"
#include "engine/internal.hpp"
#include "profile/internal.hpp"

namespace simtlab_emu {
namespace checkers {

/* Before every launch (profile::launch_begin): installs the checkers'
 * observer when instrumented code is linked and a checker is on, else
 * removes it. */
void before_launch();

/* memcheck_on, racecheck_on: checks/api.hpp. */

/* The __shared__ declaration (or the dynamic area) that holds byte
 * `offset` of the running block's shared memory: its name (parsed from
 * the declaration's source line where it can be read) and place, and the
 * offset within it. False when no declaration holds it. */
/* Room for "file:line" at a long checkout path (tests/long_path_build.sh
 * checks a 150-character directory); a longer path is cut with a marker. */
constexpr std::size_t site_text_capacity = 1040;
struct shared_owner {
    char name[96];       /* "partial", or "extern __shared__ (dynamic)" */
    char where[site_text_capacity]; /* "reduce.cu:12", or "" */
    std::size_t offset;  /* bytes from the variable's start */
    std::size_t bytes;   /* the variable's size */
};
bool owner_of(const engine::worker *w, std::size_t offset, shared_owner *out);
/* "file:line" of an instrumentation site, or "?" */
void site_text(const void *pc, char *out, std::size_t cap);

/* checks/racecheck.cpp: the observer's shared-memory parts. */
namespace race {
void launch_begin();
void launch_end(const char *kernel, const char *file, int line); /* the warnings' summary */
void block_begin(unsigned nthreads);
void access(const profile::shared_access &a);
void barrier();
void warp_sync(unsigned warp, unsigned mask);
void basic_block();
} /* namespace race */

} /* namespace checkers */
} /* namespace simtlab_emu */

#endif
