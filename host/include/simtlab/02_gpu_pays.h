/* simtlab — chapter 02: when the GPU pays. The cost around a kernel: the
 * bus (pageable and pinned copies), the launch (asynchronous, synchronised,
 * through a CUDA graph), many small requests, and copies overlapped with
 * compute on streams (kernels/02_gpu_pays.cu, host/02_gpu_pays.c). */
#ifndef SIMTLAB_02_GPU_PAYS_H
#define SIMTLAB_02_GPU_PAYS_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The two streaming operations of the crossover: both read x and y and
 * write out, 12 bytes per element. */
typedef enum sl_pays_op {
    SL_PAYS_VECTOR_ADD = 0, /* out = x + y (grid-stride, as chapter 01's v2) */
    SL_PAYS_SAXPY = 1       /* out = alpha * x + y (one fmaf) */
} sl_pays_op;

/* "vector add" or "saxpy"; NULL for anything else. */
const char *sl_pays_op_name(sl_pays_op op);

/* CPU baselines, one core and all cores (OpenMP): the same arithmetic
 * (fmaf for saxpy), so results equal the kernels' bit for bit. Host
 * arrays; out apart from x and y (not in place, like the kernels). */
sl_status sl_pays_cpu(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n);
sl_status sl_pays_cpu_omp(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n);

/* The kernel alone, on device buffers (sl_alloc_device): *kernel_ms from
 * CUDA events around the launch. out apart from x and y. */
sl_status sl_pays_device(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n,
                         double *kernel_ms);

/* What one call on host data costs: x and y copied host -> device (into
 * dx, dy), the kernel (into dout), out copied device -> host. *ms is from
 * the first copy's start to the last copy's end (CUDA events). The host
 * arrays may be pageable (malloc) or pinned (sl_alloc_pinned): the same
 * call, and the difference is the chapter's lesson. out may be x or y (they
 * are copied in first); dx, dy and dout must be three buffers apart. */
sl_status sl_pays_round_trip(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n,
                             float *dx, float *dy, float *dout, double *ms);

/* One cudaMemcpy of `bytes`, host -> device (to_device = 1) or device ->
 * host, timed with CUDA events. `host` pageable or pinned. */
sl_status sl_pays_copy_timed(void *device, void *host, size_t bytes, int to_device, double *ms);

/* ---- launch overhead -------------------------------------------------------- */
typedef enum sl_launch_mode {
    SL_LAUNCH_ASYNC = 0,  /* `count` launches back to back, one synchronize at the end */
    SL_LAUNCH_SYNCED = 1, /* each launch followed by cudaStreamSynchronize */
    SL_LAUNCH_GRAPH = 2   /* the `count` launches captured once into a CUDA graph; one graph launch */
} sl_launch_mode;

/* The mode's name; NULL outside the enum. */
const char *sl_launch_mode_name(sl_launch_mode mode);

/* `count` (1..65536) launches of an empty kernel in `mode`, on a stream of
 * its own; *ms (host clock) from the first call to the end of the last
 * synchronize. A graph's capture and instantiation are done first and not
 * timed (a program builds its graph once and launches it many times).
 * SL_ERR_UNSUPPORTED where the backend has no graphs. */
sl_status sl_launch_overhead(sl_launch_mode mode, int count, double *ms);

/* ---- many small requests ---------------------------------------------------- */
/* One request: out[offset + i] = scale * in[offset + i] + bias, i < count. */
typedef struct sl_request {
    size_t offset;
    unsigned count; /* 1 .. 1 << 20 */
    float scale, bias;
} sl_request;

typedef enum sl_batch_mode {
    SL_BATCH_ONE_BY_ONE = 0, /* a launch per request */
    SL_BATCH_ONE_LAUNCH = 1, /* the list copied to the device, one launch for all */
    SL_BATCH_GRAPH = 2       /* the launches of ONE_BY_ONE captured into a graph, launched once */
} sl_batch_mode;

/* The mode's name; NULL outside the enum. */
const char *sl_batch_mode_name(sl_batch_mode mode);

/* The requests of `list` (on the host, `count` of them, 1..65536) on device
 * buffers `in` and `out` of `n` floats (every request inside [0, n)).
 * `d_list` is device room for `count` requests (ONE_LAUNCH copies the list
 * there, inside the timed part; the others ignore it). *ms (host clock)
 * from the first call to the final synchronize; a graph is built first and
 * not timed. SL_ERR_UNSUPPORTED where the backend has no graphs. out apart
 * from in, d_list apart from out. */
sl_status sl_requests_device(sl_batch_mode mode, const float *in, float *out, size_t n, const sl_request *list,
                             int count, sl_request *d_list, double *ms);
/* The same requests on the CPU (the reference, and the CPU column); out
 * apart from in. */
sl_status sl_requests_cpu(const float *in, float *out, size_t n, const sl_request *list, int count);

/* ---- overlap: copies and compute on streams ---------------------------------------- */
/* y = p(x) (see sl_poly_cpu) for n floats, host x -> device -> host y:
 * split into `chunks` pieces (1..1024) queued round-robin on `streams`
 * streams (1..16), each piece copied in, computed and copied out on its
 * stream. chunks = streams = 1 is the serialised program: all in, compute,
 * all out. x and y should be pinned: pageable copies cannot overlap.
 * d_x, d_y: device buffers of n floats, apart. y may be x (each piece is
 * copied in before its result comes back), not shifted into it. *ms: host
 * clock to the final synchronize. */
sl_status sl_overlap_run(const float *x, float *y, size_t n, int terms, int chunks, int streams, float *d_x,
                         float *d_y, double *ms);
/* y[i] = p(x[i]): acc = fmaf(acc, x, 1/(k+1)) for k = terms .. 1 from acc = 0
 * (terms 0..4096); one core and all cores. y apart from x. */
sl_status sl_poly_cpu(const float *x, float *y, size_t n, int terms);
sl_status sl_poly_cpu_omp(const float *x, float *y, size_t n, int terms);

#ifdef __cplusplus
}
#endif

#endif
