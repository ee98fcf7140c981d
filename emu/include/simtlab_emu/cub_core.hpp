/* simtlab CPU emulator — the emulator's own CUB, part 1: the version, the
 * functors, KeyValuePair, DoubleBuffer, a few iterators, and the warp-level
 * primitives (WarpReduce, WarpScan). Written here from CUB's documented
 * API; none of CUB's code is used (the real CUB is inline PTX and the
 * toolkit's internals, which cannot run under the emulator).
 *
 * How the warp primitives compute: every lane of a logical warp deposits
 * its value in one warp collective (engine.hpp's warp_collective, the
 * primitive the shuffles are built on); the last lane to arrive computes
 * every lane's result in the order a shuffle tree would (a reduction
 * halves by shuffle-down steps, a scan is a Kogge-Stone ladder), so
 * floating-point results round as on a GPU that uses that tree, and lanes
 * other than lane 0 get the partial reductions a GPU leaves there. Any
 * value type works, not only the 8-byte ones a shuffle moves.
 *
 * Logical warps are counted inside each hardware warp (lane / LOGICAL_WARP_
 * THREADS), as CUB does; lanes past the end of the block do not take part.
 * A lane that exited while the others wait fails the launch with the
 * engine's diagnostic, naming the CUB call and the kernel's line.
 */
#ifndef SIMTLAB_EMU_CUB_CORE_HPP
#define SIMTLAB_EMU_CUB_CORE_HPP
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_CUB)
#error "simtlab emulator: this emulator was built without CUB: configure it with -DSIMTLAB_EMU_WITH_CUB=ON"
#endif

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

/* CUB 2.x's API (the version macro code tests to pick an API); the
 * emulator's own implementation, see emu/docs/libraries.md, "CUB". */
#define CUB_VERSION 200800
#define CUB_MAJOR_VERSION 2
#define CUB_MINOR_VERSION 8
#define CUB_SUBMINOR_VERSION 0
#define CUB_PATCH_NUMBER 0
#define CUB_NAMESPACE_BEGIN namespace cub {
#define CUB_NAMESPACE_END }
#define CUB_NS_PREFIX
#define CUB_NS_POSTFIX
#define CUB_NS_QUALIFIER ::cub
#define CUB_RUNTIME_FUNCTION
#define CUB_PTX_ARCH 0
#define CUB_PTX_WARP_THREADS 32
#define CUB_STDERR 1
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_CEILING(a, b) (((a) + (b) - 1) / (b))
#define CUB_ROUND_UP_NEAREST(x, y) ((((x) + (y) - 1) / (y)) * (y))

namespace cub {

/* ---- errors (util_debug.cuh) ------------------------------------------- */
/* Prints a failed status with where it happened and returns it unchanged. */
inline cudaError_t Debug(cudaError_t error, const char *filename, int line)
{
    if (error != cudaSuccess)
        std::fprintf(stderr, "CUDA error %d [%s, %d]: %s\n", static_cast<int>(error), filename, line,
                     cudaGetErrorString(error));
    return error;
}
} /* namespace cub */
#define CubDebug(e) ::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__)
/* CUB's macro for a program's own checks: a failure ends the program. */
#define CubDebugExit(e)                                                                                        \
    do {                                                                                                      \
        if (::cub::Debug(static_cast<cudaError_t>(e), __FILE__, __LINE__) != cudaSuccess)                      \
            std::exit(1);                                                                                     \
    } while (0)

