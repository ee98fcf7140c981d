/* Calls and types CUDA removed, one per CASE (slcc -c -DCASE=n): each must
 * stop the build with a message that names what was removed, in which
 * CUDA version, and its replacement (test_slcc_cuda_programs.c). */
#include <cstdio>

#if CASE == 5 || CASE == 6
texture<float, 1, cudaReadModeElementType> tex_ref;
#endif
#if CASE == 7
surface<void, cudaSurfaceType2D> surf_ref;
#endif

int main()
{
#if CASE == 1
    return cudaThreadSynchronize() != cudaSuccess;
#elif CASE == 2
    cudaThreadExit();
#elif CASE == 3
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("overlap %d\n", prop.deviceOverlap);
#elif CASE == 4
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("clock %d kHz\n", prop.clockRate);
#elif CASE == 6
    float *d = nullptr;
    cudaBindTexture(nullptr, tex_ref, d, 64);
#elif CASE == 8
    cudaThreadSetLimit(cudaLimitStackSize, 4096);
#endif
    return 0;
}
