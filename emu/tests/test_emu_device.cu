/* The emulator's device-side API: shuffles, votes, warp sync, atomics,
 * clocks, built-in variables, device assert and launch configurations.
 *
 * Every expected value comes from the CUDA Programming Guide's description
 * of the operation ("Warp Shuffle Functions", "Warp Vote Functions",
 * "Atomic Functions", "Intrinsic Functions"), computed here independently
 * of the emulator's code, never from its output.
 *
 * Build and run:  cmake --build build --target test_emu_device &&
 *                 build/bin/test_emu_device --verbose
 */
#include <criterion/criterion.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
/* The build defines NDEBUG in release configurations; the device assert
 * test needs assert. */
#undef NDEBUG
#include <assert.h>
#include <climits>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <random>
#include <vector>

#define FULL_MASK 0xffffffffu

/* ---- host helpers ----------------------------------------------------- */

/* n T's in device memory, filled from `init` or poisoned (0xAB bytes) so
 * that a value nobody wrote cannot pass for a result; freed when it goes
 * out of scope. Converts to T * for launches. */
template <class T>
class device_array {
public:
    explicit device_array(size_t n, const T *init = nullptr) : n_(n)
    {
        cr_assert_eq(cudaMalloc(&ptr_, n * sizeof(T)), cudaSuccess, "cudaMalloc of %zu bytes", n * sizeof(T));
        if (init)
            cr_assert_eq(cudaMemcpy(ptr_, init, n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
        else
            cr_assert_eq(cudaMemset(ptr_, 0xAB, n * sizeof(T)), cudaSuccess);
    }
    ~device_array() { cudaFree(ptr_); }
    device_array(const device_array &) = delete;
    device_array &operator=(const device_array &) = delete;

    operator T *() const { return ptr_; }

    std::vector<T> to_host() const
    {
        std::vector<T> h(n_);
        cr_assert_eq(cudaMemcpy(h.data(), ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
        return h;
    }

private:
    T *ptr_ = nullptr;
    size_t n_;
};

/* Every launch in these tests must succeed unless the test says otherwise. */
static void expect_launch_ok(const char *what)
{
    cudaError_t launch = cudaGetLastError();
    cr_assert_eq(launch, cudaSuccess, "%s: launch failed: %s (%s)", what, cudaGetErrorName(launch),
                 simtlab_emu_last_diagnostic());
    cudaError_t sync = cudaDeviceSynchronize();
    cr_assert_eq(sync, cudaSuccess, "%s: kernel failed: %s (%s)", what, cudaGetErrorName(sync),
                 simtlab_emu_last_diagnostic());
}

static unsigned lane_value(unsigned lane) { return 100u + lane; }

/* ---- shuffles: source lanes at segment edges --------------------------- */

/* out[4 * lane + v] for the four variants, each lane holding 100 + lane. */
__global__ void shuffle_all_variants(unsigned *out, int src_lane, unsigned delta, int lane_mask, int width)
{
    unsigned lane = threadIdx.x;
    unsigned mine = 100u + lane;
    out[4 * lane + 0] = __shfl_sync(FULL_MASK, mine, src_lane, width);
    out[4 * lane + 1] = __shfl_up_sync(FULL_MASK, mine, delta, width);
    out[4 * lane + 2] = __shfl_down_sync(FULL_MASK, mine, delta, width);
    out[4 * lane + 3] = __shfl_xor_sync(FULL_MASK, mine, lane_mask, width);
}

/* The Guide's rules, written out per lane in terms of its segment. */
struct shuffle_expectation {
    unsigned idx, up, down, xr;
};

static shuffle_expectation expect_shuffle(unsigned lane, int src_lane, unsigned delta, int lane_mask,
                                          unsigned width)
{
    unsigned segment_start = lane / width * width;
    unsigned in_segment = lane - segment_start;
    shuffle_expectation e;
    /* srcLane outside [0, width) wraps modulo width inside the caller's segment. */
    e.idx = lane_value(segment_start + (unsigned)src_lane % width);
    /* The lower delta lanes of each segment keep their own value. */
    e.up = in_segment < delta ? lane_value(lane) : lane_value(lane - delta);
    /* The upper delta lanes of each segment keep their own value. */
    e.down = in_segment + delta >= width ? lane_value(lane) : lane_value(lane + delta);
    /* An earlier segment may be read; a later one gives the caller's own value. */
    unsigned partner = lane ^ (unsigned)lane_mask;
    e.xr = partner / width > lane / width ? lane_value(lane) : lane_value(partner);
    return e;
}

static void check_shuffles(int src_lane, unsigned delta, int lane_mask, int width)
{
    device_array<unsigned> d(4 * 32);
    shuffle_all_variants<<<1, 32>>>(d, src_lane, delta, lane_mask, width);
    expect_launch_ok("shuffle_all_variants");
    std::vector<unsigned> h = d.to_host();
    for (unsigned lane = 0; lane < 32; ++lane) {
        shuffle_expectation e = expect_shuffle(lane, src_lane, delta, lane_mask, (unsigned)width);
        cr_expect_eq(h[4 * lane + 0], e.idx, "__shfl_sync width %d srcLane %d lane %u: got %u want %u", width,
                     src_lane, lane, h[4 * lane + 0], e.idx);
        cr_expect_eq(h[4 * lane + 1], e.up, "__shfl_up_sync width %d delta %u lane %u: got %u want %u", width,
                     delta, lane, h[4 * lane + 1], e.up);
        cr_expect_eq(h[4 * lane + 2], e.down, "__shfl_down_sync width %d delta %u lane %u: got %u want %u",
                     width, delta, lane, h[4 * lane + 2], e.down);
        cr_expect_eq(h[4 * lane + 3], e.xr, "__shfl_xor_sync width %d laneMask %d lane %u: got %u want %u",
                     width, lane_mask, lane, h[4 * lane + 3], e.xr);
    }
}

Test(shuffle, all_variants_at_width_32)
{
    check_shuffles(0, 1, 1, 32);
    check_shuffles(31, 31, 31, 32);
    check_shuffles(37, 16, 16, 32); /* srcLane 37 reads lane 5 */
}

Test(shuffle, all_variants_at_width_16)
{
    check_shuffles(3, 1, 1, 16);
    check_shuffles(15, 15, 8, 16);
    check_shuffles(19, 4, 16, 16); /* srcLane 19 reads lane 3 of the segment; xor 16 crosses */
}

Test(shuffle, all_variants_at_width_8)
{
    check_shuffles(7, 1, 4, 8);
    check_shuffles(9, 7, 8, 8);
    check_shuffles(0, 3, 24, 8);
}

/* The same edges written out lane by lane, so that a shared mistake in the
 * formula above and in the emulator cannot hide. */
Test(shuffle, edge_lanes_spelled_out)
{
    device_array<unsigned> d(4 * 32);
    shuffle_all_variants<<<1, 32>>>(d, 9, 2, 16, 8);
    expect_launch_ok("shuffle_all_variants");
    std::vector<unsigned> h = d.to_host();
    /* __shfl_sync(.., 9, 8): 9 mod 8 = 1, so lane 1 of each segment. */
    cr_expect_eq(h[4 * 0 + 0], 101u);
    cr_expect_eq(h[4 * 15 + 0], 109u);
    cr_expect_eq(h[4 * 31 + 0], 125u);
    /* __shfl_up_sync(.., 2, 8): lanes 0,1 and 8,9 keep theirs, lane 10 gets 8's. */
    cr_expect_eq(h[4 * 0 + 1], 100u);
    cr_expect_eq(h[4 * 1 + 1], 101u);
    cr_expect_eq(h[4 * 8 + 1], 108u);
    cr_expect_eq(h[4 * 9 + 1], 109u);
    cr_expect_eq(h[4 * 10 + 1], 108u);
    /* __shfl_down_sync(.., 2, 8): lanes 6,7 and 30,31 keep theirs, lane 5 gets 7's. */
    cr_expect_eq(h[4 * 5 + 2], 107u);
    cr_expect_eq(h[4 * 6 + 2], 106u);
    cr_expect_eq(h[4 * 7 + 2], 107u);
    cr_expect_eq(h[4 * 31 + 2], 131u);
    /* __shfl_xor_sync(.., 16, 8): lanes 0-15 would read a later segment (own
     * value), lanes 16-31 read the earlier one. */
    cr_expect_eq(h[4 * 0 + 3], 100u);
    cr_expect_eq(h[4 * 15 + 3], 115u);
    cr_expect_eq(h[4 * 16 + 3], 100u);
    cr_expect_eq(h[4 * 31 + 3], 115u);
}

/* ---- shuffles of each operand type -------------------------------------- */

template <class T>
__global__ void shuffle_reverse(T *out, const T *in)
{
    unsigned lane = threadIdx.x;
    out[lane] = __shfl_sync(FULL_MASK, in[lane], 31 - (int)lane);
}

/* Lane 31 - i's value must arrive bit for bit in lane i. */
template <class T>
static void check_reverse(const std::vector<T> &in, const char *type)
{
    device_array<T> d_in(32, in.data());
    device_array<T> d_out(32);
    shuffle_reverse<T><<<1, 32>>>(d_out, d_in);
    expect_launch_ok(type);
    std::vector<T> out = d_out.to_host();
    for (unsigned i = 0; i < 32; ++i)
        cr_expect(std::memcmp(&out[i], &in[31 - i], sizeof(T)) == 0, "%s: lane %u did not receive lane %u's value",
                  type, i, 31 - i);
}

Test(shuffle, moves_every_operand_type_whole)
{
    std::vector<int> i32(32);
    std::vector<float> f32(32);
    std::vector<double> f64(32);
    std::vector<long long> i64(32);
    std::vector<unsigned long long> u64(32);
    std::vector<__half> f16(32);
    std::vector<__nv_bfloat16> bf16(32);
    for (int i = 0; i < 32; ++i) {
        i32[i] = -1000 * i - 7;
        f32[i] = 0.1f * (float)i - 1.5f;
        f64[i] = 1.0 + std::ldexp((double)i, -40); /* needs more than float's 24 bits */
        i64[i] = (1LL << 40) * i - 3;            /* needs more than 32 bits */
        u64[i] = 0xF000000000000000ull | (unsigned long long)i;
        f16[i] = __float2half(0.5f * (float)i);
        bf16[i] = __float2bfloat16(-2.0f * (float)i);
    }
    check_reverse(i32, "int");
    check_reverse(f32, "float");
    check_reverse(f64, "double");
    check_reverse(i64, "long long");
    check_reverse(u64, "unsigned long long");
    check_reverse(f16, "__half");
    check_reverse(bf16, "__nv_bfloat16");
}

/* ---- shuffles that read outside the mask fail the launch ---------------- */

/* Only the even lanes take part, and lane 0 reads lane 1. */
__global__ void shuffle_from_inactive_lane(int *out)
{
    unsigned lane = threadIdx.x;
    if (lane % 2 == 0)
        out[lane] = __shfl_sync(0x55555555u, (int)lane, lane == 0 ? 1 : 0);
}

Test(shuffle, reading_a_lane_outside_the_mask_is_diagnosed)
{
    device_array<int> d(32);
    simtlab_emu_clear_diagnostic();
    shuffle_from_inactive_lane<<<1, 32>>>(d);
    cudaError_t err = cudaDeviceSynchronize();
    cr_expect_neq(err, cudaSuccess, "reading an inactive lane must fail the launch");
    const char *diag = simtlab_emu_last_diagnostic();
    cr_expect(std::strstr(diag, "__shfl_sync") != nullptr, "diagnostic names the op: %s", diag);
    cr_expect(std::strstr(diag, "lane 0") != nullptr, "diagnostic names the reading lane: %s", diag);
    cr_expect(std::strstr(diag, "lane 1") != nullptr, "diagnostic names the source lane: %s", diag);
}

__global__ void shuffle_with_width(int *out, int width) { out[threadIdx.x] = __shfl_down_sync(FULL_MASK, 1, 1, width); }

Test(shuffle, width_that_is_not_a_power_of_two_is_diagnosed)
{
    device_array<int> d(32);
    shuffle_with_width<<<1, 32>>>(d, 12);
    cr_expect_neq(cudaDeviceSynchronize(), cudaSuccess, "width 12 must fail the launch");
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "width 12") != nullptr, "diagnostic: %s",
              simtlab_emu_last_diagnostic());
}

/* ---- votes ---------------------------------------------------------------- */

/* Lanes that are multiples of 3 vote whether they are even. */
__global__ void ballot_in_branch(unsigned *out)
{
    unsigned lane = threadIdx.x;
    out[lane] = 0;
    if (lane % 3 == 0)
        out[lane] = __ballot_sync(0x49249249u, lane % 2 == 0);
}

Test(vote, ballot_counts_only_the_lanes_that_call)
{
    device_array<unsigned> d(32);
    ballot_in_branch<<<1, 32>>>(d);
    expect_launch_ok("ballot_in_branch");
    std::vector<unsigned> h = d.to_host();
    /* Multiples of 3 that are even: 0, 6, 12, 18, 24, 30. */
    unsigned want = (1u << 0) | (1u << 6) | (1u << 12) | (1u << 18) | (1u << 24) | (1u << 30);
    for (unsigned lane = 0; lane < 32; ++lane)
        cr_expect_eq(h[lane], lane % 3 == 0 ? want : 0u, "lane %u: got 0x%08x", lane, h[lane]);
}

/* Two half-warps vote separately, every lane with a true predicate: each
 * result holds its own half only. */
__global__ void ballot_two_groups(unsigned *out)
{
    unsigned lane = threadIdx.x;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    out[lane] = __ballot_sync(half, 1);
}

Test(vote, lanes_outside_the_mask_are_ignored)
{
    device_array<unsigned> d(32);
    ballot_two_groups<<<1, 32>>>(d);
    expect_launch_ok("ballot_two_groups");
    std::vector<unsigned> h = d.to_host();
    for (unsigned lane = 0; lane < 32; ++lane)
        cr_expect_eq(h[lane], lane < 16 ? 0x0000ffffu : 0xffff0000u, "lane %u: got 0x%08x", lane, h[lane]);
}

/* out[3 * lane + k]: any and all of "lane < limit", then all of "true" over
 * the lanes below 8 only. */
__global__ void any_all(int *out, unsigned limit)
{
    unsigned lane = threadIdx.x;
    out[3 * lane + 0] = __any_sync(FULL_MASK, lane < limit);
    out[3 * lane + 1] = __all_sync(FULL_MASK, lane < limit);
    out[3 * lane + 2] = -1;
    if (lane < 8)
        out[3 * lane + 2] = __all_sync(0xffu, lane < limit);
}

Test(vote, any_and_all)
{
    device_array<int> d(3 * 32);
    const unsigned limits[] = {0, 1, 8, 31, 32};
    for (unsigned limit : limits) {
        any_all<<<1, 32>>>(d, limit);
        expect_launch_ok("any_all");
        std::vector<int> h = d.to_host();
        for (unsigned lane = 0; lane < 32; ++lane) {
            cr_expect_eq(h[3 * lane + 0], limit > 0 ? 1 : 0, "any, limit %u lane %u", limit, lane);
            cr_expect_eq(h[3 * lane + 1], limit == 32 ? 1 : 0, "all, limit %u lane %u", limit, lane);
            cr_expect_eq(h[3 * lane + 2], lane < 8 ? (limit >= 8 ? 1 : 0) : -1, "all of 8, limit %u lane %u",
                         limit, lane);
        }
    }
}

/* A block of 20 threads: lanes 20-31 of its warp do not exist. */
__global__ void activemask_in_branch(unsigned *out)
{
    unsigned lane = threadIdx.x;
    out[lane] = 0;
    if (lane % 2 == 0)
        out[lane] = __activemask();
}

Test(vote, activemask_inside_a_branch)
{
    device_array<unsigned> d(20);
    activemask_in_branch<<<1, 20>>>(d);
    expect_launch_ok("activemask_in_branch");
    std::vector<unsigned> h = d.to_host();
    for (unsigned lane = 0; lane < 20; lane += 2) {
        /* The Guide promises the caller's own bit and no lane that does not
         * run; which other lanes show as active is up to the scheduler. */
        cr_expect(h[lane] & (1u << lane), "lane %u: own bit missing in 0x%08x", lane, h[lane]);
        cr_expect_eq(h[lane] & ~0xfffffu, 0u, "lane %u: lanes past the block in 0x%08x", lane, h[lane]);
    }
}

/* A full mask where lanes do not exist (a block of 16 threads) or have
 * exited: CUDA asks only that the non-exited lanes named in the mask call
 * the operation, and GPUs run such code (a textbook's warp-primitive demo
 * does exactly this). The lanes that are not there do not vote. */
__global__ void full_mask_partial_warp(unsigned *out)
{
    const unsigned tid = threadIdx.x;
    out[4 * tid + 0] = __ballot_sync(0xffffffffu, tid > 0);
    out[4 * tid + 1] = __all_sync(0xffffffffu, tid);
    out[4 * tid + 2] = __any_sync(0xffffffffu, tid == 15);
    out[4 * tid + 3] = __shfl_sync(0xffffffffu, tid, 2, 8);
}

Test(vote, a_full_mask_in_a_block_smaller_than_a_warp)
{
    for (unsigned n : {16u, 7u, 45u}) {
        device_array<unsigned> d(4 * n);
        full_mask_partial_warp<<<1, n>>>(d);
        expect_launch_ok("full_mask_partial_warp");
        std::vector<unsigned> h = d.to_host();
        for (unsigned t = 0; t < n; t++) {
            const unsigned w0 = t / 32 * 32, lanes = std::min(32u, n - w0);
            const unsigned all_lanes = lanes == 32 ? ~0u : (1u << lanes) - 1u;
            cr_expect_eq(h[4 * t], all_lanes & ~(w0 == 0 ? 1u : 0u), "n %u ballot, thread %u: 0x%08x", n, t, h[4 * t]);
            /* __all_sync and __any_sync promise nonzero, not 1 */
            cr_expect_eq(h[4 * t + 1] != 0, w0 != 0, "n %u all, thread %u: %u", n, t, h[4 * t + 1]);
            cr_expect_eq(h[4 * t + 2] != 0, w0 <= 15 && 15 < w0 + lanes, "n %u any, thread %u: %u", n, t, h[4 * t + 2]);
            const unsigned src = (t % 32) / 8 * 8 + 2;
            if (src < lanes)
                cr_expect_eq(h[4 * t + 3], w0 + src, "n %u shfl, thread %u", n, t);
        }
    }
}

/* Lanes that returned early, before or while the others wait at the vote. */
__global__ void vote_after_early_returns(unsigned *out, unsigned quit_mask)
{
    const unsigned lane = threadIdx.x % 32;
    out[threadIdx.x] = 0xdeadbeefu;
    if (quit_mask >> lane & 1u)
        return;
    out[threadIdx.x] = __ballot_sync(0xffffffffu, lane % 3 == 0);
}

Test(vote, lanes_that_exited_take_no_part)
{
    /* lane 0 exits before anyone arrives; lane 31 after the others wait
     * (threads start in index order); a middle run of lanes */
    for (unsigned quit : {0x1u, 0x80000000u, 0x00ff0f00u}) {
        for (const char *seed : {(const char *)nullptr, "3", "11"}) {
            if (seed)
                setenv("SIMTLAB_EMU_SEED", seed, 1);
            else
                unsetenv("SIMTLAB_EMU_SEED");
            device_array<unsigned> d(64);
            vote_after_early_returns<<<1, 64>>>(d, quit);
            expect_launch_ok("vote_after_early_returns");
            std::vector<unsigned> h = d.to_host();
            unsigned want = 0;
            for (unsigned l = 0; l < 32; l++)
                if (!(quit >> l & 1u) && l % 3 == 0)
                    want |= 1u << l;
            for (unsigned t = 0; t < 64; t++)
                cr_expect_eq(h[t], (quit >> (t % 32) & 1u) ? 0xdeadbeefu : want,
                             "quit 0x%08x seed %s thread %u: 0x%08x", quit, seed ? seed : "none", t, h[t]);
        }
    }
    unsetenv("SIMTLAB_EMU_SEED");
}

/* ---- __syncwarp ------------------------------------------------------------ */

/* Each lane publishes its id in shared memory and reads its neighbour's:
 * without the __syncwarp, a neighbour that has not written yet leaves the
 * poison there. Then the even lanes do the same among themselves. */
__global__ void syncwarp_orders_shared(int *out)
{
    __shared__ int slot[32];
    unsigned lane = threadIdx.x;
    slot[lane] = (int)lane;
    __syncwarp();
    out[lane] = slot[(lane + 1) % 32];
    __syncwarp();
    if (lane % 2 == 0) {
        slot[lane] = 1000 + (int)lane;
        __syncwarp(0x55555555u);
        out[32 + lane] = slot[(lane + 2) % 32];
    }
}

Test(warp, syncwarp_orders_shared_memory)
{
    device_array<int> d(64);
    syncwarp_orders_shared<<<1, 32>>>(d);
    expect_launch_ok("syncwarp_orders_shared");
    std::vector<int> h = d.to_host();
    for (unsigned lane = 0; lane < 32; ++lane)
        cr_expect_eq(h[lane], (int)((lane + 1) % 32), "lane %u read %d", lane, h[lane]);
    for (unsigned lane = 0; lane < 32; lane += 2)
        cr_expect_eq(h[32 + lane], 1000 + (int)((lane + 2) % 32), "even lane %u read %d", lane, h[32 + lane]);
}

/* ---- block barriers with predicates ------------------------------------------ */

/* 100 threads (a partial last warp): the block-wide count, and, or. */
__global__ void barrier_predicates(int *out)
{
    unsigned t = threadIdx.x;
    int count = __syncthreads_count(t % 3 == 0);
    int all_below_100 = __syncthreads_and(t < 100);
    int all_below_99 = __syncthreads_and(t < 99);
    int any_is_57 = __syncthreads_or(t == 57);
    int any_above_100 = __syncthreads_or(t > 100);
    int big_predicate = __syncthreads_count(t == 0 ? 1000 : 0); /* nonzero counts once */
    if (t == 0) {
        out[0] = count;
        out[1] = all_below_100;
        out[2] = all_below_99;
        out[3] = any_is_57;
        out[4] = any_above_100;
        out[5] = big_predicate;
    }
}

Test(barrier, syncthreads_count_and_or)
{
    device_array<int> d(6);
    barrier_predicates<<<1, 100>>>(d);
    expect_launch_ok("barrier_predicates");
    std::vector<int> h = d.to_host();
    cr_expect_eq(h[0], 34, "multiples of 3 below 100: 0, 3, ..., 99");
    cr_expect_eq(h[1], 1);
    cr_expect_eq(h[2], 0);
    cr_expect_eq(h[3], 1);
    cr_expect_eq(h[4], 0);
    cr_expect_eq(h[5], 1);
}

/* ---- reduce and match (sm_80 / sm_70) ---------------------------------------- */

__global__ void reduce_and_match(int *out)
{
    int lane = (int)threadIdx.x;
    int v = lane - 10; /* -10 .. 21 */
    out[6 * lane + 0] = __reduce_add_sync(FULL_MASK, v);
    out[6 * lane + 1] = __reduce_min_sync(FULL_MASK, v);
    out[6 * lane + 2] = __reduce_max_sync(FULL_MASK, v);
    out[6 * lane + 3] = (int)__reduce_min_sync(FULL_MASK, (unsigned)v); /* -10 is huge unsigned */
    out[6 * lane + 4] = (int)__match_any_sync(FULL_MASK, lane / 8);
    int pred = -1;
    unsigned all = __match_all_sync(FULL_MASK, 7.5, &pred);
    out[6 * lane + 5] = pred == 1 && all == FULL_MASK ? 1 : 0;
}

Test(warp, reduce_and_match)
{
    device_array<int> d(6 * 32);
    reduce_and_match<<<1, 32>>>(d);
    expect_launch_ok("reduce_and_match");
    std::vector<int> h = d.to_host();
    int sum = 0;
    for (int lane = 0; lane < 32; ++lane)
        sum += lane - 10;
    for (unsigned lane = 0; lane < 32; ++lane) {
        cr_expect_eq(h[6 * lane + 0], sum, "add, lane %u", lane);
        cr_expect_eq(h[6 * lane + 1], -10, "signed min, lane %u", lane);
        cr_expect_eq(h[6 * lane + 2], 21, "signed max, lane %u", lane);
        cr_expect_eq(h[6 * lane + 3], 0, "unsigned min is lane 10's 0, lane %u", lane);
        cr_expect_eq((unsigned)h[6 * lane + 4], 0xffu << (lane / 8 * 8), "match_any, lane %u", lane);
        cr_expect_eq(h[6 * lane + 5], 1, "match_all, lane %u", lane);
    }
}

/* ---- atomics under contention ------------------------------------------------ */

struct counters {
    int i;
    float f;
    double d;
    unsigned long long u;
};

/* Each thread adds ADDS_PER_THREAD times, so that the emulator's OS workers
 * contend for the counters long enough for a lost update to show. */
#define ADDS_PER_THREAD 64
__global__ void add_from_every_thread(counters *c)
{
    for (int k = 0; k < ADDS_PER_THREAD; ++k) {
        atomicAdd(&c->i, 1);
        atomicAdd(&c->f, 1.0f);
        atomicAdd(&c->d, 0.5);
        atomicAdd(&c->u, 3ull);
    }
}

Test(atomic, add_from_256_blocks_of_256_threads)
{
    counters zero = {0, 0.0f, 0.0, 0};
    device_array<counters> d(1, &zero);
    add_from_every_thread<<<256, 256>>>(d);
    expect_launch_ok("add_from_every_thread");
    counters h = d.to_host()[0];
    /* 65536 x 64 = 2^22 additions of 1: every partial sum is an integer
     * below 2^24, so exact in float, and in double. */
    const int adds = 65536 * ADDS_PER_THREAD;
    cr_expect_eq(h.i, adds);
    cr_expect_eq(h.f, (float)adds, "float sum %f", (double)h.f);
    cr_expect_eq(h.d, 0.5 * adds, "double sum %f", h.d);
    cr_expect_eq(h.u, 3ull * adds);
}

/* Nothing but increments of one int: the emulator's OS workers spend most
 * of their time on the same cache line, where a non-atomic read-modify-write
 * visibly loses updates (measured: about 1 in 150 on two cores). */
__global__ void increment_in_a_tight_loop(int *c)
{
    for (int k = 0; k < 256; ++k)
        atomicAdd(c, 1);
}

Test(atomic, int_add_in_a_tight_loop_loses_no_update)
{
    int zero = 0;
    device_array<int> d(1, &zero);
    increment_in_a_tight_loop<<<256, 256>>>(d);
    expect_launch_ok("increment_in_a_tight_loop");
    cr_expect_eq(d.to_host()[0], 256 * 256 * 256);
}

/* Threads decrement, exchange and set/clear bits of shared counters. */
__global__ void bitwise_and_sub(unsigned *c)
{
    unsigned bit = 1u << (threadIdx.x % 32);
    atomicSub(&c[0], 1u);
    atomicOr(&c[1], bit);
    atomicAnd(&c[2], ~bit);
    atomicXor(&c[3], bit); /* each bit flipped by 1024/32 = 32 threads: even */
    atomicExch(&c[4], 7u);
}

Test(atomic, sub_or_and_xor_exch)
{
    unsigned init[5] = {1024, 0, 0xffffffffu, 0x12345678u, 0};
    device_array<unsigned> d(5, init);
    bitwise_and_sub<<<4, 256>>>(d);
    expect_launch_ok("bitwise_and_sub");
    std::vector<unsigned> h = d.to_host();
    cr_expect_eq(h[0], 0u);
    cr_expect_eq(h[1], 0xffffffffu);
    cr_expect_eq(h[2], 0u);
    cr_expect_eq(h[3], 0x12345678u);
    cr_expect_eq(h[4], 7u);
}

/* atomicInc wraps to 0 past `limit`; atomicDec wraps to `limit` below 0. */
__global__ void inc_dec_wrap(unsigned *c, unsigned *olds, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    olds[i] = atomicInc(&c[0], 99u);
    atomicDec(&c[1], 9u);
}

Test(atomic, inc_and_dec_wrap_around)
{
    const unsigned n = 1037;
    unsigned init[2] = {0, 0};
    device_array<unsigned> c(2, init);
    device_array<unsigned> olds(n);
    inc_dec_wrap<<<(n + 127) / 128, 128>>>(c, olds, n);
    expect_launch_ok("inc_dec_wrap");
    std::vector<unsigned> h = c.to_host();
    /* inc with 99 counts 0, 1, ..., 99, 0, ...: n increments leave n mod 100. */
    cr_expect_eq(h[0], n % 100, "atomicInc: %u", h[0]);
    /* dec with 9 from 0 goes 9, 8, ..., 0, 9, ...: n decrements leave (-n) mod 10. */
    cr_expect_eq(h[1], (10 - n % 10) % 10, "atomicDec: %u", h[1]);
    /* Each old value 0..99 was seen once per lap: 10 or 11 times. */
    std::vector<unsigned> o = olds.to_host();
    std::vector<unsigned> seen(100, 0);
    for (unsigned v : o) {
        cr_assert_lt(v, 100u, "atomicInc returned %u", v);
        ++seen[v];
    }
    for (unsigned v = 0; v < 100; ++v)
        cr_expect_eq(seen[v], v < n % 100 ? 11u : 10u, "old value %u seen %u times", v, seen[v]);
}

/* The lock-free counter of the Programming Guide's atomicCAS example. */
__global__ void cas_counter(unsigned long long *c, unsigned short *c16)
{
    unsigned long long old = *c, assumed;
    do {
        assumed = old;
        old = atomicCAS(c, assumed, assumed + 1);
    } while (old != assumed);
    unsigned short o16 = *c16, a16;
    do {
        a16 = o16;
        o16 = atomicCAS(c16, a16, (unsigned short)(a16 + 1));
    } while (o16 != a16);
}

Test(atomic, cas_counter_counts_every_thread)
{
    unsigned long long zero = 0;
    unsigned short zero16 = 0;
    device_array<unsigned long long> c(1, &zero);
    device_array<unsigned short> c16(1, &zero16);
    cas_counter<<<64, 128>>>(c, c16);
    expect_launch_ok("cas_counter");
    cr_expect_eq(c.to_host()[0], 64ull * 128);
    cr_expect_eq(c16.to_host()[0], (unsigned short)(64 * 128));
}

static int scrambled(unsigned i) { return (int)((i * 7919u) % 100003u) - 50000; }

__global__ void min_max(int *si, unsigned *ui, long long *sl, unsigned long long *ul, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = (int)((i * 7919u) % 100003u) - 50000;
    atomicMin(&si[0], v);
    atomicMax(&si[1], v);
    atomicMin(&ui[0], (unsigned)v + 60000u);
    atomicMax(&ui[1], (unsigned)v + 60000u);
    atomicMin(&sl[0], (long long)v * 100000);
    atomicMax(&sl[1], (long long)v * 100000);
    atomicMin(&ul[0], (unsigned long long)(v + 60000) << 32);
    atomicMax(&ul[1], (unsigned long long)(v + 60000) << 32);
}

Test(atomic, min_and_max_of_scrambled_values)
{
    const unsigned n = 50000;
    int lo = INT_MAX, hi = INT_MIN;
    for (unsigned i = 0; i < n; ++i) {
        lo = std::min(lo, scrambled(i));
        hi = std::max(hi, scrambled(i));
    }
    int si0[2] = {INT_MAX, INT_MIN};
    unsigned ui0[2] = {UINT_MAX, 0};
    long long sl0[2] = {LLONG_MAX, LLONG_MIN};
    unsigned long long ul0[2] = {ULLONG_MAX, 0};
    device_array<int> si(2, si0);
    device_array<unsigned> ui(2, ui0);
    device_array<long long> sl(2, sl0);
    device_array<unsigned long long> ul(2, ul0);
    min_max<<<(n + 255) / 256, 256>>>(si, ui, sl, ul, n);
    expect_launch_ok("min_max");
    cr_expect_eq(si.to_host()[0], lo);
    cr_expect_eq(si.to_host()[1], hi);
    cr_expect_eq(ui.to_host()[0], (unsigned)lo + 60000u);
    cr_expect_eq(ui.to_host()[1], (unsigned)hi + 60000u);
    cr_expect_eq(sl.to_host()[0], (long long)lo * 100000);
    cr_expect_eq(sl.to_host()[1], (long long)hi * 100000);
    cr_expect_eq(ul.to_host()[0], (unsigned long long)(lo + 60000) << 32);
    cr_expect_eq(ul.to_host()[1], (unsigned long long)(hi + 60000) << 32);
}

/* ---- clock64 ------------------------------------------------------------------ */

/* Every thread's reading after the barrier must be at least every thread's
 * reading before it: a clock that all threads of a block share moves
 * forward only. */
__global__ void clock_around_barrier(long long *before, long long *after)
{
    unsigned t = threadIdx.x;
    before[t] = clock64();
    volatile int spin = 0;
    for (int k = 0; k < 1000; ++k)
        spin = spin + k;
    __syncthreads();
    after[t] = clock64();
}

Test(clock, clock64_is_monotonic_across_a_barrier)
{
    device_array<long long> before(128);
    device_array<long long> after(128);
    clock_around_barrier<<<1, 128>>>(before, after);
    expect_launch_ok("clock_around_barrier");
    std::vector<long long> b = before.to_host(), a = after.to_host();
    long long latest_before = b[0], earliest_after = a[0];
    for (int t = 0; t < 128; ++t) {
        latest_before = std::max(latest_before, b[t]);
        earliest_after = std::min(earliest_after, a[t]);
        cr_expect_gt(a[t], b[t], "thread %d: clock did not advance over its own work", t);
    }
    cr_expect_geq(earliest_after, latest_before, "a reading after the barrier precedes one before it");
}

/* ---- built-in variables in three dimensions -------------------------------------- */

/* Each thread writes its coordinates where the usual 3-D linearisation
 * puts it; every slot must be written exactly once with its own position. */
__global__ void index_3d(unsigned *out)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
    unsigned nx = gridDim.x * blockDim.x, ny = gridDim.y * blockDim.y;
    unsigned at = (z * ny + y) * nx + x;
    out[4 * at + 0] = x;
    out[4 * at + 1] = y;
    out[4 * at + 2] = z;
    out[4 * at + 3] = blockDim.x * 100 + blockDim.y * 10 + blockDim.z + gridDim.z * 1000;
}

Test(builtins, three_dimensional_indexing)
{
    const dim3 grid(2, 3, 4), block(4, 2, 3);
    const unsigned nx = 8, ny = 6, nz = 12;
    device_array<unsigned> d(4 * nx * ny * nz);
    index_3d<<<grid, block>>>(d);
    expect_launch_ok("index_3d");
    std::vector<unsigned> h = d.to_host();
    for (unsigned z = 0; z < nz; ++z)
        for (unsigned y = 0; y < ny; ++y)
            for (unsigned x = 0; x < nx; ++x) {
                unsigned at = (z * ny + y) * nx + x;
                cr_expect_eq(h[4 * at + 0], x, "x at (%u,%u,%u)", x, y, z);
                cr_expect_eq(h[4 * at + 1], y, "y at (%u,%u,%u)", x, y, z);
                cr_expect_eq(h[4 * at + 2], z, "z at (%u,%u,%u)", x, y, z);
                cr_expect_eq(h[4 * at + 3], 4000u + 423u, "blockDim/gridDim at (%u,%u,%u)", x, y, z);
            }
}

/* ---- device assert ------------------------------------------------------------------ */

__global__ void assert_thread_5(int *out)
{
    out[threadIdx.x] = 1;
    assert(threadIdx.x != 5);
}

Test(assert, failing_assert_is_cuda_error_assert_and_sticky)
{
    device_array<int> d(32);
    assert_thread_5<<<1, 32>>>(d);
    cr_expect_eq(cudaDeviceSynchronize(), cudaErrorAssert, "%s", simtlab_emu_last_diagnostic());
    cr_expect(std::strstr(simtlab_emu_last_diagnostic(), "threadIdx.x != 5") != nullptr,
              "diagnostic quotes the expression: %s", simtlab_emu_last_diagnostic());
    /* Sticky: the context stays unusable, as after a device assert on a GPU. */
    void *p = nullptr;
    cr_expect_eq(cudaMalloc(&p, 16), cudaErrorAssert);
    cr_expect_eq(cudaDeviceSynchronize(), cudaErrorAssert);
}

/* ---- launch configurations and template kernels ------------------------------------- */

__global__ void count_threads(unsigned *count) { atomicAdd(count, 1u); }

Test(launch, grid_and_block_as_int_unsigned_size_t_and_dim3)
{
    unsigned zero = 0;
    device_array<unsigned> c(1, &zero);
    int gi = 3, bi = 64;
    unsigned gu = 2u, bu = 32u;
    size_t gs = 5, bs = 96;
    count_threads<<<gi, bi>>>(c);
    count_threads<<<gu, bu>>>(c);
    count_threads<<<gs, bs>>>(c);
    count_threads<<<dim3(2, 2, 2), dim3(8, 4)>>>(c);
    count_threads<<<7, dim3(16), 0, 0>>>(c);
    expect_launch_ok("count_threads");
    cr_expect_eq(c.to_host()[0], 3u * 64 + 2 * 32 + 5 * 96 + 8 * 32 + 7 * 16);
}

template <class T, int Scale>
__global__ void scale_index(T *out, T offset)
{
    unsigned i = threadIdx.x;
    out[i] = (T)(i * Scale) + offset;
}

Test(launch, template_kernel_with_type_and_value_parameters)
{
    device_array<float> f(32);
    device_array<int> n(32);
    scale_index<float, 3><<<1, 32>>>(f, 0.5); /* a double argument converts to float */
    scale_index<int, 7><<<1, 32>>>(n, -1);
    expect_launch_ok("scale_index");
    std::vector<float> hf = f.to_host();
    std::vector<int> hn = n.to_host();
    for (int i = 0; i < 32; ++i) {
        cr_expect_eq(hf[i], 3.0f * (float)i + 0.5f);
        cr_expect_eq(hn[i], 7 * i - 1);
    }
}

/* A kernel that changes its parameter changes only its own copy. */
__global__ void modify_parameter(int *out, int n)
{
    n += (int)threadIdx.x;
    out[threadIdx.x] = n;
}

Test(launch, parameters_are_per_thread_copies)
{
    device_array<int> d(64);
    modify_parameter<<<1, 64>>>(d, 10);
    expect_launch_ok("modify_parameter");
    std::vector<int> h = d.to_host();
    for (int i = 0; i < 64; ++i)
        cr_expect_eq(h[i], 10 + i);
}

/* ---- intrinsics -----------------------------------------------------------------
 * Device functions in CUDA, so they are evaluated in a one-thread kernel
 * (keeping this file valid CUDA) and compared on the host, one named
 * check per entry: entry k of the kernel's output is check k below. */

struct int_check {
    const char *what;
    long long want;
};

__global__ void integer_intrinsics(long long *r)
{
    int k = 0;
    r[k++] = __brev(1u);
    r[k++] = __brev(0x0000ff01u);
    r[k++] = (long long)__brevll(1ull);
    r[k++] = __byte_perm(0x33221100u, 0x77665544u, 0x1234u);
    r[k++] = __funnelshift_l(0x89abcdefu, 0x01234567u, 8);
    r[k++] = __funnelshift_l(0x89abcdefu, 0x01234567u, 40);
    r[k++] = __funnelshift_lc(0x89abcdefu, 0x01234567u, 40);
    r[k++] = __funnelshift_r(0x89abcdefu, 0x01234567u, 8);
    r[k++] = __clz(0);
    r[k++] = __clz(1);
    r[k++] = __clz(-1);
    r[k++] = __clzll(1);
    r[k++] = __ffs(0);
    r[k++] = __ffs(8);
    r[k++] = __ffsll(1ll << 40);
    r[k++] = __popc(0xf0f0u);
    r[k++] = __popcll(~0ull);
    r[k++] = __mulhi(0x40000000, 8);
    r[k++] = __mulhi(-1, 1);
    r[k++] = __umulhi(0xffffffffu, 0xffffffffu);
    r[k++] = __umul24(0x1000001u, 3u);
    r[k++] = __mul24(0xffffff, 5);
    r[k++] = (long long)__umul64hi(1ull << 63, 4ull);
    r[k++] = __float2int_rn(2.5f);
    r[k++] = __float2int_rn(3.5f);
    r[k++] = __float2int_rn(-2.5f);
    r[k++] = __float2int_rz(-2.7f);
    r[k++] = __float2int_rd(-2.2f);
    r[k++] = __float2int_ru(2.2f);
    r[k++] = __float2int_rn(1e10f);
    r[k++] = __float2int_rn(-1e10f);
    r[k++] = __float2int_rn(__int_as_float(0x7fc00000)); /* NaN */
    r[k++] = __float2uint_rn(-1.0f);
    r[k++] = __float2uint_rn(5e9f);
    r[k++] = __float_as_int(1.0f);
    r[k++] = __double_as_longlong(1.0);
    r[k++] = min(-1, 1u);
    r[k++] = max(-1, 1u);
    r[k++] = min(-3, 2);
    r[k++] = max(-5ll, 4ll);
}

static const int_check integer_checks[] = {
    {"__brev(1)", 0x80000000ll},
    {"__brev(0x0000ff01)", 0x80ff0000ll},
    {"__brevll(1)", (long long)0x8000000000000000ull},
    /* Selector nibbles 4,3,2,1 pick bytes y0, x3, x2, x1. */
    {"__byte_perm", 0x11223344ll},
    {"__funnelshift_l by 8", 0x23456789ll},
    {"__funnelshift_l by 40 (mod 32)", 0x23456789ll},
    {"__funnelshift_lc by 40 (clamped to 32)", 0x89abcdefll},
    {"__funnelshift_r by 8", 0x6789abcdll},
    {"__clz(0)", 32},
    {"__clz(1)", 31},
    {"__clz(-1)", 0},
    {"__clzll(1)", 63},
    {"__ffs(0)", 0},
    {"__ffs(8)", 4},
    {"__ffsll(2^40)", 41},
    {"__popc(0xf0f0)", 8},
    {"__popcll(~0)", 64},
    {"__mulhi(2^30, 8)", 2},
    {"__mulhi(-1, 1): all high bits set", -1},
    {"__umulhi(max, max)", 0xfffffffell},
    {"__umul24: only the low 24 bits count", 3},
    {"__mul24: 0xffffff is -1 in 24 bits", -5},
    {"__umul64hi(2^63, 4)", 2},
    {"__float2int_rn(2.5): ties to even", 2},
    {"__float2int_rn(3.5)", 4},
    {"__float2int_rn(-2.5)", -2},
    {"__float2int_rz(-2.7)", -2},
    {"__float2int_rd(-2.2)", -3},
    {"__float2int_ru(2.2)", 3},
    {"__float2int_rn(1e10) saturates", INT_MAX},
    {"__float2int_rn(-1e10) saturates", INT_MIN},
    {"__float2int_rn(NaN)", 0},
    {"__float2uint_rn(-1) saturates", 0},
    {"__float2uint_rn(5e9) saturates", UINT_MAX},
    {"__float_as_int(1.0f)", 0x3f800000ll},
    {"__double_as_longlong(1.0)", 0x3ff0000000000000ll},
    {"min(int -1, unsigned 1) compares as unsigned", 1},
    {"max(int -1, unsigned 1) compares as unsigned", 0xffffffffll},
    {"min(-3, 2)", -3},
    {"max(-5ll, 4ll)", 4},
};

Test(intrinsics, integer_and_conversion_results)
{
    const size_t n = sizeof integer_checks / sizeof integer_checks[0];
    device_array<long long> d(n);
    integer_intrinsics<<<1, 1>>>(d);
    expect_launch_ok("integer_intrinsics");
    std::vector<long long> h = d.to_host();
    for (size_t k = 0; k < n; ++k)
        cr_expect_eq(h[k], integer_checks[k].want, "%s: got %lld (0x%llx), want %lld", integer_checks[k].what, h[k],
                     (unsigned long long)h[k], integer_checks[k].want);
}

struct float_check {
    const char *what;
    double want;
    double tolerance;
};

__global__ void float_intrinsics(double *r)
{
    int k = 0;
    r[k++] = __int2float_rn(16777217);
    r[k++] = __int_as_float(0x40400000);
    r[k++] = __saturatef(1.5f);
    r[k++] = __saturatef(-0.5f);
    r[k++] = __saturatef(__int_as_float(0x7fc00000)); /* NaN */
    r[k++] = __saturatef(0.25f);
    r[k++] = max(2.0f, 3.0);
    r[k++] = min(__int_as_float(0x7fc00000), 1.0f);
    r[k++] = sinpif(1.0f);
    r[k++] = sinpif(0.5f);
    r[k++] = sinpif(-2.5f);
    r[k++] = sinpif(1.0f / 6.0f);
    r[k++] = cospif(0.5f);
    r[k++] = cospif(-7.5f);
    r[k++] = cospif(1.0f);
    r[k++] = cospif(4.0f);
    r[k++] = normcdff(0.0f);
    r[k++] = normcdf(1.0);
    r[k++] = __fdividef(1.0f, 4.0f);
    r[k++] = rsqrtf(16.0f);
    r[k++] = __expf(0.0f);
    r[k++] = __fmaf_rn(2.0f, 3.0f, 1.0f);
}

static const float_check float_checks[] = {
    {"__int2float_rn(2^24 + 1): to even", 16777216.0, 0},
    {"__int_as_float(0x40400000)", 3.0, 0},
    {"__saturatef(1.5)", 1.0, 0},
    {"__saturatef(-0.5)", 0.0, 0},
    {"__saturatef(NaN)", 0.0, 0},
    {"__saturatef(0.25)", 0.25, 0},
    {"max(float, double) is double", 3.0, 0},
    {"min(NaN, 1.0f) is fminf: NaN loses", 1.0, 0},
    {"sinpif(1) exactly 0", 0.0, 0},
    {"sinpif(0.5)", 1.0, 0},
    {"sinpif(-2.5)", -1.0, 0},
    {"sinpif(1/6)", 0.5, 1e-7},
    {"cospif(0.5) exactly 0", 0.0, 0},
    {"cospif(-7.5) exactly 0", 0.0, 0},
    {"cospif(1)", -1.0, 0},
    {"cospif(4)", 1.0, 0},
    {"normcdff(0)", 0.5, 0},
    {"normcdf(1), from tables", 0.8413447460685429, 1e-15},
    {"__fdividef(1, 4)", 0.25, 0},
    {"rsqrtf(16)", 0.25, 0},
    {"__expf(0)", 1.0, 0},
    {"__fmaf_rn(2, 3, 1)", 7.0, 0},
};

Test(intrinsics, float_results)
{
    const size_t n = sizeof float_checks / sizeof float_checks[0];
    device_array<double> d(n);
    float_intrinsics<<<1, 1>>>(d);
    expect_launch_ok("float_intrinsics");
    std::vector<double> h = d.to_host();
    for (size_t k = 0; k < n; ++k)
        cr_expect(std::fabs(h[k] - float_checks[k].want) <= float_checks[k].tolerance, "%s: got %.17g, want %.17g",
                  float_checks[k].what, h[k], float_checks[k].want);
}

/* ---- directed rounding: _rz, _ru, _rd ----------------------------------- */

/* Each case computes one operation in the three directed modes and to
 * nearest; the host checks them against the exact result in __float128
 * (113-bit significand: sums, products and fused products of the operands
 * drawn below are exact there), so nothing is compared with the emulator's
 * own arithmetic. */
enum rounding_op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_RCP, OP_FMA, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"add", "sub", "mul", "div", "sqrt", "rcp", "fma"};

