/* simtlab CPU emulator: <cub/block/block_discontinuity.cuh>, the emulator's own CUB (emu/README.md, "CUB"). */
#pragma once
#include <simtlab_emu/cub_block.hpp>
