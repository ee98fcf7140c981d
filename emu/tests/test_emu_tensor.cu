/* Tests of the tensor-core emulation: the PTX-level operations of
 * <simtlab_emu/ptx.hpp> (mma.sync m16n8k16, ldmatrix, cp.async), called
 * directly, and nvcuda::wmma from emu/include/mma.h. (simtlab's wrappers of
 * the PTX operations, kernels/common/sl_tensor.h, have their own test in
 * tests/kernels/test_sl_tensor.cu.)
 *
 * Expected values come from the PTX ISA and the CUDA Programming Guide and
 * from double-precision CPU references, never from the emulator's output:
 *   - numeric tiles: random inputs that are exactly representable in f16 /
 *     bf16 (printed seed; SIMTLAB_SEED=<n> repeats a run). Products of such
 *     inputs are exact in float, so the only error is float accumulation:
 *     K additions (16 per mma, 32 in the GEMM), each off by at most 2^-24
 *     of a partial sum no larger than scale = sum |a*b| + |c|, i.e. below
 *     2e-6 * scale; we allow 1e-5 * scale (alpha/beta add two roundings).
 *   - layouts: hand-derived positions from the tables in PTX ISA 9.7.14.5.8
 *     ("Matrix Fragments for mma.m16n8k16 with floating point type") and the
 *     ldmatrix section (fragment layout of one 8x8 matrix).
 *
 * Build and run: cmake --build build --target test_emu_tensor &&
 *                build/bin/test_emu_tensor --verbose
 */
#include <criterion/criterion.h>
#include <mma.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <simtlab_emu/ptx.hpp>

using namespace nvcuda;
namespace ptx = simtlab_emu; /* the PTX operations; each call names its own line */

/* ======================================================================
 * Host helpers: seeds, exactly representable inputs, device buffers
 * ====================================================================== */

static unsigned test_seed(const char *test)
{
    const char *env = getenv("SIMTLAB_SEED");
    unsigned seed = env ? (unsigned)strtoul(env, NULL, 0) : (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
    if (seed == 0)
        seed = 1; /* xorshift never leaves 0 */
    fprintf(stderr, "%s: seed %u (SIMTLAB_SEED=%u repeats it)\n", test, seed, seed);
    return seed;
}

static unsigned next_random(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* m / 2048 with |m| < 2048 has at most 11 significant bits: exact in f16. */
static double random_f16_value(unsigned *state)
{
    return (double)((int)(next_random(state) % 4095) - 2047) / 2048.0;
}

/* m / 256 with |m| < 256 has at most 8 significant bits: exact in bf16. */
static double random_bf16_value(unsigned *state)
{
    return (double)((int)(next_random(state) % 511) - 255) / 256.0;
}

/* IEEE binary16 bits of v, which must be zero or a normal f16 value exactly:
 * v = (1 + mantissa / 1024) * 2^(exponent - 15). */
static unsigned short f16_bits(double v)
{
    if (v == 0.0)
        return signbit(v) ? 0x8000 : 0;
    int e;
    const double f = frexp(fabs(v), &e); /* |v| = f * 2^e, f in [0.5, 1) */
    const int exponent = e + 14;
    const double mantissa = (2.0 * f - 1.0) * 1024.0;
    cr_assert(exponent >= 1 && exponent <= 30 && mantissa == floor(mantissa),
              "test bug: %.17g is not a normal f16 value", v);
    return (unsigned short)((v < 0 ? 0x8000 : 0) | exponent << 10 | (int)mantissa);
}

/* bfloat16 is the upper half of a float; v must need no rounding. */
static unsigned short bf16_bits(double v)
{
    const float f = (float)v;
    unsigned bits;
    memcpy(&bits, &f, sizeof bits);
    cr_assert((double)f == v && (bits & 0xffffu) == 0, "test bug: %.17g is not a bf16 value", v);
    return (unsigned short)(bits >> 16);
}

/* Every buffer a test makes, freed by release_device_buffers (each suite's
 * .fini), so that a failing assertion leaks nothing either. */
static void *device_buffers[16];
static int device_buffer_count;

static void release_device_buffers(void)
{
    int failed = 0;
    for (int i = 0; i < device_buffer_count; ++i)
        failed |= cudaFree(device_buffers[i]) != cudaSuccess;
    device_buffer_count = 0;
    if (failed) /* a test that failed its launch on purpose poisoned the context */
        cudaDeviceReset();
}

TestSuite(mma_m16n8k16, .fini = release_device_buffers);
TestSuite(ldmatrix, .fini = release_device_buffers);
TestSuite(cp_async, .fini = release_device_buffers);
TestSuite(wmma, .fini = release_device_buffers);

static void *to_device(const void *host, size_t bytes)
{
    void *dev = NULL;
    cr_assert_lt(device_buffer_count, 16, "test bug: too many device buffers");
    cr_assert_eq(cudaMalloc(&dev, bytes), cudaSuccess, "cudaMalloc(%zu)", bytes);
    device_buffers[device_buffer_count++] = dev;
    if (host)
        cr_assert_eq(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    else
        cr_assert_eq(cudaMemset(dev, 0xff, bytes), cudaSuccess); /* poison outputs */
    return dev;
}

static void from_device(void *host, const void *dev, size_t bytes)
{
    cr_assert_eq(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

static void expect_launch_ok(const char *kernel)
{
    cudaError_t e = cudaGetLastError();
    cr_assert_eq(e, cudaSuccess, "%s: launch: %s: %s", kernel, cudaGetErrorName(e), simtlab_emu_last_diagnostic());
    e = cudaDeviceSynchronize();
    cr_assert_eq(e, cudaSuccess, "%s: %s: %s", kernel, cudaGetErrorName(e), simtlab_emu_last_diagnostic());
}

/* The launch failed with `want` and the diagnostic mentions `phrase`. */
static void expect_launch_failure(const char *kernel, cudaError_t want, const char *phrase)
{
    const cudaError_t e = cudaGetLastError();
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert_eq(e, want, "%s: got %s, expected %s (diagnostic: %s)", kernel, cudaGetErrorName(e),
                 cudaGetErrorName(want), diag);
    cr_assert(strstr(diag, phrase) != NULL, "%s: the diagnostic should mention \"%s\": %s", kernel, phrase, diag);
}

/* |got - ref| <= 1e-5 * scale, where scale = sum |terms|; NaN never passes. */
static void expect_close(double got, double ref, double scale, const char *what, int i, int j)
{
    cr_assert(fabs(got - ref) <= 1e-5 * scale + 1e-30, "%s[%d][%d] = %.9g, reference %.9g (scale %.3g)", what, i, j,
              got, ref, scale);
}

/* ======================================================================
 * mma.sync m16n8k16: kernels
 * ====================================================================== */

/* Builds each lane's fragments from whole matrices as the PTX ISA table says
 * (g = lane / 4, t = lane % 4): a[r] = A[g + 8 (r % 2)][2t + 8 (r / 2) + {0,1}],
 * b[r] = B[2t + 8r + {0,1}][g], c[i] = C[g + 8 (i / 2)][2t + i % 2]. */
__global__ void mma_whole_tile(const unsigned short *a, const unsigned short *b, const float *c, float *d, int bf16)
{
    const unsigned lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    unsigned fa[4], fb[2];
    float fc[4], fd[4];
    for (unsigned r = 0; r < 4; ++r) {
        const unsigned row = g + 8 * (r % 2), col = 2 * t + 8 * (r / 2);
        fa[r] = a[row * 16 + col] | (unsigned)a[row * 16 + col + 1] << 16;
    }
    for (unsigned r = 0; r < 2; ++r) {
        const unsigned k = 2 * t + 8 * r;
        fb[r] = b[k * 8 + g] | (unsigned)b[(k + 1) * 8 + g] << 16;
    }
    for (unsigned i = 0; i < 4; ++i)
        fc[i] = c[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    ptx::mma_m16n8k16_f32(bf16 ? ptx::mma_input_bf16 : ptx::mma_input_f16, fd, fa, fb, fc, SIMTLAB_EMU_HERE);
    for (unsigned i = 0; i < 4; ++i)
        d[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = fd[i];
}

/* Registers in, registers out: lane L uses a[L][0..3], b[L][0..1], c[L][0..3]. */
__global__ void mma_raw_registers(const unsigned *a, const unsigned *b, const float *c, float *d, int bf16)
{
    const unsigned lane = threadIdx.x;
    float fd[4];
    ptx::mma_m16n8k16_f32(bf16 ? ptx::mma_input_bf16 : ptx::mma_input_f16, fd, a + lane * 4, b + lane * 2,
                          c + lane * 4, SIMTLAB_EMU_HERE);
    for (unsigned i = 0; i < 4; ++i)
        d[lane * 4 + i] = fd[i];
}

/* Half of the warp reaches the mma: the other half returns early. */
__global__ void mma_divergent(const unsigned *a, const unsigned *b, const float *c, float *d)
{
    const unsigned lane = threadIdx.x;
    if (lane >= 16)
        return;
    float fd[4];
    ptx::mma_m16n8k16_f32(ptx::mma_input_f16, fd, a + lane * 4, b + lane * 2, c + lane * 4, SIMTLAB_EMU_HERE);
    d[lane] = fd[0];
}

/* ======================================================================
 * mma.sync m16n8k16: tests
 * ====================================================================== */

/* Runs one random 16x16 * 16x8 (+ C) tile and checks all 128 outputs. */
static void check_random_tile(const char *test, int bf16, int with_c)
{
    unsigned state = test_seed(test);
    unsigned short ha[256], hb[128];
    double va[256], vb[128];
    float hc[128], hd[128];
    for (int i = 0; i < 256; ++i) {
        va[i] = bf16 ? random_bf16_value(&state) : random_f16_value(&state);
        ha[i] = bf16 ? bf16_bits(va[i]) : f16_bits(va[i]);
    }
    for (int i = 0; i < 128; ++i) {
        vb[i] = bf16 ? random_bf16_value(&state) : random_f16_value(&state);
        hb[i] = bf16 ? bf16_bits(vb[i]) : f16_bits(vb[i]);
        hc[i] = with_c ? (float)((int)(next_random(&state) % 2001) - 1000) / 64.0f : 0.0f;
    }
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
    void *dd = to_device(NULL, sizeof hd);
    mma_whole_tile<<<1, 32>>>((const unsigned short *)da, (const unsigned short *)db, (const float *)dc,
                              (float *)dd, bf16);
    expect_launch_ok("mma_whole_tile");
    from_device(hd, dd, sizeof hd);
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 8; ++n) {
            double ref = hc[m * 8 + n], scale = fabs(ref);
            for (int k = 0; k < 16; ++k) {
                ref += va[m * 16 + k] * vb[k * 8 + n];
                scale += fabs(va[m * 16 + k] * vb[k * 8 + n]);
            }
            expect_close(hd[m * 8 + n], ref, scale, "D", m, n);
        }
}

Test(mma_m16n8k16, f16_tile_matches_double_reference)
{
    check_random_tile("mma_m16n8k16/f16_tile", 0, 0);
}

Test(mma_m16n8k16, bf16_tile_matches_double_reference)
{
    check_random_tile("mma_m16n8k16/bf16_tile", 1, 0);
}

Test(mma_m16n8k16, accumulates_onto_nonzero_c)
{
    check_random_tile("mma_m16n8k16/accumulate_f16", 0, 1);
    check_random_tile("mma_m16n8k16/accumulate_bf16", 1, 1);
}

/* Raw per-lane registers, run and returned as d[32][4]. */
struct raw_tile {
    unsigned a[32][4];
    unsigned b[32][2];
    float c[32][4];
    float d[32][4];
};

static void run_raw_as(struct raw_tile *t, int bf16)
{
    void *da = to_device(t->a, sizeof t->a), *db = to_device(t->b, sizeof t->b), *dc = to_device(t->c, sizeof t->c);
    void *dd = to_device(NULL, sizeof t->d);
    mma_raw_registers<<<1, 32>>>((const unsigned *)da, (const unsigned *)db, (const float *)dc, (float *)dd, bf16);
    expect_launch_ok("mma_raw_registers");
    from_device(t->d, dd, sizeof t->d);
    release_device_buffers();
}

static void run_raw(struct raw_tile *t)
{
    run_raw_as(t, 0);
}

/* The registers of an A given as A[m][k] = value(m, k), per the PTX table. */
static void encode_a(struct raw_tile *t, double (*value)(int m, int k))
{
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < 4; ++r) {
            const int row = lane / 4 + 8 * (r % 2), col = 2 * (lane % 4) + 8 * (r / 2);
            t->a[lane][r] = f16_bits(value(row, col)) | (unsigned)f16_bits(value(row, col + 1)) << 16;
        }
}

static void encode_b(struct raw_tile *t, double (*value)(int k, int n))
{
    for (int lane = 0; lane < 32; ++lane)
        for (int r = 0; r < 2; ++r) {
            const int k = 2 * (lane % 4) + 8 * r, n = lane / 4;
            t->b[lane][r] = f16_bits(value(k, n)) | (unsigned)f16_bits(value(k + 1, n)) << 16;
        }
}

static double identity_16(int m, int k) { return m == k ? 1.0 : 0.0; }
static double code_of_position(int k, int n) { return k * 8 + n; }        /* 0..127, exact in f16 */
static double selector_mod8(int k, int n) { return k % 8 == n ? 1.0 : 0.0; } /* D[m][n] = A[m][n] + A[m][n+8] */

/* With A = I, D = B: each output names the B element it came from, so
 * D's positions can be checked against the C/D table by hand. */
Test(mma_m16n8k16, d_registers_hold_the_rows_and_columns_of_the_ptx_table)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    encode_a(&t, identity_16);
    encode_b(&t, code_of_position);
    run_raw(&t);
    /* lane 5: groupID 1, threadID_in_group 1 */
    cr_expect_eq(t.d[5][0], 1 * 8 + 2, "lane 5 d[0] is row 1, col 2");
    cr_expect_eq(t.d[5][1], 1 * 8 + 3, "lane 5 d[1] is row 1, col 3");
    cr_expect_eq(t.d[5][2], 9 * 8 + 2, "lane 5 d[2] is row 1+8=9, col 2*1+0=2");
    cr_expect_eq(t.d[5][3], 9 * 8 + 3, "lane 5 d[3] is row 9, col 3");
    cr_expect_eq(t.d[0][0], 0, "lane 0 d[0] is row 0, col 0");
    cr_expect_eq(t.d[17][1], 4 * 8 + 3, "lane 17 (g 4, t 1) d[1] is row 4, col 3");
    cr_expect_eq(t.d[31][3], 15 * 8 + 7, "lane 31 d[3] is row 15, col 7");
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const int row = lane / 4 + 8 * (i / 2), col = 2 * (lane % 4) + i % 2;
            cr_assert_eq(t.d[lane][i], row * 8 + col, "lane %d d[%d]", lane, i);
        }
}

/* One A element set by hand in a register: which D holds the result says
 * which A position that register half is. */
Test(mma_m16n8k16, a_register_halves_are_the_positions_of_the_ptx_table)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    encode_b(&t, selector_mod8);
    /* lane 5 (g 1, t 1) a[1] low half is a2: row g+8 = 9, col 2t = 2 */
    t.a[5][1] = 0x3c00u; /* 1.0 */
    /* lane 30 (g 7, t 2) a[2] high half is a5: row g = 7, col 2t+1+8 = 13 */
    t.a[30][2] = 0x4000u << 16; /* 2.0 */
    run_raw(&t);
    /* D[9][2] = A[9][2] = 1: row 9 = g+8 (g 1), col 2 = 2t (t 1) -> lane 5 d[2].
     * D[7][5] = A[7][13] = 2: row 7 = g (g 7), col 5 = 2t+1 (t 2) -> lane 30 d[1]. */
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const float want = (lane == 5 && i == 2) ? 1.0f : (lane == 30 && i == 1) ? 2.0f : 0.0f;
            cr_assert_eq(t.d[lane][i], want, "lane %d d[%d] = %g, expected %g", lane, i, t.d[lane][i], want);
        }
}

Test(mma_m16n8k16, b_register_halves_are_the_positions_of_the_ptx_table)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    encode_a(&t, identity_16);
    /* lane 6 (g 1, t 2) b[1] high half is b3: row 2t+1+8 = 13, col g = 1 */
    t.b[6][1] = 0x3c00u << 16;
    run_raw(&t);
    /* D = B: D[13][1] = 1, row 13 = g+8 (g 5), col 1 = 2t+1 (t 0) -> lane 20 d[3]. */
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const float want = (lane == 20 && i == 3) ? 1.0f : 0.0f;
            cr_assert_eq(t.d[lane][i], want, "lane %d d[%d] = %g, expected %g", lane, i, t.d[lane][i], want);
        }
}

