/* simtlab CPU emulator — <cooperative_groups/reduce.h>: cg::reduce over a
 * thread_block_tile or a coalesced_group, and the operators cg::plus,
 * cg::less (the smaller), cg::greater (the larger), cg::bit_and, cg::bit_or,
 * cg::bit_xor. Any functor or lambda that combines two values works too.
 *
 * One warp collective: the last lane of the group to arrive combines every
 * lane's value in the order of a shuffle-down tree over the ranks (rank r
 * with r + s for s = n/2, n/4, ..., 1, n rounded up to a power of two), as
 * a hand-written shuffle reduction does, and every lane receives the
 * result. Floating-point sums therefore round as such a tree does, not as a
 * sequential loop.
 */
#ifndef _CG_REDUCE_H_
#define _CG_REDUCE_H_

#include <cooperative_groups.h>

#include <type_traits>
#include <utility>

namespace cooperative_groups {

template <class T>
struct plus {
    T operator()(const T &a, const T &b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(const T &a, const T &b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(const T &a, const T &b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(const T &a, const T &b) const { return a ^ b; }
};

namespace details {

template <class T>
struct reduce_lane {
    const T *value;
    T *result;
};

/* The tree over the ranks of the lanes present, as described above. */
template <class T, class Op>
inline void reduce_exchange(void *const lanes[32], unsigned, void *ctx)
{
    const Op &op = *static_cast<const Op *>(ctx);
    reduce_lane<T> *in_rank[32];
    unsigned n = 0;
    for (unsigned lane = 0; lane < 32u; lane++)
        if (lanes[lane])
            in_rank[n++] = static_cast<reduce_lane<T> *>(lanes[lane]);
    for (unsigned r = 0; r < n; r++)
        *in_rank[r]->result = *in_rank[r]->value;
    unsigned width = 1;
    while (width < n)
        width *= 2;
    for (unsigned s = width / 2; s >= 1; s /= 2)
        for (unsigned r = 0; r < s && r + s < n; r++)
            *in_rank[r]->result = op(*in_rank[r]->result, *in_rank[r + s]->result);
    for (unsigned r = 1; r < n; r++)
        *in_rank[r]->result = *in_rank[0]->result;
}

template <class G, class = void>
struct multi_warp : std::false_type {};
template <class G>
struct multi_warp<G, std::void_t<decltype(G::simtlab_emu_multi_warp)>> : std::true_type {};

/* A tile of more than 32 threads: each warp's lanes are combined as above,
 * then the warps' results, in the same tree order over the warps of the
 * tile, through the block's multi_warp_state (cooperative_groups.h); every
 * thread of the tile receives the result. Two syncs of the tile: one after
 * the warps' results are written, one before the slots may be reused. */
template <class Group, class V, class F>
inline V reduce_warps(const Group &group, V warp_result, const F &fn, here where)
{
    static_assert(sizeof(V) <= 16 && std::is_trivially_copyable_v<V>,
                  "the emulator's cg::reduce over a tile of more than 32 threads takes values of up to 16 bytes");
    multi_warp_state &s = multi_warp_shared(where);
    const unsigned warp = block_rank() / 32u;
    if (lane() == 0u)
        __builtin_memcpy(s.partial[warp], &warp_result, sizeof(V));
    group.sync(where);
    const unsigned size = static_cast<unsigned>(group.size()), tile = block_rank() / size;
    const unsigned first_thread = tile * size, block = block_size();
    const unsigned members = first_thread + size <= block ? size : block - first_thread;
    const unsigned first = first_thread / 32u, n = (members + 31u) / 32u;
    V part[32];
    for (unsigned r = 0; r < n; r++)
        __builtin_memcpy(&part[r], s.partial[first + r], sizeof(V));
    unsigned width = 1;
    while (width < n)
        width *= 2;
    for (unsigned step = width / 2; step >= 1; step /= 2)
        for (unsigned r = 0; r < step && r + step < n; r++)
            part[r] = fn(part[r], part[r + step]);
    group.sync(where);
    return part[0];
}

} /* namespace details */

template <class Group, class T, class Op>
inline std::decay_t<T> reduce(const Group &group, T &&value, Op &&op, details::here where = SIMTLAB_EMU_CALLER)
{
    static_assert(!std::is_same_v<Group, thread_block> && !std::is_same_v<Group, grid_group>,
                  "cg::reduce takes a thread_block_tile or a coalesced_group");
    using V = std::decay_t<T>;
    using F = std::decay_t<Op>;
    const V mine = value;
    V result = mine;
    details::reduce_lane<V> me{&mine, &result};
    const F fn = op;
    ::simtlab_emu::warp_collective(group.simtlab_emu_lanes(), &me, &details::reduce_exchange<V, F>,
                                   const_cast<F *>(&fn), "cg::reduce", where);
    if constexpr (details::multi_warp<Group>::value)
        return details::reduce_warps(group, result, fn, where);
    return result;
}

} /* namespace cooperative_groups */

#endif
