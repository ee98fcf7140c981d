/* slcc — the precompiled prelude (slcc_pch.h).
 *
 * Every .cu that slrewrite rewrites starts with the same lines
 * (SL_REWRITE_PRELUDE: the emulator's <cuda_runtime.h> and what it
 * includes, some 60,000 lines of C++), and parsing them is most of a small
 * program's compile: 0.8 CPU-s of a --profile build, 0.35 with GCC's
 * precompiled header of the prelude (measured on chapter 02's exercise 3,
 * GCC 12). The compile then gets `-include PRELUDE`, and GCC finds
 * PRELUDE.gch beside it; the rewritten file's own lines after it change
 * nothing (an identical #define, headers behind their guards).
 *
 * A precompiled header is only right for the flags and headers it was made
 * with, so an entry is kept per set of flags, and used only when all of
 * this holds:
 *   - the key: every flag of the compile but the user's include
 *     directories (compiler, -std, -D and -U in order, the emulator's and the
 *     guard's directories, -O, -g, -f, the build mode's flags), the
 *     variables GCC_EXEC_PREFIX and COMPILER_PATH, and the prelude's text;
 *     the entry holds the whole key, compared byte for byte;
 *   - every header the prelude read (GCC's dependency list) still has the
 *     modification time and size it had, and so has every folder under
 *     slcc's own include directories (a header added there); otherwise it
 *     is made again;
 *   - nothing in the user's -I, -isystem, CPATH or the .cu's own directory
 *     could shadow one of those headers (a file at any trailing part of a header's
 *     path, e.g. DIR/stdio.h or DIR/bits/stl_vector.h) or answer a
 *     __has_include the headers asked; otherwise this build goes without.
 * slcc.c passes only the flags it knows to be safe (slcc.c, pch_flags_ok).
 *
 * Each entry is a folder named by a hash of its key, with a folder per
 * generation (the prelude and its .gch) and `current`, which names the
 * generation with its key and dependencies and is replaced by a rename, so
 * that builds running at once never see half an entry. Everything here
 * fails quietly: a folder that cannot be written (the grader's sandbox),
 * a compile of the prelude that fails, anything unexpected, and the build
 * goes on as without it. SIMTLAB_SLCC_PCH=0 turns it off. */
#include "slcc_pch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rewrite.h" /* SL_REWRITE_PRELUDE, SL_REWRITE_SAYS_VOLATILE */
#include "rewrite_text.h" /* strbuf */

#define PCH_FORMAT "slcc-pch 1"
#define PATH_CAP 4096
/* Making one costs about 2 CPU-s, 4 small compiles' worth of what it saves:
 * it is made by the third build with a set of flags, so that a set used
 * once or twice (a test's -DCASE=N) costs nothing more. */
#define MADE_AT 3
/* A generation that `current` no longer names is removed this long after it
 * was made (a build still reading it has long finished). */
#define OLD_GENERATION_S 600

/* Growable text: the rewriter's strbuf (tools/rewriter/rewrite_text.c). */

/* The whole of a file, NUL-terminated; false if it cannot be read. */
static bool read_all(const char *path, strbuf *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[65536];
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0)
        sb_put(out, buf, (size_t)got);
    close(fd);
    return got == 0 && !out->oom && out->data;
}

/* Writes `t` to `path` through a temporary file and a rename. */
static bool write_atomically(const char *path, const strbuf *t)
{
    char tmp[PATH_CAP + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    bool ok = write(fd, t->data, t->len) == (ssize_t)t->len;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    unlink(tmp);
    return false;
}

/* ---- the key ------------------------------------------------------------------ */

/* Every flag, the variables that add include directories, and the prelude. */
static void key_text(const slcc_pch_request *req, strbuf *key)
{
    /* (CPATH's and CPLUS_INCLUDE_PATH's folders are the user's, checked as -I's are) */
    static const char *const vars[] = {"GCC_EXEC_PREFIX", "COMPILER_PATH", "SOURCE_DATE_EPOCH"};
    sb_puts(key, PCH_FORMAT "\n");
    for (size_t k = 0; req->flags[k]; k++) {
        sb_puts(key, "flag ");
        sb_puts(key, req->flags[k]);
        sb_puts(key, "\n");
    }
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *v = getenv(vars[k]);
        sb_printf(key, "env %s%s%s\n", vars[k], v ? "=" : "", v ? v : "");
    }
    sb_puts(key, "prelude " SL_REWRITE_PRELUDE);
}

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t k = 0; k < n; k++) {
        h ^= (unsigned char)s[k];
        h *= 1099511628211ull;
    }
    return h;
}

