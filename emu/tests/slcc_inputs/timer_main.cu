/* Times a kernel with the C timer of timer_gettimeofday.c (struct timeval):
 * the elapsed time of a 20 ms sleep must be at least 15 ms and under 10 s,
 * and the kernel's result right. Also prints the dialects of both files:
 * nvcc 13 compiles a .cu as C++17 with GNU extensions. */
#include <cstdio>
#include <ctime>

extern "C" double wall_seconds(void);
extern "C" int c_file_is_strict(void);
extern "C" int c_file_cuda_major(void);

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i];
}

int main()
{
    const int n = 100;
    int *v;
    if (cudaMallocManaged(&v, n * sizeof *v) != cudaSuccess)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = i;
    const double start = wall_seconds();
    square<<<(n + 31) / 32, 32>>>(v, n);
    cudaDeviceSynchronize();
    const struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, nullptr);
    const double elapsed = wall_seconds() - start;
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += v[i] != i * i;
    cudaFree(v);
#ifdef __STRICT_ANSI__
    const int cu_strict = 1;
#else
    const int cu_strict = 0;
#endif
    printf("timer: %s, %d wrong\n", elapsed >= 0.015 && elapsed < 10.0 ? "elapsed in range" : "elapsed WRONG", wrong);
    printf("dialects: .c strict %d, .cu strict %d, C++ %ld, CUDA %d in .c, %d in .cu\n", c_file_is_strict(),
           cu_strict, (long)__cplusplus, c_file_cuda_major(), __CUDACC_VER_MAJOR__);
    return wrong != 0;
}
