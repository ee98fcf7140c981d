/* simtlab CPU emulator — the tensor-core arithmetic: mma.sync m16n8k16
 * (<simtlab_emu/ptx.hpp>) and the WMMA API of <mma.h>. The data movement,
 * ldmatrix and cp.async, is tensor_copy.cpp.
 *
 * The warp operations gather every lane's registers through
 * warp_collective, rebuild the whole matrices, compute on the CPU and
 * scatter the results back, so that a warp whose lanes do not all arrive is
 * diagnosed by the engine exactly as for shuffles.
 *
 * Arithmetic: a product of two f16 (11-bit significands) or two bf16 (8-bit)
 * values is exact in float (24 bits), so D = A*B + C is computed as
 * d = c; for k = 0..15: d += a[k] * b[k], in float, one rounding per
 * addition. Tensor cores accumulate with their own internal order and
 * precision (not documented by NVIDIA), so GPU results may differ from these
 * in the last bits; tests compare both against a double reference with a
 * tolerance, never against each other bit for bit.
 */
#include <mma.h>

#include "engine/internal.hpp"
#include "engine/tensor.hpp"
#include "profile/internal.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace simtlab_emu {

using namespace tensor;

namespace {

/* ---- 16-bit floating-point formats (IEEE 754 binary16, bfloat16) ------- */

float f16_bits_to_float(std::uint16_t h)
{
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0) { /* zero or subnormal: mantissa * 2^-24, exact in float */
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1f) /* infinity, or NaN (its payload kept) */
        bits = sign | 0x7f800000u | (mantissa << 13);
    else /* rebias the exponent from 15 to 127 */
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

/* bfloat16 is the upper half of a float's bit pattern. */
float bf16_bits_to_float(std::uint16_t h)
{
    const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float bits_to_float(std::uint16_t h, bool bf16)
{
    return bf16 ? bf16_bits_to_float(h) : f16_bits_to_float(h);
}

/* Low half = the element with the lower index (PTX ISA: "Elements (low to
 * high)"). */
std::uint16_t half_of(unsigned reg, unsigned which)
{
    return static_cast<std::uint16_t>(which ? reg >> 16 : reg & 0xffffu);
}

/* ======================================================================
 * mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32
 *
 * Fragment layouts from PTX ISA section 9.7.14.5.8, "Matrix Fragments for
 * mma.m16n8k16 with floating point type", with groupID = lane >> 2 and
 * threadID_in_group = lane % 4:
 *   A (16x16, .row), a0..a7 in registers a[0..3], two per register:
 *     row = groupID for ai with 0 <= i < 2 || 4 <= i < 6, else groupID + 8
 *     col = threadID_in_group * 2 + (i & 1), + 8 for i >= 4
 *   B (16x8, .col), b0..b3 in b[0..1]:
 *     row = threadID_in_group * 2 + (i & 1), + 8 for i >= 2;  col = groupID
 *   C, D (16x8 f32), c0..c3:
 *     row = groupID for i < 2, else groupID + 8
 *     col = threadID_in_group * 2 + (i & 1)
 * ====================================================================== */

struct mma_lane {
    unsigned a[4];
    unsigned b[2];
    float c[4];
    float d[4];
};

unsigned a_row(unsigned lane, unsigned i) { return (lane >> 2) + ((i == 2 || i == 3 || i >= 6) ? 8 : 0); }
unsigned a_col(unsigned lane, unsigned i) { return (lane % 4) * 2 + (i & 1) + (i >= 4 ? 8 : 0); }
unsigned b_row(unsigned lane, unsigned i) { return (lane % 4) * 2 + (i & 1) + (i >= 2 ? 8 : 0); }
unsigned b_col(unsigned lane) { return lane >> 2; }
unsigned cd_row(unsigned lane, unsigned i) { return (lane >> 2) + (i >= 2 ? 8 : 0); }
unsigned cd_col(unsigned lane, unsigned i) { return (lane % 4) * 2 + (i & 1); }

void mma_m16n8k16_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const bool bf16 = *static_cast<const mma_input_type *>(ctx) == mma_input_bf16;
    float a[16][16], b[16][8], acc[16][8];
    for (unsigned lane = 0; lane < 32; ++lane) {
        const mma_lane &l = *static_cast<const mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < 8; ++i)
            a[a_row(lane, i)][a_col(lane, i)] = bits_to_float(half_of(l.a[i / 2], i & 1), bf16);
        for (unsigned i = 0; i < 4; ++i)
            b[b_row(lane, i)][b_col(lane)] = bits_to_float(half_of(l.b[i / 2], i & 1), bf16);
        for (unsigned i = 0; i < 4; ++i)
            acc[cd_row(lane, i)][cd_col(lane, i)] = l.c[i];
    }
    for (unsigned m = 0; m < 16; ++m)
        for (unsigned n = 0; n < 8; ++n)
            for (unsigned k = 0; k < 16; ++k)
                acc[m][n] += a[m][k] * b[k][n]; /* the product is exact */
    for (unsigned lane = 0; lane < 32; ++lane) {
        mma_lane &l = *static_cast<mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < 4; ++i)
            l.d[i] = acc[cd_row(lane, i)][cd_col(lane, i)];
    }
}

