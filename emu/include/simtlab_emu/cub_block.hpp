/* simtlab CPU emulator — the emulator's own CUB, part 2: the block-level
 * primitives (BlockReduce, BlockScan, BlockLoad, BlockStore and the direct
 * load/store functions, BlockExchange, BlockRadixSort, BlockDiscontinuity,
 * BlockHistogram). Written here from CUB's documented API.
 *
 * How a block reduction or scan computes: each hardware warp reduces or
 * scans its lanes in one warp collective (cub_core.hpp), the last lane of
 * each warp puts the warp's aggregate in the TempStorage the program
 * declared __shared__, the block waits at a barrier, and then each thread
 * combines the aggregates of the warps before its own (thread 0 combines
 * all of them for a reduction). This is CUB's "warp reductions" and "warp
 * scans" shape; the ALGORITHM parameter is accepted and changes nothing
 * (every algorithm gives the same result up to floating-point rounding;
 * here every operator is applied in order, so a non-commutative one is
 * fine under all three). As in CUB, the TempStorage may be reused only
 * after a __syncthreads, every thread of the block must call, and the
 * block must have BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z threads (a
 * different shape fails the launch, naming the call).
 */
#ifndef SIMTLAB_EMU_CUB_BLOCK_HPP
#define SIMTLAB_EMU_CUB_BLOCK_HPP

#include <simtlab_emu/cub_core.hpp>

#include <algorithm>
#include <iterator>
#include <vector>

namespace cub {

enum BlockReduceAlgorithm {
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    BLOCK_REDUCE_RAKING,
    BLOCK_REDUCE_WARP_REDUCTIONS,
};
enum BlockScanAlgorithm {
    BLOCK_SCAN_RAKING,
    BLOCK_SCAN_RAKING_MEMOIZE,
    BLOCK_SCAN_WARP_SCANS,
};

} /* namespace cub */

namespace simtlab_emu {
namespace cub_detail {

/* What a block primitive shares between its calls' phases: one slot per
 * warp for the warps' aggregates, and one for a prefix callback's value. */
template <class T, unsigned THREADS>
struct block_storage {
    static constexpr unsigned warps = (THREADS + 31u) / 32u;
    raw_slot<T> warp_total[warps];
    raw_slot<T> prefix;
};

/* A thread's items folded in order, before a block-wide reduction or scan
 * (op by reference: the same operator object serves both). */
template <class T, int N, class Op>
inline T thread_fold(T (&inputs)[N], Op &op)
{
    T acc = inputs[0];
    for (int i = 1; i < N; ++i)
        acc = op(acc, inputs[i]);
    return acc;
}

/* The checks every block primitive makes on entry; false in host code,
 * where the caller is a block of one thread. */
inline bool enter_block(const char *what, unsigned dx, unsigned dy, unsigned dz, here where)
{
    if (!::simtlab_emu::in_kernel())
        return false;
    if (blockDim.x != dx || blockDim.y != dy || blockDim.z != dz)
        fail_block_shape(what, dx, dy, dz, where);
    return true;
}

/* Block-wide scan of one value per thread.
 *   inclusive: op over the inputs of threads 0..me
 *   exclusive: op over the inputs of threads 0..me-1 (has_exclusive false for thread 0)
 *   aggregate: op over every thread's input */
template <class T>
struct block_scan_result {
    T inclusive;
    T exclusive;
    bool has_exclusive;
    T aggregate;
};

template <class T, unsigned THREADS, class Op>
inline block_scan_result<T> block_scan(block_storage<T, THREADS> &s, const T &x, Op &op, const char *what,
                                       unsigned dx, unsigned dy, unsigned dz, here where)
{
    if (!enter_block(what, dx, dy, dz, where))
        return block_scan_result<T>{x, x, false, x};
    const logical_warp w = find_logical_warp(32u);
    const unsigned warp = linear_tid() / 32u;
    const lane_part<T> p = warp_run<T, Op>(w, 32u, x, 32u, op, &scan_exchange<T, Op>, what, where);
    if (w.lane == w.count - 1)
        s.warp_total[warp].put(p.total);
    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
    block_scan_result<T> r{p.out, p.excl, w.lane > 0, s.warp_total[0].get()};
    if (warp > 0) {
        T before = s.warp_total[0].get();
        for (unsigned i = 1; i < warp; ++i)
            before = op(before, s.warp_total[i].get());
        r.inclusive = op(before, p.out);
        r.exclusive = w.lane > 0 ? op(before, p.excl) : before;
        r.has_exclusive = true;
    }
    for (unsigned i = 1; i < (THREADS + 31u) / 32u; ++i)
        r.aggregate = op(r.aggregate, s.warp_total[i].get());
    return r;
}

/* The block prefix of a callback: warp 0 calls it with the aggregate,
 * lane 0's value goes to every thread (a second barrier). */
template <class T, unsigned THREADS, class PrefixOp>
inline T block_prefix(block_storage<T, THREADS> &s, const T &aggregate, PrefixOp &prefix_op, here where)
{
    if (!::simtlab_emu::in_kernel())
        return prefix_op(aggregate);
    if (linear_tid() < 32u) {
        const T v = prefix_op(aggregate);
        if (linear_tid() == 0)
            s.prefix.put(v);
    }
    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
    return s.prefix.get();
}

/* Block-wide reduction; the aggregate is returned to thread 0, the others
 * get their warp's partial (as on a GPU: use thread 0's). */
template <class T, unsigned THREADS, class Op>
inline T block_reduce(block_storage<T, THREADS> &s, const T &x, Op &op, unsigned valid, const char *what,
                      unsigned dx, unsigned dy, unsigned dz, here where)
{
    if (!enter_block(what, dx, dy, dz, where))
        return x;
    const logical_warp w = find_logical_warp(32u);
    const unsigned warp = linear_tid() / 32u, first = warp * 32u;
    const unsigned in_warp = valid > first ? valid - first : 0u;
    const lane_part<T> p = warp_run<T, Op>(w, 32u, x, in_warp, op, &reduce_exchange<T, Op>, what, where);
    if (w.lane == 0 && in_warp > 0)
        s.warp_total[warp].put(p.total);
    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
    if (linear_tid() != 0)
        return p.out;
    const unsigned warps = valid >= THREADS ? (THREADS + 31u) / 32u : (valid + 31u) / 32u;
    if (warps == 0)
        return x; /* no valid item: CUB leaves the result undefined */
    T total = s.warp_total[0].get();
    for (unsigned i = 1; i < warps; ++i)
        total = op(total, s.warp_total[i].get());
    return total;
}

} /* namespace cub_detail */
} /* namespace simtlab_emu */