namespace cub {

/* ---- functors (thread/thread_operators.cuh) ----------------------------- */
struct Sum {
    template <class A, class B>
    constexpr auto operator()(const A &a, const B &b) const -> decltype(a + b) { return a + b; }
};
struct Difference {
    template <class A, class B>
    constexpr auto operator()(const A &a, const B &b) const -> decltype(a - b) { return a - b; }
};
struct Max {
    template <class A, class B>
    constexpr typename std::common_type<A, B>::type operator()(const A &a, const B &b) const
    {
        return a < b ? b : a;
    }
};
struct Min {
    template <class A, class B>
    constexpr typename std::common_type<A, B>::type operator()(const A &a, const B &b) const
    {
        return b < a ? b : a;
    }
};
struct Equality {
    template <class A, class B>
    constexpr bool operator()(const A &a, const B &b) const { return a == b; }
};
struct Inequality {
    template <class A, class B>
    constexpr bool operator()(const A &a, const B &b) const { return !(a == b); }
};

/* ---- KeyValuePair and the arg-reductions (util_type.cuh) ---------------- */
template <class K, class V>
struct KeyValuePair {
    typedef K Key;
    typedef V Value;
    K key;
    V value;
    KeyValuePair() = default;
    constexpr KeyValuePair(const K &k, const V &v) : key(k), value(v) {}
    constexpr bool operator!=(const KeyValuePair &b) const { return value != b.value || key != b.key; }
    constexpr bool operator==(const KeyValuePair &b) const { return value == b.value && key == b.key; }
};

/* The pair with the larger value; of equal values, the smaller key (the
 * first occurrence when keys are indices). */
struct ArgMax {
    template <class K, class V>
    constexpr KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a, const KeyValuePair<K, V> &b) const
    {
        if (b.value > a.value || (!(a.value > b.value) && !(b.value < a.value) && b.key < a.key))
            return b;
        return a;
    }
};
struct ArgMin {
    template <class K, class V>
    constexpr KeyValuePair<K, V> operator()(const KeyValuePair<K, V> &a, const KeyValuePair<K, V> &b) const
    {
        if (b.value < a.value || (!(a.value < b.value) && !(b.value > a.value) && b.key < a.key))
            return b;
        return a;
    }
};

struct NullType {};

/* ---- DoubleBuffer (util_type.cuh): two buffers and which one is current */
template <class T>
struct DoubleBuffer {
    T *d_buffers[2];
    int selector;
    DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
    DoubleBuffer(T *d_current, T *d_alternate) : d_buffers{d_current, d_alternate}, selector(0) {}
    T *Current() { return d_buffers[selector]; }
    T *Alternate() { return d_buffers[selector ^ 1]; }
};

/* ---- iterators (the iterator headers) --------------------------------- */
template <class ValueT, class OffsetT = std::ptrdiff_t>
class CountingInputIterator {
public:
    typedef CountingInputIterator self_type;
    typedef OffsetT difference_type;
    typedef ValueT value_type;
    typedef ValueT *pointer;
    typedef ValueT reference;
    typedef std::random_access_iterator_tag iterator_category;

    CountingInputIterator(const ValueT &val = ValueT()) : val_(val) {}
    reference operator*() const { return val_; }
    template <class D>
    reference operator[](D n) const { return static_cast<ValueT>(val_ + static_cast<ValueT>(n)); }
    template <class D>
    self_type operator+(D n) const { return self_type(static_cast<ValueT>(val_ + static_cast<ValueT>(n))); }
    template <class D>
    self_type operator-(D n) const { return self_type(static_cast<ValueT>(val_ - static_cast<ValueT>(n))); }
    difference_type operator-(const self_type &o) const { return static_cast<difference_type>(val_ - o.val_); }
    self_type &operator++() { ++val_; return *this; }
    self_type operator++(int) { self_type r = *this; ++val_; return r; }
    template <class D>
    self_type &operator+=(D n) { val_ += static_cast<ValueT>(n); return *this; }
    bool operator==(const self_type &o) const { return val_ == o.val_; }
    bool operator!=(const self_type &o) const { return !(val_ == o.val_); }

private:
    ValueT val_;
};

template <class ValueT, class OffsetT = std::ptrdiff_t>
class ConstantInputIterator {
public:
    typedef ConstantInputIterator self_type;
    typedef OffsetT difference_type;
    typedef ValueT value_type;
    typedef ValueT *pointer;
    typedef ValueT reference;
    typedef std::random_access_iterator_tag iterator_category;

    ConstantInputIterator(const ValueT &val = ValueT(), OffsetT offset = 0) : val_(val), offset_(offset) {}
    reference operator*() const { return val_; }
    template <class D>
    reference operator[](D) const { return val_; }
    template <class D>
    self_type operator+(D n) const { return self_type(val_, static_cast<OffsetT>(offset_ + n)); }
    template <class D>
    self_type operator-(D n) const { return self_type(val_, static_cast<OffsetT>(offset_ - n)); }
    difference_type operator-(const self_type &o) const { return offset_ - o.offset_; }
    self_type &operator++() { ++offset_; return *this; }
    self_type operator++(int) { self_type r = *this; ++offset_; return r; }
    bool operator==(const self_type &o) const { return offset_ == o.offset_ && val_ == o.val_; }
    bool operator!=(const self_type &o) const { return !(*this == o); }

private:
    ValueT val_;
    OffsetT offset_;
};

