/* simtlab source rewriter: __shared__ declarations (the whole is
 * described in tools/rewriter/rewrite.c, the rewriting rules in tools/rewriter/rewrite.h). A declaration
 * statement is taken apart into its declarators, each checked and written
 * back as the emulator's shared_var or dynamic_shared, on the statement's
 * own lines.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================
 * __shared__ declarations
 * ====================================================================== */

/* One declaration statement, taken apart. Token index lists point into
 * r->toks; `kept` is the statement without __shared__, static, extern,
 * __device__, alignment and attributes. */
typedef struct shared_decl {
    size_t first, semi; /* first token of the statement, its `;` */
    size_t last;        /* the last token replaced: the `;`, or in a #define
                           body without one, the body's last token */
    bool is_extern;
    size_t *kept;
    size_t nkept;
    size_t base_len; /* kept[0 .. base_len) is the type all declarators share */
    char type_name[96]; /* when set: the type instead (a struct or union defined in the statement) */
} shared_decl;

/* One declarator: kept[ptr_from .. name) are its own `*`/`&`/cv,
 * kept[name .. name_last] the variable (one token, or in a #define body
 * pieces joined by `##`), kept[name_last+1 .. end) its [dims]. */
typedef struct declarator {
    size_t ptr_from, name, name_last, end;
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

/* The `;` that ends the statement; fails on a brace or end of file. In a
 * #define body the end of the body may end it instead (`#define
 * DECL(T, n) extern __shared__ T n[]`, used as `DECL(float, s);`): then
 * *semi is r->ntoks. */
static int statement_end(rw *r, size_t shared, size_t *semi)
{
    size_t j = shared + 1;
    for (; j < r->ntoks; j++) {
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
    if (j == r->ntoks && r->in_macro) {
        *semi = r->ntoks;
        return 0;
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

/* Tokens a and b are the `##` of a #define body. */
static bool is_paste(const rw *r, size_t a, size_t b)
{
    return b == a + 1 && is_punct(r, a, '#') && is_punct(r, b, '#') && adjacent(r, a);
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
    size_t name_last = 0;
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
                 !tok_is(r, t, "volatile") && !tok_is(r, t, "__restrict__")) {
            name = (long)k;
            /* In a #define body: `n ## _s`, pieces of one name. */
            while (r->in_macro && k + 3 < end && is_paste(r, d->kept[k + 1], d->kept[k + 2]) &&
                   (is_ident(r, d->kept[k + 3]) || r->toks[d->kept[k + 3]].kind == TK_NUMBER))
                k += 3;
            name_last = k;
        }
    }
    if (name < 0)
        return fail_at(r, d->kept[from < d->nkept ? from : d->nkept - 1],
                       "cannot find the variable name in this __shared__ declaration");
    for (size_t m = name_last + 1; m < k; m++)
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
    *out = (declarator){from, (size_t)name, name_last, end};
    return 0;
}

static bool is_empty_dim(const rw *r, const shared_decl *d, size_t k)
{
    return k + 1 < d->nkept && is_punct(r, d->kept[k], '[') && is_punct(r, d->kept[k + 1], ']');
}

/* The type of one declarator: the shared base plus its own `*`s. */
static void put_type(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    if (d->type_name[0])
        sb_puts(sb, d->type_name);
    else
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
    size_t from = x->name_last + 1;
    if (skip_first)
        from += 2;
    if (x->end > from)
        put_token_list(r, sb, d->kept + from, x->end - from);
}

static void put_name(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    put_token_list(r, sb, d->kept + x->name, x->name_last - x->name + 1);
}

/* Function scope: a reference to the block's object, or a pointer to the
 * dynamic shared memory. */
static void put_local(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    bool dims = x->end > x->name_last + 1;
    if (d->is_extern) {
        /* check_dims made the first dimension `[]`: two tokens. */
        bool more = x->end > x->name_last + 3;
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
    /* At the top of a #define body the macro is taken to be used in a
     * function; a capture-default makes a use at file scope a compile error
     * ("non-local lambda expression cannot have a capture-default") instead
     * of a lookup outside any block when the program starts. */
    sb_puts(sb, r->in_macro && r->nscopes == 1 ? ">([&]{});" : ">([]{});");
}

/* File scope: an accessor function; its #define comes separately. */
static void put_accessor(const rw *r, strbuf *sb, const shared_decl *d, const declarator *x)
{
    sb_puts(sb, "static inline auto ");
    sb_puts(sb, d->is_extern ? "" : "&");
    sb_puts(sb, "simtlab_emu_shared_");
    put_name(r, sb, d, x);
    sb_puts(sb, "() { return ");
    bool more = x->end > x->name_last + 3;
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
    size_t name_tok = d->kept[x->name_last];
    bool dims = x->end > x->name_last + 1;
    if (d->is_extern && !(dims && is_empty_dim(r, d, x->name_last + 1)))
        return fail_tok(r, name_tok,
                        "extern __shared__ '%.*s' must be an unsized array, e.g. "
                        "'extern __shared__ float name[];'");
    for (size_t k = x->name_last + 1; k < x->end; k++) {
        bool first_of_extern = d->is_extern && k == x->name_last + 1;
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
    if (d->base_len == 0 && !d->type_name[0])
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
    const token *semi = &r->toks[d->last];
    if (d->semi == r->ntoks && text->len > 0 && text->data[text->len - 1] == ';')
        text->data[--text->len] = '\0'; /* the macro's user writes the `;` */
    if (r->in_macro) {
        /* The body's lines stay lines of the #define: each newline of the
         * statement was a backslash-newline. */
        for (size_t n = count_newlines(r, r->toks[d->first].start, semi->end); n > 0; n--)
            sb_puts(text, " \\\n");
    } else if (file_scope) {
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

/* `__shared__ union { typename A::TempStorage a; ... } temp;` (how CUB's
 * examples share one TempStorage), or a struct, named or not, defined in the
 * declaration, inside a function: the definition stays where it is, named
 * if it had no name and without the __shared__, and the variables after
 * its `}` become the usual shared lookups of that type. The `struct` or
 * `union` token, or 0 when the statement is not of this form. */
static size_t aggregate_in_decl(const rw *r, size_t i)
{
    size_t j = i + 1;
    while (j < r->ntoks && (is_storage_word(r, j) || is_alignment_word(r, j))) {
        if (is_alignment_word(r, j) && is_punct(r, j + 1, '(') && r->match[j + 1] >= 0)
            j = (size_t)r->match[j + 1];
        j++;
    }
    if (!(tok_is(r, j, "struct") || tok_is(r, j, "union") || tok_is(r, j, "class")))
        return 0;
    size_t open = j + 1;
    if (is_ident(r, open))
        open++;
    return is_punct(r, open, '{') && r->match[open] > (long)open ? j : 0;
}

static int rewrite_shared_aggregate(rw *r, size_t first, size_t kw, size_t *next)
{
    const size_t open = is_ident(r, kw + 1) ? kw + 2 : kw + 1;
    const size_t close = (size_t)r->match[open];
    shared_decl d = {0};
    if (is_ident(r, kw + 1))
        snprintf(d.type_name, sizeof d.type_name, "%.*s", (int)tok_len(r, kw + 1), tok_text(r, kw + 1));
    else
        snprintf(d.type_name, sizeof d.type_name, "simtlab_emu_shared_type_%d_%d", r->toks[kw].line,
                 r->toks[kw].col);
    /* the variables: from after the `}` to the `;` */
    size_t semi = close + 1;
    while (semi < r->ntoks && !is_punct(r, semi, ';')) {
        if (is_punct(r, semi, '{') || is_punct(r, semi, '='))
            return fail_at(r, semi, "cannot rewrite this __shared__ declaration: no initializer after its type");
        if ((is_punct(r, semi, '[') || is_punct(r, semi, '(')) && r->match[semi] > (long)semi)
            semi = (size_t)r->match[semi];
        semi++;
    }
    if (semi >= r->ntoks)
        return fail_at(r, kw, "cannot rewrite this __shared__ declaration: no ';' after its type");
    if (semi == close + 1) { /* `__shared__ struct S { ... };` declares no variable */
        *next = semi + 1;
        return add_edit_str(r, r->toks[first].start, r->toks[kw].start, "");
    }
    d.first = close + 1;
    d.semi = d.last = semi;
    strbuf text = {0}, defines = {0};
    int rc = filter_decl(r, &d);
    if (rc == 0)
        rc = build_decls(r, &d, false, &text, &defines);
    free(d.kept);
    free(defines.data);
    if (rc != 0) {
        free(text.data);
        return -1;
    }
    strbuf after = {0};
    sb_puts(&after, "; ");
    sb_put(&after, text.data ? text.data : "", text.len);
    for (size_t n = count_newlines(r, r->toks[close].end, r->toks[semi].end); n > 0; n--)
        sb_puts(&after, "\n");
    free(text.data);
    *next = semi + 1;
    /* the storage words go; an unnamed type gets its name; the variables follow the `}` */
    if (add_edit_str(r, r->toks[first].start, r->toks[kw].start, "") != 0)
        return -1;
    if (!is_ident(r, kw + 1)) {
        char named[112];
        snprintf(named, sizeof named, " %s", d.type_name);
        if (add_edit_str(r, r->toks[kw].end, r->toks[kw].end, named) != 0)
            return -1;
    }
    return add_edit_sb(r, r->toks[close].end, r->toks[semi].end, &after);
}

/* Rewrites the declaration statement that contains the __shared__ at token
 * i; *next is the token after its `;`. */
int rewrite_shared(rw *r, size_t i, size_t *next)
{
    scope_kind scope = current_scope(r);
    if (scope == SCOPE_CLASS)
        return fail_at(r, i, "__shared__ is not allowed on a class member");
    if (scope == SCOPE_NAMESPACE && r->in_macro)
        return fail_at(r, i,
                       "cannot rewrite a __shared__ declaration at namespace scope inside a "
                       "#define body (declare it outside the macro)");
    shared_decl d = {0};
    d.first = statement_start(r, i);
    const size_t aggregate = r->in_macro ? 0 : aggregate_in_decl(r, i);
    if (aggregate && scope != SCOPE_NAMESPACE)
        return rewrite_shared_aggregate(r, d.first, aggregate, next);
    if (statement_end(r, i, &d.semi) != 0)
        return -1;
    d.last = d.semi < r->ntoks ? d.semi : r->ntoks - 1;
    strbuf text = {0}, defines = {0};
    bool file_scope = scope == SCOPE_NAMESPACE;
    int rc = filter_decl(r, &d);
    if (rc == 0 && d.nkept == 0 && r->in_macro) {
        /* `#define SHARED __shared__`: not a declaration; left as it is. */
        free(d.kept);
        *next = d.semi + 1;
        return 0;
    }
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
 * __shared__ declarations inside #define bodies
 * ====================================================================== */

/* Where the word after the `#` of directive `dir` ends, if it is
 * `define`; else 0. */
static size_t after_define(const rw *r, const directive *dir)
{
    size_t i = dir->start + 1;
    while (i < dir->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (dir->end - i < 6 || memcmp(r->src + i, "define", 6) != 0)
        return 0;
    i += 6;
    return i < dir->end && (r->src[i] == ' ' || r->src[i] == '\t') ? i : 0;
}

static bool bytes_contain(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(s + i, word, w) == 0)
            return true;
    return false;
}

/* Scans the body of the #define whose tokens m holds (the macro's name
 * first): scopes of its braces, __shared__ declarations, launches. The body starts
 * in a function (m->scopes holds one SCOPE_BLOCK): where the macro is used
 * is not known here. */
static int scan_macro_body(rw *m)
{
    size_t body = 1;
    if (m->ntoks > 1 && is_punct(m, 1, '(') && adjacent(m, 0)) /* function-like */
        body = m->match[1] >= 0 ? (size_t)m->match[1] + 1 : m->ntoks;
    if (body >= m->ntoks)
        return 0;
    m->toks[body].after_directive = true; /* statement_start stops here */
    scope_kind *scopes = grow(m->scopes, &m->scopecap, 0, sizeof(scope_kind));
    if (!scopes)
        return fail_oom(m);
    m->scopes = scopes;
    m->scopes[m->nscopes++] = SCOPE_BLOCK;
    for (size_t i = body; i < m->ntoks;) {
        if (is_punct(m, i, '{')) {
            scopes = grow(m->scopes, &m->scopecap, m->nscopes, sizeof(scope_kind));
            if (!scopes)
                return fail_oom(m);
            m->scopes = scopes;
            m->scopes[m->nscopes++] = brace_kind(m, i);
        } else if (is_punct(m, i, '}')) {
            if (m->nscopes > 0)
                m->nscopes--;
        } else if (tok_is(m, i, "__shared__")) {
            if (rewrite_shared(m, i, &i) != 0)
                return -1;
            continue;
        } else if (is_launch_open(m, i)) {
            /* a launch macro (tools/rewriter/rewrite_launch.c; the kernels it may name
             * are the file's: m->file) */
            if (rewrite_launch(m, i) != 0)
                return -1;
            i += 3;
            continue;
        }
        i++;
    }
    return 0;
}

/* One #define: its name and body are tokenized on their own (the file's
 * tokens skip preprocessor lines), and its __shared__ declarations become
 * edits of the file, on the #define's own lines. */
static int rewrite_macro_body(rw *r, const directive *dir, size_t from)
{
    size_t line_start = dir->start;
    while (line_start > 0 && r->src[line_start - 1] != '\n')
        line_start--;
    int line = dir->last_line - (int)count_newlines(r, dir->start, dir->end);
    rw m = {0};
    m.src = r->src;
    m.len = dir->end;
    m.path = r->path;
    m.err = r->err;
    m.errcap = r->errcap;
    m.lex_from = from;
    m.lex_line = line;
    m.lex_line_start = line_start;
    m.in_macro = true;
    m.file = r;
    m.inc = r->inc;
    int rc = lex(&m);
    if (rc == 0)
        rc = match_all(&m);
    if (rc == 0)
        rc = scan_macro_body(&m);
    if (rc == 0) /* where the macro is used is not known: a device function, maybe */
        rc = add_spin_points(&m, 1, m.ntoks);
    for (size_t k = 0; rc == 0 && k < m.nedits; k++)
        rc = add_edit_str(r, m.edits[k].start, m.edits[k].end, m.edit_text.data + m.edits[k].text);
    free(m.toks);
    free(m.match);
    free(m.scopes);
    free(m.edits);
    free(m.edit_text.data);
    return rc;
}

/* Every #define whose body holds `__shared__` (BUILD_SHAREDMEMORY_TYPE in
 * cuda-samples' cudasharedmem.h builds a struct whose member functions
 * declare `extern __shared__ t n[];`), a loop (its spin points,
 * tools/rewriter/rewrite_spin.c) or a kernel launch (`#define LAUNCH(k) k<<<g, b>>>(...)`,
 * tools/rewriter/rewrite_launch.c). */
int rewrite_macro_bodies(rw *r)
{
    for (size_t k = 0; k < r->ndirectives; k++) {
        const directive *dir = &r->directives[k];
        size_t from = after_define(r, dir);
        if (from == 0 || !(bytes_contain(r->src + from, dir->end - from, "__shared__") ||
                           bytes_contain(r->src + from, dir->end - from, "for") ||
                           bytes_contain(r->src + from, dir->end - from, "while") ||
                           bytes_contain(r->src + from, dir->end - from, "goto") ||
                           bytes_contain(r->src + from, dir->end - from, "<<") ||
                           bytes_contain(r->src + from, dir->end - from, "< <")))
            continue;
        if (rewrite_macro_body(r, dir, from) != 0)
            return -1;
    }
    return 0;
}
