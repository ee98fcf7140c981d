/* Tests of kernels/common/sl_tensor.h under the CPU emulator: that each
 * wrapper runs the instruction its name says, that the emulator's
 * diagnostics name the line that called the wrapper (not a line of
 * sl_tensor.h), and that cp.async, ldmatrix and mma.sync together compute a
 * tile the way a tensor-core GEMM uses them. The instructions themselves,
 * every fragment position and every failure, are the emulator's own tests
 * (emu/tests/test_emu_tensor.cu); on a GPU, tests/cuda/tensor_ptx_check.cu
 * runs the PTX side.
 *
 * Inputs are small integers: exact in f16 and bf16, and each product and
 * partial sum of a 16-term dot product is an integer below 2^24, exact in
 * float, so every result must equal the integer reference exactly.
 *
 * Build and run: cmake --build build --target test_sl_tensor &&
 *                build/bin/test_sl_tensor --verbose
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "common/sl_tensor.h"

/* ---- host helpers -------------------------------------------------------- */

/* binary16 bits of an integer with |v| <= 2048: 2^e <= |v| < 2^(e+1). */
static unsigned short f16_of_int(int v)
{
    const unsigned m = (unsigned)(v < 0 ? -v : v);
    int e = 0;
    if (m == 0)
        return 0;
    while (m >> (e + 1))
        ++e;
    return (unsigned short)((v < 0 ? 0x8000u : 0u) | (unsigned)(e + 15) << 10 | ((m << 10 >> e) & 0x3ffu));
}

/* bfloat16 is the upper half of a float; small integers need no rounding. */
static unsigned short bf16_of_int(int v)
{
    const float f = (float)v;
    unsigned bits;
    memcpy(&bits, &f, sizeof bits);
    return (unsigned short)(bits >> 16);
}

/* Device copies of host arrays (NULL: filled with 0xff), freed after each
 * test by the suite's .fini so that a failed assertion leaks nothing. */
static void *allocations[8];
static int allocation_count;

static void free_allocations(void)
{
    while (allocation_count > 0)
        cudaFree(allocations[--allocation_count]);
}

TestSuite(sl_tensor, .fini = free_allocations);

static void *device_copy(const void *host, size_t bytes)
{
    void *p = NULL;
    cr_assert(allocation_count < 8 && cudaMalloc(&p, bytes) == cudaSuccess, "cudaMalloc(%zu)", bytes);
    allocations[allocation_count++] = p;
    cr_assert_eq(host ? cudaMemcpy(p, host, bytes, cudaMemcpyHostToDevice) : cudaMemset(p, 0xff, bytes),
                 cudaSuccess);
    return p;
}

/* Synchronizes and returns the launch's error; the diagnostic goes to stderr. */
static cudaError_t finish(const char *kernel)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        fprintf(stderr, "%s: %s: %s\n", kernel, cudaGetErrorName(e), simtlab_emu_last_diagnostic());
    return e;
}

/* A (16x16, row-major), B (16x8, k x n, row-major), C (16x8) of small
 * integers, and D = A * B + C computed in integers. */
struct tile {
    int a[256], b[128], c[128], d[128];
};

static void make_tile(struct tile *t)
{
    for (int i = 0; i < 256; ++i)
        t->a[i] = (i * 7 + i / 16) % 9 - 4;
    for (int i = 0; i < 128; ++i) {
        t->b[i] = (i * 5 + 3) % 7 - 3;
        t->c[i] = i % 11 - 5;
    }
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 8; ++n) {
            int sum = t->c[m * 8 + n];
            for (int k = 0; k < 16; ++k)
                sum += t->a[m * 16 + k] * t->b[k * 8 + n];
            t->d[m * 8 + n] = sum;
        }
}

static void expect_tile(const float *got, const struct tile *t, const char *what)
{
    for (int i = 0; i < 128; ++i)
        cr_assert(got[i] == (float)t->d[i], "%s: D[%d][%d] = %.9g, expected %d", what, i / 8, i % 8, got[i],
                  t->d[i]);
}

