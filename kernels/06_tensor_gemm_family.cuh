/* Chapter 06 — what the two kernel files of the tensor-core GEMM share
 * (kernels/06_tensor_gemm.cu has the map). */
#ifndef SIMTLAB_KERNELS_06_TENSOR_GEMM_FAMILY_CUH
#define SIMTLAB_KERNELS_06_TENSOR_GEMM_FAMILY_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "06_tensor_gemm.h"

/* v3, v4 and v5's block tile: 128 x 128 of C, 32 of K per step, 8 warps in a
 * 2 x 4 grid, each warp 64 x 32 of C (4 x 4 mma tiles of 16 x 8). */
#define TG_MMA_BM 128
#define TG_MMA_BN 128
#define TG_MMA_BK 32
#define TG_MMA_THREADS 256

/* v3, v4 and v5 (kernels/06_tensor_gemm_mma.cu), launched on the grid of their
 * tile; `args` already checked. */
cudaError_t tgemm_mma_launch(int version, const sl_tgemm_args *args, cudaStream_t stream);

#endif
