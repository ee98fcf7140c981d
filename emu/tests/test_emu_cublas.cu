/* Tests of the emulator's cuBLAS (emu/src/libs/cublas/cublas.cpp, on OpenBLAS).
 *
 * References are computed here in double from the same inputs, with
 * column-major indexing written out by hand; a result passes when it is
 * within a float rounding bound of the reference, and NaN never passes.
 *
 *   build/bin/test_emu_cublas --verbose
 */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

static uint32_t rng_state = 12345u;
static float next_uniform() /* in [-1, 1) */
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 8388608.0f - 1.0f;
}

static std::vector<float> random_vector(size_t n)
{
    std::vector<float> v(n);
    for (float &x : v)
        x = next_uniform();
    return v;
}

template <class T> static T *to_device(const std::vector<T> &h)
{
    T *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, h.size() * sizeof(T)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}

template <class T> static std::vector<T> to_host(const T *d, size_t n)
{
    std::vector<T> h(n);
    cr_assert_eq(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
}

/* op(X)[i][j] of a stored column-major matrix with leading dimension ld. */
static double op_at(const std::vector<double> &x, int ld, bool trans, int i, int j)
{
    return trans ? x[(size_t)i * ld + j] : x[(size_t)j * ld + i];
}

/* C = alpha op(A) op(B) + beta C in double, and the bound on float error:
 * k roundings of terms at most |a||b| each, plus beta's. */
static void reference_gemm(bool ta, bool tb, int m, int n, int k, double alpha, const std::vector<double> &A, int lda,
                           const std::vector<double> &B, int ldb, double beta, const std::vector<double> &C0, int ldc,
                           std::vector<double> *C, std::vector<double> *bound)
{
    C->assign(C0.begin(), C0.end());
    bound->assign(C0.size(), 0.0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double sum = 0, mag = 0;
            for (int p = 0; p < k; ++p) {
                double t = op_at(A, lda, ta, i, p) * op_at(B, ldb, tb, p, j);
                sum += t;
                mag += std::fabs(t);
            }
            double c0 = beta == 0 ? 0 : C0[(size_t)j * ldc + i];
            (*C)[(size_t)j * ldc + i] = alpha * sum + beta * c0;
            (*bound)[(size_t)j * ldc + i] = (k + 2) * 1.2e-7 * (std::fabs(alpha) * mag + std::fabs(beta * c0)) + 1e-30;
        }
}

static std::vector<double> widen(const std::vector<float> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

static void sgemm_case(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k)
{
    bool tra = ta != CUBLAS_OP_N, trb = tb != CUBLAS_OP_N;
    int lda = (tra ? k : m) + 3, ldb = (trb ? n : k) + 1, ldc = m + 2; /* padded leading dimensions */
    std::vector<float> A = random_vector((size_t)lda * (tra ? m : k));
    std::vector<float> B = random_vector((size_t)ldb * (trb ? k : n));
    std::vector<float> C = random_vector((size_t)ldc * n);
    float alpha = 1.25f, beta = -0.5f;
    float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
    cublasHandle_t h;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    cr_assert_eq(cublasSgemm(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc), CUBLAS_STATUS_SUCCESS,
                 "%s", simtlab_emu_last_diagnostic());
    std::vector<float> got = to_host(dC, C.size());
    std::vector<double> want, bound;
    reference_gemm(tra, trb, m, n, k, alpha, widen(A), lda, widen(B), ldb, beta, widen(C), ldc, &want, &bound);
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
            size_t at = (size_t)j * ldc + i;
            cr_assert(std::fabs(got[at] - want[at]) <= bound[at], "op %d%d %dx%dx%d C[%d,%d] = %.9g, want %.9g", ta,
                      tb, m, n, k, i, j, got[at], want[at]);
        }
        for (int i = m; i < ldc; ++i) /* padding rows of C stay untouched */
            cr_assert_eq(got[(size_t)j * ldc + i], C[(size_t)j * ldc + i]);
    }
    cublasDestroy(h);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

Test(cublas, sgemm_matches_double_reference_on_odd_shapes_and_every_transpose)
{
    const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T};
    for (cublasOperation_t ta : ops)
        for (cublasOperation_t tb : ops) {
            sgemm_case(ta, tb, 33, 17, 45);
            sgemm_case(ta, tb, 1, 1, 1);
            sgemm_case(ta, tb, 31, 7, 1);
        }
}

