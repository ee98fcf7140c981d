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
 */
#include "internal.hpp"
#include "runtime_internal.hpp"

#include <curand.h>
#include <simtlab_emu/philox.hpp>

#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <new>
#include <unordered_set>

struct simtlab_emu_curand_generator {
    curandRngType_t type;
    bool host_output;
    unsigned long long seed;
    unsigned long long offset; /* 32-bit words used so far */
    cudaStream_t stream;
};

namespace simtlab_emu {
namespace {

std::mutex generators_lock;
std::unordered_set<curandGenerator_t> generators;

curandStatus_t fail(curandStatus_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
curandStatus_t fail(curandStatus_t status, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_diagnostic(text);
    return status;
}

curandStatus_t check_generator(curandGenerator_t g, const char *api)
{
    {
        std::lock_guard<std::mutex> hold(generators_lock);
        if (!g || !generators.count(g))
            return fail(CURAND_STATUS_NOT_INITIALIZED,
                        "%s: generator 0x%" PRIxPTR " is not a live cuRAND generator (call curandCreateGenerator first)",
                        api, reinterpret_cast<std::uintptr_t>(g));
    }
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
        break;
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
        return fail(CURAND_STATUS_TYPE_ERROR,
                    "%s: quasi-random generators (rng_type %d, Sobol) are not emulated; the pseudo-random types are",
                    api, static_cast<int>(type));
    default:
        return fail(CURAND_STATUS_TYPE_ERROR, "%s: rng_type %d is not a cuRAND generator type", api,
                    static_cast<int>(type));
    }
    if (cudaError_t e = sticky_error())
        return fail(CURAND_STATUS_INITIALIZATION_FAILED, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    curandGenerator_t g = new (std::nothrow) simtlab_emu_curand_generator{type, host, 0ull, 0ull, nullptr};
    if (!g)
        return fail(CURAND_STATUS_ALLOCATION_FAILED, "%s: out of host memory", api);
    std::lock_guard<std::mutex> hold(generators_lock);
    generators.insert(g);
    *generator = g;
    return CURAND_STATUS_SUCCESS;
}

} /* namespace */
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
    std::lock_guard<std::mutex> hold(generators_lock);
    if (!generator || !generators.erase(generator))
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
    return fail(CURAND_STATUS_TYPE_ERROR,
                "curandSetQuasiRandomGeneratorDimensions(%u): the generator is pseudo-random; quasi-random (Sobol) "
                "generators are not emulated",
                num_dimensions);
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    return generate(generator, outputPtr, num, "curandGenerate", 1, [](rng::stream &s, unsigned *out, std::size_t n) {
        for (std::size_t i = 0; i < n; i++)
            out[i] = rng::next(s);
    });
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    return generate(generator, outputPtr, num, "curandGenerateUniform", 1,
                    [](rng::stream &s, float *out, std::size_t n) {
                        for (std::size_t i = 0; i < n; i++)
                            out[i] = rng::to_uniform(rng::next(s));
                    });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num)
{
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

} /* extern "C" */
