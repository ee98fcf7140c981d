/* simtlab — chapter 01: vector add and the whole lifecycle of a kernel
 * (kernels/01_vector_add.cu, host/01_vector_add.c). */
#ifndef SIMTLAB_01_VECTOR_ADD_H
#define SIMTLAB_01_VECTOR_ADD_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* c[i] = a[i] + b[i] for i < n, on the device, with the whole lifecycle.
 * n == 0 is a no-op that succeeds. Versions: 1 one thread per element,
 * 2 grid-stride loop, 3 16-byte vector loads (0 = best = 3). `report` may be NULL.
 * Host arrays; c may be a or b (in place: both are copied in first). */
sl_status sl_vector_add(const float *a, const float *b, float *c, size_t n, const sl_opts *opts,
                        sl_report *report);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_vector_add_version_count(void);
const char *sl_vector_add_version_name(int version);
/* CPU baselines: a plain loop and the same loop across all cores (OpenMP).
 * SL_ERR_INVALID_ARGUMENT naming a NULL array (n > 0), a device buffer, or
 * a c that overlaps a or b (not in place, like the kernels); the OpenMP loop
 * counts in long long: SL_ERR_OVERFLOW for n > LLONG_MAX. */
sl_status sl_vector_add_cpu(const float *a, const float *b, float *c, size_t n);
sl_status sl_vector_add_cpu_omp(const float *a, const float *b, float *c, size_t n);


/* One launch of vector add version opts->version on device buffers;
 * *kernel_ms is its time alone. Not in place: c apart from a and b. */
sl_status sl_vector_add_device(const float *a, const float *b, float *c, size_t n,
                               const sl_opts *opts, double *kernel_ms);
/* y = alpha * x + y with cuBLAS (cublasSaxpy) on device buffers: the vendor
 * column of the benchmark. x and y apart. A cuBLAS refusal's message
 * quotes the emulator's reason where there is one (a range past which
 * allocation). */
sl_status sl_vendor_saxpy_device(float alpha, const float *x, float *y, size_t n, double *kernel_ms);

#ifdef __cplusplus
}
#endif

#endif
