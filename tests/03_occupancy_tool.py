#!/usr/bin/env python3
"""emu.03_occupancy.tool: build/bin/occupancy's command line, no GPU needed.

  03_occupancy_tool.py build/bin/occupancy

--help; one kernel on one architecture (sm_80, 255 registers, 128 threads:
2 blocks, 8 of 64 warps, registers); bad options refused with the option
named and a non-zero status; --resources on a made-up resources.txt in the
format scripts/resources.py writes (the chapter's lines only, a kernel name
with spaces kept whole); a missing file or chapter said so.
"""
import os
import subprocess
import sys
import tempfile

failures = []


def run(args):
    p = subprocess.run([tool] + args, capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what, out=""):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
        if out:
            print(out)


tool = sys.argv[1]

rc, out, err = run(["--help"])
expect(rc == 0 and "--registers" in out and "--resources" in out, "--help lists the options", out + err)

rc, out, err = run(["--registers", "255", "--threads", "128", "--arch", "80"])
rows = [line for line in out.splitlines() if line.startswith("sm_80")]
expect(rc == 0 and len(rows) == 1, "one architecture, one row", out + err)
if rows:
    cols = rows[0].split()
    # arch regs smem warps slots blocks warps occ limit
    expect(cols[1] == "2" and cols[5] == "2" and cols[6] == "8/64" and cols[7] == "12.5%" and cols[8] == "registers",
           "sm_80, 255 registers, 128 threads: 2 blocks, 8/64 warps, 12.5%, registers", rows[0])

rc, out, err = run([])
expect(rc == 0 and sum(line.startswith("sm_") for line in out.splitlines()) == 7,
       "without --arch: all 7 architectures", out + err)

for args, word in ((["--threads", "0"], "--threads"), (["--threads", "1025"], "--threads"),
                   (["--registers", "256"], "--registers"), (["--arch", "70"], "arch 70"),
                   (["--bogus"], "--bogus"), (["--threads"], "--threads")):
    rc, out, err = run(args)
    expect(rc != 0 and word in err, "%s refused, naming %s" % (" ".join(args), word), out + err)

with tempfile.TemporaryDirectory() as d:
    res = os.path.join(d, "resources.txt")
    with open(res, "w") as f:
        f.write("# made up for the test\n"
                "file              arch     regs    smem  stack  spill_st  spill_ld  kernel\n"
                "03_divergence.cu  sm_80      32       0      0         0         0  divergence_v1(unsigned int const*, int)\n"
                "03_divergence.cu  sm_90     128    4096      0         0         0  divergence_v2(int)\n"
                "04_reduce.cu      sm_80      16    1024      0         0         0  reduce_v1(float const*)\n")
    rc, out, err = run(["--resources", res, "--ch", "03", "--threads", "256"])
    lines = [line for line in out.splitlines() if line.startswith("sm_")]
    expect(rc == 0 and len(lines) == 2, "--ch 03: the chapter's two lines only", out + err)
    if len(lines) == 2:
        expect(lines[0].endswith("divergence_v1(unsigned int const*, int)"), "the kernel's name kept whole", out)
        # sm_80, 32 regs, 256 threads: registers 64 warps -> 8 blocks, warps 8 -> tie, 64 warps, 100%.
        expect(" 8 " in lines[0] and "64/64" in lines[0] and "100.0%" in lines[0], "sm_80 line: 8 blocks, 100%",
               lines[0])
        # sm_90, 128 regs: 4096 per warp, 4 per part, 16 warps -> 2 blocks of 8, 16/64 warps.
        expect("16/64" in lines[1] and "registers" in lines[1], "sm_90 line: 16/64 warps, registers", lines[1])
    rc, out, err = run(["--resources", res, "--ch", "05"])
    expect(rc != 0 and "chapter 05" in err, "a chapter with no kernels in the file is said so", out + err)
    rc, out, err = run(["--resources", os.path.join(d, "none.txt"), "--ch", "03"])
    expect(rc != 0 and "cannot read" in err, "a missing file is said so", out + err)
    rc, out, err = run(["--resources", res])
    expect(rc != 0 and "--ch" in err, "--resources without --ch is refused", out + err)

print("occupancy tool: %d checks failed" % len(failures) if failures else "occupancy tool: all checks passed")
sys.exit(1 if failures else 0)
