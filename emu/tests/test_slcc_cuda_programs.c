/* slcc on the CUDA that real programs are written in (issue 26, sections 3
 * and 4): each test builds a program of emu/tests/slcc_inputs/ as a student
 * would, with slcc, runs it, and checks what it printed; each program
 * checks its own results against a reference computed another way.
 *
 *   - the host side as nvcc builds it: a .c timer with struct timeval
 *     (gnu17, not strict C11), the dialects and version macros of each file;
 *   - calls and types CUDA removed: an error naming what, when, and the
 *     replacement;
 *   - launches inside #define bodies, overloads picked through a template
 *     comma, CUDA 12.8's __nv_atomic_* built-ins, every name of cuda_fp16.h
 *     and cuda_bf16.h, Thrust's sort_by_key.
 *
 *   cmake --build build -j2 --target test_slcc_cuda_programs && build/bin/test_slcc_cuda_programs
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

#define SLCC_RUN_SCRATCH "/tmp/test_slcc_cuda-XXXXXX"
#include "slcc_run.h"

TestSuite(slcc_cuda, .fini = remove_scratch);

/* Runs argv[0] with stdout and stderr captured. */
static void run(char *const argv[], run_result *res) { run_in(argv, NULL, res); }

/* slcc with the given arguments (NULL-terminated) after its name. */
static void slcc(char *const args[], run_result *r)
{
    char *argv[32] = {SLCC_PATH};
    size_t n = 1;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    run(argv, r);
}

/* Builds the program and runs it; requires both to succeed and returns its
 * standard output in *r. */
static void build_and_run(char *const args[], const char *prog, run_result *r)
{
    slcc(args, r);
    cr_assert_eq(r->status, 0, "slcc failed (%d):\n%s", r->status, r->err);
    run((char *[]){(char *)prog, NULL}, r);
    cr_assert_eq(r->status, 0, "%s exited with %d:\nstdout:\n%s\nstderr:\n%s", prog, r->status, r->out, r->err);
}

/* ---- section 3: the host side as nvcc builds it ------------------------------ */

/* A .c file with struct timeval and gettimeofday, which strict C11 does not
 * declare, links with a .cu; the dialects are nvcc 13's with GCC: gnu17
 * for .c, gnu++17 for .cu, and every file sees __CUDACC_VER_MAJOR__ 13. */
Test(slcc_cuda, a_c_timer_with_struct_timeval_builds_beside_a_cu_as_with_nvcc)
{
    const char *prog = scratch_path("timer");
    run_result r;
    build_and_run((char *[]){INPUTS "timer_gettimeofday.c", INPUTS "timer_main.cu", "-o", (char *)prog, NULL}, prog,
                  &r);
    cr_expect_str_eq(r.out, "timer: elapsed in range, 0 wrong\n"
                            "dialects: .c strict 0, .cu strict 0, C++ 201703, CUDA 13 in .c, 13 in .cu\n");
    /* -std= still asks for strict ISO C, as the file's first build did
     * before: then the timer does not compile, as with gcc -std=c11 */
    slcc((char *[]){"-std=c11", "-c", INPUTS "timer_gettimeofday.c", "-o", (char *)scratch_path("t.o"), NULL}, &r);
    cr_expect_neq(r.status, 0, "-std=c11 compiled the timer");
    cr_expect(strstr(r.err, "storage size of") != NULL, "%s", r.err);
}

/* nvcc's command-line options as Makefiles give them: those that shape
 * only GPU code are accepted; -Xcompiler and -Xlinker pass their items on
 * (here -DBLOCKS=3, which hello.cu prints). Before, each was "unknown
 * option", and -lineinfo was taken for -l ineinfo. */
Test(slcc_cuda, nvccs_gpu_only_options_are_accepted_and_host_ones_passed_on)
{
    const char *prog = scratch_path("hello_nvcc_flags");
    run_result r;
    build_and_run((char *[]){"-O3", "-arch=sm_80", "-gencode", "arch=compute_80,code=sm_80", "-lineinfo",
                             "--use_fast_math", "-Xptxas", "-v", "-maxrregcount=64", "-ccbin", "g++",
                             "--expt-relaxed-constexpr", "-Xcompiler", "-Wall,-DBLOCKS=3", "-Xlinker", "--as-needed",
                             "-m64", "-I", INPUTS, INPUTS "hello.cu", "-o", (char *)prog, NULL},
                  prog, &r);
    cr_expect_str_eq(r.out, "hello: 0 1 2 3 0 1 2 3 0 1 2 3\n");
}

/* slcc --help says what it gives the host compiler. */
Test(slcc_cuda, help_states_the_host_dialects)
{
    run_result r;
    slcc((char *[]){"--help", NULL}, &r);
    cr_assert_eq(r.status, 0);
    cr_expect(strstr(r.out, "gnu++17") && strstr(r.out, "gnu17") && strstr(r.out, "__CUDACC_VER_MAJOR__"), "%s",
              r.out);
}

