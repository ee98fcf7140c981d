/* simtlab source rewriter — the leaf every pass stands on (declared in
 * tools/rewriter/rewrite_text.h): growable text, errors, the edit list,
 * tokens joined back into text, scopes, name sets. It calls no pass and not
 * the driver (tools/rewriter/rewrite.c describes the whole).
 */
#include "rewrite_text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
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


/* ======================================================================
 * errors and edits (the rewriter's state is in tools/rewriter/rewrite_text.h)
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

int push_scope(rw *r, scope_kind kind)
{
    scope_kind *scopes = grow(r->scopes, &r->scopecap, r->nscopes, sizeof(scope_kind));
    if (!scopes)
        return fail_oom(r);
    r->scopes = scopes;
    r->scopes[r->nscopes++] = kind;
    return 0;
}

/* An extra `}` (from #if branches) just leaves the stack empty. */
void pop_scope(rw *r)
{
    if (r->nscopes > 0)
        r->nscopes--;
}

scope_kind current_scope(const rw *r)
{
    return r->nscopes ? r->scopes[r->nscopes - 1] : SCOPE_NAMESPACE;
}

/* ======================================================================
 * name sets
 * ====================================================================== */

static uint64_t name_hash(const char *s, size_t n, char kind)
{
    uint64_t h = 1469598103934665603ull ^ (unsigned char)kind;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static struct name_slot *name_find(const name_set *s, const char *name, size_t n, char kind, uint64_t h)
{
    if (!s->cap)
        return NULL;
    for (size_t i = (size_t)h & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        struct name_slot *e = &s->slots[i];
        if (!e->used)
            return e;
        if (e->hash == h && e->kind == kind && e->len == n && memcmp(s->text.data + e->off, name, n) == 0)
            return e;
    }
}

bool name_set_has(const name_set *s, const char *name, size_t n, char kind)
{
    const struct name_slot *e = name_find(s, name, n, kind, name_hash(name, n, kind));
    return e && e->used;
}

int name_set_add(name_set *s, const char *name, size_t n, char kind)
{
    if (name_set_has(s, name, n, kind))
        return 0;
    if ((s->count + 1) * 2 > s->cap) {
        name_set bigger = {calloc(s->cap ? s->cap * 2 : 64, sizeof(struct name_slot)), s->cap ? s->cap * 2 : 64, 0,
                           s->text};
        if (!bigger.slots)
            return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].used)
                *name_find(&bigger, s->text.data + s->slots[i].off, s->slots[i].len, s->slots[i].kind,
                           s->slots[i].hash) = s->slots[i];
        free(s->slots);
        bigger.count = s->count;
        *s = bigger;
    }
    const size_t off = s->text.len;
    sb_put(&s->text, name, n);
    if (s->text.oom)
        return -1;
    const uint64_t h = name_hash(name, n, kind);
    *name_find(s, name, n, kind, h) = (struct name_slot){h, off, n, kind, true};
    s->count++;
    return 0;
}

void name_set_free(name_set *s)
{
    free(s->slots);
    free(s->text.data);
    *s = (name_set){0};
}

/* ======================================================================
 * the edit list in source order
 * ====================================================================== */

/* qsort order of edits: by start, ties in the order they were recorded. */
int edit_start_order(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Is byte pos inside (or at the start of) one of the first n edits, which
 * are sorted by start? */
bool inside_edit(const rw *r, size_t n, size_t pos)
{
    size_t lo = 0, hi = n; /* first edit with start > pos */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->edits[mid].start <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0;) {
        const edit *e = &r->edits[k];
        if (e->end > pos)
            return true; /* a replacement that covers pos (or starts there) */
        if (e->start < pos)
            return false; /* edits do not overlap: none before reaches further */
    }
    return false;
}
