/* simtlab source rewriter — __global__ functions (the whole is described in
 * tools/rewriter/rewrite.c). A pass before scan() finds every kernel declared at namespace
 * scope and every other function name declared there, and
 *   - puts a check at the top of each kernel's body, so that a kernel
 *     called like a host function (without <<<>>>) is reported as that,
 *     does not run, and leaves an error (engine.hpp: host_call_of_kernel);
 *   - lets tools/rewriter/rewrite_launch.c pick the kernel among functions of the same
 *     name: `foo<<<g, b>>>(x)` where a host function foo also exists gets
 *     the kernel by a cast to its own pointer type (put_kernel_expr).
 * Both only add text on the line where the kernel or the launch is.
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words followed by a parenthesised argument that is not a parameter list. */
static bool is_attribute_word(const rw *r, size_t i)
{
    static const char *const words[] = {"__launch_bounds__", "__attribute__", "__declspec", "alignas",
                                        "__align__",        "decltype",      "__maxnreg__", "__cluster_dims__",
                                        "noexcept",         "throw",         "sizeof",      "alignof",
                                        "static_assert",    "operator",      "__asm__",     "asm"};
    return tok_is_one_of(r, i, words, sizeof words / sizeof words[0]);
}

/* Parameters outside nested brackets: `(int a, T<x, y> b)` has 2; `()` and
 * `(void)` have 0. */
static size_t param_count(const rw *r, size_t lparen, size_t rparen)
{
    if (rparen == lparen + 1 || (rparen == lparen + 2 && tok_is(r, lparen + 1, "void")))
        return 0;
    size_t n = 1;
    int angle = 0;
    for (size_t j = lparen + 1; j < rparen; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j)
            j = (size_t)r->match[j];
        else if (is_punct(r, j, '<'))
            angle++;
        else if (is_punct(r, j, '>') && angle > 0)
            angle--;
        else if (is_punct(r, j, ',') && angle == 0)
            n++;
    }
    return n;
}

/* Is a `template` among the specifiers before the __global__ at g? The
 * token after it (its `<`), or 0 when there is none. */
static size_t after_template_head(const rw *r, size_t g)
{
    for (size_t k = g; k-- > 0;) {
        if (is_punct(r, k, ';') || is_punct(r, k, '{') || is_punct(r, k, '}'))
            return 0;
        if (tok_is(r, k, "template"))
            return k + 1;
    }
    return 0;
}

/* Words that end a parameter's type, never its name. */
static bool is_type_word(const rw *r, size_t i)
{
    static const char *const type_words[] = {"int",      "char",   "short", "long",     "float",   "double",
                                             "unsigned", "signed", "bool",  "void",     "auto",    "const",
                                             "volatile", "__half", "half",  "__restrict__", "size_t", "wchar_t"};
    return tok_is_one_of(r, i, type_words, sizeof type_words / sizeof type_words[0]);
}

/* The tokens of one parameter [from, to) that spell its type: without its
 * default argument and without its name (a last identifier that is not a
 * type's word), so that `int *a` and `int *` compare equal. */
static size_t param_type_end(const rw *r, size_t from, size_t to)
{
    for (size_t j = from; j < to; j++)
        if (is_punct(r, j, '='))
            to = j;
    if (to > from + 1 && is_ident(r, to - 1) && !tok_is(r, to - 2, "::") && !is_type_word(r, to - 1))
        to--;
    return to;
}

/* The next token of a parameter's type at or after *j (before `end`) that
 * tells types apart, or `end`: qualifiers a prototype and its definition
 * may spell differently are skipped (`const` at the top level, restrict),
 * `int` after `unsigned`, `signed`, `short` or `long` is implied, and an
 * array parameter's `[...]` is the pointer it is. Sets *pointer for `[`. */
