/* Hidden test of exercise 05.3 (instructor only): the key is the count of
 * the kernel's global loads on the device (the grader's copy of the
 * kernel, one atomicAdd per load), for sizes other than the four the
 * student's program prints (a table of those four is not a formula). All
 * ten points are the formula's. */
#define GRADE_POINTS_VISIBLE 0
#include "../grading/grade.h"
#define main student_main
#include "ex3_bytes_moved.cu"
#undef main

template <int T>
__global__ void key_counted_sgemm(const float *a, const float *b, float *c, int n, unsigned long long *loads)
{
    __shared__ float as[T][T], bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int q0 = 0; q0 < n; q0 += T) {
        as[threadIdx.y][threadIdx.x] = a[(size_t)row * n + q0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(size_t)(q0 + threadIdx.y) * n + col];
        atomicAdd(loads, 2ull);
        __syncthreads();
        for (int q = 0; q < T; q++) acc += as[threadIdx.y][q] * bs[q][threadIdx.x];
        __syncthreads();
    }
    c[(size_t)row * n + col] = acc;
}

template <int T>
static void key(int n, int visible)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *d_a, *d_b, *d_c;
    unsigned long long *d_loads, loads = 0;
    GRADE_REQUIRE(cudaMalloc(&d_a, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_b, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_c, bytes));
    GRADE_REQUIRE(cudaMalloc(&d_loads, sizeof loads));
    GRADE_REQUIRE(cudaMemset(d_a, 0, bytes));
    GRADE_REQUIRE(cudaMemset(d_b, 0, bytes));
    GRADE_REQUIRE(cudaMemset(d_loads, 0, sizeof loads));
    key_counted_sgemm<T><<<dim3(n / T, n / T), dim3(T, T)>>>(d_a, d_b, d_c, n, d_loads);
    GRADE_REQUIRE(cudaGetLastError());
    GRADE_REQUIRE(cudaDeviceSynchronize());
    GRADE_REQUIRE(cudaMemcpy(&loads, d_loads, sizeof loads, cudaMemcpyDeviceToHost));
    double said = predicted_loads(n, T);
    CHECK_HIDDEN(said == (double)loads, "n = %d, TILE = %d%s%s", n, T, visible ? " (a size your program prints)" : "",
                 said == (double)loads ? "" : ": wrong");
    cudaFree(d_a), cudaFree(d_b), cudaFree(d_c), cudaFree(d_loads);
}

int main(void)
{
    int formed = 1;
    const int sizes[4][2] = {{64, 16}, {128, 16}, {128, 32}, {192, 32}};
    for (int k = 0; k < 4; k++) {
        double said = predicted_loads(sizes[k][0], sizes[k][1]);
        formed &= said >= 1 && said == floor(said) && said < 1e18;
    }
    CHECK_VISIBLE(formed, "every answer well formed%s", formed ? "" : ": one is not a positive whole number");
    key<16>(48, 0);
    key<32>(64, 0);
    key<16>(80, 0);
    key<8>(40, 0);
    key<32>(96, 0);
    key<16>(256, 0);
    grade_done();
    return 0;
}
