/* simtlab — the occupancy calculator (chapter 03): how many blocks and warps
 * of a kernel one SM can hold at once, and which resource stops it holding
 * more. Plain host arithmetic on the published per-architecture limits, so it
 * needs no GPU; the inputs come from ptxas's report (build/resources.txt) or
 * from cudaFuncGetAttributes. build/bin/occupancy is its command line. */
#ifndef SIMTLAB_03_OCCUPANCY_H
#define SIMTLAB_03_OCCUPANCY_H

#include <stddef.h>

#include "simtlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one SM of an architecture holds (host/03_occupancy.c says where each
 * number comes from). */
typedef struct sl_arch_limits {
    int arch;                     /* 75, 80, 86, 89, 90, 100, 120: compute capability x 10 */
    int max_threads_per_block;    /* 1024 */
    int max_warps_per_sm;         /* resident warps */
    int max_blocks_per_sm;        /* resident blocks */
    int registers_per_sm;         /* 32-bit registers in the register file */
    int max_registers_per_block;
    int max_registers_per_thread; /* 255 */
    int register_unit;            /* a warp's registers are given out in units of this many */
    int sub_partitions;           /* the register file is split among this many schedulers */
    size_t shared_per_sm;         /* bytes, at the largest shared-memory carveout */
    size_t max_shared_per_block;  /* bytes a block may use (above 48 KB: with cudaFuncSetAttribute) */
    size_t shared_unit;           /* a block's shared memory is given out in units of this many bytes */
    size_t shared_reserved;       /* bytes the driver keeps per block (cudaDevAttrReservedSharedMemoryPerBlock) */
} sl_arch_limits;

/* The architectures the calculator knows, ascending; *count receives how many. */
const int *sl_occupancy_archs(size_t *count);
/* The limits of `arch` (e.g. 80); SL_ERR_INVALID_ARGUMENT naming `arch` and
 * listing the known ones when it is not among them. */
sl_status sl_arch_limits_get(int arch, sl_arch_limits *out);

/* The resources that can cap the number of resident blocks. */
typedef enum sl_occupancy_limit {
    SL_OCC_REGISTERS = 1,
    SL_OCC_SHARED = 2,
    SL_OCC_WARPS = 4,
    SL_OCC_BLOCKS = 8
} sl_occupancy_limit;

typedef struct sl_occupancy {
    int warps_per_block;
    int registers_per_warp;        /* allocated: registers x 32, rounded up to the unit */
    size_t shared_per_block;       /* allocated: static + dynamic + reserved, rounded up to the unit */
    /* Blocks per SM each resource alone would allow; -1: that resource sets no limit. */
    int blocks_by_registers;
    int blocks_by_shared;
    int blocks_by_warps;
    int blocks_by_slots;
    int active_blocks;             /* the least of the above (0: one block does not fit) */
    int active_warps;
    int max_warps;                 /* the architecture's resident warps per SM */
    double occupancy;              /* active_warps / max_warps, 0..1 */
    unsigned limits;               /* every sl_occupancy_limit that equals active_blocks */
    sl_occupancy_limit limit;      /* the first of them in the enum's order */
} sl_occupancy;

/* Theoretical occupancy of a kernel that uses `registers` per thread (0..255)
 * and `shared_static` + `shared_dynamic` bytes of shared memory per block,
 * launched with `threads` per block (1..1024) on architecture `arch`.
 * SL_ERR_INVALID_ARGUMENT with a message naming the argument for a value
 * out of range, an unknown architecture or a NULL `out`. A block that needs
 * more registers or shared memory than a block may have is not an error:
 * active_blocks is 0 and `limit` names the resource. */
sl_status sl_occupancy_calc(int arch, int threads, int registers, size_t shared_static, size_t shared_dynamic,
                            sl_occupancy *out);

/* "registers", "shared memory", "warps", "block slots"; "?" for anything else. */
const char *sl_occupancy_limit_name(sl_occupancy_limit limit);
/* Every limit in `limits` joined with " + " into buf (e.g. "warps + block slots"),
 * cut to fit `size`; returns buf, or "" when buf is NULL or size is 0 (it
 * returns the text, so it cannot return a status). */
const char *sl_occupancy_limits_text(unsigned limits, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