/* ---- mma.sync ------------------------------------------------------------ */

/* Each lane builds its fragments from the whole matrices as the PTX ISA
 * table says (g = lane / 4, t = lane % 4; see sl_tensor.h). */
__global__ void mma_tile(const unsigned short *a, const unsigned short *b, const float *c, float *d, int bf16)
{
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4;
    unsigned fa[4], fb[2];
    float fc[4], fd[4];
    for (unsigned r = 0; r < 4; ++r) {
        const unsigned row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
        fa[r] = a[row * 16 + col] | (unsigned)a[row * 16 + col + 1] << 16;
    }
    for (unsigned r = 0; r < 2; ++r)
        fb[r] = b[(2 * t + 8 * r) * 8 + g] | (unsigned)b[(2 * t + 8 * r + 1) * 8 + g] << 16;
    for (unsigned i = 0; i < 4; ++i)
        fc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    if (bf16)
        sl_mma_m16n8k16_bf16_f32(fd, fa, fb, fc);
    else
        sl_mma_m16n8k16_f16_f32(fd, fa, fb, fc);
    for (unsigned i = 0; i < 4; ++i)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = fd[i];
}

static void check_mma(int bf16)
{
    static struct tile t;
    unsigned short ha[256], hb[128];
    float hc[128], hd[128];
    make_tile(&t);
    for (int i = 0; i < 256; ++i)
        ha[i] = bf16 ? bf16_of_int(t.a[i]) : f16_of_int(t.a[i]);
    for (int i = 0; i < 128; ++i) {
        hb[i] = bf16 ? bf16_of_int(t.b[i]) : f16_of_int(t.b[i]);
        hc[i] = (float)t.c[i];
    }
    void *da = device_copy(ha, sizeof ha), *db = device_copy(hb, sizeof hb);
    void *dc = device_copy(hc, sizeof hc), *dd = device_copy(NULL, sizeof hd);
    mma_tile<<<1, 32>>>((const unsigned short *)da, (const unsigned short *)db, (const float *)dc, (float *)dd, bf16);
    cr_assert_eq(finish("mma_tile"), cudaSuccess);
    cr_assert_eq(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost), cudaSuccess);
    expect_tile(hd, &t, bf16 ? "sl_mma_m16n8k16_bf16_f32" : "sl_mma_m16n8k16_f16_f32");
}

Test(sl_tensor, mma_f16_computes_d_equals_a_times_b_plus_c) { check_mma(0); }
Test(sl_tensor, mma_bf16_computes_d_equals_a_times_b_plus_c) { check_mma(1); }

/* ---- ldmatrix ------------------------------------------------------------ */

/* Four 8x8 matrices, element (j, row, col) = 64 j + 8 row + col; every
 * variant in turn, out[variant][lane][register], 0 where not loaded. */
__global__ void ldmatrix_every_variant(const unsigned short *m, unsigned *out)
{
    __shared__ unsigned short tiles[4][8][8];
    const unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < 256; i += 32)
        tiles[i / 64][i / 8 % 8][i % 8] = m[i];
    __syncwarp();
    const void *row = &tiles[lane / 8][lane % 8][0];
    unsigned r[6][4] = {{0}};
    sl_ldmatrix_x1(r[0], row);
    sl_ldmatrix_x2(r[1], row);
    sl_ldmatrix_x4(r[2], row);
    sl_ldmatrix_x1_trans(r[3], row);
    sl_ldmatrix_x2_trans(r[4], row);
    sl_ldmatrix_x4_trans(r[5], row);
    for (unsigned v = 0; v < 6; ++v)
        for (unsigned j = 0; j < 4; ++j)
            out[(v * 32 + lane) * 4 + j] = r[v][j];
}

