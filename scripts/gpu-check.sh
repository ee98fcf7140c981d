#!/usr/bin/env bash
# One prepared run on a machine with a GPU: build the CUDA backend for the
# GPU that is there, run the doctor, every GPU test, and the benchmarks.
# Writes logs and CSV files to ${OUT:-gpu-check-out}/. Keep it short: the
# device time it runs in is counted.
set -uo pipefail
out=${OUT:-gpu-check-out}
mkdir -p "$out"
build=build-gpu
log() { echo "== $*"; }

log "deps and configure"
bash scripts/deps.sh || true
cmake -S . -B "$build" -DCMAKE_CUDA_ARCHITECTURES="${ARCHS:-90}" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
log "build"
cmake --build "$build" -j"$(nproc)" >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv | tee "$out/nvidia-smi.csv"
log "doctor"
"$build/bin/00_doctor" | tee "$out/doctor.txt"
log "GPU tests"
for t in "$build"/bin/test_*_cuda; do
  echo "-- $t"
  "$t" --verbose=1 -j1 2>&1 | tail -40
done | tee "$out/gpu-tests.txt"
"$build/bin/tensor_ptx_check" | tee -a "$out/gpu-tests.txt"
log "benchmarks"
for b in "$build"/bin/bench_[0-9][0-9]_*; do
  case "$b" in *_emu) continue ;; esac
  name=$(basename "$b")
  timeout 180 "$b" --csv "$out/$name.csv" 2>&1 | tail -60
done | tee "$out/bench.txt"
