/* simtlab CPU emulator — SIGSEGV/SIGBUS: turning a bad access by a kernel
 * thread into cudaErrorIllegalAddress with a diagnostic, and explaining a
 * host dereference of a device pointer before the process dies as it would
 * on a GPU machine.
 *
 * Async-signal safety: the handler reads only __thread data and the
 * runtime's find_allocation and find_freed, through the services table
 * (engine/services.hpp: async-signal safe by contract), writes with
 * write(2) and leaves a kernel thread with siglongjmp. It formats with
 * snprintf into a per-worker buffer, which POSIX does not list as safe but
 * which glibc's implementation does without locks or allocation for the
 * formats used here (%s, %d, %u, %zu, %td, %lx, %lu). */
#include "engine/internal.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <mutex>

namespace simtlab_emu {
namespace engine {

constexpr std::size_t signal_stack_bytes = 64 * 1024;
/* A bad address this close to a device allocation is reported relative to
 * it ("offset 4000, the first byte past the end of the 4000-byte allocation ..."). */
constexpr std::size_t near_window = 1 << 20;

static struct sigaction previous_segv, previous_bus;

bool ensure_signal_stack()
{
    static __thread bool done;
    if (done)
        return true;
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) {
        done = true; /* the thread already has one (a sanitizer's, say) */
        return true;
    }
    void *map = mmap(nullptr, signal_stack_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return false;
    stack_t ss;
    ss.ss_sp = map;
    ss.ss_size = signal_stack_bytes;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, nullptr) != 0) {
        munmap(map, signal_stack_bytes);
        return false;
    }
    done = true;
    return true;
}

/* "read" or "write" where the CPU tells us (x86-64 page-fault error code,
 * bit 1), else "access". */
static const char *access_kind(const void *ucontext)
{
#if defined(__x86_64__) && defined(REG_ERR)
    const auto *uc = static_cast<const ucontext_t *>(ucontext);
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? "write" : "read";
#else
    (void)ucontext;
    return "access";
#endif
}

