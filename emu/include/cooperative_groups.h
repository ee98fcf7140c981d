/* simtlab CPU emulator — <cooperative_groups.h>: thread groups as the CUDA
 * Programming Guide, "Cooperative Groups", describes them.
 *
 *   this_thread_block()      the block: thread_rank, size/num_threads, sync,
 *                            group_index, thread_index, dim_threads
 *   tiled_partition<N>(g)    thread_block_tile<N>, N a power of two up to 32:
 *                            sync, shfl, shfl_up/down/xor (any trivially
 *                            copyable type), ballot, any, all,
 *                            match_any/match_all, meta_group_rank/size;
 *                            N from 64 to 1024: sync, thread_rank, size,
 *                            meta_group_rank/size, cg::reduce (below)
 *   tiled_partition(g, n)    the same as a thread_group (type-erased)
 *   coalesced_threads()      the lanes of the warp that reach this call
 *                            together (see below), with the tile's operations
 *                            in rank order; labeled_partition, binary_partition
 *   this_grid()              grid_group: thread_rank, size, is_valid, and
 *                            sync() in a kernel launched with
 *                            cudaLaunchCooperativeKernel
 *   cg::sync(g)              g.sync()
 * and, in their own headers as in the toolkit, cg::reduce
 * (<cooperative_groups/reduce.h>), inclusive_scan/exclusive_scan
 * (<cooperative_groups/scan.h>), memcpy_async/wait
 * (<cooperative_groups/memcpy_async.h>).
 *
 * Tiles and coalesced groups are the warp operations of device_warp.hpp
 * with the group's lanes as the mask: a lane of the group that exited, or
 * that waits at another operation, fails the launch as a __shfl_sync would.
 * A tile of more than 32 threads waits at its sync() for its own threads
 * only (multi_warp_sync below); making one (tiled_partition) is collective
 * over the block, as in CUDA, and waits at the block barrier.
 *
 * coalesced_threads(): the emulator runs a warp's lanes one after another,
 * so "the lanes active here" is decided by waiting: the call returns when
 * no thread of the block can move on without the caller, with the lanes of
 * the warp that wait at the same coalesced_threads() call (file and line).
 * On a GPU with independent thread scheduling (sm_70 on) any set that holds
 * the caller is allowed; this is the one where every lane that gets there
 * is in it.
 */
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_

#include <cuda_runtime.h>
#include <simtlab_emu/cooperative.hpp>
#include <simtlab_emu/device_warp.hpp>

#include <type_traits>