namespace cub {

/* ---- BlockReduce ------------------------------------------------------- */
template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
    static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1 &&
                      BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z <= 1024,
                  "cub::BlockReduce: a block has 1 to 1024 threads");
    static constexpr unsigned THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    typedef ::simtlab_emu::here here;
    typedef ::simtlab_emu::cub_detail::block_storage<T, THREADS> storage;

public:
    struct TempStorage {
        storage s;
    };

    /* Without a TempStorage: the block's own __shared__ one. */
    BlockReduce() : s_(::simtlab_emu::shared_var<TempStorage>([] {}).s) {}
    BlockReduce(TempStorage &temp_storage) : s_(temp_storage.s) {}

    T Sum(T input, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return run(input, op, THREADS, "cub::BlockReduce::Sum", where);
    }
    T Sum(T input, int num_valid, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return run(input, op, clamp(num_valid), "cub::BlockReduce::Sum", where);
    }
    template <int ITEMS_PER_THREAD>
    T Sum(T (&inputs)[ITEMS_PER_THREAD], here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        return run(::simtlab_emu::cub_detail::thread_fold(inputs, op), op, THREADS, "cub::BlockReduce::Sum", where);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp reduction_op, here where = ::simtlab_emu::cub_detail::caller())
    {
        return run(input, reduction_op, THREADS, "cub::BlockReduce::Reduce", where);
    }
    template <class ReductionOp>
    T Reduce(T input, ReductionOp reduction_op, int num_valid, here where = ::simtlab_emu::cub_detail::caller())
    {
        return run(input, reduction_op, clamp(num_valid), "cub::BlockReduce::Reduce", where);
    }
    template <int ITEMS_PER_THREAD, class ReductionOp>
    T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp reduction_op,
             here where = ::simtlab_emu::cub_detail::caller())
    {
        return run(::simtlab_emu::cub_detail::thread_fold(inputs, reduction_op), reduction_op, THREADS,
                   "cub::BlockReduce::Reduce", where);
    }

private:
    static unsigned clamp(int num_valid)
    {
        return num_valid < 0 ? 0u : static_cast<unsigned>(num_valid) > THREADS ? THREADS
                                                                               : static_cast<unsigned>(num_valid);
    }
    template <class Op>
    T run(const T &x, Op &op, unsigned valid, const char *what, here where)
    {
        return ::simtlab_emu::cub_detail::block_reduce<T, THREADS, Op>(s_, x, op, valid, what, BLOCK_DIM_X,
                                                                        BLOCK_DIM_Y, BLOCK_DIM_Z, where);
    }

    storage &s_;
};

/* ---- BlockScan --------------------------------------------------------- */
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
    static_assert(BLOCK_DIM_X >= 1 && BLOCK_DIM_Y >= 1 && BLOCK_DIM_Z >= 1 &&
                      BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z <= 1024,
                  "cub::BlockScan: a block has 1 to 1024 threads");
    static constexpr unsigned THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    typedef ::simtlab_emu::here here;
    typedef ::simtlab_emu::cub_detail::block_storage<T, THREADS> storage;
    typedef ::simtlab_emu::cub_detail::block_scan_result<T> result;

