/* simtlab host library — chapter 02: when the GPU pays.
 *
 * The costs around a kernel, each behind one call: the kernel alone, the
 * round trip over the bus from pageable or pinned memory, one copy, the
 * launch (asynchronous, synchronised, a CUDA graph), many small requests
 * (one by one, batched, a graph), and copies overlapped with compute on
 * streams. Plus the CPU baselines each is measured against.
 *
 * Times of device work are CUDA events where one kernel or copy is timed,
 * and the host clock where the question is what the program waits for
 * (launch overhead, requests, overlap). */
#include <math.h>
#include <stddef.h>

#include "../kernels/02_gpu_pays.h"
#include "sl_internal.h"
#include "simtlab/02_gpu_pays.h"

/* The kernels read a device list of sl_request as sl_pays_segment
 * (kernels/02_gpu_pays.h): the two layouts must be one. */
_Static_assert(sizeof(sl_request) == sizeof(sl_pays_segment), "sl_request and sl_pays_segment differ in size");
_Static_assert(offsetof(sl_request, offset) == offsetof(sl_pays_segment, offset) &&
                   offsetof(sl_request, count) == offsetof(sl_pays_segment, count) &&
                   offsetof(sl_request, scale) == offsetof(sl_pays_segment, scale) &&
                   offsetof(sl_request, bias) == offsetof(sl_pays_segment, bias),
               "sl_request and sl_pays_segment differ in layout");

#define PAYS_BLOCK 256
#define PAYS_MAX_LAUNCHES 65536
#define PAYS_MAX_REQUEST (1u << 20)
#define PAYS_MAX_TERMS 4096
#define PAYS_MAX_STREAMS 16
#define PAYS_MAX_CHUNKS 1024
/* Below this many elements the OpenMP loops run on one thread: waking the
 * pool costs microseconds (milliseconds on a loaded machine), more than the
 * whole loop, and no program would split such a loop across cores. */
#define PAYS_OMP_MIN 65536

const char *sl_pays_op_name(sl_pays_op op)
{
    switch (op) {
    case SL_PAYS_VECTOR_ADD: return "vector add";
    case SL_PAYS_SAXPY: return "saxpy";
    default: return NULL;
    }
}

const char *sl_launch_mode_name(sl_launch_mode mode)
{
    switch (mode) {
    case SL_LAUNCH_ASYNC: return "asynchronous";
    case SL_LAUNCH_SYNCED: return "synchronised";
    case SL_LAUNCH_GRAPH: return "CUDA graph";
    default: return NULL;
    }
}

const char *sl_batch_mode_name(sl_batch_mode mode)
{
    switch (mode) {
    case SL_BATCH_ONE_BY_ONE: return "one launch per request";
    case SL_BATCH_ONE_LAUNCH: return "batched into one launch";
    case SL_BATCH_GRAPH: return "captured into a CUDA graph";
    default: return NULL;
    }
}

/* A CUDA call that the backend may not have (graphs in an emulator build
 * without them): SL_ERR_UNSUPPORTED with what is missing, else the usual. */
static sl_status fail_maybe_unsupported(cudaError_t err, const char *call, const char *file, int line)
{
    if (err == cudaErrorNotSupported) {
        sl_drop_stale_error(); /* reported here: not the next launch's */
        return sl_fail(SL_ERR_UNSUPPORTED,
                       "%s: this backend (%s) does not support it, so the CUDA graph column cannot run here; "
                       "the CUDA build on a GPU runs it",
                       call, sl_backend_name());
    }
    return sl_fail_cuda(err, call, file, line);
}

