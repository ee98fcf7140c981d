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

#include "internal.hpp"
#include "tensor_internal.hpp"

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
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    float magnitude;
    if (exponent == 0) /* zero or subnormal: mantissa * 2^-24 */
        magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    else if (exponent == 0x1f)
        magnitude = mantissa ? NAN : INFINITY;
    else /* (1.mantissa) * 2^(exponent - 15), as an integer times 2^-10 */
        magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
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
 * ====================================================================== */

/* Lane L, element i <-> flat index L * E + i of the rows x cols tile in
 * row-major order, E = rows * cols / 32 (16x16: row L / 2, column
 * (L % 2) * 8 + i). */
unsigned lane_elements(wmma_tile t) { return t.rows * t.cols / 32; }
unsigned frag_row(wmma_tile t, unsigned lane, unsigned i) { return (lane * lane_elements(t) + i) / t.cols; }
unsigned frag_col(wmma_tile t, unsigned lane, unsigned i) { return (lane * lane_elements(t) + i) % t.cols; }

std::size_t element_bytes(wmma_element type) { return type == wmma_f32 ? 4 : 2; }

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

void wmma_io_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const wmma_io &io = *static_cast<const wmma_io *>(ctx);
    auto &lane0 = *static_cast<wmma_io_lane *>(lane_data[0]);
    if (!lanes_agree(lane_data, lane0)) {
        for (unsigned lane = 1; lane < 32; ++lane)
            std::memcpy(static_cast<wmma_io_lane *>(lane_data[lane])->error, lane0.error, sizeof lane0.error);
        return;
    }
    const std::size_t size = element_bytes(io.type);
    for (unsigned lane = 0; lane < 32; ++lane) {
        auto &l = *static_cast<wmma_io_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < lane_elements(io.tile); ++i) {
            const std::size_t r = frag_row(io.tile, lane, i), c = frag_col(io.tile, lane, i);
            const std::size_t offset = l.col_major ? c * l.ldm + r : r * l.ldm + c;
            char *in_memory = static_cast<char *>(l.mem) + offset * size;
            char *in_fragment = static_cast<char *>(l.elems) + i * size;
            if (io.store)
                std::memcpy(in_memory, in_fragment, size);
            else
                std::memcpy(in_fragment, in_memory, size);
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
     * for float element type (i.e., multiple of 16 bytes in both cases)". */
    if (!aligned(p, 32)) {
        std::snprintf(message, sizeof message,
                      "%s at %s:%d: pointer %p is not 256-bit (32-byte) aligned, as WMMA requires; "
                      "tile starts must lie on 32-byte boundaries (check the row/column offset)",
                      op, where.file, where.line, p);
        fail_launch(cudaErrorMisalignedAddress, message);
    }
    if (ldm == 0 || (ldm * element_bytes(type)) % 16 != 0) {
        std::snprintf(message, sizeof message,
                      "%s at %s:%d: ldm %u is not a multiple of %u elements (16 bytes), as WMMA requires", op,
                      where.file, where.line, ldm, static_cast<unsigned>(16 / element_bytes(type)));
        fail_launch(cudaErrorMisalignedAddress, message);
    }
}

void wmma_io_run(void *elems, void *mem, unsigned ldm, bool col_major, const wmma_io &io, const char *op,
                 here where)
{
    check_wmma_arguments(mem, ldm, io.type, op, where);
    wmma_io_lane lane{elems, mem, ldm, col_major, {0}};
    wmma_io ctx = io;
    warp_collective(full_warp, &lane, wmma_io_collective, &ctx, op, where);
    if (lane.error[0] != '\0') {
        char message[320];
        std::snprintf(message, sizeof message, "%s at %s:%d: %s", op, where.file, where.line, lane.error);
        fail_launch(cudaErrorLaunchFailure, message);
    }
}

struct wmma_mma_lane {
    float *d;
    const void *a;
    const void *b;
    const float *c;
};

struct wmma_mma_shape {
    wmma_element input;
    unsigned m, n, k;
};

float input_element(const void *frag, unsigned i, wmma_element input)
{
    return bits_to_float(load_u16(static_cast<const char *>(frag) + 2 * i), input == wmma_bf16);
}

void wmma_mma_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const wmma_mma_shape &shape = *static_cast<const wmma_mma_shape *>(ctx);
    const unsigned M = shape.m, N = shape.n, K = shape.k;
    const wmma_tile ta{M, K}, tb{K, N}, tc{M, N};
    float a[32 * 16], b[16 * 32], acc[32 * 32]; /* the largest of the three shapes' tiles */
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < lane_elements(ta); ++i)
            a[frag_row(ta, lane, i) * K + frag_col(ta, lane, i)] = input_element(l.a, i, shape.input);
        for (unsigned i = 0; i < lane_elements(tb); ++i)
            b[frag_row(tb, lane, i) * N + frag_col(tb, lane, i)] = input_element(l.b, i, shape.input);
        for (unsigned i = 0; i < lane_elements(tc); ++i)
            acc[frag_row(tc, lane, i) * N + frag_col(tc, lane, i)] = l.c[i];
    }
    for (unsigned m = 0; m < M; ++m)
        for (unsigned n = 0; n < N; ++n)
            for (unsigned k = 0; k < K; ++k)
                acc[m * N + n] += a[m * K + k] * b[k * N + n]; /* the product is exact */
    /* Written only now: d may be the same fragment as c. */
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < lane_elements(tc); ++i)
            l.d[i] = acc[frag_row(tc, lane, i) * N + frag_col(tc, lane, i)];
    }
}

} /* namespace */

/* ---- the entry points (declared in <simtlab_emu/ptx.hpp> and <mma.h>) ------ */

/* ---- the entry points (declared in <mma.h>) ------------------------------ */

void mma_m16n8k16_f32(mma_input_type type, float d[4], const unsigned a[4], const unsigned b[2],
                      const float c[4], here where)
{
    mma_lane lane;
    std::memcpy(lane.a, a, sizeof lane.a);
    std::memcpy(lane.b, b, sizeof lane.b);
    std::memcpy(lane.c, c, sizeof lane.c);
    warp_collective(full_warp, &lane, mma_m16n8k16_collective, &type,
                    type == mma_input_bf16 ? "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
                                           : "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                    where);
    std::memcpy(d, lane.d, sizeof lane.d);
}

void wmma_load(void *elems, wmma_element type, wmma_tile tile, const void *p, unsigned ldm, bool col_major,
               const char *op, here where)
{
    wmma_io_run(elems, const_cast<void *>(p), ldm, col_major, wmma_io{type, tile, false}, op, where);
}

void wmma_store(void *p, const void *elems, wmma_element type, wmma_tile tile, unsigned ldm, bool col_major,
                here where)
{
    wmma_io_run(const_cast<void *>(elems), p, ldm, col_major, wmma_io{type, tile, true}, "wmma::store_matrix_sync",
                where);
}

void wmma_mma(float *d, const void *a, const void *b, wmma_element input, const float *c, unsigned m, unsigned n,
              unsigned k, here where)
{
    wmma_mma_lane lane{d, a, b, c};
    wmma_mma_shape shape{input, m, n, k};
    warp_collective(full_warp, &lane, wmma_mma_collective, &shape, "wmma::mma_sync", where);
}

} /* namespace simtlab_emu */
