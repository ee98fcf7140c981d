/* Chapter 06 — tensor-core GEMM: from WMMA to mma.sync with ldmatrix, a
 * cp.async pipeline and a swizzle, and on Hopper to wgmma fed by TMA.
 *
 * C = A * B with A and B in 16-bit floats (f16 or bf16) and the products
 * summed in float: what a tensor core does. One mma.sync m16n8k16 is 4096
 * flops in one warp instruction, where an FFMA is 64: the arithmetic is no
 * longer the problem, moving the operands to it is. The ladder is about
 * that: from global memory (v1), to shared memory (v2), to registers in the
 * exact layout the instruction wants (v3), to copies that run while the
 * warps compute (v4), into a layout without bank conflicts (v5). Each
 * version changes one thing:
 *
 *   v1  this file                    WMMA 16x16x16, one warp per 16x16 tile of C,
 *                                    fragments straight from global memory
 *   v2  this file                    WMMA over 64x64x32 shared-memory tiles, 4 warps,
 *                                    each 32x32 of C (2x2 fragments)
 *   v3  kernels/06_tensor_gemm_mma.cu  mma.sync m16n8k16 fed by ldmatrix from a
 *                                    128x128x32 shared tile, 8 warps of 64x32
 *   v4  kernels/06_tensor_gemm_mma.cu  v3 + a 3-stage cp.async pipeline
 *   v5  kernels/06_tensor_gemm_mma.cu  v4 + an XOR-swizzled shared layout free of
 *                                    bank conflicts
 *   v6  kernels/06_tensor_gemm_wgmma.cu  Hopper only (sm_90a): wgmma m64n64k16
 *                                    fed by TMA copies completing on mbarriers, a
 *                                    producer warpgroup and two consumer warpgroups,
 *                                    128x128x64 tiles, 4 stages; tested where an
 *                                    sm_90 GPU is (gpu.test_06_tensor_gemm)
 *
 * bench/data/version_map.csv maps the names of the earlier numbering, in
 * which one v4 was today's v5 and v5 today's v6, to these.
 *
 * Edges are padded by the host for v1-v5 (kernels/06_tensor_gemm.h): those
 * kernels see multiples of their tile; v6 uses TMA's zero fill and
 * predicated stores. Build and run: make, then
 * build/bin/test_06_tensor_gemm_emu and build/bin/bench_06_tensor_gemm_emu
 * (the emulator), or the same without _emu on a GPU. */
#include <mma.h>

#include "06_tensor_gemm_family.cuh"

using namespace nvcuda;

#define V2_BM 64
#define V2_BN 64
#define V2_BK 32
#define V2_PAD 8 /* halves: keeps rows 16-byte multiples (80 and 144 bytes) and spreads them over the banks */

extern "C" const char *sl_tgemm_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 WMMA 16x16x16, one warp per tile";
    case 2: return "v2 WMMA over 64x64x32 shared-memory tiles";
    case 3: return "v3 mma.sync m16n8k16 fed by ldmatrix";
    case 4: return "v4 v3 + 3-stage cp.async pipeline";
    case 5: return "v5 v4 + swizzled shared memory";
    case 6: return "v6 wgmma + TMA + mbarrier, producer/consumer warpgroups (sm_90)";
    default: return NULL;
    }
}

extern "C" sl_tgemm_tile_shape sl_tgemm_tile(int version)
{
    sl_tgemm_tile_shape s = {0, 0, 0, 0};
    switch (version) {
    case 1: s.bm = 16, s.bn = 16, s.bk = 16, s.threads = 32; break;
    case 2: s.bm = V2_BM, s.bn = V2_BN, s.bk = V2_BK, s.threads = 128; break;
    case 3:
    case 4:
    case 5: s.bm = TG_MMA_BM, s.bn = TG_MMA_BN, s.bk = TG_MMA_BK, s.threads = TG_MMA_THREADS; break;
    case 6: s.bm = 128, s.bn = 128, s.bk = 64, s.threads = 384; break; /* kernels/06_tensor_gemm_wgmma.cu */
    default: break;
    }
    return s;
}

