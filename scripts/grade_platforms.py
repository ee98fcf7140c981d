#!/usr/bin/env python3
"""The course on the platforms that collect and grade submissions (Python 3,
standard library only): a Gradescope autograder bundle and a GitHub Classroom
autograding workflow, both running scripts/grade.py.

  grade_platforms.py gradescope --out FILE.zip [--ex "01 04-2"]
      the autograder zip Gradescope asks for: setup.sh and run_autograder at its
      root, the course beside them (its hidden tests included: Gradescope never
      shows the autograder's files to students). run_autograder grades the
      submission (a student tree, or its exercise files alone, in any folders)
      and writes /autograder/results/results.json: per exercise a visible test
      and hidden checks that stay hidden until the grades are published.
      Spec: https://gradescope-autograders.readthedocs.io/en/latest/specs/
  grade_platforms.py classroom --out FILE.yml [--ex ...] [--course OWNER/REPO] [--ref REF]
      .github/workflows/classroom.yml for the student repositories of a GitHub
      Classroom assignment: one classroom-resources/autograding-command-grader
      step per exercise (10 points, all or nothing: the command exits 0 only at
      full marks), then autograding-grading-reporter. It checks the course out
      beside the student's tree (a private course repository needs a token, the
      secret SIMTLAB_COURSE_TOKEN) and builds the emulator's slcc.
      Inputs: https://github.com/classroom-resources/autograding-command-grader
  grade_platforms.py gather SUBMISSION TREE
      copies each exercise file found anywhere in SUBMISSION to TREE/NN/ (what
      run_autograder does with a Gradescope upload)
"""
import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402

ROOT = grade.ROOT

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/): the
# packages the course needs, then the emulator's compiler, slcc.
set -euo pipefail
cd /autograder/source
apt-get update -qq
bash scripts/deps.sh
cmake -S . -B build -DSIMTLAB_ENABLE_CUDA=OFF
cmake --build build -j"$(nproc)" --target slcc
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for each submission, in /autograder: the submission is
# in /autograder/submission, the result goes to /autograder/results/results.json
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/). Every
# submission gets a fresh container; where bubblewrap can start inside it, the
# student's code also runs in scripts/sandbox.py's sandbox.
set -u
AG=${AUTOGRADER_ROOT:-/autograder}
SRC=${AUTOGRADER_SOURCE:-$AG/source}
SLCC=${SLCC:-$SRC/build/bin/slcc}
EXERCISES="@EXERCISES@"
cd "$SRC"
rm -rf "$AG/work" && mkdir -p "$AG/work/tree" "$AG/results"
python3 scripts/grade_platforms.py gather "$AG/submission" "$AG/work/tree"
python3 scripts/grade.py grade --dir "$AG/work/tree" --backend emu --slcc "$SLCC" \
    --out "$AG/work/grade" ${EXERCISES:+--ex "$EXERCISES"}
if [ -f "$AG/work/grade/results.json" ]; then
  cp "$AG/work/grade/results.json" "$AG/results/results.json"
else
  printf '{"score": 0, "output": "the grader did not run: see the autograder output", "tests": []}\n' \
    > "$AG/results/results.json"
