/* simtlab source rewriter — inline PTX (`asm("..." : outputs : inputs)`).
 *
 * The host compiler would hand a PTX template to the host assembler, which
 * fails with an error about the template's first word. Instead:
 *   - a template made only of reads of special registers,
 *       asm("mov.u32 %0, %%laneid;" : "=r"(lane));
 *     becomes assignments from the emulator's registers,
 *       do { (lane) = ::simtlab_emu::ptx_sreg::laneid(); } while (0);
 *     (simtlab_emu/ptx_sreg.hpp);
 *   - any other PTX template becomes
 *       static_assert(false, "this PTX instruction is not emulated: ...");
 *     a compile-time error naming the template, at the asm's line, and only
 *     where the statement is compiled (the preprocessor runs after us, so an
 *     asm in an `#if __CUDA_ARCH__` branch that is not taken costs nothing);
 *   - a template that is not PTX (empty, as in the compiler barrier
 *     `asm volatile("" ::: "memory")`, or host assembly) is left alone.
 * The replacement keeps the statement's newlines, so lines stay where they
 * were.
 */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The special registers ptx_sreg.hpp provides (dots become underscores). */
static const char *const sregs[] = {
    "laneid", "warpid", "nwarpid", "smid", "nsmid", "clock", "clock_hi", "clock64", "globaltimer",
    "globaltimer_lo", "globaltimer_hi", "lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt",
    "lanemask_ge", "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y",
    "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "gridid",
};

static bool is_sreg(const char *name, size_t n)
{
    for (size_t k = 0; k < sizeof sregs / sizeof sregs[0]; k++)
        if (strlen(sregs[k]) == n && memcmp(sregs[k], name, n) == 0)
            return true;
    return false;
}

/* Appends the contents of string literal token `t` (plain "..." only; a
 * prefix or raw string returns false), escapes decoded. */
static bool put_literal(const rw *r, size_t t, strbuf *out)
{
    const char *s = tok_text(r, t);
    size_t n = tok_len(r, t);
    if (n < 2 || s[0] != '"' || s[n - 1] != '"')
        return false;
    for (size_t k = 1; k + 1 < n; k++) {
        char c = s[k];
        if (c == '\\' && k + 2 < n) {
            char e = s[++k];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
        }
        sb_put(out, &c, 1);
    }
    return true;
}

/* PTX, not host assembly: the first word has a dot (mov.u32, bar.sync,
 * cp.async...) or is one of the few PTX instructions without one. */
static bool looks_like_ptx(const char *t)
{
    while (*t && (isspace((unsigned char)*t) || *t == '{'))
        t++;
    size_t n = 0;
    while (t[n] && (isalnum((unsigned char)t[n]) || t[n] == '_' || t[n] == '.'))
        n++;
    if (n == 0)
        return false;
    if (memchr(t, '.', n))
        return true;
    static const char *const bare[] = {"trap", "exit", "brkpt", "ret", "pmevent", "nanosleep"};
    for (size_t k = 0; k < sizeof bare / sizeof bare[0]; k++)
        if (strlen(bare[k]) == n && memcmp(bare[k], t, n) == 0)
            return true;
    return false;
}

/* Parses `mov.{u32,s32,b32,u64,s64,b64} %N, %%sreg;` statements; writes
 * the assignments into *code using the output expressions. Returns false
 * for anything else. */
