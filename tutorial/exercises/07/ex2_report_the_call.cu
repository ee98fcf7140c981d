/* Exercise 07.2 — report the call that failed.
 * pipeline() does the lifecycle of chapter 01, every call wrapped in
 * REPORT, which does nothing yet. The program runs it once as it is and
 * three times with one mistake planted: a cudaMalloc far too large, a
 * launch of 2048 threads per block, and a buffer freed twice. Unchecked,
 * every mistake goes by unnoticed and the program carries on.
 *
 * 1. Write REPORT(expr): when `expr` returns an error, record the call's
 *    text (#expr), its line and the error in `failure`, and make pipeline()
 *    return that error at once.
 * 2. Check the launch: it returns nothing, so ask cudaGetLastError()
 *    (a bad configuration), then cudaDeviceSynchronize() (a fault while
 *    the kernel ran), each through REPORT.
 * The program says which mistake went unreported, or which call your
 * report named instead of the one that failed. */
#include <string.h>

#include "../common/ex_check.h"

typedef struct failure_t {
    const char *call; /* the text of the failed call, as written in the source */
    int line;
    cudaError_t err;
} failure_t;
static failure_t failure;

/* In pipeline(): `status` holds the error to return, and `done:` frees
 * what was allocated, also after a failure. */
#ifdef SOLUTION
#define REPORT(expr)                                                           \
    do {                                                                       \
        cudaError_t err_ = (expr);                                             \
        if (err_ != cudaSuccess) {                                             \
            failure.call = #expr;                                              \
            failure.line = __LINE__;                                           \
            failure.err = err_;                                                \
            status = err_;                                                     \
            goto done;                                                         \
        }                                                                      \
    } while (0)
#else
/* FIXME: when expr fails, record it in `failure`, set status, goto done */
#define REPORT(expr) (void)(expr)
#endif

__global__ void scale(float *x, size_t n, float s)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

enum mistake { NONE, TOO_LARGE, BAD_BLOCK, DOUBLE_FREE };

/* y = 2x for n floats, with `m` planted. */
static cudaError_t pipeline(const float *x, float *y, size_t n, enum mistake m)
{
    cudaError_t status = cudaSuccess;
    float *d_x = NULL, *freed = NULL;
    size_t bytes = n * sizeof(float);
    size_t ask = m == TOO_LARGE ? (size_t)1 << 50 : bytes; /* 1 PiB: more than any GPU has */
    int block = m == BAD_BLOCK ? 2048 : 256;               /* the limit is 1024 */
    REPORT(cudaMalloc(&d_x, ask));
    REPORT(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
    scale<<<(unsigned)((n + 255) / 256), block>>>(d_x, n, 2.0f);
#ifdef SOLUTION
    REPORT(cudaGetLastError());      /* the launch itself: a bad configuration */
    REPORT(cudaDeviceSynchronize()); /* the kernel's run: a fault while it ran */
#else
    /* FIXME: a launch returns nothing: check it here, twice */
#endif
    REPORT(cudaMemcpy(y, d_x, bytes, cudaMemcpyDeviceToHost));
    freed = d_x;
    d_x = NULL;
    REPORT(cudaFree(freed));
    if (m == DOUBLE_FREE) REPORT(cudaFree(freed));
#ifndef SOLUTION
    if (0) goto done; /* (only so that the unfinished version compiles without a warning) */
#endif
done:
    cudaFree(d_x); /* NULL unless a step failed after the allocation */
    return status;
}

/* Runs `m` and checks that the report names a call containing `want`. */
static int expect_report(enum mistake m, const char *what, const char *want)
{
    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = -1.0f;
    memset(&failure, 0, sizeof failure);
    cudaError_t err = pipeline(x, y, N, m);
    (void)cudaGetLastError(); /* none of these errors is sticky: clear it for the next run */
    if (m == NONE) {
        for (int i = 0; i < N; i++)
            if (y[i] != 2.0f * x[i]) {
                printf("WRONG (no mistake): y[%d] = %g, expected %g\n", i, y[i], 2.0f * x[i]);
                return 1;
            }
        if (err != cudaSuccess || failure.call) {
            printf("WRONG (no mistake): a report of %s at line %d (%s) where nothing failed\n",
                   failure.call ? failure.call : "?", failure.line, cudaGetErrorName(err));
            return 1;
        }
        printf("correct (no mistake): y = 2x, nothing reported\n");
        return 0;
    }
    if (!failure.call || err == cudaSuccess) {
        printf("WRONG (%s): pipeline() returned %s and reported nothing: the mistake went by unnoticed\n", what,
               cudaGetErrorName(err));
        return 1;
    }
    if (!strstr(failure.call, want) || err != failure.err) {
        printf("WRONG (%s): the report names %s (line %d, %s), but the call that failed is %s\n", what,
               failure.call, failure.line, cudaGetErrorName(failure.err), want);
        return 1;
    }
    printf("correct (%s): line %d: %s failed: %s\n", what, failure.line, failure.call, cudaGetErrorName(err));
    return 0;
}

int main(void)
{
    int wrong = 0;
    wrong |= expect_report(NONE, "no mistake", "");
    wrong |= expect_report(TOO_LARGE, "1 PiB cudaMalloc", "cudaMalloc");
    wrong |= expect_report(BAD_BLOCK, "2048 threads per block", "cudaGetLastError");
    wrong |= expect_report(DOUBLE_FREE, "freed twice", "cudaFree");
    return wrong;
}