#define PAYS_CUDA_GOTO(call, status, label)                                              \
    do {                                                                                 \
        cudaError_t pays_err_ = (call);                                                  \
        if (pays_err_ != cudaSuccess) {                                                  \
            (status) = fail_maybe_unsupported(pays_err_, #call, __FILE__, __LINE__);     \
            goto label;                                                                  \
        }                                                                                \
    } while (0)

/* ---- the streaming operations -------------------------------------------------- */

/* Where check_op's x, y and out are. */
enum { OP_DEVICE, OP_CPU, OP_ROUND_TRIP };

/* The operation, n, and x, y, out not NULL. OP_CPU: host arrays, out apart
 * from x and y (not in place, as the kernels, whose arrays are
 * __restrict__). OP_DEVICE: out apart from x and y (the caller checks that
 * they are device buffers). OP_ROUND_TRIP: host arrays, copied in before out
 * is written, so out may be x or y. */
static sl_status check_op(const char *fn, sl_pays_op op, const float *x, const float *y, const float *out,
                          size_t n, size_t *bytes, int where)
{
    if (!sl_pays_op_name(op)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: op = %d is not an sl_pays_op", fn, (int)op);
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    sl_status st = sl_checked_bytes(n, sizeof(float), what, bytes);
    if (st != SL_OK || n == 0) return st;
    if (!x || !y || !out)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !x ? "x" : !y ? "y" : "out");
    if (where != OP_DEVICE &&
        ((st = sl_check_host_ptr(fn, "x", x)) != SL_OK || (st = sl_check_host_ptr(fn, "y", y)) != SL_OK ||
         (st = sl_check_host_ptr(fn, "out", out)) != SL_OK))
        return st;
    if (where == OP_ROUND_TRIP) return SL_OK;
    if ((st = sl_check_disjoint(fn, "out", out, *bytes, "x", x, *bytes)) != SL_OK) return st;
    return sl_check_disjoint(fn, "out", out, *bytes, "y", y, *bytes);
}

sl_status sl_pays_cpu(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n)
{
    size_t bytes;
    sl_status st = check_op("sl_pays_cpu", op, x, y, out, n, &bytes, OP_CPU);
    if (st != SL_OK) return st;
    if (op == SL_PAYS_SAXPY)
        for (size_t i = 0; i < n; i++) out[i] = fmaf(alpha, x[i], y[i]);
    else
        for (size_t i = 0; i < n; i++) out[i] = x[i] + y[i];
    return SL_OK;
}

sl_status sl_pays_cpu_omp(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n)
{
    size_t bytes;
    sl_status st = check_op("sl_pays_cpu_omp", op, x, y, out, n, &bytes, OP_CPU);
    if (st != SL_OK) return st;
    long long count = (long long)n; /* bytes fit in size_t, so n <= LLONG_MAX / 4 */
    if (op == SL_PAYS_SAXPY) {
#pragma omp parallel for schedule(static) if (count >= PAYS_OMP_MIN)
        for (long long i = 0; i < count; i++) out[i] = fmaf(alpha, x[i], y[i]);
    } else {
#pragma omp parallel for schedule(static) if (count >= PAYS_OMP_MIN)
        for (long long i = 0; i < count; i++) out[i] = x[i] + y[i];
    }
    return SL_OK;
}

static cudaError_t launch_op(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n,
                             cudaStream_t stream)
{
    if (op == SL_PAYS_SAXPY) return sl_saxpy_launch(alpha, x, y, out, n, PAYS_BLOCK, stream);
    return sl_pays_add_launch(x, y, out, n, PAYS_BLOCK, stream);
}

sl_status sl_pays_device(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n,
                         double *kernel_ms)
{
    size_t bytes;
    sl_status st = sl_check_host_ptr("sl_pays_device", "kernel_ms", kernel_ms);
    if (st != SL_OK) return st;
    *kernel_ms = 0.0;
    st = check_op("sl_pays_device", op, x, y, out, n, &bytes, OP_DEVICE);
    if (st != SL_OK || n == 0) return st;
    if ((st = sl_check_device_buffer("sl_pays_device", "x", x, sizeof *x)) != SL_OK ||
        (st = sl_check_device_buffer("sl_pays_device", "y", y, sizeof *y)) != SL_OK ||
        (st = sl_check_device_buffer("sl_pays_device", "out", out, sizeof *out)) != SL_OK)
        return st;
    sl_event_timer timer;
    if ((st = sl_event_timer_create(&timer)) != SL_OK) return st;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    SL_LAUNCH_CHECK_GOTO(launch_op(op, alpha, x, y, out, n, 0), sl_pays_op_name(op), st, cleanup);
    st = sl_event_timer_stop(&timer, kernel_ms);
cleanup:
    sl_event_timer_destroy(&timer);
    return st;
}

sl_status sl_pays_round_trip(sl_pays_op op, float alpha, const float *x, const float *y, float *out, size_t n,
                             float *dx, float *dy, float *dout, double *ms)
{
    static const char fn[] = "sl_pays_round_trip";
    size_t bytes;
    sl_status st = sl_check_host_ptr(fn, "ms", ms);
    if (st != SL_OK) return st;
    *ms = 0.0;
    st = check_op(fn, op, x, y, out, n, &bytes, OP_ROUND_TRIP);
    if (st != SL_OK || n == 0) return st;
    if (!dx || !dy || !dout)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !dx ? "dx" : !dy ? "dy" : "dout");
    /* three buffers: x and y are both copied in before the kernel runs,
     * and the kernel does not work in place */
    if ((st = sl_check_device_buffer(fn, "dx", dx, sizeof *dx)) != SL_OK ||
        (st = sl_check_device_buffer(fn, "dy", dy, sizeof *dy)) != SL_OK ||
        (st = sl_check_device_buffer(fn, "dout", dout, sizeof *dout)) != SL_OK ||
        (st = sl_check_disjoint(fn, "dx", dx, bytes, "dy", dy, bytes)) != SL_OK ||
        (st = sl_check_disjoint(fn, "dout", dout, bytes, "dx", dx, bytes)) != SL_OK ||
        (st = sl_check_disjoint(fn, "dout", dout, bytes, "dy", dy, bytes)) != SL_OK)
        return st;
    sl_event_timer timer;
    if ((st = sl_event_timer_create(&timer)) != SL_OK) return st;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    SL_CUDA_GOTO(cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice), st, cleanup);
    SL_CUDA_GOTO(cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice), st, cleanup);
    SL_LAUNCH_CHECK_GOTO(launch_op(op, alpha, dx, dy, dout, n, 0), sl_pays_op_name(op), st, cleanup);
    SL_CUDA_GOTO(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost), st, cleanup);
    st = sl_event_timer_stop(&timer, ms);
