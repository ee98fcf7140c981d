/* Exercise 06.1 — a WMMA tile loop.
 * One warp computes one 16x16 tile of C = A B (A m x k, B k x n, half,
 * row-major; C float). The kernel below loads A's and B's first 16x16 tiles
 * and multiplies them once: right only when k = 16. Write the loop over k
 * in steps of 16, accumulating into the same fragment. Which pointers move,
 * and by how much per step? (kernels/06_tensor_gemm.cu, v1, is the answer
 * in the library.) */
#include <mma.h>

#include "ex_common.h"

using namespace nvcuda;

__global__ void wmma_gemm(const __half *a, const __half *b, float *c, int n, int k)
{
    const size_t row = (size_t)blockIdx.y * 16, col = (size_t)blockIdx.x * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
#ifdef SOLUTION
    for (int p = 0; p < k; p += 16) { /* A moves right by 16 columns, B down by 16 rows */
        wmma::load_matrix_sync(fa, a + row * k + p, k);
        wmma::load_matrix_sync(fb, b + (size_t)p * n + col, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
#else
    wmma::load_matrix_sync(fa, a + row * k, k); /* FIXME: only the first 16 of k */
    wmma::load_matrix_sync(fb, b + col, n);
    wmma::mma_sync(acc, fa, fb, acc);
#endif
    wmma::store_matrix_sync(c + row * n + col, acc, n, wmma::mem_row_major);
}

int main(void)
{
    const int m = 32, n = 48, k = 64;
    unsigned short *a = (unsigned short *)malloc(m * k * 2), *b = (unsigned short *)malloc(k * n * 2);
    float *c = (float *)malloc(m * n * 4);
    for (int i = 0; i < m * k; i++) a[i] = f16_of_int((i * 7) % 5);
    for (int i = 0; i < k * n; i++) b[i] = f16_of_int((i * 3) % 4);
    void *da, *db, *dc;
    CHECK(cudaMalloc(&da, m * k * 2));
    CHECK(cudaMalloc(&db, k * n * 2));
    CHECK(cudaMalloc(&dc, m * n * 4));
    CHECK(cudaMemcpy(da, a, m * k * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, k * n * 2, cudaMemcpyHostToDevice));
    wmma_gemm<<<dim3(n / 16, m / 16), 32>>>((const __half *)da, (const __half *)db, (float *)dc, n, k);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, m * n * 4, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            long want = 0; /* whole numbers: the float sums are exact */
            for (int p = 0; p < k; p++) want += (long)(((i * k + p) * 7) % 5) * (((p * n + j) * 3) % 4);
            if (c[i * n + j] != (float)want && wrong++ < 3)
                printf("C[%d][%d] = %g, want %ld\n", i, j, c[i * n + j], want);
        }
    printf("%s: %d of %d elements wrong\n", wrong ? "WRONG" : "correct", wrong, m * n);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    free(a), free(b), free(c);
    return wrong != 0;
}
