"""simtlab: a class graded on a Slurm cluster (`make grade-class ... SLURM=1`,
`grade.py class --slurm`). Python 3, standard library only.

One job array, one task per student. Each task runs the grading that
`grade.py class` does on one machine, for its student only (`--student NAME`,
in the same sandbox, with the same limits), and writes the student's reports to
OUT/students/NAME/ and the student's row to OUT/slurm/parts/NAME.csv. The
submitting command waits for the array (`sbatch --wait`) and merges the rows
into the class CSV: the same columns and the same order (students by name) as a
grading on one machine. A task that failed (no row) gets a row with no scores
and the reason, and the command exits 1.

The course (this folder, slcc's build), the class folder and OUT must be on a
filesystem every node sees (the cluster's shared home or project space).
`--slurm-script-only PATH` writes the job script for review and submits
nothing."""
import csv
import os
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def task_command(args, class_dir, out_dir, parts):
    """grade.py class for one student ($STUDENT in the job script), with the
    options of the submitting command."""
    cmd = [sys.executable if os.path.isabs(sys.executable) else "python3", os.path.join(HERE, "grade.py"),
           "class", "--dir", class_dir, "--out", out_dir, "--backend", args.backend,
           "--timeout", str(args.timeout), "--build-timeout", str(args.build_timeout),
           "--slcc", args.slcc, "--sandbox", args.sandbox, "--memory-mib", str(args.memory_mib),
           "--max-procs", str(args.max_procs), "-j", str(max(1, args.jobs))]
    if args.ex:
        cmd += ["--ex", args.ex]
    if args.unsafe_no_sandbox:
        cmd.append("--unsafe-no-sandbox")
    if args.keep_work:
        cmd.append("--keep-work")
    return " ".join(shlex.quote(c) for c in cmd) + \
        ' --student "$STUDENT" --csv %s/"$STUDENT".csv' % shlex.quote(parts)


def job_script(args, students, class_dir, out_dir):
    sdir = os.path.join(out_dir, "slurm")
    lines = ["#!/bin/bash",
             "# simtlab: grade.py class --slurm; one array task per student (scripts/grade_slurm.py)",
             "#SBATCH --job-name=%s" % args.slurm_job_name,
             "#SBATCH --array=0-%d" % (len(students) - 1),
             "#SBATCH --cpus-per-task=%d" % max(1, args.jobs),
             "#SBATCH --output=%s/logs/%%x-%%A_%%a.out" % sdir]
    if args.slurm_partition:
        lines.append("#SBATCH --partition=%s" % args.slurm_partition)
    if args.slurm_gres:
        lines.append("#SBATCH --gres=%s" % args.slurm_gres)
    if args.slurm_time:
        lines.append("#SBATCH --time=%s" % args.slurm_time)
    if args.slurm_mem:
        lines.append("#SBATCH --mem=%s" % args.slurm_mem)
    for extra in shlex.split(args.slurm_args or ""):
        lines.append("#SBATCH %s" % extra)
    lines += ["set -euo pipefail",
              "STUDENTS=(%s)" % " ".join(shlex.quote(s) for s in students),
              'STUDENT="${STUDENTS[$SLURM_ARRAY_TASK_ID]}"',
              'echo "simtlab: grading $STUDENT on $(hostname) (task $SLURM_ARRAY_TASK_ID of job ${SLURM_ARRAY_JOB_ID:-?})"',
              "# descriptors slurmstepd leaves open push the sandbox's status pipe past fd 9, which",
              "# its /bin/sh (dash) cannot name: close them",
              'for fd in $(ls /proc/$$/fd); do if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi; done',
              "cd %s" % shlex.quote(os.path.dirname(HERE)),
              "exec " + task_command(args, class_dir, out_dir, os.path.join(sdir, "parts")), ""]
    return "\n".join(lines)


def read_part(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1]


def merge(students, exercises, parts, csv_path, logs):
    """The class CSV from the per-student rows, in the order of `students`."""
    import grade
    header = ["student"] + [e[0] for e in exercises] + ["total", "max", "lost points"]
    missing = []
    with open(csv_path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for s in students:
            p = os.path.join(parts, s + ".csv")
            try:
                head, row = read_part(p)
                if head != header or row[0] != s:
                    raise ValueError("%s: not the columns of this grading" % p)
            except (OSError, IndexError, ValueError) as e:
                missing.append(s)
                why = "the Slurm task did not grade this student (%s); its log: %s/" % (
                    e.__class__.__name__ if not isinstance(e, ValueError) else e, logs)
                row = [s] + [""] * len(exercises) + ["", grade.fmt(0), why]
            w.writerow(row)
    return missing


def submit(args, students, exercises, class_dir, out_dir, csv_path):
    script = job_script(args, students, class_dir, out_dir)
    if args.slurm_script_only:
        with open(args.slurm_script_only, "w", encoding="utf-8") as fh:
            fh.write(script)
        os.chmod(args.slurm_script_only, 0o755)
        print("slurm: job script for %d student%s written to %s (nothing submitted; submit it with sbatch, "
              "then merge with the same command and --slurm-merge-only)" % (
                  len(students), "" if len(students) == 1 else "s", args.slurm_script_only))
        return None
    sdir = os.path.join(out_dir, "slurm")
    parts = os.path.join(sdir, "parts")
    logs = os.path.join(sdir, "logs")
    if not args.slurm_merge_only:
        if not shutil.which("sbatch"):
            raise SystemExit("grade-class: SLURM=1, but sbatch is not on PATH (Slurm's client: Debian's "
                             "slurm-client), so nothing was submitted")
        shutil.rmtree(parts, ignore_errors=True)
        os.makedirs(parts)
        os.makedirs(logs, exist_ok=True)
        path = os.path.join(sdir, "grade-class.sbatch")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(script)
        print("slurm: submitting %s: %d task%s (one per student), each %d exercise%s at a time; waiting for them"
              % (path, len(students), "" if len(students) == 1 else "s", max(1, args.jobs),
                 "" if args.jobs == 1 else "s"), flush=True)
        t0 = time.time()
        r = subprocess.run(["sbatch", "--wait", "--parsable", path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        out = r.stdout.strip()
        print("slurm: job %s ended (sbatch exit %d) after %.0f s%s" % (
            out.splitlines()[0] if out else "?", r.returncode, time.time() - t0,
            "" if r.returncode == 0 else ": " + " ".join(out.split())[:400]), flush=True)
    missing = merge(students, exercises, parts, csv_path, logs)
    for s in missing:
        print("slurm: %s was not graded; see %s/" % (s, logs), file=sys.stderr)
    return missing
