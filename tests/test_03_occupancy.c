/* The occupancy calculator (host/03_occupancy.c), CPU only: for each
 * architecture a kernel limited by registers, by shared memory, by warps and
 * by block slots, worked by hand from NVIDIA's rules (host/03_occupancy.c says
 * where each limit comes from), then bad input, then the emulator's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor beside it.
 *
 * The rules, as the comments use them:
 *   warps per block  = ceil(threads / 32)
 *   by warps         = max warps per SM / warps per block
 *   by slots         = max blocks per SM
 *   by registers     = floor(16384 / regs per warp) * 4 / warps per block,
 *                      regs per warp = registers * 32 rounded up to 256
 *                      (65536 registers in 4 sub-partitions of 16384)
 *   by shared memory = shared per SM / (static + dynamic + reserve rounded up
 *                      to the unit); reserve 1 KB from sm_80 on, unit 128 B
 *                      (256 B on sm_75)
 *   active blocks    = the least; occupancy = active warps / max warps. */
#include <criterion/criterion.h>
#include <math.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtlab/simtlab.h"

static void expect(int arch, int threads, int regs, size_t shared, size_t dynamic, int blocks, int warps,
                   sl_occupancy_limit limit)
{
    sl_occupancy o;
    sl_status st = sl_occupancy_calc(arch, threads, regs, shared, dynamic, &o);
    cr_assert_eq(st, SL_OK, "sm_%d: %s", arch, sl_last_error());
    cr_assert_eq(o.active_blocks, blocks, "sm_%d, %d threads, %d regs, %zu+%zu smem: %d blocks, expected %d", arch,
                 threads, regs, shared, dynamic, o.active_blocks, blocks);
    cr_assert_eq(o.active_warps, warps, "sm_%d: %d warps, expected %d", arch, o.active_warps, warps);
    cr_assert_eq(o.limit, limit, "sm_%d: limited by %s, expected %s", arch, sl_occupancy_limit_name(o.limit),
                 sl_occupancy_limit_name(limit));
    cr_assert_eq(o.limits, (unsigned)limit, "sm_%d: more than one resource limits (mask %u)", arch, o.limits);
    cr_assert(fabs(o.occupancy - (double)warps / o.max_warps) < 1e-12);
}

/* sm_75: 32 warps, 16 blocks, 64 KB of shared memory per SM, 256-byte units, no reserve. */
Test(occupancy, sm_75_hand_worked)
{
    /* 128 regs x 32 = 4096 per warp; 16384 / 4096 = 4 warps per part, 16 per SM;
     * 256 threads = 8 warps -> 2 blocks (warps would allow 32 / 8 = 4). 16 of 32 warps: 50%. */
    expect(75, 256, 128, 0, 0, 2, 16, SL_OCC_REGISTERS);
    /* 20000 B -> 20224 (79 units of 256); 65536 / 20224 = 3 blocks of 4 warps
     * (registers 16 regs: 512 per warp, 32 per part, 128 warps -> 32; warps 8; slots 16). 12 warps: 37.5%. */
    expect(75, 128, 16, 20000, 0, 3, 12, SL_OCC_SHARED);
    /* 1 warp per block: warps allow 32, slots 16. 16 warps: 50%. */
    expect(75, 32, 16, 0, 0, 16, 16, SL_OCC_BLOCKS);
    /* 1024 threads = 32 warps: warps allow 1 (registers: 1024 per warp, 16 per part, 64 warps -> 2). 100%. */
    expect(75, 1024, 32, 0, 0, 1, 32, SL_OCC_WARPS);
}

