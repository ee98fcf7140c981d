#!/usr/bin/env python3
"""Every chapter's bench at --quick sizes, and every chart it declares.

Runs scripts/bench.sh on BUILD with SIMTLAB_BENCH_FLAGS=--quick, writing to
a fresh folder, then checks each CSV against its own "# chart:" lines:

- every series pattern of a chart matches a column of the CSV, unless the
  run skipped it (a device column on a machine without a GPU: the CSV's
  "# skipped:" line names it), or the emulator runs its stand-in
  (NAME_emu), or it is the other backend's column;
- a chart with rows is drawn as a non-empty PNG and a non-empty SVG;
- gnuplot printed nothing on stderr (bench.sh keeps what it printed as
  NAME.png.err / NAME.svg.err beside the chart);
- chapter 03's emulated slowdown chart has its three lines: k, the
  modelled GPU time's slowdown and the H200's measurement;
- bench.sh itself exited 0.

usage: bench_charts_test.py SOURCE_DIR BUILD_DIR"""
import fnmatch
import os
import subprocess
import sys
import tempfile


def header(lines, key):
    for line in lines:
        if line.startswith("# %s: " % key):
            return line[len("# %s: " % key):]
    return None


def check_csv(path, out):
    problems, drawn = [], 0
    base = os.path.basename(path)[:-4]
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    columns = sorted({l.split(",")[1] for l in lines if l[:1].isdigit() and l.count(",") >= 6})
    # what the run says it skipped, and why: "# skipped: v5 cublas (the reason)"
    skipped_names = set()
    for l in lines:
        if l.startswith("# skipped: "):
            skipped_names.update(l[len("# skipped: "):].split(" (")[0].split())
    charts = [l[len("# chart: "):].split(";") for l in lines if l.startswith("# chart: ")]
    if not charts:  # bench.sh draws the rate of every column against n
        charts = [["", "", "", "", "6", "1", "*"]]
    # chapter 03 without a GPU: its slowdown chart draws three lines, k, the modelled GPU time's
    # slowdown and the H200's one measurement (unless the run says it skipped the model)
    if base == "03_divergence_emu" and "slowdown_modelled_*" not in skipped_names:
        for want in ("expected_k", "slowdown_modelled_*", "slowdown_h200_1204"):
            if not any(fnmatch.fnmatchcase(c, want) for c in columns):
                problems.append("%s-slowdown: no %s line (columns: %s)" % (base, want, " ".join(columns)))
    for chart in charts:
        cid, series = chart[0], chart[-1].split()
        name = base + ("-" + cid if cid else "")
        present = []
        for pat in series:
            hits = [c for c in columns if fnmatch.fnmatchcase(c, pat)]
            # the emulator's stand-in for a vendor column is named NAME_emu
            stand_in = [c for c in columns if fnmatch.fnmatchcase(c, pat + "_emu")]
            skipped = pat in skipped_names or any(fnmatch.fnmatchcase(pat, s) for s in skipped_names)
            # a CSV names only the columns of its own backend: cublas_emu is in
            # the emulator's, cublas in the CUDA build's
            other_backend = pat.endswith("_emu") and "emu" not in os.path.basename(path)
            if not hits and not stand_in and not skipped and not other_backend:
                problems.append("%s: the chart plots %r, which no column of %s matches (columns: %s)"
                                % (name, pat, os.path.basename(path), " ".join(columns)))
            present += hits
        if not present:
            print("  %s: no rows in this run (device columns without a device), not drawn" % name)
            continue
        for term in ("png", "svg"):
            f = os.path.join(out, "%s.%s" % (name, term))
            if not os.path.isfile(f) or os.path.getsize(f) == 0:
                problems.append("%s.%s is missing or empty" % (name, term))
            err = f + ".err"
            if os.path.isfile(err) and os.path.getsize(err) > 0:
                with open(err, encoding="utf-8", errors="replace") as fh:
                    problems.append("gnuplot printed on stderr for %s.%s: %s" % (name, term, fh.read(300).strip()))
        drawn += 1
    return problems, drawn


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    src, build = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    with tempfile.TemporaryDirectory(prefix="simtlab-bench-charts.") as out:
        env = dict(os.environ, SIMTLAB_BENCH_FLAGS="--quick", SIMTLAB_BENCH_OUT=out)
        r = subprocess.run(["bash", os.path.join(src, "scripts", "bench.sh"), build], env=env,
                           capture_output=True, text=True, timeout=1200)
        problems = [] if r.returncode == 0 else ["bench.sh exited %d:\n%s" % (r.returncode, r.stdout[-3000:] + r.stderr[-2000:])]
        csvs = sorted(f for f in os.listdir(out) if f.endswith(".csv"))
        if not csvs:
            problems.append("bench.sh wrote no CSV")
        total = 0
        for name in csvs:
            p, drawn = check_csv(os.path.join(out, name), out)
            problems += p
            total += drawn
            print("%s: %d chart(s) drawn" % (name, drawn))
        for p in problems:
            print("FAIL: " + p)
        print("%d CSV files, %d charts checked, %d problems" % (len(csvs), total, len(problems)))
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
