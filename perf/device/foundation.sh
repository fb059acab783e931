#!/usr/bin/env bash
# On the GPU machine: `ppl info` and every test binary on the CUDA backend (issue 2's check).
source perf/device/setup.sh
set -o pipefail
.device/bin/ppl info 2>&1 | tee "$OUT/ppl-info.txt"
.device/bin/ppl run configs/examples/info.yaml --set output="$OUT/ppl-info.json" >/dev/null
status=0
for t in .device/bin/test_*; do
  echo "== $t"
  "$t" --gtest_brief=1 2>&1 | tee "$OUT/$(basename "$t").log" | tail -5 || status=1
done
exit $status
