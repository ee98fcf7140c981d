#!/usr/bin/env bash
# make bench: runs every benchmark that can run on this machine, writes CSV
# and PNG charts under build/bench/, and says which GPU columns it skipped.
set -euo pipefail
build=${1:-build}
out="$build/bench"
mkdir -p "$out"
bin="$build/bin"
status=0

plot() { # csv png title columns...
  local csv=$1 png=$2 title=$3 unit=GB/s; shift 3
  # the rate's CSV column (bench_init writes gbs or gflops) names the unit
  [ "$(grep -v '^#' "$csv" | head -n 1 | cut -d, -f6)" = gflops ] && unit=GFLOP/s
  if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "csv='$csv'; png='$png'; title='$title'; columns='$*'; unit='$unit'" bench/plot.gp 2>/dev/null \
      && echo "chart: $png" || echo "gnuplot could not draw $png (no pngcairo terminal?)"
  fi
}

for b in "$bin"/bench_[0-9][0-9]_*; do
  case "$b" in *_emu) continue ;; esac
  [ -x "$b" ] || continue
  name=$(basename "$b"); name=${name#bench_}
  echo "==== $name"
  "$b" --csv "$out/$name.csv" ${SIMTLAB_BENCH_FLAGS:-} || status=1
  cols=$(grep -v '^#' "$out/$name.csv" | tail -n +2 | cut -d, -f2 | awk '!seen[$0]++' | grep -v _e2e | tr '\n' ' ')
  [ -n "$cols" ] && plot "$out/$name.csv" "$out/$name.png" "$name" $cols
done

if [ -x "$bin/bench_emu_throughput" ]; then
  echo "==== emulator throughput (CPU)"
  "$bin/bench_emu_throughput" --csv "$out/emu_throughput.csv" || status=1
fi
echo "results: $out/"
exit $status
