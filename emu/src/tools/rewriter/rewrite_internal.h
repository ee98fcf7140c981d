/* simtlab source rewriter — what its files share. Internal: the public
 * interface is rewrite.h. The rewriter is split by topic:
 *   tools/rewriter/rewrite.c         growable text, errors, edits, kernel launches, scopes,
 *                     pass 3 (scan), output and sl_rewrite;
 *   tools/rewriter/rewrite_lex.c     pass 1 (the tokenizer) and pass 2 (matching brackets);
 *   tools/rewriter/rewrite_shared.c  __shared__ declarations;
 *   tools/rewriter/rewrite_launch.c  kernel launches;
 *   tools/rewriter/rewrite_kernels.c __global__ definitions (the host-call check) and
 *                     kernels that share their name with a host function;
 *   tools/rewriter/rewrite_removed.c texture and surface references (removed in CUDA 12.0).
 * Comments on what each function does are at its definition.
 */
#ifndef SIMTLAB_REWRITE_INTERNAL_H
#define SIMTLAB_REWRITE_INTERNAL_H

#include "rewrite.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* ======================================================================
 * growable text
 * ====================================================================== */

/* Like sl_outbuf, plus a sticky out-of-memory flag so that a sequence of
 * appends needs one check at its end. */
typedef struct strbuf {
    char *data;
    size_t len;
    size_t cap;
    bool oom;
} strbuf;

void sb_put(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...);
void sb_put_escaped(strbuf *sb, const char *s, size_t n);

/* ======================================================================
 * tokens and the rewriter's state
 * ====================================================================== */

typedef enum { TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT } tok_kind;

/* 32 bytes (kind after the ints, not first): a file of 4M launches has
 * 56M tokens. */
typedef struct token {
    size_t start, end;    /* bytes [start, end) of the source */
    int line, col;        /* 1-based, of `start` */
    tok_kind kind;
    bool after_directive; /* a preprocessor line lies between it and the previous token */
} token;

typedef struct edit {
    size_t start, end; /* source bytes replaced; start == end inserts */
    size_t seq;        /* order of recording: ties at one position keep it */
    size_t text;       /* offset of its NUL-terminated text in rw.edit_text */
} edit;

/* What a `{` opened: file-scope-like braces (namespace, extern "C") keep
 * declarations at file scope; a class body; anything else (function body,
 * block, initializer, lambda). */
typedef enum { SCOPE_NAMESPACE, SCOPE_CLASS, SCOPE_BLOCK } scope_kind;

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

/* A set of names, each with a kind (tools/rewriter/rewrite_hostfn.c). */
struct name_slot {
    unsigned long long hash;
    size_t off, len; /* the name: bytes [off, off + len) of text */
    char kind;
    bool used;
};
typedef struct name_set {
    struct name_slot *slots;
    size_t cap, count;
    strbuf text;
} name_set;

/* A preprocessor line: bytes [start, end) (end: its newline), the number
 * of its last physical line. */
typedef struct directive {
    size_t start, end;
    int last_line;
} directive;

struct include_ctx; /* tools/rewriter/rewrite_include.c */

/* Tokens [open, close] of a function's or lambda's body: host-only code
 * (tools/rewriter/rewrite_hostfn.c marks it), or a device lambda inside such code. */
typedef struct code_span {
    size_t open, close;
    bool host;
} code_span;

typedef struct rw {
    const char *src;
    size_t len;
    const char *path;
    token *toks;
    size_t ntoks, tokcap;
    long *match; /* matching bracket's token index, or -1 */
    edit *edits;
    size_t nedits, editcap;
    strbuf edit_text; /* every edit's text, one after another: no malloc per edit */
    scope_kind *scopes;
    size_t nscopes, scopecap;
    char *err;
    size_t errcap;
    kernel_decl *kernels;   /* tools/rewriter/rewrite_kernels.c: the kernels of the file */
    size_t nkernels, kernelcap;
    size_t *host_names;     /* names of other functions at namespace scope */
    size_t nhost, hostcap;
    directive *directives;  /* every preprocessor line outside #if 0 */
    size_t ndirectives, dircap;
    struct include_ctx *inc; /* tools/rewriter/rewrite_include.c: NULL when includes are not followed */
    name_set hostfn_names;   /* tools/rewriter/rewrite_hostfn.c: this file's macros and device functions */
    code_span *spans;        /* tools/rewriter/rewrite_hostfn.c: host-only bodies (tools/rewriter/rewrite_spin.c skips them) */
    size_t nspans, spancap;
    /* tools/rewriter/rewrite_shared.c, one #define's body: lex() starts at byte lex_from
     * (on line lex_line, which begins at lex_line_start) instead of 0, and
     * __shared__ declarations are written for a macro (in_macro). */
    size_t lex_from, lex_line_start;
    int lex_line;
    bool in_macro;
    struct rw *file; /* a #define's body: the file's state, whose kernels the body's launches name */
    bool says_volatile; /* code_says_volatile (tools/rewriter/rewrite_lex.c), for the prologue */
} rw;

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

