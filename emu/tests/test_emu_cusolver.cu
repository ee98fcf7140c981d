/* Tests of the emulator's cuSOLVER dense API (emu/src/libs/cusolver/cusolver.cpp) in all
 * four element types: potrf/potrs, getrf (with and without pivots)/getrs,
 * geqrf/orgqr/ormqr, gesvd and syevd/heevd, devInfo for singular and
 * non-positive-definite inputs, argument refusals, streams and capture.
 *
 * Every result is checked by a property computed here in double on the
 * CPU from the inputs (A = P L U, A = L L^H, A = U S V^H with orthonormal
 * U and V, A v = lambda v, the trace and Frobenius norm), never against
 * LAPACK. Inputs are random (the seed is printed), sizes odd or prime,
 * outputs and padding poisoned, the triangle a call must not read holds
 * NaN, and NaN never passes.
 *
 *   build/bin/test_emu_cusolver --verbose
 */
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <criterion/criterion.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <limits>
#include <vector>

using cd = std::complex<double>;

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

/* ---- the four types, seen as complex<double> ---------------------------- */
static cd to_c(float x) { return cd(x, 0); }
static cd to_c(double x) { return cd(x, 0); }
static cd to_c(cuComplex x) { return cd(x.x, x.y); }
static cd to_c(cuDoubleComplex x) { return cd(x.x, x.y); }
template <class T> static T from_c(cd z);
template <> float from_c<float>(cd z) { return static_cast<float>(z.real()); }
template <> double from_c<double>(cd z) { return z.real(); }
template <> cuComplex from_c<cuComplex>(cd z)
{
    return make_cuFloatComplex(static_cast<float>(z.real()), static_cast<float>(z.imag()));
}
template <> cuDoubleComplex from_c<cuDoubleComplex>(cd z) { return make_cuDoubleComplex(z.real(), z.imag()); }

template <class T> struct ty;
template <> struct ty<float> {
    using real = float;
    static constexpr bool complex = false;
    static constexpr double eps = 1.2e-7;
    static constexpr const char *name = "S";
};
template <> struct ty<double> {
    using real = double;
    static constexpr bool complex = false;
    static constexpr double eps = 2.3e-16;
    static constexpr const char *name = "D";
};
template <> struct ty<cuComplex> {
    using real = float;
    static constexpr bool complex = true;
    static constexpr double eps = 1.2e-7;
    static constexpr const char *name = "C";
};
template <> struct ty<cuDoubleComplex> {
    using real = double;
    static constexpr bool complex = true;
    static constexpr double eps = 2.3e-16;
    static constexpr const char *name = "Z";
};

static const double nan_ = std::numeric_limits<double>::quiet_NaN();
template <class T> static T poison() { return from_c<T>(cd(nan_, nan_)); }
template <class T> static T random_elem()
{
    return from_c<T>(ty<T>::complex ? cd(uniform(), uniform()) : cd(uniform(), 0));
}
static bool bad(double x) { return !std::isfinite(x); }
static bool is_nan(cd z) { return std::isnan(z.real()) || std::isnan(z.imag()); }

/* The cuSOLVER calls by type. */
template <class T> struct sv;
#define SV(P, T, R, ORGQR, ORMQR, EVD)                                                                                   \
    template <> struct sv<T> {                                                                                          \
        static cusolverStatus_t potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u, int n, T *A, int lda, int *lw)      \
        {                                                                                                               \
            return cusolverDn##P##potrf_bufferSize(h, u, n, A, lda, lw);                                                \
        }                                                                                                               \
        static cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t u, int n, T *A, int lda, T *w, int lw,   \
                                      int *info)                                                                        \
        {                                                                                                               \
            return cusolverDn##P##potrf(h, u, n, A, lda, w, lw, info);                                                  \
        }                                                                                                               \
        static cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t u, int n, int nrhs, const T *A, int lda, \
                                      T *B, int ldb, int *info)                                                         \
        {                                                                                                               \
            return cusolverDn##P##potrs(h, u, n, nrhs, A, lda, B, ldb, info);                                           \
        }                                                                                                               \
        static cusolverStatus_t getrf_bs(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lw)                   \
        {                                                                                                               \
            return cusolverDn##P##getrf_bufferSize(h, m, n, A, lda, lw);                                                \
        }                                                                                                               \
        static cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *w, int *ipiv, int *info)   \
        {                                                                                                               \
            return cusolverDn##P##getrf(h, m, n, A, lda, w, ipiv, info);                                                \
        }                                                                                                               \
        static cusolverStatus_t getrs(cusolverDnHandle_t h, cublasOperation_t t, int n, int nrhs, const T *A, int lda, \
                                      const int *ipiv, T *B, int ldb, int *info)                                        \
        {                                                                                                               \
            return cusolverDn##P##getrs(h, t, n, nrhs, A, lda, ipiv, B, ldb, info);                                     \
        }                                                                                                               \
        static cusolverStatus_t geqrf_bs(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lw)                   \
        {                                                                                                               \
            return cusolverDn##P##geqrf_bufferSize(h, m, n, A, lda, lw);                                                \
        }                                                                                                               \
        static cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *tau, T *w, int lw,         \
                                      int *info)                                                                        \
        {                                                                                                               \
            return cusolverDn##P##geqrf(h, m, n, A, lda, tau, w, lw, info);                                             \
        }                                                                                                               \
        static cusolverStatus_t orgqr_bs(cusolverDnHandle_t h, int m, int n, int k, const T *A, int lda,               \
                                         const T *tau, int *lw)                                                         \
        {                                                                                                               \
            return cusolverDn##P##ORGQR##_bufferSize(h, m, n, k, A, lda, tau, lw);                                      \
        }                                                                                                               \
        static cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, T *A, int lda, const T *tau, T *w,    \
                                      int lw, int *info)                                                                \
        {                                                                                                               \
            return cusolverDn##P##ORGQR(h, m, n, k, A, lda, tau, w, lw, info);                                          \
        }                                                                                                               \
        static cusolverStatus_t ormqr_bs(cusolverDnHandle_t h, cublasSideMode_t s, cublasOperation_t t, int m, int n,  \
                                         int k, const T *A, int lda, const T *tau, const T *C, int ldc, int *lw)        \
        {                                                                                                               \
            return cusolverDn##P##ORMQR##_bufferSize(h, s, t, m, n, k, A, lda, tau, C, ldc, lw);                        \
        }                                                                                                               \
        static cusolverStatus_t ormqr(cusolverDnHandle_t h, cublasSideMode_t s, cublasOperation_t t, int m, int n,     \
                                      int k, const T *A, int lda, const T *tau, T *C, int ldc, T *w, int lw,            \
                                      int *info)                                                                        \
        {                                                                                                               \
            return cusolverDn##P##ORMQR(h, s, t, m, n, k, A, lda, tau, C, ldc, w, lw, info);                            \
        }                                                                                                               \
        static cusolverStatus_t gesvd_bs(cusolverDnHandle_t h, int m, int n, int *lw)                                  \
        {                                                                                                               \
            return cusolverDn##P##gesvd_bufferSize(h, m, n, lw);                                                        \
        }                                                                                                               \
        static cusolverStatus_t gesvd(cusolverDnHandle_t h, signed char ju, signed char jv, int m, int n, T *A,        \
                                      int lda, R *S, T *U, int ldu, T *VT, int ldvt, T *w, int lw, R *rw, int *info)    \
        {                                                                                                               \
            return cusolverDn##P##gesvd(h, ju, jv, m, n, A, lda, S, U, ldu, VT, ldvt, w, lw, rw, info);                 \
        }                                                                                                               \
        static cusolverStatus_t evd_bs(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n,           \
                                       const T *A, int lda, const R *W, int *lw)                                        \
        {                                                                                                               \
            return cusolverDn##P##EVD##_bufferSize(h, j, u, n, A, lda, W, lw);                                          \
        }                                                                                                               \
        static cusolverStatus_t evd(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n, T *A,        \
                                    int lda, R *W, T *w, int lw, int *info)                                             \
        {                                                                                                               \
            return cusolverDn##P##EVD(h, j, u, n, A, lda, W, w, lw, info);                                              \
        }                                                                                                               \
    };
