/* simtlab CPU emulator — warp-level operations: __syncwarp, shuffles,
 * votes, match and reduce.
 *
 * All of them are built on the engine's warp_collective: every lane of
 * `mask` deposits its operand, the last to arrive runs an exchange
 * function over all of them, and each lane takes its own result. The
 * engine diagnoses a mask that leaves out the caller, a lane of the mask
 * that exited or waits elsewhere, and mismatched masks.
 *
 * Semantics follow the CUDA Programming Guide, "Warp Shuffle Functions"
 * and "Warp Vote Functions". Where the Guide says a result is undefined
 * (reading a lane outside the mask, a width that is not a power of two up
 * to 32) the emulator fails the launch with a message instead of
 * returning garbage, so the bug is found where it is.
 *
 * Each function takes a defaulted `here` argument filled in by
 * __builtin_FILE()/__builtin_LINE() at the call site, so that a
 * diagnostic names the kernel's own line, not this header's.
 */
#ifndef SIMTLAB_EMU_DEVICE_WARP_HPP
#define SIMTLAB_EMU_DEVICE_WARP_HPP

#include <simtlab_emu/engine.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace simtlab_emu {
namespace warp {

#define SIMTLAB_EMU_CALLER ::simtlab_emu::warp::caller()

/* The call site of the warp function whose default argument this is.
 * GCC evaluates __builtin_FILE/__builtin_LINE in a default argument at the
 * outermost call, but only when they are arguments of a call like this one:
 * written inside a braced here{...} they give the declaration's line. */
inline here caller(const char *file = __builtin_FILE(), int line = __builtin_LINE()) { return here{file, line}; }

/* A warp operand of up to 8 bytes, moved as its bit pattern: a shuffle of
 * an 8-byte type is two 32-bit shuffles on hardware, which gives the same
 * result as moving it whole. */
template <class T>
inline std::uint64_t to_bits(const T &v)
{
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                  "warp operations move trivially copyable values of at most 8 bytes");
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
}

template <class T>
inline T from_bits(std::uint64_t bits, T like)
{
    std::memcpy(&like, &bits, sizeof(T));
    return like;
}

/* ---- shuffles --------------------------------------------------------- */

struct shfl_lane {
    std::uint64_t value;  /* this lane's var */
    std::uint64_t result; /* what it receives */
    unsigned src;         /* the lane it reads (itself when it keeps its own value) */
    int src_outside_mask; /* set by the exchange: src did not take part */
};

inline void shfl_exchange(void *const lanes[32], unsigned, void *)
{
    for (unsigned i = 0; i < 32; ++i) {
        shfl_lane *me = static_cast<shfl_lane *>(lanes[i]);
        if (me == nullptr)
            continue;
        const shfl_lane *src = static_cast<const shfl_lane *>(lanes[me->src]);
        if (src == nullptr) {
            me->src_outside_mask = 1;
            me->result = me->value;
        } else {
            me->result = src->value;
        }
    }
}

[[noreturn]] inline void fail_bad_width(const char *op, int width, here where)
{
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s at %s:%d with width %d: width must be a power of two from 1 to 32 "
                  "(the CUDA Programming Guide leaves any other width undefined)",
                  op, where.file, where.line, width);
    fail_launch(cudaErrorLaunchFailure, text);
}

[[noreturn]] inline void fail_source_outside_mask(const char *op, unsigned src, unsigned mask, here where)
{
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s at %s:%d: lane %u reads lane %u, which is not in the mask 0x%08x; "
                  "on a GPU the value read from a lane outside the mask is undefined",
                  op, where.file, where.line, lane_id(), src, mask);
    fail_launch(cudaErrorLaunchFailure, text);
}

/* src is in the mask but did not take part: it has exited, or it does not
 * exist (a block whose size is not a multiple of 32). */
