#!/usr/bin/env bash
# make bench: runs every chapter's benchmark that can run on this machine,
# writes CSV, logs and charts (PNG and SVG) under BUILD/bench/, and ends with
# a one-screen summary: what ran where, what was skipped and why, and the
# paths it wrote.
#
#   scripts/bench.sh [BUILD] [CH]      CH: a chapter number (04) or a list ("01 04")
#
# Which binaries run (each answers --probe: its backend and whether a GPU is there):
#   CUDA build, GPU present      build/bin/bench_NN_*          -> NN_name.csv
#   CUDA build, no GPU           build/bin/bench_NN_*          -> NN_name.csv (CPU columns; GPU columns skipped)
#                                and build/bin/bench_NN_*_emu  -> NN_name_emu.csv (the kernels, emulated)
#   emulator-only build          build/bin/bench_NN_*          -> NN_name_emu.csv (it is the emulator build)
# SIMTLAB_BENCH_EMU=1 runs the _emu binaries on a GPU machine too;
# SIMTLAB_BENCH_FLAGS (e.g. --quick) is passed to every binary.
# SIMTLAB_BENCH_OUT=DIR writes there instead of BUILD/bench/ (the chart test).
# SIMTLAB_BENCH_REDRAW=1 runs nothing: it draws the charts and the summary
# again from the CSVs already in BUILD/bench/.
# SIMTLAB_MODEL_GPU (h200, a100, rtx4090, t4) picks the GPU of the emulated
# runs' modelled columns (modelled_<gpu>_<column>: the timing model's GPU time
# of that column, in the chart's unit; modelled, not measured). The summary
# leaves them out; a chapter draws them on a chart of their own (its
# "modelled" chart, series modelled_*), titled as modelled on that GPU, each
# legend entry ending "modelled H200 (not measured)".
# The emulator's own speed checks are `make bench-emu`, not part of this.
set -uo pipefail
build=${1:-build}
chapters=${2:-}
out="${SIMTLAB_BENCH_OUT:-$build/bench}"
bin="$build/bin"
mkdir -p "$out"
here=$(cd "$(dirname "$0")/.." && pwd)
SIMTLAB_GIT_REVISION=$(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)
export SIMTLAB_GIT_REVISION
durations="$out/.durations" # seconds each step took last time: the time-left estimate
status=0
start=$(date +%s)

mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# ---- the steps: binary, CSV name, what it is -----------------------------------
steps=()
skipped=()
no_gpu_names=""
no_gpu_why=""
for b in "$bin"/bench_[0-9][0-9]_*; do
  case "$b" in *_emu) continue ;; esac
  [ -x "$b" ] || continue
  name=$(basename "$b"); name=${name#bench_}
  if [ -n "$chapters" ]; then
    want=0
    for ch in $chapters; do case "$name" in "$ch"_*) want=1 ;; esac; done
    [ $want = 1 ] || continue
  fi
  probe=$("$b" --probe 2>/dev/null | tail -n 1)
  backend=$(sed -E 's/.*backend=([a-z]+).*/\1/' <<<"$probe")
  gpu=$(sed -E 's/.*device=([01]).*/\1/' <<<"$probe")
  cpu=1; case "$probe" in *" cpu=0 "*) cpu=0 ;; esac
  why=$(sed -E 's/.*reason=//' <<<"$probe")
  if [ "$backend" = emulator ]; then
    steps+=("$b|${name}_emu|emulator")
  else
    if [ "$gpu" = 1 ]; then steps+=("$b|$name|gpu")
    elif [ "$cpu" = 1 ]; then steps+=("$b|$name|cpu-only")
    else skipped+=("$name: every column is a kernel, so without a GPU only ${name}_emu runs")
    fi
    if [ "$gpu" != 1 ]; then
      no_gpu_names="${no_gpu_names:+$no_gpu_names, }$name"
      no_gpu_why=$(sed -E 's/^.* failed at [^ ]*:[0-9]+: //' <<<"$why")
      [ -x "${b}_emu" ] && steps+=("${b}_emu|${name}_emu|emulator")
    elif [ "${SIMTLAB_BENCH_EMU:-0}" = 1 ] && [ -x "${b}_emu" ]; then
      steps+=("${b}_emu|${name}_emu|emulator")
    fi
  fi