Test(mma_m16n8k16, c_is_added_at_the_position_of_d)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i)
            t.c[lane][i] = (float)(lane * 4 + i) + 0.5f;
    encode_a(&t, identity_16);
    encode_b(&t, code_of_position);
    run_raw(&t);
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < 4; ++i) {
            const int row = lane / 4 + 8 * (i / 2), col = 2 * (lane % 4) + i % 2;
            cr_assert_eq(t.d[lane][i], row * 8 + col + lane * 4 + i + 0.5f, "lane %d d[%d]", lane, i);
        }
}

/* Column 0 of A (a[0] low half of the lanes with t = 0) holds the 16-bit
 * pattern `bits`, everything else of A is zero, and B selects
 * D[m][n] = A[m][n] + A[m][n+8]: d[0] of those lanes is the input, decoded.
 * (Infinity must meet only exact zeros in B: inf * 0 is NaN.) */
static float decode_through_mma(unsigned short bits, int bf16)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    const unsigned one = bf16 ? 0x3f80u : 0x3c00u;
    for (int lane = 0; lane < 32; ++lane) {
        t.a[lane][0] = lane % 4 == 0 ? bits : 0;
        for (int r = 0; r < 2; ++r) { /* selector_mod8, in either format */
            const int k = 2 * (lane % 4) + 8 * r, n = lane / 4;
            t.b[lane][r] = (k % 8 == n ? one : 0) | (unsigned)((k + 1) % 8 == n ? one : 0) << 16;
        }
    }
    run_raw_as(&t, bf16);
    for (int lane = 4; lane < 32; lane += 4)
        cr_assert(memcmp(&t.d[lane][0], &t.d[0][0], sizeof(float)) == 0, "lane %d d[0] differs from lane 0", lane);
    return t.d[0][0];
}

/* binary16 (IEEE 754): exponent bias 15, 10 mantissa bits; exponent 0 is
 * zero/subnormal (mantissa * 2^-24), exponent 31 is infinity or NaN. */
Test(mma_m16n8k16, f16_inputs_decode_subnormals_infinity_and_nan)
{
    cr_expect_eq(decode_through_mma(0x0001, 0), ldexpf(1.0f, -24), "smallest subnormal 2^-24");
    cr_expect_eq(decode_through_mma(0x03ff, 0), ldexpf(1023.0f, -24), "largest subnormal");
    cr_expect_eq(decode_through_mma(0x0400, 0), ldexpf(1.0f, -14), "smallest normal 2^-14");
    cr_expect_eq(decode_through_mma(0x7bff, 0), 65504.0f, "largest finite");
    cr_expect_eq(decode_through_mma(0xc500, 0), -5.0f, "-5 = -(1 + 256/1024) * 2^2");
    cr_expect(isinf(decode_through_mma(0xfc00, 0)) && decode_through_mma(0xfc00, 0) < 0, "-infinity");
    cr_expect(isnan(decode_through_mma(0x7e00, 0)), "NaN stays NaN");
}

