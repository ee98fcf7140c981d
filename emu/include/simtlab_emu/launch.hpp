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

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

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

} /* namespace detail */

template <class... P>
class launcher {
public:
    launcher(const launch_site &site, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem,
             cudaStream_t stream)
        : site_(site), kernel_(kernel), grid_(grid), block_(block), shmem_(shmem), stream_(stream)
    {
    }

    /* Runs the grid to completion. Like a CUDA launch it returns nothing:
     * the result is the last error (cudaGetLastError), which run_grid
     * records. */
    template <class... A>
    void operator()(A &&...args) const
    {
        static_assert(sizeof...(A) == sizeof...(P),
                      "kernel launched with a different number of arguments than it has parameters");
        static_assert(detail::params<P...>::template accept<A...>(),
                      "a kernel argument does not convert to its parameter's type");
        detail::kernel_call<P...> call{kernel_, std::tuple<P...>(std::forward<A>(args)...)};
        (void)run_grid(site_, grid_, block_, shmem_, stream_, &detail::kernel_call<P...>::run_one_thread, &call,
                       reinterpret_cast<const void *>(kernel_));
    }

private:
    launch_site site_;
    void (*kernel_)(P...);
    dim3 grid_;
    dim3 block_;
    std::size_t shmem_;
    cudaStream_t stream_;
};

/* `kernel` is the kernel expression as written, for diagnostics. */
template <class... P>
launcher<P...> launch(const char *kernel, const char *file, int line, void (*k)(P...), dim3 grid, dim3 block,
                      std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return launcher<P...>(launch_site{kernel, file, line}, k, grid, block, shmem, stream);
}

} /* namespace simtlab_emu */

#endif
