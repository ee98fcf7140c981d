/* simtlab CPU emulator — cuSOLVER's Jacobi eigenvalue solver (cusolverDn.h):
 * syevj/heevj for S, D, C and Z, their _bufferSize calls, and the
 * syevjInfo_t parameters (tolerance, maximum sweeps; the residual and
 * sweeps of the last run).
 *
 * The method is the cyclic Jacobi method: each sweep visits every pair
 * (p, q) above the diagonal and applies the plane rotation that zeroes
 * A(p, q) (for a complex A, after a phase that makes A(p, q) real), to A
 * from both sides and to V from the right. It stops when the Frobenius norm
 * of the off-diagonal part is at most tolerance * |A|_F, or after
 * max_sweeps sweeps (devInfo = n + 1). The rotations are computed in a
 * wider type (float in double, double in long double), so that the
 * default tolerance, the element type's machine epsilon, is reached rather
 * than stalled at by rounding; W and V are then rounded to the element
 * type. Eigenvalues come out ascending, V's columns in the same order.
 */
#include "libs/cusolver/internal.hpp"

#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

struct syevjInfo {
    double tolerance; /* 0: the element type's machine epsilon */
    int max_sweeps;
    int sort_eig; /* recorded only: syevj always sorts */
    double residual;
    int sweeps;
};

namespace simtlab_emu {
namespace solver {
namespace {

libs::handle_registry<syevjInfo_t> live_params;

bool live_param(syevjInfo_t p) { return live_params.is_live(p); }

cusolverStatus_t check_params(syevjInfo_t p, const char *api)
{
    if (!live_param(p))
        return fail(CUSOLVER_STATUS_INVALID_VALUE,
                    "%s: params 0x%" PRIxPTR " is not a live syevjInfo_t (call cusolverDnCreateSyevjInfo first)", api,
                    reinterpret_cast<std::uintptr_t>(p));
    return CUSOLVER_STATUS_SUCCESS;
}

/* The wider type the rotations are computed in, real and element. */
template <class R>
struct wider;
template <>
struct wider<float> {
    using type = double;
};
template <>
struct wider<double> {
    using type = long double;
};

template <class X>
X conj_of(X x)
{
    return x;
}
template <class X>
std::complex<X> conj_of(std::complex<X> x)
{
    return std::conj(x);
}

/* What one run did. */
struct jacobi_run {
    int sweeps;
    double off;
    bool converged;
};

/* The cyclic Jacobi method on the full Hermitian n x n matrix a (ld n),
 * accumulating the rotations into v (ld n, the identity on entry) unless
 * v is null. On return a is (nearly) diagonal. */
template <class W, class E>
jacobi_run cyclic_jacobi(int n, E *a, E *v, double tol, int max_sweeps)
{
    const std::size_t ld = static_cast<std::size_t>(n);
    auto at = [&](int i, int j) -> E & { return a[static_cast<std::size_t>(j) * ld + i]; };
    auto off_norm = [&] {
        long double s = 0;
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                if (i != j)
                    s += static_cast<long double>(std::norm(at(i, j)));
        return static_cast<double>(std::sqrt(s));
    };
    long double total = 0;
    for (const E *x = a; x != a + ld * ld; ++x)
        total += static_cast<long double>(std::norm(*x));
    const double bound = tol * static_cast<double>(std::sqrt(total));
    jacobi_run r{0, off_norm(), false};
    while (r.off > bound && r.sweeps < max_sweeps) {
        for (int p = 0; p < n - 1; ++p)
            for (int q = p + 1; q < n; ++q) {
                const E apq = at(p, q);
                const W g = std::abs(apq);
                if (g == 0)
                    continue;
                const W app = std::real(at(p, p)), aqq = std::real(at(q, q));
                const W theta = (aqq - app) / (2 * g);
                const W t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::hypot(W(1), theta));
                const W c = 1 / std::hypot(W(1), t), s = t * c;
                const E e = apq / g; /* the phase of A(p, q): +-1 when real */
                for (int k = 0; k < n; ++k) { /* A J */
                    const E akp = at(k, p), akq = at(k, q);
                    at(k, p) = c * akp - s * conj_of(e) * akq;
                    at(k, q) = s * e * akp + c * akq;
                }
                for (int k = 0; k < n; ++k) { /* J^H (A J) */
                    const E apk = at(p, k), aqk = at(q, k);
                    at(p, k) = c * apk - s * e * aqk;
                    at(q, k) = s * conj_of(e) * apk + c * aqk;
                }
                at(p, q) = at(q, p) = E(0);
                at(p, p) = E(std::real(at(p, p))), at(q, q) = E(std::real(at(q, q)));
                if (v)
                    for (int k = 0; k < n; ++k) { /* V J */
                        E &vkp = v[static_cast<std::size_t>(p) * ld + k], &vkq = v[static_cast<std::size_t>(q) * ld + k];
                        const E x = vkp, y = vkq;
                        vkp = c * x - s * conj_of(e) * y;
                        vkq = s * e * x + c * y;
                    }
            }
        ++r.sweeps;
        r.off = off_norm();
    }
    r.converged = r.off <= bound;
    return r;
}

template <class T>
T to_elem(double re, double im);
template <>
float to_elem<float>(double re, double)
{
    return static_cast<float>(re);
}
template <>
double to_elem<double>(double re, double)
{
    return re;
}
template <>
cuComplex to_elem<cuComplex>(double re, double im)
{
    return make_cuFloatComplex(static_cast<float>(re), static_cast<float>(im));
}
template <>
cuDoubleComplex to_elem<cuDoubleComplex>(double re, double im)
{
    return make_cuDoubleComplex(re, im);
}

/* One syevj on host copies: A (lda) in, W and, for jobz 'V', V in A out. */
template <class T>
int syevj_host(bool vectors, bool lower, int n, T *A, int lda, typename lp<T>::real *Wout, syevjInfo_t params)
{
    using R = typename lp<T>::real;
    using Wd = typename wider<R>::type;
    using E = typename std::conditional<lp<T>::complex, std::complex<Wd>, Wd>::type;
    using C = typename lp<T>::arith;
    const std::size_t ld = static_cast<std::size_t>(n);
    std::vector<E> a(ld * ld), v(vectors ? ld * ld : 0);
    const C *in = reinterpret_cast<const C *>(A);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const bool stored = lower ? i >= j : i <= j;
            const C x = stored ? in[static_cast<std::size_t>(j) * lda + i] : in[static_cast<std::size_t>(i) * lda + j];
            E y = E(std::real(x));
            if (lp<T>::complex && i != j)
                y = stored ? E(x) : conj_of(E(x));
            a[static_cast<std::size_t>(j) * ld + i] = y;
        }
    for (int i = 0; i < n && vectors; ++i)
        v[static_cast<std::size_t>(i) * ld + i] = E(1);
    const double eps = std::numeric_limits<R>::epsilon();
    const double tol = std::max(params->tolerance, eps);
    const jacobi_run r = cyclic_jacobi<Wd>(n, a.data(), vectors ? v.data() : nullptr, tol, params->max_sweeps);
    params->residual = r.off;
    params->sweeps = r.sweeps;

