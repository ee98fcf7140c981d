/* simtlab CPU emulator — the SIMT counters: what a GPU would do with the
 * warps' real paths and addresses, modelled from a launch on the CPU.
 *
 * Plain C (callable from C11 host code and benchmarks):
 *
 *     simtlab_emu_profile_begin();
 *     my_kernel<<<g, b>>>(...);             // or a host wrapper that launches
 *     simtlab_emu_profile_end();
 *     simtlab_emu_profile_figures f;
 *     if (simtlab_emu_profile_last(&f) == 0)
 *         printf("sectors/request %.1f (modelled by the emulator)\n",
 *                (double)f.gld_sectors / f.gld_requests);
 *
 * The counters exist only for kernels compiled with the profiling
 * instrumentation: `slcc --profile`, or the CMake option
 * -DSIMTLAB_EMU_PROFILE=ON (emu/cmake/SimtlabEmu.cmake) for emulator
 * builds of .cu files. Without it every call here still works and
 * simtlab_emu_profile_last says why there is nothing (returns 1).
 * SIMTLAB_EMU_PROFILE=1 profiles every launch and prints a table per kernel
 * at exit; SIMTLAB_EMU_PROFILE_CSV=path appends one line per launch.
 * emu/docs/profile.md ("SIMT counters") says what is counted and where the model
 * departs from hardware. Every figure is modelled, never measured: print it
 * as such.
 *
 * Each field is named after the Nsight Compute metric it models. */
#ifndef SIMTLAB_EMU_PROFILE_H
#define SIMTLAB_EMU_PROFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simtlab_emu_profile_figures {
    char kernel[128];        /* the kernel expression as launched, e.g. "reduce_v3<256>" */
    char launch_file[256];   /* where it was launched */
    int launch_line;
    unsigned long long blocks, threads, warps; /* warps: per block, summed */
    int complete;            /* 0 when a block failed: the figures cover only what ran */

    /* SIMT execution. The unit is the basic block (see emu/README.md):
     * inst_executed counts one per warp per block a warp enters,
     * thread_inst_executed one per lane that entered it. */
    unsigned long long inst_executed;        /* smsp__inst_executed.sum (basic blocks) */
    unsigned long long thread_inst_executed; /* smsp__thread_inst_executed.sum (basic blocks) */
    double thread_inst_per_inst;             /* smsp__thread_inst_executed_per_inst_executed.ratio, 0-32 */
    double simt_efficiency;                  /* the same over 32, 0-1 (ncu: "Avg. Active Threads Per Warp" / 32) */
    unsigned long long branches_diverged;    /* smsp__sass_branch_targets_threads_divergent.sum: warp
                                              * executions of a branch whose lanes went different ways */

    /* Global memory: one request per warp per memory instruction, counting
     * the lanes that executed it; 32-byte sectors. Ideal: the sectors the
     * distinct bytes the lanes used would need if packed together (ncu's
     * Source view: "L2 Theoretical Sectors Global"). */
    unsigned long long gld_requests;         /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
    unsigned long long gld_sectors;          /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
    unsigned long long gld_sectors_ideal;
    unsigned long long gst_requests;         /* l1tex__t_requests_pipe_lsu_mem_global_op_st.sum */
    unsigned long long gst_sectors;          /* l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum */
    unsigned long long gst_sectors_ideal;

    /* Shared memory: 32 banks of 4 bytes; a wavefront serves, per bank, one
     * distinct 4-byte word; 8- and 16-byte accesses go in half- and
     * quarter-warp phases. Conflicts: wavefronts beyond the ideal (one per
     * phase with an active lane). */
    unsigned long long shld_requests;        /* smsp__inst_executed_op_shared_ld.sum */
    unsigned long long shld_wavefronts;      /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum */
    unsigned long long shld_bank_conflicts;  /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum */
    unsigned long long shst_requests;        /* smsp__inst_executed_op_shared_st.sum */
    unsigned long long shst_wavefronts;      /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum */
    unsigned long long shst_bank_conflicts;  /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum */

    /* Atomics (warp-level instructions, and the lanes that executed them)
     * and block barriers. */
    unsigned long long global_atomics;       /* smsp__inst_executed_op_global_atom.sum */
    unsigned long long shared_atomics;       /* smsp__inst_executed_op_shared_atom.sum */
    unsigned long long atomic_lanes;         /* lanes that executed an atomic (either space) */
    unsigned long long barriers;             /* __syncthreads rounds completed, summed over blocks */
} simtlab_emu_profile_figures;

/* One source line's share of the last launch (every site compiled from
 * that line). Lines are resolved from the program's debug information
 * (compile with -g; slcc --profile adds it) the first time they are asked
 * for; file is "?" when that fails. */
typedef struct simtlab_emu_profile_line {
    char file[256];
    int line;
    unsigned long long inst_executed, thread_inst_executed, branches_diverged;
    unsigned long long gld_requests, gld_sectors, gld_sectors_ideal;
    unsigned long long gst_requests, gst_sectors, gst_sectors_ideal;
    unsigned long long shld_requests, shld_wavefronts, shld_bank_conflicts;
    unsigned long long shst_requests, shst_wavefronts, shst_bank_conflicts;
    unsigned long long atomics;
} simtlab_emu_profile_line;

/* 1 when at least one translation unit of this program was compiled with
 * the profiling instrumentation (slcc --profile), else 0: the checked
 * build that plain slcc makes has the checks but not the counters. */
int simtlab_emu_profile_available(void);

