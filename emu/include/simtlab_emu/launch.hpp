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

/* A launch's argument values, one base class per parameter: a flat pack
 * (std::tuple nests one level per element, and a program's compile time
 * grew by a tenth of a second for each kernel's list of parameter types
 * with it). A slot of a reference parameter (`k(Data &d)`, which CUDA
 * passes as the object's address) holds the reference. Each slot is
 * direct-initialised from its argument, as a parameter is. */
template <std::size_t I, class T>
struct arg_slot {
    T value;

    template <class A>
    explicit arg_slot(std::in_place_t, A &&a) : value(std::forward<A>(a))
    {
    }
};
template <class Seq, class... P>
struct arg_pack;
template <std::size_t... I, class... P>
struct arg_pack<std::index_sequence<I...>, P...> : arg_slot<I, P>... {
    template <class... A>
    explicit arg_pack(std::in_place_t, A &&...a) : arg_slot<I, P>(std::in_place, std::forward<A>(a))...
    {
    }

    /* k(the values): by-value parameters get copies, reference ones the
     * objects referred to. */
    template <class K>
    void call(K k) const
    {
        k(static_cast<P>(static_cast<const arg_slot<I, P> &>(*this).value)...);
    }
    /* The same with the kernel named at compile time (a direct call). */
    template <auto F>
    void call_known() const
    {
        F(static_cast<P>(static_cast<const arg_slot<I, P> &>(*this).value)...);
    }
    /* The address of each value (of the object, for a reference). */
    void addresses(void **out)
    {
        ((out[I] = const_cast<void *>(static_cast<const void *>(&static_cast<arg_slot<I, P> &>(*this).value))), ...);
    }
};

/* One launch's kernel and argument values. Every CUDA thread calls the
 * kernel with its own copies (by-value parameters are initialised from
 * the stored values), so a thread that modifies a parameter modifies
 * only its own, as on a GPU. The engine may run threads on several OS
 * threads at once; they only read this. */
/* Every CUDA thread of the grid reads this (every worker, for every thread
 * it starts), so it has its cache lines to itself instead of sharing one
 * with the launching thread's own frames, which that thread writes between
 * blocks (measured on the 2-core dev VM, vector add of 2^22 floats on two
 * workers, alternating runs: 10.6-10.8 ms unaligned, 10.35-10.4 aligned). */
template <class... P>
struct alignas(64) kernel_call {
    using args_t = arg_pack<std::index_sequence_for<P...>, P...>;

    void (*kernel)(P...);
    args_t args;

    template <class... A>
    explicit kernel_call(void (*k)(P...), std::in_place_t, A &&...a) : kernel(k), args(std::in_place, std::forward<A>(a)...)
    {
    }
    kernel_call(const kernel_call &) = default;

    static void run_one_thread(void *self)
    {
        const kernel_call *call = static_cast<const kernel_call *>(self);
        call->args.call(call->kernel);
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
        call->args.template call_known<F>();
#if defined(SIMTLAB_EMU_PROFILE_BUILD) && SIMTLAB_EMU_PROFILE_BUILD > 0 /* the counters' */
        profile_thread_exit();
#endif
    }

    /* A copy on the heap, for a launch that runs after the launching call
     * has returned (from device code, into a stream capture), and its
     * release. The rest of such a launch is code without templates
     * (device_launch_copy, capture_launch_copy below), compiled once in
     * the runtime: only these small functions are made for each kernel's
     * parameter types. */
    static void *clone(const void *self)
    {
        return new kernel_call(*static_cast<const kernel_call *>(self));
    }
    static void destroy(void *self)
    {
        delete static_cast<kernel_call *>(self);
    }

    /* cudaLaunchKernel's and a graph kernel node's form: copies of the
     * values at args[i] (for a reference parameter, args[i] is the address
     * of the object it refers to), on the heap; values[i], where values is
     * not null, receives the address of copy i. */
    static void *from_args(const void *kernel, void **args, void **values)
    {
        return from_args(kernel, args, values, std::index_sequence_for<P...>{});
    }
    template <std::size_t... I>
    static void *from_args(const void *kernel, void **args, void **values, std::index_sequence<I...>)
    {
        auto *call = new kernel_call(reinterpret_cast<void (*)(P...)>(const_cast<void *>(kernel)), std::in_place,
                                     *static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(args[I])...);
        if (values)
            call->args.addresses(values);
        return call;
    }
};

