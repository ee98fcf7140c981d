/* simtlab CPU emulator — kernel launches.
 *
 * slrewrite turns   k<<<grid, block, shmem, stream>>>(a, b, c)
 * into    ::simtlab_emu::launch("k", __FILE__, __LINE__, k, grid, block, shmem, stream)(a, b, c)
 *
 * launch() deduces the kernel's parameter types from the function pointer,
 * so a template kernel named with its arguments (k<float, 256>) works
 * as-is. grid and block are dim3 parameters, not deduced, so an int, an
 * unsigned, a size_t or a dim3 all convert the way a CUDA launch converts
 * them. The returned launcher converts the arguments to the parameter types,
 * by value, as a CUDA launch copies them into the kernel's parameter space,
 * and hands the engine a body that calls the kernel with them.
 */
#ifndef SIMTLAB_EMU_LAUNCH_HPP
#define SIMTLAB_EMU_LAUNCH_HPP

#include <simtlab_emu/engine.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace simtlab_emu {

namespace detail {

/* One launch's kernel and argument values. Every CUDA thread calls the
 * kernel with its own copies (std::apply passes the stored values to
 * by-value parameters), so a thread that modifies a parameter modifies
 * only its own, as on a GPU. The engine may run threads on several OS
 * threads at once; they only read this. */
/* Every CUDA thread of the grid reads this (every worker, for every thread
 * it starts), so it has its cache lines to itself instead of sharing one
 * with the launching thread's own frames, which that thread writes between
 * blocks (measured on the 2-core dev VM, vector add of 2^22 floats on two
 * workers, alternating runs: 10.6-10.8 ms unaligned, 10.35-10.4 aligned). */
template <class... P>
struct alignas(64) kernel_call {
    void (*kernel)(P...);
    std::tuple<P...> args;

    static void run_one_thread(void *self)
    {
        const kernel_call *call = static_cast<const kernel_call *>(self);
        std::apply(call->kernel, call->args);
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0 /* the counters' */
        profile_thread_exit(); /* what runs after this is not the kernel's */
#endif
    }

    /* The same for a kernel named at compile time (launch_known): a direct
     * call, which GCC may inline, and then the check at the kernel's entry
     * (host_call_of_kernel) folds away, since the engine only ever runs
     * this in a CUDA thread: no test per thread is left. */
    template <void (*F)(P...)>
    static void run_known(void *self)
    {
        const kernel_call *call = static_cast<const kernel_call *>(self);
        if (!in_kernel_thread)
            __builtin_unreachable();
        std::apply(F, call->args);
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0 /* the counters' */
        profile_thread_exit();
#endif
    }
};

/* True when there are as many arguments as parameters and each argument
 * converts to its parameter's type. Guarded by the count so that the pack
 * expansion is only formed for packs of equal length. */
template <class... P>
struct params {
    template <class... A>
    static constexpr bool accept()
    {
        if constexpr (sizeof...(A) != sizeof...(P))
            return false;
        else
            return (std::is_constructible_v<P, A &&> && ...);
    }
};

/* ---- stream capture and kernels by address (emu/src/runtime/graph.cpp) --
 * How many streams are capturing (cudaStreamBeginCapture): while none is,
 * a launch pays one relaxed load for it. */
extern std::atomic<int> streams_capturing;
/* True when `stream` is being captured into a graph. */
bool stream_is_capturing(cudaStream_t stream);
/* Adds a launch to the graph `stream` is capturing: `run` performs it
 * (each time the graph is launched) and returns its result. */
void capture_launch(cudaStream_t stream, std::function<cudaError_t(cudaStream_t)> run);
/* A launch of `kernel` with copies of the argument values at args[i], to run
 * later on a stream (the C cudaLaunchKernel, graph kernel nodes): one
 * binder per parameter-type list; empty if args is NULL and the kernel
 * has parameters. If `values` is not null it receives the
 * address of each copy (what cudaGraphKernelNodeGetParams hands back); they
 * live as long as the returned launch. */
using bound_launch = std::function<cudaError_t(cudaStream_t)>;
using args_binder = bound_launch (*)(const launch_site &site, const void *kernel, dim3 grid, dim3 block,
                                     std::size_t shmem, void **args, std::vector<void *> *values);
/* Remembers how to bind `kernel`'s arguments, for the C forms that receive
 * it as const void *. */
void register_kernel(const void *kernel, args_binder bind);
/* cudaLaunchKernel with args == NULL for a kernel that has parameters:
 * records cudaErrorInvalidValue with a diagnostic and returns it. */
cudaError_t launch_args_missing(const launch_site &site);
/* A launch from device code (dynamic parallelism, emu/src/engine/dynamic.cpp):
 * checks it and queues the grid on the launching grid, to run after that
 * grid's blocks; `closure` (the kernel and copies of its arguments) lives
 * until then. Returns the result, which is also the launching CUDA thread's
 * last error. */
cudaError_t device_launch(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem, cudaStream_t stream,
                          void (*body)(void *), std::shared_ptr<void> closure, const void *kernel_addr);
/* True in a CUDA thread: a launch there is a device launch. */
SIMTLAB_EMU_ALWAYS_INLINE inline bool launching_from_device()
{
    return __builtin_expect(current_worker->in_block, 0);
}

} /* namespace detail */

