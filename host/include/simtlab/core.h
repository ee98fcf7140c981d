/* simtlab — the shared core every chapter stands on: status and errors,
 * options and the phase report, device facts, tracked allocations, timing,
 * validation, random inputs, device-resident building blocks and argument
 * parsing for the programs. A chapter's own API is in simtlab/NN_name.h;
 * simtlab/simtlab.h includes them all. */
#ifndef SIMTLAB_CORE_H
#define SIMTLAB_CORE_H

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
    SL_ERR_UNSUPPORTED       /* not available in this build or for these arguments (e.g. CUB in the emulator build) */
} sl_status;

/* "SL_OK", "SL_ERR_INVALID_ARGUMENT", ...; "SL_ERR_(unknown)" outside the enum. */
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

/* ---- pointer arguments ------------------------------------------------- *
 * Every function checks where each pointer it is given lives, before it
 * reads or writes anything, and answers SL_ERR_INVALID_ARGUMENT with a
 * message naming the argument ("sl_poison_f32: p = 0x... is device
 * memory ...") for
 *   - NULL, where something must be read or written (n > 0);
 *   - device memory (cudaMalloc, sl_alloc_device) where host code reads or
 *     writes it: host arrays, results, opts, report, kernel_ms;
 *   - host memory where a `_device` function's kernel reads or writes it;
 *   - a device buffer that was freed: "was freed: it is the 4000-byte
 *     device buffer allocated at f.c:12 and freed at f.c:30" (the emulator
 *     also knows buffers freed with cudaFree, and where they were made).
 * Pinned (sl_alloc_pinned) and managed memory serve as either.
 * Aliasing, the same rule in every chapter: the whole-lifecycle functions
 * (sl_vector_add, sl_sgemm, sl_transpose, sl_tgemm, sl_divergence,
 * sl_pays_round_trip's host arrays) copy their inputs to device buffers of
 * their own before the output comes back, so an output may be one of the
 * inputs, in place. Every `_device`, `_cpu`, vendor and reference function
 * writes its output while it reads its inputs (the kernels take them
 * __restrict__): an output that overlaps an input is refused, naming both
 * (sl_overlap_run's host x and y may be the same array, not shifted). A
 * size whose byte count does not fit in size_t is SL_ERR_OVERFLOW naming
 * it. */

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

/* The phase's name; "(unknown phase)" outside the enum. */
const char *sl_phase_name(sl_phase phase);
/* Prints the report as a small table, one phase per line. void: a NULL
 * report or stream prints nothing. */
void sl_report_print(const sl_report *report, FILE *out);

/* Resets *report for a call that runs `version` with `block` threads: every
 * time and byte count 0, `emulated` set from the backend. void: a NULL
 * report is ignored. */
void sl_report_begin(sl_report *report, int version, int block);

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


/* ---- tracked allocations ----------------------------------------------- */
/* Every device and pinned-host buffer the library makes goes through these,
 * so that a leak is reported with the file and line that made it, and a
 * freed device buffer passed back to any sl_ function (or freed twice) is
 * named with the file:line that allocated it and the one that freed it.
 * sl_free_device(ptr) and sl_free_pinned(ptr) are macros that pass the
 * caller's file:line; NULL is a no-op; anything that is not a live
 * allocation of this library is SL_ERR_INVALID_ARGUMENT. */
sl_status sl_alloc_device_at(void **ptr, size_t bytes, const char *file, int line);
sl_status sl_free_device_at(void *ptr, const char *file, int line);
sl_status sl_alloc_pinned_at(void **ptr, size_t bytes, const char *file, int line);
sl_status sl_free_pinned_at(void *ptr, const char *file, int line);
#define sl_free_device(ptr) sl_free_device_at((ptr), __FILE__, __LINE__)
#define sl_free_pinned(ptr) sl_free_pinned_at((ptr), __FILE__, __LINE__)
/* `ptr` is the address of a pointer variable (&d_x, for float *d_x). The
 * unevaluated assignment inside sizeof makes anything else a compile error
 * rather than a silent cast: passing d_x itself (a float *) assigns a
 * void * to a float, which C rejects (and to an int, which the build makes
 * an error with -Werror=int-conversion). */