done
set -f # from here on, a '*' in a column pattern is not a file name
if [ ${#steps[@]} -eq 0 ]; then
  echo "bench: no benchmark binaries${chapters:+ for chapter(s) $chapters} in $bin (build them: cmake --build $build --target benches)"
  exit 1
fi

# The modelled points at the GPU's own size. An emulated run's sizes are small,
# and there a launch of a few blocks leaves most of the GPU idle, so the model
# prices what the GPU would do with so little work (at 128^3 the SGEMM's big-tile
# versions run 2 blocks on 132 SMs). Each chapter's modelled chart therefore
# also gets every version at the size the H200 tables measured, run by
# model_check_emu (bench/model_check.c) on 4 blocks of each launch, spread over
# the grid and scaled to it (SIMTLAB_EMU_SAMPLE_BLOCKS; emu/docs/model.md,
# "Sampling"): modelled, never run whole. make model-check samples 8; on these
# chapters' uniform grids 4 give the same figures within 2% at half the cost. SIMTLAB_BENCH_FULL_MODEL=0 leaves
# them out, =1 adds them to --quick runs too (off there by default), and a
# list of chapters ("04") adds them to those chapters' runs only.
full_model_spec() { # CSV name -> "chapter table size bytes-or-flops-per-unit unit"
  case "$1" in
    01_vector_add_emu) echo "01 vector_add 16777216 bytes12" ;;
    04_reduce_emu) echo "04 reduce 16777216 bytes4" ;;
    05_transpose_emu) echo "05 transpose 8192 bytes8sq" ;;
    05_sgemm_emu) echo "05 sgemm 4096 flops2cube" ;;
    06_tensor_gemm_emu) echo "06 tgemm_f16 4096 flops2cube" ;;
  esac
}
full_model() { # $1 CSV name, $2 CSV path: appends the modelled rows at the GPU's size
  local spec ch table size per gpu versions lines v out shape
  spec=$(full_model_spec "$1")
  [ -n "$spec" ] && [ -x "$bin/model_check_emu" ] && [ -f "$2" ] || return 0
  read -r ch table size per <<<"$spec"
  gpu=$(grep -o '^[0-9]*,modelled_[a-z0-9]*_v[0-9]*,' "$2" | head -n 1 | cut -d, -f2 | cut -d_ -f2)
  versions=$(grep -o '^[0-9]*,modelled_[a-z0-9]*_v[0-9]*,' "$2" | cut -d, -f2 | sed 's/.*_v//' | sort -n -u)
  [ -n "$gpu" ] && [ -n "$versions" ] || return 0
  # SGEMM's v9 in the tile shape the H200's autotuner picked at 4096 (the data file's row)
  shape=$(grep -m1 "^05,sgemm,v7,4096," "$here/bench/data/h200_2026-12-04.csv" 2>/dev/null | cut -d, -f5)
  lines=""
  for v in $versions; do
    lines+="v$v $ch $table v$v $size"
    [ "$table" = sgemm ] && [ "$v" = 9 ] && [ -n "$shape" ] && lines+=" $shape"
    lines+=$'\n'
  done
  echo "modelled at the GPU's size n=$size: every version, 4 blocks of each launch sampled and scaled to the grid (model_check_emu; modelled, not measured)"
  local err rc
  err=$(mktemp)
  out=$(printf '%s' "$lines" | SIMTLAB_EMU_SAMPLE_BLOCKS=4 SIMTLAB_MODEL_GPU="$gpu" timeout 600 "$bin/model_check_emu" 2>"$err")
  rc=$?
  if [ "$rc" != 0 ] || [ -z "$out" ]; then # say why, beside the chart's other points
    echo "bench: the modelled points at n=$size failed (model_check_emu exit $rc):"
    grep -v 'SAMPLE_BLOCKS' "$err" | tail -n 5 | sed 's/^/  /'
  fi
  rm -f "$err"
  awk -v n="$size" -v per="$per" -v gpu="$gpu" -v csv="$2" '
    { id = $1; us = $2 + 0; note = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", note)
      if (us <= 0) { printf "# not modelled: %s on %s at n=%s (%s)\n", id, gpu, n, note >> csv; next }
      if (per == "bytes12") { x = 12 * n; unit = "GB/s" }
      else if (per == "bytes4") { x = 4 * n; unit = "GB/s" }
      else if (per == "bytes8sq") { x = 8 * n * n; unit = "GB/s" }
      else { x = 2 * n * n * n; unit = "GFLOP/s" }
      ms = us / 1000
      printf "%s,modelled_%s_%s,%.6f,%.6f,%.6f,%g,%s\n", n, gpu, id, ms, ms, ms, x / (us * 1000), unit >> csv
      printf "  %-4s modelled %s time at n=%s: %.6g ms, %.4g %s (%s)\n", id, toupper(gpu), n, ms, x / (us * 1000), unit, note
    }' <<<"$out"
}

