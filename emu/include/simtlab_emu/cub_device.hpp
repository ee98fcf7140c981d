/* simtlab CPU emulator — the emulator's own CUB, part 3: the device-wide
 * algorithms (DeviceReduce, DeviceScan, DeviceRadixSort, DeviceSelect,
 * DeviceSegmentedReduce, DevicePartition, DeviceRunLengthEncode,
 * DeviceHistogram, DeviceSegmentedRadixSort) and CachingDeviceAllocator.
 * Written here from CUB's documented API.
 *
 * Each call follows CUB's two-phase protocol: with d_temp_storage == NULL
 * it only sets temp_storage_bytes (never 0, so that a cudaMalloc of it
 * gives a non-NULL pointer) and returns cudaSuccess; with storage it checks
 * its arguments (a bad one is cudaErrorInvalidValue with a diagnostic that
 * names it, as simtlab_emu_last_diagnostic() returns), then launches one
 * emulator kernel of one thread on `stream` that runs the algorithm
 * sequentially over the device memory. So stream order, stream capture
 * into graphs, device-memory faults (a bad pointer is the launch's
 * cudaErrorIllegalAddress, naming the algorithm as the kernel) and the
 * checkers all behave as for the program's own kernels. The temporary
 * storage is really used (radix sort's second buffers, the reductions'
 * partial result), so storage smaller than asked is caught.
 *
 * Results: integer results are exact; floating-point sums and scans are
 * added left to right (a GPU's CUB adds in a tree, so the last bits may
 * differ); the radix sorts order as CUB does (floats by their bits: -0.0
 * before +0.0, NaNs with the sign bit set before -inf and the others after
 * +inf) and are stable.
 */
#ifndef SIMTLAB_EMU_CUB_DEVICE_HPP
#define SIMTLAB_EMU_CUB_DEVICE_HPP

#include <simtlab_emu/cub_core.hpp>

#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <type_traits>
#include <vector>

extern "C" {
/* emu/src/libs/cub/cub.cpp: records and prints a diagnostic, returns cudaErrorInvalidValue. */
cudaError_t simtlab_emu_cub_invalid(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Checks temporary storage of `given` bytes for a call that needs
 * `needed`: enough bytes asked, and a device allocation that holds them. */
cudaError_t simtlab_emu_cub_check_temp(const char *api, const char *file, int line, const void *d_temp_storage,
                                       size_t given, size_t needed);
}

namespace simtlab_emu {
namespace cub_detail {

/* The value type an output iterator writes, or `fallback` when it has none
 * (std::iterator_traits gives void for output-only iterators). */
template <class It, class Fallback>
struct out_value {
    typedef typename std::iterator_traits<It>::value_type raw;
    typedef typename std::conditional<std::is_void<raw>::value, Fallback, raw>::type type;
};
template <class It>
using in_value = typename std::iterator_traits<It>::value_type;

template <class N>
inline cudaError_t check_count(const char *api, N num_items, here where)
{
    static_assert(std::is_integral<N>::value, "cub: num_items must be an integer");
    if (num_items < N(0))
        return simtlab_emu_cub_invalid("%s at %s:%d: num_items is %lld: it must not be negative", api, where.file,
                                       where.line, static_cast<long long>(num_items));
    return cudaSuccess;
}

inline cudaError_t check_segments(const char *api, int num_segments, here where)
{
    if (num_segments < 0)
        return simtlab_emu_cub_invalid("%s at %s:%d: num_segments is %d: it must not be negative", api, where.file,
                                       where.line, num_segments);
    return cudaSuccess;
}

/* The two-phase protocol. Returns true (and *result) when the call is
 * over: a size query, or bad storage. */
inline bool storage_phase(const char *api, here where, void *d_temp_storage, std::size_t &temp_storage_bytes,
                          std::size_t needed, cudaError_t *result)
{
    if (needed < 1)
        needed = 1;
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = needed;
        *result = cudaSuccess;
        return true;
    }
    *result = simtlab_emu_cub_check_temp(api, where.file, where.line, d_temp_storage, temp_storage_bytes, needed);
    return *result != cudaSuccess;
}

/* Runs `body` as a kernel of one thread on `stream`. */
template <class Body>
inline cudaError_t run_on_stream(const char *api, here where, cudaStream_t stream, Body body)
{
    return ::simtlab_emu::launch_deduced(api, where.file, where.line, body, dim3(1), dim3(1), 0, stream).run();
}

inline cudaError_t no_more_checks() { return cudaSuccess; }

/* What every device-wide call does around its algorithm: num_items is
 * checked, then the call's own argument checks (`checks()`, a status),
 * then the two-phase protocol for `needed` bytes of storage; past that,
 * algorithm(n, temp) runs as a kernel of one thread on `stream`, with n
 * the item count and temp the checked storage (where the algorithm keeps
 * its partial result, so that storage smaller than asked is caught). */
template <class N, class Checks, class Algorithm>
inline cudaError_t device_call(const char *api, here where, N num_items, void *d_temp_storage,
                               std::size_t &temp_storage_bytes, std::size_t needed, cudaStream_t stream,
                               Checks checks, Algorithm algorithm)
{
    cudaError_t st;
    if ((st = check_count(api, num_items, where)) != cudaSuccess || (st = checks()) != cudaSuccess)
        return st;
    if (storage_phase(api, where, d_temp_storage, temp_storage_bytes, needed, &st))
        return st;
    const std::size_t n = static_cast<std::size_t>(num_items);
    void *const temp = d_temp_storage;
    return run_on_stream(api, where, stream, [=]() { algorithm(n, temp); });
}
template <class N, class Algorithm>
inline cudaError_t device_call(const char *api, here where, N num_items, void *d_temp_storage,
                               std::size_t &temp_storage_bytes, std::size_t needed, cudaStream_t stream,
                               Algorithm algorithm)
{
    return device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, needed, stream, no_more_checks,
                       algorithm);
}

/* DeviceSelect and DevicePartition: the items for which keep(i, item)
 * holds go in order to the front of d_out, their count to
 * *d_num_selected_out; with `partition`, the others follow in reverse
 * order. Each item is read once. */
template <class In, class Out, class NumSel, class N, class Keep>
inline cudaError_t select_items(const char *api, here where, void *d_temp_storage, std::size_t &temp_storage_bytes,
                                In d_in, Out d_out, NumSel d_num_selected_out, N num_items, bool partition,
                                cudaStream_t stream, Keep keep)
{
    auto algorithm = [=](std::size_t n, void *temp) {
        Keep keeps = keep; /* a copy the kernel owns: operator() need not be const */
        long long kept = 0;
        std::size_t back = n;
        for (std::size_t i = 0; i < n; ++i) {
            const in_value<In> x = d_in[i];
            if (keeps(i, x))
                d_out[kept++] = x;
            else if (partition)
                d_out[--back] = x;
        }
        std::memcpy(temp, &kept, sizeof kept);
        *d_num_selected_out = kept;
    };
    return device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(long long), stream,
                       algorithm);
}

