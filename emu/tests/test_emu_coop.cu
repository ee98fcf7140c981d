/* Cooperative groups under the emulator: the block group, tiles of every
 * size from 1 to 32 with their shuffles, votes, reductions and scans,
 * coalesced_threads() in a branch, labeled and binary partitions,
 * memcpy_async, and grid.sync() in cooperative launches (several phases
 * across blocks, the residency limit, the errors CUDA leaves undefined).
 *
 * Expected values follow the CUDA Programming Guide's definitions
 * ("Cooperative Groups"), computed here on the host from the thread
 * indices, independently of the emulator.
 *
 * Build and run: cmake --build build --target test_emu_coop && build/bin/test_emu_coop */
#include <criterion/criterion.h>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "test_helpers.hpp"

namespace cg = cooperative_groups;

/* ---- helpers ----------------------------------------------------------- */

static void expect_launch_ok(const char *what)
{
    cudaError_t launch = cudaGetLastError();
    cr_assert_eq(launch, cudaSuccess, "%s: launch failed with %s: %s", what, cudaGetErrorName(launch),
                 simtlab_emu_last_diagnostic());
}

static void with_seed(unsigned seed)
{
    char text[16];
    std::snprintf(text, sizeof text, "%u", seed);
    cr_assert_eq(setenv("SIMTLAB_EMU_SEED", text, 1), 0);
}

/* ---- the block ------------------------------------------------------------- */

__global__ void block_identity(unsigned *out)
{
    cg::thread_block block = cg::this_thread_block();
    const unsigned rank = block.thread_rank();
    const unsigned slot = blockIdx.x * block.size() + rank;
    const dim3 t = block.thread_index(), g = block.group_index(), d = block.dim_threads();
    out[slot * 4 + 0] = rank;
    out[slot * 4 + 1] = block.num_threads();
    out[slot * 4 + 2] = t.x | t.y << 8 | t.z << 16;
    out[slot * 4 + 3] = g.x | d.x << 8 | d.y << 16 | d.z << 24;
}

Test(coop_block, rank_size_and_indices_of_a_3d_block)
{
    const dim3 grid(2), block(4, 3, 2);
    const unsigned n = 24, total = 2 * n;
    unsigned *out = device_alloc<unsigned>(total * 4);
    block_identity<<<grid, block>>>(out);
    expect_launch_ok("block_identity");
    std::vector<unsigned> h = copy_back(out, total * 4);
    for (unsigned b = 0; b < 2; b++)
        for (unsigned z = 0; z < 2; z++)
            for (unsigned y = 0; y < 3; y++)
                for (unsigned x = 0; x < 4; x++) {
                    const unsigned rank = x + 4 * (y + 3 * z), slot = b * n + rank;
                    cr_expect_eq(h[slot * 4 + 0], rank);
                    cr_expect_eq(h[slot * 4 + 1], n);
                    cr_expect_eq(h[slot * 4 + 2], x | y << 8 | z << 16);
                    cr_expect_eq(h[slot * 4 + 3], b | 4u << 8 | 3u << 16 | 2u << 24);
                }
}

/* Two phases through shared memory: each thread reads its neighbour's
 * slot, which is only right if sync() waits for every writer. */
__global__ void block_rotate(int *out)
{
    __shared__ int stage[128];
    cg::thread_block block = cg::this_thread_block();
    const unsigned r = block.thread_rank(), n = block.size();
    stage[r] = static_cast<int>(3 * r + 1);
    block.sync();
    const int mine = stage[(r + 1) % n];
    cg::sync(block);
    stage[r] = mine * 2;
    cg::sync(block);
    out[blockIdx.x * n + r] = stage[(r + n - 1) % n];
}

Test(coop_block, sync_orders_shared_memory_under_random_schedules)
{
    int *out = device_alloc<int>(3 * 128);
    for (unsigned seed = 1; seed <= 6; seed++) {
        with_seed(seed);
        block_rotate<<<3, 128>>>(out);
        expect_launch_ok("block_rotate");
        std::vector<int> h = copy_back(out, 3 * 128);
        for (unsigned i = 0; i < 3 * 128; i++)
            cr_assert_eq(h[i], 2 * (3 * static_cast<int>(i % 128) + 1), "seed %u, thread %u", seed, i);
    }
}

