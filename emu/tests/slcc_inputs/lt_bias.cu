/* slcc and cuBLASLt: a program that includes only <cublasLt.h> and
 * <cuda_bf16.h> (half and bfloat16 come with cublasLt.h, as with the
 * toolkit) and is built with nvcc's -lcublas -lcublasLt. D = A B + bias in
 * bfloat16: A = [1 3; 2 4] (column-major), B = [1; 1], bias = [0.5; -1],
 * so D = [4.5; 5]. */
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <stdio.h>

int main(void)
{
    __nv_bfloat16 host[8];
    const float values[8] = {1, 2, 3, 4, /* A */ 1, 1, /* B */ 0.5f, -1 /* bias */};
    for (int i = 0; i < 8; i++)
        host[i] = __float2bfloat16(values[i]);
    __nv_bfloat16 *dev = NULL, *d = NULL;
    cudaMalloc((void **)&dev, sizeof host);
    cudaMalloc((void **)&d, 2 * sizeof(__nv_bfloat16));
    cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
    const __nv_bfloat16 *bias = dev + 6;

    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, ld;
    cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_BIAS;
    cublasStatus_t st = cublasLtCreate(&lt);
    if (!st)
        st = cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    if (!st)
        st = cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof epilogue);
    if (!st)
        st = cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
    if (!st)
        st = cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, 2, 2, 2);
    if (!st)
        st = cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, 2, 1, 2);
    if (!st)
        st = cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, 2, 1, 2);
    const float alpha = 1, beta = 0;
    if (!st)
        st = cublasLtMatmul(lt, desc, &alpha, dev, la, dev + 4, lb, &beta, d, ld, d, ld, NULL, NULL, 0, 0);
    if (st) {
        printf("cuBLASLt error %d: %s\n", (int)st, simtlab_emu_last_diagnostic());
        return 1;
    }
    __nv_bfloat16 out[2];
    cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    printf("D: %g %g\n", __bfloat162float(out[0]), __bfloat162float(out[1]));
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
    cudaFree(dev);
    cudaFree(d);
    return 0;
}
