# simtlab — the rate (GB/s, or GFLOP/s for a chapter that counts flops) by
# problem size, one line per column of a benchmark's CSV (bench/harness.h).
# gnuplot -e "csv='build/bench/01_vector_add.csv'; png='build/bench/01_vector_add.png'; \
#             columns='cpu cpu_omp copy_d2d v1 v2 v3 cublas'; title='01 vector add'; \
#             unit='GB/s'" bench/plot.gp
if (!exists("unit")) unit = "GB/s"
set terminal pngcairo size 900,560 noenhanced
set output png
set datafile separator ","
set title title
set logscale x 2
set format x "2^%L"
set xlabel "n (elements)"
set ylabel unit." (median)"
set key left top
set grid
plot for [series in columns] sprintf("< grep ',%s,' %s", series, csv) using 1:6 with linespoints title series
