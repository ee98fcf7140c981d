#!/usr/bin/env python3
"""simtlab exercises: the student tree and the grader (Python 3, standard library only).

The instructor's sources are tutorial/exercises/NN/exK_topic.cu: one file per
exercise that holds the stub and the solution,

    #ifdef SOLUTION            (or #if defined(SOLUTION), #ifndef SOLUTION)
        the solution
    #else
        the stub: compiles, and fails the exercise's check
    #endif

and, for the instructor only, tutorial/exercises/NN/hidden/exK_topic.cu: the
grader's own checks of the student's code (tutorial/INSTRUCTORS.md, "Adding an
exercise with hidden tests"), with tutorial/exercises/grading/grade.h.

  grade.py student [--out DIR] [--tar FILE]     write a student tree: every solution
                                                replaced by its stub, no hidden tests
  grade.py grade [--dir DIR] [--ex 04-2]        build and grade a student tree
  grade.py class --dir CLASS [-j N]             grade every student tree in CLASS, in a
                                                sandbox (scripts/sandbox.py); --slurm: on a
                                                Slurm cluster (scripts/grade_slurm.py)
  grade.py check --ex 01-1 --variant stub|solution
                                                for CTest: the solution gets every point,
                                                the generated stub none
  grade.py cheat --ex 01-1 --cheat NAME         for CTest: a cheat (tests/grading/cheats.py)
                                                gets no point
  grade.py gradescope ...                       Gradescope's results.json and autograder
                                                bundle, GitHub Classroom's workflow
                                                (scripts/grade_platforms.py)

Grading an exercise: the student's exercise file is copied, alone, beside the
course's own helpers (the student's copies of ex_common.h and common/ are not
used), built (the CPU emulator's slcc --profile, or nvcc where there is a GPU
and --backend cuda/auto finds one) and run: the visible test, which must exit 0
and print no line starting with WRONG. Then the hidden test, built against the
student's code, checks it itself: it reruns the visible test's case (those
checks belong to the visible test: a program that only prints what a right one
prints, or reports a count it did not make, loses the visible points too) and
tries what the visible test does not. Hidden points count only once the visible
test passes. Each run has limits; a build error, a crash, a hang, a limit hit
or an error the emulator reports gives 0 for that exercise, with the reason.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import secrets
import shutil
import signal
import sys
import tarfile
import threading
import time
import xml.sax.saxutils as xml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sandbox  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXERCISES = os.path.join(ROOT, "tutorial", "exercises")
GRADING_HELPERS = os.path.join(EXERCISES, "grading")
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
# ---------------------------------------------------------------- grading
def have_gpu():
    if not shutil.which("nvcc") or not shutil.which("nvidia-smi"):
        return False
    try:
        import subprocess
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
        return r.returncode == 0 and "GPU" in r.stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


def run(cmd, timeout, cwd=None, env=None):
    """(returncode or None on timeout, output, seconds), unsandboxed, for
    trusted commands (the course's own solutions in CTest)."""
    r = sandbox.Plain().run(cmd, timeout, cwd or os.getcwd(), env=env)
    return r.rc, r.out, r.seconds


KEY_LINE = re.compile(r"WRONG|error|out-of-bounds|^simtlab-emu: (?!profile)|racecheck|memcheck|hazard|past the end|before the start|your answer|"
                      r"target|correct, but|failed|deadlock|fault|illegal|assert|never|did not|not an answer", re.I)


def tail(text, lines=8):
    """What a program said that explains a failure: its lines that name an
    error or a wrong result (the emulator's diagnosis among them), else its
    last lines. The SIMT counters' table (slcc --profile) is left out."""
    kept = [l for l in text.splitlines() if l.strip() and not l.startswith("    ")
            and not l.startswith("simtlab-emu profile")
            and not re.match(r"\s+(SIMT efficiency|modelled time|diverged|global|shared|atomics|barriers|hottest|ex\w+\.cu:)", l)]
    key = [l for l in kept if KEY_LINE.search(l)]
    return "\n".join(l[:400] for l in (key or kept)[-lines:])


# What the emulator prints when a kernel does something a GPU would fault on
# or what compute-sanitizer would report (out of bounds, a race, a deadlock,
# a host dereference of device memory): the exercise gets 0 with it.
EMU_FAULT = re.compile(r"^simtlab-emu: (?!.*still live)(?!profile)(out-of-bounds|kernel |"
                       r".*(illegal|deadlock|fault|misaligned|hazard|dereferenc|barrier))", re.M)


def diagnose(r, timeout):
    """Why a run failed, in words, with what the program (or the emulator) said."""
    rc, out = r.rc, r.out
    limit = (" (%s)" % r.why) if r.why else ""
    if rc is None:
        return "did not finish within %ds (an endless loop, a deadlock or a hang?)%s; " \
               "killed. Last output:\n%s" % (timeout, limit, tail(out))
    if rc < 0:
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        return "crashed (%s)%s. Last output:\n%s" % (name, limit, tail(out))
    if r.why:
        return "%s. Last output:\n%s" % (r.why, tail(out))
    wrong = [l for l in out.splitlines() if l.startswith("WRONG")]
    if EMU_FAULT.search(out):
        return "the emulator stopped a kernel:\n%s" % tail(out)
    if wrong:
        return "wrong result: %s" % "; ".join(w[:300] for w in wrong[:3])
    return "exit status %d. Last output:\n%s" % (rc, tail(out))


def failed_run(r):
    """A run that gives the exercise 0 whatever it printed: it did not finish,
    crashed, hit a limit, or the emulator stopped a kernel."""
    return r.rc is None or r.rc < 0 or bool(r.why) or bool(EMU_FAULT.search(r.out))


class Builder:
    """Builds one source file into a binary, through a runner (a sandbox or not)."""

    def __init__(self, backend, slcc, timeout, runner=None):
        self.backend, self.slcc, self.timeout = backend, slcc, timeout
        self.runner = runner or sandbox.Plain()

    def course_paths(self):
        """What a build needs to read of this machine beyond /usr and /etc: the
        emulator's headers and tools, and slcc's build folder (its bin, lib,
        and the toolkit shims it made), never the rest of the course."""
        if self.backend == "cuda":
            return [p for p in ("/usr/local/cuda", "/opt/nvidia", "/dev/nvidia0", "/dev/nvidiactl",
                                "/dev/nvidia-uvm") if os.path.exists(p)]
        build = os.path.dirname(os.path.dirname(os.path.abspath(self.slcc)))
        paths = [os.path.join(ROOT, "emu", "include"), os.path.join(ROOT, "emu", "tools"),
                 os.path.join(build, "bin"), os.path.join(build, "lib"), os.path.join(build, "emu")]
        paths += [os.path.join(build, d) for d in sorted(os.listdir(build)) if d.startswith("simtlab_emu_")] \
            if os.path.isdir(build) else []
        return [p for p in paths if os.path.exists(p)]

    def build(self, source, binary, defines=(), ro=()):
        incdir = os.path.dirname(source)
        if self.backend == "cuda":
            cmd = ["nvcc", "-O2", "-arch=native", "-I", incdir] + ["-D" + d for d in defines] \
                  + [source, "-o", binary]
        else:
            cmd = [self.slcc, "--profile", "-O1", "-I", incdir] + ["-D" + d for d in defines] \
                  + [source, "-o", binary]
        out_dir = os.path.dirname(binary)
        os.makedirs(out_dir, exist_ok=True)
        r = self.runner.run(cmd, self.timeout, out_dir, ro=list(ro) + self.course_paths(), rw=[out_dir])
        if r.rc != 0 or not os.path.isfile(binary):
            if r.rc is None:
                why = "did not finish within %ds" % self.timeout
            else:
                why = "\n".join(x for x in (r.why, tail(r.out, 15)) if x)
            return "does not build:\n%s" % why
        return None

    def run_program(self, binary, timeout, run_dir, env=None, rw=()):
        os.makedirs(run_dir, exist_ok=True)
        # the emulator's timing model reads its GPU data files (emu/gpus) at run time
        more = self.course_paths() if self.backend == "cuda" else \
            [p for p in (os.path.join(ROOT, "emu", "gpus"),) if os.path.isdir(p)]
        return self.runner.run([binary], timeout, run_dir, env=env, ro=[os.path.dirname(binary)] + more,
                               rw=list(rw), program=True)


def course_file(path, text_out_dir):
    """A helper of the course (NN/ex_common.h, common/*) as the student tree
    has it: stubs resolved, includes of kernels/common vendored."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return vendor_includes(strip_solutions(text, False, path), text_out_dir)


def course_helpers(ch, src_root):
    """Writes the course's own helpers of chapter ch into src_root: the
    chapter's *.h and common/. The student's copies are not used, so editing
    a helper (check_result, CHECK) changes nothing."""
    for sub in (ch, "common"):
        sdir = os.path.join(EXERCISES, sub)
        if not os.path.isdir(sdir):
            continue
        os.makedirs(os.path.join(src_root, sub), exist_ok=True)
        for f in sorted(os.listdir(sdir)):
            path = os.path.join(sdir, f)
            if os.path.isfile(path) and (sub == "common" or f.endswith(".h")):
                with open(os.path.join(src_root, sub, f), "w", encoding="utf-8") as fh:
                    fh.write(course_file(path, src_root))


def hidden_points(hidden):
    """(visible, hidden) points of an exercise: 4 and 6 with a hidden test,
    10 and 0 without; a hidden test may set the visible test's share with
    #define GRADE_POINTS_VISIBLE 0 (pencil and paper: the answers are all) or
    10 (every check reruns the visible test)."""
    if not hidden or not os.path.isfile(hidden):
        return TOTAL_POINTS, 0.0
    with open(hidden, encoding="utf-8") as fh:
        m = re.search(r"^\s*#\s*define\s+GRADE_POINTS_VISIBLE\s+(\d+)", fh.read(), re.M)
    v = float(m.group(1)) if m else VISIBLE_POINTS
    return v, TOTAL_POINTS - v


def model_issue_spec(hidden):
    """(kernel, ratio) where the hidden test grades a kernel's modelled issue
    time against the reference solution's (#define GRADE_MODEL_ISSUE_KERNEL
    name, #define GRADE_MODEL_ISSUE_RATIO 1.1), else None."""
    if not hidden or not os.path.isfile(hidden):
        return None
    with open(hidden, encoding="utf-8") as fh:
        text = fh.read()
    k = re.search(r"^\s*#\s*define\s+GRADE_MODEL_ISSUE_KERNEL\s+(\w+)", text, re.M)
    r = re.search(r"^\s*#\s*define\s+GRADE_MODEL_ISSUE_RATIO\s+([0-9.]+)", text, re.M)
    return (k.group(1), float(r.group(1)) if r else 1.1) if k else None


def model_issue(csv_path, kernel):
    """From the emulator's CSV (SIMTLAB_EMU_PROFILE_CSV, written by the
    runtime, not by the program's output): (launches of kernel, their
    modelled issue_us summed, the GPU), or None when a launch of it was not
    modelled or the file is missing."""
    try:
        with open(csv_path, newline="", encoding="utf-8") as fh:
            rows = [r for r in csv.DictReader(fh) if r.get("kernel") == kernel]
        if not rows or any(not r.get("model_issue_us") for r in rows):
            return None
        return len(rows), sum(float(r["model_issue_us"]) for r in rows), rows[0].get("model_gpu", "?")
    except (OSError, ValueError, csv.Error):
        return None


_reference_model = {}   # (exercise, slcc, defines) -> model_issue of the reference solution, this grading run
_reference_lock = threading.Lock()


def reference_model_issue(ex, work, builder, timeout, hidden_src, defines, kernel):
    """The reference solution (the course's own file, SOLUTION kept) built
    with the same slcc and run under the same hidden test: its modelled
    issue time, once per grading run. Returns (figures or None, why)."""
    ex_id, ch, fname = ex
    key = (ex_id, builder.slcc, tuple(defines), kernel)
    with _reference_lock:
        if key in _reference_model:
            return _reference_model[key]
        rdir = os.path.join(work, ex_id + "-reference")
        shutil.rmtree(rdir, ignore_errors=True)
        src_root = os.path.join(rdir, "src")
        os.makedirs(os.path.join(src_root, ch))
        course = os.path.join(EXERCISES, ch, fname)
        with open(course, encoding="utf-8") as fh:
            text = vendor_includes(strip_solutions(fh.read(), True, course), src_root)
        with open(os.path.join(src_root, ch, fname), "w", encoding="utf-8") as fh:
            fh.write(text)
        course_helpers(ch, src_root)
        shutil.copytree(GRADING_HELPERS, os.path.join(src_root, "grading"))
        shutil.copy(os.path.join(hidden_src, ch, "hidden", fname), os.path.join(src_root, ch, "hidden_" + fname))
        hbin = os.path.join(rdir, "build", fname[:-3] + "_hidden")
        err = builder.build(os.path.join(src_root, ch, "hidden_" + fname), hbin, defines, ro=[src_root])
        got = (None, "the reference solution " + err) if err else None
        if not got:
            mdir = os.path.join(rdir, "model")
            os.makedirs(mdir)
            csv_path = os.path.join(mdir, secrets.token_hex(8) + ".csv")
            token = secrets.token_hex(12)
            r = builder.run_program(hbin, timeout, os.path.join(rdir, "run"), rw=[mdir],
                                    env=dict(os.environ, SIMTLAB_GRADE_TOKEN=token, SIMTLAB_EMU_PROFILE_CSV=csv_path))
            fig = model_issue(csv_path, kernel) if r.rc == 0 else None
            got = (fig, "" if fig else "the reference solution's run gave no modelled time: " +
                   tail(r.out.replace(token + " ", "")))
        _reference_model[key] = got
        return got


def parse_checks(out, token):
    """The hidden test's lines that carry this run's token: [(ok, group, what)]
    and whether it printed its last line (done)."""
    checks, done = [], False
    prefix = token + " "
    for line in out.splitlines():
        if not line.startswith(prefix):
            continue
        body = line[len(prefix):]
        if body == "done":
            done = True
            continue
        m = re.match(r"^(not ok|ok)\b[ -]*(.*)$", body)
        if m:
            what = m.group(2)
            group = "visible" if what.startswith("visible: ") else "hidden"
            if group == "visible":
                what = what[len("visible: "):]
            checks.append((m.group(1) == "ok", group, what))
    return checks, done


def model_issue_check(ex, work, builder, timeout, hidden_src, defines, spec, csv_path, checks, done):
    """The performance check: the student's kernel's modelled issue time
    (the emulator's CSV) at most spec's ratio times the reference
    solution's, both under the hidden test, in this grading run. Passes
    only when every check of results (those that name no modelled figure)
    passed first: skipping work does not score."""
    kernel, limit = spec
    what = "modelled issue time of %s" % kernel
    results = [c for c in checks if "modelled" not in c[2]]   # the checks of results, not of modelled figures
    if not done or not results or not all(c[0] for c in results):
        return (False, "hidden", what + ": not graded, a correctness check failed first")
    mine = model_issue(csv_path, kernel)
    ref, why = reference_model_issue(ex, work, builder, timeout, hidden_src, defines, kernel)
    if not ref:
        return (False, "hidden", what + ": " + why)
    if not mine or mine[0] != ref[0]:
        return (False, "hidden", what + ": the emulator's report has %s launches of %s, the reference's %d" % (
            mine[0] if mine else "no modelled", kernel, ref[0]))
    if mine[2] != ref[2]:   # the same GPU model for both, whatever the program's environment says
        return (False, "hidden", what + ": modelled on %s, the reference solution on %s" % (mine[2], ref[2]))
    ratio = mine[1] / ref[1] if ref[1] > 0 else float("inf")
    return (ratio <= limit, "hidden", "%s: %.3f us, %.2fx the reference solution's %.3f us (modelled on %s, "
            "same compiler, this run; at most %.2fx)" % (what, mine[1], ratio, ref[1], mine[2], limit))


def grade_exercise(ex, student_dir, work, builder, timeout, hidden_src=EXERCISES, defines=()):
    """Grade one exercise. Returns a dict: id, name, score, max, lost [(points, reason)],
    checks [(name, ok, reason, visible)], seconds, output."""
    ex_id, ch, fname = ex
    name = fname[:-3]
    res = {"id": ex_id, "name": "%s/%s" % (ch, name), "score": 0.0, "max": TOTAL_POINTS,
           "lost": [], "checks": [], "seconds": 0.0, "output": ""}
    t0 = time.time()
    hidden = os.path.join(hidden_src, ch, "hidden", fname)
    has_hidden = os.path.isfile(hidden)
    vis_points, hid_points = hidden_points(hidden)
    # the two parts' scores and why each lost, for reports that show them apart (Gradescope)
    res["parts"] = {"visible": [0.0, vis_points, []], "hidden": [0.0, hid_points, []]}

    def zero(reason):
        res["score"] = 0.0
        res["lost"] = [(TOTAL_POINTS, reason)]
        for part in res["parts"].values():
            part[0], part[2] = 0.0, [reason]
        res["seconds"] = time.time() - t0
        return res

    student_file = os.path.join(student_dir, ch, fname)
    if not os.path.isfile(student_file):
        return zero("missing: %s" % student_file)
    # A fresh folder: src/ holds the student's exercise file (only that) and
    # the course's helpers beside it, read-only to every command; each build
    # writes into a folder of its own, each run into a fresh tmpfs (sandbox).
    wdir = os.path.join(work, ex_id)
    shutil.rmtree(wdir, ignore_errors=True)
    src_root = os.path.join(wdir, "src")
    os.makedirs(os.path.join(src_root, ch))
    shutil.copy(student_file, os.path.join(src_root, ch, fname))
    course_helpers(ch, src_root)
    src = os.path.join(src_root, ch, fname)
    binary = os.path.join(wdir, "build", name)
    if has_hidden:  # everything a build reads, put in place before any student code runs
        shutil.copytree(GRADING_HELPERS, os.path.join(src_root, "grading"))
        shutil.copy(hidden, os.path.join(src_root, ch, "hidden_" + fname))
    err = builder.build(src, binary, defines, ro=[src_root])
    if err:
        return zero(err)
    r = builder.run_program(binary, timeout, os.path.join(wdir, "run"))
    res["output"] = r.out
    if failed_run(r):
        return zero(diagnose(r, timeout))
    own_ok = r.rc == 0 and not re.search(r"^WRONG", r.out, re.M)
    own_reason = "" if own_ok else "your program: " + diagnose(r, timeout)
    checks, done, stopped = [], True, ""
    if has_hidden:
        hbin = os.path.join(wdir, "build-hidden", name + "_hidden")
        err = builder.build(os.path.join(src_root, ch, "hidden_" + fname), hbin, defines, ro=[src_root])
        if err:
            return zero("hidden test " + err)
        token = secrets.token_hex(12)
        env = dict(os.environ, SIMTLAB_GRADE_TOKEN=token)
        spec = model_issue_spec(hidden) if builder.backend == "emu" else None
        rw = []
        if spec:   # the emulator's own CSV, in a folder of the grader's, under a name the program is not told
            mdir = os.path.join(wdir, "model")
            os.makedirs(mdir, exist_ok=True)
            csv_path = os.path.join(mdir, secrets.token_hex(8) + ".csv")
            env["SIMTLAB_EMU_PROFILE_CSV"] = csv_path
            rw = [mdir]
        hr = builder.run_program(hbin, timeout, os.path.join(wdir, "run-hidden"), env=env, rw=rw)
        checks, done = parse_checks(hr.out, token)
        if spec and not failed_run(hr):
            checks.append(model_issue_check(ex, work, builder, timeout, hidden_src, defines, spec, csv_path,
                                            checks, done))
        hr.out = hr.out.replace(token + " ", "")   # the token is this run's business, not the report's
        res["hidden_output"] = hr.out
        if failed_run(hr):
            return zero("hidden test " + diagnose(hr, timeout))
        if not done:
            stopped = "the grader's checks stopped before their end (exit status %s; does your code call " \
                      "exit?):\n%s" % (hr.rc, tail(hr.out))
    visible = [c for c in checks if c[1] == "visible"]
    hidden_checks = [c for c in checks if c[1] == "hidden"]
    bad_visible = [c for c in visible if not c[0]]
    visible_ok = own_ok and not bad_visible and done
    res["checks"].append(("visible test", visible_ok, own_reason, True))
    for ok, _, what in visible:
        res["checks"].append(("visible: " + what.split(":")[0], ok, "" if ok else what, True))
    visible_reasons = ([own_reason] if own_reason else []) + \
        ["the grader's rerun of the visible test: %s" % w for _, _, w in bad_visible] + \
        ([stopped] if stopped else [])
    if visible_ok:
        res["score"] += vis_points
        res["parts"]["visible"][0] = vis_points
    else:
        res["parts"]["visible"][2].append("\n".join(visible_reasons))
        if vis_points > 0:
            res["lost"].append((vis_points, "visible test: " + "\n".join(visible_reasons)))
    if has_hidden and hid_points > 0:
        for ok, _, what in hidden_checks:
            res["checks"].append(("hidden: " + what.split(":")[0], ok, "" if ok else what, False))
        if not visible_ok:
            passed = sum(1 for c in hidden_checks if c[0])
            why = "hidden checks count only once the visible test passes (%d of %d passed)" % (
                passed, len(hidden_checks))
            if vis_points == 0:
                why += ": " + "\n".join(visible_reasons)
            res["lost"].append((hid_points, why))
            res["parts"]["hidden"][2].append(why)
        elif not hidden_checks:
            why = "the hidden test printed no results:\n" + tail(res.get("hidden_output", ""))
            res["lost"].append((hid_points, why))
            res["parts"]["hidden"][2].append(why)
        else:
            each = hid_points / len(hidden_checks)
            for ok, _, what in hidden_checks:
                if ok:
                    res["score"] += each
                    res["parts"]["hidden"][0] += each
                else:
                    res["lost"].append((each, "hidden test: " + what))
                    res["parts"]["hidden"][2].append("-%s %s" % (fmt(each), what))
    res["seconds"] = time.time() - t0
    return res


def fmt(points):
    return ("%.1f" % points).rstrip("0").rstrip(".")


def print_report(results, words, stream=sys.stdout):
    w = stream.write
    w("\nsimtlab grade (%s)\n" % words)
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


def gradescope_results(results):
    """Gradescope's results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/,
    "Output format"): per exercise, a test for its visible test and one for
    its hidden checks, the latter with visibility "after_published", so that
    the hidden checks' names, output and score stay hidden until the
    instructor publishes the grades. The scores sum to the CSV's total."""
    tests = []
    for r in results:
        parts = r.get("parts") or {"visible": [r["score"], r["max"], [w for _, w in r["lost"]]],
                                   "hidden": [0.0, 0.0, []]}
        for key, label, visibility, number in (("visible", "visible test", "visible", 1),
                                               ("hidden", "hidden checks", "after_published", 2)):
            score, most, why = parts[key]
            if most <= 0:
                continue
            tests.append({"name": "%s %s: %s" % (r["id"], r["name"], label), "number": "%s.%d" % (r["id"], number),
                          "score": round(score, 3), "max_score": round(most, 3),
                          "status": "passed" if score >= most else "failed",
                          "output": "\n".join(why) if why else "passed", "visibility": visibility})
    return {"score": round(sum(t["score"] for t in tests), 3),
            "execution_time": int(sum(r["seconds"] for r in results)),
            "output": "simtlab exercises: %d graded; the hidden checks are shown once the grades are published"
                      % len(results),
            "visibility": "visible", "stdout_visibility": "hidden", "tests": tests}


def write_gradescope(results, path):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(gradescope_results(results), fh, indent=1)
        fh.write("\n")


def pick_backend(choice):
    if choice == "auto":
        return "cuda" if have_gpu() else "emu"
    return choice


def default_slcc():
    return os.path.join(ROOT, os.environ.get("BUILD", "build"), "bin", "slcc")


def make_runner(args, untrusted):
    """The sandbox for untrusted code, or the plain runner. Untrusted grading
    (a class) without a sandbox is refused unless --unsafe-no-sandbox."""
    choice = getattr(args, "sandbox", "auto")
    limits = sandbox.Limits(cpu_s=max(args.timeout, 10) * 2, memory=args.memory_mib * sandbox.MIB,
                            pids=args.max_procs)
    if choice == "none" or getattr(args, "unsafe_no_sandbox", False):
        if untrusted:
            print("grade: WARNING: grading without a sandbox (--unsafe-no-sandbox): student code runs as you, "
                  "with your files and your network", file=sys.stderr)
        return sandbox.Plain(limits)
    box, why = sandbox.probe()
    if box:
        box.limits = limits
        return box
    if choice == "bubblewrap" or untrusted:
        raise SystemExit(
            "grade: REFUSED: no sandbox can start on this machine: %s.\n"
            "Student code would run as you, able to read and write your files, use the network and leave "
            "processes behind. Install bubblewrap (scripts/deps.sh) where user namespaces are allowed, or, "
            "knowing this, pass --unsafe-no-sandbox (make ... UNSAFE_NO_SANDBOX=1)." % why)
    print("grade: no sandbox (%s): your own code runs unsandboxed" % why, file=sys.stderr)
    return sandbox.Plain(limits)


def check_slcc(args, backend):
    if backend == "emu" and not os.access(args.slcc, os.X_OK):
        raise SystemExit("grade: %s is missing (make grade builds it; or --slcc PATH)" % args.slcc)


def grade_tree(student_dir, only, args, backend, out_dir, runner, label=None, jobs=1):
    if not os.path.isdir(student_dir):
        raise SystemExit("grade: %s is not there. `make student` writes your own tree of the "
                         "exercises (make student OUT=%s)" % (student_dir, student_dir))
    builder = Builder(backend, args.slcc, args.build_timeout, runner)
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    exercises = exercise_list(EXERCISES, only)

    def one(ex):
        if label is None:
            print("grading %s %s ..." % (ex[0], ex[2]), flush=True)
        return grade_exercise(ex, student_dir, work, builder, args.timeout)
    if jobs <= 1:
        return [one(ex) for ex in exercises]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, exercises))


