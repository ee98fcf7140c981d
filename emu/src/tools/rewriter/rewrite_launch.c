/* simtlab source rewriter — kernel launches: finds `k<<<cfg>>>(args)` (and
 * tells it from `a << <b`, `operator<<` and template argument lists) and
 * rewrites it into a call of ::simtlab_emu::launch, keeping every byte of
 * k, cfg and args where it was. Called from scan() in rewrite.c. */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>

/* ======================================================================
 * kernel launches
 * ====================================================================== */

/* Token i+1 follows token i with only whitespace, comments or line splices
 * between them (`<< <`, `<<\<newline><`), no preprocessor line. */
static bool next_to(const rw *r, size_t i)
{
    return i + 1 < r->ntoks && !r->toks[i + 1].after_directive;
}

/* Three `<` in a row, not `operator<<` followed by a template argument
 * list. Spaces between them are allowed (`<< <` is a launch to nvcc too):
 * `<` never starts an expression, so three in a row mean nothing else. */
bool is_launch_open(const rw *r, size_t i)
{
    if (!(is_punct(r, i, '<') && next_to(r, i) && is_punct(r, i + 1, '<') && next_to(r, i + 1) &&
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
    return tok_is_one_of(r, i, words, sizeof words / sizeof words[0]);
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
        /* In a #define, `name##_kernel` pastes one name: keep going left. */
        if (r->in_macro && j >= 3 && is_punct(r, (size_t)j - 1, '#') && is_punct(r, (size_t)j - 2, '#') &&
            adjacent(r, (size_t)j - 2) && is_ident(r, (size_t)j - 3)) {
            j -= 3;
            continue;
        }
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
 * the last three of the first run of at least three `>` outside brackets
 * (`<<<g, A<B<int>>>>>` ends with the final three; `>> >` is a run of three,
 * `(n + 31) >> 5` a run of two). */
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
            while (next_to(r, j + run - 1) && is_punct(r, j + run, '>'))
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

/* Replaces the three `<` or `>` tokens from `first` on with `text` and
 * nothing, one token at a time: what lies between them (spaces, a line
 * splice) stays, so every line keeps its number. Written `<<<` (nothing
 * between them) they are one edit. */
static int replace_chevrons(rw *r, size_t first, const char *text)
{
    if (adjacent(r, first) && adjacent(r, first + 1))
        return add_edit_str(r, r->toks[first].start, r->toks[first + 2].end, text);
    if (add_edit_str(r, r->toks[first].start, r->toks[first].end, text) != 0)
        return -1;
    for (size_t k = first + 1; k < first + 3; k++)
        if (add_edit_str(r, r->toks[k].start, r->toks[k].end, "") != 0)
            return -1;
    return 0;
}

/* In a function-like #define's body (tools/rewriter/rewrite_shared.c), is token `tok` one
 * of the macro's parameters (or __VA_ARGS__)? The body's tokens start with
 * the macro's name and, right after it, its parameter list. */
static bool is_macro_parameter(const rw *r, size_t tok)
{
    if (!r->in_macro || !is_ident(r, tok) || r->ntoks < 2 || !is_punct(r, 1, '(') || !adjacent(r, 0) ||
        r->match[1] < 0)
        return false;
    if (tok_is(r, tok, "__VA_ARGS__"))
        return true;
    for (size_t j = 2; j < (size_t)r->match[1]; j++)
        if (is_ident(r, j) && same_text(r, j, tok))
            return true;
    return false;
}

/* k<<<cfg>>>(args) -> ::simtlab_emu::launch("k", __FILE__, __LINE__, k, cfg)(args)
 * as edits (an insertion before k, `<<<` -> ", ", `>>>` -> ")") so that k,
 * cfg and args keep their bytes and their newlines. A kernel that shares
 * its name with a host function becomes `static_cast<void (*)(params)>(k)`,
 * its own pointer type (tools/rewriter/rewrite_kernels.c). */
int rewrite_launch(rw *r, size_t open)
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

    /* In a #define, a kernel that is the macro's parameter
     * (`#define LAUNCH(k, ...) k<<<g, b>>>(__VA_ARGS__)`) is not known
     * here: where the file has kernel templates or overloads it may be one,
     * and a generic lambda (below) serves all kinds; it copies what it
     * names, in case that is a local variable holding a kernel's address. */
    const bool parameter = first == (long)open - 1 && is_macro_parameter(r, (size_t)first);
    const bool capture = parameter && file_has_generic_kernels(r);
    /* A function template named without its arguments, or with fewer than
     * it needs: a generic lambda calls it, so that the call deduces them
     * (launch.hpp, launch_deduced). */
    bool deduced = capture || (!parameter && (names_template_kernel(r, (size_t)first, open - 1) ||
                                              names_partly_deduced_kernel(r, (size_t)first, open - 1)));
    const kernel_decl *k = deduced || parameter ? NULL : overloaded_kernel(r, (size_t)first, open - 1);
    if (!k && !deduced && !parameter)
        k = kernel_by_arity(r, (size_t)first, open - 1, args, (size_t)r->match[args]);
    /* Overloads that neither of those tells apart: the same lambda, and
     * C++ picks by the arguments' types. */
    if (!k && !deduced && !parameter)
        deduced = names_overloaded_kernel(r, (size_t)first, open - 1, args, (size_t)r->match[args]);
    /* A kernel of the file named by itself: each CUDA thread calls it
     * directly (launch.hpp, launch_known). */
    const bool known = !deduced && !k && !parameter && known_kernel_launch(r, (size_t)first, open - 1);
    strbuf head = {0};
    strbuf name = {0};
    put_tokens(r, &name, (size_t)first, open - 1);
    if (parameter) {
        /* the argument's own text, by the preprocessor's # */
        sb_puts(&head, deduced ? "::simtlab_emu::launch_deduced(#" : "::simtlab_emu::launch(#");
        sb_put(&head, name.data ? name.data : "", name.len);
    } else if (known) {
        sb_puts(&head, "::simtlab_emu::launch_known<decltype(&");
        sb_put(&head, name.data ? name.data : "", name.len);
        sb_puts(&head, "), &");
        sb_put(&head, name.data ? name.data : "", name.len);
        sb_puts(&head, ">(\"");
    } else {
        sb_puts(&head, deduced ? "::simtlab_emu::launch_deduced(\"" : "::simtlab_emu::launch(\"");
    }
    if (!parameter) {
        sb_put_escaped(&head, name.data ? name.data : "", name.len);
        sb_puts(&head, "\"");
    }
    head.oom |= name.oom;
    free(name.data);
    sb_puts(&head, ", __FILE__, __LINE__, ");
    if (deduced)
        sb_puts(&head, capture ? "[=](auto &&...simtlab_emu_a) { " : "[](auto &&...simtlab_emu_a) { ");
    if (k) {
        sb_puts(&head, "static_cast<");
        put_kernel_pointer_type(kernel_table(r), &head, k);
        sb_puts(&head, ">(");
    }
    if (add_edit_sb(r, r->toks[first].start, r->toks[first].start, &head) != 0)
        return -1;
    if (k && add_edit_str(r, r->toks[open - 1].end, r->toks[open - 1].end, ")") != 0)
        return -1;
    if (deduced && add_edit_str(r, r->toks[open - 1].end, r->toks[open - 1].end,
                                "(static_cast<decltype(simtlab_emu_a) &&>(simtlab_emu_a)...); }") != 0)
        return -1;
    if (!deduced && !parameter && append_default_args(r, (size_t)first, open - 1, args, (size_t)r->match[args]) != 0)
        return -1;
    if (replace_chevrons(r, open, ", ") != 0)
        return -1;
    return replace_chevrons(r, close, ")");
}
