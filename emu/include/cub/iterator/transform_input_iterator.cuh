/* simtlab CPU emulator: <cub/iterator/transform_input_iterator.cuh>, the emulator's own CUB (emu/docs/libraries.md, "CUB"). */
#pragma once
#include <simtlab_emu/cub_core.hpp>
