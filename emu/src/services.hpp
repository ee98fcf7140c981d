/* simtlab CPU emulator — what the runtime (runtime*.cpp: memory, errors,
 * devices, streams) and the engine (engine*.cpp: grids, fibers, barriers,
 * warps, faults) provide to each other. Not installed; not for kernels. */
#ifndef SIMTLAB_EMU_INTERNAL_HPP
#define SIMTLAB_EMU_INTERNAL_HPP

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace simtlab_emu {

/* A message that overflowed its buffer (`needed`: what snprintf returned)
 * ends at the last whole word that leaves room for a marker saying so: a
 * diagnostic is never cut mid-word without a word. UTF-8 sequences are not
 * split. */
inline void mark_if_cut(char *text, std::size_t cap, int needed)
{
    static const char marker[] = " [... message cut]";
    constexpr std::size_t mlen = sizeof marker - 1;
    if (needed < 0 || static_cast<std::size_t>(needed) < cap || cap <= mlen + 1)
        return;
    std::size_t end = std::strlen(text);
    if (end > cap - 1 - mlen)
        end = cap - 1 - mlen;
    std::size_t cut = end;
    while (cut > 0 && text[cut] != ' ')
        cut--;
    if (cut == 0)
        cut = end;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        cut--;
    std::memcpy(text + cut, marker, mlen + 1);
}

namespace detail {
/* Before a warp operation that needs all 32 lanes (wmma, mma.sync,
 * ldmatrix): fails the launch if a lane does not exist or has exited
 * (engine/warp.cpp). */
void require_whole_warp(const char *op, const char *file, int line);
}

/* ---- provided by the runtime ------------------------------------------ */

/* One live device allocation (cudaMalloc). The runtime places each in its own
 * mapping, its end against a PROT_NONE guard page, so that a kernel's access
 * past the end faults; while no kernel runs the pages are PROT_NONE too, so
 * that a host dereference of a device pointer faults and is explained. */
struct allocation {
    std::uintptr_t base; /* what cudaMalloc returned */
    std::size_t size;    /* bytes asked for */
    const char *file;    /* where it was made, when known, else nullptr */
    int line;
    unsigned long serial; /* 1, 2, 3 ... in order of allocation */
};

/* The allocation that contains `addr`, or else the nearest one within
 * `window` bytes, into *out; *offset is addr - out->base (negative before
 * it, >= size past its end). Returns false when none is near. Async-signal
 * safe: called from the fault handler. */
bool find_allocation(std::uintptr_t addr, std::size_t window, allocation *out, std::ptrdiff_t *offset);
/* A freed device allocation whose mapping (guards included) holds addr:
 * cudaFree keeps the last freed ranges reserved and inaccessible, so that
 * a use after free faults and is named as such (runtime/memory.cpp).
 * Async-signal safe, like find_allocation. */
bool find_freed(std::uintptr_t addr, allocation *out, std::ptrdiff_t *offset);

/* Makes every device allocation readable and writable (a launch begins) or
 * inaccessible again (it ends). Nested calls count. Allocations end on a
 * 16-byte boundary before the guard page, so up to 15 bytes past the end do
 * not fault: those bytes hold a canary that device_memory_close() checks;
 * if one changed it sets a diagnostic naming the allocation and how many
 * bytes past its end were written, and returns cudaErrorIllegalAddress. */
void device_memory_open();
cudaError_t device_memory_close();

/* Records the result of a runtime call or launch as CUDA does: `error`
 * becomes the last error (cudaGetLastError returns and clears it); a sticky
 * error (illegal address, assert, launch failure, ...) also poisons the
 * context, so that every later call returns it until cudaDeviceReset. */
cudaError_t record_error(cudaError_t error);
/* The sticky error, or cudaSuccess. */
cudaError_t sticky_error();
/* Sets the text simtlab_emu_last_diagnostic() returns and prints it to
 * stderr, prefixed "simtlab-emu: ". */
void set_diagnostic(const char *text);

/* The emulated device's properties (compute capability from SIMTLAB_EMU_CC,
 * default 8.0; the name says it is the emulator). */
const cudaDeviceProp &device_props();

/* cudaSuccess if `stream` is 0 (the legacy default stream) or a live handle
 * from cudaStreamCreate*; else cudaErrorInvalidResourceHandle with a
 * diagnostic naming `api` ("kernel launch"). Does not record the error. */
cudaError_t validate_stream(cudaStream_t stream, const char *api);

/* ---- provided by the engine -------------------------------------------- */

/* In a CUDA thread: that thread's own last error, which device-side
 * cudaGetLastError/cudaPeekAtLastError read and record_error writes there
 * (dynamic parallelism keeps one per thread); nullptr in host code. */
int *device_last_error();

/* Installs the process's SIGSEGV/SIGBUS handler once (idempotent). The
 * runtime calls it before handing out the first device pointer. A fault in
 * a kernel thread becomes cudaErrorIllegalAddress with a diagnostic; a fault
 * in host code on a device allocation is explained, then the default action
 * runs (the process dies as it would on a GPU machine). */
void install_fault_handler();

/* Waits for all work on all streams (launches are synchronous today, so this
 * only has to order with the runtime). */
void engine_synchronize();

/* Static shared memory a kernel used in its last launch, for
 * cudaFuncGetAttributes (0 if never launched). */
std::size_t kernel_static_shared_bytes(const void *kernel_addr);

/* cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
 * bytes): later launches of the kernel may ask for up to `bytes` of dynamic
 * shared memory, and static + dynamic may reach sharedMemPerBlockOptin.
 * Returns cudaErrorInvalidValue when bytes is negative or too large. */
cudaError_t engine_set_max_dynamic_shared(const void *kernel_addr, int bytes);
/* What cudaFuncGetAttributes reports as maxDynamicSharedSizeBytes: the value
 * set above, or else CUDA's default, what is left of sharedMemPerBlock
 * (48 KB) after the kernel's static shared memory. */
std::size_t kernel_max_dynamic_shared_bytes(const void *kernel_addr);
/* cudaDeviceReset: every kernel's attributes back to their defaults. (Its
 * static shared memory stays: that is a fact of the code, not a setting.) */
void engine_reset_function_attributes();

} /* namespace simtlab_emu */

#endif
