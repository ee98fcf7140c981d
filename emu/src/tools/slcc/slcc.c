/* slcc — builds a student's own CUDA program to run on the simtlab CPU
 * emulator, the way nvcc builds it for a GPU:
 *
 *   slcc [options] file.cu [more.cu file.c obj.o lib.a ...] -o prog
 *
 * Each .cu goes through slrewrite into a temporary directory and is then
 * compiled as C++17 with GNU extensions (gnu++17, nvcc 13's dialect for
 * .cu files) with the emulator's headers first on the include path; each
 * .cpp (.cc, .cxx) is compiled as host gnu++17 and each .c in the host
 * compiler's own default dialect (gnu17 for GCC 12), against the same
 * headers, as nvcc hands them to the host compiler (push_nvcc_defaults
 * lists what else nvcc gives every file, and what slcc leaves out); after the
 * user's -I comes the toolkit guard, where every CUDA toolkit header the
 * emulator lacks is a one-line #error naming it, so that a toolkit installed
 * on the same machine is never compiled in its place; everything is linked
 * with the emulator runtime, Boost.Context (the CUDA threads are fibers) and
 * OpenBLAS (the cuBLAS stand-in). The paths are compiled in by
 * emu/CMakeLists.txt. Children run by fork + execvp, never through a shell,
 * so file names with spaces or quotes need no care.
 *
 * The kernels of the .cu files are built checked by default (memcheck and
 * racecheck at every load and store, emu/docs/checks.md "racecheck and
 * memcheck"), with --profile also for the SIMT counters, or with --fast
 * without checks: "build modes" below.
 *
 * Exit status: 0 built; 2 usage error; otherwise the failing step's status.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rewrite.h" /* SL_REWRITE_SAYS_VOLATILE */
#include "slcc_pch.h"

#ifndef SLCC_REWRITER
#error "SLCC_REWRITER (the slrewrite path) must be defined by the build"
#endif
#ifndef SLCC_TOOLKIT_GUARD
#error "SLCC_TOOLKIT_GUARD (the toolkit guard directory) must be defined by the build"
#endif

/* ======================================================================
 * argument vectors
 * ====================================================================== */

/* A NULL-terminated, growable argv whose strings it owns. */
typedef struct argvec {
    char **v;
    size_t n, cap;
    bool oom;
} argvec;

static void av_push(argvec *a, const char *s)
{
    if (a->oom)
        return;
    if (a->n + 2 > a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 16;
        char **grown = realloc(a->v, cap * sizeof(char *));
        if (!grown) {
            a->oom = true;
            return;
        }
        a->v = grown;
        a->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy) {
        a->oom = true;
        return;
    }
    a->v[a->n++] = copy;
    a->v[a->n] = NULL;
}

static void av_push_all(argvec *a, const argvec *from)
{
    for (size_t k = 0; k < from->n; k++)
        av_push(a, from->v[k]);
    a->oom |= from->oom;
}

static void av_free(argvec *a)
{
    for (size_t k = 0; k < a->n; k++)
        free(a->v[k]);
    free(a->v);
    *a = (argvec){0};
}

/* ======================================================================
 * options
 * ====================================================================== */

typedef enum { IN_CU, IN_CPP, IN_C, IN_LINK } input_kind;

typedef struct options {
    argvec preproc;  /* -I -D -U, in order: both languages */
    argvec codegen;  /* -O, -g, -W, -f flags: compiles (-f and -g also the link) */
    argvec linkopts; /* -L -l -Wl,*, in order */
    argvec inputs;
    input_kind *kinds;
    const char *c_std;   /* -std= for .c files */
    const char *cxx_std; /* -std=c++NN (17 or later) for .cu and .cpp files */
    const char *output;
    bool compile_only;
    bool verbose;
    bool profile; /* --profile: the checks and the SIMT counters (emu/README.md) */
    bool fast;    /* --fast: kernels without the checks (build_mode below) */
    bool racecheck; /* --racecheck: the checked build, which is the default, by name */
    bool no_spin_watch; /* --no-spin-watch: kernels without the spin watch */
} options;