PRINTF_LIKE(4, 5) int fail(rw *r, int line, int col, const char *fmt, ...);
PRINTF_LIKE(3, 4) int fail_at(rw *r, size_t tok, const char *fmt, ...);
int fail_tok(rw *r, size_t tok, const char *fmt);
int fail_oom(rw *r);
void *grow(void *items, size_t *cap, size_t count, size_t elem);
int add_edit_sb(rw *r, size_t start, size_t end, strbuf *sb);

/* ---- token predicates ------------------------------------------------- */

static inline size_t tok_len(const rw *r, size_t i) { return r->toks[i].end - r->toks[i].start; }
static inline const char *tok_text(const rw *r, size_t i) { return r->src + r->toks[i].start; }

static inline bool tok_is(const rw *r, size_t i, const char *s)
{
    size_t n = strlen(s);
    return i < r->ntoks && tok_len(r, i) == n && memcmp(tok_text(r, i), s, n) == 0;
}

/* The bracket a digraph spells (`<:` `:>` `<%` `%>`: [ ] { }), or 0. */
static inline char digraph_of(const char *t)
{
    if (t[0] == '<')
        return t[1] == ':' ? '[' : t[1] == '%' ? '{' : 0;
    if (t[1] == '>')
        return t[0] == ':' ? ']' : t[0] == '%' ? '}' : 0;
    return 0;
}

/* Token i is the punctuator c, in either spelling for a bracket. */
static inline bool is_punct(const rw *r, size_t i, char c)
{
    if (i >= r->ntoks || r->toks[i].kind != TK_PUNCT)
        return false;
    size_t n = tok_len(r, i);
    const char *t = tok_text(r, i);
    return n == 1 ? t[0] == c : n == 2 && digraph_of(t) == c;
}

/* Tokens a and b spell the same text. */
static inline bool same_text(const rw *r, size_t a, size_t b)
{
    return tok_len(r, a) == tok_len(r, b) && memcmp(tok_text(r, a), tok_text(r, b), tok_len(r, a)) == 0;
}

/* Token i is one of the n words. */
static inline bool tok_is_one_of(const rw *r, size_t i, const char *const *words, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (tok_is(r, i, words[k]))
            return true;
    return false;
}

static inline bool is_ident(const rw *r, size_t i)
{
    return i < r->ntoks && r->toks[i].kind == TK_IDENT;
}

/* True when token i+1 starts right where token i ends (`<<<` is three `<`). */
static inline bool adjacent(const rw *r, size_t i)
{
    return i + 1 < r->ntoks && r->toks[i].end == r->toks[i + 1].start;
}

/* ======================================================================
 * the passes and the helpers used across files
 * ====================================================================== */

/* tools/rewriter/rewrite_lex.c */
int lex(rw *r);
int match_all(rw *r);
bool code_says_volatile(const rw *r);

/* tools/rewriter/rewrite.c */
int add_edit_str(rw *r, size_t start, size_t end, const char *text);
scope_kind brace_kind(const rw *r, size_t i);
void put_tokens(const rw *r, strbuf *sb, size_t from, size_t to);
void put_token_list(const rw *r, strbuf *sb, const size_t *list, size_t n);
scope_kind current_scope(const rw *r);

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
 * no include context); the text is appended to *sb. */
int rewrite_source(const char *src, size_t len, const char *path, bool prologue, struct include_ctx *inc,
                   strbuf *sb, char *err, size_t errcap);

/* tools/rewriter/rewrite_include.c: edits that put each followed header in place of its
 * #include line. */
int inline_includes(rw *r);
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
bool name_set_has(const name_set *s, const char *name, size_t n, char kind);
int name_set_add(name_set *s, const char *name, size_t n, char kind);
void name_set_free(name_set *s);
int note_host_fn_names(rw *r);
int mark_host_functions(rw *r);

/* tools/rewriter/rewrite_spin.c: a spin point at the top of every loop body outside
 * host-only code (tokens [from, to)) */
int add_spin_points(rw *r, size_t from, size_t to);
bool inside_edit(const rw *r, size_t n, size_t pos);
int edit_start_order(const void *a, const void *b);

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
