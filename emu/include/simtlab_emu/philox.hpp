/* simtlab CPU emulator — the counter-based generator behind the emulator's
 * cuRAND (curand_kernel.h, curand.h): Philox-4x32 with 10 rounds (Salmon,
 * Moraes, Dror and Shaw, "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11), from its published description. Every cuRAND state type of the
 * emulator (XORWOW, Philox, MRG32k3a) runs this generator: its numbers are
 * statistically sound but are NOT the sequences NVIDIA's cuRAND gives for
 * the same seed (emu/README.md says so).
 *
 * A stream is (key = seed, counter = (block, subsequence)): block b of
 * subsequence s is the 4 words philox(key, {b_lo, b_hi, s_lo, s_hi}), so
 * subsequences never overlap for 2^64 blocks and skipping ahead is
 * arithmetic.
 */
#ifndef SIMTLAB_EMU_PHILOX_HPP
#define SIMTLAB_EMU_PHILOX_HPP

#include <cmath>
#include <cstdint>

namespace simtlab_emu {
namespace rng {

struct words4 {
    std::uint32_t w[4];
};

inline words4 philox4x32_10(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3, std::uint32_t k0,
                            std::uint32_t k1)
{
    constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u, w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
    for (int round = 0; round < 10; round++) {
        const std::uint64_t p0 = static_cast<std::uint64_t>(m0) * c0, p1 = static_cast<std::uint64_t>(m1) * c2;
        const std::uint32_t hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
        const std::uint32_t hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += w0;
        k1 += w1;
    }
    return words4{{c0, c1, c2, c3}};
}

/* One stream's position: the next word is word `index` (0..3) of block
 * `block`. */
struct stream {
    std::uint64_t seed;
    std::uint64_t subsequence;
    std::uint64_t block;
    words4 out;      /* block `block`'s words */
    unsigned index;  /* 4: `out` is used up */
    int has_normal;  /* Box-Muller's second value is waiting */
    float normal;
    int has_normal_double;
    double normal_double;
};

inline void refill(stream &s)
{
    s.out = philox4x32_10(static_cast<std::uint32_t>(s.block), static_cast<std::uint32_t>(s.block >> 32),
                          static_cast<std::uint32_t>(s.subsequence), static_cast<std::uint32_t>(s.subsequence >> 32),
                          static_cast<std::uint32_t>(s.seed), static_cast<std::uint32_t>(s.seed >> 32));
}

/* Moves `words` 32-bit outputs ahead. */
inline void skip(stream &s, std::uint64_t words)
{
    const std::uint64_t pos = s.index + words;
    s.block += pos / 4u;
    s.index = static_cast<unsigned>(pos % 4u);
    refill(s);
}

inline void init(stream &s, std::uint64_t seed, std::uint64_t subsequence, std::uint64_t offset)
{
    s.seed = seed;
    s.subsequence = subsequence;
    s.block = 0;
    s.index = 0;
    s.has_normal = 0;
    s.has_normal_double = 0;
    s.normal = 0.0f;
    s.normal_double = 0.0;
    skip(s, offset);
}

inline std::uint32_t next(stream &s)
{
    if (s.index == 4u) {
        s.block++;
        s.index = 0;
        refill(s);
    }
    return s.out.w[s.index++];
}

/* (0, 1], as cuRAND's uniforms: 0 is excluded, 1 included. */
inline float to_uniform(std::uint32_t x)
{
    return static_cast<float>(x) * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}
/* 53 random bits from two words, in (0, 1]. */
inline double to_uniform_double(std::uint32_t a, std::uint32_t b)
{
    const std::uint64_t bits = (static_cast<std::uint64_t>(a) << 21) ^ (b >> 11); /* 53 bits */
    return (static_cast<double>(bits & ((1ull << 53) - 1u)) + 1.0) * 0x1p-53;
}

/* Box-Muller: two uniforms in (0, 1] give two independent standard normals. */
inline void box_muller(float u1, float u2, float &z0, float &z1)
{
    const float r = std::sqrt(-2.0f * std::log(u1));
    const float a = 6.2831853071795865f * u2;
    z0 = r * std::cos(a);
    z1 = r * std::sin(a);
}
inline void box_muller(double u1, double u2, double &z0, double &z1)
{
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 6.2831853071795865 * u2;
    z0 = r * std::cos(a);
    z1 = r * std::sin(a);
}

} /* namespace rng */
} /* namespace simtlab_emu */

#endif
