/* Tests of the emulator's command-line tools: slcc builds the sample
 * programs in emu/tests/slcc_inputs/, which then run on the CPU emulator;
 * slrewrite's exit status and files. Every tool runs by fork + exec, as a
 * student would run it.
 *
 *   cmake --build build -j2 --target test_slcc && build/bin/test_slcc
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define INPUTS SLCC_INPUTS_DIR /* emu/tests/slcc_inputs/, absolute */

#define SLCC_RUN_SCRATCH "/tmp/test_slcc-XXXXXX"
#include "slcc_run.h"

TestSuite(slcc, .fini = remove_scratch);
TestSuite(slrewrite, .fini = remove_scratch);

/* Runs argv[0] with stdout and stderr captured; TMPDIR=tmpdir when given. */
static void run(char *const argv[], const char *tmpdir, run_result *res) { run_in(argv, tmpdir, res); }

static void require_runtime(void)
{
    if (access(SLCC_EMU_LIB, R_OK) != 0)
        cr_skip_test("the emulator runtime %s is not built yet, so slcc cannot link", SLCC_EMU_LIB);
}

static bool dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    cr_assert_not_null(d, "opendir %s: %s", path, strerror(errno));
    struct dirent *e;
    bool empty = true;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = false;
    closedir(d);
    return empty;
}

/* Builds with slcc (args after the program name, NULL-terminated) and
 * requires success and a clean temporary directory. */
static void slcc_ok(char *const args[])
{
    char *argv[32] = {SLCC_PATH};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    const char *tmp = scratch_path("tmp");
    cr_assert(mkdir(tmp, 0700) == 0 || errno == EEXIST);
    run_result r;
    run(argv, tmp, &r);
    cr_assert_eq(r.status, 0, "slcc failed (%d):\n%s", r.status, r.err);
    cr_assert(dir_is_empty(tmp), "slcc left files in its temporary directory");
}

static void expect_program_output(const char *prog, const char *expected)
{
    run_result r;
    char *argv[] = {(char *)prog, NULL};
    run(argv, NULL, &r);
    cr_assert_eq(r.status, 0, "%s exited with %d:\nstdout: %s\nstderr: %s", prog, r.status, r.out,
                 r.err);
    cr_assert_str_eq(r.out, expected);
}

/* ---- building and running -------------------------------------------------- */

Test(slcc, builds_and_runs_hello)
{
    require_runtime();
    const char *prog = scratch_path("hello");
    slcc_ok((char *[]){INPUTS "hello.cu", "-o", (char *)prog, NULL});
    /* 2 blocks of 4 threads, each writing its threadIdx.x (hello_config.h). */
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3\n");
}

Test(slcc, passes_defines_and_optimisation_through)
{
    require_runtime();
    const char *prog = scratch_path("hello3");
    slcc_ok((char *[]){"-O2", "-DBLOCKS=3", "-Wall", INPUTS "hello.cu", "-o", (char *)prog, NULL});
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3 0 1 2 3\n");
}

Test(slcc, links_a_cu_file_with_a_c_file)
{
    require_runtime();
    const char *prog = scratch_path("reverse");
    slcc_ok((char *[]){INPUTS "scale_kernel.cu", INPUTS "scale_main.c", "-o", (char *)prog, NULL});
    expect_program_output(prog, "reversed: 17 16 15 14 13 12 11 10 (error 0)\n");
}

Test(slcc, compiles_with_c_then_links_the_object)
{
    require_runtime();
    const char *obj = scratch_path("hello.o");
    slcc_ok((char *[]){"-c", INPUTS "hello.cu", "-o", (char *)obj, NULL});
    cr_assert_eq(access(obj, R_OK), 0, "-c made no object");
    const char *prog = scratch_path("hello_linked");
    slcc_ok((char *[]){(char *)obj, "-o", (char *)prog, NULL});
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3\n");
}

Test(slcc, links_the_emulators_cublaslt_for_lcublas_and_lcublaslt)
{
    require_runtime();
    const char *prog = scratch_path("lt_bias");
    /* nvcc's flags, both spellings: a toolkit's libraries must not be linked */
    slcc_ok((char *[]){INPUTS "lt_bias.cu", "-lcublas", "-l", "cublasLt", "-o", (char *)prog, NULL});
    expect_program_output(prog, "D: 4.5 5\n");
}