/* ---- tiles ------------------------------------------------------------------ */

/* What each thread reports for a tile of N (fields of `Tile`). */
struct tile_report {
    unsigned rank, size, meta_rank, meta_size;
    int shfl0, down, up, xr;
    unsigned ballot;
    int any, all;
    int sum, max, min, bxor, incl, excl;
};

__device__ static int tile_value(unsigned tid)
{
    return static_cast<int>((tid * 7 + 3) % 13) - 4;
}

template <unsigned N>
__global__ void tile_ops(tile_report *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
    const unsigned tid = block.thread_rank();
    const int v = tile_value(tid);
    tile_report r;
    r.rank = tile.thread_rank();
    r.size = tile.size();
    r.meta_rank = tile.meta_group_rank();
    r.meta_size = tile.meta_group_size();
    r.shfl0 = tile.shfl(v, 0);
    r.down = tile.shfl_down(v, 1);
    r.up = tile.shfl_up(v, 1);
    r.xr = tile.shfl_xor(v, 1);
    r.ballot = tile.ballot(v > 0);
    r.any = tile.any(v == 8);
    r.all = tile.all(v > -5);
    tile.sync();
    r.sum = cg::reduce(tile, v, cg::plus<int>());
    r.max = cg::reduce(tile, v, cg::greater<int>());
    r.min = cg::reduce(tile, v, cg::less<int>());
    r.bxor = cg::reduce(tile, v, cg::bit_xor<int>());
    r.incl = cg::inclusive_scan(tile, v);
    r.excl = cg::exclusive_scan(tile, v, cg::plus<int>());
    out[blockIdx.x * block.size() + tid] = r;
}

template <unsigned N>
static void check_tiles()
{
    const unsigned threads = 64, blocks = 2;
    tile_report *out = device_alloc<tile_report>(threads * blocks);
    tile_ops<N><<<blocks, threads>>>(out);
    expect_launch_ok("tile_ops");
    std::vector<tile_report> h = copy_back(out, threads * blocks);
    for (unsigned i = 0; i < threads * blocks; i++) {
        const unsigned tid = i % threads, rank = tid % N, base = tid - rank;
        auto value = [&](unsigned t) { return static_cast<int>((t * 7 + 3) % 13) - 4; };
        int sum = 0, max = value(base), min = value(base), bxor = 0, incl = 0, excl = 0;
        unsigned ballot = 0;
        bool any = false, all = true;
        for (unsigned k = 0; k < N; k++) {
            const int x = value(base + k);
            sum += x, bxor ^= x;
            max = x > max ? x : max, min = x < min ? x : min;
            ballot |= (x > 0 ? 1u : 0u) << k;
            any = any || x == 8, all = all && x > -5;
            if (k < rank)
                excl += x;
            if (k <= rank)
                incl += x;
        }
        const tile_report &r = h[i];
        cr_assert_eq(r.rank, rank, "N %u thread %u", N, i);
        cr_assert_eq(r.size, N);
        cr_assert_eq(r.meta_rank, tid / N);
        cr_assert_eq(r.meta_size, threads / N);
        cr_assert_eq(r.shfl0, value(base), "N %u thread %u", N, i);
        cr_assert_eq(r.down, rank + 1 < N ? value(tid + 1) : value(tid), "N %u thread %u", N, i);
        cr_assert_eq(r.up, rank >= 1 ? value(tid - 1) : value(tid), "N %u thread %u", N, i);
        cr_assert_eq(r.xr, (rank ^ 1u) < N ? value(base + (rank ^ 1u)) : value(tid), "N %u thread %u", N, i);
        cr_assert_eq(r.ballot, ballot, "N %u thread %u: 0x%x", N, i, r.ballot);
        cr_assert_eq(r.any, any ? 1 : 0);
        cr_assert_eq(r.all, all ? 1 : 0);
        cr_assert_eq(r.sum, sum, "N %u thread %u", N, i);
        cr_assert_eq(r.max, max);
        cr_assert_eq(r.min, min);
        cr_assert_eq(r.bxor, bxor);
        cr_assert_eq(r.incl, incl, "N %u thread %u", N, i);
        cr_assert_eq(r.excl, excl, "N %u thread %u", N, i);
    }
    cudaFree(out);
}

