#!/usr/bin/env bash
# Installs what simtlab needs on Debian or Ubuntu, and nothing that is there
# already. `make test` and `make bench` run it first. The CUDA toolkit is not
# installed here: without nvcc the build runs everything on the CPU emulator.
set -euo pipefail

packages=(libcriterion-dev gnuplot-nox libopenblas-dev libboost-context-dev pkg-config cmake g++ make)

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