public:
    struct TempStorage {
        storage s;
    };

    BlockScan() : s_(::simtlab_emu::shared_var<TempStorage>([] {}).s) {}
    BlockScan(TempStorage &temp_storage) : s_(temp_storage.s) {}

    /* ---- one item per thread ---- */
    void ExclusiveSum(T input, T &output, here where = ::simtlab_emu::cub_detail::caller())
    {
        T agg;
        ExclusiveSum(input, output, agg, where);
    }
    void ExclusiveSum(T input, T &output, T &block_aggregate, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const result r = scan(input, op, "cub::BlockScan::ExclusiveSum", where);
        output = r.has_exclusive ? r.exclusive : T{};
        block_aggregate = r.aggregate;
    }
    template <class PrefixCallbackOp>
    auto ExclusiveSum(T input, T &output, PrefixCallbackOp &prefix_op,
                      here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        ::cub::Sum op;
        const result r = scan(input, op, "cub::BlockScan::ExclusiveSum", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        output = r.has_exclusive ? op(prefix, r.exclusive) : prefix;
    }
    void InclusiveSum(T input, T &output, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        output = scan(input, op, "cub::BlockScan::InclusiveSum", where).inclusive;
    }
    void InclusiveSum(T input, T &output, T &block_aggregate, here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const result r = scan(input, op, "cub::BlockScan::InclusiveSum", where);
        output = r.inclusive;
        block_aggregate = r.aggregate;
    }
    template <class PrefixCallbackOp>
    auto InclusiveSum(T input, T &output, PrefixCallbackOp &prefix_op,
                      here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        ::cub::Sum op;
        const result r = scan(input, op, "cub::BlockScan::InclusiveSum", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        output = op(prefix, r.inclusive);
    }
    /* Without an initial value thread 0's output is undefined in CUB; the
     * emulator leaves it unchanged. */
    template <class ScanOp>
    void ExclusiveScan(T input, T &output, ScanOp scan_op, here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        if (r.has_exclusive)
            output = r.exclusive;
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        output = r.has_exclusive ? scan_op(initial_value, r.exclusive) : initial_value;
    }
    template <class ScanOp>
    void ExclusiveScan(T input, T &output, T initial_value, ScanOp scan_op, T &block_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        output = r.has_exclusive ? scan_op(initial_value, r.exclusive) : initial_value;
        block_aggregate = r.aggregate;
    }
    template <class ScanOp, class PrefixCallbackOp>
    auto ExclusiveScan(T input, T &output, ScanOp scan_op, PrefixCallbackOp &prefix_op,
                       here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        output = r.has_exclusive ? scan_op(prefix, r.exclusive) : prefix;
    }
    template <class ScanOp>
    void InclusiveScan(T input, T &output, ScanOp scan_op, here where = ::simtlab_emu::cub_detail::caller())
    {
        output = scan(input, scan_op, "cub::BlockScan::InclusiveScan", where).inclusive;
    }
    template <class ScanOp>
    void InclusiveScan(T input, T &output, ScanOp scan_op, T &block_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::InclusiveScan", where);
        output = r.inclusive;
        block_aggregate = r.aggregate;
    }
    template <class ScanOp, class PrefixCallbackOp>
    auto InclusiveScan(T input, T &output, ScanOp scan_op, PrefixCallbackOp &prefix_op,
                       here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        const result r = scan(input, scan_op, "cub::BlockScan::InclusiveScan", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        output = scan_op(prefix, r.inclusive);
    }

    /* ---- ITEMS_PER_THREAD items per thread, blocked arrangement ---- */
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        T agg;
        ExclusiveSum(input, output, agg, where);
    }
    template <int N>
    void ExclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate,
                      here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const result r = scan_items(input, op, "cub::BlockScan::ExclusiveSum", where);
        T running = r.has_exclusive ? r.exclusive : T{};
        exclusive_items(input, output, op, running);
        block_aggregate = r.aggregate;
    }
    template <int N, class PrefixCallbackOp>
    auto ExclusiveSum(T (&input)[N], T (&output)[N], PrefixCallbackOp &prefix_op,
                      here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        ::cub::Sum op;
        const result r = scan_items(input, op, "cub::BlockScan::ExclusiveSum", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        T running = r.has_exclusive ? op(prefix, r.exclusive) : prefix;
        exclusive_items(input, output, op, running);
    }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        T agg;
        InclusiveSum(input, output, agg, where);
    }
    template <int N>
    void InclusiveSum(T (&input)[N], T (&output)[N], T &block_aggregate,
                      here where = ::simtlab_emu::cub_detail::caller())
    {
        ::cub::Sum op;
        const result r = scan_items(input, op, "cub::BlockScan::InclusiveSum", where);
        inclusive_items(input, output, op, r.has_exclusive, r.exclusive);
        block_aggregate = r.aggregate;
    }
    template <int N, class PrefixCallbackOp>
    auto InclusiveSum(T (&input)[N], T (&output)[N], PrefixCallbackOp &prefix_op,
                      here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        ::cub::Sum op;
        const result r = scan_items(input, op, "cub::BlockScan::InclusiveSum", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        inclusive_items(input, output, op, true, r.has_exclusive ? op(prefix, r.exclusive) : prefix);
    }
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        T agg;
        ExclusiveScan(input, output, initial_value, scan_op, agg, where);
    }
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], T initial_value, ScanOp scan_op, T &block_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan_items(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        T running = r.has_exclusive ? scan_op(initial_value, r.exclusive) : initial_value;
        exclusive_items(input, output, scan_op, running);
        block_aggregate = r.aggregate;
    }
    /* Without an initial value, thread 0's first output is left unchanged. */
    template <int N, class ScanOp>
    void ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan_items(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        if (r.has_exclusive) {
            T running = r.exclusive;
            exclusive_items(input, output, scan_op, running);
            return;
        }
        T running = input[0];
        for (int i = 1; i < N; ++i) {
            const T next = scan_op(running, input[i]);
            output[i] = running;
            running = next;
        }
    }
    template <int N, class ScanOp, class PrefixCallbackOp>
    auto ExclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, PrefixCallbackOp &prefix_op,
                       here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        const result r = scan_items(input, scan_op, "cub::BlockScan::ExclusiveScan", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        T running = r.has_exclusive ? scan_op(prefix, r.exclusive) : prefix;
        exclusive_items(input, output, scan_op, running);
    }
    template <int N, class ScanOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        T agg;
        InclusiveScan(input, output, scan_op, agg, where);
    }
    template <int N, class ScanOp>
    void InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, T &block_aggregate,
                       here where = ::simtlab_emu::cub_detail::caller())
    {
        const result r = scan_items(input, scan_op, "cub::BlockScan::InclusiveScan", where);
        inclusive_items(input, output, scan_op, r.has_exclusive, r.exclusive);
        block_aggregate = r.aggregate;
    }
    template <int N, class ScanOp, class PrefixCallbackOp>
    auto InclusiveScan(T (&input)[N], T (&output)[N], ScanOp scan_op, PrefixCallbackOp &prefix_op,
                       here where = ::simtlab_emu::cub_detail::caller())
        -> decltype(prefix_op(std::declval<T>()), void())
    {
        const result r = scan_items(input, scan_op, "cub::BlockScan::InclusiveScan", where);
        const T prefix = ::simtlab_emu::cub_detail::block_prefix(s_, r.aggregate, prefix_op, where);
        inclusive_items(input, output, scan_op, true, r.has_exclusive ? scan_op(prefix, r.exclusive) : prefix);
    }

