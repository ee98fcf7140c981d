/* simtlab CPU emulator — what the two halves of the tensor-core emulation
 * share: engine/tensor_mma.cpp (mma.sync, WMMA) and engine/tensor_copy.cpp (ldmatrix,
 * cp.async). */
#ifndef SIMTLAB_EMU_TENSOR_INTERNAL_HPP
#define SIMTLAB_EMU_TENSOR_INTERNAL_HPP

#include <cstdint>
#include <cstring>

namespace simtlab_emu {
namespace tensor {

/* Every tensor-core operation is warp-collective over all 32 lanes. */
constexpr unsigned full_warp = 0xffffffffu;

/* A 16-bit element at any alignment. */
inline std::uint16_t load_u16(const void *p)
{
    std::uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline bool aligned(const void *p, std::uintptr_t bytes)
{
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

} /* namespace tensor */
} /* namespace simtlab_emu */

#endif