/* TransformInputIterator<ValueType, ConversionOp, InputIterator[, Offset]>:
 * reads conversion_op(*it). */
template <class ValueType, class ConversionOp, class InputIteratorT, class OffsetT = std::ptrdiff_t>
class TransformInputIterator {
public:
    typedef TransformInputIterator self_type;
    typedef OffsetT difference_type;
    typedef ValueType value_type;
    typedef ValueType *pointer;
    typedef ValueType reference;
    typedef std::random_access_iterator_tag iterator_category;

    TransformInputIterator(InputIteratorT input_itr, ConversionOp conversion_op)
        : op_(conversion_op), it_(input_itr)
    {
    }
    reference operator*() const { return op_(*it_); }
    template <class D>
    reference operator[](D n) const { return op_(it_[n]); }
    template <class D>
    self_type operator+(D n) const { return self_type(it_ + n, op_); }
    template <class D>
    self_type operator-(D n) const { return self_type(it_ - n, op_); }
    difference_type operator-(const self_type &o) const { return static_cast<difference_type>(it_ - o.it_); }
    self_type &operator++() { ++it_; return *this; }
    self_type operator++(int) { self_type r = *this; ++it_; return r; }
    bool operator==(const self_type &o) const { return it_ == o.it_; }
    bool operator!=(const self_type &o) const { return !(it_ == o.it_); }

private:
    ConversionOp op_;
    InputIteratorT it_;
};

/* ArgIndexInputIterator: reads KeyValuePair{offset, *it}. */
template <class InputIteratorT, class OffsetT = std::ptrdiff_t,
          class OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
class ArgIndexInputIterator {
public:
    typedef ArgIndexInputIterator self_type;
    typedef OffsetT difference_type;
    typedef KeyValuePair<difference_type, OutputValueT> value_type;
    typedef value_type *pointer;
    typedef value_type reference;
    typedef std::random_access_iterator_tag iterator_category;

    ArgIndexInputIterator(InputIteratorT itr, difference_type offset = 0) : itr_(itr), offset_(offset) {}
    reference operator*() const { return value_type(offset_, static_cast<OutputValueT>(itr_[offset_])); }
    template <class D>
    reference operator[](D n) const { return *(*this + n); }
    template <class D>
    self_type operator+(D n) const { return self_type(itr_, static_cast<difference_type>(offset_ + n)); }
    self_type &operator++() { ++offset_; return *this; }
    self_type operator++(int) { self_type r = *this; ++offset_; return r; }
    difference_type operator-(const self_type &o) const { return offset_ - o.offset_; }
    bool operator==(const self_type &o) const { return offset_ == o.offset_ && itr_ == o.itr_; }
    bool operator!=(const self_type &o) const { return !(*this == o); }
    void normalize() { itr_ += offset_; offset_ = 0; }

private:
    InputIteratorT itr_;
    difference_type offset_;
};

/* ---- cache-modified loads and stores (thread/thread_load.cuh,
 * thread_store.cuh, the cache-modified iterators): a CPU has no such cache
 * operators, so each is a plain access; the volatile ones are volatile. */
enum CacheLoadModifier {
    LOAD_DEFAULT,
    LOAD_CA,
    LOAD_CG,
    LOAD_CS,
    LOAD_CV,
    LOAD_LDG,
    LOAD_VOLATILE,
};
enum CacheStoreModifier {
    STORE_DEFAULT,
    STORE_WB,
    STORE_CG,
    STORE_CS,
    STORE_WT,
    STORE_VOLATILE,
};
template <CacheLoadModifier MODIFIER, class InputIteratorT>
inline typename std::iterator_traits<InputIteratorT>::value_type ThreadLoad(InputIteratorT itr)
{
    typedef typename std::iterator_traits<InputIteratorT>::value_type value_t;
    if constexpr ((MODIFIER == LOAD_CV || MODIFIER == LOAD_VOLATILE) && std::is_pointer<InputIteratorT>::value &&
                  std::is_arithmetic<value_t>::value)
        return *static_cast<const volatile value_t *>(itr);
    else
        return *itr;
}
template <CacheStoreModifier MODIFIER, class OutputIteratorT, class T>
inline void ThreadStore(OutputIteratorT itr, T val)
{
    typedef typename std::remove_reference<decltype(*itr)>::type target_t;
    if constexpr ((MODIFIER == STORE_WT || MODIFIER == STORE_VOLATILE) && std::is_pointer<OutputIteratorT>::value &&
                  std::is_arithmetic<target_t>::value)
        *static_cast<volatile target_t *>(itr) = val;
    else
        *itr = val;
}