Test(slcc, drops_lnvtoolsext_for_the_emulators_nvtx)
{
    require_runtime();
    const char *prog = scratch_path("nvtx_ranges");
    /* nvcc's NVTX link flag, both spellings: NVTX is the emulator's headers */
    slcc_ok((char *[]){INPUTS "nvtx_ranges.cu", "-lnvToolsExt", "-o", (char *)prog, NULL});
    expect_program_output(prog, "nvtx: 1 4 9 16 25 (push -2)\n");
    slcc_ok((char *[]){INPUTS "nvtx_ranges.cu", "-l", "nvToolsExt", "-o", (char *)prog, NULL});
    expect_program_output(prog, "nvtx: 1 4 9 16 25 (push -2)\n");
}

Test(slcc, drops_lcuda_for_the_emulators_driver_api)
{
    require_runtime();
    const char *prog = scratch_path("driver_program");
    /* nvcc's driver API link flag, both spellings: the toolkit's libcuda
     * (or its stub) must not be linked */
    slcc_ok((char *[]){INPUTS "driver_program.cu", "-lcuda", "-o", (char *)prog, NULL});
    expect_program_output(prog, "driver: 0 1 8 27 64 (CUDA_SUCCESS, base ok, 20 bytes)\n");
    slcc_ok((char *[]){INPUTS "driver_program.cu", "-L/usr/local/cuda/lib64/stubs", "-l", "cuda", "-o", (char *)prog,
                       NULL});
    expect_program_output(prog, "driver: 0 1 8 27 64 (CUDA_SUCCESS, base ok, 20 bytes)\n");
}

/* Warp-synchronous code (a reduction's last warp and a warp scan on
 * volatile shared memory, no __syncwarp): the sums a GPU's converged warp
 * gives, in the default start order and shuffled ones; without the lanes'
 * turns (SIMTLAB_EMU_LOCKSTEP=0) the same program gets them wrong, so the
 * check can fail. */
Test(slcc, runs_warp_synchronous_volatile_code_in_lock_step)
{
    require_runtime();
    const char *prog = scratch_path("warp_sync");
    slcc_ok((char *[]){INPUTS "warp_sync.cu", "-o", (char *)prog, NULL});
    const char *right = "reduce 256: 0 of 37 blocks wrong\nreduce 64: 0 of 9 blocks wrong\n"
                        "reduce float: 0 of 29 blocks wrong\nscan: 0 of 384 wrong\n";
    static const char *const seeds[] = {NULL, "1", "2", "3", "17", "4242"};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        if (seeds[k])
            setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        else
            unsetenv("SIMTLAB_EMU_SEED");
        run_result r;
        char *argv[] = {(char *)prog, NULL};
        run(argv, NULL, &r);
        cr_assert_eq(r.status, 0, "exit %d (SIMTLAB_EMU_SEED=%s): %s", r.status, seeds[k] ? seeds[k] : "unset", r.err);
        cr_expect_str_eq(r.out, right, "SIMTLAB_EMU_SEED=%s (%s)", seeds[k] ? seeds[k] : "unset", r.err);
    }
    unsetenv("SIMTLAB_EMU_SEED");
    setenv("SIMTLAB_EMU_LOCKSTEP", "0", 1);
    run_result r;
    char *argv[] = {(char *)prog, NULL};
    run(argv, NULL, &r);
    unsetenv("SIMTLAB_EMU_LOCKSTEP");
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "reduce 256: 0 of") == NULL && strstr(r.out, "scan: 0 of") == NULL,
              "without lock step the sums should come out wrong, as the emulator ran them before; got:\n%s", r.out);
}

Test(slcc, accepts_the_flags_of_dynamic_parallelism_builds)
{
    require_runtime();
    /* nvcc -dc -rdc=true, then a link with -lcudadevrt: none is needed here */
    const char *obj = scratch_path("hello_rdc.o");
    slcc_ok((char *[]){"-dc", "-rdc=true", INPUTS "hello.cu", "-o", (char *)obj, NULL});
    cr_assert_eq(access(obj, R_OK), 0, "-dc made no object");
    const char *prog = scratch_path("hello_rdc");
    slcc_ok((char *[]){"--relocatable-device-code", "true", (char *)obj, "-lcudadevrt", "-o", (char *)prog, NULL});
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3\n");
}

Test(slcc, runs_every_rewritten_form)
{
    require_runtime();
    const char *prog = scratch_path("every_form");
    slcc_ok((char *[]){"-Wall", INPUTS "every_form.cu", "-o", (char *)prog, NULL});
    /* in[i] = i in a 4x4 block: out[y][x] = in[x][y]; total 0 + ... + 15 =
     * 120; each row counts its four threads. */
    expect_program_output(prog, "transposed: 0 4 8 12 1 5 9 13 2 6 10 14 3 7 11 15\n"
                                "total: 120\n"
                                "row counts: 4 4 4 4\n");
}

