/* The emulator's SIMT counters (<simtlab_emu/profile.h>, emu/README.md
 * "SIMT counters"): global-memory sectors per request, shared-memory bank
 * conflicts, SIMT efficiency and diverged branches, atomics and barriers,
 * each on a kernel whose figures are worked out by hand below.
 *
 * This file is always compiled with the profiling instrumentation
 * (sl_emu_add_test(... PROFILE), emu/CMakeLists.txt).
 *
 * Addresses: cudaMalloc aligns to 16 bytes in the emulator, so every
 * kernel here works on a pointer rounded up to 128 bytes (one row of
 * 32 floats = 4 sectors of 32 bytes) inside a larger allocation.
 *
 * Build and run: cmake --build build --target test_emu_profile &&
 *                build/bin/test_emu_profile */
#include <criterion/criterion.h>

#include <simtlab_emu/profile.h>

#include <cstdint>
#include <cstring>

/* ---- helpers ----------------------------------------------------------- */

/* What device_aligned allocated, freed after each test. */
static void *allocations[16];
static int nallocations;
static void free_allocations(void)
{
    while (nallocations > 0)
        cudaFree(allocations[--nallocations]);
}
TestSuite(profile_global, .fini = free_allocations);
TestSuite(profile_divergence, .fini = free_allocations);
TestSuite(profile_shared, .fini = free_allocations);
TestSuite(profile_atomics, .fini = free_allocations);
TestSuite(profile_reduction, .fini = free_allocations);
TestSuite(profile_api, .fini = free_allocations);

/* `bytes` of device memory starting on a 128-byte boundary (zeroed). */
static void *device_aligned(size_t bytes)
{
    char *raw = nullptr;
    cr_assert_eq(cudaMalloc(&raw, bytes + 128), cudaSuccess, "cudaMalloc: %s", simtlab_emu_last_diagnostic());
    cr_assert_lt(nallocations, 16);
    allocations[nallocations++] = raw;
    cr_assert_eq(cudaMemset(raw, 0, bytes + 128), cudaSuccess);
    const uintptr_t p = (reinterpret_cast<uintptr_t>(raw) + 127) & ~uintptr_t{127};
    return reinterpret_cast<void *>(p);
}

static simtlab_emu_profile_figures last_figures(const char *what)
{
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "%s: %s", what, simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess, "%s", what);
    simtlab_emu_profile_figures f;
    cr_assert_eq(simtlab_emu_profile_last(&f), 0, "%s: no figures: %s", what, simtlab_emu_profile_why());
    cr_assert(f.complete, "%s: the launch did not complete", what);
    return f;
}

/* Runs `launch` between begin and end and returns its figures. */
#define PROFILE(what, launch)                                                                          \
    ([&] {                                                                                             \
        simtlab_emu_profile_begin();                                                                   \
        launch;                                                                                        \
        simtlab_emu_profile_end();                                                                     \
        return last_figures(what);                                                                     \
    }())

/* ---- global memory: sectors per request --------------------------------- */

/* One warp reads in[i * stride + offset] and writes out[i]. */
__global__ void read_strided(const float *in, float *out, int stride, int offset)
{
    const int i = threadIdx.x;
    out[i] = in[i * stride + offset];
}

Test(profile_global, consecutive_floats_take_4_sectors_per_request)
{
    float *in = static_cast<float *>(device_aligned(64 * 32 * 4));
    float *out = static_cast<float *>(device_aligned(32 * 4));
    simtlab_emu_profile_figures f = PROFILE("stride 1", (read_strided<<<1, 32>>>(in, out, 1, 0)));
    /* 32 lanes x 4 bytes = 128 contiguous bytes on a 128-byte boundary. */
    cr_expect_eq(f.gld_requests, 1ull);
    cr_expect_eq(f.gld_sectors, 4ull);
    cr_expect_eq(f.gld_sectors_ideal, 4ull);
    cr_expect_eq(f.gst_requests, 1ull);
    cr_expect_eq(f.gst_sectors, 4ull);
}

