/* Chapter 06 — tensor-core GEMM v6 (Hopper only): wgmma fed by TMA loads that
 * complete on an mbarrier, one producer warpgroup and two consumer
 * warpgroups (the map of every version is in kernels/06_tensor_gemm.cu).
 *
 * Its correctness is tested where an sm_90 GPU is (gpu.test_06_tensor_gemm;
 * it passed on an H200, 2026-12-04); ctest nvcc.06_tensor_gemm_wgmma_ptx
 * checks its PTX without one. A wrong bit in a descriptor below gives wrong
 * numbers, not an error. The delicate points, in the order to suspect them
 * if that test fails after a change:
 *   1. the MN-major B descriptor with imm-trans-b = 1 (wgmma_desc);
 *   2. that a TMA box larger than the tensor (m = 16 against a 128-row
 *      box), or wholly outside it (the second B box when n <= 64), is
 *      zero-filled AND still counts its full bytes towards expect_tx (if
 *      not, the consumers' wait never ends: mbar_wait traps after 10 s,
 *      and the launch fails with an error instead of wrong numbers);
 *   3. the accumulator layout in store_acc (wrong: a permuted C).
 *
 * This file is compiled ONLY with -gencode arch=compute_90a,code=sm_90a
 * (CMake object library simtlab_tgemm_wgmma): wgmma and the tensor-map form
 * of cp.async.bulk exist only on sm_90a. The emulator never sees it.
 *
 * v6 — wgmma + TMA + mbarrier, producer / consumer warpgroups.
 * v5's warps still spent instructions moving data: cp.async per 16 bytes,
 * ldmatrix per fragment, and a 16x8x16 mma per 4096 flops. Here one thread
 * asks the TMA unit for a whole 128x64 tile with one instruction, the copy
 * signals an mbarrier when its bytes have landed, and a warpgroup (4 warps,
 * 128 threads) multiplies 64x64x16 straight from shared memory with one
 * wgmma (131072 flops) without ldmatrix. Cost: Hopper only, a tensor map
 * built on the host, and descriptors whose bits must be exactly right.
 *
 * Block tile: 128 x 128 of C, 64 of K per stage, 4 stages in flight.
 * 384 threads: warpgroup 0 is the producer (one elected thread issues the
 * TMA copies; the other 127 wait), warpgroups 1 and 2 are consumers, each
 * 64 rows x 128 columns of C as two wgmma m64n64k16 per 16 of K.
 *
 * Edges (any m, n, k): the host pads only what TMA demands, row pitches
 * that are multiples of 16 bytes (n and k rounded up to 8, with zeros);
 * everything else is the hardware's: a box that sticks out of the tensor
 * (rows past m, columns past n, K past k) is filled with ZEROS by TMA
 * (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE means "fill with zero", not NaN), and
 * zeros add nothing to a dot product; so K not a multiple of 64 is handled
 * by TMA's zero fill. The stores of C are predicated (row < m, col < n).
 *
 * Operand layouts, and why B needs no copy: A is row-major m x k, so a row
 * of the A tile runs along K: "K-major", the layout wgmma reads without
 * help. B is row-major k x n: along K it is strided, along N contiguous:
 * "MN-major". wgmma accepts MN-major B for 16-bit types by its
 * imm-trans-b = 1 operand, so we load B as it is and describe it as
 * MN-major, rather than writing a K-major (transposed) copy of B first,
 * which would cost a pass over B and a second buffer. */
#include <cuda.h> /* CUtensorMap and its enums: types only, libcuda is not linked */
#include <cudaTypedefs.h>

#include "06_tensor_gemm_family.cuh"

