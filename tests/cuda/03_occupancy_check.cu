/* gpu.03_occupancy.check: on a GPU, the calculator (host/03_occupancy.c) against
 * the runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor, for kernels
 * with few and many registers, static and dynamic shared memory, over block
 * sizes from 32 to 1024 and dynamic sizes up to what a block may opt in to.
 * The registers and static shared memory come from cudaFuncGetAttributes,
 * as they would from build/resources.txt. Exits 77 (CTest: skipped) with the
 * reason where there is no GPU or the calculator does not know its
 * architecture; 1 on any disagreement, with the case. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "simtlab/simtlab.h"

__global__ void occ_few_registers(float *x) { x[threadIdx.x] += 1.0f; }

/* Many values live at once: ptxas keeps them in registers. */
__global__ void occ_many_registers(const float *in, float *out, int n)
{
    float v[40];
#pragma unroll
    for (int i = 0; i < 40; i++) v[i] = in[(threadIdx.x + i * 97) % n];
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < 40; i++)
#pragma unroll
        for (int j = i + 1; j < 40; j += 7) acc += v[i] * v[j];
    out[threadIdx.x] = acc;
}

__global__ void occ_static_shared(float *x)
{
    __shared__ float tile[5000]; /* 20000 bytes */
    tile[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void occ_dynamic_shared(float *x)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

static int compare(const char *name, const void *func, int arch, size_t max_dynamic, int *cases)
{
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, func) != cudaSuccess) {
        printf("FAIL %s: cudaFuncGetAttributes: %s\n", name, cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    if (max_dynamic > 0 &&
        cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)max_dynamic) != cudaSuccess) {
        printf("FAIL %s: cudaFuncSetAttribute(%zu): %s\n", name, max_dynamic, cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    printf("%s: %d registers, %zu bytes of static shared memory\n", name, attr.numRegs, attr.sharedSizeBytes);
    const size_t dynamic[] = {0, 1, 1000, 4096, 20000, 49152, 65536, 100000, 160000, 200000, 232000};
    int bad = 0;
    for (int threads = 32; threads <= attr.maxThreadsPerBlock; threads += 32) {
        for (size_t d = 0; d < sizeof dynamic / sizeof dynamic[0]; d++) {
            if (dynamic[d] > max_dynamic) break;
            int api = -1;
            cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, func, threads, dynamic[d]);
            if (e != cudaSuccess) {
                printf("FAIL %s, %d threads, %zu bytes: %s\n", name, threads, dynamic[d], cudaGetErrorString(e));
                return 1;
            }
            sl_occupancy o;
            if (sl_occupancy_calc(arch, threads, attr.numRegs, attr.sharedSizeBytes, dynamic[d], &o) != SL_OK) {
                printf("FAIL %s: %s\n", name, sl_last_error());
                return 1;
            }
            (*cases)++;
            if (o.active_blocks != api) {
                char text[64];
                printf("FAIL %s, %d threads, %zu bytes dynamic: the runtime says %d blocks, the calculator %d (%s)\n",
                       name, threads, dynamic[d], api, o.active_blocks,
                       sl_occupancy_limits_text(o.limits, text, sizeof text));
                bad++;
            }
        }
    }
    return bad ? 1 : 0;
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("skipped: no usable CUDA GPU on this machine (no driver / no device)\n");
        return 77;
    }
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        printf("FAIL: cudaGetDeviceProperties: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    int arch = p.major * 10 + p.minor;
    sl_arch_limits l;
    if (sl_arch_limits_get(arch, &l) != SL_OK) {
        printf("skipped: %s (%s)\n", sl_last_error(), p.name);
        return 77;
    }
    printf("%s, sm_%d: %d blocks, %d threads, %zu bytes of shared memory per SM (calculator: %d, %d, %zu)\n",
           p.name, arch, p.maxBlocksPerMultiProcessor, p.maxThreadsPerMultiProcessor, p.sharedMemPerMultiprocessor,
           l.max_blocks_per_sm, l.max_warps_per_sm * 32, l.shared_per_sm);
    int failed = 0, cases = 0;
    if (p.maxBlocksPerMultiProcessor != l.max_blocks_per_sm ||
        p.maxThreadsPerMultiProcessor != l.max_warps_per_sm * 32 || p.sharedMemPerMultiprocessor != l.shared_per_sm ||
        p.sharedMemPerBlockOptin != l.max_shared_per_block || p.reservedSharedMemPerBlock != l.shared_reserved ||
        p.regsPerMultiprocessor != l.registers_per_sm) {
        printf("FAIL: the device's limits differ from the calculator's sm_%d table\n", arch);
        failed = 1;
    }
    size_t optin = p.sharedMemPerBlockOptin;
    failed |= compare("occ_few_registers", (const void *)occ_few_registers, arch, 0, &cases);
    failed |= compare("occ_many_registers", (const void *)occ_many_registers, arch, 0, &cases);
    failed |= compare("occ_static_shared", (const void *)occ_static_shared, arch, 0, &cases);
    failed |= compare("occ_dynamic_shared", (const void *)occ_dynamic_shared, arch, optin, &cases);
    printf("%s: %d cases compared\n", failed ? "FAILED" : "agree", cases);
    return failed;
}
