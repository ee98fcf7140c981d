/* simtlab CPU emulator — cuSOLVER's QR calls (cusolverDn.h) for S, D, C and
 * Z on LAPACK: geqrf, orgqr/ungqr, ormqr/unmqr and their _bufferSize
 * calls. What every call does is in cusolver_internal.hpp. */
#include "libs/cusolver/internal.hpp"

namespace simtlab_emu {
namespace solver {
namespace {

/* ---- geqrf, orgqr/ungqr, ormqr/unmqr ----------------------------------- */

template <class T>
int geqrf_need(int m, int n, int lda)
{
    return lapack_lwork<T>([&](T *w, int *info) {
        T a{}, tau{};
        int minus = -1;
        (void)lda;
        lp<T>::geqrf(m, n, &a, std::max(1, m), &tau, w, minus, info);
    });
}

template <class T>
cusolverStatus_t geqrf_size(const char *api, cusolverDnHandle_t h, int m, int n, int lda, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.size(1, "m", m)) || (st = c.size(2, "n", n)) ||
        (st = c.ld(4, "lda", lda, m)) || (st = c.out(lwork, "lwork")))
        return st;
    *lwork = geqrf_need<T>(m, n, lda);
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t geqrf(const char *api, cusolverDnHandle_t h, int m, int n, T *A, int lda, T *tau, T *work,
                       int lwork, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(8)) || (st = c.size(1, "m", m)) ||
        (st = c.size(2, "n", n)) || (st = c.ld(4, "lda", lda, m)) ||
        (st = c.device(3, A, extent(m, n, lda), sizeof(T), "A")) ||
        (st = c.device(5, tau, static_cast<std::size_t>(std::min(m, n)), sizeof(T), "TAU")) ||
        (st = c.workspace(6, 7, work, lwork, geqrf_need<T>(m, n, lda), sizeof(T))))
        return st;
    return run_in_stream(h, [=] {
        int i = 0;
        if (m > 0 && n > 0) {
            std::vector<T> w(static_cast<std::size_t>(geqrf_need<T>(m, n, lda)));
            staged<T> a(A, extent(m, n, lda)), t(tau, static_cast<std::size_t>(std::min(m, n)));
            lp<T>::geqrf(m, n, a.data(), lda, t.data(), w.data(), static_cast<int>(w.size()), &i);
            a.back(), t.back();
        }
        *info = i;
    });
}

template <class T>
int orgqr_need(int m, int n, int k)
{
    return lapack_lwork<T>([&](T *w, int *info) {
        T a{}, tau{};
        lp<T>::orgqr(m, n, k, &a, std::max(1, m), &tau, w, -1, info);
    });
}

/* m >= n >= k >= 0, lda >= max(1, m) */
template <class T>
cusolverStatus_t orgqr_check(const call &c, int m, int n, int k, int lda)
{
    cusolverStatus_t st;
    if ((st = c.size(1, "m", m)) || (st = c.size(2, "n", n)) || (st = c.size(3, "k", k)))
        return st;
    if (n > m)
        return c.bad(2, "n %d is greater than m %d (Q is m x n with orthonormal columns)", n, m);
    if (k > n)
        return c.bad(3, "k %d is greater than n %d", k, n);
    return c.ld(5, "lda", lda, m);
}

template <class T>
cusolverStatus_t orgqr_size(const char *api, cusolverDnHandle_t h, int m, int n, int k, int lda, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = orgqr_check<T>(c, m, n, k, lda)) || (st = c.out(lwork, "lwork")))
        return st;
    *lwork = orgqr_need<T>(m, n, k);
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t orgqr(const char *api, cusolverDnHandle_t h, int m, int n, int k, T *A, int lda, const T *tau,
                       T *work, int lwork, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(9)) || (st = orgqr_check<T>(c, m, n, k, lda)) ||
        (st = c.device(4, A, extent(m, n, lda), sizeof(T), "A")) ||
        (st = c.device(6, tau, static_cast<std::size_t>(k), sizeof(T), "tau")) ||
        (st = c.workspace(7, 8, work, lwork, orgqr_need<T>(m, n, k), sizeof(T))))
        return st;
    return run_in_stream(h, [=] {
        int i = 0;
        if (n > 0) {
            std::vector<T> w(static_cast<std::size_t>(orgqr_need<T>(m, n, k)));
            staged<T> a(A, extent(m, n, lda)), t(tau, static_cast<std::size_t>(k));
            lp<T>::orgqr(m, n, k, a.data(), lda, t.data(), w.data(), static_cast<int>(w.size()), &i);
            a.back();
        }
        *info = i;
    });
}

template <class T>
int ormqr_need(char s, char t, int m, int n, int k)
{
    return lapack_lwork<T>([&](T *w, int *info) {
        T a{}, tau{}, cc{};
        const int rows = s == 'L' ? m : n;
        lp<T>::ormqr(s, t, m, n, k, &a, std::max(1, rows), &tau, &cc, std::max(1, m), w, -1, info);
    });
}

