/* Inline PTX integer instructions (src/tools/rewriter/rewrite_asm.c turns each into a
 * call of simtlab_emu/ptx_ops.hpp): a kernel runs every instruction through
 * asm() on random operands (printed seed); the host recomputes each from the
 * PTX ISA's definition, written out bit by bit here, independently of the
 * emulator's code.
 *
 *   cmake --build build --target test_emu_ptx_ops && build/bin/test_emu_ptx_ops
 */
#include <criterion/criterion.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

enum { N_OPS = 24, N_CASES = 512 };

struct operands {
    unsigned a, b, c, d;
    int sa, sb;
    unsigned long long wa, wb;
};

__global__ void run_ops(const operands *in, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const operands o = in[i];
    unsigned long long *r = out + (size_t)i * N_OPS;
    unsigned u;
    int s;
    unsigned long long w;
    long long sw;
    asm("bfind.u32 %0, %1;" : "=r"(u) : "r"(o.a)); r[0] = u;
    asm("bfind.s32 %0, %1;" : "=r"(u) : "r"(o.sa)); r[1] = u;
    asm("brev.b32 %0, %1;" : "=r"(u) : "r"(o.a)); r[2] = u;
    asm("popc.b64 %0, %1;" : "=r"(u) : "l"(o.wa)); r[3] = u;
    asm("clz.b32 %0, %1;" : "=r"(u) : "r"(o.a)); r[4] = u;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(o.a), "r"(o.b), "r"(o.c)); r[5] = u;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(o.sa), "r"(o.b), "r"(o.c)); r[6] = (unsigned)s;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(o.a), "r"(o.d), "r"(o.b), "r"(o.c)); r[7] = u;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(o.a), "r"(o.d), "r"(o.b)); r[8] = u;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(u) : "r"(o.a), "r"(o.d)); r[9] = u;
    asm("mul.hi.s32 %0, %1, %2;" : "=r"(s) : "r"(o.sa), "r"(o.sb)); r[10] = (unsigned)s;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(o.a), "r"(o.d)); r[11] = w;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(sw) : "r"(o.sa), "r"(o.sb)); r[12] = (unsigned long long)sw;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(o.a), "r"(o.d), "r"(o.b)); r[13] = u;
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(u) : "r"(o.a), "r"(o.b), "r"(o.d)); r[14] = u;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(o.a), "r"(o.b), "r"(o.d), "n"(0xE8)); r[15] = u;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(o.a), "r"(o.d), "r"(o.c)); r[16] = u;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(o.a), "r"(o.d), "r"(o.b)); r[17] = u;
    asm("min.s32 %0, %1, %2;" : "=r"(s) : "r"(o.sa), "r"(o.sb)); r[18] = (unsigned)s;
    asm("max.u32 %0, %1, %2;" : "=r"(u) : "r"(o.a), "r"(o.d)); r[19] = u;
    asm("shl.b32 %0, %1, %2;" : "=r"(u) : "r"(o.a), "r"(o.b)); r[20] = u;
    asm("shr.s32 %0, %1, %2;" : "=r"(s) : "r"(o.sa), "r"(o.b)); r[21] = (unsigned)s;
    asm volatile("bfind.u64 %0, %1;" : "=r"(u) : "l"(o.wb)); r[22] = u;
    asm("mul.hi.u64 %0, %1, %2;" : "=l"(w) : "l"(o.wa), "l"(o.wb)); r[23] = w;
}

/* ---- the ISA's definitions, bit by bit ---------------------------------- */
static unsigned bit(unsigned long long x, unsigned i) { return (unsigned)((x >> i) & 1); }

static unsigned ref_bfind(unsigned long long a, unsigned width, bool is_signed)
{
    if (is_signed && bit(a, width - 1)) /* negative: the highest 0 */
        a = ~a & (width == 64 ? ~0ULL : ((1ULL << width) - 1));
    for (int i = (int)width - 1; i >= 0; i--)
        if (bit(a, (unsigned)i))
            return (unsigned)i;
    return 0xffffffffu;
}

static unsigned ref_bfe32(unsigned a, unsigned b, unsigned c, bool is_signed)
{
    unsigned pos = b & 0xff, len = c & 0xff, top = pos + len - 1 < 31 ? pos + len - 1 : 31;
    unsigned sbit = (!is_signed || len == 0) ? 0 : bit(a, top);
    unsigned d = 0;
    for (unsigned i = 0; i < 32; i++)
        d |= ((i < len && pos + i <= 31) ? bit(a, pos + i) : sbit) << i;
    return d;
}

static unsigned ref_prmt(unsigned a, unsigned b, unsigned c)
{
    unsigned char bytes[8];
    for (int k = 0; k < 4; k++)
        bytes[k] = (unsigned char)(a >> (8 * k)), bytes[k + 4] = (unsigned char)(b >> (8 * k));
    unsigned d = 0;
    for (int n = 0; n < 4; n++) {
        unsigned sel = (c >> (4 * n)) & 15, v = bytes[sel & 7];
        if (sel & 8)
            v = (v & 0x80) ? 0xff : 0;
        d |= v << (8 * n);
    }
    return d;
}

static unsigned ref_lop3(unsigned a, unsigned b, unsigned c, unsigned lut)
{
    unsigned d = 0;
    for (unsigned i = 0; i < 32; i++)
        d |= bit(lut, bit(a, i) * 4 + bit(b, i) * 2 + bit(c, i)) << i;
    return d;
}

