/* slrewrite — turns a CUDA source file into C++ for the simtlab emulator.
 *
 *   slrewrite input.cu -o output.cpp [-I dir]... [--emu-include dir] [-MF depfile]
 *
 * The build runs it on every .cu of an emulator build (sl_emu_rewrite, in
 * emu/cmake/SimtlabEmu.cmake) and slcc runs it on a student's own files. What it rewrites is described
 * in tools/rewriter/rewrite.h; this file only reads and writes files.
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
    fputs("usage: slrewrite input.cu -o output.cpp [-I dir]... [--emu-include dir] [-MF depfile]\n"
          "Rewrites CUDA <<<>>> launches and __shared__ declarations into C++ that\n"
          "compiles against the simtlab emulator's headers (emu/include); line numbers\n"
          "are kept, so messages point at input.cu. The user's own headers that\n"
          "input.cu includes (beside it, or in an -I dir) are rewritten into the\n"
          "output in place of their #include lines; --emu-include names the emulator's\n"
          "headers, which are never followed; -MF writes the headers read as a make\n"
          "dependency file.\n",
          to);
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

/* "output: input header1 header2 ..." for make (spaces escaped). */
static int write_depfile(const char *depfile, const char *output, const char *input, const sl_outbuf *deps)
{
    size_t cap = strlen(output) + strlen(input) + 2 * (deps->len + 1) + 16;
    char *text = malloc(cap), *p = text;
    if (!text) {
        fprintf(stderr, "slrewrite: out of memory\n");
        return -1;
    }
    p += sprintf(p, "%s: %s", output, input);
    for (size_t i = 0; i < deps->len;) {
        *p++ = ' ';
        for (; i < deps->len && deps->data[i] != '\n'; i++) {
            if (deps->data[i] == ' ')
                *p++ = '\\';
            *p++ = deps->data[i];
        }
        i++;
    }
    *p++ = '\n';
    int rc = write_file(depfile, text, (size_t)(p - text));
    free(text);
    return rc;
}

/* -I dir or -Idir: the value into *value; advances *i past it. */
static int dir_value(int argc, char **argv, int *i, const char **value)
{
    if (argv[*i][2] != '\0') {
        *value = argv[*i] + 2;
        return 0;
    }
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 0;
}

int main(int argc, char **argv)
{
    const char *input = NULL, *output = NULL, *depfile = NULL;
    const char **dirs = calloc((size_t)argc, sizeof(char *));
    sl_include_opts opts = {dirs, 0, NULL};
    if (!dirs) {
        fprintf(stderr, "slrewrite: out of memory\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(dirs);
            return 0;
        }
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            output = argv[++i];
        } else if (strcmp(argv[i], "-MF") == 0 && i + 1 < argc) {
            depfile = argv[++i];
        } else if (strcmp(argv[i], "--emu-include") == 0 && i + 1 < argc) {
            opts.emu_include = argv[++i];
        } else if (strncmp(argv[i], "-I", 2) == 0) {
            if (dir_value(argc, argv, &i, &dirs[opts.ndirs]) != 0) {
                fprintf(stderr, "slrewrite: '-I' needs a directory\n");
                free(dirs);
                return 2;
            }
            opts.ndirs++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "slrewrite: unknown option '%s'\n", argv[i]);
            usage(stderr);
            free(dirs);
            return 2;
        } else if (!input) {
            input = argv[i];
        } else {
            fprintf(stderr, "slrewrite: one input file only ('%s' and '%s' given)\n", input,
                    argv[i]);
            free(dirs);
            return 2;
        }
    }
    if (!input || !output) {
        fprintf(stderr, "slrewrite: %s\n", !input ? "no input file" : "no output file (-o)");
        usage(stderr);
        free(dirs);
        return 2;
    }

    sl_outbuf out = {0}, deps = {0};
    char err[1024];
    int rc = sl_rewrite_tree(input, &opts, &out, &deps, err, sizeof err);
    free(dirs);
    if (rc != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    rc = write_file(output, out.data, out.len);
    if (rc == 0 && depfile)
        rc = write_depfile(depfile, output, input, &deps);
    sl_outbuf_free(&out);
    sl_outbuf_free(&deps);
    return rc == 0 ? 0 : 1;
}
