/* simtlab CPU emulator: <cub/device/device_reduce.cuh>, the emulator's own CUB (emu/docs/libraries.md, "CUB"). */
#pragma once
#include <simtlab_emu/cub_device.hpp>
