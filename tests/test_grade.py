#!/usr/bin/env python3
"""Tests of scripts/grade.py (standard library only): python3 tests/test_grade.py path/to/slcc.
Each check can fail: the expectations are written out by hand."""
import csv
import os
import shutil
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import grade  # noqa: E402

SLCC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(grade.ROOT, "build", "bin", "slcc")

SOURCE = """a
#ifdef SOLUTION
sol1
#if X
nested-sol
#endif
#else
stub1
#endif
#ifndef SOLUTION
stub2
#else
sol2
#endif
#if defined(SOLUTION)
sol3
#endif
#ifdef OTHER
other
#endif
z
"""

PROGRAM = r"""#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
__global__ void k(int *p, int mode)
{
    if (mode == 1) while (p[0] >= 0) { }   /* hangs: p[0] is 0 */
    if (mode == 2) p[1 << 20] = 1;           /* out of bounds */
    p[threadIdx.x] = threadIdx.x;
}
int main(void)
{
    int mode = MODE, *d, h[32];
    if (mode == 3) { volatile int *z = 0; *z = 1; }   /* host crash: SIGSEGV */
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    k<<<1, 32>>>(d, mode);
    if (cudaDeviceSynchronize() != cudaSuccess) { printf("launch failed\n"); return 1; }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(d);
    if (mode == 4) { printf("WRONG: on purpose\n"); return 1; }
    printf("correct\n");
    return 0;
}
"""

HIDDEN = r"""#include "../grading/grade.h"
#define main student_main
#include "ex1_prog.cu"
#undef main
int main(void)
{
    CHECK_VISIBLE(VISIBLE_OK, "the visible case again");
    CHECK_HIDDEN(1, "first");
    CHECK_HIDDEN(0, "second: on purpose");
    if (EARLY_EXIT) exit(0);   /* as a student's code that exits would */
    grade_done();
    return 0;
}
"""

# A student's program that prints the hidden test's lines itself: without
# the run's token they are not results.
FORGED = PROGRAM.replace('printf("correct\\n");', 'printf("correct\\nok - visible: forged\\nok - forged\\ndone\\n");')


class Markers(unittest.TestCase):
    def test_stub(self):
        self.assertEqual(grade.strip_solutions(SOURCE, False),
                         "a\nstub1\nstub2\n#ifdef OTHER\nother\n#endif\nz\n")

    def test_solution(self):
        self.assertEqual(grade.strip_solutions(SOURCE, True),
                         "a\nsol1\n#if X\nnested-sol\n#endif\nsol2\nsol3\n#ifdef OTHER\nother\n#endif\nz\n")

    def test_errors(self):
        for bad in ("#ifdef SOLUTION\nx\n", "#if SOLUTION > 1\n#endif\n", "#endif\n",
                    "#ifdef SOLUTION\n#elif A\n#endif\n"):
            with self.assertRaises(grade.MarkerError, msg=bad):
                grade.strip_solutions(bad, False, "t.cu")

    def test_every_exercise_resolves(self):
        # every exercise of the course has markers this tool resolves, and its
        # stub differs from its solution
        for ex_id, ch, f in grade.exercise_list():
            with open(os.path.join(grade.EXERCISES, ch, f), encoding="utf-8") as fh:
                text = fh.read()
            self.assertNotEqual(grade.strip_solutions(text, False, f), grade.strip_solutions(text, True, f), ex_id)


