/* simtlab CPU emulator — <cooperative_groups/scan.h>: cg::inclusive_scan and
 * cg::exclusive_scan over a thread_block_tile or a coalesced_group, in rank
 * order, with cg::plus by default or any operator of
 * <cooperative_groups/reduce.h>. One warp collective: the last lane to
 * arrive computes every lane's prefix. exclusive_scan gives rank 0 a
 * value-initialised T (0 for numbers): CUDA leaves it undefined for an
 * operator other than cg::plus.
 */
#ifndef _CG_SCAN_H_
#define _CG_SCAN_H_

#include <cooperative_groups/reduce.h>

namespace cooperative_groups {
namespace details {

template <class T, class Op>
struct scan_ctx {
    const Op *op;
    bool inclusive;
};

template <class T, class Op>
inline void scan_exchange(void *const lanes[32], unsigned, void *ctx)
{
    const scan_ctx<T, Op> &c = *static_cast<const scan_ctx<T, Op> *>(ctx);
    bool first = true;
    T running{};
    for (unsigned lane = 0; lane < 32u; lane++) {
        if (!lanes[lane])
            continue;
        reduce_lane<T> &me = *static_cast<reduce_lane<T> *>(lanes[lane]);
        const T value = *me.value;
        if (!c.inclusive)
            *me.result = first ? T{} : running;
        running = first ? value : (*c.op)(running, value);
        if (c.inclusive)
            *me.result = running;
        first = false;
    }
}

template <class Group, class T, class Op>
inline T scan(const Group &group, const T &value, const Op &op, bool inclusive, const char *name, here where)
{
    T result = value;
    reduce_lane<T> me{&value, &result};
    scan_ctx<T, Op> ctx{&op, inclusive};
    ::simtlab_emu::warp_collective(group.simtlab_emu_lanes(), &me, &scan_exchange<T, Op>, &ctx, name, where);
    return result;
}

} /* namespace details */

template <class Group, class T, class Op>
inline std::decay_t<T> inclusive_scan(const Group &group, T &&value, Op &&op,
                                      details::here where = SIMTLAB_EMU_CALLER)
{
    const std::decay_t<T> v = value;
    const std::decay_t<Op> fn = op;
    return details::scan(group, v, fn, true, "cg::inclusive_scan", where);
}
template <class Group, class T>
inline std::decay_t<T> inclusive_scan(const Group &group, T &&value, details::here where = SIMTLAB_EMU_CALLER)
{
    const std::decay_t<T> v = value;
    return details::scan(group, v, plus<std::decay_t<T>>(), true, "cg::inclusive_scan", where);
}
template <class Group, class T, class Op>
inline std::decay_t<T> exclusive_scan(const Group &group, T &&value, Op &&op,
                                      details::here where = SIMTLAB_EMU_CALLER)
{
    const std::decay_t<T> v = value;
    const std::decay_t<Op> fn = op;
    return details::scan(group, v, fn, false, "cg::exclusive_scan", where);
}
template <class Group, class T>
inline std::decay_t<T> exclusive_scan(const Group &group, T &&value, details::here where = SIMTLAB_EMU_CALLER)
{
    const std::decay_t<T> v = value;
    return details::scan(group, v, plus<std::decay_t<T>>(), false, "cg::exclusive_scan", where);
}

} /* namespace cooperative_groups */

#endif