private:
    /* output may alias input: each input is read before its output is written */
    template <int N, class Op>
    static void exclusive_items(T (&input)[N], T (&output)[N], Op &op, T running)
    {
        for (int i = 0; i < N; ++i) {
            const T next = op(running, input[i]);
            output[i] = running;
            running = next;
        }
    }
    template <int N, class Op>
    static void inclusive_items(T (&input)[N], T (&output)[N], Op &op, bool has_prefix, const T &prefix)
    {
        T running = has_prefix ? op(prefix, input[0]) : input[0];
        output[0] = running;
        for (int i = 1; i < N; ++i) {
            running = op(running, input[i]);
            output[i] = running;
        }
    }
    template <class Op>
    result scan(const T &x, Op &op, const char *what, here where)
    {
        return ::simtlab_emu::cub_detail::block_scan<T, THREADS, Op>(s_, x, op, what, BLOCK_DIM_X, BLOCK_DIM_Y,
                                                                      BLOCK_DIM_Z, where);
    }
    /* the scan of each thread's items folded in order */
    template <int N, class Op>
    result scan_items(T (&items)[N], Op &op, const char *what, here where)
    {
        return scan(::simtlab_emu::cub_detail::thread_fold(items, op), op, what, where);
    }

    storage &s_;
};

/* ---- direct loads and stores (block/block_load.cuh, block_store.cuh) ----
 * Blocked: thread t holds items t*N .. t*N+N-1. Striped: thread t holds
 * items t, t+BLOCK_THREADS, ... */
template <class InputT, int N, class InputIteratorT>
inline void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[N])
{
    for (int i = 0; i < N; ++i)
        items[i] = block_itr[linear_tid * N + i];
}
template <class InputT, int N, class InputIteratorT>
inline void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[N], int valid_items)
{
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items)
            items[i] = block_itr[linear_tid * N + i];
}
template <class InputT, class DefaultT, int N, class InputIteratorT>
inline void LoadDirectBlocked(int linear_tid, InputIteratorT block_itr, InputT (&items)[N], int valid_items,
                              DefaultT oob_default)
{
    for (int i = 0; i < N; ++i)
        items[i] = linear_tid * N + i < valid_items ? InputT(block_itr[linear_tid * N + i]) : InputT(oob_default);
}
template <int BLOCK_THREADS, class InputT, int N, class InputIteratorT>
inline void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[N])
{
    for (int i = 0; i < N; ++i)
        items[i] = block_itr[linear_tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, class InputT, int N, class InputIteratorT>
inline void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[N], int valid_items)
{
    for (int i = 0; i < N; ++i)
        if (linear_tid + i * BLOCK_THREADS < valid_items)
            items[i] = block_itr[linear_tid + i * BLOCK_THREADS];
}
template <int BLOCK_THREADS, class InputT, class DefaultT, int N, class InputIteratorT>
inline void LoadDirectStriped(int linear_tid, InputIteratorT block_itr, InputT (&items)[N], int valid_items,
                              DefaultT oob_default)
{
    for (int i = 0; i < N; ++i)
        items[i] = linear_tid + i * BLOCK_THREADS < valid_items ? InputT(block_itr[linear_tid + i * BLOCK_THREADS])
                                                                : InputT(oob_default);
}
template <class T, int N, class OutputIteratorT>
inline void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[N])
{
    for (int i = 0; i < N; ++i)
        block_itr[linear_tid * N + i] = items[i];
}
template <class T, int N, class OutputIteratorT>
inline void StoreDirectBlocked(int linear_tid, OutputIteratorT block_itr, T (&items)[N], int valid_items)
{
    for (int i = 0; i < N; ++i)
        if (linear_tid * N + i < valid_items)
            block_itr[linear_tid * N + i] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class OutputIteratorT>
inline void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[N])
{
    for (int i = 0; i < N; ++i)
        block_itr[linear_tid + i * BLOCK_THREADS] = items[i];
}
template <int BLOCK_THREADS, class T, int N, class OutputIteratorT>
inline void StoreDirectStriped(int linear_tid, OutputIteratorT block_itr, T (&items)[N], int valid_items)
{
    for (int i = 0; i < N; ++i)
        if (linear_tid + i * BLOCK_THREADS < valid_items)
            block_itr[linear_tid + i * BLOCK_THREADS] = items[i];
}

