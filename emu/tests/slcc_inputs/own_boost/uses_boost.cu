/* Includes a system Boost header while a partial copy of Boost lies beside
 * it (boost/config/platform/linux.hpp, which Boost's config.hpp includes by
 * a quoted name): the build must use the system's copy, as nvcc's does. */
#include <boost/config.hpp>
#include <cstdio>

__global__ void twice(int *x) { x[threadIdx.x] *= 2; }

int main()
{
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    printf("boost on %s: %d %d %d %d\n", BOOST_PLATFORM, h[0], h[1], h[2], h[3]);
    return 0;
}
