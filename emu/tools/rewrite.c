/* simtlab source rewriter: the implementation of sl_rewrite (rewrite.h).
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
 * then emit() copies the source with the edits applied after the prologue.
 * Edits never add or remove a newline, except where a #define must start a
 * line, and there a #line restores the numbering.
 */
#include "rewrite.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

static void sb_put(strbuf *sb, const char *s, size_t n)
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

static void sb_puts(strbuf *sb, const char *s) { sb_put(sb, s, strlen(s)); }

static void sb_printf(strbuf *sb, const char *fmt, ...)
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
static void sb_put_escaped(strbuf *sb, const char *s, size_t n)
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
 * tokens and the rewriter's state
 * ====================================================================== */

typedef enum { TK_IDENT, TK_NUMBER, TK_STRING, TK_CHAR, TK_PUNCT } tok_kind;

typedef struct token {
    tok_kind kind;
    size_t start, end;    /* bytes [start, end) of the source */
    int line, col;        /* 1-based, of `start` */
    bool after_directive; /* a preprocessor line lies between it and the previous token */
} token;

typedef struct edit {
    size_t start, end; /* source bytes replaced; start == end inserts */
    size_t seq;        /* order of recording: ties at one position keep it */
    char *text;
} edit;

/* What a `{` opened: file-scope-like braces (namespace, extern "C") keep
 * declarations at file scope; a class body; anything else (function body,
 * block, initializer, lambda). */
typedef enum { SCOPE_NAMESPACE, SCOPE_CLASS, SCOPE_BLOCK } scope_kind;

typedef struct rw {
    const char *src;
    size_t len;
    const char *path;
    token *toks;
    size_t ntoks, tokcap;
    long *match; /* matching bracket's token index, or -1 */
    edit *edits;
    size_t nedits, editcap;
    scope_kind *scopes;
    size_t nscopes, scopecap;
    char *err;
    size_t errcap;
} rw;

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

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

PRINTF_LIKE(4, 5) static int fail(rw *r, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

/* The same, at token `tok`. */
PRINTF_LIKE(3, 4) static int fail_at(rw *r, size_t tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, r->toks[tok].line, r->toks[tok].col, fmt, ap);
    va_end(ap);
    return -1;
}

/* `fmt` has one %.*s, which receives the text of token `tok`. */
static int fail_tok(rw *r, size_t tok, const char *fmt)
{
    return fail(r, r->toks[tok].line, r->toks[tok].col, fmt,
                (int)(r->toks[tok].end - r->toks[tok].start), r->src + r->toks[tok].start);
}

static int fail_oom(rw *r)
{
    if (r->err && r->errcap)
        snprintf(r->err, r->errcap, "%s: error: out of memory while rewriting", r->path);
    return -1;
}

/* Returns `items` (an array of `elem`-byte items, `count` used of *cap)
 * with room for one more, possibly moved; NULL when memory is short, with
 * `items` still valid. */
static void *grow(void *items, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *grown = realloc(items, ncap * elem);
    if (grown)
        *cap = ncap;
    return grown;
}

/* Takes ownership of `text` (malloc'd), also on failure. */
static int add_edit(rw *r, size_t start, size_t end, char *text)
{
    edit *edits = text ? grow(r->edits, &r->editcap, r->nedits, sizeof(edit)) : NULL;
    if (!edits) {
        free(text);
        return fail_oom(r);
    }
    r->edits = edits;
    r->edits[r->nedits] = (edit){start, end, r->nedits, text};
    r->nedits++;
    return 0;
}

static int add_edit_str(rw *r, size_t start, size_t end, const char *text)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (copy)
        memcpy(copy, text, n + 1);
    return add_edit(r, start, end, copy);
}

/* Hands a strbuf's text to add_edit. */
static int add_edit_sb(rw *r, size_t start, size_t end, strbuf *sb)
{
    if (sb->oom) {
        free(sb->data);
        return fail_oom(r);
    }
    if (!sb->data)
        return add_edit_str(r, start, end, "");
    return add_edit(r, start, end, sb->data);
}

/* ---- token predicates ------------------------------------------------- */

static size_t tok_len(const rw *r, size_t i) { return r->toks[i].end - r->toks[i].start; }
static const char *tok_text(const rw *r, size_t i) { return r->src + r->toks[i].start; }

static bool tok_is(const rw *r, size_t i, const char *s)
{
    size_t n = strlen(s);
    return i < r->ntoks && tok_len(r, i) == n && memcmp(tok_text(r, i), s, n) == 0;
}

static bool is_punct(const rw *r, size_t i, char c)
{
    return i < r->ntoks && r->toks[i].kind == TK_PUNCT && tok_len(r, i) == 1 &&
           tok_text(r, i)[0] == c;
}

static bool is_ident(const rw *r, size_t i) { return i < r->ntoks && r->toks[i].kind == TK_IDENT; }

/* True when token i+1 starts right where token i ends (`<<<` is three `<`). */
static bool adjacent(const rw *r, size_t i)
{
    return i + 1 < r->ntoks && r->toks[i].end == r->toks[i + 1].start;
}

/* ======================================================================
 * pass 1: the tokenizer
 * ====================================================================== */

typedef struct cursor {
    size_t i;
    int line;
    size_t line_start; /* offset of the current line's first byte */
} cursor;

static int cur_col(const cursor *c) { return (int)(c->i - c->line_start) + 1; }