def backend_words(backend, runner):
    return "%s; %s" % ("on the GPU, nvcc" if backend == "cuda" else "on the CPU emulator, slcc --profile",
                       runner.describe())


def cmd_grade(args):
    backend = pick_backend(args.backend)
    check_slcc(args, backend)
    runner = make_runner(args, untrusted=False)
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    results = grade_tree(os.path.abspath(args.dir), args.ex, args, backend, out_dir, runner, jobs=args.jobs)
    print_report(results, backend_words(backend, runner))
    write_tap(results, os.path.join(out_dir, "grade.tap"))
    write_junit(results, os.path.join(out_dir, "grade.junit.xml"))
    write_gradescope(results, os.path.join(out_dir, "results.json"))
    print("  reports: %s/grade.tap, grade.junit.xml, results.json (Gradescope)" % out_dir)
    if args.require_full and any(r["score"] < r["max"] for r in results):
        return 1   # GitHub Classroom's command grader: points only at full marks
    return 0


def write_student_reports(s, results, sdir, words):
    os.makedirs(sdir, exist_ok=True)
    with open(os.path.join(sdir, "report.txt"), "w", encoding="utf-8") as fh:
        print_report(results, words, fh)
    write_tap(results, os.path.join(sdir, "grade.tap"))
    write_junit(results, os.path.join(sdir, "grade.junit.xml"), suite=s)
    write_gradescope(results, os.path.join(sdir, "results.json"))


