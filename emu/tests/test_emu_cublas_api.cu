/* Tests of the cuBLAS routines added for the tutorial survey (emu/src/libs/cublas/cublas.cpp,
 * emu/src/libs/cublas/blas.cpp): double GEMM, half GEMM, geam, batched GEMMs with
 * pointer arrays, cublasGemmEx's 16F and 64F compute types and CUDA 10's
 * cudaDataType compute type, level 1 and 2 in both precisions, trsm, and
 * cublasSet/GetVector/Matrix.
 *
 * References are computed here in double (long double for the double
 * routines) from the same inputs, with indexing written out by hand; inputs
 * are random (the seed is printed), sizes odd, outputs and their padding
 * poisoned, and NaN never passes.
 *
 *   build/bin/test_emu_cublas_api --verbose
 */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

static uint64_t rng = 0;
static void seed_once(const char *test)
{
    uint64_t s = static_cast<uint64_t>(std::time(nullptr)) ^ reinterpret_cast<uintptr_t>(test);
    s = s % 1000003u + 1;
    std::printf("%s: seed %llu\n", test, static_cast<unsigned long long>(s));
    rng = s;
}
static double uniform() /* [-1, 1) */
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(rng >> 11) / 4503599627370496.0 - 1.0;
}
template <class T> static std::vector<T> random_vec(std::size_t n)
{
    std::vector<T> v(n);
    for (T &x : v)
        x = static_cast<T>(uniform());
    return v;
}
static std::vector<__half> random_halves(std::size_t n)
{
    std::vector<__half> v(n);
    for (__half &x : v)
        x = __float2half(static_cast<float>(uniform()));
    return v;
}
template <class T> static T *dev(const std::vector<T> &h)
{
    T *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, h.size() * sizeof(T)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}
template <class T> static std::vector<T> host(const T *d, std::size_t n)
{
    std::vector<T> h(n);
    cr_assert_eq(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
}
static double val(float x) { return x; }
static double val(double x) { return x; }
static double val(__half x) { return __half2float(x); }

/* op(X)(i, j) of a column-major matrix */
template <class T> static double at(const std::vector<T> &x, int ld, bool t, int i, int j)
{
    return t ? val(x[static_cast<std::size_t>(i) * ld + j]) : val(x[static_cast<std::size_t>(j) * ld + i]);
}

/* C = alpha op(A) op(B) + beta C0 checked element by element against a long
 * double reference within rel * (|alpha| sum |a b| + |beta c|) + abs; the
 * padding rows of C (ldc > m) must still hold C0's values. */
template <class T, class TC>
static void check_gemm(const char *what, bool ta, bool tb, int m, int n, int k, double alpha, const std::vector<T> &A,
                       int lda, const std::vector<T> &B, int ldb, double beta, const std::vector<TC> &C0, int ldc,
                       const std::vector<TC> &C, double rel, double abs_tol)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i) {
            const std::size_t p = static_cast<std::size_t>(j) * ldc + i;
            if (i >= m) {
                cr_assert(std::memcmp(&C[p], &C0[p], sizeof(TC)) == 0, "%s: padding C(%d,%d) written", what, i, j);
                continue;
            }
            long double sum = 0, mag = 0;
            for (int q = 0; q < k; ++q) {
                long double t = static_cast<long double>(at(A, lda, ta, i, q)) * at(B, ldb, tb, q, j);
                sum += t, mag += std::fabs(t);
            }
            const double c0 = beta == 0 ? 0 : val(C0[p]);
            const double ref = static_cast<double>(alpha * sum + beta * c0);
            const double tol = rel * (std::fabs(alpha) * static_cast<double>(mag) + std::fabs(beta * c0)) + abs_tol;
            const double got = val(C[p]);
            cr_assert(std::fabs(got - ref) <= tol, "%s: C(%d,%d) = %.17g, reference %.17g (tolerance %.3g)", what, i,
                      j, got, ref, tol);
        }
}

struct handle {
    cublasHandle_t h = nullptr;
    handle() { cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS); }
    ~handle() { cublasDestroy(h); }
};

static const cublasOperation_t ops[2] = {CUBLAS_OP_N, CUBLAS_OP_T};

/* ---- GEMM ------------------------------------------------------------------- */

Test(cublas_api, dgemm_every_transpose_odd_sizes_padding_untouched)
{
    seed_once("dgemm");
    handle H;
    const int m = 37, n = 29, k = 41;
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) {
            const int lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 2, ldc = m + 5;
            auto A = random_vec<double>(static_cast<std::size_t>(lda) * (ta ? m : k));
            auto B = random_vec<double>(static_cast<std::size_t>(ldb) * (tb ? k : n));
            auto C0 = random_vec<double>(static_cast<std::size_t>(ldc) * n);
            double *dA = dev(A), *dB = dev(B), *dC = dev(C0);
            const double alpha = uniform() * 3, beta = uniform();
            cr_assert_eq(cublasDgemm(H.h, ops[ta], ops[tb], m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc),
                         CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
            check_gemm("cublasDgemm", ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C0, ldc, host(dC, C0.size()),
                       (k + 2) * 2.3e-16, 1e-300);
            cudaFree(dA), cudaFree(dB), cudaFree(dC);
        }
}

/* half results: one rounding of a float computation, so within half an ulp
 * of half (2^-11 relative) plus float's error on the terms */
