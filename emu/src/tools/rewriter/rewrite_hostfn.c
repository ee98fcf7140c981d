/* simtlab source rewriter — host-only functions (the whole is described in
 * tools/rewriter/rewrite.c).
 *
 * Builds with the spin watch compile every function of a .cu with GCC's
 * -fsanitize-coverage=trace-pc: a call at every basic block, which a CPU
 * reference loop of the program pays too (several times slower, and the
 * calls stop vectorisation). A function that CUDA can only ever run on the
 * host needs no hook, so this pass puts SIMTLAB_EMU_HOST_FN (the prologue:
 * __attribute__((no_sanitize_coverage)) in spin builds, nothing otherwise)
 * at the start of each host-only definition:
 *   - functions at namespace scope and member functions (in a class body or
 *     out of it, constructors included) with no execution-space qualifier
 *     or only __host__;
 *   - lambdas inside such functions (or in a namespace-scope initialiser)
 *     that are not marked __device__ themselves.
 * Left alone, so still instrumented: __global__, __device__ and
 * __host__ __device__ functions, spelled directly or through a macro the
 * rewriter sees defined (in the file or in a header it follows); constexpr
 * functions and lambdas (device code may call them with
 * --expt-relaxed-constexpr); a definition whose name is also declared
 * __device__ somewhere (nvcc treats such a redeclaration as
 * __host__ __device__); and whatever the rewriter is unsure of: an unknown
 * all-capitals or __reserved word among the specifiers (a macro from a
 * header it does not read may mean __device__), a definition without a
 * return type that is no constructor (a macro such as TEST(x) {), elaborated
 * return types, function-try-blocks, anything it does not parse. GCC will
 * not inline a function into one whose coverage attribute differs, so
 * leaving a host function alone costs nothing but speed.
 *
 * Marks are only inserted text, never a newline, and a mark that would fall
 * inside another rewrite is dropped.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HOST_FN "SIMTLAB_EMU_HOST_FN"

/* Kinds of name in a name_set. */
enum {
    NAME_DEVICE_MACRO = 'd', /* a macro whose body says __device__ or __global__ */
    NAME_MACRO = 'p',        /* any other macro that may stand among specifiers */
    NAME_OTHER_MACRO = 'u',  /* a macro with a brace, a `;` or `namespace` in it */
    NAME_DEVICE_FN = 'f'     /* a function declared __device__ or __global__ */
};

/* This file's names, and with them those of every file of the translation
 * unit seen so far (tools/rewriter/rewrite_include.c keeps them across files). */
static int note_name(rw *r, const char *name, size_t n, char kind)
{
    name_set *shared = r->inc ? include_hostfn_names(r->inc) : NULL;
    if (name_set_add(&r->hostfn_names, name, n, kind) != 0 || (shared && name_set_add(shared, name, n, kind) != 0))
        return fail_oom(r);
    return 0;
}

static bool has_name(const rw *r, const char *name, size_t n, char kind)
{
    const name_set *shared = r->inc ? include_hostfn_names(r->inc) : NULL;
    return name_set_has(&r->hostfn_names, name, n, kind) || (shared && name_set_has(shared, name, n, kind));
}

/* ======================================================================
 * the prepass: macros and functions declared for the device
 * ====================================================================== */

static bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

static bool word_is(const char *w, size_t n, const char *s) { return n == strlen(s) && memcmp(w, s, n) == 0; }

/* Does the text [p, end) hold the word __device__ or __global__, or a
 * macro known to mean one of them? Comments count too: a word there only
 * makes the rewriter more careful. */
static bool text_says_device(const rw *r, const char *p, const char *end)
{
    while (p < end) {
        if (!ident_start(*p) || (p > r->src && ident_char(p[-1]))) {
            p++;
            continue;
        }
        const char *w = p;
        while (p < end && ident_char(*p))
            p++;
        const size_t n = (size_t)(p - w);
        if (word_is(w, n, "__device__") || word_is(w, n, "__global__") || has_name(r, w, n, NAME_DEVICE_MACRO))
            return true;
    }
    return false;
}

