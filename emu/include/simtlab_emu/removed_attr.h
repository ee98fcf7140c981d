/* simtlab CPU emulator — SIMTLAB_EMU_REMOVED(message): marks a declaration
 * of something CUDA removed, so that naming it stops the build with
 * `message` (what was removed, in which CUDA version, what replaces it),
 * as nvcc 13 stops it, instead of g++'s bare "was not declared". C and C++.
 *
 * GCC 12 and later and Clang know `unavailable`: an error wherever the
 * name is used, for functions, struct members, enumerators and types;
 * SIMTLAB_EMU_REMOVED_MEMBERS is then defined, and the removed members and
 * enumerators are declared (driver_types.h). An older GCC gets `error`,
 * which stops the build where a call to such a function remains after
 * optimisation; the members and enumerators are then left out. */
#ifndef SIMTLAB_EMU_REMOVED_ATTR_H
#define SIMTLAB_EMU_REMOVED_ATTR_H

#if defined(__has_attribute)
#if __has_attribute(unavailable)
#define SIMTLAB_EMU_REMOVED(message) __attribute__((unavailable(message)))
#define SIMTLAB_EMU_REMOVED_MEMBERS 1
#endif
#endif
#ifndef SIMTLAB_EMU_REMOVED
#define SIMTLAB_EMU_REMOVED(message) __attribute__((error(message)))
#endif

#endif