template <class T>
cusolverStatus_t ormqr_check(const call &c, cublasSideMode_t side, cublasOperation_t trans, int m, int n, int k,
                             int lda, int ldc, char *s, char *t)
{
    cusolverStatus_t st;
    if (side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT)
        return c.bad(1, "side %d is not CUBLAS_SIDE_LEFT or CUBLAS_SIDE_RIGHT", static_cast<int>(side));
    if (lp<T>::complex ? (trans != CUBLAS_OP_N && trans != CUBLAS_OP_C)
                       : (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C))
        return c.bad(2, "trans %d is not %s", static_cast<int>(trans),
                     lp<T>::complex ? "CUBLAS_OP_N or CUBLAS_OP_C" : "CUBLAS_OP_N or CUBLAS_OP_T");
    if ((st = c.size(3, "m", m)) || (st = c.size(4, "n", n)) || (st = c.size(5, "k", k)))
        return st;
    const int order = side == CUBLAS_SIDE_LEFT ? m : n;
    if (k > order)
        return c.bad(5, "k %d is greater than the order %d of Q (%s)", k, order, side == CUBLAS_SIDE_LEFT ? "m" : "n");
    if ((st = c.ld(7, "lda", lda, order)) || (st = c.ld(10, "ldc", ldc, m)))
        return st;
    *s = side == CUBLAS_SIDE_LEFT ? 'L' : 'R';
    *t = trans == CUBLAS_OP_N ? 'N' : lp<T>::complex ? 'C' : 'T';
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t ormqr_size(const char *api, cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans,
                            int m, int n, int k, int lda, int ldc, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    char s, t;
    if ((st = check_handle(h, api)) || (st = ormqr_check<T>(c, side, trans, m, n, k, lda, ldc, &s, &t)) ||
        (st = c.out(lwork, "lwork")))
        return st;
    *lwork = ormqr_need<T>(s, t, m, n, k);
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t ormqr(const char *api, cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans, int m,
                       int n, int k, const T *A, int lda, const T *tau, T *C, int ldc, T *work, int lwork, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    char s, t;
    if ((st = check_handle(h, api)) || (st = c.dev_info(13)) ||
        (st = ormqr_check<T>(c, side, trans, m, n, k, lda, ldc, &s, &t)) ||
        (st = c.device(6, A, extent(s == 'L' ? m : n, k, lda), sizeof(T), "A")) ||
        (st = c.device(8, tau, static_cast<std::size_t>(k), sizeof(T), "tau")) ||
        (st = c.device(9, C, extent(m, n, ldc), sizeof(T), "C")) ||
        (st = c.workspace(11, 12, work, lwork, ormqr_need<T>(s, t, m, n, k), sizeof(T))))
        return st;
    return run_in_stream(h, [=] {
        int i = 0;
        if (m > 0 && n > 0 && k > 0) {
            std::vector<T> w(static_cast<std::size_t>(ormqr_need<T>(s, t, m, n, k)));
            staged<T> a(A, extent(s == 'L' ? m : n, k, lda)), tt(tau, static_cast<std::size_t>(k)),
                cc(C, extent(m, n, ldc));
            lp<T>::ormqr(s, t, m, n, k, a.data(), lda, tt.data(), cc.data(), ldc, w.data(), static_cast<int>(w.size()),
                         &i);
            cc.back();
        }
        *info = i;
    });
}

} /* namespace */
} /* namespace solver */
} /* namespace simtlab_emu */

using namespace simtlab_emu::solver;

extern "C" {

#define SL_CUSOLVER_QR(P, T, ORGQR, ORMQR)                                                                              \
    cusolverStatus_t cusolverDn##P##geqrf_bufferSize(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *lwork)    \
    {                                                                                                                   \
        (void)A;                                                                                                        \
        return geqrf_size<T>("cusolverDn" #P "geqrf_bufferSize", h, m, n, lda, lwork);                                  \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##geqrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *TAU, T *Workspace,      \
                                          int Lwork, int *devInfo)                                                      \
    {                                                                                                                   \
        return geqrf<T>("cusolverDn" #P "geqrf", h, m, n, A, lda, TAU, Workspace, Lwork, devInfo);                      \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##ORGQR##_bufferSize(cusolverDnHandle_t h, int m, int n, int k, const T *A, int lda,  \
                                                       const T *tau, int *lwork)                                        \
    {                                                                                                                   \
        (void)A, (void)tau;                                                                                             \
        return orgqr_size<T>("cusolverDn" #P #ORGQR "_bufferSize", h, m, n, k, lda, lwork);                             \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##ORGQR(cusolverDnHandle_t h, int m, int n, int k, T *A, int lda, const T *tau,       \
                                          T *work, int lwork, int *info)                                                \
    {                                                                                                                   \
        return orgqr<T>("cusolverDn" #P #ORGQR, h, m, n, k, A, lda, tau, work, lwork, info);                            \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##ORMQR##_bufferSize(cusolverDnHandle_t h, cublasSideMode_t side,                     \
                                                       cublasOperation_t trans, int m, int n, int k, const T *A,        \
                                                       int lda, const T *tau, const T *C, int ldc, int *lwork)          \
    {                                                                                                                   \
        (void)A, (void)tau, (void)C;                                                                                    \
        return ormqr_size<T>("cusolverDn" #P #ORMQR "_bufferSize", h, side, trans, m, n, k, lda, ldc, lwork);           \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##ORMQR(cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans, int m,  \
                                          int n, int k, const T *A, int lda, const T *tau, T *C, int ldc, T *work,      \
                                          int lwork, int *devInfo)                                                      \
    {                                                                                                                   \
        return ormqr<T>("cusolverDn" #P #ORMQR, h, side, trans, m, n, k, A, lda, tau, C, ldc, work, lwork, devInfo);    \
    }

SL_CUSOLVER_QR(S, float, orgqr, ormqr)
SL_CUSOLVER_QR(D, double, orgqr, ormqr)
SL_CUSOLVER_QR(C, cuComplex, ungqr, unmqr)
SL_CUSOLVER_QR(Z, cuDoubleComplex, ungqr, unmqr)
#undef SL_CUSOLVER_QR

} /* extern "C" */