/* Each `#define NAME body` of the file: NAME means __device__ (or
 * __global__) when its body says so. Twice, for a macro defined through
 * one defined further down. */
static int note_macros(rw *r)
{
    for (int round = 0; round < 2; round++)
        for (size_t k = 0; k < r->ndirectives; k++) {
            const char *p = r->src + r->directives[k].start + 1, *end = r->src + r->directives[k].end;
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            if (end - p < 7 || memcmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
                continue;
            p += 6;
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            const char *name = p;
            while (p < end && ident_char(*p))
                p++;
            if (p == name || !ident_start(*name))
                continue;
            const size_t n = (size_t)(p - name);
            const bool device = text_says_device(r, p, end);
            bool other = false; /* NS_BEGIN: a mark before it would stand before `namespace x {` */
            for (const char *q = p; q < end && !other; q++)
                other = *q == '{' || *q == '}' || *q == ';' ||
                        (end - q >= 9 && memcmp(q, "namespace", 9) == 0);
            if (note_name(r, name, n, device ? NAME_DEVICE_MACRO : other ? NAME_OTHER_MACRO : NAME_MACRO) != 0)
                return -1;
        }
    return 0;
}

static bool is_device_word(const rw *r, size_t i)
{
    return tok_is(r, i, "__device__") || tok_is(r, i, "__global__") ||
           (is_ident(r, i) && has_name(r, tok_text(r, i), tok_len(r, i), NAME_DEVICE_MACRO));
}

/* Words whose parenthesised argument is not a parameter list. */
static bool is_attribute_word(const rw *r, size_t i)
{
    static const char *const words[] = {"__attribute__", "__declspec", "alignas",   "__align__",   "decltype",
                                        "noexcept",      "throw",      "sizeof",    "alignof",     "__launch_bounds__",
                                        "__maxnreg__",   "__cluster_dims__", "__asm__", "asm", "static_assert"};
    return tok_is_one_of(r, i, words, sizeof words / sizeof words[0]);
}

/* Every function named in a declaration that says __device__ (a
 * prototype, a definition, a member): nvcc treats a later definition of
 * that name without the qualifier as __host__ __device__. */
static int note_device_functions(rw *r)
{
    for (size_t i = 0; i < r->ntoks; i++) {
        if (!tok_is(r, i, "__device__") &&
            !(is_ident(r, i) && has_name(r, tok_text(r, i), tok_len(r, i), NAME_DEVICE_MACRO)))
            continue; /* (a kernel redeclared without __global__ is an error) */
        for (size_t j = i + 1; j < r->ntoks; j++) {
            if (is_punct(r, j, ';') || is_punct(r, j, '{') || is_punct(r, j, '}') || is_punct(r, j, '='))
                break;
            if (is_punct(r, j, '(') && r->match[j] > (long)j && j > 0 && is_attribute_word(r, j - 1)) {
                j = (size_t)r->match[j];
                continue;
            }
            if (tok_is(r, j, "operator")) { /* any operator of that name: its symbol is no identifier */
                if (note_name(r, "operator", 8, NAME_DEVICE_FN) != 0)
                    return -1;
                break;
            }
            if (is_punct(r, j, '(')) {
                if (is_ident(r, j - 1) && note_name(r, tok_text(r, j - 1), tok_len(r, j - 1), NAME_DEVICE_FN) != 0)
                    return -1;
                break;
            }
        }
    }
    return 0;
}

/* Before the headers are put in: this file's macros and device functions
 * are then known to the headers it includes, and theirs to it. */
int note_host_fn_names(rw *r)
{
    if (note_macros(r) != 0)
        return -1;
    return note_device_functions(r);
}

/* ======================================================================
 * the marks
 * ====================================================================== */

typedef struct mark {
    size_t pos;
    const char *text;
} mark;

typedef struct hostfn {
    rw *r;
    mark *marks;
    size_t nmarks, cap;
    bool stop; /* braces this pass cannot follow (#if branches): nothing further is marked */
    bool oom;
} hostfn;

static void add_mark(hostfn *h, size_t pos, const char *text)
{
    mark *grown = grow(h->marks, &h->cap, h->nmarks, sizeof(mark));
    if (!grown) {
        h->oom = true;
        return;
    }
    h->marks = grown;
    h->marks[h->nmarks++] = (mark){pos, text};
}

static size_t matched(const rw *r, size_t i) { return r->match[i] > (long)i ? (size_t)r->match[i] : 0; }

/* Remembers a body for tools/rewriter/rewrite_spin.c (host: host-only code). */
static void add_span(hostfn *h, size_t open, size_t close, bool host)
{
    rw *r = h->r;
    code_span *grown = grow(r->spans, &r->spancap, r->nspans, sizeof(code_span));
    if (!grown) {
        h->oom = true;
        return;
    }
    r->spans = grown;
    r->spans[r->nspans++] = (code_span){open, close, host};
}

/* The `>` that closes the `<` at `open` (template parameters or
 * arguments), brackets skipped; 0 when there is none before `limit`. */
static size_t angle_close(const rw *r, size_t open, size_t limit)
{
    int depth = 0;
    for (size_t j = open; j < limit; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && matched(r, j))
            j = matched(r, j);
        else if (is_punct(r, j, ';') || is_punct(r, j, '{') || is_punct(r, j, '}'))
            return 0;
        else if (is_punct(r, j, '<'))
            depth++;
        else if (is_punct(r, j, '>') && --depth == 0)
            return j;
    }
    return 0;
}