/* A launch that keeps a copy of its arguments: `clone(call)` makes it from
 * the launching call's own (on its stack), `destroy` frees it once the
 * launch has run. `thread` runs one CUDA thread, as for run_grid. */
using call_clone = void *(*)(const void *call);
using call_destroy = void (*)(void *call);
/* From device code (dynamic parallelism, emu/src/engine/dynamic.cpp): the
 * grid is queued on the launching grid and runs after its blocks. */
cudaError_t device_launch_copy(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem,
                               cudaStream_t stream, void (*thread)(void *), const void *call, call_clone clone,
                               call_destroy destroy, const void *kernel_addr);
/* Into the graph `stream` is capturing (emu/src/runtime/graph_capture.cpp):
 * the launch runs each time the graph is launched. */
cudaError_t capture_launch_copy(const launch_site &site, dim3 grid, dim3 block, std::size_t shmem,
                                cudaStream_t stream, void (*thread)(void *), const void *call, call_clone clone,
                                call_destroy destroy, const void *kernel_addr);

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
/* A launch of a kernel with copies of the argument values at args[i], to run
 * later on a stream (the C cudaLaunchKernel, graph kernel nodes). */
using bound_launch = std::function<cudaError_t(cudaStream_t)>;
/* What the runtime needs to bind a kernel's arguments when it only has the
 * kernel's address: one constant for each list of parameter types
 * (binder_of below), with the functions of kernel_call<P...>. */
struct kernel_binder {
    std::size_t params;
    void *(*from_args)(const void *kernel, void **args, void **values);
    void (*thread)(void *);
    call_destroy destroy;
};
template <class... P>
inline constexpr kernel_binder binder_of{sizeof...(P), &kernel_call<P...>::from_args,
                                         &kernel_call<P...>::run_one_thread, &kernel_call<P...>::destroy};
using args_binder = const kernel_binder *;
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
        detail::kernel_call<P...> call(kernel_, std::in_place, std::forward<A>(args)...);
        if (detail::launching_from_device())
            return detail::device_launch_copy(site_, grid_, block_, shmem_, stream_, thread_, &call,
                                              &detail::kernel_call<P...>::clone, &detail::kernel_call<P...>::destroy,
                                              reinterpret_cast<const void *>(kernel_));
        if (__builtin_expect(detail::streams_capturing.load(std::memory_order_relaxed) != 0, 0) &&
            detail::stream_is_capturing(stream_))
            return detail::capture_launch_copy(site_, grid_, block_, shmem_, stream_, thread_, &call,
                                               &detail::kernel_call<P...>::clone,
                                               &detail::kernel_call<P...>::destroy,
                                               reinterpret_cast<const void *>(kernel_));
        return run_grid(site_, grid_, block_, shmem_, stream_, thread_, &call,
                        reinterpret_cast<const void *>(kernel_));
    }

private:
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

/* The registry maps the kernel's address to the binder of its parameter
 * types. */
template <class... P>
inline void note_kernel(void (*kernel)(P...))
{
    register_kernel(reinterpret_cast<const void *>(kernel), &binder_of<P...>);
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
    /* as kernel_call's */
    static void *clone(const void *self)
    {
        return new deduced_call(*static_cast<const deduced_call *>(self));
    }
    static void destroy(void *self)
    {
        delete static_cast<deduced_call *>(self);
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
        const bool later = detail::launching_from_device();
        if (later || (__builtin_expect(detail::streams_capturing.load(std::memory_order_relaxed) != 0, 0) &&
                      detail::stream_is_capturing(stream_))) {
            call_t held{call_, std::tuple<std::decay_t<A>...>(std::forward<A>(args)...)};
            return (later ? detail::device_launch_copy : detail::capture_launch_copy)(
                site_, grid_, block_, shmem_, stream_, &call_t::run_one_thread, &held, &call_t::clone,
                &call_t::destroy, nullptr);
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
