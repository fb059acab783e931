#!/usr/bin/env bash
# On the GPU machine's CPU (issue 12), after round28: the ILU(0) set-up of each triangular-solve path (sptrsv's
# level sets are built in it) on 16 threads, and the applications on 8 and 16 threads, at n = 40, 64 and 100 and on
# 2dcyl1 and ani4: whether level scheduling can pay for its set-up on a host build.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
for T in 16 8; do
  echo "-- $T threads"
  filter='apply|spmv'
  [ "$T" = 16 ] && filter='setup|apply|spmv'
  OMP_NUM_THREADS=$T PPL_BENCH_ILU0_N=40,64,100 timeout 280 .device/omp/bench_ilu0 --kokkos-threads=$T \
    --benchmark_filter="$filter" --benchmark_report_aggregates_only=true \
    --benchmark_out="$OUT/ilu0-omp-threads$T.json" --benchmark_out_format=json >"$OUT/ilu0-omp-threads$T.txt" 2>&1 ||
    echo "bench_ilu0 $T threads: rc $?"
  grep median "$OUT/ilu0-omp-threads$T.txt" | awk '{print $1, $2, $3, $7, $11, $12}'
done
cd "$OUT" && tar czf /tmp/round29.tgz . && find . -type f -delete && mv /tmp/round29.tgz .
