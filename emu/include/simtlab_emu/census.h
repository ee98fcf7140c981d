/* simtlab CPU emulator — the census: what a program asked of the runtime,
 * counted by the runtime, and which kernel wrote which bytes of device
 * memory. For graders and tests that must not take a program's own word for
 * it (tutorial/INSTRUCTORS.md, "What the grader checks"):
 *
 *     simtlab_emu_census_begin();
 *     student_code();                       // launches, copies, allocations
 *     simtlab_emu_census_end();
 *     simtlab_emu_census c;
 *     simtlab_emu_census_get(&c);
 *     if (c.launches != 1) ...              // counted by the runtime
 *     simtlab_emu_census_copy copy;        // each device-to-host copy:
 *     simtlab_emu_census_d2h(0, &copy);    // its bytes, their hash, and how
 *                                           // many a kernel wrote, and which
 *
 * Plain C, in every emulator build (no instrumentation needed: it watches
 * the runtime's own entry points). Off until simtlab_emu_census_begin:
 * then each launch costs two comparisons of the live device allocations
 * with a copy of them (how "which kernel wrote which bytes" is known: a
 * byte that changed between a launch's start and its end was written by
 * that launch's kernel; one that a copy or memset put there, by the host).
 * A byte a kernel rewrote with the value it already held keeps its earlier
 * writer. Granularity: 4-byte words. Not on a GPU: there is no such API
 * there (a GPU build of a grader says what it could not check). */
#ifndef SIMTLAB_EMU_CENSUS_H
#define SIMTLAB_EMU_CENSUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simtlab_emu_census {
    unsigned long long launches;       /* kernel launches from the host that reached the device (failed ones too) */
    unsigned long long launch_threads; /* threads in those launches, summed */
    unsigned long long launch_streams; /* distinct streams other than the default stream that launches used */
    unsigned long long copy_streams;   /* the same for cudaMemcpyAsync and cudaMemsetAsync */
    unsigned long long async_copies;   /* cudaMemcpyAsync calls that copied */
    unsigned long long h2d_copies, h2d_bytes; /* by where the pointers live, whatever the kind said */
    unsigned long long d2h_copies, d2h_bytes;
    unsigned long long d2d_copies, d2d_bytes;
    unsigned long long memsets, memset_bytes;
    unsigned long long mallocs;        /* device allocations made (cudaMalloc, cudaMallocManaged, ...) */
    unsigned long long frees;          /* device allocations freed */
    unsigned long long host_waits;     /* cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize */
} simtlab_emu_census;

/* One device-to-host copy: where it went, what arrived, and who wrote it. */
typedef struct simtlab_emu_census_copy {
    const void *host;         /* the destination */
    const void *device;       /* the source */
    size_t bytes;
    unsigned long long fnv1a; /* 64-bit FNV-1a of the bytes that arrived */
    size_t kernel_bytes;      /* of them, bytes a kernel launch wrote last (whole 4-byte words) */
    size_t host_bytes;        /* bytes the host wrote last (a copy, a memset, managed memory); the rest
                               * held their value since the census began (a kernel that stored the value
                               * a byte already held is not seen) */
    char kernel[128];         /* the kernel that wrote most of them, as launched ("" if none) */
} simtlab_emu_census_copy;

/* Starts counting, from zero, and watching who writes device memory. */
void simtlab_emu_census_begin(void);
/* Stops; what was counted stays readable until the next begin. */
void simtlab_emu_census_end(void);
/* The counts so far (or at the end). Returns 0, or 1 when no census ran. */
int simtlab_emu_census_get(simtlab_emu_census *out);
/* Launches of the kernel named `kernel` (as launched, "add", or its name
 * before a template argument list: "tiled_sgemm" for "tiled_sgemm<16>"),
 * and their threads in *threads when it is not NULL. */
unsigned long long simtlab_emu_census_launches_of(const char *kernel, unsigned long long *threads);
/* How many device-to-host copies were recorded (at most 65536), and the
 * i-th, in order. Returns 0, or 1 when i is out of range. */
size_t simtlab_emu_census_d2h_count(void);
int simtlab_emu_census_d2h(size_t i, simtlab_emu_census_copy *out);
/* Bytes of the device range [ptr, ptr + bytes) whose last writer was a
 * launch of `kernel` (NULL: of any kernel), in whole 4-byte words. */
size_t simtlab_emu_census_written_by(const void *ptr, size_t bytes, const char *kernel);
/* 64-bit FNV-1a of n bytes, as the copies record it. */
unsigned long long simtlab_emu_census_hash(const void *bytes, size_t n);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
