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
 * The rewriting is a pure function of the text: tools/rewriter/slrewrite.c does the file
 * I/O, emu/tests/test_rewriter.c calls it directly.
 *
 * Limits, each a consequence of not being a compiler:
 * - inside a #define only launches, __shared__ declarations and loops are
 *   rewritten; a launch whose kernel is the macro's parameter
 *   (`#define RUN(k) k<<<1, 1>>>()`) cannot be looked up, so where the
 *   file has kernel templates or overloads it calls the kernel through a
 *   generic lambda, whose arguments keep their own types (a literal 0
 *   passed for a pointer parameter does not compile there);
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

/* The first line of the output when the code says `volatile` other than in
 * `asm volatile` (in its tokens or a #define body, in the file or a header
 * put in): warp-synchronous code, which slcc builds in lock step
 * (emu/src/engine/lockstep_hooks.cpp). A comment: the prologue's #line keeps the
 * numbering. */
#define SL_REWRITE_SAYS_VOLATILE "// slrewrite: the code says volatile (slcc builds it in lock step)\n"

/* What every output starts with (after SL_REWRITE_SAYS_VOLATILE, where
 * written), before the #line that returns to the input: the emulator's
 * headers. slcc compiles this prelude once per set of flags into a
 * precompiled header (tools/slcc/slcc_pch.c). */
#define SL_REWRITE_PRELUDE \
    "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n#include <simtlab_emu/host_fn.h>\n"

/* Rewrites `len` bytes of CUDA source `src`. `path` names the input in the
 * `#line` of the prologue and in messages (NULL: "<input>").
 * Returns 0 with the output in *out (any previous contents are freed), or -1
 * with one line "path:line:col: error: ..." in err (truncated to errcap) and
 * *out left empty. Never rewrites inside comments, literals or preprocessor
 * lines. */
int sl_rewrite(const char *src, size_t len, const char *path, sl_outbuf *out, char *err,
               size_t errcap);

/* ---- following the user's own #include files ---------------------------- */

/* Where sl_rewrite_tree looks for included files. */
typedef struct sl_include_opts {
    const char *const *dirs; /* -I directories, searched in order */
    size_t ndirs;
    const char *emu_include; /* the emulator's headers: a name found there is never followed (NULL: none) */
} sl_include_opts;

/* Reads and rewrites the file `path` like sl_rewrite, and with it every file
 * of the user's tree that it includes (recursively): an `#include "x.h"`
 * found beside the including file or in an -I directory, an `#include <x.h>`
 * found in an -I directory, unless the emulator provides x.h itself. Each
 * such file is rewritten and put in place of its #include line between
 * `#line` directives, so that messages and gdb name the header and its
 * lines; `#pragma once` becomes an include guard. System headers, the
 * emulator's, names made by macros and a file already being included (a
 * cycle) keep their #include line. `deps` (may be NULL) receives the path of
 * every file put in, one per line. Returns 0, or -1 with one line in err. */
int sl_rewrite_tree(const char *path, const sl_include_opts *opts, sl_outbuf *out, sl_outbuf *deps, char *err,
                    size_t errcap);

#endif
