#!/usr/bin/env bash
# The one script to run on a machine with a GPU. In order:
#   1. configure and build the CUDA backend for this machine's GPU (native);
#   2. the whole test suite on the GPU (ctest: the gpu.* tests and the rest);
#   3. compute-sanitizer memcheck, racecheck and synccheck over the chapter
#      tests (test_NN_*_cuda), where compute-sanitizer exists;
#   4. ncu over the chapter examples' kernels, where ncu exists, collecting
#      the metrics the emulator models (sl_modelled's fields are named after
#      them), and beside each the same example's _emu twin with the
#      emulator's modelled counters (SIMTLAB_EMU_PROFILE_CSV), same arguments;
#   5. make bench (every chapter, CSV and charts);
# and collects logs, CSV and charts in one folder (${OUT:-gpu-check-out}),
# printing a short summary last. Budget: under 9 minutes on an H200; each
# step has a time limit, and a step that runs out is reported, not fatal.
#
#   scripts/gpu-check.sh             run it
#   scripts/gpu-check.sh --dry-run   check that the tools are there, say what
#                                    is missing and what would be skipped; run
#                                    in CI (ctest: core.gpu_check_dry_run)
# Settings: OUT (the folder), BUILD (build-gpu), ARCHS (native),
# SIMTLAB_BENCH_FLAGS (e.g. --quick, passed to every benchmark).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=${OUT:-gpu-check-out}
build=${BUILD:-build-gpu}
archs=${ARCHS:-native}
dry=0
case "${1:-}" in
  --dry-run) dry=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]"; exit 2 ;;
esac

# ---- the tools ----------------------------------------------------------------------
# required: without it nothing runs; wanted: without it a step is skipped.
missing=()
skips=()
have() { command -v "$1" >/dev/null 2>&1; }
nvcc_path() { have nvcc && command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; }; }
tool_dir=$(dirname "$(nvcc_path 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
find_tool() { have "$1" && command -v "$1" || { [ -x "$tool_dir/$1" ] && echo "$tool_dir/$1"; }; }
for t in cmake ctest make bash timeout; do have "$t" || missing+=("$t (required)"); done
nvcc=$(nvcc_path)
[ -n "$nvcc" ] || missing+=("nvcc (required: the CUDA toolkit builds the GPU backend)")
sanitizer=$(find_tool compute-sanitizer)
ncu=$(find_tool ncu)
[ -n "$sanitizer" ] || skips+=("compute-sanitizer not found: step 3 (memcheck, racecheck, synccheck) is skipped")
[ -n "$ncu" ] || skips+=("ncu not found: step 4 (kernel counters) is skipped")
have gnuplot || skips+=("gnuplot not found: make bench writes CSV without charts")
have nvidia-smi || skips+=("nvidia-smi not found: the device list comes from the doctor alone")
gpu_note="no GPU answered nvidia-smi"
if have nvidia-smi && nvidia-smi -L >/dev/null 2>&1; then gpu_note="GPU: $(nvidia-smi -L | head -n 1)"; fi

if [ $dry = 1 ]; then
  echo "gpu-check --dry-run: the tools"
  for t in cmake ctest make timeout gnuplot nvidia-smi; do
    printf '  %-18s %s\n' "$t" "$(command -v "$t" || echo MISSING)"
  done
  printf '  %-18s %s\n' nvcc "${nvcc:-MISSING}" compute-sanitizer "${sanitizer:-MISSING}" ncu "${ncu:-MISSING}"
  echo "  $gpu_note"
  echo "the run would: build $build for CUDA architectures '$archs'; ctest on the GPU; compute-sanitizer"
  echo "memcheck/racecheck/synccheck over build-gpu/bin/test_NN_*_cuda; ncu over build-gpu/bin/NN_* examples beside"
  echo "their _emu twins' modelled counters (same arguments);"
  echo "make bench; and collect everything in $out/"
  for s in "${skips[@]}"; do echo "would skip: $s"; done
  if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do echo "missing: $m"; done
    # CI has nvcc; a missing cmake or ctest means the script could not run at all.
    for m in "${missing[@]}"; do case "$m" in *required*) [[ "$m" == nvcc* ]] || exit 1 ;; esac; done
  fi
  echo "gpu-check --dry-run: done (${#missing[@]} missing, ${#skips[@]} step(s) would be skipped)"
  exit 0
fi