/* One stable counting-sort pass per 8 bits of [begin_bit, end_bit), from
 * the lowest. Pass p reads src(p) and writes dst(p); values (when
 * vals_src is not null) move with their keys. */
template <class K, class V>
struct radix_plan {
    const K *keys_in;
    const V *vals_in;
    K *keys_buf[2];
    V *vals_buf[2];
};

template <class K, class V>
inline void radix_sort_serial(std::size_t n, int begin_bit, int end_bit, bool descending, const K *keys_in,
                              const V *vals_in, K *const keys_buf[2], V *const vals_buf[2], int first_dst)
{
    typedef typename radix_key<K>::bits bits;
    std::vector<std::size_t> count(257);
    const K *ksrc = keys_in;
    const V *vsrc = vals_in;
    int dst = first_dst;
    for (int bit = begin_bit; bit < end_bit; bit += 8) {
        const int width = end_bit - bit < 8 ? end_bit - bit : 8;
        const bits digit_mask = static_cast<bits>((1u << width) - 1u);
        auto digit = [&](const K &k) -> std::size_t {
            bits b = radix_key<K>::to_bits(k);
            if (descending)
                b = static_cast<bits>(~b);
            return static_cast<std::size_t>((b >> bit) & digit_mask);
        };
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t i = 0; i < n; ++i)
            count[digit(ksrc[i]) + 1]++;
        for (std::size_t d = 1; d < count.size(); ++d)
            count[d] += count[d - 1];
        K *kd = keys_buf[dst];
        V *vd = vals_buf[dst];
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = count[digit(ksrc[i])]++;
            kd[at] = ksrc[i];
            if (vsrc)
                vd[at] = vsrc[i];
        }
        ksrc = kd;
        vsrc = vsrc ? vd : nullptr;
        dst ^= 1;
    }
}

inline int radix_passes(int begin_bit, int end_bit) { return (end_bit - begin_bit + 7) / 8; }

template <class K>
inline cudaError_t check_bits(const char *api, int begin_bit, int end_bit, here where)
{
    const int key_bits = static_cast<int>(sizeof(K) * 8);
    if (begin_bit < 0 || end_bit > key_bits || begin_bit > end_bit)
        return simtlab_emu_cub_invalid("%s at %s:%d: begin_bit %d and end_bit %d must satisfy 0 <= begin_bit <= "
                                       "end_bit <= %d (the key's bits)",
                                       api, where.file, where.line, begin_bit, end_bit, key_bits);
    return cudaSuccess;
}

inline std::size_t align_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

/* A sort into separate output arrays: the passes alternate between the
 * output and a buffer in the temporary storage, so that the last pass
 * writes the output; keys_in and values_in are only read. */
template <class K, class V, class N>
inline cudaError_t radix_sort_arrays(const char *api, here where, void *d_temp_storage,
                                     std::size_t &temp_storage_bytes, const K *d_keys_in, K *d_keys_out,
                                     const V *d_values_in, V *d_values_out, N num_items, int begin_bit,
                                     int end_bit, bool descending, cudaStream_t stream)
{
    cudaError_t st;
    if ((st = check_count(api, num_items, where)) != cudaSuccess)
        return st;
    const std::size_t n = static_cast<std::size_t>(num_items);
    const std::size_t key_bytes = align_up(n * sizeof(K), 256);
    const std::size_t needed = key_bytes + (d_values_in ? n * sizeof(V) : 0);
    if (storage_phase(api, where, d_temp_storage, temp_storage_bytes, needed, &st))
        return st;
    if ((st = check_bits<K>(api, begin_bit, end_bit, where)) != cudaSuccess)
        return st;
    if (n > 0 && (!d_keys_in || !d_keys_out || (d_values_in && !d_values_out)))
        return simtlab_emu_cub_invalid("%s at %s:%d: %s is NULL", api, where.file, where.line,
                                       !d_keys_in ? "d_keys_in" : !d_keys_out ? "d_keys_out" : "d_values_out");
    K *temp_keys = static_cast<K *>(d_temp_storage);
    V *temp_vals = reinterpret_cast<V *>(static_cast<unsigned char *>(d_temp_storage) + key_bytes);
    return run_on_stream(api, where, stream, [=]() {
        const int passes = radix_passes(begin_bit, end_bit);
        if (passes == 0) {
            for (std::size_t i = 0; i < n; ++i) {
                d_keys_out[i] = d_keys_in[i];
                if (d_values_in)
                    d_values_out[i] = d_values_in[i];
            }
            return;
        }
        K *const kb[2] = {d_keys_out, temp_keys};
        V *const vb[2] = {d_values_out, temp_vals};
        /* pass p writes buffer (passes - 1 - p) % 2: the last writes the output */
        radix_sort_serial<K, V>(n, begin_bit, end_bit, descending, d_keys_in, d_values_in, kb, vb,
                                (passes - 1) % 2);
    });
}

/* A sort of DoubleBuffers: the passes alternate between the two buffers
 * and the selectors name the one holding the result, as in CUB. */
template <class K, class V, class N>
inline cudaError_t radix_sort_double(const char *api, here where, void *d_temp_storage,
                                     std::size_t &temp_storage_bytes, ::cub::DoubleBuffer<K> &d_keys,
                                     ::cub::DoubleBuffer<V> *d_values, N num_items, int begin_bit, int end_bit,
                                     bool descending, cudaStream_t stream)
{
    cudaError_t st;
    if ((st = check_count(api, num_items, where)) != cudaSuccess)
        return st;
    const std::size_t n = static_cast<std::size_t>(num_items);
    if (storage_phase(api, where, d_temp_storage, temp_storage_bytes, 16, &st))
        return st;
    if ((st = check_bits<K>(api, begin_bit, end_bit, where)) != cudaSuccess)
        return st;
    if (n > 0 && (!d_keys.Current() || !d_keys.Alternate() ||
                  (d_values && (!d_values->Current() || !d_values->Alternate()))))
        return simtlab_emu_cub_invalid("%s at %s:%d: a DoubleBuffer holds a NULL buffer", api, where.file,
                                       where.line);
    const int passes = radix_passes(begin_bit, end_bit);
    K *const kb[2] = {d_keys.Current(), d_keys.Alternate()};
    V *const vb[2] = {d_values ? d_values->Current() : nullptr, d_values ? d_values->Alternate() : nullptr};
    const bool pairs = d_values != nullptr;
    void *const temp = d_temp_storage;
    st = run_on_stream(api, where, stream, [=]() {
        std::memset(temp, 0, 16); /* the storage is the call's, as on a GPU */
        K *const kbuf[2] = {kb[0], kb[1]};
        V *const vbuf[2] = {vb[0], vb[1]};
        radix_sort_serial<K, V>(n, begin_bit, end_bit, descending, kbuf[0], pairs ? vbuf[0] : nullptr,
                                kbuf, vbuf, 1);
    });
    if (st == cudaSuccess && passes % 2 == 1) {
        d_keys.selector ^= 1;
        if (d_values)
            d_values->selector ^= 1;
    }
    return st;
}

} /* namespace cub_detail */
} /* namespace simtlab_emu */

