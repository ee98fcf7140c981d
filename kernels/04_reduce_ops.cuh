/* Chapter 04 — the operators the library offers besides the float sum, and
 * the device helpers written once for all of them (included by
 * kernels/04_reduce_ops.cu only).
 *
 * The lesson is the float sum in kernels/04_reduce_ladder.cu and
 * kernels/04_reduce_fast.cu; nothing there needs this file. Here the `+` of
 * those kernels becomes an operator: a struct of static __device__
 * functions, so that kernels/04_reduce_ops.cu writes each version once for
 * all four.
 *
 *   acc              the accumulator type, also the type of the result
 *   identity()       the value that changes nothing (0, -inf, ...)
 *   load(x, i)       element x at index i as an accumulator; also accepts an
 *                    accumulator (a partial result of an earlier pass)
 *   combine(a, b)    associative and commutative (double addition only
 *                    approximately: the order changes the rounding)
 *   shfl_down(v, d)  __shfl_down_sync of an accumulator
 *   atom, atom_is_acc, atomic_merge, decode
 *                    v8's one atomic per block: the type atomics work on,
 *                    whether it is the result's own bits (else v8 merges
 *                    into the workspace header and decodes at the end), the
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

static __device__ __forceinline__ sl_argmax_pair sl_make_argmax_pair(long long index, float value)
{
    sl_argmax_pair p;
    p.index = index;
    p.value = value;
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
    static __device__ __forceinline__ acc identity() { return sl_make_argmax_pair(LLONG_MAX, -INFINITY); }
    static __device__ __forceinline__ acc load(float x, long long i) { return sl_make_argmax_pair(i, x); }
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
        return sl_make_argmax_pair(__shfl_down_sync(SL_FULL_MASK, v.index, d),
                                   __shfl_down_sync(SL_FULL_MASK, v.value, d));
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
        return sl_make_argmax_pair((long long)(0xffffffffu - (unsigned)(a & 0xffffffffu)),
                                   sl_float_from_order_key((unsigned)(a >> 32)));
    }
};

/* ---- loads ----------------------------------------------------------------- */

/* v1-v3: one element per thread; the identity past the end. */
template <class Op, class In>
static __device__ __forceinline__ typename Op::acc sl_load_one(const In *__restrict__ x, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    return i < n ? Op::load(x[i], (long long)i) : Op::identity();
}

/* v4-v6: two elements per thread, blockDim apart. */
template <class Op, class In>
static __device__ __forceinline__ typename Op::acc sl_load_two(const In *__restrict__ x, size_t n)
{
    size_t i = (size_t)blockIdx.x * (2 * blockDim.x) + threadIdx.x;
    typename Op::acc v = i < n ? Op::load(x[i], (long long)i) : Op::identity();
    if (i + blockDim.x < n) v = Op::combine(v, Op::load(x[i + blockDim.x], (long long)(i + blockDim.x)));
    return v;
}

template <class T> struct sl_vec4_of;
template <> struct sl_vec4_of<float> { typedef float4 type; };
template <> struct sl_vec4_of<int> { typedef int4 type; };

/* v7-v9: each thread of the grid combines its share of x into one register:
 * `head` scalar elements up to a 16-byte boundary, 16-byte vectors a
 * grid-stride apart (each combined pairwise), then the tail. */
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
    for (size_t j = tid; j < body; j += stride) {
        V q = x4[j];
        long long i = (long long)(head + 4 * j);
        v = Op::combine(v, Op::combine(Op::combine(Op::load(q.x, i), Op::load(q.y, i + 1)),
                                       Op::combine(Op::load(q.z, i + 2), Op::load(q.w, i + 3))));
    }
    size_t tail = head + 4 * body;
    if (tid < n - tail) v = Op::combine(v, Op::load(x[tail + tid], (long long)(tail + tid)));
    return v;
}

/* ---- block and warp reductions -------------------------------------------- */

/* A warp's 32 values in 5 shuffles; lane 0 ends with the warp's result.
 * All 32 lanes must call it. */
template <class Op>
static __device__ __forceinline__ typename Op::acc sl_warp_reduce(typename Op::acc v)
{
    for (unsigned offset = 16; offset > 0; offset >>= 1) v = Op::combine(v, Op::shfl_down(v, offset));
    return v;
}

/* v6/v7: the shared-memory tree on a compile-time block size (the float
 * sum writes out its four steps; this loop has a constant trip count, and
 * the compiler unrolls it), the last 64 values to warp 0's shuffles. `s`
 * holds BLOCK values. Thread 0 returns the block's result. */
template <class Op, int BLOCK>
static __device__ __forceinline__ typename Op::acc sl_block_reduce_unrolled(typename Op::acc *s,
                                                                             typename Op::acc v)
{
    unsigned tid = threadIdx.x;
    s[tid] = v;
    __syncthreads();
    for (unsigned half = BLOCK / 2; half >= 64; half /= 2) {
        if (tid < half) s[tid] = v = Op::combine(v, s[tid + half]);
        __syncthreads();
    }
    if (tid < 32) v = sl_warp_reduce<Op>(Op::combine(v, s[tid + 32]));
    return v;
}

/* v8/v9: shuffles only: each warp reduces its 32 values, lane 0 of each
 * warp leaves the result in warp_results (32 slots of shared memory), warp
 * 0 reduces those. Every thread of the block must call it; thread 0 returns
 * the result. Call __syncthreads() before reusing warp_results. */
template <class Op>
static __device__ __forceinline__ typename Op::acc sl_block_reduce_shfl(typename Op::acc v,
                                                                         typename Op::acc *warp_results)
{
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = sl_warp_reduce<Op>(v);
    if (lane == 0) warp_results[warp] = v;
    __syncthreads();
    if (warp == 0) v = sl_warp_reduce<Op>(lane < blockDim.x / 32 ? warp_results[lane] : Op::identity());
    return v;
}

#endif
