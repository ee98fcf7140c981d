#!/usr/bin/env python3
"""simtlab exercises: the student tree and the grader (Python 3, standard library only).

The instructor's sources are tutorial/exercises/NN/exK_topic.cu: one file per
exercise that holds the stub and the solution,

    #ifdef SOLUTION            (or #if defined(SOLUTION), #ifndef SOLUTION)
        the solution
    #else
        the stub: compiles, and fails the exercise's check
    #endif

and, for the instructor only, tutorial/exercises/NN/hidden/exK_topic.cu: more
checks of the student's code (see "Hidden tests" in tutorial/INSTRUCTORS.md).

  grade.py student [--out DIR] [--tar FILE]     write a student tree: every solution
                                                replaced by its stub, no hidden tests
  grade.py grade [--dir DIR] [--ex 04-2]        build and grade a student tree
  grade.py class --dir CLASS --csv FILE         grade every student tree in CLASS
  grade.py check --ex 01-1 --variant stub|solution
                                                for CTest: the solution gets every point,
                                                the generated stub fails its visible test

Grading an exercise: build the student's file (the CPU emulator's slcc, or nvcc
where there is a GPU and --backend cuda/auto finds one), run it (the visible
test: it must exit 0 and print no line starting with WRONG), then build and run
the hidden test against the student's code. Each run has a time limit; a build
error, a crash, a hang or an error the emulator reports gives 0 for that
exercise, with the reason, and the grader goes on with the next one.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import xml.sax.saxutils as xml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXERCISES = os.path.join(ROOT, "tutorial", "exercises")
EX_RE = re.compile(r"^ex(\d+)_\w+\.cu$")
VISIBLE_POINTS = 4.0  # with a hidden test; without one the visible test is worth all
HIDDEN_POINTS = 6.0
TOTAL_POINTS = VISIBLE_POINTS + HIDDEN_POINTS


# ---------------------------------------------------------------- the stubs
class MarkerError(Exception):
    pass


def strip_solutions(text, keep_solution=False, name="?"):
    """The text with every SOLUTION conditional resolved: the stub branch kept
    (or the solution's, keep_solution), the directives themselves dropped.
    Other #if blocks, nested or not, are left as they are."""
    out = []
    # A stack of frames: None for a conditional that is not about SOLUTION,
    # or [keep_now, solution_first] for one that is.
    stack = []
    directive = re.compile(r"^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)$")
    for lineno, line in enumerate(text.splitlines(keepends=True), 1):
        m = directive.match(line)
        keeping = all(f is None or f[0] for f in stack)
        if m:
            kind, rest = m.group(1), m.group(2).strip()
            if kind in ("ifdef", "ifndef", "if"):
                about = (kind in ("ifdef", "ifndef") and rest == "SOLUTION") or (
                    kind == "if" and re.fullmatch(r"defined\s*\(?\s*SOLUTION\s*\)?", rest))
                if about:
                    solution_first = kind != "ifndef"
                    stack.append([solution_first == keep_solution, solution_first])
                    continue
                if "SOLUTION" in rest:
                    raise MarkerError("%s:%d: a SOLUTION condition this tool cannot resolve: %s"
                                      % (name, lineno, line.strip()))
                stack.append(None)
            elif kind == "elif":
                if stack and stack[-1] is not None:
                    raise MarkerError("%s:%d: #elif in a SOLUTION block" % (name, lineno))
            elif kind == "else":
                if stack and stack[-1] is not None:
                    stack[-1][0] = not stack[-1][0]
                    continue
            elif kind == "endif":
                if not stack:
                    raise MarkerError("%s:%d: #endif without #if" % (name, lineno))
                if stack.pop() is not None:
                    continue
        if keeping:
            out.append(line)
    if stack:
        raise MarkerError("%s: an #if is not closed" % name)
    return "".join(out)


def chapters(src):
    return sorted(d for d in os.listdir(src) if re.fullmatch(r"\d\d", d)
                  and os.path.isdir(os.path.join(src, d)))


def exercise_list(src=EXERCISES, only=None):
    """[(id '04-2', chapter '04', file 'ex2_warp_shuffle.cu')] in order."""
    found = []
    for ch in chapters(src):
        for f in sorted(os.listdir(os.path.join(src, ch))):
            m = EX_RE.match(f)
            if m:
                found.append(("%s-%s" % (ch, m.group(1)), ch, f))
    if only:
        wanted = set(only.replace(",", " ").split())
        found = [e for e in found if e[0] in wanted or e[1] in wanted]
        if not found:
            raise SystemExit("grade: no exercise %s in %s" % (only, src))
    return found


STUDENT_README = """# Your exercises

This folder is yours: every exercise is a stub that compiles and fails its
check until you solve it. The chapters' pages (tutorial/NN-*.md) and each
NN/README.md say what to do. Run one on the CPU emulator (no GPU needed),
from the repository root:

    build/bin/slcc --profile student/01/ex1_bounds.cu -o build/ex1 && build/ex1

and grade your work (every exercise, or one):

    make grade            make grade EX=01-1

`make test` checks the course's own sources, never this folder, so it stays
green however far you have got.
"""


REPO_INCLUDE = re.compile(r'^(\s*#\s*include\s*")\.\./\.\./\.\./kernels/common/([\w.]+)"', re.M)


def vendor_includes(text, out):
    """An exercise may include a helper of the course's kernels
    ("../../../kernels/common/X.h", chapter 06): the student tree carries its
    own copy in common/, so that it builds wherever it is put."""
    def repl(m):
        os.makedirs(os.path.join(out, "common"), exist_ok=True)
        shutil.copy(os.path.join(ROOT, "kernels", "common", m.group(2)), os.path.join(out, "common", m.group(2)))
        return '%s../common/%s"' % (m.group(1), m.group(2))
    return REPO_INCLUDE.sub(repl, text)


def make_student(out, tar=None, keep_solution=False, src=EXERCISES):
    """Copy the exercises into out/ with the stubs in place of the solutions;
    hidden/ folders and .expect files (the instructor's checks) left out."""
    if os.path.exists(out):
        raise SystemExit("student: %s exists; it may hold a student's work, so it is left "
                         "alone (remove it, or choose another OUT=)" % out)
    os.makedirs(out)
    for ch in chapters(src) + ["common"]:
        sdir = os.path.join(src, ch)
        if not os.path.isdir(sdir):
            continue
        os.makedirs(os.path.join(out, ch), exist_ok=True)
        for f in sorted(os.listdir(sdir)):
            path = os.path.join(sdir, f)
            if not os.path.isfile(path) or f.endswith(".expect"):
                continue  # hidden/ is a folder; .expect is the instructor's stub check
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            if f.endswith((".cu", ".h", ".c", ".txt")):
                text = strip_solutions(text, keep_solution, path)
                text = vendor_includes(text, out)
            with open(os.path.join(out, ch, f), "w", encoding="utf-8") as fh:
                fh.write(text)
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(STUDENT_README)
    if tar:
        with tarfile.open(tar, "w:gz") as t:
            t.add(out, arcname=os.path.basename(os.path.normpath(out)))
    return out


# ---------------------------------------------------------------- grading
def have_gpu():
    if not shutil.which("nvcc") or not shutil.which("nvidia-smi"):
        return False
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
        return r.returncode == 0 and "GPU" in r.stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


def run(cmd, timeout, cwd=None, env=None):
    """(returncode or None on timeout, output, seconds). The program runs in
    its own process group, so that a hang is killed with all it started."""
    t0 = time.time()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace"), time.time() - t0


KEY_LINE = re.compile(r"WRONG|error|out-of-bounds|^simtlab-emu: (?!profile)|racecheck|memcheck|hazard|past the end|before the start|your answer|"
                      r"target|correct, but|failed|deadlock|fault|illegal|assert|never|did not", re.I)


def tail(text, lines=8):
    """What a program said that explains a failure: its lines that name an
    error or a wrong result (the emulator's diagnosis among them), else its
    last lines. The SIMT counters' table (slcc --profile) is left out."""
    kept = [l for l in text.splitlines() if l.strip() and not l.startswith("    ")
            and not l.startswith("simtlab-emu profile")
            and not re.match(r"\s+(SIMT efficiency|diverged|global|shared|atomics|barriers|hottest|ex\w+\.cu:)", l)]
    key = [l for l in kept if KEY_LINE.search(l)]
    return "\n".join((key or kept)[-lines:])


# What the emulator prints when a kernel does something a GPU would fault on
# or what compute-sanitizer would report (out of bounds, a race, a deadlock,
# a host dereference of device memory): the exercise gets 0 with it.
EMU_FAULT = re.compile(r"^simtlab-emu: (?!.*still live)(?!profile)(out-of-bounds|kernel |"
                       r".*(illegal|deadlock|fault|misaligned|hazard|dereferenc|barrier))", re.M)


def diagnose(rc, out, timeout):
    """Why a run failed, in words, with what the program (or the emulator) said."""
    if rc is None:
        return "did not finish within %ds (an endless loop, a deadlock or a hang?); " \
               "killed. Last output:\n%s" % (timeout, tail(out))
    if rc < 0:
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        return "crashed (%s). Last output:\n%s" % (name, tail(out))
    wrong = [l for l in out.splitlines() if l.startswith("WRONG")]
    if EMU_FAULT.search(out):
        return "the emulator stopped a kernel:\n%s" % tail(out)
    if wrong:
        return "wrong result: %s" % "; ".join(wrong[:3])
    return "exit status %d. Last output:\n%s" % (rc, tail(out))


class Builder:
    def __init__(self, backend, slcc, timeout):
        self.backend, self.slcc, self.timeout = backend, slcc, timeout

    def build(self, source, binary, defines=()):
        incdir = os.path.dirname(source)
        if self.backend == "cuda":
            cmd = ["nvcc", "-O2", "-arch=native", "-I", incdir] + ["-D" + d for d in defines] \
                  + [source, "-o", binary]
        else:
            cmd = [self.slcc, "--profile", "-O1", "-I", incdir] + ["-D" + d for d in defines] \
                  + [source, "-o", binary]
        rc, out, _ = run(cmd, self.timeout)
        if rc != 0:
            why = "did not finish within %ds" % self.timeout if rc is None else tail(out, 15)
            return "does not build:\n%s" % why
        return None


def grade_exercise(ex, student_dir, work, builder, timeout, hidden_src=EXERCISES, defines=()):
    """Grade one exercise. Returns a dict: id, name, score, max, lost [(points, reason)],
    checks [(name, ok, reason)], seconds."""
    ex_id, ch, fname = ex
    name = fname[:-3]
    res = {"id": ex_id, "name": "%s/%s" % (ch, name), "score": 0.0, "max": TOTAL_POINTS,
           "lost": [], "checks": [], "seconds": 0.0}
    t0 = time.time()
    hidden = os.path.join(hidden_src, ch, "hidden", fname)
    has_hidden = os.path.isfile(hidden)
    visible_points = VISIBLE_POINTS if has_hidden else TOTAL_POINTS

    def zero(reason):
        res["score"] = 0.0
        res["lost"] = [(TOTAL_POINTS, reason)]
        res["seconds"] = time.time() - t0
        return res

    student_file = os.path.join(student_dir, ch, fname)
    if not os.path.isfile(student_file):
        return zero("missing: %s" % student_file)
    # The student's chapter and common/ folders, copied so that nothing the
    # build writes lands in the student's tree and the hidden test sits beside it.
    wdir = os.path.join(work, ex_id)
    shutil.rmtree(wdir, ignore_errors=True)
    for sub in (ch, "common"):
        s = os.path.join(student_dir, sub)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(wdir, "src", sub),
                            ignore=shutil.ignore_patterns("hidden", "*.o", "a.out"))
    src = os.path.join(wdir, "src", ch, fname)
    binary = os.path.join(wdir, name)
    err = builder.build(src, binary, defines)
    if err:
        return zero(err)
    rc, out, _ = run([binary], timeout, cwd=wdir)
    res["output"] = out
    if rc is None or rc < 0 or EMU_FAULT.search(out):
        return zero(diagnose(rc, out, timeout))
    if rc == 0 and not re.search(r"^WRONG", out, re.M):
        res["checks"].append(("visible test", True, ""))
        res["score"] += visible_points
    else:
        reason = "visible test: " + diagnose(rc, out, timeout)
        res["checks"].append(("visible test", False, reason))
        res["lost"].append((visible_points, reason))
    if has_hidden:
        hsrc = os.path.join(wdir, "src", ch, "hidden_" + fname)
        shutil.copy(hidden, hsrc)
        hbin = os.path.join(wdir, name + "_hidden")
        err = builder.build(hsrc, hbin, defines)
        if err:
            return zero("hidden test " + err)
        rc, hout, _ = run([hbin], timeout, cwd=wdir)
        if rc is None or rc < 0 or EMU_FAULT.search(hout):
            return zero("hidden test " + diagnose(rc, hout, timeout))
        # The hidden test prints one line per check: "ok - what" or
        # "not ok - what: why" (TAP's form), and exits 0 when it could run them.
        results = re.findall(r"^(not ok|ok)\b[ -]*(.*)$", hout, re.M)
        if rc != 0 and not any(r[0] == "not ok" for r in results):
            results.append(("not ok", "hidden test: " + diagnose(rc, hout, timeout)))
        if not results:
            res["lost"].append((HIDDEN_POINTS, "hidden test printed no results:\n" + tail(hout)))
        each = HIDDEN_POINTS / max(1, len(results))
        for status, what in results:
            ok = status == "ok"
            res["checks"].append(("hidden: " + what.split(":")[0], ok, "" if ok else what))
            if ok:
                res["score"] += each
            else:
                res["lost"].append((each, "hidden test: " + what))
    res["seconds"] = time.time() - t0
    return res