enum BlockLoadAlgorithm {
    BLOCK_LOAD_DIRECT,
    BLOCK_LOAD_STRIPED,
    BLOCK_LOAD_VECTORIZE,
    BLOCK_LOAD_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE,
    BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};
enum BlockStoreAlgorithm {
    BLOCK_STORE_DIRECT,
    BLOCK_STORE_STRIPED,
    BLOCK_STORE_VECTORIZE,
    BLOCK_STORE_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE,
    BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

/* BlockLoad / BlockStore: every algorithm but STRIPED leaves (or takes)
 * the items in the blocked arrangement, as in CUB; the emulator reads and
 * writes them there directly (the transposing algorithms exist on a GPU to
 * coalesce the accesses, which a CPU does not need). The TempStorage is
 * accepted and unused; a __syncthreads the program puts between uses
 * costs nothing wrong. */
template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockLoad() : tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    BlockLoad(TempStorage &) : tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

    template <class InputIteratorT>
    void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD])
    {
        if (ALGORITHM == BLOCK_LOAD_STRIPED)
            LoadDirectStriped<THREADS>(tid_, block_itr, items);
        else
            LoadDirectBlocked(tid_, block_itr, items);
    }
    template <class InputIteratorT>
    void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items)
    {
        if (ALGORITHM == BLOCK_LOAD_STRIPED)
            LoadDirectStriped<THREADS>(tid_, block_itr, items, valid_items);
        else
            LoadDirectBlocked(tid_, block_itr, items, valid_items);
    }
    template <class InputIteratorT, class DefaultT>
    void Load(InputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, DefaultT oob_default)
    {
        if (ALGORITHM == BLOCK_LOAD_STRIPED)
            LoadDirectStriped<THREADS>(tid_, block_itr, items, valid_items, oob_default);
        else
            LoadDirectBlocked(tid_, block_itr, items, valid_items, oob_default);
    }

private:
    int tid_;
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

public:
    struct TempStorage {
        unsigned char unused;
    };
    BlockStore() : tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}
    BlockStore(TempStorage &) : tid_(RowMajorTid(BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z)) {}

    template <class OutputIteratorT>
    void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD])
    {
        if (ALGORITHM == BLOCK_STORE_STRIPED)
            StoreDirectStriped<THREADS>(tid_, block_itr, items);
        else
            StoreDirectBlocked(tid_, block_itr, items);
    }
    template <class OutputIteratorT>
    void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items)
    {
        if (ALGORITHM == BLOCK_STORE_STRIPED)
            StoreDirectStriped<THREADS>(tid_, block_itr, items, valid_items);
        else
            StoreDirectBlocked(tid_, block_itr, items, valid_items);
    }

private:
    int tid_;
};

/* ---- BlockExchange ------------------------------------------------------
 * Rearranges a block's items between the blocked, striped and warp-striped
 * arrangements (and scatters by rank) through the TempStorage: each thread
 * writes its items where they belong, the block waits at a barrier, each
 * thread reads its new items. As in CUB, a __syncthreads must come before
 * the TempStorage is used again. */
template <class InputT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int N = ITEMS_PER_THREAD;
    typedef ::simtlab_emu::here here;
    typedef ::simtlab_emu::cub_detail::raw_slot<InputT> slot;