Test(profile_global, stride_2_takes_8_stride_32_takes_32)
{
    float *in = static_cast<float *>(device_aligned(64 * 32 * 4));
    float *out = static_cast<float *>(device_aligned(32 * 4));
    /* Stride 2: the lanes span 256 bytes, every sector of them touched. */
    simtlab_emu_profile_figures f = PROFILE("stride 2", (read_strided<<<1, 32>>>(in, out, 2, 0)));
    cr_expect_eq(f.gld_requests, 1ull);
    cr_expect_eq(f.gld_sectors, 8ull);
    cr_expect_eq(f.gld_sectors_ideal, 4ull, "128 bytes used: 4 sectors would do");
    /* Stride 32: each lane its own 128-byte row, so its own sector. */
    f = PROFILE("stride 32", (read_strided<<<1, 32>>>(in, out, 32, 0)));
    cr_expect_eq(f.gld_sectors, 32ull);
    cr_expect_eq(f.gld_sectors_ideal, 4ull);
}

Test(profile_global, misaligned_by_one_float_takes_5)
{
    float *in = static_cast<float *>(device_aligned(64 * 32 * 4));
    float *out = static_cast<float *>(device_aligned(32 * 4));
    /* Bytes 4..131: sectors 0..4. */
    simtlab_emu_profile_figures f = PROFILE("offset 1", (read_strided<<<1, 32>>>(in, out, 1, 1)));
    cr_expect_eq(f.gld_sectors, 5ull);
    cr_expect_eq(f.gld_sectors_ideal, 4ull);
}

/* One float4 (16 bytes) per lane: one 16-byte load per lane. */
__global__ void copy_float4(const float4 *in, float4 *out)
{
    const int i = threadIdx.x;
    out[i] = in[i];
}

Test(profile_global, one_float4_per_lane_takes_16_sectors_per_request)
{
    float4 *in = static_cast<float4 *>(device_aligned(32 * 16));
    float4 *out = static_cast<float4 *>(device_aligned(32 * 16));
    simtlab_emu_profile_figures f = PROFILE("float4", (copy_float4<<<1, 32>>>(in, out)));
    /* 32 x 16 = 512 contiguous bytes: 16 sectors, all of them used. */
    cr_expect_eq(f.gld_requests, 1ull);
    cr_expect_eq(f.gld_sectors, 16ull);
    cr_expect_eq(f.gld_sectors_ideal, 16ull);
    cr_expect_eq(f.gst_sectors, 16ull);
}

/* The vector add of chapter 01's v3: float4 loads whose components are
 * then used one by one. At -O2 GCC's scalar replacement of aggregates would
 * split each load into four strided 4-byte loads (four requests of 16
 * sectors, ideal 4 each); nvcc emits one 16-byte load per lane, and so
 * must the model (-fno-tree-sra in the instrumented builds). */
__global__ void add_float4_by_component(const float4 *a, const float4 *b, float4 *c)
{
    const int i = threadIdx.x;
    const float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y * y.y, x.z - y.z, x.w + 2.0f * y.w);
}

Test(profile_global, float4_loads_used_by_component_stay_one_request_per_warp)
{
    float4 *a = static_cast<float4 *>(device_aligned(32 * 16));
    float4 *b = static_cast<float4 *>(device_aligned(32 * 16));
    float4 *c = static_cast<float4 *>(device_aligned(32 * 16));
    simtlab_emu_profile_figures f = PROFILE("float4 by component", (add_float4_by_component<<<1, 32>>>(a, b, c)));
    cr_expect_eq(f.gld_requests, 2ull, "one request per float4 load per warp, got %llu",
                 (unsigned long long)f.gld_requests);
    cr_expect_eq(f.gld_sectors, 32ull);
    cr_expect_eq(f.gld_sectors_ideal, 32ull);
    cr_expect_eq(f.gst_requests, 1ull);
    cr_expect_eq(f.gst_sectors, 16ull);
}

/* A store pattern: every other float. */
__global__ void store_every_other(float *out)
{
    out[2 * threadIdx.x] = 1.0f;
}

Test(profile_global, stride_2_stores_take_8_sectors)
{
    float *out = static_cast<float *>(device_aligned(64 * 4));
    simtlab_emu_profile_figures f = PROFILE("store stride 2", (store_every_other<<<1, 32>>>(out)));
    cr_expect_eq(f.gld_requests, 0ull);
    cr_expect_eq(f.gst_requests, 1ull);
    cr_expect_eq(f.gst_sectors, 8ull);
    cr_expect_eq(f.gst_sectors_ideal, 4ull);
}