/* bfloat16: the upper 16 bits of a binary32. */
Test(mma_m16n8k16, bf16_inputs_decode_as_the_upper_half_of_a_float)
{
    cr_expect_eq(decode_through_mma(0x3f80, 1), 1.0f);
    cr_expect_eq(decode_through_mma(0x4049, 1), 3.140625f, "0x4049: (1 + 73/128) * 2");
    cr_expect_eq(decode_through_mma(0xc2f7, 1), -123.5f, "0xc2f7: -(1 + 119/128) * 2^6");
    const float inf = decode_through_mma(0x7f80, 1);
    cr_expect(isinf(inf) && inf > 0, "+infinity, got %g", inf);
    cr_expect(isnan(decode_through_mma(0x7fc0, 1)), "NaN stays NaN");
}

Test(mma_m16n8k16, a_call_from_half_the_warp_fails_the_launch)
{
    static struct raw_tile t;
    memset(&t, 0, sizeof t);
    void *da = to_device(t.a, sizeof t.a), *db = to_device(t.b, sizeof t.b), *dc = to_device(t.c, sizeof t.c);
    void *dd = to_device(NULL, sizeof t.d);
    mma_divergent<<<1, 32>>>((const unsigned *)da, (const unsigned *)db, (const float *)dc, (float *)dd);
    expect_launch_failure("mma_divergent", cudaErrorIllegalInstruction, "mma.sync");
}

/* ======================================================================
 * ldmatrix
 * ====================================================================== */

/* Four 8x8 matrices in shared memory with rows padded to 16 elements (rows
 * need not be contiguous, only 16-byte aligned). Lanes 8j..8j+7 pass the
 * rows of matrix j; lanes beyond 8 * count pass NULL, which ldmatrix must
 * ignore. Unloaded registers keep the sentinel 0xdeadbeef. */
__global__ void ldmatrix_kernel(const unsigned short *m, unsigned *out, int count, int trans)
{
    __shared__ unsigned short tiles[4][8][16];
    const unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < 4 * 64; i += 32)
        tiles[i / 64][i / 8 % 8][i % 8] = m[i];
    __syncwarp();
    const void *row = lane < 8u * count ? (const void *)&tiles[lane / 8][lane % 8][0] : NULL;
    unsigned r[4] = {0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu, 0xdeadbeefu};
    ptx::ldmatrix_m8n8_b16((unsigned)count, trans != 0, r, row, SIMTLAB_EMU_HERE);
    for (unsigned j = 0; j < 4; ++j)
        out[lane * 4 + j] = r[j];
}

/* A row address one element (2 bytes) past a 16-byte boundary. */
__global__ void ldmatrix_misaligned(unsigned *out)
{
    __shared__ unsigned short tile[8][16];
    const unsigned lane = threadIdx.x;
    for (unsigned i = 0; i < 16; ++i)
        tile[lane % 8][i] = (unsigned short)i;
    __syncwarp();
    unsigned r[1];
    ptx::ldmatrix_m8n8_b16(1, false, r, &tile[lane % 8][lane == 3 ? 1 : 0], SIMTLAB_EMU_HERE);
    out[lane] = r[0];
}

static unsigned short element(int matrix, int row, int col)
{
    return (unsigned short)(0x1000 + matrix * 64 + row * 8 + col); /* all distinct */
}

static void check_ldmatrix(int count, int trans)
{
    unsigned short hm[256];
    unsigned hout[128];
    for (int i = 0; i < 256; ++i)
        hm[i] = element(i / 64, i / 8 % 8, i % 8);
    void *dm = to_device(hm, sizeof hm), *dout = to_device(NULL, sizeof hout);
    ldmatrix_kernel<<<1, 32>>>((const unsigned short *)dm, (unsigned *)dout, count, trans);
    expect_launch_ok("ldmatrix_kernel");
    from_device(hout, dout, sizeof hout);
    for (int lane = 0; lane < 32; ++lane)
        for (int j = 0; j < 4; ++j) {
            /* PTX ISA ldmatrix: lane L holds row L/4, elements 2(L%4) and
             * 2(L%4)+1; with .trans the same positions of the transpose. */
            const int a = lane / 4, b = 2 * (lane % 4);
            const unsigned lo = trans ? element(j, b, a) : element(j, a, b);
            const unsigned hi = trans ? element(j, b + 1, a) : element(j, a, b + 1);
            const unsigned want = j < count ? (lo | hi << 16) : 0xdeadbeefu;
            cr_assert_eq(hout[lane * 4 + j], want, "x%d%s lane %d r[%d] = 0x%08x, expected 0x%08x", count,
                         trans ? ".trans" : "", lane, j, hout[lane * 4 + j], want);
        }
    /* The figure's own example positions, spelled out. */
    if (!trans)
        cr_expect_eq(hout[5 * 4], element(0, 1, 2) | (unsigned)element(0, 1, 3) << 16, "lane 5: row 1, cols 2-3");
    else
        cr_expect_eq(hout[5 * 4], element(0, 2, 1) | (unsigned)element(0, 3, 1) << 16, "lane 5 .trans: col 1, rows 2-3");
}

Test(ldmatrix, x1_gives_each_lane_its_row_pair) { check_ldmatrix(1, 0); }
Test(ldmatrix, x2_loads_the_second_matrix_into_r1) { check_ldmatrix(2, 0); }
Test(ldmatrix, x4_loads_four_matrices) { check_ldmatrix(4, 0); }
Test(ldmatrix, x1_trans_gives_the_transposed_pairs) { check_ldmatrix(1, 1); }
Test(ldmatrix, x2_trans_gives_the_transposed_pairs) { check_ldmatrix(2, 1); }
Test(ldmatrix, x4_trans_gives_the_transposed_pairs) { check_ldmatrix(4, 1); }

Test(ldmatrix, a_misaligned_row_address_fails_the_launch)
{
    void *dout = to_device(NULL, 32 * sizeof(unsigned));
    ldmatrix_misaligned<<<1, 32>>>((unsigned *)dout);
    expect_launch_failure("ldmatrix_misaligned", cudaErrorMisalignedAddress, "16-byte aligned");
}

/* ======================================================================
 * cp.async
 * ====================================================================== */

/* 16 bytes, aligned as cp.async needs; __align__ on the type so that the
 * alignment holds for shared arrays of it under both compilers. */
struct __align__(16) chunk {
    unsigned w[4];
};

#define POISON 0x7fbadbadu

__device__ void poison(struct chunk *c)
{
    for (int i = 0; i < 4; ++i)
        c->w[i] = POISON;
}