extern "C" sl_tgemm_tile_shape sl_tgemm_granule(int version)
{
    sl_tgemm_tile_shape s = sl_tgemm_tile(version);
    if (version == SL_TGEMM_HOPPER_VERSION) s.bm = 1, s.bn = 8, s.bk = 8; /* 8 x 2 bytes: TMA's 16-byte pitch */
    s.threads = 0;
    return s;
}

extern "C" sl_tgemm_problem sl_tgemm_check(int version, size_t m, size_t n, size_t k)
{
    if (version < 1 || version > SL_TGEMM_VERSIONS) return SL_TGEMM_BAD_VERSION;
    sl_tgemm_tile_shape s = sl_tgemm_tile(version), g = sl_tgemm_granule(version);
    if (m > 2147483647u || n > 2147483647u || k > 2147483647u) return SL_TGEMM_TOO_LARGE;
    if ((m + s.bm - 1) / s.bm > SL_TGEMM_MAX_ROW_TILES) return SL_TGEMM_TOO_LARGE;
    if (m == 0 || n == 0 || k == 0 || m % g.bm || n % g.bn || k % g.bk) return SL_TGEMM_NOT_PADDED;
    return SL_TGEMM_FINE;
}

/* WMMA with bf16 inputs needs compute capability 8.0: compiled for sm_75 (a
 * T4), its fragment types do not exist. There the bf16 kernels are built
 * empty (a trap) and the host refuses bf16 on such a GPU with a message
 * naming the capability; f16 runs from sm_70 on. */
template <class T>
struct wmma_type_ok {
    static constexpr bool value = true;
};
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
template <>
struct wmma_type_ok<__nv_bfloat16> {
    static constexpr bool value = false;
};
#endif

/* v1 — WMMA, one warp per 16x16 tile of C.
 * The simplest use of a tensor core: the warp loads a 16x16 tile of A and of
 * B as fragments (who holds which element is the hardware's business), and
 * one mma_sync does 16x16x16 multiply-adds. Fragments come straight from
 * global memory, so every element of A is loaded n/16 times and of B m/16
 * times: each step is 16x16x16x2 = 8192 flops on 1 KB of fragments, 8
 * flops per byte, far below what the tensor cores can eat. */
template <class T>
__global__ void __launch_bounds__(32) tgemm_v1_wmma(int n, int k, const T *a, const T *b, float *c)
{
    if constexpr (!wmma_type_ok<T>::value) {
        __trap(); /* not reached: the host refuses bf16 below compute capability 8.0 */
    } else {
        const size_t row = (size_t)blockIdx.y * 16, col = (size_t)blockIdx.x * 16;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int p = 0; p < k; p += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
            wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb;
            wmma::load_matrix_sync(fa, a + row * k + p, k);
            wmma::load_matrix_sync(fb, b + (size_t)p * n + col, n);
            wmma::mma_sync(acc, fa, fb, acc);
        }
        wmma::store_matrix_sync(c + row * n + col, acc, n, wmma::mem_row_major);
    }
}

/* v2 — WMMA over shared-memory tiles.
 * A block of 4 warps stages a 64x32 tile of A and a 32x64 tile of B in
 * shared memory with 16-byte loads (each element is loaded from global
 * memory once per block instead of once per warp tile), then each warp
 * computes its 32x32 of C as 2x2 fragments, reusing every A fragment twice
 * and every B fragment twice. Intensity per block: 64*64*32*2 flops on
 * (64 + 64)*32*2 bytes = 32 flops per byte, 4x v1. Cost: two barriers per
 * step, and WMMA's loads from shared memory go through the ordinary
 * load path. */
