/* simtlab source rewriter — spin points (the whole is described in
 * rewrite.c).
 *
 * The spin watch (emu/README.md, "How a block runs") lets the other threads
 * of a block run while one spins on a volatile load, and fails a launch
 * whose spin can never end. It needs a call into the emulator on every
 * path that can repeat: a spin is a loop. This pass puts one at the top of
 * every iteration of every loop outside host-only code, and nowhere else:
 *   for (...) BODY          ->  for (...) if (SIMTLAB_EMU_SPIN_POINT()) {} else BODY
 *   while (c) BODY          ->  while (c) if (SIMTLAB_EMU_SPIN_POINT()) {} else BODY
 *   while (c);  and the `while (c)` that ends a do loop (or a #define)
 *                           ->  while (SIMTLAB_EMU_SPIN_POINT() || (c));
 *   goto L;                 ->  if (SIMTLAB_EMU_SPIN_POINT()) {} else goto L;
 * The prefix is a whole statement around the body, so it needs no braces
 * and keeps `continue`, `break` and a following `else` as they were; the
 * condition form serves where the body is not known (a do loop's tail, a
 * macro that ends in `while (x)`), and evaluates the condition as before.
 * `do ... while (0)` and `while (false)` are left alone: they never repeat.
 *
 * SIMTLAB_EMU_SPIN_POINT() (simtlab_emu/spin_point.h) is `false` except in
 * spin builds, where it calls the watch's hook (one thread-local decrement
 * and a branch) and yields false; constant evaluation skips the call, so
 * constexpr functions with loops stay constexpr. Before these points, spin
 * builds used GCC's -fsanitize-coverage=trace-pc, a call at every basic
 * block of the file: about three times the cost on a kernel without loops.
 *
 * Host-only bodies (rewrite_hostfn.c records them) get no points: a host
 * loop never waits for a CUDA thread. A __device__ lambda inside one does.
 * Points are only inserted text, never a newline, and one that would fall
 * inside another rewrite is dropped (a loop header holding a launch).
 */
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdlib.h>

#define SPIN_PREFIX "if (SIMTLAB_EMU_SPIN_POINT()) {} else"

static int span_order(const void *a, const void *b)
{
    const code_span *x = a, *y = b;
    if (x->open != y->open)
        return x->open < y->open ? -1 : 1;
    return x->close > y->close ? -1 : x->close < y->close; /* outer first */
}

/* A condition that is a constant false: `0`, `0u`, `0L`, `false`. */
static bool never_true(const rw *r, size_t lparen, size_t rparen)
{
    if (rparen != lparen + 2)
        return false;
    const size_t t = lparen + 1;
    if (tok_is(r, t, "false"))
        return true;
    if (r->toks[t].kind != TK_NUMBER || tok_text(r, t)[0] != '0')
        return false;
    for (size_t k = 1; k < tok_len(r, t); k++) {
        char c = tok_text(r, t)[k];
        if (c != 'u' && c != 'U' && c != 'l' && c != 'L')
            return false;
    }
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

/* The loop keyword (or goto) at token i. */
static void spin_point_at(spin_pass *p, size_t i, size_t to)
{
    rw *r = p->r;
    if (tok_is(r, i, "goto")) {
        insert(p, r->toks[i].start, SPIN_PREFIX " ");
        return;
    }
    const bool is_for = tok_is(r, i, "for");
    if ((!is_for && !tok_is(r, i, "while")) || !is_punct(r, i + 1, '(') || r->match[i + 1] <= (long)(i + 1))
        return;
    const size_t lp = i + 1, rp = (size_t)r->match[lp];
    if (is_for) {
        insert(p, r->toks[rp].end, " " SPIN_PREFIX);
        return;
    }
    if (rp + 1 >= to || is_punct(r, rp + 1, ';')) { /* a do loop's tail, an empty body, a macro's end */
        if (never_true(r, lp, rp) || lp + 1 == rp)
            return;
        if (p->rc == 0 && (inside_edit(r, p->before, r->toks[lp].end) || inside_edit(r, p->before, r->toks[rp].start)))
            return;
        insert(p, r->toks[lp].end, "SIMTLAB_EMU_SPIN_POINT() || (");
        insert(p, r->toks[rp].start, ")");
        return;
    }
    if (never_true(r, lp, rp))
        return;
    insert(p, r->toks[rp].end, " " SPIN_PREFIX);
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
