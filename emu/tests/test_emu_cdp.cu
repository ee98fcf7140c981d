/* Dynamic parallelism (CUDA 12's CDP2) under the emulator: grids launched
 * from device code with <<<>>>, into the block's default stream, a stream
 * made in device code, cudaStreamFireAndForget and cudaStreamTailLaunch;
 * their order, the nesting depth and pending launch limits, errors of a
 * device launch (the launching thread's own cudaGetLastError), a failing
 * child failing the host's launch, and memory seen across the launches.
 *
 * References are computed on the host (std::sort, sums in 64-bit integers)
 * from random inputs whose seed is printed; outputs are poisoned first.
 *
 * Build and run: cmake --build build --target test_emu_cdp && build/bin/test_emu_cdp */
#include <criterion/criterion.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "test_helpers.hpp"

/* ---- helpers ----------------------------------------------------------- */

static void expect_launch_ok(const char *what)
{
    cudaError_t launch = cudaGetLastError();
    cr_assert_eq(launch, cudaSuccess, "%s: launch failed with %s: %s", what, cudaGetErrorName(launch),
                 simtlab_emu_last_diagnostic());
    cudaError_t sync = cudaDeviceSynchronize();
    cr_assert_eq(sync, cudaSuccess, "%s: cudaDeviceSynchronize: %s", what, cudaGetErrorName(sync));
}

static unsigned test_seed()
{
    const char *env = std::getenv("CDP_TEST_SEED");
    unsigned seed = env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : static_cast<unsigned>(std::time(nullptr));
    std::printf("test_emu_cdp: seed %u (CDP_TEST_SEED=%u repeats it)\n", seed, seed);
    return seed;
}

/* ---- recursion: a quicksort that launches its halves ----------------------- */

#define QS_SMALL 16
#define QS_MAX_DEPTH 24 /* the launching grid's depth: its children would be at 25 */