/* The tail of a grid: n = 40 with blocks of 32, so the second warp has
 * 8 active lanes (the other 24 fail `i < n` and store nothing). */
__global__ void scale_tail(const float *in, float *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

Test(profile_global, the_partial_warp_at_the_tail_of_a_grid)
{
    float *in = static_cast<float *>(device_aligned(64 * 4));
    float *out = static_cast<float *>(device_aligned(64 * 4));
    simtlab_emu_profile_figures f = PROFILE("tail", (scale_tail<<<2, 32>>>(in, out, 40)));
    /* Warp 0: 4 sectors; warp 1: lanes 32..39 = 32 bytes = 1 sector. */
    cr_expect_eq(f.gld_requests, 2ull);
    cr_expect_eq(f.gld_sectors, 5ull);
    cr_expect_eq(f.gld_sectors_ideal, 5ull);
    cr_expect_eq(f.gst_requests, 2ull);
    cr_expect_eq(f.gst_sectors, 5ull);
    cr_expect_eq(f.blocks, 2ull);
    cr_expect_eq(f.threads, 64ull);
    /* The `if` diverged in warp 1 (8 lanes in, 24 out), not in warp 0. */
    cr_expect_eq(f.branches_diverged, 1ull);
}

/* Accesses to the stack (a local array indexed at run time) and to host
 * memory are not global memory: only the one store to `out` counts. */
__global__ void local_array(float *out, int k)
{
    volatile float local[8];
    for (int j = 0; j < 8; j++)
        local[j] = static_cast<float>(j + k);
    out[threadIdx.x] = local[(threadIdx.x + k) % 8];
}

Test(profile_global, stack_accesses_do_not_count)
{
    float *out = static_cast<float *>(device_aligned(32 * 4));
    simtlab_emu_profile_figures f = PROFILE("local", (local_array<<<1, 32>>>(out, 3)));
    cr_expect_eq(f.gld_requests, 0ull);
    cr_expect_eq(f.gst_requests, 1ull);
    cr_expect_eq(f.shld_requests + f.shst_requests, 0ull);
}

/* ---- divergence ------------------------------------------------------------ */

/* Both paths do the same work (64 stores each), one for odd lanes, one
 * for even: each path's blocks run with 16 of 32 lanes. */
__global__ void odd_even(float *out)
{
    const int lane = threadIdx.x % 32;
    if (lane % 2) {
        for (int k = 0; k < 64; k++)
            out[k * 32 + lane] = 1.0f;
    } else {
        for (int k = 0; k < 64; k++)
            out[k * 32 + lane] = 2.0f;
    }
}

Test(profile_divergence, odd_and_even_lanes_halve_the_efficiency)
{
    float *out = static_cast<float *>(device_aligned(64 * 32 * 4));
    simtlab_emu_profile_figures f = PROFILE("odd/even", (odd_even<<<1, 32>>>(out)));
    /* 2 x 64 loop bodies at 16 lanes dominate a handful of 32-lane blocks. */
    cr_expect(f.simt_efficiency > 0.48 && f.simt_efficiency < 0.56, "efficiency %.3f, about 0.5 expected",
              f.simt_efficiency);
    cr_expect_geq(f.branches_diverged, 1ull);
    /* Each path's store: 64 requests of 16 lanes, every other float of a
     * row, so the same 4 sectors a full row takes. */
    cr_expect_eq(f.gst_requests, 128ull);
    cr_expect_eq(f.gst_sectors, 128ull * 4);
    cr_expect_eq(f.gst_sectors_ideal, 128ull * 2);
}

/* k-way split: lane % 4 picks one of four equal paths. */
__global__ void four_way(float *out)
{
    const int lane = threadIdx.x % 32;
    switch (lane % 4) {
    case 0: for (int k = 0; k < 64; k++) out[k * 32 + lane] = 1.0f; break;
    case 1: for (int k = 0; k < 64; k++) out[k * 32 + lane] = 2.0f; break;
    case 2: for (int k = 0; k < 64; k++) out[k * 32 + lane] = 3.0f; break;
    default: for (int k = 0; k < 64; k++) out[k * 32 + lane] = 4.0f; break;
    }
}

Test(profile_divergence, a_four_way_split_by_lane_gives_a_quarter)
{
    float *out = static_cast<float *>(device_aligned(64 * 32 * 4));
    simtlab_emu_profile_figures f = PROFILE("4-way", (four_way<<<1, 32>>>(out)));
    cr_expect(f.simt_efficiency > 0.23 && f.simt_efficiency < 0.30, "efficiency %.3f, about 0.25 expected",
              f.simt_efficiency);
    cr_expect_eq(f.gst_requests, 4ull * 64);
}

/* The same two paths, chosen by warp: every warp runs one path whole. */
__global__ void by_warp(float *out)
{
    const int lane = threadIdx.x % 32;
    if ((threadIdx.x / 32) % 2) {
        for (int k = 0; k < 64; k++)
            out[k * 32 + lane] = 1.0f;
    } else {
        for (int k = 0; k < 64; k++)
            out[k * 32 + lane] = 2.0f;
    }
}

Test(profile_divergence, a_split_by_warp_costs_nothing)
{
    float *out = static_cast<float *>(device_aligned(64 * 32 * 4));
    simtlab_emu_profile_figures f = PROFILE("by warp", (by_warp<<<1, 128>>>(out)));
    cr_expect_eq(f.thread_inst_executed, 32 * f.inst_executed, "every block with 32 lanes");
    cr_expect_eq(f.simt_efficiency, 1.0);
    cr_expect_eq(f.branches_diverged, 0ull);
    cr_expect_eq(f.gst_requests, 4ull * 64);
}

/* A loop whose trip count is the lane index: its k-th iteration (k = 0..30)
 * runs on lanes k+1..31, and each stores one float of row k. */
__global__ void lane_trip_count(float *out)
{
    const int lane = threadIdx.x;
    for (int k = 0; k < lane; k++)
        out[k * 32 + lane] = 1.0f;
}

Test(profile_divergence, a_loop_of_lane_index_trips)
{
    float *out = static_cast<float *>(device_aligned(32 * 32 * 4));
    simtlab_emu_profile_figures f = PROFILE("trip = lane", (lane_trip_count<<<1, 32>>>(out)));
    /* 31 warp-level stores carrying 0 + 1 + ... + 31 = 496 lanes; store k
     * covers floats k+1..31 of a row, sectors (k+1)/8..3: 31 * 4 - 48 = 76. */
    cr_expect_eq(f.gst_requests, 31ull);
    cr_expect_eq(f.gst_sectors, 76ull);
    cr_expect(f.simt_efficiency > 0.45 && f.simt_efficiency < 0.65, "efficiency %.3f (the body alone: 0.5)",
              f.simt_efficiency);
    cr_expect_geq(f.branches_diverged, 31ull, "the loop's exit branch diverges at every trip but the last");
}

/* ---- shared memory: bank conflicts ---------------------------------------- */

/* Writes 1024 words of shared memory, then each lane reads word
 * lane * stride (or word 0 when stride is 0: a broadcast). */
__global__ void shared_stride(float *out, int stride)
{
    __shared__ float words[1024];
    for (int j = threadIdx.x; j < 1024; j += 32)
        words[j] = static_cast<float>(j);
    __syncthreads();
    out[threadIdx.x] = words[threadIdx.x * stride];
}

Test(profile_shared, stride_1_2_32_and_a_broadcast)
{
    float *out = static_cast<float *>(device_aligned(32 * 4));
    /* The fill: 32 stores of 32 consecutive words, conflict-free. */
    simtlab_emu_profile_figures f = PROFILE("stride 1", (shared_stride<<<1, 32>>>(out, 1)));
    cr_expect_eq(f.shst_requests, 32ull);
    cr_expect_eq(f.shst_bank_conflicts, 0ull);
    cr_expect_eq(f.shld_requests, 1ull);
    cr_expect_eq(f.shld_wavefronts, 1ull);
    cr_expect_eq(f.shld_bank_conflicts, 0ull);
    cr_expect_eq(f.barriers, 1ull);
    /* Stride 2: banks 0, 2, ..., 30 each hold two of the words: 2-way. */
    f = PROFILE("stride 2", (shared_stride<<<1, 32>>>(out, 2)));
    cr_expect_eq(f.shld_wavefronts, 2ull);
    cr_expect_eq(f.shld_bank_conflicts, 1ull);
    /* Stride 32: every word in bank 0: 32-way. */
    f = PROFILE("stride 32", (shared_stride<<<1, 32>>>(out, 32)));
    cr_expect_eq(f.shld_wavefronts, 32ull);
    cr_expect_eq(f.shld_bank_conflicts, 31ull);
    /* Every lane the same word: one broadcast, no conflict. */
    f = PROFILE("broadcast", (shared_stride<<<1, 32>>>(out, 0)));
    cr_expect_eq(f.shld_wavefronts, 1ull);
    cr_expect_eq(f.shld_bank_conflicts, 0ull);
}

/* A 32 x 32 tile written by rows, read by columns; PAD 1 makes a row 33
 * words, so that column c of row r is in bank (r + c) % 32. */
template <int PAD>
__global__ void tile_columns(float *out)
{
    __shared__ float tile[32][32 + PAD];
    const int t = threadIdx.x;
    for (int r = 0; r < 32; r++)
        tile[r][t] = static_cast<float>(r * 32 + t);
    __syncthreads();
    float sum = 0.0f;
    for (int c = 0; c < 32; c++)
        sum += tile[t][c];
    out[t] = sum;
}

Test(profile_shared, a_tile_read_by_column_conflicts_32_ways_unless_padded)
{
    float *out = static_cast<float *>(device_aligned(32 * 4));
    /* 32 column reads; lane t reads word t * 32 + c: all in bank c. */
    simtlab_emu_profile_figures f = PROFILE("32x32", (tile_columns<0><<<1, 32>>>(out)));
    cr_expect_eq(f.shld_requests, 32ull);
    cr_expect_eq(f.shld_bank_conflicts, 32ull * 31);
    cr_expect_eq(f.shst_bank_conflicts, 0ull);
    f = PROFILE("32x33", (tile_columns<1><<<1, 32>>>(out)));
    cr_expect_eq(f.shld_requests, 32ull);
    cr_expect_eq(f.shld_bank_conflicts, 0ull);
    cr_expect_eq(f.shst_bank_conflicts, 0ull);
}

/* 8-byte accesses go in two half-warp phases: 16 doubles = 128 bytes =
 * the 32 banks once. With stride 2 a half-warp spans 256 bytes: two
 * words per bank, two wavefronts per phase. */
__global__ void shared_doubles(double *out, int stride)
{
    __shared__ double d[1024];
    for (int j = threadIdx.x; j < 1024; j += 32)
        d[j] = j;
    __syncthreads();
    out[threadIdx.x] = d[threadIdx.x * stride];
}

/* 16-byte accesses: four quarter-warp phases of 8 lanes x 16 bytes. */
__global__ void shared_float4(float4 *out, int stride)
{
    __shared__ float4 v[256];
    for (int j = threadIdx.x; j < 256; j += 32)
        v[j] = make_float4(j, j, j, j);
    __syncthreads();
    out[threadIdx.x] = v[threadIdx.x * stride];
}

Test(profile_shared, eight_and_sixteen_byte_accesses_go_in_phases)
{
    double *dout = static_cast<double *>(device_aligned(32 * 8));
    simtlab_emu_profile_figures f = PROFILE("double", (shared_doubles<<<1, 32>>>(dout, 1)));
    cr_expect_eq(f.shld_requests, 1ull);
    cr_expect_eq(f.shld_wavefronts, 2ull, "two half-warps");
    cr_expect_eq(f.shld_bank_conflicts, 0ull);
    f = PROFILE("double stride 2", (shared_doubles<<<1, 32>>>(dout, 2)));
    cr_expect_eq(f.shld_wavefronts, 4ull);
    cr_expect_eq(f.shld_bank_conflicts, 2ull);
    float4 *vout = static_cast<float4 *>(device_aligned(32 * 16));
    f = PROFILE("float4", (shared_float4<<<1, 32>>>(vout, 1)));
    cr_expect_eq(f.shld_requests, 1ull);
    cr_expect_eq(f.shld_wavefronts, 4ull, "four quarter-warps");
    cr_expect_eq(f.shld_bank_conflicts, 0ull);
    /* Stride 2: a quarter-warp spans 256 bytes: 2 wavefronts each. */
    f = PROFILE("float4 stride 2", (shared_float4<<<1, 32>>>(vout, 2)));
    cr_expect_eq(f.shld_wavefronts, 8ull);
    cr_expect_eq(f.shld_bank_conflicts, 4ull);
}

/* ---- atomics and barriers ---------------------------------------------------- */

__global__ void count_everything(unsigned *global_count, float *sum)
{
    __shared__ unsigned block_count;
    if (threadIdx.x == 0)
        block_count = 0;
    __syncthreads();
    atomicAdd(&block_count, 1u);
    __syncthreads();
    atomicAdd(global_count, 1u);
    atomicAdd(sum, 0.5f); /* a compare-and-swap loop on the CPU: still one atomic */
    __syncthreads();
}

Test(profile_atomics, atomics_and_barriers_per_launch)
{
    unsigned *count = static_cast<unsigned *>(device_aligned(4));
    float *sum = static_cast<float *>(device_aligned(4));
    /* 3 blocks of 64 threads = 6 warps; 3 barrier rounds per block. */
    simtlab_emu_profile_figures f = PROFILE("atomics", (count_everything<<<3, 64>>>(count, sum)));
    cr_expect_eq(f.shared_atomics, 6ull);
    cr_expect_eq(f.global_atomics, 12ull, "two atomics per warp");
    cr_expect_eq(f.atomic_lanes, 3ull * 64 * 3);
    cr_expect_eq(f.barriers, 9ull);
    cr_expect_eq(f.gld_requests + f.gst_requests, 0ull, "an atomic's own loads and stores are not counted");
    cr_expect_eq(f.shst_requests, 3ull, "block_count = 0, once per block");
    unsigned host = 0;
    cr_assert_eq(cudaMemcpy(&host, count, 4, cudaMemcpyDeviceToHost), cudaSuccess);
    cr_expect_eq(host, 192u);
}

/* ---- the three classic reductions -------------------------------------------- */

/* v1: interleaved addressing with a modulo: the active threads of a step
 * are every (2s)-th, scattered over every warp, so each step diverges. */
__global__ void reduce_v1_interleaved_divergent(const float *in, float *out)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned step = 1; step < 256; step *= 2) {
        if (t % (2 * step) == 0)
            s[t] += s[t + step];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

/* v2: the active threads are contiguous (no divergence until fewer than 32
 * remain), but thread t works on word 2 * step * t: strided, so lanes of
 * a warp meet in the same bank. */
__global__ void reduce_v2_interleaved_bank_conflicts(const float *in, float *out)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned step = 1; step < 256; step *= 2) {
        const unsigned index = 2 * step * t;
        if (index < 256)
            s[index] += s[index + step];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

/* v3: sequential addressing: the active threads are contiguous and read
 * contiguous words: neither divergence (while 32 or more are active) nor
 * bank conflicts. */
__global__ void reduce_v3_sequential(const float *in, float *out)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned half = 128; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

Test(profile_reduction, v1_diverges_v2_conflicts_v3_does_neither)
{
    const int blocks = 4;
    float *in = static_cast<float *>(device_aligned(blocks * 256 * 4));
    float *out = static_cast<float *>(device_aligned(blocks * 4));
    simtlab_emu_profile_figures v1 = PROFILE("v1", (reduce_v1_interleaved_divergent<<<blocks, 256>>>(in, out)));
    simtlab_emu_profile_figures v2 = PROFILE("v2", (reduce_v2_interleaved_bank_conflicts<<<blocks, 256>>>(in, out)));
    simtlab_emu_profile_figures v3 = PROFILE("v3", (reduce_v3_sequential<<<blocks, 256>>>(in, out)));
    /* v1, per block (8 warps): steps 1, 2, 4, 8 and 16 leave some lanes of
     * every warp active: 5 x 8 divergent `if`s; step 32 only in warps 0, 2,
     * 4, 6 (4), step 64 in 0 and 4 (2), step 128 in warp 0 (1): 47; then
     * `if (t == 0)`: 48. Its active lanes t, t + s sit in distinct banks. */
    cr_expect_eq(v1.branches_diverged, 48ull * blocks);
    cr_expect_eq(v1.shld_bank_conflicts, 0ull);
    cr_expect_lt(v1.simt_efficiency, v3.simt_efficiency);
    /* v2: whole warps are active down to 32 threads (steps 1, 2, 4), then
     * warp 0 diverges at steps 8 .. 128: 5, plus `t == 0`: 6. Its two
     * loads per active warp read words 2st and 2st + s: at step 1 four
     * warps 2-way (1 conflict each: 8), step 2 two warps 4-way (12), step 4
     * warp 0 8-way (14), steps 8 and 16 8-way among 16 and 8 lanes (14,
     * 14), step 32 4-way (6), step 64 2-way (2), step 128 none: 70. */
    cr_expect_eq(v2.branches_diverged, 6ull * blocks);
    cr_expect_eq(v2.shld_bank_conflicts, 70ull * blocks);
    /* v3: steps with 128, 64 and 32 active threads are whole warps; the
     * last five steps (16 .. 1 active) diverge in warp 0 only, and then
     * `t == 0`: 6. Contiguous words: no conflicts. */
    cr_expect_eq(v3.branches_diverged, 6ull * blocks);
    cr_expect_eq(v3.shld_bank_conflicts, 0ull);
    cr_expect_eq(v3.shst_bank_conflicts, 0ull);
    /* The same global traffic: one coalesced load per warp, one store per block. */
    cr_expect_eq(v1.gld_requests, blocks * 8ull);
    cr_expect_eq(v1.gld_sectors, blocks * 8ull * 4);
    cr_expect_eq(v3.gld_sectors, v1.gld_sectors);
    cr_expect_eq(v3.barriers, blocks * 9ull);
}

/* ---- the switches, and source lines ----------------------------------------- */

Test(profile_api, a_launch_outside_begin_and_end_is_not_profiled)
{
    float *in = static_cast<float *>(device_aligned(64 * 32 * 4));
    float *out = static_cast<float *>(device_aligned(32 * 4));
    cr_assert_eq(simtlab_emu_profile_available(), 1, "this file is built with the instrumentation");
    read_strided<<<1, 32>>>(in, out, 1, 0);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    simtlab_emu_profile_figures f;
    if (getenv("SIMTLAB_EMU_PROFILE") == nullptr) {
        cr_expect_eq(simtlab_emu_profile_last(&f), 1, "nothing profiled without begin or SIMTLAB_EMU_PROFILE");
        cr_expect_str_neq(simtlab_emu_profile_why(), "");
    }
    simtlab_emu_profile_begin();
    read_strided<<<1, 32>>>(in, out, 2, 0);
    simtlab_emu_profile_end();
    cr_assert_eq(simtlab_emu_profile_last(&f), 0);
    cr_expect_str_eq(f.kernel, "read_strided");
    cr_expect_eq(f.gld_sectors, 8ull);
    cr_expect_str_eq(simtlab_emu_profile_why(), "");
}

static const int column_read_line = __LINE__ + 7;
__global__ void line_marked(float *out)
{
    __shared__ float tile[32][32];
    for (int r = 0; r < 32; r++)
        tile[r][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][0] + tile[threadIdx.x][1];
}

Test(profile_api, lines_name_the_kernels_own_source_line)
{
    float *out = static_cast<float *>(device_aligned(32 * 4));
    simtlab_emu_profile_figures f = PROFILE("lines", (line_marked<<<1, 32>>>(out)));
    cr_assert_eq(f.shld_bank_conflicts, 2ull * 31);
    const size_t n = simtlab_emu_profile_last_nlines();
    cr_assert_gt(n, 0u);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        simtlab_emu_profile_line l;
        cr_assert_eq(simtlab_emu_profile_last_line(i, &l), 0);
        if (l.shld_requests) {
            cr_expect_eq(l.line, column_read_line, "the conflicts are on %s:%d", l.file, l.line);
            cr_expect(strstr(l.file, "test_emu_profile.cu") != nullptr, "file %s", l.file);
            cr_expect_eq(l.shld_bank_conflicts, 2ull * 31);
            found = true;
        }
    }
    cr_expect(found, "no line with shared loads");
    simtlab_emu_profile_line l;
    cr_expect_eq(simtlab_emu_profile_last_line(n, &l), 1);
}
