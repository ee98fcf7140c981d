/* simtlab host library — the occupancy calculator (chapter 03).
 *
 * An SM holds a block only when it has room for all of it at once: its warps,
 * a block slot, its registers and its shared memory. Each of the four alone
 * allows some number of blocks; the least of them is what the SM holds, and
 * the resource that gives the least is the one to spend less of.
 *
 * The numbers below are NVIDIA's published limits:
 *   - CUDA C++ Programming Guide, "Compute Capabilities", table "Technical
 *     Specifications per Compute Capability": resident blocks, warps and
 *     threads per SM, 64K 32-bit registers per SM and per block, 255
 *     registers per thread, shared memory per SM and per block (opt-in);
 *   - the CUDA 13.0 toolkit's include/cuda_occupancy.h (the rules behind
 *     cudaOccupancyMaxActiveBlocksPerMultiprocessor): registers given out
 *     per warp in units of 256, the register file split in 4 sub-partitions
 *     (a warp's registers all in one), shared memory given out in units of
 *     256 bytes on 7.x and 128 bytes on 8.x and later, the 1 KB per block the
 *     driver reserves from 8.0 on (cudaDevAttrReservedSharedMemoryPerBlock),
 *     and the resident blocks per SM of 8.9 and 12.x (24).
 * Shared memory per SM is taken at the largest carveout, as the runtime's
 * calculator does when the kernel sets no carveout preference.
 */
#include <stdio.h>
#include <string.h>

#include "sl_internal.h"
#include "simtlab/03_occupancy.h"

#define KB ((size_t)1024)

/*  arch  threads warps blocks regs/SM regs/block regs/thread unit parts  smem/SM    smem/block  unit  reserved */
static const sl_arch_limits limits_table[] = {
    {75, 1024, 32, 16, 65536, 65536, 255, 256, 4, 64 * KB, 64 * KB, 256, 0},        /* Turing */
    {80, 1024, 64, 32, 65536, 65536, 255, 256, 4, 164 * KB, 163 * KB, 128, 1024},   /* A100 */
    {86, 1024, 48, 16, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, 128, 1024},    /* RTX 30xx, A10 */
    {89, 1024, 48, 24, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, 128, 1024},    /* RTX 40xx, L4 */
    {90, 1024, 64, 32, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, 128, 1024},   /* H100, H200 */
    {100, 1024, 64, 32, 65536, 65536, 255, 256, 4, 228 * KB, 227 * KB, 128, 1024},  /* B200 */
    {120, 1024, 48, 24, 65536, 65536, 255, 256, 4, 100 * KB, 99 * KB, 128, 1024},   /* RTX 50xx */
};
#define ARCH_COUNT (sizeof limits_table / sizeof limits_table[0])

static const int arch_list[ARCH_COUNT] = {75, 80, 86, 89, 90, 100, 120};

const int *sl_occupancy_archs(size_t *count)
{
    if (sl_check_host_opt("sl_occupancy_archs", "count", count) == SL_OK && count) *count = ARCH_COUNT;
    return arch_list;
}

sl_status sl_arch_limits_get(int arch, sl_arch_limits *out)
{
    sl_status st = sl_check_host_ptr("sl_arch_limits_get", "out", out);
    if (st != SL_OK) return st;
    for (size_t i = 0; i < ARCH_COUNT; i++) {
        if (limits_table[i].arch == arch) {
            *out = limits_table[i];
            return SL_OK;
        }
    }
    return sl_fail(SL_ERR_INVALID_ARGUMENT,
                   "sl_arch_limits_get: arch %d is not one the calculator knows (75, 80, 86, 89, 90, 100, 120: "
                   "the compute capability times 10, e.g. 80 for sm_80)",
                   arch);
}

static size_t round_up(size_t x, size_t unit) { return (x + unit - 1) / unit * unit; }