static size_t next_type_token(const rw *r, size_t *j, size_t end, bool *pointer)
{
    static const char *const skipped[] = {"const", "volatile", "__restrict__", "__restrict", "restrict", "register"};
    static const char *const sized[] = {"unsigned", "signed", "short", "long"};
    *pointer = false;
    for (; *j < end; ++*j) {
        if (tok_is_one_of(r, *j, skipped, sizeof skipped / sizeof skipped[0]))
            continue;
        if (tok_is(r, *j, "int") && *j > 0 && tok_is_one_of(r, *j - 1, sized, sizeof sized / sizeof sized[0]))
            continue;
        if (is_ident(r, *j) && *j + 1 < end && is_punct(r, *j + 1, '[') && !is_type_word(r, *j))
            continue; /* an array parameter's name */
        if (is_punct(r, *j, '[')) {
            *pointer = true;
            if (r->match[*j] > (long)*j)
                *j = (size_t)r->match[*j];
        }
        return (*j)++;
    }
    return end;
}

/* Do two parameters, tokens [a, ae) and [b, be), spell the same type? */
static bool same_param_type(const rw *r, size_t a, size_t ae, size_t b, size_t be)
{
    for (;;) {
        bool pa, pb;
        const size_t ta = next_type_token(r, &a, ae, &pa), tb = next_type_token(r, &b, be, &pb);
        if (ta == ae || tb == be)
            return ta == ae && tb == be;
        if (pa || pb ? !((pa || is_punct(r, ta, '*')) && (pb || is_punct(r, tb, '*'))) : !same_text(r, ta, tb))
            return false;
    }
}

