/* simtlab CPU emulator — what the cuSOLVER files share: libs/cusolver/cusolver.cpp (the
 * handle, potrf/potrs, getrf/getrs), libs/cusolver/qr.cpp (geqrf, orgqr/ungqr,
 * ormqr/unmqr) and libs/cusolver/eigen.cpp (gesvd, syevd/heevd): the argument
 * and memory checks with their diagnostics, running a call in stream order
 * on host copies of its arrays, and LAPACK (OpenBLAS's Fortran symbols,
 * declared here) by element type.
 */
#ifndef SIMTLAB_EMU_CUSOLVER_INTERNAL_HPP
#define SIMTLAB_EMU_CUSOLVER_INTERNAL_HPP

#include "libs/common/library.hpp"
#include "runtime/internal.hpp"

#include <cusolverDn.h>

#include <algorithm>
#include <cinttypes>
#include <complex>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

struct cusolverDnContext {
    cudaStream_t stream;
};

/* ---- LAPACK's Fortran entry points (hidden character lengths last) ---- */
extern "C" {
using fstrlen = std::size_t;
#define SL_LAPACK_DECLARE(p, T, R)                                                                                      \
    void p##potrf_(const char *, const int *, T *, const int *, int *, fstrlen);                                        \
    void p##potrs_(const char *, const int *, const int *, const T *, const int *, T *, const int *, int *, fstrlen);   \
    void p##getrf_(const int *, const int *, T *, const int *, int *, int *);                                           \
    void p##getrs_(const char *, const int *, const int *, const T *, const int *, const int *, T *, const int *, int *, \
                   fstrlen);                                                                                            \
    void p##geqrf_(const int *, const int *, T *, const int *, T *, T *, const int *, int *);
SL_LAPACK_DECLARE(s, float, float)
SL_LAPACK_DECLARE(d, double, double)
SL_LAPACK_DECLARE(c, cuComplex, float)
SL_LAPACK_DECLARE(z, cuDoubleComplex, double)
#undef SL_LAPACK_DECLARE
#define SL_LAPACK_DECLARE_REAL(p, T)                                                                                    \
    void p##orgqr_(const int *, const int *, const int *, T *, const int *, const T *, T *, const int *, int *);        \
    void p##ormqr_(const char *, const char *, const int *, const int *, const int *, const T *, const int *, const T *, \
                   T *, const int *, T *, const int *, int *, fstrlen, fstrlen);                                        \
    void p##gesvd_(const char *, const char *, const int *, const int *, T *, const int *, T *, T *, const int *, T *,   \
                   const int *, T *, const int *, int *, fstrlen, fstrlen);                                             \
    void p##syevd_(const char *, const char *, const int *, T *, const int *, T *, T *, const int *, int *,             \
                   const int *, int *, fstrlen, fstrlen);
SL_LAPACK_DECLARE_REAL(s, float)
SL_LAPACK_DECLARE_REAL(d, double)
#undef SL_LAPACK_DECLARE_REAL
#define SL_LAPACK_DECLARE_COMPLEX(p, T, R)                                                                              \
    void p##ungqr_(const int *, const int *, const int *, T *, const int *, const T *, T *, const int *, int *);        \
    void p##unmqr_(const char *, const char *, const int *, const int *, const int *, const T *, const int *, const T *, \
                   T *, const int *, T *, const int *, int *, fstrlen, fstrlen);                                        \
    void p##gesvd_(const char *, const char *, const int *, const int *, T *, const int *, R *, T *, const int *, T *,   \
                   const int *, T *, const int *, R *, int *, fstrlen, fstrlen);                                        \
    void p##heevd_(const char *, const char *, const int *, T *, const int *, R *, T *, const int *, R *, const int *,  \
                   int *, const int *, int *, fstrlen, fstrlen);
SL_LAPACK_DECLARE_COMPLEX(c, cuComplex, float)
SL_LAPACK_DECLARE_COMPLEX(z, cuDoubleComplex, double)
#undef SL_LAPACK_DECLARE_COMPLEX
}

