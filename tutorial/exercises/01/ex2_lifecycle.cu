/* Exercise 01.2 — the lifecycle. The kernel is done; write the host side:
 * allocate, copy in, launch (and check it), copy back, free. */
#include "ex_common.h"

__global__ void add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(void)
{
    const size_t n = 1 << 20;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    fill_inputs(a, b, c, n);
#ifdef SOLUTION
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, bytes)); /* 1. device buffers */
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice)); /* 2. copy in: dst first */
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    add<<<(unsigned)((n + 255) / 256), 256>>>(d_a, d_b, d_c, n); /* 3. launch ... */
    CHECK(cudaGetLastError());                                   /* ... a bad config? */
    CHECK(cudaDeviceSynchronize());                              /* ... a fault while running? */
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));    /* 4. copy back */
    CHECK(cudaFree(d_a));                                        /* 5. free */
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
#else
    /* FIXME: 1. cudaMalloc d_a, d_b, d_c
     *        2. cudaMemcpy a and b to the device
     *        3. launch add<<<blocks, 256>>>, then cudaGetLastError and cudaDeviceSynchronize
     *        4. cudaMemcpy d_c back into c
     *        5. cudaFree all three
     * Wrap every call in CHECK(...). */
#endif
    int wrong = check_result(c, n);
    free(a);
    free(b);
    free(c);
    return wrong;
}