public:
    struct TempStorage {
        slot items[THREADS * N];
    };

    BlockExchange() : s_(::simtlab_emu::shared_var<TempStorage>([] {})) {}
    BlockExchange(TempStorage &temp_storage) : s_(temp_storage) {}

    template <class OutputT>
    void StripedToBlocked(const InputT (&input)[N], OutputT (&output)[N],
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        move(input, output, &striped, &blocked, "cub::BlockExchange::StripedToBlocked", where);
    }
    template <class OutputT>
    void BlockedToStriped(const InputT (&input)[N], OutputT (&output)[N],
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        move(input, output, &blocked, &striped, "cub::BlockExchange::BlockedToStriped", where);
    }
    template <class OutputT>
    void WarpStripedToBlocked(const InputT (&input)[N], OutputT (&output)[N],
                              here where = ::simtlab_emu::cub_detail::caller())
    {
        move(input, output, &warp_striped, &blocked, "cub::BlockExchange::WarpStripedToBlocked", where);
    }
    template <class OutputT>
    void BlockedToWarpStriped(const InputT (&input)[N], OutputT (&output)[N],
                              here where = ::simtlab_emu::cub_detail::caller())
    {
        move(input, output, &blocked, &warp_striped, "cub::BlockExchange::BlockedToWarpStriped", where);
    }
    /* in place (CUB 1.x's form) */
    void StripedToBlocked(InputT (&items)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        move(items, items, &striped, &blocked, "cub::BlockExchange::StripedToBlocked", where);
    }
    void BlockedToStriped(InputT (&items)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        move(items, items, &blocked, &striped, "cub::BlockExchange::BlockedToStriped", where);
    }
    void WarpStripedToBlocked(InputT (&items)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        move(items, items, &warp_striped, &blocked, "cub::BlockExchange::WarpStripedToBlocked", where);
    }
    void BlockedToWarpStriped(InputT (&items)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        move(items, items, &blocked, &warp_striped, "cub::BlockExchange::BlockedToWarpStriped", where);
    }
    /* item i goes to rank ranks[i] of the block; then read blocked or striped */
    template <class OutputT, class OffsetT>
    void ScatterToBlocked(const InputT (&input)[N], OutputT (&output)[N], OffsetT (&ranks)[N],
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        scatter(input, output, ranks, &blocked, "cub::BlockExchange::ScatterToBlocked", where);
    }
    template <class OutputT, class OffsetT>
    void ScatterToStriped(const InputT (&input)[N], OutputT (&output)[N], OffsetT (&ranks)[N],
                          here where = ::simtlab_emu::cub_detail::caller())
    {
        scatter(input, output, ranks, &striped, "cub::BlockExchange::ScatterToStriped", where);
    }
    template <class OffsetT>
    void ScatterToBlocked(InputT (&items)[N], OffsetT (&ranks)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        scatter(items, items, ranks, &blocked, "cub::BlockExchange::ScatterToBlocked", where);
    }
    template <class OffsetT>
    void ScatterToStriped(InputT (&items)[N], OffsetT (&ranks)[N], here where = ::simtlab_emu::cub_detail::caller())
    {
        scatter(items, items, ranks, &striped, "cub::BlockExchange::ScatterToStriped", where);
    }

private:
    static int blocked(int t, int i) { return t * N + i; }
    static int striped(int t, int i) { return i * THREADS + t; }
    static int warp_striped(int t, int i) { return (t / 32) * 32 * N + i * 32 + t % 32; }

    template <class OutputT>
    void move(const InputT (&input)[N], OutputT (&output)[N], int (*from)(int, int), int (*to)(int, int),
              const char *what, here where)
    {
        const bool in_block = ::simtlab_emu::cub_detail::enter_block(what, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                                                                     where);
        const int t = in_block ? static_cast<int>(::simtlab_emu::cub_detail::linear_tid()) : 0;
        for (int i = 0; i < N; ++i)
            s_.items[from(t, i)].put(input[i]);
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        for (int i = 0; i < N; ++i)
            output[i] = s_.items[to(t, i)].get();
    }
    template <class OutputT, class OffsetT>
    void scatter(const InputT (&input)[N], OutputT (&output)[N], OffsetT (&ranks)[N], int (*to)(int, int),
                 const char *what, here where)
    {
        const bool in_block = ::simtlab_emu::cub_detail::enter_block(what, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                                                                     where);
        const int t = in_block ? static_cast<int>(::simtlab_emu::cub_detail::linear_tid()) : 0;
        for (int i = 0; i < N; ++i) {
            const long long r = static_cast<long long>(ranks[i]);
            if (r < 0 || r >= THREADS * N) {
                char text[300];
                std::snprintf(text, sizeof text, "%s at %s:%d: rank %lld of item %d is outside the block's %d items",
                              what, where.file, where.line, r, i, THREADS * N);
                ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
            }
            s_.items[r].put(input[i]);
        }
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        for (int i = 0; i < N; ++i)
            output[i] = s_.items[to(t, i)].get();
    }

    TempStorage &s_;
};

/* ---- BlockRadixSort -----------------------------------------------------
 * Sorts a block's keys (and values) held ITEMS_PER_THREAD per thread in
 * the blocked arrangement. The emulator gathers the tile in the
 * TempStorage, the block waits, thread 0 sorts it stably by the key's bits
 * in [begin_bit, end_bit) (the same order as the device-wide radix sort),
 * the block waits again, and each thread takes its items back, blocked or
 * (the BlockedToStriped forms) striped. RADIX_BITS and the other tuning
 * parameters are accepted and change nothing. */
template <class KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true, BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          int SMEM_CONFIG = 1, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int N = ITEMS_PER_THREAD;
    static constexpr int KEY_BITS = static_cast<int>(sizeof(KeyT) * 8);
    typedef ::simtlab_emu::here here;

