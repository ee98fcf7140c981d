#!/usr/bin/env python3
"""Chapter 07's page and its program, kept in step.

Every fenced block of tutorial/07-errors-and-debugging.md whose first line is
`$ build/bin/07_errors...` is run again, from the repository root, with
build/bin/ replaced by this build's folder of programs, and what it prints
must be the block's other lines. Only what differs from run to run or from
machine to machine is left out of the comparison: addresses (0x...),
numbers of 8 digits or more (the emulated device's memory, which is a share
of the host's), and block indices (which block meets a race first depends
on which worker thread of the emulator gets there first).

The page also quotes the CUDA build's doctor on a machine without a GPU
(`$ build/bin/00_doctor ...`): with --doctor, only that block is checked,
and where the doctor's "built for" or "CUDA driver" line differs from the
quote's (a driver or a GPU is installed, or other architectures were
built) the check is skipped with the reason.

usage: 07_errors_page.py [--doctor] PAGE BINDIR"""
import difflib
import os
import re
import subprocess
import sys


def normal(line):
    line = re.sub(r"0x[0-9a-f]+", "0x?", line.rstrip())
    line = re.sub(r"block \(\d+,\d+,\d+\)", "block (?)", line)
    return re.sub(r"\d{8,}", "N", line)


def blocks(text, prefix):
    """[(command, [expected lines])] for the page's quoted runs of `prefix`."""
    found = []
    for m in re.finditer(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S):
        lines = m.group(1).splitlines()
        if lines and lines[0].startswith("$ " + prefix):
            found.append((lines[0][2:], lines[1:]))
    return found


def main(argv):
    doctor = "--doctor" in argv
    argv = [a for a in argv if a != "--doctor"]
    if len(argv) != 3:
        print(__doc__)
        return 2
    page, bindir = argv[1], os.path.abspath(argv[2])
    prefix = "build/bin/00_doctor " if doctor else "build/bin/07_errors"
    root = os.path.dirname(os.path.dirname(os.path.abspath(page)))
    with open(page, encoding="utf-8") as fh:
        runs = blocks(fh.read(), prefix)
    if not runs:
        print("%s: no quoted run of %s* found" % (page, prefix))
        return 1
    bad = 0
    for cmd, want in runs:
        real = cmd.replace("build/bin/", bindir + "/")
        r = subprocess.run(["bash", "-o", "pipefail", "-c", real], cwd=root, capture_output=True, text=True, timeout=120)
        got = r.stdout.splitlines()
        if not got or r.returncode in (126, 127):
            bad += 1
            print("`%s` printed nothing (is it built?): %s" % (cmd, r.stderr.strip()))
            continue
        if doctor:
            # The quote is of a machine with the toolkit, no driver, and the
            # default architectures: elsewhere the doctor rightly says more.
            key = lambda lines: [l for l in lines if re.match(r"\s*(built for|CUDA driver)\s", l)]
            if key(got) != key(want):
                print("simtlab-skip: this machine or build differs from the page's (a driver, a GPU, or other "
                      "architectures: %s), so its doctor prints something else" % "; ".join(key(got)))
                continue
        if [normal(l) for l in got] != [normal(l) for l in want]:
            bad += 1
            print("the page's output of `%s` is not what it prints now:" % cmd)
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(want, got, "page", "program", lineterm=""))
        else:
            print("in step: %s (%d lines)" % (cmd, len(want)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
