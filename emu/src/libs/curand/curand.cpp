/* simtlab CPU emulator — cuRAND's host API (<curand.h>): generators that
 * fill device (or, for curandCreateGeneratorHost, host) memory with
 * pseudo-random numbers, on the host, at the call.
 *
 * Every pseudo-random type is the emulator's Philox-4x32-10 stream
 * (simtlab_emu/philox.hpp) keyed by the seed: element i of the generator's
 * output since its creation is word (offset + i) of subsequence 0, so two
 * calls of n/2 give the numbers one call of n gives, and
 * curandSetGeneratorOffset skips. Uniform doubles use two words each;
 * normals are Box-Muller pairs, which is why cuRAND requires even counts.
 * Not NVIDIA's sequences (emu/README.md).
 *
 * The quasi-random types are Sobol' sequences (simtlab_emu/sobol.hpp): n
 * results are n / dims points of each dimension in turn, the offset counts
 * points per dimension, normals come from the inverse normal distribution
 * function. The direction numbers are built here, once, by Sobol's
 * recurrence from Joe and Kuo's primitive polynomials and initial direction
 * numbers (new-joe-kuo-6.21201, SIAM J. Sci. Comput. 30 (2008) 2635-2654),
 * read from the copy of their figures in Boost.Random
 * (boost/random/detail/sobol_table.hpp, 3667 dimensions), not typed here.
 * The scrambled sets are the emulator's own: each dimension's direction
 * numbers multiplied by a random unit lower-triangular binary matrix
 * (Matousek's linear scrambling) and a random digital shift (the scramble
 * constant), both from Philox with a fixed key, which keep the points a
 * (t, s)-sequence; they are not NVIDIA's scrambled numbers.
 */
#include "libs/common/library.hpp"
#include "runtime/internal.hpp"

#include <curand.h>
#include <simtlab_emu/engine.hpp>
#include <simtlab_emu/philox.hpp>
#include <simtlab_emu/sobol.hpp>

#include <boost/random/detail/sobol_table.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <new>

struct simtlab_emu_curand_generator {
    curandRngType_t type;
    bool host_output;
    unsigned long long seed;
    unsigned long long offset; /* 32-bit words used so far; quasi: points per dimension */
    cudaStream_t stream;
    unsigned dimensions; /* quasi-random generators */
};