/* ======================================================================
 * WMMA (see <mma.h> for the emulator's fragment layout)
 *
 * Lane L, element i <-> flat index L * E + i of the rows x cols tile in
 * row-major order, E = rows * cols / 32. So the whole tile, row-major, is the
 * 32 lanes' fragments one after another: a load or store moves each lane's
 * run as one piece (every offered shape has E dividing cols, so a run lies
 * in one row), and the multiply reads the fragments in lane order.
 * ====================================================================== */

unsigned lane_elements(wmma_tile t) { return t.rows * t.cols / 32; }

unsigned element_bits(wmma_element type)
{
    switch (type) {
    case wmma_f16:
    case wmma_bf16: return 16;
    case wmma_s8:
    case wmma_u8: return 8;
    case wmma_f64: return 64;
    case wmma_s4:
    case wmma_u4: return 4;
    case wmma_b1: return 1;
    case wmma_f32:
    case wmma_tf32:
    case wmma_s32: break;
    }
    return 32;
}

struct wmma_io_lane {
    void *elems;      /* this lane's fragment */
    void *mem;        /* the tile in memory (const for loads) */
    unsigned ldm;
    bool col_major;
    char error[256];  /* set by the collective when the lanes disagree */
};

struct wmma_io {
    wmma_element type;
    wmma_tile tile;
    bool store;
};

/* The CUDA Programming Guide requires the same pointer, ldm and layout on
 * every lane of the warp; the emulator checks rather than pick one. */
bool lanes_agree(void *const lane_data[32], wmma_io_lane &first)
{
    for (unsigned lane = 1; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_io_lane *>(lane_data[lane]);
        if (l.mem != first.mem || l.ldm != first.ldm || l.col_major != first.col_major) {
            std::snprintf(first.error, sizeof first.error,
                          "lanes of the warp passed different arguments: lane 0 (ptr %p, ldm %u, %s), "
                          "lane %u (ptr %p, ldm %u, %s); every lane must pass the same pointer, ldm and layout",
                          first.mem, first.ldm, first.col_major ? "col-major" : "row-major", lane, l.mem, l.ldm,
                          l.col_major ? "col-major" : "row-major");
            return false;
        }
    }
    return true;
}

/* Sub-byte elements: element j of a packed run at bits j * width of the
 * 32-bit words (in memory: of the bytes), lowest first. */
unsigned get_bits(const void *base, std::size_t bit, unsigned width)
{
    const unsigned char byte = static_cast<const unsigned char *>(base)[bit / 8];
    return (byte >> (bit % 8)) & ((1u << width) - 1u);
}

void put_bits(void *base, std::size_t bit, unsigned width, unsigned value)
{
    unsigned char &byte = static_cast<unsigned char *>(base)[bit / 8];
    const unsigned mask = ((1u << width) - 1u) << (bit % 8);
    byte = static_cast<unsigned char>((byte & ~mask) | ((value << (bit % 8)) & mask));
}

