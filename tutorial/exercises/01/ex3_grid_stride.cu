/* Exercise 01.3 — a grid-stride loop. The launch below uses a fixed grid of
 * 4 blocks x 128 threads = 512 threads for a million elements. Make the
 * kernel cover all of them. */
#include "ex_common.h"

#define N 1000003 /* prime: no grid divides it evenly */

/* How many times each element was written: the check below needs every
 * element written exactly once. A loop with the wrong stride (the block's
 * instead of the grid's) also gives the right sums, each element written by
 * several threads; this counter is what tells the two apart. */
__device__ unsigned writes[N];

/* c[i] = v, counted. Write every element of c through store(). */
__device__ void store(float *c, size_t i, float v)
{
    c[i] = v;
    atomicAdd(&writes[i], 1u);
}

__global__ void add(const float *a, const float *b, float *c, size_t n)
{
#ifdef SOLUTION
    size_t stride = (size_t)gridDim.x * blockDim.x; /* threads in the whole grid */
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        store(c, i, a[i] + b[i]);
#else
    /* FIXME: each thread handles one element, so only the first 512 are added */
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) store(c, i, a[i] + b[i]);
#endif
}

/* 0 when every element was written exactly once, else says which was not. */
static int check_writes(size_t n)
{
    unsigned *count = (unsigned *)malloc(n * sizeof(unsigned));
    CHECK(cudaMemcpyFromSymbol(count, writes, n * sizeof(unsigned)));
    size_t more = 0, never = 0, first = n;
    for (size_t i = 0; i < n; i++) {
        if (count[i] != 1 && first == n) first = i;
        more += count[i] > 1;
        never += count[i] == 0;
    }
    int wrong = 0;
    if (first < n) {
        printf("WRONG: element %zu written %u times; %zu elements written more than once, %zu never "
               "(every element must be written exactly once: is the stride the whole grid's?)\n",
               first, count[first], more, never);
        wrong = 1;
    } else {
        printf("correct: every element written exactly once\n");
    }
    free(count);
    return wrong;
}

int main(void)
{
    const size_t n = N;
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
    wrong |= check_writes(n);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a);
    free(b);
    free(c);
    return wrong;
}
