#!/usr/bin/env bash
# On the GPU machine, in one call (issue 12): BiCGSTAB with the next iteration's direction update queued while the
# host waits for the scalars (pinned memory, an asynchronous copy and a CUDA event), against round19's binary
# (`bench_krylov_before`, commit 9f8c91b) in the same call, alternated twice; the CUDA Krylov tests; a solve job.
source perf/device/setup.sh >/dev/null
set -o pipefail
: "${OUT:?OUT must name the output folder}"
bin=.device/bin
echo "== test_sparse_krylov (CUDA)"
timeout 150 $bin/test_sparse_krylov --gtest_brief=1 >"$OUT/test_sparse_krylov-cuda.log" 2>&1 || echo "tests rc $?"
tail -2 "$OUT/test_sparse_krylov-cuda.log"
for round in 1 2; do
  for v in before after; do
    exe=$bin/bench_krylov; [ $v = before ] && exe=$bin/bench_krylov_before
    PPL_BENCH_KRYLOV_ROWS=100000,1000000,3000000 timeout 150 $exe \
      --benchmark_filter='^bicgstab/auto/(jacobi|none)/cd27/' --benchmark_report_aggregates_only=true \
      --benchmark_out="$OUT/krylov_${v}_$round.json" --benchmark_out_format=json >"$OUT/krylov_${v}_$round.txt" 2>&1 ||
      echo "krylov $v $round rc $?"
    echo "-- $v, round $round"
    python3 perf/device/summarize.py krylov "$OUT/krylov_${v}_$round.json"
  done
done
echo "== solve job"
(cd "$OUT" && timeout 60 "$OLDPWD/$bin/ppl" run "$OLDPWD/configs/examples/solve_cd_1m.yaml" 2>&1 | grep -v "  iteration" |
  tee solve_cd_1m.txt | grep -E "spmv:|outcome|per iteration")
cd "$OUT" && tar czf /tmp/round20.tgz . && find . -type f -delete && mv /tmp/round20.tgz .
