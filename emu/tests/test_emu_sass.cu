/* The timing model's SASS weights (emu/docs/model.md, "SASS weights";
 * profile/model_sass.cpp): a SASS table written here, with known counts per
 * line, gives the expected weighted issue count; a line the table says has no
 * conditional jump (SASS predicates it) does not count as diverged; without
 * the table, or for a kernel it lacks, the counts stay basic blocks and the
 * label says so.
 *
 * Each kernel is written on one source line, so every site of it resolves
 * to that line: the weighted count per warp is then the table's figure
 * exactly. One warp, one block: issue = instructions per warp cycles, at the
 * H200's 1980 MHz (emu/gpus/h200.gpu). SIMTLAB_MODEL_SASS is read once per
 * process; Criterion runs each test in a process of its own.
 *
 * Built with the counters (emu/CMakeLists.txt, PROFILE). Build and run:
 * cmake --build build --target test_emu_sass && build/bin/test_emu_sass */
#include <criterion/criterion.h>

#include <simtlab_emu/profile.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

static const int straight_line = __LINE__ + 1;
__global__ void sass_straight(float *o) { o[threadIdx.x] = 2.0f * threadIdx.x + 1.0f; }

static const int branch_line = __LINE__ + 1;
__global__ void sass_branch(int *o) { if (threadIdx.x & 1) { asm volatile("" ::: "memory"); o[threadIdx.x] = 3; } else { asm volatile("" ::: "memory"); o[threadIdx.x] = 5; } }

static const int template_line = __LINE__ + 1;
template <int K> __global__ void sass_tpl(int *o) { o[threadIdx.x] = K * (int)threadIdx.x; }

/* Writes the table and points SIMTLAB_MODEL_SASS at it (before the first
 * modelled launch); the path, to unlink. */
static std::string write_table(const std::string &rows)
{
    char path[] = "/tmp/test_emu_sass_XXXXXX";
    const int fd = mkstemp(path);
    cr_assert_neq(fd, -1);
    const std::string text = "# arch\tkernel\tfile\tline\tloop\ttop\tcopies\tbranches\tloops\n" + rows;
    cr_assert_eq(write(fd, text.data(), text.size()), (ssize_t)text.size());
    close(fd);
    setenv("SIMTLAB_MODEL_SASS", path, 1);
    char err[256];
    cr_assert_eq(simtlab_emu_model_select("h200", err, sizeof err), 0, "%s", err);
    return path;
}

static std::string row(const char *kernel, int line, int loop, int top, int copies, int branches)
{
    char text[256];
    std::snprintf(text, sizeof text, "sm_90\t%s\ttest_emu_sass.cu\t%d\t%d\t%d\t%d\t%d\t%s\n", kernel, line, loop, top,
                  copies, branches, loop ? "10" : "-");
    return text;
}

/* One launch between begin and end; the last launch's modelled time. */
template <class F> static simtlab_emu_model_time modelled(F launch)
{
    simtlab_emu_profile_begin();
    launch();
    simtlab_emu_profile_end();
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
    simtlab_emu_model_time t;
    cr_assert_eq(simtlab_emu_model_last(&t), 0, "nothing modelled: %s", simtlab_emu_profile_why());
    cr_assert(t.modelled, "%s", t.not_modelled);
    std::fprintf(stderr, "  %s: issue %.6f us (%.2f cycles), %s\n", t.kernel, t.issue_us, t.issue_us * 1980.0,
                 t.counts);
    return t;
}

static const char *const old_label = "instruction counts: basic blocks, no SASS weights";

Test(sass, no_table_keeps_basic_blocks_and_says_so)
{
    setenv("SIMTLAB_MODEL_SASS", "", 1); /* none, whatever the build wrote */
    float *o;
    cr_assert_eq(cudaMalloc(&o, 32 * sizeof(float)), cudaSuccess);
    const simtlab_emu_model_time t = modelled([&] { sass_straight<<<1, 32>>>(o); });
    cr_assert_str_eq(t.counts, old_label);
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_last(&f), 0);
    /* one warp: its basic blocks and its store, one cycle each */
    cr_assert_float_eq(t.issue_us * 1980.0, (double)(f.inst_executed + f.gst_requests), 1e-6);
    cudaFree(o);
}

