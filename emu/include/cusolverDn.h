/* simtlab CPU emulator — <cusolverDn.h>: cuSOLVER's dense API, the part a
 * course meets, for C and C++.
 *
 * Names, signatures and enum values follow cuSOLVER 12 (CUDA 13), so host
 * code compiles unchanged against either backend. Each call checks its
 * arguments as cuSOLVER does, and that every matrix, vector, workspace and
 * devInfo lies inside one live device allocation, then runs on the host's
 * LAPACK (OpenBLAS) in the order of the handle's stream (emu/src/cusolver*.cpp):
 * results are what a correct LAPACK gives, timings are CPU timings.
 *
 * Matrices are column-major. devInfo (info) is device memory: 0 on success,
 * -i when the i-th argument (not counting the handle) is wrong, i > 0 when
 * the matrix is singular (getrf: U(i,i) is 0), not positive definite
 * (potrf: the leading minor of order i), or the iteration did not converge
 * (gesvd, syevd/heevd). The workspace sizes the _bufferSize calls return
 * are in elements; the emulator checks that Lwork is at least that and that
 * the workspace holds it, but computes in memory of its own.
 *
 * Provided, for S, D, C and Z: potrf (+ _bufferSize), potrs, getrf
 * (+ _bufferSize; devIpiv NULL: no pivoting), getrs, geqrf (+ _bufferSize),
 * orgqr/ungqr and ormqr/unmqr (+ _bufferSize), gesvd (+ _bufferSize; m >= n
 * as in cuSOLVER), syevd/heevd (+ _bufferSize), syevj/heevj (a cyclic
 * Jacobi method of the emulator's own; + _bufferSize, syevjInfo_t). Not
 * provided: the 64-bit cusolverDnX* API, gesvdj and the batched calls,
 * cusolverSp, cusolverRf, cusolverMg.
 */
#ifndef SIMTLAB_EMU_CUSOLVERDN_H
#define SIMTLAB_EMU_CUSOLVERDN_H
#define CUSOLVERDN_H_ /* the toolkit's guard */
/* Left out of this build (emu/cmake/SimtlabEmuLibraries.cmake). */
#if defined(SIMTLAB_EMU_WITHOUT_CUSOLVER)
#error "simtlab emulator: this emulator was built without cuSOLVER: configure it with -DSIMTLAB_EMU_WITH_CUSOLVER=ON"
#endif

#include <stdio.h>

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolver_common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cusolverDnContext;
typedef struct cusolverDnContext *cusolverDnHandle_t;

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle);
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId);
cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t *streamId);

/* ---- float ---- */
cusolverStatus_t cusolverDnSpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, float *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnSpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, float *A, int lda,
                                  float *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnSpotrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs, const float *A,
                                  int lda, float *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnSgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, float *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnSgetrf(cusolverDnHandle_t handle, int m, int n, float *A, int lda, float *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnSgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs, const float *A,
                                  int lda, const int *devIpiv, float *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnSgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, float *A, int lda, int *lwork);
cusolverStatus_t cusolverDnSgeqrf(cusolverDnHandle_t handle, int m, int n, float *A, int lda, float *TAU,
                                  float *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnSorgqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const float *A, int lda,
                                             const float *tau, int *lwork);
cusolverStatus_t cusolverDnSorgqr(cusolverDnHandle_t handle, int m, int n, int k, float *A, int lda, const float *tau,
                                  float *work, int lwork, int *info);
cusolverStatus_t cusolverDnSormqr_bufferSize(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans,
                                             int m, int n, int k, const float *A, int lda, const float *tau,
                                             const float *C, int ldc, int *lwork);
cusolverStatus_t cusolverDnSormqr(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans, int m,
                                  int n, int k, const float *A, int lda, const float *tau, float *C, int ldc,
                                  float *work, int lwork, int *devInfo);
cusolverStatus_t cusolverDnSgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnSgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  float *A, int lda, float *S, float *U, int ldu, float *VT, int ldvt, float *work,
                                  int lwork, float *rwork, int *info);
cusolverStatus_t cusolverDnSsyevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const float *A, int lda, const float *W, int *lwork);
cusolverStatus_t cusolverDnSsyevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  float *A, int lda, float *W, float *work, int lwork, int *info);

/* ---- double ---- */
cusolverStatus_t cusolverDnDpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double *A,
                                             int lda, int *Lwork);