# The estimate of a step: its time last run, else 60 s.
estimate() { local e; e=$(grep -F "$1 " "$durations" 2>/dev/null | tail -n 1 | cut -d' ' -f2); echo "${e:-60}"; }

# ---- run them ---------------------------------------------------------------------
total=${#steps[@]}
declare -A took
i=0
redraw=${SIMTLAB_BENCH_REDRAW:-0} # 1: draw the charts of the CSVs already there, run nothing
for step in "${steps[@]}"; do
  [ "$redraw" = 1 ] && break
  i=$((i + 1))
  IFS='|' read -r b csvname kind <<<"$step"
  left=0
  for later in "${steps[@]:$((i - 1))}"; do left=$((left + $(estimate "$(cut -d'|' -f2 <<<"$later")"))); done
  elapsed=$(($(date +%s) - start))
  case $kind in
    gpu) what="on the GPU" ;;
    cpu-only) what="CPU columns (no GPU here)" ;;
    *) what="kernels on the CPU emulator (times are emulated, not GPU times)" ;;
  esac
  echo
  echo "==== [$i/$total] $csvname — $what — $(mmss "$elapsed") so far, about $(mmss "$left") left"
  t0=$(date +%s)
  # shellcheck disable=SC2086
  "$b" --csv "$out/$csvname.csv" ${SIMTLAB_BENCH_FLAGS:-} 2>&1 | tee "$out/$csvname.log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" = 0 ] && [ "$kind" = emulator ]; then
    full=${SIMTLAB_BENCH_FULL_MODEL:-}
    [ -n "$full" ] || case " ${SIMTLAB_BENCH_FLAGS:-} " in *" --quick "*) full=0 ;; *) full=1 ;; esac
    case " $full " in *" ${csvname%%_*} "*) full=1 ;; esac
    [ "$full" = 1 ] && full_model "$csvname" "$out/$csvname.csv" 2>&1 | tee -a "$out/$csvname.log"
  fi
  took[$csvname]=$(($(date +%s) - t0))
  [ "$rc" = 0 ] || { status=1; echo "bench: $csvname FAILED (exit $rc); see $out/$csvname.log"; }
done
[ "$redraw" = 1 ] || {
  for k in "${!took[@]}"; do echo "$k ${took[$k]}"; done
} >"$durations.new" && mv "$durations.new" "$durations"

# ---- charts ---------------------------------------------------------------------------
header() { grep -m1 "^# $2: " "$1" | sed "s/^# $2: //"; }

