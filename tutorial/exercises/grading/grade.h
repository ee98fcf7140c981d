/* For the instructor's hidden tests (tutorial/INSTRUCTORS.md, "Adding an
 * exercise with hidden tests"); `make student` leaves this folder out.
 *
 * A hidden test includes the student's exercise with its main renamed and
 * checks the student's code itself, printing one line per check through
 * CHECK_VISIBLE (a check of the case the visible test runs: its points
 * are the visible test's) or CHECK_HIDDEN. Each line carries the token the
 * grader gave this run (SIMTLAB_GRADE_TOKEN), taken before any of the
 * student's code runs, so that a line the student's code prints is not
 * mistaken for a result.
 *
 * What the student's program says about itself is never a result here:
 * counts come from the emulator's census (simtlab_emu/census.h: launches,
 * copies, allocations, and which kernel wrote which bytes) and modelled
 * figures from its counters (simtlab_emu/profile.h), never from a variable
 * of the student's file. On a GPU build neither exists: census_begin()
 * returns 0 and a check that needs them says it was not checked there. */
#ifndef GRADE_H
#define GRADE_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SIMTLAB_EMU
#include <simtlab_emu/census.h>
#include <simtlab_emu/profile.h>
#endif

static char grade_token[80];

/* Before any constructor of the student's file (priority 101 runs first). */
__attribute__((constructor(101))) static void grade_take_token(void)
{
    const char *t = getenv("SIMTLAB_GRADE_TOKEN");
    if (t) {
        snprintf(grade_token, sizeof grade_token, "%s ", t);
        unsetenv("SIMTLAB_GRADE_TOKEN");
    }
}

static void grade_line(int ok, const char *group, const char *fmt, va_list ap)
{
    char what[1024];
    vsnprintf(what, sizeof what, fmt, ap);
    printf("%s%s - %s%s\n", grade_token, ok ? "ok" : "not ok", group, what);
    fflush(stdout);
}

/* CHECK_VISIBLE(ok, "what: why") -> "ok - visible: what" or "not ok - visible: what: why" */
static int CHECK_VISIBLE(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    grade_line(ok, "visible: ", fmt, ap);
    va_end(ap);
    return ok;
}

static int CHECK_HIDDEN(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    grade_line(ok, "", fmt, ap);
    va_end(ap);
    return ok;
}

/* The last line of a hidden test: it ran to its end (a student's code that
 * exits early leaves this out, and the grader counts the checks missing). */
static void grade_done(void)
{
    printf("%sdone\n", grade_token);
    fflush(stdout);
}

/* A sticky error leaves nothing to check: say so and stop (the grader
 * counts every check not printed as failed). */
#define GRADE_REQUIRE(call)                                                                    \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            printf("%snot ok - %s failed: %s\n", grade_token, #call, cudaGetErrorString(e_)); \
            fflush(stdout);                                                                    \
            exit(0);                                                                           \
        }                                                                                      \
    } while (0)

/* The census around the student's code: 1 when it runs (the emulator), 0 on a GPU. */
#ifdef SIMTLAB_EMU
static simtlab_emu_census census;
static int census_begin(void)
{
    simtlab_emu_census_begin();
    return 1;
}
static void census_end(void)
{
    simtlab_emu_census_end();
    simtlab_emu_census_get(&census);
}
static unsigned long long census_launches_of(const char *kernel, unsigned long long *threads)
{
    return simtlab_emu_census_launches_of(kernel, threads);
}

/* 1 where this build has no modelled counters at all (the emulator under
 * AddressSanitizer, `make test-asan`): a check of them says so and passes,
 * as on a GPU build. Where it has them (slcc --profile, as the grader
 * builds) a window without figures fails. The student's file cannot change
 * which: the build's flags are the grader's. */
static int no_model_here(void) { return !simtlab_emu_profile_available(); }

