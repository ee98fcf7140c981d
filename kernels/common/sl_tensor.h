/* simtlab — tensor-core building blocks for the GEMM chapters.
 *
 * What this teaches: the three instructions an Ampere/Hopper GEMM is made of,
 * one thin device function each, so a kernel reads like the PTX it runs:
 *
 *   sl_mma_m16n8k16_f16_f32 / _bf16_f32   mma.sync: a warp computes a 16x8
 *                                         tile D = A (16x16) * B (16x8) + C
 *   sl_ldmatrix_x1/x2/x4{,_trans}         ldmatrix: a warp loads 8x8 b16
 *                                         matrices from shared memory straight
 *                                         into mma fragment layout
 *   sl_cp_async_16, _commit, _wait_group, cp.async: global -> shared copies
 *   _wait_all                             that run while the warp computes
 *
 * Under nvcc each is inline PTX (sm_80 and newer). Under the simtlab emulator
 * (SIMTLAB_EMU) each is the emulator's C++ implementation of that instruction
 * (emu/include/simtlab_emu/ptx.hpp, the one seam between this file and the
 * emulator): same fragment layouts, same "all 32 lanes must call" rule (a
 * divergent call fails the launch), and cp.async data that is NOT visible
 * before the wait. Which backend compiles this file is decided once, in "the
 * backend" below; the functions after it read the same for both.
 *
 * Fragment layouts (PTX ISA 9.7.14.5.8, "Matrix Fragments for mma.m16n8k16
 * with floating point type"), with g = lane / 4 and t = lane % 4; each
 * unsigned holds two 16-bit values, the lower column (or row) in the low half:
 *
 *   A, 16x16 row-major:  a[0] = A[g][2t..2t+1]      a[1] = A[g+8][2t..2t+1]
 *                        a[2] = A[g][2t+8..2t+9]    a[3] = A[g+8][2t+8..2t+9]
 *   B, 16x8 (k x n):     b[0] = B[2t..2t+1][g]      b[1] = B[2t+8..2t+9][g]
 *   C, D, 16x8 float:    c[0], c[1] = C[g][2t], C[g][2t+1]
 *                        c[2], c[3] = C[g+8][2t], C[g+8][2t+1]
 *
 * ldmatrix: lanes 8j..8j+7 pass the addresses of rows 0..7 of matrix j (each
 * row 16 bytes, 16-byte aligned, in shared memory); lane L receives in r[j]
 * row L/4, elements 2(L%4) and 2(L%4)+1 of matrix j — exactly an A or B
 * fragment register. _trans gives the same positions of the transposed matrix.
 *
 * Check the PTX: nvcc -arch=sm_80 -I kernels -c tests/cuda/tensor_ptx_check.cu
 * (and -arch=sm_90). Tests under the emulator: cmake --build build --target
 * test_sl_tensor && build/bin/test_sl_tensor. Kernels that use WMMA include
 * <mma.h> themselves (the toolkit's under nvcc, emu/include's otherwise).
 */
#ifndef SL_TENSOR_H
#define SL_TENSOR_H

/* ==== the backend ==========================================================
 * One macro per instruction, SL_PTX_<INSTRUCTION>, defined four ways:
 *   - the simtlab emulator (SIMTLAB_EMU): the emulator's C++ function for the
 *     instruction. Every public function below then takes one more,
 *     defaulted, parameter, sl_caller: the caller's file and line, which the
 *     emulator names in its diagnostic (SL_TENSOR_CALLER declares it);
 *   - nvcc for sm_80 and newer: the inline PTX;
 *   - nvcc for an older GPU (ldmatrix exists from sm_75, cp.async and bf16
 *     mma from sm_80): __trap(), so the build still links and the kernel
 *     fails loudly if it runs;
 *   - nvcc's host pass: nothing (these are device functions).
 * The "memory" clobbers keep the compiler from moving ordinary shared-memory
 * accesses past an instruction that it cannot see reads or writes them. */
#if defined(SIMTLAB_EMU)

#include <simtlab_emu/ptx.hpp>
#define SL_TENSOR_CALLER_ONLY ::simtlab_emu::here sl_caller = SIMTLAB_EMU_TENSOR_CALLER
#define SL_TENSOR_CALLER , SL_TENSOR_CALLER_ONLY

#define SL_PTX_MMA_F16_F32(d, a, b, c) \
    ::simtlab_emu::mma_m16n8k16_f32(::simtlab_emu::mma_input_f16, d, a, b, c, sl_caller)