fi
"""


def course_files():
    """The course's files, as git sees them (tracked, and new ones not
    ignored) where it can, else every file but builds and student trees."""
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout.decode()
        files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for dirpath, dirnames, names in os.walk(ROOT):
            rel = os.path.relpath(dirpath, ROOT)
            dirnames[:] = [d for d in dirnames if not (rel == "." and (d.startswith(("build", "student", ".")) ))]
            files += [os.path.normpath(os.path.join(rel, n)) for n in names]
    skip = re.compile(r"^(build[^/]*|student[^/]*|\.git)/")
    return sorted(f for f in files if not skip.match(f))


def write_bundle(out, exercises):
    """The zip: setup.sh and run_autograder (executable) at the root, with the course."""
    only = " ".join(e[0] for e in exercises)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in (("setup.sh", SETUP_SH), ("run_autograder", RUN_AUTOGRADER.replace("@EXERCISES@", only))):
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | 0o755) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
        for f in course_files():
            if f in ("setup.sh", "run_autograder"):
                continue
            z.write(os.path.join(ROOT, f), f)
    return out


def gather(submission, tree):
    """Each file of the submission named like an exercise (ex1_bounds.cu), in
    any folder, goes to tree/NN/; the last found wins. Returns the ids."""
    by_name = {f: (ex_id, ch) for ex_id, ch, f in grade.exercise_list()}
    found = {}
    for dirpath, dirnames, names in os.walk(submission):
        dirnames.sort()
        for n in sorted(names):
            if n in by_name:
                ex_id, ch = by_name[n]
                os.makedirs(os.path.join(tree, ch), exist_ok=True)
                shutil.copy(os.path.join(dirpath, n), os.path.join(tree, ch, n))
                found[ex_id] = os.path.join(dirpath, n)
    return sorted(found)


# ---------------------------------------------------------------- GitHub Classroom
def classroom_workflow(exercises, course, ref, timeout_min=10):
    """The workflow as data (a dict), in the form GitHub Classroom writes it."""
    steps = [
        {"name": "Checkout the student's tree", "uses": "actions/checkout@v4"},
        {"name": "Checkout the course (its grader and hidden tests)", "uses": "actions/checkout@v4",
         "with": {"repository": course, "ref": ref, "path": "course",
                  "token": "${{ secrets.SIMTLAB_COURSE_TOKEN || github.token }}"}},
        {"name": "Build the emulator's compiler (slcc)",
         "run": "bash course/scripts/deps.sh && cmake -S course -B course/build -DSIMTLAB_ENABLE_CUDA=OFF && "
                "cmake --build course/build -j4 --target slcc"},
    ]
    ids = []
    for ex_id, ch, f in exercises:
        sid = "ex-" + ex_id
        ids.append(sid)
        name = "%s %s/%s" % (ex_id, ch, f[:-3])
        steps.append({"name": name, "id": sid, "uses": "classroom-resources/autograding-command-grader@v1",
                      "with": {"test-name": name, "setup-command": "",
                               "command": "python3 course/scripts/grade.py grade --dir . --ex %s --backend emu "
                                          "--slcc course/build/bin/slcc --out grade-out --require-full" % ex_id,
                               "timeout": timeout_min, "max-score": int(grade.TOTAL_POINTS)}})
    steps.append({"name": "Autograding Reporter", "uses": "classroom-resources/autograding-grading-reporter@v1",
                  "env": {"%s_RESULTS" % i.upper(): "${{steps.%s.outputs.result}}" % i for i in ids},
                  "with": {"runners": ",".join(ids)}})
    return {"name": "simtlab autograding", "on": ["push", "workflow_dispatch", "repository_dispatch"],
            "permissions": {"checks": "write", "actions": "read", "contents": "read"},
            "jobs": {"run-autograding-tests": {"runs-on": "ubuntu-latest",
                                               "if": "github.actor != 'github-classroom[bot]'",
                                               "steps": steps}}}


def to_yaml(value, indent=0):
    """Block-style YAML of dicts, lists and scalars; every string double-quoted
    (a JSON string is a valid YAML double-quoted scalar), keys too where YAML
    would read them otherwise ("on" is a boolean to YAML 1.1)."""
    pad = "  " * indent
    lines = []
    if isinstance(value, dict):
        for k, v in value.items():
            key = json.dumps(k) if k in ("on", "yes", "no", "true", "false") or not re.fullmatch(r"[\w-]+", k) else k
            if isinstance(v, (dict, list)) and v:
                lines.append("%s%s:" % (pad, key))
                lines.append(to_yaml(v, indent + 1))
            else:
                lines.append("%s%s: %s" % (pad, key, json.dumps(v)))
    else:
        for item in value:
            if isinstance(item, dict):
                sub = to_yaml(item, indent + 1).split("\n")
                lines.append("%s- %s" % (pad, sub[0].lstrip()))
                lines += sub[1:]
            else:
                lines.append("%s- %s" % (pad, json.dumps(item)))
    return "\n".join(lines)


def write_classroom(out, exercises, course, ref):
    text = ("# GitHub Classroom autograding for the simtlab exercises, written by scripts/grade_platforms.py\n"
            "# (make classroom). One step per exercise, 10 points when `make grade` gives it full marks.\n"
            + to_yaml(classroom_workflow(exercises, course, ref)) + "\n")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gradescope")
    g.add_argument("--out", required=True)
    g.add_argument("--ex", default="")
    c = sub.add_parser("classroom")
    c.add_argument("--out", required=True)
    c.add_argument("--ex", default="")
    c.add_argument("--course", default="OWNER/simtlab", help="the course's repository (owner/name)")
    c.add_argument("--ref", default="main")
    s = sub.add_parser("gather")
    s.add_argument("submission")
    s.add_argument("tree")
    args = p.parse_args(argv)
    if args.cmd == "gather":
        found = gather(args.submission, args.tree)
        print("submission: %s" % (" ".join(found) if found else "no exercise file found"))
        return 0
    exercises = grade.exercise_list(grade.EXERCISES, args.ex or None)
    if args.cmd == "gradescope":
        print("Gradescope autograder: %s (%d exercises)" % (write_bundle(args.out, exercises), len(exercises)))
    else:
        print("GitHub Classroom workflow: %s (%d exercises; course %s@%s)" % (
            write_classroom(args.out, exercises, args.course, args.ref), len(exercises), args.course, args.ref))
    return 0


if __name__ == "__main__":
    sys.exit(main())