# The legend text of a column: its label (# label:), marked "(emulator: CPU
# time)" for a device column of an emulator run; a modelled column
# (modelled_<gpu>_<column>) says the column, its label and "modelled <GPU>
# (not measured)".
legend_of() { # csv column emulated
  local text
  text=$(grep -m1 "^# label: $2=" "$1" | sed "s/^# label: $2=//")
  if [ -z "$text" ]; then # the columns every chapter shares
    case "$2" in
      cpu) text="CPU loop, 1 core" ;;
      cpu_omp) text="CPU loop, all $(header "$1" machine | grep -oE '[0-9]+ cores') (OpenMP)" ;;
      *_omp) text="all $(header "$1" machine | grep -oE '[0-9]+ cores') (OpenMP)" ;;
      copy_d2d) text="device-to-device copy (the ceiling)" ;;
      v*_e2e) text="${2%_e2e} with both copies (end to end)" ;;
      cub | cublas*) text="vendor library" ;;
      slowdown_modelled_*) text="modelled on the ${2#slowdown_modelled_} (timing model, not measured)" ;;
      modelled_*_*) # modelled_<gpu>_<column>: bench_emit_model (bench/harness.h)
        local gpu=${2#modelled_} of
        gpu=${gpu%%_*}
        of=${2#modelled_"$gpu"_}
        text=$(grep -m1 "^# label: $of=" "$1" | sed "s/^# label: $of=//")
        text="${text:-$of} — modelled ${gpu^^} (not measured)" ;;
    esac
  fi
  [ -n "$text" ] && text="$2: $text" || text=$2
  case "$2" in modelled_*) ;; *) # a modelled figure is no emulator time
    if [ "$3" = 1 ] && is_device_column "$1" "$2"; then text="$text (emulator: CPU time)"; fi ;;
  esac
  printf '%s' "$text" | tr '|' '/' | safe
}
# Text that goes inside gnuplot's single quotes.
safe() { sed "s/'/’/g"; }
is_device_column() { # csv column
  local c
  case "$2" in *_emu) return 0 ;; esac
  for c in $(header "$1" "device columns"); do
    # shellcheck disable=SC2254
    case "$2" in $c) return 0 ;; esac
  done
  return 1
}

