#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): BiCGSTAB with the next iteration's direction update queued while the
# host waits for the scalars (pinned memory, an asynchronous copy and a CUDA event), against round19's binary
# (`bench_krylov_before`, commit 9f8c91b) in the same call, alternated twice; the CUDA Krylov tests; a solve job.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== test_sparse_krylov (CUDA)"
gtest_run $bin/test_sparse_krylov test_sparse_krylov-cuda.log
for round in 1 2; do
  for v in before after; do
    exe=$bin/bench_krylov; [ $v = before ] && exe=$bin/bench_krylov_before
    echo "-- $v, round $round"
    krylov_run krylov_${v}_$round $exe '^bicgstab/auto/(jacobi|none)/cd27/' 100000,1000000,3000000 150
  done
done
echo "== solve job"
(cd "$OUT" && timeout 60 "$OLDPWD/$bin/ppl" run "$OLDPWD/configs/examples/solve_cd_1m.yaml" 2>&1 | grep -v "  iteration" |
  tee solve_cd_1m.txt | grep -E "spmv:|outcome|per iteration")
cd "$OUT" && tar czf /tmp/round20.tgz . && find . -type f -delete && mv /tmp/round20.tgz .
