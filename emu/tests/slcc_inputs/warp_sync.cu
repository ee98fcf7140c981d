// Warp-synchronous code as tutorials write it: the last warp of a
// reduction and a warp scan on volatile shared memory, with no __syncwarp.
// A GPU's converged warp runs each statement in lock step; the emulator
// must give the same sums (emu/src/engine/lockstep_hooks.cpp). Prints one line per
// case; the seed goes to stderr.
#include <cstdio>
#include <cstdlib>
#include <ctime>

__device__ void warpReduce(volatile int *s, int t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

template <unsigned BLOCK>
__global__ void reduce_int(const int *v, int n, int *out)
{
    __shared__ int p[BLOCK];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * BLOCK + t;
    p[t] = i < (unsigned)n ? v[i] : 0;
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (t < s)
            p[t] += p[t + s];
        __syncthreads();
    }
    if (t < 32)
        warpReduce(p, t);
    if (t == 0)
        out[blockIdx.x] = p[0];
}

// The volatile pointer inside the kernel, on floats.
__global__ void reduce_float(const float *v, float *out)
{
    extern __shared__ float f[];
    const unsigned t = threadIdx.x;
    f[t] = v[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t < 32) {
        volatile float *w = f;
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1)
            if (t < s)
                w[t] += w[t + s];
    }
    if (t == 0)
        out[blockIdx.x] = f[0];
}

// Kogge-Stone: each lane reads a lower lane's element, so every lane's
// load must come before any lane's store.
__device__ void warpScan(volatile int *s, int lane)
{
    if (lane >= 1) s[lane] += s[lane - 1];
    if (lane >= 2) s[lane] += s[lane - 2];
    if (lane >= 4) s[lane] += s[lane - 4];
    if (lane >= 8) s[lane] += s[lane - 8];
    if (lane >= 16) s[lane] += s[lane - 16];
}

__global__ void scan_warps(const int *v, int *out)
{
    __shared__ int s[128];
    const int t = threadIdx.x;
    s[t] = v[blockIdx.x * 128 + t];
    __syncthreads(); // the plain stores above are not volatile: every lane's before any scan
    warpScan(s + (t / 32) * 32, t % 32);
    out[blockIdx.x * 128 + t] = s[t];
}

int main()
{
    const unsigned seed = (unsigned)time(NULL);
    fprintf(stderr, "warp_sync: seed %u\n", seed);
    srand(seed);
    const int n = 37 * 256 - 19, nb = 37;
    int *v, *o;
    float *fv, *fo;
    cudaMallocManaged(&v, nb * 256 * sizeof(int));
    cudaMallocManaged(&o, nb * 256 * sizeof(int));
    cudaMallocManaged(&fv, 29 * 64 * sizeof(float));
    cudaMallocManaged(&fo, 29 * sizeof(float));
    for (int i = 0; i < nb * 256; i++)
        v[i] = rand() % 2001 - 1000;

    int bad = 0;
    for (int b = 0; b < nb; b++)
        o[b] = 0x7fffffff;
    reduce_int<256><<<nb, 256>>>(v, n, o);
    cudaDeviceSynchronize();
    for (int b = 0; b < nb; b++) {
        long long ref = 0;
        for (int i = b * 256; i < (b + 1) * 256 && i < n; i++)
            ref += v[i];
        bad += ref != o[b];
    }
    printf("reduce 256: %d of %d blocks wrong\n", bad, nb);

    bad = 0;
    for (int b = 0; b < 9; b++)
        o[b] = 0x7fffffff;
    reduce_int<64><<<9, 64>>>(v, 9 * 64 - 5, o);
    cudaDeviceSynchronize();
    for (int b = 0; b < 9; b++) {
        long long ref = 0;
        for (int i = b * 64; i < (b + 1) * 64 && i < 9 * 64 - 5; i++)
            ref += v[i];
        bad += ref != o[b];
    }
    printf("reduce 64: %d of 9 blocks wrong\n", bad);

    // floats: small integers, so that any order of the additions is exact
    for (int i = 0; i < 29 * 64; i++)
        fv[i] = (float)(rand() % 101 - 50);
    for (int b = 0; b < 29; b++)
        fo[b] = 1e30f;
    reduce_float<<<29, 64, 64 * sizeof(float)>>>(fv, fo);
    cudaDeviceSynchronize();
    bad = 0;
    for (int b = 0; b < 29; b++) {
        double ref = 0;
        for (int i = 0; i < 64; i++)
            ref += fv[b * 64 + i];
        bad += ref != (double)fo[b];
    }
    printf("reduce float: %d of 29 blocks wrong\n", bad);

    for (int i = 0; i < 3 * 128; i++)
        o[i] = 0x7fffffff;
    scan_warps<<<3, 128>>>(v, o);
    cudaDeviceSynchronize();
    bad = 0;
    for (int w = 0; w < 3 * 4; w++) {
        long long acc = 0;
        for (int l = 0; l < 32; l++) {
            acc += v[w * 32 + l];
            bad += acc != o[w * 32 + l];
        }
    }
    printf("scan: %d of 384 wrong\n", bad);
    cudaFree(v);
    cudaFree(o);
    cudaFree(fv);
    cudaFree(fo);
    return 0;
}