template <class... P>
class launcher {
public:
    /* thread: what each CUDA thread runs (kernel_call<P...>::run_one_thread,
     * or run_known for a kernel named at compile time). */
    launcher(const launch_site &site, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem,
             cudaStream_t stream, void (*thread)(void *) = &detail::kernel_call<P...>::run_one_thread)
        : site_(site), kernel_(kernel), grid_(grid), block_(block), shmem_(shmem), stream_(stream), thread_(thread)
    {
    }

    /* Runs the grid to completion. Like a CUDA launch it returns nothing:
     * the result is the last error (cudaGetLastError), which run_grid
     * records. The parameters have the kernel's own types, so the
     * arguments convert as in a call of the kernel: `NULL` (GCC's __null,
     * which a forwarded template argument would turn into a long) and `0`
     * become null pointers, braced lists build structs. */
    void operator()(P... args) const
    {
        /* forward: a by-value parameter moves on, a reference parameter
         * (`k(Data &d)`, which CUDA passes as the object's address) stays
         * bound to the caller's object. */
        (void)run(std::forward<P>(args)...);
    }

    /* A different number of arguments: said plainly rather than as "no
     * match for call". */
    template <class... A, std::enable_if_t<sizeof...(A) != sizeof...(P), int> = 0>
    void operator()(A &&...) const
    {
        static_assert(sizeof...(A) == sizeof...(P),
                      "kernel launched with a different number of arguments than it has parameters");
    }

    /* The same, returning the launch's result (cudaLaunchKernel). On a
     * stream being captured, the launch is recorded, with copies of the
     * arguments, instead of run. */
    template <class... A>
    cudaError_t run(A &&...args) const
    {
        static_assert(sizeof...(A) == sizeof...(P),
                      "kernel launched with a different number of arguments than it has parameters");
        static_assert(detail::params<P...>::template accept<A...>(),
                      "a kernel argument does not convert to its parameter's type");
        if (detail::launching_from_device()) {
            auto call = std::make_shared<detail::kernel_call<P...>>(
                detail::kernel_call<P...>{kernel_, std::tuple<P...>(std::forward<A>(args)...)});
            return detail::device_launch(site_, grid_, block_, shmem_, stream_, thread_, std::move(call),
                                         reinterpret_cast<const void *>(kernel_));
        }
        if (__builtin_expect(detail::streams_capturing.load(std::memory_order_relaxed) != 0, 0) &&
            detail::stream_is_capturing(stream_))
            return capture(std::forward<A>(args)...);
        detail::kernel_call<P...> call{kernel_, std::tuple<P...>(std::forward<A>(args)...)};
        return run_grid(site_, grid_, block_, shmem_, stream_, thread_, &call,
                        reinterpret_cast<const void *>(kernel_));
    }

private:
    template <class... A>
    cudaError_t capture(A &&...args) const
    {
        auto call = std::make_shared<detail::kernel_call<P...>>(
            detail::kernel_call<P...>{kernel_, std::tuple<P...>(std::forward<A>(args)...)});
        const launcher self = *this;
        detail::capture_launch(stream_, [self, call](cudaStream_t stream) {
            return run_grid(self.site_, self.grid_, self.block_, self.shmem_, stream, self.thread_, call.get(),
                            reinterpret_cast<const void *>(self.kernel_));
        });
        return cudaSuccess;
    }