template <class T>
struct rounding_case {
    int op;
    T a, b, c;
    T rz, ru, rd, rn;
};

__global__ void float_directed(rounding_case<float> *cs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    rounding_case<float> &k = cs[i];
    float a = k.a, b = k.b, c = k.c;
    switch (k.op) {
    case OP_ADD: k.rz = __fadd_rz(a, b); k.ru = __fadd_ru(a, b); k.rd = __fadd_rd(a, b); k.rn = __fadd_rn(a, b); break;
    case OP_SUB: k.rz = __fsub_rz(a, b); k.ru = __fsub_ru(a, b); k.rd = __fsub_rd(a, b); k.rn = __fsub_rn(a, b); break;
    case OP_MUL: k.rz = __fmul_rz(a, b); k.ru = __fmul_ru(a, b); k.rd = __fmul_rd(a, b); k.rn = __fmul_rn(a, b); break;
    case OP_DIV: k.rz = __fdiv_rz(a, b); k.ru = __fdiv_ru(a, b); k.rd = __fdiv_rd(a, b); k.rn = __fdiv_rn(a, b); break;
    case OP_SQRT: k.rz = __fsqrt_rz(a); k.ru = __fsqrt_ru(a); k.rd = __fsqrt_rd(a); k.rn = __fsqrt_rn(a); break;
    case OP_RCP: k.rz = __frcp_rz(a); k.ru = __frcp_ru(a); k.rd = __frcp_rd(a); k.rn = __frcp_rn(a); break;
    default: k.rz = __fmaf_rz(a, b, c); k.ru = __fmaf_ru(a, b, c); k.rd = __fmaf_rd(a, b, c); k.rn = __fmaf_rn(a, b, c); break;
    }
}