namespace simtlab_emu {
namespace {

using libs::fail;

libs::handle_registry<curandGenerator_t> generators;

bool is_quasi(curandRngType_t t)
{
    return t == CURAND_RNG_QUASI_SOBOL32 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || t == CURAND_RNG_QUASI_SOBOL64 ||
           t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}
bool is_quasi64(curandRngType_t t) { return t == CURAND_RNG_QUASI_SOBOL64 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64; }
bool is_scrambled(curandRngType_t t)
{
    return t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 || t == CURAND_RNG_QUASI_SCRAMBLED_SOBOL64;
}

curandStatus_t check_generator(curandGenerator_t g, const char *api)
{
    if (!generators.is_live(g))
        return fail(CURAND_STATUS_NOT_INITIALIZED,
                    "%s: generator 0x%" PRIxPTR " is not a live cuRAND generator (call curandCreateGenerator first)",
                    api, reinterpret_cast<std::uintptr_t>(g));
    if (cudaError_t e = sticky_error())
        return fail(CURAND_STATUS_PREEXISTING_FAILURE, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    return CURAND_STATUS_SUCCESS;
}

/* The output must be `bytes` of device memory (host memory for a host
 * generator). */
curandStatus_t check_output(curandGenerator_t g, const void *out, std::size_t bytes, const char *api)
{
    if (!out)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "%s: outputPtr is NULL", api);
    char what[128];
    std::snprintf(what, sizeof what, "%s outputPtr", api);
    if (g->host_output) {
        if (runtime::locate(out).where != runtime::region::host)
            return fail(CURAND_STATUS_OUT_OF_RANGE,
                        "%s: outputPtr 0x%" PRIxPTR " is device memory, but the generator was made with "
                        "curandCreateGeneratorHost: pass host memory",
                        api, reinterpret_cast<std::uintptr_t>(out));
        if (runtime::check_host_box(out, bytes, 1, 1, bytes, bytes, true, what) != cudaSuccess)
            return CURAND_STATUS_OUT_OF_RANGE; /* the diagnostic is set */
        return CURAND_STATUS_SUCCESS;
    }
    if (runtime::check_device_range(out, bytes, what) != cudaSuccess)
        return CURAND_STATUS_OUT_OF_RANGE; /* the diagnostic is set */
    return CURAND_STATUS_SUCCESS;
}

/* Fills out[0, n) with fill(stream) after the checks; advances the offset
 * by the words used. */
template <class T, class Fill>
curandStatus_t generate(curandGenerator_t g, T *out, std::size_t n, const char *api, unsigned words_per_value,
                        Fill fill)
{
    curandStatus_t st;
    if ((st = check_generator(g, api)))
        return st;
    if (n == 0)
        return CURAND_STATUS_SUCCESS;
    if ((st = check_output(g, out, n * sizeof(T), api)))
        return st;
    rng::stream s;
    rng::init(s, g->seed, 0, g->offset);
    {
        runtime::device_access open(g->host_output ? nullptr : out);
        fill(s, out, n);
    }
    g->offset += static_cast<unsigned long long>(n) * words_per_value;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t create(curandGenerator_t *generator, curandRngType_t type, bool host, const char *api)
{
    if (!generator)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "%s: generator is NULL", api);
    switch (type) {
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW:
    case CURAND_RNG_PSEUDO_MRG32K3A:
    case CURAND_RNG_PSEUDO_MTGP32:
    case CURAND_RNG_PSEUDO_MT19937:
    case CURAND_RNG_PSEUDO_PHILOX4_32_10:
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
        break;
    default:
        return fail(CURAND_STATUS_TYPE_ERROR, "%s: rng_type %d is not a cuRAND generator type", api,
                    static_cast<int>(type));
    }
    if (cudaError_t e = sticky_error())
        return fail(CURAND_STATUS_INITIALIZATION_FAILED, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    if (type == CURAND_RNG_QUASI_DEFAULT)
        type = CURAND_RNG_QUASI_SOBOL32; /* as cuRAND */
    curandGenerator_t g = new (std::nothrow) simtlab_emu_curand_generator{type, host, 0ull, 0ull, nullptr, 1u};
    if (!g)
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "%s: out of host memory", api);
    if (!generators.add(g)) {
        delete g;
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "%s: out of host memory", api);
    }
    *generator = g;
    return CURAND_STATUS_SUCCESS;
}

/* ---- Sobol' direction numbers ------------------------------------------ */

using joe_kuo = boost::random::detail::qrng_tables::sobol;
static_assert(joe_kuo::max_dimension == sobol::max_dimensions,
              "sobol.hpp's max_dimensions is the number of dimensions of Boost's Joe-Kuo table");

/* Dimension d's direction numbers, v[k] = m_k << (bits - 1 - k) with m_k
 * odd and below 2^(k+1): van der Corput's for d = 0 (every m_k = 1), else
 * Joe and Kuo's initial m_k for the first s = deg p and Sobol's recurrence
 * m_k = m_{k-s} ^ (m_{k-s} << s) ^ sum_j a_j (m_{k-j} << j) for the rest,
 * where p(x) = x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1 is dimension d's
 * primitive polynomial. */
template <class W>
void direction_numbers(unsigned d, W *v)
{
    constexpr unsigned bits = sizeof(W) * 8;
    W m[bits];
    if (d == 0) {
        for (unsigned k = 0; k < bits; k++)
            m[k] = 1;
    } else {
        const unsigned p = joe_kuo::polynomial(d - 1);
        unsigned s = 0;
        while ((p >> (s + 1)) != 0)
            s++;
        for (unsigned k = 0; k < s && k < bits; k++)
            m[k] = joe_kuo::minit(d - 1, k);
        for (unsigned k = s; k < bits; k++) {
            W x = m[k - s] ^ (m[k - s] << s);
            for (unsigned j = 1; j < s; j++)
                if ((p >> (s - j)) & 1u)
                    x ^= m[k - j] << j;
            m[k] = x;
        }
    }
    for (unsigned k = 0; k < bits; k++)
        v[k] = m[k] << (bits - 1 - k);
}

/* Random words for the scrambled sets: Philox with a fixed key. */
template <class W>
W scramble_word(unsigned d, unsigned row, unsigned what)
{
    const rng::words4 r = rng::philox4x32_10(d, row, what, 0x50B01u, 0x5C4A3B1Eu, 0x0D15C0DEu);
    return sizeof(W) == 4 ? static_cast<W>(r.w[0]) : static_cast<W>((static_cast<unsigned long long>(r.w[1]) << 32) | r.w[0]);
}

/* Matousek's linear scrambling of one dimension: output digit j (from the
 * most significant) is digit j of v plus a random combination of the
 * digits before it, so the matrix is unit lower-triangular (invertible)
 * and the net property is kept. */
template <class W>
void scramble(unsigned d, W *v)
{
    constexpr unsigned bits = sizeof(W) * 8;
    W rows[bits];
    for (unsigned j = 0; j < bits; j++) {
        const W self = W(1) << (bits - 1 - j);
        const W above = j == 0 ? W(0) : static_cast<W>(~W(0) << (bits - j)); /* digits 0 .. j-1 */
        rows[j] = self | (scramble_word<W>(d, j, 1) & above);
    }
    for (unsigned k = 0; k < bits; k++) {
        W out = 0;
        for (unsigned j = 0; j < bits; j++)
            if (__builtin_parityll(static_cast<unsigned long long>(rows[j] & v[k])))
                out |= W(1) << (bits - 1 - j);
        v[k] = out;
    }
}

/* One set of tables (32- or 64-bit, plain or scrambled), built at first use:
 * table_dimensions entries as cuRAND's, the first max_dimensions filled. */
template <class W>
struct sobol_tables {
    static constexpr unsigned bits = sizeof(W) * 8;
    std::once_flag once;
    W (*vectors)[bits] = nullptr;
    W *constants = nullptr; /* scramble constants; 0 for the plain set */

