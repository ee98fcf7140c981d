#!/usr/bin/env bash
# Every kernel file compiles for the GPUs students have, not only the build's
# default 80;90: sm_75 (T4, the free notebook GPU), sm_86 and sm_89 (RTX 30
# and 40), sm_120 (RTX 50). Compile only (nvcc -c, no link, nothing runs), in
# parallel, one line per architecture; exits 1 naming each file that fails.
# Kernels a GPU cannot run compile there as traps and their host wrappers
# refuse them by name (chapter 06's v3-v5 and bf16 below 8.0, v6 off 9.0).
# An architecture that the nvcc does not know (sm_120 before CUDA 12.8) is
# reported as skipped.
#
#   scripts/arch-check.sh [ARCH ...]           NVCC (default nvcc); default 75 86 89 120
#   scripts/arch-check.sh --cuda12 [ARCH ...]  the CUDA 12.4 nvcc of scripts/cuda12.sh
#                                              (or SIMTLAB_NVCC12); default 75 80 86 89 90 120
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = --cuda12 ]; then
  shift
  archs=${*:-75 80 86 89 90 120}
  nvcc=${SIMTLAB_NVCC12:-$(bash "$here/scripts/cuda12.sh" --print)}
  if [ -z "$nvcc" ]; then
    echo "simtlab-skip: the CUDA 12 nvcc is not installed (bash scripts/cuda12.sh, or SIMTLAB_WITH_CUDA12=1 bash scripts/deps.sh)"
    exit 0
  fi
else
  archs=${*:-75 86 89 120}
  nvcc=${NVCC:-nvcc}
fi
if ! command -v "$nvcc" >/dev/null 2>&1; then
  echo "simtlab-skip: arch-check needs nvcc ($nvcc), which is not installed"
  exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/simtlab-arch.XXXXXX")
trap 'rm -rf "$work"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
release=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/nvcc \1/p')
echo "arch-check: $release ($nvcc), architectures: $archs"
# kernels/06_tensor_gemm_wgmma.cu is sm_90a code only (cmake/Chapters.cmake builds it so)
files=$(ls "$here"/kernels/*.cu | grep -v '_wgmma\.cu$')
status=0
known=$("$nvcc" --list-gpu-arch 2>/dev/null)
for a in $archs; do
  if [ -n "$known" ] && ! printf '%s\n' "$known" | grep -qx "compute_$a"; then
    echo "sm_$a: skipped: $release does not know this architecture (nvcc --list-gpu-arch)"
    continue
  fi
  printf '%s\n' $files | xargs -P "$jobs" -I{} bash -c '
    f={}; o="$0/$(basename "$f" .cu)_sm_$1.o"
    if ! "$2" -std=c++17 -c -arch=sm_$1 -I"$3/host/include" -I"$3/host" -I"$3/kernels" "$f" -o "$o" \
         >"$o.log" 2>&1; then echo "$f" >>"$0/failed_$1"; fi' "$work" "$a" "$nvcc" "$here"
  if [ -s "$work/failed_$a" ]; then
    status=1
    echo "sm_$a: FAILED:"
    while read -r f; do
      echo "  $f:"; sed 's/^/    /' "$work/$(basename "$f" .cu)_sm_$a.o.log" | head -n 8
    done <"$work/failed_$a"
  else
    echo "sm_$a: $(printf '%s\n' $files | wc -l) files compiled"
  fi
done
exit $status