#define SIMTLAB_CUB_WHERE ::simtlab_emu::here where = ::simtlab_emu::cub_detail::caller()
#define SIMTLAB_CUB_NUM(N) typename N, typename = typename std::enable_if<std::is_integral<N>::value>::type

namespace cub {

/* ---- DeviceReduce ------------------------------------------------------ */
struct DeviceReduce {
    template <class InputIteratorT, class OutputIteratorT, class ReductionOpT, class T, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Reduce(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumItemsT num_items, ReductionOpT reduction_op, T init,
                              cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        return fold("cub::DeviceReduce::Reduce", where, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                    reduction_op, init, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Sum(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                           bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        typedef typename ::simtlab_emu::cub_detail::out_value<OutputIteratorT, in_t>::type out_t;
        return fold("cub::DeviceReduce::Sum", where, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                    ::cub::Sum(), out_t{}, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Max(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                           bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return extreme("cub::DeviceReduce::Max", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                       num_items, ::cub::Max(), std::numeric_limits<in_t>::lowest(), stream);
    }
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Min(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                           bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return extreme("cub::DeviceReduce::Min", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                       num_items, ::cub::Min(), std::numeric_limits<in_t>::max(), stream);
    }
    /* d_out gets KeyValuePair{index of the first maximum, its value}; for
     * no items, {1, the type's lowest value}, as CUB documents. */
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ArgMax(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                              bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return arg("cub::DeviceReduce::ArgMax", where, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   ::cub::ArgMax(), std::numeric_limits<in_t>::lowest(), stream);
    }
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ArgMin(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                              bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return arg("cub::DeviceReduce::ArgMin", where, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                   ::cub::ArgMin(), std::numeric_limits<in_t>::max(), stream);
    }

    /* CCCL's newer form: the extremum and its index to separate outputs
     * (for no items, as the pair form: index 1 and the type's lowest or
     * largest value). */
    template <class InputIteratorT, class ExtremumOutIteratorT, class IndexOutIteratorT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ArgMax(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              ExtremumOutIteratorT d_max_out, IndexOutIteratorT d_index_out, NumItemsT num_items,
                              cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return arg_split("cub::DeviceReduce::ArgMax", where, d_temp_storage, temp_storage_bytes, d_in, d_max_out,
                         d_index_out, num_items, ::cub::ArgMax(), std::numeric_limits<in_t>::lowest(), stream);
    }
    template <class InputIteratorT, class ExtremumOutIteratorT, class IndexOutIteratorT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ArgMin(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              ExtremumOutIteratorT d_min_out, IndexOutIteratorT d_index_out, NumItemsT num_items,
                              cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return arg_split("cub::DeviceReduce::ArgMin", where, d_temp_storage, temp_storage_bytes, d_in, d_min_out,
                         d_index_out, num_items, ::cub::ArgMin(), std::numeric_limits<in_t>::max(), stream);
    }

    /* Each run of equal consecutive keys: the key, and reduction_op over
     * its values; the number of runs to *d_num_runs_out. */
    template <class KeysInputIteratorT, class UniqueOutputIteratorT, class ValuesInputIteratorT,
              class AggregatesOutputIteratorT, class NumRunsOutputIteratorT, class ReductionOpT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ReduceByKey(void *d_temp_storage, std::size_t &temp_storage_bytes, KeysInputIteratorT d_keys_in,
                                   UniqueOutputIteratorT d_unique_out, ValuesInputIteratorT d_values_in,
                                   AggregatesOutputIteratorT d_aggregates_out, NumRunsOutputIteratorT d_num_runs_out,
                                   ReductionOpT reduction_op, NumItemsT num_items, cudaStream_t stream = 0,
                                   bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        const char *api = "cub::DeviceReduce::ReduceByKey";
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<KeysInputIteratorT> key_t;
        typedef d::in_value<ValuesInputIteratorT> value_t;
        typedef typename std::decay<decltype(reduction_op(std::declval<value_t>(), std::declval<value_t>()))>::type
            accum_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            ReductionOpT f = reduction_op; /* operator() need not be const */
            long long runs = 0;
            std::size_t i = 0;
            while (i < n) {
                const key_t k = d_keys_in[i];
                accum_t acc = d_values_in[i];
                std::size_t j = i + 1;
                for (; j < n && key_t(d_keys_in[j]) == k; ++j)
                    acc = f(acc, d_values_in[j]);
                d_unique_out[runs] = k;
                d_aggregates_out[runs] = acc;
                ++runs;
                i = j;
            }
            std::memcpy(temp, &runs, sizeof runs);
            *d_num_runs_out = runs;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(long long), stream,
                              algorithm);
    }

private:
    template <class In, class OutV, class OutI, class N, class Op, class E>
    static cudaError_t arg_split(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                                 std::size_t &temp_storage_bytes, In d_in, OutV d_value_out, OutI d_index_out,
                                 N num_items, Op op, E empty, cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<In> in_t;
        typedef KeyValuePair<long long, in_t> pair_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            pair_t best(1, in_t(empty));
            if (n > 0)
                best = pair_t(0, in_t(d_in[0]));
            for (std::size_t i = 1; i < n; ++i)
                best = op(best, pair_t(static_cast<long long>(i), in_t(d_in[i])));
            std::memcpy(temp, &best, sizeof best);
            *d_value_out = best.value;
            *d_index_out = best.key;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(pair_t), stream,
                              algorithm);
    }
    template <class In, class Out, class N, class Op, class Init>
    static cudaError_t fold(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                            std::size_t &temp_storage_bytes, In d_in, Out d_out, N num_items, Op op, Init init,
                            cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef typename std::decay<decltype(op(init, *d_in))>::type accum_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            Op f = op; /* a copy the kernel owns: operator() need not be const */
            accum_t acc = init;
            for (std::size_t i = 0; i < n; ++i)
                acc = f(acc, d_in[i]);
            std::memcpy(temp, &acc, sizeof acc); /* the partial lives in the call's storage */
            *d_out = acc;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(accum_t), stream,
                              algorithm);
    }
    /* Max/Min: the first item starts the fold, so that no identity is
     * needed; `empty` is the result for no items. */
    template <class In, class Out, class N, class Op, class E>
    static cudaError_t extreme(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                               std::size_t &temp_storage_bytes, In d_in, Out d_out, N num_items, Op op, E empty,
                               cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<In> in_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            in_t acc = n == 0 ? in_t(empty) : in_t(d_in[0]);
            for (std::size_t i = 1; i < n; ++i)
                acc = op(acc, in_t(d_in[i]));
            std::memcpy(temp, &acc, sizeof acc);
            *d_out = acc;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(in_t), stream,
                              algorithm);
    }
    template <class In, class Out, class N, class Op, class E>
    static cudaError_t arg(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                           std::size_t &temp_storage_bytes, In d_in, Out d_out, N num_items, Op op, E empty,
                           cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<In> in_t;
        typedef typename d::out_value<Out, KeyValuePair<int, in_t>>::type pair_t;
        typedef typename pair_t::Key key_t;
        typedef typename pair_t::Value value_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            pair_t best(key_t(1), value_t(empty));
            if (n > 0)
                best = pair_t(key_t(0), value_t(d_in[0]));
            for (std::size_t i = 1; i < n; ++i)
                best = op(best, pair_t(static_cast<key_t>(i), value_t(d_in[i])));
            std::memcpy(temp, &best, sizeof best);
            *d_out = best;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(pair_t), stream,
                              algorithm);
    }
};

