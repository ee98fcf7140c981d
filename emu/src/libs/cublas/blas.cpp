/* simtlab CPU emulator — cuBLAS's level-1 and level-2 routines, geam, trsm
 * and the helpers that move vectors and matrices (cublasSetVector ...), in
 * single and double precision, on the host's OpenBLAS. The checks and the
 * GEMMs are in libs/cublas/cublas.cpp; each routine here checks its arguments as cuBLAS
 * does, checks that every vector and matrix lies in one live device
 * allocation, opens those allocations and calls CBLAS.
 */
#include "libs/cublas/internal.hpp"
#include "runtime/internal.hpp"

#include <cublas_v2.h>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace simtlab_emu;
using namespace simtlab_emu::blas;

namespace {

/* ---- the CBLAS routine of each precision ---------------------------------- */

template <class T>
struct cb;

template <>
struct cb<float> {
    static void axpy(int n, float a, const float *x, int ix, float *y, int iy) { cblas_saxpy(n, a, x, ix, y, iy); }
    static void scal(int n, float a, float *x, int ix) { cblas_sscal(n, a, x, ix); }
    static void copy(int n, const float *x, int ix, float *y, int iy) { cblas_scopy(n, x, ix, y, iy); }
    static void swap(int n, float *x, int ix, float *y, int iy) { cblas_sswap(n, x, ix, y, iy); }
    static float dot(int n, const float *x, int ix, const float *y, int iy) { return cblas_sdot(n, x, ix, y, iy); }
    static float nrm2(int n, const float *x, int ix) { return cblas_snrm2(n, x, ix); }
    static float asum(int n, const float *x, int ix) { return cblas_sasum(n, x, ix); }
    static void rot(int n, float *x, int ix, float *y, int iy, float c, float s) { cblas_srot(n, x, ix, y, iy, c, s); }
    static void gemv(CBLAS_TRANSPOSE t, int m, int n, float a, const float *A, int lda, const float *x, int ix,
                     float b, float *y, int iy)
    {
        cblas_sgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
    }
    static void ger(int m, int n, float a, const float *x, int ix, const float *y, int iy, float *A, int lda)
    {
        cblas_sger(CblasColMajor, m, n, a, x, ix, y, iy, A, lda);
    }
    static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, float a,
                     const float *A, int lda, float *B, int ldb)
    {
        cblas_strsm(CblasColMajor, s, u, t, d, m, n, a, A, lda, B, ldb);
    }
};

template <>
struct cb<double> {
    static void axpy(int n, double a, const double *x, int ix, double *y, int iy) { cblas_daxpy(n, a, x, ix, y, iy); }
    static void scal(int n, double a, double *x, int ix) { cblas_dscal(n, a, x, ix); }
    static void copy(int n, const double *x, int ix, double *y, int iy) { cblas_dcopy(n, x, ix, y, iy); }
    static void swap(int n, double *x, int ix, double *y, int iy) { cblas_dswap(n, x, ix, y, iy); }
    static double dot(int n, const double *x, int ix, const double *y, int iy) { return cblas_ddot(n, x, ix, y, iy); }
    static double nrm2(int n, const double *x, int ix) { return cblas_dnrm2(n, x, ix); }
    static double asum(int n, const double *x, int ix) { return cblas_dasum(n, x, ix); }
    static void rot(int n, double *x, int ix, double *y, int iy, double c, double s)
    {
        cblas_drot(n, x, ix, y, iy, c, s);
    }
    static void gemv(CBLAS_TRANSPOSE t, int m, int n, double a, const double *A, int lda, const double *x, int ix,
                     double b, double *y, int iy)
    {
        cblas_dgemv(CblasColMajor, t, m, n, a, A, lda, x, ix, b, y, iy);
    }
    static void ger(int m, int n, double a, const double *x, int ix, const double *y, int iy, double *A, int lda)
    {
        cblas_dger(CblasColMajor, m, n, a, x, ix, y, iy, A, lda);
    }
    static void trsm(CBLAS_SIDE s, CBLAS_UPLO u, CBLAS_TRANSPOSE t, CBLAS_DIAG d, int m, int n, double a,
                     const double *A, int lda, double *B, int ldb)
    {
        cblas_dtrsm(CblasColMajor, s, u, t, d, m, n, a, A, lda, B, ldb);
    }
};