static void usage(FILE *to)
{
    fputs("usage: slcc [options] file.cu [file.cu file.c file.o lib.a ...] -o prog\n"
          "Builds a CUDA program to run on the simtlab CPU emulator (no GPU needed).\n"
          "  .cu  rewritten by slrewrite, compiled as gnu++17 against the emulator's headers\n"
          "  .cpp .cc .cxx  compiled as host gnu++17 against the same headers\n"
          "  .c   compiled in the C compiler's default dialect (gnu17 for GCC 12), against\n"
          "       the same headers\n"
          "  .o .a  linked as given\n"
          "  As nvcc 13 with GCC: C++ is C++17 with GNU extensions, C is the compiler's own\n"
          "  default (struct timezone, gettimeofday, M_PI are declared); -std=c++NN makes\n"
          "  .cu and .cpp strict ISO, -std=cNN (slcc only; nvcc refuses it) does so for .c.\n"
          "  Every file sees __CUDACC_VER_MAJOR__=13, __CUDACC_VER_MINOR__=0,\n"
          "  __CUDA_API_VER_MAJOR__=13 and __CUDACC_DEVICE_ATOMIC_BUILTINS__ as with nvcc;\n"
          "  __CUDACC__ and __NVCC__ are not defined (they select nvcc's own headers and\n"
          "  PTX); test SIMTLAB_EMU for the emulator. The link adds -lpthread -ldl -lrt.\n"
          "options: -o FILE (required), -c (compile one file to FILE), -v (print each\n"
          "command), -I -D -U, -O*, -g, -W*, -f*, -std=c.. (.c) or -std=c++.. (C++, 17 or\n"
          "later), -L, -l, -Wl,...\n"
          "  nvcc's options that shape only GPU code or pick nvcc's tools are accepted and\n"
          "             change nothing: -arch, -gencode, -code, -lineinfo, -G, --use_fast_math,\n"
          "             -maxrregcount, -Xptxas, -Xnvlink, -ccbin, -cudart, -ftz, -prec-div,\n"
          "             -prec-sqrt, -fmad, --expt-relaxed-constexpr, --extended-lambda,\n"
          "             -res-usage; -Xcompiler A,B and -Xlinker A,B pass A and B on, -isystem DIR\n"
          "             and -m64 too\n"
          "  -rdc=true|false, --relocatable-device-code=..., -dc (that is -c), -lcudadevrt:\n"
          "             accepted for dynamic parallelism's nvcc command lines; the\n"
          "             emulator needs none of them (device launches always work)\n"
          "build modes (each .cu; .c and .cpp files are host code, never checked):\n"
          "  (default)  checked: kernels run under the emulator's compute-sanitizer:\n"
          "             memcheck (a __shared__ index past the end of an array, past the\n"
          "             dynamic size or before the start; a misaligned global or shared\n"
          "             access; an atomic on host pageable memory: stack, malloc, new),\n"
          "             racecheck (shared-memory hazards: a missing __syncthreads(), or\n"
          "             __syncwarp() in warp-synchronous code) and synccheck (barriers\n"
          "             not reached by the whole block); the first error fails the launch\n"
          "             with its block, thread, line and variable or allocation.\n"
          "             Warp-synchronous code on volatile shared memory runs as a\n"
          "             converged warp runs it, with a racecheck warning that names\n"
          "             __syncwarp(). Costs a call at every load and store of the\n"
          "             kernels (emu/docs/speed.md, \"Speed\": within 5x of --fast on the\n"
          "             throughput benchmark). SIMTLAB_EMU_RACECHECK=0 or\n"
          "             SIMTLAB_EMU_MEMCHECK=0 turns one off when the program runs\n"
          "  --racecheck  the same checked build, by name\n"
          "  --fast     no memcheck or racecheck: for timing only. Synccheck, use after\n"
          "             free, shared memory far out of range and the spin watch remain\n"
          "  --profile  the checked build, and model what a GPU would do (SIMT efficiency,\n"
          "             coalescing, bank conflicts) as the program runs; print it per\n"
          "             kernel at exit (a call at every basic block besides)\n"
          "  --no-spin-watch  leave out the spin watch (a thread spinning on a volatile\n"
          "             flag lets the others run; a spin without end fails the launch):\n"
          "             faster kernels, but such a spin hangs\n",
          to);
}

/* Prints why, then the usage; returns the usage exit status. */
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("slcc: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n", stderr);
    usage(stderr);
    return 2;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int classify_input(const char *path, input_kind *kind)
{
    if (ends_with(path, ".cu"))
        *kind = IN_CU;
    else if (ends_with(path, ".cpp") || ends_with(path, ".cc") || ends_with(path, ".cxx") ||
             ends_with(path, ".c++") || ends_with(path, ".C"))
        *kind = IN_CPP;
    else if (ends_with(path, ".c"))
        *kind = IN_C;
    else if (ends_with(path, ".o") || ends_with(path, ".a") || ends_with(path, ".so"))
        *kind = IN_LINK;
    else
        return usage_error("'%s': unknown file type (expected .cu, .cpp, .cc, .cxx, .c, .o, .a or .so)",
                           path);
    if (access(path, R_OK) != 0)
        return usage_error("cannot read input '%s': %s", path, strerror(errno));
    return 0;
}

/* -I dir / -Idir and the like: pushes the flag with its value attached. */
static int take_value(int argc, char **argv, int *i, size_t flag_len, argvec *to)
{
    const char *arg = argv[*i];
    if (arg[flag_len] != '\0') {
        av_push(to, arg);
        return 0;
    }
    if (*i + 1 >= argc)
        return usage_error("'%s' needs a value", arg);
    char joined[4096];
    int n = snprintf(joined, sizeof joined, "%.*s%s", (int)flag_len, arg, argv[++*i]);
    if (n < 0 || (size_t)n >= sizeof joined)
        return usage_error("value of '%s' is too long", arg);
    av_push(to, joined);
    return 0;
}

/* -lcublas, -lcublasLt, -lcurand, -lcusparse, -lcusolver, -lcudadevrt, -lnvToolsExt and
 * -lcuda (or "-l cublas"), as nvcc command lines give them: the emulator runtime is those
 * libraries (cudadevrt: dynamic parallelism's device runtime; nvToolsExt:
 * NVTX, whose calls the emulator's headers define; cuda: the driver API's
 * calls that <cuda.h> declares), so slcc drops them; a CUDA
 * toolkit installed on the same machine would otherwise be linked, and its
 * functions would replace the emulator's. Steps over the value when it is
 * a separate word. */
static bool is_emulated_library(int argc, char **argv, int *i)
{
    static const char *const provided[] = {"cublas", "cublasLt", "curand", "cusparse", "cusolver",
                                           "cudadevrt", "nvToolsExt", "cuda"};
    const char *a = argv[*i];
    if (strncmp(a, "-l", 2) != 0)
        return false;
    bool separate = a[2] == '\0';
    const char *name = separate ? (*i + 1 < argc ? argv[*i + 1] : "") : a + 2;
    for (size_t k = 0; k < sizeof provided / sizeof provided[0]; k++)
        if (strcmp(name, provided[k]) == 0) {
            *i += separate;
            return true;
        }
    return false;
}

static int add_input(options *o, const char *path)
{
    input_kind kind = IN_LINK;
    int rc = classify_input(path, &kind);
    if (rc != 0)
        return rc;
    input_kind *grown = realloc(o->kinds, (o->inputs.n + 1) * sizeof(input_kind));
    if (!grown)
        return usage_error("out of memory");
    o->kinds = grown;
    o->kinds[o->inputs.n] = kind;
    av_push(&o->inputs, path);
    return 0;
}

