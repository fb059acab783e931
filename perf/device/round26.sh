#!/usr/bin/env bash
# On the GPU machine's CPU (issue 12, the host rule of `auto`): does scalar_avx2 beat scalar on another x86 CPU, and
# what does that machine's THP setting give? OpenMP builds of bench_spmv and bench_krylov (.device/omp/, built here
# from build/openmp): SpMV at 970,299 rows (27 per row) and 985,527 (81 per row) on 1 and 16 threads; BiCGSTAB +
# Jacobi at 970,299 rows on one thread with scalar, scalar_avx2 and auto.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
{ lscpu | head -20; cat /sys/kernel/mm/transparent_hugepage/enabled; } >"$OUT/cpu.txt"
grep -E "Model name|^CPU\(s\)" "$OUT/cpu.txt"; cat /sys/kernel/mm/transparent_hugepage/enabled
for T in 1 16; do
  echo "-- $T threads"; omp_spmv_run spmv-omp-threads$T $T 'scalar|scalar_avx2|auto|kokkos_kernels|vector_t16'
done
OMP_NUM_THREADS=1 krylov_run krylov-omp-1thread .device/omp/bench_krylov \
  '^bicgstab/(scalar|scalar_avx2|auto)/jacobi/cd27/' 970299 200
cd "$OUT" && tar czf /tmp/round26.tgz . && find . -type f -delete && mv /tmp/round26.tgz .
