/* simtlab source rewriter — CUDA syntax a C++ compiler cannot read, turned
 * into calls of the emulator (see emu/include/simtlab_emu/engine.hpp):
 *
 *   k<<<g, b, shmem, stream>>>(args)
 *     -> ::simtlab_emu::launch("k", __FILE__, __LINE__, k, g, b, shmem, stream)(args)
 *   __shared__ T name[d];         -> T (&name)[d] = ::simtlab_emu::shared_var<T[d]>([]{});
 *   extern __shared__ T name[];   -> T *const name = (T *)::simtlab_emu::dynamic_shared();
 *   __shared__ at file scope      -> an inline accessor plus `#define name (accessor())`
 *
 * Everything else passes through byte for byte, and every source line keeps
 * its number, so compiler messages and gdb point at the student's own line.
 * The rewriting is a pure function of the text: slrewrite.c does the file
 * I/O, emu/tests/test_rewriter.c calls it directly.
 *
 * Limits, each a consequence of not being a compiler:
 * - text inside macros is not rewritten: `#define RUN(k) k<<<1, 1>>>()`
 *   stays as it is and fails to compile under the emulator;
 * - __align__(n) and alignas(n) are dropped from __shared__ declarations:
 *   the emulator's shared arena aligns every object to at least 16 bytes,
 *   and to alignof(T) beyond that;
 * - a file-scope __shared__ `name` becomes a macro, so from there on the
 *   identifier `name` means that variable everywhere in the file.
 */
#ifndef SIMTLAB_REWRITE_H
#define SIMTLAB_REWRITE_H

#include <stddef.h>

/* The rewritten text. data is NUL-terminated (data[len] == '\0') so that it
 * can be printed or compared as a string; it may also contain NUL bytes that
 * were in the input. Start from a zeroed struct; free with sl_outbuf_free. */
typedef struct sl_outbuf {
    char *data;
    size_t len;
    size_t cap;
} sl_outbuf;

void sl_outbuf_free(sl_outbuf *out);

/* Rewrites `len` bytes of CUDA source `src`. `path` names the input in the
 * `#line` of the prologue and in messages (NULL: "<input>").
 * Returns 0 with the output in *out (any previous contents are freed), or -1
 * with one line "path:line:col: error: ..." in err (truncated to errcap) and
 * *out left empty. Never rewrites inside comments, literals or preprocessor
 * lines. */
int sl_rewrite(const char *src, size_t len, const char *path, sl_outbuf *out, char *err,
               size_t errcap);

#endif