/* c++17, gnu++1z, c++20, c++2a, c++23, c++2b, c++26, c++2c ... */
static bool cxx_std_is_17_or_later(const char *std)
{
    const char *v = strstr(std, "++") + 2;
    return strcmp(v, "17") == 0 || strcmp(v, "1z") == 0 || (v[0] == '2' && v[1] != '\0' && v[2] == '\0');
}

/* Each comma-separated item of an -Xcompiler (host compiler) value, routed
 * as slcc routes its own host options. */
static void push_host_items(options *o, const char *items)
{
    char item[4096];
    for (const char *p = items; *p;) {
        size_t n = strcspn(p, ",");
        snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item - 1 ? n : sizeof item - 1), p);
        if (item[0] && (strncmp(item, "-I", 2) == 0 || strncmp(item, "-D", 2) == 0 || strncmp(item, "-U", 2) == 0))
            av_push(&o->preproc, item);
        else if (item[0])
            av_push(&o->codegen, item);
        p += n + (p[n] == ',');
    }
}

/* nvcc's own options that real Makefiles pass: those that only shape GPU
 * code (-arch, -gencode, -lineinfo, --use_fast_math, -maxrregcount,
 * -Xptxas ...) or choose nvcc's tools (-ccbin, -cudart) are accepted and
 * change nothing here; -Xcompiler and -Xlinker hand their comma-separated
 * items to the host compiler and linker, as nvcc does. Returns 0 when `a`
 * is none of them, -1 when it was taken (with its value), or the usage
 * status. */
static int nvcc_option(options *o, int argc, char **argv, int *i)
{
    static const char *const flags[] = {"-lineinfo",      "--generate-line-info", "-G",
                                        "--device-debug", "--use_fast_math",      "-use_fast_math",
                                        "--expt-relaxed-constexpr", "--expt-extended-lambda", "--extended-lambda",
                                        "-res-usage",     "--resource-usage",     "-Wno-deprecated-gpu-targets"};
    static const char *const valued[] = {"-arch",          "--gpu-architecture", "-code",     "--gpu-code",
                                         "-gencode",       "--generate-code",    "-maxrregcount", "--maxrregcount",
                                         "-Xptxas",        "--ptxas-options",    "-Xnvlink",  "--nvlink-options",
                                         "-ccbin",         "--compiler-bindir",  "-cudart",   "--cudart",
                                         "-ftz",           "-prec-div",          "-prec-sqrt", "-fmad",
                                         "--ftz",          "--prec-div",         "--prec-sqrt", "--fmad",
                                         "-Xcompiler",     "--compiler-options", "-Xlinker",  "--linker-options"};
    const char *a = argv[*i];
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (strcmp(a, flags[k]) == 0)
            return -1;
    if (strcmp(a, "-m64") == 0) {
        av_push(&o->codegen, a);
        return -1;
    }
    if (strncmp(a, "-isystem", 8) == 0)
        return take_value(argc, argv, i, 8, &o->preproc) == 0 ? -1 : 2;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) {
        const size_t n = strlen(valued[k]);
        if (strncmp(a, valued[k], n) != 0 || (a[n] != '\0' && a[n] != '='))
            continue;
        const char *value = a[n] == '=' ? a + n + 1 : NULL;
        if (!value) {
            if (*i + 1 >= argc)
                return usage_error("'%s' needs a value", a);
            value = argv[++*i];
        }
        if (strcmp(valued[k], "-Xcompiler") == 0 || strcmp(valued[k], "--compiler-options") == 0) {
            push_host_items(o, value);
        } else if (strcmp(valued[k], "-Xlinker") == 0 || strcmp(valued[k], "--linker-options") == 0) {
            char wl[4096];
            snprintf(wl, sizeof wl, "-Wl,%s", value);
            av_push(&o->linkopts, wl);
        }
        return -1;
    }
    return 0;
}

/* One command-line word; returns 0, 1 for --help, or the usage status. */
static int parse_one(options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        return 1;
    if (a[0] != '-' || a[1] == '\0')
        return add_input(o, a);
    const int nvcc = nvcc_option(o, argc, argv, i);
    if (nvcc != 0)
        return nvcc < 0 ? 0 : nvcc;
    if (strcmp(a, "-o") == 0) {
        if (*i + 1 >= argc)
            return usage_error("'-o' needs a file name");
        o->output = argv[++*i];
    } else if (strcmp(a, "-c") == 0 || strcmp(a, "-dc") == 0 || strcmp(a, "--device-c") == 0) {
        o->compile_only = true; /* -dc: -c with relocatable device code, which needs nothing here */
    } else if (strcmp(a, "-rdc=true") == 0 || strcmp(a, "-rdc=false") == 0 ||
               strcmp(a, "--relocatable-device-code=true") == 0 ||
               strcmp(a, "--relocatable-device-code=false") == 0) {
        /* separate compilation of device code: every build links it so */
    } else if (strcmp(a, "-rdc") == 0 || strcmp(a, "--relocatable-device-code") == 0) {
        if (*i + 1 >= argc || (strcmp(argv[*i + 1], "true") != 0 && strcmp(argv[*i + 1], "false") != 0))
            return usage_error("'%s' needs true or false", a);
        ++*i;
    } else if (strcmp(a, "-v") == 0) {
        o->verbose = true;
    } else if (strcmp(a, "--no-spin-watch") == 0) {
        o->no_spin_watch = true;
    } else if (strcmp(a, "--profile") == 0) {
        o->profile = true;
    } else if (strcmp(a, "--fast") == 0) {
        o->fast = true;
    } else if (strcmp(a, "--racecheck") == 0) {
        o->racecheck = true;
    } else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 || strncmp(a, "-U", 2) == 0) {
        return take_value(argc, argv, i, 2, &o->preproc);
    } else if (is_emulated_library(argc, argv, i)) {
        /* the emulator runtime provides it */
    } else if (strncmp(a, "-L", 2) == 0 || strncmp(a, "-l", 2) == 0) {
        return take_value(argc, argv, i, 2, &o->linkopts);
    } else if (strncmp(a, "-Wl,", 4) == 0) {
        av_push(&o->linkopts, a);
    } else if (strncmp(a, "-std=", 5) == 0) {
        if (strstr(a, "++") == NULL)
            o->c_std = a;
        else if (cxx_std_is_17_or_later(a + 5))
            o->cxx_std = a;
        else
            return usage_error("'%s': the emulator's headers need C++17 or later", a);
    } else if (strncmp(a, "-O", 2) == 0 || strncmp(a, "-g", 2) == 0 || strncmp(a, "-W", 2) == 0 ||
               strncmp(a, "-f", 2) == 0) {
        av_push(&o->codegen, a);
    } else {
        return usage_error("unknown option '%s'", a);
    }
    return 0;
}

