/* simtlab host library — checking results. The reference is computed in
 * double precision on the CPU, independently of any kernel; an output that is
 * NaN or Inf never passes; outputs are poisoned before each run so a value the
 * kernel never wrote cannot look right by accident. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sl_internal.h"

sl_check sl_compare_f32(const float *got, const double *ref, size_t n, double rel_tol)
{
    sl_check c = {0.0, 0.0, 0, 0, 0};
    if (n > 0 && (sl_check_host_ptr("sl_compare_f32", "got", got) != SL_OK ||
                  sl_check_host_ptr("sl_compare_f32", "ref", ref) != SL_OK)) {
        c.rel_l2 = c.max_abs = INFINITY;
        c.nonfinite = n;
        return c;
    }
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

sl_status sl_poison_f32(float *p, size_t n)
{
    size_t bytes = 0;
    sl_status st = sl_checked_bytes(n, sizeof *p, "sl_poison_f32: n", &bytes);
    if (st != SL_OK) return st;
    if (n > 0 && (st = sl_check_host_ptr("sl_poison_f32", "p", p)) != SL_OK) return st;
    /* 0xFF bytes are a quiet NaN, and the same pattern the emulator uses for
     * shared memory, so a poisoned value is recognisable in a debugger. */
    if (bytes) memset(p, 0xFF, bytes);
    return SL_OK;
}

/* The generator itself, for the library's own loops (state is theirs). */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t sl_rng_next(uint64_t *state)
{
    /* Called once per number, in loops: the pointer is checked once per
     * thread and remembered while it stays the same (a loop's &state). */
    static _Thread_local const uint64_t *checked;
    if (state != checked || !state) {
        if (sl_check_host_ptr("sl_rng_next", "state (pass the address of a uint64_t seed)", state) != SL_OK)
            return 0;
        checked = state;
    }
    return splitmix64(state);
}

sl_status sl_fill_uniform_f32(float *p, size_t n, uint64_t seed, float lo, float hi)
{
    size_t bytes = 0;
    sl_status st = sl_checked_bytes(n, sizeof *p, "sl_fill_uniform_f32: n", &bytes);
    if (st != SL_OK) return st;
    if (n > 0 && (st = sl_check_host_ptr("sl_fill_uniform_f32", "p", p)) != SL_OK) return st;
    if (!(lo < hi) || !isfinite(lo) || !isfinite(hi))
        return sl_fail(SL_ERR_INVALID_ARGUMENT, "sl_fill_uniform_f32: [lo, hi) = [%g, %g) is not a finite, non-empty range",
                       (double)lo, (double)hi);
    uint64_t state = seed;
    double span = (double)hi - (double)lo;
    for (size_t i = 0; i < n; i++) {
        /* 24 random bits: every value is exactly representable in float. */
        double u = (double)(splitmix64(&state) >> 40) / (double)(1u << 24);
        /* lo + span * u < hi exactly, but rounding it to float can give hi
         * (in a range one float wide, and for u near 1 wherever floats near
         * hi are further apart than span / 2^24, as in [1, 2)): the range
         * is [lo, hi), so such a value becomes the float just below hi. */
        float v = (float)(lo + span * u);
        p[i] = v < hi ? v : nextafterf(hi, lo);
    }
    return SL_OK;
}

sl_status sl_seed_from_env(uint64_t *seed)
{
    sl_status st = sl_check_host_ptr("sl_seed_from_env", "seed", seed);
    if (st != SL_OK) return st;
    const char *s = getenv("SIMTLAB_SEED");
    if (s && *s) {
        char *end = NULL;
        errno = 0;
        /* strtoull skips leading blanks and takes a sign (" -5" would be
         * 2^64 - 5): the text must start with a digit. */
        unsigned long long v = isdigit((unsigned char)s[0]) ? strtoull(s, &end, 0) : 0;
        if (errno != 0 || !isdigit((unsigned char)s[0]) || end == s || *end != '\0')
            return sl_fail(SL_ERR_INVALID_ARGUMENT,
                           "SIMTLAB_SEED = \"%s\": not a whole number from 0 to 2^64 - 1 (decimal, or hex with 0x)", s);
        *seed = (uint64_t)v;
        return SL_OK;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    *seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
    return SL_OK;
}
