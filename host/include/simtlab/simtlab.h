/* simtlab — the host library students call.
 *
 * Every entry point owns the whole lifecycle of its kernel (allocate, copy in,
 * launch, check, copy back, free), returns an sl_status and never exits or
 * aborts. When a call fails, sl_last_error() gives one line that says what
 * failed, where, why, and what to do about it.
 *
 * The same functions exist in two builds: libsimtlab_cuda (real GPUs) and
 * libsimtlab_emu (the CPU emulator). sl_backend_name() says which one a
 * program was linked with.
 */
#ifndef SIMTLAB_SIMTLAB_H
#define SIMTLAB_SIMTLAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status and errors ------------------------------------------------- */
typedef enum sl_status {
    SL_OK = 0,
    SL_ERR_INVALID_ARGUMENT, /* a NULL pointer, a bad block size, ...: the message names it */
    SL_ERR_OVERFLOW,         /* a byte count that does not fit in size_t */
    SL_ERR_NO_DEVICE,        /* no CUDA driver or no device: use the emulator build */
    SL_ERR_CUDA,             /* a CUDA runtime call or a launch failed */
    SL_ERR_CUBLAS,           /* a cuBLAS call failed */
    SL_ERR_HOST_MEMORY,      /* malloc failed on the host */
    SL_ERR_UNSUPPORTED       /* not available in this build (e.g. cuBLAS columns without a GPU) */
} sl_status;

const char *sl_status_name(sl_status status);
/* One line describing the last failure on this thread ("" when none). */
const char *sl_last_error(void);
void sl_clear_error(void);

/* "cuda" or "emulator". */
const char *sl_backend_name(void);
/* 1 when linked against the CPU emulator: times are then emulated (CPU) times. */
int sl_backend_is_emulator(void);

/* For a CUDA error code (a cudaError_t as int): what usually causes it and
 * what fixes it, in one or two sentences; NULL for codes without advice. */
const char *sl_cuda_error_hint(int cuda_error);

/* ---- options and reports ----------------------------------------------- */
typedef struct sl_opts {
    int version; /* kernel version, 1..N; 0 picks the chapter's best */
    int block;   /* threads per block; 0 picks the chapter's default */
} sl_opts;

typedef enum sl_phase {
    SL_PHASE_ALLOC = 0, /* cudaMalloc of every device buffer */
    SL_PHASE_H2D,       /* copies host -> device */
    SL_PHASE_KERNEL,    /* the launch, timed with CUDA events */
    SL_PHASE_D2H,       /* copies device -> host */
    SL_PHASE_FREE,      /* cudaFree */
    SL_PHASE_COUNT
} sl_phase;

typedef struct sl_report {
    double phase_ms[SL_PHASE_COUNT];
    double total_ms;   /* wall time of the whole call */
    size_t bytes_h2d;  /* bytes copied host -> device */
    size_t bytes_d2h;  /* bytes copied device -> host */
    int version;       /* the kernel version that ran */
    int block;         /* threads per block */
    unsigned grid;     /* blocks launched */
    int emulated;      /* 1: times are CPU-emulator times, not GPU times */
} sl_report;

const char *sl_phase_name(sl_phase phase);
/* Prints the report as a small table, one phase per line. */
void sl_report_print(const sl_report *report, FILE *out);

/* ---- devices ----------------------------------------------------------- */
typedef struct sl_device_info {
    char name[256];
    int major, minor;          /* compute capability */
    int sm_count;
    size_t global_mem_bytes;
    int l2_bytes;
    int max_threads_per_block;
    size_t shared_per_block;
    double peak_bandwidth_gbs; /* 2 * memory clock * bus width / 8; 0 when unknown */
} sl_device_info;

/* Fills `info` for device `device`. Without a driver returns SL_ERR_NO_DEVICE. */
sl_status sl_device_query(int device, sl_device_info *info);

/* Driver and runtime versions, encoded as CUDA does (13000 = 13.0). A
 * driver version of 0 means no driver is installed. */
sl_status sl_cuda_versions(int *driver, int *runtime);
/* Which image of this binary device `device` runs: *binary_version is the
 * machine code's compute capability (x10), *ptx_version the PTX's it came
 * from. A binary_version not among sl_built_architectures() means the driver
 * JIT-compiled PTX at start-up. */