class NoAnswerKey(unittest.TestCase):
    """A pencil-and-paper exercise's release holds no answer and nothing that
    decides one: no hash, no counting kernel; its own check says only whether
    an answer is well formed."""

    def test_release(self):
        pencil = [e for e in grade.exercise_list()
                  if grade.hidden_points(os.path.join(grade.EXERCISES, e[1], "hidden", e[2]))[0] == 0]
        self.assertGreaterEqual(len(pencil), 8)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "st")
            grade.make_student(out)
            for dirpath, _, files in os.walk(out):
                for f in files:
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        text = fh.read()
                    self.assertNotRegex(text, r"fnv1a|HASH_|answer key =", f)
            for ex_id, ch, f in pencil:
                with open(os.path.join(out, ch, f), encoding="utf-8") as fh:
                    text = fh.read()
                self.assertNotRegex(text, r"__ballot_sync\s*\(|atomicAdd\s*\(", ex_id)  # no kernel counting it
                self.assertIn("`make grade EX=%s`" % ex_id, text, ex_id)


class StudentTree(unittest.TestCase):
    def test_tree(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "st")
            grade.make_student(out, tar=os.path.join(tmp, "st.tgz"))
            self.assertTrue(os.path.isfile(os.path.join(tmp, "st.tgz")))
            for dirpath, dirnames, files in os.walk(out):
                self.assertNotIn("hidden", dirnames, dirpath)
                for f in files:
                    self.assertFalse(f.endswith(".expect"), f)
                    with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                        text = fh.read()
                    if f.endswith((".cu", ".h")):
                        self.assertNotRegex(text, r"#\s*if(n?def)?\s.*SOLUTION", f)
                        self.assertNotIn("../../../", text, f)
            self.assertTrue(os.path.isfile(os.path.join(out, "01", "ex1_bounds.cu")))
            self.assertFalse(os.path.exists(os.path.join(out, "grading")))
            with self.assertRaises(SystemExit):  # never overwrites a student's work
                grade.make_student(out)