if [ ${#missing[@]} -gt 0 ]; then
  printf 'gpu-check: missing %s\n' "${missing[@]}"
  exit 1
fi

# ---- the run --------------------------------------------------------------------------
mkdir -p "$out"
start=$(date +%s)
results=()
step() { # name limit_s log command...
  local name=$1 limit=$2 log=$3; shift 3
  local t0 rc
  t0=$(date +%s)
  echo "== [$(($(date +%s) - start)) s] $name"
  timeout "$limit" "$@" >"$out/$log" 2>&1
  rc=$?
  local took=$(($(date +%s) - t0)) verdict=ok
  [ $rc = 124 ] && verdict="TIMED OUT after ${limit} s" || { [ $rc != 0 ] && verdict="FAILED (exit $rc)"; }
  results+=("$(printf '%-36s %-26s %4d s  %s' "$name" "$verdict" "$took" "$out/$log")")
  [ $rc = 0 ] || tail -n 15 "$out/$log"
  return $rc
}

export PATH="$tool_dir:$PATH"
{ nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.memory --format=csv 2>&1 || true; } >"$out/nvidia-smi.csv"
step "configure ($archs)" 120 configure.log cmake -S . -B "$build" -DCMAKE_CUDA_ARCHITECTURES="$archs" || {
  echo "gpu-check: configure failed"; exit 1; }
step "build" 300 build.log cmake --build "$build" -j"$(nproc)" || { echo "gpu-check: build failed"; exit 1; }
step "doctor" 30 doctor.txt "$build/bin/00_doctor"
step "tests (ctest, all)" 240 ctest.log ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
bash scripts/skipped-tests.sh "$build" >"$out/skipped-tests.txt" 2>&1

if [ -n "$sanitizer" ]; then
  for tool in memcheck racecheck synccheck; do
    : >"$out/sanitizer-$tool.log"
    for t in "$build"/bin/test_[0-9][0-9]_*_cuda; do
      [ -x "$t" ] || continue
      echo "---- $(basename "$t")" >>"$out/sanitizer-$tool.log"
      timeout 90 "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 9 "$t" --verbose=0 -j1 \
        >>"$out/sanitizer-$tool.log" 2>&1
      echo "---- exit $?" >>"$out/sanitizer-$tool.log"
    done
    errs=$(grep -cE '^========= (Invalid|Race|Barrier|Error)' "$out/sanitizer-$tool.log")
    bad=$(grep -c '^---- exit [^0]' "$out/sanitizer-$tool.log")
    results+=("$(printf '%-36s %-26s %4s    %s' "compute-sanitizer $tool" "$errs reports, $bad bad exits" "" "$out/sanitizer-$tool.log")")
  done
fi

# The metrics the emulator models (host/include/simtlab/core.h, sl_modelled),
# and small arguments for each example so that both sides finish quickly.
ncu_metrics=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__sass_branch_targets_threads_divergent.sum
ncu_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
ncu_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
ncu_metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
example_args() { # the arguments each example gets in step 4 (its usage line says what they are)
  case "$1" in
    01_vector_add) echo 1048576 ;;
    02_gpu_pays) echo 65536 ;;
    03_divergence) echo 2 2 65536 ;;
    04_reduce) echo 1048576 ;;
    05_sgemm) echo 256 256 256 ;;
    05_transpose) echo 1024 1024 ;;
    *) echo "" ;;
  esac
}
if [ -n "$ncu" ]; then
  mkdir -p "$out/counters"
  for e in "$build"/bin/[0-9][0-9]_*; do
    case "$e" in *_emu) continue ;; esac
    [ -x "$e" ] || continue
    name=$(basename "$e")
    case "$name" in 00_* | 07_*) continue ;; esac # the doctor launches no lesson kernel; 07's cases fault on purpose
    # shellcheck disable=SC2046 # the arguments are words on purpose
    timeout 90 "$ncu" --csv --launch-count 12 --metrics "$ncu_metrics" "$e" $(example_args "$name") \
      >"$out/counters/ncu-$name.csv" 2>>"$out/ncu.log"
    if [ -x "${e}_emu" ]; then
      rm -f "$out/counters/modelled-$name.csv"
      # shellcheck disable=SC2046
      SIMTLAB_EMU_PROFILE=1 SIMTLAB_EMU_PROFILE_CSV="$out/counters/modelled-$name.csv" timeout 90 "${e}_emu" \
        $(example_args "$name") >>"$out/modelled.log" 2>&1
    fi
  done
  python3 scripts/compare-counters.py "$out/counters" >"$out/counters.txt" 2>&1
  results+=("$(printf '%-36s %-26s %4s    %s' "ncu beside the modelled counters" "$(grep -c '^  ' "$out/counters.txt") rows" "" "$out/counters.txt")")
fi

step "make bench" 330 bench.log make bench BUILD="$build"
cp -r "$build/bench" "$out/bench" 2>/dev/null

echo
echo "================ gpu-check summary ($(($(date +%s) - start)) s) ================"
echo "$gpu_note"
printf '%s\n' "${results[@]}"
grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -n 1
head -n 4 "$out/skipped-tests.txt" 2>/dev/null
sed -n '/benchmark summary/,$p' "$out/bench.log" | head -n 16
[ -f "$out/counters.txt" ] && head -n 40 "$out/counters.txt"
for s in "${skips[@]}"; do echo "skipped: $s"; done
echo "everything: $out/"
