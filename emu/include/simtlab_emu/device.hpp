/* simtlab CPU emulator — the device side of CUDA C++ as a kernel sees it.
 *
 * Included by <cuda_runtime.h> in C++. This file has the qualifiers, the
 * built-in variables and block barriers; the rest is split by topic:
 *
 *   launch.hpp         k<<<grid, block, shmem, stream>>>(args) after slrewrite
 *   device_warp.hpp    __syncwarp, shuffles, votes, match, reduce
 *   device_atomic.hpp  atomics, fences, clock64, __nanosleep
 *   nv_atomic.hpp      __nv_atomic_* (CUDA 12.8's atomic built-ins)
 *   device_math.hpp    float/integer intrinsics, min/max, conversions
 *
 * Each CUDA thread is a fiber run by the engine (emu/src/engine*.cpp); the
 * built-ins read the engine's per-OS-thread copies of the indices, which
 * the engine sets before it runs or resumes a CUDA thread.
 */
#ifndef SIMTLAB_EMU_DEVICE_HPP
#define SIMTLAB_EMU_DEVICE_HPP

/* What nvcc makes visible without an include (see cuda_runtime.h). <memory>
 * comes before the qualifier macros because libstdc++ spells an attribute
 * __noinline__ (shared_ptr_base.h), which the macro below would break. */
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <math.h>
#include <memory>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simtlab_emu/engine.hpp>

/* ---- qualifiers: <host_defines.h>, shared with C code ---------------- */
#include <host_defines.h>

/* ---- built-in variables ----------------------------------------------------
 * threadIdx, blockIdx, blockDim and gridDim are const global variables
 * (engine.hpp), not macros: host code may name its own variables so. */
/* A variable, not a macro: host code reads cudaDeviceProp::warpSize in the
 * same files. Unlike nvcc's it is a constant expression; do not rely on that. */
static const int warpSize = 32;

/* ---- block barriers -------------------------------------------------------
 * simtlab_emu::sync_block (engine.hpp) waits for every thread of the block
 * and returns the combination of the predicates that the mode
 * (simtlab_emu::sync_mode) asks for. */
/* Macros rather than functions so that a diagnosed barrier names the line
 * of the kernel where it stands. */
#define __syncthreads() ((void)::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, SIMTLAB_EMU_HERE))
#define __syncthreads_count(p) \
    (::simtlab_emu::sync_block(::simtlab_emu::sync_count, (p) != 0, SIMTLAB_EMU_HERE))
#define __syncthreads_and(p) \
    (::simtlab_emu::sync_block(::simtlab_emu::sync_and, (p) != 0, SIMTLAB_EMU_HERE))
#define __syncthreads_or(p) \
    (::simtlab_emu::sync_block(::simtlab_emu::sync_or, (p) != 0, SIMTLAB_EMU_HERE))

#include <simtlab_emu/launch.hpp>
#include <simtlab_emu/device_warp.hpp>
#include <simtlab_emu/device_atomic.hpp>
#include <simtlab_emu/nv_atomic.hpp> /* __nv_atomic_* (CUDA 12.8's built-ins) */
#include <simtlab_emu/device_math.hpp>
#include <simtlab_emu/ptx_sreg.hpp>
#include <simtlab_emu/ptx_ops.hpp>
#include <simtlab_emu/cooperative.hpp> /* cudaLaunchCooperativeKernel */

#endif
