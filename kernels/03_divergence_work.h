/* Chapter 03 — the arithmetic every version does, written once for the
 * kernels (kernels/03_divergence.cu, C++) and the CPU reference
 * (host/03_divergence.c, C), so that both compute the same bits.
 *
 * Integer paths are exact everywhere. The escape-time loop is float, with
 * every multiply-add written as fmaf: nvcc would otherwise contract a * b + c
 * into one fused multiply-add (one rounding) where the host rounds twice,
 * and a pixel on the set's edge would escape one iteration apart. */
#ifndef SIMTLAB_KERNELS_03_DIVERGENCE_WORK_H
#define SIMTLAB_KERNELS_03_DIVERGENCE_WORK_H

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
#define SL_DIV_FN __host__ __device__ inline
#else
#define SL_DIV_FN static inline
#endif

/* One step of path p (0..31). Four shapes of arithmetic (p % 4), each with
 * its own constants: 32 paths that no compiler can merge into one. */
SL_DIV_FN uint32_t sl_div_step(uint32_t v, int p)
{
    uint32_t a = (0x9E3779B1u + (uint32_t)p * 0x632BE5ACu) | 1u;
    uint32_t b = 0x7F4A7C15u ^ ((uint32_t)p * 0x85EBCA77u);
    int s = 5 + p % 11;
    switch (p & 3) {
    case 0: return v * a + b;
    case 1: v ^= v >> s; return v * a;
    case 2: v = (v << s) | (v >> (32 - s)); return v + b;
    default: v = (v ^ b) * a; return v ^ (v >> 13);
    }
}

/* The short branch: a one-instruction body on either side, chosen by the
 * element's key (bit 0 of its value), `work` times. */
SL_DIV_FN uint32_t sl_div_short(uint32_t v, int work)
{
    uint32_t key = v & 1u;
    for (int j = 0; j < work; j++) {
        if (key) v = v * 0x2C1B3C6Du;
        else v = v ^ (v >> 7);
        v += (uint32_t)j;
    }
    return v;
}

/* The escape-time loop: iterations of z = z^2 + c from z = 0 until |z| > 2
 * or max_iter, for the pixel `item` of a `width`-wide image whose pixel
 * (px, py) is c = (x0 + px dx, y0 + py dy). */
typedef struct sl_div_plane {
    uint32_t width;
    float x0, dx, y0, dy;
} sl_div_plane;

SL_DIV_FN uint32_t sl_div_escape(uint32_t item, sl_div_plane g, int max_iter)
{
    float cx = fmaf((float)(item % g.width), g.dx, g.x0);
    float cy = fmaf((float)(item / g.width), g.dy, g.y0);
    float x = 0.0f, y = 0.0f;
    int it = 0;
    for (; it < max_iter; it++) {
        if (fmaf(x, x, y * y) > 4.0f) break;
        float xn = fmaf(x, x, fmaf(-y, y, cx));
        y = fmaf(x + x, y, cy);
        x = xn;
    }
    return (uint32_t)it;
}

#endif