cleanup:
    sl_event_timer_destroy(&timer);
    return st;
}

sl_status sl_pays_copy_timed(void *device, void *host, size_t bytes, int to_device, double *ms)
{
    static const char fn[] = "sl_pays_copy_timed";
    sl_status st = sl_check_host_ptr(fn, "ms", ms);
    if (st != SL_OK) return st;
    *ms = 0.0;
    if (bytes == 0) return SL_OK;
    if (!device || !host)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !device ? "device" : "host");
    if ((st = sl_check_device_buffer(fn, "device", device, 1)) != SL_OK ||
        (st = sl_check_host_ptr(fn, "host", host)) != SL_OK)
        return st;
    sl_event_timer timer;
    st = sl_event_timer_create(&timer);
    if (st != SL_OK) return st;
    if ((st = sl_event_timer_start(&timer)) != SL_OK) goto cleanup;
    if (to_device) SL_CUDA_GOTO(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), st, cleanup);
    else SL_CUDA_GOTO(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), st, cleanup);
    st = sl_event_timer_stop(&timer, ms);
cleanup:
    sl_event_timer_destroy(&timer);
    return st;
}

/* ---- graphs: capture what `record` queues on `stream`, instantiate it ------------------ */

typedef cudaError_t (*queue_fn)(void *ctx, cudaStream_t stream);

static sl_status build_graph(cudaStream_t stream, queue_fn record, void *ctx, cudaGraphExec_t *exec)
{
    cudaGraph_t graph = NULL;
    sl_status st = SL_OK;
    *exec = NULL;
    PAYS_CUDA_GOTO(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), st, done);
    cudaError_t queued = record(ctx, stream);
    cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (queued != cudaSuccess) {
        st = fail_maybe_unsupported(queued, "a launch captured into the graph", __FILE__, __LINE__);
        goto done;
    }
    PAYS_CUDA_GOTO(ended, st, done);
    PAYS_CUDA_GOTO(cudaGraphInstantiate(exec, graph, 0), st, done);
done:
    if (graph) cudaGraphDestroy(graph);
    return st;
}