/* Copy, commit, read before the wait, wait, read again. */
__global__ void cp_async_visibility(const struct chunk *src, struct chunk *before, struct chunk *after)
{
    __shared__ struct chunk buf[32];
    const unsigned tid = threadIdx.x;
    poison(&buf[tid]);
    ptx::cp_async_16(&buf[tid], &src[tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE);
    before[tid] = buf[tid];
    ptx::cp_async_wait_group(0, SIMTLAB_EMU_HERE);
    after[tid] = buf[tid];
}

/* Two groups; wait_group(1) retires only the older one. out[tid][0..3]:
 * (x, y) after wait_group(1), then (x, y) after wait_group(0). */
__global__ void cp_async_two_groups(const struct chunk *src, struct chunk *out)
{
    __shared__ struct chunk x[32], y[32];
    const unsigned tid = threadIdx.x;
    poison(&x[tid]);
    poison(&y[tid]);
    ptx::cp_async_16(&x[tid], &src[tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE);
    ptx::cp_async_16(&y[tid], &src[32 + tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE);
    ptx::cp_async_wait_group(1, SIMTLAB_EMU_HERE);
    out[tid * 4 + 0] = x[tid];
    out[tid * 4 + 1] = y[tid];
    ptx::cp_async_wait_group(0, SIMTLAB_EMU_HERE);
    out[tid * 4 + 2] = x[tid];
    out[tid * 4 + 3] = y[tid];
}

/* An uncommitted copy is not waited for by wait_group(0), but wait_all
 * commits it first. An empty group counts as the most recent group. */
__global__ void cp_async_uncommitted_and_empty(const struct chunk *src, struct chunk *out)
{
    __shared__ struct chunk x[32], y[32];
    const unsigned tid = threadIdx.x;
    poison(&x[tid]);
    poison(&y[tid]);
    ptx::cp_async_16(&x[tid], &src[tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_wait_group(0, SIMTLAB_EMU_HERE); /* x is not in any group yet */
    out[tid * 4 + 0] = x[tid];
    ptx::cp_async_wait_all(SIMTLAB_EMU_HERE);
    out[tid * 4 + 1] = x[tid];
    ptx::cp_async_16(&y[tid], &src[32 + tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE); /* empty */
    ptx::cp_async_wait_group(1, SIMTLAB_EMU_HERE); /* only the empty group may stay pending */
    out[tid * 4 + 2] = y[tid];
}

__global__ void cp_async_never_waited(const struct chunk *src, struct chunk *out)
{
    __shared__ struct chunk buf[32];
    const unsigned tid = threadIdx.x;
    ptx::cp_async_16(&buf[tid], &src[tid], SIMTLAB_EMU_HERE);
    ptx::cp_async_commit(SIMTLAB_EMU_HERE);
    out[tid] = src[tid]; /* and returns without a wait */
}

__global__ void cp_async_misaligned(const struct chunk *src)
{
    __shared__ struct chunk buf[32];
    const unsigned tid = threadIdx.x;
    ptx::cp_async_16(&buf[tid], (const char *)&src[tid] + (tid == 7 ? 4 : 0), SIMTLAB_EMU_HERE);
    ptx::cp_async_wait_all(SIMTLAB_EMU_HERE);
}

/* The last thread reads one chunk past the end of src[32]. */
__global__ void cp_async_out_of_bounds(const struct chunk *src)
{
    __shared__ struct chunk buf[32];
    const unsigned tid = threadIdx.x;
    ptx::cp_async_16(&buf[tid], &src[tid + (tid == 31 ? 1 : 0)], SIMTLAB_EMU_HERE);
    ptx::cp_async_wait_all(SIMTLAB_EMU_HERE);
}

static void fill_chunks(struct chunk *c, int n, unsigned seed)
{
    unsigned state = seed;
    for (int i = 0; i < n; ++i)
        for (int w = 0; w < 4; ++w) {
            c[i].w[w] = next_random(&state);
            if (c[i].w[w] == POISON)
                c[i].w[w] = 1;
        }
}

static void expect_chunk(const struct chunk *got, const struct chunk *want, const char *what, int tid)
{
    for (int w = 0; w < 4; ++w)
        cr_assert_eq(got->w[w], want->w[w], "%s (thread %d, word %d): 0x%08x, expected 0x%08x", what, tid, w,
                     got->w[w], want->w[w]);
}

static const struct chunk poison_chunk = {{POISON, POISON, POISON, POISON}};

Test(cp_async, data_is_not_visible_before_the_wait_and_is_after)
{
    struct chunk src[32], before[32], after[32];
    fill_chunks(src, 32, test_seed("cp_async/visibility"));
    void *ds = to_device(src, sizeof src), *db = to_device(NULL, sizeof before), *da = to_device(NULL, sizeof after);
    cp_async_visibility<<<1, 32>>>((const struct chunk *)ds, (struct chunk *)db, (struct chunk *)da);
    expect_launch_ok("cp_async_visibility");
    from_device(before, db, sizeof before);
    from_device(after, da, sizeof after);
    for (int t = 0; t < 32; ++t) {
        expect_chunk(&before[t], &poison_chunk, "before wait_group(0): still the poison", t);
        expect_chunk(&after[t], &src[t], "after wait_group(0): the copied data", t);
    }
}

Test(cp_async, wait_group_1_retires_only_the_older_of_two_groups)
{
    struct chunk src[64], out[128];
    fill_chunks(src, 64, test_seed("cp_async/two_groups"));
    void *ds = to_device(src, sizeof src), *dout = to_device(NULL, sizeof out);
    cp_async_two_groups<<<1, 32>>>((const struct chunk *)ds, (struct chunk *)dout);
    expect_launch_ok("cp_async_two_groups");
    from_device(out, dout, sizeof out);
    for (int t = 0; t < 32; ++t) {
        expect_chunk(&out[t * 4 + 0], &src[t], "group 1 after wait_group(1)", t);
        expect_chunk(&out[t * 4 + 1], &poison_chunk, "group 2 after wait_group(1)", t);
        expect_chunk(&out[t * 4 + 2], &src[t], "group 1 after wait_group(0)", t);
        expect_chunk(&out[t * 4 + 3], &src[32 + t], "group 2 after wait_group(0)", t);
    }
}

Test(cp_async, wait_all_commits_open_copies_and_empty_groups_count)
{
    struct chunk src[64], out[128];
    fill_chunks(src, 64, test_seed("cp_async/uncommitted"));
    void *ds = to_device(src, sizeof src), *dout = to_device(NULL, sizeof out);
    cp_async_uncommitted_and_empty<<<1, 32>>>((const struct chunk *)ds, (struct chunk *)dout);
    expect_launch_ok("cp_async_uncommitted_and_empty");
    from_device(out, dout, sizeof out);
    for (int t = 0; t < 32; ++t) {
        expect_chunk(&out[t * 4 + 0], &poison_chunk, "uncommitted copy after wait_group(0)", t);
        expect_chunk(&out[t * 4 + 1], &src[t], "after wait_all", t);
        expect_chunk(&out[t * 4 + 2], &src[32 + t], "group before an empty group, after wait_group(1)", t);
    }
}

Test(cp_async, a_thread_that_exits_with_copies_pending_fails_the_launch)
{
    struct chunk src[32];
    fill_chunks(src, 32, 7);
    void *ds = to_device(src, sizeof src), *dout = to_device(NULL, sizeof src);
    cp_async_never_waited<<<1, 32>>>((const struct chunk *)ds, (struct chunk *)dout);
    expect_launch_failure("cp_async_never_waited", cudaErrorLaunchFailure, "cp.async");
}

Test(cp_async, a_misaligned_source_fails_the_launch)
{
    struct chunk src[32];
    fill_chunks(src, 32, 9);
    void *ds = to_device(src, sizeof src);
    cp_async_misaligned<<<1, 32>>>((const struct chunk *)ds);
    expect_launch_failure("cp_async_misaligned", cudaErrorMisalignedAddress, "16-byte aligned");
}

Test(cp_async, a_source_past_the_end_of_its_allocation_fails_at_the_issuing_line)
{
    struct chunk src[32];
    fill_chunks(src, 32, 11);
    void *ds = to_device(src, sizeof src);
    cp_async_out_of_bounds<<<1, 32>>>((const struct chunk *)ds);
    expect_launch_failure("cp_async_out_of_bounds", cudaErrorIllegalAddress, "offset 512 of device allocation");
}

/* ======================================================================
 * nvcuda::wmma
 * ====================================================================== */

/* D = alpha * A * B + beta * C on one tile: A row-major, B column-major,
 * C and D row-major; the scaling is element-wise on the fragments, which is
 * portable because every fragment shares one element mapping. */
__global__ void wmma_one_tile(const __half *a, const __half *b, const float *c, float *d, float alpha, float beta)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    for (int i = 0; i < acc.num_elements; ++i)
        acc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* C (M x N) = A (M x K) * B (K x N), one warp per 16x16 tile of C. With
 * a_col_major, A is stored column-major (ldm M); B is stored column-major
 * (ldm K); C is stored row-major (ldm N) or, with c_col_major, column-major. */
__global__ void wmma_gemm(const __half *a, const __half *b, float *c, int m, int n, int k, int a_col_major,
                          int c_col_major)
{
    const int warp = (int)((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    const int tiles_n = n / 16;
    if (warp >= (m / 16) * tiles_n)
        return; /* the whole warp leaves together */
    const int tm = warp / tiles_n, tn = warp % tiles_n;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
        wmma::load_matrix_sync(fb, b + (size_t)tn * 16 * k + kk, k);
        if (a_col_major) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major> fa;
            wmma::load_matrix_sync(fa, a + (size_t)kk * m + tm * 16, m);
            wmma::mma_sync(acc, fa, fb, acc);
        } else {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
            wmma::load_matrix_sync(fa, a + (size_t)tm * 16 * k + kk, k);
            wmma::mma_sync(acc, fa, fb, acc);
        }
    }
    if (c_col_major)
        wmma::store_matrix_sync(c + (size_t)tn * 16 * m + tm * 16, acc, m, wmma::mem_col_major);
    else
        wmma::store_matrix_sync(c + (size_t)tm * 16 * n + tn * 16, acc, n, wmma::mem_row_major);
}

/* The bf16 flavour: D = A * B with both row-major. */
__global__ void wmma_one_tile_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* __half accumulators: D (half) = A * B + C (half), C column-major. */
__global__ void wmma_half_accumulator(const __half *a, const __half *b, const __half *c, __half *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_col_major);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* Lane 9 passes another ldm than the rest of the warp. */
__global__ void wmma_lanes_disagree(const __half *a)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a, threadIdx.x == 9 ? 32 : 16);
}

/* Lanes 0-15 load, lanes 16-31 skip the load and exit. */
__global__ void wmma_divergent(const __half *a)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    if (threadIdx.x < 16)
        wmma::load_matrix_sync(fa, a, 16);
}

/* A tile pointer 8 bytes past a 32-byte boundary. */
__global__ void wmma_misaligned(const __half *a)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, a + 4, 16);
}

/* Random f16 matrix as bits (for the device) and values (for the reference). */
static void random_f16_matrix(unsigned short *bits, double *values, int count, unsigned *state)
{
    for (int i = 0; i < count; ++i)
        bits[i] = f16_bits(values[i] = random_f16_value(state));
}

Test(wmma, one_tile_with_alpha_and_beta_matches_double_reference)
{
    unsigned state = test_seed("wmma/one_tile");
    static unsigned short ha[256], hb[256];
    static double va[256], vb[256];
    static float hc[256], hd[256];
    random_f16_matrix(ha, va, 256, &state);
    random_f16_matrix(hb, vb, 256, &state); /* B column-major: (k, n) at n * 16 + k */
    for (int i = 0; i < 256; ++i)
        hc[i] = (float)((int)(next_random(&state) % 2001) - 1000) / 128.0f;
    const float alpha = 1.5f, beta = -0.25f;
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
    void *dd = to_device(NULL, sizeof hd);
    wmma_one_tile<<<1, 32>>>((const __half *)da, (const __half *)db, (const float *)dc, (float *)dd, alpha, beta);
    expect_launch_ok("wmma_one_tile");
    from_device(hd, dd, sizeof hd);
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 16; ++n) {
            double ab = 0, scale = 0;
            for (int k = 0; k < 16; ++k) {
                ab += va[m * 16 + k] * vb[n * 16 + k];
                scale += fabs(va[m * 16 + k] * vb[n * 16 + k]);
            }
            const double ref = alpha * ab + beta * hc[m * 16 + n];
            expect_close(hd[m * 16 + n], ref, fabs(alpha) * scale + fabs(beta * hc[m * 16 + n]), "D", m, n);
        }
}

Test(wmma, bf16_tile_matches_double_reference)
{
    unsigned state = test_seed("wmma/bf16_tile");
    static unsigned short ha[256], hb[256];
    static double va[256], vb[256];
    static float hd[256];
    for (int i = 0; i < 256; ++i) {
        ha[i] = bf16_bits(va[i] = random_bf16_value(&state));
        hb[i] = bf16_bits(vb[i] = random_bf16_value(&state)); /* B row-major: (k, n) at k * 16 + n */
    }
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dd = to_device(NULL, sizeof hd);
    wmma_one_tile_bf16<<<1, 32>>>((const __nv_bfloat16 *)da, (const __nv_bfloat16 *)db, (float *)dd);
    expect_launch_ok("wmma_one_tile_bf16");
    from_device(hd, dd, sizeof hd);
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 16; ++n) {
            double ref = 0, scale = 0;
            for (int k = 0; k < 16; ++k) {
                ref += va[m * 16 + k] * vb[k * 16 + n];
                scale += fabs(va[m * 16 + k] * vb[k * 16 + n]);
            }
            expect_close(hd[m * 16 + n], ref, scale, "D", m, n);
        }
}