charts=()
draw() { # csv id title xlabel ylabel y logy series...
  local csv=$1 id=$2 title=$3 xlabel=$4 ylabel=$5 y=$6 logy=$7; shift 7
  local base emulated=0 cols="" labels="" s c marks
  base=$(basename "$csv" .csv)
  [ "$(header "$csv" backend | cut -d';' -f1)" = emulator ] && emulated=1
  # expand "prefix*" against the columns present; keep those with rows
  local present
  present=$(grep -E '^[0-9]+,' "$csv" | cut -d, -f2 | awk '!seen[$0]++')
  for s in "$@"; do
    for c in $present; do
      # shellcheck disable=SC2254
      case "$c" in $s) case " $cols " in *" $c "*) ;; *) cols="$cols $c" ;; esac ;; esac
    done
  done
  cols=${cols# }
  [ -n "$cols" ] || return 0
  for c in $cols; do labels="$labels|$(legend_of "$csv" "$c" "$emulated")"; done
  # the x values present: tics at the first and every step after it
  local xs xfirst xstep plotted
  plotted=$(grep -E "^[0-9]+,($(tr ' ' '|' <<<"$cols"))," "$csv") # the rows the chart draws
  xs=$(cut -d, -f1 <<<"$plotted" | sort -nu | head -n 2 | tr '\n' ' ')
  xfirst=$(cut -d' ' -f1 <<<"$xs")
  local rows # one row in all (a --quick run of one series): plot.gp gives it a y range
  rows=$(grep -c . <<<"$plotted")
  xstep=$(awk '{ print ($2 > $1 && $1 > 0) ? int($2 / $1) : 0 }' <<<"$xs")
  labels=${labels#|}
  marks=$(grep "^# mark: $id;" "$csv" | sed "s/^# mark: $id;//" | tr ';' '|' | paste -sd';' -)
  local machine device where full
  machine=$(header "$csv" machine | cut -d, -f1-2)
  device=$(header "$csv" device | sed 's/ (.*//')
  local modelled_gpu="" # every column modelled_<gpu>_*: the chart shows the timing model, no time of this run
  case "$cols" in modelled_*) modelled_gpu=${cols#modelled_}; modelled_gpu=${modelled_gpu%%_*} ;; esac
  for c in $cols; do case "$c" in modelled_"$modelled_gpu"_*) ;; *) modelled_gpu="" ;; esac; done
  if [ -n "$modelled_gpu" ]; then
    where="MODELLED on the ${modelled_gpu^^} by the emulator's timing model (emu/docs/model.md): not measured; computed on $machine"
  elif [ $emulated = 1 ]; then where="EMULATED on the CPU ($machine): device columns are CPU times, not GPU times"
  elif grep -q '^# device: none' "$csv"; then where="CPU only, GPU columns skipped ($machine)"
  else where="GPU: $device ($machine)"; fi
  full=$(printf '%s' "$title" | safe)
  where=$(printf '%s' "$where" | safe)
  xlabel=$(printf '%s' "$xlabel" | safe)
  ylabel=$(printf '%s' "$ylabel" | safe)
  [ -n "$id" ] && base="$base-$id"
  for term in png svg; do
    if gnuplot -e "csv='$csv'; out='$out/$base.$term'; term='$term'; title='$full'; subtitle='$where'; xfirst=${xfirst:-1}; xstep=${xstep:-0}; rows=${rows:-0}; xlabel='$xlabel'; ylabel='$ylabel'; y='$y'; logy=$logy; series='$cols'; labels='$labels'; marks='$marks'" \
        "$here/bench/plot.gp" 2>"$out/$base.$term.err"; then
      charts+=("$out/$base.$term")
      if [ -s "$out/$base.$term.err" ]; then # drawn, but gnuplot warned: kept, and said
        echo "bench: gnuplot warned while drawing $out/$base.$term: $(head -n 3 "$out/$base.$term.err")"
      else
        rm -f "$out/$base.$term.err"
      fi
    else
      rm -f "$out/$base.$term" # no empty chart left behind: the .err says why
      status=1
      echo "bench: gnuplot could not draw $out/$base.$term: $(head -n 3 "$out/$base.$term.err")"
    fi
  done
}

if command -v gnuplot >/dev/null 2>&1; then
  for step in "${steps[@]}"; do
    csv="$out/$(cut -d'|' -f2 <<<"$step").csv"
    [ -f "$csv" ] || continue
    if grep -q '^# chart: ' "$csv"; then
      while IFS=';' read -r id title xlabel ylabel y logy series; do
        # shellcheck disable=SC2086
        draw "$csv" "$id" "$title" "$xlabel" "$ylabel" "$y" "$logy" $series
      done < <(grep '^# chart: ' "$csv" | sed 's/^# chart: //')
    else # the rate of every column against n
      unit=$(grep -m1 '^n,column' "$csv" | cut -d, -f6)
      [ "$unit" = gflops ] && ylabel="GFLOP/s (median of the runs)" || ylabel="GB/s (median of the runs)"
      draw "$csv" "" "$(header "$csv" 'simtlab benchmark')" "n (elements, log scale)" "$ylabel" '6' 1 '*'
    fi
  done
else
  skipped+=("charts: gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)")
fi

