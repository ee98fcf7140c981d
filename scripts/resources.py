#!/usr/bin/env python3
"""build/resources.txt: ptxas's resource usage of every kernel, per architecture.

  resources.py write --logs DIR --out FILE --arch "80,90" KERNEL.cu...
      Reads DIR/<target>/KERNEL.cu.ptxas (ptxas -v's report, kept by
      scripts/ptxas-log.sh while libsimtlab_cuda is built) for each kernel
      source and writes FILE: one line per kernel and target architecture,
      names demangled with c++filt so that a student can read them.
  resources.py check --file FILE --kernels DIR
      The test nvcc.resources: FILE exists, names every __global__ function
      of every chapter's kernels/NN_*.cu, and every kernel of chapter 06
      (the tensor-core GEMMs) spills 0 bytes at every architecture.

build/bin/occupancy --resources FILE --ch NN reads FILE's columns.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

HEADER = """\
# simtlab: ptxas's resource usage of every kernel at every target architecture
# (nvcc -Xptxas=-v while libsimtlab_cuda was built; scripts/resources.py wrote this).
#   regs      registers per thread ('Used N registers')
#   smem      static shared memory per block, bytes (a launch's dynamic shared memory comes on top)
#   stack     stack frame per thread, bytes (local memory)
#   spill_st  bytes of spill stores per thread: registers ptxas had to park in local memory
#   spill_ld  bytes of spill loads per thread (0 and 0 is what a tuned kernel wants)
# The occupancy these allow: build/bin/occupancy --resources {out} --ch NN
#
"""

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\w+)'")
PROPS = re.compile(r"Function properties for (\S+)")
STACK = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")
SMEM = re.compile(r"(\d+) bytes smem")


def parse(text):
    """[(mangled, arch, regs, smem, stack, spill_st, spill_ld)] of the entry functions."""
    rows, cur, props_for = [], None, None
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            cur = {"name": m.group(1), "arch": m.group(2), "stack": 0, "st": 0, "ld": 0}
            continue
        m = PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = STACK.search(line)
        if m and cur and props_for == cur["name"]:
            cur["stack"], cur["st"], cur["ld"] = (int(g) for g in m.groups())
            continue
        m = USED.search(line)
        if m and cur:
            s = SMEM.search(line)
            rows.append((cur["name"], cur["arch"], int(m.group(1)), int(s.group(1)) if s else 0,
                         cur["stack"], cur["st"], cur["ld"]))
            cur = None
    return rows


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True).stdout
    readable = out.splitlines()
    if len(readable) != len(names):
        return {n: n for n in names}
    # "void f<T>(...)": a kernel returns void, so the word says nothing.
    return {n: re.sub(r"^void ", "", r) for n, r in zip(names, readable)}


def arch_key(arch):
    m = re.match(r"sm_(\d+)", arch)
    return int(m.group(1)) if m else 0


def write(args):
    rows, missing = [], []
    for src in sorted(args.sources, key=os.path.basename):
        name = os.path.basename(src)
        # One report per target that compiled the file (ptxas/<target>/).
        logs = sorted(glob.glob(os.path.join(args.logs, "*", name + ".ptxas")))
        if not logs:
            missing.append(name)
            continue
        for log in logs:
            with open(log) as f:
                rows += [(name,) + r for r in parse(f.read())]
    names = demangle(sorted({r[1] for r in rows}))
    rows.sort(key=lambda r: (r[0], arch_key(r[2]), names[r[1]]))
    width = max([len(r[0]) for r in rows] + [len("file")])
    with open(args.out + ".tmp", "w") as f:
        f.write(HEADER.format(out=args.out))
        if args.arch:
            f.write("# target architectures of this build: %s\n#\n" % args.arch.replace(";", ", "))
        for name in missing:
            f.write("# no ptxas report for %s: it was compiled before the report was kept; "
                    "touch kernels/%s and build again\n" % (name, name))
        f.write("%-*s  %-7s %5s %7s %6s %9s %9s  %s\n"
                % (width, "file", "arch", "regs", "smem", "stack",
                   "spill_st", "spill_ld", "kernel"))
        for (src, mangled, arch, regs, smem, stack, st, ld) in rows:
            f.write("%-*s  %-7s %5d %7d %6d %9d %9d  %s\n"
                    % (width, src, arch, regs, smem, stack, st, ld, names[mangled]))
    os.replace(args.out + ".tmp", args.out)
    for name in missing:
        print("resources.py: no ptxas report for %s (touch kernels/%s and build again)" % (name, name),
              file=sys.stderr)
    return 0


def read_table(path):
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            parts = line.split(None, 7)
            if len(parts) < 8 or parts[0] == "file":
                continue
            try:
                nums = [int(p) for p in parts[2:7]]
            except ValueError:
                continue
            rows.append({"file": parts[0], "arch": parts[1], "regs": nums[0], "smem": nums[1],
                         "stack": nums[2], "spill_st": nums[3], "spill_ld": nums[4],
                         "kernel": parts[7].rstrip("\n")})
    return rows


GLOBAL = re.compile(r"__global__\s+void\s+(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?(\w+)\s*\(")


def check(args):
    if not os.path.exists(args.file):
        print("FAIL: %s does not exist (a CUDA build writes it: cmake --build <build> --target simtlab_cuda)"
              % args.file)
        return 1
    rows = read_table(args.file)
    failures = []
    sources = sorted(f for f in os.listdir(args.kernels) if re.match(r"\d\d_.*\.cu$", f))
    for src in sources:
        with open(os.path.join(args.kernels, src)) as f:
            text = f.read()
        kernels = sorted(set(GLOBAL.findall(text)))
        mine = [r for r in rows if r["file"] == src]
        if kernels and not mine:
            failures.append("%s: no kernel of it in %s" % (src, args.file))
            continue
        for k in kernels:
            if not any(re.match(r"%s[<(]" % re.escape(k), r["kernel"]) for r in mine):
                failures.append("%s: kernel %s is not in %s" % (src, k, args.file))
        print("%s: %d kernels, %d lines (kernel x architecture)" % (src, len(kernels), len(mine)))
    chapters = sorted({s[:2] for s in sources})
    for ch in chapters:
        if not any(r["file"].startswith(ch + "_") for r in rows):
            failures.append("chapter %s has no line in %s" % (ch, args.file))
    tensor = [r for r in rows if r["file"].startswith("06_")]
    if not tensor:
        failures.append("no chapter 06 kernel in %s" % args.file)
    for r in tensor:
        if r["spill_st"] or r["spill_ld"]:
            failures.append("%s spills on %s: %d bytes stored, %d loaded (%s)"
                            % (r["kernel"], r["arch"], r["spill_st"], r["spill_ld"], r["file"]))
    archs = sorted({r["arch"] for r in tensor}, key=arch_key)
    print("chapter 06: %d kernel x architecture lines (%s), spills: %s"
          % (len(tensor), ", ".join(archs), "none" if not any(r["spill_st"] or r["spill_ld"] for r in tensor)
             else "some"))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--logs", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--arch", default="")
    w.add_argument("sources", nargs="+")
    c = sub.add_parser("check")
    c.add_argument("--file", required=True)
    c.add_argument("--kernels", required=True)
    args = p.parse_args()
    return write(args) if args.cmd == "write" else check(args)


if __name__ == "__main__":
    sys.exit(main())
