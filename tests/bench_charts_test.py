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
- in the emulator's CSVs of chapters 01, 04, 05 (transpose, SGEMM) and 06,
  every kernel version (v1, v2, ...) has its modelled GPU time
  (modelled_<gpu>_vN, in the chart's unit) unless the CSV says it is "not
  modelled", and a chart plots each of them: its SVG names the column and
  says "modelled <GPU> (not measured)" in the legend, and its title says
  "MODELLED on the <GPU>";
- chapter 04's emulated run also has every version modelled at the GPU's
  size, n = 2^24 (SIMTLAB_BENCH_FULL_MODEL=04: bench.sh's sampled points at
  the size the H200 tables measured), each a positive GB/s;
- bench.sh itself exited 0.

usage: bench_charts_test.py SOURCE_DIR BUILD_DIR"""
import fnmatch
import html
import os
import re
import subprocess
import sys
import tempfile


def header(lines, key):
    for line in lines:
        if line.startswith("# %s: " % key):
            return line[len("# %s: " % key):]
    return None


# The emulator's CSVs whose versions' modelled GPU times a chart must draw.
MODELLED_CHARTS = ("01_vector_add_emu", "04_reduce_emu", "05_transpose_emu", "05_sgemm_emu",
                   "06_tensor_gemm_emu")


# The chapter whose run adds the modelled points at the GPU's size (bench.sh,
# SIMTLAB_BENCH_FULL_MODEL), and that size.
FULL_MODEL_CSV, FULL_MODEL_N = "04_reduce_emu", "16777216"


def check_modelled(base, lines, rows, charts, out):
    """The modelled series of every version in base's charts (MODELLED_CHARTS)."""
    problems = []
    unit = {"gbs": "GB/s", "gflops": "GFLOP/s"}.get(next((l.split(",")[5] for l in lines if l.startswith("n,column,")), ""))
    versions = sorted({r[1] for r in rows if re.fullmatch(r"v[0-9]+", r[1])}, key=lambda c: int(c[1:]))
    if not versions:
        return ["%s: no kernel version ran, so no modelled series can be checked" % base]
    modelled = {r[1] for r in rows if r[1].startswith("modelled_")}
    not_modelled = {l.split()[3] for l in lines if l.startswith("# not modelled: ")}
    for r in rows:
        if r[1].startswith("modelled_") and r[6] != unit:
            problems.append("%s: %s at n=%s is in %r, the chart's unit is %r" % (base, r[1], r[0], r[6], unit))
    gpus = sorted({c.split("_")[1] for c in modelled})
    if len(gpus) > 1:
        problems.append("%s: modelled columns of several GPUs: %s" % (base, " ".join(gpus)))
    gpu = gpus[0] if gpus else (os.environ.get("SIMTLAB_MODEL_GPU") or "h200")
    for v in versions:
        col = "modelled_%s_%s" % (gpu, v)
        if col not in modelled:
            if v not in not_modelled:
                problems.append("%s: %s ran, but the CSV has no %s and no '# not modelled: %s' line"
                                % (base, v, col, v))
            continue
        plotting = [c for c in charts if any(fnmatch.fnmatchcase(col, pat) for pat in c[-1].split())]
        if not plotting:
            problems.append("%s: no chart plots %s (the modelled %s series of %s)" % (base, col, gpu.upper(), v))
            continue
        for c in plotting:
            name = base + ("-" + c[0] if c[0] else "")
            svg = os.path.join(out, name + ".svg")
            if not os.path.isfile(svg):
                continue  # said above: missing or empty
            with open(svg, encoding="utf-8", errors="replace") as fh:
                text = html.unescape(fh.read())
            want = "%s: " % col, "modelled %s (not measured)" % gpu.upper(), "MODELLED on the %s" % gpu.upper()
            for w in want:
                if w not in text:
                    problems.append("%s.svg plots %s but does not say %r" % (name, col, w))
    print("  %s: modelled %s series of %s checked (%s not modelled)"
          % (base, gpu.upper(), " ".join(versions), " ".join(sorted(not_modelled & set(versions))) or "none"))
    return problems


def check_csv(path, out):
    problems, drawn = [], 0
    base = os.path.basename(path)[:-4]
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    rows = [l.split(",") for l in lines if l[:1].isdigit() and l.count(",") >= 6]
    columns = sorted({r[1] for r in rows})
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
            # the emulator's, cublas in the CUDA build's; modelled_* (the
            # timing model's GPU times) only the emulator's
            emu_only = pat.endswith("_emu") or pat.startswith("modelled_")
            other_backend = emu_only and "emu" not in os.path.basename(path)
            # an emulator build without the timing model says "# not modelled:" instead
            if pat.startswith("modelled_") and any(l.startswith("# not modelled: ") for l in lines):
                skipped = True
            if not hits and not stand_in and not skipped and not other_backend:
                problems.append("%s: the chart plots %r, which no column of %s matches (columns: %s)"
                                % (name, pat, os.path.basename(path), " ".join(columns)))
            present += hits
        if not present:
            why = ("the timing model's columns: the emulator build's" if all(p.startswith("modelled_") for p in series)
                   else "device columns without a device")
            print("  %s: no rows in this run (%s), not drawn" % (name, why))
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
    if base in MODELLED_CHARTS:
        problems += check_modelled(base, lines, rows, charts, out)
    if base == FULL_MODEL_CSV and any(r[1].startswith("modelled_") for r in rows):
        versions = sorted({r[1] for r in rows if re.fullmatch(r"v[0-9]+", r[1])}, key=lambda c: int(c[1:]))
        full = {r[1].split("_")[-1]: r for r in rows if r[0] == FULL_MODEL_N and r[1].startswith("modelled_")}
        for v in versions:
            r = full.get(v)
            try:
                ok = r is not None and float(r[5]) > 0 and r[6] == "GB/s"
            except ValueError:
                ok = False
            if not ok:
                problems.append("%s: no modelled %s row at the GPU's size n=%s (SIMTLAB_BENCH_FULL_MODEL=04): %s"
                                % (base, v, FULL_MODEL_N, ",".join(r) if r else "absent"))
        print("  %s: %d versions modelled at the GPU's size n=%s" % (base, len(full), FULL_MODEL_N))
    return problems, drawn


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    src, build = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    with tempfile.TemporaryDirectory(prefix="simtlab-bench-charts.") as out:
        env = dict(os.environ, SIMTLAB_BENCH_FLAGS="--quick", SIMTLAB_BENCH_OUT=out, SIMTLAB_BENCH_FULL_MODEL="04")
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
