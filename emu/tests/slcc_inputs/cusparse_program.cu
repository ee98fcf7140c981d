// A cuSPARSE program as students write it (the generic API's SpMV and SpMM
// on a CSR matrix), built by test_emu_cusparse with slcc -lcusparse. It
// checks itself against a double-precision loop on the host and prints
// "cusparse_program: ok". Its one argument is the seed of the random matrix.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#define CHECK_CUDA(call)                                                                          \
    do {                                                                                          \
        cudaError_t e_ = (call);                                                                  \
        if (e_ != cudaSuccess) {                                                                  \
            std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__);          \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)
#define CHECK_CUSPARSE(call)                                                                      \
    do {                                                                                          \
        cusparseStatus_t s_ = (call);                                                             \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                      \
            std::printf("cuSPARSE error %s at line %d\n", cusparseGetErrorString(s_), __LINE__); \
            return 1;                                                                             \
        }                                                                                         \
    } while (0)

int main(int argc, char **argv)
{
    const unsigned seed = argc > 1 ? (unsigned)std::strtoul(argv[1], nullptr, 10) : 1u;
    const int rows = 97, cols = 61, ncols_b = 7; // primes
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);

    // A random CSR matrix with about 10% of its entries set, some rows empty.
    std::vector<int> offsets(rows + 1, 0), columns;
    std::vector<float> values;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            if (r % 11 != 3 && rng() % 10 == 0) {
                columns.push_back(c);
                values.push_back(value(rng));
            }
        offsets[r + 1] = (int)columns.size();
    }
    const int nnz = (int)columns.size();
    std::vector<float> x(cols), B((size_t)cols * ncols_b);
    for (float &v : x)
        v = value(rng);
    for (float &v : B)
        v = value(rng);
    std::printf("A: %d x %d, %d nonzeros (seed %u)\n", rows, cols, nnz, seed);

    int *d_offsets, *d_columns;
    float *d_values, *d_x, *d_y, *d_B, *d_C;
    CHECK_CUDA(cudaMalloc(&d_offsets, (rows + 1) * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_columns, nnz * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&d_values, nnz * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_x, cols * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_y, rows * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_B, B.size() * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&d_C, (size_t)rows * ncols_b * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(d_offsets, offsets.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_columns, columns.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_values, values.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(d_B, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));

    cusparseHandle_t handle;
    cusparseSpMatDescr_t matA;
    cusparseDnVecDescr_t vecX, vecY;
    cusparseDnMatDescr_t matB, matC;
    CHECK_CUSPARSE(cusparseCreate(&handle));
    CHECK_CUSPARSE(cusparseCreateCsr(&matA, rows, cols, nnz, d_offsets, d_columns, d_values, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecX, cols, d_x, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnVec(&vecY, rows, d_y, CUDA_R_32F));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matB, cols, ncols_b, ncols_b, d_B, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK_CUSPARSE(cusparseCreateDnMat(&matC, rows, ncols_b, ncols_b, d_C, CUDA_R_32F, CUSPARSE_ORDER_ROW));

    // y = A x
    float alpha = 1.0f, beta = 0.0f;
    size_t bytes = 0;
    void *buffer = nullptr;
    CHECK_CUSPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                           CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    CHECK_CUDA(cudaMalloc(&buffer, bytes));
    CHECK_CUSPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, matA, vecX, &beta, vecY,
                                CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaFree(buffer));

    // C = A B (row-major)
    CHECK_CUSPARSE(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &bytes));
    CHECK_CUDA(cudaMalloc(&buffer, bytes));
    CHECK_CUSPARSE(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                matA, matB, &beta, matC, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK_CUDA(cudaFree(buffer));

    std::vector<float> y(rows), C((size_t)rows * ncols_b);
    CHECK_CUDA(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(C.data(), d_C, C.size() * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int r = 0; r < rows; ++r) {
        double want = 0;
        for (int k = offsets[r]; k < offsets[r + 1]; ++k)
            want += (double)values[k] * x[columns[k]];
        if (!(std::fabs(y[r] - want) <= 1e-5 * (1 + std::fabs(want))) && bad++ < 5)
            std::printf("y[%d] = %g, want %g\n", r, y[r], want);
        for (int j = 0; j < ncols_b; ++j) {
            double w = 0;
            for (int k = offsets[r]; k < offsets[r + 1]; ++k)
                w += (double)values[k] * B[(size_t)columns[k] * ncols_b + j];
            const float got = C[(size_t)r * ncols_b + j];
            if (!(std::fabs(got - w) <= 1e-5 * (1 + std::fabs(w))) && bad++ < 5)
                std::printf("C[%d][%d] = %g, want %g\n", r, j, got, w);
        }
    }

    CHECK_CUSPARSE(cusparseDestroySpMat(matA));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecX));
    CHECK_CUSPARSE(cusparseDestroyDnVec(vecY));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matB));
    CHECK_CUSPARSE(cusparseDestroyDnMat(matC));
    CHECK_CUSPARSE(cusparseDestroy(handle));
    cudaFree(d_offsets);
    cudaFree(d_columns);
    cudaFree(d_values);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_B);
    cudaFree(d_C);
    if (bad) {
        std::printf("cusparse_program: %d wrong results\n", bad);
        return 1;
    }
    std::printf("cusparse_program: ok\n");
    return 0;
}
