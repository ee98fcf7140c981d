/* simtlab — proof that the PTX side of kernels/common/sl_tensor.h is valid.
 *
 * Every function of sl_tensor.h is used at least once, so that ptxas checks
 * each inline-asm string for the architectures we ship:
 *
 *   nvcc -arch=sm_80 -I kernels -c tests/cuda/tensor_ptx_check.cu -o /tmp/t80.o
 *   nvcc -arch=sm_90 -I kernels -c tests/cuda/tensor_ptx_check.cu -o /tmp/t90.o
 *
 * On a machine with a GPU it is also a program: link it
 * (nvcc -arch=native -I kernels tests/cuda/tensor_ptx_check.cu -o tensor_ptx_check)
 * and it runs one 16x8x16 tile through cp.async -> ldmatrix -> mma.sync, in
 * f16 and bf16, against a double-precision CPU reference, and checks every
 * ldmatrix variant against the layout the emulator implements. Exit status 0
 * means the hardware agrees with the emulator's fragment layouts.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/sl_tensor.h"

/* One warp: A (16x16, row-major) and B (16x8, row-major, k x n) go to shared
 * memory by cp.async, come back as fragments by ldmatrix (.trans for B, since
 * mma wants B by columns), and one mma.sync computes D = A * B + C. */
__global__ void mma_tile(const unsigned short *a, const unsigned short *b, const float *c, float *d, int bf16)
{
    __shared__ __align__(16) unsigned short sa[16][16];
    __shared__ __align__(16) unsigned short sb[16][8];
    const unsigned lane = threadIdx.x;

    sl_cp_async_16(&sa[lane / 2][(lane % 2) * 8], a + lane * 8); /* 32 chunks of 16 bytes */
    sl_cp_async_commit();
    if (lane < 16)
        sl_cp_async_16(&sb[lane][0], b + lane * 8); /* 16 chunks */
    sl_cp_async_commit();
    sl_cp_async_wait_group(1); /* A has landed, B may not have */
    sl_cp_async_wait_all();
    __syncwarp();

    /* Matrix j of A: rows (j % 2) * 8.., columns (j / 2) * 8.. gives a[j]. */
    unsigned fa[4], fb[2];
    const unsigned j = lane / 8;
    sl_ldmatrix_x4(fa, &sa[(j % 2) * 8 + lane % 8][(j / 2) * 8]);
    sl_ldmatrix_x2_trans(fb, &sb[(lane / 8 % 2) * 8 + lane % 8][0]);

    const unsigned g = lane / 4, t = lane % 4;
    float fc[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], c[(g + 8) * 8 + 2 * t], c[(g + 8) * 8 + 2 * t + 1]};
    float fd[4];
    if (bf16)
        sl_mma_m16n8k16_bf16_f32(fd, fa, fb, fc);
    else
        sl_mma_m16n8k16_f16_f32(fd, fa, fb, fc);
    d[g * 8 + 2 * t] = fd[0];
    d[g * 8 + 2 * t + 1] = fd[1];
    d[(g + 8) * 8 + 2 * t] = fd[2];
    d[(g + 8) * 8 + 2 * t + 1] = fd[3];
}

/* The remaining ldmatrix variants on four 8x8 matrices m[j][r][c]. */
__global__ void ldmatrix_variants(const unsigned short *m, unsigned *out)
{
    __shared__ __align__(16) unsigned short sm[4][8][8];
    const unsigned lane = threadIdx.x;
    for (unsigned i = lane; i < 256; i += 32)
        (&sm[0][0][0])[i] = m[i];
    __syncwarp();
    const void *row = &sm[lane / 8][lane % 8][0];
    unsigned r[4];
    sl_ldmatrix_x1(r, row);
    out[lane * 4 + 0] = r[0];
    sl_ldmatrix_x1_trans(r, row);
    out[128 + lane * 4 + 0] = r[0];
    sl_ldmatrix_x2(r, row);
    out[256 + lane * 4 + 1] = r[1];
    sl_ldmatrix_x4_trans(r, row);
    out[384 + lane * 4 + 3] = r[3];
}

/* ---- host side: only when linked into a program ---------------------------- */

static int check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess)
        fprintf(stderr, "tensor_ptx_check: %s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaSuccess;
}

