/* simtlab CPU emulator — cuSOLVER's SVD and symmetric/Hermitian eigenvalue
 * calls (cusolverDn.h) for S, D, C and Z on LAPACK: gesvd, syevd/heevd and
 * their _bufferSize calls. What every call does is in cusolver_internal.hpp. */
#include "libs/cusolver/internal.hpp"

namespace simtlab_emu {
namespace solver {
namespace {

/* ---- gesvd ------------------------------------------------------------- */

template <class T>
int gesvd_need(int m, int n)
{
    using R = typename lp<T>::real;
    return lapack_lwork<T>([&](T *w, int *info) {
        T a{}, u{}, vt{};
        R s{};
        lp<T>::gesvd('A', 'A', m, n, &a, std::max(1, m), &s, &u, std::max(1, m), &vt, std::max(1, n), w, -1, nullptr,
                     info);
    });
}

template <class T>
cusolverStatus_t gesvd_size(const char *api, cusolverDnHandle_t h, int m, int n, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.size(1, "m", m)) || (st = c.size(2, "n", n)) ||
        (st = c.out(lwork, "lwork")))
        return st;
    if (m < n)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "%s: m %d is less than n %d: cuSOLVER's gesvd needs m >= n "
                    "(factor the transpose)", api, m, n);
    *lwork = gesvd_need<T>(m, n);
    return CUSOLVER_STATUS_SUCCESS;
}

bool valid_job(signed char j)
{
    return j == 'A' || j == 'S' || j == 'O' || j == 'N';
}

template <class T>
cusolverStatus_t gesvd(const char *api, cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n,
                       T *A, int lda, typename lp<T>::real *S, T *U, int ldu, T *VT, int ldvt, T *work, int lwork,
                       typename lp<T>::real *rwork, int *info)
{
    using R = typename lp<T>::real;
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(15)))
        return st;
    if (!valid_job(jobu))
        return c.bad(1, "jobu '%c' (%d) is not 'A', 'S', 'O' or 'N'", jobu >= 32 ? jobu : '?', jobu);
    if (!valid_job(jobvt))
        return c.bad(2, "jobvt '%c' (%d) is not 'A', 'S', 'O' or 'N'", jobvt >= 32 ? jobvt : '?', jobvt);
    if (jobu == 'O' && jobvt == 'O')
        return c.bad(2, "jobu and jobvt cannot both be 'O'");
    if ((st = c.size(3, "m", m)) || (st = c.size(4, "n", n)))
        return st;
    if (m < n)
        return c.bad(3, "m %d is less than n %d: cuSOLVER's gesvd needs m >= n (factor the transpose)", m, n);
    const int mn = n; /* min(m, n) */
    if ((st = c.ld(6, "lda", lda, m)))
        return st;
    const bool want_u = jobu == 'A' || jobu == 'S', want_vt = jobvt == 'A' || jobvt == 'S';
    if (want_u && (st = c.ld(9, "ldu", ldu, m)))
        return st;
    if (want_vt && (st = c.ld(11, "ldvt", ldvt, jobvt == 'A' ? n : mn)))
        return st;
    const int ucols = jobu == 'A' ? m : mn, vtrows = jobvt == 'A' ? n : mn;
    const int need = gesvd_need<T>(m, n);
    if ((st = c.device(5, A, extent(m, n, lda), sizeof(T), "A")) ||
        (st = c.device(7, S, static_cast<std::size_t>(mn), sizeof(R), "S")) ||
        (want_u && (st = c.device(8, U, extent(m, ucols, ldu), sizeof(T), "U"))) ||
        (want_vt && (st = c.device(10, VT, extent(vtrows, n, ldvt), sizeof(T), "VT"))) ||
        (st = c.workspace(12, 13, work, lwork, need, sizeof(T))) ||
        (rwork && (st = c.device(14, rwork, static_cast<std::size_t>(std::max(0, mn - 1)), sizeof(R), "rwork"))))
        return st;
    /* LAPACK references U and VT (with their leading dimensions) even
     * when it does not write them: give it dummies. */
    const char ju = static_cast<char>(jobu), jv = static_cast<char>(jobvt);
    return run_in_stream(h, [=] {
        int i = 0;
        if (m > 0 && n > 0) {
            std::vector<T> w(static_cast<std::size_t>(need));
            staged<T> a(A, extent(m, n, lda)), u(want_u ? U : nullptr, want_u ? extent(m, ucols, ldu) : 0),
                vt(want_vt ? VT : nullptr, want_vt ? extent(vtrows, n, ldvt) : 0);
            staged<R> s(S, static_cast<std::size_t>(mn)), rw(rwork, rwork ? static_cast<std::size_t>(mn - 1) : 0);
            lp<T>::gesvd(ju, jv, m, n, a.data(), lda, s.data(), u.data(), want_u ? ldu : 1, vt.data(),
                         want_vt ? ldvt : 1, w.data(), need, rwork ? rw.data() : nullptr, &i);
            a.back(), u.back(), vt.back(), s.back(), rw.back();
        }
        *info = i;
    });
}