static void expected(const operands &o, unsigned long long *e)
{
    e[0] = ref_bfind(o.a, 32, false);
    e[1] = ref_bfind((unsigned)o.sa, 32, true);
    unsigned rv = 0;
    for (unsigned i = 0; i < 32; i++)
        rv |= bit(o.a, i) << (31 - i);
    e[2] = rv;
    unsigned pc = 0;
    for (unsigned i = 0; i < 64; i++)
        pc += bit(o.wa, i);
    e[3] = pc;
    unsigned lz = 0;
    while (lz < 32 && !bit(o.a, 31 - lz))
        lz++;
    e[4] = lz;
    e[5] = ref_bfe32(o.a, o.b, o.c, false);
    e[6] = ref_bfe32((unsigned)o.sa, o.b, o.c, true);
    unsigned f = o.d, pos = o.b & 0xff, len = o.c & 0xff;
    for (unsigned i = 0; i < len && pos + i <= 31; i++)
        f = (f & ~(1u << (pos + i))) | (bit(o.a, i) << (pos + i));
    e[7] = f;
    e[8] = ref_prmt(o.a, o.d, o.b);
    e[9] = (unsigned)(((unsigned long long)o.a * o.d) >> 32);
    e[10] = (unsigned)(int)(((long long)o.sa * o.sb) >> 32);
    e[11] = (unsigned long long)o.a * o.d;
    e[12] = (unsigned long long)((long long)o.sa * o.sb);
    e[13] = (unsigned)(o.a * o.d + o.b);
    e[14] = o.a ^ o.b ^ o.d; /* 0x96: odd parity of the three */
    e[15] = ref_lop3(o.a, o.b, o.d, 0xE8); /* 0xE8: the majority of the three */
    unsigned long long fun = ((unsigned long long)o.d << 32) | o.a;
    e[16] = (unsigned)((fun << (o.c & 31)) >> 32);
    e[17] = (unsigned)(fun >> (o.b < 32 ? o.b : 32));
    e[18] = (unsigned)(o.sa < o.sb ? o.sa : o.sb);
    e[19] = o.a > o.d ? o.a : o.d;
    e[20] = o.b >= 32 ? 0u : o.a << o.b;
    e[21] = (unsigned)(o.b >= 32 ? (o.sa < 0 ? -1 : 0) : (o.sa >> o.b));
    e[22] = ref_bfind(o.wb, 64, false);
    e[23] = (unsigned long long)(((unsigned __int128)o.wa * o.wb) >> 64);
}

Test(ptx_ops, integer_instructions_match_the_isa_definitions)
{
    const unsigned seed = (unsigned)time(NULL);
    std::mt19937_64 rng(seed);
    std::vector<operands> in(N_CASES);
    for (size_t i = 0; i < in.size(); i++) {
        operands &o = in[i];
        o.a = (unsigned)rng(), o.d = (unsigned)rng();
        o.b = (unsigned)(rng() % 40), o.c = (unsigned)(rng() % 40); /* positions and lengths past 32 too */
        if (i % 7 == 0)
            o.b = (unsigned)rng(); /* only the low 8 bits count */
        o.sa = (int)rng(), o.sb = (int)rng();
        o.wa = rng(), o.wb = rng() >> (rng() % 64);
        if (i < 4) /* zero and all-ones corners */
            o.a = o.wb = i % 2 ? ~0u : 0, o.sa = i % 2 ? -1 : 0;
    }
    operands *din;
    unsigned long long *dout;
    cr_assert_eq(cudaMalloc(&din, in.size() * sizeof(operands)), cudaSuccess);
    cr_assert_eq(cudaMalloc(&dout, in.size() * N_OPS * sizeof(unsigned long long)), cudaSuccess);
    cudaMemcpy(din, in.data(), in.size() * sizeof(operands), cudaMemcpyHostToDevice);
    cudaMemset(dout, 0xAB, in.size() * N_OPS * sizeof(unsigned long long)); /* poisoned */
    run_ops<<<(N_CASES + 127) / 128, 128>>>(din, dout, N_CASES);
    cr_assert_eq(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned long long> got(in.size() * N_OPS);
    cudaMemcpy(got.data(), dout, got.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    cudaFree(din);
    cudaFree(dout);
    static const char *const names[N_OPS] = {
        "bfind.u32", "bfind.s32", "brev.b32", "popc.b64", "clz.b32", "bfe.u32", "bfe.s32", "bfi.b32",
        "prmt.b32", "mul.hi.u32", "mul.hi.s32", "mul.wide.u32", "mul.wide.s32", "mad.lo.u32", "lop3 0x96",
        "lop3 0xE8", "shf.l.wrap", "shf.r.clamp", "min.s32", "max.u32", "shl.b32", "shr.s32", "bfind.u64",
        "mul.hi.u64"};
    int bad = 0;
    for (size_t i = 0; i < in.size(); i++) {
        unsigned long long e[N_OPS];
        expected(in[i], e);
        for (int k = 0; k < N_OPS; k++)
            if (got[i * N_OPS + k] != e[k] && bad++ < 8)
                cr_expect(false, "%s case %zu (a %#x b %u c %u d %#x sa %d sb %d): got %#llx want %#llx (seed %u)",
                          names[k], i, in[i].a, in[i].b, in[i].c, in[i].d, in[i].sa, in[i].sb,
                          got[i * N_OPS + k], e[k], seed);
    }
    cr_assert_eq(bad, 0, "%d wrong results (seed %u)", bad, seed);
}
