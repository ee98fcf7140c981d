/* simtlab CPU emulator — the tensor-core data movement of
 * <simtlab_emu/ptx.hpp>: ldmatrix (shared memory straight into mma
 * fragments, warp-collective like the rest) and cp.async (global -> shared
 * copies that land only at the wait that retires their group). The
 * arithmetic, mma.sync and WMMA, is tensor_mma.cpp. */
#include <simtlab_emu/ptx.hpp>

#include "engine/internal.hpp"
#include "engine/tensor.hpp"
#include "profile/internal.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <vector>

namespace simtlab_emu {

using namespace tensor;

namespace {

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
    if (!engine::find_allocation(reinterpret_cast<std::uintptr_t>(src), 1024, &a, &offset))
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

} /* namespace */

/* ---- the entry points (declared in <simtlab_emu/ptx.hpp>) ------------------ */

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
    if (profile::launch_observed && lane_id() < 8 * count) /* the SIMT counters: one 16-byte row per lane */
        profile::tile_access(reinterpret_cast<std::uintptr_t>(row), 16, false, __builtin_return_address(0));
    ldmatrix_lane lane{row, {0, 0, 0, 0}};
    ldmatrix_shape shape{count, trans};
    detail::require_whole_warp(op, where.file, where.line);
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
    if (profile::launch_observed) { /* the SIMT counters: a 16-byte global load and shared store per lane */
        const void *pc = __builtin_return_address(0);
        profile::tile_access(reinterpret_cast<std::uintptr_t>(gmem_src), cp_async_bytes, false, pc);
        profile::tile_access(reinterpret_cast<std::uintptr_t>(smem_dst), cp_async_bytes, true, pc);
    }
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

} /* namespace simtlab_emu */
