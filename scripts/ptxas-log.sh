#!/usr/bin/env bash
# The CUDA compiler launcher of libsimtlab_cuda (cmake/03_occupancy.cmake):
#   ptxas-log.sh LOGDIR nvcc ARGS...
# runs nvcc ARGS with -Xptxas=-v, so that ptxas reports each kernel's
# registers, shared memory, stack and spills while the library is built
# (no second compile), and keeps that report in LOGDIR/<source>.cu.ptxas.
# Everything else nvcc prints (warnings, errors) goes to stderr as usual.
# scripts/resources.py turns the reports into build/resources.txt.
set -u
logdir=$1
shift
src=
prev=
for a in "$@"; do
  [ "$prev" = -c ] && src=$a
  prev=$a
done
if [ -z "$src" ]; then
  exec "$@"
fi
mkdir -p "$logdir"
log="$logdir/$(basename "$src").ptxas"
tmp="$log.tmp.$$"
"$@" -Xptxas=-v 2>"$tmp"
rc=$?
# ptxas's report: its "ptxas info" lines and the indented stack/spill line
# under each "Function properties for".
report='^ptxas info|^ +[0-9]+ bytes stack frame'
grep -Ev "$report" "$tmp" >&2
if [ "$rc" -eq 0 ]; then
  grep -E "$report" "$tmp" >"$log"
else
  rm -f "$log"
fi
rm -f "$tmp"
exit "$rc"
