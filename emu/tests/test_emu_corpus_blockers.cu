/* Tests of the next things real programs needed (emu/docs/compatibility.md, "Programs
 * tried"): atomicAdd on half and bfloat16 types (llm.c layernorm_backward),
 * <cuda.h> for its types (cuda-samples' tensor-core GEMMs), stream-ordered
 * allocation and the default memory pool (streamOrderedAllocation), stream
 * attributes and the persisting L2 calls (simpleAttributes).
 *
 *   build/bin/test_emu_corpus_blockers --verbose
 */
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <criterion/criterion.h>

#include <cstring>
#include <type_traits>

/* ---- atomicAdd on 16-bit float types ------------------------------------ */

/* Every thread adds 1 to a counter that starts at 0: 256 adds are exact in
 * half and bfloat16 (integers up to 256 are representable in both). */
__global__ void add_ones_half(__half *one, __half2 *pair)
{
    atomicAdd(one, __float2half(1.0f));
    atomicAdd(pair, __halves2half2(__float2half(1.0f), __float2half(2.0f)));
}

__global__ void add_ones_bf16(__nv_bfloat16 *one, __nv_bfloat162 *pair)
{
    atomicAdd(one, __float2bfloat16(1.0f));
    atomicAdd(pair, __halves2bfloat162(__float2bfloat16(1.0f), __float2bfloat16(0.5f)));
}

Test(half_atomics, every_add_of_many_threads_lands_in_half_and_half2)
{
    __half *one = nullptr;
    __half2 *pair = nullptr;
    cr_assert_eq(cudaMallocManaged(&one, sizeof *one), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&pair, sizeof *pair), cudaSuccess);
    *one = __float2half(0.0f);
    *pair = __halves2half2(__float2half(0.0f), __float2half(0.0f));
    add_ones_half<<<4, 64>>>(one, pair);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_expect_eq(__half2float(*one), 256.0f);
    cr_expect_eq(__half2float(pair->x), 256.0f);
    cr_expect_eq(__half2float(pair->y), 512.0f);
    cudaFree(one);
    cudaFree(pair);
}

Test(half_atomics, every_add_of_many_threads_lands_in_bfloat16_and_its_pair)
{
    __nv_bfloat16 *one = nullptr;
    __nv_bfloat162 *pair = nullptr;
    cr_assert_eq(cudaMallocManaged(&one, sizeof *one), cudaSuccess);
    cr_assert_eq(cudaMallocManaged(&pair, sizeof *pair), cudaSuccess);
    *one = __float2bfloat16(0.0f);
    *pair = __halves2bfloat162(__float2bfloat16(0.0f), __float2bfloat16(0.0f));
    add_ones_bf16<<<4, 64>>>(one, pair);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    cr_expect_eq(__bfloat162float(*one), 256.0f);
    cr_expect_eq(__bfloat162float(pair->x), 256.0f);
    cr_expect_eq(__bfloat162float(pair->y), 128.0f);
    cudaFree(one);
    cudaFree(pair);
}

Test(half_atomics, the_old_value_comes_back_and_each_add_is_rounded_once)
{
    __half h = __float2half(2048.0f); /* half's spacing at 2048 is 2 */
    __half old = atomicAdd(&h, __float2half(1.0f));
    cr_expect_eq(__half2float(old), 2048.0f);
    cr_expect_eq(__half2float(h), 2048.0f, "2048 + 1 rounds to even: 2048, got %g", __half2float(h));
    __nv_bfloat16 b = __float2bfloat16(1.0f);
    __nv_bfloat16 bold = atomicAdd(&b, __float2bfloat16(1.0f));
    cr_expect_eq(__bfloat162float(bold), 1.0f);
    cr_expect_eq(__bfloat162float(b), 2.0f);
}

/* ---- <cuda.h>: the driver API's types ---------------------------------- */

