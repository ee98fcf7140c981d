#!/usr/bin/env python3
"""build/sass.txt: SASS instructions per kernel and source line, for the
emulator's timing model (emu/docs/model.md, "SASS weights").

  sass-table.py write --out FILE --arch sm_90[,sm_80...] [-I DIR...] KERNEL.cu...
      Compiles each KERNEL.cu with `nvcc -lineinfo -cubin -arch=<arch>` (as
      `make sass` does, scripts/machine-code.sh), disassembles the cubin with
      `nvdisasm -c -gi` (every instruction's source line and inline chain)
      and writes FILE: one row per architecture, kernel and source line.
  sass-table.py test KERNEL.cu
      The CTest emu.sass_table: runs `write` on one file at sm_90 and checks
      the rows of chapter 03's kernels (see test_rows). Without nvcc or
      nvdisasm it prints "simtlab-skip: <reason>" and exits 0.
  sass-table.py find-tools
      Prints the nvcc and nvdisasm it would use, or the reason there are none.

A row (tab-separated; '#' lines are comments):

  arch  kernel  file  line  loop  top  copies  branches  loops

  kernel    demangled, without 'void ' and the parameter list: reduce_v6<256>
  file      the base name of the instruction's innermost source file that is
            not a library header (/usr/..., the emulator's emu/include), the
            file the emulator's counters name for a site
  line      that file's line
  loop      SASS instructions of the line inside loops, each loop counted once:
            of the versions nvcc makes of one source loop (an unrolled body
            followed by smaller remainder loops: consecutive loops of the same
            source lines, each smaller than the one before), only the
            smallest, which runs one source iteration per trip
  top       SASS instructions of the line outside every loop (each runs at
            most once per warp)
  copies    the copies of the line in the code: distinct (loop, inline chain)
            pairs holding it, or, for a line in no loop, distinct inline chains
  branches  conditional jumps (@P BRA, BRX) of the line, in any version: 0
            means the line cannot split a warp (SASS predicates it)
  loops     the loops (their first instruction's offset, hex, comma-separated;
            '-': none) whose own instructions hold the line's: the model lets
            an instruction run no more often than its loop's other lines

BAR (a __syncthreads) is left out: the model counts barriers apart. NOPs after
the kernel's last instruction (padding) are left out.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HEADER = """\
# simtlab: SASS instructions per kernel and source line (scripts/sass-table.py wrote this;
# nvcc -lineinfo -cubin, nvdisasm -c -gi). The emulator's timing model reads it
# (SIMTLAB_MODEL_SASS; emu/docs/model.md, "SASS weights").
# arch\tkernel\tfile\tline\tloop\ttop\tcopies\tbranches\tloops
"""

FILE_LINE = re.compile(r'//## File "([^"]+)", line (\d+)')
INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
LABEL = re.compile(r"^\s*(\.L_x_\d+):")
SECTION = re.compile(r"\.section\s+\.text\.([^,\s]+)")
TARGET = re.compile(r"`\((\.L_x_\d+)\)")
GUARD = re.compile(r"^@!?U?P[0-6T]\s+(.*)")


def is_library(path):
    return path.startswith("/usr/") or "/simtlab_emu/" in path or "/emu/include/" in path


def find_bin(name, near=None):
    """NAME next to nvcc, in the toolkit, on PATH, then in NVIDIA's PyPI wheels."""
    dirs = []
    if near:
        dirs.append(os.path.dirname(near))
    dirs += [os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin"), "/usr/local/cuda/bin"]
    for d in dirs:
        p = os.path.join(d, name)
        if os.access(p, os.X_OK):
            return p
    p = shutil.which(name)
    if p:
        return p
    import site
    roots = list(getattr(site, "getsitepackages", lambda: [])()) + [site.getusersitepackages()]
    for d in roots:
        for p in sorted(glob.glob(os.path.join(d, "nvidia", "*", "bin", name))):
            if os.access(p, os.X_OK):
                return p
    return None


def find_tools(nvcc=None, nvdisasm=None):
    """(nvcc, nvdisasm, None) or (None, None, reason)."""
    nvcc = nvcc or shutil.which("nvcc") or find_bin("nvcc")
    if not nvcc:
        return None, None, "no nvcc (not on PATH, in $CUDA_HOME/bin or /usr/local/cuda/bin)"
    nvdisasm = nvdisasm or find_bin("nvdisasm", nvcc)
    if not nvdisasm:
        return None, None, ("no nvdisasm next to %s, on PATH or in Python's site-packages "
                            "(pip --user nvidia-cuda-nvdisasm==13.*, see scripts/deps.sh)" % nvcc)
    return nvcc, nvdisasm, None


def trim_kernel(name):
    """'void reduce_v6<256>(float const*, ...)' -> 'reduce_v6<256>' (as the model's resources reader)."""
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            return name[:i].strip()
    return name.strip()


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True).stdout.splitlines()
    if len(out) != len(names):
        return {n: n for n in names}
    return dict(zip(names, out))