/* sm_80: 64 warps, 32 blocks, 164 KB (167936 B) per SM, 128-byte units, 1 KB reserve. */
Test(occupancy, sm_80_hand_worked)
{
    /* 255 x 32 = 8160 -> 8192 per warp; 16384 / 8192 = 2 per part, 8 per SM; 4-warp blocks -> 2.
     * 8 of 64 warps: 12.5%. */
    expect(80, 128, 255, 0, 0, 2, 8, SL_OCC_REGISTERS);
    /* 49152 + 1024 = 50176 (392 units); 167936 / 50176 = 3 blocks of 8 warps
     * (registers 32: 1024 per warp, 16 per part, 64 warps -> 8; warps 8). 24 warps: 37.5%. */
    expect(80, 256, 32, 49152, 0, 3, 24, SL_OCC_SHARED);
    /* 1 warp: warps 64, slots 32, registers 128, shared 167936 / 1024 = 164. 32 warps: 50%. */
    expect(80, 32, 16, 0, 0, 32, 32, SL_OCC_BLOCKS);
    /* 16 warps: warps 64 / 16 = 4; registers 24 x 32 = 768, 16384 / 768 = 21 per part, 84 -> 5. 100%. */
    expect(80, 512, 24, 0, 0, 4, 64, SL_OCC_WARPS);
    /* The sub-partitions matter: 40 x 32 = 1280 per warp, 16384 / 1280 = 12 per part, 48 warps,
     * 3-warp blocks -> 16 (65536 / 1280 = 51 warps over the whole SM would give 17). 48 warps: 75%. */
    expect(80, 96, 40, 0, 0, 16, 48, SL_OCC_REGISTERS);
}

/* sm_86: 48 warps, 16 blocks, 100 KB (102400 B) per SM. */
Test(occupancy, sm_86_hand_worked)
{
    /* 4096 per warp -> 4 per part, 16 warps; 8-warp blocks -> 2 (warps 6). 16 of 48: 33%. */
    expect(86, 256, 128, 0, 0, 2, 16, SL_OCC_REGISTERS);
    /* 32768 + 1024 = 33792; 102400 / 33792 = 3 blocks of 4 warps (registers 16, warps 12, slots 16). 25%. */
    expect(86, 128, 32, 32768, 0, 3, 12, SL_OCC_SHARED);
    /* 2 warps: warps 24, slots 16, registers 128 / 2 = 64, shared 100. 32 warps: 67%. */
    expect(86, 64, 16, 0, 0, 16, 32, SL_OCC_BLOCKS);
    /* 24 warps: warps 2 (registers 512 per warp, 128 warps -> 5). 48 warps: 100%. */
    expect(86, 768, 16, 0, 0, 2, 48, SL_OCC_WARPS);
}

/* sm_89: 48 warps, 24 blocks, 100 KB per SM. */
Test(occupancy, sm_89_hand_worked)
{
    /* 96 x 32 = 3072 per warp; 16384 / 3072 = 5 per part, 20 warps; 4-warp blocks -> 5 (warps 12). 42%. */
    expect(89, 128, 96, 0, 0, 5, 20, SL_OCC_REGISTERS);
    /* static 16384 + dynamic 16384 + 1024 = 33792 -> 3 blocks of 8 warps (registers 8, warps 6). 50%. */
    expect(89, 256, 32, 16384, 16384, 3, 24, SL_OCC_SHARED);
    /* 1 warp: warps 48, slots 24, registers 64. 24 warps: 50%. */
    expect(89, 32, 32, 0, 0, 24, 24, SL_OCC_BLOCKS);
    /* 16 warps: warps 3 (registers 64 / 16 = 4). 100%. */
    expect(89, 512, 32, 0, 0, 3, 48, SL_OCC_WARPS);
}

/* sm_90: 64 warps, 32 blocks, 228 KB (233472 B) per SM. */
Test(occupancy, sm_90_hand_worked)
{
    /* 168 x 32 = 5376 (21 units); 16384 / 5376 = 3 per part, 12 warps; 8-warp blocks -> 1 (warps 8).
     * 8 of 64: 12.5%. */
    expect(90, 256, 168, 0, 0, 1, 8, SL_OCC_REGISTERS);
    /* dynamic 102400 + 1024 = 103424 (808 units); 233472 / 103424 = 2 blocks of 4 warps
     * (registers 16, warps 16, slots 32). 12.5%. */
    expect(90, 128, 32, 0, 102400, 2, 8, SL_OCC_SHARED);
    /* 0 registers set no limit; 1 warp: warps 64, slots 32, shared 233472 / 1024 = 228. 50%. */
    expect(90, 32, 0, 0, 0, 32, 32, SL_OCC_BLOCKS);
    /* 8 warps: warps 8 (registers 16: 512 per warp, 128 warps -> 16). 100%. */
    expect(90, 256, 16, 0, 0, 8, 64, SL_OCC_WARPS);
}

