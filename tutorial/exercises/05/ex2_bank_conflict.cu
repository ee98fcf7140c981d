/* Exercise 05.2 — remove a bank conflict.
 * Each block loads a 32 x 32 tile of a matrix into shared memory (row by
 * row: coalesced), then thread x adds up row x of the tile. The result is
 * right, but in the second phase the 32 lanes of a warp read tile[x][j] for
 * x = 0..31 at the same j: 32 words in the same bank. Make the reads
 * conflict-free without changing what is computed.
 *
 * Graded by correctness and by the emulator's modelled shared-load bank
 * conflicts of row_sums, which the program measures:
 *   build/bin/slcc --profile student/05/ex2_bank_conflict.cu -o build/ex2 && build/ex2
 * 126976 in 4096 requests as given (31 per request: a 32-way conflict), 0
 * when fixed (SIMTLAB_EMU_PROFILE=1 also prints the table per source
 * line). On a GPU, Nsight Compute's
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld measures the same; a
 * GPU build is graded on correctness alone. */
#include "ex_common.h"
#include "../common/ex_model.h"

#define TILE 32

__global__ void row_sums(const float *m, int cols, float *sums)
{
#ifdef SOLUTION
    /* Rows of 33 floats: tile[x][j] is word 33x + j, bank (x + j) mod 32,
     * a different bank for every lane. */
    __shared__ float tile[TILE][TILE + 1];
#else
    __shared__ float tile[TILE][TILE]; /* FIXME: tile[x][j] is word 32x + j: bank j for every lane x */
#endif
    int row0 = blockIdx.x * TILE;
    for (int r = 0; r < TILE; r++) tile[r][threadIdx.x] = m[(size_t)(row0 + r) * cols + threadIdx.x];
    __syncthreads();
    float sum = 0.0f;
    for (int j = 0; j < TILE; j++) sum += tile[threadIdx.x][j];
    sums[row0 + threadIdx.x] = sum;
}

int main(void)
{
    const int rows = 4096, cols = TILE;
    float *m = (float *)malloc((size_t)rows * cols * sizeof(float));
    float *sums = (float *)malloc(rows * sizeof(float)), *want = (float *)malloc(rows * sizeof(float));
    for (int i = 0; i < rows; i++) {
        want[i] = 0.0f;
        for (int j = 0; j < cols; j++) {
            m[(size_t)i * cols + j] = (float)((i * 7 + j * 3) % 11);
            want[i] += m[(size_t)i * cols + j];
        }
    }
    float *d_m, *d_sums;
    CHECK(cudaMalloc(&d_m, (size_t)rows * cols * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
    CHECK(cudaMemcpy(d_m, m, (size_t)rows * cols * sizeof(float), cudaMemcpyHostToDevice));
    model_begin();
    row_sums<<<rows / TILE, TILE>>>(d_m, cols, d_sums);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double conflicts = MODEL_END(model->shld_bank_conflicts);
    CHECK(cudaMemcpy(sums, d_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = check_close("row sums", sums, want, rows, 0.0f);
    if (conflicts < 0) {
        printf("no modelled bank conflicts here (a GPU build, or built without slcc --profile)\n");
    } else if (conflicts > 0) {
        printf("%s %.0f bank conflicts in row_sums' shared-memory loads (modelled by the emulator): the target is "
               "0\n", wrong ? "also" : "correct, but", conflicts);
        wrong = 1;
    } else {
        printf("correct: no bank conflict in row_sums' shared-memory loads (modelled by the emulator)\n");
    }
    CHECK(cudaFree(d_m));
    CHECK(cudaFree(d_sums));
    free(m), free(sums), free(want);
    return wrong;
}