Test(coop_tile, every_size_from_1_to_32_shuffles_votes_reduces_and_scans)
{
    check_tiles<1>();
    check_tiles<2>();
    check_tiles<4>();
    check_tiles<8>();
    check_tiles<16>();
    check_tiles<32>();
}

Test(coop_tile, results_do_not_depend_on_the_schedule)
{
    with_seed(7);
    check_tiles<8>();
    check_tiles<32>();
}

/* Float reduction of a warp: the tree order of a shuffle-down reduction. */
__global__ void warp_sum_float(const float *in, float *out)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const float s = cg::reduce(warp, in[threadIdx.x], cg::plus<float>());
    if (warp.thread_rank() == 0)
        out[warp.meta_group_rank()] = s;
}

Test(coop_tile, float_reduce_rounds_as_a_shuffle_tree)
{
    std::vector<float> h(64);
    for (unsigned i = 0; i < 64; i++)
        h[i] = 1.0f + static_cast<float>(i) * 1e-7f * (i % 2 ? 1.0f : -3.0f) + (i == 5 ? 1e7f : 0.0f);
    float *in = device_alloc<float>(64), *out = device_alloc<float>(2);
    cudaMemcpy(in, h.data(), 64 * sizeof(float), cudaMemcpyHostToDevice);
    warp_sum_float<<<1, 64>>>(in, out);
    expect_launch_ok("warp_sum_float");
    std::vector<float> got = copy_back(out, 2);
    for (unsigned w = 0; w < 2; w++) {
        float v[32];
        for (unsigned i = 0; i < 32; i++)
            v[i] = h[w * 32 + i];
        for (unsigned s = 16; s >= 1; s /= 2)
            for (unsigned i = 0; i < s; i++)
                v[i] = v[i] + v[i + s];
        cr_assert_eq(got[w], v[0], "warp %u: %.9g, tree %.9g", w, got[w], v[0]);
    }
}

/* tiled_partition(block, 16) as a thread_group: rank, size and sync. */
__global__ void dynamic_tiles(int *out)
{
    __shared__ int scratch[64];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    const unsigned r = static_cast<unsigned>(tile.thread_rank());
    const unsigned base = block.thread_rank() - r;
    scratch[block.thread_rank()] = static_cast<int>(block.thread_rank());
    tile.sync();
    out[block.thread_rank()] = scratch[base + (r + 1) % 16] * 100 + static_cast<int>(tile.size());
}

Test(coop_tile, tiled_partition_at_run_time_gives_a_thread_group)
{
    int *out = device_alloc<int>(64);
    with_seed(3);
    dynamic_tiles<<<1, 64>>>(out);
    expect_launch_ok("dynamic_tiles");
    std::vector<int> h = copy_back(out, 64);
    for (unsigned i = 0; i < 64; i++)
        cr_assert_eq(h[i], static_cast<int>((i / 16 * 16 + (i % 16 + 1) % 16) * 100 + 16), "thread %u", i);
}

/* ---- coalesced groups -------------------------------------------------------- */

/* Threads with tid % 3 == 0 enter the branch; in it, the coalesced group of
 * each warp is those lanes. Each reports size, rank and rank 0's tid. */
__global__ void coalesced_in_branch(unsigned *out, int *counter, int *slots)
{
    const unsigned tid = threadIdx.x;
    out[tid] = ~0u;
    if (tid % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        const unsigned leader = active.shfl(tid, 0);
        out[tid] = active.size() | active.thread_rank() << 8 | leader << 16;
        /* warp-aggregated increment: one atomic per group */
        int base = 0;
        if (active.thread_rank() == 0)
            base = atomicAdd(counter, static_cast<int>(active.size()));
        base = active.shfl(base, 0);
        slots[base + static_cast<int>(active.thread_rank())] = static_cast<int>(tid);
    }
}

