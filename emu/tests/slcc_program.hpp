/* For the emulator's tests whose subject is a whole program built as a
 * student builds it (test_emu_cub, test_emu_thrust, test_emu_cusparse,
 * test_emu_cusolver): slcc builds the
 * program, which then runs and checks itself. */
#ifndef SIMTLAB_EMU_TESTS_SLCC_PROGRAM_HPP
#define SIMTLAB_EMU_TESTS_SLCC_PROGRAM_HPP

#include <criterion/criterion.h>

#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

/* argv[0] with argv, its stdout and stderr into *out; the exit status, or
 * -1 when it did not exit. */
static inline int run_capturing(const std::vector<std::string> &args, std::string *out)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0, "pipe");
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork");
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        std::vector<char *> argv;
        for (const auto &a : args)
            argv.push_back(const_cast<char *>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(fd[1]);
    char buf[4096];
    ssize_t got;
    while ((got = read(fd[0], buf, sizeof buf)) > 0)
        out->append(buf, (size_t)got);
    close(fd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* slcc (at slcc_path) builds `source` with -O1 (and `libs`, such as
 * "-lcusparse") into a fresh directory under /tmp as `name`; the program
 * runs with the seed as its argument and must exit 0 and print
 * "<name>: ok". */
static inline void check_slcc_program(const char *slcc_path, const char *source, const char *name, unsigned seed,
                                      const std::vector<std::string> &libs = {})
{
    std::string dir = std::string("/tmp/") + name + ".XXXXXX";
    cr_assert_not_null(mkdtemp(&dir[0]), "mkdtemp");
    std::string exe = dir + "/" + name, log;
    std::vector<std::string> cmd = {slcc_path, "-O1", source};
    cmd.insert(cmd.end(), libs.begin(), libs.end());
    cmd.insert(cmd.end(), {"-o", exe});
    int rc = run_capturing(cmd, &log);
    cr_assert_eq(rc, 0, "slcc failed (%d):\n%s", rc, log.c_str());
    log.clear();
    rc = run_capturing({exe, std::to_string(seed)}, &log);
    unlink(exe.c_str());
    rmdir(dir.c_str());
    cr_assert_eq(rc, 0, "the program failed (%d):\n%s", rc, log.c_str());
    cr_assert(log.find(std::string(name) + ": ok") != std::string::npos, "no ok line:\n%s", log.c_str());
}

#endif /* SIMTLAB_EMU_TESTS_SLCC_PROGRAM_HPP */