Test(sl_tensor, each_ldmatrix_variant_loads_its_count_of_matrices_in_fragment_layout)
{
    static const char *const names[6] = {"x1", "x2", "x4", "x1_trans", "x2_trans", "x4_trans"};
    unsigned short hm[256];
    static unsigned hout[6 * 32 * 4];
    for (int i = 0; i < 256; ++i)
        hm[i] = (unsigned short)i;
    void *dm = device_copy(hm, sizeof hm), *dout = device_copy(NULL, sizeof hout);
    ldmatrix_every_variant<<<1, 32>>>((const unsigned short *)dm, (unsigned *)dout);
    cr_assert_eq(finish("ldmatrix_every_variant"), cudaSuccess);
    cr_assert_eq(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost), cudaSuccess);
    for (int v = 0; v < 6; ++v)
        for (int lane = 0; lane < 32; ++lane)
            for (int j = 0; j < 4; ++j) {
                /* lane L: row L / 4, elements 2 (L % 4) and the next; .trans
                 * gives those positions of the transposed matrix */
                const int count = 1 << (v % 3), trans = v >= 3, row = lane / 4, col = 2 * (lane % 4);
                const unsigned lo = trans ? 64 * j + 8 * col + row : 64 * j + 8 * row + col;
                const unsigned hi = trans ? lo + 8 : lo + 1;
                const unsigned want = j < count ? lo | hi << 16 : 0;
                cr_assert_eq(hout[(v * 32 + lane) * 4 + j], want, "sl_ldmatrix_%s: lane %d r[%d] = 0x%08x, expected 0x%08x",
                             names[v], lane, j, hout[(v * 32 + lane) * 4 + j], want);
            }
}

/* ---- cp.async ------------------------------------------------------------ */

struct __align__(16) chunk {
    unsigned w[4];
};

/* Two groups: wait_group(1) retires the older (x), wait_all the newer (y). */
__global__ void cp_async_two_groups(const struct chunk *src, struct chunk *x_out, struct chunk *y_out)
{
    __shared__ struct chunk x[32], y[32];
    const unsigned tid = threadIdx.x;
    sl_cp_async_16(&x[tid], &src[tid]);
    sl_cp_async_commit();
    sl_cp_async_16(&y[tid], &src[32 + tid]);
    sl_cp_async_commit();
    sl_cp_async_wait_group(1);
    x_out[tid] = x[tid];
    sl_cp_async_wait_all();
    y_out[tid] = y[tid];
}