static char peek(const rw *r, const cursor *c, size_t ahead)
{
    return c->i + ahead < r->len ? r->src[c->i + ahead] : '\0';
}

/* Consumes one byte, counting lines. */
static void advance(const rw *r, cursor *c)
{
    if (r->src[c->i] == '\n') {
        c->line++;
        c->line_start = c->i + 1;
    }
    c->i++;
}

/* Length of a backslash-newline (a line splice) at the cursor, or 0. */
static size_t splice_len(const rw *r, const cursor *c)
{
    if (peek(r, c, 0) != '\\')
        return 0;
    if (peek(r, c, 1) == '\n')
        return 2;
    if (peek(r, c, 1) == '\r' && peek(r, c, 2) == '\n')
        return 3;
    return 0;
}

static void skip_n(const rw *r, cursor *c, size_t n)
{
    while (n-- > 0 && c->i < r->len)
        advance(r, c);
}

/* `// ...` up to (not including) the newline; a splice continues it. */
static void skip_line_comment(const rw *r, cursor *c)
{
    while (c->i < r->len && r->src[c->i] != '\n') {
        size_t s = splice_len(r, c);
        skip_n(r, c, s ? s : 1);
    }
}

static int skip_block_comment(rw *r, cursor *c)
{
    int line = c->line, col = cur_col(c);
    skip_n(r, c, 2);
    while (c->i < r->len) {
        if (peek(r, c, 0) == '*' && peek(r, c, 1) == '/') {
            skip_n(r, c, 2);
            return 0;
        }
        advance(r, c);
    }
    return fail(r, line, col, "unterminated /* comment");
}

/* A "..." or '...' literal whose opening quote is at the cursor. */
static int skip_quoted(rw *r, cursor *c, int line, int col)
{
    char quote = peek(r, c, 0);
    advance(r, c);
    while (c->i < r->len) {
        char ch = r->src[c->i];
        if (ch == quote) {
            advance(r, c);
            return 0;
        }
        if (ch == '\n')
            break;
        skip_n(r, c, ch == '\\' ? 2 : 1);
    }
    return fail(r, line, col,
                quote == '"' ? "missing terminating \" character"
                             : "missing terminating ' character");
}

/* R"delim( ... )delim" with the cursor on the opening quote. */
static int skip_raw_string(rw *r, cursor *c, int line, int col)
{
    advance(r, c);
    size_t delim = c->i;
    while (c->i < r->len && r->src[c->i] != '(') {
        char ch = r->src[c->i];
        if (ch == ' ' || ch == ')' || ch == '\\' || ch == '\t' || ch == '\n' || ch == '"' ||
            c->i - delim >= 16)
            return fail(r, line, col, "invalid delimiter in raw string literal");
        advance(r, c);
    }
    size_t dlen = c->i - delim;
    while (c->i < r->len) {
        if (r->src[c->i] == ')' && c->i + 1 + dlen < r->len &&
            memcmp(r->src + c->i + 1, r->src + delim, dlen) == 0 &&
            r->src[c->i + 1 + dlen] == '"') {
            skip_n(r, c, dlen + 2);
            return 0;
        }
        advance(r, c);
    }
    return fail(r, line, col, "unterminated raw string literal");
}

/* A preprocessor line from its `#` to the newline that ends it: splices
 * continue it, and a block comment may carry it onto later lines. Quotes are
 * not literals here (`#error don't` is a valid directive). */
static int skip_directive(rw *r, cursor *c)
{
    while (c->i < r->len && r->src[c->i] != '\n') {
        size_t s = splice_len(r, c);
        if (s) {
            skip_n(r, c, s);
        } else if (peek(r, c, 0) == '/' && peek(r, c, 1) == '*') {
            if (skip_block_comment(r, c) != 0)
                return -1;
        } else if (peek(r, c, 0) == '/' && peek(r, c, 1) == '/') {
            skip_line_comment(r, c);
        } else {
            advance(r, c);
        }
    }
    return 0;
}

/* The name of the directive at `hash` (`#  ifdef X` -> "ifdef"), into
 * *name and *len. */
