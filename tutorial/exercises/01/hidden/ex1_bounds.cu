/* Hidden test of exercise 01.1 (instructor only; `make student` leaves
 * hidden/ out). The grader copies this file beside the student's
 * ex1_bounds.cu, which it includes with its main renamed, and runs the
 * student's kernel on sizes the visible test does not try. One line per
 * check: "ok - what" or "not ok - what: why". */
#define main student_main
#include "ex1_bounds.cu"
#undef main

/* n elements in a grid of ceil(n / block) blocks; the arrays are exactly n
 * long, so a thread past the end faults under the emulator. */
static void one_case(size_t n, unsigned block)
{
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)(i % 977);
        b[i] = 0.5f;
        c[i] = -1.0f;
    }
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice));
    add<<<(unsigned)((n + block - 1) / block), block>>>(d_a, d_b, d_c, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("not ok - n = %zu, block %u: the launch failed: %s\n", n, block, cudaGetErrorString(err));
        exit(0); /* a sticky error: no later case could run */
    }
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (c[i] != (float)(i % 977) + 0.5f) bad = i;
    if (bad == n)
        printf("ok - n = %zu, block %u\n", n, block);
    else
        printf("not ok - n = %zu, block %u: c[%zu] = %g, expected %g\n", n, block, bad, c[bad],
               (float)(bad % 977) + 0.5f);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a);
    free(b);
    free(c);
}

int main(void)
{
    one_case(1, 256);
    one_case(31, 32);
    one_case(33, 32);
    one_case(257, 256);
    one_case(100003, 128);
    return 0;
}
