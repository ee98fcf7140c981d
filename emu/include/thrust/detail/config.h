/* simtlab CPU emulator — <thrust/detail/config.h>, which every Thrust header
 * includes first: Debian's Thrust 1.17 (libthrust-dev), reached through the
 * directory that slcc and sl_emu_target put ahead of the toolkit guard
 * (SIMTLAB_EMU_THRUST), with the CPP device system unless the program asks
 * for OMP (then with -fopenmp) or TBB; never the toolkit's own Thrust, and
 * never its CUDA system. Then the emulator's part (simtlab_emu/thrust.hpp):
 * a program that uses Thrust keeps device memory open to host code, where
 * the CPP system runs Thrust's algorithms. emu/docs/libraries.md, "Thrust and NVTX". */
#ifndef SIMTLAB_EMU_THRUST_DETAIL_CONFIG_H
#define SIMTLAB_EMU_THRUST_DETAIL_CONFIG_H

#if defined(SIMTLAB_EMU_WITHOUT_THRUST) /* emu/cmake/SimtlabEmuLibraries.cmake */
#error "simtlab emulator: this emulator was built without Thrust: configure it with -DSIMTLAB_EMU_WITH_THRUST=ON"
#elif !defined(SIMTLAB_EMU_THRUST)
#error "simtlab emulator: Thrust comes from Debian's Thrust 1.17: apt-get install libthrust-dev libcub-dev"
#else

#ifndef THRUST_DEVICE_SYSTEM
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#include_next <thrust/detail/config.h>

#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#error "simtlab emulator: Thrust's CUDA device system needs nvcc; the emulator builds Thrust with THRUST_DEVICE_SYSTEM_CPP (the default), OMP or TBB"
#endif

#ifdef __cplusplus
/* Thrust 1.17's contiguous_storage.inl calls assert (swap_allocators, which
 * swapping host_vectors instantiates) without including <cassert>; CCCL's
 * copy gets it from elsewhere. In a .cu, where Thrust sees __CUDA_ARCH__,
 * that is the emulator's device-aware assert (emu/include/assert.h). */
#include <cassert>
#include <simtlab_emu/thrust.hpp>
#endif

#endif /* SIMTLAB_EMU_THRUST */
#endif /* SIMTLAB_EMU_THRUST_DETAIL_CONFIG_H */