/* The `,` or `)` that ends the parameter starting at token j. */
static size_t param_end(const rw *r, size_t j, size_t rparen)
{
    int angle = 0;
    for (; j < rparen && !(angle == 0 && is_punct(r, j, ',')); j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[')) && r->match[j] > (long)j)
            j = (size_t)r->match[j];
        else if (is_punct(r, j, '<'))
            angle++;
        else if (is_punct(r, j, '>') && angle > 0)
            angle--;
    }
    return j;
}

/* Do two parameter lists spell the same types, one parameter after the
 * other (a prototype and its definition), rather than an overload's? */
static bool same_signature(const rw *r, const kernel_decl *a, const kernel_decl *b)
{
    size_t i = a->lparen + 1, j = b->lparen + 1;
    while (i < a->rparen && j < b->rparen) {
        const size_t ie = param_end(r, i, a->rparen), je = param_end(r, j, b->rparen);
        if (!same_param_type(r, i, param_type_end(r, i, ie), j, param_type_end(r, j, je)))
            return false;
        i = ie + 1;
        j = je + 1;
    }
    return true;
}

/* The kind under which a header's overloaded kernels are noted in the
 * translation unit's shared names (tools/rewriter/rewrite_hostfn.c's name_set). */
#define OVERLOADED_KERNEL 'O'

static int record_kernel(rw *r, const kernel_decl *k)
{
    if (!k->is_template && r->inc &&
        include_note_kernel_arity(r->inc, tok_text(r, k->name), tok_len(r, k->name),
                                  param_count(r, k->lparen, k->rparen)) != 0)
        return fail_oom(r);
    for (size_t i = 0; i < r->nkernels; i++) {
        kernel_decl *seen = &r->kernels[i];
        if (!same_text(r, seen->name, k->name))
            continue;
        if (param_count(r, seen->lparen, seen->rparen) != param_count(r, k->lparen, k->rparen) ||
            seen->is_template != k->is_template || (!k->is_template && !same_signature(r, seen, k))) {
            seen->ambiguous = true;
            /* known to the files that include this one (names_overloaded_kernel) */
            if (r->inc && name_set_add(include_hostfn_names(r->inc), tok_text(r, k->name), tok_len(r, k->name),
                                       OVERLOADED_KERNEL) != 0)
                return fail_oom(r);
            continue; /* an overload: kept too */
        }
        return 0; /* a prototype and its definition: the first one speaks for both */
    }
    bool overload = false;
    for (size_t i = 0; i < r->nkernels && !overload; i++)
        overload = same_text(r, r->kernels[i].name, k->name);
    if (k->is_template && r->inc && include_note_template_kernel(r->inc, tok_text(r, k->name), tok_len(r, k->name)))
        return fail_oom(r);
    kernel_decl *grown = grow(r->kernels, &r->kernelcap, r->nkernels, sizeof(kernel_decl));
    if (!grown)
        return fail_oom(r);
    r->kernels = grown;
    r->kernels[r->nkernels] = *k;
    r->kernels[r->nkernels++].ambiguous |= overload; /* lookups by name alone still take the first */
    return 0;
}

static int note_defaults(rw *r, const kernel_decl *k);

/* The check at the top of a kernel's body (engine.hpp, host_call_of_kernel). */
static int add_entry_check(rw *r, const kernel_decl *k, size_t brace)
{
    strbuf sb = {0};
    sb_puts(&sb, " if (::simtlab_emu::host_call_of_kernel(\"");
    sb_put_escaped(&sb, tok_text(r, k->name), tok_len(r, k->name));
    sb_puts(&sb, "\", __FILE__, __LINE__)) return;");
    return add_edit_sb(r, r->toks[brace].end, r->toks[brace].end, &sb);
}

/* After a kernel's body, on the line of its `}`: the kernel is known by its
 * address from the start of the program (launch.hpp, note_kernel), so that
 * the forms that pass it as `(void *)k` (cudaLaunchKernel,
 * cudaLaunchCooperativeKernel, graph kernel nodes) can bind its arguments.
 * Templates are noted by the launches and calls that name an instance. */
static int add_registration(rw *r, const kernel_decl *k, size_t brace)
{
    if (r->match[brace] < 0)
        return 0;
    const size_t close = (size_t)r->match[brace];
    strbuf sb = {0};
    sb_puts(&sb, " SIMTLAB_EMU_NOTE_KERNEL(");
    sb_put(&sb, tok_text(r, k->name), tok_len(r, k->name));
    sb_puts(&sb, ", ");
    put_kernel_pointer_type(r, &sb, k);
    sb_puts(&sb, ")");
    return add_edit_sb(r, r->toks[close].end, r->toks[close].end, &sb);
}

/* The declaration whose __global__ is token g: its name is the identifier
 * before the first `(` that is not an attribute's. */
static int parse_kernel(rw *r, size_t g)
{
    size_t j = g + 1;
    for (;; j++) {
        if (j >= r->ntoks || is_punct(r, j, ';') || is_punct(r, j, '{') || is_punct(r, j, '}') ||
            is_punct(r, j, '='))
            return 0; /* not a function declaration we understand: leave it */
        if (is_attribute_word(r, j) && is_punct(r, j + 1, '(') && r->match[j + 1] > (long)j) {
            j = (size_t)r->match[j + 1];
            continue;
        }
        if (is_punct(r, j, '('))
            break;
    }
    if (j == g + 1 || !is_ident(r, j - 1) || r->match[j] < 0)
        return 0;
    const size_t tparams = after_template_head(r, g);
    kernel_decl k = {j - 1, j, (size_t)r->match[j], tparams != 0, false,
                     tparams != 0 && is_punct(r, tparams, '<') ? tparams : 0, 0};
    size_t body = k.rparen + 1;
    while (body < r->ntoks && !is_punct(r, body, '{') && !is_punct(r, body, ';') && !is_punct(r, body, '}')) {
        if ((is_punct(r, body, '(') || is_punct(r, body, '[')) && r->match[body] > (long)body)
            body = (size_t)r->match[body];
        body++;
    }
    if (record_kernel(r, &k) != 0 || note_defaults(r, &k) != 0)
        return -1;
    if (body < r->ntoks && is_punct(r, body, '{'))
        return add_entry_check(r, &k, body) || (k.is_template ? 0 : add_registration(r, &k, body));
    return 0;
}

/* An identifier followed by `(` at namespace scope, in a statement without
 * __global__, after a type: a host (or __device__) function of that name. */
static int note_host_name(rw *r, size_t i)
{
    if (!is_ident(r, i) || !is_punct(r, i + 1, '(') || i == 0 || is_attribute_word(r, i))
        return 0;
    const size_t p = i - 1;
    if (!(is_ident(r, p) || is_punct(r, p, '*') || is_punct(r, p, '&') || is_punct(r, p, '>')) ||
        is_attribute_word(r, p))
        return 0;
    size_t *grown = grow(r->host_names, &r->hostcap, r->nhost, sizeof(size_t));
    if (!grown)
        return fail_oom(r);
    r->host_names = grown;
    r->host_names[r->nhost++] = i;
    return 0;
}

int scan_kernels(rw *r)
{
    scope_kind stack[256];
    size_t depth = 0; /* deeper nesting counts as a block: never namespace scope */
    bool global_in_statement = false;
    for (size_t i = 0; i < r->ntoks; i++) {
        if (is_punct(r, i, '{')) {
            if (depth < sizeof stack / sizeof stack[0])
                stack[depth] = brace_kind(r, i);
            depth++;
            global_in_statement = false;
            continue;
        }
        if (is_punct(r, i, '}') || is_punct(r, i, ';')) {
            if (is_punct(r, i, '}') && depth > 0)
                depth--;
            global_in_statement = false;
            continue;
        }
        const bool file_scope =
            depth == 0 || (depth <= sizeof stack / sizeof stack[0] && stack[depth - 1] == SCOPE_NAMESPACE);
        if (!file_scope)
            continue;
        if (tok_is(r, i, "__global__")) {
            global_in_statement = true;
            if (parse_kernel(r, i) != 0)
                return -1;
        } else if (!global_in_statement && note_host_name(r, i) != 0) {
            return -1;
        }
    }
    return 0;
}

/* ---- the lookups of a launch ---------------------------------------------------
 * A launch is a file's or, in a #define's body, the body's (tools/rewriter/rewrite_shared.c,
 * rewrite_macro_body), which is tokenized apart with `file` pointing at the
 * file's state: the kernels a launch names are the file's (table), and its
 * names are compared as text across the two (same_name). */

static const rw *table(const rw *r) { return r->file ? r->file : r; }

rw *kernel_table(rw *r) { return r->file ? r->file : r; }

/* Token a of `ra` and token b of `rb` spell the same text. */
static bool same_name(const rw *ra, size_t a, const rw *rb, size_t b)
{
    return tok_len(ra, a) == tok_len(rb, b) && memcmp(tok_text(ra, a), tok_text(rb, b), tok_len(ra, a)) == 0;
}

/* The kernel that a launch of the single identifier `name_tok` means when a
 * function that is not a kernel has the same name; NULL when the name
 * alone is unambiguous, or when the rewriter cannot tell (templates,
 * kernels of one name with different parameter counts). */
const kernel_decl *overloaded_kernel(const rw *r, size_t first, size_t last)
{
    if (first != last || !is_ident(r, first))
        return NULL;
    const rw *t = table(r);
    const kernel_decl *k = NULL;
    for (size_t i = 0; i < t->nkernels && !k; i++)
        if (same_name(t, t->kernels[i].name, r, first))
            k = &t->kernels[i];
    if (!k || k->is_template || k->ambiguous)
        return NULL;
    for (size_t i = 0; i < t->nhost; i++)
        if (same_name(t, t->host_names[i], r, first))
            return k;
    return NULL;
}

static size_t arg_count(const rw *r, size_t lparen, size_t rparen);

/* Kernels of one name with different parameter counts (overloads, such as
 * a header's prototype with 7 parameters and a definition with 8, seen
 * through the include context when the header is another file): the one
 * whose count is the launch's argument count, as overload resolution
 * would pick; NULL when none or more than one fits, or for templates. */
const kernel_decl *kernel_by_arity(const rw *r, size_t first, size_t last, size_t lparen, size_t rparen)
{
    if (first != last || !is_ident(r, first))
        return NULL;
    const rw *t = table(r);
    const size_t n = arg_count(r, lparen, rparen);
    const kernel_decl *fit = NULL;
    bool overloaded = false;
    for (size_t i = 0; i < t->nkernels; i++) {
        const kernel_decl *k = &t->kernels[i];
        if (!same_name(t, k->name, r, first))
            continue;
        if (k->is_template)
            return NULL;
        overloaded |= k->ambiguous;
        if (param_count(t, k->lparen, k->rparen) == n) {
            if (fit)
                return NULL;
            fit = k;
        }
    }
    if (fit && r->inc && include_knows_other_arity(r->inc, tok_text(r, first), tok_len(r, first), n))
        overloaded = true; /* a header declares it with another count */
    return overloaded ? fit : NULL;
}

/* Is the launched expression [first, last] one identifier (or `::` and one)
 * that names a kernel template of the file, without template arguments? */
bool names_template_kernel(const rw *r, size_t first, size_t last)
{
    if (first < last && tok_is(r, first, "::"))
        first++;
    if (first != last || !is_ident(r, first))
        return false;
    const rw *t = table(r);
    for (size_t i = 0; i < t->nkernels; i++)
        if (t->kernels[i].is_template && same_name(t, t->kernels[i].name, r, first))
            return true;
    return t->inc && include_knows_template_kernel(t->inc, tok_text(r, first), tok_len(r, first));
}

/* Kernels of the launched name [first, last] (one identifier, or `::` and
 * one) that the count of the arguments between `lparen` and `rparen` does
 * not tell apart: two or more of them take that many parameters, of other
 * types, or a header declares overloads of the name. The launch goes
 * through a generic lambda, as for a template, so that C++'s overload
 * resolution picks the kernel by the arguments' types (`k(Tensor<float, 1>)`
 * beside `k(Tensor<float, 2>)`). A count that fits none of the file's own
 * kernels is left to the compiler's message. */
bool names_overloaded_kernel(rw *r, size_t first, size_t last, size_t lparen, size_t rparen)
{
    if (first < last && tok_is(r, first, "::"))
        first++;
    if (first != last || !is_ident(r, first))
        return false;
    const rw *t = table(r);
    const size_t n = arg_count(r, lparen, rparen);
    size_t fit = 0;
    bool local = false;
    for (size_t i = 0; i < t->nkernels; i++) {
        if (!same_name(t, t->kernels[i].name, r, first))
            continue;
        local = true;
        fit += !t->kernels[i].is_template && param_count(t, t->kernels[i].lparen, t->kernels[i].rparen) == n;
    }
    if (fit >= 2)
        return true;
    /* overloads that a header declares, which this file's table lacks */
    return !local && t->inc &&
           name_set_has(include_hostfn_names(t->inc), tok_text(r, first), tok_len(r, first), OVERLOADED_KERNEL);
}

/* Does the file (or a header it includes) have a kernel template or
 * kernels of one name with different parameters? A launch in a #define
 * whose kernel is the macro's parameter may then name one of them. */
bool file_has_generic_kernels(rw *r)
{
    const rw *t = table(r);
    for (size_t i = 0; i < t->nkernels; i++)
        if (t->kernels[i].is_template || t->kernels[i].ambiguous)
            return true;
    return false;
}

/* Walks the template argument or parameter list whose `<` is token `open`:
 * calls visit(r, index, first token, last token, ctx) for each element at
 * the top level; returns the closing `>`, or 0 when there is none. */
static size_t walk_angle_list(const rw *r, size_t open, void (*visit)(const rw *, size_t, size_t, size_t, void *),
                              void *ctx)
{
    int angle = 0;
    size_t from = open + 1, index = 0;
    for (size_t j = open + 1; j < r->ntoks; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j) {
            j = (size_t)r->match[j];
        } else if (is_punct(r, j, ';') || is_punct(r, j, '{') || is_punct(r, j, '}')) {
            return 0;
        } else if (is_punct(r, j, '<')) {
            angle++;
        } else if (is_punct(r, j, '>') && angle > 0) {
            angle--;
        } else if ((is_punct(r, j, ',') || is_punct(r, j, '>')) && angle == 0) {
            if (j > from || index > 0)
                visit(r, index++, from, j - 1, ctx);
            from = j + 1;
            if (is_punct(r, j, '>'))
                return j;
        }
    }
    return 0;
}