def fmt(points):
    return ("%.1f" % points).rstrip("0").rstrip(".")


def print_report(results, backend, stream=sys.stdout):
    w = stream.write
    w("\nsimtlab grade (%s)\n" % ("on the GPU, nvcc" if backend == "cuda"
                                   else "on the CPU emulator, slcc --profile"))
    for r in results:
        w("  %-5s %-28s %4s/%s  (%.0fs)\n" % (r["id"], r["name"], fmt(r["score"]), fmt(r["max"]),
                                              r["seconds"]))
        for points, reason in r["lost"]:
            lines = reason.splitlines() or [""]
            w("        -%s  %s\n" % (fmt(points), lines[0]))
            for l in lines[1:]:
                w("              %s\n" % l)
    total = sum(r["score"] for r in results)
    most = sum(r["max"] for r in results)
    w("  total %s/%s\n" % (fmt(total), fmt(most)))


def write_tap(results, path):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("TAP version 13\n1..%d\n" % len(results))
        for i, r in enumerate(results, 1):
            ok = r["score"] >= r["max"]
            fh.write("%s %d - %s %s score %s/%s\n" % ("ok" if ok else "not ok", i, r["id"], r["name"],
                                                      fmt(r["score"]), fmt(r["max"])))
            if r["lost"]:
                fh.write("  ---\n  lost:\n")
                for points, reason in r["lost"]:
                    fh.write("    - points: %s\n      reason: |\n" % fmt(points))
                    for l in reason.splitlines():
                        fh.write("        %s\n" % l)
                fh.write("  ...\n")


