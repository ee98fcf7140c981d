/* simtlab CPU emulator — cuSOLVER's dense API (cusolverDn.h) on the host's
 * LAPACK (OpenBLAS carries it; its Fortran symbols are declared below).
 *
 * Each call checks the handle, then its arguments in the order cuSOLVER
 * numbers them: a wrong one is CUSOLVER_STATUS_INVALID_VALUE with a
 * diagnostic naming the call and the argument, and devInfo = -i when
 * devInfo itself is usable. Then it checks that every matrix, vector,
 * workspace and devInfo lies in one live device allocation, whole. The
 * work itself runs now, in stream order (the emulator's streams run their
 * work as it is issued), or is added to the graph a capturing stream is
 * building: it opens device memory as a launch does, copies the arrays to
 * host memory, runs LAPACK there with workspace of its own, copies the
 * results back and writes devInfo.
 */
#include "internal.hpp"
#include "runtime_internal.hpp"

#include <cusolverDn.h>

#include <algorithm>
#include <cinttypes>
#include <complex>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_set>
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
namespace {

std::mutex handles_lock;
std::unordered_set<cusolverDnHandle_t> handles;

cusolverStatus_t fail(cusolverStatus_t status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
cusolverStatus_t fail(cusolverStatus_t status, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    set_diagnostic(text);
    return status;
}

cusolverStatus_t check_handle(cusolverDnHandle_t h, const char *api)
{
    {
        std::lock_guard<std::mutex> hold(handles_lock);
        if (!h || !handles.count(h))
            return fail(CUSOLVER_STATUS_NOT_INITIALIZED,
                        "%s: handle 0x%" PRIxPTR " is not a live cuSOLVER handle (call cusolverDnCreate first)", api,
                        reinterpret_cast<std::uintptr_t>(h));
    }
    if (cudaError_t e = sticky_error())
        return fail(CUSOLVER_STATUS_EXECUTION_FAILED, "%s: the CUDA context is poisoned by an earlier %s", api,
                    cudaGetErrorName(e));
    return CUSOLVER_STATUS_SUCCESS;
}

/* Whether `bytes` at p lie in one live device allocation (no diagnostic). */
bool in_device(const void *p, std::size_t bytes)
{
    if (!p)
        return false;
    runtime::located l = runtime::locate(p);
    return l.where == runtime::region::device && l.offset >= 0 &&
           static_cast<std::size_t>(l.offset) + bytes <= l.alloc.size;
}

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

std::size_t extent(int rows, int cols, int ld)
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
int real_part_int(T x)
{
    return static_cast<int>(x);
}
template <>
int real_part_int(cuComplex x)
{
    return static_cast<int>(x.x);
}
template <>
int real_part_int(cuDoubleComplex x)
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

/* ---- potrf, potrs ------------------------------------------------------- */

template <class T>
cusolverStatus_t potrf_size(const char *api, cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int lda,
                            int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.fill(1, uplo)) || (st = c.size(2, "n", n)) ||
        (st = c.ld(4, "lda", lda, n)) || (st = c.out(lwork, "Lwork")))
        return st;
    *lwork = 1; /* LAPACK's potrf needs none; cuSOLVER programs allocate what this says */
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t potrf(const char *api, cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda, T *work,
                       int lwork, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(7)) || (st = c.fill(1, uplo)) || (st = c.size(2, "n", n)) ||
        (st = c.ld(4, "lda", lda, n)) || (st = c.device(3, A, extent(n, n, lda), sizeof(T), "A")) ||
        (st = c.workspace(5, 6, work, lwork, 1, sizeof(T))))
        return st;
    const char u = uplo == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U';
    return run_in_stream(h, [=] {
        int i = 0;
        if (n > 0) {
            staged<T> a(A, extent(n, n, lda));
            lp<T>::potrf(u, n, a.data(), lda, &i);
            a.back();
        }
        *info = i;
    });
}

template <class T>
cusolverStatus_t potrs(const char *api, cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, const T *A,
                       int lda, T *B, int ldb, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(8)) || (st = c.fill(1, uplo)) || (st = c.size(2, "n", n)) ||
        (st = c.size(3, "nrhs", nrhs)) || (st = c.ld(5, "lda", lda, n)) || (st = c.ld(7, "ldb", ldb, n)) ||
        (st = c.device(4, A, extent(n, n, lda), sizeof(T), "A")) ||
        (st = c.device(6, B, extent(n, nrhs, ldb), sizeof(T), "B")))
        return st;
    const char u = uplo == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U';
    return run_in_stream(h, [=] {
        int i = 0;
        if (n > 0 && nrhs > 0) {
            staged<T> a(A, extent(n, n, lda)), b(B, extent(n, nrhs, ldb));
            lp<T>::potrs(u, n, nrhs, a.data(), lda, b.data(), ldb, &i);
            b.back();
        }
        *info = i;
    });
}

