/* simtlab source rewriter: the implementation of sl_rewrite (tools/rewriter/rewrite.h).
 *
 * Not a parser: a tokenizer that knows enough of C++ to never look inside a
 * comment, a literal or a preprocessor line, plus a table of matching
 * brackets. Three passes:
 *   1. lex()          the source into tokens (comments, whitespace and
 *                     directives are the gaps between tokens);
 *   2. match_all()    pairs (), [] and {};
 *   3. scan()         walks the tokens, finds `<<<` launches and __shared__
 *                     declarations and records edits (replace bytes
 *                     [start, end) of the source with a text);
 *   then rewrite_macro_bodies() (tools/rewriter/rewrite_shared.c) tokenizes the body of
 *                     each #define that holds __shared__ on its own and
 *                     records edits for its declarations, on its lines;
 * then emit() copies the source with the edits applied after the prologue.
 * Edits never add or remove a newline, except where a #define must start a
 * line, and there a #line restores the numbering.
 *
 * Passes 1 and 2 are in tools/rewriter/rewrite_lex.c, the launches in tools/rewriter/rewrite_launch.c, the
 * __shared__ declarations in tools/rewriter/rewrite_shared.c; this file holds the text and
 * edit helpers, scopes, pass 3's loop and the output; tools/rewriter/rewrite_internal.h
 * holds what the files share.
 */
#include "rewrite.h"
#include "rewrite_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * growable text
 * ====================================================================== */

void sb_put(strbuf *sb, const char *s, size_t n)
{
    if (sb->oom)
        return;
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 256;
        while (sb->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(sb->data, cap);
        if (!grown) {
            sb->oom = true;
            return;
        }
        sb->data = grown;
        sb->cap = cap;
    }
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s) { sb_put(sb, s, strlen(s)); }

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        sb->oom = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        sb_put(sb, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        sb->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_put(sb, big, (size_t)n);
    free(big);
}

/* Appends `s` as the inside of a C string literal, on one line. */
void sb_put_escaped(strbuf *sb, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            char esc[2] = {'\\', (char)c};
            sb_put(sb, esc, 2);
        } else if (c == '\n') {
            sb_puts(sb, "\\n");
        } else if (c < 0x20 || c == 0x7f) {
            sb_printf(sb, "\\%03o", c); /* octal: a hex escape would swallow following digits */
        } else {
            sb_put(sb, (const char *)&s[i], 1);
        }
    }
}

void sl_outbuf_free(sl_outbuf *out)
{
    if (!out)
        return;
    free(out->data);
    out->data = NULL;
    out->len = out->cap = 0;
}

/* ======================================================================
 * errors and edits (the rewriter's state is in tools/rewriter/rewrite_internal.h)
 * ====================================================================== */

/* Records "path:line:col: error: ..." and returns -1, so that callers can
 * `return fail(...)`. */
static int vfail(rw *r, int line, int col, const char *fmt, va_list ap)
{
    if (!r->err || r->errcap == 0)
        return -1;
    int n = snprintf(r->err, r->errcap, "%s:%d:%d: error: ", r->path, line, col);
    if (n >= 0 && (size_t)n < r->errcap)
        vsnprintf(r->err + n, r->errcap - (size_t)n, fmt, ap);
    return -1;
}

PRINTF_LIKE(4, 5) int fail(rw *r, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

/* The same, at token `tok`. */
PRINTF_LIKE(3, 4) int fail_at(rw *r, size_t tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, r->toks[tok].line, r->toks[tok].col, fmt, ap);
    va_end(ap);
    return -1;
}

/* `fmt` has one %.*s, which receives the text of token `tok`. */
int fail_tok(rw *r, size_t tok, const char *fmt)
{
    return fail(r, r->toks[tok].line, r->toks[tok].col, fmt,
                (int)(r->toks[tok].end - r->toks[tok].start), r->src + r->toks[tok].start);
}

int fail_oom(rw *r)
{
    if (r->err && r->errcap)
        snprintf(r->err, r->errcap, "%s: error: out of memory while rewriting", r->path);
    return -1;
}

/* Returns `items` (an array of `elem`-byte items, `count` used of *cap)
 * with room for one more, possibly moved; NULL when memory is short, with
 * `items` still valid. */
void *grow(void *items, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *grown = realloc(items, ncap * elem);
    if (grown)
        *cap = ncap;
    return grown;
}

/* Records that bytes [start, end) become the n bytes at `text`, copied
 * into r->edit_text with their NUL. */
