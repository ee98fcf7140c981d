#!/usr/bin/env bash
# Installs what simtlab needs on Debian or Ubuntu, and nothing that is there
# already. `make test` and `make bench` run it first. The CUDA toolkit is not
# installed here: without nvcc the build runs everything on the CPU emulator.
set -euo pipefail

# make sass needs nvdisasm (and uses cuobjdump beside it): a full CUDA toolkit
# has them, a compiler-only install does not. Only when asked,
# SIMTLAB_WITH_CUOBJDUMP=1 installs NVIDIA's wheels of the two from PyPI
# (pip --user, the release that matches nvcc's major version), where
# scripts/machine-code.sh finds them.
if [ "${SIMTLAB_WITH_CUOBJDUMP:-0}" = 1 ]; then
  if bash "$(dirname "$0")/machine-code.sh" --find-tool >/dev/null 2>&1; then
    echo "simtlab: nvdisasm is already there: $(bash "$(dirname "$0")/machine-code.sh" --find-tool)"
  else
    cuda_major=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
    cuda_major=${cuda_major:-13}
    echo "simtlab: installing nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm ${cuda_major}.x (pip --user)"
    python3 -m pip install --user --quiet "nvidia-cuda-cuobjdump==${cuda_major}.*" "nvidia-cuda-nvdisasm==${cuda_major}.*"
  fi
fi

# The notebook's check (tests/notebook_test.sh, CTest label "notebook") runs
# tutorial/notebook.ipynb with papermill; only when asked,
# SIMTLAB_WITH_NOTEBOOK=1 installs papermill and ipykernel from PyPI (CI does).
if [ "${SIMTLAB_WITH_NOTEBOOK:-0}" = 1 ] && ! python3 -c 'import papermill, ipykernel' >/dev/null 2>&1; then
  echo "simtlab: installing papermill and ipykernel (pip), for the notebook's check"
  python3 -m pip install --quiet papermill ipykernel ||
    echo "simtlab: pip could not install papermill; the notebook's check will skip" >&2
fi

# CTest nvcc12.arch_check compiles every kernel file with CUDA 12.4 as well
# as the machine's nvcc 13; only when asked, SIMTLAB_WITH_CUDA12=1 (CI does)
# installs that nvcc (compile only) into ~/.cache/simtlab/cuda-12.4 with
# scripts/cuda12.sh (Debian 13's nvidia-cuda-toolkit .deb unpacked, NVIDIA's
# PyPI wheels for the headers). Where it cannot (no Debian archive keys, no
# network), it says why and the check skips with that reason.
if [ "${SIMTLAB_WITH_CUDA12:-0}" = 1 ]; then
  bash "$(dirname "$0")/cuda12.sh" ||
    echo "simtlab: scripts/cuda12.sh could not install CUDA 12.4's nvcc (above); nvcc12.arch_check will skip" >&2
fi

# libthrust-dev, libcub-dev: Debian's header-only Thrust 1.17, which the
# emulator builds Thrust programs with (emu/docs/libraries.md, "Thrust and NVTX").
# bubblewrap: the sandbox make grade-class builds and runs student code in
# (scripts/sandbox.py); its tests skip, saying why, where it cannot start.
packages=(libcriterion-dev gnuplot-nox libopenblas-dev libboost-context-dev pkg-config cmake g++ make
          libthrust-dev libcub-dev bubblewrap)
# SIMTLAB_WITH_SLURM=1 (CI does): Slurm and munge, which grade-class SLURM=1's
# test starts as a single-node cluster of its own (tests/grading/test_slurm.py).
if [ "${SIMTLAB_WITH_SLURM:-0}" = 1 ]; then
  packages+=(slurmctld slurmd munge slurm-client)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "simtlab: missing packages: ${missing[*]}" >&2
  echo "simtlab: this is not a Debian/Ubuntu machine; install them with your package manager." >&2
  exit 1
fi

run_as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run_as_root=(sudo)
  else
    echo "simtlab: missing packages: ${missing[*]}" >&2
    echo "simtlab: run this once, then make again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

echo "simtlab: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${run_as_root[@]}" apt-get update -qq
"${run_as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