/* ---- DeviceScan -------------------------------------------------------- */
struct DeviceScan {
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ExclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                                    OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                                    bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        typedef typename ::simtlab_emu::cub_detail::out_value<OutputIteratorT, in_t>::type out_t;
        return scan("cub::DeviceScan::ExclusiveSum", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                    ::cub::Sum(), out_t{}, true, true, num_items, stream);
    }
    /* In place: d_data is both input and output. */
    template <class IteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ExclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<IteratorT> in_t;
        return scan("cub::DeviceScan::ExclusiveSum", where, d_temp_storage, temp_storage_bytes, d_data, d_data,
                    ::cub::Sum(), in_t{}, true, true, num_items, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t InclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                                    OutputIteratorT d_out, NumItemsT num_items, cudaStream_t stream = 0,
                                    bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return scan("cub::DeviceScan::InclusiveSum", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                    ::cub::Sum(), in_t{}, false, false, num_items, stream);
    }
    template <class IteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t InclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, IteratorT d_data,
                                    NumItemsT num_items, cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<IteratorT> in_t;
        return scan("cub::DeviceScan::InclusiveSum", where, d_temp_storage, temp_storage_bytes, d_data, d_data,
                    ::cub::Sum(), in_t{}, false, false, num_items, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, class ScanOpT, class InitValueT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ExclusiveScan(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, ScanOpT scan_op, InitValueT init_value,
                                     NumItemsT num_items, cudaStream_t stream = 0, bool debug_synchronous = false,
                                     SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        return scan("cub::DeviceScan::ExclusiveScan", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                    scan_op, init_value, true, true, num_items, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, class ScanOpT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t InclusiveScan(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                                     OutputIteratorT d_out, ScanOpT scan_op, NumItemsT num_items,
                                     cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        return scan("cub::DeviceScan::InclusiveScan", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                    scan_op, in_t{}, false, false, num_items, stream);
    }

    /* Scans that restart at each run of equal consecutive keys. */
    template <class KeysInputIteratorT, class ValuesInputIteratorT, class ValuesOutputIteratorT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ExclusiveSumByKey(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                         KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                         ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                                         cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<ValuesInputIteratorT> v_t;
        return by_key("cub::DeviceScan::ExclusiveSumByKey", where, d_temp_storage, temp_storage_bytes, d_keys_in,
                      d_values_in, d_values_out, ::cub::Sum(), v_t{}, true, num_items, stream);
    }
    template <class KeysInputIteratorT, class ValuesInputIteratorT, class ValuesOutputIteratorT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t InclusiveSumByKey(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                         KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                         ValuesOutputIteratorT d_values_out, NumItemsT num_items,
                                         cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<ValuesInputIteratorT> v_t;
        return by_key("cub::DeviceScan::InclusiveSumByKey", where, d_temp_storage, temp_storage_bytes, d_keys_in,
                      d_values_in, d_values_out, ::cub::Sum(), v_t{}, false, num_items, stream);
    }
    template <class KeysInputIteratorT, class ValuesInputIteratorT, class ValuesOutputIteratorT, class ScanOpT,
              class InitValueT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t ExclusiveScanByKey(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                          KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                          ValuesOutputIteratorT d_values_out, ScanOpT scan_op, InitValueT init_value,
                                          NumItemsT num_items, cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        return by_key("cub::DeviceScan::ExclusiveScanByKey", where, d_temp_storage, temp_storage_bytes, d_keys_in,
                      d_values_in, d_values_out, scan_op, init_value, true, num_items, stream);
    }
    template <class KeysInputIteratorT, class ValuesInputIteratorT, class ValuesOutputIteratorT, class ScanOpT,
              SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t InclusiveScanByKey(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                          KeysInputIteratorT d_keys_in, ValuesInputIteratorT d_values_in,
                                          ValuesOutputIteratorT d_values_out, ScanOpT scan_op, NumItemsT num_items,
                                          cudaStream_t stream = 0, SIMTLAB_CUB_WHERE)
    {
        typedef ::simtlab_emu::cub_detail::in_value<ValuesInputIteratorT> v_t;
        return by_key("cub::DeviceScan::InclusiveScanByKey", where, d_temp_storage, temp_storage_bytes, d_keys_in,
                      d_values_in, d_values_out, scan_op, v_t{}, false, num_items, stream);
    }

private:
    template <class K, class In, class Out, class Op, class Init, class N>
    static cudaError_t by_key(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                              std::size_t &temp_storage_bytes, K d_keys, In d_in, Out d_out, Op op, Init init,
                              bool exclusive, N num_items, cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<K> key_t;
        typedef d::in_value<In> in_t;
        typedef typename std::decay<decltype(op(std::declval<Init>(), std::declval<in_t>()))>::type accum_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            Op f = op; /* operator() need not be const */
            for (std::size_t i = 0; i < n;) {
                const key_t k = d_keys[i];
                std::size_t j = i;
                accum_t acc = exclusive ? accum_t(init) : accum_t(d_in[i]);
                for (; j < n && (j == i || key_t(d_keys[j]) == k); ++j) {
                    const in_t x = d_in[j];
                    if (exclusive) {
                        d_out[j] = acc;
                        acc = f(acc, x);
                    } else {
                        if (j > i)
                            acc = f(acc, x);
                        d_out[j] = acc;
                    }
                }
                std::memcpy(temp, &acc, sizeof acc);
                i = j;
            }
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(accum_t), stream,
                              algorithm);
    }
    /* exclusive: out[i] = init op in[0] op ... op in[i-1]; inclusive without
     * init: out[i] = in[0] op ... op in[i]. Each input is read before its
     * output is written, so d_in == d_out works. */
    template <class In, class Out, class Op, class Init, class N>
    static cudaError_t scan(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                            std::size_t &temp_storage_bytes, In d_in, Out d_out, Op op, Init init, bool exclusive,
                            bool use_init, N num_items, cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<In> in_t;
        typedef typename std::decay<decltype(op(std::declval<Init>(), std::declval<in_t>()))>::type accum_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            Op f = op; /* a copy the kernel owns: operator() need not be const */
            if (n == 0)
                return;
            if (exclusive) {
                accum_t acc = use_init ? accum_t(init) : accum_t(d_in[0]);
                for (std::size_t i = 0; i < n; ++i) {
                    const in_t x = d_in[i];
                    d_out[i] = acc;
                    acc = f(acc, x);
                }
                std::memcpy(temp, &acc, sizeof acc);
                return;
            }
            accum_t acc = accum_t(d_in[0]);
            d_out[0] = acc;
            for (std::size_t i = 1; i < n; ++i) {
                acc = f(acc, d_in[i]);
                d_out[i] = acc;
            }
            std::memcpy(temp, &acc, sizeof acc);
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(accum_t), stream,
                              algorithm);
    }
};