#define SL_PTX_MMA_BF16_F32(d, a, b, c) \
    ::simtlab_emu::mma_m16n8k16_f32(::simtlab_emu::mma_input_bf16, d, a, b, c, sl_caller)
/* The SIMT counters (shared-memory bank conflicts) see the loads of the
 * kernel's own file only, and ldmatrix runs in the emulator's runtime: so,
 * after it (which has checked the address), each lane that gave a row reads
 * that row's 16 bytes once more here, and the value is dropped. A 16-byte
 * access per lane is what the counters model in quarter-warp phases of 8
 * rows, which is how ldmatrix reads shared memory. */
static __device__ __forceinline__ void sl_emu_model_ldmatrix_rows(const void *row, unsigned count)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    if (tid % 32 < 8 * count) (void)*(const volatile __int128 *)row;
}
#define SL_EMU_LDMATRIX(count, trans, r, row) \
    (::simtlab_emu::ldmatrix_m8n8_b16(count, trans, r, row, sl_caller), sl_emu_model_ldmatrix_rows(row, count))
#define SL_PTX_LDMATRIX_X1(r, row) SL_EMU_LDMATRIX(1, false, r, row)
#define SL_PTX_LDMATRIX_X2(r, row) SL_EMU_LDMATRIX(2, false, r, row)
#define SL_PTX_LDMATRIX_X4(r, row) SL_EMU_LDMATRIX(4, false, r, row)
#define SL_PTX_LDMATRIX_X1_TRANS(r, row) SL_EMU_LDMATRIX(1, true, r, row)
#define SL_PTX_LDMATRIX_X2_TRANS(r, row) SL_EMU_LDMATRIX(2, true, r, row)
#define SL_PTX_LDMATRIX_X4_TRANS(r, row) SL_EMU_LDMATRIX(4, true, r, row)
#define SL_PTX_CP_ASYNC_16(dst, src) ::simtlab_emu::cp_async_16(dst, src, sl_caller)
#define SL_PTX_CP_ASYNC_COMMIT() ::simtlab_emu::cp_async_commit(sl_caller)
/* a macro's caller is the line that expands it */
#define SL_PTX_CP_ASYNC_WAIT_GROUP(n)                                                          \
    do {                                                                                       \
        static_assert((n) >= 0, "sl_cp_async_wait_group: n is a non-negative constant");       \
        ::simtlab_emu::cp_async_wait_group((unsigned)(n), SIMTLAB_EMU_HERE);                   \
    } while (0)
#define SL_PTX_CP_ASYNC_WAIT_ALL() ::simtlab_emu::cp_async_wait_all(sl_caller)

#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

#define SL_TENSOR_CALLER_ONLY
#define SL_TENSOR_CALLER
#define SL_SHARED_ADDR(p) ((unsigned)__cvta_generic_to_shared(p))

#define SL_PTX_MMA_F16_F32(d, a, b, c)                                                                   \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "                                  \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"                \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                      \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), \
                   "f"(c[2]), "f"(c[3]))
#define SL_PTX_MMA_BF16_F32(d, a, b, c)                                                                  \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "                                \
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\n"                \
                 : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                      \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), \
                   "f"(c[2]), "f"(c[3]))
#define SL_PTX_LDMATRIX_X1(r, row)                                                                       \
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n"                               \
                 : "=r"(r[0])                                                                          \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_LDMATRIX_X2(r, row)                                                                       \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"                           \
                 : "=r"(r[0]), "=r"(r[1])                                                              \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_LDMATRIX_X4(r, row)                                                                       \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"                   \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                                      \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_LDMATRIX_X1_TRANS(r, row)                                                                 \
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"                         \
                 : "=r"(r[0])                                                                          \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_LDMATRIX_X2_TRANS(r, row)                                                                 \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"                     \
                 : "=r"(r[0]), "=r"(r[1])                                                              \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_LDMATRIX_X4_TRANS(r, row)                                                                 \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"             \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                                      \
                 : "r"(SL_SHARED_ADDR(row))                                                            \
                 : "memory")
#define SL_PTX_CP_ASYNC_16(dst, src)                                                                     \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"                                          \
                 :                                                                                     \
                 : "r"(SL_SHARED_ADDR(dst)), "l"(__cvta_generic_to_global(src))                         \
                 : "memory")