#define V6_BM 128
#define V6_BN 128
#define V6_BK 64 /* 64 16-bit elements = 128 bytes: one row of the 128-byte swizzle */
#define V6_STAGES 4
#define V6_THREADS 384
#define V6_A_BYTES (V6_BM * V6_BK * 2)     /* 16384 */
#define V6_B_HALF_BYTES (V6_BK * 64 * 2)   /* 8192: 64 rows of K x 64 columns of N */
#define V6_STAGE_BYTES (V6_A_BYTES + 2 * V6_B_HALF_BYTES)
/* + 1024 so that the tiles can be aligned to 1024 bytes (below), + the barriers */
#define V6_SMEM_BYTES (V6_STAGES * V6_STAGE_BYTES + 1024 + 2 * V6_STAGES * 8)

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ != 900 || !defined(__CUDA_ARCH_FEAT_SM90_ALL))
#error "06_tensor_gemm_wgmma.cu needs -gencode arch=compute_90a,code=sm_90a (wgmma and TMA are sm_90a only)"
#endif

/* ---- mbarrier: a shared-memory counter with a phase bit ----------------------
 * init(count): the barrier completes a phase when `count` threads have
 * arrived AND every byte announced with expect_tx has been delivered by the
 * copies that name it. Waiters ask whether the phase with a given parity has
 * completed (try_wait.parity): phase 0, 1, 0, 1 ... as the stage is reused. */
static __device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void mbar_init(unsigned long long *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count));
}

/* one arrival that also announces `bytes` still to come from the copies */
static __device__ __forceinline__ void mbar_arrive_expect_tx(unsigned long long *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void mbar_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
}

/* A wait that never ends is a hang, which a test reports only by its
 * timeout; after 10 s of the GPU's global timer (ns) we trap instead, so
 * the launch fails with an error the host reports (the kernel needs
 * microseconds per stage, so 10 s means a phase that will never come). */
static __device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
    unsigned done = 0;
    unsigned long long start = 0;
    for (;;) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(smem_addr(bar)), "r"(parity)
                     : "memory");
        if (done) return;
        if (!start) start = global_ns();
        else if (global_ns() - start > 10000000000ull) __trap();
    }
}

/* ---- TMA: one 2D box of a tensor into shared memory --------------------------
 * c0 is the coordinate along the tensor's contiguous dimension (elements),
 * c1 along the other. The bytes count against `bar`'s expect_tx, including
 * the zeros filled in for the part of the box outside the tensor. */
static __device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1,
                                                   unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_addr(dst)),
                 "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(smem_addr(bar))
                 : "memory");
}

/* ---- the wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format") -------
 * 64 bits that tell wgmma where an operand tile lies in shared memory and
 * how it is laid out:
 *   bits  0-13  start address, in units of 16 bytes: (addr & 0x3FFFF) >> 4
 *   bits 16-29  leading dimension byte offset (LBO), >> 4
 *   bits 32-45  stride dimension byte offset (SBO), >> 4
 *   bits 49-51  base offset: 0, because every tile starts on a 1024-byte
 *               boundary, where the 128-byte swizzle pattern starts
 *   bits 62-63  swizzle mode: 0 none, 1 = 128-byte, 2 = 64-byte, 3 = 32-byte
 *
 * Our tiles, as TMA writes them with CU_TENSOR_MAP_SWIZZLE_128B: rows of
 * 128 bytes (64 elements), 8 rows = one 1024-byte swizzle atom in which the
 * 16-byte chunk c of row r sits at chunk c ^ (r % 8). wgmma's 128-byte
 * swizzle mode undoes exactly that XOR, computed on address bits, which is
 * why each tile must start 1024-byte aligned.
 *
 *  - A (K-major): row = one m, 64 K values. One wgmma reads 64 rows x 16 K
 *    (32 bytes of each row). The ISA's canonical K-major 128-byte layout
 *    steps 8 rows at a time by SBO: SBO = 8 rows x 128 bytes = 1024. Along
 *    K the 16 values lie inside one 128-byte row, so the other stride (LBO)
 *    is never used. The k16 step kk starts 32 * kk bytes into the row: the
 *    hardware swizzles the address it computes, so adding 32 bytes to the
 *    start address moves 16 K values, as in the unswizzled picture.
 *  - B (MN-major, imm-trans-b = 1): row = one k, 64 N values. One wgmma
 *    m64n64k16 reads 16 rows of K x 64 N: along N exactly one 128-byte
 *    swizzle atom (so the stride between atoms along N, the LBO of the
 *    MN-major canonical layout, is never used), along K two groups of 8 rows
 *    at SBO = 1024 bytes. The k16 step kk starts 16 rows = 2048 bytes on.
 * In both cases the one stride that matters is 1024 bytes between groups of
 * 8 rows. We write 1024 into BOTH fields: the unused one is then harmless
 * whichever way a reader (or we) mapped LBO and SBO onto the two
 * directions, so that particular misreading cannot matter here. */