static int parse_args(options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int rc = parse_one(o, argc, argv, &i);
        if (rc != 0)
            return rc;
    }
    if (o->inputs.n == 0)
        return usage_error("no input files");
    if (!o->output)
        return usage_error("no output file: add -o FILE");
    if (o->fast && (o->profile || o->racecheck))
        return usage_error("--fast builds the kernels without the checks that %s asks for",
                           o->profile ? "--profile" : "--racecheck");
    if (o->compile_only && (o->inputs.n != 1 || o->kinds[0] == IN_LINK))
        return usage_error("-c compiles exactly one .cu, .cpp or .c file");
    return 0;
}

static void options_free(options *o)
{
    av_free(&o->preproc);
    av_free(&o->codegen);
    av_free(&o->linkopts);
    av_free(&o->inputs);
    free(o->kinds);
}

/* ======================================================================
 * running the steps
 * ====================================================================== */

static void print_command(char *const *argv)
{
    for (size_t k = 0; argv[k]; k++) {
        const char *s = argv[k];
        bool plain = s[0] != '\0' && strpbrk(s, " \t\n'\"\\$`*?()<>&;|") == NULL;
        if (plain)
            fputs(s, stderr);
        else {
            /* Shell-quoted, so that the line can be pasted into a terminal. */
            fputc('\'', stderr);
            for (; *s; s++) {
                if (*s == '\'')
                    fputs("'\\''", stderr); /* ' ends the quote, \' is one, ' reopens */
                else
                    fputc(*s, stderr);
            }
            fputc('\'', stderr);
        }
        fputc(argv[k + 1] ? ' ' : '\n', stderr);
    }
}

/* Runs argv; returns 0 or the status to exit with, after one line saying
 * which step failed. */
static int run_step(const options *o, const argvec *cmd, const char *step)
{
    if (cmd->oom) {
        fprintf(stderr, "slcc: out of memory preparing %s\n", step);
        return 1;
    }
    if (o->verbose)
        print_command(cmd->v);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "slcc: cannot start %s: fork: %s\n", step, strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(cmd->v[0], cmd->v);
        fprintf(stderr, "slcc: cannot run '%s': %s\n", cmd->v[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "slcc: waiting for %s: %s\n", step, strerror(errno));
            return 1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "slcc: %s failed: %s killed by signal %d\n", step, cmd->v[0],
                WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    fprintf(stderr, "slcc: %s failed (%s exited with status %d)\n", step, cmd->v[0],
            WEXITSTATUS(status));
    return WEXITSTATUS(status);
}

/* ======================================================================
 * the temporary directory
 * ====================================================================== */

typedef struct workdir {
    char path[4096];
    argvec files; /* every file made in it, removed at the end */
} workdir;

static int workdir_open(workdir *w)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    int n = snprintf(w->path, sizeof w->path, "%s/slcc-XXXXXX", tmp);
    if (n < 0 || (size_t)n >= sizeof w->path || !mkdtemp(w->path)) {
        fprintf(stderr, "slcc: cannot create a temporary directory in '%s': %s\n", tmp,
                strerror(errno));
        return 1;
    }
    return 0;
}

/* A fresh path in the directory, named after the input: 3-kernel.cu.cpp. */
static const char *workdir_file(workdir *w, size_t index, const char *input, const char *suffix)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    char path[4096 + 512];
    snprintf(path, sizeof path, "%s/%zu-%.255s%s", w->path, index, base, suffix);
    av_push(&w->files, path);
    return w->files.oom ? NULL : w->files.v[w->files.n - 1];
}

static void workdir_close(workdir *w)
{
    for (size_t k = 0; k < w->files.n; k++)
        unlink(w->files.v[k]); /* some were never made: a failed step */
    if (w->path[0])
        rmdir(w->path);
    av_free(&w->files);
}

/* ======================================================================
 * the build
 * ====================================================================== */

/* The directory part of a path, for -idirafter ("." for a bare name). */
static void dir_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, cap, ".");
    else if (slash == path)
        snprintf(dir, cap, "/");
    else
        snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* After the user's -I, ahead of CPATH and the system directories: a CUDA
 * toolkit header the emulator does not provide is a one-line #error there,
 * never the toolkit's own (emu/cmake/ToolkitGuard.cmake makes the files). */
static void push_toolkit_guard(argvec *cmd)
{
#ifdef SLCC_THRUST_SHIM
    /* Thrust: Debian's (libthrust-dev) with its CPP device system, through
     * a directory whose thrust/ links to it, ahead of the guard (whose
     * thrust/ files say which packages to install when it is absent);
     * emu/docs/libraries.md, "Thrust and NVTX". */
    if (access(SLCC_THRUST_SHIM "/thrust/version.h", R_OK) == 0) {
        av_push(cmd, "-I");
        av_push(cmd, SLCC_THRUST_SHIM);
        av_push(cmd, "-DSIMTLAB_EMU_THRUST=1");
    }
#endif
    av_push(cmd, "-I");
    av_push(cmd, SLCC_TOOLKIT_GUARD);
}