__device__ void insertion_sort(int *a, int lo, int hi)
{
    for (int i = lo + 1; i <= hi; i++) {
        int v = a[i], j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* One thread per grid; each half is launched into a stream made here in
 * device code (destroyed at once: its work still runs). */
__global__ void quicksort(int *a, int lo, int hi, int *max_depth_seen, int depth)
{
    atomicMax(max_depth_seen, depth);
    /* CUDA nests grids at most 24 deep: an unlucky input (seed 1796554608
     * reaches 25) sorts its deepest ranges in place, as CUDA's own
     * recursive samples do, instead of launching past the limit. */
    if (hi - lo < QS_SMALL || depth >= QS_MAX_DEPTH) {
        insertion_sort(a, lo, hi);
        return;
    }
    const int pivot = a[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
        while (a[i] < pivot)
            i++;
        while (a[j] > pivot)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
    if (lo < j) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, lo, j, max_depth_seen, depth + 1);
        cudaStreamDestroy(s);
    }
    if (i < hi) {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        quicksort<<<1, 1, 0, s>>>(a, i, hi, max_depth_seen, depth + 1);
        cudaStreamDestroy(s);
    }
}

Test(cdp, recursive_quicksort_matches_std_sort)
{
    const unsigned seed = test_seed();
    std::mt19937 rng(seed);
    const int sizes[] = {1, 2, 17, 97, 1009, 4099};
    for (int n : sizes) {
        std::vector<int> h(n);
        for (int &v : h)
            v = static_cast<int>(rng() % 2000) - 1000; /* duplicates on purpose */
        int *d = device_alloc<int>(n);
        int *depth = device_alloc<int>(1, 0);
        cr_assert_eq(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
        quicksort<<<1, 1>>>(d, 0, n - 1, depth, 0);
        expect_launch_ok("quicksort");
        std::vector<int> got = copy_back(d, n);
        std::sort(h.begin(), h.end());
        for (int k = 0; k < n; k++)
            cr_assert_eq(got[k], h[k], "n = %d, seed %u: element %d is %d, expected %d", n, seed, k, got[k], h[k]);
        const int deepest = copy_back(depth, 1)[0];
        if (n > 2 * QS_SMALL)
            cr_assert_gt(deepest, 1, "n = %d: the recursion never went below depth 1 (%d)", n, deepest);
        cudaFree(d);
        cudaFree(depth);
    }
}

/* ---- a tree sum whose combining step is a tail launch ---------------------- */

/* node's sum goes to sums[node]; its children are 2 node + 1 and 2 node + 2.
 * The parent cannot wait for them: the combining step is a tail launch,
 * which begins only after this grid and everything it launched ended. */
__global__ void combine(long long *sums, int node)
{
    sums[node] = sums[2 * node + 1] + sums[2 * node + 2];
}

__device__ int tree_launch_errors;

__global__ void tree_sum(const int *x, int lo, int hi, long long *sums, int node)
{
    __shared__ long long part[64];
    if (hi - lo <= 256) {
        long long s = 0;
        for (int i = lo + static_cast<int>(threadIdx.x); i < hi; i += blockDim.x)
            s += x[i];
        part[threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.x == 0) {
            long long t = 0;
            for (unsigned k = 0; k < blockDim.x; k++)
                t += part[k];
            sums[node] = t;
        }
        return;
    }
    if (threadIdx.x == 0) {
        const int mid = lo + (hi - lo) / 2;
        tree_sum<<<1, 64>>>(x, lo, mid, sums, 2 * node + 1);
        tree_sum<<<1, 64>>>(x, mid, hi, sums, 2 * node + 2);
        combine<<<1, 1, 0, cudaStreamTailLaunch>>>(sums, node);
        if (cudaGetLastError() != cudaSuccess) /* this thread's own launches */
            atomicAdd(&tree_launch_errors, 1);
    }
}

Test(cdp, tree_sum_with_tail_launched_combines_matches_the_host)
{
    const unsigned seed = test_seed();
    std::mt19937 rng(seed);
    const int sizes[] = {255, 257, 1021, 65537};
    for (int n : sizes) {
        std::vector<int> h(n);
        long long want = 0;
        for (int &v : h) {
            v = static_cast<int>(rng() % 2000001) - 1000000;
            want += v;
        }
        int *x = device_alloc<int>(n);
        const int nodes = 4 * 1024; /* enough for 65537 / 256 leaves */
        long long *sums = device_alloc<long long>(nodes);
        cr_assert_eq(cudaMemcpy(x, h.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
        tree_sum<<<1, 64>>>(x, 0, n, sums, 0);
        expect_launch_ok("tree_sum");
        int launch_errors = -1;
        cr_assert_eq(cudaMemcpyFromSymbol(&launch_errors, tree_launch_errors, sizeof launch_errors), cudaSuccess);
        cr_assert_eq(launch_errors, 0, "%d device launches failed", launch_errors);
        const long long got = copy_back(sums, 1)[0];
        cr_assert_eq(got, want, "n = %d, seed %u: sum %lld, expected %lld", n, seed, got, want);
        cudaFree(x);
        cudaFree(sums);
    }
}

/* ---- order: tail launches after everything else, fire-and-forget ---------- */

/* Each grid takes a ticket as it runs: stamps[who] = its turn. */
__device__ int next_ticket;

__global__ void stamp(int *stamps, int who)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        stamps[who] = atomicAdd(&next_ticket, 1);
}

/* who 1: a child that launches a grandchild (who 2) */
__global__ void child_with_grandchild(int *stamps)
{
    stamps[1] = atomicAdd(&next_ticket, 1);
    stamp<<<1, 1>>>(stamps, 2);
}

__global__ void orderer(int *stamps, int *errors)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        stamps[0] = atomicAdd(&next_ticket, 1);
        /* tail launches first, in the source, to show they still come last */
        stamp<<<1, 1, 0, cudaStreamTailLaunch>>>(stamps, 5);
        stamp<<<2, 32, 0, cudaStreamTailLaunch>>>(stamps, 6);
        child_with_grandchild<<<1, 1>>>(stamps);
        stamp<<<3, 1, 0, cudaStreamFireAndForget>>>(stamps, 3);
        cudaStream_t s;
        errors[0] = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        stamp<<<1, 1, 0, s>>>(stamps, 4);
        errors[1] = cudaStreamDestroy(s);
        errors[2] = cudaGetLastError();
    }
    /* the rest of the grid: a later block stamps after every launch above was made */
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
        stamps[7] = atomicAdd(&next_ticket, 1);
}

Test(cdp, tail_launches_run_after_the_parent_and_all_its_other_work)
{
    int zero = 0;
    cr_assert_eq(cudaMemcpyToSymbol(next_ticket, &zero, sizeof zero), cudaSuccess);
    int *stamps = device_alloc<int>(8, 0xFF);
    int *errors = device_alloc<int>(3, 0xFF);
    orderer<<<4, 8>>>(stamps, errors);
    expect_launch_ok("orderer");
    std::vector<int> s = copy_back(stamps, 8), e = copy_back(errors, 3);
    for (int k = 0; k < 3; k++)
        cr_assert_eq(e[k], cudaSuccess, "device call %d returned %s", k, cudaGetErrorName((cudaError_t)e[k]));
    for (int k = 0; k < 8; k++)
        cr_assert(s[k] >= 0 && s[k] < 8, "grid %d never ran (stamp %d)", k, s[k]);
    /* every stamp distinct: each grid ran once */
    std::vector<int> sorted = s;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < 8; k++)
        cr_assert_eq(sorted[k], k, "stamps are not 0..7: a grid ran twice or not at all");
    /* children begin only after they are launched; the grandchild after its parent */
    cr_assert_gt(s[1], s[0]);
    cr_assert_gt(s[2], s[1]);
    cr_assert_gt(s[3], s[0]);
    cr_assert_gt(s[4], s[0]);
    /* the tails: after the whole parent grid (its last block's stamp 7), all
     * other children and the grandchild, and in their launch order */
    for (int k : {0, 1, 2, 3, 4, 7}) {
        cr_assert_gt(s[5], s[k], "tail launch 5 ran (turn %d) before grid %d (turn %d)", s[5], k, s[k]);
        cr_assert_gt(s[6], s[k], "tail launch 6 ran (turn %d) before grid %d (turn %d)", s[6], k, s[k]);
    }
    cr_assert_gt(s[6], s[5], "tail launches ran out of their launch order");
    cudaFree(stamps);
    cudaFree(errors);
}

