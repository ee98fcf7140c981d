/* simtlab CPU emulator — <curand_kernel.h>: cuRAND's device API as CUDA
 * programs use it.
 *
 *   state types   curandState (= curandStateXORWOW, curandState_t),
 *                 curandStatePhilox4_32_10_t, curandStateMRG32k3a_t
 *   curand_init(seed, subsequence, offset, &state)
 *   curand(&state)                     32 random bits
 *   curand_uniform, curand_uniform_double           in (0, 1]
 *   curand_normal, curand_normal_double             standard normal
 *   curand_normal2, curand_normal2_double, curand_log_normal(_double)
 *   curand4, curand_uniform4, curand_normal4, curand_uniform2_double
 *   skipahead(n, &state), skipahead_sequence(n, &state)
 *
 * Every state type runs one generator, Philox-4x32-10 keyed by the seed with
 * the subsequence in its counter (simtlab_emu/philox.hpp); normals come from
 * the Box-Muller transform, two at a time, the second kept in the state as
 * cuRAND does. The values are statistically sound, and the same seed,
 * subsequence and offset always give the same values, but they are not the
 * numbers NVIDIA's cuRAND gives (its XORWOW and MRG32k3a are different
 * generators): a program that compares against numbers printed by a GPU
 * run will differ. Quasi-random (Sobol) states are not provided.
 */
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_

#include <cuda_runtime.h>
#include <curand.h>
#include <simtlab_emu/philox.hpp>

#include <cmath>

struct curandStateXORWOW {
    ::simtlab_emu::rng::stream simtlab_emu_stream;
};
struct curandStatePhilox4_32_10 {
    ::simtlab_emu::rng::stream simtlab_emu_stream;
};
struct curandStateMRG32k3a {
    ::simtlab_emu::rng::stream simtlab_emu_stream;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

namespace simtlab_emu {
namespace rng {
template <class S>
inline stream &of(S *state)
{
    return state->simtlab_emu_stream;
}
} /* namespace rng */
} /* namespace simtlab_emu */

template <class S>
inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, S *state)
{
    ::simtlab_emu::rng::init(::simtlab_emu::rng::of(state), seed, subsequence, offset);
}

template <class S>
inline unsigned int curand(S *state)
{
    return ::simtlab_emu::rng::next(::simtlab_emu::rng::of(state));
}

template <class S>
inline float curand_uniform(S *state)
{
    return ::simtlab_emu::rng::to_uniform(curand(state));
}

template <class S>
inline double curand_uniform_double(S *state)
{
    const unsigned a = curand(state), b = curand(state);
    return ::simtlab_emu::rng::to_uniform_double(a, b);
}

template <class S>
inline float2 curand_normal2(S *state)
{
    const float u1 = curand_uniform(state), u2 = curand_uniform(state);
    float2 z;
    ::simtlab_emu::rng::box_muller(u1, u2, z.x, z.y);
    return z;
}

template <class S>
inline double2 curand_normal2_double(S *state)
{
    const double u1 = curand_uniform_double(state), u2 = curand_uniform_double(state);
    double2 z;
    ::simtlab_emu::rng::box_muller(u1, u2, z.x, z.y);
    return z;
}

template <class S>
inline float curand_normal(S *state)
{
    ::simtlab_emu::rng::stream &s = ::simtlab_emu::rng::of(state);
    if (s.has_normal) {
        s.has_normal = 0;
        return s.normal;
    }
    const float2 z = curand_normal2(state);
    s.has_normal = 1;
    s.normal = z.y;
    return z.x;
}

template <class S>
inline double curand_normal_double(S *state)
{
    ::simtlab_emu::rng::stream &s = ::simtlab_emu::rng::of(state);
    if (s.has_normal_double) {
        s.has_normal_double = 0;
        return s.normal_double;
    }
    const double2 z = curand_normal2_double(state);
    s.has_normal_double = 1;
    s.normal_double = z.y;
    return z.x;
}

template <class S>
inline float curand_log_normal(S *state, float mean, float stddev)
{
    return std::exp(mean + stddev * curand_normal(state));
}

template <class S>
inline double curand_log_normal_double(S *state, double mean, double stddev)
{
    return std::exp(mean + stddev * curand_normal_double(state));
}

template <class S>
inline uint4 curand4(S *state)
{
    uint4 r;
    r.x = curand(state);
    r.y = curand(state);
    r.z = curand(state);
    r.w = curand(state);
    return r;
}

template <class S>
inline float4 curand_uniform4(S *state)
{
    float4 r;
    r.x = curand_uniform(state);
    r.y = curand_uniform(state);
    r.z = curand_uniform(state);
    r.w = curand_uniform(state);
    return r;
}

template <class S>
inline double2 curand_uniform2_double(S *state)
{
    double2 r;
    r.x = curand_uniform_double(state);
    r.y = curand_uniform_double(state);
    return r;
}

template <class S>
inline float4 curand_normal4(S *state)
{
    const float2 a = curand_normal2(state), b = curand_normal2(state);
    return make_float4(a.x, a.y, b.x, b.y);
}

/* Moves `n` 32-bit outputs ahead. */
template <class S>
inline void skipahead(unsigned long long n, S *state)
{
    ::simtlab_emu::rng::skip(::simtlab_emu::rng::of(state), n);
}

/* Moves `n` subsequences ahead, keeping the position within them. */
template <class S>
inline void skipahead_sequence(unsigned long long n, S *state)
{
    ::simtlab_emu::rng::stream &s = ::simtlab_emu::rng::of(state);
    s.subsequence += n;
    ::simtlab_emu::rng::refill(s);
}

#endif