/* What nvcc 13 gives the host compiler for every .cu, .cpp and .c file
 * besides the dialect (`nvcc -dryrun`): the version macros, the macro
 * that says the __nv_atomic_* built-ins exist (simtlab_emu/nv_atomic.hpp
 * provides them) and -Wno-psabi. Before the user's -D and -U, which may
 * change them. Left out on purpose: __CUDACC__ and __NVCC__, which code
 * takes to mean "nvcc's own headers and inline PTX are here"
 * (cuda_runtime.h), __NVCC_DIAG_PRAGMA_SUPPORT__ (GCC does not know
 * #pragma nv_diag_suppress), and nvcc's include paths (the toolkit guard
 * keeps an installed toolkit out). */
static void push_nvcc_defaults(argvec *cmd)
{
    static const char *const flags[] = {"-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0",
                                        "-D__CUDACC_VER_BUILD__=48",  "-D__CUDA_API_VER_MAJOR__=13",
                                        "-D__CUDA_API_VER_MINOR__=0", "-D__CUDACC_DEVICE_ATOMIC_BUILTINS__=1",
                                        "-Wno-psabi"};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        av_push(cmd, flags[k]);
}

/* The optional libraries this emulator was configured without
 * (SIMTLAB_EMU_WITH_<LIB>=OFF, emu/cmake/SimtlabEmuLibraries.cmake): the
 * build passes SLCC_WITHOUT_LIBRARIES, the SIMTLAB_EMU_WITHOUT_<LIB> macros
 * separated by spaces, and each becomes a -D here, so that such a library's
 * header is an #error naming the option instead of a link error later. */
#ifndef SLCC_WITHOUT_LIBRARIES
#define SLCC_WITHOUT_LIBRARIES ""
#endif
static void push_left_out_libraries(argvec *cmd)
{
    const char *p = SLCC_WITHOUT_LIBRARIES;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (n > 0) {
            char flag[128];
            snprintf(flag, sizeof flag, "-D%.*s", (int)n, p);
            av_push(cmd, flag);
        }
        p += n;
        p += strspn(p, " ");
    }
}

/* ---- build modes ------------------------------------------------------------
 * How the .cu files' code is compiled (emu/docs/checks.md, "racecheck and
 * memcheck" and "Speed", say what each finds and costs):
 *   checked (the default, and --racecheck): GCC calls the emulator before
 *     every load and store (SIMTLAB_EMU_PROFILE_BUILD=0), which memcheck and
 *     racecheck (emu/src/checks/checkers.cpp, checks/racecheck.cpp) judge; the spin watch
 *     at the spin points; line tables for the reports;
 *   --profile: the same, and a call at every basic block for the SIMT
 *     counters, which it prints at exit (SIMTLAB_EMU_PROFILE_BUILD=2);
 *   --fast: no checks: only the spin watch (and line tables for it).
 * The loads and stores are reported by AddressSanitizer's instrumentation
 * (-fsanitize=kernel-address with outlined calls, no shadow memory, stack
 * and global redzones off, so the program's layout does not change), or,
 * in a file whose code says `volatile`, by ThreadSanitizer's, which tells
 * volatile accesses apart (their lanes take turns, as in a converged warp,
 * and racecheck makes warp-synchronous code on them a warning). GCC builds
 * one sanitizer per file, and neither with the user's own -fsanitize, or
 * with a runtime built under ASan (`make test-asan`): those builds are
 * --fast's. */
typedef enum { BUILD_FAST, BUILD_CHECKED, BUILD_PROFILE } build_mode;

static bool user_sanitizer(const options *o)
{
    for (size_t k = 0; k < o->codegen.n; k++)
        if (strncmp(o->codegen.v[k], "-fsanitize", 10) == 0)
            return true;
    return false;
}

static bool runtime_sanitized(void)
{
#ifdef SLCC_RUNTIME_SANITIZE
    return SLCC_RUNTIME_SANITIZE[0] != '\0'; /* an ASan runtime has hooks of the same names */
#else
    return false;
#endif
}

static build_mode mode_of(const options *o)
{
    if (o->fast || user_sanitizer(o) || runtime_sanitized())
        return BUILD_FAST;
    return o->profile ? BUILD_PROFILE : BUILD_CHECKED;
}

/* Line tables (`level` "-g" or "-g1") unless the user chose a -g (the
 * checks' reports need lines: a -g0 there gets them all the same). */
static void push_debug_lines(argvec *cmd, const options *o, const char *level)
{
    const bool reports = mode_of(o) != BUILD_FAST;
    for (size_t k = 0; k < o->codegen.n; k++)
        if (strncmp(o->codegen.v[k], "-g", 2) == 0 && !(reports && strcmp(o->codegen.v[k], "-g0") == 0))
            return;
    av_push(cmd, level);
}

static void push_each(argvec *cmd, const char *const *flags, size_t n)
{
    for (size_t k = 0; k < n; k++)
        av_push(cmd, flags[k]);
}

/* The checks' hooks at every load and store (emu/src/profile/hooks.cpp):
 * AddressSanitizer's calls, the same as SIMTLAB_EMU_PROFILE_FLAGS in
 * emu/cmake/SimtlabEmu.cmake without the basic blocks. */
static void push_access_hooks(argvec *cmd, bool says_volatile)
{
    static const char *const asan[] = {"-fsanitize=kernel-address",
                                       "--param=asan-instrumentation-with-call-threshold=0",
                                       "--param=asan-stack=0", "--param=asan-globals=0", "--param=asan-memintrin=0"};
    /* every load and store, volatile ones apart (also the --fast build's
     * lock step, push_lockstep_flags) */
    static const char *const tsan[] = {"-fsanitize=thread", "--param=tsan-distinguish-volatile=1",
                                       "--param=tsan-instrument-func-entry-exit=0",
                                       "-U__SANITIZE_THREAD__"}; /* headers must not take this for ThreadSanitizer */
    if (says_volatile)
        push_each(cmd, tsan, sizeof tsan / sizeof tsan[0]);
    else
        push_each(cmd, asan, sizeof asan / sizeof asan[0]);
}