__global__ void double_directed(rounding_case<double> *cs, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    rounding_case<double> &k = cs[i];
    double a = k.a, b = k.b, c = k.c;
    switch (k.op) {
    case OP_ADD: k.rz = __dadd_rz(a, b); k.ru = __dadd_ru(a, b); k.rd = __dadd_rd(a, b); k.rn = __dadd_rn(a, b); break;
    case OP_SUB: k.rz = __dsub_rz(a, b); k.ru = __dsub_ru(a, b); k.rd = __dsub_rd(a, b); k.rn = __dsub_rn(a, b); break;
    case OP_MUL: k.rz = __dmul_rz(a, b); k.ru = __dmul_ru(a, b); k.rd = __dmul_rd(a, b); k.rn = __dmul_rn(a, b); break;
    case OP_DIV: k.rz = __ddiv_rz(a, b); k.ru = __ddiv_ru(a, b); k.rd = __ddiv_rd(a, b); k.rn = __ddiv_rn(a, b); break;
    case OP_SQRT: k.rz = __dsqrt_rz(a); k.ru = __dsqrt_ru(a); k.rd = __dsqrt_rd(a); k.rn = __dsqrt_rn(a); break;
    case OP_RCP: k.rz = __drcp_rz(a); k.ru = __drcp_ru(a); k.rd = __drcp_rd(a); k.rn = __drcp_rn(a); break;
    default: k.rz = __fma_rz(a, b, c); k.ru = __fma_ru(a, b, c); k.rd = __fma_rd(a, b, c); k.rn = __fma_rn(a, b, c); break;
    }
}

