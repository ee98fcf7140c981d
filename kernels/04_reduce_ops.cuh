/* Chapter 04 — the reduction operators and the device helpers every version
 * shares (included by kernels/04_reduce*.cu only).
 *
 * An operator is a struct of static __device__ functions, so one kernel
 * template serves all five and the ladder is written once:
 *
 *   acc              the accumulator type, also the type of the result
 *   identity()       the value that changes nothing (0, -inf, ...)
 *   load(x, i)       element x at index i as an accumulator; also accepts an
 *                    accumulator (a partial result of an earlier pass)
 *   combine(a, b)    associative and commutative (float addition only
 *                    approximately: the order changes the rounding)
 *   shfl_down(v, d)  __shfl_down_sync of an accumulator
 *   atom, atomic_merge, decode
 *                    v8's one atomic per block: the type atomics work on, the
 *                    merge of a block's result into it, and atom -> acc
 *
 * This header is not run through the emulator's rewriter, so it holds no
 * __shared__ declarations and no launches: kernels pass their shared arrays
 * to the helpers as pointers. */
#ifndef SIMTLAB_KERNELS_04_REDUCE_OPS_CUH
#define SIMTLAB_KERNELS_04_REDUCE_OPS_CUH

#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>

#include "04_reduce.h"

#define SL_FULL_MASK 0xffffffffu

/* ---- the operators ------------------------------------------------------- */

struct sl_sum_f32_op {
    typedef float acc;
    typedef float atom;
    enum { atom_is_acc = 1 };
    static __device__ __forceinline__ acc identity() { return 0.0f; }
    static __device__ __forceinline__ acc load(float x, long long) { return x; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return a + b; }
    static __device__ __forceinline__ acc shfl_down(acc v, unsigned d) { return __shfl_down_sync(SL_FULL_MASK, v, d); }
    static __device__ __forceinline__ void atomic_merge(atom *dst, acc v) { atomicAdd(dst, v); }
    static __device__ __forceinline__ acc decode(atom a) { return a; }
};

/* float in, double accumulator: each float converts exactly, so only the
 * additions round, at 2^-53 instead of 2^-24. */
struct sl_sum_f32_f64acc_op {
    typedef double acc;
    typedef double atom;
    enum { atom_is_acc = 1 };
    static __device__ __forceinline__ acc identity() { return 0.0; }
    static __device__ __forceinline__ acc load(float x, long long) { return (double)x; }
    static __device__ __forceinline__ acc load(double x, long long) { return x; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return a + b; }
    static __device__ __forceinline__ acc shfl_down(acc v, unsigned d) { return __shfl_down_sync(SL_FULL_MASK, v, d); }
    static __device__ __forceinline__ void atomic_merge(atom *dst, acc v) { atomicAdd(dst, v); } /* sm_60+ */
    static __device__ __forceinline__ acc decode(atom a) { return a; }
};

/* int in, 64-bit accumulator: exact for any n below 2^32 (|sum| < 2^63).
 * CUDA has no signed 64-bit atomicAdd; the unsigned one adds the same bits
 * (two's complement), so the result is the signed sum. */
struct sl_sum_i32_op {
    typedef long long acc;
    typedef unsigned long long atom;
    enum { atom_is_acc = 1 }; /* same bits, reinterpreted */
    static __device__ __forceinline__ acc identity() { return 0; }
    static __device__ __forceinline__ acc load(int x, long long) { return (long long)x; }
    static __device__ __forceinline__ acc load(long long x, long long) { return x; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return a + b; }
    static __device__ __forceinline__ acc shfl_down(acc v, unsigned d) { return __shfl_down_sync(SL_FULL_MASK, v, d); }
    static __device__ __forceinline__ void atomic_merge(atom *dst, acc v) { atomicAdd(dst, (unsigned long long)v); }
    static __device__ __forceinline__ acc decode(atom a) { return (long long)a; }
};

/* Float max as an unsigned atomicMax: flip the bits so that unsigned order is
 * float order. Positive floats already sort as integers, above the negative
 * ones once the sign bit is set; negative floats sort backwards, so all their
 * bits flip. Every NaN (either sign) becomes the largest key: NaN wins, as
 * in combine(). Key 0 is below every float, so a zero-filled target is the
 * identity. */
static __device__ __forceinline__ unsigned sl_float_order_key(float f)
{
    if (f != f) return 0xffffffffu; /* f != f only for NaN */
    unsigned bits = __float_as_uint(f);
    return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}

