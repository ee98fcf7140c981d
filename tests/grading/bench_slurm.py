#!/usr/bin/env python3
"""The whole-class benchmark of tutorial/INSTRUCTORS.md: three solved student
trees, every exercise, graded locally with -j1 and -j2 and through a Slurm of
its own (tests/grading/test_slurm.py's single-node one, one array task per
student, -j1 per task). Prints the wall time of each and whether the three
CSVs agree. A benchmark, not a test: the times are this machine's.

    python3 tests/grading/bench_slurm.py path/to/slcc"""
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_slurm  # noqa: E402  (the Slurm it starts, and grade, sandbox, read_csv)

grade, sandbox = test_slurm.grade, test_slurm.sandbox


def main():
    slcc = test_slurm.SLCC
    tmp = tempfile.mkdtemp(prefix="simtlab-slurm-bench-")
    os.chmod(tmp, 0o755)
    slurm = test_slurm.Slurm(tmp)
    try:
        cls = os.path.join(tmp, "class")
        for s in ("alice", "bob", "carol"):
            grade.make_student(os.path.join(cls, s), keep_solution=True)
        common = ["class", "--dir", cls, "--slcc", slcc]
        box, why = sandbox.probe()
        if not box:
            common += ["--unsafe-no-sandbox"]
        times, csvs = {}, {}
        for name, extra in (("local -j1", ["-j", "1"]), ("local -j2", ["-j", "2"])):
            out = os.path.join(tmp, name.replace(" ", ""))
            t0 = time.time()
            rc = grade.main(common + extra + ["--out", out])
            times[name] = time.time() - t0
            csvs[name] = test_slurm.read_csv(os.path.join(out, "class.csv"))
            print("%s: %.0f s (exit %d)" % (name, times[name], rc), flush=True)
        slurm.start()
        out = os.path.join(tmp, "slurm")
        t0 = time.time()
        rc = grade.main(common + ["-j", "1", "--out", out, "--slurm", "--slurm-partition", "simtlab",
                                  "--slurm-time", "0:30:00"])
        times["Slurm, 3 tasks"] = time.time() - t0
        csvs["Slurm, 3 tasks"] = test_slurm.read_csv(os.path.join(out, "class.csv"))
        print("Slurm, 3 tasks: %.0f s (exit %d)" % (times["Slurm, 3 tasks"], rc), flush=True)
        same = all(c == csvs["local -j1"] for c in csvs.values())
        print("3 students x %d exercises, %s, %d cores: %s; CSVs %s" % (
            len(grade.exercise_list(grade.EXERCISES, None)), "sandboxed" if box else "no sandbox",
            os.cpu_count(), ", ".join("%s %.0f s" % kv for kv in times.items()), "equal" if same else "DIFFER"))
        return 0 if same else 1
    finally:
        slurm.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