/* ---- syevd / heevd ------------------------------------------------------ */

template <class T>
int eigen_need(char jz, char u, int n)
{
    int lw, lr, li;
    lp<T>::eigen_query(jz, u, n, &lw, &lr, &li);
    return std::max(1, lw);
}

template <class T>
cusolverStatus_t eigen_check(const call &c, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, int lda, char *jz,
                             char *u)
{
    cusolverStatus_t st;
    if (jobz != CUSOLVER_EIG_MODE_NOVECTOR && jobz != CUSOLVER_EIG_MODE_VECTOR)
        return c.bad(1, "jobz %d is not CUSOLVER_EIG_MODE_NOVECTOR or CUSOLVER_EIG_MODE_VECTOR",
                     static_cast<int>(jobz));
    if ((st = c.fill(2, uplo)) || (st = c.size(3, "n", n)) || (st = c.ld(5, "lda", lda, n)))
        return st;
    *jz = jobz == CUSOLVER_EIG_MODE_VECTOR ? 'V' : 'N';
    *u = uplo == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U';
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t eigen_size(const char *api, cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                            int n, int lda, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    char jz, u;
    if ((st = check_handle(h, api)) || (st = eigen_check<T>(c, jobz, uplo, n, lda, &jz, &u)) ||
        (st = c.out(lwork, "lwork")))
        return st;
    *lwork = eigen_need<T>(jz, u, n);
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t eigen(const char *api, cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                       T *A, int lda, typename lp<T>::real *W, T *work, int lwork, int *info)
{
    using R = typename lp<T>::real;
    call c{api, info};
    cusolverStatus_t st;
    char jz, u;
    if ((st = check_handle(h, api)) || (st = c.dev_info(9)) || (st = eigen_check<T>(c, jobz, uplo, n, lda, &jz, &u)) ||
        (st = c.device(4, A, extent(n, n, lda), sizeof(T), "A")) ||
        (st = c.device(6, W, static_cast<std::size_t>(n), sizeof(R), "W")) ||
        (st = c.workspace(7, 8, work, lwork, eigen_need<T>(jz, u, n), sizeof(T))))
        return st;
    return run_in_stream(h, [=] {
        int i = 0;
        if (n > 0) {
            int lw, lr, li;
            lp<T>::eigen_query(jz, u, n, &lw, &lr, &li);
            std::vector<T> w(static_cast<std::size_t>(std::max(1, lw)));
            std::vector<R> rw(static_cast<std::size_t>(std::max(1, lr)));
            std::vector<int> iw(static_cast<std::size_t>(std::max(1, li)));
            staged<T> a(A, extent(n, n, lda));
            staged<R> ev(W, static_cast<std::size_t>(n));
            lp<T>::eigen(jz, u, n, a.data(), lda, ev.data(), w, rw, iw, &i);
            a.back(), ev.back();
        }
        *info = i;
    });
}

} /* namespace */
} /* namespace solver */
} /* namespace simtlab_emu */

using namespace simtlab_emu::solver;

extern "C" {

#define SL_CUSOLVER_SVD_EIGEN(P, T, R, EVD)                                                                             \
    cusolverStatus_t cusolverDn##P##gesvd_bufferSize(cusolverDnHandle_t h, int m, int n, int *lwork)                   \
    {                                                                                                                   \
        return gesvd_size<T>("cusolverDn" #P "gesvd_bufferSize", h, m, n, lwork);                                       \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##gesvd(cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n,      \
                                          T *A, int lda, R *S, T *U, int ldu, T *VT, int ldvt, T *work, int lwork,      \
                                          R *rwork, int *info)                                                          \
    {                                                                                                                   \
        return gesvd<T>("cusolverDn" #P "gesvd", h, jobu, jobvt, m, n, A, lda, S, U, ldu, VT, ldvt, work, lwork,        \
                        rwork, info);                                                                                   \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##EVD##_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz,                      \
                                                     cublasFillMode_t uplo, int n, const T *A, int lda, const R *W,     \
                                                     int *lwork)                                                        \
    {                                                                                                                   \
        (void)A, (void)W;                                                                                               \
        return eigen_size<T>("cusolverDn" #P #EVD "_bufferSize", h, jobz, uplo, n, lda, lwork);                         \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##EVD(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,     \
                                        T *A, int lda, R *W, T *work, int lwork, int *info)                             \
    {                                                                                                                   \
        return eigen<T>("cusolverDn" #P #EVD, h, jobz, uplo, n, A, lda, W, work, lwork, info);                          \
    }

SL_CUSOLVER_SVD_EIGEN(S, float, float, syevd)
SL_CUSOLVER_SVD_EIGEN(D, double, double, syevd)
SL_CUSOLVER_SVD_EIGEN(C, cuComplex, float, heevd)
SL_CUSOLVER_SVD_EIGEN(Z, cuDoubleComplex, double, heevd)
#undef SL_CUSOLVER_SVD_EIGEN

} /* extern "C" */
