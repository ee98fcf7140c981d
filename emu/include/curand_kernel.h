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
 * run will differ.
 *
 * Quasi-random states: curandStateSobol32_t, curandStateScrambledSobol32_t,
 * curandStateSobol64_t, curandStateScrambledSobol64_t, with
 *   curand_init(direction_vectors, offset, &state)
 *   curand_init(direction_vectors, scramble_c, offset, &state)   scrambled
 *   curand, curand_uniform(_double), curand_normal(_double) (inverse normal
 *   distribution function), curand_log_normal(_double), skipahead(n, &state)
 * and the direction vectors of curandGetDirectionVectors32/64 (curand.h):
 * Sobol' sequences in Gray-code order (simtlab_emu/sobol.hpp). The
 * unscrambled ones are the Joe-Kuo Sobol' points cuRAND documents; the
 * scrambled direction vectors and constants are the emulator's own.
 */
#ifndef CURAND_KERNEL_H_
#define CURAND_KERNEL_H_
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_CURAND)
#error "simtlab emulator: this emulator was built without cuRAND: configure it with -DSIMTLAB_EMU_WITH_CURAND=ON"
#endif

#include <cuda_runtime.h>
#include <curand.h>
#include <simtlab_emu/philox.hpp>
#include <simtlab_emu/sobol.hpp>

#include <cmath>
#include <type_traits>

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

/* Sobol' states, in cuRAND's layout: position i, current point x,
 * scramble constant c, one dimension's direction numbers. */