Test(cuda_h, gives_the_version_and_the_types_runtime_programs_name)
{
    cr_expect_eq(CUDA_VERSION, 13000);
    cr_expect_eq(CUDA_VERSION, CUDART_VERSION);
    CUresult r = CUDA_SUCCESS;
    cr_expect_eq(static_cast<int>(r), 0);
    cr_expect_eq(static_cast<int>(CUDA_ERROR_INVALID_VALUE), static_cast<int>(cudaErrorInvalidValue));
    CUdevice dev = 0;
    cr_expect_eq(dev, 0);
    cr_expect((std::is_same<CUstream, cudaStream_t>::value), "CUstream is cudaStream_t, as in the toolkit");
    cr_expect((std::is_same<CUevent, cudaEvent_t>::value));
}

/* ---- stream-ordered allocation ----------------------------------------- */

__global__ void fill_index(int *out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * i;
}

Test(mem_pool, malloc_async_memory_is_usable_in_stream_order_and_counted)
{
    int supported = 0;
    cr_assert_eq(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0), cudaSuccess);
    cr_expect_eq(supported, 1);

    cudaMemPool_t pool = nullptr;
    cr_assert_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    cr_assert_not_null(pool);
    cudaMemPool_t current = nullptr;
    cr_assert_eq(cudaDeviceGetMemPool(&current, 0), cudaSuccess);
    cr_expect_eq(current, pool);
    unsigned long long threshold = ~0ull;
    cr_assert_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), cudaSuccess);
    unsigned long long read_back = 0;
    cr_assert_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back), cudaSuccess);
    cr_expect_eq(read_back, threshold);

    cudaStream_t s;
    cr_assert_eq(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    unsigned long long used_before = 0, used = 0, high = 0;
    cr_assert_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_before), cudaSuccess);
    const int n = 1000;
    int *d = nullptr;
    cr_assert_eq(cudaMallocAsync(&d, n * sizeof(int), s), cudaSuccess); /* the typed C++ form */
    cr_assert_not_null(d);
    cr_assert_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    cr_expect_eq(used - used_before, n * sizeof(int));
    fill_index<<<(n + 127) / 128, 128, 0, s>>>(d, n);
    int h[n];
    cr_assert_eq(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s), cudaSuccess);
    cr_assert_eq(cudaFreeAsync(d, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < n; i++)
        cr_expect_eq(h[i], 3 * i);
    cr_assert_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess);
    cr_expect_eq(used, used_before);
    cr_assert_eq(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), cudaSuccess);
    cr_expect_geq(high, used_before + n * sizeof(int));

    void *q = nullptr;
    cr_assert_eq(cudaMallocFromPoolAsync(&q, 64, pool, s), cudaSuccess);
    cr_assert_eq(cudaFreeAsync(q, s), cudaSuccess);
    cr_expect_eq(cudaMemPoolTrimTo(pool, 0), cudaSuccess);
    cr_assert_eq(cudaStreamDestroy(s), cudaSuccess);
}

Test(mem_pool, what_is_not_a_pool_or_not_settable_is_refused)
{
    cudaMemPool_t pool = nullptr;
    cr_assert_eq(cudaDeviceGetDefaultMemPool(&pool, 0), cudaSuccess);
    cr_expect_eq(cudaDeviceGetDefaultMemPool(&pool, 1), cudaErrorInvalidDevice);
    unsigned long long v = 5;
    cr_expect_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v), cudaErrorInvalidValue);
    cr_expect_eq(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &v), cudaErrorInvalidValue);
    int not_a_pool;
    cr_expect_eq(cudaMemPoolTrimTo(reinterpret_cast<cudaMemPool_t>(&not_a_pool), 0), cudaErrorInvalidValue);
    cudaGetLastError();
}

/* ---- stream attributes and persisting L2 -------------------------------- */

