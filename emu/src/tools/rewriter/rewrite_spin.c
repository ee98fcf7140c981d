/* simtlab source rewriter — spin points (the whole is described in
 * tools/rewriter/rewrite.c).
 *
 * The spin watch (emu/docs/execution.md, "How a block runs") lets the other threads
 * of a block run while one spins on a volatile load, and fails a launch
 * whose spin can never end. It needs a call into the emulator on every
 * path that can repeat: a spin is a loop. This pass puts one at the top of
 * every iteration of every loop outside host-only code, and nowhere else:
 *   for (...) { BODY }      ->  for (...) { (void)SIMTLAB_EMU_SPIN_POINT(); BODY }
 *   while (c) { BODY }      ->  while (c) { (void)SIMTLAB_EMU_SPIN_POINT(); BODY }
 *   for (i; c; s) stmt      ->  for (i; SIMTLAB_EMU_SPIN_POINT() || (c); s) stmt
 *                               (for (i; ; s): `; !SIMTLAB_EMU_SPIN_POINT();`)
 *   while (c) stmt, while (c);, the `while (c)` that ends a do loop or a
 *   #define                 ->  while (SIMTLAB_EMU_SPIN_POINT() || (c)) ...
 *   goto L;                 ->  { (void)SIMTLAB_EMU_SPIN_POINT(); goto L; }
 * A braced body takes the point as its first statement; any other body
 * keeps its text, and the condition, evaluated before each iteration as
 * before, calls the point first. No `else` is added (GCC would suggest
 * braces where the loop is an unbraced if's statement), except for a
 * condition that declares a variable (`while (T *x = f()) stmt`), which
 * gets `if (SIMTLAB_EMU_SPIN_POINT()) {} else` before its statement.
 * `do ... while (0)` and `while (false)` are left alone: they never repeat;
 * so are counted for loops (counted_for below), which end by themselves.
 *
 * SIMTLAB_EMU_SPIN_POINT() (simtlab_emu/spin_point.h) is `false` except in
 * spin builds, where it calls the watch's hook (one thread-local decrement
 * and a branch) and yields false; constant evaluation skips the call, so
 * constexpr functions with loops stay constexpr. Before these points, spin
 * builds used GCC's -fsanitize-coverage=trace-pc, a call at every basic
 * block of the file: about three times the cost on a kernel without loops.
 *
 * Host-only bodies (tools/rewriter/rewrite_hostfn.c records them) get no points: a host
 * loop never waits for a CUDA thread. A __device__ lambda inside one does.
 * Points are only inserted text, never a newline, and one that would fall
 * inside another rewrite is dropped (a loop header holding a launch).
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool same_name(const rw *r, size_t a, size_t b)
{
    return is_ident(r, a) && is_ident(r, b) && same_text(r, a, b);
}

#define SPIN_STATEMENT "(void)SIMTLAB_EMU_SPIN_POINT();"

static int span_order(const void *a, const void *b)
{
    const code_span *x = a, *y = b;
    if (x->open != y->open)
        return x->open < y->open ? -1 : 1;
    return x->close > y->close ? -1 : x->close < y->close; /* outer first */
}

/* An integer literal's value, as far as a loop needs it: 0, 1, or 2 for
 * every value from 2 up; -1 when token t is no integer literal (`0`, `4u`,
 * `0x10`, `1'000UL`). */