public:
    struct TempStorage {
        ::simtlab_emu::cub_detail::raw_slot<KeyT> keys[THREADS * N];
        ::simtlab_emu::cub_detail::raw_slot<ValueT> values[THREADS * N];
    };

    BlockRadixSort() : s_(::simtlab_emu::shared_var<TempStorage>([] {})) {}
    BlockRadixSort(TempStorage &temp_storage) : s_(temp_storage) {}

    void Sort(KeyT (&keys)[N], int begin_bit = 0, int end_bit = KEY_BITS,
              here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, nullptr, begin_bit, end_bit, false, false, "cub::BlockRadixSort::Sort", where);
    }
    void Sort(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0, int end_bit = KEY_BITS,
              here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, &values, begin_bit, end_bit, false, false, "cub::BlockRadixSort::Sort", where);
    }
    void SortDescending(KeyT (&keys)[N], int begin_bit = 0, int end_bit = KEY_BITS,
                        here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, nullptr, begin_bit, end_bit, true, false, "cub::BlockRadixSort::SortDescending", where);
    }
    void SortDescending(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0, int end_bit = KEY_BITS,
                        here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, &values, begin_bit, end_bit, true, false, "cub::BlockRadixSort::SortDescending", where);
    }
    void SortBlockedToStriped(KeyT (&keys)[N], int begin_bit = 0, int end_bit = KEY_BITS,
                              here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, nullptr, begin_bit, end_bit, false, true, "cub::BlockRadixSort::SortBlockedToStriped", where);
    }
    void SortBlockedToStriped(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0, int end_bit = KEY_BITS,
                              here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, &values, begin_bit, end_bit, false, true, "cub::BlockRadixSort::SortBlockedToStriped", where);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[N], int begin_bit = 0, int end_bit = KEY_BITS,
                                        here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, nullptr, begin_bit, end_bit, true, true, "cub::BlockRadixSort::SortDescendingBlockedToStriped",
            where);
    }
    void SortDescendingBlockedToStriped(KeyT (&keys)[N], ValueT (&values)[N], int begin_bit = 0,
                                        int end_bit = KEY_BITS, here where = ::simtlab_emu::cub_detail::caller())
    {
        run(keys, &values, begin_bit, end_bit, true, true, "cub::BlockRadixSort::SortDescendingBlockedToStriped",
            where);
    }

private:
    void run(KeyT (&keys)[N], ValueT (*values)[N], int begin_bit, int end_bit, bool descending, bool to_striped,
             const char *what, here where)
    {
        namespace d = ::simtlab_emu::cub_detail;
        if (begin_bit < 0 || end_bit > KEY_BITS || begin_bit > end_bit) {
            char text[300];
            std::snprintf(text, sizeof text, "%s at %s:%d: begin_bit %d and end_bit %d must satisfy 0 <= begin_bit "
                                             "<= end_bit <= %d (the key's bits)",
                          what, where.file, where.line, begin_bit, end_bit, KEY_BITS);
            if (::simtlab_emu::in_kernel())
                ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
            std::fprintf(stderr, "simtlab-emu: %s\n", text);
            return;
        }
        const bool in_block = d::enter_block(what, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, where);
        const int t = in_block ? static_cast<int>(d::linear_tid()) : 0;
        const int tile = in_block ? THREADS * N : N;
        for (int i = 0; i < N; ++i) {
            s_.keys[t * N + i].put(keys[i]);
            if (values)
                s_.values[t * N + i].put((*values)[i]);
        }
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        if (t == 0) {
            typedef typename d::radix_key<KeyT>::bits bits;
            const int width = end_bit - begin_bit;
            auto field = [&](const KeyT &k) {
                bits b = d::radix_key<KeyT>::to_bits(k);
                if (descending)
                    b = static_cast<bits>(~b);
                const unsigned long long v = static_cast<unsigned long long>(b) >> begin_bit;
                return width >= 64 ? v : v & ((1ull << width) - 1ull);
            };
            std::vector<int> order(static_cast<std::size_t>(tile));
            for (int i = 0; i < tile; ++i)
                order[static_cast<std::size_t>(i)] = i;
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return field(s_.keys[a].get()) < field(s_.keys[b].get());
            });
            std::vector<KeyT> k(static_cast<std::size_t>(tile), s_.keys[0].get());
            for (int i = 0; i < tile; ++i)
                k[static_cast<std::size_t>(i)] = s_.keys[order[static_cast<std::size_t>(i)]].get();
            if (values) {
                std::vector<ValueT> v(static_cast<std::size_t>(tile), s_.values[0].get());
                for (int i = 0; i < tile; ++i)
                    v[static_cast<std::size_t>(i)] = s_.values[order[static_cast<std::size_t>(i)]].get();
                for (int i = 0; i < tile; ++i)
                    s_.values[i].put(v[static_cast<std::size_t>(i)]);
            }
            for (int i = 0; i < tile; ++i)
                s_.keys[i].put(k[static_cast<std::size_t>(i)]);
        }
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        for (int i = 0; i < N; ++i) {
            const int r = to_striped && in_block ? i * THREADS + t : t * N + i;
            keys[i] = s_.keys[r].get();
            if (values)
                (*values)[i] = s_.values[r].get();
        }
    }

    TempStorage &s_;
};

/* ---- BlockDiscontinuity -------------------------------------------------
 * Flags the first (heads) or last (tails) item of each run of items that
 * flag_op(a, b) says differ, over the block's items in blocked order:
 * each thread puts its first and last item in the TempStorage, the block
 * waits, each thread reads its neighbours'. flag_op may also take the
 * later item's rank in the block as a third argument. */
template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockDiscontinuity {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    typedef ::simtlab_emu::here here;

public:
    struct TempStorage {
        ::simtlab_emu::cub_detail::raw_slot<T> first[THREADS];
        ::simtlab_emu::cub_detail::raw_slot<T> last[THREADS];
    };

    BlockDiscontinuity() : s_(::simtlab_emu::shared_var<TempStorage>([] {})) {}
    BlockDiscontinuity(TempStorage &temp_storage) : s_(temp_storage) {}

    template <int N, class FlagT, class FlagOp>
    void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op,
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        heads(head_flags, input, flag_op, nullptr, where);
    }
    template <int N, class FlagT, class FlagOp>
    void FlagHeads(FlagT (&head_flags)[N], T (&input)[N], FlagOp flag_op, T tile_predecessor_item,
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        heads(head_flags, input, flag_op, &tile_predecessor_item, where);
    }
    template <int N, class FlagT, class FlagOp>
    void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op,
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        tails(tail_flags, input, flag_op, nullptr, where);
    }
    template <int N, class FlagT, class FlagOp>
    void FlagTails(FlagT (&tail_flags)[N], T (&input)[N], FlagOp flag_op, T tile_successor_item,
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        tails(tail_flags, input, flag_op, &tile_successor_item, where);
    }