/* The stack pointer at the fault, or 0 where the CPU's is unknown. */
static std::uintptr_t stack_pointer(const void *ucontext)
{
#if defined(__x86_64__) && defined(REG_RSP)
    return static_cast<std::uintptr_t>(static_cast<const ucontext_t *>(ucontext)->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
    return static_cast<std::uintptr_t>(static_cast<const ucontext_t *>(ucontext)->uc_mcontext.sp);
#else
    (void)ucontext;
    return 0;
#endif
}

/* The running CUDA thread ran off its fiber stack: the address is in the
 * guard page below it, or the stack pointer itself is below the stack (one
 * frame larger than the whole stack jumps over the guard page; GCC's stack
 * clash probes then fault at or below it). */
static bool is_stack_overflow(const fiber_stack *s, std::uintptr_t addr, std::uintptr_t sp)
{
    if (!s)
        return false;
    const auto guard = reinterpret_cast<std::uintptr_t>(s->guard), base = reinterpret_cast<std::uintptr_t>(s->base);
    if (addr >= guard && addr < base)
        return true;
    return sp && sp < base && base - sp < (std::uintptr_t{1} << 32) && addr < base && base - addr < (std::uintptr_t{1} << 32);
}

/* Why `addr` faulted, relative to what the engine and runtime know. */
static void describe_address(const worker *w, std::uintptr_t addr, std::uintptr_t sp, char *out, std::size_t cap)
{
    const fiber_stack *s = running_stack(w);
    bool in_guard = false;
    allocation a;
    std::ptrdiff_t offset = 0;
    if (addr < 4096) {
        std::snprintf(out, cap, "address 0x%lx: a null pointer", static_cast<unsigned long>(addr));
    } else if (is_stack_overflow(s, addr, sp)) {
        std::snprintf(out, cap,
                      "fiber stack overflow: the CUDA thread's local variables and calls need more than "
                      "its %zu KiB stack (large local arrays or deep recursion?); SIMTLAB_EMU_STACK_KB=<KiB> "
                      "sets a larger one for every thread",
                      s->bytes / 1024 + 1);
    } else if (shared_arena_contains(w, addr, &in_guard)) {
        const auto start = reinterpret_cast<std::uintptr_t>(w->shared_arena);
        if (!in_guard)
            std::snprintf(out, cap, "inside the block's shared memory (a %zu-byte arena)", w->shared_capacity);
        else if (addr < start)
            std::snprintf(out, cap, "__shared__ out of bounds: %lu bytes before the start of the block's shared "
                          "memory", static_cast<unsigned long>(start - addr));
        else
            std::snprintf(out, cap, "__shared__ out of bounds: %lu bytes past the end of the block's shared "
                          "memory (the emulator's arena holds %zu bytes; this block uses %zu)",
                          static_cast<unsigned long>(addr - start - w->shared_capacity), w->shared_capacity,
                          w->blk->shared_used);
    } else if (find_freed(addr, &a, &offset)) {
        const char *file = a.file ? a.file : "an unknown place";
        std::snprintf(out, cap, "use after free: offset %td of the %zu-byte device allocation #%lu made at "
                      "%s:%d, which cudaFree had already released", offset, a.size, a.serial, file, a.line);
    } else if (find_allocation(addr, near_window, &a, &offset)) {
        const char *file = a.file ? a.file : "an unknown place";
        if (offset < 0)
            std::snprintf(out, cap, "%td bytes before the start of the %zu-byte allocation #%lu made at %s:%d",
                          -offset, a.size, a.serial, file, a.line);
        else if (static_cast<std::size_t>(offset) >= a.size) {
            /* Offset and valid range side by side, so that a first-byte
             * overrun (offset == size, a[n]) reads at once. */
            char range[64];
            if (a.size)
                std::snprintf(range, sizeof range, "its bytes are at offsets 0 to %zu", a.size - 1);
            else
                std::snprintf(range, sizeof range, "it has no bytes");
            std::snprintf(out, cap, "offset %td, %s the end of the %zu-byte allocation #%lu made at %s:%d (%s)",
                          offset, static_cast<std::size_t>(offset) == a.size ? "the first byte past" : "past",
                          a.size, a.serial, file, a.line, range);
        } else
            std::snprintf(out, cap, "offset %td inside the %zu-byte allocation #%lu made at %s:%d, "
                          "which was not accessible", offset, a.size, a.serial, file, a.line);
    } else {
        std::snprintf(out, cap, "address 0x%lx is not near any device allocation (a host pointer "
                      "passed to the kernel, or an uninitialized pointer?)",
                      static_cast<unsigned long>(addr));
    }
}

static void write_stderr(const char *text)
{
    std::size_t left = std::strlen(text);
    while (left) {
        ssize_t n = write(STDERR_FILENO, text, left);
        if (n <= 0)
            return;
        text += n;
        left -= static_cast<std::size_t>(n);
    }
}

static void restore_previous(int sig)
{
    sigaction(sig, sig == SIGBUS ? &previous_bus : &previous_segv, nullptr);
}

static void on_fault(int sig, siginfo_t *info, void *ucontext)
{
    worker *w = this_worker();
    const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (w && w->in_block && w->fault_armed) {
        char cause[512];
        const std::uintptr_t sp = stack_pointer(ucontext);
        describe_address(w, addr, sp, cause, sizeof cause);
        const grid_job &g = *w->grid;
        const bool overflow = is_stack_overflow(running_stack(w), addr, sp);
        std::snprintf(w->message, sizeof w->message,
                      "%s %s at 0x%lx by kernel %s (launched at %s:%d), block (%u,%u,%u), "
                      "thread (%u,%u,%u): %s",
                      overflow ? "stack overflow:" : "out-of-bounds", access_kind(ucontext),
                      static_cast<unsigned long>(addr), g.site.kernel,
                      g.site.file, g.site.line, block_idx.x, block_idx.y, block_idx.z,
                      thread_idx.x, thread_idx.y, thread_idx.z, cause);
        w->fault_armed = 0;
        siglongjmp(w->fault_jmp, 1);
    }
    /* Host code. A device pointer dereferenced on the host gets the lesson;
     * anything else is not ours. Either way the previous action (normally
     * the default: die with SIGSEGV) runs when the instruction retries. */
    allocation a;
    std::ptrdiff_t offset = 0;
    if (find_allocation(addr, 0, &a, &offset) && offset >= 0 &&
        static_cast<std::size_t>(offset) < a.size) {
        char text[768];
        std::snprintf(text, sizeof text,
                      "simtlab-emu: host code dereferenced device pointer 0x%lx (offset %td of "
                      "allocation #%lu, %zu bytes, made at %s:%d). Device memory is not host "
                      "memory: copy the data back with cudaMemcpy first.\n",
                      static_cast<unsigned long>(addr), offset, a.serial, a.size,
                      a.file ? a.file : "an unknown place", a.line);
        write_stderr(text);
    } else if (find_freed(addr, &a, &offset)) {
        char text[768];
        std::snprintf(text, sizeof text,
                      "simtlab-emu: host code dereferenced 0x%lx, offset %td of device allocation #%lu (%zu bytes, "
                      "made at %s:%d), which cudaFree had already released: a use after free.\n",
                      static_cast<unsigned long>(addr), offset, a.serial, a.size, a.file ? a.file : "an unknown place",
                      a.line);
        write_stderr(text);
    }
    restore_previous(sig);
}

} /* namespace engine */

using namespace engine;

void install_fault_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigaction(SIGSEGV, &sa, &previous_segv);
        sigaction(SIGBUS, &sa, &previous_bus);
    });
    ensure_signal_stack();
}

} /* namespace simtlab_emu */