#define SL_PTX_CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;\n" ::: "memory")
#define SL_PTX_CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n) : "memory")
#define SL_PTX_CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;\n" ::: "memory")

#else /* nvcc for a GPU older than sm_80, or nvcc's host pass */

#define SL_TENSOR_CALLER_ONLY
#define SL_TENSOR_CALLER
#if defined(__CUDA_ARCH__)
#define SL_PTX_MISSING() __trap() /* the instruction needs sm_80 */
#else
#define SL_PTX_MISSING() ((void)0)
#endif
#define SL_PTX_MMA_F16_F32(d, a, b, c) SL_PTX_MISSING()
#define SL_PTX_MMA_BF16_F32(d, a, b, c) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X1(r, row) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X2(r, row) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X4(r, row) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X1_TRANS(r, row) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X2_TRANS(r, row) SL_PTX_MISSING()
#define SL_PTX_LDMATRIX_X4_TRANS(r, row) SL_PTX_MISSING()
#define SL_PTX_CP_ASYNC_16(dst, src) SL_PTX_MISSING()
#define SL_PTX_CP_ASYNC_COMMIT() SL_PTX_MISSING()
#define SL_PTX_CP_ASYNC_WAIT_GROUP(n) SL_PTX_MISSING()
#define SL_PTX_CP_ASYNC_WAIT_ALL() SL_PTX_MISSING()

#endif /* the backend */

/* ---- mma.sync ------------------------------------------------------------ */

static __device__ __forceinline__ void sl_mma_m16n8k16_f16_f32(float d[4], const unsigned a[4], const unsigned b[2],
                                                               const float c[4] SL_TENSOR_CALLER)
{
    SL_PTX_MMA_F16_F32(d, a, b, c);
}

static __device__ __forceinline__ void sl_mma_m16n8k16_bf16_f32(float d[4], const unsigned a[4], const unsigned b[2],
                                                                const float c[4] SL_TENSOR_CALLER)
{
    SL_PTX_MMA_BF16_F32(d, a, b, c);
}

/* ---- ldmatrix ------------------------------------------------------------ */

static __device__ __forceinline__ void sl_ldmatrix_x1(unsigned r[1], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X1(r, smem_row);
}

static __device__ __forceinline__ void sl_ldmatrix_x2(unsigned r[2], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X2(r, smem_row);
}

static __device__ __forceinline__ void sl_ldmatrix_x4(unsigned r[4], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X4(r, smem_row);
}

static __device__ __forceinline__ void sl_ldmatrix_x1_trans(unsigned r[1], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X1_TRANS(r, smem_row);
}

static __device__ __forceinline__ void sl_ldmatrix_x2_trans(unsigned r[2], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X2_TRANS(r, smem_row);
}

static __device__ __forceinline__ void sl_ldmatrix_x4_trans(unsigned r[4], const void *smem_row SL_TENSOR_CALLER)
{
    SL_PTX_LDMATRIX_X4_TRANS(r, smem_row);
}

/* ---- cp.async ------------------------------------------------------------ */
/* .cg caches in L2 only: data staged in shared memory for reuse there gains
 * nothing from L1. Both addresses must be 16-byte aligned. The destination
 * must not be read until a wait has retired the copy's group. */

static __device__ __forceinline__ void sl_cp_async_16(void *smem_dst, const void *gmem_src SL_TENSOR_CALLER)
{
    SL_PTX_CP_ASYNC_16(smem_dst, gmem_src);
}

/* Closes the group of copies issued since the last commit (an empty group
 * is allowed and complete at once: pipelines commit one per stage anyway). */
static __device__ __forceinline__ void sl_cp_async_commit(SL_TENSOR_CALLER_ONLY)
{
    SL_PTX_CP_ASYNC_COMMIT();
}

/* Waits until at most n of this thread's most recently committed groups are
 * still pending: all older groups' data are then in shared memory (for this
 * thread; other threads see them after a __syncthreads). n must be a
 * compile-time constant (it is an immediate in the instruction), hence a
 * macro. Copies not yet committed are not waited for. */
#define sl_cp_async_wait_group(n) SL_PTX_CP_ASYNC_WAIT_GROUP(n)

/* Commits whatever is open and waits for every copy of this thread. */
static __device__ __forceinline__ void sl_cp_async_wait_all(SL_TENSOR_CALLER_ONLY)
{
    SL_PTX_CP_ASYNC_WAIT_ALL();
}

#endif /* SL_TENSOR_H */
