/* simtlab — chapter 06: tensor-core GEMM, from WMMA to mma.sync with
 * ldmatrix and cp.async (kernels/06_tensor_gemm*.cu, host/06_tensor_gemm*.c). */
#ifndef SIMTLAB_06_TENSOR_GEMM_H
#define SIMTLAB_06_TENSOR_GEMM_H

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The 16-bit input formats: IEEE binary16 (1 sign, 5 exponent, 10 mantissa
 * bits) and bfloat16 (the top half of a float: 8 exponent, 7 mantissa). */
typedef enum sl_tgemm_type { SL_TGEMM_F16 = 0, SL_TGEMM_BF16 = 1 } sl_tgemm_type;

/* ---- conversions, in C, round to nearest even --------------------------------
 * float -> 16 bits rounds to nearest, ties to even; too large becomes
 * infinity, too small (below half the smallest subnormal) a signed zero;
 * NaN stays NaN (quiet, sign kept). 16 bits -> float is exact. */
uint16_t sl_float_to_half(float f);
float sl_half_to_float(uint16_t h);
uint16_t sl_float_to_bf16(float f);
float sl_bf16_to_float(uint16_t h);
/* Arrays: out[i] = the rounded in[i] / the float value of in[i].
 * SL_ERR_INVALID_ARGUMENT for a NULL or device array (n > 0), out
 * overlapping in (not in place: the widths differ), or a bad type. */
sl_status sl_tgemm_round(sl_tgemm_type type, const float *in, uint16_t *out, size_t n);
sl_status sl_tgemm_widen(sl_tgemm_type type, const uint16_t *in, float *out, size_t n);

/* ---- the product -------------------------------------------------------------
 * C = A * B with the whole lifecycle and the phase report of sl_vector_add:
 * A m x k and B k x n row-major and tight, 16-bit elements of `type` (bits,
 * from sl_tgemm_round), C m x n floats. Products are exact and summed in
 * float (tensor cores sum in an order and precision of their own: compare
 * with a tolerance). Any m, n, k: sides that are not multiples of the
 * version's tile (sl_tgemm_tile_of) are padded with zeros on the host
 * before the copy in, and only the m x n corner comes back (v6: only n and
 * k, to multiples of 8; TMA's zero fill and predicated stores do the rest). m == 0 or
 * n == 0 is a no-op; k == 0 gives C = 0.
 * Versions 1..6 (0 = best = 5, the best that runs everywhere): 1 WMMA one
 * warp per tile, 2 WMMA over shared-memory tiles, 3 mma.sync fed by
 * ldmatrix, 4 v3 with a 3-stage cp.async pipeline, 5 v4 with a swizzled
 * layout, 6 Hopper's wgmma fed by TMA (sm_90 only: SL_ERR_UNSUPPORTED with
 * the reason on any other device and under the emulator). Each runs the block its tile fixes:
 * opts->block must be 0 or that. Host arrays; C may overlap A or B (they
 * are copied in first). The device, vendor and CPU functions below are not
 * in place: C apart from A and B. */
sl_status sl_tgemm(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a, const uint16_t *b, float *c,
                   const sl_opts *opts, sl_report *report);
/* How many versions there are, and version v's name (1..count); the name is
 * NULL for any other v (these return values, not statuses). */
int sl_tgemm_version_count(void);
const char *sl_tgemm_version_name(int version);
/* The block tile of `version` (0 = best): C rows and columns per block, K
 * per step, threads. SL_ERR_INVALID_ARGUMENT outside the versions. Any of
 * the four pointers may be NULL: that figure is not wanted. */
sl_status sl_tgemm_tile_of(int version, int *bm, int *bn, int *bk, int *threads);

/* The same on device buffers (the benchmark's), with no padding: m, n and
 * k must be multiples of the version's tile (v6: m any, n and k multiples
 * of 8; SL_ERR_INVALID_ARGUMENT says which is not). *kernel_ms is the kernel's time. */
sl_status sl_tgemm_device(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a, const uint16_t *b,
                          float *c, const sl_opts *opts, double *kernel_ms);

/* The vendor column: cublasGemmEx with `type` inputs, float output and
 * CUBLAS_COMPUTE_32F, on device buffers (row-major through (AB)^T = B^T A^T,
 * as in chapter 05). In emulator builds the emulator's cuBLAS: CPU times. */
sl_status sl_vendor_tgemm_device(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a,
                                 const uint16_t *b, float *c, double *kernel_ms);

/* The CPU reference: c[i * n + j] = sum over p of A[i][p] B[p][j], each the
 * value of its 16-bit input, multiplied and summed in double (all cores). */
sl_status sl_tgemm_cpu_reference(sl_tgemm_type type, size_t m, size_t n, size_t k, const uint16_t *a,
                                 const uint16_t *b, double *c);

/* What the CPU emulator models for one launch of `version` on an
 * m x n x k product (multiples of its tile): shared-memory bank conflicts
 * (ldmatrix's row reads included; cp.async's shared writes are not
 * counted) and global sectors per request. Modelled, never measured;
 * SL_ERR_UNSUPPORTED, saying why, in the CUDA build. */
typedef struct sl_tgemm_model {
    double shared_load_conflicts_per_request;  /* wavefronts beyond the ideal, per warp request */
    double shared_store_conflicts_per_request;
    unsigned long long shared_load_requests, shared_load_conflicts;
    double load_sectors_per_request;           /* global loads: 4 = 128 contiguous bytes per warp */
} sl_tgemm_model;
sl_status sl_tgemm_modelled(int version, size_t m, size_t n, size_t k, sl_tgemm_model *model);

#ifdef __cplusplus
}
#endif

#endif
