/* simtlab CPU emulator — the fiber switch on x86-64 (System V ABI, ELF).
 *
 * The engine switches fibers at every __syncthreads, warp operation and
 * wait, once per CUDA thread each time: it is the hottest code of a kernel
 * with barriers. A general-purpose switch (Boost.Context's, used on other
 * targets) also saves and restores the SSE control/status register and the
 * x87 control word; restoring them costs more than the six general
 * registers. The emulator's fibers never differ in those: kernels run with
 * the process's floating-point environment, and the one place that changes
 * the rounding mode (device_math.hpp, rounding_scope) restores it before
 * any switch can happen. So this switch keeps only what the ABI makes a
 * callee preserve: rbx, rbp, r12-r15 and the stack pointer.
 *
 * The interface is the fcontext one (emu/include/simtlab_emu/fcontext.hpp):
 *   transfer_t simtlab_emu_fiber_jump(fcontext_t to, void *data)
 *     saves the caller's registers on its own stack, stores the context
 *     that makes at `data` (an fcontext_t *, never null), resumes `to`,
 *     and returns {the context it was resumed from, the pointer passed}
 *     when something switches back. Boost's switch leaves the store to the
 *     fiber it resumes; this one makes it at once, so that the hot resume
 *     (a barrier's next thread) need not (fcontext.hpp,
 *     SIMTLAB_EMU_FIBER_SAVES_ORIGIN), and a resumed side that stores it
 *     again stores the same value;
 *   fcontext_t simtlab_emu_fiber_make(void *top, size_t size, void (*fn)(transfer_t))
 *     a context that, when first resumed, calls fn({from, data}) on the
 *     stack below `top`; fn must never return.
 *
 * A saved context is the stack pointer at the six registers:
 *   [0] r12 [8] r13 [16] r14 [24] r15 [32] rbx [40] rbp [48] resume address
 */
    .text
    .globl simtlab_emu_fiber_jump
    .type simtlab_emu_fiber_jump, @function
    .p2align 4
simtlab_emu_fiber_jump:
    pushq %rbp
    pushq %rbx
    pushq %r15
    pushq %r14
    pushq %r13
    pushq %r12
    movq %rsp, %rax          /* the context we leave */
    movq %rsp, (%rsi)        /* ... saved where the caller asked */
    movq %rdi, %rsp          /* the one we resume */
    popq %r12
    popq %r13
    popq %r14
    popq %r15
    popq %rbx
    popq %rbp
    popq %r8                 /* the resume address */
    movq %rsi, %rdx          /* transfer_t in rax:rdx for a resumed jump ... */
    movq %rax, %rdi          /* ... and in rdi:rsi for a fresh context's fn */
    jmp *%r8                 /* not ret: the return-address predictor would
                                expect our caller, and stay off by one after */
    .size simtlab_emu_fiber_jump, .-simtlab_emu_fiber_jump

    .globl simtlab_emu_fiber_make
    .type simtlab_emu_fiber_make, @function
    .p2align 4
simtlab_emu_fiber_make:
    movq %rdi, %rax
    andq $-16, %rax          /* the stack's top, 16-byte aligned */
    subq $64, %rax           /* the frame; entry's rsp = top - 8 */
    movq %rdx, 32(%rax)      /* rbx: fn */
    movq $0, 40(%rax)        /* rbp: 0, the end of a backtrace */
    leaq simtlab_emu_fiber_entry(%rip), %rcx
    movq %rcx, 48(%rax)
    ret
    .size simtlab_emu_fiber_make, .-simtlab_emu_fiber_make

    .type simtlab_emu_fiber_entry, @function
    .p2align 4
simtlab_emu_fiber_entry:
    pushq %rbp               /* entry's rsp = top - 16: after this push and
                                the call's, fn sees the ABI's alignment */
    callq *%rbx              /* fn(transfer_t{rdi, rsi}) */
    ud2                      /* fn returned: a fiber must switch away instead */
    .size simtlab_emu_fiber_entry, .-simtlab_emu_fiber_entry

    .section .note.GNU-stack, "", @progbits