@unittest.skipUnless(os.access(SLCC, os.X_OK), "slcc not built")
class Grading(unittest.TestCase):
    def grade_mode(self, mode, hidden=False, timeout=20, visible_ok=1, early_exit=0, program=PROGRAM,
                   hidden_text=HIDDEN):
        tmp = tempfile.mkdtemp(prefix="grade-test-")
        self.addCleanup(shutil.rmtree, tmp, True)
        instructor = os.path.join(tmp, "instructor")
        student = os.path.join(tmp, "student")
        os.makedirs(os.path.join(student, "09"))
        os.makedirs(os.path.join(instructor, "09", "hidden"))
        src = program.replace("MODE", str(mode)) if mode != 5 else "this is not C\n"
        with open(os.path.join(student, "09", "ex1_prog.cu"), "w") as fh:
            fh.write(src)
        if hidden:
            with open(os.path.join(instructor, "09", "hidden", "ex1_prog.cu"), "w") as fh:
                fh.write(hidden_text.replace("VISIBLE_OK", str(visible_ok)).replace("EARLY_EXIT", str(early_exit)))
        builder = grade.Builder("emu", SLCC, 300)
        return grade.grade_exercise(("09-1", "09", "ex1_prog.cu"), student, os.path.join(tmp, "work"),
                                    builder, timeout, hidden_src=instructor)

    def test_right(self):
        r = self.grade_mode(0)
        self.assertEqual((r["score"], r["lost"]), (10.0, []))

    def test_hidden_points(self):
        r = self.grade_mode(0, hidden=True)
        self.assertEqual(r["score"], 4.0 + 3.0)
        self.assertEqual(len(r["lost"]), 1)
        self.assertIn("second: on purpose", r["lost"][0][1])

    def test_visible_rerun_fails(self):
        # the program says correct; the grader's own rerun of its case does not
        # agree: no visible points, and the hidden ones do not count either
        r = self.grade_mode(0, hidden=True, visible_ok=0)
        self.assertEqual(r["score"], 0.0)
        self.assertIn("the grader's rerun of the visible test: the visible case again", r["lost"][0][1])
        self.assertRegex(r["lost"][1][1], r"hidden checks count only once the visible test passes \(1 of 2 passed\)")

    def test_wrong_program_no_hidden_points(self):
        r = self.grade_mode(4, hidden=True)
        self.assertEqual(r["score"], 0.0)

    def test_forged_results_ignored(self):
        # lines that look like results, printed by the student's code, count for nothing
        r = self.grade_mode(0, hidden=True, program=FORGED, visible_ok=0)
        self.assertEqual(r["score"], 0.0)

    def test_early_exit(self):
        # the student's code ends the process before the hidden test's end
        r = self.grade_mode(0, hidden=True, early_exit=1)
        self.assertEqual(r["score"], 0.0)
        self.assertIn("stopped before their end", "\n".join(w for _, w in r["lost"]))

    def test_pencil_points(self):
        hidden = "#define GRADE_POINTS_VISIBLE 0\n" + HIDDEN
        r = self.grade_mode(0, hidden=True, hidden_text=hidden)
        self.assertEqual((r["max"], r["score"]), (10.0, 5.0))

    def test_hang(self):
        # 2 s: the program's own work takes a tenth of that; the rest is the hang
        r = self.grade_mode(1, timeout=2)
        self.assertEqual(r["score"], 0.0)
        self.assertIn("did not finish within 2s", r["lost"][0][1])

    # Under `make test-asan` the grader's slcc links an ASan runtime, which
    # owns the __asan_* hooks that --profile's memcheck uses, so a kernel's
    # out-of-bounds write is caught only where it faults, and where 4 MiB
    # past a small allocation lands depends on ASan's memory layout. The
    # normal build checks this case (memcheck names it).
    @unittest.skipIf(os.environ.get("SIMTLAB_TEST_UNDER_ASAN"),
                     "under ASan slcc --profile has no memcheck (ASan's runtime owns its hooks); "
                     "checked in the normal build")
    def test_out_of_bounds(self):
        r = self.grade_mode(2)
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["lost"][0][1], r"out-of-bounds")

    def test_crash(self):
        r = self.grade_mode(3)
        self.assertEqual(r["score"], 0.0)
        self.assertRegex(r["lost"][0][1], r"crashed \(SIG|dereferenc")

    def test_wrong(self):
        r = self.grade_mode(4)
        self.assertEqual(r["score"], 0.0)
        self.assertIn("WRONG: on purpose", r["lost"][0][1])

    def test_build_error(self):
        r = self.grade_mode(5)
        self.assertEqual(r["score"], 0.0)
        self.assertIn("does not build", r["lost"][0][1])

    def test_reports(self):
        results = [self.grade_mode(0), self.grade_mode(4)]
        with tempfile.TemporaryDirectory() as tmp:
            grade.write_tap(results, os.path.join(tmp, "g.tap"))
            grade.write_junit(results, os.path.join(tmp, "g.xml"))
            with open(os.path.join(tmp, "g.tap")) as fh:
                tap = fh.read()
            self.assertRegex(tap, r"^TAP version 13\n1\.\.2\nok 1 - 09-1 .*\nnot ok 2 - 09-1 ")
            root = ET.parse(os.path.join(tmp, "g.xml")).getroot()
            self.assertEqual((root.get("tests"), root.get("failures")), ("2", "1"))
            self.assertEqual(len(root.findall("testcase/failure")), 1)


