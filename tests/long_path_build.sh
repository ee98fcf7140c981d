#!/usr/bin/env bash
# Chapter 07's page check in a tree at a long path.
#
# The program's messages name source files by the paths the compiler was
# given (__FILE__, line tables), so their length grows with the checkout
# path. This copies the source tree under a directory whose name is 150
# characters long, *builds* chapter 07's emulator program there (a copied
# binary would carry the old paths), and runs tests/07_errors_page.py on it:
# every quoted run of the page must still match, so no message may be cut
# or change with where the repository lives.
#
# usage: long_path_build.sh SOURCE_DIR [JOBS]
set -euo pipefail

src=$(cd "${1:?usage: long_path_build.sh SOURCE_DIR [JOBS]}" && pwd)
jobs=${2:-2}
name=$(printf 'long-checkout-path-%0131d' 0) # 19 + 131 = 150 characters
[ ${#name} -eq 150 ] || { echo "long_path_build.sh: the directory name has ${#name} characters, not 150" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/simtlab-long-path.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
tree="$scratch/$name/simtlab"
mkdir -p "$tree"

# The sources only: no build trees, no git metadata.
tar -C "$src" --exclude=./.git --exclude='./build' --exclude='./build-*' --exclude='./student' -cf - . |
  tar -C "$tree" -xf -

echo "long_path_build.sh: building 07_errors_emu in $tree (${#tree} characters)"
cmake -S "$tree" -B "$tree/build" -DSIMTLAB_ENABLE_CUDA=OFF >"$scratch/configure.log" 2>&1 ||
  { cat "$scratch/configure.log"; exit 1; }
cmake --build "$tree/build" -j"$jobs" --target 07_errors_emu >"$scratch/build.log" 2>&1 ||
  { tail -n 60 "$scratch/build.log"; exit 1; }

cd "$tree"
python3 tests/07_errors_page.py tutorial/07-errors-and-debugging.md build/bin