def write_class_csv(rows, exercises, csv_path):
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["student"] + [e[0] for e in exercises] + ["total", "max", "lost points"])
        for s, results in rows:
            lost = " | ".join("%s: -%s %s" % (r["id"], fmt(p), " ".join(why.split())[:240])
                              for r in results for p, why in r["lost"])
            w.writerow([s] + [fmt(r["score"]) for r in results]
                       + [fmt(sum(r["score"] for r in results)), fmt(sum(r["max"] for r in results)), lost])


def class_students(class_dir):
    students = sorted(d for d in os.listdir(class_dir) if os.path.isdir(os.path.join(class_dir, d))
                      and not d.startswith("."))
    if not students:
        raise SystemExit("grade-class: no student folders in %s" % class_dir)
    return students


def cmd_class(args):
    backend = pick_backend(args.backend)
    check_slcc(args, backend)
    out_dir = os.path.abspath(args.out)
    class_dir = os.path.abspath(args.dir)
    exercises = exercise_list(EXERCISES, args.ex)
    on_slurm = args.slurm or args.slurm_script_only or args.slurm_merge_only
    # the sandbox first (it refuses before anything else is looked at); on
    # Slurm it is the nodes' business: each task probes it (and refuses)
    runner = None if on_slurm else make_runner(args, untrusted=True)
    students = class_students(class_dir)
    if args.student:
        students = [s for s in students if s in args.student.split(",")]
    if on_slurm:
        return class_on_slurm(args, students, exercises, class_dir, out_dir)
    words = backend_words(backend, runner)
    print("grading %d student%s, %d exercise%s each, %d at a time (%s)" % (
        len(students), "" if len(students) == 1 else "s", len(exercises), "" if len(exercises) == 1 else "s",
        args.jobs, words), flush=True)
    builder = Builder(backend, args.slcc, args.build_timeout, runner)
    jobs = [(s, ex) for s in students for ex in exercises]
    results = {}

    def one(job):
        s, ex = job
        work = os.path.join(out_dir, "students", s, "work")
        os.makedirs(work, exist_ok=True)
        r = grade_exercise(ex, os.path.join(class_dir, s), work, builder, args.timeout)
        print("  %-16s %-5s %4s/%s" % (s, ex[0], fmt(r["score"]), fmt(r["max"])), flush=True)
        return job, r
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for (s, ex), r in pool.map(one, jobs):
            results[(s, ex[0])] = r
    rows = []
    for s in students:   # the order of the CSV: students by name, exercises by number, whatever finished first
        res = [results[(s, ex[0])] for ex in exercises]
        write_student_reports(s, res, os.path.join(out_dir, "students", s), words)
        if not args.keep_work:
            shutil.rmtree(os.path.join(out_dir, "students", s, "work"), ignore_errors=True)
        rows.append((s, res))
    csv_path = args.csv or os.path.join(out_dir, "class.csv")
    write_class_csv(rows, exercises, csv_path)
    print("class scores: %s (%.0f s; each student's report: %s/students/NAME/report.txt)" % (
        csv_path, time.time() - t0, out_dir))
    return 0


