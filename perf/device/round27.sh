#!/usr/bin/env bash
# On the GPU machine's CPU (issue 12): scalar_avx2 with its blocks scheduled dynamically, against scalar and Kokkos
# Kernels (whose host spmv is dynamically scheduled above 10M nonzeros), 970,299 rows at 27 and 81 per row, on 16, 8
# and 1 threads; each thread count twice.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
for T in 16 8 1; do
  for rep in 1 2; do
    OMP_NUM_THREADS=$T PPL_SPMV_ROWS=970299 PPL_SPMV_REPEATS=10 PPL_COPY_GIB=0.25 timeout 150 .device/omp/bench_spmv \
      --kokkos-threads=$T --benchmark_filter='copy|/(scalar|scalar_avx2|auto|kokkos_kernels)/' \
      --benchmark_out="$OUT/spmv-omp-threads$T-$rep.json" --benchmark_out_format=json >/dev/null 2>&1 ||
      echo "bench_spmv T=$T rc $?"
    echo "-- $T threads, run $rep"; python3 perf/device/summarize.py spmv "$OUT/spmv-omp-threads$T-$rep.json"
  done
done
OMP_NUM_THREADS=16 krylov_run krylov-omp-16threads .device/omp/bench_krylov \
  '^bicgstab/(scalar|scalar_avx2|auto|kokkos_kernels)/jacobi/cd27/' 970299 150
cd "$OUT" && tar czf /tmp/round27.tgz . && find . -type f -delete && mv /tmp/round27.tgz .