#define NO_TOKEN ((size_t)-1)

/* Skips `template <...>` heads from p; returns the first token after them
 * (p itself when there are none), or NO_TOKEN when one does not close. */
static size_t after_template_heads(const rw *r, size_t p, size_t limit)
{
    while (tok_is(r, p, "template") && is_punct(r, p + 1, '<')) {
        size_t close = angle_close(r, p + 1, limit);
        if (!close)
            return NO_TOKEN;
        p = close + 1;
    }
    return p;
}

static bool all_capitals(const rw *r, size_t i)
{
    const char *t = tok_text(r, i);
    size_t n = tok_len(r, i);
    bool letter = false;
    for (size_t k = 0; k < n; k++) {
        if (t[k] >= 'a' && t[k] <= 'z')
            return false;
        letter |= t[k] >= 'A' && t[k] <= 'Z';
    }
    return letter && n >= 2;
}

/* Is the identifier i, among a definition's specifiers, one that keeps it
 * host-only? */
static bool host_specifier(const rw *r, size_t i)
{
    static const char *const reserved_ok[] = {"__host__",     "__inline__",      "__inline",
                                              "__forceinline__", "__noinline__", "__extension__",
                                              "__restrict__", "__restrict",      "__int128"};
    if (tok_is(r, i, "__device__") || tok_is(r, i, "__global__") || tok_is(r, i, "constexpr") ||
        tok_is(r, i, "consteval") || tok_is(r, i, "typedef") || tok_is(r, i, "using") ||
        tok_is(r, i, "requires") || tok_is(r, i, "struct") || tok_is(r, i, "class") || tok_is(r, i, "union") ||
        tok_is(r, i, "enum") || tok_is(r, i, "__launch_bounds__"))
        return false;
    const char *t = tok_text(r, i);
    const size_t n = tok_len(r, i);
    if (has_name(r, t, n, NAME_DEVICE_MACRO) || has_name(r, t, n, NAME_OTHER_MACRO))
        return false;
    if (has_name(r, t, n, NAME_MACRO))
        return true;
    if (n >= 2 && t[0] == '_' && t[1] == '_') {
        for (size_t k = 0; k < sizeof reserved_ok / sizeof reserved_ok[0]; k++)
            if (tok_is(r, i, reserved_ok[k]))
                return true;
        return false;
    }
    return !all_capitals(r, i) || tok_is(r, i, "FILE");
}

/* A function definition: its body's `{`, where the mark goes, and whether
 * it is host-only. */
typedef struct fn_def {
    size_t body;
    size_t mark_at; /* token the mark goes before */
    bool host;
} fn_def;

