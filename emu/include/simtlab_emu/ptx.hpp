/* simtlab CPU emulator — the seam: PTX the emulator implements in C++.
 *
 * Code that runs on both backends (a kernel library such as simtlab's
 * kernels/common/sl_tensor.h) writes some instructions as inline PTX under
 * nvcc. The emulator cannot run PTX; it offers each such instruction here as
 * a C++ function of the same meaning instead. This header and the C function
 * simtlab_emu_last_diagnostic() (<cuda_runtime_api.h>: the one paragraph
 * that says why the last launch failed, for an error line or a test) are
 * the whole of what such code may call in the emulator beyond the CUDA API
 * itself. Everything else under simtlab_emu:: is the emulator's own, and may
 * change without notice. Where code must tell the backends apart, the macro
 * SIMTLAB_EMU (1 in every emulator build, from <cuda_runtime_api.h>) says
 * which one compiles it; keep that test in one place of the calling file.
 *
 * What it offers (implemented in emu/src/engine/tensor_mma.cpp and engine/tensor_copy.cpp):
 *
 *   mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32
 *                                   mma_m16n8k16_f32
 *   ldmatrix.sync.aligned.m8n8.x{1,2,4}{,.trans}.shared.b16
 *                                   ldmatrix_m8n8_b16
 *   cp.async.cg.shared.global (16 bytes), cp.async.commit_group,
 *   cp.async.wait_group n, cp.async.wait_all
 *                                   cp_async_16, cp_async_commit,
 *                                   cp_async_wait_group, cp_async_wait_all
 *
 * Each behaves as the PTX ISA says, down to the rules a GPU does not check:
 * the .sync.aligned instructions are warp-collective, so a call from a
 * divergent branch fails the launch with a diagnostic; a misaligned or
 * out-of-bounds address fails it too; cp.async data are not visible before
 * the wait that retires their group, and a thread that exits with copies
 * pending fails the launch.
 *
 * Every function takes, last, where it was called from (`here`), which the
 * diagnostic names. A wrapper that wants its own caller's file and line
 * declares a last parameter defaulted to SIMTLAB_EMU_TENSOR_CALLER and hands
 * it on (see tensor_call_site below).
 */
#ifndef SIMTLAB_EMU_PTX_HPP
#define SIMTLAB_EMU_PTX_HPP

#include <simtlab_emu/engine.hpp>

namespace simtlab_emu {

/* ---- mma.sync ------------------------------------------------------------ */

enum mma_input_type { mma_input_f16, mma_input_bf16 };

/* mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32 with the
 * fragment layouts of PTX ISA 9.7.14.5.8; all 32 lanes must call it. */
void mma_m16n8k16_f32(mma_input_type type, float d[4], const unsigned a[4], const unsigned b[2],
                      const float c[4], here where);

/* ---- ldmatrix ------------------------------------------------------------ */

/* ldmatrix.sync.aligned.m8n8.x{count}{.trans}.shared.b16: `row` is this
 * lane's row address (used for lanes < 8 * count); r receives `count`
 * registers. count is 1, 2 or 4. */
void ldmatrix_m8n8_b16(unsigned count, bool trans, unsigned *r, const void *row, here where);

/* ---- cp.async ------------------------------------------------------------ */

/* cp.async.cg.shared.global (16 bytes), cp.async.commit_group,
 * cp.async.wait_group n and cp.async.wait_all, per CUDA thread. */
void cp_async_16(void *smem_dst, const void *gmem_src, here where);
void cp_async_commit(here where);
void cp_async_wait_group(unsigned n, here where);
void cp_async_wait_all(here where);

/* ---- the caller's file and line ------------------------------------------ */

/* Where a wrapper was called, as a default argument: the caller's file and
 * line (after the rewriter's #line, the student's .cu). GCC gives the call
 * site only for __builtin_FILE/LINE that are themselves default arguments,
 * as here; inside a braced here{...} they would give the line of the
 * declaration. */
inline here tensor_call_site(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return here{file, line};
}

} /* namespace simtlab_emu */

#define SIMTLAB_EMU_TENSOR_CALLER ::simtlab_emu::tensor_call_site()

#endif /* SIMTLAB_EMU_PTX_HPP */
