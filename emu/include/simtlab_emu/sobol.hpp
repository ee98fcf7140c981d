/* simtlab CPU emulator — Sobol' quasi-random sequences behind the
 * emulator's cuRAND (curand_kernel.h's curandStateSobol32/64 and their
 * scrambled forms, curand.h's CURAND_RNG_QUASI_* generators).
 *
 * Point i of one dimension (Sobol', 1967; Antonov and Saleev's Gray-code
 * order, 1979) is the XOR of the direction numbers v_k for the bits k set
 * in gray(i) = i ^ (i >> 1), XORed with a scramble constant c (0 when not
 * scrambled). Consecutive points differ in one direction number, the one
 * of i's lowest zero bit, so a state steps with one XOR and skips ahead by
 * recomputing from gray(i). Point 0 is c (0 unscrambled), as in cuRAND.
 *
 * The direction numbers are built in the runtime (src/libs/curand/curand.cpp) from
 * S. Joe and F. Y. Kuo's primitive polynomials and initial direction
 * numbers ("Constructing Sobol sequences with better two-dimensional
 * projections", SIAM J. Sci. Comput. 30 (2008) 2635-2654, the set
 * new-joe-kuo-6.21201), of which the emulator has the first
 * max_dimensions; dimension 1 is van der Corput's (v_k = 2^-k).
 *
 * The conversions to uniform and normal numbers follow cuRAND's
 * documented ones: uniform floats in (0, 1) at the centre of each 2^-32
 * cell, normals by the inverse of the normal distribution function (not
 * Box-Muller, which would mix two dimensions).
 */
#ifndef SIMTLAB_EMU_SOBOL_HPP
#define SIMTLAB_EMU_SOBOL_HPP

#include <cmath>

namespace simtlab_emu {
namespace sobol {

/* Dimensions with Joe and Kuo's direction numbers here (cuRAND: 20000). */
constexpr unsigned max_dimensions = 3667;
/* Entries of the tables curandGetDirectionVectors32/64 return, as many as
 * cuRAND's; those past max_dimensions are zero, which curand_init refuses. */
constexpr unsigned table_dimensions = 20000;

/* Reports direction vectors that cannot be Sobol's (a zero vector: a
 * dimension past max_dimensions, or memory never filled): in a kernel the
 * launch fails, on the host a message is printed (src/libs/curand/curand.cpp). */
void report_bad_direction_vectors(const char *api, unsigned bits);

/* The index of i's lowest zero bit: the direction number that takes point
 * i to point i + 1 (the last one when every bit is set, as cuRAND). */
template <class W>
inline unsigned lowest_zero_bit(W i)
{
    const W low = static_cast<W>(~i);
    if (low == 0)
        return sizeof(W) * 8 - 1;
    unsigned k = 0;
    while (!((low >> k) & 1u))
        k++;
    return k;
}

/* Point i: c ^ the direction numbers of gray(i)'s bits. */
template <class W>
inline W point(const W *v, W c, W i)
{
    W x = c;
    const W g = i ^ (i >> 1);
    for (unsigned k = 0; k < sizeof(W) * 8; k++)
        if ((g >> k) & 1u)
            x ^= v[k];
    return x;
}

/* A state of cuRAND's layout: position i, current point x, constant c. */
template <class S, class W>
inline void init(S *s, const W *v, W c, W offset, const char *api)
{
    bool ok = true;
    for (unsigned k = 0; k < sizeof(W) * 8; k++) {
        s->direction_vectors[k] = v[k];
        ok = ok && v[k] != 0;
    }
    if (!ok)
        report_bad_direction_vectors(api, sizeof(W) * 8);
    s->c = c;
    s->i = offset;
    s->x = point(v, c, offset);
}

template <class S>
inline void skip(S *s, decltype(s->i) n)
{
    s->i += n;
    s->x = point(s->direction_vectors, s->c, s->i);
}

template <class S>
inline decltype(S::x) next(S *s)
{
    const auto x = s->x;
    s->x ^= s->direction_vectors[lowest_zero_bit(s->i)];
    s->i++;
    return x;
}

/* ---- conversions (cuRAND's for quasi-random words) ------------------- */

inline float to_uniform(unsigned int x) { return x * 0x1p-32f + 0x1p-33f; }
inline float to_uniform(unsigned long long x) { return static_cast<unsigned int>(x >> 32) * 0x1p-32f + 0x1p-33f; }
/* From 32 bits cuRAND adds a whole 2^-32: (0, 1]. */
inline double to_uniform_double(unsigned int x) { return x * 0x1p-32 + 0x1p-32; }
inline double to_uniform_double(unsigned long long x) { return static_cast<double>(x >> 11) * 0x1p-53 + 0x1p-54; }

/* The standard normal quantile z with Phi(z) = p, for 0 < p <= 1/2 (z <= 0):
 * Abramowitz and Stegun 26.2.23 (error below 4.5e-4) as the start, then
 * Halley steps on Phi(z) = erfc(-z / sqrt 2) / 2, which converge cubically
 * to double precision. */
inline double lower_quantile(double p)
{
    const double t = std::sqrt(-2.0 * std::log(p));
    double z = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                         (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
    for (int step = 0; step < 3; step++) {
        const double e = 0.5 * std::erfc(-z * 0.70710678118654752440) - p;
        const double u = e * 2.50662827463100050242 * std::exp(0.5 * z * z);
        z -= u / (1.0 + 0.5 * z * u);
    }
    return z;
}

/* Normal from a word: the upper half mirrored onto the lower one, so that
 * both tails keep their precision (as cuRAND does). */
inline double normal_double(unsigned int x)
{
    const bool upper = x > 0x80000000u;
    if (upper)
        x = 0xffffffffu - x;
    const double z = lower_quantile(x * 0x1p-32 + 0x1p-33);
    return upper ? -z : z;
}
inline double normal_double(unsigned long long x)
{
    x >>= 11;
    const bool upper = x > (1ull << 52);
    if (upper)
        x = (1ull << 53) - 1 - x;
    const double z = lower_quantile(static_cast<double>(x) * 0x1p-53 + 0x1p-54);
    return upper ? -z : z;
}
inline float normal(unsigned int x) { return static_cast<float>(normal_double(x)); }
inline float normal(unsigned long long x) { return static_cast<float>(normal_double(static_cast<unsigned int>(x >> 32))); }

} /* namespace sobol */
} /* namespace simtlab_emu */

#endif
