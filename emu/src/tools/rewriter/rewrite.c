/* simtlab source rewriter: the driver — sl_rewrite and sl_rewrite_tree
 * (tools/rewriter/rewrite.h).
 *
 * How the files call each other (calls go down only):
 *   driver  rewrite.c          sl_rewrite, sl_rewrite_tree, rewrite_source:
 *                              runs the passes in order, pass 3's loop, emit
 *     |
 *   passes  rewrite_lex.c (1, 2), rewrite_kernels.c, rewrite_hostfn.c,
 *           rewrite_include.c, rewrite_launch.c, rewrite_shared.c,
 *           rewrite_asm.c, rewrite_removed.c, rewrite_spin.c
 *           (rewrite_internal.h); a pass may ask another (a launch asks
 *           the kernels pass), never the driver: the include pass rewrites
 *           a header through the rewrite_fn pointer the driver hands it
 *     |
 *   leaf    rewrite_text.c (rewrite_text.h): strbuf, the state `rw`,
 *           errors, edits, tokens back into text, scopes, name sets;
 *           it calls nothing above it.
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
 *   then rewrite_macro_bodies() (tools/rewriter/rewrite_shared.c) tokenizes the body of
 *                     each #define that holds __shared__ on its own and
 *                     records edits for its declarations, on its lines;
 * then emit() copies the source with the edits applied after the prologue.
 * Edits never add or remove a newline, except where a #define must start a
 * line, and there a #line restores the numbering.
 */
#include "rewrite.h"
#include "rewrite_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        } else if (tok_is(r, i, "asm") || tok_is(r, i, "__asm__") || tok_is(r, i, "__asm")) {
            if (rewrite_asm(r, i, &i) != 0)
                return -1;
            continue;
        } else if ((tok_is(r, i, "texture") || tok_is(r, i, "surface")) && current_scope(r) == SCOPE_NAMESPACE) {
            if (rewrite_removed_reference(r, i) != 0)
                return -1;
        }
        i++;
    }
    return 0;
}

static void emit_prologue(const rw *r, strbuf *sb)
{
    if (r->says_volatile || (r->inc && include_says_volatile(r->inc)))
        sb_puts(sb, SL_REWRITE_SAYS_VOLATILE);
    sb_puts(sb, SL_REWRITE_PRELUDE "#line 1 \"");
    sb_put_escaped(sb, r->path, strlen(r->path));
    sb_puts(sb, "\"\n");
}

static int emit(rw *r, strbuf *sb, bool prologue)
{
    if (r->nedits > 0)
        qsort(r->edits, r->nedits, sizeof(edit), edit_start_order);
    if (prologue)
        emit_prologue(r, sb);
    size_t pos = 0;
    for (size_t k = 0; k < r->nedits; k++) {
        const edit *e = &r->edits[k];
        if (e->start < pos) /* two edits of one range: a bug here, not in the input */
            return fail(r, 1, 1, "internal error: overlapping rewrites at byte %zu", e->start);
        sb_put(sb, r->src + pos, e->start - pos);
        sb_puts(sb, r->edit_text.data + e->text);
        pos = e->end;
    }
    sb_put(sb, r->src + pos, r->len - pos);
    return sb->oom ? fail_oom(r) : 0;
}

void sl_outbuf_free(sl_outbuf *out)
{
    if (!out)
        return;
    free(out->data);
    out->data = NULL;
    out->len = out->cap = 0;
}

static void rw_free(rw *r)
{
    free(r->edits);
    free(r->edit_text.data);
    free(r->toks);
    free(r->match);
    free(r->scopes);
    free(r->kernels);
    free(r->host_names);
    free(r->directives);
    name_set_free(&r->hostfn_names);
    free(r->spans);
}

int rewrite_source(const char *src, size_t len, const char *path, bool prologue, struct include_ctx *inc,
                   strbuf *sb, char *err, size_t errcap)
{
    rw r = {0};
    r.src = src ? src : "";
    r.len = src ? len : 0;
    r.path = path ? path : "<input>";
    r.err = err;
    r.errcap = errcap;
    r.inc = inc;
    /* A byte-order mark is only allowed first in a file, which after the
     * prologue (or inside another file) it no longer is. */
    if (r.len >= 3 && memcmp(r.src, "\xEF\xBB\xBF", 3) == 0) {
        r.src += 3;
        r.len -= 3;
    }
    int rc = lex(&r);
    if (rc == 0)
        rc = match_all(&r);
    if (rc == 0)
        r.says_volatile = code_says_volatile(&r);
    if (r.says_volatile && inc)
        include_note_volatile(inc);
    if (rc == 0)
        rc = scan_kernels(&r);
    if (rc == 0)
        rc = note_host_fn_names(&r);
    /* Headers first, so that their kernel templates are known to this
     * file's launches (tools/rewriter/rewrite_kernels.c, names_template_kernel). */
    if (rc == 0 && inc)
        rc = inline_includes(&r);
    if (rc == 0)
        rc = scan(&r);
    if (rc == 0)
        rc = rewrite_macro_bodies(&r);
    if (rc == 0)
        rc = mark_host_functions(&r);
    if (rc == 0)
        rc = add_spin_points(&r, 0, r.ntoks);
    if (rc == 0)
        rc = emit(&r, sb, prologue);
    rw_free(&r);
    return rc;
}

int sl_rewrite(const char *src, size_t len, const char *path, sl_outbuf *out, char *err,
               size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    sl_outbuf_free(out);
    strbuf sb = {0};
    if (rewrite_source(src, len, path, true, NULL, &sb, err, errcap) != 0) {
        free(sb.data);
        return -1;
    }
    out->data = sb.data;
    out->len = sb.len;
    out->cap = sb.cap;
    return 0;
}

int sl_rewrite_tree(const char *path, const sl_include_opts *opts, sl_outbuf *out, sl_outbuf *deps, char *err,
                    size_t errcap)
{
    if (err && errcap)
        err[0] = '\0';
    sl_outbuf_free(out);
    sl_outbuf_free(deps);
    return include_tree(path, opts, rewrite_source, out, deps, err, errcap);
}
