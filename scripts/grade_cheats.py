"""grade.py cheat: the course's cheats, graded (tests/grading/cheats.py holds them).

A cheat is a student tree made from the course (the stubs, or the solutions)
with a few edits: what a student might do to collect points without doing the
exercise. CTest grades each one (exercise.NN.exK_topic.cheat.NAME) and wants it
to score 0, for the reason the cheat names (a regular expression its lost
points must match). The generic cheat `printed` needs no edits: the stub, with
a main that prints what the solution's program printed, word for word.
"""
import os
import re
import shutil
import sys

import grade
import sandbox

CHEATS_FILE = os.path.join(grade.ROOT, "tests", "grading", "cheats.py")


def load():
    scope = {}
    with open(CHEATS_FILE, encoding="utf-8") as fh:
        exec(compile(fh.read(), CHEATS_FILE, "exec"), scope)
    return scope["CHEATS"], scope.get("NOT_APPLICABLE", {})


def every_cheat():
    cheats, _ = load()
    return [(ex, name) for ex in sorted(cheats) for name in cheats[ex]]


def apply_edits(tree, ex, edits):
    """Each edit: (file or None for the exercise's own file, old, new[, count]).
    Every `old` must be there: a cheat that no longer applies fails loudly."""
    ex_id, ch, fname = ex
    for edit in edits:
        where, old, new = edit[:3]
        count = edit[3] if len(edit) > 3 else -1
        path = os.path.join(tree, ch, fname) if where is None else os.path.join(tree, where)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if old not in text:
            raise SystemExit("cheat: %s: %r is not in %s (the exercise changed: update tests/grading/cheats.py)"
                             % (ex_id, old, path))
        text = text.replace(old, new, count)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def printed_main(ex, work, builder, timeout):
    """The stub's source with its main renamed, and a main that prints what
    the solution's own program prints (built and run here to find out)."""
    ex_id, ch, fname = ex
    tree = os.path.join(work, "solution-tree")
    shutil.rmtree(tree, ignore_errors=True)
    grade.make_student(tree, keep_solution=True)
    binary = os.path.join(work, "solution-build", "prog")
    err = builder.build(os.path.join(tree, ch, fname), binary)
    if err:
        raise SystemExit("cheat: the solution of %s does not build: %s" % (ex_id, err))
    r = builder.run_program(binary, timeout, os.path.join(work, "solution-run"))
    said = "".join(l + "\n" for l in r.out.splitlines() if not l.startswith(("simtlab-emu", "  ", "    ")))
    literal = said.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("\n", "\\n\"\n\"")
    return ("\n/* cheat: the solution's output, printed */\n#include <stdio.h>\n"
            "int main(void)\n{\n    printf(\"%s\");\n    return 0;\n}\n" % literal)


def make_cheat_tree(ex, name, spec, tree, work, builder, timeout):
    ex_id, ch, fname = ex
    shutil.rmtree(tree, ignore_errors=True)
    if spec == "printed":
        grade.make_student(tree, keep_solution=False)
        path = os.path.join(tree, ch, fname)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        text, n = re.subn(r"\bint\s+main\s*\(", "static int unused_main(", text)
        if n != 1:
            raise SystemExit("cheat: %s: no single main to replace" % ex_id)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text + printed_main(ex, work, builder, timeout))
        return
    grade.make_student(tree, keep_solution=spec.get("base") == "solution")
    apply_edits(tree, ex, spec.get("edits", []))


def cmd_cheat(args):
    cheats, not_applicable = load()
    if args.list:
        for ex_id, name in every_cheat():
            print("%s %s" % (ex_id, name))
        return 0
    ex = grade.exercise_list(grade.EXERCISES, args.ex)
    if len(ex) != 1 or not args.cheat:
        raise SystemExit("cheat: --ex names one exercise, --cheat one of its cheats")
    ex = ex[0]
    spec = cheats.get(ex[0], {}).get(args.cheat)
    if spec is None:
        raise SystemExit("cheat: %s has no cheat %s (tests/grading/cheats.py)" % (ex[0], args.cheat))
    out_dir = os.path.abspath(os.path.join(args.out, "cheat-%s-%s" % (ex[0], args.cheat)))
    os.makedirs(out_dir, exist_ok=True)
    backend = grade.pick_backend(args.backend)
    runner = grade.make_runner(args, untrusted=False) if args.sandbox != "none" else sandbox.Plain()
    builder = grade.Builder(backend, args.slcc, args.build_timeout, runner)
    tree = os.path.join(out_dir, "tree")
    make_cheat_tree(ex, args.cheat, spec, tree, out_dir, builder, args.timeout)
    r = grade.grade_exercise(ex, tree, os.path.join(out_dir, "work"), builder, args.timeout)
    what = "the stub, printing the solution's output" if spec == "printed" else spec.get("what", "")
    print("cheat %s of %s: %s" % (args.cheat, ex[0], what))
    grade.print_report([r], grade.backend_words(backend, runner))
    most = 0.0 if spec == "printed" else spec.get("max_score", 0.0)
    expect = r"visible test|hidden test" if spec == "printed" else spec.get("expect", "")
    lost = "\n".join(w for _, w in r["lost"])
    ok = r["score"] <= most
    if not ok:
        print("NOT CAUGHT: the cheat scores %s (at most %s allowed)" % (grade.fmt(r["score"]), grade.fmt(most)))
    if expect and not re.search(expect, lost):
        print("caught, but not for the reason expected: no match for %r in the lost points" % expect)
        ok = False
    if ok:
        print("caught: %s/%s" % (grade.fmt(r["score"]), grade.fmt(r["max"])))
    sys.stdout.flush()
    return 0 if ok else 1