/* Tokens after a definition's parameter list, up to its body: qualifiers,
 * noexcept, attributes, a trailing return type, a constructor's member
 * initialisers. The body's `{`, or 0 when the tail is anything else. */
static size_t function_tail(const rw *r, size_t t, size_t limit)
{
    while (t < r->ntoks) {
        if (is_punct(r, t, '{'))
            return t;
        if (tok_is(r, t, "const") || tok_is(r, t, "volatile") || tok_is(r, t, "override") ||
            tok_is(r, t, "final") || is_punct(r, t, '&')) {
            t++;
        } else if (tok_is(r, t, "noexcept") || tok_is(r, t, "throw") || tok_is(r, t, "__attribute__")) {
            t++;
            if (is_punct(r, t, '(')) {
                if (!matched(r, t))
                    return 0;
                t = matched(r, t) + 1;
            }
        } else if (is_punct(r, t, '[') && is_punct(r, t + 1, '[') && matched(r, t)) {
            t = matched(r, t) + 1;
        } else if (tok_is(r, t, "->")) {
            for (t++; t < limit && !is_punct(r, t, '{'); t++) {
                if (is_punct(r, t, '(') && matched(r, t))
                    t = matched(r, t);
                else if (!(is_ident(r, t) || tok_is(r, t, "::") || is_punct(r, t, '<') || is_punct(r, t, '>') ||
                           is_punct(r, t, '*') || is_punct(r, t, '&') || is_punct(r, t, ',') ||
                           r->toks[t].kind == TK_NUMBER))
                    return 0;
                else if (tok_is(r, t, "override") || tok_is(r, t, "final"))
                    break;
            }
        } else if (is_punct(r, t, ':')) {
            /* member initialisers: name(...) or name{...}, by commas */
            for (t++;;) {
                while (is_ident(r, t) || tok_is(r, t, "::"))
                    t++;
                if (is_punct(r, t, '<')) {
                    size_t close = angle_close(r, t, r->ntoks);
                    if (!close)
                        return 0;
                    t = close + 1;
                }
                if (!(is_punct(r, t, '(') || is_punct(r, t, '{')) || !matched(r, t))
                    return 0;
                t = matched(r, t) + 1;
                if (is_punct(r, t, '.') && is_punct(r, t + 1, '.') && is_punct(r, t + 2, '.'))
                    t += 3;
                if (is_punct(r, t, '{'))
                    return t;
                if (!is_punct(r, t, ','))
                    return 0;
                t++;
            }
        } else {
            return 0;
        }
    }
    return 0;
}

/* Parses [s, brace) (brace: the first `{` at the declaration's level) as
 * the head of a function definition. Returns false when it is not one or
 * the rewriter cannot tell; class_name is the enclosing class's name token
 * (0: none), for constructors. */