Test(sass, a_kernel_the_table_lacks_keeps_basic_blocks)
{
    const std::string path = write_table(row("some_other_kernel", straight_line, 0, 7, 1, 0));
    float *o;
    cr_assert_eq(cudaMalloc(&o, 32 * sizeof(float)), cudaSuccess);
    const simtlab_emu_model_time t = modelled([&] { sass_straight<<<1, 32>>>(o); });
    unlink(path.c_str());
    cr_assert_str_eq(t.counts, old_label);
    cudaFree(o);
}

Test(sass, a_straight_line_kernel_counts_its_sass_instructions_once_per_warp)
{
    const std::string path = write_table(row("sass_straight", straight_line, 0, 7, 1, 0));
    float *o;
    cr_assert_eq(cudaMalloc(&o, 128 * sizeof(float)), cudaSuccess);
    const simtlab_emu_model_time t = modelled([&] { sass_straight<<<1, 32>>>(o); });
    unlink(path.c_str());
    cr_assert_str_eq(t.counts, "instruction counts: SASS-weighted (sm_90, nvdisasm)");
    cr_assert_float_eq(t.issue_us * 1980.0, 7.0, 1e-6, "7 SASS instructions, one warp: 7 cycles");
    /* at most once per warp: 4 warps, 28 instructions on 4 schedulers: 7 cycles */
    const simtlab_emu_model_time four = modelled([&] { sass_straight<<<1, 128>>>(o); });
    cr_assert_float_eq(four.issue_us * 1980.0, 7.0, 1e-6);
    cudaFree(o);
}

Test(sass, the_instance_a_launch_names_gives_its_own_counts)
{
    const std::string path = write_table(row("sass_tpl<1>", template_line, 0, 5, 1, 0) +
                                         row("sass_tpl<2>", template_line, 0, 9, 1, 0));
    int *o;
    cr_assert_eq(cudaMalloc(&o, 32 * sizeof(int)), cudaSuccess);
    const simtlab_emu_model_time two = modelled([&] { sass_tpl<2><<<1, 32>>>(o); });
    const simtlab_emu_model_time one = modelled([&] { sass_tpl<1><<<1, 32>>>(o); });
    unlink(path.c_str());
    cr_assert_float_eq(two.issue_us * 1980.0, 9.0, 1e-6);
    cr_assert_float_eq(one.issue_us * 1980.0, 5.0, 1e-6);
    cudaFree(o);
}

/* Lanes split on threadIdx.x & 1: the counters see a diverged branch, unless
 * the table says the line has no conditional jump in SASS. */
static unsigned long long diverged_with(int branches, simtlab_emu_model_time *t)
{
    const std::string path = write_table(row("sass_branch", branch_line, 0, 6, 1, branches));
    int *o;
    cr_assert_eq(cudaMalloc(&o, 32 * sizeof(int)), cudaSuccess);
    *t = modelled([&] { sass_branch<<<1, 32>>>(o); });
    unlink(path.c_str());
    int h[32];
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        cr_assert_eq(h[i], i & 1 ? 3 : 5);
    cudaFree(o);
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_last(&f), 0);
    return f.branches_diverged;
}

Test(sass, a_predicated_line_does_not_diverge)
{
    simtlab_emu_model_time t;
    cr_assert_eq(diverged_with(0, &t), 0ULL);
    /* both sides issue (a predicated line runs once per warp): 6 instructions */
    cr_assert_float_eq(t.issue_us * 1980.0, 6.0, 1e-6);
}

Test(sass, a_line_that_jumps_still_diverges)
{
    simtlab_emu_model_time t;
    cr_assert_gt(diverged_with(1, &t), 0ULL);
}