#define SL_ALLOC_CHECKED_BYTES_(ptr, bytes) ((bytes) + 0 * sizeof(*(ptr) = (void *)0))
#define sl_alloc_device(ptr, bytes) \
    sl_alloc_device_at((void **)(ptr), SL_ALLOC_CHECKED_BYTES_(ptr, bytes), __FILE__, __LINE__)
#define sl_alloc_pinned(ptr, bytes) \
    sl_alloc_pinned_at((void **)(ptr), SL_ALLOC_CHECKED_BYTES_(ptr, bytes), __FILE__, __LINE__)
/* Number of tracked allocations still live. */
size_t sl_alloc_live_count(void);
/* Prints one line per live allocation ("device 4096 bytes from host/x.c:42")
 * to `out` (stderr when NULL) and returns how many there were (0, with a
 * message, when `out` is device memory). */
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
 * `got` never passes (unless the reference has the same non-finite value).
 * It returns the comparison, not a status: a NULL `got` or `ref` with n > 0
 * gives passed = 0, nonfinite = n, and a message in sl_last_error(). */
sl_check sl_compare_f32(const float *got, const double *ref, size_t n, double rel_tol);
/* Fills with a quiet-NaN pattern so an output the kernel forgot to write
 * cannot pass. SL_ERR_INVALID_ARGUMENT for a NULL p (n > 0), SL_ERR_OVERFLOW
 * when n floats do not fit in size_t bytes. */
sl_status sl_poison_f32(float *p, size_t n);
/* Uniform floats in [lo, hi) from a splitmix64/xorshift stream: the same seed
 * gives the same numbers on every machine. SL_ERR_INVALID_ARGUMENT for a NULL
 * p (n > 0) or a range that is empty or not finite, SL_ERR_OVERFLOW when n
 * floats do not fit in size_t bytes. */
sl_status sl_fill_uniform_f32(float *p, size_t n, uint64_t seed, float lo, float hi);
/* *seed = SIMTLAB_SEED from the environment if set (decimal or 0x hex), else
 * a seed from the clock. SL_ERR_INVALID_ARGUMENT when SIMTLAB_SEED is set
 * but is not a whole number (the message quotes it). */
sl_status sl_seed_from_env(uint64_t *seed);

/* The next number of a splitmix64 stream (Steele, Lea and Flood, 2014): the
 * generator behind sl_fill_uniform_f32, for tests and programs that need
 * other random inputs (ints, indices) from the same printed seed. It returns
 * the number, so it cannot return a status: a NULL `state` gives 0 and a
 * message in sl_last_error(). */
uint64_t sl_rng_next(uint64_t *state);

/* ---- device-resident building blocks -------------------------------------
 * Benchmarks and tests time kernels apart from copies; these take device
 * buffers (from sl_alloc_device). */
sl_status sl_copy_to_device(void *dst_device, const void *src_host, size_t bytes);
sl_status sl_copy_to_host(void *dst_host, const void *src_device, size_t bytes);
/* Fills a device buffer with a byte value (cudaMemset). */
sl_status sl_fill_bytes_device(void *dst_device, int value, size_t bytes);
/* Device-to-device copy of `bytes`, timed with events: the bandwidth ceiling
 * that memory-bound kernels are measured against. */
sl_status sl_copy_device_to_device_timed(void *dst_device, const void *src_device, size_t bytes, double *ms);

/* ---- modelled SIMT counters -------------------------------------------------
 * What a GPU would do with the warps' real paths and addresses, modelled by
 * the CPU emulator from the launches as they ran (emu/docs/profile.md, "SIMT
 * counters"): never a measurement, always printed as "modelled". Each field
 * is named after the Nsight Compute metric it models, so that a student who
 * later has a GPU finds the same figure in ncu. The CUDA build answers
 * SL_ERR_UNSUPPORTED (on a GPU, ask Nsight Compute). */