struct curandStateSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
struct curandStateScrambledSobol32 {
    unsigned int i, x, c;
    unsigned int direction_vectors[32];
};
struct curandStateSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
struct curandStateScrambledSobol64 {
    unsigned long long i, x, c;
    unsigned long long direction_vectors[64];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
typedef struct curandStateSobol64 curandStateSobol64_t;
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

namespace simtlab_emu {
namespace rng {
template <class S>
inline stream &of(S *state)
{
    return state->simtlab_emu_stream;
}
/* The generic functions below are for the pseudo-random states; the
 * Sobol' states have their own overloads. */
template <class S>
struct is_pseudo : std::integral_constant<bool, std::is_same<S, curandStateXORWOW>::value ||
                                                    std::is_same<S, curandStatePhilox4_32_10>::value ||
                                                    std::is_same<S, curandStateMRG32k3a>::value> {};
template <class S, class R>
using pseudo_t = typename std::enable_if<is_pseudo<S>::value, R>::type;
} /* namespace rng */
} /* namespace simtlab_emu */

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, void> curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, S *state)
{
    ::simtlab_emu::rng::init(::simtlab_emu::rng::of(state), seed, subsequence, offset);
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, unsigned int> curand(S *state)
{
    return ::simtlab_emu::rng::next(::simtlab_emu::rng::of(state));
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, float> curand_uniform(S *state)
{
    return ::simtlab_emu::rng::to_uniform(curand(state));
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, double> curand_uniform_double(S *state)
{
    const unsigned a = curand(state), b = curand(state);
    return ::simtlab_emu::rng::to_uniform_double(a, b);
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, float2> curand_normal2(S *state)
{
    const float u1 = curand_uniform(state), u2 = curand_uniform(state);
    float2 z;
    ::simtlab_emu::rng::box_muller(u1, u2, z.x, z.y);
    return z;
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, double2> curand_normal2_double(S *state)
{
    const double u1 = curand_uniform_double(state), u2 = curand_uniform_double(state);
    double2 z;
    ::simtlab_emu::rng::box_muller(u1, u2, z.x, z.y);
    return z;
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, float> curand_normal(S *state)
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
inline ::simtlab_emu::rng::pseudo_t<S, double> curand_normal_double(S *state)
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
inline ::simtlab_emu::rng::pseudo_t<S, float> curand_log_normal(S *state, float mean, float stddev)
{
    return std::exp(mean + stddev * curand_normal(state));
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, double> curand_log_normal_double(S *state, double mean, double stddev)
{
    return std::exp(mean + stddev * curand_normal_double(state));
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, uint4> curand4(S *state)
{
    uint4 r;
    r.x = curand(state);
    r.y = curand(state);
    r.z = curand(state);
    r.w = curand(state);
    return r;
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, float4> curand_uniform4(S *state)
{
    float4 r;
    r.x = curand_uniform(state);
    r.y = curand_uniform(state);
    r.z = curand_uniform(state);
    r.w = curand_uniform(state);
    return r;
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, double2> curand_uniform2_double(S *state)
{
    double2 r;
    r.x = curand_uniform_double(state);
    r.y = curand_uniform_double(state);
    return r;
}

template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, float4> curand_normal4(S *state)
{
    const float2 a = curand_normal2(state), b = curand_normal2(state);
    return make_float4(a.x, a.y, b.x, b.y);
}

/* Moves `n` 32-bit outputs ahead. */
template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, void> skipahead(unsigned long long n, S *state)
{
    ::simtlab_emu::rng::skip(::simtlab_emu::rng::of(state), n);
}

/* Moves `n` subsequences ahead, keeping the position within them. */
template <class S>
inline ::simtlab_emu::rng::pseudo_t<S, void> skipahead_sequence(unsigned long long n, S *state)
{
    ::simtlab_emu::rng::stream &s = ::simtlab_emu::rng::of(state);
    s.subsequence += n;
    ::simtlab_emu::rng::refill(s);
}

/* ---- Sobol' quasi-random states (simtlab_emu/sobol.hpp) ---------------- */

inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset, curandStateSobol32_t *state)
{
    ::simtlab_emu::sobol::init(state, direction_vectors, 0u, offset, "curand_init(curandStateSobol32_t)");
}
inline void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c, unsigned int offset,
                        curandStateScrambledSobol32_t *state)
{
    ::simtlab_emu::sobol::init(state, direction_vectors, scramble_c, offset,
                               "curand_init(curandStateScrambledSobol32_t)");
}
inline void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                        curandStateSobol64_t *state)
{
    ::simtlab_emu::sobol::init(state, direction_vectors, 0ull, offset, "curand_init(curandStateSobol64_t)");
}
inline void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                        unsigned long long offset, curandStateScrambledSobol64_t *state)
{
    ::simtlab_emu::sobol::init(state, direction_vectors, scramble_c, offset,
                               "curand_init(curandStateScrambledSobol64_t)");
}

/* Moves `n` points ahead (cuRAND: recomputed from the new position's Gray
 * code, so that it equals n calls of curand). */
inline void skipahead(unsigned int n, curandStateSobol32_t *state) { ::simtlab_emu::sobol::skip(state, n); }
inline void skipahead(unsigned int n, curandStateScrambledSobol32_t *state) { ::simtlab_emu::sobol::skip(state, n); }
inline void skipahead(unsigned long long n, curandStateSobol64_t *state) { ::simtlab_emu::sobol::skip(state, n); }
inline void skipahead(unsigned long long n, curandStateScrambledSobol64_t *state)
{
    ::simtlab_emu::sobol::skip(state, n);
}

#define SIMTLAB_EMU_SOBOL_FUNCTIONS(State, Word)                                                                \
    inline Word curand(State *state) { return ::simtlab_emu::sobol::next(state); }                              \
    inline float curand_uniform(State *state) { return ::simtlab_emu::sobol::to_uniform(curand(state)); }       \
    inline double curand_uniform_double(State *state)                                                           \
    {                                                                                                           \
        return ::simtlab_emu::sobol::to_uniform_double(curand(state));                                          \
    }                                                                                                           \
    inline float curand_normal(State *state) { return ::simtlab_emu::sobol::normal(curand(state)); }            \
    inline double curand_normal_double(State *state) { return ::simtlab_emu::sobol::normal_double(curand(state)); } \
    inline float curand_log_normal(State *state, float mean, float stddev)                                      \
    {                                                                                                           \
        return std::exp(mean + stddev * curand_normal(state));                                                  \
    }                                                                                                           \
    inline double curand_log_normal_double(State *state, double mean, double stddev)                            \
    {                                                                                                           \
        return std::exp(mean + stddev * curand_normal_double(state));                                           \
    }
SIMTLAB_EMU_SOBOL_FUNCTIONS(curandStateSobol32_t, unsigned int)
SIMTLAB_EMU_SOBOL_FUNCTIONS(curandStateScrambledSobol32_t, unsigned int)
SIMTLAB_EMU_SOBOL_FUNCTIONS(curandStateSobol64_t, unsigned long long)
SIMTLAB_EMU_SOBOL_FUNCTIONS(curandStateScrambledSobol64_t, unsigned long long)
#undef SIMTLAB_EMU_SOBOL_FUNCTIONS

#endif