/* The value of binary16 bits (any finite pattern), for checking results. */
static double f16_value(unsigned short h)
{
    const int exponent = h >> 10 & 0x1f, mantissa = h & 0x3ff;
    const double magnitude = exponent == 0 ? ldexp(mantissa, -24) : ldexp(1024 + mantissa, exponent - 25);
    cr_assert(exponent != 0x1f, "unexpected infinity or NaN 0x%04x", h);
    return (h & 0x8000) ? -magnitude : magnitude;
}

Test(wmma, half_accumulator_tile_is_the_reference_rounded_to_half)
{
    unsigned state = test_seed("wmma/half_accumulator");
    static unsigned short ha[256], hb[256], hc[256], hd[256];
    static double va[256], vb[256], vc[256];
    random_f16_matrix(ha, va, 256, &state);
    random_f16_matrix(hb, vb, 256, &state); /* row-major: (k, n) at k * 16 + n */
    random_f16_matrix(hc, vc, 256, &state); /* column-major: (m, n) at n * 16 + m */
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
    void *dd = to_device(NULL, sizeof hd);
    wmma_half_accumulator<<<1, 32>>>((const __half *)da, (const __half *)db, (const __half *)dc, (__half *)dd);
    expect_launch_ok("wmma_half_accumulator");
    from_device(hd, dd, sizeof hd);
    for (int m = 0; m < 16; ++m)
        for (int n = 0; n < 16; ++n) {
            double ref = vc[n * 16 + m], scale = fabs(ref);
            for (int k = 0; k < 16; ++k) {
                ref += va[m * 16 + k] * vb[k * 16 + n];
                scale += fabs(va[m * 16 + k] * vb[k * 16 + n]);
            }
            /* one rounding to f16: at most half an ulp, 2^-11 relative (or
             * 2^-25 absolute among subnormals), on top of the float sum */
            const double got = f16_value(hd[m * 16 + n]);
            cr_assert(fabs(got - ref) <= ldexp(1, -11) * fabs(ref) + ldexp(1, -25) + 1e-5 * scale,
                      "D[%d][%d] = %.9g, reference %.9g", m, n, got, ref);
        }
}

static void check_wmma_gemm(const char *test, int a_col_major, int c_col_major)
{
    enum { M = 48, N = 64, K = 32 };
    unsigned state = test_seed(test);
    static unsigned short ha[M * K], hb[K * N];
    static double va[M * K], vb[K * N];
    static float hc[M * N];
    random_f16_matrix(ha, va, M * K, &state); /* A(i, k) at i*K + k, or k*M + i if column-major */
    random_f16_matrix(hb, vb, K * N, &state); /* B(k, j) at j*K + k */
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(NULL, sizeof hc);
    /* 12 tiles, 4 warps per block: 3 blocks of 128 threads */
    wmma_gemm<<<3, 128>>>((const __half *)da, (const __half *)db, (float *)dc, M, N, K, a_col_major, c_col_major);
    expect_launch_ok("wmma_gemm");
    from_device(hc, dc, sizeof hc);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ref = 0, scale = 0;
            for (int k = 0; k < K; ++k) {
                const double p = (a_col_major ? va[k * M + i] : va[i * K + k]) * vb[j * K + k];
                ref += p;
                scale += fabs(p);
            }
            expect_close(c_col_major ? hc[j * M + i] : hc[i * N + j], ref, scale, "C", i, j);
        }
}

Test(wmma, gemm_48x32_by_32x64_with_twelve_warps)
{
    check_wmma_gemm("wmma/gemm_row_major", 0, 0);
}

Test(wmma, gemm_with_column_major_a_and_c)
{
    check_wmma_gemm("wmma/gemm_col_major", 1, 1);
}

Test(wmma, a_load_from_half_the_warp_fails_the_launch)
{
    static unsigned short ha[256];
    void *da = to_device(ha, sizeof ha);
    wmma_divergent<<<1, 32>>>((const __half *)da);
    expect_launch_failure("wmma_divergent", cudaErrorIllegalInstruction, "wmma::load_matrix_sync");
}

Test(wmma, a_misaligned_tile_pointer_fails_the_launch)
{
    static unsigned short ha[512];
    void *da = to_device(ha, sizeof ha);
    wmma_misaligned<<<1, 32>>>((const __half *)da);
    expect_launch_failure("wmma_misaligned", cudaErrorMisalignedAddress, "16-byte");
}

Test(wmma, lanes_that_pass_different_arguments_fail_the_launch)
{
    static unsigned short ha[512];
    void *da = to_device(ha, sizeof ha);
    wmma_lanes_disagree<<<1, 32>>>((const __half *)da);
    expect_launch_failure("wmma_lanes_disagree", cudaErrorLaunchFailure, "lane 9 (ptr");
}

/* ---- the other 16-bit WMMA shapes: m32n8k16 and m8n32k16 ----------------
 * One warp per TM x TN tile of C = A B (A M x K row-major; B K x N
 * column-major for m32n8k16, row-major for m8n32k16, so that both layouts of
 * matrix_b are read; C row-major). */
static_assert(wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major>::num_elements == 16,
              "m32n8k16: A is 32x16, 16 elements per lane");
static_assert(wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::col_major>::num_elements == 4,
              "m32n8k16: B is 16x8, 4 elements per lane");
static_assert(wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major>::num_elements == 4,
              "m8n32k16: A is 8x16, 4 elements per lane");
static_assert(wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major>::num_elements == 16,
              "m8n32k16: B is 16x32, 16 elements per lane");
static_assert(wmma::fragment<wmma::accumulator, 32, 8, 16, float>::num_elements == 8 &&
                  wmma::fragment<wmma::accumulator, 8, 32, 16, float>::num_elements == 8,
              "both accumulators are 256 floats, 8 per lane");

__global__ void wmma_m32n8k16_f16(const __half *a, const __half *b, float *c, int n, int k)
{
    const int tiles_n = n / 8, tm = blockIdx.x / tiles_n, tn = blockIdx.x % tiles_n;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::col_major> fb;
        wmma::load_matrix_sync(fa, a + (size_t)tm * 32 * k + kk, k);
        wmma::load_matrix_sync(fb, b + (size_t)tn * 8 * k + kk, k);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tm * 32 * n + tn * 8, acc, n, wmma::mem_row_major);
}

__global__ void wmma_m8n32k16_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int n, int k)
{
    const int tiles_n = n / 32, tm = blockIdx.x / tiles_n, tn = blockIdx.x % tiles_n;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int kk = 0; kk < k; kk += 16) {
        wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, a + (size_t)tm * 8 * k + kk, k);
        wmma::load_matrix_sync(fb, b + (size_t)kk * n + tn * 32, n);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::store_matrix_sync(c + (size_t)tm * 8 * n + tn * 32, acc, n, wmma::mem_row_major);
}

/* 64 x 64 x 32: 16 tiles of 32x8 (f16, B column-major) or 64 of 8x32
 * (bf16, B row-major). */
static void check_other_shape(const char *test, int bf16)
{
    enum { M = 64, N = 64, K = 32 };
    unsigned state = test_seed(test);
    static unsigned short ha[M * K], hb[K * N];
    static double va[M * K], vb[K * N];
    static float hc[M * N];
    for (int i = 0; i < M * K; ++i)
        ha[i] = bf16 ? bf16_bits(va[i] = random_bf16_value(&state)) : f16_bits(va[i] = random_f16_value(&state));
    for (int i = 0; i < K * N; ++i)
        hb[i] = bf16 ? bf16_bits(vb[i] = random_bf16_value(&state)) : f16_bits(vb[i] = random_f16_value(&state));
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(NULL, sizeof hc);
    if (bf16)
        wmma_m8n32k16_bf16<<<(M / 8) * (N / 32), 32>>>((const __nv_bfloat16 *)da, (const __nv_bfloat16 *)db,
                                                        (float *)dc, N, K);
    else
        wmma_m32n8k16_f16<<<(M / 32) * (N / 8), 32>>>((const __half *)da, (const __half *)db, (float *)dc, N, K);
    expect_launch_ok(bf16 ? "wmma_m8n32k16_bf16" : "wmma_m32n8k16_f16");
    from_device(hc, dc, sizeof hc);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ref = 0, scale = 0;
            for (int k = 0; k < K; ++k) {
                /* f16: B column-major, (k, j) at j * K + k; bf16: row-major, k * N + j */
                const double p = va[i * K + k] * (bf16 ? vb[k * N + j] : vb[j * K + k]);
                ref += p;
                scale += fabs(p);
            }
            expect_close(hc[i * N + j], ref, scale, "C", i, j);
        }
}

Test(wmma, m32n8k16_f16_gemm_with_column_major_b)
{
    check_other_shape("wmma/m32n8k16", 0);
}

Test(wmma, m8n32k16_bf16_gemm_with_row_major_b)
{
    check_other_shape("wmma/m8n32k16", 1);
}

/* ======================================================================
 * WMMA: every shape and element type CUDA offers
 *
 * One warp computes D = 2 (A B + C) for one tile: A and B loaded with each
 * of the four layout pairs, C loaded and D stored row- or column-major (the
 * four combinations follow the layout pair), the doubling done element-wise
 * on every x[i] of the accumulator (so x[] must hold each element once).
 * Every row or column in memory is padded by 16 bytes: the padding of A, B
 * and C holds NaN (or, for integers, a large value) that must never be
 * read, D is poisoned (all bytes 0xff) and its padding must stay so. The
 * reference is a double (integers: 64-bit) product of the same inputs, with
 * tf32 inputs rounded by the test's own implementation of cvt.rna.
 * ====================================================================== */