static bool translate_sreg_reads(const char *t, const rw *r, const size_t out_first[], const size_t out_last[],
                                 size_t nout, strbuf *code)
{
    bool any = false;
    for (;;) {
        while (*t && (isspace((unsigned char)*t) || *t == ';'))
            t++;
        if (!*t)
            return any;
        if (strncmp(t, "mov.", 4) != 0)
            return false;
        t += 4;
        const char *type = t;
        while (isalnum((unsigned char)*t))
            t++;
        size_t tn = (size_t)(t - type);
        const char *ctype = NULL;
        if (tn == 3 && (!memcmp(type, "u32", 3) || !memcmp(type, "b32", 3)))
            ctype = "unsigned int";
        else if (tn == 3 && !memcmp(type, "s32", 3))
            ctype = "int";
        else if (tn == 3 && (!memcmp(type, "u64", 3) || !memcmp(type, "b64", 3)))
            ctype = "unsigned long long";
        else if (tn == 3 && !memcmp(type, "s64", 3))
            ctype = "long long";
        else
            return false;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t != '%' || !isdigit((unsigned char)t[1]))
            return false;
        unsigned long op = strtoul(t + 1, (char **)&t, 10);
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t++ != ',')
            return false;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t++ != '%')
            return false;
        if (*t == '%')
            t++;
        const char *name = t;
        while (isalnum((unsigned char)*t) || *t == '_' || *t == '.')
            t++;
        size_t nn = (size_t)(t - name);
        if (op >= nout || !is_sreg(name, nn))
            return false;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t && *t != ';' && *t != '\n')
            return false;
        sb_puts(code, "(");
        put_tokens(r, code, out_first[op], out_last[op]);
        sb_printf(code, ") = (%s)::simtlab_emu::ptx_sreg::", ctype);
        if (nn == 5 && !memcmp(name, "clock", 5))
            sb_puts(code, "clock32"); /* clock() is a macro (device_atomic.hpp) */
        else
            for (size_t k = 0; k < nn; k++)
                sb_put(code, name[k] == '.' ? "_" : &name[k], 1);
        sb_puts(code, "(); ");
        any = true;
    }
}

int rewrite_asm(rw *r, size_t i, size_t *next)
{
    *next = i + 1;
    size_t p = i + 1;
    while (tok_is(r, p, "volatile") || tok_is(r, p, "__volatile__") || tok_is(r, p, "inline") ||
           tok_is(r, p, "goto"))
        p++;
    if (!is_punct(r, p, '(') || r->match[p] < 0)
        return 0; /* not an asm statement we understand: leave it to the compiler */
    size_t close = (size_t)r->match[p];

    /* The template: the string literals before the first ':'. */
    strbuf tmpl = {0};
    bool literal = true;
    size_t k = p + 1;
    for (; k < close && !tok_is(r, k, ":") && !tok_is(r, k, "::"); k++)
        if (r->toks[k].kind != TK_STRING || !put_literal(r, k, &tmpl))
            literal = false;
    if (!literal || !tmpl.data || !looks_like_ptx(tmpl.data)) {
        bool leave = literal; /* not PTX: host assembly, or an empty barrier */
        if (leave) {
            free(tmpl.data);
            return 0;
        }
    }

    /* The outputs: "=r"(expr), ... up to the next ':' (or "::", which ends
     * an empty output list). */
    size_t out_first[16], out_last[16], nout = 0;
    bool outputs_ok = true;
    if (tok_is(r, k, ":")) {
        size_t q = k + 1;
        while (q < close && !tok_is(r, q, ":") && !tok_is(r, q, "::")) {
            if (r->toks[q].kind != TK_STRING || !is_punct(r, q + 1, '(') || r->match[q + 1] < 0 || nout == 16) {
                outputs_ok = false;
                break;
            }
            size_t rp = (size_t)r->match[q + 1];
            out_first[nout] = q + 2;
            out_last[nout] = rp - 1;
            nout++;
            q = rp + 1;
            if (is_punct(r, q, ','))
                q++;
        }
    }

    strbuf code = {0};
    bool done = false;
    if (literal && outputs_ok && tmpl.data) {
        strbuf body = {0};
        if (translate_sreg_reads(tmpl.data, r, out_first, out_last, nout, &body) && !body.oom) {
            sb_puts(&code, "do { ");
            sb_puts(&code, body.data);
            sb_puts(&code, "} while (0)");
            done = true;
        }
        free(body.data);
    }
    if (!done) {
        sb_puts(&code, "static_assert(false, \"this PTX instruction is not emulated: ");
        if (literal && tmpl.data) {
            sb_put_escaped(&code, tmpl.data, strlen(tmpl.data));
        } else {
            strbuf src = {0};
            put_tokens(r, &src, p + 1, close - 1);
            if (src.data)
                sb_put_escaped(&code, src.data, src.len);
            free(src.data);
        }
        sb_puts(&code, "\")");
    }
    free(tmpl.data);
    /* Keep the line count: one newline per newline replaced. */
    for (size_t b = r->toks[i].start; b < r->toks[close].end; b++)
        if (r->src[b] == '\n')
            sb_puts(&code, "\n");
    *next = close + 1;
    return add_edit_sb(r, r->toks[i].start, r->toks[close].end, &code);
}
