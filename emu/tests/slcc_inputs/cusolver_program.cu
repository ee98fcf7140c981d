// A student's cuSOLVER program, built unmodified by slcc with -lcusolver
// (test_emu_cusolver): solves A x = b for a random symmetric positive
// definite A by Cholesky (potrf, potrs) and by LU (getrf, getrs), finds the
// eigenvalues of A (syevd), and checks them on the CPU: the residual of
// each solution, and that the eigenvalues are ascending, positive, and sum
// to the trace. Prints "cusolver_program: ok" when all hold.
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        if ((call) != 0) {                                                                                             \
            std::printf("%s failed at line %d\n", #call, __LINE__);                                                    \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    const int n = 37;
    unsigned seed = argc > 1 ? (unsigned)std::atoi(argv[1]) : 1u;
    std::srand(seed);
    std::vector<double> B(n * n), A(n * n), b(n);
    for (double &v : B)
        v = std::rand() / (double)RAND_MAX - 0.5;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = i == j ? n : 0.0;
            for (int k = 0; k < n; ++k)
                s += B[i + k * n] * B[j + k * n];
            A[i + j * n] = s;
        }
    for (double &v : b)
        v = std::rand() / (double)RAND_MAX;

    cusolverDnHandle_t handle;
    CHECK(cusolverDnCreate(&handle));
    double *dA, *dB, *dW, *work;
    int *info, *ipiv, lwork = 0, lw2 = 0, lw3 = 0;
    CHECK(cudaMalloc(&dA, sizeof(double) * n * n));
    CHECK(cudaMalloc(&dB, sizeof(double) * n));
    CHECK(cudaMalloc(&dW, sizeof(double) * n));
    CHECK(cudaMalloc(&info, sizeof(int)));
    CHECK(cudaMalloc(&ipiv, sizeof(int) * n));
    CHECK(cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, &lwork));
    CHECK(cusolverDnDgetrf_bufferSize(handle, n, n, dA, n, &lw2));
    CHECK(cusolverDnDsyevd_bufferSize(handle, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, dA, n, dW, &lw3));
    if (lw2 > lwork)
        lwork = lw2;
    if (lw3 > lwork)
        lwork = lw3;
    CHECK(cudaMalloc(&work, sizeof(double) * lwork));

    for (int method = 0; method < 2; ++method) {
        CHECK(cudaMemcpy(dA, A.data(), sizeof(double) * n * n, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dB, b.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
        if (method == 0) {
            CHECK(cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, lwork, info));
            CHECK(cusolverDnDpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, dA, n, dB, n, info));
        } else {
            CHECK(cusolverDnDgetrf(handle, n, n, dA, n, work, ipiv, info));
            CHECK(cusolverDnDgetrs(handle, CUBLAS_OP_N, n, 1, dA, n, ipiv, dB, n, info));
        }
        int h_info = -1;
        std::vector<double> x(n);
        CHECK(cudaMemcpy(&h_info, info, sizeof(int), cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(x.data(), dB, sizeof(double) * n, cudaMemcpyDeviceToHost));
        double r = 0, nb = 0;
        for (int i = 0; i < n; ++i) {
            double s = -b[i];
            for (int j = 0; j < n; ++j)
                s += A[i + j * n] * x[j];
            r += s * s, nb += b[i] * b[i];
        }
        std::printf("%s: info %d, |Ax - b| / |b| = %.3g\n", method == 0 ? "potrs" : "getrs", h_info,
                    std::sqrt(r / nb));
        if (h_info != 0 || !(std::sqrt(r / nb) < 1e-12))
            return 1;
    }

    CHECK(cudaMemcpy(dA, A.data(), sizeof(double) * n * n, cudaMemcpyHostToDevice));
    CHECK(cusolverDnDsyevd(handle, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, dA, n, dW, work, lwork,
                           info));
    std::vector<double> w(n);
    CHECK(cudaMemcpy(w.data(), dW, sizeof(double) * n, cudaMemcpyDeviceToHost));
    double trace = 0, sum = 0;
    for (int i = 0; i < n; ++i) {
        trace += A[i + i * n], sum += w[i];
        if (!(w[i] > 0) || (i > 0 && w[i] < w[i - 1])) {
            std::printf("eigenvalue %d = %g out of order or not positive\n", i, w[i]);
            return 1;
        }
    }
    std::printf("syevd: smallest %g, largest %g, sum %.12g, trace %.12g\n", w[0], w[n - 1], sum, trace);
    if (!(std::fabs(sum - trace) < 1e-9 * trace))
        return 1;
    cudaFree(dA), cudaFree(dB), cudaFree(dW), cudaFree(work), cudaFree(info), cudaFree(ipiv);
    CHECK(cusolverDnDestroy(handle));
    std::printf("cusolver_program: ok\n");
    return 0;
}