/* ---- DeviceRadixSort --------------------------------------------------- */
struct DeviceRadixSort {
#define SIMTLAB_CUB_SORT(NAME, DESC)                                                                           \
    template <class KeyT, SIMTLAB_CUB_NUM(NumItemsT)>                                                          \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, const KeyT *d_keys_in,      \
                            KeyT *d_keys_out, NumItemsT num_items, int begin_bit = 0,                          \
                            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,                           \
                            bool debug_synchronous = false, SIMTLAB_CUB_WHERE)                                 \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        const char *api = "cub::DeviceRadixSort::" #NAME;                                                      \
        return ::simtlab_emu::cub_detail::radix_sort_arrays<KeyT, NullType>(                                   \
            api, where, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,           \
            num_items, begin_bit, end_bit, DESC, stream);                                                      \
    }                                                                                                          \
    template <class KeyT, SIMTLAB_CUB_NUM(NumItemsT)>                                                          \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, DoubleBuffer<KeyT> &d_keys, \
                            NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,            \
                            cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)        \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        const char *api = "cub::DeviceRadixSort::" #NAME;                                                      \
        return ::simtlab_emu::cub_detail::radix_sort_double<KeyT, NullType>(                                   \
            api, where, d_temp_storage, temp_storage_bytes, d_keys, nullptr, num_items, begin_bit,             \
            end_bit, DESC, stream);                                                                            \
    }
    SIMTLAB_CUB_SORT(SortKeys, false)
    SIMTLAB_CUB_SORT(SortKeysDescending, true)
#undef SIMTLAB_CUB_SORT

#define SIMTLAB_CUB_SORT_PAIRS(NAME, DESC)                                                                     \
    template <class KeyT, class ValueT, SIMTLAB_CUB_NUM(NumItemsT)>                                            \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, const KeyT *d_keys_in,      \
                            KeyT *d_keys_out, const ValueT *d_values_in, ValueT *d_values_out,                 \
                            NumItemsT num_items, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,            \
                            cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)        \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        const char *api = "cub::DeviceRadixSort::" #NAME;                                                      \
        if (num_items > NumItemsT(0) && (!d_values_in || !d_values_out))                                       \
            return simtlab_emu_cub_invalid("%s at %s:%d: %s is NULL", api, where.file, where.line,             \
                                           !d_values_in ? "d_values_in" : "d_values_out");                     \
        return ::simtlab_emu::cub_detail::radix_sort_arrays<KeyT, ValueT>(                                     \
            api, where, d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,  \
            num_items, begin_bit, end_bit, DESC, stream);                                                      \
    }                                                                                                          \
    template <class KeyT, class ValueT, SIMTLAB_CUB_NUM(NumItemsT)>                                            \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, DoubleBuffer<KeyT> &d_keys, \
                            DoubleBuffer<ValueT> &d_values, NumItemsT num_items, int begin_bit = 0,            \
                            int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,                           \
                            bool debug_synchronous = false, SIMTLAB_CUB_WHERE)                                 \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        const char *api = "cub::DeviceRadixSort::" #NAME;                                                      \
        return ::simtlab_emu::cub_detail::radix_sort_double<KeyT, ValueT>(                                     \
            api, where, d_temp_storage, temp_storage_bytes, d_keys, &d_values,                                 \
            num_items, begin_bit, end_bit, DESC, stream);                                                      \
    }
    SIMTLAB_CUB_SORT_PAIRS(SortPairs, false)
    SIMTLAB_CUB_SORT_PAIRS(SortPairsDescending, true)
#undef SIMTLAB_CUB_SORT_PAIRS
};

/* ---- DeviceSelect ------------------------------------------------------ */
/* DeviceSelect's and DevicePartition's If (the items for which select_op
 * is true) and Flagged (the items whose flag is nonzero): the same
 * arguments; PARTITION says whether the other items follow. */
#define SIMTLAB_CUB_SELECT(STRUCT, PARTITION)                                                                  \
    template <class InputIteratorT, class OutputIteratorT, class NumSelectedIteratorT, class SelectOp,         \
              SIMTLAB_CUB_NUM(NumItemsT)>                                                                      \
    static cudaError_t If(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,          \
                          OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items, \
                          SelectOp select_op, cudaStream_t stream = 0, bool debug_synchronous = false,         \
                          SIMTLAB_CUB_WHERE)                                                                   \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;                                      \
        auto keep = [select_op](std::size_t, const in_t &x) mutable { return bool(select_op(x)); };            \
        return ::simtlab_emu::cub_detail::select_items("cub::" #STRUCT "::If", where, d_temp_storage,          \
                                                       temp_storage_bytes, d_in, d_out, d_num_selected_out,    \
                                                       num_items, PARTITION, stream, keep);                    \
    }                                                                                                          \
    template <class InputIteratorT, class FlagIterator, class OutputIteratorT, class NumSelectedIteratorT,     \
              SIMTLAB_CUB_NUM(NumItemsT)>                                                                      \
    static cudaError_t Flagged(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,     \
                               FlagIterator d_flags, OutputIteratorT d_out,                                    \
                               NumSelectedIteratorT d_num_selected_out,                                        \
                               NumItemsT num_items, cudaStream_t stream = 0, bool debug_synchronous = false,   \
                               SIMTLAB_CUB_WHERE)                                                              \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;                                      \
        auto keep = [d_flags](std::size_t i, const in_t &) { return bool(d_flags[i]); };                       \
        return ::simtlab_emu::cub_detail::select_items("cub::" #STRUCT "::Flagged", where, d_temp_storage,     \
                                                       temp_storage_bytes, d_in, d_out, d_num_selected_out,    \
                                                       num_items, PARTITION, stream, keep);                    \
    }

