/* Exercise 04.4 (performance) — v2's bank conflicts, gone in v3.
 * reduce_strided below is the tree of v2: at step s, thread t adds slot
 * 2st + s into slot 2st. The busy threads are the first ones (no warp
 * divergence), but the 32 lanes of a warp touch words 2s apart: for s = 1
 * lanes 0 and 16 hit the same bank (word 0 and word 32), a 2-way conflict,
 * and the conflicts double with s, up to 32-way. Write reduce_sequential
 * with v3's sequential addressing: at step s (s = BLOCK/2, ..., 1) thread
 * t < s adds slot t + s into slot t, so the lanes of a warp touch 32
 * consecutive words, 32 different banks.
 *
 * Graded by correctness and by the emulator's modelled shared-memory bank
 * conflicts (loads and stores), measured for both kernels in the same run:
 *   build/bin/slcc --profile student/04/ex4_bank_conflicts.cu -o build/ex4 && build/ex4
 * as given yours has as many as the reference (ratio 1.00); the target is
 * at most 0.05 of the reference's. On a GPU, Nsight Compute's
 * l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld (and _op_st)
 * count the same; a GPU build is graded on correctness alone. */
#include "ex_common.h"
#include "../common/ex_model.h"

#define BLOCK 256

/* The reference, v2's strided index. Do not change it. */
__global__ void reduce_strided(const int *x, size_t n, int *partials)
{
    __shared__ int sh[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * BLOCK + t;
    sh[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        unsigned index = 2 * s * t;
        if (index < BLOCK) sh[index] += sh[index + s];
        __syncthreads();
    }
    if (t == 0) partials[blockIdx.x] = sh[0];
}

__global__ void reduce_sequential(const int *x, size_t n, int *partials)
{
    __shared__ int sh[BLOCK];
    unsigned t = threadIdx.x;
    size_t i = (size_t)blockIdx.x * BLOCK + t;
    sh[t] = i < n ? x[i] : 0;
    __syncthreads();
#ifdef SOLUTION
    /* Step s: the first s threads add the upper half of the live slots onto
     * the lower half; a warp's lanes read and write consecutive words. */
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s) sh[t] += sh[t + s];
        __syncthreads();
    }
#else
    /* FIXME: v2's strided index, as in reduce_strided; use sequential
     * addressing (v3) */
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        unsigned index = 2 * s * t;
        if (index < BLOCK) sh[index] += sh[index + s];
        __syncthreads();
    }
#endif
    if (t == 0) partials[blockIdx.x] = sh[0];
}

/* Runs one kernel over x and returns the sum of its block sums. */
static long long run(void (*kernel)(const int *, size_t, int *), const int *d_x, size_t n, int *d_partials,
                     int *partials, unsigned blocks)
{
    CHECK(cudaMemset(d_partials, 0x7f, blocks * sizeof(int))); /* poison: a block that wrote nothing shows */
    kernel<<<blocks, BLOCK>>>(d_x, n, d_partials);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(partials, d_partials, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (unsigned b = 0; b < blocks; b++) sum += partials[b];
    return sum;
}

int main(void)
{
    const size_t n = 100003; /* prime: the last block is partial */
    unsigned blocks = (unsigned)((n + BLOCK - 1) / BLOCK);
    int *x = (int *)malloc(n * sizeof(int)), *partials = (int *)malloc(blocks * sizeof(int));
    long long want = fill_inputs(x, n);
    int *d_x, *d_partials;
    CHECK(cudaMalloc(&d_x, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partials, blocks * sizeof(int)));
    CHECK(cudaMemcpy(d_x, x, n * sizeof(int), cudaMemcpyHostToDevice));

    model_begin();
    long long ref_sum = run(reduce_strided, d_x, n, d_partials, partials, blocks);
    double ref = MODEL_END(model->shld_bank_conflicts + model->shst_bank_conflicts);
    model_begin();
    long long got = run(reduce_sequential, d_x, n, d_partials, partials, blocks);
    double mine = MODEL_END(model->shld_bank_conflicts + model->shst_bank_conflicts);

    int wrong = check_sum("the reference", ref_sum, want) | check_sum("reduce_sequential", got, want);
    if (ref <= 0 || mine < 0) {
        printf("no modelled bank conflicts here (a GPU build, or built without slcc --profile)\n");
    } else {
        double ratio = mine / ref;
        printf("bank conflicts: reference %.0f, yours %.0f, ratio %.2f (modelled by the emulator): %s\n", ref, mine,
               ratio, ratio <= 0.05 ? "a warp's lanes hit 32 banks" : "target: at most 0.05 (sequential addressing)");
        if (ratio > 0.05) wrong = 1;
    }
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_partials));
    free(x), free(partials);
    return wrong;
}