CENSUS = r"""#include <cuda_runtime.h>
#include <simtlab_emu/census.h>
#include <stdio.h>
__global__ void add1(const float *a, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + 1.0f;
}
int main(void)
{
    enum { N = 1000 };
    static float h[N], o[N];
    for (int i = 0; i < N; i++) h[i] = (float)i;
    float *a, *c, *spare;
    cudaStream_t s;
    simtlab_emu_census_begin();
    cudaMalloc(&a, sizeof h);
    cudaMalloc(&c, sizeof h);
    cudaMalloc(&spare, 64);
    cudaStreamCreate(&s);
    cudaMemcpyAsync(a, h, sizeof h, cudaMemcpyHostToDevice, s);
    add1<<<4, 256, 0, s>>>(a, c, N);
    cudaDeviceSynchronize();
    cudaMemcpy(o, c, sizeof o, cudaMemcpyDeviceToHost);       /* the kernel's bytes */
    cudaMemcpy(c, h, sizeof h, cudaMemcpyHostToDevice);       /* the host's, now */
    cudaMemcpy(o, c, sizeof o, cudaMemcpyDeviceToHost);
    cudaMemset(spare, 1, 64);
    cudaFree(spare);
    simtlab_emu_census_end();
    simtlab_emu_census k;
    simtlab_emu_census_get(&k);
    printf("launches %llu threads %llu lstreams %llu cstreams %llu async %llu h2d %llu/%llu d2h %llu/%llu "
           "memsets %llu mallocs %llu frees %llu waits %llu add1 %llu\n", k.launches, k.launch_threads,
           k.launch_streams, k.copy_streams, k.async_copies, k.h2d_copies, k.h2d_bytes, k.d2h_copies, k.d2h_bytes,
           k.memsets, k.mallocs, k.frees, k.host_waits, simtlab_emu_census_launches_of("add1", NULL));
    for (size_t i = 0; i < simtlab_emu_census_d2h_count(); i++) {
        simtlab_emu_census_copy cp;
        simtlab_emu_census_d2h(i, &cp);
        printf("copy %zu: %zu bytes, kernel %zu (%s), host %zu, hash %s\n", i, cp.bytes, cp.kernel_bytes, cp.kernel,
               cp.host_bytes, cp.fnv1a == simtlab_emu_census_hash(o, sizeof o) ? "of o" : "other");
    }
    return 0;
}
"""


@unittest.skipUnless(os.access(SLCC, os.X_OK), "slcc not built")
class ModelledIssueTime(unittest.TestCase):
    """03-1 is graded also on two_paths's modelled issue time, read from the
    emulator's CSV, against the reference solution's in the same run."""

    def grade_03_1(self, waste, solution=True):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp, True)
        student = os.path.join(tmp, "student")
        os.makedirs(os.path.join(student, "03"))
        with open(os.path.join(grade.EXERCISES, "03", "ex1_divergence_free.cu"), encoding="utf-8") as fh:
            text = grade.strip_solutions(fh.read(), solution, "03/ex1_divergence_free.cu")
        line = "if (i < n) out[i] = (i % 2 == 0) ? path_a(x[i]) : path_b(x[i]);"
        self.assertIn(line, text)
        if waste:   # correct and free of divergence, but every thread runs its path twice
            text = text.replace(line, "volatile unsigned *o = out;\n    if (i < n) o[i] = (i % 2 == 0) ? "
                                "path_a(x[i] ^ 1u) : path_b(x[i] ^ 1u);\n    " + line)
        with open(os.path.join(student, "03", "ex1_divergence_free.cu"), "w", encoding="utf-8") as fh:
            fh.write(grade.vendor_includes(text, student))
        builder = grade.Builder("emu", SLCC, 300)
        return grade.grade_exercise(("03-1", "03", "ex1_divergence_free.cu"), student, os.path.join(tmp, "work"),
                                    builder, 120)

    def test_solution_full(self):
        r = self.grade_03_1(False)
        self.assertEqual((r["score"], r["lost"]), (10.0, []))
        self.assertIn(("hidden: modelled issue time of two_paths", True, "", False), r["checks"])

    def test_twice_the_work_loses_it(self):
        r = self.grade_03_1(True)
        self.assertEqual(len(r["lost"]), 1, r["lost"])
        self.assertLess(r["score"], 10.0)
        self.assertGreater(r["score"], 4.0)
        self.assertRegex(r["lost"][0][1], r"modelled issue time of two_paths: [0-9.]+ us, [0-9.]+x the reference "
                         r"solution's [0-9.]+ us \(modelled on \w+")

    def test_stub_fails_it(self):
        r = self.grade_03_1(False, solution=False)
        self.assertEqual(r["score"], 0.0)
        check = [c for c in r["checks"] if c[0] == "hidden: modelled issue time of two_paths"]
        self.assertEqual(len(check), 1)
        self.assertFalse(check[0][1])
        self.assertRegex(check[0][2], r"[0-9.]+x the reference solution's")

    def test_reads_the_emulators_csv(self):
        path = os.path.join(tempfile.mkdtemp(), "p.csv")
        self.addCleanup(shutil.rmtree, os.path.dirname(path), True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("kernel,model_gpu,model_issue_us\n\"k\",h200,1.5\n\"other\",h200,9\n\"k\",h200,2.25\n")
        self.assertEqual(grade.model_issue(path, "k"), (2, 3.75, "h200"))
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\"k\",h200,\n")   # a launch that was not modelled
        self.assertIsNone(grade.model_issue(path, "k"))
        self.assertIsNone(grade.model_issue(path + ".missing", "k"))