Test(sl_tensor, cp_async_data_are_in_shared_memory_after_the_wait_of_their_group)
{
    struct chunk src[64], x[32], y[32];
    for (unsigned i = 0; i < 64; ++i)
        for (unsigned w = 0; w < 4; ++w)
            src[i].w[w] = i * 4 + w + 1;
    void *ds = device_copy(src, sizeof src), *dx = device_copy(NULL, sizeof x), *dy = device_copy(NULL, sizeof y);
    cp_async_two_groups<<<1, 32>>>((const struct chunk *)ds, (struct chunk *)dx, (struct chunk *)dy);
    cr_assert_eq(finish("cp_async_two_groups"), cudaSuccess);
    cr_assert_eq(cudaMemcpy(x, dx, sizeof x, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_eq(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_assert_arr_eq(x, src, sizeof x, "after sl_cp_async_wait_group(1), the first group");
    cr_assert_arr_eq(y, src + 32, sizeof y, "after sl_cp_async_wait_all, the second group");
}

/* ---- diagnostics name the caller ------------------------------------------ */
/* Each enum holds the line of the wrapper call a few lines below it. */

enum { divergent_mma_line = __LINE__ + 5 };
/* Half of the warp calls the mma: it must fail, at the call. */
__global__ void mma_from_half_a_warp(void)
{
    float d[4], c[4] = {0, 0, 0, 0}; const unsigned z[4] = {0, 0, 0, 0};
    if (threadIdx.x < 16) sl_mma_m16n8k16_f16_f32(d, z, z, c);
}

enum { past_the_end_copy_line = __LINE__ + 6 };
/* The last thread copies from one chunk past the end of src[32]. */
__global__ void cp_async_past_the_end(const struct chunk *src)
{
    __shared__ struct chunk buf[32];
    const unsigned tid = threadIdx.x;
    sl_cp_async_16(&buf[tid], &src[tid + (tid == 31)]);
    sl_cp_async_wait_all();
}

/* The launch failed with `want`, and the diagnostic names this file at `line`. */
static void expect_failure_at(const char *kernel, cudaError_t want, int line)
{
    char where[64];
    cr_assert_eq(finish(kernel), want, "%s: expected %s", kernel, cudaGetErrorName(want));
    snprintf(where, sizeof where, "test_sl_tensor.cu:%d", line);
    cr_assert(strstr(simtlab_emu_last_diagnostic(), where) != NULL, "%s: the diagnostic should name %s: %s", kernel,
              where, simtlab_emu_last_diagnostic());
}

Test(sl_tensor, a_divergent_mma_is_reported_at_the_callers_line)
{
    mma_from_half_a_warp<<<1, 32>>>();
    expect_failure_at("mma_from_half_a_warp", cudaErrorIllegalInstruction, divergent_mma_line);
}

Test(sl_tensor, a_copy_past_the_end_is_reported_at_the_callers_line)
{
    static struct chunk src[32];
    void *ds = device_copy(src, sizeof src);
    cp_async_past_the_end<<<1, 32>>>((const struct chunk *)ds);
    expect_failure_at("cp_async_past_the_end", cudaErrorIllegalAddress, past_the_end_copy_line);
}

/* ---- the three together, as a tensor-core GEMM uses them ------------------ */

/* A (16x16) and B (16x8, k x n, row-major) staged in shared memory by
 * cp.async; A's fragments by ldmatrix.x4 (matrix j = rows 8 (j % 2),
 * columns 8 (j / 2)), B's by ldmatrix.x2.trans (mma wants B by columns). */
__global__ void pipeline_tile(const struct chunk *a, const struct chunk *b, const float *c, float *d)
{
    __shared__ struct chunk sa[32], sb[16]; /* A: 2 chunks per row; B: 1 */
    const unsigned lane = threadIdx.x, g = lane / 4, t = lane % 4, j = lane / 8;
    sl_cp_async_16(&sa[lane], &a[lane]);
    if (lane < 16)
        sl_cp_async_16(&sb[lane], &b[lane]);
    sl_cp_async_commit();
    sl_cp_async_wait_group(0);
    __syncwarp();
    const unsigned short *a16 = (const unsigned short *)sa, *b16 = (const unsigned short *)sb;
    unsigned fa[4], fb[2];
    sl_ldmatrix_x4(fa, a16 + ((j % 2) * 8 + lane % 8) * 16 + (j / 2) * 8);
    sl_ldmatrix_x2_trans(fb, b16 + ((j % 2) * 8 + lane % 8) * 8);
    float fc[4], fd[4];
    for (unsigned i = 0; i < 4; ++i)
        fc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    sl_mma_m16n8k16_f16_f32(fd, fa, fb, fc);
    for (unsigned i = 0; i < 4; ++i)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = fd[i];
}

Test(sl_tensor, cp_async_then_ldmatrix_then_mma_computes_a_tile)
{
    static struct tile t;
    unsigned short ha[256], hb[128];
    float hc[128], hd[128];
    make_tile(&t);
    for (int i = 0; i < 256; ++i)
        ha[i] = f16_of_int(t.a[i]);
    for (int i = 0; i < 128; ++i) {
        hb[i] = f16_of_int(t.b[i]);
        hc[i] = (float)t.c[i];
    }
    void *da = device_copy(ha, sizeof ha), *db = device_copy(hb, sizeof hb);
    void *dc = device_copy(hc, sizeof hc), *dd = device_copy(NULL, sizeof hd);
    pipeline_tile<<<1, 32>>>((const struct chunk *)da, (const struct chunk *)db, (const float *)dc, (float *)dd);
    cr_assert_eq(finish("pipeline_tile"), cudaSuccess);
    cr_assert_eq(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost), cudaSuccess);
    expect_tile(hd, &t, "cp.async -> ldmatrix -> mma");
}
