/* simtlab CPU emulator — where the runtime tells the census
 * (runtime/census.cpp, simtlab_emu/census.h) what happened. Each hook is a
 * relaxed load and a branch while no census runs. */
#ifndef SIMTLAB_EMU_CENSUS_INTERNAL_HPP
#define SIMTLAB_EMU_CENSUS_INTERNAL_HPP

#include <simtlab_emu/engine.hpp>

#include <atomic>
#include <cstddef>

namespace simtlab_emu {
namespace census {

extern std::atomic<bool> active;

void launch_begin_slow(const launch_site &site, dim3 grid, dim3 block, cudaStream_t stream);
void launch_end_slow();
void copied_slow(void *dst, bool dst_dev, const void *src, bool src_dev, std::size_t count);
void memset_slow(void *ptr, std::size_t count);
void async_slow(cudaStream_t stream, bool copy);
void host_wait_slow();

/* run_grid, around the launch (runtime/launch.cpp). */
inline void launch_begin(const launch_site &site, dim3 grid, dim3 block, cudaStream_t stream)
{
    if (active.load(std::memory_order_relaxed))
        launch_begin_slow(site, grid, block, stream);
}
inline void launch_end()
{
    if (active.load(std::memory_order_relaxed))
        launch_end_slow();
}
/* A copy that has just moved its bytes, its device pointers still open
 * (runtime/copy.cpp). Takes no registry lock: the copy holds it. */
inline void copied(void *dst, bool dst_dev, const void *src, bool src_dev, std::size_t count)
{
    if (active.load(std::memory_order_relaxed))
        copied_slow(dst, dst_dev, src, src_dev, count);
}
inline void memset_done(void *ptr, std::size_t count)
{
    if (active.load(std::memory_order_relaxed))
        memset_slow(ptr, count);
}
/* cudaMemcpyAsync / cudaMemsetAsync on `stream`, after they ran. */
inline void async_op(cudaStream_t stream, bool copy)
{
    if (active.load(std::memory_order_relaxed))
        async_slow(stream, copy);
}
/* A host-side wait (runtime::host_wait). */
inline void host_wait()
{
    if (active.load(std::memory_order_relaxed))
        host_wait_slow();
}

} /* namespace census */
} /* namespace simtlab_emu */

#endif