/* ---- does this file start with the prelude? ------------------------------- */

static bool starts_with_prelude(const char *cpp)
{
    char head[sizeof SL_REWRITE_SAYS_VOLATILE + sizeof SL_REWRITE_PRELUDE];
    FILE *f = fopen(cpp, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    const char *p = head;
    if (strncmp(p, SL_REWRITE_SAYS_VOLATILE, strlen(SL_REWRITE_SAYS_VOLATILE)) == 0)
        p += strlen(SL_REWRITE_SAYS_VOLATILE);
    return strncmp(p, SL_REWRITE_PRELUDE, strlen(SL_REWRITE_PRELUDE)) == 0;
}

/* ---- the headers the prelude read -------------------------------------------- */

/* Each "name" of __has_include(<name>) or __has_include_next("name") in
 * `src`, as a `probe` line; a __has_include whose operand is not a literal
 * name (a macro) makes `*computed` true. */
static void find_probes(const char *src, strbuf *out, bool *computed)
{
    for (const char *p = strstr(src, "__has_include"); p; p = strstr(p, "__has_include")) {
        p += strlen("__has_include");
        if (strncmp(p, "_next", 5) == 0)
            p += 5;
        if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
            continue; /* a longer identifier (__has_include_foo) */
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '(') /* `#ifdef __has_include`, `defined(__has_include)`: the operator's own test */
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        char close = *p == '<' ? '>' : *p == '"' ? '"' : '\0';
        if (!close) {
            *computed = true;
            continue;
        }
        const char *name = ++p;
        while (*p && *p != close && *p != '\n')
            p++;
        if (*p != close || p == name) {
            *computed = true;
            continue;
        }
        sb_puts(out, "probe ");
        sb_put(out, name, (size_t)(p - name));
        sb_puts(out, "\n");
    }
}

/* GCC's dependency file (-MT pch) -> "dep SEC NSEC SIZE PATH" lines, and the
 * probes of each header. False if a path cannot be taken (unreadable, or a
 * newline in it). The prelude itself, in `entry`, is left out. */
static bool record_deps(const char *depfile, const char *entry, strbuf *out)
{
    strbuf d = {0};
    if (!read_all(depfile, &d))
        return false;
    const char *p = strstr(d.data, "pch:");
    bool ok = p != NULL, computed = false;
    p = p ? p + 4 : "";
    char path[PATH_CAP];
    while (ok && *p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n'))
            p += *p == '\\' ? 2 : 1;
        if (!*p)
            break;
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && !(*p == '\\' && p[1] == '\n')) {
            if (*p == '\\' && (p[1] == ' ' || p[1] == '#' || p[1] == '\\'))
                p++;
            else if (*p == '$' && p[1] == '$')
                p++;
            if (n + 1 >= sizeof path) {
                ok = false;
                break;
            }
            path[n++] = *p++;
        }
        path[n] = '\0';
        if (strncmp(path, entry, strlen(entry)) == 0 && path[strlen(entry)] == '/')
            continue; /* the prelude itself */
        struct stat st;
        if (!ok || stat(path, &st) != 0) {
            ok = false;
            break;
        }
        sb_printf(out, "dep %lld %ld %lld %s\n", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
                 (long long)st.st_size, path);
        strbuf src = {0};
        if (!read_all(path, &src))
            ok = false;
        else
            find_probes(src.data, out, &computed);
        free(src.data);
    }
    if (computed)
        sb_puts(out, "computed-probe\n");
    free(d.data);
    return ok && !out->oom;
}

/* ---- using an entry -------------------------------------------------------------- */

static bool exists(const char *dir, const char *name)
{
    char path[2 * PATH_CAP];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0;
}

/* True if a user directory holds a file at any trailing part of `path`. */
static bool shadowed(const slcc_pch_request *req, const char *path)
{
    for (const char *part = path; part; part = strchr(part, '/')) {
        while (*part == '/')
            part++;
        if (!*part)
            break;
        for (size_t k = 0; k < req->n_user_dirs; k++)
            if (exists(req->user_dirs[k], part))
                return true;
    }
    return false;
}

typedef enum { ENTRY_MISSING, ENTRY_STALE, ENTRY_OTHER_KEY, ENTRY_USABLE, ENTRY_SHADOWED } entry_state;

/* Reads `current`: the key, the generation (into gen), each dependency and
 * probe, checked against the files and the user directories. */