/* What the level-1 routines share: the handle checked, then the routine's
 * host scalars (`scalars`, a status); nothing to do for n <= 0; x of n
 * elements in device memory, opened while `body` runs. Over x alone,
 * incx <= 0 is nothing to do too, as cuBLAS. */
template <class T, class Scalars, class Body>
cublasStatus_t on_x(const char *api, cublasHandle_t h, int n, const T *x, int incx, Scalars scalars, Body body)
{
    cublasStatus_t st;
    if ((st = check_handle(h, api)) || (st = scalars()))
        return st;
    if (n <= 0 || incx <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(T), api, "x")))
        return st;
    runtime::device_access open(x);
    body();
    return CUBLAS_STATUS_SUCCESS;
}

/* The same over x and y, n elements each. */
template <class T, class Scalars, class Body>
cublasStatus_t on_xy(const char *api, cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy,
                     Scalars scalars, Body body)
{
    cublasStatus_t st;
    if ((st = check_handle(h, api)) || (st = scalars()))
        return st;
    if (n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(n, incx), sizeof(T), api, "x")) ||
        (st = check_device(y, vector_extent(n, incy), sizeof(T), api, "y")))
        return st;
    runtime::device_access open(x, y);
    body();
    return CUBLAS_STATUS_SUCCESS;
}

/* A result in host memory: checked, then 0 until there is one. */
template <class R>
cublasStatus_t zeroed_result(R *result, const char *api)
{
    cublasStatus_t st = check_host_scalar(result, api, "result");
    if (!st)
        *result = R(0);
    return st;
}

inline cublasStatus_t no_scalars() { return CUBLAS_STATUS_SUCCESS; }

/* ---- level 1 ---------------------------------------------------------------- */

template <class T>
cublasStatus_t axpy(const char *api, cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy)
{
    return on_xy(api, h, n, x, incx, y, incy, [&] { return check_host_scalar(alpha, api, "alpha"); },
                 [&] { cb<T>::axpy(n, *alpha, x, incx, y, incy); });
}

/* cuBLAS returns at once for n <= 0 or incx <= 0 */
template <class T>
cublasStatus_t scal(const char *api, cublasHandle_t h, int n, const T *alpha, T *x, int incx)
{
    return on_x(api, h, n, x, incx, [&] { return check_host_scalar(alpha, api, "alpha"); },
                [&] { cb<T>::scal(n, *alpha, x, incx); });
}

/* copy (swap == false) or swap */
template <class T>
cublasStatus_t copy_or_swap(const char *api, cublasHandle_t h, int n, const T *x, int incx, T *y, int incy, bool swap)
{
    return on_xy(api, h, n, x, incx, y, incy, no_scalars, [&] {
        if (swap)
            cb<T>::swap(n, const_cast<T *>(x), incx, y, incy);
        else
            cb<T>::copy(n, x, incx, y, incy);
    });
}

template <class T>
cublasStatus_t dot(const char *api, cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *result)
{
    return on_xy(api, h, n, x, incx, y, incy, [&] { return zeroed_result(result, api); },
                 [&] { *result = cb<T>::dot(n, x, incx, y, incy); });
}

/* nrm2 (norm) or asum: 0 when n <= 0 or incx <= 0, as cuBLAS. */
template <class T>
cublasStatus_t reduce(const char *api, cublasHandle_t h, int n, const T *x, int incx, T *result, bool norm)
{
    return on_x(api, h, n, x, incx, [&] { return zeroed_result(result, api); },
                [&] { *result = norm ? cb<T>::nrm2(n, x, incx) : cb<T>::asum(n, x, incx); });
}