Test(cublas_api, hgemm_rounds_once_to_half)
{
    seed_once("hgemm");
    handle H;
    const int m = 19, n = 23, k = 31, ldc = m + 1;
    for (int ta = 0; ta < 2; ++ta) {
        const int lda = ta ? k : m, ldb = k;
        auto A = random_halves(static_cast<std::size_t>(lda) * (ta ? m : k));
        auto B = random_halves(static_cast<std::size_t>(ldb) * n);
        auto C0 = random_halves(static_cast<std::size_t>(ldc) * n);
        __half *dA = dev(A), *dB = dev(B), *dC = dev(C0);
        const __half alpha = __float2half(1.5f), beta = __float2half(-0.5f);
        cr_assert_eq(cublasHgemm(H.h, ops[ta], CUBLAS_OP_N, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc),
                     CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
        auto C = host(dC, C0.size());
        /* each result is a half, and within half an ulp of the float result */
        check_gemm("cublasHgemm", ta, false, m, n, k, 1.5, A, lda, B, ldb, -0.5, C0, ldc, C, 4.9e-4 + (k + 2) * 1.2e-7,
                   6e-8);
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
}

Test(cublas_api, gemmex_16f_and_64f_compute_and_strided_batches)
{
    seed_once("gemmex");
    handle H;
    const int m = 13, n = 11, k = 17, batch = 3;
    const long long sa = m * k + 5, sb = k * n + 2, sc = m * n + 7;
    auto A = random_vec<double>(sa * batch), B = random_vec<double>(sb * batch), C0 = random_vec<double>(sc * batch);
    double *dA = dev(A), *dB = dev(B), *dC = dev(C0);
    const double alpha = 0.75, beta = 1.25;
    cr_assert_eq(cublasGemmStridedBatchedEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_64F, m, sa, dB,
                                            CUDA_R_64F, k, sb, &beta, dC, CUDA_R_64F, m, sc, batch,
                                            CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    auto C = host(dC, C0.size());
    for (int b = 0; b < batch; ++b) {
        std::vector<double> a(A.begin() + b * sa, A.begin() + b * sa + m * k),
            bb(B.begin() + b * sb, B.begin() + b * sb + k * n), c0(C0.begin() + b * sc, C0.begin() + b * sc + m * n),
            c(C.begin() + b * sc, C.begin() + b * sc + m * n);
        check_gemm("GemmStridedBatchedEx 64F", false, false, m, n, k, alpha, a, m, bb, k, beta, c0, m, c,
                   (k + 2) * 2.3e-16, 1e-300);
        /* the gaps between matrices are untouched */
        if (b + 1 < batch)
            for (long long g = b * sc + m * n; g < (b + 1) * sc; ++g)
                cr_assert_eq(C[g], C0[g], "gap element %lld written", g);
    }
    /* the same through cublasDgemmStridedBatched */
    cr_assert_eq(cudaMemcpy(dC, C0.data(), C0.size() * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
    cr_assert_eq(cublasDgemmStridedBatched(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, sa, dB, k, sb, &beta,
                                           dC, m, sc, batch),
                 CUBLAS_STATUS_SUCCESS);
    cr_expect(host(dC, C0.size()) == C, "DgemmStridedBatched differs from GemmStridedBatchedEx 64F");
    cudaFree(dA), cudaFree(dB), cudaFree(dC);

    /* 16F compute: half alpha and beta, all half */
    auto hA = random_halves(m * k), hB = random_halves(k * n), hC0 = random_halves(m * n);
    __half *dhA = dev(hA), *dhB = dev(hB), *dhC = dev(hC0);
    const __half ha = __float2half(2.0f), hb = __float2half(0.25f);
    cr_assert_eq(cublasGemmEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ha, dhA, CUDA_R_16F, m, dhB, CUDA_R_16F, k, &hb,
                              dhC, CUDA_R_16F, m, CUBLAS_COMPUTE_16F_PEDANTIC, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    check_gemm("GemmEx 16F", false, false, m, n, k, 2.0, hA, m, hB, k, 0.25, hC0, m, host(dhC, hC0.size()),
               4.9e-4 + (k + 2) * 1.2e-7, 6e-8);
    /* wrong combinations are refused before anything is written */
    cr_expect_eq(cublasGemmEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ha, dhA, CUDA_R_16F, m, dhB, CUDA_R_16F, k, &hb,
                              dhC, CUDA_R_32F, m, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_NOT_SUPPORTED);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "CUBLAS_COMPUTE_16F"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cublasGemmEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &ha, dhA, CUDA_R_16F, m, dhB, CUDA_R_16F, k, &hb,
                              dhC, CUDA_R_16F, m, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_NOT_SUPPORTED);
    cudaFree(dhA), cudaFree(dhB), cudaFree(dhC);
}

/* CUDA 10's form: a cudaDataType as computeType (C++ overload), mapped as
 * the toolkit's header maps it, pedantic math included. */
Test(cublas_api, gemmex_with_a_cudaDataType_compute_type)
{
    seed_once("gemmex_cuda10");
    handle H;
    const int m = 9, n = 7, k = 15;
    auto A = random_halves(m * k), B = random_halves(k * n);
    auto C0 = random_vec<float>(m * n);
    __half *dA = dev(A), *dB = dev(B);
    float *dC = dev(C0);
    const float alpha = 1.0f, beta = 0.5f;
    cr_assert_eq(cublasGemmEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_16F, m, dB, CUDA_R_16F, k,
                              &beta, dC, CUDA_R_32F, m, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    check_gemm("GemmEx(CUDA_R_32F compute)", false, false, m, n, k, 1.0, A, m, B, k, 0.5, C0, m, host(dC, C0.size()),
               (k + 2) * 1.2e-7, 1e-30);

    cublasComputeType_t c;
    cr_assert_eq(simtlab_emu::cublas_compute_from_data_type(H.h, CUDA_R_32F, &c), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(c, CUBLAS_COMPUTE_32F);
    cr_assert_eq(simtlab_emu::cublas_compute_from_data_type(H.h, CUDA_R_16F, &c), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(c, CUBLAS_COMPUTE_16F);
    cr_assert_eq(simtlab_emu::cublas_compute_from_data_type(H.h, CUDA_C_64F, &c), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(c, CUBLAS_COMPUTE_64F);
    cr_assert_eq(cublasSetMathMode(H.h, CUBLAS_PEDANTIC_MATH), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(simtlab_emu::cublas_compute_from_data_type(H.h, CUDA_R_32F, &c), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(c, CUBLAS_COMPUTE_32F_PEDANTIC);
    cr_expect_eq(simtlab_emu::cublas_compute_from_data_type(H.h, CUDA_R_16BF, &c), CUBLAS_STATUS_NOT_SUPPORTED);
    /* what C code gets when it passes the old value itself */
    cr_expect_eq(cublasGemmEx(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_16F, m, dB, CUDA_R_16F, k,
                              &beta, dC, CUDA_R_32F, m, static_cast<cublasComputeType_t>(CUDA_R_32F),
                              CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "CUDA 10"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

/* batches given as device arrays of device pointers */
Test(cublas_api, pointer_array_batches)
{
    seed_once("batched");
    handle H;
    const int m = 7, n = 5, k = 9, batch = 4;
    std::vector<std::vector<float>> A(batch), B(batch), C0(batch);
    std::vector<float *> pa(batch), pb(batch), pc(batch);
    for (int b = 0; b < batch; ++b) {
        A[b] = random_vec<float>(k * m), B[b] = random_vec<float>(k * n), C0[b] = random_vec<float>(m * n);
        pa[b] = dev(A[b]), pb[b] = dev(B[b]), pc[b] = dev(C0[b]);
    }
    float **dpa = dev(pa), **dpb = dev(pb), **dpc = dev(pc);
    const float alpha = -1.5f, beta = 0.5f;
    cr_assert_eq(cublasSgemmBatched(H.h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dpa, k, dpb, k, &beta, dpc, m,
                                    batch),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    for (int b = 0; b < batch; ++b)
        check_gemm("SgemmBatched", true, false, m, n, k, alpha, A[b], k, B[b], k, beta, C0[b], m, host(pc[b], m * n),
                   (k + 2) * 1.2e-7, 1e-30);
    /* GemmBatchedEx (float) again on the results */
    std::vector<std::vector<float>> C1(batch);
    for (int b = 0; b < batch; ++b)
        C1[b] = host(pc[b], m * n);
    cr_assert_eq(cublasGemmBatchedEx(H.h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha,
                                     reinterpret_cast<const void *const *>(dpa), CUDA_R_32F, k,
                                     reinterpret_cast<const void *const *>(dpb), CUDA_R_32F, k, &beta,
                                     reinterpret_cast<void *const *>(dpc), CUDA_R_32F, m, batch, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    for (int b = 0; b < batch; ++b)
        check_gemm("GemmBatchedEx", true, false, m, n, k, alpha, A[b], k, B[b], k, beta, C1[b], m, host(pc[b], m * n),
                   (k + 2) * 1.2e-7, 1e-30);
    /* an array of pointers on the host is refused, naming it */
    cr_expect_eq(cublasSgemmBatched(H.h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, pa.data(), k, dpb, k, &beta, dpc,
                                    m, batch),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "Aarray"), "%s", simtlab_emu_last_diagnostic());
    /* a matrix too small for its item is named by its index */
    float *small = nullptr;
    cr_assert_eq(cudaMalloc(&small, 4 * sizeof(float)), cudaSuccess);
    float *saved = pc[2];
    pc[2] = small;
    cr_assert_eq(cudaMemcpy(dpc, pc.data(), batch * sizeof(float *), cudaMemcpyHostToDevice), cudaSuccess);
    cr_expect_eq(cublasSgemmBatched(H.h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dpa, k, dpb, k, &beta, dpc, m,
                                    batch),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "batch item 2"), "%s", simtlab_emu_last_diagnostic());
    pc[2] = saved;
    cudaFree(small);

    /* double and half */
    std::vector<double> dA = random_vec<double>(m * k), dB = random_vec<double>(k * n), dC0 = random_vec<double>(m * n);
    double *ddA = dev(dA), *ddB = dev(dB), *ddC = dev(dC0);
    std::vector<double *> da(batch, ddA), db(batch, ddB), dc(1, ddC);
    double **dda = dev(da), **ddb = dev(db), **ddc = dev(dc);
    const double dalpha = 0.5, dbeta = 2.0;
    cr_assert_eq(cublasDgemmBatched(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &dalpha, dda, m, ddb, k, &dbeta, ddc, m, 1),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    check_gemm("DgemmBatched", false, false, m, n, k, dalpha, dA, m, dB, k, dbeta, dC0, m, host(ddC, m * n),
               (k + 2) * 2.3e-16, 1e-300);
    auto hA = random_halves(m * k), hB = random_halves(k * n), hC0 = random_halves(m * n);
    __half *hdA = dev(hA), *hdB = dev(hB), *hdC = dev(hC0);
    std::vector<__half *> ha(1, hdA), hb(1, hdB), hc(1, hdC);
    __half **hda = dev(ha), **hdb = dev(hb), **hdc = dev(hc);
    const __half halpha = __float2half(1.0f), hbeta = __float2half(0.0f);
    cr_assert_eq(cublasHgemmBatched(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &halpha, hda, m, hdb, k, &hbeta, hdc, m, 1),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    check_gemm("HgemmBatched", false, false, m, n, k, 1.0, hA, m, hB, k, 0.0, hC0, m, host(hdC, m * n),
               4.9e-4 + (k + 2) * 1.2e-7, 6e-8);
    for (int b = 0; b < batch; ++b)
        cudaFree(pa[b]), cudaFree(pb[b]), cudaFree(pc[b]);
    cudaFree(dpa), cudaFree(dpb), cudaFree(dpc), cudaFree(ddA), cudaFree(ddB), cudaFree(ddC), cudaFree(dda);
    cudaFree(ddb), cudaFree(ddc), cudaFree(hdA), cudaFree(hdB), cudaFree(hdC), cudaFree(hda), cudaFree(hdb);
    cudaFree(hdc);
}

/* ---- geam ----------------------------------------------------------------- */

template <class T, class F> static void geam_case(F geam, const char *what, bool ta, bool tb, T alpha, T beta)
{
    handle H;
    const int m = 23, n = 17;
    const int lda = (ta ? n : m) + 2, ldb = (tb ? n : m) + 1, ldc = m + 3;
    auto A = random_vec<T>(static_cast<std::size_t>(lda) * (ta ? m : n));
    auto B = random_vec<T>(static_cast<std::size_t>(ldb) * (tb ? m : n));
    std::vector<T> C0(static_cast<std::size_t>(ldc) * n, std::nan(""));
    T *dA = dev(A), *dB = dev(B), *dC = dev(C0);
    cr_assert_eq(geam(H.h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &alpha,
                      alpha == T(0) ? nullptr : dA, lda, &beta, beta == T(0) ? nullptr : dB, ldb, dC, ldc),
                 CUBLAS_STATUS_SUCCESS, "%s: %s", what, simtlab_emu_last_diagnostic());
    auto C = host(dC, C0.size());
    const double eps = sizeof(T) == 4 ? 1.2e-7 : 2.3e-16;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i) {
            const double got = C[static_cast<std::size_t>(j) * ldc + i];
            if (i >= m) {
                cr_assert(std::isnan(got), "%s: padding (%d,%d) written", what, i, j);
                continue;
            }
            const double a = alpha == T(0) ? 0 : alpha * at(A, lda, ta, i, j);
            const double b = beta == T(0) ? 0 : beta * at(B, ldb, tb, i, j);
            cr_assert(std::fabs(got - (a + b)) <= 3 * eps * (std::fabs(a) + std::fabs(b)) + 1e-300,
                      "%s: C(%d,%d) = %.17g, reference %.17g", what, i, j, got, a + b);
        }
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

Test(cublas_api, geam_sums_transposes_and_skips_a_zero_scaled_operand)
{
    seed_once("geam");
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb) {
            geam_case<float>(cublasSgeam, "cublasSgeam", ta, tb, 1.25f, -0.75f);
            geam_case<double>(cublasDgeam, "cublasDgeam", ta, tb, -2.0, 0.5);
        }
    /* LSTM's transpose: beta 0 and B NULL */
    geam_case<float>(cublasSgeam, "cublasSgeam (B NULL)", true, false, 1.0f, 0.0f);
    geam_case<double>(cublasDgeam, "cublasDgeam (A NULL)", false, true, 0.0, 3.0);
}

Test(cublas_api, geam_in_place_and_its_limits)
{
    seed_once("geam_in_place");
    handle H;
    const int m = 11, n = 13;
    auto A = random_vec<float>(m * n), B = random_vec<float>(m * n);
    float *dA = dev(A), *dB = dev(B);
    const float alpha = 2.0f, beta = 1.0f;
    cr_assert_eq(cublasSgeam(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, dA, m, &beta, dB, m, dA, m),
                 CUBLAS_STATUS_SUCCESS);
    auto C = host(dA, A.size());
    for (int i = 0; i < m * n; ++i)
        cr_assert(std::fabs(C[i] - (2.0 * A[i] + B[i])) <= 4e-7, "C[%d]", i);
    /* C is A but A is transposed: refused (square so the shapes agree) */
    cr_expect_eq(cublasSgeam(H.h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, &alpha, dA, m, &beta, dB, m, dA, m),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "C is A"), "%s", simtlab_emu_last_diagnostic());
    cr_expect_eq(cublasSgeam(H.h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, dA, m - 1, &beta, dB, m, dB, m),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "lda"), "%s", simtlab_emu_last_diagnostic());
    cudaFree(dA), cudaFree(dB);
}

/* ---- level 1 and 2 ----------------------------------------------------------- */

/* element i of a BLAS vector of n with increment inc (negative: from the end) */
static std::size_t blas_index(int n, int inc, int i)
{
    return inc > 0 ? static_cast<std::size_t>(i) * inc : static_cast<std::size_t>(n - 1 - i) * -inc;
}

template <class T> static void level1_case(int incx, int incy)
{
    handle H;
    const int n = 53;
    const std::size_t lx = 1 + (n - 1) * std::abs(incx), ly = 1 + (n - 1) * std::abs(incy);
    auto x = random_vec<T>(lx), y = random_vec<T>(ly);
    T *dx = dev(x), *dy = dev(y);
    const double eps = sizeof(T) == 4 ? 1.2e-7 : 2.3e-16;
    const char *p = sizeof(T) == 4 ? "S" : "D";
    T alpha = static_cast<T>(uniform() * 2), r = T(-99);
    long double dot = 0, mag = 0, asum = 0, sq = 0;
    int imax = 0, imin = 0;
    for (int i = 0; i < n; ++i) {
        const long double xi = x[blas_index(n, incx, i)], yi = y[blas_index(n, incy, i)];
        dot += xi * yi, mag += std::fabs(xi * yi), asum += std::fabs(xi), sq += xi * xi;
        if (std::fabs(xi) > std::fabs(x[blas_index(n, incx, imax)]))
            imax = i;
        if (std::fabs(xi) < std::fabs(x[blas_index(n, incx, imin)]))
            imin = i;
    }
    int idx = -1;
    if constexpr (sizeof(T) == 4) {
        cr_assert_eq(cublasSdot(H.h, n, dx, incx, dy, incy, &r), CUBLAS_STATUS_SUCCESS);
        cr_expect(std::fabs(r - dot) <= (n + 1) * eps * mag, "%sdot %g vs %Lg", p, (double)r, dot);
        cr_assert_eq(cublasSasum(H.h, n, dx, std::abs(incx), &r), CUBLAS_STATUS_SUCCESS);
        cr_assert_eq(cublasIsamax(H.h, n, dx, incx, &idx), CUBLAS_STATUS_SUCCESS);
    } else {
        cr_assert_eq(cublasDdot(H.h, n, dx, incx, dy, incy, &r), CUBLAS_STATUS_SUCCESS);
        cr_expect(std::fabs(r - dot) <= (n + 1) * eps * mag, "%sdot %g vs %Lg", p, (double)r, dot);
        cr_assert_eq(cublasDasum(H.h, n, dx, std::abs(incx), &r), CUBLAS_STATUS_SUCCESS);
        cr_assert_eq(cublasIdamax(H.h, n, dx, incx, &idx), CUBLAS_STATUS_SUCCESS);
    }
    /* asum and the indices with a positive increment walk x forwards */
    long double asum_f = 0;
    int imax_f = 0, imin_f = 0;
    for (int i = 0; i < n; ++i) {
        const double xi = x[static_cast<std::size_t>(i) * std::abs(incx)];
        asum_f += std::fabs(xi);
        if (std::fabs(xi) > std::fabs(x[static_cast<std::size_t>(imax_f) * std::abs(incx)]))
            imax_f = i;
        if (std::fabs(xi) < std::fabs(x[static_cast<std::size_t>(imin_f) * std::abs(incx)]))
            imin_f = i;
    }
    cr_expect(std::fabs(r - asum_f) <= n * eps * asum_f, "%sasum %g vs %Lg", p, (double)r, asum_f);
    (void)asum, (void)imax, (void)imin;
    if (incx > 0)
        cr_expect_eq(idx, imax_f + 1, "I%samax", p);
    else
        cr_expect_eq(idx, 0, "I%samax with a negative increment returns 0", p);
    if constexpr (sizeof(T) == 4) {
        cr_assert_eq(cublasIsamin(H.h, n, dx, std::abs(incx), &idx), CUBLAS_STATUS_SUCCESS);
        cr_expect_eq(idx, imin_f + 1);
        cr_assert_eq(cublasSnrm2(H.h, n, dx, std::abs(incx), &r), CUBLAS_STATUS_SUCCESS);
    } else {
        cr_assert_eq(cublasIdamin(H.h, n, dx, std::abs(incx), &idx), CUBLAS_STATUS_SUCCESS);
        cr_expect_eq(idx, imin_f + 1);
        cr_assert_eq(cublasDnrm2(H.h, n, dx, std::abs(incx), &r), CUBLAS_STATUS_SUCCESS);
    }
    cr_expect(std::fabs(r - std::sqrt((double)sq)) <= n * eps * std::sqrt((double)sq), "%snrm2", p);

    /* y = alpha x + y, then x <-> y, then y = x, then x *= alpha, rot */
    std::vector<T> want_y = y;
    for (int i = 0; i < n; ++i)
        want_y[blas_index(n, incy, i)] =
            static_cast<T>(alpha * (long double)x[blas_index(n, incx, i)] + y[blas_index(n, incy, i)]);
    if constexpr (sizeof(T) == 4)
        cr_assert_eq(cublasSaxpy(H.h, n, &alpha, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    else
        cr_assert_eq(cublasDaxpy(H.h, n, &alpha, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    auto got_y = host(dy, ly);
    for (std::size_t i = 0; i < ly; ++i)
        cr_assert(std::fabs(got_y[i] - want_y[i]) <= 2 * eps * (std::fabs(want_y[i]) + 1), "%saxpy y[%zu]", p, i);
    if constexpr (sizeof(T) == 4)
        cr_assert_eq(cublasSswap(H.h, n, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    else
        cr_assert_eq(cublasDswap(H.h, n, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    auto sx = host(dx, lx), sy = host(dy, ly);
    for (int i = 0; i < n; ++i) {
        cr_assert_eq(sx[blas_index(n, incx, i)], got_y[blas_index(n, incy, i)], "%sswap x", p);
        cr_assert_eq(sy[blas_index(n, incy, i)], x[blas_index(n, incx, i)], "%sswap y", p);
    }
    if constexpr (sizeof(T) == 4)
        cr_assert_eq(cublasScopy(H.h, n, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    else
        cr_assert_eq(cublasDcopy(H.h, n, dx, incx, dy, incy), CUBLAS_STATUS_SUCCESS);
    sy = host(dy, ly);
    for (int i = 0; i < n; ++i)
        cr_assert_eq(sy[blas_index(n, incy, i)], sx[blas_index(n, incx, i)], "%scopy", p);
    const T c = T(0.6), s = T(0.8);
    if constexpr (sizeof(T) == 4)
        cr_assert_eq(cublasSrot(H.h, n, dx, incx, dy, incy, &c, &s), CUBLAS_STATUS_SUCCESS);
    else
        cr_assert_eq(cublasDrot(H.h, n, dx, incx, dy, incy, &c, &s), CUBLAS_STATUS_SUCCESS);
    auto rx = host(dx, lx), ry = host(dy, ly);
    for (int i = 0; i < n; ++i) {
        const double xi = sx[blas_index(n, incx, i)], yi = sx[blas_index(n, incx, i)]; /* y is a copy of x */
        cr_assert(std::fabs(rx[blas_index(n, incx, i)] - (c * xi + s * yi)) <= 4 * eps, "%srot x", p);
        cr_assert(std::fabs(ry[blas_index(n, incy, i)] - (c * yi - s * xi)) <= 4 * eps, "%srot y", p);
    }
    if constexpr (sizeof(T) == 4)
        cr_assert_eq(cublasSscal(H.h, n, &alpha, dx, std::abs(incx)), CUBLAS_STATUS_SUCCESS);
    else
        cr_assert_eq(cublasDscal(H.h, n, &alpha, dx, std::abs(incx)), CUBLAS_STATUS_SUCCESS);
    auto scaled = host(dx, lx);
    for (std::size_t i = 0; i < lx; ++i) {
        const bool on = i % std::abs(incx) == 0;
        const double want = on ? alpha * (double)rx[i] : (double)rx[i];
        cr_assert(std::fabs(scaled[i] - want) <= eps * std::fabs(want), "%sscal x[%zu]", p, i);
    }
    cudaFree(dx), cudaFree(dy);
}

Test(cublas_api, level1_both_precisions_with_strides_and_negative_increments)
{
    seed_once("level1");
    level1_case<float>(1, 1);
    level1_case<float>(3, -2);
    level1_case<double>(2, 1);
    level1_case<double>(-1, 3);
}

Test(cublas_api, ger_and_trsm)
{
    seed_once("ger_trsm");
    handle H;
    const int m = 13, n = 9, lda = m + 2;
    auto x = random_vec<double>(m * 2), y = random_vec<double>(n), A0 = random_vec<double>(lda * n);
    double *dx = dev(x), *dy = dev(y), *dA = dev(A0);
    const double alpha = 1.75;
    cr_assert_eq(cublasDger(H.h, m, n, &alpha, dx, 2, dy, 1, dA, lda), CUBLAS_STATUS_SUCCESS);
    auto A = host(dA, A0.size());
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < lda; ++i) {
            const double want = i < m ? A0[j * lda + i] + alpha * x[2 * i] * y[j] : A0[j * lda + i];
            cr_assert(std::fabs(A[j * lda + i] - want) <= 4.5e-16 * (std::fabs(want) + 2), "Dger A(%d,%d)", i, j);
        }
    auto fx = random_vec<float>(m), fy = random_vec<float>(n), fA0 = random_vec<float>(m * n);
    float *fdx = dev(fx), *fdy = dev(fy), *fdA = dev(fA0);
    const float falpha = -0.5f;
    cr_assert_eq(cublasSger(H.h, m, n, &falpha, fdx, 1, fdy, 1, fdA, m), CUBLAS_STATUS_SUCCESS);
    auto fA = host(fdA, fA0.size());
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            cr_assert(std::fabs(fA[j * m + i] - (fA0[j * m + i] + falpha * (double)fx[i] * fy[j])) <= 5e-7,
                      "Sger A(%d,%d)", i, j);

    /* trsm: a well-conditioned triangular T; solve, then multiply back */
    for (int side = 0; side < 2; ++side)
        for (int up = 0; up < 2; ++up)
            for (int tr = 0; tr < 2; ++tr) {
                const int order = side ? n : m, ldt = order + 1;
                std::vector<double> T(ldt * order, std::nan(""));
                for (int j = 0; j < order; ++j)
                    for (int i = 0; i < order; ++i)
                        if (up ? i <= j : i >= j)
                            T[j * ldt + i] = i == j ? 2 + uniform() : 0.3 * uniform();
                auto B0 = random_vec<double>(m * n);
                double *dT = dev(T), *dB = dev(B0);
                const double a = 1.5;
                cr_assert_eq(cublasDtrsm(H.h, side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
                                         up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
                                         tr ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &a, dT, ldt, dB, m),
                             CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
                auto X = host(dB, B0.size());
                auto t = [&](int i, int j) { /* op(T)(i, j), zero outside the triangle */
                    int r = tr ? j : i, c = tr ? i : j;
                    return (up ? r <= c : r >= c) ? T[c * ldt + r] : 0.0;
                };
                for (int j = 0; j < n; ++j)
                    for (int i = 0; i < m; ++i) {
                        long double s = 0;
                        if (!side)
                            for (int q = 0; q < m; ++q)
                                s += t(i, q) * X[j * m + q];
                        else
                            for (int q = 0; q < n; ++q)
                                s += X[q * m + i] * t(q, j);
                        cr_assert(std::fabs((double)s - a * B0[j * m + i]) <= 1e-12, "Dtrsm side %d up %d trans %d",
                                  side, up, tr);
                    }
                cudaFree(dT), cudaFree(dB);
            }
    cudaFree(dx), cudaFree(dy), cudaFree(dA), cudaFree(fdx), cudaFree(fdy), cudaFree(fdA);
}

/* ---- moving data -------------------------------------------------------------- */

Test(cublas_api, set_and_get_vector_and_matrix_with_strides)
{
    seed_once("set_get");
    const int rows = 7, cols = 5, lda = 9, ldb = 8;
    auto A = random_vec<float>(lda * cols);
    std::vector<float> poison(ldb * cols, std::nan(""));
    float *dB = dev(poison);
    cr_assert_eq(cublasSetMatrix(rows, cols, sizeof(float), A.data(), lda, dB, ldb), CUBLAS_STATUS_SUCCESS);
    auto B = host(dB, poison.size());
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ldb; ++i)
            if (i < rows)
                cr_assert_eq(B[j * ldb + i], A[j * lda + i]);
            else
                cr_assert(std::isnan(B[j * ldb + i]), "padding written");
    std::vector<float> back(lda * cols, -5.0f);
    cr_assert_eq(cublasGetMatrixAsync(rows, cols, sizeof(float), dB, ldb, back.data(), lda, nullptr),
                 CUBLAS_STATUS_SUCCESS);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < lda; ++i)
            cr_assert_eq(back[j * lda + i], i < rows ? A[j * lda + i] : -5.0f);
    /* vectors with increments, of doubles */
    auto v = random_vec<double>(3 * 11);
    std::vector<double> dpoison(2 * 11, std::nan(""));
    double *dv = dev(dpoison);
    cr_assert_eq(cublasSetVector(11, sizeof(double), v.data(), 3, dv, 2), CUBLAS_STATUS_SUCCESS);
    std::vector<double> w(11, 0.0);
    cr_assert_eq(cublasGetVector(11, sizeof(double), dv, 2, w.data(), 1), CUBLAS_STATUS_SUCCESS);
    auto raw = host(dv, dpoison.size());
    for (int i = 0; i < 11; ++i) {
        cr_assert_eq(w[i], v[3 * i]);
        if (i < 10)
            cr_assert(std::isnan(raw[2 * i + 1]), "gap written");
    }
    /* the device side must be device memory, and big enough */
    cr_expect_eq(cublasSetVector(11, sizeof(double), v.data(), 3, w.data(), 1), CUBLAS_STATUS_INVALID_VALUE);
    cr_expect_eq(cublasSetMatrix(rows, cols, sizeof(float), A.data(), lda, dB, ldb + 4), CUBLAS_STATUS_INVALID_VALUE);
    cr_expect_eq(cublasSetMatrix(rows, cols, sizeof(float), A.data(), rows - 1, dB, ldb), CUBLAS_STATUS_INVALID_VALUE);
    cudaFree(dB), cudaFree(dv);
}

/* ---- cuBLASLt with CUBLAS_COMPUTE_16F and CUBLAS_COMPUTE_64F ----------------- */

/* D = alpha op(A) op(B) + beta C (+ bias) through cublasLtMatmul; all
 * matrices of `type`, column-major, A and B transposed as asked. */
template <class T>
static void lt_case(cublasComputeType_t compute, cudaDataType type, bool ta, bool tb, bool bias, bool device_scalars)
{
    const int m = 21, n = 15, k = 27, ldc = m + 2;
    const int lda = (ta ? k : m) + 1, ldb = ta ? k : k + 3;
    auto make = [](std::size_t count) {
        std::vector<T> v(count);
        for (T &x : v)
            x = static_cast<T>(static_cast<float>(uniform()));
        return v;
    };
    std::vector<T> A = make(static_cast<std::size_t>(lda) * (ta ? m : k));
    std::vector<T> B = make(static_cast<std::size_t>(ldb) * (tb ? k : n));
    std::vector<T> C0 = make(static_cast<std::size_t>(ldc) * n), Bias = make(m);
    std::vector<T> Dpoison(static_cast<std::size_t>(ldc) * n, static_cast<T>(-777.0f));
    T *dA = dev(A), *dB = dev(B), *dC = dev(C0), *dD = dev(Dpoison), *dBias = dev(Bias);
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, lc;
    cr_assert_eq(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasLtMatmulDescCreate(&desc, compute, type), CUBLAS_STATUS_SUCCESS);
    cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa);
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb);
    if (bias) {
        cublasLtEpilogue_t e = CUBLASLT_EPILOGUE_BIAS;
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &e, sizeof e);
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dBias, sizeof dBias);
    }
    cublasLtMatrixLayoutCreate(&la, type, ta ? k : m, ta ? m : k, lda);
    cublasLtMatrixLayoutCreate(&lb, type, tb ? n : k, tb ? k : n, ldb);
    cublasLtMatrixLayoutCreate(&lc, type, m, n, ldc);
    const T alpha = static_cast<T>(1.5f), beta = static_cast<T>(-0.75f);
    const void *pa = &alpha, *pb = &beta;
    T *dscal = nullptr;
    if (device_scalars) {
        dscal = dev(std::vector<T>{alpha, beta});
        pa = dscal, pb = dscal + 1;
        cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_DEVICE;
        cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof mode);
    }
    cr_assert_eq(cublasLtMatmul(lt, desc, pa, dA, la, dB, lb, pb, dC, lc, dD, lc, nullptr, nullptr, 0, 0),
                 CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
    std::vector<T> D = host(dD, Dpoison.size());
    /* the reference, with the bias folded into C: beta C + bias = beta (C + bias / beta) */
    std::vector<T> C0b = C0;
    const bool is_half = sizeof(T) == 2;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            const std::size_t p = static_cast<std::size_t>(j) * ldc + i;
            if (bias && !is_half) /* doubles carry the folded value (within an ulp) */
                C0b[p] = static_cast<T>(val(C0[p]) + val(Bias[i]) / -0.75);
        }
    if (bias && is_half) {
        /* halves cannot carry the folded C exactly: check directly */
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                long double sum = 0, mag = 0;
                for (int q = 0; q < k; ++q) {
                    long double t = static_cast<long double>(at(A, lda, ta, i, q)) * at(B, ldb, tb, q, j);
                    sum += t, mag += std::fabs(t);
                }
                const std::size_t p = static_cast<std::size_t>(j) * ldc + i;
                const double ref = static_cast<double>(1.5L * sum) - 0.75 * val(C0[p]) + val(Bias[i]);
                const double tol = 4.9e-4 * std::fabs(ref) + (k + 2) * 1.2e-7 * (1.5 * (double)mag + 1) + 6e-8;
                cr_assert(std::fabs(val(D[p]) - ref) <= tol, "Lt 16F bias D(%d,%d) = %g, reference %g", i, j,
                          val(D[p]), ref);
            }
    } else {
        std::vector<T> Cref = bias ? C0b : C0; /* D is its own buffer: its padding holds the poison */
        for (int j = 0; j < n; ++j)
            for (int i = m; i < ldc; ++i)
                Cref[static_cast<std::size_t>(j) * ldc + i] = static_cast<T>(-777.0f);
        check_gemm(is_half ? "cublasLtMatmul 16F" : "cublasLtMatmul 64F", ta, tb, m, n, k, 1.5, A, lda, B, ldb,
                   -0.75, Cref, ldc, D, is_half ? 4.9e-4 + (k + 2) * 1.2e-7 : (k + 4) * 2.3e-16,
                   is_half ? 6e-8 : 1e-300);
    }
    /* D's padding rows keep the poison */
    for (int j = 0; j < n; ++j)
        for (int i = m; i < ldc; ++i)
            cr_assert_eq(val(D[static_cast<std::size_t>(j) * ldc + i]), -777.0, "padding written");
    cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatmulDescDestroy(desc), cublasLtDestroy(lt);
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dD), cudaFree(dBias), cudaFree(dscal);
}

Test(cublas_api, lt_matmul_compute_16f_with_half_scalars)
{
    seed_once("lt_16f");
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
            lt_case<__half>(ta ? CUBLAS_COMPUTE_16F_PEDANTIC : CUBLAS_COMPUTE_16F, CUDA_R_16F, ta, tb, false, tb);
    lt_case<__half>(CUBLAS_COMPUTE_16F, CUDA_R_16F, false, true, true, false);
}

Test(cublas_api, lt_matmul_compute_64f_with_double_scalars)
{
    seed_once("lt_64f");
    for (int ta = 0; ta < 2; ++ta)
        for (int tb = 0; tb < 2; ++tb)
            lt_case<double>(ta ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_64F_PEDANTIC, CUDA_R_64F, ta, tb, tb == 1, ta);
}

Test(cublas_api, lt_matmul_refuses_mixed_16f_and_64f_combinations)
{
    cublasLtHandle_t lt;
    cr_assert_eq(cublasLtCreate(&lt), CUBLAS_STATUS_SUCCESS);
    struct combo {
        cublasComputeType_t compute;
        cudaDataType scale, ab, cd;
        const char *reason;
    } combos[] = {
        {CUBLAS_COMPUTE_16F, CUDA_R_32F, CUDA_R_16F, CUDA_R_16F, "scale type"},
        {CUBLAS_COMPUTE_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, "must all be CUDA_R_16F"},
        {CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_32F, CUDA_R_32F, "must all be CUDA_R_64F"},
        {CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_64F, CUDA_R_64F, "need CUBLAS_COMPUTE_64F"},
        {CUBLAS_COMPUTE_32I, CUDA_R_32I, CUDA_R_8I, CUDA_R_32I, "compute type 72"},
    };
    for (const combo &c : combos) {
        cublasLtMatmulDesc_t desc;
        cublasLtMatrixLayout_t la, lb, lc;
        cr_assert_eq(cublasLtMatmulDescCreate(&desc, c.compute, c.scale), CUBLAS_STATUS_SUCCESS);
        cublasLtMatrixLayoutCreate(&la, c.ab, 5, 3, 5);
        cublasLtMatrixLayoutCreate(&lb, c.ab, 3, 4, 3);
        cublasLtMatrixLayoutCreate(&lc, c.cd, 5, 4, 5);
        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        cublasLtMatmulHeuristicResult_t r;
        int returned = -1;
        cr_expect_eq(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 1, &r, &returned),
                     CUBLAS_STATUS_NOT_SUPPORTED, "compute %d: %s", c.compute, simtlab_emu_last_diagnostic());
        cr_expect_eq(returned, 0);
        cr_expect(std::strstr(simtlab_emu_last_diagnostic(), c.reason), "'%s' does not say '%s'",
                  simtlab_emu_last_diagnostic(), c.reason);
        cublasLtMatmulPreferenceDestroy(pref);
        cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatmulDescDestroy(desc);
    }
    cublasLtDestroy(lt);
}
