/* Kernels of one name overloaded on the parameter types, launched with
 * arguments that hold a template's comma (Tensor<float, 1>(...)): each
 * launch must run the overload that C++ picks for its arguments, which the
 * values written show (1-D: v, 2-D: 2v + 1, the plain one: -v). */
#include <cstdio>

template <class T, int Rank>
struct Tensor {
    T *data;
    int size;
    Tensor(T *d, int s) : data(d), size(s) {}
};

__global__ void fill(Tensor<float, 1> t, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < t.size)
        t.data[i] = v;
}

__global__ void fill(Tensor<float, 2> t, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < t.size)
        t.data[i] = 2.0f * v + 1.0f;
}

/* another count: the arity alone picks this one */
__global__ void fill(float *p, int n, float v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = -v;
}

int main()
{
    const int n = 40;
    float *a, *b, *c;
    if (cudaMallocManaged(&a, n * sizeof *a) != cudaSuccess || cudaMallocManaged(&b, n * sizeof *b) != cudaSuccess ||
        cudaMallocManaged(&c, n * sizeof *c) != cudaSuccess)
        return 1;
    fill<<<2, 32>>>(Tensor<float, 1>(a, n), 3.0f);
    fill<<<2, 32>>>(Tensor<float, 2>(b, n), 3.0f);
    fill<<<2, 32>>>(c, n, 3.0f);
    cudaError_t err = cudaDeviceSynchronize();
    int wrong = 0;
    for (int i = 0; i < n; i++)
        wrong += (a[i] != 3.0f) + (b[i] != 7.0f) + (c[i] != -3.0f);
    printf("overloads: %s, %d of %d values wrong (a %g, b %g, c %g)\n", cudaGetErrorString(err), wrong, 3 * n, a[0],
           b[0], c[0]);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return wrong != 0 || err != cudaSuccess;
}
