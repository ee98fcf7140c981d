/* memcheck: the emulator reports a kernel's bad memory accesses where they
 * happen, with kernel, block, thread and address, as compute-sanitizer's
 * memcheck does (emu/docs/checks.md, "racecheck and memcheck"; issue 16):
 *   - a use after free, even of memory freed before the process's first
 *     launch (the range stays reserved and inaccessible for a while);
 *   - shared memory: past a static array (into the gap before the next
 *     one), past the dynamic area, before the arena's start, far past it;
 *   - a misaligned float store: cudaErrorMisalignedAddress;
 *   - an atomic on a host stack variable: an illegal address naming host
 *     memory;
 *   - a fiber stack overflow, named as such with SIMTLAB_EMU_STACK_KB.
 * Always compiled with the instrumentation (emu/CMakeLists.txt); the use
 * after free, the shared guards and the stack overflow need none.
 * Build and run: cmake --build build --target test_emu_memcheck &&
 *                build/bin/test_emu_memcheck */
#include <criterion/criterion.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static void setup_default(void)
{
    cr_assert_eq(unsetenv("SIMTLAB_EMU_SEED"), 0);
    cr_assert_eq(unsetenv("SIMTLAB_EMU_MEMCHECK"), 0);
    cr_assert_eq(unsetenv("SIMTLAB_EMU_STACK_KB"), 0);
}

/* The launch just made failed with `want`, and its diagnostic holds every
 * one of `words` (NULL-terminated). */
static void expect_failure(cudaError_t want, const char *const *words)
{
    const cudaError_t err = cudaDeviceSynchronize();
    const char *diag = simtlab_emu_last_diagnostic();
    cr_assert_eq(err, want, "expected %s, got %s: %s", cudaGetErrorName(want), cudaGetErrorName(err), diag);
    for (; *words; words++)
        cr_assert(std::strstr(diag, *words) != nullptr, "diagnostic lacks \"%s\": %s", *words, diag);
}

__global__ void write_ones(float *p, unsigned n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1.0f;
}

/* ---- use after free ------------------------------------------------------- */

/* Before this change the range was unmapped at once, and the first launch
 * mapped the workers' stacks and locks there: the write then crashed,
 * hung or corrupted them silently, varying with n. */
Test(memcheck, a_write_through_a_pointer_freed_before_the_first_launch_is_a_use_after_free,
     .init = setup_default)
{
    for (unsigned n : {256u, 4096u, 1u << 20}) {
        float *p = nullptr;
        cr_assert_eq(cudaMalloc(&p, n * sizeof(float)), cudaSuccess);
        cr_assert_eq(cudaFree(p), cudaSuccess);
        write_ones<<<(n + 255) / 256, 256>>>(p, n);
        const char *words[] = {"use after free", "cudaFree had already released", "write_ones", nullptr};
        expect_failure(cudaErrorIllegalAddress, words);
        cudaGetLastError();
        cudaDeviceReset();
    }
}