void wmma_io_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const wmma_io &io = *static_cast<const wmma_io *>(ctx);
    auto &lane0 = *static_cast<wmma_io_lane *>(lane_data[0]);
    if (!lanes_agree(lane_data, lane0)) {
        for (unsigned lane = 1; lane < 32; ++lane)
            std::memcpy(static_cast<wmma_io_lane *>(lane_data[lane])->error, lane0.error, sizeof lane0.error);
        return;
    }
    const unsigned bits = element_bits(io.type), E = lane_elements(io.tile), cols = io.tile.cols;
    const std::size_t ldm = lane0.ldm;
    char *const mem = static_cast<char *>(lane0.mem);
    for (unsigned lane = 0; lane < 32; ++lane) {
        char *const frag = static_cast<char *>(static_cast<wmma_io_lane *>(lane_data[lane])->elems);
        const std::size_t first = static_cast<std::size_t>(lane) * E, r0 = first / cols, c0 = first % cols;
        if (bits >= 8) {
            const std::size_t size = bits / 8;
            if (!lane0.col_major && c0 + E <= cols) { /* the run is contiguous in memory */
                char *const in_memory = mem + (r0 * ldm + c0) * size;
                if (io.store)
                    std::memcpy(in_memory, frag, E * size);
                else
                    std::memcpy(frag, in_memory, E * size);
                continue;
            }
            for (unsigned i = 0; i < E; ++i) {
                const std::size_t r = (first + i) / cols, c = (first + i) % cols;
                char *const in_memory = mem + (lane0.col_major ? c * ldm + r : r * ldm + c) * size;
                if (io.store)
                    std::memcpy(in_memory, frag + i * size, size);
                else
                    std::memcpy(frag + i * size, in_memory, size);
            }
            continue;
        }
        for (unsigned i = 0; i < E; ++i) { /* s4, u4, b1: never stored (no such accumulators) */
            const std::size_t r = (first + i) / cols, c = (first + i) % cols;
            const std::size_t at = lane0.col_major ? c * ldm + r : r * ldm + c;
            put_bits(frag, static_cast<std::size_t>(i) * bits, bits, get_bits(mem, at * bits, bits));
        }
    }
}

/* Checks this lane's own arguments before it joins the warp, so that the
 * diagnostic names the lane that passed them. */
void check_wmma_arguments(const void *p, unsigned ldm, wmma_element type, const char *op, here where)
{
    char message[256];
    /* Programming Guide, WMMA: "mptr must be a 256-bit aligned pointer" and
     * ldm "must be a multiple of 8 for __half element type or multiple of 4
     * for float element type (i.e., multiple of 16 bytes in both cases)";
     * for the sub-byte types a multiple of 128 bits (32 s4/u4, 128 b1). The
     * pointer check asks for 128 bits only: NVIDIA's own immaTensorCoreGemm
     * loads 8-bit tiles at 16-byte column offsets (k_step * 16) and runs on
     * GPUs, so hardware evidently needs no more. */
    if (!aligned(p, 16)) {
        std::snprintf(message, sizeof message,
                      "%s at %s:%d: pointer %p is not 128-bit (16-byte) aligned; WMMA tiles must start on "
                      "16-byte boundaries at least (the Programming Guide asks for 256-bit, 32-byte) "
                      "(check the row/column offset)",
                      op, where.file, where.line, p);
        fail_launch(cudaErrorMisalignedAddress, message);
    }
    const unsigned bits = element_bits(type);
    if (ldm == 0 || (static_cast<unsigned long long>(ldm) * bits) % 128 != 0) {
        std::snprintf(message, sizeof message,
                      "%s at %s:%d: ldm %u is not a multiple of %u elements (16 bytes), as WMMA requires", op,
                      where.file, where.line, ldm, 128 / bits);
        fail_launch(cudaErrorMisalignedAddress, message);
    }
}

/* The SIMT counters' view of this lane's part of a load or store: the
 * memory its fragment elements occupy, one access per contiguous run (a
 * row-major tile: one run per lane; column-major: one per element), at the
 * kernel's call site `pc`. The warp's accesses at one site make one request
 * whose sectors (global) or wavefronts (shared) are those the whole tile
 * touches. */
void count_tile(const void *mem, unsigned ldm, bool col_major, const wmma_io &io, const void *pc)
{
    const unsigned bits = element_bits(io.type), E = lane_elements(io.tile), cols = io.tile.cols;
    const std::size_t first = static_cast<std::size_t>(lane_id()) * E, r0 = first / cols, c0 = first % cols;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(mem);
    if (!col_major && c0 + E <= cols) {
        const std::size_t at = (r0 * ldm + c0) * bits / 8;
        profile::tile_access(base + at, (static_cast<std::size_t>(E) * bits + 7) / 8, io.store, pc);
        return;
    }
    for (unsigned i = 0; i < E; ++i) {
        const std::size_t r = (first + i) / cols, c = (first + i) % cols;
        const std::size_t at = (col_major ? c * ldm + r : r * ldm + c) * bits / 8;
        profile::tile_access(base + at, bits >= 8 ? bits / 8 : 1, io.store, pc);
    }
}