static void count_element(const rw *r, size_t index, size_t first, size_t last, void *ctx)
{
    (void)r, (void)index, (void)first, (void)last;
    (*(size_t *)ctx)++;
}

/* The first template parameter, from index `from` on, that a launch must
 * deduce: one without a default (a pack counts), or SIZE_MAX when none. */
typedef struct {
    size_t from, found;
} needs_deduction;

static void find_deduced(const rw *r, size_t index, size_t first, size_t last, void *ctx)
{
    needs_deduction *n = ctx;
    if (index < n->from || n->found != (size_t)-1)
        return;
    for (size_t j = first; j <= last; j++)
        if (is_punct(r, j, '='))
            return; /* a default */
    n->found = index;
}

/* `k<A>` before `<<<`, where k is a kernel template of this file that has
 * more template parameters without defaults than the launch names: the
 * rest are deduced from the arguments, so the launch goes through a
 * generic lambda (launch_deduced) like a launch of `k` alone. */
bool names_partly_deduced_kernel(const rw *r, size_t first, size_t last)
{
    if (first < last && tok_is(r, first, "::"))
        first++;
    if (first + 1 >= last || !is_ident(r, first) || !is_punct(r, first + 1, '<') || !is_punct(r, last, '>'))
        return false;
    size_t given = 0;
    if (walk_angle_list(r, first + 1, count_element, &given) != last)
        return false;
    const rw *t = table(r);
    for (size_t i = 0; i < t->nkernels; i++) {
        const kernel_decl *k = &t->kernels[i];
        if (!k->is_template || !k->tparams || !same_name(t, k->name, r, first))
            continue;
        needs_deduction n = {given, (size_t)-1};
        if (walk_angle_list(t, k->tparams, find_deduced, &n) != 0 && n.found != (size_t)-1)
            return true;
    }
    return false;
}