static int run_mma(int bf16)
{
    unsigned short ha[256], hb[128];
    float fa[256], fb[128], hc[128], hd[128];
    srand(bf16 ? 2 : 1);
    for (int i = 0; i < 256; ++i) {
        fa[i] = (float)(rand() % 255 - 127) / 128.0f; /* exact in f16 and bf16 */
        ha[i] = bf16 ? __bfloat16_as_ushort(__float2bfloat16(fa[i])) : __half_as_ushort(__float2half(fa[i]));
    }
    for (int i = 0; i < 128; ++i) {
        fb[i] = (float)(rand() % 255 - 127) / 128.0f;
        hb[i] = bf16 ? __bfloat16_as_ushort(__float2bfloat16(fb[i])) : __half_as_ushort(__float2half(fb[i]));
        hc[i] = (float)(rand() % 100) / 7.0f;
    }
    unsigned short *da, *db;
    float *dc, *dd;
    int ok = check(cudaMalloc((void **)&da, sizeof ha), "cudaMalloc") &&
             check(cudaMalloc((void **)&db, sizeof hb), "cudaMalloc") &&
             check(cudaMalloc((void **)&dc, sizeof hc), "cudaMalloc") &&
             check(cudaMalloc((void **)&dd, sizeof hd), "cudaMalloc") &&
             check(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice), "copy A") &&
             check(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice), "copy B") &&
             check(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice), "copy C");
    if (ok) {
        mma_tile<<<1, 32>>>(da, db, dc, dd, bf16);
        ok = check(cudaGetLastError(), "launch") && check(cudaDeviceSynchronize(), "mma_tile") &&
             check(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost), "copy D");
    }
    for (int m = 0; ok && m < 16; ++m)
        for (int n = 0; n < 8; ++n) {
            double ref = hc[m * 8 + n], scale = fabs(ref);
            for (int k = 0; k < 16; ++k) {
                ref += (double)fa[m * 16 + k] * fb[k * 8 + n];
                scale += fabs((double)fa[m * 16 + k] * fb[k * 8 + n]);
            }
            /* float accumulation of 17 terms: |error| <= 17 * 2^-24 * scale */
            if (!(fabs(hd[m * 8 + n] - ref) <= 1e-5 * scale + 1e-30)) {
                fprintf(stderr, "tensor_ptx_check: %s D[%d][%d] = %.9g, reference %.9g\n", bf16 ? "bf16" : "f16",
                        m, n, hd[m * 8 + n], ref);
                ok = 0;
            }
        }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
    return ok;
}

/* Expected register of lane L from matrix j, per the PTX ISA ldmatrix figure. */
static unsigned expected_reg(const unsigned short *m, unsigned lane, unsigned j, int trans)
{
    const unsigned a = lane / 4, b = 2 * (lane % 4);
    const unsigned short lo = trans ? m[j * 64 + b * 8 + a] : m[j * 64 + a * 8 + b];
    const unsigned short hi = trans ? m[j * 64 + (b + 1) * 8 + a] : m[j * 64 + a * 8 + b + 1];
    return lo | (unsigned)hi << 16;
}

static int run_ldmatrix(void)
{
    unsigned short hm[256];
    unsigned hout[512];
    for (int i = 0; i < 256; ++i)
        hm[i] = (unsigned short)(1000 + i);
    unsigned short *dm;
    unsigned *dout;
    int ok = check(cudaMalloc((void **)&dm, sizeof hm), "cudaMalloc") &&
             check(cudaMalloc((void **)&dout, sizeof hout), "cudaMalloc") &&
             check(cudaMemcpy(dm, hm, sizeof hm, cudaMemcpyHostToDevice), "copy matrices") &&
             check(cudaMemset(dout, 0, sizeof hout), "memset");
    if (ok) {
        ldmatrix_variants<<<1, 32>>>(dm, dout);
        ok = check(cudaGetLastError(), "launch") && check(cudaDeviceSynchronize(), "ldmatrix_variants") &&
             check(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost), "copy registers");
    }
    for (unsigned lane = 0; ok && lane < 32; ++lane) {
        const unsigned want[4] = {expected_reg(hm, lane, 0, 0), expected_reg(hm, lane, 0, 1),
                                  expected_reg(hm, lane, 1, 0), expected_reg(hm, lane, 3, 1)};
        const unsigned got[4] = {hout[lane * 4], hout[128 + lane * 4], hout[256 + lane * 4 + 1],
                                 hout[384 + lane * 4 + 3]};
        for (int v = 0; v < 4; ++v)
            if (got[v] != want[v]) {
                fprintf(stderr, "tensor_ptx_check: ldmatrix variant %d lane %u: 0x%08x, expected 0x%08x\n", v,
                        lane, got[v], want[v]);
                ok = 0;
            }
    }
    cudaFree(dm);
    cudaFree(dout);
    return ok;
}

int main(void)
{
    int devices = 0;
    cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe != cudaSuccess || devices == 0) {
        /* 77: CTest's SKIP_RETURN_CODE for this test. */
        printf("tensor_ptx_check: skipped: simtlab: no usable CUDA device (%s)\n",
               probe != cudaSuccess ? cudaGetErrorName(probe) : "0 devices");
        return 77;
    }
    const int ok = run_ldmatrix() && run_mma(0) && run_mma(1);
    printf("tensor_ptx_check: %s\n", ok ? "hardware matches the emulator's layouts" : "FAILED");
    return ok ? 0 : 1;
}