    bool get(bool scrambled)
    {
        std::call_once(once, [&] {
            auto *v = new (std::nothrow) W[sobol::table_dimensions][bits]();
            auto *c = new (std::nothrow) W[sobol::table_dimensions]();
            if (!v || !c) {
                delete[] v;
                delete[] c;
                return;
            }
            for (unsigned d = 0; d < sobol::max_dimensions; d++) {
                direction_numbers(d, v[d]);
                if (scrambled) {
                    scramble(d, v[d]);
                    c[d] = scramble_word<W>(d, 0, 2);
                }
            }
            vectors = v;
            constants = c;
        });
        return vectors != nullptr;
    }
};
sobol_tables<unsigned int> plain32, scrambled32;
sobol_tables<unsigned long long> plain64, scrambled64;

template <class W>
sobol_tables<W> &tables_for(bool scrambled);
template <>
sobol_tables<unsigned int> &tables_for<unsigned int>(bool scrambled)
{
    return scrambled ? scrambled32 : plain32;
}
template <>
sobol_tables<unsigned long long> &tables_for<unsigned long long>(bool scrambled)
{
    return scrambled ? scrambled64 : plain64;
}

/* Quasi-random output: n / dims points of each dimension in turn, from
 * point `offset`, each word converted by conv. */
template <class W, class T, class Conv>
curandStatus_t quasi_generate(curandGenerator_t g, T *out, std::size_t n, const char *api, Conv conv)
{
    curandStatus_t st;
    if ((st = check_generator(g, api)))
        return st;
    if (n % g->dimensions != 0)
        return fail(CURAND_STATUS_LENGTH_NOT_MULTIPLE,
                    "%s: n = %zu is not a multiple of the generator's %u dimensions (a quasi-random generator "
                    "returns whole points)",
                    api, n, g->dimensions);
    if (n == 0)
        return CURAND_STATUS_SUCCESS;
    if ((st = check_output(g, out, n * sizeof(T), api)))
        return st;
    sobol_tables<W> &t = tables_for<W>(is_scrambled(g->type));
    if (!t.get(is_scrambled(g->type)))
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "%s: out of host memory for the direction numbers", api);
    const std::size_t per = n / g->dimensions;
    {
        runtime::device_access open(g->host_output ? nullptr : out);
        for (unsigned d = 0; d < g->dimensions; d++) {
            const W *v = t.vectors[d];
            W i = static_cast<W>(g->offset);
            W x = sobol::point(v, t.constants[d], i);
            T *o = out + d * per;
            for (std::size_t j = 0; j < per; j++, i++) {
                o[j] = conv(x);
                x ^= v[sobol::lowest_zero_bit(i)];
            }
        }
    }
    g->offset += per;
    return CURAND_STATUS_SUCCESS;
}

