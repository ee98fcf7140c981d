/* simtlab CPU emulator — what the checkers (emu/src/checks) offer the
 * runtime: whether they run. The rest of the checkers' interface
 * (checks/checkers.hpp) is for the engine side (profile, the checkers'
 * own files). */
#ifndef SIMTLAB_EMU_CHECKS_API_HPP
#define SIMTLAB_EMU_CHECKS_API_HPP

namespace simtlab_emu {
namespace checkers {

/* Whether memcheck runs in this program: instrumented code is linked and
 * SIMTLAB_EMU_MEMCHECK is not 0 (read once). The device's properties
 * follow it (runtime/device.cpp: no pageable memory access). */
bool memcheck_on();

/* Whether SIMTLAB_EMU_RACECHECK asks for racecheck (read once). */
bool racecheck_on();

} /* namespace checkers */
} /* namespace simtlab_emu */

#endif
