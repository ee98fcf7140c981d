/* simtlab CPU emulator: <cub/block/block_scan.cuh>, the emulator's own CUB (emu/docs/libraries.md, "CUB"). */
#pragma once
#include <simtlab_emu/cub_block.hpp>