static int add_edit(rw *r, size_t start, size_t end, const char *text, size_t n)
{
    size_t off = r->edit_text.len;
    sb_put(&r->edit_text, text, n);
    sb_put(&r->edit_text, "", 1); /* the NUL that ends this text */
    edit *edits = r->edit_text.oom ? NULL : grow(r->edits, &r->editcap, r->nedits, sizeof(edit));
    if (!edits)
        return fail_oom(r);
    r->edits = edits;
    r->edits[r->nedits] = (edit){start, end, r->nedits, off};
    r->nedits++;
    return 0;
}

int add_edit_str(rw *r, size_t start, size_t end, const char *text)
{
    return add_edit(r, start, end, text, strlen(text));
}

/* The same with a strbuf's text, which it frees. */
int add_edit_sb(rw *r, size_t start, size_t end, strbuf *sb)
{
    int rc = sb->oom ? fail_oom(r) : add_edit(r, start, end, sb->data ? sb->data : "", sb->len);
    free(sb->data);
    return rc;
}

/* ======================================================================
 * joining tokens back into one-line text
 * ====================================================================== */

/* Appends tokens [from, to] (inclusive) with one space wherever the source
 * had a gap (whitespace, comments, newlines): the text of a type or a kernel
 * expression, on one line. */
void put_tokens(const rw *r, strbuf *sb, size_t from, size_t to)
{
    for (size_t i = from; i <= to; i++) {
        if (i > from && r->toks[i].start != r->toks[i - 1].end)
            sb_puts(sb, " ");
        sb_put(sb, tok_text(r, i), tok_len(r, i));
    }
}

/* The same for a list of token indices; a space also where tokens were
 * dropped between two of them. */
void put_token_list(const rw *r, strbuf *sb, const size_t *list, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && r->toks[list[k]].start != r->toks[list[k - 1]].end)
            sb_puts(sb, " ");
        sb_put(sb, tok_text(r, list[k]), tok_len(r, list[k]));
    }
}

/* ======================================================================
 * scopes: is a declaration at file scope?
 * ====================================================================== */

/* Classifies the `{` at token i by what precedes it. */
scope_kind brace_kind(const rw *r, size_t i)
{
    if (i == 0)
        return SCOPE_BLOCK;
    size_t p = i - 1;
    if (r->toks[p].kind == TK_STRING && p > 0 && tok_is(r, p - 1, "extern"))
        return SCOPE_NAMESPACE; /* extern "C" { */
    long k = (long)p;
    while (k >= 0 && ((is_ident(r, (size_t)k) && !tok_is(r, (size_t)k, "namespace")) ||
                      tok_is(r, (size_t)k, "::")))
        k--;
    if (k >= 0 && tok_is(r, (size_t)k, "namespace"))
        return SCOPE_NAMESPACE;
    for (k = (long)p; k >= 0; k--) {
        size_t u = (size_t)k;
        if (tok_is(r, u, "struct") || tok_is(r, u, "class") || tok_is(r, u, "union") ||
            tok_is(r, u, "enum"))
            return SCOPE_CLASS;
        if (is_punct(r, u, ';') || is_punct(r, u, '{') || is_punct(r, u, '}') ||
            is_punct(r, u, '(') || is_punct(r, u, ')') || is_punct(r, u, '='))
            break;
    }
    return SCOPE_BLOCK;
}

static int push_scope(rw *r, scope_kind kind)
{
    scope_kind *scopes = grow(r->scopes, &r->scopecap, r->nscopes, sizeof(scope_kind));
    if (!scopes)
        return fail_oom(r);
    r->scopes = scopes;
    r->scopes[r->nscopes++] = kind;
    return 0;
}

/* An extra `}` (from #if branches) just leaves the stack empty. */
static void pop_scope(rw *r)
{
    if (r->nscopes > 0)
        r->nscopes--;
}

scope_kind current_scope(const rw *r)
{
    return r->nscopes ? r->scopes[r->nscopes - 1] : SCOPE_NAMESPACE;
}

/* ======================================================================
 * pass 3 and output
 * ====================================================================== */

