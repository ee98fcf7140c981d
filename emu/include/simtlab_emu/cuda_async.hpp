/* simtlab CPU emulator — libcu++'s asynchronous copies as far as course
 * code uses them: cuda::barrier (block scope), cuda::pipeline (thread
 * scope), cuda::memcpy_async and cuda::aligned_size_t, for <cuda/barrier>
 * and <cuda/pipeline>.
 *
 * How they are emulated:
 *   - memcpy_async copies at once, in the calling thread. A GPU may finish
 *     the copy any time before the wait that covers it; finishing it early
 *     is one of the orders it may choose, so a correct program sees the same
 *     data. (A program that reads the destination before its wait is wrong
 *     on a GPU and is not caught here; cp.async through ptx.hpp is.)
 *   - a block-scope barrier whose expected count is the block's size is the
 *     block barrier: arrive_and_wait() is __syncthreads(), with its checks
 *     (every thread at the same call site). arrive() returns a token and
 *     wait(token) waits at the barrier; a thread that arrives must also
 *     wait. Other expected counts, and barriers of wider scope, fail the
 *     launch with cudaErrorNotSupported.
 *   - a thread-scope pipeline needs no synchronisation at all once copies
 *     are done when issued: its acquire, commit, wait and release check
 *     their order only. Block-scope pipelines (make_pipeline(group, state,
 *     role)) fail the launch with cudaErrorNotSupported.
 */
#ifndef SIMTLAB_EMU_CUDA_ASYNC_HPP
#define SIMTLAB_EMU_CUDA_ASYNC_HPP

#include <simtlab_emu/cuda_scope.hpp>
#include <simtlab_emu/engine.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace cuda {

template <std::size_t Align>
struct aligned_size_t {
    static constexpr std::size_t align = Align;
    std::size_t value;
    constexpr explicit aligned_size_t(std::size_t size) : value(size) {}
    constexpr operator std::size_t() const { return value; }
};

namespace detail {
inline std::size_t copy_bytes(std::size_t n) { return n; }
template <std::size_t A>
inline std::size_t copy_bytes(aligned_size_t<A> n) { return n.value; }

inline unsigned block_threads()
{
    return ::simtlab_emu::block_dim.x * ::simtlab_emu::block_dim.y * ::simtlab_emu::block_dim.z;
}
} /* namespace detail */

template <thread_scope Scope, class CompletionFunction = void>
class barrier {
public:
    using arrival_token = unsigned long;

    friend inline void init(barrier *bar, std::ptrdiff_t expected)
    {
        bar->expected_ = expected;
    }

    arrival_token arrive(::simtlab_emu::here where = ::simtlab_emu::call_site())
    {
        check(where);
        return 0;
    }
    void wait(arrival_token, ::simtlab_emu::here where = ::simtlab_emu::call_site())
    {
        check(where);
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
    }
    void arrive_and_wait(::simtlab_emu::here where = ::simtlab_emu::call_site())
    {
        check(where);
        ::simtlab_emu::sync_block(::simtlab_emu::sync_plain, 1, where);
    }

private:
    void check(::simtlab_emu::here where) const
    {
        if (Scope == thread_scope_block && expected_ == static_cast<std::ptrdiff_t>(detail::block_threads()))
            return;
        char text[256];
        std::snprintf(text, sizeof text,
                      "%s:%d: cuda::barrier with %s scope and an expected count of %td (the block has %u threads) "
                      "is not emulated: only block-scope barriers that the whole block uses",
                      where.file, where.line, Scope == thread_scope_block ? "block" : "a wider", expected_,
                      detail::block_threads());
        ::simtlab_emu::fail_launch(cudaErrorNotSupported, text);
    }

    std::ptrdiff_t expected_;
};

/* Copies now (see above). Completion is tracked by nothing: it is done. */
template <class Size, thread_scope Scope, class F>
inline void memcpy_async(void *dst, const void *src, Size size, barrier<Scope, F> &)
{
    std::memcpy(dst, src, detail::copy_bytes(size));
}
/* The group form: every thread of the group makes the same call; one copy
 * by each is the same bytes. */
template <class Group, class Size, thread_scope Scope, class F>
inline void memcpy_async(const Group &, void *dst, const void *src, Size size, barrier<Scope, F> &)
{
    std::memcpy(dst, src, detail::copy_bytes(size));
}

/* ---- pipelines ------------------------------------------------------------ */

enum class pipeline_role { producer, consumer };

template <thread_scope Scope, unsigned char Stages = 2>
struct pipeline_shared_state {
    unsigned char unused[8];
};

template <thread_scope Scope>
class pipeline {
public:
    void producer_acquire() {}
    void producer_commit() {}
    void consumer_wait() {}
    template <class Rep, class Period>
    bool consumer_wait_for(const Rep &, const Period &) { return true; }
    void consumer_release() {}
    bool quit() { return true; }
};

inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }

/* The free forms for a thread-scope pipeline: wait until all but the last
 * `Prior` committed stages are complete. Every copy is complete when it is
 * issued (above), so there is nothing to wait for. */
template <std::uint8_t Prior>
inline void pipeline_consumer_wait_prior(pipeline<thread_scope_thread> &)
{
}

template <class Group, unsigned char Stages>
inline pipeline<thread_scope_block> make_pipeline(const Group &, pipeline_shared_state<thread_scope_block, Stages> *,
                                                  pipeline_role = pipeline_role::consumer,
                                                  ::simtlab_emu::here where = ::simtlab_emu::call_site())
{
    char text[200];
    std::snprintf(text, sizeof text,
                  "%s:%d: a block-scope cuda::pipeline (make_pipeline with a group and shared state) is not emulated; "
                  "thread-scope pipelines (cuda::make_pipeline()) are",
                  where.file, where.line);
    ::simtlab_emu::fail_launch(cudaErrorNotSupported, text);
}
template <class Group, unsigned char Stages>
inline pipeline<thread_scope_block> make_pipeline(const Group &g,
                                                  pipeline_shared_state<thread_scope_block, Stages> *state,
                                                  std::size_t, ::simtlab_emu::here where = ::simtlab_emu::call_site())
{
    return make_pipeline(g, state, pipeline_role::consumer, where);
}

template <class Size, thread_scope Scope>
inline void memcpy_async(void *dst, const void *src, Size size, pipeline<Scope> &)
{
    std::memcpy(dst, src, detail::copy_bytes(size));
}
template <class Group, class Size, thread_scope Scope>
inline void memcpy_async(const Group &, void *dst, const void *src, Size size, pipeline<Scope> &)
{
    std::memcpy(dst, src, detail::copy_bytes(size));
}

} /* namespace cuda */

#endif
