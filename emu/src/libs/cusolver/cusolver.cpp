/* simtlab CPU emulator — cuSOLVER's dense API (cusolverDn.h) on the host's
 * LAPACK (OpenBLAS carries it; its Fortran symbols are declared in
 * libs/cusolver/internal.hpp). This file: the handle, potrf/potrs and
 * getrf/getrs; libs/cusolver/qr.cpp and libs/cusolver/eigen.cpp hold the rest.
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
#include "libs/cusolver/internal.hpp"

namespace simtlab_emu {
namespace solver {
namespace {

libs::handle_registry<cusolverDnHandle_t> handles;

} /* namespace */

cusolverStatus_t check_handle(cusolverDnHandle_t h, const char *api)
{
    if (!handles.is_live(h))
        return fail(CUSOLVER_STATUS_NOT_INITIALIZED,
                    "%s: handle 0x%" PRIxPTR " is not a live cuSOLVER handle (call cusolverDnCreate first)", api,
                    reinterpret_cast<std::uintptr_t>(h));
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

namespace {

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

} /* namespace */
} /* namespace solver */
} /* namespace simtlab_emu */

using namespace simtlab_emu;
using namespace simtlab_emu::solver;

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
    if (!handles.add(h)) {
        delete h;
        return CUSOLVER_STATUS_ALLOC_FAILED;
    }
    *handle = h;
    return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle)
{
    if (!handles.remove(handle))
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

#define SL_CUSOLVER_LU(P, T)                                                                                            \
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
    }

SL_CUSOLVER_LU(S, float)
SL_CUSOLVER_LU(D, double)
SL_CUSOLVER_LU(C, cuComplex)
SL_CUSOLVER_LU(Z, cuDoubleComplex)
#undef SL_CUSOLVER_LU

} /* extern "C" */
