/* Chapter 03 — warps and divergence.
 *
 * A warp issues one instruction for its 32 lanes. When lanes of one warp
 * want different paths, the warp runs each path in turn with the other
 * lanes masked off: k paths cost k times one. The versions come in pairs,
 * a divergent one and its control that does the same work on the same items
 * with every warp on one path, so that a student sees the cost alone:
 *
 *   v1  split by lane % k     k paths in every warp (k = 1..32)
 *   v2  split by warp         the same items, regrouped: one path per warp (control)
 *   v3  escape time, spatial  z = z^2 + c per pixel, pixels in image order
 *   v4  escape time, shuffled the same pixels in a random order
 *   v5  escape time, sorted   the same pixels sorted by their trip count
 *   v6  short branch, mixed   a one-instruction branch: predicated, no jump
 *   v7  short branch, grouped the same items grouped by key (control)
 *   v8  long branch, mixed    the same branch with a loop on each side: a real jump
 *   v9  long branch, grouped  the same items grouped by key (control)
 *
 * Every version computes out[item] from the item alone (the arithmetic is
 * in 03_divergence_work.h, shared with the CPU reference): only which warp
 * takes which item changes, so every version's results equal its control's.
 *
 * Host code reaches each version through sl_divergence_launch (C linkage).
 * Build and run: make examples && build/bin/03_divergence   (GPU)
 *                                 build/bin/03_divergence_emu (CPU emulator)
 * The machine code: nvcc -ptx -arch=sm_80 -Ikernels kernels/03_divergence.cu
 */
#include <cuda_runtime.h>
#include <limits.h>

#include "03_divergence.h"

/* Thread t0 + global id: the item number a thread stands for. */
__device__ static size_t global_thread(size_t t0) { return t0 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; }

/* The per-warp clock: lane 0 notes clock64() at entry (start) and, after
 * __syncwarp, when the warp's last lane is done. Every lane must call both,
 * including those without an item (the launch covers whole warps). */
__device__ static void warp_clock(long long *clocks, long long start)
{
    if (!clocks) return;
    __syncwarp();
    if ((threadIdx.x & 31u) == 0) {
        size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32u;
        clocks[2 * w] = start;
        clocks[2 * w + 1] = clock64();
    }
}

/* One path, `work` steps, its number P known to the compiler: each P is its
 * own loop with its own constants. */
template <int P> __device__ static uint32_t run_path(uint32_t v, int work)
{
    for (int j = 0; j < work; j++) v = sl_div_step(v, P);
    return v;
}

/* 32 loops behind one switch: a real branch (an indirect jump or a tree of
 * compares), never predicated. */
__device__ static uint32_t run_any_path(uint32_t v, int path, int work)
{
#define SL_DIV_CASE(P) \
    case P: return run_path<P>(v, work);
    switch (path) {
        SL_DIV_CASE(0) SL_DIV_CASE(1) SL_DIV_CASE(2) SL_DIV_CASE(3) SL_DIV_CASE(4) SL_DIV_CASE(5)
        SL_DIV_CASE(6) SL_DIV_CASE(7) SL_DIV_CASE(8) SL_DIV_CASE(9) SL_DIV_CASE(10) SL_DIV_CASE(11)
        SL_DIV_CASE(12) SL_DIV_CASE(13) SL_DIV_CASE(14) SL_DIV_CASE(15) SL_DIV_CASE(16) SL_DIV_CASE(17)
        SL_DIV_CASE(18) SL_DIV_CASE(19) SL_DIV_CASE(20) SL_DIV_CASE(21) SL_DIV_CASE(22) SL_DIV_CASE(23)
        SL_DIV_CASE(24) SL_DIV_CASE(25) SL_DIV_CASE(26) SL_DIV_CASE(27) SL_DIV_CASE(28) SL_DIV_CASE(29)
        SL_DIV_CASE(30) SL_DIV_CASE(31)
    default: return v;
    }
#undef SL_DIV_CASE
}

/* v1 — split by lane % k.
 * Item i takes path i % k; thread i takes item i, so lane l of every warp
 * takes path l % k: each warp holds k paths and runs them one after another,
 * 32/k lanes at a time. Expected: k times the time of v2. */
__global__ void divergence_v1_split_lane(const uint32_t *__restrict__ x, uint32_t *__restrict__ out, size_t n,
                                         int k, int work, size_t t0, long long *clocks)
{
    long long start = clocks ? clock64() : 0;
    size_t i = global_thread(t0);
    if (i < n) out[i] = run_any_path(x[i], (int)(i % (size_t)k), work);
    warp_clock(clocks, start);
}

/* v2 — split by warp (the control).
 * The same items and paths as v1, regrouped: in each group of 32k items,
 * warp w of the group takes items w, w + k, w + 2k, ...: all of path w. No
 * warp diverges; the loads are strided by k (4k bytes apart), which costs a
 * compute-bound kernel nothing worth seeing. */
