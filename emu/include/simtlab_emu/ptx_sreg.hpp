/* simtlab CPU emulator — PTX special registers, for inline PTX that reads
 * them: slrewrite (src/tools/rewriter/rewrite_asm.c) turns
 *     asm("mov.u32 %0, %%laneid;" : "=r"(lane));
 * into
 *     do { (lane) = (unsigned int)::simtlab_emu::ptx_sreg::laneid(); } while (0);
 * Every other PTX template is a compile-time error that names it.
 *
 * %smid is the block's linear index modulo the emulated device's SM count,
 * as if blocks were dealt to SMs in turn; %warpid is the warp's index in its
 * block (PTX allows it to change; here it does not); the clocks are
 * clock64()'s (device_atomic.hpp), %globaltimer nanoseconds of the host's
 * steady clock.
 */
#ifndef SIMTLAB_EMU_PTX_SREG_HPP
#define SIMTLAB_EMU_PTX_SREG_HPP

#include <simtlab_emu/engine.hpp>

#include <chrono>

namespace simtlab_emu {
namespace ptx_sreg {

inline unsigned linear_tid()
{
    return thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z);
}
inline unsigned long long linear_ctaid()
{
    return block_idx.x + (unsigned long long)grid_dim.x * (block_idx.y + (unsigned long long)grid_dim.y * block_idx.z);
}
inline unsigned nsmid()
{
    int sms = 1;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms < 1)
        sms = 1;
    return static_cast<unsigned>(sms);
}

inline unsigned laneid() { return linear_tid() % 32u; }
inline unsigned warpid() { return linear_tid() / 32u; }
inline unsigned nwarpid() { return 64u; /* 2048 threads per SM / 32 */ }
inline unsigned smid() { return static_cast<unsigned>(linear_ctaid() % nsmid()); }
inline unsigned long long clock64()
{
    return static_cast<unsigned long long>(::clock64());
}
inline unsigned clock32() { return static_cast<unsigned>(clock64()); }
inline unsigned clock_hi() { return static_cast<unsigned>(clock64() >> 32); }
inline unsigned long long globaltimer()
{
    return static_cast<unsigned long long>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}
inline unsigned globaltimer_lo() { return static_cast<unsigned>(globaltimer()); }
inline unsigned globaltimer_hi() { return static_cast<unsigned>(globaltimer() >> 32); }
inline unsigned lanemask_eq() { return 1u << laneid(); }
inline unsigned lanemask_lt() { return (1u << laneid()) - 1u; }
inline unsigned lanemask_le() { return lanemask_lt() | lanemask_eq(); }
inline unsigned lanemask_gt() { return ~lanemask_le(); }
inline unsigned lanemask_ge() { return ~lanemask_lt(); }
inline unsigned tid_x() { return thread_idx.x; }
inline unsigned tid_y() { return thread_idx.y; }
inline unsigned tid_z() { return thread_idx.z; }
inline unsigned ntid_x() { return block_dim.x; }
inline unsigned ntid_y() { return block_dim.y; }
inline unsigned ntid_z() { return block_dim.z; }
inline unsigned ctaid_x() { return block_idx.x; }
inline unsigned ctaid_y() { return block_idx.y; }
inline unsigned ctaid_z() { return block_idx.z; }
inline unsigned nctaid_x() { return grid_dim.x; }
inline unsigned nctaid_y() { return grid_dim.y; }
inline unsigned nctaid_z() { return grid_dim.z; }
inline unsigned long long gridid() { return 0; }

} /* namespace ptx_sreg */
} /* namespace simtlab_emu */

#endif
