/* simtlab source rewriter, passes 1 and 2 (the whole is described in
 * tools/rewriter/rewrite.c): the tokenizer — comments, strings, raw strings, char literals
 * and digit separators, preprocessor lines, #if 0 groups — and the table of
 * matching brackets.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
 * so are the digraphs `<:` `:>` `<%` `%>` (is_punct reads them as [ ] { }),
 * except `<::` not followed by `:` or `>`, which is `<` `::` as in C++11
 * (`A<::B>`). Every other punctuator is one byte: `<<<` and `>>>` are
 * recognised as three adjacent `<` or `>`, because `>>>` also closes
 * nested templates. */
static void lex_punct(rw *r, cursor *c)
{
    char ch = peek(r, c, 0), next = peek(r, c, 1);
    bool digraph = (ch == '<' && (next == ':' || next == '%')) || (ch == ':' && next == '>') ||
                   (ch == '%' && next == '>');
    if (ch == '<' && next == ':' && peek(r, c, 2) == ':' && peek(r, c, 3) != ':' && peek(r, c, 3) != '>')
        digraph = false;
    if ((ch == ':' && next == ':') || (ch == '-' && next == '>') || digraph)
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

/* Keeps where each preprocessor line is, for rewrite_include.c. */
static int note_directive(rw *r, size_t start, size_t end, int last_line)
{
    directive *grown = grow(r->directives, &r->dircap, r->ndirectives, sizeof(directive));
    if (!grown)
        return fail_oom(r);
    r->directives = grown;
    r->directives[r->ndirectives++] = (directive){start, end, last_line};
    return 0;
}

int lex(rw *r)
{
    cursor c = {r->lex_from, r->lex_line ? r->lex_line : 1, r->lex_line_start};
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
            if (note_directive(r, start, c.i, c.line) != 0)
                return -1;
            if (directive_is(r, start, "if") && is_if_zero(r, start))
                skip_if_zero_group(r, &c);
            directive = true;
        } else {
            token *toks = grow(r->toks, &r->tokcap, r->ntoks, sizeof(token));
            if (!toks)
                return fail_oom(r);
            r->toks = toks;
            token t = {.start = c.i, .end = c.i, .line = c.line, .col = cur_col(&c), .kind = TK_PUNCT,
                       .after_directive = directive};
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
 * what the tokens say
 * ====================================================================== */

/* `volatile` other than right after asm, __asm or __asm__ (with no
 * preprocessor line between) among the tokens. */
static bool tokens_say_volatile(const rw *r)
{
    for (size_t i = 0; i < r->ntoks; i++)
        if (tok_is(r, i, "volatile") &&
            !(i > 0 && !r->toks[i].after_directive &&
              (tok_is(r, i - 1, "asm") || tok_is(r, i - 1, "__asm") || tok_is(r, i - 1, "__asm__"))))
            return true;
    return false;
}

/* The same for one `#define NAME body` line (the file's tokens skip
 * preprocessor lines), tokenized on its own when its text holds the word.
 * A body the tokenizer refuses counts when it holds the word at all: a
 * false match only costs speed. */
static bool define_says_volatile(const rw *r, const directive *d)
{
    static const char word[] = "volatile";
    const size_t w = sizeof word - 1;
    size_t i = d->start + 1;
    while (i < d->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (d->end - i < 6 || memcmp(r->src + i, "define", 6) != 0)
        return false;
    bool holds = false;
    for (size_t k = i + 6; k + w <= d->end && !holds; k++)
        holds = memcmp(r->src + k, word, w) == 0;
    if (!holds)
        return false;
    char err[256];
    rw m = {0};
    m.src = r->src;
    m.len = d->end;
    m.path = r->path;
    m.err = err;
    m.errcap = sizeof err;
    m.lex_from = i + 6;
    const bool says = lex(&m) != 0 || tokens_say_volatile(&m);
    free(m.toks);
    free(m.directives);
    return says;
}

/* Whether the code says `volatile` other than in `asm volatile`: in its
 * tokens or a #define body; comments, literals and #if 0 groups do not
 * count. sl_rewrite reports it on the output's first line
 * (SL_REWRITE_SAYS_VOLATILE in tools/rewriter/rewrite.h). */
bool code_says_volatile(const rw *r)
{
    if (tokens_say_volatile(r))
        return true;
    for (size_t k = 0; k < r->ndirectives; k++)
        if (define_says_volatile(r, &r->directives[k]))
            return true;
    return false;
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

int match_all(rw *r)
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
