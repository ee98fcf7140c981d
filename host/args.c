/* simtlab host library — the positional arguments of the example programs. */
#include <errno.h>
#include <stdlib.h>

#include "sl_internal.h"

int sl_arg_ll(int argc, char **argv, int i, long long fallback, long long min, long long max, long long *out)
{
    if (!out || i < 0 || (!argv && argc > i)) return 0;
    if (sl_check_host_ptr("sl_arg_ll", "out", out) != SL_OK) return 0;
    if (argc <= i) {
        *out = fallback;
        return 1;
    }
    if (!argv[i]) return 0; /* a hand-made argv may hold NULL before argc */
    char *end = NULL;
    errno = 0;
    long long v = strtoll(argv[i], &end, 0);
    if (errno != 0 || end == argv[i] || *end != '\0' || v < min || v > max) return 0;
    *out = v;
    return 1;
}