/* While pauses outnumber resumes (per process), launches run without the
 * checks (memcheck, racecheck) even in a checked build, as `slcc --fast`
 * would: for timing where only speed is the point (the benches' emulated
 * columns). The instrumentation's calls stay, returning at once, so a
 * paused checked build is close to, not equal to, the fast one. Counting
 * (simtlab_emu_profile_begin) is not affected. */
void simtlab_emu_checks_pause(void);
void simtlab_emu_checks_resume(void);

/* Profile every launch from now on (begin) until end. Nests: launches are
 * profiled while begin calls outnumber end calls, or while SIMTLAB_EMU_PROFILE=1. */
void simtlab_emu_profile_begin(void);
void simtlab_emu_profile_end(void);

/* The figures of the last profiled launch into *out. Returns 0, or 1 when
 * there is none (no launch was profiled yet, or the kernels were not built
 * for profiling: simtlab_emu_profile_why() says which). */
int simtlab_emu_profile_last(simtlab_emu_profile_figures *out);

/* The sum of every launch profiled since the outermost begin (until the
 * next begin that follows an end): what one host call that launches several
 * kernels did. kernel reads "(several kernels)" when there was more than
 * one; the ratios are those of the sums. Returns 0, or 1 when no launch was
 * profiled in the window. */
int simtlab_emu_profile_window(simtlab_emu_profile_figures *out);

/* How many source lines the last profiled launch touched, and the i-th of
 * them, hottest first (by inst_executed, then memory requests). Returns 0,
 * or 1 when i is out of range. */
size_t simtlab_emu_profile_last_nlines(void);
int simtlab_emu_profile_last_line(size_t i, simtlab_emu_profile_line *out);

/* Prints the last profiled launch's table (the one printed at exit per
 * kernel) to stderr: totals, then at most max_lines lines, hottest first. */
void simtlab_emu_profile_print_last(size_t max_lines);

/* One sentence: why simtlab_emu_profile_last has nothing, or "" when it has. */
const char *simtlab_emu_profile_why(void);

/* ---- the timing model (emu/docs/model.md) --------------------------------------
 * Every launch counted (between simtlab_emu_profile_begin and _end, or with
 * SIMTLAB_EMU_PROFILE=1) is also modelled: its counters and its geometry
 * (grid, block, shared memory, registers per thread) give a time on a GPU
 * described by a data file, emu/gpus/<name>.gpu. The time is
 *     total = fixed + max(issue, shared, dram, latency)
 * and is modelled, not measured: print it as such.
 *
 *     simtlab_emu_profile_begin();
 *     my_kernel<<<g, b>>>(...);
 *     simtlab_emu_profile_end();
 *     simtlab_emu_model_time t;
 *     if (simtlab_emu_model_total(&t) == 0 && t.modelled)
 *         printf("%.1f us modelled on %s (%s-bound)\n", t.total_us, t.gpu, t.bound);
 *
 * SIMTLAB_MODEL_GPU picks the GPU (read once; default h200);
 * SIMTLAB_MODEL_RESOURCES may name ptxas's table of registers per kernel (a
 * CUDA build's build/resources.txt), else 32 registers per thread are
 * assumed. SIMTLAB_EMU_SAMPLE_BLOCKS=N runs only N blocks of larger grids
 * (spread over the grid, its edge blocks included) and scales the counters
 * and the model to the whole grid: the kernels' outputs are then
 * incomplete. */
typedef struct simtlab_emu_model_time {
    char gpu[32];            /* data file's name, e.g. "h200" */
    int modelled;            /* 1: the figures below hold; 0: see not_modelled */
    char not_modelled[160];  /* "not modelled: <reason>" when modelled == 0 */
    double total_us;         /* fixed + the binding resource */
    double fixed_us, issue_us, shared_us, dram_us, latency_us; /* the parts (sums over launches) */
    const char *bound;       /* "fixed", "issue", "shared", "dram" or "latency" (of the longest launch) */
    /* detail */
    char counts[64];         /* the unit of the instruction counts: "instruction counts: basic blocks, no SASS weights" */
    char kernel[128];        /* the launch's kernel, "(several kernels)" for a sum */
    int launches;            /* launches summed */
    double sample_scale;     /* grid blocks / blocks run (1: not sampled; a sum: the largest) */
    double dram_bytes;       /* modelled DRAM traffic (last launch) */
    int registers;           /* registers per thread used for occupancy (last launch) */
    int registers_known;     /* 1: from SIMTLAB_MODEL_RESOURCES; 0: the default of 32 */
    int blocks_per_sm;       /* resident blocks per SM (occupancy, last launch) */
    double waves;            /* rounds of resident blocks on the busiest SM (last launch) */
} simtlab_emu_model_time;

/* The GPU the model uses from now on: a data file's name ("h200", "a100",
 * "rtx4090", "t4"); NULL: SIMTLAB_MODEL_GPU, default "h200". An unknown name
 * is an error whose message lists the known ones. Returns 0, or -1 with the
 * message in err (cap bytes; err may be NULL). */
int simtlab_emu_model_select(const char *gpu, char *err, size_t cap);
/* The selected GPU's name, or "" when SIMTLAB_MODEL_GPU names none. */
const char *simtlab_emu_model_gpu(void);
/* The sum of the modelled times of every launch counted since the
 * outermost simtlab_emu_profile_begin (the window of
 * simtlab_emu_profile_window; with SIMTLAB_EMU_PROFILE=1 and no begin, since
 * the start). modelled is 0 when any launch of the window was not
 * modelled (the first reason is kept). Returns 0, or 1 when nothing was
 * modelled. */
int simtlab_emu_model_total(simtlab_emu_model_time *sum_out);
/* The last counted launch alone. Returns 0, or 1 when there is none. */
int simtlab_emu_model_last(simtlab_emu_model_time *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
