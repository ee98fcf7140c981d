/* slrewrite — turns a CUDA source file into C++ for the simtlab emulator.
 *
 *   slrewrite input.cu -o output.cpp
 *
 * The build runs it on every .cu of an emulator build (sl_emu_rewrite, in
 * emu/cmake/SimtlabEmu.cmake) and slcc runs it on a student's own files. What it rewrites is described
 * in rewrite.h; this file only reads and writes files.
 * Exit status: 0 done, 1 the input could not be rewritten or read or the
 * output not written (one message on stderr), 2 usage error.
 */
#include "rewrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *to)
{
    fputs("usage: slrewrite input.cu -o output.cpp\n"
          "Rewrites CUDA <<<>>> launches and __shared__ declarations into C++ that\n"
          "compiles against the simtlab emulator's headers (emu/include); line numbers\n"
          "are kept, so messages point at input.cu.\n",
          to);
}

/* Reads the whole file into a malloc'd buffer. */
static int read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "slrewrite: cannot open '%s': %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = realloc(buf, cap * 2);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    int failed = !buf || ferror(f);
    if (failed)
        fprintf(stderr, "slrewrite: cannot read '%s': %s\n", path,
                buf ? strerror(errno) : "out of memory");
    fclose(f);
    if (failed) {
        free(buf);
        return -1;
    }
    *data = buf;
    *len = n;
    return 0;
}

/* Creates the directories above `path` that do not exist yet (mkdir -p of
 * its parent): the build writes every output under build/emu_gen/<the
 * source's own folders>, which nothing else creates. */
static int make_parents(const char *path)
{
    size_t n = strlen(path);
    char *dir = malloc(n + 1);
    if (!dir) {
        fprintf(stderr, "slrewrite: out of memory\n");
        return -1;
    }
    memcpy(dir, path, n + 1);
    int rc = 0;
    for (char *p = dir + 1; *p && rc == 0; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "slrewrite: cannot create directory '%s' for '%s': %s\n", dir, path,
                    strerror(errno));
            rc = -1;
        }
        *p = '/';
    }
    free(dir);
    return rc;
}

/* Writes the output only once it is complete; a failed write removes it, so
 * that make never sees a half-written file as up to date. */
static int write_file(const char *path, const char *data, size_t len)
{
    if (make_parents(path) != 0)
        return -1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "slrewrite: cannot create '%s': %s\n", path, strerror(errno));
        return -1;
    }
    size_t written = fwrite(data, 1, len, f);
    int failed = written != len;
    if (fclose(f) != 0)
        failed = 1;
    if (failed) {
        fprintf(stderr, "slrewrite: cannot write '%s': %s\n", path, strerror(errno));
        remove(path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *input = NULL, *output = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            output = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "slrewrite: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        } else if (!input) {
            input = argv[i];
        } else {
            fprintf(stderr, "slrewrite: one input file only ('%s' and '%s' given)\n", input,
                    argv[i]);
            return 2;
        }
    }
    if (!input || !output) {
        fprintf(stderr, "slrewrite: %s\n", !input ? "no input file" : "no output file (-o)");
        usage(stderr);
        return 2;
    }

    char *src = NULL;
    size_t len = 0;
    if (read_file(input, &src, &len) != 0)
        return 1;
    sl_outbuf out = {0};
    char err[1024];
    int rc = sl_rewrite(src, len, input, &out, err, sizeof err);
    free(src);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    rc = write_file(output, out.data, out.len);
    sl_outbuf_free(&out);
    return rc == 0 ? 0 : 1;
}
