#!/usr/bin/env bash
# H200 (issue 12, fourth round): the CUDA Krylov tests after GMRES's fused Gram-Schmidt pass (combine_then_dots),
# then GMRES(30) + Jacobi per iteration with `auto` SpMV before (commit 6c9ebda, bench_krylov_before) and after,
# alternated twice, at 1M and 3M rows.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
gtest_run .device/bin/test_sparse_krylov test_sparse_krylov-cuda.txt 300
for rep in 1 2; do
  for v in before after; do
    exe=.device/bin/bench_krylov
    [ "$v" = before ] && exe=.device/bin/bench_krylov_before
    echo "-- $v, run $rep"
    PPL_BENCH_KRYLOV_ITERS=60 krylov_run gmres-$v-$rep $exe '^gmres/auto/jacobi/cd27/' 1000000,3000000 150
  done
done
cd "$OUT" && tar czf /tmp/round30.tgz . && find . -type f -delete && mv /tmp/round30.tgz .
