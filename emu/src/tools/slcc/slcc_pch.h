/* slcc's precompiled prelude (slcc_pch.c): the emulator's headers that
 * every rewritten .cu starts with (SL_REWRITE_PRELUDE), compiled once per
 * set of flags and reused by later builds with the same flags. */
#ifndef SLCC_PCH_H
#define SLCC_PCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct slcc_pch_request {
    const char *cache_dir;    /* where the precompiled preludes live (SLCC_PCH_DIR) */
    const char *cpp;          /* the rewritten .cu about to be compiled */
    char *const *flags;       /* NULL-terminated: the compiler, then every flag of the compile
                               * except the user's include directories, the input and the output */
    const char *const *user_dirs; /* the user's -I and -isystem directories, CPATH's, and the .cu's own */
    size_t n_user_dirs;
    const char *const *own_dirs; /* slcc's include directories (the emulator's headers, the guard) */
    size_t n_own_dirs;
    bool verbose;             /* slcc -v: print the command that makes one */
} slcc_pch_request;

/* Returns true, with the prelude's path in `prelude` (to pass as -include),
 * when a precompiled prelude for exactly these flags is there and still
 * matches every header it was made from, and no file in a user directory
 * could take the place of one of those headers. It is made here by the
 * third build with a set of flags (a set used once or twice costs nothing
 * more); the first two only leave a mark. False, and nothing to add, otherwise: the
 * compile goes on as without it. */
bool slcc_pch_prelude(const slcc_pch_request *req, char *prelude, size_t cap);

#endif