#include <float.h>
#include <stdint.h>
#include <type_traits>

TestSuite(wmma_types, .fini = release_device_buffers);

template <class T> struct test_mem { typedef T type; };
template <> struct test_mem<wmma::precision::tf32> { typedef float type; };

/* cvt.rna.tf32.f32 computed from its definition, in double: the nearest
 * multiple of the tf32 quantum (2^(e - 10) for |v| in [2^e, 2^(e+1)), and
 * 2^-136 among float subnormals, whose 23 fraction bits keep 10), ties away
 * from zero (C's round()); 2^128 and beyond is infinity. Independent of the
 * bit manipulation the emulator does. */
static float tf32_reference(float v)
{
    if (isnan(v) || isinf(v) || v == 0.0f)
        return v;
    int e;
    frexp(fabs((double)v), &e); /* |v| in [2^(e-1), 2^e) */
    double quantum = ldexp(1.0, e - 1 - 10);
    if (quantum < ldexp(1.0, -136))
        quantum = ldexp(1.0, -136);
    const double r = round((double)v / quantum) * quantum;
    if (fabs(r) >= ldexp(1.0, 128))
        return v < 0 ? -INFINITY : INFINITY;
    return (float)r;
}

static unsigned float_bits(float f)
{
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A random input value of type T and what it stores in memory. */
struct input_value {
    double ref;   /* the value the multiplier sees */
    double store; /* what memory holds (differs for tf32 only) */
};

template <class T> static input_value random_input(unsigned *state)
{
    input_value v;
    if constexpr (std::is_same<T, __half>::value) {
        v.ref = v.store = random_f16_value(state);
    } else if constexpr (std::is_same<T, __nv_bfloat16>::value) {
        v.ref = v.store = random_bf16_value(state);
    } else if constexpr (std::is_same<T, wmma::precision::tf32>::value) {
        /* 24 significant bits, most of which tf32 drops */
        const float f = (float)((int)(next_random(state) % 0xffffff) - 0x7fffff) / (float)0x400000;
        v.store = f;
        v.ref = tf32_reference(f);
    } else if constexpr (std::is_same<T, double>::value) {
        v.ref = v.store = (double)((int)(next_random(state) % 0x1fffff) - 0xfffff) / 0x80000 / 3.0;
    } else if constexpr (std::is_same<T, signed char>::value) {
        v.ref = v.store = (double)((int)(next_random(state) % 256) - 128);
    } else {
        v.ref = v.store = (double)(next_random(state) % 256);
    }
    return v;
}

/* Element i of a T (memory type) array, written from a double / read back. */
template <class M> static void put_value(M *base, size_t i, double v)
{
    if constexpr (std::is_same<M, __half>::value) {
        unsigned short b = f16_bits(v);
        memcpy(base + i, &b, 2);
    } else if constexpr (std::is_same<M, __nv_bfloat16>::value) {
        unsigned short b = bf16_bits(v);
        memcpy(base + i, &b, 2);
    } else {
        base[i] = (M)v;
    }
}

template <class M> static double get_value(const M *base, size_t i)
{
    if constexpr (std::is_same<M, __half>::value) {
        unsigned short b;
        memcpy(&b, base + i, 2);
        const int exponent = b >> 10 & 0x1f, mantissa = b & 0x3ff;
        if (exponent == 0x1f)
            return mantissa ? NAN : ((b & 0x8000) ? -INFINITY : INFINITY);
        const double magnitude = exponent == 0 ? ldexp(mantissa, -24) : ldexp(1024 + mantissa, exponent - 25);
        return (b & 0x8000) ? -magnitude : magnitude;
    } else {
        return (double)base[i];
    }
}

/* A value that must never be read (padding): NaN, or a large integer. */
template <class M> static double padding_value()
{
    if constexpr (std::is_integral<M>::value)
        return std::is_signed<M>::value ? -100.0 : 200.0;
    else if constexpr (std::is_same<M, __half>::value || std::is_same<M, __nv_bfloat16>::value)
        return 0.0; /* set as NaN bits below */
    else
        return NAN;
}

template <class M> static void put_padding(M *base, size_t i)
{
    if constexpr (std::is_same<M, __half>::value || std::is_same<M, __nv_bfloat16>::value) {
        const unsigned short nan_bits = std::is_same<M, __half>::value ? 0x7e00 : 0x7fc0;
        memcpy(base + i, &nan_bits, 2);
    } else {
        base[i] = (M)padding_value<M>();
    }
}

/* The tile in memory: rows x cols, row- or column-major, each row (column)
 * padded by 16 bytes. */
template <class M> struct tile_buffer {
    unsigned rows, cols, ld;
    int col_major;
    M *host;
    size_t count;
    size_t at(unsigned r, unsigned c) const { return col_major ? (size_t)c * ld + r : (size_t)r * ld + c; }
};

template <class M> static tile_buffer<M> make_tile(unsigned rows, unsigned cols, int col_major)
{
    tile_buffer<M> t;
    t.rows = rows;
    t.cols = cols;
    t.col_major = col_major;
    const unsigned per16 = 16 / (unsigned)sizeof(M); /* ldm must be a multiple of 16 bytes */
    t.ld = ((col_major ? rows : cols) + per16 - 1) / per16 * per16 + per16;
    t.count = (size_t)t.ld * (col_major ? cols : rows);
    t.host = (M *)calloc(t.count, sizeof(M));
    cr_assert(t.host != NULL);
    for (size_t i = 0; i < t.count; ++i)
        put_padding(t.host, i);
    return t;
}

template <int M, int N, int K, class T, class LA, class LB, class Acc>
__global__ void wmma_any_tile(const typename test_mem<T>::type *a, unsigned lda, const typename test_mem<T>::type *b,
                              unsigned ldb, const Acc *c, unsigned ldc, Acc *d, unsigned ldd, int c_col, int d_col,
                              int convert)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> acc;
    static_assert(decltype(fa)::num_elements * 32 == M * K && decltype(fb)::num_elements * 32 == K * N &&
                      decltype(acc)::num_elements * 32 == M * N,
                  "the emulator's fragments hold rows * cols / 32 elements per lane");
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(acc, c, ldc, c_col ? wmma::mem_col_major : wmma::mem_row_major);
    if constexpr (std::is_same<T, wmma::precision::tf32>::value) {
        if (convert) { /* as the Programming Guide's example does */
            for (int i = 0; i < fa.num_elements; ++i)
                fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
            for (int i = 0; i < fb.num_elements; ++i)
                fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
        }
    }
    wmma::mma_sync(acc, fa, fb, acc);
    for (int i = 0; i < acc.num_elements; ++i) {
        if constexpr (std::is_same<Acc, __half>::value)
            acc.x[i] = __hadd(acc.x[i], acc.x[i]);
        else
            acc.x[i] = acc.x[i] + acc.x[i];
    }
    wmma::store_matrix_sync(d, acc, ldd, d_col ? wmma::mem_col_major : wmma::mem_row_major);
}

/* The layout pair's index: bit 0 a column-major A, bit 1 a column-major B. */
template <int M, int N, int K, class T, class LA, class LB, class Acc>
static void check_tile(const char *test, unsigned *state, int convert)
{
    typedef typename test_mem<T>::type Mem;
    const int a_col = std::is_same<LA, wmma::col_major>::value, b_col = std::is_same<LB, wmma::col_major>::value;
    const int c_col = a_col ^ b_col, d_col = b_col;
    tile_buffer<Mem> A = make_tile<Mem>(M, K, a_col), B = make_tile<Mem>(K, N, b_col);
    tile_buffer<Acc> C = make_tile<Acc>(M, N, c_col), D = make_tile<Acc>(M, N, d_col);
    static double ra[M * K], rb[K * N], rc[M * N];
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) {
            const input_value v = random_input<T>(state);
            ra[i * K + k] = v.ref;
            put_value(A.host, A.at(i, k), v.store);
        }
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) {
            const input_value v = random_input<T>(state);
            rb[k * N + j] = v.ref;
            put_value(B.host, B.at(k, j), v.store);
        }
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double v;
            if constexpr (std::is_integral<Acc>::value)
                v = (double)((int)(next_random(state) % 2001) - 1000);
            else if constexpr (std::is_same<Acc, __half>::value)
                v = random_f16_value(state);
            else
                v = (double)((int)(next_random(state) % 2001) - 1000) / 128.0;
            rc[i * N + j] = v;
            put_value(C.host, C.at(i, j), v);
        }
    memset(D.host, 0xff, D.count * sizeof(Acc));
    Mem *da = (Mem *)to_device(A.host, A.count * sizeof(Mem)), *db = (Mem *)to_device(B.host, B.count * sizeof(Mem));
    Acc *dc = (Acc *)to_device(C.host, C.count * sizeof(Acc)), *dd = (Acc *)to_device(NULL, D.count * sizeof(Acc));
    wmma_any_tile<M, N, K, T, LA, LB, Acc><<<1, 32>>>(da, A.ld, db, B.ld, dc, C.ld, dd, D.ld, c_col, d_col, convert);
    char what[160];
    snprintf(what, sizeof what, "%s (A %s, B %s, C %s, D %s)", test, a_col ? "col" : "row", b_col ? "col" : "row",
             c_col ? "col" : "row", d_col ? "col" : "row");
    expect_launch_ok(what);
    from_device(D.host, dd, D.count * sizeof(Acc));
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double ref = rc[i * N + j], scale = fabs(ref);
            for (int k = 0; k < K; ++k) {
                ref += ra[i * K + k] * rb[k * N + j];
                scale += fabs(ra[i * K + k] * rb[k * N + j]);
            }
            ref *= 2;
            scale *= 2;
            const double got = get_value(D.host, D.at(i, j));
            if constexpr (std::is_integral<Acc>::value)
                cr_assert(got == ref, "%s: D[%d][%d] = %.0f, reference %.0f", what, i, j, got, ref);
            else if constexpr (std::is_same<Acc, double>::value)
                cr_assert(fabs(got - ref) <= 1e-14 * scale, "%s: D[%d][%d] = %.17g, reference %.17g", what, i, j,
                          got, ref);
            else if constexpr (std::is_same<Acc, __half>::value) /* one rounding to f16 on top of float's */
                cr_assert(fabs(got - ref) <= ldexp(1, -11) * fabs(ref) + ldexp(1, -24) + 1e-5 * scale,
                          "%s: D[%d][%d] = %.9g, reference %.9g", what, i, j, got, ref);
            else
                cr_assert(fabs(got - ref) <= 1e-5 * scale + 1e-30, "%s: D[%d][%d] = %.9g, reference %.9g (scale %g)",
                          what, i, j, got, ref, scale);
        }
    /* the padding of D is still the poison */
    for (size_t i = 0; i < D.count; ++i) {
        const unsigned along = (unsigned)(i % D.ld);
        if (along >= (d_col ? (unsigned)M : (unsigned)N)) {
            unsigned char bytes[sizeof(Acc)];
            memcpy(bytes, D.host + i, sizeof(Acc));
            for (size_t b = 0; b < sizeof(Acc); ++b)
                cr_assert(bytes[b] == 0xff, "%s: store_matrix_sync wrote into the padding at element %zu", what, i);
        }
    }
    free(A.host);
    free(B.host);
    free(C.host);
    free(D.host);
    release_device_buffers();
}