    std::vector<int> order(ld);
    std::iota(order.begin(), order.end(), 0);
    auto diag = [&](int i) { return std::real(a[static_cast<std::size_t>(i) * ld + i]); };
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return diag(x) < diag(y); });
    for (int i = 0; i < n; ++i)
        Wout[i] = static_cast<R>(diag(order[static_cast<std::size_t>(i)]));
    if (vectors)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                const E x = v[static_cast<std::size_t>(order[static_cast<std::size_t>(j)]) * ld + i];
                A[static_cast<std::size_t>(j) * lda + i] =
                    to_elem<T>(static_cast<double>(std::real(x)), static_cast<double>(std::imag(x)));
            }
    return r.converged ? 0 : n + 1;
}

template <class T>
cusolverStatus_t syevj_check(const call &c, cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                             int n, int lda, syevjInfo_t params, int params_pos)
{
    cusolverStatus_t st;
    if ((st = check_handle(h, c.api)))
        return st;
    if (jobz != CUSOLVER_EIG_MODE_NOVECTOR && jobz != CUSOLVER_EIG_MODE_VECTOR)
        return c.bad(1, "jobz %d is not CUSOLVER_EIG_MODE_NOVECTOR or CUSOLVER_EIG_MODE_VECTOR",
                     static_cast<int>(jobz));
    if ((st = c.fill(2, uplo)) || (st = c.size(3, "n", n)) || (st = c.ld(5, "lda", lda, n)))
        return st;
    if (!live_param(params))
        return c.bad(params_pos, "params 0x%" PRIxPTR " is not a live syevjInfo_t (call cusolverDnCreateSyevjInfo first)",
                     reinterpret_cast<std::uintptr_t>(params));
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t syevj_size(const char *api, cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                            int n, int lda, int *lwork, syevjInfo_t params)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = syevj_check<T>(c, h, jobz, uplo, n, lda, params, 8)) || (st = c.out(lwork, "lwork")))
        return st;
    *lwork = 1; /* the emulator works in memory of its own */
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t syevj(const char *api, cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                       T *A, int lda, typename lp<T>::real *W, T *work, int lwork, int *info, syevjInfo_t params)
{
    using R = typename lp<T>::real;
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(9)) ||
        (st = syevj_check<T>(c, h, jobz, uplo, n, lda, params, 10)) ||
        (st = c.device(4, A, extent(n, n, lda), sizeof(T), "A")) ||
        (st = c.device(6, W, static_cast<std::size_t>(n), sizeof(R), "W")) ||
        (st = c.workspace(7, 8, work, lwork, 1, sizeof(T))))
        return st;
    const bool vectors = jobz == CUSOLVER_EIG_MODE_VECTOR, lower = uplo == CUBLAS_FILL_MODE_LOWER;
    return run_in_stream(h, [=] {
        int i = 0;
        params->residual = 0, params->sweeps = 0;
        if (n > 0) {
            staged<T> a(A, extent(n, n, lda));
            staged<R> w(W, static_cast<std::size_t>(n));
            i = syevj_host<T>(vectors, lower, n, a.data(), lda, w.data(), params);
            a.back(), w.back();
        }
        *info = i;
    });
}

} /* namespace */
} /* namespace solver */
} /* namespace simtlab_emu */