struct DeviceSelect {
    /* Copies the items selected, in order; the count to *d_num_selected_out. */
    SIMTLAB_CUB_SELECT(DeviceSelect, false)
    /* Keeps the first item of each run of equal items. */
    template <class InputIteratorT, class OutputIteratorT, class NumSelectedIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Unique(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                              cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        const char *api = "cub::DeviceSelect::Unique";
        namespace d = ::simtlab_emu::cub_detail;
        typedef d::in_value<InputIteratorT> in_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            long long kept = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const in_t x = d_in[i];
                if (i == 0 || !(x == in_t(d_in[i - 1]))) {
                    d_out[kept++] = x;
                    std::memcpy(temp, &x, sizeof x);
                }
            }
            *d_num_selected_out = kept;
        };
        return d::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes, sizeof(in_t), stream,
                              algorithm);
    }
};

/* ---- DeviceSegmentedReduce: one reduction per [begin, end) segment ----- */
struct DeviceSegmentedReduce {
    template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT, class EndOffsetIteratorT,
              class ReductionOp, class T>
    static cudaError_t Reduce(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, ReductionOp reduction_op, T initial_value,
                              cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        return segments("cub::DeviceSegmentedReduce::Reduce", where, d_temp_storage, temp_storage_bytes, d_in,
                        d_out, num_segments, d_begin_offsets, d_end_offsets, reduction_op, initial_value, stream);
    }
    template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
    static cudaError_t Sum(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                           OutputIteratorT d_out, int num_segments, BeginOffsetIteratorT d_begin_offsets,
                           EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0,
                           bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        typedef typename ::simtlab_emu::cub_detail::out_value<OutputIteratorT, in_t>::type out_t;
        return segments("cub::DeviceSegmentedReduce::Sum", where, d_temp_storage, temp_storage_bytes, d_in, d_out,
                        num_segments, d_begin_offsets, d_end_offsets, ::cub::Sum(), out_t{}, stream);
    }

private:
    template <class In, class Out, class B, class E, class Op, class T>
    static cudaError_t segments(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                                std::size_t &temp_storage_bytes, In d_in, Out d_out, int num_segments, B d_begin,
                                E d_end, Op op, T init, cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        typedef typename std::decay<decltype(op(init, *d_in))>::type accum_t;
        const cudaError_t st = d::check_segments(api, num_segments, where);
        if (st != cudaSuccess)
            return st;
        auto algorithm = [=](std::size_t segs, void *temp) {
            Op f = op; /* a copy the kernel owns: operator() need not be const */
            for (std::size_t s = 0; s < segs; ++s) {
                accum_t acc = init;
                for (auto i = d_begin[s]; i < d_end[s]; ++i)
                    acc = f(acc, d_in[i]);
                std::memcpy(temp, &acc, sizeof acc);
                d_out[s] = acc;
            }
        };
        /* the segments are what this call counts (checked above) */
        return d::device_call(api, where, num_segments, d_temp_storage, temp_storage_bytes, sizeof(accum_t), stream,
                              algorithm);
    }
};

/* ---- DevicePartition: the selected items in order at the front, the
 * others after them in reverse order (as CUB documents) ---------------- */
struct DevicePartition {
    SIMTLAB_CUB_SELECT(DevicePartition, true)
};

#undef SIMTLAB_CUB_SELECT

/* ---- DeviceRunLengthEncode --------------------------------------------- */
struct DeviceRunLengthEncode {
    /* Each run of equal items: its item, its length; the number of runs. */
    template <class InputIteratorT, class UniqueOutputIteratorT, class LengthsOutputIteratorT,
              class NumRunsOutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t Encode(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                              UniqueOutputIteratorT d_unique_out, LengthsOutputIteratorT d_counts_out,
                              NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items, cudaStream_t stream = 0,
                              bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        auto record = [=](long long run, const in_t &x, std::size_t, std::size_t length) {
            d_unique_out[run] = x;
            d_counts_out[run] = static_cast<long long>(length);
            return true;
        };
        return each_run("cub::DeviceRunLengthEncode::Encode", where, d_temp_storage, temp_storage_bytes, d_in,
                        d_num_runs_out, num_items, stream, record);
    }
    /* The runs longer than one item: offset and length of each. */
    template <class InputIteratorT, class OffsetsOutputIteratorT, class LengthsOutputIteratorT,
              class NumRunsOutputIteratorT, SIMTLAB_CUB_NUM(NumItemsT)>
    static cudaError_t NonTrivialRuns(void *d_temp_storage, std::size_t &temp_storage_bytes, InputIteratorT d_in,
                                      OffsetsOutputIteratorT d_offsets_out, LengthsOutputIteratorT d_lengths_out,
                                      NumRunsOutputIteratorT d_num_runs_out, NumItemsT num_items,
                                      cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        typedef ::simtlab_emu::cub_detail::in_value<InputIteratorT> in_t;
        auto record = [=](long long run, const in_t &, std::size_t offset, std::size_t length) {
            if (length < 2)
                return false;
            d_offsets_out[run] = static_cast<long long>(offset);
            d_lengths_out[run] = static_cast<long long>(length);
            return true;
        };
        return each_run("cub::DeviceRunLengthEncode::NonTrivialRuns", where, d_temp_storage, temp_storage_bytes,
                        d_in, d_num_runs_out, num_items, stream, record);
    }

private:
    /* Finds each run of equal consecutive items and hands it to
     * record(run number, item, offset, length), which says whether it
     * counts; the count of runs to *d_num_runs_out. */
    template <class In, class NumRuns, class N, class Record>
    static cudaError_t each_run(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                                std::size_t &temp_storage_bytes, In d_in, NumRuns d_num_runs_out, N num_items,
                                cudaStream_t stream, Record record)
    {
        typedef ::simtlab_emu::cub_detail::in_value<In> in_t;
        auto algorithm = [=](std::size_t n, void *temp) {
            long long runs = 0;
            std::size_t i = 0;
            while (i < n) {
                const in_t x = d_in[i];
                std::size_t j = i + 1;
                while (j < n && in_t(d_in[j]) == x)
                    ++j;
                if (record(runs, x, i, j - i))
                    ++runs;
                i = j;
            }
            std::memcpy(temp, &runs, sizeof runs);
            *d_num_runs_out = runs;
        };
        return ::simtlab_emu::cub_detail::device_call(api, where, num_items, d_temp_storage, temp_storage_bytes,
                                                      sizeof(long long), stream, algorithm);
    }
};

