/* slcc — builds a student's own CUDA program to run on the simtlab CPU
 * emulator, the way nvcc builds it for a GPU:
 *
 *   slcc [options] file.cu [more.cu file.c obj.o lib.a ...] -o prog
 *
 * Each .cu goes through slrewrite into a temporary directory and is then
 * compiled as C++17 with the emulator's headers first on the include path;
 * each .cpp (.cc, .cxx) is compiled as host C++17 and each .c as C11 against
 * the same headers, as nvcc hands them to the host compiler; after the
 * user's -I comes the toolkit guard, where every CUDA toolkit header the
 * emulator lacks is a one-line #error naming it, so that a toolkit installed
 * on the same machine is never compiled in its place; everything is linked
 * with the emulator runtime, Boost.Context (the CUDA threads are fibers) and
 * OpenBLAS (the cuBLAS stand-in). The paths are compiled in by
 * emu/CMakeLists.txt. Children run by fork + execvp, never through a shell,
 * so file names with spaces or quotes need no care.
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
    bool profile; /* --profile: the SIMT counters (emu/README.md) */
    bool no_spin_watch; /* --no-spin-watch: kernels without the spin watch */
} options;

static void usage(FILE *to)
{
    fputs("usage: slcc [options] file.cu [file.cu file.c file.o lib.a ...] -o prog\n"
          "Builds a CUDA program to run on the simtlab CPU emulator (no GPU needed).\n"
          "  .cu  rewritten by slrewrite, compiled as C++17 against the emulator's headers\n"
          "  .cpp .cc .cxx  compiled as host C++17 against the same headers\n"
          "  .c   compiled as C11 (or -std=...) against the same headers\n"
          "  .o .a  linked as given\n"
          "options: -o FILE (required), -c (compile one file to FILE), -v (print each\n"
          "command), -I -D -U, -O*, -g, -W*, -f*, -std=c.. (.c) or -std=c++.. (C++, 17 or\n"
          "later), -L, -l, -Wl,...\n"
          "  -rdc=true|false, --relocatable-device-code=..., -dc (that is -c), -lcudadevrt:\n"
          "             accepted for dynamic parallelism's nvcc command lines; the\n"
          "             emulator needs none of them (device launches always work)\n"
          "  --profile  model what a GPU would do (SIMT efficiency, coalescing, bank\n"
          "             conflicts) as the program runs; print it per kernel at exit\n"
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

/* One command-line word; returns 0, 1 for --help, or the usage status. */
static int parse_one(options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        return 1;
    if (a[0] != '-' || a[1] == '\0')
        return add_input(o, a);
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
     * emu/README.md, "Thrust and NVTX". */
    if (access(SLCC_THRUST_SHIM "/thrust/version.h", R_OK) == 0) {
        av_push(cmd, "-I");
        av_push(cmd, SLCC_THRUST_SHIM);
        av_push(cmd, "-DSIMTLAB_EMU_THRUST=1");
    }
#endif
    av_push(cmd, "-I");
    av_push(cmd, SLCC_TOOLKIT_GUARD);
}

/* --profile: GCC calls the emulator at every basic block, load and store
 * of the .cu files (the same flags as SIMTLAB_EMU_PROFILE_FLAGS in
 * emu/cmake/SimtlabEmu.cmake; SIMTLAB_EMU_PROFILE_BUILD=2: profile every
 * launch unless SIMTLAB_EMU_PROFILE=0), with line tables for the report. */
static void push_profile_flags(argvec *cmd, const options *o)
{
    static const char *const flags[] = {
        "-fsanitize=kernel-address", "--param=asan-instrumentation-with-call-threshold=0",
        "--param=asan-stack=0", "--param=asan-globals=0", "--param=asan-memintrin=0",
        "-fsanitize-coverage=trace-pc", "-fno-optimize-sibling-calls",
        "-fno-tree-sra", /* keeps a float4 load one 16-byte access at -O2 (see SimtlabEmu.cmake) */
        "-DSIMTLAB_EMU_PROFILE_BUILD=2"};
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        av_push(cmd, flags[k]);
    bool has_g = false;
    for (size_t k = 0; k < o->codegen.n; k++)
        has_g |= strncmp(o->codegen.v[k], "-g", 2) == 0 && strcmp(o->codegen.v[k], "-g0") != 0;
    if (!has_g)
        av_push(cmd, "-g");
}

/* The spin watch (issue 16; SIMTLAB_EMU_SPIN_FLAGS in SimtlabEmu.cmake): a
 * thread that spins on a volatile load lets the others of its block run,
 * and a spin that can never end fails the launch naming its line. It costs
 * a call per loop iteration of device code (emu/README.md, "How a block
 * runs"); --no-spin-watch leaves it out. */
static bool spin_watch_wanted(const options *o)
{
    if (o->no_spin_watch)
        return false;
#ifdef SLCC_RUNTIME_SANITIZE
    if (SLCC_RUNTIME_SANITIZE[0]) /* an ASan runtime has hooks of the same names */
        return false;
#endif
    for (size_t k = 0; k < o->codegen.n; k++)
        if (strncmp(o->codegen.v[k], "-fsanitize", 10) == 0)
            return false;
    return true;
}

static void push_spin_watch_flags(argvec *cmd, const options *o)
{
    /* the hook's calls are in the source: one per loop iteration
     * (rewrite_spin.c, simtlab_emu/spin_point.h) */
    av_push(cmd, "-DSIMTLAB_EMU_SPIN_BUILD=1");
    /* line tables, for the line a spin without end is reported at */
    bool has_g = false;
    for (size_t k = 0; k < o->codegen.n; k++)
        has_g |= strncmp(o->codegen.v[k], "-g", 2) == 0;
    if (!has_g)
        av_push(cmd, "-g1");
}

/* Warp-synchronous code (emu/src/lockstep_hooks.cpp): a file whose code
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

static bool lockstep_wanted(const options *o, const char *cpp)
{
    if (o->profile) /* racecheck reports such code instead */
        return false;
#ifdef SLCC_RUNTIME_SANITIZE
    if (SLCC_RUNTIME_SANITIZE[0])
        return false;
#endif
    for (size_t k = 0; k < o->codegen.n; k++)
        if (strncmp(o->codegen.v[k], "-fsanitize", 10) == 0)
            return false;
    return rewrite_says_volatile(cpp);
}

static void push_lockstep_flags(argvec *cmd)
{
    av_push(cmd, "-fsanitize=thread");
    av_push(cmd, "--param=tsan-distinguish-volatile=1");
    av_push(cmd, "--param=tsan-instrument-func-entry-exit=0");
    av_push(cmd, "-U__SANITIZE_THREAD__"); /* headers must not take this for ThreadSanitizer */
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
    av_push(&cmd, SLCC_CXX);
    av_push(&cmd, o->cxx_std ? o->cxx_std : "-std=c++17");
    av_push(&cmd, "-I"); /* before the user's -I: our cuda_runtime.h, not a toolkit's */
    av_push(&cmd, SLCC_EMU_INCLUDE);
    av_push_all(&cmd, &o->preproc);
    push_toolkit_guard(&cmd);
    /* The .cu's own "includes" were put in by the rewriter (a cycle's by
     * full path); what is left from the .cu's directory (a name made by a
     * macro) is found after the system directories, not before them as
     * -iquote would: a quoted include inside a system header
     * (<boost/config.hpp>'s "boost/config/platform/linux.hpp") must not
     * find a program's own partial copy of that library beside the .cu. */
    av_push(&cmd, "-idirafter");
    av_push(&cmd, dir);
    av_push_all(&cmd, &o->codegen);
    if (o->profile)
        push_profile_flags(&cmd, o);
    else if (spin_watch_wanted(o))
        push_spin_watch_flags(&cmd, o);
    if (lockstep_wanted(o, cpp))
        push_lockstep_flags(&cmd);
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
    if (kind == IN_CPP) {
        av_push(&cmd, SLCC_CXX);
        av_push(&cmd, o->cxx_std ? o->cxx_std : "-std=c++17");
    } else {
        av_push(&cmd, SLCC_CC);
        av_push(&cmd, o->c_std ? o->c_std : "-std=c11");
    }
    av_push(&cmd, "-I");
    av_push(&cmd, SLCC_EMU_INCLUDE);
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

static int link_program(const options *o, const argvec *objects)
{
    argvec cmd = {0};
    av_push(&cmd, SLCC_CXX);
    if (SLCC_RUNTIME_SANITIZE[0])
        av_push(&cmd, SLCC_RUNTIME_SANITIZE);
    push_link_codegen(&cmd, o);
    av_push_all(&cmd, objects);
    av_push_all(&cmd, &o->linkopts);
    /* After the user's libraries: those may call the CUDA runtime. */
    av_push(&cmd, SLCC_EMU_LIB);
    av_push(&cmd, SLCC_BOOST_CONTEXT_LIB);
    av_push(&cmd, "-lopenblas");
    av_push(&cmd, "-lpthread");
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