[[noreturn]] inline void fail_source_gone(const char *op, unsigned src, unsigned mask, here where)
{
    char text[400];
    std::snprintf(text, sizeof text,
                  "%s at %s:%d with mask 0x%08x: lane %u reads lane %u, which has already exited or does "
                  "not exist (the block's threads end before it); on a GPU the value read from such a "
                  "lane is undefined (did an early return skip it?)",
                  op, where.file, where.line, mask, lane_id(), src);
    fail_launch(cudaErrorIllegalInstruction, text);
}

inline bool valid_width(int width) { return width >= 1 && width <= 32 && (width & (width - 1)) == 0; }

/* Moves `var` from lane `src` of the mask to the caller. */
template <class T>
inline T shuffle_from(unsigned mask, T var, unsigned src, const char *op, here where)
{
    shfl_lane me{to_bits(var), 0, src, 0};
    warp_collective(mask, &me, &shfl_exchange, nullptr, op, where);
    if (me.src_outside_mask) {
        if (mask >> src & 1u)
            fail_source_gone(op, src, mask, where);
        fail_source_outside_mask(op, src, mask, where);
    }
    return from_bits(me.result, var);
}

/* ---- the source lane of each shuffle (lane and width as on the GPU) ---- */
/* srcLane modulo width, inside the caller's segment of `width` lanes. */
inline unsigned idx_source(unsigned lane, int src_lane, unsigned width)
{
    return (lane & ~(width - 1)) | (static_cast<unsigned>(src_lane) & (width - 1));
}
/* lane - delta, or the caller itself when that leaves its segment: the
 * lowest delta lanes of each segment keep their value. */
inline unsigned up_source(unsigned lane, unsigned delta, unsigned width)
{
    return (lane & (width - 1)) < delta ? lane : lane - delta;
}
/* lane + delta, or the caller itself when that leaves its segment: the
 * highest delta lanes of each segment keep their value. */
inline unsigned down_source(unsigned lane, unsigned delta, unsigned width)
{
    return delta >= width - (lane & (width - 1)) ? lane : lane + delta;
}
/* lane ^ laneMask; a lane may read an earlier segment, but a source in a
 * later segment (or past the warp) gives the caller its own value. */
inline unsigned xor_source(unsigned lane, int lane_mask, unsigned width)
{
    unsigned src = lane ^ static_cast<unsigned>(lane_mask);
    return src > (lane | (width - 1)) ? lane : src;
}

/* ---- votes ------------------------------------------------------------ */

struct vote_lane {
    int predicate;
    unsigned ballot;
    unsigned voters; /* the lanes that took part: the mask less exited or missing lanes */
};

inline void vote_exchange(void *const lanes[32], unsigned, void *)
{
    unsigned ballot = 0, voters = 0;
    for (unsigned i = 0; i < 32; ++i)
        if (lanes[i] != nullptr) {
            voters |= 1u << i;
            if (static_cast<vote_lane *>(lanes[i])->predicate)
                ballot |= 1u << i;
        }
    for (unsigned i = 0; i < 32; ++i)
        if (lanes[i] != nullptr) {
            static_cast<vote_lane *>(lanes[i])->ballot = ballot;
            static_cast<vote_lane *>(lanes[i])->voters = voters;
        }
}

/* The lanes of `mask` whose predicate is nonzero, and the lanes that voted
 * (exited lanes and lanes past the block's end do not). */
inline vote_lane vote(unsigned mask, int predicate, const char *op, here where)
{
    vote_lane me{predicate != 0, 0, 0};
    warp_collective(mask, &me, &vote_exchange, nullptr, op, where);
    return me;
}

/* The mask of lanes in `mask` whose predicate is nonzero. */
inline unsigned ballot(unsigned mask, int predicate, const char *op, here where)
{
    return vote(mask, predicate, op, where).ballot;
}

/* ---- match ------------------------------------------------------------ */

struct match_lane {
    std::uint64_t value;
    unsigned same;   /* lanes of the mask holding the same bit pattern */
    unsigned voters; /* the lanes that took part (not exited, not missing) */
};

