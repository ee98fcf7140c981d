/* Exercise 04.3 — which warps still have work? (pencil and paper)
 * A block of `block` threads reduces `block` values in shared memory in
 * steps s = 1, 2, 4, ..., block / 2. At each step some threads add and the
 * others wait; a warp with at least one adding lane is "busy": it issues the
 * add, and the lanes that do not add idle through it (divergence). Two ways
 * of choosing the adding threads:
 *
 *   v1 interleaved:        if (t % (2 * s) == 0) x[t] += x[t + s];
 *   v2 strided index:      int i = 2 * s * t; if (i < block) x[i] += x[i + s];
 *
 * Before running it, write busy_warps: for each version, how many warps of
 * the block are busy at step s, as a formula in block and s (block is a
 * power of two from 64 to 1024). The program counts them on the device (a
 * warp counts itself once per step, with __ballot_sync) and compares, for
 * every block size and step. Then answer: at which step does v1 stop
 * keeping every warp busy, and why does that make v2 faster although both
 * do the same adds? */
#include "ex_common.h"

#define MAX_STEPS 10 /* block <= 1024: s = 1 .. 512 */

/* busy[version][k] counts the busy warps at step s = 2^k. */
__global__ void count_busy_warps(unsigned *busy)
{
    const int t = (int)threadIdx.x, block = (int)blockDim.x;
    int k = 0;
    for (int s = 1; s < block; s *= 2, k++) {
        const int v1_adds = t % (2 * s) == 0;
        const int v2_adds = 2 * s * t < block;
        const unsigned v1 = __ballot_sync(0xffffffffu, v1_adds);
        const unsigned v2 = __ballot_sync(0xffffffffu, v2_adds);
        if (t % 32 == 0) { /* one lane per warp counts its warp */
            if (v1) atomicAdd(&busy[0 * MAX_STEPS + k], 1u);
            if (v2) atomicAdd(&busy[1 * MAX_STEPS + k], 1u);
        }
    }
}

/* version 1 or 2; block a power of two, 64 .. 1024; s a power of two < block. */
static unsigned busy_warps(int version, unsigned block, unsigned s)
{
#ifdef SOLUTION
    /* v1: the adding threads are the multiples of 2s. While 2s <= 32 every
     * warp holds one (its lane 0), so all block / 32 warps stay busy with
     * most lanes idle; from 2s = 64 on there is one adding thread per 2s
     * threads, each in a warp of its own: block / (2s) busy warps. v2: the
     * adding threads are t < block / (2s), packed into the first warps:
     * ceil(block / (2s) / 32) busy warps, all lanes adding until fewer than
     * 32 remain. v1 keeps every warp issuing for the first five steps (s = 1
     * to 16) while v2 retires half of its warps at every step: same adds,
     * far fewer warp instructions. */
    unsigned adders = block / (2 * s);
    if (version == 1) return 2 * s <= 32 ? block / 32 : adders;
    return (adders + 31) / 32;
#else
    (void)version, (void)block, (void)s;
    return 0; /* FIXME: busy warps at step s */
#endif
}

int main(void)
{
    unsigned *d_busy, busy[2 * MAX_STEPS];
    int wrong = 0;
    CHECK(cudaMalloc(&d_busy, sizeof busy));
    for (unsigned block = 64; block <= 1024; block *= 2) {
        CHECK(cudaMemset(d_busy, 0, sizeof busy));
        count_busy_warps<<<1, block>>>(d_busy);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(busy, d_busy, sizeof busy, cudaMemcpyDeviceToHost));
        int k = 0, bad = 0;
        for (unsigned s = 1; s < block; s *= 2, k++)
            for (int v = 1; v <= 2; v++) {
                unsigned want = busy[(v - 1) * MAX_STEPS + k], said = busy_warps(v, block, s);
                if (said != want) {
                    if (!bad)
                        printf("WRONG: block %u, v%d, step s = %u: %u warps are busy, your formula says %u\n",
                               block, v, s, want, said);
                    bad = 1;
                }
            }
        if (!bad) printf("correct: block %u, every step, both versions\n", block);
        wrong |= bad;
    }
    CHECK(cudaFree(d_busy));
    return wrong;
}