/* ---- memory across launches ---------------------------------------------- */

__global__ void doubler(int *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2 * x[i] + 1;
}

/* The parent writes, launches a child that reads and writes, and the host
 * reads the child's writes after the launch. Block b's thread 0 launches
 * for its block's slice once the block has written it. */
__global__ void writer_then_launch(int *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 3 * i;
    __syncthreads();
    if (threadIdx.x == 0) {
        const int first = blockIdx.x * blockDim.x;
        const int count = min(static_cast<int>(blockDim.x), n - first);
        doubler<<<(count + 31) / 32, 32>>>(x + first, count);
    }
}

Test(cdp, parent_writes_are_seen_by_the_child_and_child_writes_by_the_host)
{
    const int n = 1000;
    int *x = device_alloc<int>(n);
    writer_then_launch<<<(n + 127) / 128, 128>>>(x, n);
    expect_launch_ok("writer_then_launch");
    std::vector<int> h = copy_back(x, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(h[i], 6 * i + 1, "x[%d] = %d, expected %d", i, h[i], 6 * i + 1);
    cudaFree(x);
}

/* Device-side cudaMalloc and cudaFree (cuda-samples' cdpBezierTessellation):
 * the parent allocates, a child fills, a tail launch copies out and frees. */
__global__ void fill_squares(float *buf, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = static_cast<float>(i) * static_cast<float>(i);
}

__global__ void copy_and_free(float *buf, float *out, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = buf[i];
    __syncthreads();
    if (threadIdx.x == 0)
        cudaFree(buf);
}

__global__ void allocator(float *out, int n, int *status)
{
    float *buf = nullptr;
    status[0] = cudaMalloc(reinterpret_cast<void **>(&buf), n * sizeof(float));
    int count = -1, dev = -1;
    status[1] = cudaGetDeviceCount(&count);
    status[2] = cudaGetDevice(&dev);
    status[3] = count;
    status[4] = dev;
    fill_squares<<<(n + 63) / 64, 64>>>(buf, n);
    copy_and_free<<<1, 128, 0, cudaStreamTailLaunch>>>(buf, out, n);
    status[5] = cudaGetLastError();
}

Test(cdp, device_malloc_child_fill_and_tail_free)
{
    const int n = 331;
    float *out = device_alloc<float>(n);
    int *status = device_alloc<int>(6, 0xFF);
    allocator<<<1, 1>>>(out, n, status);
    expect_launch_ok("allocator");
    std::vector<int> st = copy_back(status, 6);
    cr_assert_eq(st[0], cudaSuccess, "device cudaMalloc: %d", st[0]);
    cr_assert_eq(st[1], cudaSuccess);
    cr_assert_eq(st[2], cudaSuccess);
    cr_assert_eq(st[3], 1, "device cudaGetDeviceCount: %d", st[3]);
    cr_assert_eq(st[4], 0, "device cudaGetDevice: %d", st[4]);
    cr_assert_eq(st[5], cudaSuccess, "launches: %s", cudaGetErrorName((cudaError_t)st[5]));
    std::vector<float> h = copy_back(out, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(h[i], static_cast<float>(i) * static_cast<float>(i), "out[%d] = %g", i, h[i]);
    cudaFree(out);
    cudaFree(status);
}

/* ---- limits and errors ------------------------------------------------------ */

/* Each grid records its depth and the result of launching the next one. */
__global__ void dive(int *launch_result, int *deepest, int depth)
{
    atomicMax(deepest, depth);
    dive<<<1, 1>>>(launch_result, deepest, depth + 1);
    launch_result[depth] = cudaGetLastError();
}

Test(cdp, nesting_deeper_than_24_fails_the_launch_in_the_launching_thread_only)
{
    int *result = device_alloc<int>(32, 0x7F);
    int *deepest = device_alloc<int>(1, 0);
    dive<<<1, 1>>>(result, deepest, 0);
    expect_launch_ok("dive"); /* the parent is not failed by its thread's launch error */
    std::vector<int> r = copy_back(result, 32);
    cr_assert_eq(copy_back(deepest, 1)[0], 24, "the deepest grid is at depth %d, expected 24",
                 copy_back(deepest, 1)[0]);
    for (int d = 0; d < 24; d++)
        cr_assert_eq(r[d], cudaSuccess, "the launch from depth %d returned %s", d, cudaGetErrorName((cudaError_t)r[d]));
    cr_assert_eq(r[24], cudaErrorLaunchMaxDepthExceeded, "the launch from depth 24 returned %s",
                 cudaGetErrorName((cudaError_t)r[24]));
    cr_assert_eq(r[25], 0x7F7F7F7F, "a grid at depth 25 ran");
    cr_assert_str_eq(cudaGetErrorName(cudaErrorLaunchMaxDepthExceeded), "cudaErrorLaunchMaxDepthExceeded");
    cudaFree(result);
    cudaFree(deepest);
}

__global__ void count_one(int *counter)
{
    atomicAdd(counter, 1);
}

__global__ void launch_per_thread(int *counter, int *results)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    count_one<<<1, 1>>>(counter);
    results[t] = cudaPeekAtLastError();
    if (cudaGetLastError() != results[t] || cudaGetLastError() != cudaSuccess)
        results[t] = -1; /* Get must return what Peek saw, then clear it */
}

static void check_pending_limit(int limit_set, int blocks, int threads)
{
    if (limit_set > 0)
        cr_assert_eq(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit_set), cudaSuccess);
    const int limit = limit_set > 0 ? limit_set : 2048;
    const int total = blocks * threads;
    int *counter = device_alloc<int>(1, 0);
    int *results = device_alloc<int>(total, 0x7F);
    launch_per_thread<<<blocks, threads>>>(counter, results);
    expect_launch_ok("launch_per_thread");
    std::vector<int> r = copy_back(results, total);
    int ok = 0, over = 0;
    for (int k = 0; k < total; k++) {
        cr_assert(r[k] == cudaSuccess || r[k] == cudaErrorLaunchPendingCountExceeded,
                  "thread %d saw %d from its launch", k, r[k]);
        ok += r[k] == cudaSuccess;
        over += r[k] == cudaErrorLaunchPendingCountExceeded;
    }
    cr_assert_eq(ok, limit, "limit %d: %d launches accepted", limit, ok);
    cr_assert_eq(over, total - limit);
    cr_assert_eq(copy_back(counter, 1)[0], limit, "limit %d: %d child grids ran", limit, copy_back(counter, 1)[0]);
    cudaFree(counter);
    cudaFree(results);
}

