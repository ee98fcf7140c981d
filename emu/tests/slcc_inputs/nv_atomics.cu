/* CUDA 12.8's atomic built-ins (__nv_atomic_*), which code selects where
 * __CUDACC_DEVICE_ATOMIC_BUILTINS__ is defined: every one of them, with
 * every memory order and scope constant, in a grid of 4 blocks of 64
 * threads; each result is checked on the host against what the operation
 * must give whatever the order the threads ran in (totals, extremes, and
 * that the old values returned are each seen once). */
#include <cstdio>
#include <cstring>

#ifndef __CUDACC_DEVICE_ATOMIC_BUILTINS__
#error "__CUDACC_DEVICE_ATOMIC_BUILTINS__ is not defined"
#endif

constexpr int kBlocks = 4, kThreads = 64, kN = kBlocks * kThreads;

struct Pair {
    int a, b;
};
struct Wide { /* 16 bytes: the generic forms take any such type (sm_90 on a GPU) */
    long long lo, hi;
};

struct Results {
    int counter;             /* fetch_add: each thread adds 1 */
    int add_old[kN];         /* the old values fetch_add returned */
    unsigned down;           /* fetch_sub from kN */
    unsigned sub_old[kN];
    float fsum;              /* add (void) of 0.5f */
    double dsum;             /* fetch_add of 0.25 */
    unsigned long long usum; /* fetch_add of the thread's index, from a literal 1 as the value */
    unsigned long long sub_void; /* sub (void) */
    unsigned bits_or;        /* or: each thread sets its bit of 32 */
    unsigned long long bits_and; /* and: each thread clears one bit */
    unsigned xor_twice;      /* xor: each thread toggles twice */
    unsigned xor_once;       /* xor: each thread toggles once */
    unsigned bits_or_void, bits_and_void, bits_xor_void;
    int imin, imax;          /* fetch_min / fetch_max over signed values */
    long long llmin, llmax;  /* min / max (void) on long long */
    unsigned umin, umax;
    int slot;                /* exchange_n: a ring */
    int exch_old[kN];
    Pair pair;               /* exchange (generic) */
    Pair pair_old[kN];
    int cas_counter;         /* compare_exchange_n increments in a loop */
    Pair cas_pair;           /* compare_exchange (generic) */
    Wide wide;               /* compare_exchange on 16 bytes */
    Wide wide_x;             /* exchange on 16 bytes */
    int wide_seen[kN];
    int data[kBlocks];       /* store, then store_n of a flag with release; load_n with acquire */
    int flag[kBlocks];
    int got[kN];
    Pair shown;              /* store / load (generic) */
    Wide wide_shown;
    Pair loaded[kN];
    Wide wide_loaded[kN];
    unsigned char byte;      /* load_n / store_n on one byte */
    short half_word;         /* compare_exchange_n on two bytes */
};