def parse(text):
    """{mangled kernel: [instruction]}; an instruction is a dict with addr, op (without its guard),
    guarded, chain (innermost first: [(file, line)]), target (label or None), and the labels' addresses."""
    kernels = {}
    cur = None
    chain = []
    pending = []          # //## lines since the last instruction
    labels_waiting = []
    for raw in text.splitlines():
        m = SECTION.search(raw)
        if m:
            cur = {"insts": [], "labels": {}}
            kernels[m.group(1)] = cur
            chain, pending, labels_waiting = [], [], []
            continue
        if cur is None:
            continue
        m = FILE_LINE.search(raw)
        if m:
            pending.append((m.group(1), int(m.group(2))))
            continue
        m = LABEL.match(raw)
        if m:
            labels_waiting.append(m.group(1))
            continue
        m = INSTR.search(raw)
        if not m:
            continue
        if pending:
            # "line A inlined at B" then "line B": the first is the innermost
            chain, pending = pending, []
        addr = int(m.group(1), 16)
        for lab in labels_waiting:
            cur["labels"][lab] = addr
        labels_waiting = []
        ins = m.group(2).strip()
        g = GUARD.match(ins)
        guarded = bool(g)
        if g:
            ins = g.group(1)
        op = ins.split()[0] if ins.split() else ""
        t = TARGET.search(ins)
        cur["insts"].append({"addr": addr, "op": op.split(".")[0], "guarded": guarded, "chain": tuple(chain),
                             "target": t.group(1) if t else None})
    return kernels


def rows_of(kernel):
    """{(file, line): [loop, top, copies, branches, {loop start}]} of one kernel's instructions."""
    insts, labels = kernel["insts"], kernel["labels"]
    # the padding after the trap (`.L_x_N: BRA .L_x_N`) at the end
    end = len(insts)
    for i, x in enumerate(insts):
        if x["op"] == "BRA" and x["target"] and labels.get(x["target"]) == x["addr"]:
            end = i
            break
    insts = insts[:end]
    # loops: backward jumps, [target, jump]
    loops = []
    for x in insts:
        if x["op"] == "BRA" and x["target"] in labels and labels[x["target"]] < x["addr"]:
            loops.append((labels[x["target"]], x["addr"]))
    loops = sorted(set(loops))

    def key(x):
        for f, l in x["chain"]:
            if not is_library(f):
                return (os.path.basename(f), l)
        return None

    def inner(lo, hi):
        return [x for x in insts if lo <= x["addr"] <= hi]

    def parent(lp):
        best = None
        for o in loops:
            if o != lp and o[0] <= lp[0] and lp[1] <= o[1] and (best is None or o[1] - o[0] < best[1] - best[0]):
                best = o
        return best

    sig = {lp: frozenset(k for k in map(key, inner(*lp)) if k) for lp in loops}
    size = {lp: len(inner(*lp)) for lp in loops}
    # versions: consecutive loops of one parent with the same lines, each smaller than the one before
    dropped = set()
    by_parent = {}
    for lp in loops:
        by_parent.setdefault(parent(lp), []).append(lp)
    for group in by_parent.values():
        group.sort()
        run = []
        for lp in group:
            if run and sig[lp] == sig[run[-1]] and size[lp] * 4 <= size[run[-1]] * 3:
                run.append(lp)
                continue
            dropped.update(run[:-1])
            run = [lp]
        dropped.update(run[:-1])

    def region(x):
        """The innermost loop holding x, or None (top); 'dropped' when inside a dropped version."""
        best = None
        for lp in loops:
            if lp[0] <= x["addr"] <= lp[1]:
                if lp in dropped:
                    return "dropped"
                if best is None or lp[1] - lp[0] < best[1] - best[0]:
                    best = lp
        return best

    rows = {}
    copies = {}
    for x in insts:
        k = key(x)
        if k is None:
            continue
        r = rows.setdefault(k, [0, 0, 0, 0, set()])
        if x["guarded"] and x["op"] in ("BRA", "BRX", "JMX", "BRXU"):
            r[3] += 1
        elif x["op"] in ("BRX", "JMX", "BRXU"):
            r[3] += 1
        if x["op"] == "BAR":
            continue
        reg = region(x)
        if reg == "dropped":
            continue
        if reg is None:
            r[1] += 1
        else:
            r[0] += 1
            r[4].add(reg[0])
        copies.setdefault(k, set()).add((reg, x["chain"]))
    for k, r in rows.items():
        c = copies.get(k, set())
        in_loops = {p for p in c if p[0] is not None}
        r[2] = len(in_loops) if in_loops else len(c)
    return rows


