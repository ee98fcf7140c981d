/* simtlab CPU emulator — what <cooperative_groups.h> needs from the engine,
 * and cooperative launches (cudaLaunchCooperativeKernel).
 *
 * Implemented in emu/src/engine/cooperative.cpp (the grid barrier) and
 * emu/src/runtime/launch.cpp (the launch). Included by
 * simtlab_emu/device.hpp, so that every kernel translation unit may launch
 * cooperatively, with or without <cooperative_groups.h>.
 *
 * cudaLaunchCooperativeKernel receives the kernel as a const void *, which
 * says nothing of its parameter types. In C++ it is therefore a macro: the
 * kernel expression is taken apart at the preprocessor level, a leading
 * cast such as `(void *)` dropped, so that the kernel itself (and with it
 * its parameter list) reaches launch_cooperative, which copies parameter i
 * from args[i] as CUDA does. A kernel that reaches it only as a pointer
 * (a variable of type void *) cannot be launched: the call returns
 * cudaErrorNotSupported with a diagnostic that says so.
 */
#ifndef SIMTLAB_EMU_COOPERATIVE_HPP
#define SIMTLAB_EMU_COOPERATIVE_HPP

#include <simtlab_emu/engine.hpp>
#include <simtlab_emu/launch.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

/* The C entry point (parenthesised: the name is a macro below). It knows
 * no parameter types, so it fails unless C++ code reached the typed form. */
extern "C" cudaError_t(cudaLaunchCooperativeKernel)(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                     size_t sharedMem, cudaStream_t stream);

namespace simtlab_emu {
namespace coop {

/* True while the calling thread runs a kernel launched cooperatively. */
bool grid_is_cooperative();
/* grid.sync(): waits until every thread of every block of the grid has
 * called it. Fails the launch when the kernel was launched with <<<>>>. */
void grid_sync(here where);
/* coalesced_threads(): waits until no thread of the block can move on
 * without it, then returns the lanes of the caller's warp that wait at the
 * same call (file and line) of coalesced_threads(). */
unsigned coalesced_mask(here where);
/* Fails the launch: a cooperative-groups operation the emulator does not
 * provide (a tile of more than 32 threads that is not the whole block). */
[[noreturn]] void not_emulated(const char *what, here where);
/* args == NULL for a kernel that has parameters: cudaErrorInvalidValue. */
cudaError_t args_missing(const launch_site &site);

/* run_grid for cudaLaunchCooperativeKernel: every block resident at once
 * (cudaErrorCooperativeLaunchTooLarge when the grid cannot be). */
cudaError_t run_cooperative_grid(const launch_site &site, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                                 cudaStream_t stream, void (*body)(void *closure), void *closure,
                                 const void *kernel_addr);

template <class... P, std::size_t... I>
cudaError_t launch_with_args(const launch_site &site, void (*kernel)(P...), dim3 grid, dim3 block,
                             std::size_t shmem, cudaStream_t stream, void **args, std::index_sequence<I...>)
{
    if (sizeof...(P) > 0 && !args)
        return args_missing(site);
    detail::kernel_call<P...> call(kernel, std::in_place,
                                   *static_cast<std::remove_cv_t<std::remove_reference_t<P>> *>(args[I])...);
    return run_cooperative_grid(site, grid, block, shmem, stream, &detail::kernel_call<P...>::run_one_thread,
                                &call, reinterpret_cast<const void *>(kernel));
}

template <class... P>
cudaError_t launch(void (*kernel)(P...), const char *expr, const char *file, int line, dim3 grid, dim3 block,
                   void **args, std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return launch_with_args(launch_site{expr, file, line}, kernel, grid, block, shmem, stream, args,
                            std::index_sequence_for<P...>{});
}

/* Only an untyped pointer reached us. */
inline cudaError_t launch(const void *kernel, const char *, const char *, int, dim3 grid, dim3 block, void **args,
                          std::size_t shmem = 0, cudaStream_t stream = 0)
{
    return (cudaLaunchCooperativeKernel)(kernel, grid, block, args, shmem, stream);
}

} /* namespace coop */
} /* namespace simtlab_emu */

/* SIMTLAB_EMU_KERNEL_OF(x): x without a leading parenthesised cast, so
 * that `(void *)k` and `(const void *)k` give k; any other x unchanged. */
#define SIMTLAB_EMU_PP_SECOND(a, b, ...) b
#define SIMTLAB_EMU_PP_CHECK(...) SIMTLAB_EMU_PP_SECOND(__VA_ARGS__, 0, )
#define SIMTLAB_EMU_PP_PROBE_PAREN(...) ~, 1,
#define SIMTLAB_EMU_PP_IS_PAREN(x) SIMTLAB_EMU_PP_CHECK(SIMTLAB_EMU_PP_PROBE_PAREN x)
#define SIMTLAB_EMU_PP_EAT(...)
#define SIMTLAB_EMU_PP_CAT(a, b) SIMTLAB_EMU_PP_CAT_(a, b)
#define SIMTLAB_EMU_PP_CAT_(a, b) a##b
#define SIMTLAB_EMU_PP_IF_1(t, f) t
#define SIMTLAB_EMU_PP_IF_0(t, f) f
#define SIMTLAB_EMU_KERNEL_OF(x) \
    SIMTLAB_EMU_PP_CAT(SIMTLAB_EMU_PP_IF_, SIMTLAB_EMU_PP_IS_PAREN(x))(SIMTLAB_EMU_PP_EAT x, x)
#define SIMTLAB_EMU_PP_STR(x) SIMTLAB_EMU_PP_STR_(x)
#define SIMTLAB_EMU_PP_STR_(x) #x

#define cudaLaunchCooperativeKernel(func, ...)                                                             \
    ::simtlab_emu::coop::launch(SIMTLAB_EMU_KERNEL_OF(func), SIMTLAB_EMU_PP_STR(SIMTLAB_EMU_KERNEL_OF(func)), \
                                __FILE__, __LINE__, __VA_ARGS__)

#endif