/* The modelled figures of a window of launches, or NULL (no counters). */
static const simtlab_emu_profile_figures *figures;
static void model_window_begin(void) { simtlab_emu_profile_begin(); }
static const simtlab_emu_profile_figures *model_window_end(void)
{
    static simtlab_emu_profile_figures f;
    simtlab_emu_profile_end();
    return (figures = simtlab_emu_profile_window(&f) == 0 ? &f : NULL);
}
#else
static int census_begin(void) { return 0; }
static void census_end(void) {}
static unsigned long long census_launches_of(const char *kernel, unsigned long long *threads)
{
    (void)kernel;
    if (threads) *threads = 0;
    return 0;
}
static void model_window_begin(void) {}
static const void *model_window_end(void) { return NULL; }
static int no_model_here(void) { return 1; }
#endif

/* 64-bit FNV-1a, as the census hashes the bytes of a device-to-host copy. */
static unsigned long long grade_hash(const void *bytes, size_t n)
{
    const unsigned char *p = (const unsigned char *)bytes;
    unsigned long long h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* A kernel as the census names it ("scale<4>") is `want` ("scale"). */
static int kernel_is(const char *launched, const char *want)
{
    size_t n = strlen(want);
    return strncmp(launched, want, n) == 0 && (launched[n] == '\0' || launched[n] == '<');
}

/* Under the census: did the host receive `want` (`bytes` long) from the
 * device, in device-to-host copies that tile it, every byte of them last
 * written on the device by a launch of `kernel` (NULL: of any kernel but
 * `not_kernel`)? The result's copies are found by where they landed: the
 * lowest destination from which copies of the result's size cover it.
 * Returns 1, or 0 with the reason in why. */
static int received_from_kernel(const void *want, size_t bytes, const char *kernel, const char *not_kernel, char *why,
                                size_t cap)
{
#ifdef SIMTLAB_EMU
    size_t n = simtlab_emu_census_d2h_count();
    snprintf(why, cap, "the result (%zu bytes) was never copied from the device to the host", bytes);
    for (size_t start = 0; start < n; start++) {
        simtlab_emu_census_copy first;
        simtlab_emu_census_d2h(start, &first);
        const char *lo = (const char *)first.host;
        size_t covered = 0;
        for (size_t i = 0; i < n; i++) {
            simtlab_emu_census_copy c;
            simtlab_emu_census_d2h(i, &c);
            const char *at = (const char *)c.host;
            if (at < lo || at + c.bytes > lo + bytes) continue;
            covered += c.bytes;
        }
        if (covered < bytes) continue;
        /* these copies hold the result: each must be right, and the kernel's */
        for (size_t i = 0; i < n; i++) {
            simtlab_emu_census_copy c;
            simtlab_emu_census_d2h(i, &c);
            const char *at = (const char *)c.host;
            if (at < lo || at + c.bytes > lo + bytes) continue;
            size_t off = (size_t)(at - lo);
            if (c.fnv1a != grade_hash((const char *)want + off, c.bytes)) {
                snprintf(why, cap, "the %zu bytes copied back to offset %zu of the result are not the right values",
                         c.bytes, off);
                return 0;
            }
            /* every byte written on the device by the kernel, or never written
             * at all (a kernel that stores the value a byte already held is not
             * seen; the values are checked above) */
            if (c.host_bytes != 0 || c.kernel_bytes == 0 || (kernel && !kernel_is(c.kernel, kernel)) ||
                (not_kernel && kernel_is(c.kernel, not_kernel))) {
                snprintf(why, cap, "of the %zu bytes copied back to offset %zu of the result, %zu were last written "
                         "on the device by a kernel (%s) and %zu by the host (a copy or a memset): the result must "
                         "be computed on the device by %s",
                         c.bytes, off, c.kernel_bytes, c.kernel[0] ? c.kernel : "none", c.host_bytes,
                         kernel ? kernel : "your kernel");
                return 0;
            }
        }
        return 1;
    }
    return 0;
#else
    (void)want, (void)bytes, (void)kernel, (void)not_kernel;
    snprintf(why, cap, "not checked on a GPU build (no census)");
    return 1;
#endif
}
#endif
