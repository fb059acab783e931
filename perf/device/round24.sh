#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): the final code. test_sparse_krylov on CUDA; perf/device/spmv.sh
# without its tests at 1M and 3M rows; bench_krylov (BiCGSTAB and BiCG + Jacobi with `auto`, 27 per row at 1M and 3M
# rows, 81 per row at 3M); the same BiCGSTAB cases with the Kokkos 4.6 build (`bench_krylov_k46`).
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
gtest_run $bin/test_sparse_krylov test_sparse_krylov-cuda.log
SPMV_SKIP_TESTS=1 PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 PPL_SPMV_PART_TIMEOUT=150 bash perf/device/spmv.sh 2>&1 |
  grep -E "^target|device copy"
for v in k34 k46; do
  exe=$bin/bench_krylov; filter='^bicg[a-z]*/auto/jacobi/cd27/|^bicgstab/auto/jacobi/cd81/rows:3'
  [ $v = k46 ] && exe=$bin/bench_krylov_k46 && filter='^bicgstab/auto/jacobi/cd(27|81)/rows:3'
  echo "-- Kokkos ${v#k}"
  krylov_run krylov-$v $exe "$filter" 1000000,3000000 150
done
cd "$OUT" && tar czf /tmp/round24.tgz . && find . -type f -delete && mv /tmp/round24.tgz .
