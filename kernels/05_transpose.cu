/* Chapter 05 — shared memory and tiling: the matrix transpose.
 *
 * A transpose does no arithmetic: it reads every element once and writes it
 * once, so its only measure is how close it comes to a plain copy of the
 * same bytes. What stands in the way is the order of the accesses: a warp's
 * 32 reads along a row are 32 neighbouring floats (4 sectors of 32 bytes),
 * but the same warp's writes go down a column of the output, 32 different
 * rows, 32 sectors for 128 useful bytes. Shared memory is the place to turn
 * the tile around, and its banks are the next thing in the way.
 *
 *   v1  naive, one element per thread          this file
 *   v2  through a 32 x 32 shared tile          (coalesced both ways; 32-way bank conflicts)
 *   v3  the tile padded to 32 x 33             (no bank conflicts)
 *   v4  32 x 8 threads, 4 elements each        (a quarter of the threads, more work each)
 *
 * SGEMM, the chapter's second half, has its own map in kernels/05_sgemm.cu.
 *
 * The files: kernels/05_transpose.h, the contract with host/05_transpose.c.
 *
 * Build and run: make examples && build/bin/05_transpose     (GPU)
 *                                 build/bin/05_transpose_emu (CPU emulator)
 * one version:   build/bin/05_transpose_emu 1025 513 3      (rows, cols, version)
 * test, bench:   build/bin/test_05_transpose_emu, build/bin/bench_05_transpose
 */
#include "05_transpose.h"

#define TILE SL_TRANSPOSE_TILE
/* v4's block is TILE x ROWS_PER_PASS threads; each thread moves TILE / ROWS_PER_PASS elements. */
#define ROWS_PER_PASS 8

extern "C" const char *sl_transpose_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 naive (uncoalesced stores)";
    case 2: return "v2 shared tile (bank conflicts)";
    case 3: return "v3 padded shared tile";
    case 4: return "v4 padded tile, 4 elements per thread";
    default: return NULL;
    }
}

extern "C" int sl_transpose_block_threads(int version) { return version == 4 ? TILE * ROWS_PER_PASS : TILE * TILE; }

static size_t tiles(size_t n) { return (n + TILE - 1) / TILE; }

extern "C" unsigned sl_transpose_grid_blocks(size_t rows, size_t cols) { return (unsigned)(tiles(rows) * tiles(cols)); }

extern "C" sl_transpose_problem sl_transpose_check(int version, size_t rows, size_t cols, size_t ld_in, size_t ld_out)
{
    if (version < 1 || version > SL_TRANSPOSE_VERSIONS) return SL_TRANSPOSE_BAD_VERSION;
    if (ld_in < cols) return SL_TRANSPOSE_BAD_LD_IN;
    if (ld_out < rows) return SL_TRANSPOSE_BAD_LD_OUT;
    if (rows == 0 || cols == 0) return SL_TRANSPOSE_EMPTY;
    if (tiles(rows) > SL_TRANSPOSE_MAX_ROW_TILES || tiles(cols) > 0x7fffffffu) return SL_TRANSPOSE_TOO_MANY_ROWS;
    return SL_TRANSPOSE_FINE;
}

/* Every version: block (bx, by) owns the tile of `in` at rows by*32.., columns
 * bx*32..; in the output that tile lies at rows bx*32.., columns by*32... */

/* v1 — naive.
 * Thread (x, y) reads in[row y][col x] and writes out[row x][col y]. The
 * reads of a warp (32 consecutive x) are one row, 128 contiguous bytes; its
 * writes are one column of `out`, 32 rows apart: 32 sectors per request
 * where 4 would do, and 7/8 of every 32-byte sector written is wasted. */
__global__ void transpose_v1_naive(const float *__restrict__ in, size_t rows, size_t cols, size_t ld_in,
                                   float *__restrict__ out, size_t ld_out)
{
    size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t row = (size_t)blockIdx.y * TILE + threadIdx.y;
    if (row < rows && col < cols) out[col * ld_out + row] = in[row * ld_in + col];
}

/* v2 — through a shared-memory tile.
 * v1's stores went down a column. Here the block first reads its tile row by
 * row into shared memory, then writes the transposed tile row by row: both
 * global accesses are coalesced. The cost moves to shared memory: the second
 * phase reads the tile down a column, tile[x][y] for 32 consecutive x, and
 * with 32 floats per row those 32 words are all in the same bank: a 32-way
 * conflict, the warp's read served one word at a time. */