/* ---- DeviceHistogram (one channel) -------------------------------------
 * HistogramEven: num_levels - 1 bins of equal width over [lower, upper);
 * HistogramRange: bin i holds levels[i] <= x < levels[i+1]. Samples
 * outside are not counted. Counters are set, not added to. */
struct DeviceHistogram {
    template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
    static cudaError_t HistogramEven(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                     SampleIteratorT d_samples, CounterT *d_histogram, int num_levels,
                                     LevelT lower_level, LevelT upper_level, OffsetT num_samples,
                                     cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        const char *api = "cub::DeviceHistogram::HistogramEven";
        auto range_check = [&]() -> cudaError_t {
            if (!(lower_level < upper_level))
                return simtlab_emu_cub_invalid("%s at %s:%d: lower_level must be below upper_level", api,
                                               where.file, where.line);
            return cudaSuccess;
        };
        const int bins = num_levels - 1;
        auto bin_of = [=](auto x) -> long long {
            if (!(x >= lower_level && x < upper_level))
                return -1;
            long long b;
            if (std::is_integral<LevelT>::value)
                b = static_cast<long long>((static_cast<long long>(x) - static_cast<long long>(lower_level)) * bins /
                                           (static_cast<long long>(upper_level) -
                                            static_cast<long long>(lower_level)));
            else
                b = static_cast<long long>((static_cast<double>(x) - static_cast<double>(lower_level)) * bins /
                                           (static_cast<double>(upper_level) - static_cast<double>(lower_level)));
            return b >= bins ? bins - 1 : b;
        };
        return count_bins(api, where, d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels,
                          num_samples, stream, range_check, bin_of);
    }
    template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
    static cudaError_t HistogramRange(void *d_temp_storage, std::size_t &temp_storage_bytes,
                                      SampleIteratorT d_samples, CounterT *d_histogram, int num_levels,
                                      const LevelT *d_levels, OffsetT num_samples, cudaStream_t stream = 0,
                                      bool debug_synchronous = false, SIMTLAB_CUB_WHERE)
    {
        (void)debug_synchronous;
        const int bins = num_levels - 1;
        auto bin_of = [=](auto x) -> long long {
            if (!(x >= d_levels[0] && x < d_levels[bins]))
                return -1;
            int lo = 0, hi = bins; /* levels[lo] <= x < levels[hi] */
            while (hi - lo > 1) {
                const int mid = (lo + hi) / 2;
                if (x < d_levels[mid])
                    hi = mid;
                else
                    lo = mid;
            }
            return lo;
        };
        return count_bins("cub::DeviceHistogram::HistogramRange", where, d_temp_storage, temp_storage_bytes,
                          d_samples, d_histogram, num_levels, num_samples, stream,
                          ::simtlab_emu::cub_detail::no_more_checks, bin_of);
    }

private:
    /* Both forms: num_samples, num_levels and then the levels (`levels_check`)
     * checked; in the kernel, the counters set to 0 and each sample counted
     * in its bin_of (-1: outside every bin). */
    template <class SampleIteratorT, class CounterT, class OffsetT, class LevelsCheck, class BinOf>
    static cudaError_t count_bins(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                                  std::size_t &temp_storage_bytes, SampleIteratorT d_samples, CounterT *d_histogram,
                                  int num_levels, OffsetT num_samples, cudaStream_t stream, LevelsCheck levels_check,
                                  BinOf bin_of)
    {
        auto checks = [&]() -> cudaError_t {
            if (num_levels < 2)
                return simtlab_emu_cub_invalid("%s at %s:%d: num_levels is %d: it must be at least 2 (one bin)", api,
                                               where.file, where.line, num_levels);
            return levels_check();
        };
        const int bins = num_levels - 1;
        auto algorithm = [=](std::size_t n, void *) {
            for (int b = 0; b < bins; ++b)
                d_histogram[b] = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const long long b = bin_of(d_samples[i]);
                if (b >= 0)
                    d_histogram[b] = d_histogram[b] + 1;
            }
        };
        return ::simtlab_emu::cub_detail::device_call(api, where, num_samples, d_temp_storage, temp_storage_bytes,
                                                      sizeof(long long), stream, checks, algorithm);
    }
};

/* ---- DeviceSegmentedRadixSort: each [begin, end) segment sorted alone,
 * stably; items outside every segment are not written. --------------- */
struct DeviceSegmentedRadixSort {
#define SIMTLAB_CUB_SEG_SORT(NAME, DESC)                                                                       \
    template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>                  \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, const KeyT *d_keys_in,      \
                            KeyT *d_keys_out, const ValueT *d_values_in, ValueT *d_values_out, int num_items,  \
                            int num_segments, BeginOffsetIteratorT d_begin_offsets,                            \
                            EndOffsetIteratorT d_end_offsets, int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, \
                            cudaStream_t stream = 0, bool debug_synchronous = false, SIMTLAB_CUB_WHERE)        \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        return segmented<KeyT, ValueT>("cub::DeviceSegmentedRadixSort::" #NAME, where, d_temp_storage,         \
                                       temp_storage_bytes, d_keys_in, d_keys_out, d_values_in, d_values_out,   \
                                       num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit,     \
                                       end_bit, DESC, stream);                                                 \
    }
    SIMTLAB_CUB_SEG_SORT(SortPairs, false)
    SIMTLAB_CUB_SEG_SORT(SortPairsDescending, true)
#undef SIMTLAB_CUB_SEG_SORT
#define SIMTLAB_CUB_SEG_SORT(NAME, DESC)                                                                       \
    template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>                                \
    static cudaError_t NAME(void *d_temp_storage, std::size_t &temp_storage_bytes, const KeyT *d_keys_in,      \
                            KeyT *d_keys_out, int num_items, int num_segments,                                 \
                            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,            \
                            int begin_bit = 0, int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0,        \
                            bool debug_synchronous = false, SIMTLAB_CUB_WHERE)                                 \
    {                                                                                                          \
        (void)debug_synchronous;                                                                               \
        return segmented<KeyT, NullType>("cub::DeviceSegmentedRadixSort::" #NAME, where, d_temp_storage,       \
                                         temp_storage_bytes, d_keys_in, d_keys_out, nullptr, nullptr,          \
                                         num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit,   \
                                         end_bit, DESC, stream);                                               \
    }
    SIMTLAB_CUB_SEG_SORT(SortKeys, false)
    SIMTLAB_CUB_SEG_SORT(SortKeysDescending, true)