template <int M, int N, int K, class T, class Acc> static void check_all_layouts(const char *test, int convert = 0)
{
    unsigned state = test_seed(test);
    check_tile<M, N, K, T, wmma::row_major, wmma::row_major, Acc>(test, &state, convert);
    check_tile<M, N, K, T, wmma::col_major, wmma::row_major, Acc>(test, &state, convert);
    check_tile<M, N, K, T, wmma::row_major, wmma::col_major, Acc>(test, &state, convert);
    check_tile<M, N, K, T, wmma::col_major, wmma::col_major, Acc>(test, &state, convert);
}

Test(wmma_types, f16_float_accumulator_every_shape_and_layout)
{
    check_all_layouts<16, 16, 16, __half, float>("wmma_types/f16_f32_m16n16k16");
    check_all_layouts<32, 8, 16, __half, float>("wmma_types/f16_f32_m32n8k16");
    check_all_layouts<8, 32, 16, __half, float>("wmma_types/f16_f32_m8n32k16");
}

Test(wmma_types, f16_half_accumulator_every_shape_and_layout)
{
    check_all_layouts<16, 16, 16, __half, __half>("wmma_types/f16_f16_m16n16k16");
    check_all_layouts<32, 8, 16, __half, __half>("wmma_types/f16_f16_m32n8k16");
    check_all_layouts<8, 32, 16, __half, __half>("wmma_types/f16_f16_m8n32k16");
}

Test(wmma_types, bf16_every_shape_and_layout)
{
    check_all_layouts<16, 16, 16, __nv_bfloat16, float>("wmma_types/bf16_m16n16k16");
    check_all_layouts<32, 8, 16, __nv_bfloat16, float>("wmma_types/bf16_m32n8k16");
    check_all_layouts<8, 32, 16, __nv_bfloat16, float>("wmma_types/bf16_m8n32k16");
}

Test(wmma_types, s8_every_shape_and_layout)
{
    check_all_layouts<16, 16, 16, signed char, int>("wmma_types/s8_m16n16k16");
    check_all_layouts<32, 8, 16, signed char, int>("wmma_types/s8_m32n8k16");
    check_all_layouts<8, 32, 16, signed char, int>("wmma_types/s8_m8n32k16");
}

Test(wmma_types, u8_every_shape_and_layout)
{
    check_all_layouts<16, 16, 16, unsigned char, int>("wmma_types/u8_m16n16k16");
    check_all_layouts<32, 8, 16, unsigned char, int>("wmma_types/u8_m32n8k16");
    check_all_layouts<8, 32, 16, unsigned char, int>("wmma_types/u8_m8n32k16");
}

Test(wmma_types, tf32_m16n16k8_inputs_rounded_by_mma_sync)
{
    check_all_layouts<16, 16, 8, wmma::precision::tf32, float>("wmma_types/tf32_unconverted", 0);
}

Test(wmma_types, tf32_m16n16k8_inputs_converted_with_float_to_tf32)
{
    check_all_layouts<16, 16, 8, wmma::precision::tf32, float>("wmma_types/tf32_converted", 1);
}

Test(wmma_types, double_m8n8k4_every_layout)
{
    check_all_layouts<8, 8, 4, double, double>("wmma_types/f64_m8n8k4");
}

/* ---- __float_to_tf32: exact bit patterns from the rule ------------------ */

__global__ void wmma_to_tf32(const float *in, float *out, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = wmma::__float_to_tf32(in[i]);
}

static float float_of_bits(unsigned u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

Test(wmma_types, float_to_tf32_rounds_to_nearest_ties_away_from_zero)
{
    enum { FIXED = 16, RANDOM = 4096, TOTAL = FIXED + RANDOM };
    static float in[TOTAL], out[TOTAL];
    const float fixed[FIXED] = {
        1.0f + ldexpf(1, -11),             /* a tie: away from zero, to 1 + 2^-10 */
        -(1.0f + ldexpf(1, -11)),          /* a negative tie: to -(1 + 2^-10) */
        1.0f + 3 * ldexpf(1, -11),         /* a tie above an odd last bit: 1 + 2^-9 */
        1.0f + ldexpf(1, -11) - ldexpf(1, -23), /* just below a tie: down to 1 */
        1.0f + ldexpf(1, -11) + ldexpf(1, -23), /* just above: up */
        FLT_MAX,                           /* carries out of the largest binade: infinity */
        -FLT_MAX,
        float_of_bits(0x00000001u),        /* the smallest subnormal: to 0 */
        float_of_bits(0x00001000u),        /* a subnormal tie: up to 0x2000 */
        float_of_bits(0x007ff000u),        /* a tie at the largest subnormal: to the smallest normal */
        INFINITY,
        -INFINITY,
        0.0f,
        -0.0f,
        3.14159265f,
        -1e-30f,
    };
    unsigned state = test_seed("wmma_types/float_to_tf32");
    for (int i = 0; i < FIXED; ++i)
        in[i] = fixed[i];
    for (int i = FIXED; i < TOTAL; ++i) /* any bit pattern but NaN */
        do
            in[i] = float_of_bits(next_random(&state));
        while (isnan(in[i]));
    float *din = (float *)to_device(in, sizeof in), *dout = (float *)to_device(NULL, sizeof out);
    wmma_to_tf32<<<1, 128>>>(din, dout, TOTAL);
    expect_launch_ok("wmma_to_tf32");
    from_device(out, dout, sizeof out);
    for (int i = 0; i < TOTAL; ++i) {
        const float want = tf32_reference(in[i]);
        cr_assert(float_bits(out[i]) == float_bits(want), "__float_to_tf32(%a = 0x%08x) = 0x%08x, the rule gives 0x%08x",
                  (double)in[i], float_bits(in[i]), float_bits(out[i]), float_bits(want));
        cr_assert((float_bits(out[i]) & 0x1fffu) == 0, "the 13 low bits of a tf32 value are 0");
    }
    cr_assert(float_bits(out[0]) == float_bits(1.0f + ldexpf(1, -10)) && isinf(out[5]) && out[7] == 0.0f,
              "spot checks of the rule itself");
    /* NaN stays NaN (on the host too: the function is the same) */
    cr_assert(isnan(wmma::__float_to_tf32(NAN)) && isnan(wmma::__float_to_tf32(float_of_bits(0x7f800001u))),
              "NaN (even with only low payload bits) stays NaN");
}

/* ---- integer saturation (satf) ------------------------------------------- */

template <class T>
__global__ void wmma_int_satf(const T *a, const T *b, const int *c, int *d, int satf)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(acc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc, satf != 0);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
}

/* Rows 0-7 of A are +max, rows 8-15 -min (s8) or 0..255 ramps (u8); C is
 * near INT_MAX in the upper half and near INT_MIN in the lower, so half the
 * sums overflow each way. */
template <class T> static void check_satf(const char *test)
{
    static T ha[256], hb[256];
    static int hc[256], hd[256];
    unsigned state = test_seed(test);
    const int is_signed = std::is_signed<T>::value;
    for (int i = 0; i < 256; ++i) {
        const int row = i / 16;
        ha[i] = (T)(is_signed ? (row < 8 ? 127 : -128) : 255);
        hb[i] = (T)(is_signed ? 127 : 255);
        const int slack = (int)(next_random(&state) % 100000);
        hc[i] = row < 8 ? INT32_MAX - slack : (is_signed ? INT32_MIN + slack : -slack);
    }
    for (int satf = 0; satf <= 1; ++satf) {
        void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
        void *dd = to_device(NULL, sizeof hd);
        wmma_int_satf<T><<<1, 32>>>((const T *)da, (const T *)db, (const int *)dc, (int *)dd, satf);
        expect_launch_ok(test);
        from_device(hd, dd, sizeof hd);
        for (int i = 0; i < 256; ++i) {
            int64_t sum = hc[i];
            for (int k = 0; k < 16; ++k)
                sum += (int64_t)ha[(i / 16) * 16 + k] * (int64_t)hb[(i % 16) * 16 + k];
            const int64_t want = satf ? (sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum)
                                      : (int64_t)(int32_t)(uint32_t)sum;
            cr_assert(hd[i] == want, "%s satf=%d: D[%d][%d] = %d, want %lld (exact sum %lld)", test, satf, i / 16,
                      i % 16, hd[i], (long long)want, (long long)sum);
        }
        release_device_buffers();
    }
}

