/* simtlab CPU emulator — <curand.h>: cuRAND's host API for pseudo-random
 * numbers written to device memory.
 *
 *   curandCreateGenerator (pseudo-random types; the emulator's generator,
 *   simtlab_emu/philox.hpp, stands behind all of them), curandCreateGeneratorHost
 *   (output in host memory), curandDestroyGenerator,
 *   curandSetPseudoRandomGeneratorSeed, curandSetGeneratorOffset,
 *   curandSetGeneratorOrdering, curandSetStream, curandGenerate (32-bit words),
 *   curandGenerateUniform(Double) (0, 1], curandGenerateNormal(Double) and
 *   curandGenerateLogNormal(Double) (n must be even, as in cuRAND),
 *   curandGetVersion.
 *
 * The pseudo-random numbers are statistically sound and reproducible for a
 * seed, but are not NVIDIA's sequences. The quasi-random generators
 * (CURAND_RNG_QUASI_SOBOL32/64 and their scrambled forms, with
 * curandSetQuasiRandomGeneratorDimensions, curandGenerateLongLong for the
 * 64-bit ones, curandGetDirectionVectors32/64, curandGetScrambleConstants32/64)
 * are Sobol' sequences from Joe and Kuo's direction numbers
 * (simtlab_emu/sobol.hpp) for up to 3667 dimensions (cuRAND: 20000).
 * Work is done at the call, on the host; the stream is accepted and
 * ordered like every emulated stream operation (synchronously).
 */
#ifndef CURAND_H_
#define CURAND_H_
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake); said once,
 * by curand_kernel.h when that includes this file. */
#if defined(SIMTLAB_EMU_WITHOUT_CURAND) && !defined(CURAND_KERNEL_H_)
#error "simtlab emulator: this emulator was built without cuRAND: configure it with -DSIMTLAB_EMU_WITH_CURAND=ON"
#endif

#include <cuda_runtime.h>
#include <stddef.h>

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 3
#define CURAND_VER_PATCH 0
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

typedef enum curandStatus {
    CURAND_STATUS_SUCCESS = 0,
    CURAND_STATUS_VERSION_MISMATCH = 100,
    CURAND_STATUS_NOT_INITIALIZED = 101,
    CURAND_STATUS_ALLOCATION_FAILED = 102,
    CURAND_STATUS_TYPE_ERROR = 103,
    CURAND_STATUS_OUT_OF_RANGE = 104,
    CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
    CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
    CURAND_STATUS_LAUNCH_FAILURE = 201,
    CURAND_STATUS_PREEXISTING_FAILURE = 202,
    CURAND_STATUS_INITIALIZATION_FAILED = 203,
    CURAND_STATUS_ARCH_MISMATCH = 204,
    CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
    CURAND_RNG_TEST = 0,
    CURAND_RNG_PSEUDO_DEFAULT = 100,
    CURAND_RNG_PSEUDO_XORWOW = 101,
    CURAND_RNG_PSEUDO_MRG32K3A = 121,
    CURAND_RNG_PSEUDO_MTGP32 = 141,
    CURAND_RNG_PSEUDO_MT19937 = 142,
    CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    CURAND_RNG_QUASI_DEFAULT = 200,
    CURAND_RNG_QUASI_SOBOL32 = 201,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    CURAND_RNG_QUASI_SOBOL64 = 203,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

typedef enum curandOrdering {
    CURAND_ORDERING_PSEUDO_BEST = 100,
    CURAND_ORDERING_PSEUDO_DEFAULT = 101,
    CURAND_ORDERING_PSEUDO_SEEDED = 102,
    CURAND_ORDERING_PSEUDO_LEGACY = 103,
    CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
    CURAND_ORDERING_QUASI_DEFAULT = 201
} curandOrdering_t;

typedef enum curandDirectionVectorSet {
    CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
    CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
    CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
    CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
} curandDirectionVectorSet_t;

/* One dimension's direction numbers. */
typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

typedef curandStatus_t curandStatus;
typedef curandRngType_t curandRngType;
typedef curandOrdering_t curandOrdering;

typedef struct simtlab_emu_curand_generator *curandGenerator_t;

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandGetVersion(int *version);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order);
curandStatus_t curandGenerateSeeds(curandGenerator_t generator);
/* 1 to 3667 dimensions (cuRAND allows 20000: CURAND_STATUS_OUT_OF_RANGE
 * with a message past the emulator's table). A quasi-random generator's n
 * results are n / dimensions points of dimension 1, then as many of
 * dimension 2, ...; n must be a multiple of the dimensions, and the offset
 * counts points of each dimension. */
curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int num_dimensions);
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num);
/* 64-bit words: the 64-bit quasi-random generators only. */
curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr, size_t num);
/* Host tables of 20000 dimensions each, as cuRAND's; the emulator fills the
 * first 3667 and leaves the rest zero (curand_init reports such vectors). */
curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[], curandDirectionVectorSet_t set);
curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[], curandDirectionVectorSet_t set);
curandStatus_t curandGetScrambleConstants32(unsigned int **constants);
curandStatus_t curandGetScrambleConstants64(unsigned long long **constants);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num);
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                    float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                          double stddev);
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                       float stddev);
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n,
                                             double mean, double stddev);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