sl_status sl_occupancy_calc(int arch, int threads, int registers, size_t shared_static, size_t shared_dynamic,
                            sl_occupancy *out)
{
    const char *fn = "sl_occupancy_calc";
    sl_status st = sl_check_host_ptr(fn, "out", out);
    if (st != SL_OK) return st;
    sl_arch_limits a;
    if (sl_arch_limits_get(arch, &a) != SL_OK)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: arch %d is not one the calculator knows (75, 80, 86, 89, 90, 100, 120: "
                       "the compute capability times 10, e.g. 80 for sm_80)",
                       fn, arch);
    if (threads < 1 || threads > a.max_threads_per_block)
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: threads %d per block is outside 1..%d (sm_%d)", fn, threads,
                       a.max_threads_per_block, arch);
    if (registers < 0 || registers > a.max_registers_per_thread)
        return sl_fail(SL_ERR_INVALID_ARGUMENT,
                       "%s: registers %d per thread is outside 0..%d (ptxas never gives a thread more)", fn,
                       registers, a.max_registers_per_thread);
    /* More than a block may have is an answer (0 blocks), not an error; only
     * a size no GPU has (past 1 GiB, where the sum could overflow) is. */
    if (shared_static > (1u << 30) || shared_dynamic > (1u << 30))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "%s: %s %zu bytes of shared memory is more than any GPU has", fn,
                       shared_static > (1u << 30) ? "shared_static" : "shared_dynamic",
                       shared_static > (1u << 30) ? shared_static : shared_dynamic);

    sl_occupancy o;
    memset(&o, 0, sizeof o);
    o.max_warps = a.max_warps_per_sm;
    o.warps_per_block = (threads + 31) / 32;

    /* Warps and block slots. */
    o.blocks_by_warps = a.max_warps_per_sm / o.warps_per_block;
    o.blocks_by_slots = a.max_blocks_per_sm;

    /* Registers: each warp gets registers x 32 rounded up to the unit, all in
     * one of the sub-partitions; a block must also fit the per-block limit,
     * which the hardware checks as if its warps were spread evenly over the
     * sub-partitions (their count rounded up to a multiple of 4). */
    o.registers_per_warp = (int)round_up((size_t)registers * 32, (size_t)a.register_unit);
    if (o.registers_per_warp == 0) {
        o.blocks_by_registers = -1;
    } else {
        int warps_rounded = (int)round_up((size_t)o.warps_per_block, (size_t)a.sub_partitions);
        if ((long)o.registers_per_warp * warps_rounded > a.max_registers_per_block) {
            o.blocks_by_registers = 0;
        } else {
            int warps_per_part = a.registers_per_sm / a.sub_partitions / o.registers_per_warp;
            o.blocks_by_registers = warps_per_part * a.sub_partitions / o.warps_per_block;
        }
    }

    /* Shared memory: what the block asks for plus the driver's reserve, in
     * whole units. The reserve is there even for a kernel with none. */
    size_t asked = shared_static + shared_dynamic;
    o.shared_per_block = round_up(asked + a.shared_reserved, a.shared_unit);
    if (asked > a.max_shared_per_block)
        o.blocks_by_shared = 0;
    else if (o.shared_per_block == 0)
        o.blocks_by_shared = -1;
    else
        o.blocks_by_shared = (int)(a.shared_per_sm / o.shared_per_block);

    const int by[4] = {o.blocks_by_registers, o.blocks_by_shared, o.blocks_by_warps, o.blocks_by_slots};
    int least = -1;
    for (int i = 0; i < 4; i++)
        if (by[i] >= 0 && (least < 0 || by[i] < least)) least = by[i];
    o.active_blocks = least;
    for (int i = 0; i < 4; i++)
        if (by[i] == least) o.limits |= 1u << i;
    for (int i = 0; i < 4; i++)
        if (o.limits & (1u << i)) {
            o.limit = (sl_occupancy_limit)(1u << i);
            break;
        }
    o.active_warps = o.active_blocks * o.warps_per_block;
    o.occupancy = (double)o.active_warps / (double)o.max_warps;
    *out = o;
    return SL_OK;
}

const char *sl_occupancy_limit_name(sl_occupancy_limit limit)
{
    switch (limit) {
    case SL_OCC_REGISTERS: return "registers";
    case SL_OCC_SHARED: return "shared memory";
    case SL_OCC_WARPS: return "warps";
    case SL_OCC_BLOCKS: return "block slots";
    }
    return "?";
}

const char *sl_occupancy_limits_text(unsigned limits, char *buf, size_t size)
{
    if (!buf || size == 0 || sl_check_host_ptr("sl_occupancy_limits_text", "buf", buf) != SL_OK) return "";
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < 4; i++) {
        if (!(limits & (1u << i))) continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? " + " : "",
                         sl_occupancy_limit_name((sl_occupancy_limit)(1u << i)));
        if (n < 0 || (size_t)n >= size - used) break;
        used += (size_t)n;
    }
    return buf;
}
