/* simtlab — chapter 04: parallel reduction (kernels/04_reduce*.cu,
 * host/04_reduce.c). */
#ifndef SIMTLAB_04_REDUCE_H
#define SIMTLAB_04_REDUCE_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value from n elements, with the whole lifecycle and the phase report
 * of sl_vector_add. Versions 1..9 (0 = best = 9): 1 interleaved, 2 strided
 * index, 3 sequential addressing, 4 first add during load, 5 last warp with
 * shuffles, 6 complete unroll, 7 grid-stride with 16-byte loads, 8 one
 * atomic per block, 9 single pass (last block done). Block sizes: a power of
 * two from 64 to 1024 (0 = 256).
 *
 * n == 0 gives the identity with SL_OK: a sum of 0, a max of -INFINITY;
 * sl_reduce_argmax_f32 fails with SL_ERR_INVALID_ARGUMENT (an empty array has no
 * argmax). NaN: sums propagate it as IEEE arithmetic does; max and argmax
 * treat NaN as larger than everything, like numpy's np.max and np.argmax,
 * so the max is NaN and the argmax is the lowest index holding a NaN. Ties
 * of argmax go to the lowest index. Accumulators: float (rounding error
 * grows with the depth of the summation tree), double, and long long for
 * int: the int sum is exact where a 32-bit accumulator would wrap.
 * v8's argmax packs the index into 32 bits: n > 2^32 gives SL_ERR_UNSUPPORTED.
 * The results (sum, max, index, value) are host memory in every function
 * of this chapter, the _device ones included: they are written by the host. */
sl_status sl_reduce_sum_f32(const float *x, size_t n, float *sum, const sl_opts *opts, sl_report *report);
sl_status sl_reduce_sum_f32_f64acc(const float *x, size_t n, double *sum, const sl_opts *opts,
                                   sl_report *report);
sl_status sl_reduce_sum_i32(const int *x, size_t n, long long *sum, const sl_opts *opts, sl_report *report);
sl_status sl_reduce_max_f32(const float *x, size_t n, float *max, const sl_opts *opts, sl_report *report);
sl_status sl_reduce_argmax_f32(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                        sl_report *report);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_reduce_version_count(void);
const char *sl_reduce_version_name(int version);

/* Device-resident variants for the benchmark: x is a device buffer, the
 * result comes back to the host; *kernel_ms is the time of the kernels
 * alone (every launch the version needs), without the scratch allocation. */
sl_status sl_reduce_sum_f32_device(const float *x, size_t n, float *sum, const sl_opts *opts, double *kernel_ms);
sl_status sl_reduce_sum_f32_f64acc_device(const float *x, size_t n, double *sum, const sl_opts *opts,
                                          double *kernel_ms);
sl_status sl_reduce_sum_i32_device(const int *x, size_t n, long long *sum, const sl_opts *opts,
                                   double *kernel_ms);
sl_status sl_reduce_max_f32_device(const float *x, size_t n, float *max, const sl_opts *opts, double *kernel_ms);
sl_status sl_reduce_argmax_f32_device(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                               double *kernel_ms);

/* References on device buffers: CUB's DeviceReduce::Sum, Max and ArgMax
 * (SL_ERR_UNSUPPORTED in emulator builds: CUB exists only in the CUDA
 * toolkit), and cuBLAS's cublasSasum, the sum of |x|, which equals the sum
 * only for non-negative data: a bandwidth reference, not a sum. */
sl_status sl_vendor_reduce_sum_f32_device(const float *x, size_t n, float *sum, double *kernel_ms);
sl_status sl_vendor_reduce_max_f32_device(const float *x, size_t n, float *max, double *kernel_ms);
sl_status sl_vendor_reduce_argmax_f32_device(const float *x, size_t n, size_t *index, float *value,
                                            double *kernel_ms);
sl_status sl_vendor_sasum_device(const float *x, size_t n, float *sum, double *kernel_ms);

/* What a GPU would do with one float sum of n elements by version
 * `version` (block `block`, 0 = 256), as the emulator models it from the
 * warps' real paths and addresses (simtlab/core.h, sl_modelled): summed
 * over every launch the version makes. The input is zeros (the paths of a
 * sum do not depend on the values). SL_ERR_UNSUPPORTED in the CUDA build. */
sl_status sl_reduce_modelled(int version, size_t n, int block, sl_modelled *out);

/* CPU references: a loop with a double accumulator (error ~ n * 2^-53
 * relative to sum |x|) and a pairwise (recursive halving) float sum (error
 * ~ log2(n) * 2^-24), each on one core and on all cores (OpenMP). They
 * return the sum itself, so they cannot return a status: a NULL x with
 * n > 0, or (the OpenMP loops) n > LLONG_MAX, gives NaN, which no check
 * passes, and a message in sl_last_error(). */
double sl_reduce_sum_cpu_f64(const float *x, size_t n);
double sl_reduce_sum_cpu_f64_omp(const float *x, size_t n);
float sl_reduce_sum_cpu_pairwise(const float *x, size_t n);
float sl_reduce_sum_cpu_pairwise_omp(const float *x, size_t n);

#ifdef __cplusplus
}
#endif

#endif