cusolverStatus_t cusolverDnDpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, double *A, int lda,
                                  double *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnDpotrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs, const double *A,
                                  int lda, double *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnDgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, double *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnDgetrf(cusolverDnHandle_t handle, int m, int n, double *A, int lda, double *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnDgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs, const double *A,
                                  int lda, const int *devIpiv, double *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnDgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, double *A, int lda, int *lwork);
cusolverStatus_t cusolverDnDgeqrf(cusolverDnHandle_t handle, int m, int n, double *A, int lda, double *TAU,
                                  double *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnDorgqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const double *A, int lda,
                                             const double *tau, int *lwork);
cusolverStatus_t cusolverDnDorgqr(cusolverDnHandle_t handle, int m, int n, int k, double *A, int lda, const double *tau,
                                  double *work, int lwork, int *info);
cusolverStatus_t cusolverDnDormqr_bufferSize(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans,
                                             int m, int n, int k, const double *A, int lda, const double *tau,
                                             const double *C, int ldc, int *lwork);
cusolverStatus_t cusolverDnDormqr(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans, int m,
                                  int n, int k, const double *A, int lda, const double *tau, double *C, int ldc,
                                  double *work, int lwork, int *devInfo);
cusolverStatus_t cusolverDnDgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnDgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  double *A, int lda, double *S, double *U, int ldu, double *VT, int ldvt, double *work,
                                  int lwork, double *rwork, int *info);
cusolverStatus_t cusolverDnDsyevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const double *A, int lda, const double *W, int *lwork);
cusolverStatus_t cusolverDnDsyevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  double *A, int lda, double *W, double *work, int lwork, int *info);

/* ---- cuComplex ---- */
cusolverStatus_t cusolverDnCpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuComplex *A,
                                             int lda, int *Lwork);
cusolverStatus_t cusolverDnCpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuComplex *A, int lda,
                                  cuComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnCpotrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs, const cuComplex *A,
                                  int lda, cuComplex *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnCgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnCgetrf(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda, cuComplex *Workspace,
                                  int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnCgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                  const cuComplex *A, int lda, const int *devIpiv, cuComplex *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnCgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda,
                                             int *lwork);
cusolverStatus_t cusolverDnCgeqrf(cusolverDnHandle_t handle, int m, int n, cuComplex *A, int lda, cuComplex *TAU,
                                  cuComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnCungqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const cuComplex *A,
                                             int lda, const cuComplex *tau, int *lwork);
cusolverStatus_t cusolverDnCungqr(cusolverDnHandle_t handle, int m, int n, int k, cuComplex *A, int lda,
                                  const cuComplex *tau, cuComplex *work, int lwork, int *info);
cusolverStatus_t cusolverDnCunmqr_bufferSize(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans,
                                             int m, int n, int k, const cuComplex *A, int lda, const cuComplex *tau,
                                             const cuComplex *C, int ldc, int *lwork);
cusolverStatus_t cusolverDnCunmqr(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans, int m,
                                  int n, int k, const cuComplex *A, int lda, const cuComplex *tau, cuComplex *C,
                                  int ldc, cuComplex *work, int lwork, int *devInfo);
cusolverStatus_t cusolverDnCgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnCgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  cuComplex *A, int lda, float *S, cuComplex *U, int ldu, cuComplex *VT, int ldvt,
                                  cuComplex *work, int lwork, float *rwork, int *info);
cusolverStatus_t cusolverDnCheevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuComplex *A, int lda, const float *W, int *lwork);
cusolverStatus_t cusolverDnCheevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuComplex *A, int lda, float *W, cuComplex *work, int lwork, int *info);