/* CacheModifiedInputIterator<MODIFIER, ValueType>: reads a ValueType array
 * (through ThreadLoad<MODIFIER>). */
template <CacheLoadModifier MODIFIER, class ValueType, class OffsetT = std::ptrdiff_t>
class CacheModifiedInputIterator {
public:
    typedef CacheModifiedInputIterator self_type;
    typedef OffsetT difference_type;
    typedef ValueType value_type;
    typedef ValueType *pointer;
    typedef ValueType reference;
    typedef std::random_access_iterator_tag iterator_category;

    template <class QualifiedValueType>
    CacheModifiedInputIterator(QualifiedValueType *ptr) : ptr_(const_cast<ValueType *>(ptr))
    {
    }
    reference operator*() const { return ThreadLoad<MODIFIER>(ptr_); }
    template <class D>
    reference operator[](D n) const { return ThreadLoad<MODIFIER>(ptr_ + n); }
    template <class D>
    self_type operator+(D n) const { return self_type(ptr_ + n); }
    template <class D>
    self_type operator-(D n) const { return self_type(ptr_ - n); }
    difference_type operator-(const self_type &o) const { return static_cast<difference_type>(ptr_ - o.ptr_); }
    self_type &operator++() { ++ptr_; return *this; }
    self_type operator++(int) { self_type r = *this; ++ptr_; return r; }
    bool operator==(const self_type &o) const { return ptr_ == o.ptr_; }
    bool operator!=(const self_type &o) const { return ptr_ != o.ptr_; }

private:
    ValueType *ptr_;
};

/* ThreadReduce (thread/thread_reduce.cuh): a fold of a thread's own array,
 * in order. */
template <int LENGTH, class T, class ReductionOp>
inline T ThreadReduce(T (&input)[LENGTH], ReductionOp reduction_op)
{
    T acc = input[0];
    for (int i = 1; i < LENGTH; ++i)
        acc = reduction_op(acc, input[i]);
    return acc;
}
template <int LENGTH, class T, class ReductionOp, class PrefixT>
inline T ThreadReduce(T (&input)[LENGTH], ReductionOp reduction_op, PrefixT prefix)
{
    T acc = prefix;
    for (int i = 0; i < LENGTH; ++i)
        acc = reduction_op(acc, input[i]);
    return acc;
}

/* ---- misc utilities ---------------------------------------------------- */
/* The number of a calling thread's lane in its hardware warp. */
inline unsigned int LaneId() { return ::simtlab_emu::lane_id(); }
inline unsigned int WarpId()
{
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
}
/* Every lane of member_mask gets src_lane's input (within logical warps of
 * LOGICAL_WARP_THREADS lanes). */
template <int LOGICAL_WARP_THREADS, class T>
inline T ShuffleIndex(T input, int src_lane, unsigned int member_mask)
{
    return __shfl_sync(member_mask, input, src_lane, LOGICAL_WARP_THREADS);
}
inline void CTA_SYNC() { __syncthreads(); }
inline void WARP_SYNC(unsigned member_mask) { __syncwarp(member_mask); }
inline int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z)
{
    return ((block_dim_z == 1) ? 0 : static_cast<int>(threadIdx.z) * block_dim_x * block_dim_y) +
           ((block_dim_y == 1) ? 0 : static_cast<int>(threadIdx.y) * block_dim_x) + static_cast<int>(threadIdx.x);
}
template <class T>
constexpr T DivideAndRoundUp(T n, T d) { return (n + d - 1) / d; }

} /* namespace cub */

