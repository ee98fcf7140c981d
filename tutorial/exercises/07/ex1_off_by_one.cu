/* Exercise 07.1 — an off-by-one, found by the emulator's memcheck.
 * d[i] = x[i + 1] - x[i]: the forward differences of n values, n - 1 of
 * them. The kernel checks its index, and still reads one element past the
 * end of x and writes one past the end of d. Run it as given and read what
 * the emulator says: which thread, which allocation, how far past its end.
 * Then fix the kernel's bound. On a GPU the same bug usually does nothing
 * visible (the extra bytes lie inside memory the allocation's page covers):
 * compute-sanitizer --tool memcheck ./ex1 finds it there. */
#include "../common/ex_check.h"

__global__ void differences(const float *x, float *d, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
#ifdef SOLUTION
    /* n values have n - 1 differences: the last thread that works is
     * i = n - 2, which reads x[n - 1]. (n >= 1 here, so n - 1 does not wrap.) */
    if (i < n - 1) d[i] = x[i + 1] - x[i];
#else
    if (i < n) d[i] = x[i + 1] - x[i]; /* FIXME: one thread too many */
#endif
}

int main(void)
{
    const size_t n = 1000; /* 4 blocks of 256: threads 1000-1023 do nothing */
    float *x = (float *)malloc(n * sizeof(float)), *d = (float *)malloc((n - 1) * sizeof(float));
    for (size_t i = 0; i < n; i++) x[i] = (float)(i * i % 977); /* d[i] = (2i + 1) mod 977 ... not all alike */
    for (size_t i = 0; i + 1 < n; i++) d[i] = -12345.0f;      /* poison */
    float *d_x, *d_d;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMalloc(&d_d, (n - 1) * sizeof(float)));
    CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_d, 0xFF, (n - 1) * sizeof(float))); /* NaN: an output never written shows */
    differences<<<(unsigned)((n + 255) / 256), 256>>>(d_x, d_d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(d, d_d, (n - 1) * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (size_t i = 0; i + 1 < n && !wrong; i++)
        if (!(d[i] == x[i + 1] - x[i])) { /* exact: small whole numbers */
            printf("WRONG: d[%zu] = %g, expected %g\n", i, d[i], x[i + 1] - x[i]);
            wrong = 1;
        }
    if (!wrong) printf("correct: all %zu differences, and no access outside x or d\n", n - 1);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_d));
    free(x);
    free(d);
    return wrong;
}
