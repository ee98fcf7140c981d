/* A CUB program as a student writes it for nvcc, built by slcc in
 * test_emu_cub.cu (cub_util, slcc_builds_a_student_style_cub_program): a
 * kernel that sums a block's items with cub::BlockReduce, a second pass
 * with cub::DeviceReduce::Sum, and a key-value sort with
 * cub::DeviceRadixSort::SortPairs. Argument: the seed. Prints
 * "cub_program: ok" and exits 0 when every result matches its CPU
 * reference; otherwise says which and exits 1. */
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define CHECK(call)                                                                                               \
    do {                                                                                                          \
        cudaError_t err = (call);                                                                                 \
        if (err != cudaSuccess) {                                                                                 \
            std::printf("cub_program: %s failed: %s\n", #call, cudaGetErrorString(err));                        \
            return 1;                                                                                             \
        }                                                                                                         \
    } while (0)

/* One partial sum per block of 256 threads. */
__global__ void block_sums(const float *in, float *partial, int n)
{
    typedef cub::BlockReduce<float, 256> BR;
    __shared__ typename BR::TempStorage t;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? in[i] : 0.0f;
    float s = BR(t).Sum(x);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s;
}

int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 10) : 1u;
    std::srand(seed);
    const int n = 100003, blocks = (n + 255) / 256;
    std::vector<float> h(n);
    for (float &v : h)
        v = (float)(std::rand() % 2001 - 1000) / 1000.0f;

    float *d_in, *d_partial, *d_total;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partial, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_total, sizeof(float)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    block_sums<<<blocks, 256>>>(d_in, d_partial, n);
    CHECK(cudaGetLastError());

    void *d_temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_partial, d_total, blocks));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceReduce::Sum(d_temp, temp_bytes, d_partial, d_total, blocks));
    float total;
    CHECK(cudaMemcpy(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_temp));

    double ref = 0, mag = 0;
    for (float v : h)
        ref += v, mag += std::fabs(v);
    std::printf("sum of %d floats: %.6f (CPU, double: %.6f)\n", n, total, ref);
    if (!(std::fabs(total - ref) <= 1e-6 * mag + 1e-4)) {
        std::printf("cub_program: the sum is wrong\n");
        return 1;
    }

    /* sort the values' indices by value */
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    int *d_idx, *d_idx_sorted;
    float *d_sorted;
    CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
    CHECK(cudaMalloc(&d_idx_sorted, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sorted, n * sizeof(float)));
    CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    d_temp = nullptr;
    temp_bytes = 0;
    CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_in, d_sorted, d_idx, d_idx_sorted, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_in, d_sorted, d_idx, d_idx_sorted, n));
    std::vector<int> got(n);
    CHECK(cudaMemcpy(got.data(), d_idx_sorted, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return h[a] < h[b]; });
    for (int i = 0; i < n; ++i)
        if (got[i] != idx[i]) {
            std::printf("cub_program: SortPairs wrong at %d\n", i);
            return 1;
        }
    std::printf("sorted %d (value, index) pairs\n", n);

    CHECK(cudaFree(d_temp));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_idx));
    CHECK(cudaFree(d_idx_sorted));
    CHECK(cudaFree(d_sorted));
    std::printf("cub_program: ok\n");
    return 0;
}
