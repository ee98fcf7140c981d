/* A Thrust program as a student writes it for nvcc, built by slcc in
 * test_emu_thrust.cu (thrust, slcc_builds_a_thrust_program): device_vector
 * sort_by_key, raw pointers to its own kernel and to cudaMemcpy, device_ptr
 * over a cudaMalloc'ed buffer, NVTX ranges. Argument: the seed. Prints
 * "thrust_program: ok" and exits 0 when every result matches its CPU
 * reference; otherwise says which and exits 1. */
#include <nvtx3/nvToolsExt.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void add_index(const unsigned *keys, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (unsigned long long)keys[i] + i;
}

static int fail(const char *what, int i)
{
    std::printf("thrust_program: %s wrong at %d\n", what, i);
    return 1;
}

int main(int argc, char **argv)
{
    unsigned seed = argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 10) : 1u;
    std::srand(seed);
    const int n = 20011;
    std::vector<unsigned> keys(n);
    for (auto &k : keys)
        k = (unsigned)std::rand() % 1000u;
    nvtxRangePushA("sort");
    thrust::device_vector<unsigned> dk(keys.begin(), keys.end());
    thrust::device_vector<int> dv(n);
    thrust::sequence(dv.begin(), dv.end());
    thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
    nvtxRangePop();

    unsigned long long *out = nullptr;
    if (cudaMalloc(&out, n * sizeof *out) != cudaSuccess)
        return fail("cudaMalloc", 0);
    add_index<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(dk.data()), out, n);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return fail("kernel", 0);
    thrust::device_ptr<unsigned long long> p(out);
    unsigned long long total = thrust::reduce(p, p + n, 0ULL);

    std::vector<unsigned> got(n, 0xFFFFFFFFu);
    std::vector<int> idx(n, -1);
    if (cudaMemcpy(got.data(), thrust::raw_pointer_cast(dk.data()), n * sizeof(unsigned), cudaMemcpyDeviceToHost) !=
            cudaSuccess ||
        cudaMemcpy(idx.data(), thrust::raw_pointer_cast(dv.data()), n * sizeof(int), cudaMemcpyDeviceToHost) !=
            cudaSuccess)
        return fail("cudaMemcpy", 0);
    std::vector<unsigned> ref = keys;
    std::sort(ref.begin(), ref.end());
    unsigned long long ref_total = 0;
    for (int i = 0; i < n; i++) {
        if (got[i] != ref[i])
            return fail("sorted key", i);
        if (idx[i] < 0 || idx[i] >= n || keys[idx[i]] != got[i])
            return fail("value carried with its key", i);
        ref_total += (unsigned long long)ref[i] + i;
    }
    if (total != ref_total)
        return fail("reduce over device_ptr", 0);
    cudaFree(out);
    std::printf("thrust_program: ok\n");
    return 0;
}