Test(coop_coalesced, coalesced_threads_in_a_branch_are_the_lanes_that_took_it)
{
    const unsigned n = 80; /* two full warps and a partial one */
    for (unsigned seed = 0; seed <= 3; seed++) {
        if (seed)
            with_seed(seed);
        unsigned *out = device_alloc<unsigned>(n);
        int *counter = device_alloc<int>(1), *slots = device_alloc<int>(n);
        cudaMemset(counter, 0, sizeof(int));
        coalesced_in_branch<<<1, n>>>(out, counter, slots);
        expect_launch_ok("coalesced_in_branch");
        std::vector<unsigned> h = copy_back(out, n);
        for (unsigned tid = 0; tid < n; tid++) {
            if (tid % 3) {
                cr_assert_eq(h[tid], ~0u);
                continue;
            }
            const unsigned first = tid / 32 * 32, end = first + 32 < n ? first + 32 : n;
            unsigned size = 0, rank = 0, leader = ~0u;
            for (unsigned t = first; t < end; t++)
                if (t % 3 == 0) {
                    if (leader == ~0u)
                        leader = t;
                    rank += t < tid;
                    size++;
                }
            cr_assert_eq(h[tid], size | rank << 8 | leader << 16, "seed %u thread %u: 0x%x", seed, tid, h[tid]);
        }
        const int entered = static_cast<int>((n + 2) / 3);
        cr_assert_eq(copy_back(counter, 1)[0], entered);
        std::vector<int> s = copy_back(slots, static_cast<size_t>(entered));
        std::vector<int> seen(n, 0);
        for (int v : s) {
            cr_assert(v >= 0 && v < static_cast<int>(n) && v % 3 == 0, "slot holds %d", v);
            cr_assert_eq(seen[v]++, 0, "tid %d got two slots", v);
        }
        cudaFree(out), cudaFree(counter), cudaFree(slots);
    }
}

__global__ void partitions(unsigned *out)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const unsigned lane = warp.thread_rank();
    cg::coalesced_group by_label = cg::labeled_partition(warp, static_cast<int>(lane % 4));
    cg::coalesced_group by_pred = cg::binary_partition(warp, lane < 10);
    const int label_sum = cg::reduce(by_label, static_cast<int>(lane), cg::plus<int>());
    out[threadIdx.x * 3 + 0] = by_label.size() | by_label.thread_rank() << 8;
    out[threadIdx.x * 3 + 1] = by_pred.size() | by_pred.thread_rank() << 8;
    out[threadIdx.x * 3 + 2] = static_cast<unsigned>(label_sum);
}

Test(coop_coalesced, labeled_and_binary_partitions_of_a_warp)
{
    unsigned *out = device_alloc<unsigned>(64 * 3);
    partitions<<<1, 64>>>(out);
    expect_launch_ok("partitions");
    std::vector<unsigned> h = copy_back(out, 64 * 3);
    for (unsigned t = 0; t < 64; t++) {
        const unsigned lane = t % 32;
        cr_assert_eq(h[t * 3 + 0], 8u | (lane / 4) << 8, "thread %u", t);
        const unsigned psize = lane < 10 ? 10 : 22, prank = lane < 10 ? lane : lane - 10;
        cr_assert_eq(h[t * 3 + 1], psize | prank << 8, "thread %u", t);
        unsigned sum = 0;
        for (unsigned k = lane % 4; k < 32; k += 4)
            sum += k;
        cr_assert_eq(h[t * 3 + 2], sum);
    }
}

/* The odd lanes reduce in their partition while the even lanes already
 * wait at the warp's sync: two masks that share lanes wait at once, which
 * independent thread scheduling allows (binaryPartitionCG does this). */
__global__ void partition_then_sync(int *out)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const int lane = static_cast<int>(warp.thread_rank());
    cg::coalesced_group half = cg::binary_partition(warp, lane & 1);
    int s = -1;
    if (lane & 1)
        s = cg::reduce(half, lane, cg::plus<int>());
    warp.sync();
    out[threadIdx.x] = s;
}