Test(cdp, pending_launch_limit_set_by_cudaDeviceSetLimit)
{
    check_pending_limit(101, 2, 64);
}

Test(cdp, pending_launch_limit_default_2048)
{
    size_t v = 0;
    cr_assert_eq(cudaDeviceGetLimit(&v, cudaLimitDevRuntimePendingLaunchCount), cudaSuccess);
    cr_assert_eq(v, 2048u);
    check_pending_limit(0, 3, 1024);
}

__global__ void bad_config_launcher(int *result, int *counter)
{
    count_one<<<1, 2048>>>(counter); /* more threads than a block holds */
    result[0] = cudaGetLastError();
    cudaStream_t s;
    result[1] = cudaStreamCreateWithFlags(&s, cudaStreamDefault); /* device streams must be non-blocking */
    result[2] = cudaGetLastError();
}

Test(cdp, a_bad_device_launch_is_the_threads_error_not_the_hosts)
{
    int *result = device_alloc<int>(3, 0x7F);
    int *counter = device_alloc<int>(1, 0);
    bad_config_launcher<<<1, 1>>>(result, counter);
    expect_launch_ok("bad_config_launcher");
    std::vector<int> r = copy_back(result, 3);
    cr_assert_eq(r[0], cudaErrorInvalidValue, "got %d", r[0]);
    cr_assert_eq(r[1], cudaErrorInvalidValue, "got %d", r[1]);
    cr_assert_eq(r[2], cudaErrorInvalidValue, "got %d", r[2]);
    cr_assert_eq(copy_back(counter, 1)[0], 0, "the badly configured child ran");
    cudaFree(result);
    cudaFree(counter);
}

