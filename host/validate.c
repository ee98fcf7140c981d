/* simtlab host library — checking results. The reference is computed in
 * double precision on the CPU, independently of any kernel; an output that is
 * NaN or Inf never passes; outputs are poisoned before each run so a value the
 * kernel never wrote cannot look right by accident. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_internal.h"

sl_check sl_compare_f32(const float *got, const double *ref, size_t n, double rel_tol)
{
    sl_check c = {0.0, 0.0, 0, 0, 0};
    double err2 = 0.0, ref2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double g = got[i], r = ref[i];
        if (!isfinite(g) || !isfinite(r)) {
            /* Equal non-finite values match (inf == inf, NaN where NaN is
             * expected); anything else is a failure whatever the tolerance. */
            int same = (isnan(g) && isnan(r)) || (isinf(g) && g == r);
            if (!same) {
                c.nonfinite++;
                c.worst = i;
                c.max_abs = INFINITY;
            }
            continue;
        }
        double d = fabs(g - r);
        if (d > c.max_abs && isfinite(c.max_abs)) {
            c.max_abs = d;
            c.worst = i;
        }
        err2 += d * d;
        ref2 += r * r;
    }
    c.rel_l2 = ref2 > 0.0 ? sqrt(err2 / ref2) : sqrt(err2);
    if (c.nonfinite) c.rel_l2 = INFINITY;
    c.passed = c.nonfinite == 0 && c.rel_l2 <= rel_tol;
    return c;
}

void sl_poison_f32(float *p, size_t n)
{
    /* 0xFF bytes are a quiet NaN, and the same pattern the emulator uses for
     * shared memory, so a poisoned value is recognisable in a debugger. */
    memset(p, 0xFF, n * sizeof *p);
}

uint64_t sl_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void sl_fill_uniform_f32(float *p, size_t n, uint64_t seed, float lo, float hi)
{
    uint64_t state = seed;
    double span = (double)hi - (double)lo;
    for (size_t i = 0; i < n; i++) {
        /* 24 random bits: every value is exactly representable in float. */
        double u = (double)(sl_rng_next(&state) >> 40) / (double)(1u << 24);
        p[i] = (float)(lo + span * u);
    }
}

uint64_t sl_seed_from_env(void)
{
    const char *s = getenv("SIMTLAB_SEED");
    if (s && *s) return strtoull(s, NULL, 0);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
}