/* ---- cuDoubleComplex ---- */
cusolverStatus_t cusolverDnZpotrf_bufferSize(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n,
                                             cuDoubleComplex *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnZpotrf(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnZpotrs(cusolverDnHandle_t handle, cublasFillMode_t uplo, int n, int nrhs,
                                  const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb, int *devInfo);
cusolverStatus_t cusolverDnZgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                             int *Lwork);
cusolverStatus_t cusolverDnZgetrf(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *Workspace, int *devIpiv, int *devInfo);
cusolverStatus_t cusolverDnZgetrs(cusolverDnHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                                  const cuDoubleComplex *A, int lda, const int *devIpiv, cuDoubleComplex *B, int ldb,
                                  int *devInfo);
cusolverStatus_t cusolverDnZgeqrf_bufferSize(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                             int *lwork);
cusolverStatus_t cusolverDnZgeqrf(cusolverDnHandle_t handle, int m, int n, cuDoubleComplex *A, int lda,
                                  cuDoubleComplex *TAU, cuDoubleComplex *Workspace, int Lwork, int *devInfo);
cusolverStatus_t cusolverDnZungqr_bufferSize(cusolverDnHandle_t handle, int m, int n, int k, const cuDoubleComplex *A,
                                             int lda, const cuDoubleComplex *tau, int *lwork);
cusolverStatus_t cusolverDnZungqr(cusolverDnHandle_t handle, int m, int n, int k, cuDoubleComplex *A, int lda,
                                  const cuDoubleComplex *tau, cuDoubleComplex *work, int lwork, int *info);
cusolverStatus_t cusolverDnZunmqr_bufferSize(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans,
                                             int m, int n, int k, const cuDoubleComplex *A, int lda,
                                             const cuDoubleComplex *tau, const cuDoubleComplex *C, int ldc, int *lwork);
cusolverStatus_t cusolverDnZunmqr(cusolverDnHandle_t handle, cublasSideMode_t side, cublasOperation_t trans, int m,
                                  int n, int k, const cuDoubleComplex *A, int lda, const cuDoubleComplex *tau,
                                  cuDoubleComplex *C, int ldc, cuDoubleComplex *work, int lwork, int *devInfo);
cusolverStatus_t cusolverDnZgesvd_bufferSize(cusolverDnHandle_t handle, int m, int n, int *lwork);
cusolverStatus_t cusolverDnZgesvd(cusolverDnHandle_t handle, signed char jobu, signed char jobvt, int m, int n,
                                  cuDoubleComplex *A, int lda, double *S, cuDoubleComplex *U, int ldu,
                                  cuDoubleComplex *VT, int ldvt, cuDoubleComplex *work, int lwork, double *rwork,
                                  int *info);
cusolverStatus_t cusolverDnZheevd_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuDoubleComplex *A, int lda, const double *W, int *lwork);
cusolverStatus_t cusolverDnZheevd(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuDoubleComplex *A, int lda, double *W, cuDoubleComplex *work, int lwork, int *info);
/* ---- the Jacobi eigenvalue solver: syevj / heevj ---- */
struct syevjInfo;
typedef struct syevjInfo *syevjInfo_t;

cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t *info);
cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info);
/* Stop when the off-diagonal part's Frobenius norm is at most tolerance
 * times |A|_F (default, and never less than: the type's machine epsilon). */
cusolverStatus_t cusolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance);
/* At most max_sweeps sweeps (default 100); devInfo = n + 1 if that did not
 * reach the tolerance. */
cusolverStatus_t cusolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps);
/* Recorded; as in cuSOLVER, syevj always sorts ascending (the batched calls,
 * which read it, are not provided). */
cusolverStatus_t cusolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig);
/* The last syevj with these parameters: the off-diagonal Frobenius norm it
 * stopped at, and the sweeps it ran. */
cusolverStatus_t cusolverDnXsyevjGetResidual(cusolverDnHandle_t handle, syevjInfo_t info, double *residual);
cusolverStatus_t cusolverDnXsyevjGetSweeps(cusolverDnHandle_t handle, syevjInfo_t info, int *executed_sweeps);
cusolverStatus_t cusolverDnSsyevj_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const float *A, int lda, const float *W, int *lwork,
                                             syevjInfo_t params);
cusolverStatus_t cusolverDnSsyevj(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  float *A, int lda, float *W, float *work, int lwork, int *info, syevjInfo_t params);
cusolverStatus_t cusolverDnDsyevj_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const double *A, int lda, const double *W, int *lwork,
                                             syevjInfo_t params);
cusolverStatus_t cusolverDnDsyevj(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  double *A, int lda, double *W, double *work, int lwork, int *info,
                                  syevjInfo_t params);
cusolverStatus_t cusolverDnCheevj_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuComplex *A, int lda, const float *W, int *lwork,
                                             syevjInfo_t params);
cusolverStatus_t cusolverDnCheevj(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuComplex *A, int lda, float *W, cuComplex *work, int lwork, int *info,
                                  syevjInfo_t params);
cusolverStatus_t cusolverDnZheevj_bufferSize(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo,
                                             int n, const cuDoubleComplex *A, int lda, const double *W, int *lwork,
                                             syevjInfo_t params);
cusolverStatus_t cusolverDnZheevj(cusolverDnHandle_t handle, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,
                                  cuDoubleComplex *A, int lda, double *W, cuDoubleComplex *work, int lwork, int *info,
                                  syevjInfo_t params);

#ifdef __cplusplus
}
#endif

#endif