__global__ void all_builtins(Results *r)
{
    const int me = blockIdx.x * blockDim.x + threadIdx.x;
    r->add_old[me] = __nv_atomic_fetch_add(&r->counter, 1, __NV_ATOMIC_RELAXED);
    r->sub_old[me] = __nv_atomic_fetch_sub(&r->down, 1u, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE);
    __nv_atomic_add(&r->fsum, 0.5f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
    (void)__nv_atomic_fetch_add(&r->dsum, 0.25, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
    __nv_atomic_fetch_add(&r->usum, (unsigned long long)me, __NV_ATOMIC_RELEASE);
    __nv_atomic_fetch_add(&r->usum, 1, __NV_ATOMIC_RELAXED); /* an int literal for an unsigned long long */
    __nv_atomic_sub(&r->sub_void, 2ull, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER);
    __nv_atomic_fetch_or(&r->bits_or, 1u << (me % 32), __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_and(&r->bits_and, ~(1ull << (me % 64)), __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_xor(&r->xor_twice, 0x5A5Au, __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_xor(&r->xor_twice, 0x5A5Au, __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_xor(&r->xor_once, 1u << (me % 8), __NV_ATOMIC_RELAXED);
    __nv_atomic_or(&r->bits_or_void, 1u << (me % 16), __NV_ATOMIC_RELAXED);
    __nv_atomic_and(&r->bits_and_void, ~(1u << (me % 16)), __NV_ATOMIC_RELAXED);
    __nv_atomic_xor(&r->bits_xor_void, 1u, __NV_ATOMIC_RELAXED);
    const int signed_value = (me * 37) % 101 - 50;
    __nv_atomic_fetch_min(&r->imin, signed_value, __NV_ATOMIC_RELAXED);
    __nv_atomic_fetch_max(&r->imax, signed_value, __NV_ATOMIC_RELAXED);
    __nv_atomic_min(&r->llmin, (long long)signed_value * 1000000000ll, __NV_ATOMIC_RELAXED);
    __nv_atomic_max(&r->llmax, (long long)signed_value * 1000000000ll, __NV_ATOMIC_RELAXED);
    __nv_atomic_min(&r->umin, (unsigned)(me + 5), __NV_ATOMIC_RELAXED);
    __nv_atomic_max(&r->umax, (unsigned)(me + 5), __NV_ATOMIC_RELAXED);
    r->exch_old[me] = __nv_atomic_exchange_n(&r->slot, me, __NV_ATOMIC_ACQ_REL);
    Pair mine = {me, -me}, old;
    __nv_atomic_exchange(&r->pair, &mine, &old, __NV_ATOMIC_SEQ_CST);
    r->pair_old[me] = old;
    /* compare-exchange loops: expected is refreshed on failure */
    int expected = __nv_atomic_load_n(&r->cas_counter, __NV_ATOMIC_RELAXED);
    while (!__nv_atomic_compare_exchange_n(&r->cas_counter, &expected, expected + 1, false, __NV_ATOMIC_ACQ_REL,
                                           __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE)) {
    }
    Pair seen;
    __nv_atomic_load(&r->cas_pair, &seen, __NV_ATOMIC_ACQUIRE);
    for (;;) {
        Pair next = {seen.a + 1, seen.b + 2};
        if (__nv_atomic_compare_exchange(&r->cas_pair, &seen, &next, true, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED))
            break;
    }
    Wide w;
    __nv_atomic_load(&r->wide, &w, __NV_ATOMIC_RELAXED);
    for (;;) {
        Wide next = {w.lo + 1, w.hi + (1ll << 40)};
        if (__nv_atomic_compare_exchange(&r->wide, &w, &next, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_SEQ_CST))
            break;
    }
    Wide put = {me, -(long long)me}, back;
    __nv_atomic_exchange(&r->wide_x, &put, &back, __NV_ATOMIC_RELAXED);
    r->wide_seen[me] = (int)back.lo;
    /* publication: thread 0 of each block writes, the others wait for the flag */
    if (threadIdx.x == 0) {
        __nv_atomic_store_n(&r->data[blockIdx.x], 1000 + (int)blockIdx.x, __NV_ATOMIC_RELAXED);
        __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
        __nv_atomic_store_n(&r->flag[blockIdx.x], 1, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
    }
    while (__nv_atomic_load_n(&r->flag[blockIdx.x], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK) == 0) {
    }
    __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE);
    r->got[me] = __nv_atomic_load_n(&r->data[blockIdx.x], __NV_ATOMIC_CONSUME);
    if (me == 0) {
        Pair shown = {7, 8};
        __nv_atomic_store(&r->shown, &shown, __NV_ATOMIC_RELEASE);
        Wide wide_shown = {9, 10};
        __nv_atomic_store(&r->wide_shown, &wide_shown, __NV_ATOMIC_SEQ_CST);
        __nv_atomic_store_n(&r->byte, (unsigned char)200, __NV_ATOMIC_RELAXED);
        short e = 0;
        __nv_atomic_compare_exchange_n(&r->half_word, &e, (short)-3, false, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED);
    }
    __syncthreads();
    if (blockIdx.x == 0) {
        __nv_atomic_load(&r->shown, &r->loaded[threadIdx.x], __NV_ATOMIC_ACQUIRE);
        __nv_atomic_load(&r->wide_shown, &r->wide_loaded[threadIdx.x], __NV_ATOMIC_RELAXED);
    }
}

/* Each of 0 .. kN-1 seen exactly once among v[0 .. kN-1] (minus `base`). */
template <class T>
static bool each_once(const T *v, long long base)
{
    int seen[kN] = {0};
    for (int i = 0; i < kN; i++) {
        long long k = (long long)v[i] - base;
        if (k < 0 || k >= kN || seen[k]++)
            return false;
    }
    return true;
}

int main()
{
    Results *r;
    if (cudaMallocManaged(&r, sizeof *r) != cudaSuccess)
        return 1;
    memset(r, 0, sizeof *r);
    r->down = kN;
    r->sub_void = 10000;
    r->bits_and = ~0ull;
    r->xor_twice = 0x1234u;
    r->bits_and_void = 0xFFFFFFFFu;
    r->imin = 1000;
    r->imax = -1000;
    r->umin = ~0u;
    r->slot = -1;
    r->pair = {-1, 1};
    all_builtins<<<kBlocks, kThreads>>>(r);
    const cudaError_t err = cudaDeviceSynchronize();

    /* the host's reference */
    int ref_min = 1000, ref_max = -1000;
    unsigned long long ref_usum = 0;
    unsigned ref_xor_once = 0;
    for (int me = 0; me < kN; me++) {
        const int v = (me * 37) % 101 - 50;
        ref_min = v < ref_min ? v : ref_min;
        ref_max = v > ref_max ? v : ref_max;
        ref_usum += (unsigned long long)me + 1u;
        ref_xor_once ^= 1u << (me % 8);
    }
    /* the ring of exchanges: the olds and the last value are each thread once, plus the initial -1 */
    int ring[kN + 1];
    for (int i = 0; i < kN; i++)
        ring[i] = r->exch_old[i];
    ring[kN] = r->slot;
    int ring_seen[kN + 1] = {0}, ring_ok = 1;
    for (int i = 0; i <= kN; i++)
        ring_ok &= ring[i] >= -1 && ring[i] < kN && ring_seen[ring[i] + 1]++ == 0;
    int pairs_ok = r->pair.b == -r->pair.a, wide_ok = 1, got_ok = 1, loaded_ok = 1;
    for (int i = 0; i < kN; i++) {
        pairs_ok &= r->pair_old[i].b == -r->pair_old[i].a || (r->pair_old[i].a == -1 && r->pair_old[i].b == 1);
        got_ok &= r->got[i] == 1000 + i / kThreads;
        wide_ok &= r->wide_seen[i] >= 0 && r->wide_seen[i] < kN;
    }
    for (int i = 0; i < kThreads; i++)
        loaded_ok &= r->loaded[i].a == 7 && r->loaded[i].b == 8 && r->wide_loaded[i].lo == 9 && r->wide_loaded[i].hi == 10;

    struct {
        const char *what;
        bool ok;
    } checks[] = {
        {"fetch_add total", r->counter == kN},
        {"fetch_add olds each once", each_once(r->add_old, 0)},
        {"fetch_sub total", r->down == 0},
        {"fetch_sub olds each once", each_once(r->sub_old, 1)},
        {"add (float)", r->fsum == 0.5f * kN},
        {"fetch_add (double)", r->dsum == 0.25 * kN},
        {"fetch_add (unsigned long long)", r->usum == ref_usum},
        {"sub (void)", r->sub_void == 10000ull - 2ull * kN},
        {"fetch_or", r->bits_or == 0xFFFFFFFFu},
        {"fetch_and", r->bits_and == 0ull},
        {"fetch_xor twice", r->xor_twice == 0x1234u},
        {"fetch_xor once", r->xor_once == ref_xor_once},
        {"or (void)", r->bits_or_void == 0xFFFFu},
        {"and (void)", r->bits_and_void == 0xFFFF0000u},
        {"xor (void)", r->bits_xor_void == (kN % 2 ? 1u : 0u)},
        {"fetch_min (int)", r->imin == ref_min},
        {"fetch_max (int)", r->imax == ref_max},
        {"min (long long)", r->llmin == (long long)ref_min * 1000000000ll},
        {"max (long long)", r->llmax == (long long)ref_max * 1000000000ll},
        {"min / max (unsigned)", r->umin == 5u && r->umax == (unsigned)(kN - 1 + 5)},
        {"exchange_n ring", ring_ok == 1},
        {"exchange (generic) whole pairs", pairs_ok == 1},
        {"compare_exchange_n loop", r->cas_counter == kN},
        {"compare_exchange (generic) loop", r->cas_pair.a == kN && r->cas_pair.b == 2 * kN},
        {"compare_exchange on 16 bytes", r->wide.lo == kN && r->wide.hi == (long long)kN << 40},
        {"exchange on 16 bytes", wide_ok == 1},
        {"store_n / load_n publication", got_ok == 1},
        {"store / load (generic, 8 and 16 bytes)", loaded_ok == 1},
        {"store_n (1 byte)", r->byte == 200},
        {"compare_exchange_n (2 bytes)", r->half_word == -3},
    };
    int failed = err != cudaSuccess;
    if (err != cudaSuccess)
        printf("FAIL launch: %s\n", cudaGetErrorString(err));
    for (const auto &c : checks)
        if (!c.ok) {
            printf("FAIL %s\n", c.what);
            failed++;
        }
    printf("nv_atomics: %d of %d checks failed\n", failed, (int)(sizeof checks / sizeof checks[0]) + 1);
    cudaFree(r);
    return failed != 0;
}
