/* simtlab CPU emulator — <cooperative_groups/memcpy_async.h>:
 * cg::memcpy_async(group, dst, src, bytes) and cg::wait(group),
 * cg::wait_prior<N>(group).
 *
 * Every thread of the group calls memcpy_async with the same arguments; the
 * thread of rank 0 copies at once, and wait() is the group's sync(), so
 * that no thread reads dst before the copy is complete, which is all that
 * CUDA promises. Nothing overlaps: the emulator measures no time.
 * The size may be a size_t or a cuda::aligned_size_t (anything that converts
 * to size_t); the (dst, dst_count, src, src_count) form copies
 * min(dst_count, src_count) elements.
 */
#ifndef _CG_MEMCPY_ASYNC_H_
#define _CG_MEMCPY_ASYNC_H_

#include <cooperative_groups.h>

#include <cstddef>
#include <cstring>

namespace cooperative_groups {

template <class Group, class Size>
inline void memcpy_async(const Group &group, void *dst, const void *src, const Size &bytes)
{
    if (group.thread_rank() == 0)
        std::memcpy(dst, src, static_cast<std::size_t>(bytes));
}

template <class Group, class T>
inline void memcpy_async(const Group &group, T *dst, std::size_t dst_count, const T *src, std::size_t src_count)
{
    const std::size_t count = dst_count < src_count ? dst_count : src_count;
    if (group.thread_rank() == 0)
        std::memcpy(static_cast<void *>(dst), static_cast<const void *>(src), count * sizeof(T));
}

template <class Group>
inline void wait(const Group &group, details::here where = SIMTLAB_EMU_CALLER)
{
    group.sync(where);
}

template <unsigned N, class Group>
inline void wait_prior(const Group &group, details::here where = SIMTLAB_EMU_CALLER)
{
    group.sync(where);
}

} /* namespace cooperative_groups */

#endif