/* ---- launch overhead -------------------------------------------------------------- */

static cudaError_t queue_empties(void *ctx, cudaStream_t stream)
{
    int count = *(const int *)ctx;
    cudaError_t err = cudaSuccess;
    for (int i = 0; i < count && err == cudaSuccess; i++) err = sl_empty_launch(stream);
    return err;
}

sl_status sl_launch_overhead(sl_launch_mode mode, int count, double *ms)
{
    sl_status st = sl_check_host_ptr("sl_launch_overhead", "ms", ms);
    if (st != SL_OK) return st;
    *ms = 0.0;
    if (!sl_launch_mode_name(mode))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_launch_overhead: mode = %d is not an sl_launch_mode", (int)mode);
    if (count < 1 || count > PAYS_MAX_LAUNCHES)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_launch_overhead: count = %d, must be 1..%d", count,
                       PAYS_MAX_LAUNCHES);
    cudaStream_t stream = NULL;
    cudaGraphExec_t exec = NULL;
    sl_drop_stale_error(); /* each launch returns cudaGetLastError() */
    SL_CUDA_GOTO(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), st, cleanup);
    if (mode == SL_LAUNCH_GRAPH && (st = build_graph(stream, queue_empties, &count, &exec)) != SL_OK) goto cleanup;
    double t = sl_host_ms();
    if (mode == SL_LAUNCH_GRAPH) {
        PAYS_CUDA_GOTO(cudaGraphLaunch(exec, stream), st, cleanup);
    } else {
        for (int i = 0; i < count; i++) {
            SL_CUDA_GOTO(sl_empty_launch(stream), st, cleanup);
            if (mode == SL_LAUNCH_SYNCED) SL_CUDA_GOTO(cudaStreamSynchronize(stream), st, cleanup);
        }
    }
    SL_CUDA_GOTO(cudaStreamSynchronize(stream), st, cleanup);
    *ms = sl_host_ms() - t;
cleanup:
    if (exec) cudaGraphExecDestroy(exec);
    if (stream) cudaStreamDestroy(stream);
    return st;
}

/* ---- many small requests -------------------------------------------------------------- */

/* in, out and the host list; each request inside [0, n). `on_host`: in and
 * out are host arrays (else the caller checks them as device buffers). out
 * apart from in: not in place, on the host as on the device. */
static sl_status check_requests(const char *fn, const float *in, const float *out, size_t n, const sl_request *list,
                                int count, int on_host)
{
    if (!in || !out || !list)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !in ? "in" : !out ? "out" : "list");
    if (count < 1 || count > PAYS_MAX_LAUNCHES)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: count = %d, must be 1..%d", fn, count, PAYS_MAX_LAUNCHES);
    sl_status st = sl_check_host_ptr(fn, "list", list);
    if (st == SL_OK && on_host && (st = sl_check_host_ptr(fn, "in", in)) == SL_OK)
        st = sl_check_host_ptr(fn, "out", out);
    size_t bytes = 0;
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    if (st == SL_OK && (st = sl_checked_bytes(n, sizeof *in, what, &bytes)) == SL_OK)
        st = sl_check_disjoint(fn, "out", out, bytes, "in", in, bytes);
    if (st != SL_OK) return st;
    for (int r = 0; r < count; r++) {
        const sl_request *q = &list[r];
        if (q->count < 1 || q->count > PAYS_MAX_REQUEST || q->offset > n || n - q->offset < q->count)
            return sl_fail(SL_ERR_INVALID_ARGUMENT,
                           "%s: list[%d] = {offset %zu, count %u} is not inside the %zu floats (count 1..%u)", fn, r,
                           q->offset, q->count, n, PAYS_MAX_REQUEST);
    }
    return SL_OK;
}

sl_status sl_requests_cpu(const float *in, float *out, size_t n, const sl_request *list, int count)
{
    sl_status st = check_requests("sl_requests_cpu", in, out, n, list, count, 1);
    if (st != SL_OK) return st;
    for (int r = 0; r < count; r++)
        for (unsigned i = 0; i < list[r].count; i++)
            out[list[r].offset + i] = fmaf(list[r].scale, in[list[r].offset + i], list[r].bias);
    return SL_OK;
}

