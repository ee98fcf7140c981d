/* The build a student gets from plain `slcc` is the checked one (emu/README.md,
 * "racecheck and memcheck"): each program of slcc_inputs/checks/ holds one
 * bug that a GPU runs without a word (a race, a __shared__ index out of its
 * array, a misaligned store, an atomic on host memory, warp-synchronous code
 * without __syncwarp()). Built with plain slcc it must be diagnosed with its
 * block, thread, source line (the one marked "BUG") and variable or
 * allocation; built with `slcc --fast` the same program must run to its end
 * with no diagnosis, so that the switch between the modes is tested too.
 * Warp-synchronous code on volatile memory (slcc_inputs/warp_sync.cu) must
 * give a GPU's results in the checked build, with a racecheck warning that
 * names __syncwarp().
 *
 *   cmake --build build --target test_emu_checked_build slcc && build/bin/test_emu_checked_build
 */
#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "slcc_program.hpp"

namespace {

/* An ASan runtime (`make test-asan`) makes every slcc build a --fast one
 * (the checks use GCC's sanitizer instrumentation too, emu/src/tools/slcc/slcc.c). */
void skip_under_asan()
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("the emulator runtime is built with AddressSanitizer: slcc builds have no checks then");
#endif
}

std::string input(const char *name)
{
    return std::string(CHECKED_INPUTS) + name + ".cu";
}

/* ".cu:<n>" for the line of the program marked "// BUG". */
std::string bug_line(const char *name)
{
    std::ifstream in(input(name));
    std::string text;
    for (int n = 1; std::getline(in, text); n++)
        if (text.find("// BUG") != std::string::npos)
            return ".cu:" + std::to_string(n);
    cr_assert_fail("%s has no line marked // BUG", input(name).c_str());
    return "";
}

/* The program `name` built with slcc and `mode` ("" for the default) into a
 * fresh directory; the path of the executable. */
std::string build(const char *name, const char *mode)
{
    std::string dir = std::string("/tmp/checked_build.") + name + ".XXXXXX";
    cr_assert_not_null(mkdtemp(&dir[0]), "mkdtemp");
    const std::string exe = dir + "/" + name;
    std::vector<std::string> cmd = {SLCC_PATH, "-O1"};
    if (*mode)
        cmd.push_back(mode);
    cmd.insert(cmd.end(), {input(name), "-o", exe});
    std::string log;
    const int rc = run_capturing(cmd, &log);
    cr_assert_eq(rc, 0, "slcc %s %s failed (%d):\n%s", mode, name, rc, log.c_str());
    return exe;
}

void remove_build(const std::string &exe)
{
    unlink(exe.c_str());
    rmdir(exe.substr(0, exe.rfind('/')).c_str());
}

struct run_result {
    int status;
    std::string out; /* stdout and stderr */
};

run_result run(const std::string &exe, const char *arg = nullptr)
{
    std::vector<std::string> cmd = {exe};
    if (arg)
        cmd.push_back(arg);
    run_result r;
    r.status = run_capturing(cmd, &r.out);
    return r;
}

void expect_all(const run_result &r, const std::vector<std::string> &words, const char *what)
{
    for (const std::string &w : words)
        cr_expect(r.out.find(w) != std::string::npos, "%s: the output lacks \"%s\":\n%s", what, w.c_str(),
                  r.out.c_str());
}

/* Plain slcc: the launch fails with `error` (cudaGetErrorString's text),
 * and the diagnosis names the kernel's block and thread, the BUG line and
 * every one of `words`; no counter table is printed. slcc --fast: the
 * program runs to its end, its launch succeeds, and nothing is diagnosed.
 * `arg` goes to the program. */