/* `void (*)(params)`: the kernel's pointer type, its parameters as written
 * (names are allowed in a type), default arguments left out. */
void put_kernel_pointer_type(const rw *r, strbuf *sb, const kernel_decl *k)
{
    sb_puts(sb, "void (*)(");
    bool skipping = false, any = false;
    int angle = 0;
    for (size_t j = k->lparen + 1; j < k->rparen; j++) {
        const bool top = angle == 0;
        if (is_punct(r, j, '<'))
            angle++;
        else if (is_punct(r, j, '>') && angle > 0)
            angle--;
        if (top && is_punct(r, j, '='))
            skipping = true;
        else if (top && is_punct(r, j, ','))
            skipping = false;
        if (skipping) {
            if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j)
                j = (size_t)r->match[j];
            continue;
        }
        if (any && r->toks[j].start != r->toks[j - 1].end)
            sb_puts(sb, " ");
        sb_put(sb, tok_text(r, j), tok_len(r, j));
        any = true;
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j) {
            put_tokens(r, sb, j + 1, (size_t)r->match[j]);
            j = (size_t)r->match[j];
        }
    }
    sb_puts(sb, ")");
}

/* The non-template kernel of the file that the launched expression [first,
 * last] (one identifier, or `::` and one) names; NULL when there is none or
 * the rewriter cannot tell which (kernels of one name with different
 * parameter counts). */