static int integer_literal_value(const rw *r, size_t t)
{
    if (r->toks[t].kind != TK_NUMBER)
        return -1;
    const char *s = tok_text(r, t);
    const size_t n = tok_len(r, t);
    const bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t k = hex ? 2 : 0;
    unsigned value = 0; /* saturates at 2 (an octal literal counts as decimal: the same below 2) */
    for (; k < n; k++) {
        const char c = s[k];
        unsigned digit;
        if (c == '\'')
            continue;
        if (c >= '0' && c <= '9')
            digit = (unsigned)(c - '0');
        else if (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            digit = (unsigned)(10 + ((c | 0x20) - 'a'));
        else
            break;
        value = value * (hex ? 16 : 10) + digit;
        if (value > 2)
            value = 2;
    }
    for (; k < n; k++)
        if (!strchr("uUlL", s[k]))
            return -1;
    return (int)value;
}

/* A condition that is a constant false: `0`, `0u`, `0L`, `false`. */
static bool never_true(const rw *r, size_t lparen, size_t rparen)
{
    return rparen == lparen + 2 && (tok_is(r, lparen + 1, "false") || integer_literal_value(r, lparen + 1) == 0);
}

/* The `;` of a for loop's head (lp, rp) outside brackets: how many (0 in a
 * range-for), the first two in semi. */
static size_t for_semicolons(const rw *r, size_t lp, size_t rp, size_t semi[2])
{
    size_t n = 0;
    for (size_t i = lp + 1; i < rp; i++) {
        if ((is_punct(r, i, '(') || is_punct(r, i, '[') || is_punct(r, i, '{')) && r->match[i] > (long)i)
            i = (size_t)r->match[i];
        else if (is_punct(r, i, ';') && n++ < 2)
            semi[n - 1] = i;
    }
    return n;
}

/* ---- counted loops ---------------------------------------------------- */

/* Tokens i and i+1 are the punctuators a and b with nothing between them:
 * the lexer gives `++`, `+=`, `<=` as two tokens. */
static bool op2(const rw *r, size_t i, char a, char b)
{
    return is_punct(r, i, a) && adjacent(r, i) && is_punct(r, i + 1, b);
}

/* Does an assignment, `++` or `--` follow token i (`v = `, `v += `,
 * `v <<= `, `v++`; not `v == `, `v <= `)? */
static bool assignment_after(const rw *r, size_t i, size_t to)
{
    const size_t n = i + 1;
    if (n >= to)
        return false;
    if (is_punct(r, n, '='))
        return !op2(r, n, '=', '=');
    if (op2(r, n, '+', '+') || op2(r, n, '-', '-'))
        return true;
    for (const char *o = "+-*/%&|^"; *o; o++)
        if (op2(r, n, *o, '='))
            return true;
    return (op2(r, n, '<', '<') || op2(r, n, '>', '>')) && n + 2 < to && adjacent(r, n + 1) &&
           is_punct(r, n + 2, '=');
}

/* Is the name at token `v` assigned, incremented or has its address taken
 * in tokens [from, to)? A member of that name (`.v`, `->v`) is another. */
static bool modified_in(const rw *r, size_t v, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (!same_name(r, i, v))
            continue;
        if (i > 0 && (is_punct(r, i - 1, '.') || tok_is(r, i - 1, "->")))
            continue;
        if (i > 0 && is_punct(r, i - 1, '&'))
            return true; /* `&v` may take its address: counted as a change */
        if (i > 1 && (op2(r, i - 2, '+', '+') || op2(r, i - 2, '-', '-')))
            return true;
        if (assignment_after(r, i, to))
            return true;
    }
    return false;
}

/* The last token of the statement that starts at `s` (a loop's body): its
 * `}` or `;`; 0 when it is not that simple (an if with an else, no end). */
static size_t statement_end(const rw *r, size_t s, size_t to)
{
    if (is_punct(r, s, '{'))
        return r->match[s] > (long)s ? (size_t)r->match[s] : 0;
    for (size_t i = s; i < to; i++) {
        if ((is_punct(r, i, '(') || is_punct(r, i, '[') || is_punct(r, i, '{')) && r->match[i] > (long)i)
            i = (size_t)r->match[i];
        else if (is_punct(r, i, ';'))
            return tok_is(r, i + 1, "else") ? 0 : i;
        else if (is_punct(r, i, '}'))
            return 0;
    }
    return 0;
}

/* The halving and doubling shapes (counted_for below): condition `v OP
 * bound` at tokens c..semi[1], step at inc..rp. */
static bool geometric_step(const rw *r, size_t lp, size_t c, size_t bound, const size_t semi[2], size_t inc,
                           size_t rp, bool up)
{
    const size_t len = rp - inc;
    if (!same_name(r, inc, c))
        return false;
    const char shift = up ? '<' : '>';
    bool ok = false;
    if (len == 5 && op2(r, inc + 1, shift, shift) && adjacent(r, inc + 2) && is_punct(r, inc + 3, '='))
        ok = integer_literal_value(r, inc + 4) >= 1; /* v >>= 1, v <<= 2 */
    else if (len == 4 && op2(r, inc + 1, up ? '*' : '/', '='))
        ok = integer_literal_value(r, inc + 3) == 2; /* v /= 2, v *= 4 */
    if (!ok)
        return false;
    if (up) { /* the head sets v to a positive literal last: `T v = 1;` */
        const size_t lit = semi[0] - 1;
        return lit >= lp + 3 && integer_literal_value(r, lit) > 0 && is_punct(r, lit - 1, '=') &&
               same_name(r, lit - 2, c);
    }
    if (bound == c + 3) /* v >= L: only a literal L > 0 keeps v = 0 out */
        return bound + 1 == semi[1] && integer_literal_value(r, bound) > 0;
    for (size_t i = bound; i < semi[1]; i++)
        if (is_punct(r, i, '-') || is_punct(r, i, '~'))
            return false;
    return true;
}