typedef struct request_run {
    const float *in;
    float *out;
    const sl_request *list;
    int count;
} request_run;

static cudaError_t queue_requests(void *ctx, cudaStream_t stream)
{
    const request_run *q = ctx;
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < q->count && err == cudaSuccess; r++) {
        sl_request one = q->list[r];
        sl_pays_segment segment = {one.offset, one.count, one.scale, one.bias};
        err = sl_request_launch_one(q->in, q->out, segment, PAYS_BLOCK, stream);
    }
    return err;
}

sl_status sl_requests_device(sl_batch_mode mode, const float *in, float *out, size_t n, const sl_request *list,
                             int count, sl_request *d_list, double *ms)
{
    static const char fn[] = "sl_requests_device";
    sl_status st = sl_check_host_ptr(fn, "ms", ms);
    if (st != SL_OK) return st;
    *ms = 0.0;
    if (!sl_batch_mode_name(mode))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: mode = %d is not an sl_batch_mode", fn, (int)mode);
    st = check_requests(fn, in, out, n, list, count, 0);
    if (st != SL_OK) return st;
    if (mode == SL_BATCH_ONE_LAUNCH && !d_list)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: d_list is NULL (one launch needs the list on the device)", fn);
    if ((st = sl_check_device_buffer(fn, "in", in, sizeof *in)) != SL_OK ||
        (st = sl_check_device_buffer(fn, "out", out, sizeof *out)) != SL_OK ||
        (mode == SL_BATCH_ONE_LAUNCH &&
         ((st = sl_check_device_buffer(fn, "d_list", d_list, sizeof(size_t))) != SL_OK ||
          (st = sl_check_disjoint(fn, "d_list", d_list, (size_t)count * sizeof *list, "out", out,
                                  n * sizeof *out)) != SL_OK)))
        return st;
    request_run q = {in, out, list, count};
    cudaStream_t stream = NULL;
    cudaGraphExec_t exec = NULL;
    sl_drop_stale_error(); /* each launch returns cudaGetLastError() */
    SL_CUDA_GOTO(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), st, cleanup);
    if (mode == SL_BATCH_GRAPH && (st = build_graph(stream, queue_requests, &q, &exec)) != SL_OK) goto cleanup;
    double t = sl_host_ms();
    if (mode == SL_BATCH_GRAPH) {
        PAYS_CUDA_GOTO(cudaGraphLaunch(exec, stream), st, cleanup);
    } else if (mode == SL_BATCH_ONE_LAUNCH) {
        SL_CUDA_GOTO(cudaMemcpyAsync(d_list, list, (size_t)count * sizeof *list, cudaMemcpyHostToDevice, stream), st,
                     cleanup);
        SL_CUDA_GOTO(sl_request_launch_batched(in, out, (const sl_pays_segment *)d_list, count, PAYS_BLOCK, stream),
                     st, cleanup);
    } else {
        SL_CUDA_GOTO(queue_requests(&q, stream), st, cleanup);
    }
    SL_CUDA_GOTO(cudaStreamSynchronize(stream), st, cleanup);
    *ms = sl_host_ms() - t;
cleanup:
    if (exec) cudaGraphExecDestroy(exec);
    if (stream) cudaStreamDestroy(stream);
    return st;
}

/* ---- overlap ---------------------------------------------------------------------------- */

/* n, terms, and x, y host arrays. `in_place_ok`: y may be x itself
 * (sl_overlap_run: each piece is copied in before its result comes back),
 * but not shifted into it; else y apart from x. */
static sl_status check_poly(const char *fn, const float *x, const float *y, size_t n, int terms, size_t *bytes,
                            int in_place_ok)
{
    char what[64];
    snprintf(what, sizeof what, "%s: n", fn);
    sl_status st = sl_checked_bytes(n, sizeof(float), what, bytes);
    if (st != SL_OK) return st;
    if (terms < 0 || terms > PAYS_MAX_TERMS)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: terms = %d, must be 0..%d", fn, terms, PAYS_MAX_TERMS);
    if (n == 0) return SL_OK;
    if ((st = sl_check_host_ptr(fn, "x", x)) != SL_OK || (st = sl_check_host_ptr(fn, "y", y)) != SL_OK) return st;
    return in_place_ok ? sl_check_same_or_disjoint(fn, "y", y, "x", x, *bytes)
                       : sl_check_disjoint(fn, "y", y, *bytes, "x", x, *bytes);
}