/* The sign of (r - exact result of the case), computed exactly: for
 * division, sqrt and reciprocal through the product r * b, r * r or r * a,
 * which __float128 holds exactly for these operands. */
template <class T>
static int side_of_exact(const rounding_case<T> &k, T r)
{
    typedef __float128 Q;
    Q a = k.a, b = k.b, c = k.c, q = r, d;
    switch (k.op) {
    case OP_ADD: d = q - (a + b); break;
    case OP_SUB: d = q - (a - b); break;
    case OP_MUL: d = q - a * b; break;
    case OP_DIV: d = (q * b - a) * (b < 0 ? -1 : 1); break;
    case OP_SQRT: d = q * q - a; break;
    case OP_RCP: d = (q * a - 1) * (a < 0 ? -1 : 1); break;
    default: d = q - (a * b + c); break;
    }
    return d < 0 ? -1 : d > 0 ? 1 : 0;
}

/* A random value of either sign whose exponent lies in [-span, span]. */
template <class T>
static T random_operand(std::mt19937_64 &rng, int span)
{
    std::uniform_real_distribution<T> mant(1, 2);
    int e = (int)(rng() % (2 * span + 1)) - span;
    T v = std::ldexp(mant(rng), e);
    return (rng() & 1) ? -v : v;
}

