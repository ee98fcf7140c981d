/* Exercise 01.5 (performance) — a quarter of the load requests.
 * add1 below is vector add as a grid-stride loop: each thread loads one
 * float of a and one of b per step. A warp's 32 loads of 4 bytes are one
 * request for 128 bytes. Write add4 so that each thread moves FOUR
 * consecutive floats per step with one 16-byte load of a, one of b and one
 * 16-byte store of c (float4, chapter 01's v3): a warp's request then
 * carries 512 bytes, and the same bytes need a quarter of the requests.
 * n = 1000003 is not a multiple of 4: the last n % 4 elements must be done
 * one at a time, by exactly one thread each.
 *
 * Why it is safe: cudaMalloc returns addresses aligned to 256 bytes, so
 * (const float4 *)a is 16-byte aligned, as a 16-byte load requires (a
 * misaligned one is cudaErrorMisalignedAddress on a GPU).
 *
 * Graded by correctness and by the emulator's modelled global load
 * requests, measured for add1 and add4 in the same run:
 *   build/bin/slcc --profile student/01/ex5_wide_loads.cu -o build/ex5 && build/ex5
 * as given add4 makes as many requests as add1 (ratio 1.00); the target is
 * a ratio of at most 0.30 (0.25 plus the tail and the rounding of the
 * grid). On a GPU, Nsight Compute's l1tex__t_requests_pipe_lsu_mem_global_op_ld
 * counts the same requests. */
#include "ex_common.h"
#include "../common/ex_model.h"

#define N 1000003 /* prime: n % 4 = 3 */
#define BLOCKS 64
#define THREADS 256

/* The reference: one float per thread per step. Do not change it. */
__global__ void add1(const float *a, const float *b, float *c, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i] + b[i];
}

__global__ void add4(const float *a, const float *b, float *c, size_t n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t stride = (size_t)gridDim.x * blockDim.x;
#ifdef SOLUTION
    /* Groups of 4 floats: group g is elements 4g .. 4g + 3. */
    size_t groups = n / 4;
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
    float4 *c4 = (float4 *)c;
    for (size_t g = t; g < groups; g += stride) {
        float4 x = a4[g], y = b4[g];
        c4[g] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    /* The tail, n % 4 < 4 elements: one thread each. */
    size_t i = groups * 4 + t;
    if (i < n) c[i] = a[i] + b[i];
#else
    /* FIXME: one float per load, like add1; move four per load (float4) and
     * do the last n % 4 elements one at a time */
    for (size_t i = t; i < n; i += stride) c[i] = a[i] + b[i];
#endif
}

int main(void)
{
    const size_t n = N;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *d_a, *d_b, *d_c;
    fill_inputs(a, b, c, n);
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    model_begin();
    add1<<<BLOCKS, THREADS>>>(d_a, d_b, d_c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double ref = MODEL_END(model->gld_requests);

    CHECK(cudaMemcpy(d_c, c, bytes, cudaMemcpyHostToDevice)); /* the poison again: add1 wrote c */
    model_begin();
    add4<<<BLOCKS, THREADS>>>(d_a, d_b, d_c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double mine = MODEL_END(model->gld_requests);
    CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));

    int wrong = check_result(c, n);
    if (ref <= 0 || mine < 0) {
        printf("no modelled load requests here (a GPU build, or built without slcc --profile)\n");
    } else {
        double ratio = mine / ref;
        printf("load requests: add1 %.0f, add4 %.0f, ratio %.2f (modelled by the emulator): %s\n", ref, mine, ratio,
               ratio <= 0.30 ? "four floats per request" : "target: at most 0.30 (float4 loads)");
        if (ratio > 0.30) wrong = 1;
    }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    free(a), free(b), free(c);
    return wrong;
}