namespace simtlab_emu {
namespace solver {

/* Sets the diagnostic (printed on stderr) and returns status (libs/common/library.hpp). */
using libs::fail;
/* A live handle in a usable context. */
cusolverStatus_t check_handle(cusolverDnHandle_t h, const char *api);
/* Whether `bytes` at p lie in one live device allocation (no diagnostic). */
bool in_device(const void *p, std::size_t bytes);

/* Opens every device allocation for one call, as a launch does. */
struct open_all {
    open_all() { device_memory_open(); }
    ~open_all() { (void)device_memory_close(); }
};

/* One call's name and devInfo, for the argument checks. */
struct call {
    const char *api;
    int *info;

    /* The pos-th argument (not counting the handle) is wrong: the
     * diagnostic, devInfo = -pos when devInfo is usable, and the status. */
    cusolverStatus_t bad(int pos, const char *fmt, ...) const __attribute__((format(printf, 3, 4)))
    {
        char text[768];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        if (in_device(info, sizeof(int))) {
            open_all open;
            *info = -pos;
        }
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "%s: %s", api, text);
    }

    /* `elements` of `elem_bytes` at p in one device allocation. */
    cusolverStatus_t device(int pos, const void *p, std::size_t elements, std::size_t elem_bytes,
                            const char *name) const
    {
        if (elements == 0)
            return CUSOLVER_STATUS_SUCCESS;
        if (!p)
            return bad(pos, "%s is NULL", name);
        char what[128];
        std::snprintf(what, sizeof what, "%s %s", api, name);
        if (runtime::check_device_range(p, elements * elem_bytes, what) != cudaSuccess) {
            if (in_device(info, sizeof(int))) {
                open_all open;
                *info = -pos;
            }
            return CUSOLVER_STATUS_INVALID_VALUE; /* the diagnostic is set */
        }
        return CUSOLVER_STATUS_SUCCESS;
    }

    cusolverStatus_t dev_info(int pos) const
    {
        if (!info)
            return fail(CUSOLVER_STATUS_INVALID_VALUE, "%s: devInfo is NULL (pass a device int)", api);
        char what[128];
        std::snprintf(what, sizeof what, "%s devInfo", api);
        if (runtime::check_device_range(info, sizeof(int), what) != cudaSuccess)
            return CUSOLVER_STATUS_INVALID_VALUE;
        (void)pos;
        return CUSOLVER_STATUS_SUCCESS;
    }

    cusolverStatus_t ld(int pos, const char *name, int value, int rows) const
    {
        if (value < std::max(1, rows))
            return bad(pos, "%s %d is less than max(1, %d) (column-major)", name, value, rows);
        return CUSOLVER_STATUS_SUCCESS;
    }

    cusolverStatus_t size(int pos, const char *name, int value) const
    {
        if (value < 0)
            return bad(pos, "%s must not be negative (got %d)", name, value);
        return CUSOLVER_STATUS_SUCCESS;
    }

    cusolverStatus_t fill(int pos, cublasFillMode_t uplo) const
    {
        if (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER)
            return bad(pos, "uplo %d is not CUBLAS_FILL_MODE_LOWER or CUBLAS_FILL_MODE_UPPER", static_cast<int>(uplo));
        return CUSOLVER_STATUS_SUCCESS;
    }

    cusolverStatus_t out(const void *p, const char *name) const
    {
        if (!p)
            return fail(CUSOLVER_STATUS_INVALID_VALUE, "%s: %s is NULL", api, name);
        return CUSOLVER_STATUS_SUCCESS;
    }

    /* The workspace: Lwork at least `need` elements, and all of it there. */
    cusolverStatus_t workspace(int pos_work, int pos_lwork, const void *work, int lwork, int need,
                               std::size_t elem_bytes) const
    {
        if (lwork < need)
            return bad(pos_lwork, "Lwork %d is less than the %d elements the _bufferSize call asks for", lwork, need);
        return device(pos_work, work, static_cast<std::size_t>(lwork), elem_bytes, "Workspace");
    }
};

inline std::size_t extent(int rows, int cols, int ld)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return static_cast<std::size_t>(ld) * static_cast<std::size_t>(cols - 1) + static_cast<std::size_t>(rows);
}

/* A device array's copy in host memory, which LAPACK works on: OpenBLAS's
 * kernels may read a little past the end of an array, which in device
 * memory would be the guard page after the allocation. `back` copies the
 * result over the device array (the bytes LAPACK leaves alone are put back
 * as they were). Opened device memory only (inside run_in_stream). */
