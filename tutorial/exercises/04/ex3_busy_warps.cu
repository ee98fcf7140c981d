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
 * Write busy_warps: for each version, how many warps of the block are
 * busy at step s, as a formula in block and s (block is a power of two
 * from 64 to 1024). This program checks only that your formula gives an
 * answer for every block and step (1 to block / 32 warps); whether it is
 * right is graded by `make grade`'s instructor checks, which count the
 * busy warps on the device. (To check yourself first, count them on the
 * device: one lane per warp, __ballot_sync.) Then answer: at which step
 * does v1 stop keeping every warp busy, and why does that make v2 faster
 * although both do the same adds? */
#include "ex_common.h"

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
    int wrong = 0;
    for (unsigned block = 64; block <= 1024; block *= 2)
        for (unsigned s = 1; s < block; s *= 2)
            for (int v = 1; v <= 2; v++) {
                unsigned said = busy_warps(v, block, s);
                if ((said < 1 || said > block / 32) && !wrong) {
                    printf("WRONG: block %u, v%d, step s = %u: %u is not an answer (1 to %u warps: thread 0 adds "
                           "at every step)\n", block, v, s, said, block / 32);
                    wrong = 1;
                }
            }
    if (!wrong)
        printf("your formula answers every block and step: `make grade EX=04-3` checks it against the device\n");
    return wrong;
}
