#!/usr/bin/env python3
"""The formats course platforms read, checked against schemas written from
their documentation (tests/grading/schemas/, each citing its source):

  - Gradescope's results.json, as `make grade` and every student of
    `make grade-class` get it;
  - the Gradescope autograder bundle of `make gradescope`: its layout, and its
    run_autograder run here as Gradescope would run it, on a submission;
  - the GitHub Classroom workflow of `make classroom`, and one of its commands.

    python3 tests/grading/test_formats.py path/to/slcc
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, HERE)
import grade            # noqa: E402
import grade_platforms  # noqa: E402
import sandbox          # noqa: E402
from jsonschema_lite import validate  # noqa: E402

SLCC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "slcc")


def schema(name):
    with open(os.path.join(HERE, "schemas", name), encoding="utf-8") as fh:
        return json.load(fh)


def parse_yaml(text):
    """The block YAML grade_platforms.to_yaml writes (mappings, sequences,
    JSON scalars), read back strictly: anything else is an error."""
    lines = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]

    def scalar(s):
        return json.loads(s)

    def block(i, indent):
        if lines[i].startswith(" " * indent + "- "):
            out = []
            while i < len(lines) and lines[i].startswith(" " * indent + "- "):
                rest = lines[i][indent + 2:]
                if ":" in rest and not rest.startswith('"'):
                    lines[i] = " " * (indent + 2) + rest
                    item, i = block(i, indent + 2)
                else:
                    item, i = scalar(rest), i + 1
                out.append(item)
            return out, i
        out = {}
        while i < len(lines):
            line = lines[i]
            here = len(line) - len(line.lstrip(" "))
            if here < indent:
                break
            if here != indent:
                raise ValueError("bad indentation: %r" % line)
            body = line[indent:]
            if body.startswith('"'):
                end = body.index('":') + 1
                key, rest = json.loads(body[:end]), body[end + 1:]
            else:
                key, _, rest = body.partition(":")
            rest = rest.strip()
            if rest:
                out[key], i = scalar(rest), i + 1
            else:
                out[key], i = block(i + 1, indent + 2)
        return out, i

    value, end = block(0, 0)
    if end != len(lines):
        raise ValueError("unread: %r" % lines[end])
    return value


class Validator(unittest.TestCase):
    """The validator rejects what its schemas forbid (else the other tests
    would prove nothing)."""

    def test_rejects(self):
        s = schema("gradescope_results.schema.json")
        good = {"score": 3, "tests": [{"name": "a", "score": 1, "max_score": 2, "visibility": "after_published"}]}
        self.assertEqual(validate(good, s), [])
        for bad in ({"tests": [{"name": "a", "score": 1}]},                       # no max_score
                    {"score": 1, "tests": [{"name": "a", "score": 1, "max_score": 1, "visibility": "later"}]},
                    {"score": "1"},                                                # a string
                    {"score": 1, "scores": []},                                    # not in the spec
                    {"output": "x"}):                                              # neither score nor tests
            self.assertNotEqual(validate(bad, s), [], bad)


class Gradescope(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="simtlab-formats-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_results_json(self):
        tree = os.path.join(self.tmp, "tree")
        grade.make_student(tree, keep_solution=True)
        stub = os.path.join(self.tmp, "stub")
        grade.make_student(stub)
        shutil.copy(os.path.join(stub, "01", "ex1_bounds.cu"), os.path.join(tree, "01", "ex1_bounds.cu"))
        builder = grade.Builder("emu", SLCC, 300, sandbox.Plain())
        results = [grade.grade_exercise(ex, tree, os.path.join(self.tmp, "work"), builder, 120)
                   for ex in grade.exercise_list(only="01-1 01-4")]
        doc = grade.gradescope_results(results)
        self.assertEqual(validate(doc, schema("gradescope_results.schema.json")), [])
        self.assertAlmostEqual(doc["score"], sum(r["score"] for r in results))
        self.assertAlmostEqual(sum(t["max_score"] for t in doc["tests"]), 20.0)
        hidden = [t for t in doc["tests"] if "hidden checks" in t["name"]]
        self.assertEqual({t["visibility"] for t in hidden}, {"after_published"})
        self.assertEqual(len(hidden), 2)
        # 01-4 is pencil and paper: all ten points are hidden until published
        pencil = [t for t in doc["tests"] if t["name"].startswith("01-4")]
        self.assertEqual([(t["max_score"], t["visibility"]) for t in pencil], [(10.0, "after_published")])
        self.assertEqual(doc["score"], 10.0)   # the stub 0, the solution 10

    def test_bundle(self):
        out = os.path.join(self.tmp, "autograder.zip")
        grade_platforms.write_bundle(out, grade.exercise_list(only="01-4"))
        with zipfile.ZipFile(out) as z:
            names = z.namelist()
            for f in ("setup.sh", "run_autograder"):
                info = z.getinfo(f)
                self.assertTrue((info.external_attr >> 16) & 0o100, "%s is not executable" % f)
                self.assertTrue(z.read(f).startswith(b"#!/usr/bin/env bash\n"), f)
            self.assertIn("scripts/grade.py", names)
            self.assertIn("tutorial/exercises/01/hidden/ex4_grid_by_hand.cu", names)
            self.assertFalse([n for n in names if n.startswith(("build/", "student/", ".git/"))])
            self.assertIn('EXERCISES="01-4"', z.read("run_autograder").decode())
            # Gradescope's layout: the zip in /autograder/source, the submission
            # in /autograder/submission, results in /autograder/results
            ag = os.path.join(self.tmp, "autograder")
            z.extractall(os.path.join(ag, "source"))
        for f in ("setup.sh", "run_autograder"):
            os.chmod(os.path.join(ag, "source", f), 0o755)
        sub = os.path.join(ag, "submission", "uploaded")
        os.makedirs(sub)
        solved = os.path.join(self.tmp, "solved")
        grade.make_student(solved, keep_solution=True)
        shutil.copy(os.path.join(solved, "01", "ex4_grid_by_hand.cu"), sub)   # a file alone, not a tree
        env = dict(os.environ, AUTOGRADER_ROOT=ag, SLCC=SLCC, GRADE_SANDBOX="none")
        p = subprocess.run(["bash", os.path.join(ag, "source", "run_autograder")], env=env, capture_output=True,
                           text=True, timeout=600)
        with open(os.path.join(ag, "results", "results.json"), encoding="utf-8") as fh:
            doc = json.load(fh)
        self.assertEqual(validate(doc, schema("gradescope_results.schema.json")), [], p.stdout + p.stderr)
        self.assertEqual(doc["score"], 10.0, p.stdout + p.stderr)


class Classroom(unittest.TestCase):
    def test_workflow(self):
        tmp = tempfile.mkdtemp(prefix="simtlab-classroom-")
        self.addCleanup(shutil.rmtree, tmp, True)
        out = os.path.join(tmp, "classroom.yml")
        exercises = grade.exercise_list()
        grade_platforms.write_classroom(out, exercises, "teacher/simtlab-course", "main")
        with open(out, encoding="utf-8") as fh:
            text = fh.read()
        wf = parse_yaml(text)
        self.assertEqual(wf, grade_platforms.classroom_workflow(exercises, "teacher/simtlab-course", "main"))
        self.assertEqual(validate(wf, schema("classroom_workflow.schema.json")), [])
        steps = wf["jobs"]["run-autograding-tests"]["steps"]
        graders = [s for s in steps if s.get("uses", "").startswith("classroom-resources/autograding-command")]
        self.assertEqual([g["with"]["test-name"].split()[0] for g in graders], [e[0] for e in exercises])
        self.assertEqual({g["with"]["max-score"] for g in graders}, {10})
        reporter = steps[-1]
        self.assertEqual(reporter["with"]["runners"].split(","), [g["id"] for g in graders])
        self.assertEqual(sorted(reporter["env"]), sorted("%s_RESULTS" % g["id"].upper() for g in graders))
        try:   # where PyYAML is installed, it reads the file the same way
            import yaml
            self.assertEqual(yaml.safe_load(text), wf)
        except ImportError:
            pass
        # one step's command, run as the workflow runs it (the student's tree in
        # the current folder, the course in course/): 0 at full marks, else 1
        course = os.path.join(tmp, "course")
        os.makedirs(os.path.join(course, "build", "bin"))
        for d in ("scripts", "tutorial", "kernels", "emu"):
            os.symlink(os.path.join(ROOT, d), os.path.join(course, d))
        os.symlink(os.path.abspath(SLCC), os.path.join(course, "build", "bin", "slcc"))
        command = [g for g in graders if g["with"]["test-name"].startswith("01-4 ")][0]["with"]["command"]
        for keep_solution, want in ((True, 0), (False, 1)):
            student = os.path.join(tmp, "student-%d" % keep_solution)
            grade.make_student(student, keep_solution=keep_solution)
            os.symlink(course, os.path.join(student, "course"))
            p = subprocess.run(command, shell=True, cwd=student, capture_output=True, text=True, timeout=600,
                               env=dict(os.environ, GRADE_SANDBOX="none"))
            self.assertEqual(p.returncode, want, p.stdout + p.stderr)


if __name__ == "__main__":
    if not os.access(SLCC, os.X_OK):
        print("SKIP: %s is not built" % SLCC)
        sys.exit(0)
    unittest.main(argv=[sys.argv[0], "-v"])