Test(coop_coalesced, a_partition_may_reduce_while_the_rest_of_the_warp_waits_at_its_sync)
{
    int *out = device_alloc<int>(64);
    partition_then_sync<<<1, 64>>>(out);
    expect_launch_ok("partition_then_sync");
    std::vector<int> h = copy_back(out, 64);
    for (unsigned t = 0; t < 64; t++)
        cr_assert_eq(h[t], t % 2 ? 256 : -1, "thread %u", t); /* 1 + 3 + ... + 31 */
}

/* ---- memcpy_async ----------------------------------------------------------- */

__global__ void stage_and_reverse(const int *in, int *out)
{
    __shared__ int tile[96];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, tile, in + blockIdx.x * 96, sizeof(int) * 96);
    cg::wait(block);
    out[blockIdx.x * 96 + threadIdx.x] = tile[95 - threadIdx.x];
}

Test(coop_memcpy_async, a_block_copy_is_complete_after_wait)
{
    std::vector<int> h(192);
    for (int i = 0; i < 192; i++)
        h[i] = i * i - 50;
    int *in = device_alloc<int>(192), *out = device_alloc<int>(192);
    cudaMemcpy(in, h.data(), sizeof(int) * 192, cudaMemcpyHostToDevice);
    with_seed(11);
    stage_and_reverse<<<2, 96>>>(in, out);
    expect_launch_ok("stage_and_reverse");
    std::vector<int> got = copy_back(out, 192);
    for (int i = 0; i < 192; i++)
        cr_assert_eq(got[i], h[i / 96 * 96 + 95 - i % 96], "thread %d", i);
}

/* ---- the grid ------------------------------------------------------------------- */

/* Three phases, each reading what other blocks wrote in the phase before. */
__global__ void grid_phases(int *a, int *b, long long *total, int *valid)
{
    cg::grid_group grid = cg::this_grid();
    const unsigned long long r = grid.thread_rank(), n = grid.size();
    if (r == 0)
        *valid = grid.is_valid() ? 1 : 0;
    a[r] = static_cast<int>(r * 5 % 17);
    grid.sync();
    b[r] = a[(r + 1) % n] + a[(r + 77) % n];
    cg::sync(grid);
    if (r == 0) {
        long long s = 0;
        for (unsigned long long i = 0; i < n; i++)
            s += b[i] * static_cast<long long>(i % 3);
        *total = s;
    }
    grid.sync();
    a[r] = static_cast<int>(*total % 1000) + static_cast<int>(r);
}

static void check_grid_phases(unsigned blocks, unsigned threads, bool cast)
{
    const unsigned n = blocks * threads;
    int *a = device_alloc<int>(n), *b = device_alloc<int>(n), *valid = device_alloc<int>(1);
    long long *total = device_alloc<long long>(1);
    void *args[] = {&a, &b, &total, &valid};
    cudaError_t err = cast ? cudaLaunchCooperativeKernel((void *)grid_phases, dim3(blocks), dim3(threads), args, 0, 0)
                           : cudaLaunchCooperativeKernel(grid_phases, blocks, threads, args);
    cr_assert_eq(err, cudaSuccess, "%s: %s", cudaGetErrorName(err), simtlab_emu_last_diagnostic());
    std::vector<int> ha = copy_back(a, n), hb = copy_back(b, n);
    long long s = 0;
    for (unsigned i = 0; i < n; i++) {
        const int expect_b = static_cast<int>((i + 1) % n * 5 % 17 + (i + 77) % n * 5 % 17);
        cr_assert_eq(hb[i], expect_b, "b[%u]", i);
        s += expect_b * static_cast<long long>(i % 3);
    }
    cr_assert_eq(copy_back(total, 1)[0], s);
    for (unsigned i = 0; i < n; i++)
        cr_assert_eq(ha[i], static_cast<int>(s % 1000) + static_cast<int>(i), "a[%u]", i);
    cr_assert_eq(copy_back(valid, 1)[0], 1);
    cudaFree(a), cudaFree(b), cudaFree(total), cudaFree(valid);
}