template <class T>
struct staged {
    T *dev;
    std::vector<T> h;
    staged(const T *p, std::size_t n) : dev(const_cast<T *>(p)), h(std::max<std::size_t>(1, n) + 8)
    {
        if (p && n)
            std::memcpy(h.data(), p, n * sizeof(T));
        count = p ? n : 0;
    }
    T *data() { return h.data(); }
    void back()
    {
        if (count)
            std::memcpy(dev, h.data(), count * sizeof(T));
    }
    std::size_t count;
};

/* Runs checked work now, or adds it to the graph the stream is being
 * captured into. */
template <class Job>
cusolverStatus_t run_in_stream(cusolverDnHandle_t h, Job job)
{
    if (!runtime::stream_capturing(h->stream)) {
        open_all open;
        job();
        return CUSOLVER_STATUS_SUCCESS;
    }
    cudaError_t e = runtime::capture(h->stream, [job](cudaStream_t) {
        open_all open;
        job();
        return cudaSuccess;
    });
    return e == cudaSuccess ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_EXECUTION_FAILED;
}

/* ---- the four element types ------------------------------------------- */

template <class T>
struct lp;

#define SL_LAPACK_COMMON(p, T, Real, Arith, is_complex)                                                                 \
    using real = Real;                                                                                                  \
    using arith = Arith;                                                                                                \
    static constexpr bool complex = is_complex;                                                                         \
    static void potrf(char u, int n, T *a, int lda, int *info) { p##potrf_(&u, &n, a, &lda, info, 1); }                 \
    static void potrs(char u, int n, int nrhs, const T *a, int lda, T *b, int ldb, int *info)                           \
    {                                                                                                                   \
        p##potrs_(&u, &n, &nrhs, a, &lda, b, &ldb, info, 1);                                                            \
    }                                                                                                                   \
    static void getrf(int m, int n, T *a, int lda, int *ipiv, int *info) { p##getrf_(&m, &n, a, &lda, ipiv, info); }    \
    static void getrs(char t, int n, int nrhs, const T *a, int lda, const int *ipiv, T *b, int ldb, int *info)          \
    {                                                                                                                   \
        p##getrs_(&t, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);                                                      \
    }                                                                                                                   \
    static void geqrf(int m, int n, T *a, int lda, T *tau, T *work, int lwork, int *info)                               \
    {                                                                                                                   \
        p##geqrf_(&m, &n, a, &lda, tau, work, &lwork, info);                                                            \
    }

#define SL_LAPACK_REAL(p, T)                                                                                            \
    template <>                                                                                                         \
    struct lp<T> {                                                                                                      \
        SL_LAPACK_COMMON(p, T, T, T, false)                                                                             \
        static void orgqr(int m, int n, int k, T *a, int lda, const T *tau, T *work, int lwork, int *info)              \
        {                                                                                                               \
            p##orgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);                                                    \
        }                                                                                                               \
        static void ormqr(char s, char t, int m, int n, int k, const T *a, int lda, const T *tau, T *c, int ldc,        \
                          T *work, int lwork, int *info)                                                                \
        {                                                                                                               \
            p##ormqr_(&s, &t, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1);                             \
        }                                                                                                               \
        /* rwork: min(m, n) - 1 reals, the unconverged superdiagonal */                                                 \
        static void gesvd(char ju, char jv, int m, int n, T *a, int lda, T *s, T *u, int ldu, T *vt, int ldvt,          \
                          T *work, int lwork, T *rwork, int *info)                                                      \
        {                                                                                                               \
            p##gesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, info, 1, 1);                      \
            if (lwork >= 1 && rwork)                                                                                    \
                for (int i = 0; i + 1 < std::min(m, n); ++i)                                                            \
                    rwork[i] = work[i + 1];                                                                             \
        }                                                                                                               \
        static int gesvd_rwork(int, int) { return 0; }                                                                  \
        /* eigen: syevd; lwork < 0 asks for the sizes */                                                                \
        static void eigen(char jz, char u, int n, T *a, int lda, T *w, std::vector<T> &work,                            \
                          std::vector<T> &, std::vector<int> &iwork, int *info)                                         \
        {                                                                                                               \
            int lw = static_cast<int>(work.size()), li = static_cast<int>(iwork.size());                                \
            p##syevd_(&jz, &u, &n, a, &lda, w, work.data(), &lw, iwork.data(), &li, info, 1, 1);                        \
        }                                                                                                               \
        static void eigen_query(char jz, char u, int n, int *lwork, int *lrwork, int *liwork)                           \
        {                                                                                                               \
            T w1 = 0, a1 = 0, wq = 0;                                                                                   \
            int iq = 0, info = 0, minus = -1, one = std::max(1, n);                                                     \
            p##syevd_(&jz, &u, &n, &a1, &one, &w1, &wq, &minus, &iq, &minus, &info, 1, 1);                              \
            *lwork = static_cast<int>(wq), *lrwork = 0, *liwork = iq;                                                   \
        }                                                                                                               \
        static double to_double(T x) { return x; }                                                                      \
    };

SL_LAPACK_REAL(s, float)
SL_LAPACK_REAL(d, double)

#define SL_LAPACK_COMPLEX(p, T, R)                                                                                      \
    template <>                                                                                                         \
    struct lp<T> {                                                                                                      \
        SL_LAPACK_COMMON(p, T, R, std::complex<R>, true)                                                                \
        static void orgqr(int m, int n, int k, T *a, int lda, const T *tau, T *work, int lwork, int *info)              \
        {                                                                                                               \
            p##ungqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);                                                    \
        }                                                                                                               \
        static void ormqr(char s, char t, int m, int n, int k, const T *a, int lda, const T *tau, T *c, int ldc,        \
                          T *work, int lwork, int *info)                                                                \
        {                                                                                                               \
            p##unmqr_(&s, &t, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1);                             \
        }                                                                                                               \
        static void gesvd(char ju, char jv, int m, int n, T *a, int lda, R *s, T *u, int ldu, T *vt, int ldvt,          \
                          T *work, int lwork, R *rwork, int *info)                                                      \
        {                                                                                                               \
            std::vector<R> rw(static_cast<std::size_t>(std::max(1, 5 * std::min(m, n))));                              \
            p##gesvd_(&ju, &jv, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, rw.data(), info, 1, 1);           \
            if (rwork)                                                                                                  \
                for (int i = 0; i + 1 < std::min(m, n); ++i)                                                            \
                    rwork[i] = rw[static_cast<std::size_t>(i)];                                                         \
        }                                                                                                               \
        static void eigen(char jz, char u, int n, T *a, int lda, R *w, std::vector<T> &work, std::vector<R> &rwork,     \
                          std::vector<int> &iwork, int *info)                                                           \
        {                                                                                                               \
            int lw = static_cast<int>(work.size()), lr = static_cast<int>(rwork.size()),                                \
                li = static_cast<int>(iwork.size());                                                                    \
            p##heevd_(&jz, &u, &n, a, &lda, w, work.data(), &lw, rwork.data(), &lr, iwork.data(), &li, info, 1, 1);     \
        }                                                                                                               \
        static void eigen_query(char jz, char u, int n, int *lwork, int *lrwork, int *liwork)                           \
        {                                                                                                               \
            T a1{}, wq{};                                                                                               \
            R w1 = 0, rq = 0;                                                                                           \
            int iq = 0, info = 0, minus = -1, one = std::max(1, n);                                                     \
            p##heevd_(&jz, &u, &n, &a1, &one, &w1, &wq, &minus, &rq, &minus, &iq, &minus, &info, 1, 1);                 \
            *lwork = static_cast<int>(wq.x), *lrwork = static_cast<int>(rq), *liwork = iq;                              \
        }                                                                                                               \
    };

SL_LAPACK_COMPLEX(c, cuComplex, float)
SL_LAPACK_COMPLEX(z, cuDoubleComplex, double)

#undef SL_LAPACK_REAL
#undef SL_LAPACK_COMPLEX
#undef SL_LAPACK_COMMON

template <class T>
inline int real_part_int(T x)
{
    return static_cast<int>(x);
}
template <>
inline int real_part_int(cuComplex x)
{
    return static_cast<int>(x.x);
}
template <>
inline int real_part_int(cuDoubleComplex x)
{
    return static_cast<int>(x.x);
}

/* The optimal workspace LAPACK asks for (a query with lwork = -1), at
 * least 1. */
template <class T, class Query>
int lapack_lwork(Query q)
{
    T w{};
    int info = 0;
    q(&w, &info);
    return std::max(1, real_part_int(w));
}

} /* namespace solver */
} /* namespace simtlab_emu */

#endif
