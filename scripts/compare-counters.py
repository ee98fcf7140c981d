#!/usr/bin/env python3
"""Nsight Compute's counters beside the emulator's modelled ones.

scripts/gpu-check.sh (step 4) runs each chapter example under ncu, which
writes counters/ncu-NAME.csv, and the same example's _emu twin with the
same arguments, which writes counters/modelled-NAME.csv
(SIMTLAB_EMU_PROFILE_CSV). This prints, per kernel, each figure the
emulator models beside the one ncu measured, both as a mean per launch,
so that the model can be judged against a GPU:

    scripts/compare-counters.py gpu-check-out/counters

Sectors per request and bank conflicts are the same quantities on both
sides and should agree where the kernel's addresses do not depend on the
GPU (grid sizes chosen from the SM count change them). Instructions do not:
the emulator counts basic blocks of the C++ it compiled, ncu counts SASS
instructions, so only their ratio (SIMT efficiency) is compared.
"""
import csv
import io
import os
import re
import sys

# (label, ncu metric, emulator CSV column); None: computed below.
FIGURES = [
    ("global load requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("global load sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("global store requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("global store sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("shared load bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("shared store bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("divergent branch targets", "smsp__sass_branch_targets_threads_divergent.sum",
     "smsp__sass_branch_targets_threads_divergent.sum"),
]
INST = "smsp__inst_executed.sum"
THREAD_INST = "smsp__thread_inst_executed.sum"


def kernel_key(name):
    """The bare function name: no return type, parameters, template
    arguments or namespaces, so ncu's and the emulator's names meet."""
    name = name.strip().strip('"')
    name = name.split("(")[0]
    while "<" in name:  # innermost template arguments first
        stripped = re.sub(r"<[^<>]*>", "", name)
        if stripped == name:
            break
        name = stripped
    name = name.split()[-1] if name.split() else name
    return name.split("::")[-1]


def number(text):
    text = text.strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        return None


def read_ncu(path):
    """{kernel: {metric: [value per launch]}} from ncu --csv --metrics."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's ==PROF== lines and program output aside
    out = {}
    for row in csv.DictReader(io.StringIO("".join(lines))):
        if "Kernel Name" not in row or "Metric Name" not in row:
            continue
        value = number(row.get("Metric Value", ""))
        if value is None:
            continue
        per = out.setdefault(kernel_key(row["Kernel Name"]), {})
        per.setdefault(row["Metric Name"], []).append(value)
    return out


def read_modelled(path):
    """{kernel: {column: [value per launch]}} from SIMTLAB_EMU_PROFILE_CSV."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for row in csv.DictReader(f):
            if not row.get("kernel"):
                continue
            per = out.setdefault(kernel_key(row["kernel"]), {})
            for column, text in row.items():
                value = number(text or "")
                if value is not None:
                    per.setdefault(column, []).append(value)
    return out


def mean(values):
    return sum(values) / len(values) if values else None


def show(value):
    if value is None:
        return "-"
    return f"{value:.0f}" if value == int(value) and abs(value) < 1e15 else f"{value:.3g}"


def compare(name, ncu, modelled):
    lines = []
    for kernel in sorted(set(ncu) | set(modelled)):
        n, m = ncu.get(kernel, {}), modelled.get(kernel, {})
        if not n or not m:
            lines.append(f"{kernel}: only {'ncu' if n else 'the emulator'} ran it")
            continue
        launches = max(len(v) for v in n.values())
        lines.append(f"{kernel}: ncu {launches} launch(es), emulator {len(m.get('blocks', []))} launch(es); "
                     "means per launch")
        for label, metric, column in FIGURES:
            a, b = mean(n.get(metric, [])), mean(m.get(column, []))
            ratio = f"{b / a:6.2f}x" if a and b is not None else "      "
            lines.append(f"  {label:<28} ncu {show(a):>14}   modelled {show(b):>14}   {ratio}")
        def efficiency(d, inst, thread):
            i, t = mean(d.get(inst, [])), mean(d.get(thread, []))
            return t / (32.0 * i) if i and t is not None else None
        a, b = efficiency(n, INST, THREAD_INST), efficiency(m, INST, THREAD_INST)
        a_text = f"{100 * a:.1f}%" if a is not None else "-"
        b_text = f"{100 * b:.1f}%" if b is not None else "-"
        lines.append(f"  {'SIMT efficiency':<28} ncu {a_text:>14}   modelled {b_text:>14}   "
                     "(SASS instructions vs basic blocks)")
    return [f"== {name}"] + lines


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: compare-counters.py DIR (with ncu-NAME.csv and modelled-NAME.csv files)", file=sys.stderr)
        return 2
    folder = argv[1]
    names = sorted(f[len("ncu-"):-len(".csv")] for f in os.listdir(folder)
                   if f.startswith("ncu-") and f.endswith(".csv"))
    if not names:
        print(f"compare-counters: no ncu-NAME.csv in {folder}", file=sys.stderr)
        return 1
    print("ncu (measured on this GPU) beside the emulator's modelled counters (same program, same arguments)")
    for name in names:
        modelled_path = os.path.join(folder, f"modelled-{name}.csv")
        ncu = read_ncu(os.path.join(folder, f"ncu-{name}.csv"))
        modelled = read_modelled(modelled_path) if os.path.exists(modelled_path) else {}
        if not ncu:
            print(f"== {name}\n{name}: ncu wrote no metrics (see ncu.log)")
            continue
        print("\n".join(compare(name, ncu, modelled)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