void expect_diagnosed_then_silent(const char *name, const char *arg, const char *error,
                                  std::vector<std::string> words)
{
    skip_under_asan();
    const std::string checked = build(name, ""), fast = build(name, "--fast");
    const run_result c = run(checked, arg), f = run(fast, arg);
    remove_build(checked);
    remove_build(fast);

    cr_expect_neq(c.status, 0, "the checked build of %s ran without a failure:\n%s", name, c.out.c_str());
    words.insert(words.end(), {"simtlab-emu: kernel ", ", block (", "), thread (", bug_line(name), error});
    expect_all(c, words, name);
    cr_expect(c.out.find("simtlab-emu profile") == std::string::npos,
              "the checked build printed the SIMT counters, which only --profile asks for:\n%s", c.out.c_str());

    cr_expect_eq(f.status, 0, "the --fast build of %s failed (%d):\n%s", name, f.status, f.out.c_str());
    cr_expect(f.out.find(": no error") != std::string::npos, "--fast: the launch should succeed:\n%s", f.out.c_str());
    cr_expect(f.out.find("simtlab-emu: kernel") == std::string::npos && f.out.find("racecheck") == std::string::npos,
              "--fast diagnosed %s, but has no checks:\n%s", name, f.out.c_str());
}

} /* namespace */

Test(checked_build, a_missing_syncthreads_is_a_racecheck_error)
{
    expect_diagnosed_then_silent("missing_syncthreads", nullptr, "unspecified launch failure",
                                 {"racecheck: ", " hazard on __shared__ partial (declared at ", "__syncthreads()",
                                  "Race reported between "});
}

Test(checked_build, a_read_past_the_end_of_a_static_shared_array_is_named)
{
    expect_diagnosed_then_silent("shared_past_end", nullptr, "an illegal memory access was encountered",
                                 {"__shared__ out of bounds: a 4-byte read", "4 bytes past the end of tile",
                                  "thread (63,0,0)"});
}

Test(checked_build, a_write_past_the_dynamic_shared_size_is_named)
{
    expect_diagnosed_then_silent("dynamic_past_end", nullptr, "an illegal memory access was encountered",
                                 {"__shared__ out of bounds: a 4-byte write",
                                  "past the end of extern __shared__ (the launch's dynamic area)"});
}

Test(checked_build, a_write_before_the_start_of_extern_shared_is_named)
{
    expect_diagnosed_then_silent("before_extern_shared", nullptr, "an illegal memory access was encountered",
                                 {"__shared__ out of bounds: a 4-byte write 4 bytes before the start of the "
                                  "block's shared memory, that is before extern __shared__ (the launch's dynamic "
                                  "area)",
                                  "thread (0,0,0)"});
}

Test(checked_build, a_misaligned_4_byte_global_store_names_the_allocation)
{
    expect_diagnosed_then_silent("misaligned_store", nullptr, "misaligned address",
                                 {"misaligned address: a 4-byte write of global memory",
                                  "byte 2 of device allocation #1, 264 bytes, allocated at ",
                                  "misaligned_store.cu:16"});
}

Test(checked_build, an_atomic_on_a_host_stack_variable_is_refused)
{
    expect_diagnosed_then_silent("atomic_host_memory", "stack", "an illegal memory access was encountered",
                                 {"an atomic on host memory: ", "on the host thread's stack", "HMM", "ATS"});
}

Test(checked_build, an_atomic_on_host_malloc_memory_is_refused)
{
    expect_diagnosed_then_silent("atomic_host_memory", "malloc", "an illegal memory access was encountered",
                                 {"an atomic on host memory: ", "in the host's heap", "cudaMalloc"});
}

Test(checked_build, an_atomic_on_a_large_host_malloc_block_is_refused)
{
    expect_diagnosed_then_silent("atomic_host_memory", "large", "an illegal memory access was encountered",
                                 {"an atomic on host memory: ", "byte 0 of a ", "block that the host allocated"});
}

Test(checked_build, warp_synchronous_code_on_plain_shared_memory_names_syncwarp)
{
    expect_diagnosed_then_silent("warp_sync_plain", nullptr, "unspecified launch failure",
                                 {"racecheck: ", " hazard on __shared__ partial", "both are lanes of warp 0",
                                  "needs __syncwarp() between the write and the read"});
}