static entry_state check_current(const slcc_pch_request *req, const char *entry, const strbuf *key, char *gen,
                                 size_t cap)
{
    char path[PATH_CAP + 16];
    snprintf(path, sizeof path, "%s/current", entry);
    strbuf cur = {0};
    if (!read_all(path, &cur)) {
        free(cur.data);
        return ENTRY_MISSING;
    }
    entry_state state = ENTRY_STALE;
    char *p = cur.data;
    if (strncmp(p, key->data, key->len) != 0 || strncmp(p + key->len, "gen ", 4) != 0) {
        state = ENTRY_OTHER_KEY;
        goto done;
    }
    p += key->len + 4;
    char *eol = strchr(p, '\n');
    if (!eol || (size_t)(eol - p) >= cap)
        goto done;
    snprintf(gen, cap, "%.*s", (int)(eol - p), p);
    bool shadow = false, computed = false;
    for (p = eol + 1; *p; p = eol + 1) {
        eol = strchr(p, '\n');
        if (!eol)
            goto done;
        *eol = '\0';
        long long sec, size;
        long nsec;
        int used = 0;
        if (sscanf(p, "dep %lld %ld %lld %n", &sec, &nsec, &size, &used) == 3 && used > 0) {
            struct stat st;
            if (stat(p + used, &st) != 0 || st.st_mtim.tv_sec != sec || st.st_mtim.tv_nsec != nsec ||
                st.st_size != size)
                goto done;
            shadow = shadow || shadowed(req, p + used);
        } else if (sscanf(p, "dir %lld %ld %n", &sec, &nsec, &used) == 2 && used > 0) {
            struct stat st;
            if (lstat(p + used, &st) != 0 || st.st_mtim.tv_sec != sec || st.st_mtim.tv_nsec != nsec)
                goto done;
        } else if (strncmp(p, "probe ", 6) == 0) {
            for (size_t k = 0; k < req->n_user_dirs && !shadow; k++)
                shadow = exists(req->user_dirs[k], p + 6);
        } else if (strcmp(p, "computed-probe") == 0) {
            computed = true;
        } else {
            goto done;
        }
    }
    char gch[PATH_CAP + 1024];
    snprintf(gch, sizeof gch, "%s/%s/prelude.h.gch", entry, gen);
    if (access(gch, R_OK) != 0)
        goto done;
    state = shadow || (computed && req->n_user_dirs > 0) ? ENTRY_SHADOWED : ENTRY_USABLE;
done:
    free(cur.data);
    return state;
}

/* ---- making an entry -------------------------------------------------------------- */

static void remove_generation(const char *dir)
{
    static const char *const files[] = {"prelude.h", "prelude.h.gch", "prelude.d"};
    char path[PATH_CAP + 1024];
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    rmdir(dir);
}

/* The generations of this entry that `current` no longer names, once old. */
static void remove_old_generations(const char *entry, const char *keep)
{
    DIR *d = opendir(entry);
    if (!d)
        return;
    const time_t now = time(NULL);
    struct dirent *e;
    char path[PATH_CAP + 512];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != 'g' || strcmp(e->d_name, keep) == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", entry, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && now - st.st_mtime > OLD_GENERATION_S)
            remove_generation(path);
    }
    closedir(d);
}

/* "dir SEC NSEC PATH" for `path` and every folder under it (links not
 * followed): a file added to or removed from any of them changes one. */