/* ---- getrf, getrs -------------------------------------------------------- */

/* LU without pivoting (getrf with devIpiv NULL): info is the first zero
 * pivot, whose column is then left unscaled, as LAPACK's getrf does. */
template <class T>
void lu_no_pivot(int m, int n, T *A, int lda, int *info)
{
    using C = typename lp<T>::arith;
    C *a = reinterpret_cast<C *>(A);
    const std::size_t ld = static_cast<std::size_t>(lda);
    *info = 0;
    for (int k = 0; k < std::min(m, n); ++k) {
        const C pivot = a[k + k * ld];
        if (pivot == C(0)) {
            if (*info == 0)
                *info = k + 1;
            continue;
        }
        for (int i = k + 1; i < m; ++i)
            a[i + k * ld] /= pivot;
        for (int j = k + 1; j < n; ++j) {
            const C akj = a[k + j * ld];
            if (akj == C(0))
                continue;
            for (int i = k + 1; i < m; ++i)
                a[i + j * ld] -= a[i + k * ld] * akj;
        }
    }
}

template <class T>
cusolverStatus_t getrf_size(const char *api, cusolverDnHandle_t h, int m, int n, int lda, int *lwork)
{
    call c{api, nullptr};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.size(1, "m", m)) || (st = c.size(2, "n", n)) ||
        (st = c.ld(4, "lda", lda, m)) || (st = c.out(lwork, "Lwork")))
        return st;
    *lwork = 1;
    return CUSOLVER_STATUS_SUCCESS;
}

template <class T>
cusolverStatus_t getrf(const char *api, cusolverDnHandle_t h, int m, int n, T *A, int lda, T *work, int *ipiv,
                       int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(7)) || (st = c.size(1, "m", m)) ||
        (st = c.size(2, "n", n)) || (st = c.ld(4, "lda", lda, m)) ||
        (st = c.device(3, A, extent(m, n, lda), sizeof(T), "A")) ||
        (st = c.device(5, work, 1, sizeof(T), "Workspace")) ||
        (ipiv && (st = c.device(6, ipiv, static_cast<std::size_t>(std::min(m, n)), sizeof(int), "devIpiv"))))
        return st;
    return run_in_stream(h, [=] {
        int i = 0;
        if (m > 0 && n > 0) {
            staged<T> a(A, extent(m, n, lda));
            if (ipiv) {
                staged<int> p(ipiv, static_cast<std::size_t>(std::min(m, n)));
                lp<T>::getrf(m, n, a.data(), lda, p.data(), &i);
                p.back();
            } else {
                lu_no_pivot(m, n, a.data(), lda, &i);
            }
            a.back();
        }
        *info = i;
    });
}

template <class T>
cusolverStatus_t getrs(const char *api, cusolverDnHandle_t h, cublasOperation_t trans, int n, int nrhs, const T *A,
                       int lda, const int *ipiv, T *B, int ldb, int *info)
{
    call c{api, info};
    cusolverStatus_t st;
    if ((st = check_handle(h, api)) || (st = c.dev_info(9)))
        return st;
    if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C)
        return c.bad(1, "trans %d is not CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C", static_cast<int>(trans));
    if ((st = c.size(2, "n", n)) || (st = c.size(3, "nrhs", nrhs)) || (st = c.ld(5, "lda", lda, n)) ||
        (st = c.ld(8, "ldb", ldb, n)) || (st = c.device(4, A, extent(n, n, lda), sizeof(T), "A")) ||
        (st = c.device(6, ipiv, n > 0 && nrhs > 0 ? static_cast<std::size_t>(n) : 0, sizeof(int), "devIpiv")) ||
        (st = c.device(7, B, extent(n, nrhs, ldb), sizeof(T), "B")))
        return st;
    const char t = trans == CUBLAS_OP_N ? 'N' : trans == CUBLAS_OP_T ? 'T' : 'C';
    return run_in_stream(h, [=] {
        int i = 0;
        if (n > 0 && nrhs > 0) {
            /* a pivot out of range is a wrong argument, not a crash */
            for (int k = 0; k < n; ++k)
                if (ipiv[k] < 1 || ipiv[k] > n) {
                    fail(CUSOLVER_STATUS_INVALID_VALUE,
                         "%s: devIpiv[%d] = %d is outside 1..%d (devIpiv must come from getrf with pivots)", api, k,
                         ipiv[k], n);
                    *info = -6;
                    return;
                }
            staged<T> a(A, extent(n, n, lda)), b(B, extent(n, nrhs, ldb));
            staged<int> p(ipiv, static_cast<std::size_t>(n));
            lp<T>::getrs(t, n, nrhs, a.data(), lda, p.data(), b.data(), ldb, &i);
            b.back();
        }
        *info = i;
    });
}

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
} /* namespace simtlab_emu */