def write_junit(results, path, suite="simtlab-exercises"):
    fails = sum(1 for r in results if r["score"] < r["max"])
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        fh.write('<testsuite name=%s tests="%d" failures="%d" time="%.1f">\n'
                 % (xml.quoteattr(suite), len(results), fails, sum(r["seconds"] for r in results)))
        for r in results:
            fh.write('  <testcase classname=%s name=%s time="%.1f">\n'
                     % (xml.quoteattr(suite), xml.quoteattr("%s %s" % (r["id"], r["name"])), r["seconds"]))
            fh.write('    <properties><property name="score" value="%s"/>'
                     '<property name="max" value="%s"/></properties>\n' % (fmt(r["score"]), fmt(r["max"])))
            if r["lost"]:
                text = "\n".join("-%s %s" % (fmt(p), why) for p, why in r["lost"])
                fh.write('    <failure message=%s>%s</failure>\n'
                         % (xml.quoteattr("score %s/%s" % (fmt(r["score"]), fmt(r["max"]))), xml.escape(text)))
            fh.write("  </testcase>\n")
        fh.write("</testsuite>\n")


def pick_backend(choice):
    if choice == "auto":
        return "cuda" if have_gpu() else "emu"
    return choice


def default_slcc():
    return os.path.join(ROOT, os.environ.get("BUILD", "build"), "bin", "slcc")