/* ---- the emulator's machinery ------------------------------------------- */
namespace simtlab_emu {
namespace cub_detail {

using ::simtlab_emu::here;

/* The call site of the CUB member this is a default argument of. */
inline here caller(const char *file = __builtin_FILE(), int line = __builtin_LINE()) { return here{file, line}; }

inline unsigned linear_tid()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

/* The lanes of the caller's logical warp of `logical` lanes (a divisor of
 * the hardware warp's place: lane / logical) that exist in the block. */
struct logical_warp {
    unsigned mask;  /* the hardware lanes taking part */
    unsigned base;  /* the hardware lane of logical lane 0 */
    unsigned lane;  /* the caller's logical lane */
    unsigned count; /* lanes taking part */
};
inline logical_warp find_logical_warp(unsigned logical)
{
    if (!::simtlab_emu::in_kernel())
        return logical_warp{1u, 0u, 0u, 1u}; /* host code: a warp of one lane, as the shuffles do */
    const unsigned tid = linear_tid(), n = block_threads();
    const unsigned hw_lane = tid % 32u, warp_first = tid - hw_lane;
    const unsigned in_warp = n - warp_first >= 32u ? 32u : n - warp_first;
    const unsigned base = hw_lane / logical * logical;
    unsigned count = logical;
    if (base + count > 32u)
        count = 32u - base;
    if (base + count > in_warp)
        count = in_warp - base;
    logical_warp w;
    w.mask = (count >= 32u ? ~0u : ((1u << count) - 1u)) << base;
    w.base = base;
    w.lane = hw_lane - base;
    w.count = count;
    return w;
}

/* Raw storage for one T in user-declared __shared__ memory (never
 * constructed by the program: CUB's TempStorage is raw too). */
template <class T>
struct raw_slot {
    alignas(T) unsigned char bytes[sizeof(T)];
    void put(const T &v) { ::new (static_cast<void *>(bytes)) T(v); }
    const T &get() const { return *std::launder(reinterpret_cast<const T *>(bytes)); }
};

/* One lane's part in a warp collective: its input; the lane's result and
 * the group's aggregate, set by whichever lane arrives last. */
template <class T>
struct lane_part {
    T in;
    T out;   /* reduction: the tree's partial; scan: inclusive */
    T excl;  /* scan: the exclusive value (lanes after the first) */
    T total; /* the aggregate of the valid lanes */
    unsigned valid; /* reduction: lanes whose inputs count */
};

template <class T, class Op>
struct warp_ctx {
    Op *op;
    unsigned logical; /* LOGICAL_WARP_THREADS: the tree's extent */
};

template <class T>
inline lane_part<T> *part_at(void *const lanes[32], unsigned lane)
{
    return static_cast<lane_part<T> *>(lanes[lane]);
}

/* A reduction as shuffle-down steps of 1, 2, 4 ... lanes: a lane adds the
 * value `offset` lanes above it when that lane is valid. Ascending lanes
 * read their partner before the partner's own step, so each step uses the
 * values of the step before, as the shuffles would. */
template <class T, class Op>
inline void reduce_exchange(void *const lanes[32], unsigned mask, void *vctx)
{
    warp_ctx<T, Op> &c = *static_cast<warp_ctx<T, Op> *>(vctx);
    const unsigned base = static_cast<unsigned>(__builtin_ctz(mask));
    const unsigned count = static_cast<unsigned>(__builtin_popcount(mask));
    unsigned valid = part_at<T>(lanes, base)->valid;
    if (valid > count)
        valid = count;
    for (unsigned i = 0; i < count; ++i) {
        lane_part<T> *p = part_at<T>(lanes, base + i);
        p->out = p->in;
    }
    for (unsigned offset = 1; offset < c.logical; offset <<= 1)
        for (unsigned i = 0; i + offset < valid; ++i) {
            lane_part<T> *p = part_at<T>(lanes, base + i);
            p->out = (*c.op)(p->out, part_at<T>(lanes, base + i + offset)->out);
        }
    const T total = part_at<T>(lanes, base)->out;
    for (unsigned i = 0; i < count; ++i)
        part_at<T>(lanes, base + i)->total = total;
}

/* An inclusive scan as a Kogge-Stone ladder (lane i takes lane i - offset's
 * partial on its left), descending so each step reads the step before. */
template <class T, class Op>
inline void scan_exchange(void *const lanes[32], unsigned mask, void *vctx)
{
    warp_ctx<T, Op> &c = *static_cast<warp_ctx<T, Op> *>(vctx);
    const unsigned base = static_cast<unsigned>(__builtin_ctz(mask));
    const unsigned count = static_cast<unsigned>(__builtin_popcount(mask));
    for (unsigned i = 0; i < count; ++i) {
        lane_part<T> *p = part_at<T>(lanes, base + i);
        p->out = p->in;
    }
    for (unsigned offset = 1; offset < count; offset <<= 1)
        for (unsigned i = count - 1; i >= offset; --i) {
            lane_part<T> *p = part_at<T>(lanes, base + i);
            p->out = (*c.op)(part_at<T>(lanes, base + i - offset)->out, p->out);
        }
    const T total = part_at<T>(lanes, base + count - 1)->out;
    for (unsigned i = 0; i < count; ++i) {
        lane_part<T> *p = part_at<T>(lanes, base + i);
        if (i > 0)
            p->excl = part_at<T>(lanes, base + i - 1)->out;
        p->total = total;
    }
}

/* Runs `exchange` over the caller's logical warp; returns the caller's part. */
template <class T, class Op>
inline lane_part<T> warp_run(const logical_warp &w, unsigned logical, const T &x, unsigned valid, Op &op,
                             void (*exchange)(void *const[32], unsigned, void *), const char *name, here where)
{
    lane_part<T> me{x, x, x, x, valid};
    warp_ctx<T, Op> ctx{&op, logical};
    ::simtlab_emu::warp_collective(w.mask, &me, exchange, &ctx, name, where);
    return me;
}

[[noreturn]] inline void fail_block_shape(const char *what, unsigned dx, unsigned dy, unsigned dz, here where)
{
    char text[400];
    std::snprintf(text, sizeof text,
                  "%s at %s:%d is declared for a block of %ux%ux%u threads but the kernel runs in blocks of "
                  "%ux%ux%u: its BLOCK_DIM_X/Y/Z must be the launch's block shape",
                  what, where.file, where.line, dx, dy, dz, blockDim.x, blockDim.y, blockDim.z);
    ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
}

/* Segmented reductions: `valid` carries the lane's flag; bit 31 of the
 * first lane's says whether the flags mark heads (set) or tails. Each
 * segment's reduction goes to its first lane; lane 0 always starts one. */
constexpr unsigned segment_heads = 1u << 31;
template <class T, class Op>
inline void segmented_exchange(void *const lanes[32], unsigned mask, void *vctx)
{
    warp_ctx<T, Op> &c = *static_cast<warp_ctx<T, Op> *>(vctx);
    const unsigned base = static_cast<unsigned>(__builtin_ctz(mask));
    const unsigned count = static_cast<unsigned>(__builtin_popcount(mask));
    const bool heads = (part_at<T>(lanes, base)->valid & segment_heads) != 0;
    unsigned first = 0;
    for (unsigned i = 0; i < count; ++i) {
        lane_part<T> *p = part_at<T>(lanes, base + i);
        const bool flag = (p->valid & ~segment_heads) != 0;
        const bool starts = i == 0 || (heads ? flag : (part_at<T>(lanes, base + i - 1)->valid & ~segment_heads) != 0);
        if (starts) {
            first = i;
            p->out = p->in;
        } else {
            lane_part<T> *f = part_at<T>(lanes, base + first);
            f->out = (*c.op)(f->out, p->in);
            p->out = p->in;
        }
    }
}

/* Broadcast: every lane takes the input of logical lane `valid`. */
template <class T, class Op>
inline void broadcast_exchange(void *const lanes[32], unsigned mask, void *)
{
    const unsigned base = static_cast<unsigned>(__builtin_ctz(mask));
    const unsigned count = static_cast<unsigned>(__builtin_popcount(mask));
    const unsigned src = part_at<T>(lanes, base)->valid;
    if (src >= count)
        return; /* each lane keeps its own (the caller reports it) */
    const T v = part_at<T>(lanes, base + src)->in;
    for (unsigned i = 0; i < count; ++i)
        part_at<T>(lanes, base + i)->out = v;
}

/* ---- radix sort keys as unsigned bit patterns in sort order ----------- */
template <class K, class Enable = void>
struct radix_key;
template <class K>
struct radix_key<K, typename std::enable_if<std::is_integral<K>::value>::type> {
    typedef typename std::make_unsigned<typename std::conditional<std::is_same<K, bool>::value, unsigned char,
                                                                  K>::type>::type bits;
    static bits to_bits(K k)
    {
        bits b;
        std::memcpy(&b, &k, sizeof b);
        if (std::is_signed<K>::value)
            b = static_cast<bits>(b ^ (bits(1) << (sizeof(bits) * 8 - 1)));
        return b;
    }
};
template <class K>
struct radix_key<K, typename std::enable_if<std::is_floating_point<K>::value>::type> {
    typedef typename std::conditional<sizeof(K) == 4, std::uint32_t, std::uint64_t>::type bits;
    static_assert(sizeof(K) == sizeof(bits), "cub::DeviceRadixSort: float and double keys only");
    static bits to_bits(K k)
    {
        bits b;
        std::memcpy(&b, &k, sizeof b);
        const bits sign = bits(1) << (sizeof(bits) * 8 - 1);
        return (b & sign) ? static_cast<bits>(~b) : static_cast<bits>(b ^ sign);
    }
};

} /* namespace cub_detail */
} /* namespace simtlab_emu */