static const kernel_decl *launched_kernel(const rw *r, size_t first, size_t last)
{
    if (first < last && tok_is(r, first, "::"))
        first++;
    if (first != last || !is_ident(r, first))
        return NULL;
    const rw *t = table(r);
    for (size_t i = 0; i < t->nkernels; i++)
        if (same_name(t, t->kernels[i].name, r, first))
            return t->kernels[i].is_template || t->kernels[i].ambiguous ? NULL : &t->kernels[i];
    return NULL;
}

/* Words after which a name is no declarator (`return k;`, `case k:`). */
static bool is_expression_keyword(const rw *r, size_t i)
{
    static const char *const words[] = {"return", "case",   "else",      "goto",   "throw", "new",
                                        "delete", "sizeof", "co_return", "typeid", "do"};
    return tok_is_one_of(r, i, words, sizeof words / sizeof words[0]);
}

/* Is there, anywhere in the file, a declarator of the name at token `name`
 * that is not a function's: `T *k;`, `void (*k)(int)`, `F k,`, `auto k =`?
 * A variable or parameter with a kernel's name may hide the kernel where
 * it is launched. */
static bool name_declares_variable(const rw *r, size_t name)
{
    for (size_t i = 1; i + 1 < r->ntoks; i++) {
        if (!same_text(r, i, name))
            continue;
        const size_t p = i - 1, n = i + 1;
        const bool after_type = (is_ident(r, p) && !is_expression_keyword(r, p)) || is_punct(r, p, '*') ||
                                is_punct(r, p, '&') || tok_is(r, p, "&&") || is_punct(r, p, '>');
        const bool declarator_end = is_punct(r, n, ',') || is_punct(r, n, ')') || is_punct(r, n, ';') ||
                                    is_punct(r, n, '=') || is_punct(r, n, '[') || is_punct(r, n, '{') ||
                                    is_punct(r, n, ':');
        if (after_type && declarator_end)
            return true;
    }
    return false;
}