/* 1-based index of the first largest (smallest) |x_i|; a NaN is never
 * chosen over a number. */
template <class T>
cublasStatus_t index_of_extreme(const char *api, cublasHandle_t h, int n, const T *x, int incx, int *result,
                                bool largest)
{
    return on_x(api, h, n, x, incx, [&] { return zeroed_result(result, api); }, [&] {
        int best = 0;
        T best_abs = std::fabs(x[0]);
        for (int i = 1; i < n; ++i) {
            T v = std::fabs(x[static_cast<std::size_t>(i) * incx]);
            if (std::isnan(best_abs) ? !std::isnan(v) : (largest ? v > best_abs : v < best_abs))
                best = i, best_abs = v;
        }
        *result = best + 1;
    });
}

template <class T>
cublasStatus_t rot(const char *api, cublasHandle_t h, int n, T *x, int incx, T *y, int incy, const T *c, const T *s)
{
    auto scalars = [&] {
        cublasStatus_t st = check_host_scalar(c, api, "c");
        return st ? st : check_host_scalar(s, api, "s");
    };
    return on_xy(api, h, n, x, incx, y, incy, scalars, [&] { cb<T>::rot(n, x, incx, y, incy, *c, *s); });
}

/* ---- level 2 ---------------------------------------------------------------- */

cublasStatus_t check_mn(const char *api, int m, int n)
{
    if (m < 0 || n < 0)
        return invalid("%s: m and n must not be negative (got %d, %d)", api, m, n);
    return CUBLAS_STATUS_SUCCESS;
}

/* A leading dimension of a column-major matrix of m rows. */
cublasStatus_t check_ld(const char *api, const char *name, int ld, int m)
{
    if (ld < std::max(1, m))
        return invalid("%s: %s %d is less than m = %d (column-major)", api, name, ld, m);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t check_incs(const char *api, int incx, int incy)
{
    if (incx == 0 || incy == 0)
        return invalid("%s: incx and incy must not be 0 (got %d, %d)", api, incx, incy);
    return CUBLAS_STATUS_SUCCESS;
}

/* y = alpha * op(A) x + beta * y, A m x n column-major. */
template <class T>
cublasStatus_t gemv(const char *api, cublasHandle_t handle, cublasOperation_t trans, int m, int n, const T *alpha,
                    const T *A, int lda, const T *x, int incx, const T *beta, T *y, int incy)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)))
        return st;
    if (!valid_op(trans))
        return invalid("%s: trans must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C (got %d)", api,
                       static_cast<int>(trans));
    if ((st = check_mn(api, m, n)) || (st = check_ld(api, "lda", lda, m)) || (st = check_incs(api, incx, incy)) ||
        (st = check_host_scalar(alpha, api, "alpha")) || (st = check_host_scalar(beta, api, "beta")))
        return st;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    const int xlen = trans == CUBLAS_OP_N ? n : m, ylen = trans == CUBLAS_OP_N ? m : n;
    if ((st = check_device(A, matrix_extent(m, n, lda), sizeof(T), api, "A")) ||
        (st = check_device(x, vector_extent(xlen, incx), sizeof(T), api, "x")) ||
        (st = check_device(y, vector_extent(ylen, incy), sizeof(T), api, "y")))
        return st;
    runtime::device_access open(A, x, y);
    cb<T>::gemv(to_cblas(trans), m, n, *alpha, A, lda, x, incx, *beta, y, incy);
    return CUBLAS_STATUS_SUCCESS;
}