static __device__ __forceinline__ float sl_float_from_order_key(unsigned key)
{
    if (key == 0xffffffffu) return __uint_as_float(0x7fffffffu); /* CUDA's canonical NaN */
    return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

/* max: NaN wins (the result of a max over data with a NaN is NaN, like
 * numpy's np.max); otherwise the larger value. */
struct sl_max_f32_op {
    typedef float acc;
    typedef unsigned atom;
    enum { atom_is_acc = 0 };
    static __device__ __forceinline__ acc identity() { return -INFINITY; }
    static __device__ __forceinline__ acc load(float x, long long) { return x; }
    static __device__ __forceinline__ acc combine(acc a, acc b)
    {
        if (a != a) return a;
        if (b != b) return b;
        return a > b ? a : b;
    }
    static __device__ __forceinline__ acc shfl_down(acc v, unsigned d) { return __shfl_down_sync(SL_FULL_MASK, v, d); }
    static __device__ __forceinline__ void atomic_merge(atom *dst, acc v) { atomicMax(dst, sl_float_order_key(v)); }
    static __device__ __forceinline__ acc decode(atom a) { return sl_float_from_order_key(a); }
};

static __device__ __forceinline__ sl_argmax_pair sl_make_argmax_pair(float value, long long index)
{
    sl_argmax_pair p;
    p.value = value;
    p.index = index;
    return p;
}

/* argmax: the larger value wins, NaN above everything; on equal values (or
 * two NaNs) the lower index wins. That is a total order, so combine is
 * associative and commutative and every version gets the same answer. The
 * identity's index LLONG_MAX loses every tie, even against -inf. */
struct sl_argmax_f32_op {
    typedef sl_argmax_pair acc;
    typedef unsigned long long atom; /* key << 32 | (2^32 - 1 - index) */
    enum { atom_is_acc = 0 };
    static __device__ __forceinline__ acc identity() { return sl_make_argmax_pair(-INFINITY, LLONG_MAX); }
    static __device__ __forceinline__ acc load(float x, long long i) { return sl_make_argmax_pair(x, i); }
    static __device__ __forceinline__ acc load(acc p, long long) { return p; }
    static __device__ __forceinline__ bool beats(acc p, acc q)
    {
        bool p_nan = p.value != p.value, q_nan = q.value != q.value;
        if (p_nan || q_nan) return p_nan && (!q_nan || p.index < q.index);
        return p.value > q.value || (p.value == q.value && p.index < q.index);
    }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return beats(b, a) ? b : a; }
    static __device__ __forceinline__ acc shfl_down(acc v, unsigned d)
    {
        return sl_make_argmax_pair(__shfl_down_sync(SL_FULL_MASK, v.value, d),
                                   __shfl_down_sync(SL_FULL_MASK, v.index, d));
    }
    /* The larger key wins; on equal keys the larger low word, i.e. the lower
     * index. Needs index < 2^32 (SL_REDUCE_V8_ARGMAX_MAX_N). */
    static __device__ __forceinline__ void atomic_merge(atom *dst, acc v)
    {
        unsigned low = 0xffffffffu - (unsigned)v.index;
        atomicMax(dst, ((unsigned long long)sl_float_order_key(v.value) << 32) | low);
    }
    static __device__ __forceinline__ acc decode(atom a)
    {
        return sl_make_argmax_pair(sl_float_from_order_key((unsigned)(a >> 32)),
                                   (long long)(0xffffffffu - (unsigned)(a & 0xffffffffu)));
    }
};

/* ---- 16-byte loads ----------------------------------------------------- */
template <class T> struct sl_vec4_of;
template <> struct sl_vec4_of<float> { typedef float4 type; };
template <> struct sl_vec4_of<int> { typedef int4 type; };

/* Four consecutive elements starting at index i, combined pairwise. */
template <class Op, class V>
static __device__ __forceinline__ typename Op::acc sl_load4(V q, long long i)
{
    return Op::combine(Op::combine(Op::load(q.x, i), Op::load(q.y, i + 1)),
                       Op::combine(Op::load(q.z, i + 2), Op::load(q.w, i + 3)));
}

/* v7-v9's load phase: each thread of the grid combines its share of x into
 * one register. `head` scalar elements bring x to a 16-byte boundary; then
 * whole 16-byte vectors, a grid-stride apart so that each step of the grid
 * reads one contiguous stretch; then the at most 3 elements of the tail. */
template <class Op, class In>
static __device__ __forceinline__ typename Op::acc sl_thread_accumulate(const In *__restrict__ x, size_t n,
                                                                         size_t head)
{
    typedef typename sl_vec4_of<In>::type V;
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t body = (n - head) / 4;
    typename Op::acc v = Op::identity();
    if (tid < head) v = Op::load(x[tid], (long long)tid);
    const V *x4 = reinterpret_cast<const V *>(x + head);
    for (size_t j = tid; j < body; j += stride)
        v = Op::combine(v, sl_load4<Op>(x4[j], (long long)(head + 4 * j)));
    size_t tail = head + 4 * body;
    if (tid < n - tail) v = Op::combine(v, Op::load(x[tail + tid], (long long)(tail + tid)));
    return v;
}

/* ---- block and warp reductions -------------------------------------------- */

/* A warp's 32 values in 5 shuffles: after the step with offset d, lane i
 * holds the combination of lanes i..i+2d-1. Lane 0 ends with the warp's
 * result. All 32 lanes must call it (the mask is the full warp). */