def grade_tree(student_dir, only, args, backend, out_dir, label=None):
    if not os.path.isdir(student_dir):
        raise SystemExit("grade: %s is not there. `make student` writes your own tree of the "
                         "exercises (make student OUT=%s)" % (student_dir, student_dir))
    builder = Builder(backend, args.slcc, args.build_timeout)
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    results = []
    for ex in exercise_list(EXERCISES, only):
        if label is None:
            print("grading %s %s ..." % (ex[0], ex[2]), flush=True)
        results.append(grade_exercise(ex, student_dir, work, builder, args.timeout))
    return results


def cmd_grade(args):
    backend = pick_backend(args.backend)
    if backend == "emu" and not os.access(args.slcc, os.X_OK):
        raise SystemExit("grade: %s is missing (make grade builds it; or --slcc PATH)" % args.slcc)
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    results = grade_tree(os.path.abspath(args.dir), args.ex, args, backend, out_dir)
    print_report(results, backend)
    write_tap(results, os.path.join(out_dir, "grade.tap"))
    write_junit(results, os.path.join(out_dir, "grade.junit.xml"))
    print("  reports: %s/grade.tap, %s/grade.junit.xml" % (out_dir, out_dir))
    return 0


def cmd_class(args):
    backend = pick_backend(args.backend)
    out_dir = os.path.abspath(args.out)
    exercises = exercise_list(EXERCISES, args.ex)
    students = sorted(d for d in os.listdir(args.dir) if os.path.isdir(os.path.join(args.dir, d)))
    if not students:
        raise SystemExit("grade-class: no student folders in %s" % args.dir)
    rows = []
    for s in students:
        print("grading %s ..." % s, flush=True)
        sdir = os.path.join(out_dir, "students", s)
        os.makedirs(sdir, exist_ok=True)
        results = grade_tree(os.path.join(args.dir, s), args.ex, args, backend, sdir, label=s)
        with open(os.path.join(sdir, "report.txt"), "w", encoding="utf-8") as fh:
            print_report(results, backend, fh)
        write_tap(results, os.path.join(sdir, "grade.tap"))
        write_junit(results, os.path.join(sdir, "grade.junit.xml"), suite=s)
        shutil.rmtree(os.path.join(sdir, "work"), ignore_errors=True)
        rows.append((s, results))
    import csv
    csv_path = args.csv or os.path.join(out_dir, "class.csv")
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["student"] + [e[0] for e in exercises] + ["total", "max", "lost points"])
        for s, results in rows:
            lost = " | ".join("%s: -%s %s" % (r["id"], fmt(p), " ".join(why.split())[:240])
                              for r in results for p, why in r["lost"])
            w.writerow([s] + [fmt(r["score"]) for r in results]
                       + [fmt(sum(r["score"] for r in results)), fmt(sum(r["max"] for r in results)), lost])
    print("class scores: %s (each student's report: %s/students/NAME/report.txt)" % (csv_path, out_dir))
    return 0