inline void match_exchange(void *const lanes[32], unsigned, void *)
{
    unsigned voters = 0;
    for (unsigned j = 0; j < 32; ++j)
        if (lanes[j] != nullptr)
            voters |= 1u << j;
    for (unsigned i = 0; i < 32; ++i) {
        match_lane *me = static_cast<match_lane *>(lanes[i]);
        if (me == nullptr)
            continue;
        me->same = 0;
        me->voters = voters;
        for (unsigned j = 0; j < 32; ++j)
            if (lanes[j] != nullptr && static_cast<match_lane *>(lanes[j])->value == me->value)
                me->same |= 1u << j;
    }
}

template <class T>
inline match_lane match_lanes(unsigned mask, T value, const char *op, here where)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_*_sync takes a 32- or 64-bit value");
    match_lane me{to_bits(value), 0, 0};
    warp_collective(mask, &me, &match_exchange, nullptr, op, where);
    return me;
}

template <class T>
inline unsigned match(unsigned mask, T value, const char *op, here where)
{
    return match_lanes(mask, value, op, where).same;
}

/* ---- reduce (sm_80) ---------------------------------------------------- */

template <class T>
struct reduce_lane {
    T value;
    T result;
};

struct op_add {
    template <class T>
    static T apply(T a, T b)
    {
        /* Wraps as the hardware's 32-bit add does, also for int. */
        return static_cast<T>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    }
};
struct op_min {
    template <class T>
    static T apply(T a, T b) { return b < a ? b : a; }
};
struct op_max {
    template <class T>
    static T apply(T a, T b) { return a < b ? b : a; }
};
struct op_and {
    template <class T>
    static T apply(T a, T b) { return a & b; }
};
struct op_or {
    template <class T>
    static T apply(T a, T b) { return a | b; }
};
struct op_xor {
    template <class T>
    static T apply(T a, T b) { return a ^ b; }
};

template <class Op, class T>
inline void reduce_exchange(void *const lanes[32], unsigned, void *)
{
    bool first = true;
    T total{};
    for (unsigned i = 0; i < 32; ++i) {
        if (lanes[i] == nullptr)
            continue;
        T v = static_cast<reduce_lane<T> *>(lanes[i])->value;
        total = first ? v : Op::apply(total, v);
        first = false;
    }
    for (unsigned i = 0; i < 32; ++i)
        if (lanes[i] != nullptr)
            static_cast<reduce_lane<T> *>(lanes[i])->result = total;
}

template <class Op, class T>
inline T reduce(unsigned mask, T value, const char *op, here where)
{
    reduce_lane<T> me{value, value};
    warp_collective(mask, &me, &reduce_exchange<Op, T>, nullptr, op, where);
    return me.result;
}

inline void no_exchange(void *const[32], unsigned, void *) {}

} /* namespace warp */
} /* namespace simtlab_emu */

/* ---- the CUDA names ------------------------------------------------------ */

/* Waits until every lane of `mask` reaches a __syncwarp with that mask; also
 * orders their memory accesses (the fiber switch does). */
inline void __syncwarp(unsigned mask = 0xffffffffu, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    int token = 0; /* warp_collective wants a non-null operand per lane */
    ::simtlab_emu::warp_collective(mask, &token, &::simtlab_emu::warp::no_exchange, nullptr, "__syncwarp", where);
}

/* Shuffles are templates over the operand type: one definition serves
 * int, unsigned, long, long long and their unsigned forms, float, double,
 * __half, __half2 and __nv_bfloat16, the types CUDA overloads them for. */
template <class T>
inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32,
                     ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    using namespace ::simtlab_emu::warp;
    if (!valid_width(width))
        fail_bad_width("__shfl_sync", width, where);
    unsigned src = idx_source(::simtlab_emu::lane_id(), srcLane, static_cast<unsigned>(width));
    return shuffle_from(mask, var, src, "__shfl_sync", where);
}

/* The Guide's rule for delta (and for laneMask below) is applied as
 * written for any value. Hardware reads only the low 5 bits of delta and
 * laneMask (PTX shfl.sync), so the two differ for values of 32 and more,
 * which no correct kernel passes. */
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                        ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    using namespace ::simtlab_emu::warp;
    if (!valid_width(width))
        fail_bad_width("__shfl_up_sync", width, where);
    unsigned src = up_source(::simtlab_emu::lane_id(), delta, static_cast<unsigned>(width));
    return shuffle_from(mask, var, src, "__shfl_up_sync", where);
}

