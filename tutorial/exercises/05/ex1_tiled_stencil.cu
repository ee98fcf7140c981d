/* Exercise 05.1 — a tiled 1D stencil.
 * out[i] = sum of in[i - R .. i + R] (zero outside the array). A naive
 * kernel reads each input 2R + 1 times from global memory. Here each block
 * first copies its BLOCK inputs plus R on each side (the halo) into shared
 * memory, then every thread reads its 2R + 1 values from there: each input
 * is loaded about once. Fill in the loading of the tile and its halo, and
 * the barrier. How many global loads does a block make now, and before? */
#include "ex_common.h"

#define BLOCK 256
#define R 3

__global__ void stencil(const float *in, float *out, int n)
{
    __shared__ float tile[BLOCK + 2 * R];
    int i = blockIdx.x * BLOCK + threadIdx.x; /* this thread's output */
#ifdef SOLUTION
    /* tile[t + R] holds in[i]; the first R threads also load the halo on the
     * left (R before the block) and on the right (BLOCK after their own). */
    tile[threadIdx.x + R] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < R) {
        int left = i - R, right = i + BLOCK;
        tile[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
        tile[threadIdx.x + BLOCK + R] = right < n ? in[right] : 0.0f;
    }
    __syncthreads(); /* every thread reads what its neighbours loaded */
#else
    /* FIXME: load tile[threadIdx.x + R] = in[i] (0 past the end), the R
     * halo values on each side, and wait until the whole tile is there */
    tile[threadIdx.x + R] = 0.0f;
#endif
    if (i >= n) return;
    float sum = 0.0f;
    for (int d = -R; d <= R; d++) sum += tile[threadIdx.x + R + d];
    out[i] = sum;
}

int main(void)
{
    const int n = 100003;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    float *want = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) in[i] = (float)(i % 17) - 8.0f;
    for (int i = 0; i < n; i++) {
        want[i] = 0.0f;
        for (int d = -R; d <= R; d++)
            if (i + d >= 0 && i + d < n) want[i] += in[i + d];
    }
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    int wrong = 0;
    const char *seeds[3] = {NULL, "1", "2"}; /* the default order, then two random ones (emulator) */
    for (int k = 0; k < 3; k++) {
        if (seeds[k]) setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
        wrong |= check_close(seeds[k] ? "random schedule" : "default schedule", out, want, n, 1e-4f);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(in), free(out), free(want);
    return wrong;
}