sl_status sl_device_kernel_image(int device, int *binary_version, int *ptx_version);
/* The architectures this library was compiled for ("800,900"), or a note
 * that it is the emulator build. */
const char *sl_built_architectures(void);

/* ---- tracked allocations ----------------------------------------------- */
/* Every device and pinned-host buffer the library makes goes through these,
 * so that a leak is reported with the file and line that made it. */
sl_status sl_device_alloc_at(void **ptr, size_t bytes, const char *file, int line);
sl_status sl_device_free(void *ptr);
sl_status sl_pinned_alloc_at(void **ptr, size_t bytes, const char *file, int line);
sl_status sl_pinned_free(void *ptr);
#define sl_device_alloc(ptr, bytes) sl_device_alloc_at((void **)(ptr), (bytes), __FILE__, __LINE__)
#define sl_pinned_alloc(ptr, bytes) sl_pinned_alloc_at((void **)(ptr), (bytes), __FILE__, __LINE__)
/* Number of tracked allocations still live. */
size_t sl_alloc_live_count(void);
/* Prints one line per live allocation ("device 4096 bytes from host/x.c:42")
 * and returns how many there were. */
size_t sl_alloc_report_leaks(FILE *out);

/* ---- timing ------------------------------------------------------------- */
/* Monotonic host clock in milliseconds. */
double sl_host_ms(void);

typedef struct sl_stats {
    double median_ms, min_ms, max_ms;
    int runs;
} sl_stats;

/* One timed run: returns its time in *ms. */
typedef sl_status (*sl_timed_fn)(void *ctx, double *ms);
/* Runs fn `warmup` times untimed, then `runs` times (1..1000), and fills
 * *stats with the median, min and max. Stops at the first failure. */
sl_status sl_time_repeat(sl_timed_fn fn, void *ctx, int warmup, int runs, sl_stats *stats);

/* ---- validation ---------------------------------------------------------- */
typedef struct sl_check {
    double rel_l2;     /* ||got - ref||_2 / ||ref||_2 (absolute when ||ref|| = 0) */
    double max_abs;    /* max |got - ref| */
    size_t worst;      /* index of the largest |got - ref| */
    size_t nonfinite;  /* outputs that are NaN or Inf where the reference is finite */
    int passed;        /* rel_l2 <= tolerance and nonfinite == 0 */
} sl_check;

/* Compares float results against a double-precision reference. NaN or Inf in
 * `got` never passes (unless the reference has the same non-finite value). */
sl_check sl_compare_f32(const float *got, const double *ref, size_t n, double rel_tol);
/* Fills with a quiet-NaN pattern so an output the kernel forgot to write
 * cannot pass. */
void sl_poison_f32(float *p, size_t n);
/* Uniform floats in [lo, hi) from a splitmix64/xorshift stream: the same seed
 * gives the same numbers on every machine. */
void sl_fill_uniform_f32(float *p, size_t n, uint64_t seed, float lo, float hi);
/* SIMTLAB_SEED from the environment if set, else a seed from the clock. */
uint64_t sl_seed_from_env(void);

/* ---- chapter 01: vector add --------------------------------------------- */
/* c[i] = a[i] + b[i] for i < n, on the device, with the whole lifecycle.
 * n == 0 is a no-op that succeeds. Versions: 1 one thread per element,
 * 2 grid-stride loop, 3 16-byte vector loads (0 = best = 3). `report` may be NULL. */
sl_status sl_vector_add(const float *a, const float *b, float *c, size_t n, const sl_opts *opts,
                        sl_report *report);
int sl_vector_add_version_count(void);
const char *sl_vector_add_version_name(int version);
/* CPU baselines: a plain loop and the same loop across all cores (OpenMP). */
void sl_vector_add_cpu(const float *a, const float *b, float *c, size_t n);
void sl_vector_add_cpu_omp(const float *a, const float *b, float *c, size_t n);

/* ---- device-resident building blocks, for benchmarks ---------------------
 * The benchmarks time kernels apart from copies; these take device buffers
 * (from sl_device_alloc) and return the time of the device work alone. */