static __device__ __forceinline__ unsigned long long wgmma_desc(const void *tile)
{
    const unsigned long long addr = smem_addr(tile);
    const unsigned long long stride16 = 1024 >> 4; /* 64 */
    return ((addr & 0x3FFFF) >> 4)               /* bits 0-13 */
           | (stride16 << 16)                    /* LBO, bits 16-29 (unused, see above) */
           | (stride16 << 32)                    /* SBO, bits 32-45 */
           | (0ull << 49)                        /* base offset: tiles 1024-aligned */
           | (1ull << 62);                       /* 128-byte swizzle */
}

/* ---- wgmma -------------------------------------------------------------------
 * fence: before the first wgmma that touches accumulator registers written
 * by ordinary instructions; commit: closes a group of issued wgmma;
 * wait_group N: until at most N groups are still running (0: all done, the
 * accumulators may be read and the shared tiles reused). */
static __device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }

/* The accumulators are written by the tensor cores until wait_group says
 * they are done, but the compiler cannot know that: an empty asm that
 * "reads and writes" each register, placed after the wait, keeps any later
 * use of d from being moved above it. */
static __device__ __forceinline__ void after_wait(float d[32])
{
    for (int i = 0; i < 32; i++) asm volatile("" : "+f"(d[i])::"memory");
}

/* d (64x64 f32 over 128 threads: 32 each) += A(64x16, K-major) * B(16x64,
 * MN-major). Operands after the descriptors: scale-d (0 the first time:
 * d = A*B, ignoring d), imm-scale-a = 1, imm-scale-b = 1 (no negation),
 * imm-trans-a = 0 (K-major), imm-trans-b = 1 (MN-major). */
#define WGMMA_D_OPERANDS                                                                                          \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),   \
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),    \
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),   \
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define WGMMA_D_LIST                                                                                              \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
    "%23, %24, %25, %26, %27, %28, %29, %30, %31}"

template <class T> struct wgmma_of;
template <> struct wgmma_of<__half> {
    static __device__ __forceinline__ void run(float d[32], unsigned long long da, unsigned long long db, int acc)
    {
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " WGMMA_D_LIST
                     ", %32, %33, p, 1, 1, 0, 1;\n\t}"
                     : WGMMA_D_OPERANDS
                     : "l"(da), "l"(db), "r"(acc));
    }
};
template <> struct wgmma_of<__nv_bfloat16> {
    static __device__ __forceinline__ void run(float d[32], unsigned long long da, unsigned long long db, int acc)
    {
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " WGMMA_D_LIST
                     ", %32, %33, p, 1, 1, 0, 1;\n\t}"
                     : WGMMA_D_OPERANDS
                     : "l"(da), "l"(db), "r"(acc));
    }
};

/* The accumulator of m64nNk16 (PTX ISA, wgmma D fragment): warp w of the
 * warpgroup owns rows 16w .. 16w + 15; in each 8-column slice j, lane
 * (g = lane / 4, t = lane % 4) holds d[4j], d[4j + 1] at row 16w + g,
 * columns 8j + 2t and 8j + 2t + 1, and d[4j + 2], d[4j + 3] at row
 * 16w + g + 8: mma.sync's 16x8 C fragment, repeated along N. */