namespace cub {

/* ---- WarpReduce -------------------------------------------------------- */
/* WarpReduce<T, LOGICAL_WARP_THREADS>: a reduction across a logical warp.
 * The result is the aggregate in logical lane 0 only (other lanes hold
 * partial reductions, as on a GPU). Every lane of the logical warp calls. */
template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
    static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                  "cub::WarpReduce: LOGICAL_WARP_THREADS must be 1 to 32");
    typedef ::simtlab_emu::here here;

public:
    /* The emulator's warp primitives need no shared memory. */
    struct TempStorage {
        unsigned char unused;
    };

    WarpReduce(TempStorage &) {}
    WarpReduce() {}

    T Sum(T input, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return run(input, LOGICAL_WARP_THREADS, op, "cub::WarpReduce::Sum", where);
    }
    T Sum(T input, int valid_items, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return run(input, valid_items, op, "cub::WarpReduce::Sum", where);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp reduction_op, here where = ::simtlab_emu::cub_detail::caller())
    {
        return run(input, LOGICAL_WARP_THREADS, reduction_op, "cub::WarpReduce::Reduce", where);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp reduction_op, int valid_items, here where = ::simtlab_emu::cub_detail::caller())
    {
        return run(input, valid_items, reduction_op, "cub::WarpReduce::Reduce", where);
    }

    /* Segments marked by head flags (or tail flags): each segment's sum to
     * its first lane. */
    template <class FlagT>
    T HeadSegmentedSum(T input, FlagT head_flag, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return segmented(input, head_flag != FlagT(0), true, op, "cub::WarpReduce::HeadSegmentedSum", where);
    }
    template <class FlagT>
    T TailSegmentedSum(T input, FlagT tail_flag, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return segmented(input, tail_flag != FlagT(0), false, op, "cub::WarpReduce::TailSegmentedSum", where);
    }
    template <class ReductionOp, class FlagT>
    T HeadSegmentedReduce(T input, FlagT head_flag, ReductionOp reduction_op,
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        return segmented(input, head_flag != FlagT(0), true, reduction_op, "cub::WarpReduce::HeadSegmentedReduce",
                         where);
    }
    template <class ReductionOp, class FlagT>
    T TailSegmentedReduce(T input, FlagT tail_flag, ReductionOp reduction_op,
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        return segmented(input, tail_flag != FlagT(0), false, reduction_op, "cub::WarpReduce::TailSegmentedReduce",
                         where);
    }

