/* slcc's .cpp input: host C++ (templates, std::vector) that includes the
 * runtime by its toolkit names and calls a kernel's launcher in a .cu, as
 * cuda-samples split their programs. */
#include <cuda_runtime.h>
#include <helper_like.h>
#include <vector_functions.h>

#include <cstdio>
#include <vector>

#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__) || !defined(__VECTOR_TYPES_H__)
#error "the toolkit's include guards are not defined"
#endif

extern "C" int scale_by(float *dev, int n, float factor);

template <class T>
static T sum(const std::vector<T> &v)
{
    T s = 0;
    for (T x : v)
        s += x;
    return s;
}

int main()
{
    std::vector<float> host = {1, 2, 3, 4};
    float *dev = nullptr;
    if (cudaMalloc((void **)&dev, host.size() * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemcpy(dev, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
    int err = scale_by(dev, static_cast<int>(host.size()), 2.5f);
    cudaMemcpy(host.data(), dev, host.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(dev);
    float4 f = make_float4(host[0], host[1], host[2], host[3]);
    std::printf("%s: %g %g %g %g sum %g (error %d)\n", HELPER_LIKE_NAME, f.x, f.y, f.z, f.w, sum(host), err);
    return err != 0;
}