#undef SIMTLAB_CUB_SEG_SORT

private:
    template <class K, class V, class B, class E>
    static cudaError_t segmented(const char *api, ::simtlab_emu::here where, void *d_temp_storage,
                                 std::size_t &temp_storage_bytes, const K *d_keys_in, K *d_keys_out,
                                 const V *d_values_in, V *d_values_out, int num_items, int num_segments, B d_begin,
                                 E d_end, int begin_bit, int end_bit, bool descending, cudaStream_t stream)
    {
        namespace d = ::simtlab_emu::cub_detail;
        cudaError_t st;
        if ((st = d::check_count(api, num_items, where)) != cudaSuccess)
            return st;
        if ((st = d::check_segments(api, num_segments, where)) != cudaSuccess)
            return st;
        const std::size_t n = static_cast<std::size_t>(num_items);
        const std::size_t key_bytes = d::align_up(n * sizeof(K), 256);
        const std::size_t needed = key_bytes + (d_values_in ? n * sizeof(V) : 0);
        if (d::storage_phase(api, where, d_temp_storage, temp_storage_bytes, needed, &st))
            return st;
        if ((st = d::check_bits<K>(api, begin_bit, end_bit, where)) != cudaSuccess)
            return st;
        K *temp_keys = static_cast<K *>(d_temp_storage);
        V *temp_vals = reinterpret_cast<V *>(static_cast<unsigned char *>(d_temp_storage) + key_bytes);
        const bool pairs = d_values_in != nullptr;
        return d::run_on_stream(api, where, stream, [=]() {
            const int passes = d::radix_passes(begin_bit, end_bit);
            for (int s = 0; s < num_segments; ++s) {
                const std::size_t b = static_cast<std::size_t>(d_begin[s]), e = static_cast<std::size_t>(d_end[s]);
                if (e <= b)
                    continue;
                const std::size_t m = e - b;
                if (passes == 0) {
                    for (std::size_t i = b; i < e; ++i) {
                        d_keys_out[i] = d_keys_in[i];
                        if (pairs)
                            d_values_out[i] = d_values_in[i];
                    }
                    continue;
                }
                K *const kb[2] = {d_keys_out + b, temp_keys + b};
                V *const vb[2] = {pairs ? d_values_out + b : nullptr, pairs ? temp_vals + b : nullptr};
                d::radix_sort_serial<K, V>(m, begin_bit, end_bit, descending, d_keys_in + b,
                                           pairs ? d_values_in + b : nullptr, kb, vb, (passes - 1) % 2);
            }
        });
    }
};

/* ---- CachingDeviceAllocator (util_allocator.cuh) ------------------------
 * The emulator's is a thin layer over cudaMalloc/cudaFree, which are
 * already cheap here: blocks are not cached, so the bin parameters are
 * accepted and recorded; DeviceFree of a pointer it did not allocate is
 * cudaErrorInvalidValue. */
struct CachingDeviceAllocator {
    static const unsigned int INVALID_BIN = static_cast<unsigned int>(-1);
    static const std::size_t INVALID_SIZE = static_cast<std::size_t>(-1);
    static const int INVALID_DEVICE_ORDINAL = -1;

    unsigned int bin_growth;
    unsigned int min_bin;
    unsigned int max_bin;
    std::size_t max_cached_bytes;
    bool skip_cleanup;
    bool debug;

    CachingDeviceAllocator(unsigned int bin_growth_, unsigned int min_bin_ = 1, unsigned int max_bin_ = INVALID_BIN,
                           std::size_t max_cached_bytes_ = INVALID_SIZE, bool skip_cleanup_ = false,
                           bool debug_ = false)
        : bin_growth(bin_growth_), min_bin(min_bin_), max_bin(max_bin_), max_cached_bytes(max_cached_bytes_),
          skip_cleanup(skip_cleanup_), debug(debug_)
    {
    }
    explicit CachingDeviceAllocator(bool skip_cleanup_ = false, bool debug_ = false)
        : bin_growth(8), min_bin(3), max_bin(7), max_cached_bytes(6 * 1024 * 1024 - 1), skip_cleanup(skip_cleanup_),
          debug(debug_)
    {
    }
    ~CachingDeviceAllocator()
    {
        if (!skip_cleanup)
            (void)FreeAllCached();
    }

    cudaError_t SetMaxCachedBytes(std::size_t bytes)
    {
        max_cached_bytes = bytes;
        return cudaSuccess;
    }
    cudaError_t DeviceAllocate(int device, void **d_ptr, std::size_t bytes, cudaStream_t active_stream = 0)
    {
        (void)device;
        (void)active_stream;
        if (!d_ptr)
            return simtlab_emu_cub_invalid("cub::CachingDeviceAllocator::DeviceAllocate: d_ptr is NULL");
        cudaError_t st = cudaMalloc(d_ptr, bytes);
        if (st == cudaSuccess) {
            std::lock_guard<std::mutex> hold(lock_);
            live_[*d_ptr] = bytes;
        }
        return st;
    }
    cudaError_t DeviceAllocate(void **d_ptr, std::size_t bytes, cudaStream_t active_stream = 0)
    {
        return DeviceAllocate(0, d_ptr, bytes, active_stream);
    }
    cudaError_t DeviceFree(int device, void *d_ptr)
    {
        (void)device;
        {
            std::lock_guard<std::mutex> hold(lock_);
            auto it = live_.find(d_ptr);
            if (it == live_.end())
                return simtlab_emu_cub_invalid("cub::CachingDeviceAllocator::DeviceFree: %p was not allocated by "
                                               "this allocator (or was freed already)",
                                               d_ptr);
            live_.erase(it);
        }
        return cudaFree(d_ptr);
    }
    cudaError_t DeviceFree(void *d_ptr) { return DeviceFree(0, d_ptr); }
    /* Nothing is cached, so nothing to free. */
    cudaError_t FreeAllCached() { return cudaSuccess; }

private:
    std::mutex lock_;
    std::map<void *, std::size_t> live_;
};

} /* namespace cub */

#undef SIMTLAB_CUB_WHERE
#undef SIMTLAB_CUB_NUM

#endif /* SIMTLAB_EMU_CUB_DEVICE_HPP */
