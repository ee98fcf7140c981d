#!/usr/bin/env python3
"""Hostile submissions, graded in the sandbox as `make grade-class` grades them
(scripts/sandbox.py): each must harm nothing, leave nothing running, keep the
grader waiting no longer than its limits, and score 0 with the reason.

    python3 tests/grading/test_sandbox.py path/to/slcc

Each submission is exercise 01-1's solution (which alone scores 10/10) with
something hostile at the start of main. Prints SKIP and passes where
bubblewrap cannot start (CTest reads SKIP as skipped)."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import grade    # noqa: E402
import sandbox  # noqa: E402

SLCC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "slcc")
EX = ("01-1", "01", "ex1_bounds.cu")
TIMEOUT = 8            # seconds per run: the hangs below cost this much
HEADERS = "#include <unistd.h>\n#include <fcntl.h>\n#include <sys/socket.h>\n#include <netinet/in.h>\n" \
          "#include <arpa/inet.h>\n#include <signal.h>\n"


def solution_text():
    with open(os.path.join(grade.EXERCISES, "01", "ex1_bounds.cu"), encoding="utf-8") as fh:
        return grade.strip_solutions(fh.read(), keep_solution=True)


def hostile(code, top=""):
    text = solution_text()
    assert "int main(void)\n{\n" in text
    return HEADERS + top + text.replace("int main(void)\n{\n", "int main(void)\n{\n" + code + "\n", 1)


def processes_with(marker):
    """Processes whose command line holds marker (the run's own folder)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


class Hostile(unittest.TestCase):
    box = None

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="simtlab-hostile-")
        cls.home = os.path.expanduser("~")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def grade(self, name, text, runner=None, timeout=TIMEOUT):
        """Grades `text` as student `name`'s 01/ex1_bounds.cu in a class folder
        beside another student's (bob's, the solution)."""
        cls_dir = os.path.join(self.tmp, "class-" + name)
        for student, body in ((name, text), ("bob", solution_text())):
            os.makedirs(os.path.join(cls_dir, student, "01"), exist_ok=True)
            with open(os.path.join(cls_dir, student, "01", "ex1_bounds.cu"), "w") as fh:
                fh.write(body.replace("@BOB@", os.path.join(cls_dir, "bob", "01", "ex1_bounds.cu")))
        builder = grade.Builder("emu", SLCC, 120, runner or self.box)
        work = os.path.join(self.tmp, "out-" + name)
        t0 = time.time()
        r = grade.grade_exercise(EX, os.path.join(cls_dir, name), work, builder, timeout)
        r["wall"] = time.time() - t0
        r["why"] = "\n".join(w for _, w in r["lost"])
        time.sleep(0.2)
        self.assertEqual(processes_with(work), [], "%s: processes left running" % name)
        print("%-12s %s/10 in %.1fs: %s" % (name, grade.fmt(r["score"]), r["wall"], (r["why"].splitlines() or [""])[0][:150]))
        return r

    def test_control(self):
        # the solution alone: full marks in the sandbox
        r = self.grade("control", solution_text())
        self.assertEqual(r["score"], 10.0, r["why"])

    def test_a_grader_with_many_files_open(self):
        # the status pipe gets a descriptor above 9 (a parallel or Slurm
        # grader holds many files): the sandbox must still report, not fail
        # the build with the shell's "Bad fd number"
        held = [os.open(os.devnull, os.O_RDONLY) for _ in range(16)]
        try:
            r = self.grade("manyfds", solution_text())
        finally:
            for fd in held:
                os.close(fd)
        self.assertEqual(r["score"], 10.0, r["why"])

    def test_fork_bomb(self):
        r = self.grade("forkbomb", hostile("    for (;;) fork();"))
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["why"], r"process limit|did not finish")
        self.assertLess(r["wall"], 3 * TIMEOUT + 60)

    def test_endless_output(self):
        r = self.grade("spam", hostile('    for (;;) puts("all work and no play makes a dull kernel");'))
        self.assertEqual(r["score"], 0.0)
        self.assertIn("output limit", r["why"])

    def test_reads_another_students_tree(self):
        # at build time: include bob's solution by its path
        text = '#include "@BOB@"\n'
        unsafe = self.grade("copier-unsafe", text, runner=sandbox.Plain())
        self.assertEqual(unsafe["score"], 10.0, "without a sandbox the copy works: the test means something")
        r = self.grade("copier", text)
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["why"], r"does not build[\s\S]*No such file")
        # at run time: read it and fail loudly when it cannot
        r = self.grade("reader", hostile('    FILE *f = fopen("@BOB@", "r");\n'
                                         '    if (!f) { printf("WRONG: cannot read bob\'s tree\\n"); return 1; }'))
        self.assertEqual(r["score"], 0.0)
        self.assertIn("cannot read bob's tree", r["why"])

    def test_writes_to_the_graders_home(self):
        target = os.path.join(self.home, "simtlab-hostile-was-here")
        course = os.path.join(grade.EXERCISES, "01", "hidden", "ex1_bounds.cu")
        before = os.path.getmtime(course)
        r = self.grade("writer", hostile(
            '    FILE *f = fopen("%s", "w"), *g = fopen("%s", "a");\n'
            '    if (!f || !g) { printf("WRONG: cannot write outside my folder\\n"); return 1; }' % (target, course)))
        self.assertEqual(r["score"], 0.0)
        self.assertIn("cannot write outside my folder", r["why"])
        self.assertFalse(os.path.exists(target))
        self.assertEqual(os.path.getmtime(course), before)

    def test_opens_a_socket(self):
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        server.settimeout(0.5)
        port = server.getsockname()[1]
        got = []

        def accept():
            end = time.time() + 30
            while time.time() < end and not got:
                try:
                    conn, _ = server.accept()
                    got.append(conn.recv(100))
                except OSError:
                    pass
        t = threading.Thread(target=accept)
        t.start()
        r = self.grade("socket", hostile(
            '    int s = socket(AF_INET, SOCK_STREAM, 0);\n'
            '    struct sockaddr_in to = {0};\n    to.sin_family = AF_INET;\n    to.sin_port = htons(%d);\n'
            '    to.sin_addr.s_addr = inet_addr("127.0.0.1");\n'
            '    if (s < 0 || connect(s, (struct sockaddr *)&to, sizeof to) != 0) {\n'
            '        printf("WRONG: no network\\n");\n        return 1;\n    }\n'
            '    write(s, "stolen", 6);' % port))
        got.append(b"")   # stop the thread
        t.join()
        server.close()
        self.assertEqual(r["score"], 0.0)
        self.assertIn("no network", r["why"])
        self.assertEqual(got[0], b"", "the sandbox let a connection through")

    def test_sleeps_forever(self):
        r = self.grade("sleeper", hostile("    sleep(100000);"))
        self.assertEqual(r["score"], 0.0)
        self.assertIn("did not finish within %ds" % TIMEOUT, r["why"])
        self.assertLess(r["wall"], 2 * TIMEOUT + 60)

    def test_background_process_outlives_its_run(self):
        # the child leaves the process group and the session, keeps the
        # grader's pipe open, and would run for 1000 s
        r = self.grade("daemon", hostile("    if (fork() == 0) { setsid(); sleep(1000); return 0; }"))
        self.assertEqual(r["score"], 0.0)
        self.assertIn("left 1 process running after it ended", r["why"])
        self.assertLess(r["wall"], 60, "the grader waited for the background process")

    def test_ten_gigabyte_file(self):
        r = self.grade("bigfile", hostile(
            '    FILE *f = fopen("big", "w");\n    static char mb[1 << 20];\n'
            '    for (int i = 0; i < 10240 && f; i++) fwrite(mb, 1, sizeof mb, f);\n    if (f) fclose(f);'))
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["why"], r"size limit|SIGXFSZ")

    def test_memory_hog(self):
        # touches 8 GiB: the cgroup's limit ends it (the emulator's own large
        # reserved mappings, untouched, do not count)
        if not self.box.use_cgroup:
            self.skipTest("no cgroup here: no memory limit to hit")
        r = self.grade("hog", hostile(
            '    for (size_t k = 0; k < 8192; k++) { char *p = (char *)malloc(1 << 20); if (!p) break; '
            'for (size_t j = 0; j < (1 << 20); j += 4096) p[j] = 1; }'))
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["why"], r"memory limit|SIGKILL")


