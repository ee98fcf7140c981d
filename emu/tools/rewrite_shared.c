/* simtlab source rewriter: __shared__ declarations (the whole is
 * described in rewrite.c, the rewriting rules in rewrite.h). A declaration
 * statement is taken apart into its declarators, each checked and written
 * back as the emulator's shared_var or dynamic_shared, on the statement's
 * own lines.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
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
int rewrite_shared(rw *r, size_t i, size_t *next)
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