private:
    template <class Op>
    T segmented(const T &input, bool flag, bool heads, Op &op, const char *name, here where)
    {
        namespace d = ::simtlab_emu::cub_detail;
        const d::logical_warp w = d::find_logical_warp(LOGICAL_WARP_THREADS);
        const unsigned tag = (flag ? 1u : 0u) | (heads ? d::segment_heads : 0u);
        return d::warp_run<T, Op>(w, LOGICAL_WARP_THREADS, input, tag, op, &d::segmented_exchange<T, Op>, name,
                                  where)
            .out;
    }
    template <class Op>
    T run(const T &input, int valid_items, Op &op, const char *name, here where)
    {
        namespace d = ::simtlab_emu::cub_detail;
        const d::logical_warp w = d::find_logical_warp(LOGICAL_WARP_THREADS);
        const unsigned valid = valid_items < 0 ? 0u : static_cast<unsigned>(valid_items);
        return d::warp_run<T, Op>(w, LOGICAL_WARP_THREADS, input, valid, op, &d::reduce_exchange<T, Op>, name,
                                  where)
            .out;
    }
};

/* ---- WarpScan ---------------------------------------------------------- */
template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
    static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32,
                  "cub::WarpScan: LOGICAL_WARP_THREADS must be 1 to 32");
    typedef ::simtlab_emu::here here;
    typedef ::simtlab_emu::cub_detail::lane_part<T> part;

