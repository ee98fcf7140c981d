/* Exercise 01.1 — the bounds check.
 * The grid has ceil(n / 256) blocks, so the last block has threads past the
 * end of the arrays. Make the kernel correct for every n. */
#include "ex_common.h"

__global__ void add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
#ifdef SOLUTION
    if (i < n) c[i] = a[i] + b[i]; /* threads past the end do nothing */
#else
    (void)n; /* FIXME: every thread reads a[i] and b[i] and writes c[i], also for i >= n */
    c[i] = a[i] + b[i];
#endif
}

int main(void)
{
    const size_t n = 1000; /* not a multiple of 256: the last block is partial */
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    fill_inputs(a, b, c, n);
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    unsigned blocks = (unsigned)((n + 255) / 256);
    add<<<blocks, 256>>>(d_a, d_b, d_c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    int wrong = check_result(c, n);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a);
    free(b);
    free(c);
    return wrong;
}