template <class T>
static void check_directed(const char *type, void (*kernel)(rounding_case<T> *, int), int span)
{
    const unsigned long long seed = 0x5eed0000ULL + (unsigned long long)time(NULL) % 100000;
    std::mt19937_64 rng(seed);
    std::vector<rounding_case<T>> cases;
    for (int op = 0; op < OP_COUNT; ++op)
        for (int i = 0; i < 400; ++i) {
            rounding_case<T> k = {};
            k.op = op;
            k.a = random_operand<T>(rng, span);
            k.b = random_operand<T>(rng, span);
            k.c = random_operand<T>(rng, span);
            if (op == OP_SQRT)
                k.a = std::fabs(k.a);
            if (i < 40) /* exact cases: small integers */
                k.a = (T)(int)(rng() % 64 + 1), k.b = (T)(int)(rng() % 64 + 1), k.c = (T)(int)(rng() % 64);
            cases.push_back(k);
        }
    for (rounding_case<T> &k : cases) /* poisoned results */
        k.rz = k.ru = k.rd = k.rn = std::numeric_limits<T>::quiet_NaN();
    device_array<rounding_case<T>> d(cases.size(), cases.data());
    kernel<<<(unsigned)(cases.size() + 127) / 128, 128>>>(d, (int)cases.size());
    expect_launch_ok(type);
    std::vector<rounding_case<T>> h = d.to_host();
    int bad = 0;
    for (const rounding_case<T> &k : h) {
        const T inf = std::numeric_limits<T>::infinity();
        int sd = side_of_exact(k, k.rd), su = side_of_exact(k, k.ru), sn = side_of_exact(k, k.rn);
        bool exact = sd == 0 || su == 0;
        bool ok = !std::isnan(k.rd) && !std::isnan(k.ru) && sd <= 0 && su >= 0 &&
                  (exact ? k.rd == k.ru : std::nextafter(k.rd, inf) == k.ru) &&
                  (k.rn == k.rd || k.rn == k.ru) && (sn != 0) == !exact &&
                  /* toward zero: down for a positive result, up for a negative one */
                  k.rz == ((k.rd >= 0 && k.ru > 0) || (exact && k.rd >= 0) ? k.rd : k.ru);
        if (!ok && bad++ < 5)
            cr_expect(false, "%s %s(%a, %a, %a): rz %a ru %a rd %a rn %a (sides: rd %d ru %d) (seed %llu)", type,
                      op_names[k.op], (double)k.a, (double)k.b, (double)k.c, (double)k.rz, (double)k.ru,
                      (double)k.rd, (double)k.rn, sd, su, seed);
    }
    cr_assert_eq(bad, 0, "%s: %d of %zu directed-rounding cases wrong (seed %llu)", type, bad, h.size(), seed);
}