using namespace simtlab_emu::solver;

extern "C" {

cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t *info)
{
    if (!info)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnCreateSyevjInfo: info is NULL");
    syevjInfo_t p = new (std::nothrow) syevjInfo{0.0, 100, 1, 0.0, 0};
    if (!p)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    if (!live_params.add(p)) {
        delete p;
        return CUSOLVER_STATUS_ALLOC_FAILED;
    }
    *info = p;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info)
{
    if (!live_params.remove(info))
        return fail(CUSOLVER_STATUS_INVALID_VALUE,
                    "cusolverDnDestroySyevjInfo: info 0x%" PRIxPTR " is not a live syevjInfo_t",
                    reinterpret_cast<std::uintptr_t>(info));
    delete info;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance)
{
    if (cusolverStatus_t st = check_params(info, "cusolverDnXsyevjSetTolerance"))
        return st;
    if (!(tolerance >= 0))
        return fail(CUSOLVER_STATUS_INVALID_VALUE,
                    "cusolverDnXsyevjSetTolerance: tolerance %g must be >= 0 (0: machine epsilon)", tolerance);
    info->tolerance = tolerance;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps)
{
    if (cusolverStatus_t st = check_params(info, "cusolverDnXsyevjSetMaxSweeps"))
        return st;
    if (max_sweeps < 1)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnXsyevjSetMaxSweeps: max_sweeps %d must be >= 1",
                    max_sweeps);
    info->max_sweeps = max_sweeps;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig)
{
    if (cusolverStatus_t st = check_params(info, "cusolverDnXsyevjSetSortEig"))
        return st;
    info->sort_eig = sort_eig;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevjGetResidual(cusolverDnHandle_t handle, syevjInfo_t info, double *residual)
{
    cusolverStatus_t st;
    if ((st = check_handle(handle, "cusolverDnXsyevjGetResidual")) ||
        (st = check_params(info, "cusolverDnXsyevjGetResidual")))
        return st;
    if (!residual)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnXsyevjGetResidual: residual is NULL");
    *residual = info->residual;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnXsyevjGetSweeps(cusolverDnHandle_t handle, syevjInfo_t info, int *executed_sweeps)
{
    cusolverStatus_t st;
    if ((st = check_handle(handle, "cusolverDnXsyevjGetSweeps")) ||
        (st = check_params(info, "cusolverDnXsyevjGetSweeps")))
        return st;
    if (!executed_sweeps)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnXsyevjGetSweeps: executed_sweeps is NULL");
    *executed_sweeps = info->sweeps;
    return CUSOLVER_STATUS_SUCCESS;
}

#define SL_CUSOLVER_SYEVJ(P, T, R, NAME)                                                                                \
    cusolverStatus_t cusolverDn##P##NAME##_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz,                     \
                                                      cublasFillMode_t uplo, int n, const T *A, int lda, const R *W,    \
                                                      int *lwork, syevjInfo_t params)                                   \
    {                                                                                                                   \
        (void)A, (void)W;                                                                                               \
        return syevj_size<T>("cusolverDn" #P #NAME "_bufferSize", h, jobz, uplo, n, lda, lwork, params);               \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##NAME(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,    \
                                         T *A, int lda, R *W, T *work, int lwork, int *info, syevjInfo_t params)        \
    {                                                                                                                   \
        return syevj<T>("cusolverDn" #P #NAME, h, jobz, uplo, n, A, lda, W, work, lwork, info, params);                 \
    }

SL_CUSOLVER_SYEVJ(S, float, float, syevj)
SL_CUSOLVER_SYEVJ(D, double, double, syevj)
SL_CUSOLVER_SYEVJ(C, cuComplex, float, heevj)
SL_CUSOLVER_SYEVJ(Z, cuDoubleComplex, double, heevj)
#undef SL_CUSOLVER_SYEVJ

} /* extern "C" */