void wmma_io_run(void *elems, void *mem, unsigned ldm, bool col_major, const wmma_io &io, const char *op,
                 here where, const void *pc)
{
    check_wmma_arguments(mem, ldm, io.type, op, where);
    if (profile::launch_observed)
        count_tile(mem, ldm, col_major, io, pc);
    wmma_io_lane lane; /* error[] is not cleared: 256 bytes a lane at every call showed under perf */
    lane.elems = elems;
    lane.mem = mem;
    lane.ldm = ldm;
    lane.col_major = col_major;
    lane.error[0] = '\0';
    wmma_io ctx = io;
    detail::require_whole_warp(op, where.file, where.line);
    warp_collective(full_warp, &lane, wmma_io_collective, &ctx, op, where);
    if (lane.error[0] != '\0') {
        char message[320];
        std::snprintf(message, sizeof message, "%s at %s:%d: %s", op, where.file, where.line, lane.error);
        fail_launch(cudaErrorLaunchFailure, message);
    }
}

struct wmma_mma_lane {
    void *d;
    const void *a;
    const void *b;
    const void *c;
};

/* The largest tiles of any shape: A 32x16, B 16x32, C 32x8. */
constexpr unsigned max_ab = 512, max_c = 256;

/* Every lane's E input elements, decoded, into the row-major tile. */
template <class V> void gather_inputs(V *out, void *const lane_data[32], bool b, wmma_element type, unsigned E)
{
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        const char *frag = static_cast<const char *>(b ? l.b : l.a);
        V *o = out + lane * E;
        switch (type) {
        case wmma_f16:
            for (unsigned i = 0; i < E; ++i)
                o[i] = static_cast<V>(f16_bits_to_float(load_u16(frag + 2 * i)));
            break;
        case wmma_bf16:
            for (unsigned i = 0; i < E; ++i)
                o[i] = static_cast<V>(bf16_bits_to_float(load_u16(frag + 2 * i)));
            break;
        case wmma_tf32: /* the multiplier reads tf32: round what it is given */
            for (unsigned i = 0; i < E; ++i) {
                float f;
                std::memcpy(&f, frag + 4 * i, 4);
                o[i] = static_cast<V>(tf32_round(f));
            }
            break;
        case wmma_f64:
            for (unsigned i = 0; i < E; ++i) {
                double v;
                std::memcpy(&v, frag + 8 * i, 8);
                o[i] = static_cast<V>(v);
            }
            break;
        case wmma_s8:
            for (unsigned i = 0; i < E; ++i)
                o[i] = static_cast<V>(static_cast<signed char>(frag[i]));
            break;
        case wmma_u8:
            for (unsigned i = 0; i < E; ++i)
                o[i] = static_cast<V>(static_cast<unsigned char>(frag[i]));
            break;
        case wmma_s4:
            for (unsigned i = 0; i < E; ++i) {
                const int v = static_cast<int>(get_bits(frag, 4u * i, 4));
                o[i] = static_cast<V>(v >= 8 ? v - 16 : v);
            }
            break;
        case wmma_u4:
            for (unsigned i = 0; i < E; ++i)
                o[i] = static_cast<V>(get_bits(frag, 4u * i, 4));
            break;
        default: /* f32, s32, b1: not inputs of mma_sync */
            break;
        }
    }
}

/* acc[m][n] += a[m][k] * b[k][n], k in order for every element (the order
 * the accuracy statements in <mma.h> describe); the shape is a constant so
 * that the compiler vectorizes along n. */
template <unsigned M, unsigned N, unsigned K, class V, class Acc>
void multiply_add(Acc *__restrict acc, const V *__restrict a, const V *__restrict b)
{
    for (unsigned m = 0; m < M; ++m)
        for (unsigned k = 0; k < K; ++k) {
            const Acc av = a[m * K + k];
            for (unsigned n = 0; n < N; ++n)
                acc[m * N + n] += av * static_cast<Acc>(b[k * N + n]);
        }
}

template <class V, class Acc> void multiply_add(Acc *acc, const V *a, const V *b, unsigned M, unsigned N, unsigned K)
{
    if (M == 16 && N == 16 && K == 16)
        multiply_add<16, 16, 16>(acc, a, b);
    else if (M == 32 && N == 8 && K == 16)
        multiply_add<32, 8, 16>(acc, a, b);
    else if (M == 8 && N == 32 && K == 16)
        multiply_add<8, 32, 16>(acc, a, b);
    else if (M == 16 && N == 16 && K == 8)
        multiply_add<16, 16, 8>(acc, a, b);
    else if (M == 8 && N == 8 && K == 4)
        multiply_add<8, 8, 4>(acc, a, b);
    else if (M == 8 && N == 8 && K == 32)
        multiply_add<8, 8, 32>(acc, a, b);
}