Test(intrinsics, float_directed_rounding_brackets_the_exact_result)
{
    check_directed<float>("float", float_directed, 20);
}

Test(intrinsics, double_directed_rounding_brackets_the_exact_result)
{
    check_directed<double>("double", double_directed, 3); /* fused products stay exact in __float128 */
}

/* Corners: overflow goes to the largest finite value toward zero and down
 * (for a positive result), to infinity up; an underflowing product goes to
 * the smallest subnormal up and to zero down; NaN stays NaN; conversions. */
__global__ void directed_corners(float *f, double *g)
{
    const float big = 3.40282347e38f, tiny = 1e-30f;
    f[0] = __fadd_rd(big, big);
    f[1] = __fadd_rz(big, big);
    f[2] = __fadd_ru(big, big);
    f[3] = __fmul_ru(tiny, tiny);
    f[4] = __fmul_rd(tiny, tiny);
    f[5] = __fadd_rd(__int_as_float(0x7fc00000), 1.0f);
    f[6] = __ll2float_rd(16777217LL); /* 2^24 + 1 */
    f[7] = __ll2float_ru(16777217LL);
    f[8] = __double2float_rd(0.1);
    f[9] = __double2float_ru(0.1);
    f[10] = __uint2float_rz(4294967295u);
    f[11] = __fmul_rd(-tiny, tiny);
    g[0] = __ull2double_rd(18446744073709551615ULL);
    g[1] = __ull2double_ru(18446744073709551615ULL);
    g[2] = __dadd_rd(1.0, 0x1p-60);
    g[3] = __dadd_ru(1.0, 0x1p-60);
}