def cmd_check(args):
    """For CTest, on the instructor's sources: the solution scores every point;
    the generated stub fails its visible test (and prints the .expect regex)."""
    ex = exercise_list(EXERCISES, args.ex)
    if len(ex) != 1:
        raise SystemExit("check: --ex names one exercise")
    ex = ex[0]
    out_dir = os.path.abspath(os.path.join(args.out, args.variant))
    tree = os.path.join(out_dir, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    make_student(tree, keep_solution=args.variant == "solution")
    backend = pick_backend(args.backend)
    builder = Builder(backend, args.slcc, args.build_timeout)
    r = grade_exercise(ex, tree, os.path.join(out_dir, "work"), builder, args.timeout)
    print_report([r], backend)
    if args.variant == "solution":
        return 0 if r["score"] >= r["max"] else 1
    ok = r["score"] < r["max"]  # a performance task's stub may pass its visible test, not all
    expect = os.path.join(EXERCISES, ex[1], ex[2][:-3] + ".expect")
    if os.path.isfile(expect) and backend == "emu":
        with open(expect, encoding="utf-8") as fh:
            pattern = fh.read().strip()
        if not re.search(pattern, r.get("output", "") + "\n".join(w for _, w in r["lost"])):
            print("the stub does not print what %s expects: %s" % (expect, pattern))
            ok = False
    if not ok:
        print("the generated stub of %s does not fail its tests" % ex[0])
    return 0 if ok else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("student", help="write a student tree")
    s.add_argument("--out", default=os.path.join(ROOT, "student"))
    s.add_argument("--tar", help="also write this .tar.gz")
    for name in ("grade", "class", "check"):
        g = sub.add_parser(name)
        g.add_argument("--ex", help="exercises: 04-2, or a chapter 04, or several: '01-1 04'")
        g.add_argument("--backend", choices=("auto", "emu", "cuda"), default="auto")
        g.add_argument("--timeout", type=int, default=int(os.environ.get("GRADE_TIMEOUT", "120")),
                       help="seconds each run of an exercise may take (default 120)")
        g.add_argument("--build-timeout", type=int, default=300)
        g.add_argument("--slcc", default=default_slcc())
        g.add_argument("--out", default=os.path.join(ROOT, os.environ.get("BUILD", "build"), "grade"))
        if name == "grade":
            g.add_argument("--dir", default=os.path.join(ROOT, "student"))
        elif name == "class":
            g.add_argument("--dir", required=True, help="a folder of student trees, one per student")
            g.add_argument("--csv", help="default: OUT/class.csv")
        else:
            g.add_argument("--variant", choices=("stub", "solution"), required=True)
    args = p.parse_args(argv)
    try:
        if args.cmd == "student":
            out = make_student(os.path.abspath(args.out), args.tar)
            print("student tree: %s%s" % (out, " and %s" % args.tar if args.tar else ""))
            return 0
        return {"grade": cmd_grade, "class": cmd_class, "check": cmd_check}[args.cmd](args)
    except MarkerError as e:
        print("grade.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
