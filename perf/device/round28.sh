#!/usr/bin/env bash
# On the GPU machine's CPU (issue 12): ILU(0)'s triangular solves, Kokkos Kernels' level-scheduled sptrsv against
# ppl's sequential host loop, on 16, 4 and 1 threads (which path `automatic` should take on a host build), beside
# one SpMV; then the CUDA ILU(0) tests.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
for T in 16 4 1; do
  echo "-- $T threads"
  OMP_NUM_THREADS=$T PPL_BENCH_ILU0_N=64,100 timeout 170 .device/omp/bench_ilu0 --kokkos-threads=$T \
    --benchmark_filter='apply|spmv' --benchmark_report_aggregates_only=true \
    --benchmark_out="$OUT/ilu0-omp-threads$T.json" --benchmark_out_format=json >"$OUT/ilu0-omp-threads$T.txt" 2>&1 ||
    echo "bench_ilu0 $T threads: rc $?"
  grep median "$OUT/ilu0-omp-threads$T.txt" | awk '{print $1, $2, $3}'
done
gtest_run .device/bin/test_sparse_precond test_sparse_precond-cuda.txt 120
cd "$OUT" && tar czf /tmp/round28.tgz . && find . -type f -delete && mv /tmp/round28.tgz .