static void record_dirs(const char *path, int depth, strbuf *out)
{
    struct stat st;
    if (depth > 16 || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    sb_printf(out, "dir %lld %ld %s\n", (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, path);
    DIR *d = opendir(path);
    if (!d) {
        out->oom = true; /* cannot be checked: no entry */
        return;
    }
    struct dirent *e;
    char inner[PATH_CAP];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (snprintf(inner, sizeof inner, "%s/%s", path, e->d_name) >= (int)sizeof inner) {
            out->oom = true;
            break;
        }
        record_dirs(inner, depth + 1, out);
    }
    closedir(d);
}

/* Runs argv with its output thrown away; true on exit status 0. */
static bool run_quietly(char *const *argv)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Compiles the prelude into a new generation of the entry and makes it
 * current. */
static bool make_generation(const slcc_pch_request *req, const char *entry, const strbuf *key, char *gen,
                            size_t cap)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(gen, cap, "g%ld-%lld%09ld", (long)getpid(), (long long)now.tv_sec, now.tv_nsec);
    char dir[PATH_CAP + 512], header[PATH_CAP + 1024], gch[PATH_CAP + 1024], deps[PATH_CAP + 1024];
    snprintf(dir, sizeof dir, "%s/%s", entry, gen);
    snprintf(header, sizeof header, "%s/prelude.h", dir);
    snprintf(gch, sizeof gch, "%s/prelude.h.gch", dir);
    snprintf(deps, sizeof deps, "%s/prelude.d", dir);
    if (mkdir(dir, 0755) != 0)
        return false;
    strbuf prelude = {0};
    sb_puts(&prelude, SL_REWRITE_PRELUDE);
    bool ok = write_atomically(header, &prelude);
    free(prelude.data);

    size_t nflags = 0;
    while (req->flags[nflags])
        nflags++;
    const char *tail[] = {"-x", "c++-header", header, "-o", gch, "-MD", "-MF", deps, "-MT", "pch", NULL};
    const size_t ntail = sizeof tail / sizeof tail[0];
    char **argv = calloc(nflags + ntail, sizeof *argv);
    ok = ok && argv;
    if (ok) {
        memcpy(argv, req->flags, nflags * sizeof *argv);
        memcpy(argv + nflags, tail, ntail * sizeof *argv);
        if (req->verbose) {
            fputs("slcc: precompiling the emulator's headers for these flags:", stderr);
            for (size_t k = 0; argv[k]; k++)
                fprintf(stderr, " %s", argv[k]);
            fputc('\n', stderr);
        }
        ok = run_quietly(argv);
    }
    free(argv);

    strbuf cur = {0};
    sb_put(&cur, key->data, key->len);
    sb_printf(&cur, "gen %s\n", gen);
    ok = ok && record_deps(deps, entry, &cur);
    for (size_t k = 0; ok && k < req->n_own_dirs; k++)
        record_dirs(req->own_dirs[k], 0, &cur);
    char current[PATH_CAP + 16];
    snprintf(current, sizeof current, "%s/current", entry);
    ok = ok && !cur.oom && write_atomically(current, &cur);
    free(cur.data);
    if (!ok)
        remove_generation(dir);
    else
        remove_old_generations(entry, gen);
    return ok;
}

static bool mkdirs(const char *path)
{
    char p[PATH_CAP];
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return false;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return false;
            *s = '/';
        }
    return mkdir(p, 0755) == 0 || errno == EEXIST;
}

/* Counts this build among those with the entry's flags (a byte each in
 * `seen`); returns how many there have been, this one included (0 if the
 * folder cannot be written). */
static long long sightings(const char *entry)
{
    char seen[PATH_CAP + 16];
    snprintf(seen, sizeof seen, "%s/seen", entry);
    if (!mkdirs(entry))
        return 0;
    int fd = open(seen, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return 0;
    struct stat st;
    const bool ok = write(fd, ".", 1) == 1 && fstat(fd, &st) == 0;
    close(fd);
    return ok ? (long long)st.st_size : 0;
}

bool slcc_pch_prelude(const slcc_pch_request *req, char *prelude, size_t cap)
{
    const char *off = getenv("SIMTLAB_SLCC_PCH");
    if (!req->cache_dir || !req->cache_dir[0] || strlen(req->cache_dir) > PATH_CAP / 2 ||
        (off && strcmp(off, "0") == 0) || !starts_with_prelude(req->cpp))
        return false;
    strbuf key = {0};
    key_text(req, &key);
    if (key.oom) {
        free(key.data);
        return false;
    }
    char entry[PATH_CAP], gen[256] = "";
    snprintf(entry, sizeof entry, "%s/%016llx", req->cache_dir, (unsigned long long)fnv1a(key.data, key.len));
    entry_state state = check_current(req, entry, &key, gen, sizeof gen);
    /* made by the MADE_AT-th build with these flags (those before it leave
     * a mark; those while it is being made go without), and again when its
     * headers have changed; tried again every 16th build if it failed */
    long long seen = state == ENTRY_MISSING ? sightings(entry) : 0;
    if (seen == MADE_AT || (seen > MADE_AT && seen % 16 == 0) || state == ENTRY_STALE) {
        if (make_generation(req, entry, &key, gen, sizeof gen))
            state = check_current(req, entry, &key, gen, sizeof gen);
    }
    free(key.data);
    if (state != ENTRY_USABLE)
        return false;
    int n = snprintf(prelude, cap, "%s/%s/prelude.h", entry, gen);
    return n > 0 && (size_t)n < cap;
}