template <class Op>
static __device__ __forceinline__ typename Op::acc sl_warp_reduce(typename Op::acc v)
{
    for (unsigned offset = 16; offset > 0; offset >>= 1) v = Op::combine(v, Op::shfl_down(v, offset));
    return v;
}

/* v6/v7: the shared-memory tree with the block size known at compile time,
 * so every `if (BLOCK >= ...)` is decided by the compiler and the loop is
 * gone; the last 64 values go to warp 0's shuffles. `s` holds BLOCK values.
 * Thread 0 returns the block's result. */
template <class Op, int BLOCK>
static __device__ __forceinline__ typename Op::acc sl_block_reduce_unrolled(typename Op::acc *s,
                                                                             typename Op::acc v)
{
    unsigned tid = threadIdx.x;
    s[tid] = v;
    __syncthreads();
    if (BLOCK >= 1024) {
        if (tid < 512) s[tid] = v = Op::combine(v, s[tid + 512]);
        __syncthreads();
    }
    if (BLOCK >= 512) {
        if (tid < 256) s[tid] = v = Op::combine(v, s[tid + 256]);
        __syncthreads();
    }
    if (BLOCK >= 256) {
        if (tid < 128) s[tid] = v = Op::combine(v, s[tid + 128]);
        __syncthreads();
    }
    if (BLOCK >= 128) {
        if (tid < 64) s[tid] = v = Op::combine(v, s[tid + 64]);
        __syncthreads();
    }
    if (tid < 32) v = sl_warp_reduce<Op>(Op::combine(v, s[tid + 32]));
    return v;
}

/* v8/v9: shuffles only. Each warp reduces its own 32 values, lane 0 of
 * each warp leaves the warp's result in warp_sums (32 slots in shared
 * memory), and warp 0 reduces those: one barrier instead of log2(block).
 * Every thread of the block must call it; thread 0 returns the result.
 * Call __syncthreads() before reusing warp_sums. */
template <class Op>
static __device__ __forceinline__ typename Op::acc sl_block_reduce_shfl(typename Op::acc v,
                                                                         typename Op::acc *warp_sums)
{
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = sl_warp_reduce<Op>(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) v = sl_warp_reduce<Op>(lane < warps ? warp_sums[lane] : Op::identity());
    return v;
}

/* ---- what kernels/04_reduce.cu hands to the launch code of each family ---- */

/* How one reduction is laid out: the first pass's grid and the scratch. The
 * workspace holds, each at a 16-byte boundary: a 16-byte header (v8's atomic
 * target when it needs decoding, v9's counter), partial buffer A
 * (count_a values), partial buffer B (count_b values). */
struct sl_reduce_plan {
    unsigned grid;
    size_t count_a, count_b;
    size_t offset_a, offset_b;
    size_t bytes;
};

/* The one place that maps the C operator enum to operator types: calls
 * Family::run<Op, In>(...) with typed pointers. Each family of versions
 * (ladder, fast) is a struct with such a static member template. */
template <class Family>
static cudaError_t sl_reduce_dispatch(int version, sl_reduce_op op, const void *x, size_t n, int block,
                                      const sl_reduce_plan *plan, unsigned char *ws, void *out,
                                      cudaStream_t st)
{
    const float *xf = static_cast<const float *>(x);
    switch (op) {
    case SL_REDUCE_SUM_F32:
        return Family::template run<sl_sum_f32_op, float>(version, xf, n, block, plan, ws,
                                                          static_cast<float *>(out), st);
    case SL_REDUCE_SUM_F32_F64ACC:
        return Family::template run<sl_sum_f32_f64acc_op, float>(version, xf, n, block, plan, ws,
                                                                 static_cast<double *>(out), st);
    case SL_REDUCE_SUM_I32:
        return Family::template run<sl_sum_i32_op, int>(version, static_cast<const int *>(x), n, block,
                                                        plan, ws, static_cast<long long *>(out), st);
    case SL_REDUCE_MAX_F32:
        return Family::template run<sl_max_f32_op, float>(version, xf, n, block, plan, ws,
                                                          static_cast<float *>(out), st);
    case SL_REDUCE_ARGMAX_F32:
        return Family::template run<sl_argmax_f32_op, float>(version, xf, n, block, plan, ws,
                                                             static_cast<sl_argmax_pair *>(out), st);
    default: return cudaErrorInvalidValue;
    }
}

/* v1-v6 (kernels/04_reduce_ladder.cu) and v7-v9 (kernels/04_reduce_fast.cu). */
cudaError_t sl_reduce_ladder_run(int version, sl_reduce_op op, const void *x, size_t n, int block,
                                 const sl_reduce_plan *plan, unsigned char *ws, void *out, cudaStream_t stream);
cudaError_t sl_reduce_fast_run(int version, sl_reduce_op op, const void *x, size_t n, int block,
                               const sl_reduce_plan *plan, unsigned char *ws, void *out, cudaStream_t stream);

#endif