/* A = alpha x y^T + A */
template <class T>
cublasStatus_t ger(const char *api, cublasHandle_t handle, int m, int n, const T *alpha, const T *x, int incx,
                   const T *y, int incy, T *A, int lda)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)))
        return st;
    if ((st = check_mn(api, m, n)) || (st = check_ld(api, "lda", lda, m)) || (st = check_incs(api, incx, incy)) ||
        (st = check_host_scalar(alpha, api, "alpha")))
        return st;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(x, vector_extent(m, incx), sizeof(T), api, "x")) ||
        (st = check_device(y, vector_extent(n, incy), sizeof(T), api, "y")) ||
        (st = check_device(A, matrix_extent(m, n, lda), sizeof(T), api, "A")))
        return st;
    runtime::device_access open(x, y, A);
    cb<T>::ger(m, n, *alpha, x, incx, y, incy, A, lda);
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- geam and trsm ------------------------------------------------------------ */

/* C = alpha op(A) + beta op(B). An operand whose scalar is 0 is not read. */
template <class T>
cublasStatus_t geam(const char *api, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                    int m, int n, const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C,
                    int ldc)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)))
        return st;
    if (!valid_op(transa) || !valid_op(transb))
        return invalid("%s: transa/transb must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C (got %d, %d)", api,
                       static_cast<int>(transa), static_cast<int>(transb));
    if ((st = check_mn(api, m, n)))
        return st;
    const int rows_a = transa == CUBLAS_OP_N ? m : n, rows_b = transb == CUBLAS_OP_N ? m : n;
    if (lda < std::max(1, rows_a))
        return invalid("%s: lda %d is less than the %d rows of the stored A (column-major)", api, lda, rows_a);
    if (ldb < std::max(1, rows_b))
        return invalid("%s: ldb %d is less than the %d rows of the stored B (column-major)", api, ldb, rows_b);
    if ((st = check_ld(api, "ldc", ldc, m)) || (st = check_host_scalar(alpha, api, "alpha")) ||
        (st = check_host_scalar(beta, api, "beta")))
        return st;
    if (C == A && (transa != CUBLAS_OP_N || ldc != lda))
        return invalid("%s: C is A, which cuBLAS allows only with transa = CUBLAS_OP_N and ldc = lda", api);
    if (C == B && (transb != CUBLAS_OP_N || ldc != ldb))
        return invalid("%s: C is B, which cuBLAS allows only with transb = CUBLAS_OP_N and ldc = ldb", api);
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    const T a = *alpha, b = *beta;
    const bool read_a = a != T(0), read_b = b != T(0);
    if ((read_a && (st = check_device(A, matrix_extent(rows_a, transa == CUBLAS_OP_N ? n : m, lda), sizeof(T), api,
                                      "A"))) ||
        (read_b && (st = check_device(B, matrix_extent(rows_b, transb == CUBLAS_OP_N ? n : m, ldb), sizeof(T), api,
                                      "B"))) ||
        (st = check_device(C, matrix_extent(m, n, ldc), sizeof(T), api, "C")))
        return st;
    runtime::device_access open(read_a ? A : nullptr, read_b ? B : nullptr, C);
    /* through a packed result, so that C may be A or B */
    std::vector<T> out(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
    auto at = [](const T *M, cublasOperation_t op, int ld, int i, int j) {
        return op == CUBLAS_OP_N ? M[static_cast<std::size_t>(j) * ld + i] : M[static_cast<std::size_t>(i) * ld + j];
    };
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            out[static_cast<std::size_t>(j) * m + i] =
                (read_a ? a * at(A, transa, lda, i, j) : T(0)) + (read_b ? b * at(B, transb, ldb, i, j) : T(0));
    for (int j = 0; j < n; ++j)
        std::memcpy(C + static_cast<std::size_t>(j) * ldc, out.data() + static_cast<std::size_t>(j) * m,
                    sizeof(T) * static_cast<std::size_t>(m));
    return CUBLAS_STATUS_SUCCESS;
}