template <class T>
__global__ void __launch_bounds__(128) tgemm_v2_wmma_shared(int n, int k, const T *a, const T *b, float *c)
{
    if constexpr (!wmma_type_ok<T>::value) {
        __trap(); /* not reached: the host refuses bf16 below compute capability 8.0 */
    } else {
        /* held as 16-byte chunks, written as such; the fragments read them as T */
        __shared__ __align__(32) uint4 as4[V2_BM][(V2_BK + V2_PAD) / 8];
        __shared__ __align__(32) uint4 bs4[V2_BK][(V2_BN + V2_PAD) / 8];
        const T *as = (const T *)as4, *bs = (const T *)bs4;
        const int tid = threadIdx.x, warp = tid / 32;
        const int wm = warp / 2, wn = warp % 2; /* the warp's 32x32 of the 64x64 */
        const size_t row0 = (size_t)blockIdx.y * V2_BM, col0 = (size_t)blockIdx.x * V2_BN;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
        for (int p0 = 0; p0 < k; p0 += V2_BK) {
            /* 256 chunks of 8 elements (16 bytes) per tile: 2 per thread each */
            for (int q = tid; q < V2_BM * V2_BK / 8; q += 128) {
                int r = q / (V2_BK / 8), ch = q % (V2_BK / 8);
                as4[r][ch] = *(const uint4 *)(a + (row0 + r) * k + p0 + ch * 8);
            }
            for (int q = tid; q < V2_BK * V2_BN / 8; q += 128) {
                int r = q / (V2_BN / 8), ch = q % (V2_BN / 8);
                bs4[r][ch] = *(const uint4 *)(b + (size_t)(p0 + r) * n + col0 + ch * 8);
            }
            __syncthreads();
            for (int kk = 0; kk < V2_BK; kk += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
                for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], as + (wm * 32 + i * 16) * (V2_BK + V2_PAD) + kk, V2_BK + V2_PAD);
                for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], bs + kk * (V2_BN + V2_PAD) + wn * 32 + j * 16, V2_BN + V2_PAD);
                for (int i = 0; i < 2; i++)
                    for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            __syncthreads(); /* before the next step overwrites what other warps still read */
        }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                wmma::store_matrix_sync(c + (row0 + wm * 32 + i * 16) * n + col0 + wn * 32 + j * 16, acc[i][j], n,
                                        wmma::mem_row_major);
    }
}

/* ---- dispatch ------------------------------------------------------------------ */

template <class T>
static cudaError_t launch_wmma(int version, const sl_tgemm_args *p, cudaStream_t stream)
{
    sl_tgemm_tile_shape s = sl_tgemm_tile(version);
    dim3 grid((unsigned)(p->n / s.bn), (unsigned)(p->m / s.bm));
    const T *a = (const T *)p->a, *b = (const T *)p->b;
    if (version == 1) tgemm_v1_wmma<T><<<grid, s.threads, 0, stream>>>(p->n, p->k, a, b, p->c);
    else tgemm_v2_wmma_shared<T><<<grid, s.threads, 0, stream>>>(p->n, p->k, a, b, p->c);
    return cudaGetLastError();
}

extern "C" cudaError_t sl_tgemm_launch(int version, const sl_tgemm_args *args, cudaStream_t stream)
{
    if (!args || !args->a || !args->b || !args->c || args->m < 0 || args->n < 0 || args->k < 0)
        return cudaErrorInvalidValue;
    if (sl_tgemm_check(version, (size_t)args->m, (size_t)args->n, (size_t)args->k) != SL_TGEMM_FINE)
        return cudaErrorInvalidValue;
    if (version == SL_TGEMM_HOPPER_VERSION) {
#ifdef SIMTLAB_EMU
        return cudaErrorNotSupported; /* wgmma and TMA are not emulated; host/06_tensor_gemm.c says so first */
#else
        return tgemm_wgmma_launch(args, stream);
#endif
    }
    if (version >= 3) return tgemm_mma_launch(version, args, stream);
    return args->bf16 ? launch_wmma<__nv_bfloat16>(version, args, stream) : launch_wmma<__half>(version, args, stream);
}