static int scan(rw *r)
{
    size_t i = 0;
    while (i < r->ntoks) {
        if (is_punct(r, i, '{')) {
            if (push_scope(r, brace_kind(r, i)) != 0)
                return -1;
        } else if (is_punct(r, i, '}')) {
            pop_scope(r);
        } else if (is_launch_open(r, i)) {
            if (rewrite_launch(r, i) != 0)
                return -1;
            i += 3; /* the configuration is scanned as ordinary tokens */
            continue;
        } else if (tok_is(r, i, "__shared__")) {
            if (rewrite_shared(r, i, &i) != 0)
                return -1;
            continue;
        } else if (tok_is(r, i, "asm") || tok_is(r, i, "__asm__") || tok_is(r, i, "__asm")) {
            if (rewrite_asm(r, i, &i) != 0)
                return -1;
            continue;
        } else if ((tok_is(r, i, "texture") || tok_is(r, i, "surface")) && current_scope(r) == SCOPE_NAMESPACE) {
            if (rewrite_removed_reference(r, i) != 0)
                return -1;
        }
        i++;
    }
    return 0;
}

static int edit_order(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void emit_prologue(const rw *r, strbuf *sb)
{
    if (r->says_volatile || (r->inc && include_says_volatile(r->inc)))
        sb_puts(sb, SL_REWRITE_SAYS_VOLATILE);
    sb_puts(sb, "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n#include <simtlab_emu/host_fn.h>\n#line 1 \"");
    sb_put_escaped(sb, r->path, strlen(r->path));
    sb_puts(sb, "\"\n");
}

static int emit(rw *r, strbuf *sb, bool prologue)
{
    if (r->nedits > 0)
        qsort(r->edits, r->nedits, sizeof(edit), edit_order);
    if (prologue)
        emit_prologue(r, sb);
    size_t pos = 0;
    for (size_t k = 0; k < r->nedits; k++) {
        const edit *e = &r->edits[k];
        if (e->start < pos) /* two edits of one range: a bug here, not in the input */
            return fail(r, 1, 1, "internal error: overlapping rewrites at byte %zu", e->start);
        sb_put(sb, r->src + pos, e->start - pos);
        sb_puts(sb, r->edit_text.data + e->text);
        pos = e->end;
    }
    sb_put(sb, r->src + pos, r->len - pos);
    return sb->oom ? fail_oom(r) : 0;
}

static void rw_free(rw *r)
{
    free(r->edits);
    free(r->edit_text.data);
    free(r->toks);
    free(r->match);
    free(r->scopes);
    free(r->kernels);
    free(r->host_names);
    free(r->directives);
    name_set_free(&r->hostfn_names);
    free(r->spans);
}

int rewrite_source(const char *src, size_t len, const char *path, bool prologue, struct include_ctx *inc,
                   strbuf *sb, char *err, size_t errcap)
{
    rw r = {0};
    r.src = src ? src : "";
    r.len = src ? len : 0;
    r.path = path ? path : "<input>";
    r.err = err;
    r.errcap = errcap;
    r.inc = inc;
    /* A byte-order mark is only allowed first in a file, which after the
     * prologue (or inside another file) it no longer is. */
    if (r.len >= 3 && memcmp(r.src, "\xEF\xBB\xBF", 3) == 0) {
        r.src += 3;
        r.len -= 3;
    }
    int rc = lex(&r);
    if (rc == 0)
        rc = match_all(&r);
    if (rc == 0)
        r.says_volatile = code_says_volatile(&r);
    if (r.says_volatile && inc)
        include_note_volatile(inc);
    if (rc == 0)
        rc = scan_kernels(&r);
    if (rc == 0)
        rc = note_host_fn_names(&r);
    /* Headers first, so that their kernel templates are known to this
     * file's launches (tools/rewriter/rewrite_kernels.c, names_template_kernel). */
    if (rc == 0 && inc)
        rc = inline_includes(&r);
    if (rc == 0)
        rc = scan(&r);
    if (rc == 0)
        rc = rewrite_macro_bodies(&r);
    if (rc == 0)
        rc = mark_host_functions(&r);
    if (rc == 0)
        rc = add_spin_points(&r, 0, r.ntoks);
    if (rc == 0)
        rc = emit(&r, sb, prologue);
    rw_free(&r);
    return rc;
}

int sl_rewrite(const char *src, size_t len, const char *path, sl_outbuf *out, char *err,
               size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    sl_outbuf_free(out);
    strbuf sb = {0};
    if (rewrite_source(src, len, path, true, NULL, &sb, err, errcap) != 0) {
        free(sb.data);
        return -1;
    }
    out->data = sb.data;
    out->len = sb.len;
    out->cap = sb.cap;
    return 0;
}