/* `for (init; v < bound; ++v) body` and its like: the variable only goes
 * towards its bound, one literal step at a time (`++v`, `v++`, `v += 4`;
 * `--v` and `v -= 1` with `>` or `>=`), and the body changes neither it
 * nor a name in the bound. Such a loop ends after a count fixed at its
 * start: it cannot spin, so it needs no spin point, which would cost a
 * call per iteration and keep GCC from unrolling or vectorising it (a
 * matrix product's inner loop ran 3.7x slower with it). A mistake that
 * makes a loop endless is then left to loops of other shapes.
 *
 * The tree reductions' and scans' halving and doubling loops count too,
 * where their shape rules out the endless cases:
 *   `v > b; v >>= k` or `v /= k` (k >= 2), b with no `-` in it, or
 *   `v >= L` with a literal L > 0: v reaches 0 (or -1, shifting a negative
 *   value), which ends the loop unless the bound is negative at run time;
 *   `v < b; v <<= k` or `v *= k` (k >= 2) where the head starts v at a
 *   literal above 0 (`v = 0` would stay 0 for ever). */
static bool counted_for(const rw *r, size_t lp, size_t rp, size_t to)
{
    size_t semi[2];
    if (for_semicolons(r, lp, rp, semi) != 2)
        return false; /* a range-for */
    const size_t c = semi[0] + 1, inc = semi[1] + 1;
    if (!is_ident(r, c))
        return false;
    const bool up = is_punct(r, c + 1, '<'), down = is_punct(r, c + 1, '>');
    if (!up && !down)
        return false;
    size_t bound = c + 2;
    if (op2(r, c + 1, up ? '<' : '>', '='))
        bound = c + 3;
    else if (is_punct(r, c + 2, up ? '<' : '>') || is_punct(r, c + 2, '='))
        return false; /* a shift, or `<` then `=` with space: not this shape */
    if (bound >= semi[1])
        return false;
    for (size_t i = bound; i < semi[1]; i++) /* one comparison, nothing that assigns or branches */
        if (is_punct(r, i, '=') || is_punct(r, i, '?') || is_punct(r, i, '&') || is_punct(r, i, '|') ||
            is_punct(r, i, ',') || op2(r, i, '+', '+') || op2(r, i, '-', '-'))
            return false;
    const char sign = up ? '+' : '-';
    const size_t len = rp - inc;
    bool step = false;
    if (len == 3 && op2(r, inc, sign, sign) && same_name(r, inc + 2, c))
        step = true; /* ++v */
    else if (len == 3 && same_name(r, inc, c) && op2(r, inc + 1, sign, sign))
        step = true; /* v++ */
    else if (len == 4 && same_name(r, inc, c) && op2(r, inc + 1, sign, '=') && integer_literal_value(r, inc + 3) > 0)
        step = true; /* v += 4 */
    if (!step)
        step = geometric_step(r, lp, c, bound, semi, inc, rp, up);
    if (!step)
        return false;
    const size_t body_end = statement_end(r, rp + 1, to);
    if (!body_end || modified_in(r, c, rp + 1, body_end))
        return false;
    for (size_t i = bound; i < semi[1]; i++)
        if (is_ident(r, i) && !is_punct(r, i - 1, '.') && !tok_is(r, i - 1, "->") &&
            modified_in(r, i, rp + 1, body_end))
            return false;
    return true;
}

typedef struct spin_pass {
    rw *r;
    size_t before; /* the edits made before this pass, sorted by start */
    int rc;
} spin_pass;

static void insert(spin_pass *p, size_t pos, const char *text)
{
    if (p->rc == 0 && !inside_edit(p->r, p->before, pos))
        p->rc = add_edit_str(p->r, pos, pos, text);
}

/* Inserts `before` ahead of token a and `after` behind token b, or
 * nothing when either place lies inside another rewrite. */
static void wrap(spin_pass *p, size_t a, const char *before, size_t b, const char *after)
{
    rw *r = p->r;
    if (p->rc != 0 || inside_edit(r, p->before, r->toks[a].start) || inside_edit(r, p->before, r->toks[b].end))
        return;
    insert(p, r->toks[a].start, before);
    insert(p, r->toks[b].end, after);
}