Test(wmma_types, s8_satf_saturates_and_without_it_wraps)
{
    check_satf<signed char>("wmma_types/s8_satf");
}

Test(wmma_types, u8_satf_saturates_and_without_it_wraps)
{
    check_satf<unsigned char>("wmma_types/u8_satf");
}

/* ---- NaN propagation ------------------------------------------------------ */

template <int M, int N, int K, class T, class Acc>
__global__ void wmma_nan_tile(const typename test_mem<T>::type *a, const typename test_mem<T>::type *b, Acc *d)
{
    wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> acc;
    wmma::fill_fragment(acc, 1.0f);
    wmma::load_matrix_sync(fa, a, K);
    wmma::load_matrix_sync(fb, b, N);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, N, wmma::mem_row_major);
}

/* A NaN at A[r][k] makes row r of D NaN and nothing else. */
template <int M, int N, int K, class T, class Acc> static void check_nan(const char *test)
{
    typedef typename test_mem<T>::type Mem;
    static Mem ha[M * K], hb[K * N];
    static Acc hd[M * N];
    unsigned state = test_seed(test);
    static double ra[M * K], rb[K * N];
    for (int i = 0; i < M * K; ++i) {
        const input_value v = random_input<T>(&state);
        ra[i] = v.ref;
        put_value(ha, i, v.store);
    }
    for (int i = 0; i < K * N; ++i) {
        const input_value v = random_input<T>(&state);
        rb[i] = v.ref;
        put_value(hb, i, v.store);
    }
    const int r = (int)(next_random(&state) % M), kk = (int)(next_random(&state) % K);
    put_padding(ha, (size_t)r * K + kk); /* NaN bits */
    void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dd = to_device(NULL, sizeof hd);
    wmma_nan_tile<M, N, K, T, Acc><<<1, 32>>>((const Mem *)da, (const Mem *)db, (Acc *)dd);
    expect_launch_ok(test);
    from_device(hd, dd, sizeof hd);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            const double got = get_value(hd, (size_t)i * N + j);
            if (i == r) {
                cr_assert(isnan(got), "%s: NaN at A[%d][%d], D[%d][%d] = %g", test, r, kk, i, j, got);
                continue;
            }
            double ref = 1.0, scale = 1.0;
            for (int k = 0; k < K; ++k) {
                ref += ra[i * K + k] * rb[k * N + j];
                scale += fabs(ra[i * K + k] * rb[k * N + j]);
            }
            cr_assert(fabs(got - ref) <= 1e-5 * scale, "%s: D[%d][%d] = %g, reference %g", test, i, j, got, ref);
        }
}

Test(wmma_types, nan_inputs_make_their_rows_nan)
{
    check_nan<16, 16, 16, __half, float>("wmma_types/nan_f16");
    release_device_buffers();
    check_nan<32, 8, 16, __nv_bfloat16, float>("wmma_types/nan_bf16");
    release_device_buffers();
    check_nan<16, 16, 8, wmma::precision::tf32, float>("wmma_types/nan_tf32");
    release_device_buffers();
    check_nan<8, 8, 4, double, double>("wmma_types/nan_f64");
}

/* ---- sub-byte: s4 / u4 at m8n8k32, b1 at m8n8k128 -------------------------
 * Memory packs elements lowest first: element j of a row (A, row-major) or
 * of a column (B, column-major) at bits j * width of the row's bytes. Rows
 * and columns are 256 bits apart (ldm 64 for 4-bit, 256 for b1), so the
 * upper half of every row is padding that must not be read (all ones). */

static_assert(wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4,
                             wmma::row_major>::num_elements == 8 &&
                  wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4,
                                 wmma::row_major>::num_storage_elements == 1,
              "s4 matrix_a: 8 elements per lane in one int");
static_assert(wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1,
                             wmma::col_major>::num_elements == 32 &&
                  wmma::fragment<wmma::accumulator, 8, 8, 128, int>::num_elements == 2,
              "b1 matrix_b: 32 elements per lane; the 8x8 accumulator 2");

template <class P>
__global__ void wmma_4bit(const void *a, const void *b, const int *c, int *d, int satf, int fill_a, int fill_value)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 32, P, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, P, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
    if (fill_a)
        wmma::fill_fragment(fa, fill_value);
    else
        wmma::load_matrix_sync(fa, a, 64);
    wmma::load_matrix_sync(fb, b, 64);
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_col_major);
    wmma::mma_sync(acc, fa, fb, acc, satf != 0);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_row_major);
}

__global__ void wmma_b1(const void *a, const void *b, const int *c, int *d, int and_op)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
    wmma::load_matrix_sync(fa, a, 256);
    wmma::load_matrix_sync(fb, b, 256);
    wmma::load_matrix_sync(acc, c, 8, wmma::mem_row_major);
    wmma::bmma_sync(acc, fa, fb, acc,
                    and_op ? wmma::experimental::bmmaBitOpAND : wmma::experimental::bmmaBitOpXOR);
    wmma::store_matrix_sync(d, acc, 8, wmma::mem_col_major);
}

/* Sets element j (of `width` bits) of a packed row. */
static void put_packed(unsigned char *row, int j, int width, unsigned v)
{
    const int bit = j * width;
    const unsigned mask = ((1u << width) - 1u) << (bit % 8);
    row[bit / 8] = (unsigned char)((row[bit / 8] & ~mask) | ((v << (bit % 8)) & mask));
}

template <class P> static void check_4bit(const char *test, int is_signed)
{
    static unsigned char ha[8 * 32], hb[8 * 32]; /* 8 rows (columns) of 32 bytes, half of them padding */
    static int hc[64], hd[64], va[8][32], vb[32][8];
    unsigned state = test_seed(test);
    for (int variant = 0; variant < 3; ++variant) { /* 0 plain, 1 satf, 2 A from fill_fragment */
        const int satf = variant == 1, fill = variant == 2;
        const int fill_value = is_signed ? -3 : 11;
        memset(ha, 0xff, sizeof ha);
        memset(hb, 0xff, sizeof hb);
        for (int i = 0; i < 8; ++i)
            for (int k = 0; k < 32; ++k) {
                const int v = fill ? fill_value
                                   : is_signed ? (int)(next_random(&state) % 16) - 8 : (int)(next_random(&state) % 16);
                va[i][k] = v;
                put_packed(ha + i * 32, k, 4, (unsigned)v & 0xfu);
            }
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 32; ++k) {
                const int v = is_signed ? (int)(next_random(&state) % 16) - 8 : (int)(next_random(&state) % 16);
                vb[k][j] = v;
                put_packed(hb + j * 32, k, 4, (unsigned)v & 0xfu);
            }
        for (int i = 0; i < 64; ++i) /* column-major C; with satf, sums near both ends of int */
            hc[i] = satf ? (i % 2 ? INT32_MAX - (int)(next_random(&state) % 3000)
                                  : INT32_MIN + (int)(next_random(&state) % 3000))
                         : (int)(next_random(&state) % 20001) - 10000;
        void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
        void *dd = to_device(NULL, sizeof hd);
        wmma_4bit<P><<<1, 32>>>(da, db, (const int *)dc, (int *)dd, satf, fill, fill_value);
        expect_launch_ok(test);
        from_device(hd, dd, sizeof hd);
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
                int64_t sum = hc[j * 8 + i];
                for (int k = 0; k < 32; ++k)
                    sum += (int64_t)va[i][k] * vb[k][j];
                const int64_t want = satf ? (sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum)
                                          : (int64_t)(int32_t)(uint32_t)sum;
                cr_assert(hd[i * 8 + j] == want, "%s variant %d: D[%d][%d] = %d, want %lld", test, variant, i, j,
                          hd[i * 8 + j], (long long)want);
            }
        release_device_buffers();
    }
}

Test(wmma_types, s4_m8n8k32_with_satf_and_fill)
{
    check_4bit<wmma::experimental::precision::s4>("wmma_types/s4", 1);
}

Test(wmma_types, u4_m8n8k32_with_satf_and_fill)
{
    check_4bit<wmma::experimental::precision::u4>("wmma_types/u4", 0);
}

Test(wmma_types, b1_m8n8k128_xor_and_and_popc)
{
    static unsigned char ha[8 * 32], hb[8 * 32];
    static int hc[64], hd[64], va[8][128], vb[128][8];
    unsigned state = test_seed("wmma_types/b1");
    for (int and_op = 0; and_op <= 1; ++and_op) {
        memset(ha, 0xff, sizeof ha);
        memset(hb, 0xff, sizeof hb);
        for (int i = 0; i < 8; ++i)
            for (int k = 0; k < 128; ++k) {
                va[i][k] = (int)(next_random(&state) % 2);
                put_packed(ha + i * 32, k, 1, (unsigned)va[i][k]);
            }
        for (int j = 0; j < 8; ++j)
            for (int k = 0; k < 128; ++k) {
                vb[k][j] = (int)(next_random(&state) % 2);
                put_packed(hb + j * 32, k, 1, (unsigned)vb[k][j]);
            }
        for (int i = 0; i < 64; ++i)
            hc[i] = (int)(next_random(&state) % 2001) - 1000; /* row-major */
        void *da = to_device(ha, sizeof ha), *db = to_device(hb, sizeof hb), *dc = to_device(hc, sizeof hc);
        void *dd = to_device(NULL, sizeof hd);
        wmma_b1<<<1, 32>>>(da, db, (const int *)dc, (int *)dd, and_op);
        expect_launch_ok("wmma_b1");
        from_device(hd, dd, sizeof hd);
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
                int want = hc[i * 8 + j];
                for (int k = 0; k < 128; ++k)
                    want += and_op ? (va[i][k] & vb[k][j]) : (va[i][k] ^ vb[k][j]);
                cr_assert(hd[j * 8 + i] == want, "b1 %s: D[%d][%d] = %d, want %d", and_op ? "AND" : "XOR", i, j,
                          hd[j * 8 + i], want);
            }
        release_device_buffers();
    }
}