Test(cublas, sgemm_with_beta_zero_ignores_nan_in_c)
{
    int m = 5, n = 3, k = 4;
    std::vector<float> A = random_vector(m * k), B = random_vector(k * n), C(m * n, NAN);
    float *dA = to_device(A), *dB = to_device(B), *dC = to_device(C);
    cublasHandle_t h;
    cublasCreate(&h);
    float alpha = 1.0f, beta = 0.0f;
    cr_assert_eq(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, m, dB, k, &beta, dC, m),
                 CUBLAS_STATUS_SUCCESS);
    std::vector<float> got = to_host(dC, C.size());
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double want = 0;
            for (int p = 0; p < k; ++p)
                want += (double)A[p * m + i] * B[j * k + p];
            cr_expect(std::fabs(got[j * m + i] - want) <= 1e-5, "C[%d,%d] = %g, want %g", i, j, got[j * m + i], want);
        }
    cublasDestroy(h);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
}

/* GemmEx: inputs stored as 16-bit, C in float. The reference uses the
 * exact values of the 16-bit inputs. */
template <class T>
static void gemm_ex_case(cudaDataType type, T (*from_float)(float), float (*to_float)(T), bool c_low_precision)
{
    const int m = 19, n = 11, k = 37;
    std::vector<T> A(m * k), B(k * n);
    std::vector<double> Aw(m * k), Bw(k * n);
    for (size_t i = 0; i < A.size(); ++i)
        A[i] = from_float(next_uniform()), Aw[i] = to_float(A[i]);
    for (size_t i = 0; i < B.size(); ++i)
        B[i] = from_float(next_uniform()), Bw[i] = to_float(B[i]);
    std::vector<double> C0w(m * n), want, bound;
    float alpha = 0.75f, beta = 2.0f;
    cublasHandle_t h;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    T *dA = to_device(A), *dB = to_device(B);
    std::vector<float> got(m * n);
    if (!c_low_precision) {
        std::vector<float> C0 = random_vector(m * n);
        C0w = widen(C0);
        float *dC = to_device(C0);
        cr_assert_eq(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, type, k, dB, type, k, &beta, dC,
                                  CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                     CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
        got = to_host(dC, m * n);
        cudaFree(dC);
    } else {
        std::vector<T> C0(m * n);
        for (size_t i = 0; i < C0.size(); ++i)
            C0[i] = from_float(next_uniform()), C0w[i] = to_float(C0[i]);
        T *dC = to_device(C0);
        cr_assert_eq(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, type, k, dB, type, k, &beta, dC,
                                  type, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                     CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
        std::vector<T> g = to_host(dC, m * n);
        for (size_t i = 0; i < g.size(); ++i)
            got[i] = to_float(g[i]);
        cudaFree(dC);
    }
    /* A is stored k x m (used transposed), B k x n. */
    reference_gemm(true, false, m, n, k, alpha, Aw, k, Bw, k, beta, C0w, m, &want, &bound);
    double rounding = type == CUDA_R_16F ? std::ldexp(1.0, -11) : std::ldexp(1.0, -8);
    for (int i = 0; i < m * n; ++i) {
        double tol = bound[i] + (c_low_precision ? rounding * std::fabs(want[i]) : 0.0);
        cr_assert(std::fabs(got[i] - want[i]) <= tol, "type %d element %d = %.9g, want %.9g", (int)type, i, got[i],
                  want[i]);
    }
    cublasDestroy(h);
    cudaFree(dA);
    cudaFree(dB);
}

static __half half_from(float f) { return __float2half(f); }
static float half_to(__half h) { return __half2float(h); }
static __nv_bfloat16 bf16_from(float f) { return __float2bfloat16(f); }
static float bf16_to(__nv_bfloat16 b) { return __bfloat162float(b); }

Test(cublas, gemm_ex_half_inputs_float_output)
{
    gemm_ex_case<__half>(CUDA_R_16F, half_from, half_to, false);
}

Test(cublas, gemm_ex_bfloat16_inputs_float_output)
{
    gemm_ex_case<__nv_bfloat16>(CUDA_R_16BF, bf16_from, bf16_to, false);
}

Test(cublas, gemm_ex_half_output_is_rounded_once)
{
    gemm_ex_case<__half>(CUDA_R_16F, half_from, half_to, true);
}

/* batch 3, strides with gaps between the matrices; the gaps of C stay
 * untouched. bf16: cublasGemmStridedBatchedEx with bfloat16 A and B. */
static void strided_batched_case(bool bf16)
{
    const int m = 17, n = 9, k = 33, batch = 3, lda = k, ldb = k, ldc = m + 1;
    const long long sa = lda * m + 5, sb = ldb * n + 3, sc = ldc * n + 7;
    std::vector<float> A = random_vector(sa * batch), B = random_vector(sb * batch), C = random_vector(sc * batch);
    std::vector<__nv_bfloat16> A16(A.size()), B16(B.size());
    for (size_t i = 0; i < A.size(); ++i)
        A16[i] = __float2bfloat16(A[i]), A[i] = __bfloat162float(A16[i]);
    for (size_t i = 0; i < B.size(); ++i)
        B16[i] = __float2bfloat16(B[i]), B[i] = __bfloat162float(B16[i]);
    float alpha = 0.5f, beta = -1.5f;
    float *dC = to_device(C);
    cublasHandle_t h;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    if (bf16) {
        __nv_bfloat16 *dA = to_device(A16), *dB = to_device(B16);
        cr_assert_eq(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_16BF, lda, sa,
                                                dB, CUDA_R_16BF, ldb, sb, &beta, dC, CUDA_R_32F, ldc, sc, batch,
                                                CUBLAS_COMPUTE_32F_FAST_16BF, CUBLAS_GEMM_DEFAULT),
                     CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
        cudaFree(dA);
        cudaFree(dB);
    } else {
        float *dA = to_device(A), *dB = to_device(B);
        cr_assert_eq(cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, lda, sa, dB, ldb, sb,
                                               &beta, dC, ldc, sc, batch),
                     CUBLAS_STATUS_SUCCESS, "%s", simtlab_emu_last_diagnostic());
        cudaFree(dA);
        cudaFree(dB);
    }
    std::vector<float> got = to_host(dC, C.size());
    for (int b = 0; b < batch; ++b) {
        std::vector<double> want, bound;
        std::vector<double> Ab(A.begin() + b * sa, A.begin() + b * sa + lda * m),
            Bb(B.begin() + b * sb, B.begin() + b * sb + ldb * n), Cb(C.begin() + b * sc, C.begin() + b * sc + ldc * n);
        reference_gemm(true, false, m, n, k, alpha, Ab, lda, Bb, ldb, beta, Cb, ldc, &want, &bound);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                size_t at = (size_t)j * ldc + i;
                cr_assert(std::fabs(got[b * sc + at] - want[at]) <= bound[at], "batch %d C[%d,%d] = %.9g, want %.9g",
                          b, i, j, got[b * sc + at], want[at]);
            }
        for (long long g = ldc * n - 1; g < sc; ++g) /* the last padding row and the gap */
            if (g >= ldc * n || g % ldc >= m)
                cr_assert_eq(got[b * sc + g], C[b * sc + g], "batch %d element %lld outside C changed", b, g);
    }
    cublasDestroy(h);
    cudaFree(dC);
}

