/* simtlab CPU emulator — tensor-core operations: mma.sync m16n8k16,
 * ldmatrix, cp.async, and the WMMA API of <mma.h>.
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

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <deque>
#include <vector>

namespace simtlab_emu {

namespace {

constexpr unsigned full_warp = 0xffffffffu;

/* ---- 16-bit floating-point formats (IEEE 754 binary16, bfloat16) ------- */

std::uint16_t load_u16(const void *p)
{
    std::uint16_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

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

bool aligned(const void *p, std::uintptr_t bytes)
{
    return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
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
 * ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16
 *
 * PTX ISA "Warp-level matrix load instruction: ldmatrix": lanes 8j..8j+7
 * give the addresses of rows 0..7 of matrix j; lane L receives, in register
 * j, row L / 4, elements 2 * (L % 4) and 2 * (L % 4) + 1 of matrix j (low
 * half first). With .trans it receives the same positions of the transposed
 * matrix: column L / 4, rows 2 * (L % 4) and 2 * (L % 4) + 1.
 * ====================================================================== */

struct ldmatrix_lane {
    const void *row;
    unsigned r[4];
};

struct ldmatrix_shape {
    unsigned count;
    bool trans;
};

std::uint16_t matrix_element(void *const lane_data[32], unsigned matrix, unsigned row, unsigned col)
{
    const auto &owner = *static_cast<const ldmatrix_lane *>(lane_data[matrix * 8 + row]);
    return load_u16(static_cast<const char *>(owner.row) + 2 * col);
}

void ldmatrix_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const ldmatrix_shape &shape = *static_cast<const ldmatrix_shape *>(ctx);
    for (unsigned j = 0; j < shape.count; ++j)
        for (unsigned lane = 0; lane < 32; ++lane) {
            const unsigned first = 2 * (lane % 4), other = lane / 4;
            const std::uint16_t lo = shape.trans ? matrix_element(lane_data, j, first, other)
                                                 : matrix_element(lane_data, j, other, first);
            const std::uint16_t hi = shape.trans ? matrix_element(lane_data, j, first + 1, other)
                                                 : matrix_element(lane_data, j, other, first + 1);
            static_cast<ldmatrix_lane *>(lane_data[lane])->r[j] = lo | static_cast<unsigned>(hi) << 16;
        }
}

/* The engine tells operations apart by name, so that lanes that reach
 * different variants are diagnosed. */
const char *ldmatrix_name(unsigned count, bool trans)
{
    static const char *const names[2][3] = {
        {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
         "ldmatrix.sync.aligned.m8n8.x4.shared.b16"},
        {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
         "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}};
    return names[trans ? 1 : 0][count == 1 ? 0 : count == 2 ? 1 : 2];
}

/* ======================================================================
 * cp.async: per CUDA thread, the copies issued since the last commit and
 * the committed groups, oldest first (in cuda_thread_slot(0)). A copy is
 * performed only by the wait that retires its group, so a thread that reads
 * the destination before waiting sees the old contents: the PTX ISA makes
 * cp.async writes visible only after cp.async.wait_group / wait_all. The
 * source is read at that wait too, which is one of the orders the hardware
 * may pick. A thread that returns with copies outstanding fails the launch
 * (release_thread_slots); when a launch fails for another reason, parked
 * threads never return and their queues (a few bytes each) are not freed.
 * ====================================================================== */

struct pending_copy {
    void *dst;
    const void *src;
};

struct cp_async_queue {
    std::vector<pending_copy> open;
    std::deque<std::vector<pending_copy>> groups;

    std::size_t pending() const
    {
        std::size_t n = open.size();
        for (const auto &g : groups)
            n += g.size();
        return n;
    }
};

constexpr unsigned cp_async_slot = 0;
constexpr std::size_t cp_async_bytes = 16;

cp_async_queue *queue_of_thread()
{
    return static_cast<cp_async_queue *>(cuda_thread_slot(cp_async_slot));
}

/* The source is read only at the wait, long after the line that issued the
 * copy; an out-of-bounds source is reported here, at the issuing line. An
 * address near no cudaMalloc allocation (a __device__ array, say) is not
 * checked: the emulator cannot tell its bounds. */
void check_cp_async_source(const void *src, here where)
{
    allocation a;
    std::ptrdiff_t offset = 0;
    if (!find_allocation(reinterpret_cast<std::uintptr_t>(src), 1024, &a, &offset))
        return;
    if (offset >= 0 && offset + static_cast<std::ptrdiff_t>(cp_async_bytes) <= static_cast<std::ptrdiff_t>(a.size))
        return;
    char origin[160] = "";
    if (a.file)
        std::snprintf(origin, sizeof origin, ", allocated at %s:%d", a.file, a.line);
    char message[384];
    std::snprintf(message, sizeof message,
                  "cp.async.cg.shared.global at %s:%d reads 16 bytes at %p, offset %td of device allocation #%lu "
                  "(%zu bytes%s): out of bounds (%s)",
                  where.file, where.line, src, offset, a.serial, a.size, origin,
                  offset < 0 ? "before its start" : "past its end: check the last tile's guard");
    fail_launch(cudaErrorIllegalAddress, message);
}

/* Completed groups at the front carry no information (an empty group is
 * "trivially complete"), and an empty queue is freed: a thread that uses
 * cp.async the usual way holds no memory between its waits. */
void tidy_queue(cp_async_queue *q)
{
    while (!q->groups.empty() && q->groups.front().empty())
        q->groups.pop_front();
    if (q->groups.empty() && q->open.empty()) {
        delete q;
        cuda_thread_slot(cp_async_slot) = nullptr;
    }
}

/* ======================================================================
 * WMMA (see <mma.h> for the emulator's fragment layout)
 * ====================================================================== */

/* Lane L, element i <-> tile row L / 2, column (L % 2) * 8 + i. */
unsigned frag_row(unsigned lane) { return lane / 2; }
unsigned frag_col(unsigned lane, unsigned i) { return (lane % 2) * 8 + i; }

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
        for (unsigned i = 0; i < wmma_lane_elements; ++i) {
            const std::size_t r = frag_row(lane), c = frag_col(lane, i);
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

float input_element(const void *frag, unsigned i, wmma_element input)
{
    return bits_to_float(load_u16(static_cast<const char *>(frag) + 2 * i), input == wmma_bf16);
}

void wmma_mma_collective(void *const lane_data[32], unsigned, void *ctx)
{
    const wmma_element input = *static_cast<const wmma_element *>(ctx);
    float a[16][16], b[16][16], acc[16][16];
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < wmma_lane_elements; ++i) {
            const unsigned r = frag_row(lane), c = frag_col(lane, i);
            a[r][c] = input_element(l.a, i, input);
            b[r][c] = input_element(l.b, i, input);
            acc[r][c] = l.c[i];
        }
    }
    for (unsigned m = 0; m < 16; ++m)
        for (unsigned n = 0; n < 16; ++n)
            for (unsigned k = 0; k < 16; ++k)
                acc[m][n] += a[m][k] * b[k][n]; /* the product is exact */
    /* Written only now: d may be the same fragment as c. */
    for (unsigned lane = 0; lane < 32; ++lane) {
        const auto &l = *static_cast<const wmma_mma_lane *>(lane_data[lane]);
        for (unsigned i = 0; i < wmma_lane_elements; ++i)
            l.d[i] = acc[frag_row(lane)][frag_col(lane, i)];
    }
}

} /* namespace */

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

void ldmatrix_m8n8_b16(unsigned count, bool trans, unsigned *r, const void *row, here where)
{
    const char *op = ldmatrix_name(count, trans);
    if (count != 1 && count != 2 && count != 4) {
        char message[160];
        std::snprintf(message, sizeof message, "%s: %u matrices asked for; ldmatrix loads 1, 2 or 4", op, count);
        fail_launch(cudaErrorInvalidValue, message);
    }
    /* "When reading 8x8 matrices, a group of four consecutive threads loads
     * 16 bytes. The matrix addresses must be naturally aligned accordingly."
     * Lanes past 8 * count supply no address (from sm_80; sm_75 wants valid
     * addresses in every lane, which the emulator does not insist on). */
    if (lane_id() < 8 * count && row == nullptr) {
        char message[160];
        std::snprintf(message, sizeof message, "%s at %s:%d: lane %u passes a NULL row address (lanes 0-%u give rows)",
                      op, where.file, where.line, lane_id(), 8 * count - 1);
        fail_launch(cudaErrorIllegalAddress, message);
    }
    if (lane_id() < 8 * count && !aligned(row, 16)) {
        char message[256];
        std::snprintf(message, sizeof message,
                      "%s at %s:%d: lane %u's row address %p is not 16-byte aligned; each row of an 8x8 b16 "
                      "matrix is 16 bytes and must start on a 16-byte boundary (pad the shared array's rows "
                      "to a multiple of 8 elements)",
                      op, where.file, where.line, lane_id(), row);
        fail_launch(cudaErrorMisalignedAddress, message);
    }
    ldmatrix_lane lane{row, {0, 0, 0, 0}};
    ldmatrix_shape shape{count, trans};
    warp_collective(full_warp, &lane, ldmatrix_collective, &shape, op, where);
    std::memcpy(r, lane.r, count * sizeof *r);
}

void cp_async_16(void *smem_dst, const void *gmem_src, here where)
{
    if (!aligned(smem_dst, cp_async_bytes) || !aligned(gmem_src, cp_async_bytes)) {
        char message[256];
        std::snprintf(message, sizeof message,
                      "cp.async.cg.shared.global at %s:%d of 16 bytes from %p to %p: both addresses must be "
                      "16-byte aligned (PTX ISA, cp.async: aligned to cp-size)",
                      where.file, where.line, gmem_src, smem_dst);
        fail_launch(cudaErrorMisalignedAddress, message);
    }
    check_cp_async_source(gmem_src, where);
    cp_async_queue *q = queue_of_thread();
    if (q == nullptr) {
        q = new cp_async_queue;
        cuda_thread_slot(cp_async_slot) = q;
    }
    q->open.push_back(pending_copy{smem_dst, gmem_src});
}

void cp_async_commit(here)
{
    cp_async_queue *q = queue_of_thread();
    if (q == nullptr) /* nothing pending: the new group would be empty, i.e. complete */
        return;
    q->groups.push_back(std::move(q->open));
    q->open.clear();
    tidy_queue(q);
}

/* "Wait till only N or fewer of the most recent cp.async-groups are pending
 * and all the prior cp.async-groups committed by the executing thread are
 * complete." Copies not yet committed are not waited for. */
void cp_async_wait_group(unsigned n, here)
{
    cp_async_queue *q = queue_of_thread();
    if (q == nullptr)
        return;
    while (q->groups.size() > n) {
        for (const pending_copy &c : q->groups.front())
            std::memcpy(c.dst, c.src, cp_async_bytes);
        q->groups.pop_front();
    }
    tidy_queue(q);
}

/* "cp.async.wait_all is equivalent to: cp.async.commit_group;
 * cp.async.wait_group 0;" */
void cp_async_wait_all(here where)
{
    cp_async_commit(where);
    cp_async_wait_group(0, where);
}

/* Called by the engine when a thread returns with state in its slots. The
 * PTX ISA makes cp.async writes visible only through a wait; a thread that
 * ends with copies outstanding has a bug that hardware may hide (the copies
 * usually land anyway), so the emulator reports it instead of guessing. */
void release_thread_slots()
{
    cp_async_queue *q = queue_of_thread();
    if (q == nullptr)
        return;
    const std::size_t outstanding = q->pending();
    delete q;
    cuda_thread_slot(cp_async_slot) = nullptr;
    if (outstanding > 0) {
        char message[384];
        std::snprintf(message, sizeof message,
                      "the thread returned with %zu cp.async cop%s that no cp.async.wait_group or wait_all "
                      "completed (the PTX ISA makes cp.async data visible only through a wait, and leaves "
                      "copies never waited for undefined): call sl_cp_async_wait_all() or wait_group before "
                      "the data is used and before the thread exits",
                      outstanding, outstanding == 1 ? "y" : "ies");
        fail_launch(cudaErrorLaunchFailure, message);
    }
}

void wmma_load(void *elems, wmma_element type, const void *p, unsigned ldm, bool col_major, const char *op,
               here where)
{
    wmma_io_run(elems, const_cast<void *>(p), ldm, col_major, wmma_io{type, false}, op, where);
}

void wmma_store(void *p, const void *elems, wmma_element type, unsigned ldm, bool col_major, here where)
{
    wmma_io_run(const_cast<void *>(elems), p, ldm, col_major, wmma_io{type, true}, "wmma::store_matrix_sync", where);
}

void wmma_mma(float *d, const void *a, const void *b, wmma_element input, const float *c, here where)
{
    wmma_mma_lane lane{d, a, b, c};
    warp_collective(full_warp, &lane, wmma_mma_collective, &input, "wmma::mma_sync", where);
}

} /* namespace simtlab_emu */