namespace cooperative_groups {

namespace details {

using ::simtlab_emu::here;

/* The caller's linear index in its block, and the block's size. */
inline unsigned block_rank()
{
    const uint3 t = ::simtlab_emu::thread_idx, d = ::simtlab_emu::block_dim;
    return t.x + d.x * (t.y + d.y * t.z);
}
inline unsigned block_size()
{
    const uint3 d = ::simtlab_emu::block_dim;
    return d.x * d.y * d.z;
}
inline unsigned lane() { return block_rank() % 32u; }
/* The lanes of the caller's warp that exist (a block whose size is not a
 * multiple of 32 has a partial last warp). */
inline unsigned warp_lanes()
{
    const unsigned first = block_rank() / 32u * 32u, count = block_size() - first;
    return count >= 32u ? ~0u : (1u << count) - 1u;
}
inline unsigned rank_in(unsigned mask, unsigned lane) { return __builtin_popcount(mask & ((1u << lane) - 1u)); }
/* The lane holding rank `rank` of mask, or 32 when there is none. */
inline unsigned lane_of_rank(unsigned mask, unsigned rank)
{
    for (unsigned lane = 0; lane < 32u; lane++)
        if ((mask >> lane & 1u) && rank-- == 0)
            return lane;
    return 32u;
}
/* Bits of `bits` (lanes of mask) moved to rank order. */
inline unsigned to_ranks(unsigned bits, unsigned mask)
{
    unsigned out = 0, rank = 0;
    for (unsigned lane = 0; lane < 32u; lane++)
        if (mask >> lane & 1u)
            out |= (bits >> lane & 1u) << rank++;
    return out;
}
/* The lanes of an aligned tile of `size` (a power of two up to 32) that hold the caller. */
inline unsigned tile_mask(unsigned size)
{
    const unsigned lanes = size >= 32u ? ~0u : ((1u << size) - 1u) << (lane() & ~(size - 1u));
    return lanes & warp_lanes();
}

inline void warp_sync(unsigned mask, const char *op, here where)
{
    int token = 0;
    ::simtlab_emu::warp_collective(mask, &token, &::simtlab_emu::warp::no_exchange, nullptr, op, where);
}

template <class T>
inline T shuffle(unsigned mask, T var, unsigned src, const char *op, here where)
{
    if (src >= 32u)
        ::simtlab_emu::coop::not_emulated("a shuffle from a rank outside the group", where);
    if constexpr (sizeof(T) <= 8) {
        return ::simtlab_emu::warp::shuffle_from(mask, var, src, op, where);
    } else {
        /* A group's shfl takes any trivially copyable type (uint4, a
         * struct): moved in 8-byte pieces, one warp shuffle each, as CUDA
         * moves it in 32-bit ones. */
        static_assert(std::is_trivially_copyable_v<T>, "a group's shfl moves trivially copyable values");
        constexpr unsigned pieces = (sizeof(T) + 7u) / 8u;
        unsigned long long bits[pieces] = {};
        __builtin_memcpy(bits, &var, sizeof(T));
        for (unsigned k = 0; k < pieces; k++)
            bits[k] = ::simtlab_emu::warp::shuffle_from(mask, bits[k], src, op, where);
        T out;
        __builtin_memcpy(&out, bits, sizeof(T));
        return out;
    }
}

enum group_kind : unsigned { grid_kind, block_kind, tile_kind, coalesced_kind };

/* ---- tiles of more than 32 threads (64 to 1024, a power of two) ----------
 * Their sync() waits for the tile's threads only, which a CUDA block does
 * with a hardware barrier for part of the block. Here the tile's threads
 * meet at a counter in the block's shared memory: each arrival adds one,
 * the last one of a round resets it and advances the round, and the others
 * wait for the round to change with atomics, which the engine's spin
 * detection (engine.hpp, spin_note) turns into switches to the block's
 * other threads; a tile whose threads never all arrive fails the launch
 * after SIMTLAB_EMU_SPIN_LIMIT_S, naming the line, instead of hanging.
 * The state (one counter pair per tile of the block, and a slot per warp
 * for cg::reduce) is zeroed when a tile is made: tiled_partition is
 * collective over the block, as in CUDA, and for these tiles it waits at
 * two block barriers (before the zeroing, so that no tile is still inside
 * a sync of an earlier tile, and after it). */
struct multi_warp_state {
    unsigned arrived[32];
    unsigned round[32];
    alignas(16) unsigned char partial[32][16]; /* one value per warp (cg::reduce) */
};

inline multi_warp_state &multi_warp_shared(here where)
{
    return ::simtlab_emu::shared_var<multi_warp_state>([] {}, where);
}

inline void multi_warp_prepare(here where)
{
    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where);
    multi_warp_state &s = multi_warp_shared(where);
    if (block_rank() == 0)
        for (unsigned t = 0; t < 32u; t++)
            s.arrived[t] = s.round[t] = 0u;
    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where);
}

/* The caller's tile of `size` threads waits for its threads. Tiles are
 * aligned in the block (sizes are powers of two, a tile's tiles lie inside
 * it), so the tile is block_rank() / size whatever the parent was. */
inline void multi_warp_sync(unsigned size, here where)
{
    multi_warp_state &s = multi_warp_shared(where);
    const unsigned block = block_size(), tile = block_rank() / size;
    /* A partial last tile (a block size that is not a multiple) has fewer. */
    const unsigned members = (tile + 1u) * size <= block ? size : block - tile * size;
    const unsigned round = atomicAdd(&s.round[tile], 0u);
    if (atomicAdd(&s.arrived[tile], 1u) == members - 1u) {
        atomicExch(&s.arrived[tile], 0u);
        atomicAdd(&s.round[tile], 1u);
        return;
    }
    while (atomicAdd(&s.round[tile], 0u) == round) {
    }
}

} /* namespace details */