def class_on_slurm(args, students, exercises, class_dir, out_dir):
    """grade-class SLURM=1: a job array, one task per student, merged into the
    same CSV (scripts/grade_slurm.py)."""
    import grade_slurm
    if not students:
        raise SystemExit("grade-class: --student %s names no student folder of %s" % (args.student, class_dir))
    t0 = time.time()
    csv_path = os.path.abspath(args.csv or os.path.join(out_dir, "class.csv"))
    print("grading %d student%s, %d exercise%s each, on Slurm: one task per student, %d exercise%s at a time "
          "in each (%s)" % (len(students), "" if len(students) == 1 else "s", len(exercises),
                            "" if len(exercises) == 1 else "s", args.jobs, "" if args.jobs == 1 else "s",
                            "on the GPU, nvcc" if args.backend == "cuda" else
                            "on the CPU emulator, slcc --profile" if args.backend == "emu" else
                            "each node's choice: --backend auto"),
          flush=True)
    missing = grade_slurm.submit(args, students, exercises, class_dir, out_dir, csv_path)
    if missing is None:
        return 0
    print("class scores: %s (%.0f s; each student's report: %s/students/NAME/report.txt; the tasks' logs: "
          "%s/slurm/logs/)" % (csv_path, time.time() - t0, out_dir, out_dir))
    return 1 if missing else 0