    launch_site site_;
    void (*kernel_)(P...);
    dim3 grid_;
    dim3 block_;
    std::size_t shmem_;
    cudaStream_t stream_;
    void (*thread_)(void *);
};

namespace detail {

/* cudaLaunchKernel: parameter i's value is at args[i] (for a reference
 * parameter, args[i] is the address of the object it refers to). */
template <class... P, std::size_t... I>
cudaError_t launch_with_args(const launch_site &site, void (*kernel)(P...), dim3 grid, dim3 block,
                             std::size_t shmem, cudaStream_t stream, void **args, std::index_sequence<I...>)
{
    if (sizeof...(P) > 0 && !args)
        return launch_args_missing(site);
    return launcher<P...>(site, kernel, grid, block, shmem, stream)
        .run(*static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(args[I])...);
}

template <class... P, std::size_t... I>
bound_launch bind_args(const launch_site &site, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem,
                       void **args, std::vector<void *> *values, std::index_sequence<I...>)
{
    if (sizeof...(P) > 0 && !args)
        return bound_launch{}; /* empty: the caller reports the missing arguments */
    auto call = std::make_shared<kernel_call<P...>>(
        kernel_call<P...>{kernel, std::tuple<P...>(*static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(
                                                       args[I])...)});
    if (values)
        *values = std::vector<void *>{const_cast<void *>(static_cast<const void *>(&std::get<I>(call->args)))...};
    return [site, grid, block, shmem, call](cudaStream_t stream) {
        return run_grid(site, grid, block, shmem, stream, &kernel_call<P...>::run_one_thread, call.get(),
                        reinterpret_cast<const void *>(call->kernel));
    };
}

template <class... P>
bound_launch bind_with_args(const launch_site &site, const void *kernel, dim3 grid, dim3 block, std::size_t shmem,
                            void **args, std::vector<void *> *values)
{
    return bind_args(site, reinterpret_cast<void (*)(P...)>(const_cast<void *>(kernel)), grid, block, shmem, args,
                     values, std::index_sequence_for<P...>{});
}

/* The registry maps the kernel's address to the binder of its parameter
 * types. */
template <class... P>
inline void note_kernel(void (*kernel)(P...))
{
    register_kernel(reinterpret_cast<const void *>(kernel), &bind_with_args<P...>);
}

} /* namespace detail */

/* `kernel` is the kernel expression as written, for diagnostics. */
template <class... P>
launcher<P...> launch(const char *kernel, const char *file, int line, void (*k)(P...), dim3 grid, dim3 block,
                      std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return launcher<P...>(launch_site{kernel, file, line}, k, grid, block, shmem, stream);
}

/* The same for a kernel the launch names by itself, a function of the
 * file that is no template and has no overloads: slrewrite writes
 * `launch_known<decltype(&k), &k>(...)`, so that each CUDA thread calls k
 * directly (kernel_call::run_known) instead of through a pointer. */
template <class K, K F, class... P>
launcher<P...> launch_known(const char *kernel, const char *file, int line, void (*k)(P...), dim3 grid,
                            dim3 block, std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return launcher<P...>(launch_site{kernel, file, line}, k, grid, block, shmem, stream,
                          &detail::kernel_call<P...>::template run_known<F>);
}

/* slrewrite puts SIMTLAB_EMU_NOTE_KERNEL(k, void (*)(params)) after every
 * kernel that is not a template: a variable of internal linkage, named by
 * __COUNTER__, whose initialiser registers k when the program starts. */
#define SIMTLAB_EMU_NOTE_CAT2(a, b) a##b
#define SIMTLAB_EMU_NOTE_CAT(a, b) SIMTLAB_EMU_NOTE_CAT2(a, b)
#define SIMTLAB_EMU_NOTE_KERNEL(name, ...)                                                                      \
    [[maybe_unused]] static const bool SIMTLAB_EMU_NOTE_CAT(simtlab_emu_noted_, __COUNTER__) =                 \
        (::simtlab_emu::detail::note_kernel(static_cast<__VA_ARGS__>(name)), true);