static bool parse_function(const rw *r, size_t s, size_t brace, size_t class_name, fn_def *out)
{
    const size_t p = after_template_heads(r, s, brace);
    if (p == NO_TOKEN || p >= brace)
        return false;
    size_t mark_at = p;
    if (tok_is(r, mark_at, "extern") && r->toks[mark_at + 1].kind == TK_STRING)
        mark_at += 2;
    while (is_punct(r, mark_at, '[') && is_punct(r, mark_at + 1, '[') && matched(r, mark_at))
        mark_at = matched(r, mark_at) + 1;
    /* the parameter list: the first `(` after a name */
    size_t lparen = 0, name = 0;
    for (size_t j = p; j < brace && !lparen; j++) {
        if (is_punct(r, j, '[')) {
            if (!matched(r, j))
                return false;
            j = matched(r, j);
        } else if (tok_is(r, j, "operator")) {
            name = j;
            size_t k = j + 1;
            if (is_punct(r, k, '(') && matched(r, k) == k + 1)
                k += 2;
            while (k < brace && !is_punct(r, k, '('))
                k++;
            lparen = k;
        } else if (is_punct(r, j, '(')) {
            if (j > p && is_attribute_word(r, j - 1) && matched(r, j)) {
                j = matched(r, j);
                continue;
            }
            name = j - 1;
            if (j > p + 1 && is_punct(r, j - 1, '>')) { /* a specialisation's name: f<int>( */
                int depth = 0;
                for (name = j - 1; name > p; name--) {
                    if (is_punct(r, name, '>'))
                        depth++;
                    else if (is_punct(r, name, '<') && --depth == 0)
                        break;
                }
                if (depth != 0 || name == p)
                    return false;
                name--;
            }
            if (j == p || !is_ident(r, name))
                return false;
            lparen = j;
        } else if (is_punct(r, j, '=') || is_punct(r, j, ';') || is_punct(r, j, '}')) {
            return false;
        }
    }
    if (!lparen || lparen >= brace || !matched(r, lparen))
        return false;
    const size_t body = function_tail(r, matched(r, lparen) + 1, brace);
    if (!body || !matched(r, body))
        return false;
    /* the name's start: back over `~`, `S::` and `S<T>::` */
    size_t ns = name;
    bool qualified = false;
    for (;;) {
        if (ns > p && is_punct(r, ns - 1, '~')) {
            ns--;
            qualified = true;
        } else if (ns > p && tok_is(r, ns - 1, "::")) {
            ns--;
            qualified = true;
            if (ns > p && is_punct(r, ns - 1, '>')) {
                int depth = 0;
                size_t k = ns - 1;
                for (; k > p; k--) {
                    if (is_punct(r, k, '>'))
                        depth++;
                    else if (is_punct(r, k, '<') && --depth == 0)
                        break;
                }
                if (depth != 0)
                    return false;
                ns = k;
            }
            if (ns > p && is_ident(r, ns - 1))
                ns--;
            else
                break;
        } else {
            break;
        }
    }
    /* no return type: a constructor, destructor or conversion, or a macro */
    if (ns == p && !qualified && !tok_is(r, name, "operator") &&
        !(class_name && tok_len(r, name) == tok_len(r, class_name) &&
          memcmp(tok_text(r, name), tok_text(r, class_name), tok_len(r, name)) == 0))
        return false;
    bool host = true;
    for (size_t j = p; j < ns && host; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[')) && matched(r, j))
            j = matched(r, j); /* an attribute's or decltype's argument */
        else if (is_ident(r, j))
            host = host_specifier(r, j);
    }
    if (host && is_ident(r, name) && has_name(r, tok_text(r, name), tok_len(r, name), NAME_DEVICE_FN))
        host = false; /* also declared __device__: __host__ __device__ to nvcc */
    *out = (fn_def){body, mark_at, host};
    return true;
}

/* ======================================================================
 * lambdas
 * ====================================================================== */

/* Could a `[` after token `prev` open a lambda (not subscript, attribute,
 * structured binding, delete[])? */
static bool lambda_context(const rw *r, size_t prev)
{
    if (tok_is(r, prev, "return"))
        return true;
    if (r->toks[prev].kind != TK_PUNCT || tok_len(r, prev) != 1)
        return false;
    return strchr("(,={};?:!", tok_text(r, prev)[0]) != NULL;
}

/* Lambda specifiers after the parameters that keep it host-only; the
 * body's `{`, or 0 (another word: constexpr, a qualifier, unknown). */
static size_t lambda_tail(const rw *r, size_t t, size_t limit)
{
    while (t < limit) {
        if (is_punct(r, t, '{'))
            return t;
        if (tok_is(r, t, "mutable")) {
            t++;
        } else if (tok_is(r, t, "noexcept") || tok_is(r, t, "__attribute__")) {
            t++;
            if (is_punct(r, t, '(')) {
                if (!matched(r, t))
                    return 0;
                t = matched(r, t) + 1;
            }
        } else if (tok_is(r, t, "->")) {
            for (t++; t < limit && !is_punct(r, t, '{'); t++) {
                if (is_punct(r, t, '(') && matched(r, t))
                    t = matched(r, t);
                else if (!(is_ident(r, t) || tok_is(r, t, "::") || is_punct(r, t, '<') || is_punct(r, t, '>') ||
                           is_punct(r, t, '*') || is_punct(r, t, '&') || is_punct(r, t, ',') ||
                           r->toks[t].kind == TK_NUMBER) ||
                         tok_is(r, t, "constexpr") || tok_is(r, t, "consteval"))
                    return 0;
            }
        } else {
            return 0;
        }
    }
    return 0;
}

/* A lambda whose body the pass must not enter (a __device__ one, or one it
 * does not understand): the end of its body, or 0 when [open is no lambda. */
static size_t foreign_lambda_end(const rw *r, size_t after, size_t limit)
{
    for (size_t t = after; t < limit && t < after + 64; t++) {
        if (is_punct(r, t, '{'))
            return matched(r, t);
        if ((is_punct(r, t, '(') || is_punct(r, t, '[') || is_punct(r, t, '<')) && matched(r, t))
            t = matched(r, t);
        else if (!(is_ident(r, t) || tok_is(r, t, "->") || tok_is(r, t, "::") || is_punct(r, t, '(') ||
                   is_punct(r, t, '<') || is_punct(r, t, '>') || is_punct(r, t, '*') || is_punct(r, t, '&')))
            return 0;
    }
    return 0;
}

/* Tokens [from, to) of host code: a function body or an initialiser. Marks
 * the lambdas there that are host code too. */
static void walk_host_code(hostfn *h, size_t from, size_t to)
{
    const rw *r = h->r;
    for (size_t i = from; i < to && !h->oom; i++) {
        if (!is_punct(r, i, '[') || is_punct(r, i + 1, '[') || i == 0 || !lambda_context(r, i - 1))
            continue;
        const size_t close = matched(r, i);
        if (!close || close + 1 >= to)
            continue;
        const size_t q = close + 1;
        if (is_punct(r, q, '{') && matched(r, q)) {
            add_mark(h, r->toks[close].end, "() " HOST_FN);
            add_span(h, q, matched(r, q), true);
            i = q;
            continue;
        }
        if (is_punct(r, q, '(') && matched(r, q)) {
            const size_t rp = matched(r, q), body = lambda_tail(r, rp + 1, to);
            if (body && matched(r, body)) {
                add_mark(h, r->toks[rp].end, " " HOST_FN);
                add_span(h, body, matched(r, body), true);
                i = body;
                continue;
            }
        }
        const size_t end = foreign_lambda_end(r, q, to);
        if (end) {
            add_span(h, q, end, false);
            i = end; /* a __device__ lambda: its own lambdas are device code */
        }
    }
}

/* ======================================================================
 * declarations
 * ====================================================================== */

static void walk_decls(hostfn *h, size_t i, size_t end, size_t class_name);

/* The class name after `struct`/`class`/`union` at k (0: none). */
static size_t class_name_after(const rw *r, size_t k, size_t limit)
{
    for (k++; k < limit; k++) {
        if ((is_attribute_word(r, k) || tok_is(r, k, "__align__")) && is_punct(r, k + 1, '(') && matched(r, k + 1))
            k = matched(r, k + 1);
        else if (is_punct(r, k, '[') && is_punct(r, k + 1, '[') && matched(r, k))
            k = matched(r, k);
        else
            return is_ident(r, k) ? k : 0;
    }
    return 0;
}

/* One declaration from s: returns the token after it. */
static size_t walk_decl(hostfn *h, size_t s, size_t end, size_t class_name)
{
    const rw *r = h->r;
    size_t eq = 0; /* a top-level `=`: an initialiser follows */
    bool unknown = false; /* a `{` that was neither: skip to the `;` */
    for (size_t j = s; j < end; j++) {
        if (tok_is(r, j, "template") && is_punct(r, j + 1, '<')) {
            size_t close = angle_close(r, j + 1, end);
            if (close)
                j = close;
            continue;
        }
        if (tok_is(r, j, "operator")) {
            /* `operator=`, `operator()`, `operator<`: up to its parameters */
            size_t k = j + 1;
            if (is_punct(r, k, '(') && matched(r, k) == k + 1)
                k += 2;
            while (k < end && !is_punct(r, k, '(') && !is_punct(r, k, ';') && !is_punct(r, k, '{'))
                k++;
            j = k - 1;
            continue;
        }
        if ((is_punct(r, j, '(') || is_punct(r, j, '[')) && matched(r, j)) {
            j = matched(r, j);
            continue;
        }
        if (is_punct(r, j, '=') && !eq) {
            eq = j;
            continue;
        }
        if (is_punct(r, j, ';')) {
            bool device = false; /* a __device__ variable's initialiser */
            for (size_t k = s; eq && k < eq && !device; k++)
                device = is_device_word(r, k);
            if (eq && !unknown && !device)
                walk_host_code(h, eq + 1, j);
            return j + 1;
        }
        if (is_punct(r, j, '}'))
            return j + 1; /* stray: an #if branch */
        if (!is_punct(r, j, '{'))
            continue;
        const size_t close = matched(r, j);
        if (!close) {
            h->stop = true;
            return end;
        }
        if (eq || unknown) {
            j = close;
            continue;
        }
        if (tok_is(r, s, "namespace") || (tok_is(r, s, "inline") && tok_is(r, s + 1, "namespace")) ||
            (j == s + 2 && tok_is(r, s, "extern") && r->toks[s + 1].kind == TK_STRING)) {
            walk_decls(h, j + 1, close, 0);
            return close + 1;
        }
        fn_def fn;
        if (parse_function(r, s, j, class_name, &fn)) {
            const size_t body_end = matched(r, fn.body);
            if (fn.host) {
                add_mark(h, r->toks[fn.mark_at].start, HOST_FN " ");
                add_span(h, fn.body, body_end, true);
                walk_host_code(h, fn.body + 1, body_end);
            }
            return body_end + 1;
        }
        const size_t p = after_template_heads(r, s, j);
        size_t key = NO_TOKEN;
        for (size_t k = p; p != NO_TOKEN && k < j && key == NO_TOKEN; k++) {
            if ((is_punct(r, k, '(') || is_punct(r, k, '[')) && matched(r, k))
                k = matched(r, k);
            else if (tok_is(r, k, "struct") || tok_is(r, k, "class") || tok_is(r, k, "union") ||
                     tok_is(r, k, "enum"))
                key = k;
        }
        if (key != NO_TOKEN && !tok_is(r, key, "enum"))
            walk_decls(h, j + 1, close, class_name_after(r, key, j));
        else if (key == NO_TOKEN && j > s && is_punct(r, j - 1, ')'))
            return close + 1; /* a body after `(...)` not understood (a macro's, TEST(x) {}): it ends here */
        else if (key == NO_TOKEN)
            unknown = true;
        j = close; /* the declarators after a class body, up to the `;` */
    }
    return end;
}

/* The declarations in [i, end): a file, a namespace or a class body
 * (class_name: its name token, 0 for a namespace or an unnamed class). */
static void walk_decls(hostfn *h, size_t i, size_t end, size_t class_name)
{
    const rw *r = h->r;
    while (i < end && !h->stop && !h->oom) {
        if (is_punct(r, i, ';')) {
            i++;
        } else if ((tok_is(r, i, "public") || tok_is(r, i, "private") || tok_is(r, i, "protected")) &&
                   is_punct(r, i + 1, ':')) {
            i += 2;
        } else {
            i = walk_decl(h, i, end, class_name);
        }
    }
}

/* After every other edit of the file: marks each host-only definition. */
int mark_host_functions(rw *r)
{
    if (note_device_functions(r) != 0) /* again: with the macros of the headers put in since */
        return -1;
    hostfn h = {r, NULL, 0, 0, false, false};
    walk_decls(&h, 0, r->ntoks, 0);
    if (h.oom) {
        free(h.marks);
        return fail_oom(r);
    }
    if (r->nedits > 0)
        qsort(r->edits, r->nedits, sizeof(edit), edit_start_order);
    const size_t before = r->nedits;
    int rc = 0;
    for (size_t k = 0; k < h.nmarks && rc == 0; k++)
        if (!inside_edit(r, before, h.marks[k].pos))
            rc = add_edit_str(r, h.marks[k].pos, h.marks[k].pos, h.marks[k].text);
    free(h.marks);
    return rc;
}