/* What CUDA removed: the message names it, the version, the replacement. */
static void expect_removed(const char *source, const char *cases, const char *what, const char *version,
                           const char *replacement)
{
    run_result r;
    slcc((char *[]){"-c", (char *)cases, (char *)source, "-o", (char *)scratch_path("removed.o"), NULL}, &r);
    cr_assert_neq(r.status, 0, "%s %s compiled", source, cases);
    cr_expect(strstr(r.err, what) != NULL, "%s: no '%s' in:\n%s", cases, what, r.err);
    cr_expect(strstr(r.err, version) != NULL, "%s: no '%s' in:\n%s", cases, version, r.err);
    cr_expect(strstr(r.err, replacement) != NULL, "%s: no '%s' in:\n%s", cases, replacement, r.err);
    cr_expect(strstr(r.err, "was not declared in this scope") == NULL, "%s: g++'s bare message:\n%s", cases, r.err);
}

Test(slcc_cuda, calls_cuda_removed_name_what_when_and_the_replacement)
{
    expect_removed(INPUTS "removed_api.cu", "-DCASE=1", "cudaThreadSynchronize was removed", "CUDA 13.0",
                   "use cudaDeviceSynchronize()");
    expect_removed(INPUTS "removed_api.c", "-DCASE=1", "cudaThreadSynchronize was removed", "CUDA 13.0",
                   "use cudaDeviceSynchronize()");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=2", "cudaThreadExit was removed", "CUDA 13.0",
                   "use cudaDeviceReset()");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=3", "cudaDeviceProp::deviceOverlap was removed", "CUDA 13.0",
                   "asyncEngineCount");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=4", "cudaDeviceProp::clockRate was removed", "CUDA 13.0",
                   "cudaDevAttrClockRate");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=5", "(a texture reference) was removed", "CUDA 12.0",
                   "use a texture object");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=6", "cudaBindTexture was removed", "CUDA 12.0",
                   "use a texture object");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=7", "(a surface reference) was removed", "CUDA 12.0",
                   "use a surface object");
    expect_removed(INPUTS "removed_api.cu", "-DCASE=8", "cudaThreadSetLimit was removed", "CUDA 13.0",
                   "use cudaDeviceSetLimit(limit, value)");
    /* and the rest of the file still builds */
    run_result r;
    slcc((char *[]){"-c", "-DCASE=0", INPUTS "removed_api.cu", "-o", (char *)scratch_path("fine.o"), NULL}, &r);
    cr_expect_eq(r.status, 0, "%s", r.err);
}

/* ---- section 4: CUDA that real programs are written in ----------------------- */

Test(slcc_cuda, launches_written_in_define_bodies_run)
{
    const char *prog = scratch_path("launch_macros");
    run_result r;
    build_and_run((char *[]){INPUTS "launch_macros.cu", "-o", (char *)prog, NULL}, prog, &r);
    cr_expect_str_eq(r.out, "launch macros: 0 of 231 values wrong\n");
}

Test(slcc_cuda, overloads_launched_with_a_template_comma_run_the_right_kernel)
{
    const char *prog = scratch_path("overloads");
    run_result r;
    build_and_run((char *[]){INPUTS "overload_template_comma.cu", "-o", (char *)prog, NULL}, prog, &r);
    cr_expect_str_eq(r.out, "overloads: no error, 0 of 120 values wrong (a 3, b 7, c -3)\n");
}

Test(slcc_cuda, every_nv_atomic_builtin_gives_cudas_result)
{
    const char *prog = scratch_path("nv_atomics");
    run_result r;
    build_and_run((char *[]){INPUTS "nv_atomics.cu", "-o", (char *)prog, NULL}, prog, &r);
    cr_expect_str_eq(r.out, "nv_atomics: 0 of 31 checks failed\n");
    /* in other start orders of the threads too */
    static const char *const seeds[] = {"1", "7", "4242"};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        setenv("SIMTLAB_EMU_SEED", seeds[k], 1);
        run((char *[]){(char *)prog, NULL}, &r);
        cr_expect_eq(r.status, 0, "SIMTLAB_EMU_SEED=%s:\n%s%s", seeds[k], r.out, r.err);
    }
    unsetenv("SIMTLAB_EMU_SEED");
}

Test(slcc_cuda, every_fp16_and_bf16_name_builds_and_a_sample_is_right)
{
    const char *prog = scratch_path("fp16_every_name");
    run_result r;
    build_and_run((char *[]){INPUTS "fp16_every_name.cu", "-o", (char *)prog, NULL}, prog, &r);
    cr_expect_str_eq(r.out, "fp16_every_name: ok\n");
}

Test(slcc_cuda, thrust_sorts_keys_and_values)
{
    if (access("/usr/include/thrust/version.h", R_OK) != 0)
        cr_skip_test("no Thrust 1.x in /usr/include (apt-get install libthrust-dev libcub-dev)");
    const char *prog = scratch_path("thrust_sort_by_key");
    run_result r;
    build_and_run((char *[]){INPUTS "thrust_sort_by_key.cu", "-o", (char *)prog, NULL}, prog, &r);
    cr_expect_str_eq(r.out, "thrust_sort_by_key: ok\n");
}