__global__ void transpose_v2_shared(const float *__restrict__ in, size_t rows, size_t cols, size_t ld_in,
                                    float *__restrict__ out, size_t ld_out)
{
    __shared__ float tile[TILE][TILE];
    size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t row = (size_t)blockIdx.y * TILE + threadIdx.y;
    if (row < rows && col < cols) tile[threadIdx.y][threadIdx.x] = in[row * ld_in + col];
    __syncthreads();
    size_t out_row = (size_t)blockIdx.x * TILE + threadIdx.y; /* a column of in */
    size_t out_col = (size_t)blockIdx.y * TILE + threadIdx.x; /* a row of in */
    if (out_row < cols && out_col < rows) out[out_row * ld_out + out_col] = tile[threadIdx.x][threadIdx.y];
}

/* v3 — the tile padded by one column.
 * v2's column reads hit one bank 32 times. With rows of 33 floats, element
 * [x][y] sits at word 33x + y, bank (x + y) mod 32: a column's 32 words fall
 * in 32 different banks and the read takes one pass. The cost: 32 unused
 * floats of shared memory per block (128 bytes of 4224). */
__global__ void transpose_v3_padded(const float *__restrict__ in, size_t rows, size_t cols, size_t ld_in,
                                    float *__restrict__ out, size_t ld_out)
{
    __shared__ float tile[TILE][TILE + 1];
    size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t row = (size_t)blockIdx.y * TILE + threadIdx.y;
    if (row < rows && col < cols) tile[threadIdx.y][threadIdx.x] = in[row * ld_in + col];
    __syncthreads();
    size_t out_row = (size_t)blockIdx.x * TILE + threadIdx.y;
    size_t out_col = (size_t)blockIdx.y * TILE + threadIdx.x;
    if (out_row < cols && out_col < rows) out[out_row * ld_out + out_col] = tile[threadIdx.x][threadIdx.y];
}

/* v4 — four elements per thread.
 * v3 spent one thread, with its index arithmetic and its share of the
 * barrier, on each element. Here a block of 32 x 8 threads moves the same
 * 32 x 32 tile, each thread 4 rows 8 apart: the index math is done once for
 * 4 elements, and 4x more blocks fit on an SM at once, which hides the
 * barrier's wait. Cost: a loop, and fewer threads to hide latency per tile. */
__global__ void transpose_v4_multi(const float *__restrict__ in, size_t rows, size_t cols, size_t ld_in,
                                   float *__restrict__ out, size_t ld_out)
{
    __shared__ float tile[TILE][TILE + 1];
    size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
    size_t row0 = (size_t)blockIdx.y * TILE + threadIdx.y;
    for (int r = 0; r < TILE; r += ROWS_PER_PASS)
        if (row0 + r < rows && col < cols) tile[threadIdx.y + r][threadIdx.x] = in[(row0 + r) * ld_in + col];
    __syncthreads();
    size_t out_row0 = (size_t)blockIdx.x * TILE + threadIdx.y;
    size_t out_col = (size_t)blockIdx.y * TILE + threadIdx.x;
    for (int r = 0; r < TILE; r += ROWS_PER_PASS)
        if (out_row0 + r < cols && out_col < rows)
            out[(out_row0 + r) * ld_out + out_col] = tile[threadIdx.x][threadIdx.y + r];
}

/* ---- launcher ----------------------------------------------------------------- */

extern "C" cudaError_t sl_transpose_launch(int version, const float *in, size_t rows, size_t cols, size_t ld_in,
                                           float *out, size_t ld_out, cudaStream_t stream)
{
    if (!in || !out || sl_transpose_check(version, rows, cols, ld_in, ld_out) != SL_TRANSPOSE_FINE)
        return cudaErrorInvalidValue;
    dim3 grid((unsigned)tiles(cols), (unsigned)tiles(rows));
    dim3 square(TILE, TILE), narrow(TILE, ROWS_PER_PASS);
    switch (version) {
    case 1: transpose_v1_naive<<<grid, square, 0, stream>>>(in, rows, cols, ld_in, out, ld_out); break;
    case 2: transpose_v2_shared<<<grid, square, 0, stream>>>(in, rows, cols, ld_in, out, ld_out); break;
    case 3: transpose_v3_padded<<<grid, square, 0, stream>>>(in, rows, cols, ld_in, out, ld_out); break;
    default: transpose_v4_multi<<<grid, narrow, 0, stream>>>(in, rows, cols, ld_in, out, ld_out); break;
    }
    return cudaGetLastError();
}