template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                          ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    using namespace ::simtlab_emu::warp;
    if (!valid_width(width))
        fail_bad_width("__shfl_down_sync", width, where);
    unsigned src = down_source(::simtlab_emu::lane_id(), delta, static_cast<unsigned>(width));
    return shuffle_from(mask, var, src, "__shfl_down_sync", where);
}

template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32,
                         ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    using namespace ::simtlab_emu::warp;
    if (!valid_width(width))
        fail_bad_width("__shfl_xor_sync", width, where);
    unsigned src = xor_source(::simtlab_emu::lane_id(), laneMask, static_cast<unsigned>(width));
    return shuffle_from(mask, var, src, "__shfl_xor_sync", where);
}

/* Votes: only the predicates of the lanes in `mask` count. */
inline unsigned __ballot_sync(unsigned mask, int predicate, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    return ::simtlab_emu::warp::ballot(mask, predicate, "__ballot_sync", where);
}

inline int __any_sync(unsigned mask, int predicate, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    return ::simtlab_emu::warp::ballot(mask, predicate, "__any_sync", where) != 0;
}

inline int __all_sync(unsigned mask, int predicate, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    const ::simtlab_emu::warp::vote_lane v = ::simtlab_emu::warp::vote(mask, predicate, "__all_sync", where);
    return v.ballot == v.voters;
}

inline int __uni_sync(unsigned mask, int predicate, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    const ::simtlab_emu::warp::vote_lane v = ::simtlab_emu::warp::vote(mask, predicate, "__uni_sync", where);
    return v.ballot == 0 || v.ballot == v.voters;
}

/* The lanes of the warp that have not exited. It does not synchronize:
 * the Guide promises no more than that the caller's own bit is set, and
 * lanes that exited are clear; the emulator reports every other lane as
 * active, which a GPU may do too (independent thread scheduling). */
inline unsigned __activemask() { return ::simtlab_emu::active_mask(); }

/* The lanes of `mask` whose value has the same bit pattern as the caller's. */
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    return ::simtlab_emu::warp::match(mask, value, "__match_any_sync", where);
}

/* `mask` and *pred = 1 when every lane of the mask has the same value,
 * else 0 and *pred = 0. */
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int *pred, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)
{
    const ::simtlab_emu::warp::match_lane m = ::simtlab_emu::warp::match_lanes(mask, value, "__match_all_sync", where);
    bool all = m.same == m.voters;
    *pred = all ? 1 : 0;
    return all ? mask : 0u;
}

#define SIMTLAB_EMU_WARP_REDUCE(name, op, type)                                                      \
    inline type name(unsigned mask, type value, ::simtlab_emu::here where = SIMTLAB_EMU_CALLER)      \
    {                                                                                                \
        return ::simtlab_emu::warp::reduce<::simtlab_emu::warp::op, type>(mask, value, #name, where); \
    }
SIMTLAB_EMU_WARP_REDUCE(__reduce_add_sync, op_add, unsigned)
SIMTLAB_EMU_WARP_REDUCE(__reduce_add_sync, op_add, int)
SIMTLAB_EMU_WARP_REDUCE(__reduce_min_sync, op_min, unsigned)
SIMTLAB_EMU_WARP_REDUCE(__reduce_min_sync, op_min, int)
SIMTLAB_EMU_WARP_REDUCE(__reduce_max_sync, op_max, unsigned)
SIMTLAB_EMU_WARP_REDUCE(__reduce_max_sync, op_max, int)
SIMTLAB_EMU_WARP_REDUCE(__reduce_and_sync, op_and, unsigned)
SIMTLAB_EMU_WARP_REDUCE(__reduce_or_sync, op_or, unsigned)
SIMTLAB_EMU_WARP_REDUCE(__reduce_xor_sync, op_xor, unsigned)
#undef SIMTLAB_EMU_WARP_REDUCE

#endif
