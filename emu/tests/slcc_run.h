/* simtlab emulator tests — running slcc and the programs it builds, for the
 * Criterion tests that do (test_slcc.c, test_slcc_cuda_programs.c): a
 * scratch directory per test process, and a run with stdout and stderr
 * captured. Define SLCC_RUN_SCRATCH ("/tmp/test_NAME-XXXXXX") before
 * including it. */
#ifndef SIMTLAB_EMU_TESTS_SLCC_RUN_H
#define SIMTLAB_EMU_TESTS_SLCC_RUN_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct run_result {
    int status; /* exit status, or 128 + signal */
    char out[16384];
    char err[65536];
} run_result;

/* A fresh scratch directory for this test (Criterion runs each test in its
 * own process, so one static buffer per process is enough). */
static const char *scratch(void)
{
    static char dir[256];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s", SLCC_RUN_SCRATCH);
        cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
    }
    return dir;
}

/* Removes the scratch directory: files, and the (empty) tmp directory. */
static void remove_scratch(void)
{
    const char *dir = scratch();
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[768];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            rmdir(path);
    }
    closedir(d);
    rmdir(dir);
}

static const char *scratch_path(const char *name)
{
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", scratch(), name);
    return p;
}

static void slurp(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Runs argv[0] with stdout and stderr captured; TMPDIR=tmpdir when given. */
static void run_in(char *const argv[], const char *tmpdir, run_result *res)
{
    char out_path[512], err_path[512];
    snprintf(out_path, sizeof out_path, "%s/.stdout", scratch());
    snprintf(err_path, sizeof err_path, "%s/.stderr", scratch());
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        if (tmpdir)
            setenv("TMPDIR", tmpdir, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    res->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    slurp(out_path, res->out, sizeof res->out);
    slurp(err_path, res->err, sizeof res->err);
}

#endif