/* A fault three levels down fails the host's launch, naming the child. */
__global__ void faulting_grandchild(int *p)
{
    if (threadIdx.x == 5)
        p[threadIdx.x] = 1; /* p is no memory at all */
}

__global__ void middle(int *p)
{
    faulting_grandchild<<<1, 32>>>(p);
}

__global__ void top(int *p, int *after)
{
    middle<<<1, 1>>>(p);
    count_one<<<1, 1, 0, cudaStreamTailLaunch>>>(after);
}

Test(cdp, a_fault_in_a_grandchild_fails_the_host_launch_and_names_it)
{
    int *p = reinterpret_cast<int *>(64); /* in the first page, which is never mapped */
    int *after = device_alloc<int>(1, 0);
    top<<<1, 1>>>(p, after);
    const cudaError_t e = cudaDeviceSynchronize();
    cr_assert_eq(e, cudaErrorIllegalAddress, "got %s", cudaGetErrorName(e));
    const char *why = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(why, "faulting_grandchild"), "the diagnostic does not name the child: %s", why);
    cr_assert(std::strstr(why, "launched from device code by kernel middle"), "no launcher in: %s", why);
    cr_assert(std::strstr(why, "nesting depth 2"), "no depth in: %s", why);
    cudaDeviceReset();
}