Test(stream_attributes, an_access_policy_window_is_recorded_and_read_back)
{
    cudaDeviceProp p;
    cr_assert_eq(cudaGetDeviceProperties(&p, 0), cudaSuccess);
    cr_assert_gt(p.persistingL2CacheMaxSize, 0, "sm_80 has a persisting L2 set-aside");
    cr_assert_gt(p.accessPolicyMaxWindowSize, 0);
    cr_assert_eq(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, p.persistingL2CacheMaxSize), cudaSuccess);
    size_t limit = 0;
    cr_assert_eq(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize), cudaSuccess);
    cr_expect_eq(limit, static_cast<size_t>(p.persistingL2CacheMaxSize));
    cr_assert_eq(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, ~static_cast<size_t>(0)), cudaSuccess);
    cr_assert_eq(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize), cudaSuccess);
    cr_expect_eq(limit, static_cast<size_t>(p.persistingL2CacheMaxSize), "capped at what the device sets aside");

    cudaStream_t s;
    cr_assert_eq(cudaStreamCreate(&s), cudaSuccess);
    int *d = nullptr;
    cr_assert_eq(cudaMalloc(&d, 4096), cudaSuccess);
    cudaStreamAttrValue v;
    std::memset(&v, 0, sizeof v);
    v.accessPolicyWindow.base_ptr = d;
    v.accessPolicyWindow.num_bytes = 4096;
    v.accessPolicyWindow.hitRatio = 0.5f;
    v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cr_assert_eq(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), cudaSuccess);
    cr_assert_eq(cudaCtxResetPersistingL2Cache(), cudaSuccess);
    cudaStreamAttrValue back;
    std::memset(&back, 0xAB, sizeof back);
    cr_assert_eq(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &back), cudaSuccess);
    cr_expect_eq(back.accessPolicyWindow.base_ptr, static_cast<void *>(d));
    cr_expect_eq(back.accessPolicyWindow.num_bytes, 4096u);
    cr_expect_eq(back.accessPolicyWindow.hitRatio, 0.5f);
    cr_expect_eq(back.accessPolicyWindow.hitProp, cudaAccessPropertyPersisting);
    cr_expect_eq(back.accessPolicyWindow.missProp, cudaAccessPropertyStreaming);

    /* A kernel on the stream runs as without the window. */
    fill_index<<<1, 32, 0, s>>>(d, 32);
    int h[32];
    cr_assert_eq(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s), cudaSuccess);
    cr_assert_eq(cudaStreamSynchronize(s), cudaSuccess);
    for (int i = 0; i < 32; i++)
        cr_expect_eq(h[i], 3 * i);

    /* Checked: a hit ratio above 1 and a persisting miss are refused. */
    v.accessPolicyWindow.hitRatio = 1.5f;
    cr_expect_eq(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), cudaErrorInvalidValue);
    v.accessPolicyWindow.hitRatio = 1.0f;
    v.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
    cr_expect_eq(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), cudaErrorInvalidValue);
    cr_expect_eq(cudaStreamSetAttribute(s, cudaLaunchAttributeCooperative, &v), cudaErrorInvalidValue);
    cudaGetLastError();

    cr_assert_eq(cudaFree(d), cudaSuccess);
    cr_assert_eq(cudaStreamDestroy(s), cudaSuccess);
}

/* ---- the stream argument defaults to 0 in C++ (UnifiedMemoryPerf) ------- */

Test(default_stream_argument, async_copies_and_sets_without_a_stream_use_stream_0)
{
    int *d = nullptr;
    cr_assert_eq(cudaMallocManaged(&d, 64 * sizeof(int)), cudaSuccess);
    int h[64];
    for (int i = 0; i < 64; i++)
        h[i] = i;
    cr_assert_eq(cudaMemsetAsync(d, 0, 64 * sizeof(int)), cudaSuccess);
    cr_assert_eq(cudaMemcpyAsync(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    cudaMemLocation host = {};
    host.type = cudaMemLocationTypeHost;
    cr_assert_eq(cudaMemPrefetchAsync(d, 64 * sizeof(int), host, 0), cudaSuccess);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 64; i++)
        cr_expect_eq(d[i], i < 32 ? i : 0);
    cudaFree(d);
}