/* ---- thread_group: any group, its kind known at run time ------------------ */
class thread_group {
public:
    unsigned long long size() const
    {
        switch (kind_) {
        case details::grid_kind: {
            const uint3 g = ::simtlab_emu::grid_dim;
            return 1ull * g.x * g.y * g.z * details::block_size();
        }
        case details::block_kind: return details::block_size();
        case details::tile_kind: return size_;
        default: return static_cast<unsigned>(__builtin_popcount(mask_));
        }
    }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const
    {
        switch (kind_) {
        case details::grid_kind: {
            const uint3 b = ::simtlab_emu::block_idx, g = ::simtlab_emu::grid_dim;
            return (b.x + 1ull * g.x * (b.y + 1ull * g.y * b.z)) * details::block_size() + details::block_rank();
        }
        case details::block_kind: return details::block_rank();
        case details::tile_kind: return details::block_rank() % size_;
        default: return details::rank_in(mask_, details::lane());
        }
    }
    void sync(details::here where = SIMTLAB_EMU_CALLER) const
    {
        switch (kind_) {
        case details::grid_kind: ::simtlab_emu::coop::grid_sync(where); return;
        case details::block_kind: ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where); return;
        case details::tile_kind:
            if (size_ > 32u) {
                if (size_ < details::block_size())
                    details::multi_warp_sync(size_, where);
                else
                    ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where);
                return;
            }
            details::warp_sync(mask_, "thread_block_tile::sync", where);
            return;
        default: details::warp_sync(mask_, "coalesced_group::sync", where); return;
        }
    }
    unsigned get_type() const { return kind_; }
    /* The emulator's own: the group's lanes of the caller's warp (tiles of up
     * to 32 threads and coalesced groups; the warp's lanes otherwise). */
    unsigned simtlab_emu_lanes() const
    {
        return kind_ == details::coalesced_kind || (kind_ == details::tile_kind && size_ <= 32u)
                   ? mask_
                   : details::warp_lanes();
    }

protected:
    thread_group(unsigned kind, unsigned mask, unsigned size, unsigned meta_rank, unsigned meta_size)
        : kind_(kind), mask_(mask), size_(size), meta_rank_(meta_rank), meta_size_(meta_size)
    {
    }
    unsigned kind_;
    unsigned mask_;      /* tiles and coalesced groups: their lanes of the caller's warp */
    unsigned size_;      /* tiles: the tile size */
    unsigned meta_rank_; /* which tile of the parent, and how many there are */
    unsigned meta_size_;

    friend thread_group tiled_partition(const thread_group &parent, unsigned tile_size);
    friend class coalesced_group;
};

/* ---- the block ------------------------------------------------------------- */
class thread_block : public thread_group {
public:
    thread_block() : thread_group(details::block_kind, 0, 0, 0, 1) {}
    static void sync(details::here where = SIMTLAB_EMU_CALLER)
    {
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where);
    }
    static unsigned thread_rank() { return details::block_rank(); }
    static unsigned size() { return details::block_size(); }
    static unsigned num_threads() { return details::block_size(); }
    static dim3 group_index() { return dim3(::simtlab_emu::block_idx); }
    static dim3 thread_index() { return dim3(::simtlab_emu::thread_idx); }
    static dim3 dim_threads() { return dim3(::simtlab_emu::block_dim); }
    static dim3 group_dim() { return dim3(::simtlab_emu::block_dim); }
};

inline thread_block this_thread_block() { return thread_block(); }

/* ---- the grid ---------------------------------------------------------------- */
class grid_group : public thread_group {
public:
    grid_group() : thread_group(details::grid_kind, 0, 0, 0, 1) {}
    /* False in a kernel launched with <<<>>>, where sync() fails the launch. */
    static bool is_valid() { return ::simtlab_emu::coop::grid_is_cooperative(); }
    static void sync(details::here where = SIMTLAB_EMU_CALLER) { ::simtlab_emu::coop::grid_sync(where); }
    static unsigned long long block_rank()
    {
        const uint3 b = ::simtlab_emu::block_idx, g = ::simtlab_emu::grid_dim;
        return b.x + 1ull * g.x * (b.y + 1ull * g.y * b.z);
    }
    static unsigned long long num_blocks()
    {
        const uint3 g = ::simtlab_emu::grid_dim;
        return 1ull * g.x * g.y * g.z;
    }
    static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
    static unsigned long long size() { return num_blocks() * details::block_size(); }
    static unsigned long long num_threads() { return size(); }
    static dim3 block_index() { return dim3(::simtlab_emu::block_idx); }
    static dim3 dim_blocks() { return dim3(::simtlab_emu::grid_dim); }
    static dim3 group_dim() { return dim3(::simtlab_emu::grid_dim); }
};