/* Host-only functions (those slrewrite marks with SIMTLAB_EMU_HOST_FN,
 * simtlab_emu/host_fn.h) need no hook: a CPU reference loop of the
 * program would pay a call per access (measured: 5x its --fast time). */
static const char host_fn_unchecked[] =
    "-DSIMTLAB_EMU_HOST_FN=__attribute__((no_sanitize_address, no_sanitize_thread, no_sanitize_coverage))";

/* --profile: the SIMT counters call the emulator at every basic block too
 * (SIMTLAB_EMU_PROFILE_BUILD=2: profile every launch unless
 * SIMTLAB_EMU_PROFILE=0), with full debug information for the report. */
static void push_profile_flags(argvec *cmd, const options *o, bool says_volatile)
{
    static const char *const flags[] = {
        "-fsanitize-coverage=trace-pc", "-fno-optimize-sibling-calls",
        "-fno-tree-sra", /* keeps a float4 load one 16-byte access at -O2 (see SimtlabEmu.cmake) */
        "-DSIMTLAB_EMU_PROFILE_BUILD=2"};
    push_access_hooks(cmd, says_volatile);
    push_each(cmd, flags, sizeof flags / sizeof flags[0]);
    av_push(cmd, host_fn_unchecked);
    push_debug_lines(cmd, o, "-g");
}

/* The spin watch (issue 16; SIMTLAB_EMU_SPIN_FLAGS in SimtlabEmu.cmake): a
 * thread that spins on a volatile load lets the others of its block run,
 * and a spin that can never end fails the launch naming its line. It costs
 * a call per loop iteration of device code (emu/docs/execution.md, "How a block
 * runs"); --no-spin-watch leaves it out. Not under a sanitizer (see above). */
static bool spin_watch_wanted(const options *o)
{
    return !o->no_spin_watch && !user_sanitizer(o) && !runtime_sanitized();
}

static void push_spin_watch_flags(argvec *cmd, const options *o)
{
    /* the hook's calls are in the source: one per loop iteration
     * (tools/rewriter/rewrite_spin.c, simtlab_emu/spin_point.h) */
    av_push(cmd, "-DSIMTLAB_EMU_SPIN_BUILD=1");
    /* line tables, for the line a spin without end is reported at */
    push_debug_lines(cmd, o, "-g1");
}

/* The checked build: the checks' hooks, the spin watch at the spin points
 * (no basic-block hook: SIMTLAB_EMU_PROFILE_BUILD=0, simtlab_emu/
 * spin_point.h) and line tables for the reports. */
static void push_checked_flags(argvec *cmd, const options *o, bool says_volatile)
{
    push_access_hooks(cmd, says_volatile);
    av_push(cmd, "-DSIMTLAB_EMU_PROFILE_BUILD=0");
    av_push(cmd, host_fn_unchecked);
    if (!o->no_spin_watch)
        av_push(cmd, "-DSIMTLAB_EMU_SPIN_BUILD=1");
    push_debug_lines(cmd, o, "-g1");
}

/* Warp-synchronous code (emu/src/engine/lockstep_hooks.cpp): a file whose code
 * says `volatile` (not `asm volatile`), as slrewrite reports on the first
 * line of its output, is built so that each volatile access calls the
 * emulator first, which lets the lanes of a warp take such accesses in
 * turn, as a converged warp does. */
static bool rewrite_says_volatile(const char *cpp)
{
    FILE *f = fopen(cpp, "rb");
    if (!f)
        return false;
    char line[sizeof SL_REWRITE_SAYS_VOLATILE];
    const bool says = fgets(line, sizeof line, f) && strcmp(line, SL_REWRITE_SAYS_VOLATILE) == 0;
    fclose(f);
    return says;
}

/* --fast: the lock step alone (the instrumented builds have it through
 * push_access_hooks). */
static void push_lockstep_flags(argvec *cmd)
{
    push_access_hooks(cmd, true);
}

/* What the mode adds to the compile of a rewritten .cu (`cpp`). */
static void push_mode_flags(argvec *cmd, const options *o, const char *cpp)
{
    const bool says_volatile = rewrite_says_volatile(cpp);
    switch (mode_of(o)) {
    case BUILD_PROFILE: push_profile_flags(cmd, o, says_volatile); break;
    case BUILD_CHECKED: push_checked_flags(cmd, o, says_volatile); break;
    case BUILD_FAST:
        if (spin_watch_wanted(o))
            push_spin_watch_flags(cmd, o);
        if (says_volatile && !user_sanitizer(o) && !runtime_sanitized())
            push_lockstep_flags(cmd);
        break;
    }
}

/* What slrewrite needs to follow the user's own headers into the rewrite:
 * the -I directories, and the emulator's, whose headers it never follows. */
static void push_rewriter_include_dirs(argvec *cmd, const options *o)
{
    for (size_t k = 0; k < o->preproc.n; k++)
        if (strncmp(o->preproc.v[k], "-I", 2) == 0)
            av_push(cmd, o->preproc.v[k]);
    av_push(cmd, "--emu-include");
    av_push(cmd, SLCC_EMU_INCLUDE);
}

/* Every flag of a rewritten .cu's compile, before `-x c++ -c FILE -o OBJ`;
 * with_user_dirs false leaves out the user's -I and -isystem and the .cu's
 * directory (the precompiled prelude's flags, slcc_pch.c). */