Test(memcheck, a_use_after_free_after_an_earlier_launch_is_named_as_such, .init = setup_default)
{
    float *keep = nullptr, *p = nullptr;
    cr_assert_eq(cudaMalloc(&keep, 64 * sizeof(float)), cudaSuccess);
    write_ones<<<1, 64>>>(keep, 64);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_assert_eq(cudaMalloc(&p, 64 * sizeof(float)), cudaSuccess);
    cr_assert_eq(cudaFree(p), cudaSuccess);
    write_ones<<<1, 64>>>(p, 64);
    const char *words[] = {"use after free", "offset 0 of the 256-byte device allocation #2", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

/* ---- shared memory -------------------------------------------------------- */

__global__ void past_a_static_array(float *out, int extra)
{
    __shared__ float first[32];
    __shared__ float second[32];
    const unsigned t = threadIdx.x;
    first[t] = 1.0f;
    second[t] = 2.0f;
    __syncthreads();
    if (t == 0) first[32 + extra] = 3.0f; /* past first, short of second */
    __syncthreads();
    out[t] = first[t] + second[t];
}

Test(memcheck, a_write_past_a_static_shared_array_names_the_array, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 32 * sizeof(float)), cudaSuccess);
    past_a_static_array<<<1, 32>>>(out, 1);
    const char *words[] = {"__shared__ out of bounds", "4-byte write", "8 bytes past the end of first",
                           "(128 bytes", "thread (0,0,0)", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

__global__ void past_the_dynamic_area(float *out, unsigned n)
{
    extern __shared__ float dyn[];
    const unsigned t = threadIdx.x;
    dyn[t] = 1.0f;
    __syncthreads();
    if (t == 0) dyn[n] = 2.0f;
    out[t] = dyn[t];
}

Test(memcheck, a_write_past_the_dynamic_area_names_it, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(float)), cudaSuccess);
    past_the_dynamic_area<<<1, 64, 64 * sizeof(float)>>>(out, 64);
    const char *words[] = {"__shared__ out of bounds", "past the end of extern __shared__", "(256 bytes", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

__global__ void shared_at(float *out, long index)
{
    __shared__ float cells[64];
    cells[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) cells[index] = 2.0f;
    out[threadIdx.x] = cells[threadIdx.x];
}

Test(memcheck, a_write_before_the_shared_arena_is_out_of_bounds, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(float)), cudaSuccess);
    shared_at<<<1, 64>>>(out, -20000);
    const char *words[] = {"__shared__ out of bounds", "before the start of the block's shared memory", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

Test(memcheck, a_write_400_kb_past_the_shared_arena_is_out_of_bounds, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 64 * sizeof(float)), cudaSuccess);
    shared_at<<<1, 64>>>(out, 400 * 1024 / 4);
    const char *words[] = {"__shared__ out of bounds", "past the end of the block's shared memory", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

/* ---- alignment and host memory ------------------------------------------- */

__global__ void store_at_byte(char *base, unsigned byte)
{
    *reinterpret_cast<float *>(base + byte) = 1.0f;
}

Test(memcheck, a_misaligned_float_store_is_cuda_error_misaligned_address, .init = setup_default)
{
    char *p = nullptr;
    cr_assert_eq(cudaMalloc(&p, 64), cudaSuccess);
    store_at_byte<<<1, 1>>>(p, 4);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "an aligned store: %s", simtlab_emu_last_diagnostic());
    store_at_byte<<<1, 1>>>(p, 2);
    const char *words[] = {"misaligned address", "4-byte write of global memory", nullptr};
    expect_failure(cudaErrorMisalignedAddress, words);
}

__global__ void count_into(int *counter)
{
    atomicAdd(counter, 1);
}

Test(memcheck, atomic_add_on_a_host_stack_variable_names_host_memory, .init = setup_default)
{
    int host_counter = 0;
    count_into<<<1, 32>>>(&host_counter);
    const char *words[] = {"an atomic on host memory", "host thread's stack", "count_into", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
    cr_assert_eq(host_counter, 0, "the kernel changed the host's variable");
}

/* ---- fiber stacks --------------------------------------------------------- */

template <unsigned kib>
__global__ void big_locals(float *out)
{
    volatile char locals[kib * 1024];
    for (unsigned i = 0; i < sizeof locals; i += 512)
        locals[i] = static_cast<char>(i);
    out[threadIdx.x] = locals[threadIdx.x % 64];
}

Test(memcheck, one_300_kb_frame_is_a_fiber_stack_overflow_naming_simtlab_emu_stack_kb, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 1024 * sizeof(float)), cudaSuccess);
    big_locals<300><<<1, 1>>>(out);
    const char *words[] = {"fiber stack overflow", "SIMTLAB_EMU_STACK_KB", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

Test(memcheck, a_thousand_threads_of_128_kib_locals_overflow_the_default_stack, .init = setup_default)
{
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 1024 * sizeof(float)), cudaSuccess);
    big_locals<128><<<1, 1024>>>(out);
    const char *words[] = {"fiber stack overflow", "SIMTLAB_EMU_STACK_KB", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}

Test(memcheck, the_same_locals_fit_with_a_larger_simtlab_emu_stack_kb, .init = setup_default)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_STACK_KB", "512", 1), 0);
    float *out = nullptr;
    cr_assert_eq(cudaMalloc(&out, 1024 * sizeof(float)), cudaSuccess);
    big_locals<300><<<1, 1>>>(out);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", simtlab_emu_last_diagnostic());
}

/* ---- spin loops in an instrumented kernel (test_emu_spin has the rest) ---- */

/* Thread 0 spins on an atomic until thread 1 sets the flag; thread 1 first
 * writes past a shared array. The spin hands the worker to thread 1 from
 * inside an atomic, which the checkers ignore while it runs: thread 1 must
 * still be watched (it was not when the switch left them quiet). */
__global__ void spin_then_overrun(int *flag, const int *extra)
{
    __shared__ float tile[32];
    if (threadIdx.x == 0) {
        while (atomicAdd(flag, 0) == 0) {
        }
    } else if (threadIdx.x == 1) {
        tile[32 + *extra] = 1.0f;
        atomicExch(flag, 1);
    }
}

Test(memcheck, a_thread_run_while_another_spins_on_an_atomic_is_still_checked, .init = setup_default)
{
    int *flag = nullptr;
    cr_assert_eq(cudaMalloc(&flag, 2 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemset(flag, 0, 2 * sizeof(int)), cudaSuccess);
    spin_then_overrun<<<1, 2>>>(flag, flag + 1);
    const char *words[] = {"__shared__ out of bounds", "past the end of tile", "thread (1,0,0)", nullptr};
    expect_failure(cudaErrorIllegalAddress, words);
}
