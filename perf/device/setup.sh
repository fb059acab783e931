#!/usr/bin/env bash
# On the GPU machine (sourced at the start of every perf/device/*.sh): library path, OpenMP threads left unpinned,
# and the repository's data/ folder for the test binaries. Pinning (OMP_PROC_BIND=spread OMP_PLACES=threads, used
# until 2026-12-01) put every OpenMP thread of a process on one core of that machine: an OpenMP BiCG iteration on
# 1,092,727 rows took 103.7 ms on 16 threads, 9.5 ms unpinned (perf/results/round7-h200/host_cpus.txt). Host-side
# numbers measured there before then (verification, cutoff overflow sums, CPU studies) ran on one core.
export LD_LIBRARY_PATH=$PWD/.device/lib:${LD_LIBRARY_PATH:-}
export OMP_PROC_BIND=false
unset OMP_PLACES
export PPL_DATA_DIR=$PWD/data
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv

# What the perf/device scripts run again and again (they call these after setting OUT):
# bench_krylov into $OUT/STEM.json (and .txt), then its summary.    krylov_run STEM EXE FILTER ROWS TIMEOUT
krylov_run() {
  PPL_BENCH_KRYLOV_ROWS=$4 timeout "$5" "$2" --benchmark_filter="$3" --benchmark_report_aggregates_only=true \
    --benchmark_out="$OUT/$1.json" --benchmark_out_format=json >"$OUT/$1.txt" 2>&1 || echo "$1: bench_krylov rc $?"
  python3 perf/device/summarize.py krylov "$OUT/$1.json"
}
# The OpenMP bench_spmv (.device/omp) on THREADS threads at 970,299 rows into $OUT/STEM.json (and .txt), then its
# summary.    omp_spmv_run STEM THREADS STRATEGIES   (STRATEGIES: a regex alternation, e.g. 'scalar|auto')
omp_spmv_run() {
  OMP_NUM_THREADS=$2 PPL_SPMV_ROWS=970299 PPL_SPMV_REPEATS=10 PPL_COPY_GIB=0.25 timeout 150 .device/omp/bench_spmv \
    --kokkos-threads="$2" --benchmark_filter="copy|/($3)/" \
    --benchmark_out="$OUT/$1.json" --benchmark_out_format=json >"$OUT/$1.txt" 2>&1 || echo "$1: bench_spmv rc $?"
  python3 perf/device/summarize.py spmv "$OUT/$1.json"
}
# A GoogleTest binary with a time limit, its log in $OUT/LOG, the last lines printed.   gtest_run EXE LOG [TIMEOUT]
gtest_run() {
  timeout "${3:-150}" "$1" --gtest_brief=1 >"$OUT/$2" 2>&1 || echo "$2: rc $?"
  tail -2 "$OUT/$2"
}