static void push_cu_flags(argvec *cmd, const options *o, const char *cpp, const char *dir, bool with_user_dirs)
{
    av_push(cmd, SLCC_CXX);
    av_push(cmd, o->cxx_std ? o->cxx_std : "-std=gnu++17"); /* nvcc 13's default for .cu */
    av_push(cmd, "-I"); /* before the user's -I: our cuda_runtime.h, not a toolkit's */
    av_push(cmd, SLCC_EMU_INCLUDE);
    push_nvcc_defaults(cmd);
    push_left_out_libraries(cmd);
    for (size_t k = 0; k < o->preproc.n; k++)
        if (with_user_dirs || strncmp(o->preproc.v[k], "-D", 2) == 0 || strncmp(o->preproc.v[k], "-U", 2) == 0)
            av_push(cmd, o->preproc.v[k]);
    push_toolkit_guard(cmd);
    /* The .cu's own "includes" were put in by the rewriter (a cycle's by
     * full path); what is left from the .cu's directory (a name made by a
     * macro) is found after the system directories, not before them as
     * -iquote would: a quoted include inside a system header
     * (<boost/config.hpp>'s "boost/config/platform/linux.hpp") must not
     * find a program's own partial copy of that library beside the .cu. */
    if (with_user_dirs) {
        av_push(cmd, "-idirafter");
        av_push(cmd, dir);
    }
    av_push_all(cmd, &o->codegen);
    push_mode_flags(cmd, o, cpp);
}

/* The flags that the precompiled prelude (slcc_pch.c) knows how to key:
 * -I, -isystem, -D and -U, and -O, -g, -W, -f and -m codegen flags; not
 * -Wp, (preprocessor options) or -fplugin, nor anything -Xcompiler may
 * have passed through (-include, -iquote, -nostdinc, --sysroot ...). */
static bool pch_flags_ok(const options *o)
{
    for (size_t k = 0; k < o->preproc.n; k++) {
        const char *a = o->preproc.v[k];
        if (strcmp(a, "-I-") == 0 || (strncmp(a, "-I", 2) != 0 && strncmp(a, "-isystem", 8) != 0 &&
                                       strncmp(a, "-D", 2) != 0 && strncmp(a, "-U", 2) != 0))
            return false;
    }
    for (size_t k = 0; k < o->codegen.n; k++) {
        const char *a = o->codegen.v[k];
        const bool known = strncmp(a, "-O", 2) == 0 || strncmp(a, "-g", 2) == 0 || strncmp(a, "-W", 2) == 0 ||
                           strncmp(a, "-f", 2) == 0 || strncmp(a, "-m", 2) == 0;
        if (!known || strncmp(a, "-Wp,", 4) == 0 || strncmp(a, "-fplugin", 8) == 0 || strncmp(a, "-fpch", 5) == 0)
            return false;
    }
    return true;
}

#ifndef SLCC_PCH_DIR
#define SLCC_PCH_DIR "" /* none: no precompiled prelude */
#endif

/* The precompiled prelude for this compile (slcc_pch.c): true, with its
 * path in `prelude`, where one can be used. They are kept in the build's
 * folder, or in SIMTLAB_SLCC_PCH_DIR where set (the tests' own). */
static bool precompiled_prelude(const options *o, const char *cpp, const char *dir, char *prelude, size_t cap)
{
    const char *cache = getenv("SIMTLAB_SLCC_PCH_DIR");
    if (!cache || !cache[0])
        cache = SLCC_PCH_DIR;
    if (!cache[0] || !pch_flags_ok(o))
        return false;
    argvec flags = {0}, dirs = {0};
    push_cu_flags(&flags, o, cpp, dir, false);
    bool sysroot_relative = false; /* -I=DIR, -isystem=DIR */
    for (size_t k = 0; k < o->preproc.n; k++) {
        const char *a = o->preproc.v[k];
        const char *d = strncmp(a, "-isystem", 8) == 0 ? a + 8 : strncmp(a, "-I", 2) == 0 ? a + 2 : NULL;
        if (d) {
            sysroot_relative |= d[0] == '=';
            av_push(&dirs, d);
        }
    }
    /* CPATH and CPLUS_INCLUDE_PATH add directories as -I does (an empty
     * element: the working directory) */
    static const char *const path_vars[] = {"CPATH", "CPLUS_INCLUDE_PATH"};
    for (size_t k = 0; k < sizeof path_vars / sizeof path_vars[0]; k++) {
        const char *v = getenv(path_vars[k]);
        for (const char *p = v; p && *p != '\0';) {
            char one[4096];
            size_t n = strcspn(p, ":");
            snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), n ? p : ".");
            av_push(&dirs, one);
            p += n + (p[n] == ':');
        }
    }
    av_push(&dirs, dir);
    const char *own[] = {SLCC_EMU_INCLUDE, SLCC_TOOLKIT_GUARD,
#ifdef SLCC_THRUST_SHIM
                         SLCC_THRUST_SHIM
#endif
    };
    bool usable = false;
    if (!flags.oom && !dirs.oom && !sysroot_relative) {
        const slcc_pch_request req = {cache, cpp, flags.v, (const char *const *)dirs.v, dirs.n, own,
                                      sizeof own / sizeof own[0], o->verbose};
        usable = slcc_pch_prelude(&req, prelude, cap);
    }
    av_free(&dirs);
    av_free(&flags);
    return usable;
}

/* file.cu -> slrewrite -> C++ -> object. */
static int compile_cu(const options *o, workdir *w, size_t index, const char *cu, const char *obj)
{
    const char *cpp = workdir_file(w, index, cu, ".cpp");
    if (!cpp)
        return 1;
    argvec cmd = {0};
    av_push(&cmd, SLCC_REWRITER);
    av_push(&cmd, cu);
    av_push(&cmd, "-o");
    av_push(&cmd, cpp);
    push_rewriter_include_dirs(&cmd, o);
    char step[4200];
    snprintf(step, sizeof step, "rewriting %s", cu);
    int rc = run_step(o, &cmd, step);
    av_free(&cmd);
    if (rc != 0)
        return rc;

    char dir[4096];
    dir_of(cu, dir, sizeof dir);
    push_cu_flags(&cmd, o, cpp, dir, true);
    char prelude[4096];
    if (precompiled_prelude(o, cpp, dir, prelude, sizeof prelude)) {
        av_push(&cmd, "-include");
        av_push(&cmd, prelude);
    }
    av_push(&cmd, "-x");
    av_push(&cmd, "c++");
    av_push(&cmd, "-c");
    av_push(&cmd, cpp);
    av_push(&cmd, "-o");
    av_push(&cmd, obj);
    snprintf(step, sizeof step, "compiling %s", cu);
    rc = run_step(o, &cmd, step);
    av_free(&cmd);
    return rc;
}