/* Can the launch of [first, last] name its kernel at compile time
 * (launch.hpp, launch_known)? It names a non-template kernel of the file
 * without overloads, and no variable or parameter anywhere in the file has
 * that name (where one hides the kernel, `&k` is no constant). */
bool known_kernel_launch(rw *r, size_t first, size_t last)
{
    rw *t = kernel_table(r);
    const kernel_decl *found = launched_kernel(r, first, last); /* NULL for an overloaded one */
    if (!found ||
        (t->inc && include_knows_other_arity(t->inc, tok_text(t, found->name), tok_len(t, found->name),
                                             param_count(t, found->lparen, found->rparen))))
        return false;
    kernel_decl *k = &t->kernels[found - t->kernels];
    if (k->var_named == 0)
        k->var_named = name_declares_variable(t, k->name) ? 1 : -1;
    return k->var_named < 0;
}

/* The `>` that closes a template argument list whose `<` is token `open`
 * (after a name) inside an argument list that ends at `end`, when what
 * follows it reads as a template-id's (`(`, `{`, `::`, `,` or `)`:
 * `Tensor<float, 1>(p)`, `std::pair<int, int>{}`, `A<B, C>::value`); else
 * 0: `a < b, c > d` is two comparisons. */
static size_t template_close(const rw *r, size_t open, size_t end)
{
    if (open == 0 || !is_ident(r, open - 1))
        return 0;
    int depth = 0;
    for (size_t j = open; j < end; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j) {
            j = (size_t)r->match[j];
        } else if (is_punct(r, j, ';') || tok_is(r, j, "&&") || tok_is(r, j, "||")) {
            return 0;
        } else if (is_punct(r, j, '<')) {
            depth++;
        } else if (is_punct(r, j, '>') && --depth == 0) {
            const size_t next = j + 1;
            return next == end || is_punct(r, next, '(') || is_punct(r, next, '{') || tok_is(r, next, "::") ||
                           is_punct(r, next, ',') || is_punct(r, next, ')')
                       ? j
                       : 0;
        }
    }
    return 0;
}

/* Arguments of a call between `lparen` and `rparen`, counted by top-level
 * commas (brackets and template argument lists skipped). */
static size_t arg_count(const rw *r, size_t lparen, size_t rparen)
{
    if (rparen == lparen + 1)
        return 0;
    size_t n = 1;
    for (size_t j = lparen + 1; j < rparen; j++) {
        size_t close;
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j)
            j = (size_t)r->match[j];
        else if (is_punct(r, j, '<') && (close = template_close(r, j, rparen)) != 0)
            j = close;
        else if (is_punct(r, j, ','))
            n++;
    }
    return n;
}

/* The record of a kernel's default arguments: its parameter count, then
 * for each parameter '\x1d' and its default expression as written on one
 * line (nothing when it has none). Returns 1 when some parameter has a
 * default, 0 when none has (or the list is too long to say), -1 when out
 * of memory. */