Test(cublas, sgemm_strided_batched_matches_double_reference)
{
    strided_batched_case(false);
}

Test(cublas, gemm_strided_batched_ex_bfloat16_matches_double_reference)
{
    strided_batched_case(true);
}

Test(cublas, level1_matches_double_reference)
{
    const int n = 1001;
    std::vector<float> x = random_vector(n * 2), y = random_vector(n * 3);
    x[2 * 500] = 7.5f; /* the largest |x_i| with incx 2 is element 501 (1-based) */
    float *dx = to_device(x), *dy = to_device(y);
    cublasHandle_t h;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    double dot = 0, asum = 0, mag = 0;
    for (int i = 0; i < n; ++i) {
        dot += (double)x[2 * i] * y[3 * i];
        mag += std::fabs((double)x[2 * i] * y[3 * i]);
        asum += std::fabs((double)x[2 * i]);
    }
    float r = NAN;
    cr_expect_eq(cublasSdot(h, n, dx, 2, dy, 3, &r), CUBLAS_STATUS_SUCCESS);
    cr_expect(std::fabs(r - dot) <= n * 1.2e-7 * mag, "dot %.9g, want %.9g", r, dot);
    r = NAN;
    cr_expect_eq(cublasSasum(h, n, dx, 2, &r), CUBLAS_STATUS_SUCCESS);
    cr_expect(std::fabs(r - asum) <= n * 1.2e-7 * asum, "asum %.9g, want %.9g", r, asum);
    int idx = -1;
    cr_expect_eq(cublasIsamax(h, n, dx, 2, &idx), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(idx, 501, "1-based, as cuBLAS");
    float alpha = -2.0f;
    cr_expect_eq(cublasSaxpy(h, n, &alpha, dx, 2, dy, 3), CUBLAS_STATUS_SUCCESS);
    std::vector<float> got = to_host(dy, y.size());
    for (int i = 0; i < n * 3; ++i) {
        double want = (i % 3 == 0) ? (double)alpha * x[2 * (i / 3)] + y[i] : y[i];
        cr_assert(std::fabs(got[i] - want) <= 2.4e-7 * (std::fabs(want) + 2), "y[%d] = %.9g, want %.9g", i, got[i],
                  want);
    }
    cr_expect_eq(cublasSdot(h, 0, dx, 1, dy, 1, &r), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(r, 0.0f, "n = 0 gives 0");
    cublasDestroy(h);
    cudaFree(dx);
    cudaFree(dy);
}

Test(cublas, bad_inputs_are_rejected_with_a_reason)
{
    cublasHandle_t h;
    cr_assert_eq(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    float host[64] = {0}, alpha = 1, beta = 0, r;
    float *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 64 * sizeof(float)), cudaSuccess);
    /* a host matrix where cuBLAS needs device memory */
    cr_expect_eq(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha, host, 4, d, 4, &beta, d + 16, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "cublasSgemm A") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    /* a matrix running past the end of its allocation: 9 x 8 needs 72 floats */
    cr_expect_eq(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 9, 8, 1, &alpha, d, 9, d, 1, &beta, d, 9),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "past the end") != nullptr, "%s",
              simtlab_emu_last_diagnostic());
    /* leading dimension smaller than the rows */
    cr_expect_eq(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha, d, 3, d, 4, &beta, d, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "lda 3") != nullptr);
    cr_expect_eq(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 4, 4, &alpha, d, 4, d, 4, &beta, d, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect_eq(cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 4, 4, 4, &alpha, d, 4, d, 4, &beta, d, 4),
                 CUBLAS_STATUS_INVALID_VALUE);
    /* alpha passed as a device pointer in host pointer mode */
    cr_expect_eq(cublasSaxpy(h, 4, d, d, 1, d + 8, 1), CUBLAS_STATUS_INVALID_VALUE);
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "POINTER_MODE_HOST") != nullptr);
    cr_expect_eq(cublasSdot(h, 4, d, 1, host, 1, &r), CUBLAS_STATUS_INVALID_VALUE, "y on the host");
    cr_expect_eq(cublasSdot(h, 4, d, 1, d, 1, nullptr), CUBLAS_STATUS_INVALID_VALUE);
    /* unsupported GemmEx combinations */
    cr_expect_eq(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, d, CUDA_R_16F, 2, d, CUDA_R_16BF, 2,
                              &beta, d, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_INVALID_VALUE);
    cr_expect_eq(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &alpha, d, CUDA_R_16F, 2, d, CUDA_R_16F, 2,
                              &beta, d, CUDA_R_32F, 2, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
                 CUBLAS_STATUS_NOT_SUPPORTED);
    cr_expect_eq(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_NOT_SUPPORTED);
    /* handles */
    cr_expect_eq(cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &alpha, d, 1, d, 1, &beta, d, 1),
                 CUBLAS_STATUS_NOT_INITIALIZED);
    cr_expect_eq(cublasSetStream(h, (cudaStream_t)host), CUBLAS_STATUS_INVALID_VALUE, "not a live stream");
    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    cr_expect_eq(cublasSetStream(h, s), CUBLAS_STATUS_SUCCESS);
    cudaStream_t back = nullptr;
    cr_expect_eq(cublasGetStream(h, &back), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(back, s);
    cr_expect_eq(cublasDestroy(h), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(cublasDestroy(h), CUBLAS_STATUS_NOT_INITIALIZED, "destroyed twice");
    cudaStreamDestroy(s);
    cudaFree(d);
}

Test(cublas, status_names_and_strings)
{
    cr_expect_str_eq(cublasGetStatusName(CUBLAS_STATUS_SUCCESS), "CUBLAS_STATUS_SUCCESS");
    cr_expect_str_eq(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE");
    cr_expect_str_eq(cublasGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED");
    cr_expect_eq((int)CUBLAS_STATUS_INVALID_VALUE, 7, "cuBLAS's number");
    cr_expect_eq((int)CUBLAS_COMPUTE_32F, 68);
    cr_expect_eq((int)CUDA_R_16BF, 14);
    cr_expect_gt(std::strlen(cublasGetStatusString(CUBLAS_STATUS_EXECUTION_FAILED)), 0u);
    cublasHandle_t h;
    cublasCreate(&h);
    int v = 0;
    cr_expect_eq(cublasGetVersion(h, &v), CUBLAS_STATUS_SUCCESS);
    cr_expect_eq(v, CUBLAS_VERSION);
    cublasDestroy(h);
}
