/* simtlab source rewriter — the user's own headers (sl_rewrite_tree in
 * tools/rewriter/rewrite.h: the driver clears its outputs and calls
 * include_tree, handing it rewrite_source, through which each header put in
 * is rewritten). Device code lives in headers too (__shared__ and launches
 * in a .cuh): such a header must be rewritten with the .cu that includes it.
 * Each followed #include line is replaced by the header's rewritten text:
 *
 *   #include "kernels.cuh"       ->   #line 1 "dir/kernels.cuh"
 *                                     ...the header, rewritten...
 *                                     #line <next line> "main.cu"
 *
 * (with `#ifndef`/`#define`/`#endif` around it for a `#pragma once`
 * header), so the compiler and gdb still see every line where it was
 * written. Which files are followed is decided the way the preprocessor
 * searches, without evaluating #if: a header in a branch that is not taken
 * is put in all the same, inside that branch, where the preprocessor skips
 * it. A header that does not exist (another platform's) keeps its line.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#endif
#include "rewrite_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { max_depth = 64, path_cap = 4096 };

typedef struct include_ctx {
    const sl_include_opts *opts;
    char *chain[max_depth]; /* real paths of the files being rewritten, outermost first */
    size_t depth;
    strbuf deps;
    bool pragma_once; /* the file just rewritten had `#pragma once` */
    bool guarded;     /* the file just rewritten is wrapped whole in an #ifndef guard */
    strbuf once_done; /* "\nG path\n" (guarded) or "\nP path\n" (#pragma once) for each such header put in */
    strbuf template_kernels; /* "\nname\n" for each kernel template of the files seen */
    strbuf kernel_defaults;  /* "\nname\x1frecord\n" for each kernel with default arguments */
    strbuf kernel_arities;   /* "\nname count\n" for each kernel's parameter count, all files */
    name_set hostfn_names;   /* macros and device functions of all files (tools/rewriter/rewrite_hostfn.c) */
    bool says_volatile;      /* a file of the tree says volatile (code_says_volatile) */
    rewrite_fn *rewrite;     /* the driver's rewrite of one file (include_tree) */
} include_ctx;

struct name_set *include_hostfn_names(struct include_ctx *c) { return &c->hostfn_names; }
void include_note_volatile(struct include_ctx *c) { c->says_volatile = true; }
bool include_says_volatile(const struct include_ctx *c) { return c->says_volatile; }

/* Kernels with default arguments declared in headers: their record
 * (tools/rewriter/rewrite_kernels.c, kernel_defaults) is known to the files that include
 * them, so that a launch there can append the missing defaults. A second
 * kernel of the same name makes the name's record "!" (ambiguous). */
int include_note_kernel_defaults(struct include_ctx *c, const char *name, size_t len, const char *record)
{
    strbuf *t = &c->kernel_defaults;
    for (size_t i = 0; i + len + 2 <= t->len; i++)
        if (t->data[i] == '\n' && t->data[i + len + 1] == '\x1f' && memcmp(t->data + i + 1, name, len) == 0) {
            const char *start = t->data + i + len + 2;
            const char *end = memchr(start, '\n', t->len - (size_t)(start - t->data));
            if (end && ((size_t)(end - start) != strlen(record) || memcmp(start, record, strlen(record)) != 0))
                t->data[i + 1] = '\x1e'; /* forget it: two kernels of one name */
            return 0;
        }
    if (!t->len)
        sb_puts(t, "\n");
    sb_put(t, name, len);
    sb_puts(t, "\x1f");
    sb_puts(t, record);
    sb_puts(t, "\n");
    return t->oom ? -1 : 0;
}

/* The record of `name` (up to the next newline), or NULL. */
const char *include_kernel_defaults(const struct include_ctx *c, const char *name, size_t len)
{
    const strbuf *t = &c->kernel_defaults;
    for (size_t i = 0; i + len + 2 <= t->len; i++)
        if (t->data[i] == '\n' && t->data[i + len + 1] == '\x1f' && memcmp(t->data + i + 1, name, len) == 0)
            return t->data + i + len + 2;
    return NULL;
}

/* Kernel templates declared in headers are known to the files that include
 * them (tools/rewriter/rewrite_launch.c deduces their arguments through a call). */