private:
    template <class FlagOp>
    static bool differ(FlagOp &op, const T &a, const T &b, int b_index)
    {
        if constexpr (std::is_invocable<FlagOp &, const T &, const T &, int>::value)
            return static_cast<bool>(op(a, b, b_index));
        else
            return static_cast<bool>(op(a, b));
    }
    template <int N>
    int share(T (&input)[N], here where, const char *what)
    {
        const bool in_block = ::simtlab_emu::cub_detail::enter_block(what, BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z,
                                                                     where);
        const int t = in_block ? static_cast<int>(::simtlab_emu::cub_detail::linear_tid()) : 0;
        s_.first[t].put(input[0]);
        s_.last[t].put(input[N - 1]);
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        return in_block ? t : -1; /* -1: host code, a block of one thread */
    }
    template <int N, class FlagT, class FlagOp>
    void heads(FlagT (&flags)[N], T (&input)[N], FlagOp &op, const T *predecessor, here where)
    {
        const int t = share(input, where, "cub::BlockDiscontinuity::FlagHeads");
        const int me = t < 0 ? 0 : t;
        if (me == 0)
            flags[0] = predecessor ? FlagT(differ(op, *predecessor, input[0], 0)) : FlagT(1);
        else
            flags[0] = FlagT(differ(op, s_.last[me - 1].get(), input[0], me * N));
        for (int i = 1; i < N; ++i)
            flags[i] = FlagT(differ(op, input[i - 1], input[i], me * N + i));
    }
    template <int N, class FlagT, class FlagOp>
    void tails(FlagT (&flags)[N], T (&input)[N], FlagOp &op, const T *successor, here where)
    {
        const int t = share(input, where, "cub::BlockDiscontinuity::FlagTails");
        const int me = t < 0 ? 0 : t, last_thread = t < 0 ? 0 : THREADS - 1;
        for (int i = 0; i + 1 < N; ++i)
            flags[i] = FlagT(differ(op, input[i], input[i + 1], me * N + i + 1));
        if (me == last_thread)
            flags[N - 1] = successor ? FlagT(differ(op, input[N - 1], *successor, (me + 1) * N)) : FlagT(1);
        else
            flags[N - 1] = FlagT(differ(op, input[N - 1], s_.first[me + 1].get(), (me + 1) * N));
    }

    TempStorage &s_;
};

/* ---- BlockHistogram -----------------------------------------------------
 * Counts the block's items (each in [0, BINS)) into a histogram the
 * program holds (usually __shared__ counters): Histogram zeroes it, waits
 * at a barrier and adds; Composite adds; InitHistogram zeroes. Both
 * algorithms add with atomics here. As in CUB, a __syncthreads must come
 * before the counts are read. An item outside [0, BINS) fails the launch
 * (CUB leaves it undefined). */
enum BlockHistogramAlgorithm {
    BLOCK_HISTO_SORT,
    BLOCK_HISTO_ATOMIC,
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1,
          int LEGACY_PTX_ARCH = 0>
class BlockHistogram {
    static constexpr int THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    typedef ::simtlab_emu::here here;

public:
    struct TempStorage {
        unsigned char unused;
    };

    BlockHistogram() {}
    BlockHistogram(TempStorage &) {}

    template <class CounterT>
    void InitHistogram(CounterT histogram[BINS], here where = ::simtlab_emu::cub_detail::caller())
    {
        const bool in_block = ::simtlab_emu::cub_detail::enter_block(
            "cub::BlockHistogram::InitHistogram", BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z, where);
        const int t = in_block ? static_cast<int>(::simtlab_emu::cub_detail::linear_tid()) : 0;
        const int step = in_block ? THREADS : 1;
        for (int b = t; b < BINS; b += step)
            histogram[b] = 0;
    }
    template <class CounterT>
    void Histogram(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        InitHistogram(histogram, where);
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
        Composite(items, histogram, where);
    }
    template <class CounterT>
    void Composite(T (&items)[ITEMS_PER_THREAD], CounterT histogram[BINS],
                   here where = ::simtlab_emu::cub_detail::caller())
    {
        for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
            const long long b = static_cast<long long>(items[i]);
            if (b < 0 || b >= BINS) {
                char text[300];
                std::snprintf(text, sizeof text, "cub::BlockHistogram at %s:%d: item %d is %lld, outside the %d bins",
                              where.file, where.line, i, b, BINS);
                if (::simtlab_emu::in_kernel())
                    ::simtlab_emu::fail_launch(cudaErrorLaunchFailure, text);
                std::fprintf(stderr, "simtlab-emu: %s\n", text);
                continue;
            }
            atomicAdd(&histogram[b], CounterT(1));
        }
    }
};

} /* namespace cub */

#endif /* SIMTLAB_EMU_CUB_BLOCK_HPP */