def write(args):
    nvcc, nvdisasm, why = find_tools(args.nvcc, args.nvdisasm)
    if why:
        print("sass-table: %s" % why, file=sys.stderr)
        return 1
    archs = [a if a.startswith("sm_") else "sm_" + a for a in args.arch.replace(";", ",").split(",") if a]
    out_rows = []
    with tempfile.TemporaryDirectory(prefix="sass-table.") as tmp:
        for src in args.sources:
            for arch in archs:
                a = arch
                if src.endswith("_wgmma.cu"):  # chapter 06's v6 exists for sm_90a only
                    if arch != "sm_90":
                        continue
                    a = "sm_90a"
                cubin = os.path.join(tmp, os.path.basename(src) + "." + a + ".cubin")
                cmd = [nvcc, "-std=c++17", "-lineinfo", "-cubin", "-arch=" + a, src, "-o", cubin]
                for inc in args.include or []:
                    cmd.insert(1, "-I" + inc)
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode != 0:
                    print("sass-table: %s failed:\n%s" % (" ".join(cmd), p.stderr), file=sys.stderr)
                    return 1
                p = subprocess.run([nvdisasm, "-c", "-gi", cubin], capture_output=True, text=True)
                if p.returncode != 0:
                    print("sass-table: nvdisasm %s failed:\n%s" % (cubin, p.stderr), file=sys.stderr)
                    return 1
                kernels = parse(p.stdout)
                names = demangle(sorted(kernels))
                for mangled in sorted(kernels):
                    kname = trim_kernel(names[mangled])
                    for (f, line), r in sorted(rows_of(kernels[mangled]).items()):
                        loops = ",".join("%x" % a for a in sorted(r[4])) or "-"
                        out_rows.append("%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s" % (arch, kname, f, line, r[0], r[1],
                                                                                 r[2], r[3], loops))
    tmp_out = args.out + ".tmp"
    with open(tmp_out, "w") as f:
        f.write(HEADER)
        for r in out_rows:
            f.write(r + "\n")
    os.replace(tmp_out, args.out)
    return 0


def read_rows(path):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            arch, kernel, fname, ln, loop, top, copies, br, _ = line.rstrip("\n").split("\t")
            rows[(arch, kernel, fname, int(ln))] = (int(loop), int(top), int(copies), int(br))
    return rows


def test_rows(src):
    """Checks of chapter 03's kernels (kernels/03_divergence.cu) at sm_90; a list of failures."""
    nvcc, nvdisasm, why = find_tools()
    if why:
        print("simtlab-skip: %s" % why)
        return None
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory(prefix="sass-table-test.") as tmp:
        out = os.path.join(tmp, "sass.txt")
        ns = argparse.Namespace(nvcc=nvcc, nvdisasm=nvdisasm, arch="sm_90", out=out, sources=[src],
                                include=[os.path.join(root, "kernels"), os.path.join(root, "host", "include"),
                                         os.path.join(root, "host")])
        if write(ns) != 0:
            return ["write failed"]
        rows = read_rows(out)
    bad = []

    def row(kernel, fname, line):
        return rows.get(("sm_90", kernel, fname, line))

    if not any(k[1] == "divergence_short" for k in rows):
        return ["no rows for divergence_short: %d rows in all" % len(rows)]
    # v6's short if/else (03_divergence_work.h: `if (key) v = ...; else v = ...;`): predicated, no jump
    for line in (42, 43):
        r = row("divergence_short", "03_divergence_work.h", line)
        if r is None:
            bad.append("divergence_short: no row for 03_divergence_work.h:%d" % line)
        elif r[3] != 0:
            bad.append("divergence_short 03_divergence_work.h:%d: %d conditional jumps, expected 0 (predicated)"
                       % (line, r[3]))
        elif r[0] == 0 or r[0] > 4:
            bad.append("divergence_short 03_divergence_work.h:%d: %d loop instructions per iteration, expected "
                       "1-4 (the remainder loop's, not the 4x unrolled body's)" % (line, r[0]))
    # v8's long branch jumps
    r = row("divergence_long", "03_divergence.cu", 150)
    if r is None or r[3] == 0:
        bad.append("divergence_long 03_divergence.cu:150: expected a conditional jump, got %r" % (r,))
    # v1: 32 paths, each its own loop: the step lines have one copy per path of their shape
    r = row("divergence_v1_split_lane", "03_divergence_work.h", 30)
    if r is None or r[2] < 8:
        bad.append("divergence_v1_split_lane 03_divergence_work.h:30: expected a copy per path of its shape (8), "
                   "got %r" % (r,))
    elif r[0] / r[2] > 8:
        bad.append("divergence_v1_split_lane 03_divergence_work.h:30: %.1f instructions per copy and iteration, "
                   "expected one iteration's (<= 8), not an unrolled body's" % (r[0] / r[2]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--out", required=True)
    w.add_argument("--arch", required=True, help="sm_90 or 90, comma-separated")
    w.add_argument("-I", dest="include", action="append")
    w.add_argument("--nvcc")
    w.add_argument("--nvdisasm")
    w.add_argument("sources", nargs="+")
    t = sub.add_parser("test")
    t.add_argument("source")
    sub.add_parser("find-tools")
    a = ap.parse_args()
    if a.cmd == "write":
        return write(a)
    if a.cmd == "find-tools":
        nvcc, nvdisasm, why = find_tools()
        print(why if why else "%s %s" % (nvcc, nvdisasm))
        return 1 if why else 0
    bad = test_rows(a.source)
    if bad is None:
        return 0
    for b in bad:
        print("sass-table test: %s" % b)
    print("sass-table test: %s" % ("ok" if not bad else "%d failed" % len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
