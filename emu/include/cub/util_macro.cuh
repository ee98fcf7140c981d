/* simtlab CPU emulator: <cub/util_macro.cuh>, the emulator's own CUB (emu/docs/libraries.md, "CUB"). */
#pragma once
#include <simtlab_emu/cub_core.hpp>