/* ---- template kernels whose arguments a launch deduces -------------------
 * `k<<<g, b>>>(x, n)` where k is a function template: its name alone has no
 * pointer type, so slrewrite passes `call`, a generic lambda that calls
 * k(args...), and each CUDA thread deduces and converts through that call,
 * as the CUDA launch deduces k's template arguments from the argument types.
 * A launch from device code or into a stream capture runs later, so it
 * stores the arguments decayed (copies, by value); one that runs now passes
 * the caller's objects (deduced_ref_call below). The kernel's address
 * is not known here: run_grid gets nullptr, which checks dynamic shared
 * memory against the device's opt-in maximum (cudaFuncSetAttribute on an
 * instance cannot be matched to this launch). */
namespace detail {
template <class F, class... A>
struct alignas(64) deduced_call {
    F call;
    std::tuple<A...> args;

    static void run_one_thread(void *self)
    {
        /* not const: a parameter deduced as a reference binds to the copy */
        deduced_call *c = static_cast<deduced_call *>(self);
        std::apply(c->call, c->args);
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0 /* the counters' */
        profile_thread_exit();
#endif
    }
};
/* The same for a launch that runs before run() returns: the arguments are
 * the caller's own objects (references), so that a kernel parameter
 * deduced as a reference (template <class T> __global__ void k(T &x))
 * refers to the caller's object, as CUDA passes its address, while a
 * by-value parameter still gets each thread's own copy. */
template <class F, class... A>
struct alignas(64) deduced_ref_call {
    F call;
    std::tuple<A &&...> args;

    static void run_one_thread(void *self)
    {
        const deduced_ref_call *c = static_cast<const deduced_ref_call *>(self);
        std::apply(c->call, c->args);
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0 /* the counters' */
        profile_thread_exit();
#endif
    }
};
} /* namespace detail */

template <class F>
class deduced_launcher {
public:
    deduced_launcher(const launch_site &site, F call, dim3 grid, dim3 block, std::size_t shmem,
                     cudaStream_t stream)
        : site_(site), call_(call), grid_(grid), block_(block), shmem_(shmem), stream_(stream)
    {
    }

    template <class... A>
    void operator()(A &&...args) const
    {
        (void)run(std::forward<A>(args)...);
    }

    template <class... A>
    cudaError_t run(A &&...args) const
    {
        using call_t = detail::deduced_call<F, std::decay_t<A>...>;
        if (detail::launching_from_device()) {
            auto held = std::make_shared<call_t>(call_t{call_, std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)});
            return detail::device_launch(site_, grid_, block_, shmem_, stream_, &call_t::run_one_thread,
                                         std::move(held), nullptr);
        }
        if (__builtin_expect(detail::streams_capturing.load(std::memory_order_relaxed) != 0, 0) &&
            detail::stream_is_capturing(stream_)) {
            auto held = std::make_shared<call_t>(call_t{call_, std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)});
            const deduced_launcher self = *this;
            detail::capture_launch(stream_, [self, held](cudaStream_t stream) {
                return run_grid(self.site_, self.grid_, self.block_, self.shmem_, stream, &call_t::run_one_thread,
                                held.get(), nullptr);
            });
            return cudaSuccess;
        }
        using ref_call_t = detail::deduced_ref_call<F, A...>;
        ref_call_t c{call_, std::forward_as_tuple(std::forward<A>(args)...)};
        return run_grid(site_, grid_, block_, shmem_, stream_, &ref_call_t::run_one_thread, &c, nullptr);
    }

private:
    launch_site site_;
    F call_;
    dim3 grid_;
    dim3 block_;
    std::size_t shmem_;
    cudaStream_t stream_;
};

template <class F>
deduced_launcher<F> launch_deduced(const char *kernel, const char *file, int line, F call, dim3 grid, dim3 block,
                                   std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return deduced_launcher<F>(launch_site{kernel, file, line}, call, grid, block, shmem, stream);
}

} /* namespace simtlab_emu */

#endif
