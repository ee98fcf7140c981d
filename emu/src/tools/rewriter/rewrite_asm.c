/* simtlab source rewriter — inline PTX (`asm("..." : outputs : inputs)`).
 *
 * The host compiler would hand a PTX template to the host assembler, which
 * fails with an error about the template's first word. Instead:
 *   - a template made only of reads of special registers,
 *       asm("mov.u32 %0, %%laneid;" : "=r"(lane));
 *     becomes assignments from the emulator's registers,
 *       do { (lane) = ::simtlab_emu::ptx_sreg::laneid(); } while (0);
 *     (simtlab_emu/ptx_sreg.hpp);
 *   - one integer instruction the emulator implements (int_ops below:
 *     bfind, brev, popc, clz, bfe, bfi, prmt, mul.hi/lo/wide, mad, lop3,
 *     shf, ...) on %N operands and integer literals,
 *       asm("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
 *     becomes a call,
 *       do { (ret) = ::simtlab_emu::ptx_ops::bfind_u32((word)); } while (0);
 *     (simtlab_emu/ptx_ops.hpp);
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

/* Integer PTX instructions emulated one for one by
 * simtlab_emu/ptx_ops.hpp: the instruction's name with dots as
 * underscores (bfind.u32 -> bfind_u32), the destination first. */
static const char *const int_ops[] = {
    "bfind.u32", "bfind.s32", "bfind.u64", "bfind.s64", "brev.b32", "brev.b64", "popc.b32", "popc.b64",
    "clz.b32", "clz.b64", "bfe.u32", "bfe.s32", "bfe.u64", "bfe.s64", "bfi.b32", "bfi.b64", "prmt.b32",
    "mul.hi.u32", "mul.hi.s32", "mul.hi.u64", "mul.hi.s64", "mul.lo.u32", "mul.lo.s32", "mul.lo.u64",
    "mul.lo.s64", "mul.wide.u32", "mul.wide.s32", "mad.lo.u32", "mad.lo.s32", "mad.lo.u64", "mad.lo.s64",
    "mad.hi.u32", "mad.hi.s32", "min.u32", "min.s32", "max.u32", "max.s32", "lop3.b32", "shf.l.wrap.b32",
    "shf.r.wrap.b32", "shf.l.clamp.b32", "shf.r.clamp.b32", "add.u32", "add.s32", "sub.u32", "sub.s32",
    "and.b32", "or.b32", "xor.b32", "not.b32", "shl.b32", "shr.u32", "shr.s32", "abs.s32", "neg.s32",
};

/* Parses one `op.types %d, a, b, ...;` statement, `op.types` in int_ops and
 * each source `%N` or an integer literal; writes `(dst) = ...::op(srcs);`
 * into *code. Operands are numbered outputs first, then inputs, as in GCC
 * and nvcc. Returns false for anything else. */
static bool translate_int_op(const char *t, const rw *r, const size_t first[], const size_t last[], size_t nout,
                             size_t nall, strbuf *code)
{
    while (*t && isspace((unsigned char)*t))
        t++;
    const char *op = t;
    while (*t && (isalnum((unsigned char)*t) || *t == '.' || *t == '_'))
        t++;
    size_t on = (size_t)(t - op);
    bool known = false;
    for (size_t k = 0; k < sizeof int_ops / sizeof int_ops[0] && !known; k++)
        known = strlen(int_ops[k]) == on && memcmp(int_ops[k], op, on) == 0;
    if (!known)
        return false;
    /* The operands, up to the ';' (only blanks after it). */
    char buf[256];
    size_t bn = 0;
    while (*t && *t != ';' && bn + 1 < sizeof buf)
        buf[bn++] = *t++;
    buf[bn] = '\0';
    if (*t == ';')
        t++;
    while (*t && isspace((unsigned char)*t))
        t++;
    if (*t)
        return false; /* a second instruction */
    strbuf args = {0};
    long dst = -1;
    int n = 0;
    bool bad = false;
    for (char *save = NULL, *a = strtok_r(buf, ",", &save); a; a = strtok_r(NULL, ",", &save), n++) {
        while (isspace((unsigned char)*a))
            a++;
        char *end = a + strlen(a);
        while (end > a && isspace((unsigned char)end[-1]))
            *--end = '\0';
        if (a[0] == '%' && isdigit((unsigned char)a[1])) {
            char *rest;
            unsigned long idx = strtoul(a + 1, &rest, 10);
            if (*rest || idx >= nall || (n == 0 && idx >= nout)) {
                bad = true;
                break;
            }
            if (n == 0) {
                dst = (long)idx;
                continue;
            }
            sb_puts(&args, n > 1 ? ", (" : "(");
            put_tokens(r, &args, first[idx], last[idx]);
            sb_puts(&args, ")");
        } else if (n > 0 && (isdigit((unsigned char)a[0]) || a[0] == '-')) {
            char *rest;
            (void)strtoll(a, &rest, 0);
            if (*rest && strcmp(rest, "U") != 0 && strcmp(rest, "u") != 0) {
                bad = true;
                break;
            }
            sb_puts(&args, n > 1 ? ", " : "");
            sb_puts(&args, a);
        } else {
            bad = true;
            break;
        }
    }
    bool ok = !bad && dst >= 0 && n > 1 && !args.oom;
    if (ok) {
        sb_puts(code, "(");
        put_tokens(r, code, first[dst], last[dst]);
        sb_puts(code, ") = ::simtlab_emu::ptx_ops::");
        for (size_t k = 0; k < on; k++)
            sb_put(code, op[k] == '.' ? "_" : &op[k], 1);
        sb_puts(code, "(");
        if (args.data)
            sb_puts(code, args.data);
        sb_puts(code, "); ");
    }
    free(args.data);
    return ok;
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

    /* The inputs: "r"(expr), ... after the outputs, up to the clobbers. */
    size_t nall = nout;
    if (outputs_ok) {
        size_t q = k;
        if (tok_is(r, q, ":")) { /* skip the outputs */
            q++;
            while (q < close && !tok_is(r, q, ":") && !tok_is(r, q, "::"))
                q++;
        }
        if (tok_is(r, q, ":") || (tok_is(r, q, "::") && q == k)) {
            q++;
            while (q < close && !tok_is(r, q, ":") && !tok_is(r, q, "::")) {
                if (r->toks[q].kind != TK_STRING || !is_punct(r, q + 1, '(') || r->match[q + 1] < 0 || nall == 16) {
                    nall = nout; /* not understood: only the outputs are usable */
                    break;
                }
                size_t rp = (size_t)r->match[q + 1];
                out_first[nall] = q + 2;
                out_last[nall] = rp - 1;
                nall++;
                q = rp + 1;
                if (is_punct(r, q, ','))
                    q++;
            }
        }
    }

    strbuf code = {0};
    bool done = false;
    if (literal && outputs_ok && tmpl.data) {
        strbuf body = {0};
        if ((translate_sreg_reads(tmpl.data, r, out_first, out_last, nout, &body) ||
             translate_int_op(tmpl.data, r, out_first, out_last, nout, nall, &body)) &&
            !body.oom) {
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
