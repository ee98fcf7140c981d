# simtlab — GB/s by problem size, one line per column of a benchmark's CSV.
# gnuplot -e "csv='build/bench/01_vector_add.csv'; png='build/bench/01_vector_add.png'; \
#             columns='cpu cpu_omp v1 v2 v3 cublas'; title='01 vector add'" bench/plot.gp
set terminal pngcairo size 900,560 noenhanced
set output png
set datafile separator ","
set title title
set logscale x 2
set format x "2^%L"
set xlabel "n (elements)"
set ylabel "GB/s (median)"
set key left top
set grid
plot for [series in columns] sprintf("< grep ',%s,' %s", series, csv) using 1:6 with linespoints title series