inline grid_group this_grid() { return grid_group(); }

/* ---- operations over a set of lanes of one warp ------------------------------ *
 * Shared by tiles (whose lanes are aligned, rank = lane % size) and
 * coalesced groups (any lanes, rank = position among them). */
namespace details {
template <class Group>
struct warp_ops {
    template <class T>
    T shfl(T var, unsigned src_rank, here where = SIMTLAB_EMU_CALLER) const
    {
        const Group &g = self();
        return shuffle(g.simtlab_emu_lanes(), var, g.lane_of(src_rank % g.count()), "shfl", where);
    }
    template <class T>
    T shfl_down(T var, unsigned delta, here where = SIMTLAB_EMU_CALLER) const
    {
        const Group &g = self();
        const unsigned rank = g.rank(), n = g.count();
        return shuffle(g.simtlab_emu_lanes(), var, rank + delta < n ? g.lane_of(rank + delta) : lane(), "shfl_down", where);
    }
    template <class T>
    T shfl_up(T var, unsigned delta, here where = SIMTLAB_EMU_CALLER) const
    {
        const Group &g = self();
        const unsigned rank = g.rank();
        return shuffle(g.simtlab_emu_lanes(), var, rank >= delta ? g.lane_of(rank - delta) : lane(), "shfl_up", where);
    }
    template <class T>
    T shfl_xor(T var, unsigned lane_mask, here where = SIMTLAB_EMU_CALLER) const
    {
        const Group &g = self();
        const unsigned src = g.rank() ^ lane_mask;
        return shuffle(g.simtlab_emu_lanes(), var, src < g.count() ? g.lane_of(src) : lane(), "shfl_xor", where);
    }
    /* Bit r is the predicate of the thread of rank r. */
    unsigned ballot(int predicate, here where = SIMTLAB_EMU_CALLER) const
    {
        const Group &g = self();
        return to_ranks(::simtlab_emu::warp::ballot(g.simtlab_emu_lanes(), predicate, "ballot", where), g.simtlab_emu_lanes());
    }
    int any(int predicate, here where = SIMTLAB_EMU_CALLER) const
    {
        return ::simtlab_emu::warp::ballot(self().simtlab_emu_lanes(), predicate, "any", where) != 0;
    }
    int all(int predicate, here where = SIMTLAB_EMU_CALLER) const
    {
        const unsigned mask = self().simtlab_emu_lanes();
        const ::simtlab_emu::warp::vote_lane v = ::simtlab_emu::warp::vote(mask, predicate, "all", where);
        return v.ballot == v.voters;
    }
    template <class T>
    unsigned match_any(T value, here where = SIMTLAB_EMU_CALLER) const
    {
        const unsigned mask = self().simtlab_emu_lanes();
        return to_ranks(::simtlab_emu::warp::match(mask, value, "match_any", where), mask);
    }
    template <class T>
    unsigned match_all(T value, int &pred, here where = SIMTLAB_EMU_CALLER) const
    {
        const unsigned mask = self().simtlab_emu_lanes();
        const ::simtlab_emu::warp::match_lane m = ::simtlab_emu::warp::match_lanes(mask, value, "match_all", where);
        const bool all = m.same == m.voters;
        pred = all ? 1 : 0;
        return all ? to_ranks(mask, mask) : 0u;
    }

private:
    const Group &self() const { return static_cast<const Group &>(*this); }
};
} /* namespace details */