/* sm_100: as sm_90. */
Test(occupancy, sm_100_hand_worked)
{
    /* 64 x 32 = 2048 per warp, 8 per part, 32 warps; a 32-warp block -> 1 (warps 2). 50%. */
    expect(100, 1024, 64, 0, 0, 1, 32, SL_OCC_REGISTERS);
    /* 40000 + 1024 = 41024 -> 41088 (321 units); 233472 / 41088 = 5 blocks of 2 warps
     * (registers 64, warps 32, slots 32). 10 of 64: 15.6%. */
    expect(100, 64, 16, 40000, 0, 5, 10, SL_OCC_SHARED);
    /* 1 warp: slots 32 (warps 64). 50%. */
    expect(100, 32, 16, 0, 0, 32, 32, SL_OCC_BLOCKS);
    /* 32 warps: warps 2 (registers 128 / 32 = 4). 100%. */
    expect(100, 1024, 16, 0, 0, 2, 64, SL_OCC_WARPS);
}

/* sm_120: 48 warps, 24 blocks, 100 KB per SM. */
Test(occupancy, sm_120_hand_worked)
{
    /* 80 x 32 = 2560 per warp; 16384 / 2560 = 6 per part, 24 warps; 8-warp blocks -> 3 (warps 6). 50%. */
    expect(120, 256, 80, 0, 0, 3, 24, SL_OCC_REGISTERS);
    /* 49152 + 1024 = 50176; 102400 / 50176 = 2 blocks of 4 warps (registers 16, warps 12). 8 of 48: 17%. */
    expect(120, 128, 32, 49152, 0, 2, 8, SL_OCC_SHARED);
    /* 1 warp: slots 24 (warps 48, registers 64). 50%. */
    expect(120, 32, 32, 0, 0, 24, 24, SL_OCC_BLOCKS);
    /* 12 warps: warps 4 (registers 64 / 12 = 5). 100%. */
    expect(120, 384, 32, 0, 0, 4, 48, SL_OCC_WARPS);
}

Test(occupancy, a_block_that_cannot_fit_gets_0_and_the_resource)
{
    sl_occupancy o;
    /* 72 x 32 = 2304 per warp x 32 warps = 73728 > 65536 registers a block may have. */
    cr_assert_eq(sl_occupancy_calc(80, 1024, 72, 0, 0, &o), SL_OK);
    cr_assert_eq(o.active_blocks, 0);
    cr_assert_eq(o.limit, SL_OCC_REGISTERS);
    /* 64 x 32 = 2048 x 32 warps = 65536: fits, exactly one block. */
    cr_assert_eq(sl_occupancy_calc(80, 1024, 64, 0, 0, &o), SL_OK);
    cr_assert_eq(o.active_blocks, 1);
    /* 163 KB is the most a block may have on sm_80; one byte more does not fit. */
    cr_assert_eq(sl_occupancy_calc(80, 128, 32, 166912, 0, &o), SL_OK);
    cr_assert_eq(o.active_blocks, 1);
    cr_assert_eq(sl_occupancy_calc(80, 128, 32, 166912, 1, &o), SL_OK);
    cr_assert_eq(o.active_blocks, 0);
    cr_assert_eq(o.limit, SL_OCC_SHARED);
}

Test(occupancy, ties_name_every_limit)
{
    sl_occupancy o;
    char text[64];
    /* sm_80, 2 warps: warps 32, slots 32. */
    cr_assert_eq(sl_occupancy_calc(80, 64, 16, 0, 0, &o), SL_OK);
    cr_assert_eq(o.active_blocks, 32);
    cr_assert_eq(o.limits, (unsigned)(SL_OCC_WARPS | SL_OCC_BLOCKS));
    cr_assert_str_eq(sl_occupancy_limits_text(o.limits, text, sizeof text), "warps + block slots");
}

static void expect_refused(int arch, int threads, int regs, size_t shared, int null_out, const char *word)
{
    sl_occupancy o;
    sl_clear_error();
    sl_status st = sl_occupancy_calc(arch, threads, regs, shared, 0, null_out ? NULL : &o);
    cr_assert_eq(st, SL_ERR_INVALID_ARGUMENT, "arch %d threads %d regs %d accepted", arch, threads, regs);
    cr_assert(strstr(sl_last_error(), word), "'%s' does not name %s", sl_last_error(), word);
}

