#!/usr/bin/env python3
"""core.compare_counters: scripts/compare-counters.py against a real
modelled CSV (01_vector_add_emu, v3, SIMTLAB_EMU_PROFILE_CSV) and an ncu CSV
written here in ncu's --csv --metrics layout (no GPU is needed), whose
figures are the modelled ones halved or equal: the script must match the
kernel across the two naming styles and print each ratio.

    compare_counters_test.py BIN_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "compare-counters.py")


def main(bin_dir):
    emu = os.path.join(bin_dir, "01_vector_add_emu")
    if not os.access(emu, os.X_OK):
        print(f"SKIP: {emu} is not built")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        modelled = os.path.join(folder, "modelled-01_vector_add.csv")
        env = dict(os.environ, SIMTLAB_EMU_PROFILE="1", SIMTLAB_EMU_PROFILE_CSV=modelled)
        subprocess.run([emu, "65536", "3"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True, timeout=120)
        with open(modelled) as f:
            rows = [r for r in csv.DictReader(f) if r["kernel"] == "vector_add_v3_vectorized"]
        if not rows:
            print("FAIL: the emulator wrote no row for vector_add_v3_vectorized (no counters in this build?)")
            return 1
        m = rows[0]
        ld_req = float(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"])
        ld_sec = float(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"])
        # ncu's layout; a GPU that issued twice the requests for the same sectors.
        header = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
                  "Block Size", "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit",
                  "Metric Value"]
        name = "vector_add_v3_vectorized(const float *, const float *, float *, unsigned long, unsigned long)"
        metrics = [("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", f"{int(2 * ld_req):,}"),
                   ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", f"{int(ld_sec):,}"),
                   ("smsp__inst_executed.sum", "1,000"), ("smsp__thread_inst_executed.sum", "16,000")]
        with open(os.path.join(folder, "ncu-01_vector_add.csv"), "w", newline="") as f:
            f.write("==PROF== Connected to process 1\nsome program output\n")
            w = csv.writer(f, quoting=csv.QUOTE_ALL)
            w.writerow(header)
            for metric, value in metrics:
                w.writerow(["0", "1", "01_vector_add", "h", name, "1", "7", "(256, 1, 1)", "(64, 1, 1)", "0",
                            "9.0", "Command line profiler metrics", metric, "", value])
            w.writerow(["1", "1", "01_vector_add", "h", "only_on_the_gpu()", "1", "7", "(1, 1, 1)", "(1, 1, 1)",
                        "0", "9.0", "Command line profiler metrics", "smsp__inst_executed.sum", "", "5"])
        out = subprocess.run([sys.executable, SCRIPT, folder], capture_output=True, text=True, timeout=60)
        print(out.stdout, out.stderr)
        text = out.stdout
        want = [
            "vector_add_v3_vectorized: ncu 1 launch(es), emulator 1 launch(es)",
            "global load requests",
            "0.50x",   # modelled requests / ncu's doubled ones
            "1.00x",   # the sectors agree
            "SIMT efficiency",
            "50.0%",   # ncu side: 16000 / (32 x 1000)
            "only_on_the_gpu: only ncu ran it",
        ]
        missing = [w for w in want if w not in text]
        if out.returncode != 0 or missing:
            print(f"FAIL: exit {out.returncode}; missing: {missing}")
            return 1
        print("PASS")
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