# ---- the summary: one screen ------------------------------------------------------
echo
echo "================ simtlab benchmark summary ($(mmss $(($(date +%s) - start))) in all) ================"
for step in "${steps[@]}"; do
  IFS='|' read -r b csvname kind <<<"$step"
  csv="$out/$csvname.csv"
  [ -f "$csv" ] || { printf '%-24s no CSV (the run failed)\n' "$csvname"; continue; }
  case $kind in gpu) where="GPU" ;; cpu-only) where="CPU only" ;; *) where="EMULATED" ;; esac
  # at the largest n of the first chart's columns (all, without charts): the fastest by rate
  first=$(grep -m1 '^# chart: ' "$csv" | awk -F';' '{print $NF}')
  xname=$(grep -m1 '^# chart: ' "$csv" | awk -F';' '{split($3, w, " "); print w[1]}')
  awk -F, -v name="$csvname" -v where="$where" -v first="${first:-*}" -v xname="${xname:-n}" '
    BEGIN { k = split(first, pat, " "); for (i = 1; i <= k; i++) { gsub(/\./, "\\.", pat[i]); gsub(/\*/, ".*", pat[i]); re = re (i > 1 ? "|" : "") "^(" pat[i] ")$" } }
    /^[0-9]+,/ && $2 ~ re && $2 !~ /^modelled_/ { if ($1 + 0 > maxn) maxn = $1 + 0; n[NR] = $1 + 0; col[NR] = $2; rate[NR] = $6; unit[NR] = $7 }
    END {
      if (!maxn) { printf "%-24s %-9s no rows\n", name, where; exit }
      line = ""; k = 0
      for (r in n) if (n[r] == maxn && unit[r] != "") { k++; c[k] = col[r]; v[k] = rate[r]; u[k] = unit[r] }
      for (a = 1; a <= k; a++) for (b = a + 1; b <= k; b++) if (v[b] + 0 > v[a] + 0) {
        t = c[a]; c[a] = c[b]; c[b] = t; t = v[a]; v[a] = v[b]; v[b] = t; t = u[a]; u[a] = u[b]; u[b] = t }
      for (a = 1; a <= k && a <= 5; a++) line = line sprintf("%s %.3g%s  ", c[a], v[a], (a == 1 ? " " u[a] : ""))
      # the x of the first chart by its own name: n as a power of 2, k (03) as it is
      if (xname == "n") printf "%-24s %-9s n=2^%d: %s\n", name, where, log(maxn) / log(2) + 0.5, line
      else printf "%-24s %-9s %s=%g: %s\n", name, where, xname, maxn, line
    }' "$csv"
  awk '/^crossover/ { print; next } /^targets/ { t = 1; print; next } t && /^  / { print; next } { t = 0 }' \
    "$out/$csvname.log" 2>/dev/null | head -n 5 | fold -s -w 146 | sed 's/^/    /'
done
while IFS= read -r line; do skipped+=("$line"); done < <(
  for step in "${steps[@]}"; do
    csv="$out/$(cut -d'|' -f2 <<<"$step").csv"
    [ -f "$csv" ] && grep '^# skipped: ' "$csv" | sed "s/^# skipped: /$(basename "$csv" .csv): /"
  done | grep -v 'no CUDA device' | sort -u | head -n 8)
[ -n "$no_gpu_names" ] && skipped=("GPU columns of $no_gpu_names: $no_gpu_why" "${skipped[@]}")
if [ ${#skipped[@]} -gt 0 ]; then
  echo "skipped:"
  for s in "${skipped[@]}"; do echo "$s" | fold -s -w 150 | sed '1s/^/  /; 2,$s/^/      /'; done
fi
echo "wrote: $out/{$(for step in "${steps[@]}"; do printf '%s,' "$(cut -d'|' -f2 <<<"$step")"; done | sed 's/,$//')}.csv and .log"
if [ ${#charts[@]} -gt 0 ]; then
  echo "charts ($(printf '%s\n' "${charts[@]}" | grep -c '\.png$'), each as .png and .svg):"
  printf '%s\n' "${charts[@]}" | grep '\.png$' | sed 's/^/  /'
fi
echo "the emulator's own speed checks: make bench-emu"
exit $status
