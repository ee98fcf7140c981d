/* simtlab source rewriter — the leaf: what every pass uses and that uses
 * no pass (tools/rewriter/rewrite_text.c; the map of driver, passes and
 * leaf is at the top of tools/rewriter/rewrite.c):
 *   growable text (strbuf), the tokens and the per-file state `rw`, errors,
 *   the edit list, tokens joined back into text, scopes, name sets.
 * The state's pass-specific parts (kernels, directives, code spans, the
 * include context) are only pointers here; their types are the passes'
 * (tools/rewriter/rewrite_internal.h).
 */
#ifndef SIMTLAB_REWRITE_TEXT_H
#define SIMTLAB_REWRITE_TEXT_H

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

/* A set of names, each with a kind (the hostfn and include passes keep
 * macros and device functions in them). */
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

struct kernel_decl; /* tools/rewriter/rewrite_internal.h */
struct directive;
struct code_span;
struct include_ctx; /* tools/rewriter/rewrite_include.c */

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
    struct kernel_decl *kernels;   /* tools/rewriter/rewrite_kernels.c: the kernels of the file */
    size_t nkernels, kernelcap;
    size_t *host_names;     /* names of other functions at namespace scope */
    size_t nhost, hostcap;
    struct directive *directives;  /* every preprocessor line outside #if 0 */
    size_t ndirectives, dircap;
    struct include_ctx *inc; /* tools/rewriter/rewrite_include.c: NULL when includes are not followed */
    name_set hostfn_names;   /* tools/rewriter/rewrite_hostfn.c: this file's macros and device functions */
    struct code_span *spans;        /* tools/rewriter/rewrite_hostfn.c: host-only bodies (tools/rewriter/rewrite_spin.c skips them) */
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
int add_edit_str(rw *r, size_t start, size_t end, const char *text);
int add_edit_sb(rw *r, size_t start, size_t end, strbuf *sb);
int edit_start_order(const void *a, const void *b);
bool inside_edit(const rw *r, size_t n, size_t pos);

/* ---- tokens back into text, scopes, name sets --------------------------- */

void put_tokens(const rw *r, strbuf *sb, size_t from, size_t to);
void put_token_list(const rw *r, strbuf *sb, const size_t *list, size_t n);
scope_kind brace_kind(const rw *r, size_t i);
int push_scope(rw *r, scope_kind kind);
void pop_scope(rw *r);
scope_kind current_scope(const rw *r);
bool name_set_has(const name_set *s, const char *name, size_t n, char kind);
int name_set_add(name_set *s, const char *name, size_t n, char kind);
void name_set_free(name_set *s);

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

#endif