static float poly_at(float v, int terms)
{
    float acc = 0.0f;
    for (int k = terms; k >= 1; k--) acc = fmaf(acc, v, 1.0f / (float)(k + 1));
    return acc;
}

sl_status sl_poly_cpu(const float *x, float *y, size_t n, int terms)
{
    size_t bytes;
    sl_status st = check_poly("sl_poly_cpu", x, y, n, terms, &bytes, 0);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < n; i++) y[i] = poly_at(x[i], terms);
    return SL_OK;
}

sl_status sl_poly_cpu_omp(const float *x, float *y, size_t n, int terms)
{
    size_t bytes;
    sl_status st = check_poly("sl_poly_cpu_omp", x, y, n, terms, &bytes, 0);
    if (st != SL_OK) return st;
    long long count = (long long)n;
#pragma omp parallel for schedule(static) if (count >= PAYS_OMP_MIN / 16)
    for (long long i = 0; i < count; i++) y[i] = poly_at(x[i], terms);
    return SL_OK;
}

sl_status sl_overlap_run(const float *x, float *y, size_t n, int terms, int chunks, int streams, float *d_x,
                         float *d_y, double *ms)
{
    static const char fn[] = "sl_overlap_run";
    size_t bytes;
    sl_status st = sl_check_host_ptr(fn, "ms", ms);
    if (st != SL_OK) return st;
    *ms = 0.0;
    st = check_poly(fn, x, y, n, terms, &bytes, 1);
    if (st != SL_OK) return st;
    if (chunks < 1 || chunks > PAYS_MAX_CHUNKS)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: chunks = %d, must be 1..%d", fn, chunks, PAYS_MAX_CHUNKS);
    if (streams < 1 || streams > PAYS_MAX_STREAMS)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: streams = %d, must be 1..%d", fn, streams, PAYS_MAX_STREAMS);
    if (n > 0 && (!d_x || !d_y)) return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !d_x ? "d_x" : "d_y");
    if (n == 0) return SL_OK;
    if ((st = sl_check_device_buffer(fn, "d_x", d_x, sizeof *d_x)) != SL_OK ||
        (st = sl_check_device_buffer(fn, "d_y", d_y, sizeof *d_y)) != SL_OK ||
        (st = sl_check_disjoint(fn, "d_y", d_y, bytes, "d_x", d_x, bytes)) != SL_OK)
        return st;
    sl_drop_stale_error(); /* each launch returns cudaGetLastError() */
    cudaStream_t s[PAYS_MAX_STREAMS] = {NULL};
    int made = 0;
    for (; made < streams; made++) SL_CUDA_GOTO(cudaStreamCreateWithFlags(&s[made], cudaStreamNonBlocking), st, cleanup);
    double t = sl_host_ms();
    size_t piece = (n + (size_t)chunks - 1) / (size_t)chunks;
    for (int c = 0; c < chunks; c++) {
        size_t first = (size_t)c * piece;
        if (first >= n) break;
        size_t len = n - first < piece ? n - first : piece;
        cudaStream_t on = s[c % streams];
        SL_CUDA_GOTO(cudaMemcpyAsync(d_x + first, x + first, len * sizeof(float), cudaMemcpyHostToDevice, on), st,
                     cleanup);
        SL_CUDA_GOTO(sl_poly_launch(d_x + first, d_y + first, len, terms, PAYS_BLOCK, on), st, cleanup);
        SL_CUDA_GOTO(cudaMemcpyAsync(y + first, d_y + first, len * sizeof(float), cudaMemcpyDeviceToHost, on), st,
                     cleanup);
    }
    for (int i = 0; i < streams; i++) SL_CUDA_GOTO(cudaStreamSynchronize(s[i]), st, cleanup);
    *ms = sl_host_ms() - t;
cleanup:
    for (int i = 0; i < made; i++) cudaStreamDestroy(s[i]);
    return st;
}
