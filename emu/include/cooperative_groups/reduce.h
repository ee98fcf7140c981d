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
    return result;
}

} /* namespace cooperative_groups */

#endif