/* The word type of a quasi-random generator's call: 32-bit calls on the
 * 64-bit types (and the reverse) are type errors, as in cuRAND. */
template <class T, class Conv32, class Conv64>
curandStatus_t quasi_any(curandGenerator_t g, T *out, std::size_t n, const char *api, Conv32 c32, Conv64 c64)
{
    if (is_quasi64(g->type))
        return quasi_generate<unsigned long long>(g, out, n, api, c64);
    return quasi_generate<unsigned int>(g, out, n, api, c32);
}

/* A live generator of a quasi-random type. */
bool quasi(curandGenerator_t g)
{
    return generators.is_live_and(g, [](curandGenerator_t q) { return is_quasi(q->type); });
}

} /* namespace */

/* sobol.hpp: in a kernel the launch fails, as a GPU's would if the
 * program read direction vectors that are not there; on the host the
 * message is printed and kept as the diagnostic. */
void sobol::report_bad_direction_vectors(const char *api, unsigned bits)
{
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s: the direction vectors hold a zero, so they are not %u-bit Sobol' direction numbers: the "
                  "emulator's tables (curandGetDirectionVectors%u) fill the first %u dimensions of cuRAND's %u, "
                  "or the vectors were never filled",
                  api, bits, bits, sobol::max_dimensions, sobol::table_dimensions);
    if (detail::current_worker->in_block)
        fail_launch(cudaErrorLaunchFailure, text);
    std::fprintf(stderr, "simtlab-emu: %s\n", text);
    set_diagnostic(text);
}

} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, false, "curandCreateGenerator");
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, true, "curandCreateGeneratorHost");
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator)
{
    if (!generators.remove(generator))
        return fail(CURAND_STATUS_NOT_INITIALIZED,
                    "curandDestroyGenerator: generator 0x%" PRIxPTR " is not a live cuRAND generator",
                    reinterpret_cast<std::uintptr_t>(generator));
    delete generator;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int *version)
{
    if (!version)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "curandGetVersion: version is NULL");
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandSetStream")))
        return st;
    if (runtime::check_stream(stream, "curandSetStream stream") != cudaSuccess)
        return CURAND_STATUS_OUT_OF_RANGE;
    generator->stream = stream;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandSetPseudoRandomGeneratorSeed")))
        return st;
    if (is_quasi(generator->type))
        return fail(CURAND_STATUS_TYPE_ERROR,
                    "curandSetPseudoRandomGeneratorSeed: the generator is quasi-random (Sobol'), which has no seed");
    generator->seed = seed;
    generator->offset = 0; /* cuRAND restarts the sequence for a new seed */
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandSetGeneratorOffset")))
        return st;
    generator->offset = offset;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandSetGeneratorOrdering")))
        return st;
    if (is_quasi(generator->type)) {
        if (order != CURAND_ORDERING_QUASI_DEFAULT)
            return fail(CURAND_STATUS_OUT_OF_RANGE,
                        "curandSetGeneratorOrdering: order %d is not CURAND_ORDERING_QUASI_DEFAULT, the one ordering of "
                        "a quasi-random generator",
                        static_cast<int>(order));
        return CURAND_STATUS_SUCCESS;
    }
    if (order < CURAND_ORDERING_PSEUDO_BEST || order > CURAND_ORDERING_PSEUDO_DYNAMIC)
        return fail(CURAND_STATUS_OUT_OF_RANGE,
                    "curandSetGeneratorOrdering: order %d is not a pseudo-random ordering (the emulator has one "
                    "order for all)",
                    static_cast<int>(order));
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator)
{
    return check_generator(generator, "curandGenerateSeeds");
}

curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int num_dimensions)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandSetQuasiRandomGeneratorDimensions")))
        return st;
    if (!is_quasi(generator->type))
        return fail(CURAND_STATUS_TYPE_ERROR,
                    "curandSetQuasiRandomGeneratorDimensions(%u): the generator is pseudo-random (rng_type %d); "
                    "dimensions are for the quasi-random types",
                    num_dimensions, static_cast<int>(generator->type));
    if (num_dimensions == 0 || num_dimensions > sobol::table_dimensions)
        return fail(CURAND_STATUS_OUT_OF_RANGE,
                    "curandSetQuasiRandomGeneratorDimensions: num_dimensions %u is not in 1..%u", num_dimensions,
                    sobol::table_dimensions);
    if (num_dimensions > sobol::max_dimensions)
        return fail(CURAND_STATUS_OUT_OF_RANGE,
                    "curandSetQuasiRandomGeneratorDimensions: num_dimensions %u: the emulator has Joe and Kuo's "
                    "direction numbers for the first %u dimensions only (cuRAND: %u)",
                    num_dimensions, sobol::max_dimensions, sobol::table_dimensions);
    generator->dimensions = num_dimensions; /* the offset stays, as in cuRAND */
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    if (quasi(generator)) {
        if (is_quasi64(generator->type))
            return fail(CURAND_STATUS_TYPE_ERROR,
                        "curandGenerate: the generator is a 64-bit Sobol' one: use curandGenerateLongLong");
        return quasi_generate<unsigned int>(generator, outputPtr, num, "curandGenerate",
                                            [](unsigned int x) { return x; });
    }
    return generate(generator, outputPtr, num, "curandGenerate", 1, [](rng::stream &s, unsigned *out, std::size_t n) {
        for (std::size_t i = 0; i < n; i++)
            out[i] = rng::next(s);
    });
}

curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr, size_t num)
{
    curandStatus_t st;
    if ((st = check_generator(generator, "curandGenerateLongLong")))
        return st;
    if (!is_quasi64(generator->type))
        return fail(CURAND_STATUS_TYPE_ERROR,
                    "curandGenerateLongLong: rng_type %d does not make 64-bit words (only CURAND_RNG_QUASI_SOBOL64 "
                    "and its scrambled form do): use curandGenerate",
                    static_cast<int>(generator->type));
    return quasi_generate<unsigned long long>(generator, outputPtr, num, "curandGenerateLongLong",
                                              [](unsigned long long x) { return x; });
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    if (quasi(generator))
        return quasi_any(
            generator, outputPtr, num, "curandGenerateUniform", [](unsigned int x) { return sobol::to_uniform(x); },
            [](unsigned long long x) { return sobol::to_uniform(x); });
    return generate(generator, outputPtr, num, "curandGenerateUniform", 1,
                    [](rng::stream &s, float *out, std::size_t n) {
                        for (std::size_t i = 0; i < n; i++)
                            out[i] = rng::to_uniform(rng::next(s));
                    });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num)
{
    if (quasi(generator))
        return quasi_any(
            generator, outputPtr, num, "curandGenerateUniformDouble",
            [](unsigned int x) { return sobol::to_uniform_double(x); },
            [](unsigned long long x) { return sobol::to_uniform_double(x); });
    return generate(generator, outputPtr, num, "curandGenerateUniformDouble", 2,
                    [](rng::stream &s, double *out, std::size_t n) {
                        for (std::size_t i = 0; i < n; i++) {
                            const std::uint32_t a = rng::next(s), b = rng::next(s);
                            out[i] = rng::to_uniform_double(a, b);
                        }
                    });
}

} /* extern "C" */