Test(occupancy, bad_input_is_refused_with_the_argument_named)
{
    expect_refused(80, 0, 32, 0, 0, "threads");
    expect_refused(80, 1025, 32, 0, 0, "threads");
    expect_refused(80, -32, 32, 0, 0, "threads");
    expect_refused(80, 256, 256, 0, 0, "registers");
    expect_refused(80, 256, -1, 0, 0, "registers");
    expect_refused(70, 256, 32, 0, 0, "arch");
    expect_refused(0, 256, 32, 0, 0, "arch");
    expect_refused(121, 256, 32, 0, 0, "arch");
    expect_refused(80, 256, 32, (size_t)1 << 40, 0, "shared_static");
    expect_refused(80, 256, 32, 0, 1, "out");
    sl_arch_limits l;
    cr_assert_eq(sl_arch_limits_get(80, NULL), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "out"));
    cr_assert_eq(sl_arch_limits_get(81, &l), SL_ERR_INVALID_ARGUMENT);
    cr_assert(strstr(sl_last_error(), "arch 81"));
}

Test(occupancy, every_known_architecture_has_limits)
{
    size_t n = 0;
    const int *archs = sl_occupancy_archs(&n);
    cr_assert_eq(n, 7);
    for (size_t i = 0; i < n; i++) {
        sl_arch_limits l;
        cr_assert_eq(sl_arch_limits_get(archs[i], &l), SL_OK);
        cr_assert_eq(l.arch, archs[i]);
        cr_assert_eq(l.registers_per_sm, 65536);
        cr_assert_eq(l.max_registers_per_thread, 255);
        cr_assert(l.max_shared_per_block <= l.shared_per_sm);
        cr_assert_eq(l.shared_reserved, archs[i] >= 80 ? 1024u : 0u);
    }
}

/* The emulator's cudaOccupancyMaxActiveBlocksPerMultiprocessor models no
 * registers; with 0 registers the calculator must agree with it on the
 * emulated device (sm_80 unless SIMTLAB_EMU_CC says otherwise). The stand-in
 * "kernel" is any address the emulator does not know: it counts such a
 * function as one with no static shared memory. Only under the emulator:
 * on a GPU the real call counts the real kernel's registers. */
static const char stand_in_kernel = 0;

/* cc: what SIMTLAB_EMU_CC is set to before the first CUDA call of this
 * test's process (Criterion runs each test in its own). */
static void agree_on(const char *cc, int arch)
{
    if (!sl_backend_is_emulator()) cr_skip_test("the real cudaOccupancy* counts registers (GPU build)");
    setenv("SIMTLAB_EMU_CC", cc, 1);
    int major = 0, minor = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
    cr_assert_eq(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0), cudaSuccess);
    cr_assert_eq(major * 10 + minor, arch, "the emulator did not take SIMTLAB_EMU_CC=%s", cc);
    const int threads[] = {1, 32, 33, 64, 96, 128, 256, 384, 512, 768, 1024};
    const size_t dynamic[] = {0, 1, 1000, 4096, 20000, 49152, 100000};
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        for (size_t d = 0; d < sizeof dynamic / sizeof dynamic[0]; d++) {
            sl_occupancy o;
            cr_assert_eq(sl_occupancy_calc(arch, threads[t], 0, 0, dynamic[d], &o), SL_OK, "%s", sl_last_error());
            int emu = -1;
            cr_assert_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&emu, &stand_in_kernel, threads[t],
                                                                        dynamic[d]),
                         cudaSuccess);
            cr_assert_eq(emu, o.active_blocks, "sm_%d, %d threads, %zu bytes: emulator %d, calculator %d", arch,
                         threads[t], dynamic[d], emu, o.active_blocks);
        }
    }
}

Test(occupancy, the_emulator_agrees_on_sm_75_when_registers_are_0) { agree_on("7.5", 75); }
Test(occupancy, the_emulator_agrees_on_sm_80_when_registers_are_0) { agree_on("8.0", 80); }
Test(occupancy, the_emulator_agrees_on_sm_86_when_registers_are_0) { agree_on("8.6", 86); }
Test(occupancy, the_emulator_agrees_on_sm_89_when_registers_are_0) { agree_on("8.9", 89); }
Test(occupancy, the_emulator_agrees_on_sm_90_when_registers_are_0) { agree_on("9.0", 90); }
Test(occupancy, the_emulator_agrees_on_sm_100_when_registers_are_0) { agree_on("10.0", 100); }
Test(occupancy, the_emulator_agrees_on_sm_120_when_registers_are_0) { agree_on("12.0", 120); }
