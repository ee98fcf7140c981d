/* Exercise 01.3 — a grid-stride loop. The launch below uses a fixed grid of
 * 4 blocks x 128 threads = 512 threads for a million elements. Make the
 * kernel cover all of them. */
#include "ex_common.h"

__global__ void add(const float *a, const float *b, float *c, size_t n)
{
#ifdef SOLUTION
    size_t stride = (size_t)gridDim.x * blockDim.x; /* threads in the whole grid */
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
#else
    /* FIXME: each thread handles one element, so only the first 512 are added */
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
#endif
}

int main(void)
{
    const size_t n = 1000003; /* prime: no grid divides it evenly */
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    fill_inputs(a, b, c, n);
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice)); /* the poison too */
    add<<<4, 128>>>(d_a, d_b, d_c, n);
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