sl_status sl_copy_to_device(void *dst_device, const void *src_host, size_t bytes);
sl_status sl_copy_to_host(void *dst_host, const void *src_device, size_t bytes);
/* Fills a device buffer with a byte value (cudaMemset). */
sl_status sl_device_fill_bytes(void *dst_device, int value, size_t bytes);
/* Device-to-device copy of `bytes`, timed with events: the bandwidth ceiling
 * that memory-bound kernels are measured against. */
sl_status sl_device_copy_timed(void *dst_device, const void *src_device, size_t bytes, double *ms);
/* One launch of vector add version opts->version on device buffers. */
sl_status sl_vector_add_device(const float *a, const float *b, float *c, size_t n,
                               const sl_opts *opts, double *kernel_ms);
/* y = alpha * x + y with cuBLAS (cublasSaxpy) on device buffers. */
sl_status sl_vendor_saxpy_device(float alpha, const float *x, float *y, size_t n, double *ms);

/* ==== chapter 04: parallel reduction ======================================
 * One value from n elements, with the whole lifecycle and the phase report
 * of sl_vector_add. Versions 1..9 (0 = best = 9): 1 interleaved, 2 strided
 * index, 3 sequential addressing, 4 first add during load, 5 last warp with
 * shuffles, 6 complete unroll, 7 grid-stride with 16-byte loads, 8 one
 * atomic per block, 9 single pass (last block done). Block sizes: a power of
 * two from 64 to 1024 (0 = 256).
 *
 * n == 0 gives the identity with SL_OK: a sum of 0, a max of -INFINITY;
 * sl_argmax_f32 fails with SL_ERR_INVALID_ARGUMENT (an empty array has no
 * argmax). NaN: sums propagate it as IEEE arithmetic does; max and argmax
 * treat NaN as larger than everything, like numpy's np.max and np.argmax,
 * so the max is NaN and the argmax is the lowest index holding a NaN. Ties
 * of argmax go to the lowest index. Accumulators: float (rounding error
 * grows with the depth of the summation tree), double, and long long for
 * int: the int sum is exact where a 32-bit accumulator would wrap.
 * v8's argmax packs the index into 32 bits: n > 2^32 gives SL_ERR_UNSUPPORTED. */
sl_status sl_reduce_sum_f32(const float *x, size_t n, float *sum, const sl_opts *opts, sl_report *report);
sl_status sl_reduce_sum_f32_f64acc(const float *x, size_t n, double *sum, const sl_opts *opts,
                                   sl_report *report);
sl_status sl_reduce_sum_i32(const int *x, size_t n, long long *sum, const sl_opts *opts, sl_report *report);
sl_status sl_reduce_max_f32(const float *x, size_t n, float *max, const sl_opts *opts, sl_report *report);
sl_status sl_argmax_f32(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                        sl_report *report);
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
sl_status sl_argmax_f32_device(const float *x, size_t n, size_t *index, float *value, const sl_opts *opts,
                               double *kernel_ms);

/* References on device buffers: CUB's DeviceReduce::Sum, Max and ArgMax
 * (SL_ERR_UNSUPPORTED in emulator builds: CUB exists only in the CUDA
 * toolkit), and cuBLAS's cublasSasum, the sum of |x|, which equals the sum
 * only for non-negative data: a bandwidth reference, not a sum. */
sl_status sl_vendor_reduce_sum_f32_device(const float *x, size_t n, float *sum, double *ms);
sl_status sl_vendor_reduce_max_f32_device(const float *x, size_t n, float *max, double *ms);
sl_status sl_vendor_argmax_f32_device(const float *x, size_t n, size_t *index, float *value, double *ms);
sl_status sl_vendor_sasum_device(const float *x, size_t n, float *sum, double *ms);

/* CPU references: a loop with a double accumulator (error ~ n * 2^-53
 * relative to sum |x|) and a pairwise (recursive halving) float sum (error
 * ~ log2(n) * 2^-24), each on one core and on all cores (OpenMP). */
double sl_reduce_sum_cpu_f64(const float *x, size_t n);
double sl_reduce_sum_cpu_f64_omp(const float *x, size_t n);
float sl_reduce_sum_cpu_pairwise(const float *x, size_t n);
float sl_reduce_sum_cpu_pairwise_omp(const float *x, size_t n);
/* ==== end of chapter 04 ==================================================== */

#ifdef __cplusplus
}
#endif

#endif