/* Does the condition (lp, rp) declare a variable (`while (T *x = f())`)?
 * Names, `*`, `&`, `::` and template brackets up to a `=`, two names at
 * least, the last right before the `=`. */
static bool declares_in_condition(const rw *r, size_t lp, size_t rp)
{
    size_t names = 0, i = lp + 1;
    for (; i < rp; i++) {
        if (is_ident(r, i))
            names++;
        else if (!(is_punct(r, i, '*') || is_punct(r, i, '&') || tok_is(r, i, "::") || is_punct(r, i, '<') ||
                   is_punct(r, i, '>')))
            break;
    }
    return names >= 2 && i < rp && is_punct(r, i, '=') && !op2(r, i, '=', '=') && is_ident(r, i - 1);
}

/* The loop keyword (or goto) at token i. */
static void spin_point_at(spin_pass *p, size_t i, size_t to)
{
    rw *r = p->r;
    if (tok_is(r, i, "goto")) { /* goto L;  ->  { SPIN; goto L; } */
        size_t semi = i + 1;
        while (semi < to && !is_punct(r, semi, ';') && !is_punct(r, semi, '{') && !is_punct(r, semi, '}'))
            semi++;
        if (semi < to && is_punct(r, semi, ';'))
            wrap(p, i, "{ " SPIN_STATEMENT " ", semi, " }");
        return;
    }
    const bool is_for = tok_is(r, i, "for");
    if ((!is_for && !tok_is(r, i, "while")) || !is_punct(r, i + 1, '(') || r->match[i + 1] <= (long)(i + 1))
        return;
    const size_t lp = i + 1, rp = (size_t)r->match[lp];
    if (is_for && counted_for(r, lp, rp, to))
        return;
    if (!is_for && (never_true(r, lp, rp) || lp + 1 == rp))
        return;
    /* a braced body: the point is its first statement */
    if (rp + 1 < to && is_punct(r, rp + 1, '{') && r->match[rp + 1] > (long)(rp + 1)) {
        insert(p, r->toks[rp + 1].end, " " SPIN_STATEMENT);
        return;
    }
    /* otherwise (one statement, `;`, a do loop's tail, a macro that ends
     * there) the condition: evaluated before each iteration too */
    if (is_for) {
        size_t semi[2];
        if (for_semicolons(r, lp, rp, semi) != 2)
            return; /* a range-for: its sequence is finite */
        if (semi[1] == semi[0] + 1) /* for (init; ; inc) */
            insert(p, r->toks[semi[0]].end, " !SIMTLAB_EMU_SPIN_POINT()");
        else
            wrap(p, semi[0] + 1, "SIMTLAB_EMU_SPIN_POINT() || (", semi[1] - 1, ")");
        return;
    }
    if (declares_in_condition(r, lp, rp)) {
        if (rp + 1 < to) /* while (T x = f()) stmt: the point before the statement */
            insert(p, r->toks[rp].end, " if (SIMTLAB_EMU_SPIN_POINT()) {} else");
        return;
    }
    wrap(p, lp + 1, "SIMTLAB_EMU_SPIN_POINT() || (", rp - 1, ")");
}

int add_spin_points(rw *r, size_t from, size_t to)
{
    if (r->nedits > 0)
        qsort(r->edits, r->nedits, sizeof(edit), edit_start_order);
    if (r->nspans > 0)
        qsort(r->spans, r->nspans, sizeof(code_span), span_order);
    spin_pass p = {r, r->nedits, 0};
    /* The spans that hold token i, innermost last: bodies nest. */
    size_t *open = NULL, nopen = 0, cap = 0, next = 0;
    for (size_t i = from; i < to && p.rc == 0; i++) {
        while (nopen > 0 && r->spans[open[nopen - 1]].close < i)
            nopen--;
        while (next < r->nspans && r->spans[next].open <= i) {
            if (r->spans[next].close >= i) {
                size_t *grown = grow(open, &cap, nopen, sizeof(size_t));
                if (!grown) {
                    free(open);
                    return fail_oom(r);
                }
                open = grown;
                open[nopen++] = next;
            }
            next++;
        }
        if (!is_ident(r, i) || (nopen > 0 && r->spans[open[nopen - 1]].host))
            continue;
        spin_point_at(&p, i, to);
    }
    free(open);
    return p.rc;
}
