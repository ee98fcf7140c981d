/* simtlab CPU emulator — naming the source line of a code address, for the
 * spin watch's diagnostic (engine/block.cpp). */
#ifndef SIMTLAB_EMU_SPIN_WHERE_HPP
#define SIMTLAB_EMU_SPIN_WHERE_HPP

#include <cstddef>

namespace simtlab_emu {
namespace engine {

/* Writes "file:line" of the kernel code at return address `pc` into `out`
 * (addr2line on the module's debug information; the first location that is
 * not an emulator or system header, so an inlined device function names the
 * kernel's line too), or "code address 0x... in <module>" without it. */
void describe_code_address(const void *pc, char *out, std::size_t size);

} /* namespace engine */
} /* namespace simtlab_emu */

#endif
