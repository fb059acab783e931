#!/usr/bin/env bash
# On the GPU machine's CPU (issue 12): scalar_avx2 with its blocks scheduled dynamically, against scalar and Kokkos
# Kernels (whose host spmv is dynamically scheduled above 10M nonzeros), 970,299 rows at 27 and 81 per row, on 16, 8
# and 1 threads; each thread count twice.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
for T in 16 8 1; do
  for rep in 1 2; do
    echo "-- $T threads, run $rep"; omp_spmv_run spmv-omp-threads$T-$rep $T 'scalar|scalar_avx2|auto|kokkos_kernels'
  done
done
OMP_NUM_THREADS=16 krylov_run krylov-omp-16threads .device/omp/bench_krylov \
  '^bicgstab/(scalar|scalar_avx2|auto|kokkos_kernels)/jacobi/cd27/' 970299 150
cd "$OUT" && tar czf /tmp/round27.tgz . && find . -type f -delete && mv /tmp/round27.tgz .