public:
    struct TempStorage {
        unsigned char unused;
    };

    WarpScan(TempStorage &) {}
    WarpScan() {}

    void InclusiveSum(T input, T &inclusive_output, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        inclusive_output = scan(input, op, "cub::WarpScan::InclusiveSum", where).out;
    }
    void InclusiveSum(T input, T &inclusive_output, T &warp_aggregate,
                      here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const part p = scan(input, op, "cub::WarpScan::InclusiveSum", where);
        inclusive_output = p.out;
        warp_aggregate = p.total;
    }
    void ExclusiveSum(T input, T &exclusive_output, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const part p = scan(input, op, "cub::WarpScan::ExclusiveSum", where);
        exclusive_output = lane() == 0 ? T{} : p.excl;
    }
    void ExclusiveSum(T input, T &exclusive_output, T &warp_aggregate,
                      here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const part p = scan(input, op, "cub::WarpScan::ExclusiveSum", where);
        exclusive_output = lane() == 0 ? T{} : p.excl;
        warp_aggregate = p.total;
    }
    template <class ScanOp>
    void InclusiveScan(T input, T &inclusive_output, ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        inclusive_output = scan(input, scan_op, "cub::WarpScan::InclusiveScan", where).out;
    }
    template <class ScanOp>
    void InclusiveScan(T input, T &inclusive_output, ScanOp scan_op, T &warp_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const part p = scan(input, scan_op, "cub::WarpScan::InclusiveScan", where);
        inclusive_output = p.out;
        warp_aggregate = p.total;
    }
    /* Without an initial value lane 0's output is undefined in CUB; the
     * emulator leaves it unchanged. */
    template <class ScanOp>
    void ExclusiveScan(T input, T &exclusive_output, ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const part p = scan(input, scan_op, "cub::WarpScan::ExclusiveScan", where);
        if (lane() != 0)
            exclusive_output = p.excl;
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T &exclusive_output, T initial_value, ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const part p = scan(input, scan_op, "cub::WarpScan::ExclusiveScan", where);
        exclusive_output = lane() == 0 ? initial_value : scan_op(initial_value, p.excl);
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T &exclusive_output, T initial_value, ScanOp scan_op, T &warp_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const part p = scan(input, scan_op, "cub::WarpScan::ExclusiveScan", where);
        exclusive_output = lane() == 0 ? initial_value : scan_op(initial_value, p.excl);
        warp_aggregate = p.total;
    }
    /* Every lane gets src_lane's input. */
    T Broadcast(T input, unsigned int src_lane, here where = ::simtlab_emu::cub_detail::caller())
    {
        namespace d = ::simtlab_emu::cub_detail;
        const d::logical_warp w = d::find_logical_warp(LOGICAL_WARP_THREADS);
        if (src_lane >= w.count && ::simtlab_emu::in_kernel()) {
            char text[300];
            std::snprintf(text, sizeof text, "cub::WarpScan::Broadcast at %s:%d: src_lane %u is not a lane of the "
                                                   "logical warp of %u lanes",
                          where.file, where.line, src_lane, w.count);
            ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
        }
        ::cub::Sum unused;
        return d::warp_run<T, ::cub::Sum>(w, LOGICAL_WARP_THREADS, input, src_lane, unused,
                                         &d::broadcast_exchange<T, ::cub::Sum>, "cub::WarpScan::Broadcast", where)
            .out;
    }

private:
    static unsigned lane() { return ::simtlab_emu::cub_detail::find_logical_warp(LOGICAL_WARP_THREADS).lane; }

    template <class Op>
    part scan(const T &input, Op &op, const char *name, here where)
    {
        namespace d = ::simtlab_emu::cub_detail;
        const d::logical_warp w = d::find_logical_warp(LOGICAL_WARP_THREADS);
        return d::warp_run<T, Op>(w, LOGICAL_WARP_THREADS, input, 32u, op, &d::scan_exchange<T, Op>, name, where);
    }
};

} /* namespace cub */

#endif /* SIMTLAB_EMU_CUB_CORE_HPP */