/* The checked build's device is one without HMM or ATS, as its refusal of
 * host atomics says; the --fast build's is hardware-coherent (ATS), where
 * such atomics work. */
Test(checked_build, the_device_says_what_the_build_allows)
{
    skip_under_asan();
    const std::string checked = build("atomic_host_memory", ""), fast = build("atomic_host_memory", "--fast");
    const run_result c = run(checked, "stack"), f = run(fast, "stack");
    remove_build(checked);
    remove_build(fast);
    cr_expect(c.out.find("pageableMemoryAccess = 0\n") != std::string::npos, "%s", c.out.c_str());
    cr_expect(f.out.find("pageableMemoryAccess = 1\n") != std::string::npos, "%s", f.out.c_str());
    cr_expect(f.out.find("odd values (stack): 64: no error") != std::string::npos, "%s", f.out.c_str());
}

/* The old reductions' last warp and a warp scan on volatile shared memory
 * (no __syncwarp): a GPU's results in the checked build, as before, with a
 * racecheck warning that names __syncwarp(); --fast says nothing. */
Test(checked_build, volatile_warp_synchronous_code_passes_with_a_warning)
{
    skip_under_asan();
    const std::string source = std::string(SLCC_INPUTS) + "warp_sync.cu";
    std::string dir = "/tmp/checked_build.warp_sync.XXXXXX";
    cr_assert_not_null(mkdtemp(&dir[0]), "mkdtemp");
    const std::string checked = dir + "/checked", fast = dir + "/fast";
    std::string log;
    cr_assert_eq(run_capturing({SLCC_PATH, "-O1", source, "-o", checked}, &log), 0, "%s", log.c_str());
    cr_assert_eq(run_capturing({SLCC_PATH, "-O1", "--fast", source, "-o", fast}, &log), 0, "%s", log.c_str());
    const run_result c = run(checked), f = run(fast);
    unlink(checked.c_str());
    unlink(fast.c_str());
    rmdir(dir.c_str());
    const char *right[] = {"reduce 256: 0 of 37 blocks wrong\n", "reduce 64: 0 of 9 blocks wrong\n",
                           "reduce float: 0 of 29 blocks wrong\n", "scan: 0 of 384 wrong\n"};
    cr_assert_eq(c.status, 0, "%s", c.out.c_str());
    cr_assert_eq(f.status, 0, "%s", f.out.c_str());
    for (const char *line : right) {
        cr_expect(c.out.find(line) != std::string::npos, "checked build: no \"%s\":\n%s", line, c.out.c_str());
        cr_expect(f.out.find(line) != std::string::npos, "--fast build: no \"%s\":\n%s", line, f.out.c_str());
    }
    expect_all(c,
               {"racecheck WARNING: ", "between lanes of warp 0 on volatile shared memory",
                "needs __syncwarp() between the write and the read", "warp_sync.cu:", "a warning, not an error",
                "warp-synchronous hazards on volatile shared memory"},
               "checked build");
    cr_expect(f.out.find("racecheck") == std::string::npos, "--fast has no racecheck:\n%s", f.out.c_str());
}

/* --racecheck names the checked build (the advice emu/src/checks/checkers.cpp
 * gives); with --fast it is a usage error. */
Test(checked_build, racecheck_names_the_default_and_contradicts_fast)
{
    skip_under_asan();
    const std::string exe = build("missing_syncthreads", "--racecheck");
    const run_result r = run(exe);
    remove_build(exe);
    cr_expect_neq(r.status, 0);
    expect_all(r, {"racecheck: ", bug_line("missing_syncthreads")}, "--racecheck");
    std::string log;
    const int rc = run_capturing({SLCC_PATH, "--fast", "--racecheck", input("missing_syncthreads"), "-o",
                                  "/tmp/checked_build.never"},
                                 &log);
    cr_expect_eq(rc, 2, "slcc --fast --racecheck: %d\n%s", rc, log.c_str());
    cr_expect(log.find("--fast builds the kernels without the checks") != std::string::npos, "%s", log.c_str());
}