static void directive_name(const rw *r, size_t hash, const char **name, size_t *len)
{
    size_t i = hash + 1;
    while (i < r->len && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    size_t start = i;
    while (i < r->len && r->src[i] >= 'a' && r->src[i] <= 'z')
        i++;
    *name = r->src + start;
    *len = i - start;
}

static bool directive_is(const rw *r, size_t hash, const char *word)
{
    const char *name;
    size_t len;
    directive_name(r, hash, &name, &len);
    return len == strlen(word) && memcmp(name, word, len) == 0;
}

/* `#if 0` exactly: the usual way to switch code off. */
static bool is_if_zero(const rw *r, size_t hash)
{
    const char *name;
    size_t len;
    directive_name(r, hash, &name, &len);
    size_t i = (size_t)(name - r->src) + len;
    while (i < r->len && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (i >= r->len || r->src[i] != '0')
        return false;
    i++;
    return i >= r->len || r->src[i] == '\n' || r->src[i] == '\r' || r->src[i] == ' ' ||
           r->src[i] == '\t' || r->src[i] == '/';
}

/* After `#if 0`: skips lines up to the #else, #elif or #endif that ends
 * the group, leaving the cursor on that directive's line. The compiler never
 * reads these lines as code, and they are often prose ("don't ..."), so they
 * are not tokenized and an apostrophe there is no error. */
static void skip_if_zero_group(const rw *r, cursor *c)
{
    int depth = 0;
    while (c->i < r->len) {
        while (c->i < r->len && r->src[c->i] != '\n') /* to the end of the line */
            advance(r, c);
        if (c->i >= r->len)
            return;
        advance(r, c);
        size_t line = c->i;
        size_t i = c->i;
        while (i < r->len && (r->src[i] == ' ' || r->src[i] == '\t'))
            i++;
        if (i >= r->len || r->src[i] != '#')
            continue;
        if (directive_is(r, i, "if") || directive_is(r, i, "ifdef") || directive_is(r, i, "ifndef"))
            depth++;
        else if (directive_is(r, i, "endif") && depth > 0)
            depth--;
        else if (depth == 0 && (directive_is(r, i, "endif") || directive_is(r, i, "else") ||
                                directive_is(r, i, "elif") || directive_is(r, i, "elifdef") ||
                                directive_is(r, i, "elifndef"))) {
            c->i = line; /* lex() reads this directive itself */
            return;
        }
    }
}

static bool ident_char(char ch)
{
    unsigned char u = (unsigned char)ch;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
           u == '$' || u >= 0x80;
}

static bool digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Encoding prefixes that glue onto a following literal (u8"x", LR"(x)"). */
static bool is_prefix(const char *s, size_t n, bool raw)
{
    static const char *const plain[] = {"u8", "u", "U", "L"};
    static const char *const rawp[] = {"R", "u8R", "uR", "UR", "LR"};
    const char *const *list = raw ? rawp : plain;
    size_t count = raw ? 5 : 4;
    for (size_t k = 0; k < count; k++)
        if (strlen(list[k]) == n && memcmp(list[k], s, n) == 0)
            return true;
    return false;
}

/* An identifier, or a literal with an encoding prefix. */
static int lex_word(rw *r, cursor *c, token *t)
{
    while (c->i < r->len && ident_char(r->src[c->i]))
        advance(r, c);
    const char *word = r->src + t->start;
    size_t n = c->i - t->start;
    char next = peek(r, c, 0);
    t->kind = TK_IDENT;
    if (next == '"' && is_prefix(word, n, true)) {
        t->kind = TK_STRING;
        return skip_raw_string(r, c, t->line, t->col);
    }
    if ((next == '"' || next == '\'') && is_prefix(word, n, false)) {
        t->kind = next == '"' ? TK_STRING : TK_CHAR;
        return skip_quoted(r, c, t->line, t->col);
    }
    return 0;
}

/* A pp-number: 0x1p-3f, 1'000'000 (digit separators are not char literals). */
static void lex_number(rw *r, cursor *c)
{
    while (c->i < r->len) {
        char ch = r->src[c->i];
        char next = peek(r, c, 1);
        if ((ch == 'e' || ch == 'E' || ch == 'p' || ch == 'P') && (next == '+' || next == '-'))
            skip_n(r, c, 2);
        else if (ch == '\'' && ident_char(next))
            skip_n(r, c, 2);
        else if (ident_char(ch) || ch == '.')
            advance(r, c);
        else
            break;
    }
}

/* `::` and `->` are single tokens (a `>` of `->` never closes a template);
 * every other punctuator is one byte: `<<<` and `>>>` are recognised as
 * three adjacent `<` or `>`, because `>>>` also closes nested templates. */
static void lex_punct(rw *r, cursor *c)
{
    char ch = peek(r, c, 0), next = peek(r, c, 1);
    if ((ch == ':' && next == ':') || (ch == '-' && next == '>'))
        skip_n(r, c, 2);
    else
        advance(r, c);
}

static int lex_token(rw *r, cursor *c, token *t)
{
    char ch = peek(r, c, 0);
    if (ident_char(ch) && !digit(ch))
        return lex_word(r, c, t);
    if (digit(ch) || (ch == '.' && digit(peek(r, c, 1)))) {
        t->kind = TK_NUMBER;
        lex_number(r, c);
        return 0;
    }
    if (ch == '"' || ch == '\'') {
        t->kind = ch == '"' ? TK_STRING : TK_CHAR;
        return skip_quoted(r, c, t->line, t->col);
    }
    t->kind = TK_PUNCT;
    lex_punct(r, c);
    return 0;
}

static int lex(rw *r)
{
    cursor c = {0, 1, 0};
    bool line_begin = true; /* only whitespace and comments so far on this line */
    bool directive = false;
    while (c.i < r->len) {
        char ch = r->src[c.i];
        size_t splice = splice_len(r, &c);
        if (ch == '\n') {
            advance(r, &c);
            line_begin = true;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            advance(r, &c);
        } else if (splice) {
            skip_n(r, &c, splice);
        } else if (ch == '/' && peek(r, &c, 1) == '/') {
            skip_line_comment(r, &c);
        } else if (ch == '/' && peek(r, &c, 1) == '*') {
            if (skip_block_comment(r, &c) != 0)
                return -1;
        } else if (ch == '#' && line_begin) {
            size_t start = c.i;
            if (skip_directive(r, &c) != 0)
                return -1;
            if (directive_is(r, start, "if") && is_if_zero(r, start))
                skip_if_zero_group(r, &c);
            directive = true;
        } else {
            token *toks = grow(r->toks, &r->tokcap, r->ntoks, sizeof(token));
            if (!toks)
                return fail_oom(r);
            r->toks = toks;
            token t = {TK_PUNCT, c.i, c.i, c.line, cur_col(&c), directive};
            if (lex_token(r, &c, &t) != 0)
                return -1;
            t.end = c.i;
            r->toks[r->ntoks++] = t;
            line_begin = false;
            directive = false;
        }
    }
    return 0;
}

/* ======================================================================
 * pass 2: matching brackets
 * ====================================================================== */

/* One bracket kind at a time, so that braces left unbalanced by #if
 * branches (two function headers, one body) cannot disturb the pairing of
 * parentheses. An unmatched bracket keeps -1. */
static void match_kind(rw *r, char open, char close, size_t *stack)
{
    size_t depth = 0;
    for (size_t i = 0; i < r->ntoks; i++) {
        if (is_punct(r, i, open)) {
            stack[depth++] = i;
        } else if (is_punct(r, i, close) && depth > 0) {
            size_t o = stack[--depth];
            r->match[o] = (long)i;
            r->match[i] = (long)o;
        }
    }
}

static int match_all(rw *r)
{
    size_t n = r->ntoks ? r->ntoks : 1;
    r->match = malloc(n * sizeof(long));
    size_t *stack = malloc(n * sizeof(size_t));
    if (!r->match || !stack) {
        free(stack);
        return fail_oom(r);
    }
    for (size_t i = 0; i < r->ntoks; i++)
        r->match[i] = -1;
    match_kind(r, '(', ')', stack);
    match_kind(r, '[', ']', stack);
    match_kind(r, '{', '}', stack);
    free(stack);
    return 0;
}

/* ======================================================================
 * joining tokens back into one-line text
 * ====================================================================== */

/* Appends tokens [from, to] (inclusive) with one space wherever the source
 * had a gap (whitespace, comments, newlines): the text of a type or a kernel
 * expression, on one line. */
static void put_tokens(const rw *r, strbuf *sb, size_t from, size_t to)
{
    for (size_t i = from; i <= to; i++) {
        if (i > from && r->toks[i].start != r->toks[i - 1].end)
            sb_puts(sb, " ");
        sb_put(sb, tok_text(r, i), tok_len(r, i));
    }
}

/* The same for a list of token indices; a space also where tokens were
 * dropped between two of them. */
static void put_token_list(const rw *r, strbuf *sb, const size_t *list, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (k > 0 && r->toks[list[k]].start != r->toks[list[k - 1]].end)
            sb_puts(sb, " ");
        sb_put(sb, tok_text(r, list[k]), tok_len(r, list[k]));
    }
}

/* ======================================================================
 * kernel launches
 * ====================================================================== */

/* Three adjacent `<`, not `operator<<` followed by a template argument list. */
static bool is_launch_open(const rw *r, size_t i)
{
    if (!(is_punct(r, i, '<') && adjacent(r, i) && is_punct(r, i + 1, '<') && adjacent(r, i + 1) &&
          is_punct(r, i + 2, '<')))
        return false;
    return !(i > 0 && tok_is(r, i - 1, "operator"));
}

/* Identifiers that end a statement head, never a kernel's name: `if (c) (k)`
 * must not read as a call of `if`. */
static bool is_control_keyword(const rw *r, size_t i)
{
    static const char *const words[] = {"if", "while", "for",   "switch", "return",   "else",
                                        "do", "case",  "throw", "sizeof", "co_return"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (tok_is(r, i, words[k]))
            return true;
    return false;
}

/* The `<` that opens the template argument list closed by the `>` at
 * `close`, skipping parenthesised arguments (`k<(N > 2)>`); -1 if none. */
static long template_open(const rw *r, size_t close)
{
    long depth = 0;
    for (long j = (long)close; j >= 0; j--) {
        if ((is_punct(r, (size_t)j, ')') || is_punct(r, (size_t)j, ']')) && r->match[j] >= 0) {
            j = r->match[j];
        } else if (is_punct(r, (size_t)j, '>')) {
            depth++;
        } else if (is_punct(r, (size_t)j, '<')) {
            if (--depth == 0)
                return j;
        } else if (is_punct(r, (size_t)j, ';') || is_punct(r, (size_t)j, '{') ||
                   is_punct(r, (size_t)j, '}')) {
            return -1;
        }
    }
    return -1;
}

/* The first token of the postfix expression that ends with token `last`
 * (the kernel before `<<<`): `k`, `ns::k`, `::k`, `k<float, 256>`,
 * `obj.member`, `(*table[i])`, `pick(v)`. -1 when there is none. */
static long expr_start(const rw *r, long last)
{
    long j = last;
    while (j >= 0) {
        size_t u = (size_t)j;
        if (is_punct(r, u, ')') || is_punct(r, u, ']')) {
            long open = r->match[u];
            if (open < 0)
                return -1;
            /* A call or subscript continues to its callee; otherwise the
             * parenthesised expression is the primary. */
            if (open > 0 &&
                ((is_ident(r, (size_t)open - 1) && !is_control_keyword(r, (size_t)open - 1)) ||
                 is_punct(r, (size_t)open - 1, '>') || is_punct(r, (size_t)open - 1, ']'))) {
                j = open - 1;
                continue;
            }
            return open;
        }
        if (is_punct(r, u, '>')) {
            long open = template_open(r, u);
            if (open <= 0 || !is_ident(r, (size_t)open - 1))
                return -1;
            j = open - 1;
            continue;
        }
        if (!is_ident(r, u) || is_control_keyword(r, u))
            return -1;
        /* `a.b`, `a->b`, `ns::b`, `ns::template b<...>`: keep going left. */
        long sep = j - 1;
        if (sep >= 0 && tok_is(r, (size_t)sep, "template"))
            sep--;
        if (sep < 0 || !(tok_is(r, (size_t)sep, "::") || is_punct(r, (size_t)sep, '.') ||
                         tok_is(r, (size_t)sep, "->")))
            return j;
        long before = sep - 1;
        bool operand =
            before >= 0 && (is_ident(r, (size_t)before) || is_punct(r, (size_t)before, ')') ||
                            is_punct(r, (size_t)before, ']') || is_punct(r, (size_t)before, '>'));
        if (!operand)
            return tok_is(r, (size_t)sep, "::") ? sep : -1; /* `::k` names the global k */
        j = before;
    }
    return -1;
}

/* Finds the `>>>` that closes the launch configuration opened at `open`:
 * the last three of the first run of at least three adjacent `>` outside
 * brackets (`<<<g, A<B<int>>>>>` ends with the final three). */
static int find_launch_close(rw *r, size_t open, size_t *close)
{
    size_t j = open + 3;
    while (j < r->ntoks) {
        if (is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) {
            if (r->match[j] < 0)
                return fail_tok(r, j, "unbalanced '%.*s' in the kernel launch configuration");
            j = (size_t)r->match[j] + 1;
            continue;
        }
        if (is_punct(r, j, ')') || is_punct(r, j, ']') || is_punct(r, j, '}') ||
            is_punct(r, j, ';'))
            break;
        if (is_punct(r, j, '>')) {
            size_t run = 1;
            while (adjacent(r, j + run - 1) && is_punct(r, j + run, '>'))
                run++;
            if (run >= 3) {
                *close = j + run - 3;
                return 0;
            }
            j += run;
            continue;
        }
        j++;
    }
    return fail_at(r, open, "'<<<' without a matching '>>>'");
}

/* k<<<cfg>>>(args) -> ::simtlab_emu::launch("k", __FILE__, __LINE__, k, cfg)(args)
 * as three edits (an insertion before k, `<<<` -> ", ", `>>>` -> ")") so
 * that k, cfg and args keep their bytes and their newlines. */
static int rewrite_launch(rw *r, size_t open)
{
    long first = open > 0 ? expr_start(r, (long)open - 1) : -1;
    if (first < 0)
        return fail_at(r, open, "expected a kernel name before '<<<'");
    size_t close = 0;
    if (find_launch_close(r, open, &close) != 0)
        return -1;
    if (close == open + 3)
        return fail_at(r, open,
                       "a kernel launch needs at least a grid and a block size: <<<grid, block>>>");
    size_t args = close + 3;
    if (!is_punct(r, args, '('))
        return fail_at(r, close, "expected '(' with the kernel arguments after '>>>'");
    if (r->match[args] < 0)
        return fail_at(r, args, "unbalanced '(' in the kernel arguments");

    strbuf head = {0};
    sb_puts(&head, "::simtlab_emu::launch(\"");
    strbuf name = {0};
    put_tokens(r, &name, (size_t)first, open - 1);
    sb_put_escaped(&head, name.data ? name.data : "", name.len);
    head.oom |= name.oom;
    free(name.data);
    sb_puts(&head, "\", __FILE__, __LINE__, ");
    if (add_edit_sb(r, r->toks[first].start, r->toks[first].start, &head) != 0)
        return -1;
    if (add_edit_str(r, r->toks[open].start, r->toks[open + 2].end, ", ") != 0)
        return -1;
    return add_edit_str(r, r->toks[close].start, r->toks[close + 2].end, ")");
}

/* ======================================================================
 * scopes: is a declaration at file scope?
 * ====================================================================== */

/* Classifies the `{` at token i by what precedes it. */
static scope_kind brace_kind(const rw *r, size_t i)
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

static scope_kind current_scope(const rw *r)
{
    return r->nscopes ? r->scopes[r->nscopes - 1] : SCOPE_NAMESPACE;
}

/* ======================================================================
 * __shared__ declarations
 * ====================================================================== */

/* One declaration statement, taken apart. Token index lists point into
 * r->toks; `kept` is the statement without __shared__, static, extern,
 * __device__, alignment and attributes. */
typedef struct shared_decl {
    size_t first, semi; /* first token of the statement, its `;` */
    bool is_extern;
    size_t *kept;
    size_t nkept;
    size_t base_len; /* kept[0 .. base_len) is the type all declarators share */
} shared_decl;

/* One declarator: kept[ptr_from .. name) are its own `*`/`&`/cv,
 * kept[name] the variable, kept[name+1 .. end) its [dims]. */
typedef struct declarator {
    size_t ptr_from, name, end;
} declarator;

/* Walks back from __shared__ to the start of its statement. */
static size_t statement_start(const rw *r, size_t i)
{
    while (i > 0 && !r->toks[i].after_directive) {
        size_t p = i - 1;
        if (is_punct(r, p, ';') || is_punct(r, p, '{') || is_punct(r, p, '}') ||
            is_punct(r, p, ':'))
            break;
        if ((is_punct(r, p, ')') || is_punct(r, p, ']')) && r->match[p] >= 0)
            i = (size_t)r->match[p]; /* alignas(16), [[maybe_unused]] */
        else
            i = p;
    }
    return i;
}

/* The `;` that ends the statement; fails on a brace or end of file. */
static int statement_end(rw *r, size_t shared, size_t *semi)
{
    for (size_t j = shared + 1; j < r->ntoks; j++) {
        if (is_punct(r, j, ';')) {
            *semi = j;
            return 0;
        }
        if (is_punct(r, j, '{') || is_punct(r, j, '='))
            break;
        if ((is_punct(r, j, '(') || is_punct(r, j, '[')) && r->match[j] >= 0)
            j = (size_t)r->match[j];
        else if (is_punct(r, j, ')') || is_punct(r, j, ']') || is_punct(r, j, '}') ||
                 is_punct(r, j, '(') || is_punct(r, j, '['))
            break;
    }
    return fail_at(r, shared,
                   "cannot rewrite this __shared__ declaration: expected 'type name[dims];' "
                   "(no initializer, no braces)");
}

/* Tokens that say where the variable lives or how it is aligned, which the
 * emulator decides itself: the shared arena aligns every object to at least
 * 16 bytes, so __align__(16) and alignas(16) hold without being repeated. */
static bool is_storage_word(const rw *r, size_t i)
{
    return tok_is(r, i, "__shared__") || tok_is(r, i, "static") || tok_is(r, i, "extern") ||
           tok_is(r, i, "__device__");
}

static bool is_alignment_word(const rw *r, size_t i)
{
    return tok_is(r, i, "__align__") || tok_is(r, i, "alignas") || tok_is(r, i, "__attribute__") ||
           tok_is(r, i, "__declspec");
}

/* Fills d->kept from the statement's tokens. */
static int filter_decl(rw *r, shared_decl *d)
{
    d->kept = malloc((d->semi - d->first + 1) * sizeof(size_t));
    if (!d->kept)
        return fail_oom(r);
    for (size_t j = d->first; j < d->semi; j++) {
        if (j > d->first && r->toks[j].after_directive)
            return fail_at(
                r, j, "cannot rewrite a __shared__ declaration that a preprocessor line splits");
        if (is_storage_word(r, j)) {
            d->is_extern |= tok_is(r, j, "extern");
        } else if (is_alignment_word(r, j)) {
            if (!is_punct(r, j + 1, '(') || r->match[j + 1] < 0)
                return fail_tok(r, j, "expected '(' after '%.*s'");
            j = (size_t)r->match[j + 1];
        } else if (is_punct(r, j, '[') && adjacent(r, j) && is_punct(r, j + 1, '[') &&
                   r->match[j] >= 0) {
            j = (size_t)r->match[j]; /* [[attribute]] */
        } else {
            d->kept[d->nkept++] = j;
        }
    }
    return 0;
}

/* Splits kept[from..nkept) at the next comma outside brackets and template
 * argument lists (`cuda::std::array<int, 4> a, b;`); returns the end. */
static size_t next_declarator_end(const rw *r, const shared_decl *d, size_t from)
{
    int depth = 0, angle = 0;
    for (size_t k = from; k < d->nkept; k++) {
        size_t t = d->kept[k];
        if (is_punct(r, t, '(') || is_punct(r, t, '['))
            depth++;
        else if (is_punct(r, t, ')') || is_punct(r, t, ']'))
            depth--;
        else if (depth == 0 && is_punct(r, t, '<'))
            angle++;
        else if (depth == 0 && is_punct(r, t, '>') && angle > 0)
            angle--;
        else if (depth == 0 && angle == 0 && is_punct(r, t, ','))
            return k;
    }
    return d->nkept;
}

static bool is_type_operator(const rw *r, size_t i)
{
    return tok_is(r, i, "decltype") || tok_is(r, i, "__typeof__") || tok_is(r, i, "typeof");
}

/* Within kept[from..end): the variable name (the last identifier outside
 * brackets before the first `[`), then only [dims] may follow. */
static int parse_declarator(rw *r, const shared_decl *d, size_t from, size_t end, declarator *out)
{
    int angle = 0;
    long name = -1;
    size_t k = from;
    for (; k < end; k++) {
        size_t t = d->kept[k];
        if (angle == 0 && is_punct(r, t, '['))
            break;
        if (is_type_operator(r, t) && is_punct(r, t + 1, '(') && r->match[t + 1] >= 0) {
            /* decltype(x): its parentheses are part of the type. */
            while (k + 1 < end && d->kept[k + 1] != (size_t)r->match[t + 1])
                k++;
            k++;
            continue;
        }
        if (is_punct(r, t, '<'))
            angle++;
        else if (is_punct(r, t, '>') && angle > 0)
            angle--;
        else if ((is_punct(r, t, '(') || is_punct(r, t, ')')) && angle == 0)
            return fail_at(
                r, t,
                "cannot rewrite this __shared__ declaration: parentheses in a declarator "
                "(use a typedef for pointers to arrays or functions)");
        else if (angle == 0 && is_ident(r, t) && !tok_is(r, t, "const") &&
                 !tok_is(r, t, "volatile") && !tok_is(r, t, "__restrict__"))
            name = (long)k;
    }
    if (name < 0)
        return fail_at(r, d->kept[from < d->nkept ? from : d->nkept - 1],
                       "cannot find the variable name in this __shared__ declaration");
    for (size_t m = (size_t)name + 1; m < k; m++)
        if (!(tok_is(r, d->kept[m], "const") || tok_is(r, d->kept[m], "volatile") ||
              tok_is(r, d->kept[m], "__restrict__")))
            return fail_tok(r, d->kept[m], "unexpected '%.*s' after the variable name");
    for (size_t m = k; m < end; m++) {
        size_t t = d->kept[m];
        if (!is_punct(r, t, '[') || r->match[t] < 0)
            return fail_at(r, t,
                           "cannot rewrite this __shared__ declaration: expected '[' or ',' or ';' "
                           "after the variable name");
        while (m < end && d->kept[m] != (size_t)r->match[t])
            m++;
    }
    *out = (declarator){from, (size_t)name, end};
    return 0;
}

static bool is_empty_dim(const rw *r, const shared_decl *d, size_t k)
{
    return k + 1 < d->nkept && is_punct(r, d->kept[k], '[') && is_punct(r, d->kept[k + 1], ']');
}

/* The type of one declarator: the shared base plus its own `*`s. */
static void put_type(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    put_token_list(r, sb, d->kept, d->base_len);
    /* The first declarator's own `*`s start at base_len, a later one's at
     * its ptr_from. */
    size_t from = x->ptr_from > d->base_len ? x->ptr_from : d->base_len;
    if (x->name > from) {
        sb_puts(sb, " ");
        put_token_list(r, sb, d->kept + from, x->name - from);
    }
}

/* Dimensions after the first (`[][32]` -> "[32]") or all of them. */
static void put_dims(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x,
                     bool skip_first)
{
    size_t from = x->name + 1;
    if (skip_first)
        from += 2;
    if (x->end > from)
        put_token_list(r, sb, d->kept + from, x->end - from);
}

static void put_name(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    size_t t = d->kept[x->name];
    sb_put(sb, tok_text(r, t), tok_len(r, t));
}

/* Function scope: a reference to the block's object, or a pointer to the
 * dynamic shared memory. */
static void put_local(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    bool dims = x->end > x->name + 1;
    if (d->is_extern) {
        /* check_dims made the first dimension `[]`: two tokens. */
        bool more = x->end > x->name + 3;
        put_type(r, sb, d, x);
        sb_puts(sb, more ? " (*const " : " *const ");
        put_name(r, sb, d, x);
        if (more) {
            sb_puts(sb, ")");
            put_dims(r, sb, d, x, true);
        }
        sb_puts(sb, " = (");
        put_type(r, sb, d, x);
        sb_puts(sb, more ? " (*)" : " *");
        if (more)
            put_dims(r, sb, d, x, true);
        sb_puts(sb, ")::simtlab_emu::dynamic_shared();");
        return;
    }
    put_type(r, sb, d, x);
    /* `float *&p`, `float &x`: no space between a pointer's `*` and `&`. */
    bool ptr = sb->len > 0 && sb->data[sb->len - 1] == '*';
    sb_puts(sb, dims ? " (&" : ptr ? "&" : " &");
    put_name(r, sb, d, x);
    if (dims) {
        sb_puts(sb, ")");
        put_dims(r, sb, d, x, false);
    }
    sb_puts(sb, " = ::simtlab_emu::shared_var<");
    put_type(r, sb, d, x);
    put_dims(r, sb, d, x, false);
    sb_puts(sb, ">([]{});");
}

/* File scope: an accessor function; its #define comes separately. */
static void put_accessor(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    sb_puts(sb, "static inline auto ");
    sb_puts(sb, d->is_extern ? "" : "&");
    sb_puts(sb, "simtlab_emu_shared_");
    put_name(r, sb, d, x);
    sb_puts(sb, "() { return ");
    bool more = x->end > x->name + 3;
    if (d->is_extern) {
        sb_puts(sb, "(");
        put_type(r, sb, d, x);
        sb_puts(sb, more ? " (*)" : " *");
        if (more)
            put_dims(r, sb, d, x, true);
        sb_puts(sb, ")::simtlab_emu::dynamic_shared(); }");
        return;
    }
    sb_puts(sb, "::simtlab_emu::shared_var<");
    put_type(r, sb, d, x);
    put_dims(r, sb, d, x, false);
    sb_puts(sb, ">([]{}); }");
}

/* Checks what each storage kind allows: extern needs `name[]`, a static
 * array needs every size. */
static int check_dims(rw *r, const shared_decl *d, const declarator *x)
{
    size_t name_tok = d->kept[x->name];
    bool dims = x->end > x->name + 1;
    if (d->is_extern && !(dims && is_empty_dim(r, d, x->name + 1)))
        return fail_tok(r, name_tok,
                        "extern __shared__ '%.*s' must be an unsized array, e.g. "
                        "'extern __shared__ float name[];'");
    for (size_t k = x->name + 1; k < x->end; k++) {
        bool first_of_extern = d->is_extern && k == x->name + 1;
        if (is_punct(r, d->kept[k], '[') && is_empty_dim(r, d, k) && !first_of_extern)
            return fail_tok(r, name_tok,
                            "__shared__ array '%.*s' needs a size in every dimension "
                            "(only extern __shared__ arrays are unsized)");
    }
    return 0;
}

/* Splits every declarator, checks it, and writes all of them on one line. */
static int build_decls(rw *r, shared_decl *d, bool file_scope, strbuf *text, strbuf *defines)
{
    declarator x;
    size_t end = next_declarator_end(r, d, 0);
    if (parse_declarator(r, d, 0, end, &x) != 0)
        return -1;
    /* The shared type ends where the first declarator's `*`/`&` begin. */
    d->base_len = x.name;
    for (size_t k = 0; k < x.name; k++)
        if (is_punct(r, d->kept[k], '*') || is_punct(r, d->kept[k], '&')) {
            d->base_len = k;
            break;
        }
    if (d->base_len == 0)
        return fail_at(r, d->kept[x.name], "missing type in the __shared__ declaration");
    for (;;) {
        if (check_dims(r, d, &x) != 0)
            return -1;
        if (text->len)
            sb_puts(text, " ");
        if (file_scope) {
            put_accessor(r, text, d, &x);
            sb_puts(defines, "\n#define ");
            put_name(r, defines, d, &x);
            sb_puts(defines, " (simtlab_emu_shared_");
            put_name(r, defines, d, &x);
            sb_puts(defines, "())");
        } else {
            put_local(r, text, d, &x);
        }
        if (end >= d->nkept)
            return 0;
        size_t from = end + 1;
        end = next_declarator_end(r, d, from);
        if (from >= end)
            return fail_at(r, d->kept[from - 1], "expected a declarator after ','");
        if (parse_declarator(r, d, from, end, &x) != 0)
            return -1;
    }
}

/* Newlines in source bytes [start, end): a rewritten declaration keeps them,
 * at its end, so that the lines after it keep their numbers. */
static size_t count_newlines(const rw *r, size_t start, size_t end)
{
    size_t n = 0;
    for (size_t i = start; i < end; i++)
        n += r->src[i] == '\n';
    return n;
}

/* Records the edit for one statement. At file scope the #define must start
 * a line: it goes after the `;` on lines of its own, followed by a #line
 * that gives the rest of the `;`'s line its number again. */
static int record_decl_edit(rw *r, const shared_decl *d, bool file_scope, strbuf *text,
                            strbuf *defines)
{
    const token *semi = &r->toks[d->semi];
    if (file_scope) {
        sb_put(text, defines->data ? defines->data : "", defines->len);
        sb_printf(text, "\n#line %d \"", semi->line);
        sb_put_escaped(text, r->path, strlen(r->path));
        sb_puts(text, "\"\n");
    } else {
        for (size_t n = count_newlines(r, r->toks[d->first].start, semi->end); n > 0; n--)
            sb_puts(text, "\n");
    }
    text->oom |= defines->oom;
    free(defines->data);
    return add_edit_sb(r, r->toks[d->first].start, semi->end, text);
}

/* Rewrites the declaration statement that contains the __shared__ at token
 * i; *next is the token after its `;`. */
static int rewrite_shared(rw *r, size_t i, size_t *next)
{
    scope_kind scope = current_scope(r);
    if (scope == SCOPE_CLASS)
        return fail_at(r, i, "__shared__ is not allowed on a class member");
    shared_decl d = {0};
    d.first = statement_start(r, i);
    if (statement_end(r, i, &d.semi) != 0)
        return -1;
    strbuf text = {0}, defines = {0};
    bool file_scope = scope == SCOPE_NAMESPACE;
    int rc = filter_decl(r, &d);
    if (rc == 0 && d.nkept == 0)
        rc = fail_at(r, i, "missing type and name in the __shared__ declaration");
    if (rc == 0)
        rc = build_decls(r, &d, file_scope, &text, &defines);
    free(d.kept);
    if (rc != 0) {
        free(text.data);
        free(defines.data);
        return -1;
    }
    *next = d.semi + 1;
    return record_decl_edit(r, &d, file_scope, &text, &defines);
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
    sb_puts(sb, "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n#line 1 \"");
    sb_put_escaped(sb, r->path, strlen(r->path));
    sb_puts(sb, "\"\n");
}

static int emit(rw *r, strbuf *sb)
{
    if (r->nedits > 0)
        qsort(r->edits, r->nedits, sizeof(edit), edit_order);
    emit_prologue(r, sb);
    size_t pos = 0;
    for (size_t k = 0; k < r->nedits; k++) {
        const edit *e = &r->edits[k];
        if (e->start < pos) /* two edits of one range: a bug here, not in the input */
            return fail(r, 1, 1, "internal error: overlapping rewrites at byte %zu", e->start);
        sb_put(sb, r->src + pos, e->start - pos);
        sb_puts(sb, e->text);
        pos = e->end;
    }
    sb_put(sb, r->src + pos, r->len - pos);
    return sb->oom ? fail_oom(r) : 0;
}

static void rw_free(rw *r)
{
    for (size_t k = 0; k < r->nedits; k++)
        free(r->edits[k].text);
    free(r->edits);
    free(r->toks);
    free(r->match);
    free(r->scopes);
}

int sl_rewrite(const char *src, size_t len, const char *path, sl_outbuf *out, char *err,
               size_t errcap)
{
    rw r = {0};
    r.src = src ? src : "";
    r.len = src ? len : 0;
    r.path = path ? path : "<input>";
    r.err = err;
    r.errcap = errcap;
    if (err && errcap)
        err[0] = '\0';
    sl_outbuf_free(out);
    /* A byte-order mark is only allowed first in a file, which after the
     * prologue it no longer is. */
    if (r.len >= 3 && memcmp(r.src, "\xEF\xBB\xBF", 3) == 0) {
        r.src += 3;
        r.len -= 3;
    }

    strbuf sb = {0};
    int rc = lex(&r);
    if (rc == 0)
        rc = match_all(&r);
    if (rc == 0)
        rc = scan(&r);
    if (rc == 0)
        rc = emit(&r, &sb);
    rw_free(&r);
    if (rc != 0) {
        free(sb.data);
        return -1;
    }
    out->data = sb.data;
    out->len = sb.len;
    out->cap = sb.cap;
    return 0;
}
