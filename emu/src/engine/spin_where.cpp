/* simtlab CPU emulator — the source line of a code address (engine/spin_where.hpp).
 * Runs only when a launch fails on a spin, so one addr2line per failure. */
#include "engine/spin_where.hpp"

#include "profile/internal.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

extern char **environ;

namespace simtlab_emu {
namespace engine {

namespace {

bool is_emulator_or_system(const char *file)
{
    return std::strstr(file, "/simtlab_emu/") || std::strncmp(file, "/usr/", 5) == 0 ||
           std::strstr(file, "/emu/include/") || std::strcmp(file, "??") == 0;
}

} /* namespace */

void describe_code_address(const void *pc, char *out, std::size_t size)
{
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(pc) - 1; /* the call, not what follows */
    std::snprintf(out, size, "code address %p", pc);
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(addr), &info) || !info.dli_fname)
        return;
    char module[4096];
    if (info.dli_fname[0] && std::strchr(info.dli_fname, '/')) {
        std::snprintf(module, sizeof module, "%s", info.dli_fname);
    } else {
        const ssize_t n = readlink("/proc/self/exe", module, sizeof module - 1);
        if (n <= 0)
            return;
        module[n] = '\0';
    }
    const std::uintptr_t offset =
        profile::is_dynamic_elf(module) ? addr - reinterpret_cast<std::uintptr_t>(info.dli_fbase) : addr;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%zx", static_cast<std::size_t>(offset));
    char arg0[] = "addr2line", arg1[] = "-i", arg2[] = "-e";
    char *argv[] = {arg0, arg1, arg2, module, hex, nullptr};
    int fds[2];
    if (pipe(fds) != 0)
        return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int spawned = posix_spawnp(&pid, "addr2line", &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    char text[4096];
    std::size_t len = 0;
    if (spawned == 0) {
        ssize_t got;
        while (len < sizeof text - 1 && (got = read(fds[0], text + len, sizeof text - 1 - len)) > 0)
            len += static_cast<std::size_t>(got);
        int status = 0;
        waitpid(pid, &status, 0);
    }
    close(fds[0]);
    text[len] = '\0';
    /* One line per inlined frame, innermost first: the first of the kernel's. */
    char *save = nullptr;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(nullptr, "\n", &save)) {
        if (char *disc = std::strstr(line, " (discriminator"))
            *disc = '\0';
        char *colon = std::strrchr(line, ':');
        if (!colon)
            continue;
        *colon = '\0';
        if (is_emulator_or_system(line) || std::strcmp(colon + 1, "?") == 0 || std::strcmp(colon + 1, "0") == 0)
            continue;
        std::snprintf(out, size, "%s:%s", line, colon + 1);
        return;
    }
}

} /* namespace engine */
} /* namespace simtlab_emu */