typedef struct sl_modelled {
    unsigned long long warps;                /* warps launched, summed over blocks */
    /* SIMT execution, in basic blocks: one instruction per warp per basic
     * block it enters; thread_inst counts the lanes that entered it. */
    unsigned long long inst_executed;        /* smsp__inst_executed.sum */
    unsigned long long thread_inst_executed; /* smsp__thread_inst_executed.sum */
    double simt_efficiency;                  /* thread_inst / (32 x inst), 0-1 */
    unsigned long long branches_diverged;    /* smsp__sass_branch_targets_threads_divergent.sum */
    /* global memory: warp requests, 32-byte sectors, and the sectors the bytes used would need */
    unsigned long long gld_requests, gld_sectors, gld_sectors_ideal; /* l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld.sum */
    unsigned long long gst_requests, gst_sectors, gst_sectors_ideal; /* ..._op_st.sum */
    /* shared memory: requests and bank conflicts (wavefronts beyond the ideal) */
    unsigned long long shld_requests, shld_bank_conflicts; /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    unsigned long long shst_requests, shst_bank_conflicts; /* ..._op_st.sum */
    unsigned long long atomics;              /* warp-level atomic instructions, global and shared */
    unsigned long long barriers;             /* __syncthreads rounds, summed over blocks */
    /* The emulator's timing model (emu/docs/model.md): the launches' time on
     * a GPU described by a data file (SIMTLAB_MODEL_GPU, default h200):
     * modelled, never measured. */
    double model_us;          /* sum over launches, modelled on model_gpu; < 0 when not modelled */
    char model_gpu[32];
    char model_note[160];     /* "not modelled: <reason>" when model_us < 0, else the bound of the
                                 longest launch, e.g. "issue-bound" */
    char model_counts[64];    /* the instruction counts' unit: "basic blocks, no SASS weights" */
} sl_modelled;

/* SL_OK when this build can model (the emulator build, kernels compiled
 * with the counters); otherwise SL_ERR_UNSUPPORTED and the reason. */
sl_status sl_modelled_available(void);
/* Counts every launch until sl_modelled_end, which fills *out with their
 * sum: a call that launches several kernels (a reduction's passes) is
 * described whole. */
sl_status sl_modelled_begin(void);
sl_status sl_modelled_end(sl_modelled *out);
/* Runs run(ctx) between begin and end. A failure of run() wins over the
 * counters': its status and message are what the caller gets. */
sl_status sl_modelled_run(sl_status (*run)(void *ctx), void *ctx, sl_modelled *out);
/* count / requests, 0 when there were no requests (sectors per request,
 * conflicts per request). */
double sl_modelled_per_request(unsigned long long count, unsigned long long requests);
/* For the example programs, beside an emulated (CPU) kernel time: opens
 * the model's window where this build models and returns 1, else returns 0
 * and changes nothing (a GPU build measures instead). */
int sl_modelled_open(void);
/* Closes a window sl_modelled_open opened (opened == 1; 0: does nothing)
 * and prints, indented by `indent` spaces (0-32), the modelled GPU time of
 * every kernel launched since, labelled as modelled, or why it could not
 * be modelled. */
void sl_modelled_print(int opened, int indent);

/* ---- arguments of the example programs -------------------------------------
 * Positional argument i of argv as an integer (decimal, or 0x hex) in
 * [min, max]; `fallback` when argc <= i. Returns 0, and prints nothing, when
 * the text is not such an integer (or `out` is NULL, i < 0, or argv is NULL
 * with argc > i), so the program can print its usage. */
int sl_arg_ll(int argc, char **argv, int i, long long fallback, long long min, long long max, long long *out);

#ifdef __cplusplus
}
#endif

#endif