using namespace simtlab_emu;

extern "C" {

cusolverStatus_t cusolverGetVersion(int *version)
{
    if (!version)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverGetVersion: version is NULL");
    *version = CUSOLVER_VERSION;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle)
{
    if (!handle)
        return fail(CUSOLVER_STATUS_INVALID_VALUE,
                    "cusolverDnCreate: handle is NULL (pass the address of a cusolverDnHandle_t)");
    if (cudaError_t e = sticky_error())
        return fail(CUSOLVER_STATUS_NOT_INITIALIZED, "cusolverDnCreate: the CUDA context is poisoned by an earlier %s",
                    cudaGetErrorName(e));
    cusolverDnHandle_t h = new (std::nothrow) cusolverDnContext{nullptr};
    if (!h)
        return CUSOLVER_STATUS_ALLOC_FAILED;
    std::lock_guard<std::mutex> hold(handles_lock);
    handles.insert(h);
    *handle = h;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle)
{
    std::lock_guard<std::mutex> hold(handles_lock);
    if (!handle || !handles.erase(handle))
        return fail(CUSOLVER_STATUS_NOT_INITIALIZED, "cusolverDnDestroy: handle 0x%" PRIxPTR
                    " is not a live cuSOLVER handle", reinterpret_cast<std::uintptr_t>(handle));
    delete handle;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId)
{
    if (cusolverStatus_t st = check_handle(handle, "cusolverDnSetStream"))
        return st;
    if (validate_stream(streamId, "cusolverDnSetStream") != cudaSuccess)
        return CUSOLVER_STATUS_INVALID_VALUE;
    handle->stream = streamId;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t *streamId)
{
    if (cusolverStatus_t st = check_handle(handle, "cusolverDnGetStream"))
        return st;
    if (!streamId)
        return fail(CUSOLVER_STATUS_INVALID_VALUE, "cusolverDnGetStream: streamId is NULL");
    *streamId = handle->stream;
    return CUSOLVER_STATUS_SUCCESS;
}

#define SL_CUSOLVER_TYPED(P, T, R, ORGQR, ORMQR, EVD)                                                                   \
    cusolverStatus_t cusolverDn##P##potrf_bufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A,          \
                                                     int lda, int *Lwork)                                               \
    {                                                                                                                   \
        (void)A;                                                                                                        \
        return potrf_size<T>("cusolverDn" #P "potrf_bufferSize", h, uplo, n, lda, Lwork);                              \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *A, int lda,            \
                                          T *Workspace, int Lwork, int *devInfo)                                        \
    {                                                                                                                   \
        return potrf<T>("cusolverDn" #P "potrf", h, uplo, n, A, lda, Workspace, Lwork, devInfo);                        \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##potrs(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, const T *A,     \
                                          int lda, T *B, int ldb, int *devInfo)                                         \
    {                                                                                                                   \
        return potrs<T>("cusolverDn" #P "potrs", h, uplo, n, nrhs, A, lda, B, ldb, devInfo);                            \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##getrf_bufferSize(cusolverDnHandle_t h, int m, int n, T *A, int lda, int *Lwork)    \
    {                                                                                                                   \
        (void)A;                                                                                                        \
        return getrf_size<T>("cusolverDn" #P "getrf_bufferSize", h, m, n, lda, Lwork);                                  \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n, T *A, int lda, T *Workspace,              \
                                          int *devIpiv, int *devInfo)                                                   \
    {                                                                                                                   \
        return getrf<T>("cusolverDn" #P "getrf", h, m, n, A, lda, Workspace, devIpiv, devInfo);                         \
    }                                                                                                                   \
    cusolverStatus_t cusolverDn##P##getrs(cusolverDnHandle_t h, cublasOperation_t trans, int n, int nrhs, const T *A,   \
                                          int lda, const int *devIpiv, T *B, int ldb, int *devInfo)                     \
    {                                                                                                                   \
        return getrs<T>("cusolverDn" #P "getrs", h, trans, n, nrhs, A, lda, devIpiv, B, ldb, devInfo);                  \
    }                                                                                                                   \
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
    }                                                                                                                   \
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

SL_CUSOLVER_TYPED(S, float, float, orgqr, ormqr, syevd)
SL_CUSOLVER_TYPED(D, double, double, orgqr, ormqr, syevd)
SL_CUSOLVER_TYPED(C, cuComplex, float, ungqr, unmqr, heevd)
SL_CUSOLVER_TYPED(Z, cuDoubleComplex, double, ungqr, unmqr, heevd)
#undef SL_CUSOLVER_TYPED

} /* extern "C" */