SV(S, float, float, orgqr, ormqr, syevd)
SV(D, double, double, orgqr, ormqr, syevd)
SV(C, cuComplex, float, ungqr, unmqr, heevd)
SV(Z, cuDoubleComplex, double, ungqr, unmqr, heevd)
#undef SV

/* ---- device memory helpers ---------------------------------------------- */
template <class T> static T *dev(const std::vector<T> &h)
{
    T *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, std::max<std::size_t>(1, h.size()) * sizeof(T)), cudaSuccess);
    if (!h.empty())
        cr_assert_eq(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}
template <class T> static T *dev_poisoned(std::size_t n)
{
    return dev(std::vector<T>(std::max<std::size_t>(1, n), poison<T>()));
}
template <class T> static std::vector<T> host(const T *d, std::size_t n)
{
    std::vector<T> h(n);
    if (n)
        cr_assert_eq(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
}
static int *dev_info()
{
    int *d = nullptr, v = 0x5eed;
    cr_assert_eq(cudaMalloc(&d, sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemcpy(d, &v, sizeof v, cudaMemcpyHostToDevice), cudaSuccess);
    return d;
}
static int read_info(const int *d)
{
    int v = 0;
    cr_assert_eq(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
}

/* A column-major matrix of complex<double>, for the references. */
struct mat {
    int rows, cols;
    std::vector<cd> v;
    mat(int r, int c) : rows(r), cols(c), v(static_cast<std::size_t>(r) * c) {}
    cd &operator()(int i, int j) { return v[static_cast<std::size_t>(j) * rows + i]; }
    cd operator()(int i, int j) const { return v[static_cast<std::size_t>(j) * rows + i]; }
};
static mat mul(const mat &a, const mat &b, bool ha = false, bool hb = false)
{
    const int m = ha ? a.cols : a.rows, k = ha ? a.rows : a.cols, n = hb ? b.rows : b.cols;
    mat c(m, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            cd s = 0;
            for (int p = 0; p < k; ++p)
                s += (ha ? std::conj(a(p, i)) : a(i, p)) * (hb ? std::conj(b(j, p)) : b(p, j));
            c(i, j) = s;
        }
    return c;
}
static double fro(const mat &a)
{
    double s = 0;
    for (cd z : a.v)
        s += std::norm(z);
    return std::sqrt(s);
}
/* max |a - b|, NaN-proof (a NaN makes it infinite) */
static double maxdiff(const mat &a, const mat &b)
{
    double d = 0;
    for (std::size_t i = 0; i < a.v.size(); ++i) {
        double e = std::abs(a.v[i] - b.v[i]);
        d = bad(e) ? INFINITY : std::max(d, e);
    }
    return d;
}
template <class T> static mat from_stored(const std::vector<T> &s, int rows, int cols, int ld)
{
    mat a(rows, cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            a(i, j) = to_c(s[static_cast<std::size_t>(j) * ld + i]);
    return a;
}
template <class T> static std::vector<T> to_stored(const mat &a, int ld)
{
    std::vector<T> s(static_cast<std::size_t>(ld) * a.cols, poison<T>());
    for (int j = 0; j < a.cols; ++j)
        for (int i = 0; i < a.rows; ++i)
            s[static_cast<std::size_t>(j) * ld + i] = from_c<T>(a(i, j));
    return s;
}
template <class T> static mat random_mat(int rows, int cols)
{
    mat a(rows, cols);
    for (cd &z : a.v)
        z = to_c(random_elem<T>());
    return a;
}
/* Hermitian (symmetric) random, rounded to T; `spd`: B B^H + n I. */
template <class T> static mat hermitian(int n, bool spd)
{
    mat b = random_mat<T>(n, n);
    mat a = spd ? mul(b, b, false, true) : b;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i <= j; ++i) {
            cd z = i == j ? cd(a(i, i).real() + (spd ? n : 0), 0) : (spd ? a(i, j) : a(i, j));
            if (!ty<T>::complex)
                z = cd(z.real(), 0);
            z = to_c(from_c<T>(z));
            a(i, j) = z;
            a(j, i) = std::conj(z);
        }
    return a;
}
/* The stored form with NaN in the triangle `uplo` does not name (and in
 * the padding). */
template <class T> static std::vector<T> stored_triangle(const mat &a, int ld, cublasFillMode_t uplo)
{
    std::vector<T> s = to_stored<T>(a, ld);
    for (int j = 0; j < a.cols; ++j)
        for (int i = 0; i < a.rows; ++i)
            if (uplo == CUBLAS_FILL_MODE_LOWER ? i < j : i > j)
                s[static_cast<std::size_t>(j) * ld + i] = poison<T>();
    return s;
}
template <class T> static double tol(int n) { return 64.0 * std::max(1, n) * ty<T>::eps; }

struct session {
    cusolverDnHandle_t h = nullptr;
    session() { cr_assert_eq(cusolverDnCreate(&h), CUSOLVER_STATUS_SUCCESS); }
    ~session() { cusolverDnDestroy(h); }
};

#define OK(call) cr_assert_eq((call), CUSOLVER_STATUS_SUCCESS, "%s: %s", #call, simtlab_emu_last_diagnostic())

/* ---- potrf / potrs --------------------------------------------------------- */

template <class T> static void check_cholesky(cusolverDnHandle_t h, int n, cublasFillMode_t uplo)
{
    const int lda = n + 2, nrhs = 3, ldb = n + 1;
    mat a = hermitian<T>(n, true);
    std::vector<T> sa = stored_triangle<T>(a, lda, uplo);
    T *dA = dev(sa);
    int lwork = -1;
    OK(sv<T>::potrf_bs(h, uplo, n, dA, lda, &lwork));
    cr_assert_geq(lwork, 0);
    T *work = dev_poisoned<T>(lwork);
    int *info = dev_info();
    OK(sv<T>::potrf(h, uplo, n, dA, lda, work, lwork, info));
    cr_assert_eq(read_info(info), 0, "%spotrf n=%d: devInfo %d", ty<T>::name, n, read_info(info));
    std::vector<T> f = host(dA, sa.size());
    /* L L^H (or U^H U) from the named triangle only */
    mat tri(n, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            bool in = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
            tri(i, j) = in ? to_c(f[static_cast<std::size_t>(j) * lda + i]) : cd(0);
        }
    mat back = uplo == CUBLAS_FILL_MODE_LOWER ? mul(tri, tri, false, true) : mul(tri, tri, true, false);
    double err = maxdiff(back, a) / fro(a);
    cr_assert(err <= tol<T>(n), "%spotrf n=%d uplo=%d: |A - L L^H| / |A| = %g", ty<T>::name, n, uplo, err);
    for (int j = 0; j < n; ++j) /* padding rows untouched */
        for (int i = n; i < lda; ++i)
            cr_assert(is_nan(to_c(f[static_cast<std::size_t>(j) * lda + i])), "%spotrf wrote padding", ty<T>::name);

    mat b = random_mat<T>(n, nrhs);
    T *dB = dev(to_stored<T>(b, ldb));
    OK(sv<T>::potrs(h, uplo, n, nrhs, dA, lda, dB, ldb, info));
    cr_assert_eq(read_info(info), 0);
    mat x = from_stored(host(dB, static_cast<std::size_t>(ldb) * nrhs), n, nrhs, ldb);
    double res = maxdiff(mul(a, x), b) / (fro(a) * fro(x) + fro(b));
    cr_assert(res <= tol<T>(n), "%spotrs n=%d: |A X - B| relative %g", ty<T>::name, n, res);
    cudaFree(dA), cudaFree(dB), cudaFree(work), cudaFree(info);
}

template <class T> static void not_positive_definite(cusolverDnHandle_t h)
{
    /* I with a(2,2) = -1 (and a random Hermitian coupling below it): the
     * leading minor of order 3 is the first not positive. */
    const int n = 7;
    mat a(n, n);
    for (int i = 0; i < n; ++i)
        a(i, i) = 1;
    a(2, 2) = -1;
    a(5, 4) = to_c(random_elem<T>()) * 0.1;
    a(4, 5) = std::conj(a(5, 4));
    T *dA = dev(to_stored<T>(a, n));
    int lwork = 0;
    OK(sv<T>::potrf_bs(h, CUBLAS_FILL_MODE_UPPER, n, dA, n, &lwork));
    T *work = dev_poisoned<T>(lwork);
    int *info = dev_info();
    OK(sv<T>::potrf(h, CUBLAS_FILL_MODE_UPPER, n, dA, n, work, lwork, info));
    cr_assert_eq(read_info(info), 3, "%spotrf of an indefinite matrix: devInfo %d, want 3", ty<T>::name,
                 read_info(info));
    cudaFree(dA), cudaFree(work), cudaFree(info);
}

template <class T> static void cholesky_all()
{
    session s;
    for (int n : {1, 2, 7, 13, 31})
        for (cublasFillMode_t u : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
            check_cholesky<T>(s.h, n, u);
    not_positive_definite<T>(s.h);
}

Test(cusolver, potrf_potrs_every_type_and_fill)
{
    seed_once("potrf_potrs");
    cholesky_all<float>();
    cholesky_all<double>();
    cholesky_all<cuComplex>();
    cholesky_all<cuDoubleComplex>();
}

/* ---- getrf / getrs --------------------------------------------------------- */

/* P L U of an m x n getrf result compared with A: the row swaps applied to
 * A in order, then L (unit lower, m x k) U (upper, k x n). */
template <class T>
static double lu_error(const mat &a, const std::vector<T> &f, int lda, const std::vector<int> *ipiv)
{
    const int m = a.rows, n = a.cols, k = std::min(m, n);
    mat pa = a;
    if (ipiv)
        for (int i = 0; i < k; ++i) {
            int p = (*ipiv)[i] - 1;
            cr_assert(p >= i && p < m, "ipiv[%d] = %d out of range", i, p + 1);
            for (int j = 0; j < n; ++j)
                std::swap(pa(i, j), pa(p, j));
        }
    mat l(m, k), u(k, n);
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < m; ++i)
            l(i, j) = i == j ? cd(1) : i > j ? to_c(f[static_cast<std::size_t>(j) * lda + i]) : cd(0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < k; ++i)
            u(i, j) = i <= j ? to_c(f[static_cast<std::size_t>(j) * lda + i]) : cd(0);
    return maxdiff(mul(l, u), pa) / fro(a);
}

template <class T> static void check_lu(cusolverDnHandle_t h, int m, int n, bool pivots)
{
    const int lda = m + 3;
    mat a = random_mat<T>(m, n);
    if (!pivots) /* diagonally dominant: no pivoting needed */
        for (int i = 0; i < std::min(m, n); ++i)
            a(i, i) += cd(2.0 * n + 2.0 * m, 0);
    std::vector<T> sa = to_stored<T>(a, lda);
    T *dA = dev(sa);
    int lwork = -1;
    OK(sv<T>::getrf_bs(h, m, n, dA, lda, &lwork));
    T *work = dev_poisoned<T>(lwork);
    int *info = dev_info();
    const int k = std::min(m, n);
    int *ipiv = pivots ? dev(std::vector<int>(k, -7)) : nullptr;
    OK(sv<T>::getrf(h, m, n, dA, lda, work, ipiv, info));
    cr_assert_eq(read_info(info), 0, "%sgetrf %dx%d: devInfo %d", ty<T>::name, m, n, read_info(info));
    std::vector<T> f = host(dA, sa.size());
    std::vector<int> piv = pivots ? host(ipiv, k) : std::vector<int>();
    double err = lu_error(a, f, lda, pivots ? &piv : nullptr);
    cr_assert(err <= tol<T>(std::max(m, n)), "%sgetrf %dx%d pivots=%d: |PA - LU| / |A| = %g", ty<T>::name, m, n,
              pivots, err);
    if (pivots && m == n)
        for (cublasOperation_t t : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C}) {
            const int nrhs = 2, ldb = n + 2;
            mat b = random_mat<T>(n, nrhs);
            T *dB = dev(to_stored<T>(b, ldb));
            OK(sv<T>::getrs(h, t, n, nrhs, dA, lda, ipiv, dB, ldb, info));
            cr_assert_eq(read_info(info), 0);
            mat x = from_stored(host(dB, static_cast<std::size_t>(ldb) * nrhs), n, nrhs, ldb);
            mat ax = t == CUBLAS_OP_N ? mul(a, x) : mul(a, x, true, false);
            if (t == CUBLAS_OP_T) { /* A^T x = conj(A^H conj(x)) */
                mat xc = x;
                for (cd &z : xc.v)
                    z = std::conj(z);
                ax = mul(a, xc, true, false);
                for (cd &z : ax.v)
                    z = std::conj(z);
            }
            double res = maxdiff(ax, b) / (fro(a) * fro(x) + fro(b));
            cr_assert(res <= tol<T>(n) * 10, "%sgetrs n=%d trans=%d: |op(A) X - B| relative %g", ty<T>::name, n, t,
                      res);
            cudaFree(dB);
        }
    cudaFree(dA), cudaFree(work), cudaFree(info);
    if (ipiv)
        cudaFree(ipiv);
}

template <class T> static void singular_lu(cusolverDnHandle_t h, bool pivots)
{
    const int n = 11;
    mat a = random_mat<T>(n, n);
    for (int i = 0; i < n; ++i) {
        a(i, 3) = 0; /* column 4 is zero: U(4,4) = 0 */
        if (!pivots)
            a(i, i) += (i == 3 ? cd(0) : cd(4.0 * n));
    }
    T *dA = dev(to_stored<T>(a, n));
    int lwork = 0;
    OK(sv<T>::getrf_bs(h, n, n, dA, n, &lwork));
    T *work = dev_poisoned<T>(lwork);
    int *info = dev_info();
    int *ipiv = pivots ? dev(std::vector<int>(n, -7)) : nullptr;
    OK(sv<T>::getrf(h, n, n, dA, n, work, ipiv, info));
    cr_assert_eq(read_info(info), 4, "%sgetrf (pivots %d) with column 4 zero: devInfo %d, want 4", ty<T>::name, pivots,
                 read_info(info));
    cudaFree(dA), cudaFree(work), cudaFree(info);
    if (ipiv)
        cudaFree(ipiv);
}

template <class T> static void lu_all()
{
    session s;
    for (bool p : {true, false}) {
        for (int n : {1, 5, 13, 29})
            check_lu<T>(s.h, n, n, p);
        check_lu<T>(s.h, 17, 7, p);
        check_lu<T>(s.h, 7, 17, p);
        singular_lu<T>(s.h, p);
    }
}

Test(cusolver, getrf_getrs_with_and_without_pivots)
{
    seed_once("getrf_getrs");
    lu_all<float>();
    lu_all<double>();
    lu_all<cuComplex>();
    lu_all<cuDoubleComplex>();
}

/* ---- geqrf / orgqr / ormqr --------------------------------------------- */

template <class T> static void qr_all()
{
    session s;
    for (int dims : {0, 1, 2}) {
        const int m = dims == 0 ? 17 : dims == 1 ? 13 : 1, n = dims == 0 ? 7 : dims == 1 ? 13 : 1, lda = m + 1;
        mat a = random_mat<T>(m, n);
        std::vector<T> sa = to_stored<T>(a, lda);
        T *dA = dev(sa), *tau = dev_poisoned<T>(n);
        int lwork = 0, *info = dev_info();
        OK(sv<T>::geqrf_bs(s.h, m, n, dA, lda, &lwork));
        T *work = dev_poisoned<T>(lwork);
        OK(sv<T>::geqrf(s.h, m, n, dA, lda, tau, work, lwork, info));
        cr_assert_eq(read_info(info), 0);
        std::vector<T> f = host(dA, sa.size());
        mat r(n, n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i <= j; ++i)
                r(i, j) = to_c(f[static_cast<std::size_t>(j) * lda + i]);

        /* Q^H A = [R; 0] by ormqr, and back by ormqr with OP_N */
        const cublasOperation_t adj = ty<T>::complex ? CUBLAS_OP_C : CUBLAS_OP_T;
        T *dC = dev(sa);
        int lw2 = 0;
        OK(sv<T>::ormqr_bs(s.h, CUBLAS_SIDE_LEFT, adj, m, n, n, dA, lda, tau, dC, lda, &lw2));
        T *work2 = dev_poisoned<T>(lw2);
        OK(sv<T>::ormqr(s.h, CUBLAS_SIDE_LEFT, adj, m, n, n, dA, lda, tau, dC, lda, work2, lw2, info));
        cr_assert_eq(read_info(info), 0);
        mat qa = from_stored(host(dC, sa.size()), m, n, lda);
        mat want(m, n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i <= j; ++i)
                want(i, j) = r(i, j);
        double e1 = maxdiff(qa, want) / fro(a);
        cr_assert(e1 <= tol<T>(m), "%sormqr: |Q^H A - [R;0]| / |A| = %g", ty<T>::name, e1);
        OK(sv<T>::ormqr(s.h, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, m, n, n, dA, lda, tau, dC, lda, work2, lw2, info));
        double e2 = maxdiff(from_stored(host(dC, sa.size()), m, n, lda), a) / fro(a);
        cr_assert(e2 <= tol<T>(m), "%sormqr: |Q Q^H A - A| / |A| = %g", ty<T>::name, e2);

        /* Q explicitly: orthonormal columns, Q R = A */
        int lw3 = 0;
        OK(sv<T>::orgqr_bs(s.h, m, n, n, dA, lda, tau, &lw3));
        T *work3 = dev_poisoned<T>(lw3);
        OK(sv<T>::orgqr(s.h, m, n, n, dA, lda, tau, work3, lw3, info));
        cr_assert_eq(read_info(info), 0);
        mat q = from_stored(host(dA, sa.size()), m, n, lda);
        mat eye(n, n);
        for (int i = 0; i < n; ++i)
            eye(i, i) = 1;
        double e3 = maxdiff(mul(q, q, true, false), eye), e4 = maxdiff(mul(q, r), a) / fro(a);
        cr_assert(e3 <= tol<T>(m) && e4 <= tol<T>(m), "%sorgqr %dx%d: |Q^H Q - I| = %g, |QR - A|/|A| = %g",
                  ty<T>::name, m, n, e3, e4);
        cudaFree(dA), cudaFree(tau), cudaFree(work), cudaFree(dC), cudaFree(work2), cudaFree(work3), cudaFree(info);
    }
}

Test(cusolver, geqrf_ormqr_orgqr)
{
    seed_once("geqrf");
    qr_all<float>();
    qr_all<double>();
    qr_all<cuComplex>();
    qr_all<cuDoubleComplex>();
}

/* ---- gesvd --------------------------------------------------------------- */

template <class T> static void check_svd(cusolverDnHandle_t h, int m, int n, char ju, char jv)
{
    using R = typename ty<T>::real;
    const int lda = m + 2, ldu = m + 1, ldvt = n + 3, k = n;
    mat a = random_mat<T>(m, n);
    std::vector<T> sa = to_stored<T>(a, lda);
    T *dA = dev(sa);
    const int ucols = ju == 'A' ? m : k, vtrows = jv == 'A' ? n : k;
    T *dU = dev_poisoned<T>(static_cast<std::size_t>(ldu) * ucols);
    T *dVT = dev_poisoned<T>(static_cast<std::size_t>(ldvt) * n);
    R *dS = dev(std::vector<R>(k, static_cast<R>(nan_)));
    int lwork = 0, *info = dev_info();
    OK(sv<T>::gesvd_bs(h, m, n, &lwork));
    T *work = dev_poisoned<T>(lwork);
    OK(sv<T>::gesvd(h, ju, jv, m, n, dA, lda, dS, dU, ldu, dVT, ldvt, work, lwork, nullptr, info));
    cr_assert_eq(read_info(info), 0, "%sgesvd: devInfo %d", ty<T>::name, read_info(info));
    std::vector<R> sv_ = host(dS, k);
    double sum2 = 0;
    for (int i = 0; i < k; ++i) {
        cr_assert(sv_[i] >= 0 && (i == 0 || sv_[i] <= sv_[i - 1]), "%sgesvd: S not descending and >= 0 at %d",
                  ty<T>::name, i);
        sum2 += static_cast<double>(sv_[i]) * sv_[i];
    }
    const double na = fro(a);
    cr_assert(std::fabs(std::sqrt(sum2) - na) <= tol<T>(m) * na, "%sgesvd: sqrt(sum S^2) %g, |A|_F %g", ty<T>::name,
              std::sqrt(sum2), na);
    if (ju != 'N') {
        mat u = from_stored(host(dU, static_cast<std::size_t>(ldu) * ucols), m, ucols, ldu);
        mat eye(ucols, ucols);
        for (int i = 0; i < ucols; ++i)
            eye(i, i) = 1;
        double e = maxdiff(mul(u, u, true, false), eye);
        cr_assert(e <= tol<T>(m), "%sgesvd jobu %c: |U^H U - I| = %g", ty<T>::name, ju, e);
        if (jv != 'N') {
            mat vt = from_stored(host(dVT, static_cast<std::size_t>(ldvt) * n), vtrows, n, ldvt);
            mat eye2(n, n);
            for (int i = 0; i < n; ++i)
                eye2(i, i) = 1;
            double ev = maxdiff(mul(vt, vt, true, false), eye2);
            mat us(m, k);
            for (int j = 0; j < k; ++j)
                for (int i = 0; i < m; ++i)
                    us(i, j) = u(i, j) * static_cast<double>(sv_[j]);
            mat vtk(k, n);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < k; ++i)
                    vtk(i, j) = vt(i, j);
            double er = maxdiff(mul(us, vtk), a) / na;
            cr_assert(ev <= tol<T>(m) && er <= tol<T>(m), "%sgesvd %dx%d %c%c: |V^H V - I| = %g, |U S V^H - A|/|A| = %g",
                      ty<T>::name, m, n, ju, jv, ev, er);
        }
    }
    if (ju == 'N') /* U untouched */
        for (T z : host(dU, static_cast<std::size_t>(ldu) * ucols))
            cr_assert(is_nan(to_c(z)), "%sgesvd jobu N wrote U", ty<T>::name);
    cudaFree(dA), cudaFree(dU), cudaFree(dVT), cudaFree(dS), cudaFree(work), cudaFree(info);
}

template <class T> static void svd_all()
{
    session s;
    const char jobs[][2] = {{'A', 'A'}, {'S', 'S'}, {'N', 'N'}, {'A', 'N'}, {'S', 'A'}};
    for (auto &j : jobs) {
        check_svd<T>(s.h, 17, 7, j[0], j[1]);
        check_svd<T>(s.h, 11, 11, j[0], j[1]);
        check_svd<T>(s.h, 5, 1, j[0], j[1]);
    }
}

Test(cusolver, gesvd_every_type_and_job)
{
    seed_once("gesvd");
    svd_all<float>();
    svd_all<double>();
    svd_all<cuComplex>();
    svd_all<cuDoubleComplex>();
}

/* ---- syevd / heevd ------------------------------------------------------- */

template <class T> static void check_eig(cusolverDnHandle_t h, int n, cublasFillMode_t uplo, cusolverEigMode_t jobz)
{
    using R = typename ty<T>::real;
    const int lda = n + 2;
    mat a = hermitian<T>(n, false);
    T *dA = dev(stored_triangle<T>(a, lda, uplo));
    R *dW = dev(std::vector<R>(n, static_cast<R>(nan_)));
    int lwork = 0, *info = dev_info();
    OK(sv<T>::evd_bs(h, jobz, uplo, n, dA, lda, dW, &lwork));
    T *work = dev_poisoned<T>(lwork);
    OK(sv<T>::evd(h, jobz, uplo, n, dA, lda, dW, work, lwork, info));
    cr_assert_eq(read_info(info), 0);
    std::vector<R> w = host(dW, n);
    double tr = 0, sum = 0, sum2 = 0;
    for (int i = 0; i < n; ++i) {
        cr_assert(!bad(w[i]) && (i == 0 || w[i] >= w[i - 1]), "%s eigenvalues not ascending at %d", ty<T>::name, i);
        tr += a(i, i).real(), sum += w[i], sum2 += static_cast<double>(w[i]) * w[i];
    }
    const double na = fro(a);
    cr_assert(std::fabs(tr - sum) <= tol<T>(n) * na && std::fabs(std::sqrt(sum2) - na) <= tol<T>(n) * na,
              "%s n=%d: sum of eigenvalues %g vs trace %g, sqrt(sum w^2) %g vs |A|_F %g", ty<T>::name, n, sum, tr,
              std::sqrt(sum2), na);
    if (jobz == CUSOLVER_EIG_MODE_VECTOR) {
        mat v = from_stored(host(dA, static_cast<std::size_t>(lda) * n), n, n, lda);
        mat av = mul(a, v), vl(n, n), eye(n, n);
        for (int j = 0; j < n; ++j) {
            eye(j, j) = 1;
            for (int i = 0; i < n; ++i)
                vl(i, j) = v(i, j) * static_cast<double>(w[j]);
        }
        double er = maxdiff(av, vl) / na, eo = maxdiff(mul(v, v, true, false), eye);
        cr_assert(er <= tol<T>(n) && eo <= tol<T>(n), "%s n=%d uplo=%d: |A V - V L|/|A| = %g, |V^H V - I| = %g",
                  ty<T>::name, n, uplo, er, eo);
    }
    cudaFree(dA), cudaFree(dW), cudaFree(work), cudaFree(info);
}

template <class T> static void eig_all()
{
    session s;
    for (int n : {1, 2, 8, 17, 31})
        for (cublasFillMode_t u : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
            for (cusolverEigMode_t j : {CUSOLVER_EIG_MODE_NOVECTOR, CUSOLVER_EIG_MODE_VECTOR})
                check_eig<T>(s.h, n, u, j);
}

Test(cusolver, syevd_heevd_every_type_fill_and_mode)
{
    seed_once("syevd");
    eig_all<float>();
    eig_all<double>();
    eig_all<cuComplex>();
    eig_all<cuDoubleComplex>();
}

static void expect_refusal_j(cusolverStatus_t got, const char *api, const char *arg)
{
    const char *d = simtlab_emu_last_diagnostic();
    cr_assert_eq(got, CUSOLVER_STATUS_INVALID_VALUE, "%s: status %d (%s)", api, got, d);
    cr_assert(d && std::strstr(d, api) && std::strstr(d, arg), "diagnostic '%s' should name %s and %s", d, api, arg);
}

/* ---- syevj / heevj (Jacobi) --------------------------------------------- */

template <class T> struct svj;
#define SVJ(P, T, R, NAME)                                                                                              \
    template <> struct svj<T> {                                                                                         \
        static cusolverStatus_t bs(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n, const T *A,   \
                                   int lda, const R *W, int *lw, syevjInfo_t p)                                         \
        {                                                                                                               \
            return cusolverDn##P##NAME##_bufferSize(h, j, u, n, A, lda, W, lw, p);                                      \
        }                                                                                                               \
        static cusolverStatus_t run(cusolverDnHandle_t h, cusolverEigMode_t j, cublasFillMode_t u, int n, T *A,        \
                                    int lda, R *W, T *w, int lw, int *info, syevjInfo_t p)                              \
        {                                                                                                               \
            return cusolverDn##P##NAME(h, j, u, n, A, lda, W, w, lw, info, p);                                          \
        }                                                                                                               \
    };
SVJ(S, float, float, syevj)
SVJ(D, double, double, syevj)
SVJ(C, cuComplex, float, heevj)
SVJ(Z, cuDoubleComplex, double, heevj)
#undef SVJ

/* Eigenpairs by Jacobi, checked as syevd's are; then the parameters: the
 * residual is the off-diagonal norm it stopped at (<= tolerance |A|_F),
 * one sweep is too few for n = 23 (devInfo = n + 1). */
template <class T> static void check_syevj(cusolverDnHandle_t h, int n, cublasFillMode_t uplo, int max_sweeps)
{
    using R = typename ty<T>::real;
    const int lda = n + 1;
    mat a = hermitian<T>(n, false);
    T *dA = dev(stored_triangle<T>(a, lda, uplo));
    R *dW = dev(std::vector<R>(n, static_cast<R>(nan_)));
    syevjInfo_t params;
    OK(cusolverDnCreateSyevjInfo(&params));
    OK(cusolverDnXsyevjSetMaxSweeps(params, max_sweeps));
    int lwork = 0, *info = dev_info();
    OK(svj<T>::bs(h, CUSOLVER_EIG_MODE_VECTOR, uplo, n, dA, lda, dW, &lwork, params));
    T *work = dev_poisoned<T>(lwork);
    OK(svj<T>::run(h, CUSOLVER_EIG_MODE_VECTOR, uplo, n, dA, lda, dW, work, lwork, info, params));
    double residual = -1;
    int sweeps = -1;
    OK(cusolverDnXsyevjGetResidual(h, params, &residual));
    OK(cusolverDnXsyevjGetSweeps(h, params, &sweeps));
    const double na = fro(a);
    if (max_sweeps == 1 && n > 2) {
        cr_assert_eq(read_info(info), n + 1, "%s Jacobi, one sweep, n=%d: devInfo %d", ty<T>::name, n, read_info(info));
        cr_assert(sweeps == 1 && residual > ty<T>::eps * na, "one sweep: sweeps %d residual %g", sweeps, residual);
    } else {
        cr_assert_eq(read_info(info), 0, "%s Jacobi n=%d: devInfo %d", ty<T>::name, n, read_info(info));
        cr_assert(residual >= 0 && residual <= ty<T>::eps * 1.01 * na && sweeps >= (n > 1 ? 1 : 0) && sweeps < 30,
                  "%s Jacobi n=%d: residual %g (|A| %g), sweeps %d", ty<T>::name, n, residual, na, sweeps);
        std::vector<R> w = host(dW, n);
        mat v = from_stored(host(dA, static_cast<std::size_t>(lda) * n), n, n, lda);
        mat vl(n, n), eye(n, n);
        double tr = 0, sum = 0;
        for (int j = 0; j < n; ++j) {
            cr_assert(!bad(w[j]) && (j == 0 || w[j] >= w[j - 1]), "%s Jacobi: not ascending at %d", ty<T>::name, j);
            tr += a(j, j).real(), sum += w[j];
            eye(j, j) = 1;
            for (int i = 0; i < n; ++i)
                vl(i, j) = v(i, j) * static_cast<double>(w[j]);
        }
        double er = maxdiff(mul(a, v), vl) / na, eo = maxdiff(mul(v, v, true, false), eye);
        cr_assert(er <= tol<T>(n) && eo <= tol<T>(n) && std::fabs(tr - sum) <= tol<T>(n) * na,
                  "%s Jacobi n=%d uplo=%d: |A V - V L|/|A| = %g, |V^H V - I| = %g, trace %g vs %g", ty<T>::name, n,
                  uplo, er, eo, tr, sum);
    }
    OK(cusolverDnDestroySyevjInfo(params));
    cudaFree(dA), cudaFree(dW), cudaFree(work), cudaFree(info);
}

template <class T> static void syevj_all()
{
    session s;
    for (int n : {1, 2, 9, 23})
        for (cublasFillMode_t u : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
            check_syevj<T>(s.h, n, u, 100);
    check_syevj<T>(s.h, 23, CUBLAS_FILL_MODE_LOWER, 1);
}

Test(cusolver, syevj_heevj_jacobi_every_type)
{
    seed_once("syevj");
    syevj_all<float>();
    syevj_all<double>();
    syevj_all<cuComplex>();
    syevj_all<cuDoubleComplex>();
    session s;
    syevjInfo_t params;
    OK(cusolverDnCreateSyevjInfo(&params));
    double *dA = dev(std::vector<double>(9, 1.0)), *dW = dev(std::vector<double>(3, 0.0));
    int *info = dev_info(), lw = 0;
    expect_refusal_j(cusolverDnXsyevjSetMaxSweeps(params, 0), "cusolverDnXsyevjSetMaxSweeps", "max_sweeps");
    expect_refusal_j(cusolverDnXsyevjSetTolerance(params, -1.0), "cusolverDnXsyevjSetTolerance", "tolerance");
    OK(cusolverDnDestroySyevjInfo(params));
    expect_refusal_j(cusolverDnDsyevj_bufferSize(s.h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 3, dA, 3, dW,
                                                 &lw, params),
                     "cusolverDnDsyevj_bufferSize", "params");
    expect_refusal_j(cusolverDnDsyevj(s.h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 3, dA, 3, dW, dA, 9, info,
                                      params),
                     "cusolverDnDsyevj", "params");
    cr_assert_eq(read_info(info), -10);
    cudaFree(dA), cudaFree(dW), cudaFree(info);
}

/* The tutorial's matrix [[0, -i], [i, 0]] (CUDA-Programming, chapter 14):
 * eigenvalues -1 and 1. */
Test(cusolver, zheevd_pauli_y)
{
    session s;
    std::vector<cuDoubleComplex> a = {make_cuDoubleComplex(0, 0), make_cuDoubleComplex(0, 1),
                                      make_cuDoubleComplex(0, -1), make_cuDoubleComplex(0, 0)};
    cuDoubleComplex *dA = dev(a);
    double *dW = dev(std::vector<double>(2, nan_));
    int lwork = 0, *info = dev_info();
    OK(cusolverDnZheevd_bufferSize(s.h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, 2, dA, 2, dW, &lwork));
    cuDoubleComplex *work = dev_poisoned<cuDoubleComplex>(lwork);
    OK(cusolverDnZheevd(s.h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, 2, dA, 2, dW, work, lwork, info));
    std::vector<double> w = host(dW, 2);
    cr_assert_eq(read_info(info), 0);
    cr_assert(std::fabs(w[0] + 1) < 1e-14 && std::fabs(w[1] - 1) < 1e-14, "eigenvalues %g %g", w[0], w[1]);
    cudaFree(dA), cudaFree(dW), cudaFree(work), cudaFree(info);
}

/* ---- refusals ------------------------------------------------------------ */

static void expect_refusal(cusolverStatus_t got, cusolverStatus_t want, const char *api, const char *arg,
                           const char *what)
{
    const char *d = simtlab_emu_last_diagnostic();
    cr_assert_eq(got, want, "%s: status %d, want %d (%s)", what, got, want, d);
    cr_assert(d && std::strstr(d, api) && std::strstr(d, arg), "%s: diagnostic '%s' should name %s and %s", what, d,
              api, arg);
}

Test(cusolver, bad_arguments_are_refused_with_status_devinfo_and_message)
{
    session s;
    const int n = 5;
    double *dA = dev(std::vector<double>(n * n, 1.0)), *work = dev(std::vector<double>(64, 0.0));
    double *dW = dev(std::vector<double>(n, 0.0));
    int *info = dev_info(), *ipiv = dev(std::vector<int>(n, 1));
    std::vector<double> hostA(n * n, 1.0);

    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, -1, dA, n, work, 64, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "n", "potrf n < 0");
    cr_assert_eq(read_info(info), -2);
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n - 1, work, 64, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "lda", "potrf lda < n");
    cr_assert_eq(read_info(info), -4);
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_FULL, n, dA, n, work, 64, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "uplo", "potrf uplo FULL");
    cr_assert_eq(read_info(info), -1);
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, 0, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "Lwork", "potrf Lwork 0");
    cr_assert_eq(read_info(info), -6);
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, hostA.data(), n, work, 64, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "A", "potrf host A");
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, 64, nullptr),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "devInfo", "potrf devInfo NULL");
    expect_refusal(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, 65, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrf", "Workspace", "potrf Lwork past the workspace");
    expect_refusal(cusolverDnDpotrf(nullptr, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, 64, info),
                   CUSOLVER_STATUS_NOT_INITIALIZED, "cusolverDnDpotrf", "handle", "potrf NULL handle");
    expect_refusal(cusolverDnDpotrs(s.h, CUBLAS_FILL_MODE_LOWER, n, -2, dA, n, dA, n, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDpotrs", "nrhs", "potrs nrhs < 0");
    cr_assert_eq(read_info(info), -3);
    expect_refusal(cusolverDnDgetrf(s.h, n, n, dA, n, nullptr, ipiv, info), CUSOLVER_STATUS_INVALID_VALUE,
                   "cusolverDnDgetrf", "Workspace", "getrf no workspace");
    expect_refusal(cusolverDnDgetrs(s.h, (cublasOperation_t)9, n, 1, dA, n, ipiv, dA, n, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDgetrs", "trans", "getrs bad trans");
    cr_assert_eq(read_info(info), -1);
    expect_refusal(cusolverDnDgetrs(s.h, CUBLAS_OP_N, n, 1, dA, n, ipiv, dA, n - 1, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDgetrs", "ldb", "getrs ldb < n");
    cr_assert_eq(read_info(info), -8);
    /* pivots that no getrf wrote: refused in devInfo, not a crash */
    std::vector<int> wild = {1, 2, 99, 4, 5};
    int *dwild = dev(wild);
    OK(cusolverDnDgetrs(s.h, CUBLAS_OP_N, n, 1, dA, n, dwild, dW, n, info));
    cr_assert_eq(read_info(info), -6);
    int lw = 0;
    expect_refusal(cusolverDnDgesvd_bufferSize(s.h, 3, 5, &lw), CUSOLVER_STATUS_INVALID_VALUE,
                   "cusolverDnDgesvd_bufferSize", "m", "gesvd m < n");
    expect_refusal(cusolverDnDgesvd(s.h, 'X', 'N', n, n, dA, n, dW, dA, n, dA, n, work, 64, nullptr, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDgesvd", "jobu", "gesvd jobu X");
    cr_assert_eq(read_info(info), -1);
    expect_refusal(cusolverDnDgesvd(s.h, 'N', 'N', 3, 5, dA, n, dW, dA, n, dA, n, work, 64, nullptr, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDgesvd", "m", "gesvd m < n");
    expect_refusal(cusolverDnDsyevd(s.h, (cusolverEigMode_t)7, CUBLAS_FILL_MODE_LOWER, n, dA, n, dW, work, 64, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDsyevd", "jobz", "syevd bad jobz");
    cr_assert_eq(read_info(info), -1);
    cr_assert_eq(cusolverDnDsyevd_bufferSize(s.h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, dA, n, dW, &lw),
                 CUSOLVER_STATUS_SUCCESS);
    expect_refusal(cusolverDnDsyevd(s.h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, dA, n, dW, work, lw - 1,
                                    info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnDsyevd", "Lwork", "syevd Lwork too small");
    expect_refusal(cusolverDnZunmqr(s.h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, n, n, nullptr, n, nullptr, nullptr, n,
                                    nullptr, 0, info),
                   CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnZunmqr", "trans", "unmqr OP_T");
    expect_refusal(cusolverDnDorgqr_bufferSize(s.h, 3, 5, 2, dA, 3, dA, &lw), CUSOLVER_STATUS_INVALID_VALUE,
                   "cusolverDnDorgqr_bufferSize", "n", "orgqr n > m");

    cusolverDnHandle_t dead = nullptr;
    OK(cusolverDnCreate(&dead));
    OK(cusolverDnDestroy(dead));
    expect_refusal(cusolverDnDgetrf_bufferSize(dead, n, n, dA, n, &lw), CUSOLVER_STATUS_NOT_INITIALIZED,
                   "cusolverDnDgetrf_bufferSize", "handle", "destroyed handle");
    cr_assert_eq(cusolverDnDestroy(dead), CUSOLVER_STATUS_NOT_INITIALIZED);
    cr_assert_eq(cusolverDnCreate(nullptr), CUSOLVER_STATUS_INVALID_VALUE);
    cudaFree(dA), cudaFree(work), cudaFree(dW), cudaFree(info), cudaFree(ipiv), cudaFree(dwild);
}

/* ---- streams and capture ----------------------------------------------- */

Test(cusolver, stream_and_graph_capture)
{
    seed_once("capture");
    session s;
    cudaStream_t st;
    cr_assert_eq(cudaStreamCreate(&st), cudaSuccess);
    cudaStream_t got = nullptr;
    OK(cusolverDnSetStream(s.h, st));
    OK(cusolverDnGetStream(s.h, &got));
    cr_assert_eq(got, st);
    cr_assert_eq(cusolverDnSetStream(s.h, reinterpret_cast<cudaStream_t>(0x1234)), CUSOLVER_STATUS_INVALID_VALUE);

    const int n = 9;
    mat a = hermitian<double>(n, true);
    std::vector<double> sa = to_stored<double>(a, n);
    double *dA = dev(sa);
    int lwork = 0, *info = dev_info();
    OK(cusolverDnDpotrf_bufferSize(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n, &lwork));
    double *work = dev_poisoned<double>(lwork);
    cr_assert_eq(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal), cudaSuccess);
    OK(cusolverDnDpotrf(s.h, CUBLAS_FILL_MODE_LOWER, n, dA, n, work, lwork, info));
    cudaGraph_t graph;
    cr_assert_eq(cudaStreamEndCapture(st, &graph), cudaSuccess);
    cr_assert_eq(read_info(info), 0x5eed, "captured potrf ran before the graph was launched");
    cr_assert(host(dA, sa.size()) == sa, "captured potrf changed A before the graph was launched");
    cudaGraphExec_t exec;
    cr_assert_eq(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    cr_assert_eq(cudaGraphLaunch(exec, st), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(st), cudaSuccess);
    cr_assert_eq(read_info(info), 0);
    std::vector<double> f = host(dA, sa.size());
    cr_assert(std::fabs(f[0] - std::sqrt(a(0, 0).real())) < 1e-12, "L(0,0) %g, want %g", f[0],
              std::sqrt(a(0, 0).real()));
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(st);
    cudaFree(dA), cudaFree(work), cudaFree(info);
}

/* ---- a student's program, built with slcc -lcusolver ---------------------- */
#ifdef CUSOLVER_PROGRAM
#include "slcc_program.hpp"

Test(cusolver, slcc_builds_a_student_style_cusolver_program, .timeout = 280)
{
    seed_once("slcc_program");
    check_slcc_program(SLCC_PATH, CUSOLVER_PROGRAM, "cusolver_program", (unsigned)(rng % 100000),
                       {"-lcusolver", "-lcublas"});

    /* the sparse and refactorization APIs stay blocked, with their name */
    char dir[] = "/tmp/test_emu_cusolver.XXXXXX";
    cr_assert_not_null(mkdtemp(dir), "mkdtemp");
    std::string log;
    const std::string src = std::string(dir) + "/sp.cu", obj = std::string(dir) + "/sp.o";
    FILE *f = std::fopen(src.c_str(), "w");
    cr_assert_not_null(f);
    std::fputs("#include <cusolverSp.h>\nint main() { return 0; }\n", f);
    std::fclose(f);
    int rc = run_capturing({SLCC_PATH, "-c", src, "-o", obj}, &log);
    unlink(src.c_str());
    unlink(obj.c_str());
    rmdir(dir);
    cr_expect_neq(rc, 0, "<cusolverSp.h> compiled:\n%s", log.c_str());
    cr_expect(log.find("<cusolverSp.h> is not provided") != std::string::npos, "no guard message:\n%s", log.c_str());
}
#endif