int include_note_template_kernel(struct include_ctx *c, const char *name, size_t len)
{
    if (include_knows_template_kernel(c, name, len))
        return 0;
    if (!c->template_kernels.len)
        sb_puts(&c->template_kernels, "\n");
    sb_put(&c->template_kernels, name, len);
    sb_puts(&c->template_kernels, "\n");
    return c->template_kernels.oom ? -1 : 0;
}

/* Each (name, parameter count) of the non-template kernels seen in this
 * translation unit, headers included: a launch in the .cu of a kernel that
 * a header declares with another count names an overload set. */
int include_note_kernel_arity(struct include_ctx *c, const char *name, size_t len, size_t count)
{
    char line[300];
    int n = snprintf(line, sizeof line, "\n%.*s %zu\n", (int)(len < 256 ? len : 256), name, count);
    if (c->kernel_arities.data && strstr(c->kernel_arities.data, line))
        return 0;
    sb_put(&c->kernel_arities, line + (c->kernel_arities.len ? 1 : 0), (size_t)n - (c->kernel_arities.len ? 1 : 0));
    return c->kernel_arities.oom ? -1 : 0;
}
bool include_knows_other_arity(const struct include_ctx *c, const char *name, size_t len, size_t count)
{
    const strbuf *t = &c->kernel_arities;
    for (size_t i = 0; i + len + 2 < t->len; i++)
        if (t->data[i] == '\n' && t->data[i + len + 1] == ' ' && memcmp(t->data + i + 1, name, len) == 0 &&
            strtoul(t->data + i + len + 2, NULL, 10) != count)
            return true;
    return false;
}
bool include_knows_template_kernel(const struct include_ctx *c, const char *name, size_t len)
{
    const strbuf *t = &c->template_kernels;
    for (size_t i = 0; i + len + 2 <= t->len; i++)
        if (t->data[i] == '\n' && t->data[i + len + 1] == '\n' && memcmp(t->data + i + 1, name, len) == 0)
            return true;
    return false;
}

