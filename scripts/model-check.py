#!/usr/bin/env python3
"""The timing model checked against the H200 measurements (make model-check).

Every row of bench/data/h200_2026-12-04.csv whose status is "modelled" is one
measured H200 time of a kernel the emulator runs, at one size. This runs each
such kernel on the CPU emulator at that size (model_check_emu, built from
bench/model_check.c: the chapter's own *_device call under sl_modelled_run,
with the emulator's block sampling, SIMTLAB_EMU_SAMPLE_BLOCKS) and prints, per
row, the modelled time on the model's GPU, the measured time and their ratio;
per chapter table, at its largest measured size with at least 4 versions, the
Spearman rank correlation of modelled against measured; chapter 03's k-way
slowdown, modelled against measured; and, last, exactly:

    model-check: R of T rows within 1.5x; min Spearman S; ch03 k-way within 25%: yes|no

T counts every "modelled" row, those the model could not price included (a
miss). The ch03 verdict is yes when the modelled slowdown v1/v2 at 2^20 items
is within 25% of the measured one at every k, and at 2^12 items below k at
every k, as measured. Nothing is tuned here: the figures are the model's, the
targets are the issue's (80% of rows within 1.5x, every Spearman >= 0.85).

Where a version was split into steps after 12-04, bench/data/version_map.csv
(chapter,old_name,new_name) maps the measured name onto today's version.

    scripts/model-check.py --driver build/bin/model_check_emu       # the full check
    scripts/model-check.py --driver ... --subset                    # the CTest subset
    scripts/model-check.py --driver ... --rows '05,sgemm'           # rows matching a pattern

Exit status: 0 when every row ran (and, with --strict, the targets were
met); 1 when a row failed to run, the subset's checks failed, or --strict's
targets were missed; 2 on a usage error.
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data", "h200_2026-12-04.csv")
VERSION_MAP = os.path.join(ROOT, "bench", "data", "version_map.csv")
WITHIN = 1.5           # a row is within when 1/1.5 <= modelled/measured <= 1.5
KWAY_WITHIN = 0.25     # chapter 03's slowdown within 25% of the measured
TARGET_ROWS = 0.80     # the targets, printed beside the figures
TARGET_SPEARMAN = 0.85
# Versions whose work depends on their data (chapter 03's escape-time orders;
# v5 sorts by the trip counts of a first v3 run): block sampling is unsound
# for them (emu/docs/model.md), so they run whole, in a process of their own.
UNSAMPLED = {("03", "pairs", 3), ("03", "pairs", 4), ("03", "pairs", 5)}
# The subset CTest runs: a few rows, seconds each.
SUBSET = [("01", "vector_add", "v3", 16777216), ("04", "reduce", "v8", 268435456),
          ("05", "transpose", "v1", 4096), ("03", "kway", "v1_k4", 1048576),
          ("03", "kway", "v2_k4", 1048576)]


def read_data(path):
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines))


def read_version_map(path):
    """{(chapter, old_name): new_name}; empty when the file does not exist."""
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    out = {}
    for r in csv.DictReader(lines):
        if r["old_name"].strip():  # an empty old name: a step that did not exist on 12-04
            out[(r["chapter"].strip().zfill(2), r["old_name"].strip())] = r["new_name"].strip()
    return out


def version_number(name):
    m = re.match(r"v(\d+)", name)
    return int(m.group(1)) if m else None


def spearman(xs, ys):
    """Spearman's rho, with tied values given their average rank."""
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for t in range(i, j + 1):
                r[order[t]] = (i + j) / 2.0 + 1.0
            i = j + 1
        return r
    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def within(ratio, factor=WITHIN):
    return ratio is not None and ratio > 0 and 1.0 / factor <= ratio <= factor