static __device__ __forceinline__ void store_acc(const float d[32], float *c, int m, int n, int row0, int col0)
{
    const int lane = threadIdx.x % 32, w = (threadIdx.x / 32) % 4;
    const int g = lane / 4, t = lane % 4;
    for (int j = 0; j < 8; j++)
        for (int h = 0; h < 2; h++) {
            const int row = row0 + 16 * w + g + 8 * h, col = col0 + 8 * j + 2 * t;
            if (row >= m) continue; /* predicated: rows past m exist only as TMA's zeros */
            if (col < n) c[(size_t)row * n + col] = d[4 * j + 2 * h];
            if (col + 1 < n) c[(size_t)row * n + col + 1] = d[4 * j + 2 * h + 1];
        }
}

template <class T>
__global__ void __launch_bounds__(V6_THREADS) tgemm_v6_wgmma_tma(const __grid_constant__ CUtensorMap map_a,
                                                                 const __grid_constant__ CUtensorMap map_b, int m,
                                                                 int n, int k, float *c)
{
    extern __shared__ unsigned char smem_raw[];
    /* 1024-byte alignment for the 128-byte swizzle (see wgmma_desc) */
    unsigned char *tiles = (unsigned char *)(((size_t)smem_raw + 1023) & ~(size_t)1023);
    unsigned long long *full = (unsigned long long *)(tiles + V6_STAGES * V6_STAGE_BYTES);
    unsigned long long *empty = full + V6_STAGES;
    const int warpgroup = threadIdx.x / 128;
    const int row0 = blockIdx.y * V6_BM, col0 = blockIdx.x * V6_BN;
    const int k_tiles = (k + V6_BK - 1) / V6_BK; /* the last one partly zeros from TMA */

    if (threadIdx.x == 0) {
        for (int s = 0; s < V6_STAGES; s++) {
            mbar_init(&full[s], 1);  /* the producer's arrive.expect_tx, then the bytes */
            mbar_init(&empty[s], 2); /* one arrival per consumer warpgroup */
        }
        /* make the initialised barriers visible to the TMA unit (async proxy) */
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (warpgroup == 0) {
        /* producer: thread 0 alone issues the copies, stage after stage */
        if (threadIdx.x == 0)
            for (int it = 0; it < k_tiles; it++) {
                const int s = it % V6_STAGES;
                /* the stage's previous use (it - STAGES) must have been read */
                if (it >= V6_STAGES) mbar_wait(&empty[s], ((it / V6_STAGES) - 1) & 1);
                unsigned char *a_tile = tiles + s * V6_STAGE_BYTES;
                unsigned char *b_tile = a_tile + V6_A_BYTES;
                mbar_arrive_expect_tx(&full[s], V6_STAGE_BYTES);
                tma_load_2d(a_tile, &map_a, it * V6_BK, row0, &full[s]);                /* 64 K x 128 rows */
                tma_load_2d(b_tile, &map_b, col0, it * V6_BK, &full[s]);                /* 64 N x 64 K */
                tma_load_2d(b_tile + V6_B_HALF_BYTES, &map_b, col0 + 64, it * V6_BK, &full[s]);
            }
        return;
    }

    /* consumers: warpgroup 1 rows 0-63 of the tile, warpgroup 2 rows 64-127 */
    const int wg_row = (warpgroup - 1) * 64;
    float d0[32], d1[32]; /* columns 0-63 and 64-127 */
    for (int i = 0; i < 32; i++) d0[i] = 0.0f, d1[i] = 0.0f;
    for (int it = 0; it < k_tiles; it++) {
        const int s = it % V6_STAGES;
        mbar_wait(&full[s], (it / V6_STAGES) & 1);
        const unsigned char *a_tile = tiles + s * V6_STAGE_BYTES + wg_row * 128;
        const unsigned char *b_tile = tiles + s * V6_STAGE_BYTES + V6_A_BYTES;
        wgmma_fence();
        for (int kk = 0; kk < V6_BK / 16; kk++) {
            const unsigned long long da = wgmma_desc(a_tile + kk * 32);
            const int acc = it > 0 || kk > 0;
            wgmma_of<T>::run(d0, da, wgmma_desc(b_tile + kk * 2048), acc);
            wgmma_of<T>::run(d1, da, wgmma_desc(b_tile + V6_B_HALF_BYTES + kk * 2048), acc);
        }
        wgmma_commit();
        /* Simple and safe: wait for this stage's wgmma before freeing it. The
         * copies of the next STAGES - 1 stages are already in flight, so the
         * tensor cores still overlap with TMA; what is lost is overlap between
         * consecutive stages' wgmma. */
        wgmma_wait0();
        after_wait(d0), after_wait(d1);
        if (threadIdx.x % 128 == 0) mbar_arrive(&empty[s]);
    }
    store_acc(d0, c, m, n, row0 + wg_row, col0);
    store_acc(d1, c, m, n, row0 + wg_row, col0 + 64);
}

/* ---- host: the tensor maps and the launch --------------------------------------
 * cuTensorMapEncodeTiled is a driver API function; we take its address from
 * the runtime (cudaGetDriverEntryPointByVersion, the non-deprecated form of
 * cudaGetDriverEntryPoint in CUDA 13) so that nothing links against libcuda. */
static cudaError_t encode_2d(PFN_cuTensorMapEncodeTiled_v12000 encode, CUtensorMap *map, const void *base, int bf16,
                             unsigned long long inner, unsigned long long outer, unsigned box_inner, unsigned box_outer)
{
    cuuint64_t dims[2] = {inner, outer};
    cuuint64_t strides[1] = {inner * 2}; /* bytes between rows; must be a multiple of 16 */
    cuuint32_t box[2] = {box_inner, box_outer};
    cuuint32_t elem_strides[2] = {1, 1};
    CUresult r = encode(map, bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                        (void *)base, dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE /* out of bounds reads as zero */);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

template <class T> static cudaError_t launch_v6(const sl_tgemm_args *p, cudaStream_t stream)
{
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    if (!encode) {
        void *fn = NULL;
        cudaDriverEntryPointQueryResult q;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q);
        if (e != cudaSuccess) return e;
        if (q != cudaDriverEntryPointSuccess || !fn) return cudaErrorNotSupported;
        encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
    }
    CUtensorMap map_a, map_b;
    /* A: k contiguous, m rows; box 64 (K) x 128 (M) */
    cudaError_t e = encode_2d(encode, &map_a, p->a, p->bf16, (unsigned long long)p->k, (unsigned long long)p->m,
                              V6_BK, V6_BM);
    /* B: n contiguous, k rows; box 64 (N) x 64 (K): 128 bytes inner, the 128-byte swizzle's limit */
    if (e == cudaSuccess)
        e = encode_2d(encode, &map_b, p->b, p->bf16, (unsigned long long)p->n, (unsigned long long)p->k, 64, V6_BK);
    if (e != cudaSuccess) return e;
    e = cudaFuncSetAttribute(tgemm_v6_wgmma_tma<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, V6_SMEM_BYTES);
    if (e != cudaSuccess) return e;
    dim3 grid((unsigned)((p->n + V6_BN - 1) / V6_BN), (unsigned)((p->m + V6_BM - 1) / V6_BM));
    tgemm_v6_wgmma_tma<T><<<grid, V6_THREADS, V6_SMEM_BYTES, stream>>>(map_a, map_b, p->m, p->n, p->k, p->c);
    return cudaGetLastError();
}

cudaError_t tgemm_wgmma_launch(const sl_tgemm_args *args, cudaStream_t stream)
{
    return args->bf16 ? launch_v6<__nv_bfloat16>(args, stream) : launch_v6<__half>(args, stream);
}