__global__ void divergence_v2_split_warp(const uint32_t *__restrict__ x, uint32_t *__restrict__ out, size_t n,
                                         int k, int work, size_t t0, long long *clocks)
{
    long long start = clocks ? clock64() : 0;
    size_t g = global_thread(t0), group = 32u * (size_t)k;
    size_t r = g % group;
    size_t i = g - r + (r % 32u) * (size_t)k + r / 32u;
    if (i < n) out[i] = run_any_path(x[i], (int)(r / 32u), work);
    warp_clock(clocks, start);
}

/* v3-v5 — escape time, in the order `order` gives (NULL: image order).
 * Each pixel iterates until it escapes: a lane whose pixel escapes early
 * idles while the warp's slowest lane goes on. Neighbouring pixels (v3)
 * mostly escape together; a shuffled order (v4) puts a slow pixel in
 * nearly every warp; sorted by trip count (v5), each warp's lanes finish
 * together. */
__global__ void divergence_escape(const uint32_t *__restrict__ order, uint32_t *__restrict__ out, size_t n,
                                  sl_div_plane plane, int max_iter, size_t t0, long long *clocks)
{
    long long start = clocks ? clock64() : 0;
    size_t t = global_thread(t0);
    if (t < n) {
        uint32_t item = order ? order[t] : (uint32_t)t;
        out[item] = sl_div_escape(item, plane, max_iter);
    }
    warp_clock(clocks, start);
}

/* v6, v7 — the short branch: one instruction on either side of `if (key)`.
 * nvcc computes both sides and keeps one with a predicate (selp): no jump,
 * no divergence to pay for, so mixed keys (v6) cost what grouped keys (v7)
 * cost. */
__global__ void divergence_short(const uint32_t *__restrict__ x, const uint32_t *__restrict__ order,
                                 uint32_t *__restrict__ out, size_t n, int work, size_t t0, long long *clocks)
{
    long long start = clocks ? clock64() : 0;
    size_t t = global_thread(t0);
    if (t < n) {
        size_t i = order ? order[t] : t;
        out[i] = sl_div_short(x[i], work);
    }
    warp_clock(clocks, start);
}

/* v8, v9 — the long branch: the same `if (key)` with a loop of `work`
 * steps on each side, too long to predicate. Mixed keys (v8) run both loops
 * in every warp: twice the time of grouped keys (v9). */
__global__ void divergence_long(const uint32_t *__restrict__ x, const uint32_t *__restrict__ order,
                                uint32_t *__restrict__ out, size_t n, int work, size_t t0, long long *clocks)
{
    long long start = clocks ? clock64() : 0;
    size_t t = global_thread(t0);
    if (t < n) {
        size_t i = order ? order[t] : t;
        uint32_t v = x[i];
        out[i] = (v & 1u) ? run_path<1>(v, work) : run_path<2>(v, work);
    }
    warp_clock(clocks, start);
}

extern "C" size_t sl_divergence_threads(int version, size_t n, int k)
{
    if (version != 2 || k < 1) return n;
    size_t group = 32u * (size_t)k;
    return n / group * group + (n % group ? group : 0);
}

extern "C" const char *sl_divergence_kernel_name(int version)
{
    switch (version) {
    case 1: return "v1 split by lane % k";
    case 2: return "v2 split by warp (control)";
    case 3: return "v3 escape time, spatial order";
    case 4: return "v4 escape time, shuffled";
    case 5: return "v5 escape time, sorted by trips";
    case 6: return "v6 short branch, mixed keys";
    case 7: return "v7 short branch, grouped (control)";
    case 8: return "v8 long branch, mixed keys";
    case 9: return "v9 long branch, grouped (control)";
    default: return NULL;
    }
}

extern "C" cudaError_t sl_divergence_launch(const sl_divergence_plan *p, const uint32_t *x, const uint32_t *order,
                                            uint32_t *out, size_t n, size_t t0, size_t threads, long long *clocks,
                                            cudaStream_t stream)
{
    if (!p || p->block <= 0 || p->block % 32 != 0 || p->work < 0) return cudaErrorInvalidValue;
    if ((p->version == 1 || p->version == 2) && (p->k < 1 || p->k > SL_DIVERGENCE_MAX_K || (p->k & (p->k - 1))))
        return cudaErrorInvalidValue;
    size_t blocks = (threads + (size_t)p->block - 1) / (size_t)p->block;
    if (blocks == 0) blocks = 1;
    if (blocks > INT_MAX) return cudaErrorInvalidValue;
    unsigned grid = (unsigned)blocks;
    switch (p->version) {
    case 1: divergence_v1_split_lane<<<grid, p->block, 0, stream>>>(x, out, n, p->k, p->work, t0, clocks); break;
    case 2: divergence_v2_split_warp<<<grid, p->block, 0, stream>>>(x, out, n, p->k, p->work, t0, clocks); break;
    case 3:
    case 4:
    case 5: divergence_escape<<<grid, p->block, 0, stream>>>(order, out, n, p->plane, p->work, t0, clocks); break;
    case 6:
    case 7: divergence_short<<<grid, p->block, 0, stream>>>(x, order, out, n, p->work, t0, clocks); break;
    case 8:
    case 9: divergence_long<<<grid, p->block, 0, stream>>>(x, order, out, n, p->work, t0, clocks); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
