/* simtlab CPU emulator: <cub/cub.cuh>, the emulator's own CUB (emu/README.md,
 * "CUB"): the warp, block and device-wide primitives it provides. A CUB
 * header it does not provide is the toolkit guard's one-line #error. */
#pragma once
#include <simtlab_emu/cub_core.hpp>
#include <simtlab_emu/cub_block.hpp>
#include <simtlab_emu/cub_device.hpp>