Test(coop_grid, sync_orders_phases_across_blocks)
{
    check_grid_phases(4, 64, true);
    check_grid_phases(3, 96, false);
}

Test(coop_grid, sync_orders_phases_on_more_workers_and_random_schedules)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_THREADS", "3", 1), 0);
    with_seed(5);
    check_grid_phases(7, 32, true);
    with_seed(9);
    check_grid_phases(2, 128, false);
}

__global__ void grid_count(int *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = static_cast<int>(grid.block_rank());
}

Test(coop_grid, a_grid_above_the_residency_limit_fails_as_too_large)
{
    int sms = 0, per_sm = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    int coop = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0), cudaSuccess);
    cr_assert_eq(coop, 1);
    cr_assert_eq(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)grid_count, 1024, 0),
                 cudaSuccess);
    cr_assert(per_sm >= 1);
    const unsigned capacity = static_cast<unsigned>(sms * per_sm);
    int *out = device_alloc<int>((capacity + 1) * 1024);
    void *args[] = {&out};
    cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_count, capacity + 1, 1024, args, 0, 0);
    cr_assert_eq(err, cudaErrorCooperativeLaunchTooLarge, "%s", cudaGetErrorName(err));
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "resident") != nullptr, "%s", simtlab_emu_last_diagnostic());
    cr_assert_eq(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
    cr_assert_eq(cudaGetLastError(), cudaSuccess, "not sticky");
    err = cudaLaunchCooperativeKernel((void *)grid_count, capacity, 1024, args, 0, 0);
    cr_assert_eq(err, cudaSuccess, "%s: %s", cudaGetErrorName(err), simtlab_emu_last_diagnostic());
    std::vector<int> h = copy_back(out, capacity * 1024);
    for (unsigned i = 0; i < capacity * 1024; i++)
        cr_assert_eq(h[i], static_cast<int>(i / 1024));
}

__global__ void grid_sync_uncooperative(int *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = grid.is_valid() ? 1 : 2;
    grid.sync();
    out[grid.thread_rank()] = 3;
}

Test(coop_grid, grid_sync_in_a_kernel_launched_with_chevrons_fails)
{
    int *out = device_alloc<int>(64);
    grid_sync_uncooperative<<<2, 32>>>(out);
    cr_assert_eq(cudaGetLastError(), cudaErrorLaunchFailure);
    const char *why = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(why, "grid.sync()") && std::strstr(why, "cudaLaunchCooperativeKernel"), "%s", why);
}

__global__ void grid_rank_uncooperative(unsigned long long *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = grid.size() * 1000 + grid.is_valid();
}

Test(coop_grid, this_grid_gives_rank_and_size_without_a_cooperative_launch)
{
    unsigned long long *out = device_alloc<unsigned long long>(96);
    grid_rank_uncooperative<<<3, 32>>>(out);
    expect_launch_ok("grid_rank_uncooperative");
    std::vector<unsigned long long> h = copy_back(out, 96);
    for (unsigned i = 0; i < 96; i++)
        cr_assert_eq(h[i], 96000ull, "thread %u", i);
}

__global__ void grid_sync_one_block_leaves(int *out)
{
    if (blockIdx.x == 1)
        return;
    cg::this_grid().sync();
    out[blockIdx.x] = 1;
}

Test(coop_grid, a_block_that_exits_before_grid_sync_fails_the_launch)
{
    int *out = device_alloc<int>(3);
    void *args[] = {&out};
    cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_sync_one_block_leaves, 3, 32, args, 0, 0);
    cr_assert_eq(err, cudaErrorLaunchFailure, "%s", cudaGetErrorName(err));
    const char *why = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(why, "exited without reaching it") != nullptr, "%s", why);
}

Test(coop_grid, args_null_for_a_kernel_with_parameters_is_invalid)
{
    cudaError_t err = cudaLaunchCooperativeKernel((void *)grid_count, 1, 32, nullptr, 0, 0);
    cr_assert_eq(err, cudaErrorInvalidValue);
}
