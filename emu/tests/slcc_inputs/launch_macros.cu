/* Kernel launches written inside #define bodies, as benchmark suites write
 * them: a macro that launches a kernel it names, one that launches a kernel
 * template (named with and without its arguments), one that pastes the
 * kernel's name, one whose kernel is its parameter (a plain kernel, a
 * template's instance, a template to deduce), one over several lines.
 * Every result is checked against the host's. */
#include <cstdio>

#define CHECK(call)                                                                                     \
    do {                                                                                                \
        cudaError_t e_ = (call);                                                                        \
        if (e_ != cudaSuccess) {                                                                        \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);                     \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

__global__ void add_one(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += 1;
}

__global__ void twice_kernel(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= 2;
}

template <class T>
__global__ void scale(T *v, int n, T by)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= by;
}

/* names its kernel */
#define ADD_ONE(v, n) add_one<<<((n) + 31) / 32, 32>>>(v, n)
/* names a template kernel, with and without its argument */
#define SCALE_AS(T, v, n, by) scale<T><<<((n) + 31) / 32, 32>>>(v, n, (T)(by))
#define SCALE_DEDUCED(v, n, by) scale<<<((n) + 31) / 32, 32>>>(v, n, by)
/* the kernel's name pasted together, inside a do-while */
#define RUN_NAMED(name, v, n)                                                                           \
    do {                                                                                                \
        name##_kernel<<<((n) + 31) / 32, 32>>>(v, n);                                                   \
    } while (0)
/* the kernel is the parameter; the configuration spans lines */
#define LAUNCH(kernel, n, ...)                                                                          \
    kernel<<<((n) + 31) / 32,                                                                           \
             32>>>(__VA_ARGS__)

int main()
{
    const int n = 77;
    int *iv;
    float *fv;
    double *dv;
    CHECK(cudaMallocManaged(&iv, n * sizeof *iv));
    CHECK(cudaMallocManaged(&fv, n * sizeof *fv));
    CHECK(cudaMallocManaged(&dv, n * sizeof *dv));
    for (int i = 0; i < n; i++) {
        iv[i] = i;
        fv[i] = 0.5f * (float)i;
        dv[i] = 0.25 * i;
    }
    ADD_ONE(iv, n);                    /* i + 1 */
    CHECK(cudaGetLastError());
    LAUNCH(add_one, n, iv, n);         /* i + 2 */
    CHECK(cudaGetLastError());
    SCALE_AS(int, iv, n, 3);           /* 3(i + 2) */
    RUN_NAMED(twice, iv, n);           /* 6(i + 2) */
    SCALE_AS(float, fv, n, 2.0);       /* i */
    SCALE_DEDUCED(dv, n, 4.0);         /* i */
    LAUNCH(scale<float>, n, fv, n, 3.0f); /* 3i */
    LAUNCH(scale, n, dv, n, 0.5);      /* i / 2: the template deduced through the parameter */
    CHECK(cudaDeviceSynchronize());
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        wrong += iv[i] != 6 * (i + 2);
        wrong += fv[i] != 3.0f * (float)i;
        wrong += dv[i] != 0.5 * i;
    }
    printf("launch macros: %d of %d values wrong\n", wrong, 3 * n);
    cudaFree(iv);
    cudaFree(fv);
    cudaFree(dv);
    return wrong != 0;
}