/* Floating-point accumulators (f16, f32 or f64 fragments) in V. */
template <class V> void gather_accumulators(V *acc, void *const lane_data[32], wmma_element type, unsigned E)
{
    for (unsigned lane = 0; lane < 32; ++lane) {
        const char *c = static_cast<const char *>(static_cast<const wmma_mma_lane *>(lane_data[lane])->c);
        V *o = acc + lane * E;
        for (unsigned i = 0; i < E; ++i) {
            if (type == wmma_f16) {
                o[i] = static_cast<V>(f16_bits_to_float(load_u16(c + 2 * i)));
            } else if (type == wmma_f64) {
                double v;
                std::memcpy(&v, c + 8 * i, 8);
                o[i] = static_cast<V>(v);
            } else {
                float v;
                std::memcpy(&v, c + 4 * i, 4);
                o[i] = static_cast<V>(v);
            }
        }
    }
}

template <class V> void scatter_results(void *const lane_data[32], const V *acc, wmma_element type, unsigned E)
{
    for (unsigned lane = 0; lane < 32; ++lane) {
        char *d = static_cast<char *>(static_cast<const wmma_mma_lane *>(lane_data[lane])->d);
        const V *in = acc + lane * E;
        for (unsigned i = 0; i < E; ++i) {
            if (type == wmma_f16) { /* one rounding, to nearest even */
                const __half h = __float2half(static_cast<float>(in[i]));
                std::memcpy(d + 2 * i, &h, 2);
            } else if (type == wmma_f64) {
                const double v = static_cast<double>(in[i]);
                std::memcpy(d + 8 * i, &v, 8);
            } else {
                const float v = static_cast<float>(in[i]);
                std::memcpy(d + 4 * i, &v, 4);
            }
        }
    }
}

void mma_float(void *const lane_data[32], const wmma_mma_desc &dsc)
{
    const unsigned M = dsc.m, N = dsc.n, K = dsc.k;
    float a[max_ab], b[max_ab], acc[max_c];
    gather_inputs(a, lane_data, false, dsc.input, M * K / 32);
    gather_inputs(b, lane_data, true, dsc.input, K * N / 32);
    gather_accumulators(acc, lane_data, dsc.acc_c, M * N / 32);
    multiply_add(acc, a, b, M, N, K); /* every product of f16, bf16 or tf32 values is exact in float */
    scatter_results(lane_data, acc, dsc.acc_d, M * N / 32); /* d only now: it may be c */
}

void mma_double(void *const lane_data[32], const wmma_mma_desc &dsc)
{
    const unsigned M = dsc.m, N = dsc.n, K = dsc.k;
    double a[max_ab], b[max_ab], acc[max_c];
    gather_inputs(a, lane_data, false, dsc.input, M * K / 32);
    gather_inputs(b, lane_data, true, dsc.input, K * N / 32);
    gather_accumulators(acc, lane_data, dsc.acc_c, M * N / 32);
    multiply_add(acc, a, b, M, N, K);
    scatter_results(lane_data, acc, dsc.acc_d, M * N / 32);
}

/* Integers: A B exactly in 32 bits (at most 32 products of 8-bit values,
 * |sum| < 2^21), plus C in 64 bits, then clamped to int's range (satf) or
 * wrapped modulo 2^32. */
void mma_integer(void *const lane_data[32], const wmma_mma_desc &dsc)
{
    const unsigned M = dsc.m, N = dsc.n, K = dsc.k, E = M * N / 32;
    std::int32_t a[max_ab], b[max_ab], ab[max_c] = {};
    std::int64_t acc[max_c];
    gather_inputs(a, lane_data, false, dsc.input, M * K / 32);
    gather_inputs(b, lane_data, true, dsc.input, K * N / 32);
    multiply_add(ab, a, b, M, N, K);
    for (unsigned lane = 0; lane < 32; ++lane) {
        const char *c = static_cast<const char *>(static_cast<const wmma_mma_lane *>(lane_data[lane])->c);
        for (unsigned i = 0; i < E; ++i) {
            std::int32_t v;
            std::memcpy(&v, c + 4 * i, 4);
            acc[lane * E + i] = static_cast<std::int64_t>(v) + ab[lane * E + i];
        }
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
        char *d = static_cast<char *>(static_cast<const wmma_mma_lane *>(lane_data[lane])->d);
        for (unsigned i = 0; i < E; ++i) {
            std::int64_t v = acc[lane * E + i];
            if (dsc.satf)
                v = v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
            const std::int32_t out = static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
            std::memcpy(d + 4 * i, &out, 4);
        }
    }
}