/* ---- tiles ------------------------------------------------------------------- */
namespace details {

/* A tile of up to 32 threads: lanes of one warp. */
template <unsigned Size>
class small_tile : public thread_group, public warp_ops<small_tile<Size>> {
    static_assert(Size >= 1 && (Size & (Size - 1)) == 0, "thread_block_tile<N> takes N a power of two");

public:
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    unsigned thread_rank() const { return lane() & (Size - 1u); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    void sync(here where = SIMTLAB_EMU_CALLER) const { warp_sync(mask_, "thread_block_tile::sync", where); }

protected:
    /* A tile of `parent_rank`'s parent, which has `parent_size` threads. */
    small_tile(unsigned parent_rank, unsigned parent_size, here)
        : thread_group(tile_kind, tile_mask(Size), Size, parent_rank / Size, (parent_size + Size - 1) / Size)
    {
    }

private:
    friend struct warp_ops<small_tile<Size>>;
    unsigned rank() const { return thread_rank(); }
    unsigned count() const { return Size; }
    unsigned lane_of(unsigned rank) const { return (lane() & ~(Size - 1u)) | rank; }
};

/* A tile of 64 to 1024 threads: whole warps (see multi_warp_sync above). As
 * in CUDA it has sync, thread_rank, size/num_threads, meta_group_rank/size
 * and the collectives (cg::reduce); the shuffles and votes are for tiles of
 * up to 32 threads. */
template <unsigned Size>
class large_tile : public thread_group {
    static_assert((Size & (Size - 1)) == 0 && Size <= 1024u,
                  "thread_block_tile<N> of more than 32 threads takes N a power of two up to 1024");

public:
    static constexpr unsigned num_threads() { return Size; }
    static constexpr unsigned size() { return Size; }
    unsigned thread_rank() const { return block_rank() & (Size - 1u); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    void sync(here where = SIMTLAB_EMU_CALLER) const
    {
        if (Size >= block_size())
            ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 0, where);
        else
            multi_warp_sync(Size, where);
    }
    /* The emulator's own: the caller's warp (cg::reduce combines its lanes
     * first, then the warps of the tile). */
    unsigned simtlab_emu_lanes() const { return warp_lanes(); }
    static constexpr bool simtlab_emu_multi_warp = true;

protected:
    large_tile(unsigned parent_rank, unsigned parent_size, here where)
        : thread_group(tile_kind, 0u, Size, parent_rank / Size, (parent_size + Size - 1) / Size)
    {
        if (Size < parent_size)
            multi_warp_prepare(where);
    }
};

template <unsigned Size>
using tile_base = std::conditional_t<(Size <= 32u), small_tile<Size>, large_tile<Size>>;

} /* namespace details */

template <unsigned Size, class ParentT = void>
class thread_block_tile;

template <unsigned Size>
class thread_block_tile<Size, void> : public details::tile_base<Size> {
protected:
    thread_block_tile(unsigned parent_rank, unsigned parent_size, details::here where)
        : details::tile_base<Size>(parent_rank, parent_size, where)
    {
    }
};

template <unsigned Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
public:
    explicit thread_block_tile(const ParentT &parent, details::here where = SIMTLAB_EMU_CALLER)
        : thread_block_tile<Size, void>(static_cast<unsigned>(parent.thread_rank()),
                                        static_cast<unsigned>(parent.size()), where)
    {
    }
};

namespace details {
template <class T>
struct is_tile : std::false_type {};
template <unsigned Size, class P>
struct is_tile<thread_block_tile<Size, P>> : std::true_type {};
} /* namespace details */

template <unsigned Size, class ParentT>
inline thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent,
                                                       details::here where = SIMTLAB_EMU_CALLER)
{
    static_assert(std::is_same_v<ParentT, thread_block> || details::is_tile<ParentT>::value,
                  "tiled_partition<N> partitions a thread_block or a thread_block_tile");
    return thread_block_tile<Size, ParentT>(parent, where);
}

/* The scratch a CUDA block gives tiles of more than 32 threads on devices
 * before compute capability 8.0 (`__shared__ cg::block_tile_memory<N> s;
 * auto block = cg::this_thread_block(s);`). The emulator keeps its own
 * (multi_warp_state), so this only has to exist. */
template <unsigned MaxBlockSize = 1024u>
struct block_tile_memory {
    unsigned char reserved[16];
};

template <unsigned MaxBlockSize>
inline thread_block this_thread_block(block_tile_memory<MaxBlockSize> &)
{
    return thread_block();
}

