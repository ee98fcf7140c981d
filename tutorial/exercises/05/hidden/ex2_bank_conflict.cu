/* Hidden test of exercise 05.2 (instructor only; `make student` leaves
 * hidden/ out): the performance part, graded by the emulator's modelled
 * counters. The student's row_sums must give the right sums on other
 * inputs, and its shared-memory loads must have no bank conflict. On a GPU
 * build there are no modelled counters: that check says so and passes on
 * correctness alone (Nsight Compute measures the conflicts there). */
#define main student_main
#include "ex2_bank_conflict.cu"
#undef main

#ifdef SIMTLAB_EMU
#include <simtlab_emu/profile.h>
#endif

int main(void)
{
    const int rows = 64 * TILE, cols = TILE;
    size_t elems = (size_t)rows * cols;
    float *m = (float *)malloc(elems * sizeof(float)), *sums = (float *)malloc(rows * sizeof(float));
    for (size_t i = 0; i < elems; i++) m[i] = (float)((i * 13) % 17) - 8.0f; /* small integers: sums exact */
    float *d_m, *d_sums;
    CHECK(cudaMalloc(&d_m, elems * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
    CHECK(cudaMemcpy(d_m, m, elems * sizeof(float), cudaMemcpyHostToDevice));
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_begin();
#endif
    row_sums<<<rows / TILE, TILE>>>(d_m, cols, d_sums);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_end();
#endif
    if (err != cudaSuccess) {
        printf("not ok - row sums: the launch failed: %s\n", cudaGetErrorString(err));
        return 0;
    }
    CHECK(cudaMemcpy(sums, d_sums, rows * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int r = 0; r < rows && bad < 0; r++) {
        float want = 0.0f;
        for (int j = 0; j < cols; j++) want += m[(size_t)r * cols + j];
        if (sums[r] != want) bad = r;
    }
    if (bad < 0)
        printf("ok - row sums of a %d x %d matrix\n", rows, cols);
    else
        printf("not ok - row sums: row %d is %g, expected another value\n", bad, sums[bad]);
#ifdef SIMTLAB_EMU
    simtlab_emu_profile_figures f;
    if (simtlab_emu_profile_last(&f) != 0)
        printf("not ok - bank conflicts: no modelled counters (build with slcc --profile)\n");
    else if (f.shld_bank_conflicts == 0 && f.shld_requests > 0)
        printf("ok - no bank conflict in the shared-memory loads (modelled)\n");
    else
        printf("not ok - bank conflicts: %llu in %llu shared-memory load requests (modelled; "
               "%.1f extra wavefronts per request, the target is 0)\n",
               f.shld_bank_conflicts, f.shld_requests,
               f.shld_requests ? (double)f.shld_bank_conflicts / f.shld_requests : 0.0);
#else
    printf("ok - bank conflicts not graded on a GPU build (no modelled counters; measure with ncu)\n");
#endif
    CHECK(cudaFree(d_m));
    CHECK(cudaFree(d_sums));
    free(m);
    free(sums);
    return 0;
}