static int kernel_defaults(const rw *r, const kernel_decl *k, strbuf *out)
{
    if (k->rparen == k->lparen + 1 || (k->rparen == k->lparen + 2 && tok_is(r, k->lparen + 1, "void")))
        return 0;
    size_t defaults[64], ends[64]; /* first token of each default (0: none), its `,` or `)` */
    size_t n = 1;
    int angle = 0;
    defaults[0] = 0;
    bool any = false;
    for (size_t j = k->lparen + 1; j < k->rparen; j++) {
        if ((is_punct(r, j, '(') || is_punct(r, j, '[') || is_punct(r, j, '{')) && r->match[j] > (long)j) {
            j = (size_t)r->match[j];
        } else if (is_punct(r, j, '<')) {
            angle++;
        } else if (is_punct(r, j, '>') && angle > 0) {
            angle--;
        } else if (angle == 0 && is_punct(r, j, '=') && !defaults[n - 1]) {
            defaults[n - 1] = j + 1;
            any = true;
        } else if (angle == 0 && is_punct(r, j, ',')) {
            ends[n - 1] = j;
            if (n == sizeof defaults / sizeof defaults[0])
                return 0;
            defaults[n++] = 0;
        }
    }
    ends[n - 1] = k->rparen;
    if (!any)
        return 0;
    char count[32];
    snprintf(count, sizeof count, "%zu", n);
    sb_puts(out, count);
    for (size_t p = 0; p < n; p++) {
        sb_puts(out, "\x1d");
        if (defaults[p] && defaults[p] < ends[p])
            put_tokens(r, out, defaults[p], ends[p] - 1);
    }
    return out->oom ? -1 : 1;
}

/* Kernels of this file with default arguments, for the files that include
 * it (tools/rewriter/rewrite_include.c). */
static int note_defaults(rw *r, const kernel_decl *k)
{
    if (k->is_template || !r->inc)
        return 0;
    strbuf rec = {0};
    int has = kernel_defaults(r, k, &rec);
    int rc = has < 0 ? fail_oom(r) : 0;
    if (has > 0 && include_note_kernel_defaults(r->inc, tok_text(r, k->name), tok_len(r, k->name), rec.data) != 0)
        rc = fail_oom(r);
    free(rec.data);
    return rc;
}

/* A launch `k<<<...>>>(a, b)` of a kernel declared with default arguments,
 * `__global__ void k(int *a, int b, int *c = NULL)`, passes fewer arguments
 * than k has parameters. The launch goes through k's pointer type, which
 * has no defaults, so the default expressions of the missing parameters are
 * copied, as written in k's first declaration, to the end of the argument
 * list (before `)` at `rparen`, on its line). The kernel is one of this
 * file or of a header it includes (note_defaults). Nothing is added when
 * the counts agree or when a missing parameter has no default (the launch
 * then fails to compile with the count mismatch). */
int append_default_args(rw *r, size_t first, size_t last, size_t lparen, size_t rparen)
{
    strbuf rec = {0};
    const char *record = NULL;
    const rw *t = table(r);
    const kernel_decl *k = launched_kernel(r, first, last);
    if (k) {
        int has = kernel_defaults(t, k, &rec);
        if (has < 0) {
            free(rec.data);
            return fail_oom(r);
        }
        record = has ? rec.data : NULL;
    } else if (t->inc && is_ident(r, last) && (first == last || (first + 1 == last && tok_is(r, first, "::")))) {
        bool local = false; /* a template or ambiguous kernel of this file */
        for (size_t i = 0; i < t->nkernels && !local; i++)
            local = same_name(t, t->kernels[i].name, r, last);
        if (!local)
            record = include_kernel_defaults(t->inc, tok_text(r, last), tok_len(r, last));
    }
    if (!record) {
        free(rec.data);
        return 0;
    }
    const size_t n = strtoul(record, NULL, 10), written = arg_count(r, lparen, rparen);
    strbuf sb = {0};
    bool complete = written < n;
    const char *p = strchr(record, '\x1d');
    for (size_t i = 0; complete && p && i < n; i++) {
        const char *q = p + 1;
        const char *end = q + strcspn(q, "\x1d\n");
        if (i >= written) {
            if (end == q) {
                complete = false; /* a missing parameter without a default */
                break;
            }
            if (i > 0)
                sb_puts(&sb, ", ");
            sb_put(&sb, q, (size_t)(end - q));
        }
        p = *end == '\x1d' ? end : NULL;
    }
    free(rec.data);
    if (!complete) {
        free(sb.data);
        return 0;
    }
    return add_edit_sb(r, r->toks[rparen].start, r->toks[rparen].start, &sb);
}
