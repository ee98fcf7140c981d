/* Chapter 07 — errors and debugging, caused on purpose.
 *
 * Makes one mistake (the case named on the command line), then prints what
 * the library says about it (the status and sl_last_error()), which call
 * reported the error, whether it is sticky, and what to run next: the
 * emulator's diagnosis is in the library's line under the _emu build;
 * on a GPU, compute-sanitizer and cuda-gdb (tutorial/07-errors-and-debugging.md).
 *
 * Usage: 07_errors assert|oob|oom|config|resources|noimage|hostderef|race|leak
 * One case per run: after a sticky error (assert, oob) the process cannot
 * use the device again. `hostderef` ends the program with a segmentation
 * fault on purpose, after saying so. */
#include <stdio.h>
#include <string.h>

#include "simtlab/simtlab.h"

/* On stdout with exit 0 for --help or -h, on stderr with exit 2 otherwise. */
static int usage(const char *prog, int help)
{
    FILE *f = help ? stdout : stderr;
    fprintf(f, "usage: %s CASE\n\nCASE is one of:\n", prog);
    for (int c = 0; c < SL_ERRORS_CASE_COUNT; c++)
        fprintf(f, "  %-10s %s\n", sl_errors_case_name((sl_errors_case)c),
                sl_errors_case_mistake((sl_errors_case)c));
    return help ? 0 : 2;
}

/* What to look at next, for each case, on this backend. */
static void next_steps(sl_errors_case c, int emu, const sl_errors_outcome *o)
{
    switch (c) {
    case SL_ERRORS_ASSERT:
    case SL_ERRORS_OOB:
        if (emu && strcmp(o->reported_by, "the launch") == 0)
            printf("The emulator runs a launch to its end before it returns, so the launch itself reported\n"
                   "the fault; on a GPU the launch returns at once and cudaDeviceSynchronize reports it.\n");
        else if (strcmp(o->reported_by, "cudaDeviceSynchronize") == 0)
            printf("The launch itself returned cudaSuccess: the kernel had not run yet. The fault came back\n"
                   "from the next call that waited for the kernel, cudaDeviceSynchronize.\n");
        if (c == SL_ERRORS_OOB)
            printf("On a GPU: compute-sanitizer --tool memcheck build/bin/07_errors oob\n");
        else
            printf("On a GPU the failed assert prints its file, line, block and thread itself;\n"
                   "cuda-gdb --args build/bin/07_errors assert stops the program at it.\n");
        break;
    case SL_ERRORS_OOM:
        printf("Not sticky: free what you no longer need, or work in pieces, and carry on.\n");
        break;
    case SL_ERRORS_CONFIG:
        printf("Not sticky: nothing ran. The library's own entry points check the block size before any\n"
               "CUDA call (opts->block = 2048 is SL_ERR_INVALID_ARGUMENT naming it).\n");
        break;
    case SL_ERRORS_RESOURCES:
        if (o->regs_per_thread > 0)
            printf("This kernel uses %d registers per thread, so it launches with at most %d threads per\n"
                   "block (cudaFuncGetAttributes). Fix: smaller blocks, or __launch_bounds__(1024) so that\n"
                   "the compiler keeps to 64 registers (and spills the rest to local memory).\n",
                   o->regs_per_thread, o->max_block);
        else
            printf("On a GPU: nvcc -Xptxas -v prints the registers per thread of every kernel.\n");
        break;
    case SL_ERRORS_NOIMAGE:
        printf("make doctor prints the architectures this build carries and each GPU's compute capability;\n"
               "rebuild for your GPU with cmake -B build -DCMAKE_CUDA_ARCHITECTURES=native.\n");
        break;
    case SL_ERRORS_RACE:
        if (o->cuda_error)
            printf("The outputs were not copied back: the launch failed.\n");
        else
            printf("%zu of 1024 outputs were wrong%s.\n", o->wrong,
                   o->wrong ? "" : " (this time: a missing barrier can give right answers by luck)");
        if (emu && !o->cuda_error)
            printf("%s\n", sl_modelled_available() == SL_OK
                                ? "racecheck was off (SIMTLAB_EMU_RACECHECK=0): only the wrong outputs show the bug."
                                : "This build's kernels are not instrumented, so it has no racecheck: only the wrong\n"
                                  "outputs show the bug.");
        printf("On a GPU: compute-sanitizer --tool racecheck build/bin/07_errors race\n");
        break;
    case SL_ERRORS_HOSTDEREF:
    case SL_ERRORS_LEAK:
    case SL_ERRORS_CASE_COUNT:
        break;
    }
}