def start_driver(driver, lines, env_extra):
    """Starts one model_check process on the rows (None when there are none)."""
    env = dict(os.environ)
    for key, value in env_extra.items():
        if value is None:
            env.pop(key, None)  # not set: the launches run whole
        else:
            env[key] = value
    if not lines:
        return None
    p = subprocess.Popen([driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    return p, "".join(line + "\n" for line in lines)


def finish_driver(started, timeout):
    """{id: (us, gpu, note)} and stderr of a process start_driver started."""
    if started is None:
        return {}, ""
    p, text = started
    try:
        stdout, stderr = p.communicate(text, timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        stdout, stderr = p.communicate()
        stderr += "\nmodel_check: stopped after %d s (--timeout)" % timeout
    out = {}
    for line in stdout.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 3:
            continue
        try:
            us = float(parts[1])
        except ValueError:
            continue
        out[parts[0]] = (us, parts[2], parts[3] if len(parts) > 3 else "-")
    err = stderr.strip()
    if p.returncode != 0 and not out:
        err = "model_check exited %d: %s" % (p.returncode, err)
    return out, err


def run_driver(driver, lines, env_extra, timeout):
    return finish_driver(start_driver(driver, lines, env_extra), timeout)


def driver_line(rid, row, version, size, ran_as):
    return "%s %s %s v%d %d %s" % (rid, row["chapter"], row["table"], version, size, ran_as)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--driver", required=True, help="model_check_emu (bench/model_check.c)")
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--version-map", default=VERSION_MAP)
    ap.add_argument("--sample", type=int, default=int(os.environ.get("SIMTLAB_EMU_SAMPLE_BLOCKS", "8")),
                    help="blocks each sampled launch runs (SIMTLAB_EMU_SAMPLE_BLOCKS; default 8, set by "
                         "the cost alone: the 4096^3 SGEMM's row in about 8 s of one core)")
    ap.add_argument("--gpu", default=os.environ.get("SIMTLAB_MODEL_GPU", "h200"))
    ap.add_argument("--rows", help="only rows whose 'chapter,table,version,size' matches this regex")
    ap.add_argument("--subset", action="store_true",
                    help="the CTest subset: a few rows, and checks that the check can fail")
    ap.add_argument("--strict", action="store_true", help="exit 1 when the issue's targets are missed")
    ap.add_argument("--timeout", type=int, default=280, help="seconds for each model_check process")
    a = ap.parse_args()
    if a.sample <= 0:
        print("--sample %d: expected a positive number of blocks" % a.sample, file=sys.stderr)
        return 2
    if not os.access(a.driver, os.X_OK):
        print("--driver %s: not an executable (build model_check_emu first)" % a.driver, file=sys.stderr)
        return 2

    data = read_data(a.data)
    vmap = read_version_map(a.version_map)
    rows = []
    for r in data:
        if r["status"] != "modelled":
            continue
        key = "%s,%s,%s,%s" % (r["chapter"], r["table"], r["version"], r["size"])
        if a.subset and (r["chapter"], r["table"], r["version"], int(r["size"])) not in SUBSET:
            continue
        if a.rows and not re.search(a.rows, key):
            continue
        rows.append(r)
    if not rows:
        print("no rows to check (--rows %r)" % a.rows, file=sys.stderr)
        return 2

    sampled, whole = [], []
    plan = {}
    for i, r in enumerate(rows):
        old = r["version"].split("_k")[0]
        # chapter 05's transpose kept its names (the map's versions are the SGEMM's)
        new = old if r["table"] == "transpose" else vmap.get((r["chapter"], old), old)
        v = version_number(new)
        rid = "r%d" % i
        r["today"] = new
        if v is None:
            plan[rid] = None
            continue
        line = driver_line(rid, r, v, int(r["size"]), r["ran_as"])
        (whole if (r["chapter"], r["table"], v) in UNSAMPLED else sampled).append(line)
        plan[rid] = r
    # chapter 03's k-way split at 2^12, for its slowdown (no times measured there)
    kway_small = []
    if any(r["chapter"] == "03" and r["table"] == "kway" for r in rows) and not a.subset:
        for k in (1, 2, 4, 8, 16, 32):
            for v in (1, 2):
                kway_small.append("s%d_%d 03 kway_4096 v%d 4096 k=%d work=256 width=1024 block=256" % (v, k, v, k))

    env = {"SIMTLAB_MODEL_GPU": a.gpu}
    t0 = time.time()
    # processes side by side (a machine has two cores or more): the sampled rows in two halves,
    # and the rows that run whole
    env_sampled = dict(env, SIMTLAB_EMU_SAMPLE_BLOCKS=str(a.sample))
    started = [start_driver(a.driver, sampled[0::2] + kway_small, env_sampled),
               start_driver(a.driver, sampled[1::2], env_sampled),
               start_driver(a.driver, whole, dict(env, SIMTLAB_EMU_SAMPLE_BLOCKS=None))]
    got, errors = {}, []
    for one in started:
        out, err = finish_driver(one, a.timeout)
        got.update(out)
        errors.append(err)
    elapsed = time.time() - t0
    for e in errors:
        for line in e.splitlines():
            if "sampl" not in line:  # the emulator's one note on sampling is expected
                print("model_check: " + line, file=sys.stderr)

    print("The timing model against the H200 measurements of 2026-12-04 (bench/data/h200_2026-12-04.csv)")
    print("modelled on %s (modelled, not measured); launches of more than %d blocks sampled (%d blocks, scaled"
          % (a.gpu, a.sample, a.sample))
    print("by the grid), chapter 03's escape-time versions run whole; %.0f s on this machine" % elapsed)
    if not vmap:
        print("(bench/data/version_map.csv absent: each 12-04 name runs as today's version of that name)")
    hdr = "%-3s %-11s %-14s %10s %12s %12s %7s %-6s %s" % ("ch", "table", "version", "size", "modelled us",
                                                            "measured us", "ratio", "1.5x", "bound / note")
    print(hdr)
    results = []
    failures = 0
    for i, r in enumerate(rows):
        rid = "r%d" % i
        measured = float(r["measured_us"])
        res = got.get(rid)
        name = r["version"] if r["today"] == r["version"].split("_k")[0] else "%s->%s" % (r["version"], r["today"])
        if plan[rid] is None:
            us, note = None, "error: version_map maps %s onto %r, not a version" % (r["version"], r["today"])
            failures += 1
        elif res is None:
            us, note = None, "error: model_check gave no answer for this row"
            failures += 1
        else:
            us, _gpu, note = res
            if note.startswith("error"):
                failures += 1
            if us is None or us < 0:
                us = None
        ratio = us / measured if us is not None and measured > 0 else None
        ok = within(ratio)
        results.append((r, us, measured, ratio, ok))
        print("%-3s %-11s %-14s %10s %12s %12.4g %7s %-6s %s" % (
            r["chapter"], r["table"], name, r["size"], "%.4g" % us if us is not None else "-", measured,
            "%.2f" % ratio if ratio else "-", "yes" if ok else "NO", note))

    # Spearman per table, at its largest size with >= 4 versions
    print("\nrank correlation (Spearman) of modelled against measured, per table at its largest size "
          "with at least 4 versions:")
    tables = {}
    for r, us, measured, ratio, ok in results:
        tables.setdefault((r["chapter"], r["table"]), {}).setdefault(int(r["size"]), []).append((us, measured))
    spearmans = []
    for (ch, table), sizes in sorted(tables.items()):
        big = [s for s in sorted(sizes) if len(sizes[s]) >= 4]
        if not big:
            continue
        size = big[-1]
        pts = sizes[size]
        if any(us is None for us, _ in pts):
            print("  %s %-11s size %-10d %d versions: %s" % (ch, table, size, len(pts),
                                                           "not computed: a version was not modelled (counted 0)"))
            spearmans.append(0.0)
            continue
        rho = spearman([p[0] for p in pts], [p[1] for p in pts])
        spearmans.append(rho)
        print("  %s %-11s size %-10d %2d versions: %.2f" % (ch, table, size, len(pts), rho))

    # chapter 03: the k-way slowdown
    kway_ok = None
    kw = {(r["version"]): us for r, us, measured, ratio, ok in results if r["chapter"] == "03" and r["table"] == "kway"}
    kwm = {(r["version"]): measured for r, us, measured, ratio, ok in results
           if r["chapter"] == "03" and r["table"] == "kway"}
    if kw:
        print("\nchapter 03, the k-way split: slowdown v1 / v2, modelled (%s) against measured (H200)" % a.gpu)
        print("  %4s %12s %12s %12s %10s %14s" % ("k", "2^20 model", "2^20 H200", "model/H200", "2^12 model",
                                                 "2^12 H200"))
        small_measured = {int(r["version"].split("_k")[1]): r["measured_as"].split("x")[0]
                          for r in data if r["table"] == "kway_4096"}
        kway_ok = True
        for k in (1, 2, 4, 8, 16, 32):
            a1, a2 = kw.get("v1_k%d" % k), kw.get("v2_k%d" % k)
            m1, m2 = kwm.get("v1_k%d" % k), kwm.get("v2_k%d" % k)
            if m1 is None or m2 is None:
                continue
            model = a1 / a2 if a1 and a2 else None
            meas = m1 / m2
            rel = model / meas if model else None
            s1, s2 = got.get("s1_%d" % k), got.get("s2_%d" % k)
            small = s1[0] / s2[0] if s1 and s2 and s1[0] > 0 and s2[0] > 0 else None
            ok_big = rel is not None and abs(rel - 1.0) <= KWAY_WITHIN
            ok_small = k == 1 or (small is not None and small < k)
            if not kway_small:
                ok_small = True  # --rows or --subset: 2^12 not run
            kway_ok = kway_ok and ok_big and ok_small
            print("  %4d %12s %12.2f %12s %10s %14s" % (
                k, "%.2f" % model if model else "-", meas, "%.2f" % rel if rel else "-",
                "%.2f" % small if small else "-", small_measured.get(k, "")))
        if not kway_small:
            print("  (2^12 not run in this selection)")
        if len(kwm) < 12:
            kway_ok = None  # not every k in this selection

    modelled_rows = len(results)
    good = sum(1 for x in results if x[4])
    smin = min(spearmans) if spearmans else float("nan")
    verdict = "yes" if kway_ok else ("no" if kway_ok is not None else "not run")
    subset_ok = True
    if a.subset:
        # The check must be able to fail: a measured figure 3x off the true one must be reported
        # outside 1.5x, and the same row run again must give the same modelled figure.
        print("\nsubset self-checks:")
        # the first row with a figure, its measured time made wrong by 10x (down if the model is
        # below the measurement, up if above): whatever the model gives, the wrong figure is out
        first = next((x for x in results if x[1]), results[0])
        factor = 10.0 if first[3] is not None and first[3] < 1.0 else 0.1
        wrong = first[2] * factor
        fake_ratio = first[1] / wrong if first[1] else None
        c1 = first[1] is not None and not within(fake_ratio)
        print("  %s %s: a wrong measured figure (%.4g us for the true %.4g us) reported outside 1.5x: %s"
              % (first[0]["table"], first[0]["version"], wrong, first[2], "yes" if c1 else "NO"))
        again, _ = run_driver(a.driver, [sampled[0]], dict(env, SIMTLAB_EMU_SAMPLE_BLOCKS=str(a.sample)), a.timeout)
        rid0 = sampled[0].split()[0]
        c2 = rid0 in again and rid0 in got and again[rid0][0] == got[rid0][0] and got[rid0][0] > 0
        print("  the same row run twice gives the same modelled figure (deterministic), above 0: %s"
              % ("yes" if c2 else "NO"))
        c3 = all(x[1] is not None and x[1] > 0 for x in results)
        print("  every subset row modelled (a figure above 0): %s" % ("yes" if c3 else "NO"))
        # v1 of the k-way split at k = 4 does 4 paths where its control does one: its modelled time must be
        # longer (whatever the model's constants), or the model does not see divergence at all
        k4 = {x[0]["version"]: x[1] for x in results if x[0]["table"] == "kway"}
        c4 = k4.get("v1_k4") and k4.get("v2_k4") and k4["v1_k4"] > k4["v2_k4"]
        print("  the k = 4 split modelled slower than its control: %s" % ("yes" if c4 else "NO"))
        subset_ok = c1 and c2 and c3 and bool(c4)

    print("\ntargets (issue 28): at least %d%% of rows within 1.5x; every Spearman at least %.2f; chapter 03 yes"
          % (TARGET_ROWS * 100, TARGET_SPEARMAN))
    print("model-check: %d of %d rows within 1.5x; min Spearman %s; ch03 k-way within 25%%: %s" % (
        good, modelled_rows, "%.2f" % smin if not math.isnan(smin) else "-", verdict))
    if failures or not subset_ok:
        return 1
    if a.strict:
        met = good >= TARGET_ROWS * modelled_rows and (not spearmans or smin >= TARGET_SPEARMAN) and kway_ok
        return 0 if met else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