def cmd_check(args):
    """For CTest, on the instructor's sources: the solution scores every point;
    the generated stub scores none (and prints the .expect regex)."""
    ex = exercise_list(EXERCISES, args.ex)
    if len(ex) != 1:
        raise SystemExit("check: --ex names one exercise")
    ex = ex[0]
    out_dir = os.path.abspath(os.path.join(args.out, args.variant))
    tree = os.path.join(out_dir, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    make_student(tree, keep_solution=args.variant == "solution")
    backend = pick_backend(args.backend)
    runner = make_runner(args, untrusted=False) if args.sandbox != "none" else sandbox.Plain()
    builder = Builder(backend, args.slcc, args.build_timeout, runner)
    r = grade_exercise(ex, tree, os.path.join(out_dir, "work"), builder, args.timeout)
    print_report([r], backend_words(backend, runner))
    if args.variant == "solution":
        return 0 if r["score"] >= r["max"] else 1
    ok = r["score"] == 0
    expect = os.path.join(EXERCISES, ex[1], ex[2][:-3] + ".expect")
    if os.path.isfile(expect) and backend == "emu":
        with open(expect, encoding="utf-8") as fh:
            pattern = fh.read().strip()
        if not re.search(pattern, r.get("output", "") + "\n".join(w for _, w in r["lost"])):
            print("the stub does not print what %s expects: %s" % (expect, pattern))
            ok = False
    if r["score"] != 0:
        print("the generated stub of %s scores %s, not 0" % (ex[0], fmt(r["score"])))
    return 0 if ok else 1


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("student", help="write a student tree")
    s.add_argument("--out", default=os.path.join(ROOT, "student"))
    s.add_argument("--tar", help="also write this .tar.gz")
    for name in ("grade", "class", "check", "cheat"):
        g = sub.add_parser(name)
        g.add_argument("--ex", help="exercises: 04-2, or a chapter 04, or several: '01-1 04'")
        g.add_argument("--backend", choices=("auto", "emu", "cuda"), default="emu" if name == "class" else "auto",
                       help="where to build and run (class: emu unless told, since only the emulator counts "
                            "what the checks need; auto: the GPU where nvcc and a GPU are found)")
        g.add_argument("--timeout", type=int, default=int(os.environ.get("GRADE_TIMEOUT", "120")),
                       help="seconds each run of an exercise may take (default 120)")
        g.add_argument("--build-timeout", type=int, default=300)
        g.add_argument("--slcc", default=default_slcc())
        g.add_argument("--out", default=os.path.join(ROOT, os.environ.get("BUILD", "build"), "grade"))
        g.add_argument("--sandbox", choices=("auto", "bubblewrap", "none"),
                       default="none" if name in ("check", "cheat") else os.environ.get("GRADE_SANDBOX", "auto"),
                       help="bubblewrap, or none (trusted code only); auto: bubblewrap where it starts")
        g.add_argument("--unsafe-no-sandbox", action="store_true",
                       help="grade untrusted code without a sandbox where none can start")
        g.add_argument("--memory-mib", type=int, default=2048, help="memory per command, in the sandbox")
        g.add_argument("--max-procs", type=int, default=96 + 2 * (os.cpu_count() or 1),
                       help="processes and threads per command (the emulator runs a thread per core)")
        g.add_argument("-j", "--jobs", type=int, default=(os.cpu_count() or 1) if name in ("grade", "class") else 1,
                       help="exercises graded at once (default: the number of cores)")
        if name == "grade":
            g.add_argument("--dir", default=os.path.join(ROOT, "student"))
            g.add_argument("--require-full", action="store_true",
                           help="exit 1 unless every exercise graded gets full marks")
        elif name == "class":
            g.add_argument("--dir", required=True, help="a folder of student trees, one per student")
            g.add_argument("--csv", help="default: OUT/class.csv")
            g.add_argument("--student", help="only these students (comma-separated)")
            g.add_argument("--keep-work", action="store_true", help="keep each exercise's build folder")
            g.add_argument("--slurm", action="store_true",
                           help="grade on a Slurm cluster: a job array, one task per student, then one CSV "
                                "(scripts/grade_slurm.py); -j is each task's exercises at once and CPUs")
            g.add_argument("--slurm-partition", 
                           help="the tasks' partition (sbatch --partition)")
            g.add_argument("--slurm-gres", help="the tasks' generic resources, e.g. gpu:1 (sbatch --gres)")
            g.add_argument("--slurm-time", help="each task's time limit (sbatch --time, e.g. 1:00:00)")
            g.add_argument("--slurm-mem", help="each task's memory (sbatch --mem, e.g. 8G)")
            g.add_argument("--slurm-args", help="more sbatch options, e.g. '--account=cs101 --qos=short'")
            g.add_argument("--slurm-job-name", default="simtlab-grade")
            g.add_argument("--slurm-script-only", metavar="PATH",
                           help="write the job script to PATH for review and submit nothing")
            g.add_argument("--slurm-merge-only", action="store_true",
                           help="submit nothing: merge the rows the tasks of an earlier submission wrote")
        elif name == "check":
            g.add_argument("--variant", choices=("stub", "solution"), required=True)
        else:
            g.add_argument("--cheat", help="the cheat's name (tests/grading/cheats.py); --list: every one")
            g.add_argument("--list", action="store_true")
    args = p.parse_args(argv)
    if getattr(args, "slcc", None):
        args.slcc = os.path.abspath(args.slcc)   # builds run in folders of their own
    try:
        if args.cmd == "student":
            out = make_student(os.path.abspath(args.out), args.tar)
            print("student tree: %s%s" % (out, " and %s" % args.tar if args.tar else ""))
            return 0
        if args.cmd == "cheat":
            import grade_cheats
            return grade_cheats.cmd_cheat(args)
        return {"grade": cmd_grade, "class": cmd_class, "check": cmd_check}[args.cmd](args)
    except MarkerError as e:
        print("grade.py: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