/* A .c (as C) or .cpp (as host C++: nothing to rewrite, as with nvcc,
 * which hands .cpp files to the host compiler untouched). */
static int compile_host(const options *o, input_kind kind, const char *c, const char *obj)
{
    argvec cmd = {0};
    /* nvcc passes no -std for these unless given -std=c++NN (then to .cpp
     * only): the host compiler's defaults, gnu++17 and gnu17 for GCC 12.
     * C++ is named, since the emulator's headers need 17 and an older
     * compiler's default may be less; C is left to the compiler. */
    if (kind == IN_CPP) {
        av_push(&cmd, SLCC_CXX);
        av_push(&cmd, o->cxx_std ? o->cxx_std : "-std=gnu++17");
    } else {
        av_push(&cmd, SLCC_CC);
        if (o->c_std)
            av_push(&cmd, o->c_std);
    }
    av_push(&cmd, "-I");
    av_push(&cmd, SLCC_EMU_INCLUDE);
    push_nvcc_defaults(&cmd);
    push_left_out_libraries(&cmd);
    av_push_all(&cmd, &o->preproc);
    push_toolkit_guard(&cmd);
    av_push_all(&cmd, &o->codegen);
    if (kind == IN_CPP) {
        av_push(&cmd, "-x");
        av_push(&cmd, "c++");
    }
    av_push(&cmd, "-c");
    av_push(&cmd, c);
    av_push(&cmd, "-o");
    av_push(&cmd, obj);
    char step[4200];
    snprintf(step, sizeof step, "compiling %s", c);
    int rc = run_step(o, &cmd, step);
    av_free(&cmd);
    return rc;
}

/* The link options that also matter to the linker driver: -g, -f* (e.g.
 * -fsanitize=address, -fopenmp). */
static void push_link_codegen(argvec *cmd, const options *o)
{
    for (size_t k = 0; k < o->codegen.n; k++) {
        const char *a = o->codegen.v[k];
        if (strncmp(a, "-f", 2) == 0 || strncmp(a, "-g", 2) == 0)
            av_push(cmd, a);
    }
}

/* A sanitizer the emulator's runtime was built with (`make test-asan`:
 * -fsanitize=address,undefined), which every program linked with it needs. */
#ifndef SLCC_RUNTIME_SANITIZE
#define SLCC_RUNTIME_SANITIZE ""
#endif

/* The linker flag the build found to work (emu/CMakeLists.txt): gold, which
 * links a small program against the emulator's runtime in half the time of
 * the default ld (49 against 93 ms on the 2-core dev VM), with the same
 * rules for archives. A -fuse-ld= of the user's comes later and wins. */
#ifndef SLCC_LINKER_FLAG
#define SLCC_LINKER_FLAG ""
#endif

static int link_program(const options *o, const argvec *objects)
{
    argvec cmd = {0};
    av_push(&cmd, SLCC_CXX);
    if (SLCC_LINKER_FLAG[0])
        av_push(&cmd, SLCC_LINKER_FLAG);
    if (SLCC_RUNTIME_SANITIZE[0])
        av_push(&cmd, SLCC_RUNTIME_SANITIZE);
    push_link_codegen(&cmd, o);
    av_push_all(&cmd, objects);
    av_push_all(&cmd, &o->linkopts);
    /* After the user's libraries: those may call the CUDA runtime. */
    av_push(&cmd, SLCC_EMU_LIB);
    av_push(&cmd, SLCC_BOOST_CONTEXT_LIB);
    av_push(&cmd, "-lopenblas");
    av_push(&cmd, "-lpthread"); /* with -ldl and -lrt, what nvcc links with cudart */
    av_push(&cmd, "-ldl");
    av_push(&cmd, "-lrt");
    av_push(&cmd, "-o");
    av_push(&cmd, o->output);
    int rc = run_step(o, &cmd, "linking");
    av_free(&cmd);
    return rc;
}

/* Compiles every source into the work directory (or, with -c, to -o) and
 * collects the objects for the link. */
static int compile_all(const options *o, workdir *w, argvec *objects)
{
    for (size_t k = 0; k < o->inputs.n; k++) {
        const char *in = o->inputs.v[k];
        if (o->kinds[k] == IN_LINK) {
            av_push(objects, in);
            continue;
        }
        const char *obj = o->compile_only ? o->output : workdir_file(w, k, in, ".o");
        if (!obj)
            return 1;
        int rc = o->kinds[k] == IN_CU ? compile_cu(o, w, k, in, obj) : compile_host(o, o->kinds[k], in, obj);
        if (rc != 0)
            return rc;
        av_push(objects, obj);
    }
    return 0;
}

static int build(const options *o)
{
    workdir w = {0};
    int rc = workdir_open(&w);
    if (rc != 0)
        return rc;
    argvec objects = {0};
    rc = compile_all(o, &w, &objects);
    if (rc == 0 && !o->compile_only)
        rc = link_program(o, &objects);
    av_free(&objects);
    workdir_close(&w);
    return rc;
}

int main(int argc, char **argv)
{
    options o = {0};
    int rc = parse_args(&o, argc, argv);
    if (rc == 1) {
        usage(stdout);
        rc = 0;
    } else if (rc == 0) {
        rc = build(&o);
    }
    options_free(&o);
    return rc;
}
