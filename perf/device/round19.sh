#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): the final code (auto = stream_cuda on CUDA builds, GPU reductions by
# one wave of teams, portable stream's phase 2 without nested reductions):
#   1. test_sparse_spmv and test_sparse_krylov on CUDA;
#   2. perf/device/spmv.sh without its tests at 1M and 3M rows (every strategy, cuSPARSE, copy);
#   3. bench_vector_ops at 1M and 3M rows;
#   4. bench_krylov: BiCGSTAB and BiCG + Jacobi with auto (the default), vector_cuda and stream_cuda, 27 per row
#      at 1M and 3M rows, 81 per row at 3M rows.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== 1. tests (CUDA)"
for t in test_sparse_spmv test_sparse_krylov; do gtest_run $bin/$t $t-cuda.log; done
echo "== 2. SpMV"
SPMV_SKIP_TESTS=1 PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 PPL_SPMV_PART_TIMEOUT=150 bash perf/device/spmv.sh 2>&1 |
  grep -E "^target|device copy"
echo "== 3. vector kernels"
PPL_SPMV_ROWS=1000000,3000000 PPL_SPMV_REPEATS=30 timeout 90 $bin/bench_vector_ops --benchmark_out="$OUT/vector-ops.json" \
  --benchmark_out_format=json >"$OUT/vector-ops.txt" 2>&1 || echo "vec rc $?"
echo "== 4. bench_krylov"
krylov_run krylov $bin/bench_krylov \
  '^bicg[a-z]*/(auto|vector_cuda|stream_cuda)/jacobi/cd27/|^bicgstab/(auto|vector_cuda|stream_cuda)/jacobi/cd81/rows:3' \
  1000000,3000000 200
cd "$OUT" && tar czf /tmp/round19.tgz . && find . -type f -delete && mv /tmp/round19.tgz .