/* m8n8k128 b1: row i of A and column j of B as four 32-bit words each. */
void mma_b1(void *const lane_data[32], const wmma_mma_desc &dsc)
{
    std::uint32_t rows[8][4] = {}, cols[8][4] = {};
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        std::uint32_t wa, wb;
        std::memcpy(&wa, l.a, 4);
        std::memcpy(&wb, l.b, 4);
        rows[lane / 4][lane % 4] = wa; /* A 8x128: lane L holds row L / 4, bits (L % 4) * 32 up */
        for (unsigned i = 0; i < 32; ++i) { /* B 128x8: lane L holds rows 4L..4L+3, 8 columns each */
            const unsigned k = lane * 4 + i / 8, n = i % 8;
            cols[n][k / 32] |= ((wb >> i) & 1u) << (k % 32);
        }
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        std::int32_t c[2], d[2];
        std::memcpy(c, l.c, sizeof c);
        for (unsigned i = 0; i < 2; ++i) {
            const unsigned m = (lane * 2 + i) / 8, n = (lane * 2 + i) % 8;
            std::uint32_t count = 0;
            for (unsigned w = 0; w < 4; ++w)
                count += static_cast<std::uint32_t>(__builtin_popcount(
                    dsc.bit_op == 2 ? rows[m][w] & cols[n][w] : rows[m][w] ^ cols[n][w]));
            d[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(c[i]) + count);
        }
        std::memcpy(l.d, d, sizeof d);
    }
}

void wmma_mma_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const wmma_mma_desc &dsc = *static_cast<const wmma_mma_desc *>(ctx);
    switch (dsc.input) {
    case wmma_f16:
    case wmma_bf16:
    case wmma_tf32: mma_float(lane_data, dsc); break;
    case wmma_f64: mma_double(lane_data, dsc); break;
    case wmma_b1: mma_b1(lane_data, dsc); break;
    default: mma_integer(lane_data, dsc); break;
    }
}

} /* namespace */

/* ---- the entry points (declared in <simtlab_emu/ptx.hpp> and <mma.h>) ------ */

void mma_m16n8k16_f32(mma_input_type type, float d[4], const unsigned a[4], const unsigned b[2],
                      const float c[4], here where)
{
    mma_lane lane;
    std::memcpy(lane.a, a, sizeof lane.a);
    std::memcpy(lane.b, b, sizeof lane.b);
    std::memcpy(lane.c, c, sizeof lane.c);
    const char *const op = type == mma_input_bf16 ? "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
                                                   : "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";
    detail::require_whole_warp(op, where.file, where.line);
    warp_collective(full_warp, &lane, mma_m16n8k16_collective, &type, op, where);
    std::memcpy(d, lane.d, sizeof lane.d);
}

void wmma_load(void *elems, wmma_element type, wmma_tile tile, const void *p, unsigned ldm, bool col_major,
               const char *op, here where)
{
    wmma_io_run(elems, const_cast<void *>(p), ldm, col_major, wmma_io{type, tile, false}, op, where,
                __builtin_return_address(0));
}

void wmma_store(void *p, const void *elems, wmma_element type, wmma_tile tile, unsigned ldm, bool col_major,
                here where)
{
    wmma_io_run(const_cast<void *>(elems), p, ldm, col_major, wmma_io{type, tile, true}, "wmma::store_matrix_sync",
                where, __builtin_return_address(0));
}

void wmma_mma(void *d, const void *a, const void *b, const void *c, const wmma_mma_desc &desc, here where)
{
    wmma_mma_lane lane{d, a, b, c};
    wmma_mma_desc ctx = desc;
    const char *const op = desc.input == wmma_b1 ? "wmma::bmma_sync" : "wmma::mma_sync";
    detail::require_whole_warp(op, where.file, where.line);
    warp_collective(full_warp, &lane, wmma_mma_collective, &ctx, op, where);
}

} /* namespace simtlab_emu */
