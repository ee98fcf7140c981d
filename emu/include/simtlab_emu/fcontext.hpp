/* The three context-switch primitives of Boost.Context's fcontext layer,
 * declared here rather than through <boost/context/detail/fcontext.hpp>.
 *
 * Boost's header pulls in <boost/config.hpp>, which includes its platform
 * file by a quoted name ("boost/config/platform/linux.hpp"). Every program
 * built with slcc includes this header (cuda_runtime.h -> device.hpp ->
 * engine.hpp), and slcc searches the .cu's own directory for quoted names
 * first (-iquote, as nvcc does): a program that ships a partial copy of
 * Boost beside its sources (cuda-samples' interval does) then got its old
 * copy's platform file and failed to build. The emulator's headers include
 * no Boost header, so a user's Boost, or none, is the user's business.
 *
 * The functions are Boost.Context's assembly routines (libboost_context,
 * linked by slcc and the CMake build). They are bound here by their
 * assembler names under names of our own, so that a program which also
 * includes Boost.Context's header sees no second declaration of
 * boost::context::detail::jump_fcontext with another transfer type. The
 * ABI is Boost.Context's documented one: a context is an opaque pointer, a
 * switch passes one pointer and returns the context switched from with it.
 */
#ifndef SIMTLAB_EMU_FCONTEXT_HPP
#define SIMTLAB_EMU_FCONTEXT_HPP

#include <cstddef>

#define SIMTLAB_EMU_ASM_NAME2(prefix, name) #prefix name
#define SIMTLAB_EMU_ASM_NAME1(prefix, name) SIMTLAB_EMU_ASM_NAME2(prefix, name)
#define SIMTLAB_EMU_ASM_NAME(name) SIMTLAB_EMU_ASM_NAME1(__USER_LABEL_PREFIX__, name)

namespace simtlab_emu {
namespace fctx {

typedef void *fcontext_t;

/* The context switched from, and the pointer passed by the switch. */
struct transfer_t {
    fcontext_t fctx;
    void *data;
};

/* On x86-64 ELF the engine has its own switch (emu/src/engine/fiber_x86_64.S),
 * which keeps only the registers the ABI makes a callee save; elsewhere,
 * Boost.Context's. */
#if defined(__x86_64__) && defined(__ELF__)
#define SIMTLAB_EMU_FIBER_JUMP "simtlab_emu_fiber_jump"
#define SIMTLAB_EMU_FIBER_MAKE "simtlab_emu_fiber_make"
/* The engine's switch also stores the context it leaves at vp (which must
 * then point to an fcontext_t, never be null) before it switches: a fiber
 * it resumes need not store it (Boost's leaves that to the resumed side). */
#define SIMTLAB_EMU_FIBER_SAVES_ORIGIN 1
#else
#define SIMTLAB_EMU_FIBER_SAVES_ORIGIN 0
#define SIMTLAB_EMU_FIBER_JUMP "jump_fcontext"
#define SIMTLAB_EMU_FIBER_MAKE "make_fcontext"
#endif

extern "C" {
/* Switches to `to`, passing `vp`; returns when something switches back. */
transfer_t simtlab_emu_jump_fcontext(fcontext_t const to, void *vp)
    __asm__(SIMTLAB_EMU_ASM_NAME(SIMTLAB_EMU_FIBER_JUMP));
/* A context that starts fn on the stack whose top is sp (size bytes). */
fcontext_t simtlab_emu_make_fcontext(void *sp, std::size_t size, void (*fn)(transfer_t))
    __asm__(SIMTLAB_EMU_ASM_NAME(SIMTLAB_EMU_FIBER_MAKE));
}

__attribute__((always_inline)) inline transfer_t jump_fcontext(fcontext_t const to, void *vp)
{
    return simtlab_emu_jump_fcontext(to, vp);
}

__attribute__((always_inline)) inline fcontext_t make_fcontext(void *sp, std::size_t size, void (*fn)(transfer_t))
{
    return simtlab_emu_make_fcontext(sp, size, fn);
}

} // namespace fctx
} // namespace simtlab_emu

#endif