__global__ void trapping_child()
{
    __trap();
}

__global__ void trap_parent()
{
    trapping_child<<<2, 2>>>();
}

Test(cdp, a_trap_in_a_child_is_an_unspecified_launch_failure)
{
    trap_parent<<<1, 1>>>();
    const cudaError_t e = cudaDeviceSynchronize();
    cr_assert_eq(e, cudaErrorLaunchFailure, "got %s", cudaGetErrorName(e));
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "trapping_child"), "%s", simtlab_emu_last_diagnostic());
    cudaDeviceReset();
}

__global__ void waits_for_children(int *counter)
{
    count_one<<<1, 1>>>(counter);
    cudaDeviceSynchronize(); /* not in CDP2: nvcc refuses it */
}

Test(cdp, device_side_cudaDeviceSynchronize_fails_clearly)
{
    int *counter = device_alloc<int>(1, 0);
    waits_for_children<<<1, 1>>>(counter);
    const cudaError_t e = cudaGetLastError();
    cr_assert_eq(e, cudaErrorLaunchFailure, "got %s", cudaGetErrorName(e));
    cr_assert(std::strstr(simtlab_emu_last_diagnostic(), "cudaDeviceSynchronize() called in device code"), "%s",
              simtlab_emu_last_diagnostic());
    cudaDeviceReset();
}

/* A template kernel launched with deduced arguments from device code. */
template <class T>
__global__ void scale(T *x, T by, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= by;
}

__global__ void scale_launcher(double *x, int n)
{
    scale<<<(n + 31) / 32, 32>>>(x, 2.5, n);
}

Test(cdp, template_kernel_with_deduced_arguments_from_device_code)
{
    const int n = 77;
    std::vector<double> h(n);
    for (int i = 0; i < n; i++)
        h[i] = i - 3.25;
    double *x = device_alloc<double>(n);
    cr_assert_eq(cudaMemcpy(x, h.data(), n * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
    scale_launcher<<<1, 1>>>(x, n);
    expect_launch_ok("scale_launcher");
    std::vector<double> got = copy_back(x, n);
    for (int i = 0; i < n; i++)
        cr_assert_eq(got[i], h[i] * 2.5, "x[%d] = %g", i, got[i]);
    cudaFree(x);
}

/* A parent that waits for its child: CUDA does not promise that the child
 * runs meanwhile, and here it never does; the spin limit fails the launch
 * and the message says why. */
__global__ void flag_setter(int *flag)
{
    atomicExch(flag, 1);
}

__global__ void waits_on_child_flag(int *flag)
{
    flag_setter<<<1, 1>>>(flag);
    while (atomicAdd(flag, 0) == 0) {
    }
}

Test(cdp, a_parent_spinning_on_its_child_fails_within_the_spin_limit)
{
    cr_assert_eq(setenv("SIMTLAB_EMU_SPIN_LIMIT_S", "1", 1), 0);
    int *flag = device_alloc<int>(1, 0);
    waits_on_child_flag<<<1, 1>>>(flag);
    const cudaError_t e = cudaDeviceSynchronize();
    cr_assert_eq(e, cudaErrorLaunchFailure, "got %s", cudaGetErrorName(e));
    const char *why = simtlab_emu_last_diagnostic();
    cr_assert(std::strstr(why, "a parent grid cannot wait for its children"), "%s", why);
    cudaDeviceReset();
}