class Census(unittest.TestCase):
    """The emulator's census (simtlab_emu/census.h), which the hidden tests
    count with: each figure written out by hand for this program."""

    def test_counts_and_writers(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "census.cu")
            with open(src, "w") as fh:
                fh.write(CENSUS)
            rc, out, _ = grade.run([SLCC, src, "-o", os.path.join(tmp, "census")], 300)
            self.assertEqual(rc, 0, out)
            rc, out, _ = grade.run([os.path.join(tmp, "census")], 60)
            self.assertEqual(rc, 0, out)
            self.assertIn("launches 1 threads 1024 lstreams 1 cstreams 1 async 1 h2d 2/8000 d2h 2/8000 memsets 1 "
                          "mallocs 3 frees 1 waits 1 add1 1", out)
            self.assertIn("copy 0: 4000 bytes, kernel 4000 (add1), host 0, hash other", out)
            self.assertIn("copy 1: 4000 bytes, kernel 0 (), host 4000, hash of o", out)


@unittest.skipUnless(os.access(SLCC, os.X_OK), "slcc not built")
class WholeClass(unittest.TestCase):
    def test_parallel_csv_order(self):
        # three students graded 3 exercises at once: the CSV's rows and columns
        # come in name and number order, whatever finished first
        with tempfile.TemporaryDirectory() as tmp:
            cls = os.path.join(tmp, "class")
            grade.make_student(os.path.join(cls, "carol"), keep_solution=True)
            grade.make_student(os.path.join(cls, "alice"))
            grade.make_student(os.path.join(cls, "bob"), keep_solution=True)
            with open(os.path.join(cls, "bob", "03", "ex3_paths_per_warp.cu")) as fh:
                text = fh.read()
            with open(os.path.join(cls, "bob", "03", "ex3_paths_per_warp.cu"), "w") as fh:
                fh.write(text.replace("{2, 1, 4, 2, 2, 1}", "{2, 1, 4, 2, 2, 2}"))   # one of six wrong
            out = os.path.join(tmp, "out")
            rc = grade.main(["class", "--dir", cls, "--ex", "01-4 03-3", "--slcc", SLCC, "--out", out, "-j", "3",
                             "--sandbox", "none", "--unsafe-no-sandbox"])
            self.assertEqual(rc, 0)
            with open(os.path.join(out, "class.csv")) as fh:
                rows = list(csv.reader(fh))
            self.assertEqual(rows[0][:5], ["student", "01-4", "03-3", "total", "max"])
            self.assertEqual([r[:5] for r in rows[1:]], [["alice", "0", "0", "0", "20"],
                                                        ["bob", "10", "8.3", "18.3", "20"],
                                                        ["carol", "10", "10", "20", "20"]])
            for s in ("alice", "bob", "carol"):
                for f in ("report.txt", "grade.tap", "grade.junit.xml", "results.json"):
                    self.assertTrue(os.path.isfile(os.path.join(out, "students", s, f)), (s, f))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