/* ---- coalesced groups --------------------------------------------------------- */
class coalesced_group : public thread_group, public details::warp_ops<coalesced_group> {
public:
    unsigned thread_rank() const { return details::rank_in(mask_, details::lane()); }
    unsigned size() const { return static_cast<unsigned>(__builtin_popcount(mask_)); }
    unsigned num_threads() const { return size(); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    void sync(details::here where = SIMTLAB_EMU_CALLER) const
    {
        details::warp_sync(mask_, "coalesced_group::sync", where);
    }

    /* The group of the lanes of `mask` (which holds the caller). */
    explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
        : thread_group(details::coalesced_kind, mask, 0, meta_rank, meta_size)
    {
    }

private:
    friend struct details::warp_ops<coalesced_group>;
    friend coalesced_group tiled_partition(const coalesced_group &parent, unsigned tile_size);
    unsigned rank() const { return thread_rank(); }
    unsigned count() const { return size(); }
    unsigned lane_of(unsigned rank) const { return details::lane_of_rank(mask_, rank); }
};

inline coalesced_group coalesced_threads(details::here where = SIMTLAB_EMU_CALLER)
{
    return coalesced_group(::simtlab_emu::coop::coalesced_mask(where));
}

/* Ranks [k * n, k * n + n) of the parent, for the k that holds the caller. */
inline coalesced_group tiled_partition(const coalesced_group &parent, unsigned tile_size)
{
    const unsigned rank = parent.thread_rank(), first = rank / tile_size * tile_size;
    unsigned mask = 0;
    for (unsigned r = first; r < first + tile_size && r < parent.size(); r++)
        mask |= 1u << details::lane_of_rank(parent.simtlab_emu_lanes(), r);
    return coalesced_group(mask, rank / tile_size, (parent.size() + tile_size - 1) / tile_size);
}

/* ---- partitions by value ------------------------------------------------------ */
/* The lanes of `parent` (a tile or a coalesced group) whose label equals the caller's. */
template <class Group>
inline coalesced_group labeled_partition(const Group &parent, int label, details::here where = SIMTLAB_EMU_CALLER)
{
    const unsigned mask = parent.simtlab_emu_lanes();
    return coalesced_group(::simtlab_emu::warp::match(mask, label, "labeled_partition", where));
}

/* The lanes of `parent` whose predicate is as true (or as false) as the caller's. */
template <class Group>
inline coalesced_group binary_partition(const Group &parent, bool pred, details::here where = SIMTLAB_EMU_CALLER)
{
    const unsigned mask = parent.simtlab_emu_lanes();
    const unsigned yes = ::simtlab_emu::warp::ballot(mask, pred, "binary_partition", where);
    return coalesced_group(pred ? yes : mask & ~yes);
}

/* ---- tiles as thread_group ------------------------------------------------------ */
/* A tile of `tile_size` threads (a power of two) of a block or of a tile; a
 * coalesced group's tiles are coalesced groups of consecutive ranks. */
inline thread_group tiled_partition(const thread_group &parent, unsigned tile_size)
{
    if (parent.get_type() == details::coalesced_kind)
        return tiled_partition(static_cast<const coalesced_group &>(parent), tile_size);
    const unsigned rank = static_cast<unsigned>(parent.thread_rank());
    const unsigned size = static_cast<unsigned>(parent.size());
    const unsigned mask = tile_size <= 32u ? details::tile_mask(tile_size) : 0u;
    if (tile_size > 32u && tile_size < size) /* collective, as tiled_partition<N> (above) */
        details::multi_warp_prepare(SIMTLAB_EMU_CALLER);
    return thread_group(details::tile_kind, mask, tile_size, rank / tile_size, (size + tile_size - 1) / tile_size);
}

inline thread_group tiled_partition(const thread_block &parent, unsigned tile_size)
{
    return tiled_partition(static_cast<const thread_group &>(parent), tile_size);
}

/* ---- free functions ------------------------------------------------------------- */
template <class Group>
inline void sync(const Group &group, details::here where = SIMTLAB_EMU_CALLER)
{
    group.sync(where);
}
template <class Group>
inline unsigned long long thread_rank(const Group &group)
{
    return group.thread_rank();
}
template <class Group>
inline unsigned long long group_size(const Group &group)
{
    return group.size();
}
template <class Group>
inline unsigned long long num_threads(const Group &group)
{
    return group.num_threads();
}

} /* namespace cooperative_groups */

#endif
