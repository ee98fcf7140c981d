/* Chapter 05 — what the SGEMM files hand each other: the dispatch from
 * kernels/05_sgemm.cu to the families, the tile shapes, and the two device
 * helpers every version from v3 on uses (the epilogue and a guarded load). */
#ifndef SIMTLAB_KERNELS_05_SGEMM_FAMILY_CUH
#define SIMTLAB_KERNELS_05_SGEMM_FAMILY_CUH

#include "05_sgemm.h"

/* The block and tile of one version or v7 shape. */
typedef struct sgemm_shape {
    int threads; /* per block */
    int bm, bn;  /* the block's tile of C */
} sgemm_shape;

/* v4-v6 (kernels/05_sgemm_blocked.cu) and v7-v9 (kernels/05_sgemm_warptile.cu).
 * `config` is v9's tile shape; v7 and v8 run shape 0 whatever it says. */
sgemm_shape sgemm_blocked_shape(int version);
cudaError_t sgemm_blocked_launch(int version, const sl_sgemm_args *args, cudaStream_t stream);
int sgemm_warptile_config_count(void);
const char *sgemm_warptile_config_name(int config);
sgemm_shape sgemm_warptile_shape(int version, int config);
cudaError_t sgemm_warptile_launch(int version, int config, const sl_sgemm_args *args, cudaStream_t stream);

/* The grid of an m x n result in tiles of bm x bn: column tiles on x, row tiles on y. */
static inline dim3 sgemm_grid(const sl_sgemm_args *args, int bm, int bn)
{
    return dim3((unsigned)((args->n + bn - 1) / bn), (unsigned)((args->m + bm - 1) / bm));
}

/* The epilogue: C[at] = alpha * acc + beta * C[at]. With beta == 0 C is not
 * read, so whatever it held (NaN, uninitialised memory) does not matter. */
static __device__ __forceinline__ void sgemm_store(float *__restrict__ c, size_t at, float acc, float alpha,
                                                   float beta)
{
    c[at] = beta == 0.0f ? alpha * acc : alpha * acc + beta * c[at];
}

/* Four consecutive elements of row `row` of an rows x cols matrix, from
 * column `col` on; zeros for what lies outside. One 16-byte load when all
 * four are inside and `vec` says every row starts 16-byte aligned (the
 * launcher checks the pointer and the leading dimension), else one guarded
 * load each: the tile's edges and odd leading dimensions cost speed, never
 * correctness. */
static __device__ __forceinline__ float4 sgemm_load4(const float *__restrict__ mat, size_t ld, int rows, int cols,
                                                     int row, int col, int vec)
{
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows) return v;
    const float *p = mat + (size_t)row * ld + col;
    if (vec && col + 3 < cols) return *reinterpret_cast<const float4 *>(p);
    if (col < cols) v.x = p[0];
    if (col + 1 < cols) v.y = p[1];
    if (col + 2 < cols) v.z = p[2];
    if (col + 3 < cols) v.w = p[3];
    return v;
}

/* 1 when every row of `mat` starts at a 16-byte boundary. */
static inline int sgemm_rows_aligned16(const float *mat, size_t ld)
{
    return ((size_t)mat % 16 == 0) && ld % 4 == 0;
}

#endif
