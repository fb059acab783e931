#!/usr/bin/env bash
# On the GPU machine, the session's last measuring call (2026-12-01), after the device buffer cache and the ions
# job's job_seconds: test_core (the cache on CUDA) and test_potential_strategies; the PMPP plane end to
# end with the cache (bench_potential end_to_end/, median of 10); the ion target (ions.sh target). Into
# $OUT/round13.tgz.
source perf/device/setup.sh >/dev/null
: "${OUT:?OUT must name the output folder}"
bin=$PWD/.device/bin
for t in test_core test_potential_strategies; do  # test_core when carried
  [ -x "$bin/$t" ] || continue
  timeout 200 "$bin/$t" --gtest_brief=1 >"$OUT/$t.log" 2>&1
  echo "$t: $(grep -E "PASSED|FAILED  \]|SKIPPED  \]" "$OUT/$t.log" | tr '\n' ' ')"
done
BIN="$bin" bash perf/device/end_to_end.sh
IONS_PARTS=target bash perf/device/ions.sh 2>&1 | grep -v "^name\|NVIDIA H200,"
for f in "$OUT"/ions100k-*.json; do
  python3 -c "import json,sys; print(sys.argv[1].split('/')[-1], 'job_seconds %.3f' % json.load(open(sys.argv[1]))['ions']['job_seconds'])" "$f"
done
tar czf /tmp/round13.tgz -C "$OUT" . && find "$OUT" -type f -delete && mv /tmp/round13.tgz "$OUT"/