template <class T>
cublasStatus_t trsm(const char *api, cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                    cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda,
                    T *B, int ldb)
{
    cublasStatus_t st;
    if ((st = check_handle(handle, api)))
        return st;
    if (side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT)
        return invalid("%s: side %d is not CUBLAS_SIDE_LEFT or CUBLAS_SIDE_RIGHT", api, static_cast<int>(side));
    if (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER)
        return invalid("%s: uplo %d is not CUBLAS_FILL_MODE_LOWER or CUBLAS_FILL_MODE_UPPER", api,
                       static_cast<int>(uplo));
    if (!valid_op(trans))
        return invalid("%s: trans must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C (got %d)", api,
                       static_cast<int>(trans));
    if (diag != CUBLAS_DIAG_NON_UNIT && diag != CUBLAS_DIAG_UNIT)
        return invalid("%s: diag %d is not CUBLAS_DIAG_NON_UNIT or CUBLAS_DIAG_UNIT", api, static_cast<int>(diag));
    if ((st = check_mn(api, m, n)))
        return st;
    const int order = side == CUBLAS_SIDE_LEFT ? m : n;
    if (lda < std::max(1, order))
        return invalid("%s: lda %d is less than the order %d of A", api, lda, order);
    if ((st = check_ld(api, "ldb", ldb, m)) || (st = check_host_scalar(alpha, api, "alpha")))
        return st;
    if (m == 0 || n == 0)
        return CUBLAS_STATUS_SUCCESS;
    if ((st = check_device(A, matrix_extent(order, order, lda), sizeof(T), api, "A")) ||
        (st = check_device(B, matrix_extent(m, n, ldb), sizeof(T), api, "B")))
        return st;
    runtime::device_access open(A, B);
    cb<T>::trsm(side == CUBLAS_SIDE_LEFT ? CblasLeft : CblasRight, uplo == CUBLAS_FILL_MODE_LOWER ? CblasLower : CblasUpper,
                to_cblas(trans), diag == CUBLAS_DIAG_UNIT ? CblasUnit : CblasNonUnit, m, n, *alpha, A, lda, B, ldb);
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- moving vectors and matrices ------------------------------------------------ */

/* rows x cols elements of elem bytes from src (ld) to dst (ld); the device
 * side (`to_device` says which) must lie in one allocation. Vectors are
 * rows = 1 matrices with the increment as leading dimension. */
cublasStatus_t move(const char *api, int rows, int cols, int elem, const void *src, int lds, void *dst, int ldd,
                    bool to_device, bool vector)
{
    if (vector) {
        if (cols < 0 || elem <= 0)
            return invalid("%s: n %d must not be negative and elemSize %d must be positive", api, cols, elem);
        if (lds <= 0 || ldd <= 0)
            return invalid("%s: incx and incy must be positive (got %d, %d)", api, lds, ldd);
    } else {
        if (rows < 0 || cols < 0 || elem <= 0)
            return invalid("%s: rows %d and cols %d must not be negative and elemSize %d must be positive", api, rows,
                           cols, elem);
        if (lds < std::max(1, rows) || ldd < std::max(1, rows))
            return invalid("%s: lda %d and ldb %d must be at least rows = %d (column-major)", api, lds, ldd, rows);
    }
    if (rows == 0 || cols == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (!src || !dst)
        return invalid("%s: %s is NULL", api, !src ? (vector ? "x" : "A") : (vector ? "y" : "B"));
    const void *dev = to_device ? static_cast<const void *>(dst) : src;
    const int ld_dev = to_device ? ldd : lds;
    cublasStatus_t st = check_device(dev, matrix_extent(rows, cols, ld_dev), static_cast<std::size_t>(elem), api,
                                     to_device ? (vector ? "y" : "B") : (vector ? "x" : "A"));
    if (st)
        return st;
    runtime::device_access open(dev);
    const std::size_t e = static_cast<std::size_t>(elem);
    for (int j = 0; j < cols; ++j)
        std::memmove(static_cast<char *>(dst) + static_cast<std::size_t>(j) * ldd * e,
                     static_cast<const char *>(src) + static_cast<std::size_t>(j) * lds * e,
                     static_cast<std::size_t>(rows) * e);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t stream_ok(const char *api, cudaStream_t stream)
{
    return validate_stream(stream, api) == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

} /* namespace */

extern "C" {

cublasStatus_t cublasSetVector(int n, int elemSize, const void *x, int incx, void *devicePtr, int incy)
{
    return move("cublasSetVector", 1, n, elemSize, x, incx, devicePtr, incy, true, true);
}

cublasStatus_t cublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy)
{
    return move("cublasGetVector", 1, n, elemSize, x, incx, y, incy, false, true);
}

cublasStatus_t cublasSetVectorAsync(int n, int elemSize, const void *hostPtr, int incx, void *devicePtr, int incy,
                                    cudaStream_t stream)
{
    cublasStatus_t st = stream_ok("cublasSetVectorAsync", stream);
    return st ? st : move("cublasSetVectorAsync", 1, n, elemSize, hostPtr, incx, devicePtr, incy, true, true);
}

cublasStatus_t cublasGetVectorAsync(int n, int elemSize, const void *devicePtr, int incx, void *hostPtr, int incy,
                                    cudaStream_t stream)
{
    cublasStatus_t st = stream_ok("cublasGetVectorAsync", stream);
    return st ? st : move("cublasGetVectorAsync", 1, n, elemSize, devicePtr, incx, hostPtr, incy, false, true);
}

cublasStatus_t cublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return move("cublasSetMatrix", rows, cols, elemSize, A, lda, B, ldb, true, false);
}

cublasStatus_t cublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb)
{
    return move("cublasGetMatrix", rows, cols, elemSize, A, lda, B, ldb, false, false);
}

cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream)
{
    cublasStatus_t st = stream_ok("cublasSetMatrixAsync", stream);
    return st ? st : move("cublasSetMatrixAsync", rows, cols, elemSize, A, lda, B, ldb, true, false);
}

cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream)
{
    cublasStatus_t st = stream_ok("cublasGetMatrixAsync", stream);
    return st ? st : move("cublasGetMatrixAsync", rows, cols, elemSize, A, lda, B, ldb, false, false);
}

cublasStatus_t cublasSaxpy(cublasHandle_t h, int n, const float *alpha, const float *x, int incx, float *y, int incy)
{
    return axpy("cublasSaxpy", h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasDaxpy(cublasHandle_t h, int n, const double *alpha, const double *x, int incx, double *y,
                           int incy)
{
    return axpy("cublasDaxpy", h, n, alpha, x, incx, y, incy);
}
cublasStatus_t cublasSscal(cublasHandle_t h, int n, const float *alpha, float *x, int incx)
{
    return scal("cublasSscal", h, n, alpha, x, incx);
}
cublasStatus_t cublasDscal(cublasHandle_t h, int n, const double *alpha, double *x, int incx)
{
    return scal("cublasDscal", h, n, alpha, x, incx);
}
cublasStatus_t cublasScopy(cublasHandle_t h, int n, const float *x, int incx, float *y, int incy)
{
    return copy_or_swap("cublasScopy", h, n, x, incx, y, incy, false);
}
cublasStatus_t cublasDcopy(cublasHandle_t h, int n, const double *x, int incx, double *y, int incy)
{
    return copy_or_swap("cublasDcopy", h, n, x, incx, y, incy, false);
}
cublasStatus_t cublasSswap(cublasHandle_t h, int n, float *x, int incx, float *y, int incy)
{
    return copy_or_swap<float>("cublasSswap", h, n, x, incx, y, incy, true);
}
cublasStatus_t cublasDswap(cublasHandle_t h, int n, double *x, int incx, double *y, int incy)
{
    return copy_or_swap<double>("cublasDswap", h, n, x, incx, y, incy, true);
}
cublasStatus_t cublasSdot(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy, float *result)
{
    return dot("cublasSdot", h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasDdot(cublasHandle_t h, int n, const double *x, int incx, const double *y, int incy,
                          double *result)
{
    return dot("cublasDdot", h, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSnrm2(cublasHandle_t h, int n, const float *x, int incx, float *result)
{
    return reduce("cublasSnrm2", h, n, x, incx, result, true);
}
cublasStatus_t cublasDnrm2(cublasHandle_t h, int n, const double *x, int incx, double *result)
{
    return reduce("cublasDnrm2", h, n, x, incx, result, true);
}
cublasStatus_t cublasSasum(cublasHandle_t h, int n, const float *x, int incx, float *result)
{
    return reduce("cublasSasum", h, n, x, incx, result, false);
}
cublasStatus_t cublasDasum(cublasHandle_t h, int n, const double *x, int incx, double *result)
{
    return reduce("cublasDasum", h, n, x, incx, result, false);
}
cublasStatus_t cublasIsamax(cublasHandle_t h, int n, const float *x, int incx, int *result)
{
    return index_of_extreme("cublasIsamax", h, n, x, incx, result, true);
}
cublasStatus_t cublasIdamax(cublasHandle_t h, int n, const double *x, int incx, int *result)
{
    return index_of_extreme("cublasIdamax", h, n, x, incx, result, true);
}
cublasStatus_t cublasIsamin(cublasHandle_t h, int n, const float *x, int incx, int *result)
{
    return index_of_extreme("cublasIsamin", h, n, x, incx, result, false);
}
cublasStatus_t cublasIdamin(cublasHandle_t h, int n, const double *x, int incx, int *result)
{
    return index_of_extreme("cublasIdamin", h, n, x, incx, result, false);
}
cublasStatus_t cublasSrot(cublasHandle_t h, int n, float *x, int incx, float *y, int incy, const float *c,
                          const float *s)
{
    return rot("cublasSrot", h, n, x, incx, y, incy, c, s);
}
cublasStatus_t cublasDrot(cublasHandle_t h, int n, double *x, int incx, double *y, int incy, const double *c,
                          const double *s)
{
    return rot("cublasDrot", h, n, x, incx, y, incy, c, s);
}

cublasStatus_t cublasSgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha,
                           const float *A, int lda, const float *x, int incx, const float *beta, float *y, int incy)
{
    return gemv("cublasSgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasDgemv(cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha,
                           const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                           int incy)
{
    return gemv("cublasDgemv", handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasSger(cublasHandle_t handle, int m, int n, const float *alpha, const float *x, int incx,
                          const float *y, int incy, float *A, int lda)
{
    return ger("cublasSger", handle, m, n, alpha, x, incx, y, incy, A, lda);
}
cublasStatus_t cublasDger(cublasHandle_t handle, int m, int n, const double *alpha, const double *x, int incx,
                          const double *y, int incy, double *A, int lda)
{
    return ger("cublasDger", handle, m, n, alpha, x, incx, y, incy, A, lda);
}

cublasStatus_t cublasSgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const float *alpha, const float *A, int lda, const float *beta, const float *B, int ldb,
                           float *C, int ldc)
{
    return geam("cublasSgeam", handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}
cublasStatus_t cublasDgeam(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                           const double *alpha, const double *A, int lda, const double *beta, const double *B,
                           int ldb, double *C, int ldc)
{
    return geam("cublasDgeam", handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);
}
cublasStatus_t cublasStrsm(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float *alpha,
                           const float *A, int lda, float *B, int ldb)
{
    return trsm("cublasStrsm", handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}
cublasStatus_t cublasDtrsm(cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double *alpha,
                           const double *A, int lda, double *B, int ldb)
{
    return trsm("cublasDtrsm", handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
}

} /* extern "C" */