/* ---- files ----------------------------------------------------------------- */

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads a whole file; -1 with a message in err. */
static int read_all(const char *path, char **data, size_t *len, char *err, size_t errcap)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    while (f) {
        if (n == cap) {
            char *grown = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
            if (!grown)
                break;
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    const bool ok = f && buf && !ferror(f);
    if (f)
        fclose(f);
    if (!ok) {
        free(buf);
        if (err && errcap)
            snprintf(err, errcap, "%s: error: cannot read this file", path);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* dir + "/" + name, or name alone when it is absolute; false if too long. */
static bool join(char *out, const char *dir, size_t dirlen, const char *name)
{
    int n = name[0] == '/' ? snprintf(out, path_cap, "%s", name)
                           : snprintf(out, path_cap, "%.*s/%s", (int)dirlen, dir, name);
    return n > 0 && n < path_cap;
}

static bool under(const char *path, const char *dir)
{
    if (!dir)
        return false;
    char *real_path = realpath(path, NULL), *real_dir = realpath(dir, NULL);
    bool inside = false;
    if (real_path && real_dir) {
        size_t n = strlen(real_dir);
        inside = strncmp(real_path, real_dir, n) == 0 && (real_path[n] == '/' || real_path[n] == '\0');
    }
    free(real_path);
    free(real_dir);
    return inside;
}

/* Where the preprocessor finds `name` (quoted: beside the includer first),
 * when that is a file of the user's tree; false otherwise. */
static bool resolve(const include_ctx *c, const char *includer, bool quoted, const char *name, char *out)
{
    if (name[0] == '/')
        return is_file(name) && join(out, "", 0, name) && !under(out, c->opts->emu_include);
    if (quoted) {
        const char *slash = strrchr(includer, '/');
        size_t dirlen = slash ? (size_t)(slash - includer) : 1;
        if (join(out, slash ? includer : ".", dirlen, name) && is_file(out))
            return !under(out, c->opts->emu_include);
    }
    const char *emu = c->opts->emu_include;
    if (emu && join(out, emu, strlen(emu), name) && is_file(out))
        return false; /* the emulator's own header comes first on the include path */
    for (size_t k = 0; k < c->opts->ndirs; k++) {
        const char *dir = c->opts->dirs[k];
        if (join(out, dir, strlen(dir), name) && is_file(out))
            return !under(out, emu);
    }
    return false;
}

/* ---- directives ------------------------------------------------------------ */

/* `#include "name"` or `#include <name>` (spaces allowed): the name into
 * out; 0 when the line is something else. */
static int parse_include(const rw *r, const directive *d, char *out, bool *quoted)
{
    size_t i = d->start + 1;
    while (i < d->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (d->end - i < 7 || memcmp(r->src + i, "include", 7) != 0)
        return 0;
    i += 7;
    while (i < d->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (i >= d->end || (r->src[i] != '"' && r->src[i] != '<'))
        return 0; /* #include_next, #include MACRO */
    const char close = r->src[i] == '"' ? '"' : '>';
    *quoted = close == '"';
    size_t start = ++i;
    while (i < d->end && r->src[i] != close && r->src[i] != '\n')
        i++;
    if (i >= d->end || r->src[i] != close || i - start == 0 || i - start >= path_cap)
        return 0;
    memcpy(out, r->src + start, i - start);
    out[i - start] = '\0';
    return 1;
}

static bool is_pragma_once(const rw *r, const directive *d)
{
    size_t i = d->start + 1;
    while (i < d->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    if (d->end - i < 6 || memcmp(r->src + i, "pragma", 6) != 0)
        return false;
    i += 6;
    while (i < d->end && (r->src[i] == ' ' || r->src[i] == '\t'))
        i++;
    return d->end - i >= 4 && memcmp(r->src + i, "once", 4) == 0 &&
           (d->end - i == 4 || strchr(" \t\r/", r->src[i + 4]));
}

/* FNV-1a of the real path: one include guard name per file. */
static unsigned long long path_hash(const char *s)
{
    unsigned long long h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static bool on_chain(const include_ctx *c, const char *real)
{
    for (size_t k = 0; k < c->depth; k++)
        if (strcmp(c->chain[k], real) == 0)
            return true;
    return false;
}

/* The next significant line of src from *pos (comments removed, lines
 * continued by a backslash joined) into out; false at the end. A rough
 * scan, enough to see a header's directives: string literals are not
 * tracked, so a comment opener inside one may end the scan early, which
 * only makes a guarded header look unguarded. */
static bool next_significant_line(const char *src, size_t len, size_t *pos, bool *in_comment, char *out,
                                  size_t cap)
{
    while (*pos < len) {
        size_t n = 0;
        while (*pos < len && src[*pos] != '\n') {
            char ch = src[*pos];
            if (*in_comment) {
                if (ch == '*' && *pos + 1 < len && src[*pos + 1] == '/') {
                    *in_comment = false;
                    (*pos)++;
                }
            } else if (ch == '/' && *pos + 1 < len && src[*pos + 1] == '*') {
                *in_comment = true;
                (*pos)++;
            } else if (ch == '/' && *pos + 1 < len && src[*pos + 1] == '/') {
                while (*pos < len && src[*pos] != '\n')
                    (*pos)++;
                break;
            } else if (ch == '\\' && *pos + 1 < len && src[*pos + 1] == '\n') {
                (*pos)++; /* a continued line goes on */
            } else if (n + 1 < cap && !(n == 0 && (ch == ' ' || ch == '\t' || ch == '\r'))) {
                out[n++] = ch;
            }
            (*pos)++;
        }
        if (*pos < len)
            (*pos)++;
        while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t' || out[n - 1] == '\r'))
            n--;
        out[n] = '\0';
        if (n > 0)
            return true;
    }
    return false;
}

/* The directive's keyword ("ifndef", "endif", ...) and the rest of the
 * line after it; false when the line is not a directive. */
static bool directive_word(const char *line, char *word, size_t cap, const char **rest)
{
    if (line[0] != '#')
        return false;
    const char *p = line + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = 0;
    while ((*p >= 'a' && *p <= 'z') && n + 1 < cap)
        word[n++] = *p++;
    word[n] = '\0';
    while (*p == ' ' || *p == '\t')
        p++;
    *rest = p;
    return n > 0;
}

/* Whether the whole header is inside one `#ifndef NAME` / `#define NAME`
 * ... `#endif` (or `#if !defined(NAME)`): then a second #include of it is
 * empty, and the rewriter need not put its text in again. */
static bool has_include_guard(const char *src, size_t len)
{
    char line[512], word[16], name[256];
    const char *rest;
    size_t pos = 0;
    bool comment = false;
    if (!next_significant_line(src, len, &pos, &comment, line, sizeof line) ||
        !directive_word(line, word, sizeof word, &rest))
        return false;
    if (strcmp(word, "ifndef") == 0) {
        snprintf(name, sizeof name, "%s", rest);
    } else if (strcmp(word, "if") == 0 && strncmp(rest, "!defined", 8) == 0) {
        const char *p = rest + 8;
        while (*p == ' ' || *p == '(')
            p++;
        size_t n = strcspn(p, " )");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
    } else {
        return false;
    }
    name[strcspn(name, " \t")] = '\0';
    if (!name[0] || !next_significant_line(src, len, &pos, &comment, line, sizeof line) ||
        !directive_word(line, word, sizeof word, &rest) || strcmp(word, "define") != 0 ||
        strncmp(rest, name, strlen(name)) != 0 || (rest[strlen(name)] && !strchr(" \t(", rest[strlen(name)])))
        return false;
    int depth = 1;
    while (next_significant_line(src, len, &pos, &comment, line, sizeof line)) {
        if (depth == 0)
            return false; /* something after the guard's #endif */
        if (!directive_word(line, word, sizeof word, &rest))
            continue;
        if (strncmp(word, "if", 2) == 0)
            depth++;
        else if (strcmp(word, "endif") == 0)
            depth--;
    }
    return depth == 0;
}

/* 'G' when a header with an include guard, 'P' when a `#pragma once`
 * header, has been put in already; 0 otherwise. */
static char once_done(const include_ctx *c, const char *real)
{
    if (!c->once_done.data)
        return 0;
    for (const char *kind = "GP"; *kind; kind++) {
        char key[path_cap + 4];
        snprintf(key, sizeof key, "\n%c %s\n", *kind, real);
        if (strstr(c->once_done.data, key))
            return *kind;
    }
    return 0;
}

/* Puts `#include "real"` (the original file, by its full path) in place of
 * the directive, keeping its line count: for a cycle, and for a guarded
 * header already put in, whose guard makes it empty. The rewritten text is
 * compiled from another directory, so the name alone might not be found. */
static int include_original(rw *r, const directive *d, const char *real)
{
    strbuf text = {0};
    sb_puts(&text, "#include \"");
    sb_put_escaped(&text, real, strlen(real));
    sb_puts(&text, "\"");
    for (size_t i = d->start; i < d->end; i++)
        if (r->src[i] == '\n')
            sb_puts(&text, "\n"); /* a directive continued over lines keeps them */
    return add_edit_sb(r, d->start, d->end, &text);
}

/* Rewrites the header at `path` (real path `real`) into *text. */
static int rewrite_header(rw *r, const char *path, char *real, strbuf *text)
{
    include_ctx *c = r->inc;
    char *src = NULL;
    size_t len = 0;
    if (read_all(path, &src, &len, r->err, r->errcap) != 0)
        return -1;
    c->chain[c->depth++] = real;
    c->pragma_once = false;
    const bool guarded = has_include_guard(src, len);
    int rc = c->rewrite(src, len, path, false, c, text, r->err, r->errcap);
    c->guarded = guarded;
    c->depth--;
    free(src);
    return rc;
}

/* The edit that puts one header in place of its #include line. */
static int put_header(rw *r, const directive *d, const char *path)
{
    include_ctx *c = r->inc;
    char *real = realpath(path, NULL);
    if (!real)
        return 0;
    const char done = once_done(c, real);
    if (done == 'P') {
        /* A `#pragma once` header put in already: empty if that copy was
         * compiled (its guard macro is set), else the original file. */
        strbuf text = {0};
        sb_printf(&text, "#ifndef SIMTLAB_EMU_ONCE_%016llx\n#include \"", path_hash(real));
        sb_put_escaped(&text, real, strlen(real));
        sb_printf(&text, "\"\n#endif\n#line %d \"", d->last_line + 1);
        sb_put_escaped(&text, r->path, strlen(r->path));
        sb_puts(&text, "\"");
        free(real);
        return add_edit_sb(r, d->start, d->end, &text);
    }
    if (c->depth >= max_depth || on_chain(c, real) || done == 'G') {
        /* A cycle, or a guarded header already put in: the preprocessor's
         * guard makes it empty, from the original file. Putting a shared
         * header's text in at every #include would grow a tree of headers
         * that include each other's common ones without bound. */
        int rc = include_original(r, d, real);
        free(real);
        return rc;
    }
    strbuf body = {0};
    if (rewrite_header(r, path, real, &body) != 0) {
        free(body.data);
        free(real);
        return -1;
    }
    const bool once = c->pragma_once;
    if (once || c->guarded)
        sb_printf(&c->once_done, "\n%c %s\n", once ? 'P' : 'G', real);
    strbuf text = {0};
    if (once)
        sb_printf(&text, "#ifndef SIMTLAB_EMU_ONCE_%016llx\n#define SIMTLAB_EMU_ONCE_%016llx\n", path_hash(real),
                  path_hash(real));
    sb_puts(&text, "#line 1 \"");
    sb_put_escaped(&text, path, strlen(path));
    sb_puts(&text, "\"\n");
    sb_put(&text, body.data ? body.data : "", body.len);
    if (body.len && body.data[body.len - 1] != '\n')
        sb_puts(&text, "\n");
    if (once)
        sb_puts(&text, "#endif\n");
    sb_printf(&text, "#line %d \"", d->last_line + 1);
    sb_put_escaped(&text, r->path, strlen(r->path));
    sb_puts(&text, "\"");
    text.oom |= body.oom;
    free(body.data);
    free(real);
    sb_puts(&c->deps, path);
    sb_puts(&c->deps, "\n");
    return add_edit_sb(r, d->start, d->end, &text);
}

int inline_includes(rw *r)
{
    bool once = false;
    char name[path_cap], path[path_cap];
    for (size_t k = 0; k < r->ndirectives; k++) {
        const directive *d = &r->directives[k];
        bool quoted = false;
        if (r->inc->depth > 0 && is_pragma_once(r, d)) {
            once = true; /* the includer puts a guard around the whole text */
            if (add_edit_str(r, d->start, d->end, "") != 0)
                return -1;
            continue;
        }
        if (!parse_include(r, d, name, &quoted) || !resolve(r->inc, r->path, quoted, name, path))
            continue;
        if (put_header(r, d, path) != 0)
            return -1;
    }
    r->inc->pragma_once = once;
    return 0;
}

int include_tree(const char *path, const sl_include_opts *opts, rewrite_fn *rewrite, sl_outbuf *out,
                 sl_outbuf *deps, char *err, size_t errcap)
{
    static const sl_include_opts none = {NULL, 0, NULL};
    include_ctx c = {0};
    c.opts = opts ? opts : &none;
    c.rewrite = rewrite;
    char *src = NULL;
    size_t len = 0;
    if (read_all(path, &src, &len, err, errcap) != 0)
        return -1;
    char *real = realpath(path, NULL);
    if (real)
        c.chain[c.depth++] = real;
    strbuf sb = {0};
    int rc = rewrite(src, len, path, true, &c, &sb, err, errcap);
    free(src);
    free(real);
    if (rc == 0 && (sb.oom || c.deps.oom)) {
        if (err && errcap)
            snprintf(err, errcap, "%s: error: out of memory while rewriting", path);
        rc = -1;
    }
    free(c.template_kernels.data);
    free(c.kernel_defaults.data);
    free(c.once_done.data);
    free(c.kernel_arities.data);
    name_set_free(&c.hostfn_names);
    if (rc != 0) {
        free(sb.data);
        free(c.deps.data);
        return -1;
    }
    out->data = sb.data;
    out->len = sb.len;
    out->cap = sb.cap;
    if (deps) {
        deps->data = c.deps.data;
        deps->len = c.deps.len;
        deps->cap = c.deps.cap;
    } else {
        free(c.deps.data);
    }
    return 0;
}