int main(int argc, char **argv)
{
    sl_errors_case c;
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) return usage(argv[0], 1);
    if (argc != 2 || sl_errors_case_parse(argv[1], &c) != SL_OK) {
        if (argc == 2) fprintf(stderr, "%s\n", sl_last_error());
        return usage(argv[0], 0);
    }
    /* Line by line, so that the emulator's lines on stderr come where they
     * happen among ours when both go to one terminal or file. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int emu = sl_backend_is_emulator();
    printf("Chapter 07, case \"%s\" (backend: %s)\n", sl_errors_case_name(c), sl_backend_name());
    printf("The mistake: %s.\n\n", sl_errors_case_mistake(c));

    sl_errors_outcome o;
    sl_status st = sl_errors_run(c, &o);
    printf("sl_errors_run returned %s\n", sl_status_name(st));
    if (o.cuda_error)
        printf("  CUDA error %d, returned by %s\n", o.cuda_error, o.reported_by);
    if (st != SL_OK) printf("  sl_last_error(): %s\n", sl_last_error());
    if (o.cuda_error)
        printf("  sticky: %s\n", o.sticky ? "yes: a later cudaMalloc of 4 bytes failed too; this process can no "
                                            "longer use the device"
                                          : "no: a later cudaMalloc of 4 bytes worked");
    printf("\n");
    if (st == SL_ERR_NO_DEVICE) {
        printf("This machine cannot run CUDA kernels on a GPU: run the same case on the CPU emulator,\n"
               "build/bin/07_errors_emu %s (make doctor says what this machine can run).\n", sl_errors_case_name(c));
        return 1;
    }
    if (c == SL_ERRORS_OOB && st == SL_OK)
        printf("No error: on a GPU a write just past the end of a buffer usually lands in memory that the\n"
               "allocation's page still covers, so nothing faults and the bug stays hidden.\n");
    if (c == SL_ERRORS_RESOURCES && st == SL_OK)
        printf("No error: this build's kernel fits 1024 threads per block on this GPU.\n");
    if (c == SL_ERRORS_NOIMAGE && st == SL_OK)
        printf("No error: this GPU runs the image the kernel was built for (make doctor says which).\n");
    next_steps(c, emu, &o);

    if (c == SL_ERRORS_LEAK) {
        printf("The library's list of its live device buffers (sl_alloc_report_leaks):\n");
        sl_alloc_report_leaks(stdout);
        printf("%s", emu ? "At exit the emulator lists the device allocations still live (on stderr).\n"
                         : "On a GPU nothing reports it: the driver frees everything at exit. "
                           "compute-sanitizer --leak-check full build/bin/07_errors leak does.\n");
    }
    if (c == SL_ERRORS_HOSTDEREF) {
        float *d_x = NULL;
        if (sl_alloc_device(&d_x, 1000 * sizeof(float)) != SL_OK) {
            fprintf(stderr, "%s\n", sl_last_error());
            return 1;
        }
        printf("Now the mistake itself: reading d_x[0] on the host. The process dies of a segmentation\n"
               "fault here%s.\n", emu ? "; the emulator says why first (on stderr)" : ", with no CUDA error at all");
        fflush(stdout);
        volatile float first = d_x[0]; /* the bug, on purpose */
        printf("read %g: this line is never reached\n", (double)first);
    }
    return st == SL_OK ? 0 : 1;
}