Test(slcc, launch_errors_name_the_original_file_and_line)
{
    require_runtime();
    const char *prog = scratch_path("launch_error");
    slcc_ok((char *[]){INPUTS "launch_error.cu", "-o", (char *)prog, NULL});
    run_result r;
    run((char *[]){(char *)prog, NULL}, NULL, &r);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert_str_eq(r.out, "cudaErrorInvalidValue\n");
    /* The launch is on line 7 of the .cu, not of the rewritten file. */
    cr_assert(strstr(r.err, "launch_error.cu:7") != NULL, "stderr:\n%s", r.err);
}

/* ---- failures ---------------------------------------------------------------- */

Test(slcc, rewrite_error_names_the_file_line_and_step)
{
    run_result r;
    run((char *[]){SLCC_PATH, INPUTS "bad_launch.cu", "-o", (char *)scratch_path("x"), NULL}, NULL,
        &r);
    cr_assert_eq(r.status, 1, "status %d, stderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "bad_launch.cu:5:6: error:") != NULL, "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "slcc: rewriting") != NULL, "stderr:\n%s", r.err);
}

Test(slcc, compiler_errors_point_at_the_original_file)
{
    run_result r;
    run((char *[]){SLCC_PATH, INPUTS "compile_error.cu", "-o", (char *)scratch_path("x"), NULL},
        NULL, &r);
    cr_assert_neq(r.status, 0);
    cr_assert(strstr(r.err, "compile_error.cu:3:") != NULL, "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "slcc: compiling") != NULL, "stderr:\n%s", r.err);
}

Test(slcc, usage_errors_exit_with_status_2)
{
    run_result r;
    run((char *[]){SLCC_PATH, NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "usage: slcc") != NULL, "stderr:\n%s", r.err);

    run((char *[]){SLCC_PATH, INPUTS "hello.cu", NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "-o") != NULL, "stderr:\n%s", r.err);

    run((char *[]){SLCC_PATH, INPUTS "hello_config.h", "-o", "x", NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "unknown file type") != NULL, "stderr:\n%s", r.err);

    run((char *[]){SLCC_PATH, INPUTS "no_such_file.cu", "-o", "x", NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "no_such_file.cu") != NULL, "stderr:\n%s", r.err);

    run((char *[]){SLCC_PATH, "--frobnicate", INPUTS "hello.cu", "-o", "x", NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
}

Test(slcc, help_explains_itself)
{
    run_result r;
    run((char *[]){SLCC_PATH, "--help", NULL}, NULL, &r);
    cr_assert_eq(r.status, 0);
    cr_assert(strstr(r.out, "usage: slcc") != NULL && strstr(r.out, "emulator") != NULL,
              "stdout:\n%s", r.out);
}

/* ---- host C++ and the toolkit's header names ------------------------------------- */

Test(slcc, compiles_a_cpp_file_as_host_cpp_and_links_it_with_a_cu_file)
{
    require_runtime();
    const char *prog = scratch_path("host_main");
    /* helper_like.h defines the name only where __DRIVER_TYPES_H__ is set,
     * as cuda-samples' helper_cuda.h does. */
    slcc_ok((char *[]){"-I", INPUTS, "-std=c++17", INPUTS "host_main.cpp", INPUTS "scale_by.cu", "-o",
                       (char *)prog, NULL});
    expect_program_output(prog, "scaled: 2.5 5 7.5 10 sum 25 (error 0)\n");
}

Test(slcc, a_system_header_finds_the_system_copy_not_the_programs_own_partial_copy)
{
    require_runtime();
    const char *prog = scratch_path("uses_boost");
    slcc_ok((char *[]){INPUTS "own_boost/uses_boost.cu", "-o", (char *)prog, NULL});
    expect_program_output(prog, "boost on linux: 2 4 6 8\n");
}

Test(slcc, an_include_cycle_between_headers_of_a_subfolder_builds)
{
    require_runtime();
    const char *prog = scratch_path("cycle");
    slcc_ok((char *[]){INPUTS "cycle/main.cu", "-o", (char *)prog, NULL});
    expect_program_output(prog, "cycle: 105\n");
}

Test(slcc, refuses_a_cpp_standard_older_than_17)
{
    run_result r;
    run((char *[]){SLCC_PATH, "-std=c++14", INPUTS "host_main.cpp", "-o", (char *)scratch_path("x"), NULL},
        NULL, &r);
    cr_assert_eq(r.status, 2, "status %d, stderr:\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "C++17") != NULL, "stderr:\n%s", r.err);
}

/* A toolkit header the emulator lacks stops the build with one line naming
 * it, even when a toolkit's own header of that name is on the compiler's
 * path (here: CPATH, as a system-wide install or a user's shell sets it). */
Test(slcc, a_missing_toolkit_header_is_named_not_taken_from_an_installed_toolkit)
{
    setenv("CPATH", INPUTS "fake_toolkit", 1);
    run_result r;
    run((char *[]){SLCC_PATH, INPUTS "missing_header.cu", "-o", (char *)scratch_path("x"), NULL}, NULL, &r);
    cr_assert_neq(r.status, 0, "the build reached the fake toolkit's cufft.h");
    cr_assert(strstr(r.err, "simtlab emulator: <cufft.h> is not provided by the emulator yet") != NULL,
              "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "missing_header.cu:4") != NULL, "stderr:\n%s", r.err);

    /* A .c file gets the same guard. */
    const char *c = scratch_path("missing.c");
    FILE *f = fopen(c, "w");
    cr_assert_not_null(f);
    fputs("#include <cublasXt.h>\nint main(void) { return 0; }\n", f);
    fclose(f);
    run((char *[]){SLCC_PATH, (char *)c, "-o", (char *)scratch_path("y"), NULL}, NULL, &r);
    cr_assert_neq(r.status, 0);
    cr_assert(strstr(r.err, "<cublasXt.h> is not provided by the emulator yet") != NULL, "stderr:\n%s", r.err);
    unlink(c);
}

/* ---- the precompiled prelude (tools/slcc/slcc_pch.c) ------------------------------ */

/* Removes a folder and everything in it (not following links). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char inner[1024];
            snprintf(inner, sizeof inner, "%s/%s", path, e->d_name);
            remove_tree(inner);
        }
        if (d)
            closedir(d);
    }
    remove(path);
}

/* A folder of precompiled preludes for this test alone, removed at its end. */
static const char *own_pch_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/test_slcc_pch-XXXXXX");
        cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
        setenv("SIMTLAB_SLCC_PCH_DIR", dir, 1);
    }
    return dir;
}

static void remove_own_pch_dir(void)
{
    remove_tree(own_pch_dir());
}

/* slcc -v with these arguments: its status and stderr in r, and the
 * prelude its compile was given with -include ("" if none) in prelude. */
static void slcc_v(char *const args[], run_result *r, char *prelude, size_t cap)
{
    char *argv[32] = {SLCC_PATH, "-v"};
    size_t n = 2;
    for (; args[n - 2] && n < 31; n++)
        argv[n] = args[n - 2];
    argv[n] = NULL;
    run(argv, NULL, r);
    prelude[0] = '\0';
    const char *at = strstr(r->err, " -include ");
    if (at) {
        at += strlen(" -include ");
        snprintf(prelude, cap, "%.*s", (int)strcspn(at, " \n"), at);
        cr_assert(strstr(prelude, own_pch_dir()) == prelude, "a prelude outside the test's folder: %s", prelude);
    }
}

/* Three builds with these flags: the precompiled prelude's own, made by
 * the third; its path in `prelude`. */
static void make_prelude(char *const args[], char *prelude, size_t cap)
{
    run_result r;
    for (int k = 1; k <= 3; k++) {
        slcc_v(args, &r, prelude, cap);
        cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
        if (k < 3)
            cr_assert_str_eq(prelude, "", "build %d with these flags used a prelude:\n%s", k, r.err);
    }
    cr_assert(strstr(r.err, "slcc: precompiling the emulator's headers") != NULL, "stderr:\n%s", r.err);
    cr_assert_neq(prelude[0], '\0', "the third build did not use the prelude it made:\n%s", r.err);
}

/* One test, so that its steps share the prelude it makes (about 2 CPU-s). */
Test(slcc, the_third_build_makes_the_precompiled_prelude_for_later_ones_with_the_same_flags_and_no_shadowing_header,
     .fini = remove_own_pch_dir)
{
    require_runtime();
    own_pch_dir();
    const char *prog = scratch_path("hello_pch");
    char *args[] = {"-O1", INPUTS "hello.cu", "-o", (char *)prog, NULL};
    run_result r;
    char made[1024], prelude[1024];
    make_prelude(args, made, sizeof made);
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3\n");
    slcc_v(args, &r, prelude, sizeof prelude);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert(strstr(r.err, "precompiling") == NULL, "made again:\n%s", r.err);
    cr_assert_str_eq(prelude, made);
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3\n");

    /* Other flags are another key: not this prelude. */
    char *other[] = {"-O1", "-DBLOCKS=3", INPUTS "hello.cu", "-o", (char *)prog, NULL};
    slcc_v(other, &r, prelude, sizeof prelude);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert_str_eq(prelude, "", "-DBLOCKS=3 was given the prelude made without it");
    expect_program_output(prog, "hello: 0 1 2 3 0 1 2 3 0 1 2 3\n");

    /* A user's header of the same name as one the prelude read (here
     * <stdlib.h>, in an -I folder, then in a CPATH folder) is the one the
     * build must see, as it would without a precompiled prelude. */
    const char *dir = scratch_path("own_headers");
    cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s: %s", dir, strerror(errno));
    char header[512];
    snprintf(header, sizeof header, "%s/stdlib.h", dir);
    FILE *f = fopen(header, "w");
    cr_assert_not_null(f);
    fputs("#error \"the program's own stdlib.h\"\n", f);
    fclose(f);
    char *shadowed[] = {"-O1", "-I", (char *)dir, INPUTS "hello.cu", "-o", (char *)prog, NULL};
    slcc_v(shadowed, &r, prelude, sizeof prelude);
    cr_assert_neq(r.status, 0, "the build did not see the program's own stdlib.h");
    cr_assert(strstr(r.err, "the program's own stdlib.h") != NULL, "stderr:\n%s", r.err);
    cr_assert_str_eq(prelude, "", "a precompiled prelude hid the program's own stdlib.h");
    setenv("CPATH", dir, 1);
    slcc_v(args, &r, prelude, sizeof prelude);
    unsetenv("CPATH");
    cr_assert_neq(r.status, 0, "the build did not see CPATH's stdlib.h");
    cr_assert(strstr(r.err, "the program's own stdlib.h") != NULL, "stderr:\n%s", r.err);
    cr_assert_str_eq(prelude, "", "a precompiled prelude hid CPATH's stdlib.h");
    unlink(header);
    rmdir(dir);

    /* SIMTLAB_SLCC_PCH=0: none. */
    setenv("SIMTLAB_SLCC_PCH", "0", 1);
    slcc_v(args, &r, prelude, sizeof prelude);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert_str_eq(prelude, "", "SIMTLAB_SLCC_PCH=0 used %s", prelude);
}

/* ---- slrewrite as a program ----------------------------------------------------- */

Test(slrewrite, writes_the_prologue_and_the_line_directive)
{
    const char *out = scratch_path("hello.cpp");
    run_result r;
    run((char *[]){SLREWRITE_PATH, INPUTS "hello.cu", "-o", (char *)out, NULL}, NULL, &r);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    char text[8192];
    slurp(out, text, sizeof text);
    const char *prologue = "#define SIMTLAB_EMU_KERNEL_TU 1\n#include <cuda_runtime.h>\n"
                           "#include <simtlab_emu/host_fn.h>\n#line 1 \"" INPUTS "hello.cu\"\n/* slcc's smoke test";
    cr_assert_eq(strncmp(text, prologue, strlen(prologue)), 0, "output:\n%s", text);
}

Test(slrewrite, creates_the_output_directory)
{
    /* The build writes build/emu_gen/kernels/x.cu.cpp before anything made
     * build/emu_gen/kernels. */
    const char *dir = scratch_path("gen");
    const char *out = scratch_path("gen/kernels/hello.cu.cpp");
    run_result r;
    run((char *[]){SLREWRITE_PATH, INPUTS "hello.cu", "-o", (char *)out, NULL}, NULL, &r);
    cr_assert_eq(r.status, 0, "stderr:\n%s", r.err);
    cr_assert_eq(access(out, R_OK), 0);
    unlink(out);
    rmdir(scratch_path("gen/kernels"));
    rmdir(dir);
}

Test(slrewrite, error_exits_1_and_writes_no_output)
{
    const char *out = scratch_path("bad.cpp");
    run_result r;
    run((char *[]){SLREWRITE_PATH, INPUTS "bad_launch.cu", "-o", (char *)out, NULL}, NULL, &r);
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, INPUTS "bad_launch.cu:5:6: error:") != NULL, "stderr:\n%s", r.err);
    cr_assert_neq(access(out, F_OK), 0, "a failed rewrite left %s", out);

    run((char *[]){SLREWRITE_PATH, INPUTS "hello.cu", NULL}, NULL, &r);
    cr_assert_eq(r.status, 2);
}