class Refusal(unittest.TestCase):
    def test_no_sandbox_no_grading(self):
        # where bubblewrap cannot start, grading a class is refused unless asked
        empty = tempfile.mkdtemp(prefix="simtlab-nobwrap-")
        env = dict(os.environ, PATH=empty + ":/nonexistent")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "grade.py"), "class", "--dir", empty, "--slcc", SLCC,
               "--out", os.path.join(empty, "out")]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("REFUSED: no sandbox can start", p.stdout + p.stderr)
        p = subprocess.run(cmd + ["--unsafe-no-sandbox"], env=env, capture_output=True, text=True)
        self.assertIn("WARNING: grading without a sandbox", p.stderr)
        self.assertNotIn("REFUSED", p.stdout + p.stderr)
        shutil.rmtree(empty, ignore_errors=True)


if __name__ == "__main__":
    if not os.access(SLCC, os.X_OK):
        print("SKIP: %s is not built" % SLCC)
        sys.exit(0)
    box, why = sandbox.probe()
    if not box:
        print("SKIP: %s" % why)
        sys.exit(0)
    print("sandbox: %s" % why)
    Hostile.box = box
    box.limits = sandbox.Limits(cpu_s=30, pids=64)
    unittest.main(argv=[sys.argv[0], "-v"])
