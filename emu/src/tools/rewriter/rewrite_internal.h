/* simtlab source rewriter — what the driver and the passes share.
 * Internal: the public interface is rewrite.h; the leaf every file uses
 * (text, errors, edits, tokens, scopes, name sets) is rewrite_text.h.
 * The passes, one topic per file:
 *   tools/rewriter/rewrite_lex.c      pass 1 (the tokenizer) and pass 2 (matching brackets);
 *   tools/rewriter/rewrite_kernels.c  __global__ definitions (the host-call check) and
 *                      kernels that share their name with a host function;
 *   tools/rewriter/rewrite_include.c  the user's own headers, put in place;
 *   tools/rewriter/rewrite_launch.c   kernel launches;
 *   tools/rewriter/rewrite_shared.c   __shared__ declarations;
 *   tools/rewriter/rewrite_asm.c      inline PTX;
 *   tools/rewriter/rewrite_removed.c  texture and surface references (removed in CUDA 12.0);
 *   tools/rewriter/rewrite_hostfn.c   host-only functions;
 *   tools/rewriter/rewrite_spin.c     spin points in loops.
 * Comments on what each function does are at its definition.
 */
#ifndef SIMTLAB_REWRITE_INTERNAL_H
#define SIMTLAB_REWRITE_INTERNAL_H

#include "rewrite_text.h"

#include <stdbool.h>
#include <stddef.h>

/* ======================================================================
 * the passes' own records
 * ====================================================================== */

/* A __global__ function declared at namespace scope (tools/rewriter/rewrite_kernels.c). */
typedef struct kernel_decl {
    size_t name;           /* token of its name */
    size_t lparen, rparen; /* its parameter list */
    bool is_template;
    bool ambiguous;        /* kernels of this name with different parameter counts */
    size_t tparams;        /* a template's `<` after `template` (0: none) */
    signed char var_named; /* tools/rewriter/rewrite_kernels.c, known_kernel_launch: 0 not looked yet, 1 a variable
                            * or parameter of the file has the kernel's name, -1 none has */
} kernel_decl;

/* A preprocessor line: bytes [start, end) (end: its newline), the number
 * of its last physical line. */
typedef struct directive {
    size_t start, end;
    int last_line;
} directive;

/* Tokens [open, close] of a function's or lambda's body: host-only code
 * (tools/rewriter/rewrite_hostfn.c marks it), or a device lambda inside such code. */
typedef struct code_span {
    size_t open, close;
    bool host;
} code_span;

/* ======================================================================
 * the passes, and what one pass asks of another
 * ====================================================================== */

/* tools/rewriter/rewrite_lex.c */
int lex(rw *r);
int match_all(rw *r);
bool code_says_volatile(const rw *r);

/* tools/rewriter/rewrite_launch.c */
bool is_launch_open(const rw *r, size_t i);
int rewrite_launch(rw *r, size_t open);

/* tools/rewriter/rewrite_shared.c */
int rewrite_shared(rw *r, size_t i, size_t *next);
int rewrite_macro_bodies(rw *r);

/* tools/rewriter/rewrite_asm.c */
int rewrite_asm(rw *r, size_t i, size_t *next);

/* tools/rewriter/rewrite_removed.c: a texture or surface reference (removed in CUDA 12.0)
 * declared at token i becomes the emulator's template that says so */
int rewrite_removed_reference(rw *r, size_t i);

/* tools/rewriter/rewrite.c: one file's rewrite (sl_rewrite is this with a prologue and
 * no include context); the text is appended to *sb. The include pass
 * reaches it only through the pointer the driver hands include_tree. */
typedef int rewrite_fn(const char *src, size_t len, const char *path, bool prologue, struct include_ctx *inc,
                       strbuf *sb, char *err, size_t errcap);
int rewrite_source(const char *src, size_t len, const char *path, bool prologue, struct include_ctx *inc,
                   strbuf *sb, char *err, size_t errcap);

/* tools/rewriter/rewrite_include.c: edits that put each followed header in place of its
 * #include line. */
int inline_includes(rw *r);
/* sl_rewrite_tree's work after the driver cleared its outputs: `rewrite`
 * rewrites the file and, through inline_includes, each header put in. */
int include_tree(const char *path, const sl_include_opts *opts, rewrite_fn *rewrite, sl_outbuf *out,
                 sl_outbuf *deps, char *err, size_t errcap);
int include_note_template_kernel(struct include_ctx *c, const char *name, size_t len);
bool include_knows_template_kernel(const struct include_ctx *c, const char *name, size_t len);
int include_note_kernel_arity(struct include_ctx *c, const char *name, size_t len, size_t count);
bool include_knows_other_arity(const struct include_ctx *c, const char *name, size_t len, size_t count);
int include_note_kernel_defaults(struct include_ctx *c, const char *name, size_t len, const char *record);
const char *include_kernel_defaults(const struct include_ctx *c, const char *name, size_t len);
struct name_set *include_hostfn_names(struct include_ctx *c);
void include_note_volatile(struct include_ctx *c);
bool include_says_volatile(const struct include_ctx *c);

/* tools/rewriter/rewrite_hostfn.c */
int note_host_fn_names(rw *r);
int mark_host_functions(rw *r);

/* tools/rewriter/rewrite_spin.c: a spin point at the top of every loop body outside
 * host-only code (tokens [from, to)) */
int add_spin_points(rw *r, size_t from, size_t to);

/* tools/rewriter/rewrite_kernels.c */
int scan_kernels(rw *r);
rw *kernel_table(rw *r);
bool names_overloaded_kernel(rw *r, size_t first, size_t last, size_t lparen, size_t rparen);
bool file_has_generic_kernels(rw *r);
const kernel_decl *overloaded_kernel(const rw *r, size_t first, size_t last);
const kernel_decl *kernel_by_arity(const rw *r, size_t first, size_t last, size_t lparen, size_t rparen);
bool names_template_kernel(const rw *r, size_t first, size_t last);
bool names_partly_deduced_kernel(const rw *r, size_t first, size_t last);
bool known_kernel_launch(rw *r, size_t first, size_t last);
void put_kernel_pointer_type(const rw *r, strbuf *sb, const kernel_decl *k);
int append_default_args(rw *r, size_t first, size_t last, size_t lparen, size_t rparen);

#endif
