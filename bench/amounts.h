/* What each chapter's kernels must move or compute: the amounts behind the
 * benches' GB/s and GFLOP/s columns, in one place so that a test can hold
 * them against what the kernels really do (tests/test_core_bench.c checks
 * the byte counts against the emulator's modelled global-memory traffic:
 * the bytes a kernel's loads and stores use, from its warps' real
 * addresses).
 *
 * The counts are the minimum traffic of the operation, not of a version:
 * a version that moves more (v1 of the transpose with its uncoalesced
 * writes, a reduction's second pass) shows it as a lower GB/s against the
 * same amount, which is the lesson. */
#ifndef SIMTLAB_BENCH_AMOUNTS_H
#define SIMTLAB_BENCH_AMOUNTS_H

#include <stddef.h>

/* 01 vector add, c = a + b: read a and b, write c, 4 bytes each. */
static inline size_t bench_bytes_vector_add(size_t n) { return 12 * n; }
/* 02 add and SAXPY, out = alpha * x + y: read x and y, write out. */
static inline size_t bench_bytes_saxpy(size_t n) { return 12 * n; }
/* 03 divergence: read one 4-byte input, write one 4-byte result per element. */
static inline size_t bench_bytes_divergence(size_t n) { return 8 * n; }
/* 04 reduction: read every float once (the result is 4 bytes). */
static inline size_t bench_bytes_reduce(size_t n) { return 4 * n; }
/* 05 transpose of rows x cols floats: read each once, write each once. */
static inline size_t bench_bytes_transpose(size_t rows, size_t cols) { return 8 * rows * cols; }
/* 05 SGEMM and 06 tensor-core GEMM, C = A * B (m x k times k x n): one
 * multiply and one add per term of each of the m * n dot products of
 * length k. */
static inline double bench_flops_gemm(size_t m, size_t n, size_t k) { return 2.0 * (double)m * (double)n * (double)k; }

#endif
