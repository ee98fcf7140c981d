# simtlab — one chart of a benchmark's CSV (bench/harness.h describes the
# CSV). scripts/bench.sh calls it once per chart and terminal:
#
#   gnuplot -e "csv='build/bench/01_vector_add.csv'; out='build/bench/01_vector_add.png'; \
#               term='png'; title='01 vector add — emulated'; xlabel='n (floats)'; \
#               ylabel='GB/s (median)'; y='6'; logy=1; \
#               series='cpu cpu_omp v1'; labels='CPU, 1 core|CPU, all cores|v1 (emulator: CPU time)'; \
#               marks='65536|GPU wins from here'" bench/plot.gp
#
# subtitle (optional): a second title line, the machine and backend;
# series: the CSV's column names, blank-separated; labels: the legend's text
# for each, '|'-separated, in the same order; y: a column number (3 the
# median ms, 6 the rate) or an expression in parentheses over the row
# ("($3*1000/$1)"; a bare $6 is not valid in a using spec); marks: 'x|label' pairs joined by
# ';' (a dashed vertical line each). x is always n, on a log2 axis.
if (!exists("term")) term = "png"
if (!exists("y")) y = "6"
if (!exists("logy")) logy = 1
if (!exists("labels")) labels = ""
if (!exists("marks")) marks = ""
if (!exists("subtitle")) subtitle = ""
if (!exists("xlabel")) xlabel = "n (elements)"
if (!exists("ylabel")) ylabel = "GB/s (median)"

# The legend goes below the plot, one entry a line, so that long legends
# take height, not the plot's width: the canvas grows by a line per series.
nseries = words(series)
height = 560 + 20 * nseries
if (term eq "svg") {
    set terminal svg size 1150,height dynamic noenhanced font "sans,12"
} else {
    set terminal pngcairo size 1150,height noenhanced font "sans,10"
}
set output out
set datafile separator ","
set title (subtitle eq "" ? title : title . "\n" . subtitle)
set xlabel xlabel
set ylabel ylabel
set logscale x 2
set format x "2^{%L}"
set format x "2^%L"
set autoscale xfix
# Tics where the data are: from the smallest x, every factor xstep.
if (exists("xfirst") && exists("xstep") && xstep > 1) set xtics xfirst, xstep
# One x value (a --quick run): a range around it, not an empty one.
if (exists("xfirst") && exists("xstep") && xstep == 0) set xrange [xfirst / 2.0 : xfirst * 2.0]
set offsets graph 0.02, graph 0.02, 0, 0
# One row in all (rows: bench.sh counts them): a y range around its value.
if (exists("rows") && rows == 1) {
    stats sprintf("< grep -E '^[0-9]+,%s,' '%s'", word(series, 1), csv) using @y nooutput
    if (logy && STATS_min > 0) { set yrange [STATS_min / 2.0 : STATS_min * 2.0] } else { set yrange [STATS_min - 1 : STATS_min + 1] }
}
if (logy) { set logscale y 10; set format y "%g" }
set grid xtics ytics mytics lc rgb "#dddddd"
# The legend below the plot, left-aligned, one entry a line.
set key outside below left vertical Left reverse noautotitle spacing 1.1 maxcols 1 maxrows nseries
set border 3
set tics nomirror

# Sixteen distinct colours and point types (the last four dashed).
set linetype 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.0
set linetype 2 lc rgb "#ff7f0e" lw 2 pt 5 ps 1.0
set linetype 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.2
set linetype 4 lc rgb "#d62728" lw 2 pt 11 ps 1.2
set linetype 5 lc rgb "#9467bd" lw 2 pt 13 ps 1.2
set linetype 6 lc rgb "#8c564b" lw 2 pt 4 ps 1.0
set linetype 7 lc rgb "#e377c2" lw 2 pt 6 ps 1.0
set linetype 8 lc rgb "#7f7f7f" lw 2 pt 8 ps 1.2
set linetype 9 lc rgb "#bcbd22" lw 2 pt 10 ps 1.2
set linetype 10 lc rgb "#17becf" lw 2 pt 12 ps 1.2
set linetype 11 lc rgb "#000000" lw 2 pt 1 ps 1.2
set linetype 12 lc rgb "#aec7e8" lw 2 pt 2 ps 1.2
set linetype 13 lc rgb "#393b79" lw 2 pt 3 ps 1.2 dt 2
set linetype 14 lc rgb "#e7ba52" lw 2 pt 14 ps 1.2 dt 2
set linetype 15 lc rgb "#843c39" lw 2 pt 15 ps 1.2 dt 2
set linetype 16 lc rgb "#31a354" lw 2 pt 7 ps 0.6 dt 2
set linetype cycle 16

# The marks: a dashed line and its label at the top.
nmarks = (marks eq "") ? 0 : words(system("echo '" . marks . "' | tr ';' '\n' | tr ' ' '_' | tr '\n' ' '"))
do for [m = 1:nmarks] {
    pair = system("echo '" . marks . "' | cut -d';' -f" . m)
    mx = real(system("echo '" . pair . "' | cut -d'|' -f1"))
    mtext = system("echo '" . pair . "' | cut -d'|' -f2-")
    set arrow m from mx, graph 0 to mx, graph 1 nohead dt 2 lw 1.5 lc rgb "#444444"
    set label m mtext at mx, graph (0.97 - 0.06 * (m - 1)) right offset -0.5, 0 font ",9" tc rgb "#444444"
}

label_of(i) = (labels eq "") ? word(series, i) : system("echo '" . labels . "' | cut -d'|' -f" . i)
plot for [i = 1:words(series)] \
    sprintf("< grep -E '^[0-9]+,%s,' '%s'", word(series, i), csv) using 1:@y \
    with linespoints lt i title label_of(i)