namespace {

template <class T>
curandStatus_t normal(curandGenerator_t g, T *out, std::size_t n, T mean, T stddev, bool log_normal, const char *api)
{
    if (quasi(g)) {
        if (!(stddev >= T(0)))
            return fail(CURAND_STATUS_OUT_OF_RANGE, "%s: stddev %g must not be negative", api,
                        static_cast<double>(stddev));
        /* One word per result, through the inverse distribution function, in
         * double; float results are rounded once (cuRAND: a float icdf). */
        auto conv = [=](auto x) {
            const double z = static_cast<double>(mean) + static_cast<double>(stddev) * sobol::normal_double(x);
            return static_cast<T>(log_normal ? std::exp(z) : z);
        };
        return quasi_any(g, out, n, api, conv, conv);
    }
    if (n % 2 != 0) {
        curandStatus_t st = check_generator(g, api);
        return st ? st
                  : fail(CURAND_STATUS_LENGTH_NOT_MULTIPLE,
                         "%s: n = %zu is odd; cuRAND makes normals in pairs and requires an even count", api, n);
    }
    if (!(stddev >= T(0)))
        return fail(CURAND_STATUS_OUT_OF_RANGE, "%s: stddev %g must not be negative", api, static_cast<double>(stddev));
    constexpr unsigned words = sizeof(T) == 4 ? 1 : 2;
    return generate(g, out, n, api, words, [=](rng::stream &s, T *o, std::size_t count) {
        for (std::size_t i = 0; i < count; i += 2) {
            T u1, u2;
            if constexpr (sizeof(T) == 4) {
                u1 = rng::to_uniform(rng::next(s));
                u2 = rng::to_uniform(rng::next(s));
            } else {
                const std::uint32_t a = rng::next(s), b = rng::next(s), c = rng::next(s), d = rng::next(s);
                u1 = rng::to_uniform_double(a, b);
                u2 = rng::to_uniform_double(c, d);
            }
            T z0, z1;
            rng::box_muller(u1, u2, z0, z1);
            z0 = mean + stddev * z0;
            z1 = mean + stddev * z1;
            o[i] = log_normal ? std::exp(z0) : z0;
            o[i + 1] = log_normal ? std::exp(z1) : z1;
        }
    });
}

} /* namespace */

extern "C" {

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean, float stddev)
{
    return normal(generator, outputPtr, n, mean, stddev, false, "curandGenerateNormal");
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                          double stddev)
{
    return normal(generator, outputPtr, n, mean, stddev, false, "curandGenerateNormalDouble");
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                       float stddev)
{
    return normal(generator, outputPtr, n, mean, stddev, true, "curandGenerateLogNormal");
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                             double stddev)
{
    return normal(generator, outputPtr, n, mean, stddev, true, "curandGenerateLogNormalDouble");
}

curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[], curandDirectionVectorSet_t set)
{
    if (!vectors)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "curandGetDirectionVectors32: vectors is NULL");
    if (set != CURAND_DIRECTION_VECTORS_32_JOEKUO6 && set != CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6)
        return fail(CURAND_STATUS_OUT_OF_RANGE,
                    "curandGetDirectionVectors32: set %d is not a 32-bit set (CURAND_DIRECTION_VECTORS_32_JOEKUO6 or "
                    "CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6)",
                    static_cast<int>(set));
    const bool scrambled = set == CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6;
    sobol_tables<unsigned int> &t = tables_for<unsigned int>(scrambled);
    if (!t.get(scrambled))
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "curandGetDirectionVectors32: out of host memory");
    *vectors = t.vectors;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[], curandDirectionVectorSet_t set)
{
    if (!vectors)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "curandGetDirectionVectors64: vectors is NULL");
    if (set != CURAND_DIRECTION_VECTORS_64_JOEKUO6 && set != CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6)
        return fail(CURAND_STATUS_OUT_OF_RANGE,
                    "curandGetDirectionVectors64: set %d is not a 64-bit set (CURAND_DIRECTION_VECTORS_64_JOEKUO6 or "
                    "CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6)",
                    static_cast<int>(set));
    const bool scrambled = set == CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6;
    sobol_tables<unsigned long long> &t = tables_for<unsigned long long>(scrambled);
    if (!t.get(scrambled))
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "curandGetDirectionVectors64: out of host memory");
    *vectors = t.vectors;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetScrambleConstants32(unsigned int **constants)
{
    if (!constants)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "curandGetScrambleConstants32: constants is NULL");
    if (!scrambled32.get(true))
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "curandGetScrambleConstants32: out of host memory");
    *constants = scrambled32.constants;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetScrambleConstants64(unsigned long long **constants)
{
    if (!constants)
        return fail(CURAND_STATUS_OUT_OF_RANGE, "curandGetScrambleConstants64: constants is NULL");
    if (!scrambled64.get(true))
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "curandGetScrambleConstants64: out of host memory");
    *constants = scrambled64.constants;
    return CURAND_STATUS_SUCCESS;
}

} /* extern "C" */