Test(intrinsics, directed_rounding_corners)
{
    device_array<float> f(12);
    device_array<double> g(4);
    directed_corners<<<1, 1>>>(f, g);
    expect_launch_ok("directed_corners");
    std::vector<float> hf = f.to_host();
    std::vector<double> hg = g.to_host();
    const float big = 3.40282347e38f, inf = INFINITY;
    cr_expect(hf[0] == big, "__fadd_rd(max, max) = %a, want the largest float", (double)hf[0]);
    cr_expect(hf[1] == big, "__fadd_rz(max, max) = %a, want the largest float", (double)hf[1]);
    cr_expect(hf[2] == inf, "__fadd_ru(max, max) = %a, want inf", (double)hf[2]);
    cr_expect(hf[3] == std::ldexp(1.0f, -149), "__fmul_ru(1e-30, 1e-30) = %a, want 2^-149", (double)hf[3]);
    cr_expect(hf[4] == 0.0f && !std::signbit(hf[4]), "__fmul_rd(1e-30, 1e-30) = %a, want +0", (double)hf[4]);
    cr_expect(std::isnan(hf[5]), "__fadd_rd(NaN, 1) = %a, want NaN", (double)hf[5]);
    cr_expect(hf[6] == 16777216.0f && hf[7] == 16777218.0f, "__ll2float_rd/ru(2^24+1) = %a, %a", (double)hf[6],
              (double)hf[7]);
    cr_expect((double)hf[8] < 0.1 && (double)hf[9] > 0.1 && std::nextafter(hf[8], inf) == hf[9],
              "__double2float_rd/ru(0.1) = %a, %a: not the two floats around 0.1", (double)hf[8], (double)hf[9]);
    cr_expect(hf[10] == 4294967040.0f, "__uint2float_rz(2^32-1) = %a, want 2^32-256", (double)hf[10]);
    cr_expect(hf[11] == -std::ldexp(1.0f, -149), "__fmul_rd(-1e-30, 1e-30) = %a, want -2^-149", (double)hf[11]);
    cr_expect(hg[0] == 0x1.fffffffffffffp63 && hg[1] == 0x1p64, "__ull2double_rd/ru(2^64-1) = %a, %a", hg[0], hg[1]);
    cr_expect(hg[2] == 1.0 && hg[3] == std::nextafter(1.0, 2.0), "__dadd_rd/ru(1, 2^-60) = %a, %a", hg[2], hg[3]);
}
